//! The pixel shaders of a creosote bush, of a Joshua tree's limb and
//! cluster of leaves, and of a part of a shadow, [`LANES`] pixels of a row at a time, written once
//! and compiled for every [`Build`](crate::base::simd::Build). Each lane
//! works out its pixel with the operations of the per-pixel reference
//! (`draw::bush`, `draw::limb`, `draw::rosette`, `parts::umbra`), in the
//! same order, so the bits are the same: where the reference returns
//! early, a lane works on and its result is dropped.

use super::parts::{
    Bush, Limb, Look, Rosette, SECTORS, Umbra, diamond, segment_distance, thin, umbra,
};
use crate::base::color::{Linear, mix, scale};
use crate::base::noise::{TILE_SIDE, noise_tile};
use crate::base::simd::Build;

/// Pixels a shader works on at once, the lanes of an AVX2 register: its
/// loops over lanes compile to SIMD.
pub(super) const LANES: usize = 8;

/// The noise tile as an array, so that a lookup by a masked index needs
/// no bounds check (which would keep a loop from being vectorized).
pub(super) type Tile = [f32; TILE_SIDE * TILE_SIDE];

/// [`noise_tile`] as a [`Tile`].
pub(super) fn tile() -> &'static Tile {
    noise_tile().try_into().expect("the noise tile")
}

/// [`crate::base::math::floor_i32`], the same value for every `x`, written so that a
/// loop of it vectorizes: `as i32` saturates (a NaN is 0), which LLVM
/// turned into a scalar conversion and two branches a lane (a sixth of a
/// bush's time). Here the conversion is of a value in range, and the
/// saturation a select.
#[inline(always)]
fn floor_i32(x: f32) -> i32 {
    let within = x.abs() < 2_147_483_648.0;
    // SAFETY: `t` is finite and within (-2^31, 2^31), so its truncation
    // is an `i32`.
    let t = unsafe { (if within { x } else { 0.0 }).to_int_unchecked::<i32>() };
    let i = if within {
        t
    } else if x > 0.0 {
        i32::MAX
    } else if x < 0.0 {
        i32::MIN
    } else {
        0
    };
    i - i32::from((i as f32) > x)
}

/// `draw::value2` of each lane's point (`x`, `y`): the same operations.
/// (AVX2's gather fetched the lookups no faster than a load a lane.)
#[inline(always)]
fn value2_lanes(tile: &Tile, x: &[f32; LANES], y: &[f32; LANES], seed: u32) -> [f32; LANES] {
    let mask = TILE_SIDE as i32 - 1;
    let (mut tx, mut ty) = ([0.0; LANES], [0.0; LANES]);
    let mut at = [[0u32; LANES]; 4];
    for l in 0..LANES {
        let (ix, iy) = (floor_i32(x[l]), floor_i32(y[l]));
        (tx[l], ty[l]) = (x[l] - ix as f32, y[l] - iy as f32);
        let (ix, iy) = (
            ix.wrapping_add(seed as i32),
            iy.wrapping_add((seed >> 8) as i32),
        );
        let (i0, i1) = ((ix & mask) as u32, (ix.wrapping_add(1) & mask) as u32);
        let (j0, j1) = (
            (iy & mask) as u32 * TILE_SIDE as u32,
            (iy.wrapping_add(1) & mask) as u32 * TILE_SIDE as u32,
        );
        at[0][l] = j0 + i0;
        at[1][l] = j0 + i1;
        at[2][l] = j1 + i0;
        at[3][l] = j1 + i1;
    }
    // (Loops, not `map`: a closure left out of line runs without AVX2.)
    let mut corners = [[0.0; LANES]; 4];
    for (v, at) in corners.iter_mut().zip(&at) {
        for l in 0..LANES {
            v[l] = tile[at[l] as usize % tile.len()];
        }
    }
    let [v00, v10, v01, v11] = corners;
    std::array::from_fn(|l| {
        let (tx, ty) = (tx[l], ty[l]);
        let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
        let top = v00[l] + (v10[l] - v00[l]) * sx;
        let bottom = v01[l] + (v11[l] - v01[l]) * sx;
        0.5 + 0.5 * (top + (bottom - top) * sy)
    })
}

/// Lays a bush's pixels on row `py` (the pixels' middle), from column `a`
/// on, over `paint` (one colour and coverage a pixel, premultiplied), as
/// the reference lays `draw::bush`'s. Whether any pixel was touched.
pub(super) fn bush_row(
    build: Build,
    bush: &Bush,
    look: &Look,
    py: f32,
    a: u32,
    paint: &mut [[f32; 4]],
) -> bool {
    match build {
        // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        Build::Avx2 => unsafe { bush_row_avx2(bush, look, py, a, paint) },
        Build::Portable => bush_row_any(bush, look, py, a, paint),
    }
}

/// [`bush_row`] compiled for AVX2: twice the lanes of the baseline, the
/// same operations (no fused multiply-add), so the same pixels.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn bush_row_avx2(bush: &Bush, look: &Look, py: f32, a: u32, paint: &mut [[f32; 4]]) -> bool {
    bush_row_any(bush, look, py, a, paint)
}

/// Darkens `dark` (a pixel's darkest shadow so far, from column `a` on)
/// where the shadow's part `u` is darker, `depth` pixels of depth from the
/// plant's foot. Whether it darkened any.
pub(super) fn umbra_row(build: Build, u: &Umbra, depth: f32, a: u32, dark: &mut [f32]) -> bool {
    match build {
        // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        Build::Avx2 => unsafe { umbra_row_avx2(u, depth, a, dark) },
        Build::Portable => umbra_row_any(u, depth, a, dark),
    }
}

/// [`umbra_row`] compiled for AVX2 (see [`bush_row_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn umbra_row_avx2(u: &Umbra, depth: f32, a: u32, dark: &mut [f32]) -> bool {
    umbra_row_any(u, depth, a, dark)
}

#[inline(always)]
fn umbra_row_any(u: &Umbra, depth: f32, a: u32, dark: &mut [f32]) -> bool {
    let mut any = false;
    for (k, chunk) in dark.chunks_mut(LANES).enumerate() {
        let x0 = a as usize + k * LANES;
        let v: [f32; LANES] =
            std::array::from_fn(|l| umbra(u, (x0 + l) as i32 as f32 + 0.5, depth));
        for (l, d) in chunk.iter_mut().enumerate() {
            if v[l] > *d {
                *d = v[l];
                any = true;
            }
        }
    }
    any
}

/// Lays a cluster of leaves' pixels on row `py` from column `a` on over
/// `paint`, as [`bush_row`] does a bush's.
pub(super) fn rosette_row(
    build: Build,
    r: &Rosette,
    py: f32,
    a: u32,
    paint: &mut [[f32; 4]],
) -> bool {
    match build {
        // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        Build::Avx2 => unsafe { rosette_row_avx2(r, py, a, paint) },
        Build::Portable => rosette_row_any(r, py, a, paint),
    }
}

/// [`rosette_row`] compiled for AVX2 (see [`bush_row_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rosette_row_avx2(r: &Rosette, py: f32, a: u32, paint: &mut [[f32; 4]]) -> bool {
    rosette_row_any(r, py, a, paint)
}

/// Each lane looks at the spikes of its own pixel's list, in the
/// reference's order (a list is in order of the spikes): the spikes of
/// any lane's list are gone through in order, each lane taking those of
/// its own.
#[inline(always)]
fn rosette_row_any(r: &Rosette, py: f32, a: u32, paint: &mut [[f32; 4]]) -> bool {
    let dy = py - r.c[1];
    let reach = (r.r + 1.0) * (r.r + 1.0);
    let every = u32::MAX
        .checked_shr(32 - r.spikes.len() as u32)
        .unwrap_or(0);
    let mut any = false;
    for (k, chunk) in paint.chunks_mut(LANES).enumerate() {
        let x0 = a as usize + k * LANES;
        let mut dx = [0.0; LANES];
        let mut best = [0.0; LANES];
        let mut inside = [false; LANES];
        let mut sector = [0usize; LANES];
        let mut near = [false; LANES];
        let mut all = [false; LANES];
        for l in 0..LANES {
            dx[l] = (x0 + l) as i32 as f32 + 0.5 - r.c[0];
            let rho2 = dx[l] * dx[l] + dy * dy;
            let beyond = rho2 > reach;
            inside[l] = !beyond;
            let rho = rho2.sqrt();
            best[l] = (0.3 * r.r + 0.5 - rho).clamp(0.0, 1.0);
            all[l] = rho < 0.5 * r.inner;
            near[l] = rho < r.inner;
            sector[l] = sector_of(diamond(dx[l], dy) * (SECTORS as f32 / 4.0));
        }
        if !some(&inside) {
            continue;
        }
        let mut lists = [0u32; LANES];
        for l in 0..LANES {
            lists[l] = if !inside[l] {
                0
            } else if all[l] {
                every
            } else if near[l] {
                r.near_bits[sector[l]]
            } else {
                r.sector_bits[sector[l]]
            };
        }
        // The spike each lane takes its colour from (none: the core's),
        // chosen without branches so that the lanes' loop vectorizes.
        const CORE: u32 = u32::MAX;
        let mut take = [CORE; LANES];
        let mut union = lists.iter().fold(0, |u, &s| u | s);
        while union != 0 {
            let i = union.trailing_zeros();
            union &= union - 1;
            let s = &r.spikes[i as usize];
            for l in 0..LANES {
                let along = dx[l] * s.e[0] + dy * s.e[1];
                let across = (dx[l] * s.e[1] - dy * s.e[0]).abs();
                let hw = s.w * (1.0 - along * s.inv_len).max(0.0);
                let cov = thin(across, 2.0 * hw);
                // (`&` and `|`, not `&&` and `||`: no branches.)
                let on = ((lists[l] >> i) & 1 != 0) & !((along <= 0.0) | (along >= s.len + 0.5));
                let better = on & (cov > best[l]);
                best[l] = if better { cov } else { best[l] };
                take[l] = if better { i } else { take[l] };
            }
        }
        let mut color = [r.core; LANES];
        for l in 0..LANES {
            if take[l] != CORE {
                color[l] = r.spikes[take[l] as usize].color;
            }
            best[l] = if inside[l] { best[l] } else { 0.0 };
        }
        any |= lay(chunk, &color, &best);
    }
    any
}

/// `(v as usize).min(SECTORS - 1)`, the reference's sector, written as
/// [`floor_i32`] is so that a loop of it vectorizes.
#[inline(always)]
fn sector_of(v: f32) -> usize {
    let within = (v > 0.0) & (v < SECTORS as f32);
    // SAFETY: `t` is finite and within 0..SECTORS, so its truncation is an
    // `i32`.
    let t = unsafe { (if within { v } else { 0.0 }).to_int_unchecked::<i32>() };
    // (At or past the last sector, the last; not above naught or NaN, 0.)
    (if v >= SECTORS as f32 {
        SECTORS as i32 - 1
    } else {
        t
    }) as usize
}

/// Lays a limb's pixels on row `py` from column `a` on over `paint`, as
/// [`bush_row`] does a bush's.
pub(super) fn limb_row(
    build: Build,
    limb: &Limb,
    look: &Look,
    py: f32,
    a: u32,
    paint: &mut [[f32; 4]],
) -> bool {
    match build {
        // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        Build::Avx2 => unsafe { limb_row_avx2(limb, look, py, a, paint) },
        Build::Portable => limb_row_any(limb, look, py, a, paint),
    }
}

/// [`limb_row`] compiled for AVX2 (see [`bush_row_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn limb_row_avx2(limb: &Limb, look: &Look, py: f32, a: u32, paint: &mut [[f32; 4]]) -> bool {
    limb_row_any(limb, look, py, a, paint)
}

#[inline(always)]
fn limb_row_any(l: &Limb, look: &Look, py: f32, a: u32, paint: &mut [[f32; 4]]) -> bool {
    let tile = tile();
    let ground = ((l.ground - py) + 0.5).clamp(0.0, 1.0);
    // (A row below the ground is covered nowhere.)
    if ground <= 0.0 {
        return false;
    }
    let bark = [0.06, 0.05, 0.038];
    let thatch = [0.26, 0.2, 0.12];
    let mut any = false;
    for (k, chunk) in paint.chunks_mut(LANES).enumerate() {
        let x0 = a as usize + k * LANES;
        let mut cov = [0.0; LANES];
        let mut color = [[0.0; 3]; LANES];
        // Dead leaves hang along it: a frayed edge, streaked up and down.
        let mut seg = [(0.0, 0.0, [0.0; 2]); LANES];
        let mut r = [0.0; LANES];
        let mut fibre = [0.0; LANES];
        let mut at = [[0.0; LANES]; 4];
        for l_ in 0..LANES {
            let p = [(x0 + l_) as i32 as f32 + 0.5, py];
            seg[l_] = segment_distance(p, l.a, l.b);
            r[l_] = l.ra + (l.rb - l.ra) * seg[l_].1;
            fibre[l_] = (0.3 * r[l_]).max(0.6);
            at[0][l_] = p[0] / fibre[l_];
            at[1][l_] = p[1] / (2.5 * fibre[l_]);
            at[2][l_] = p[0] / fibre[l_] + 17.0;
            at[3][l_] = p[1] / (4.0 * fibre[l_]);
        }
        // (The streaks only colour: a chunk the limb does not cover
        // skips them and the light.)
        let n = value2_lanes(tile, &at[0], &at[1], l.seed);
        let mut rr = [0.0; LANES];
        for l_ in 0..LANES {
            let dist = seg[l_].0;
            rr[l_] = r[l_] * (0.82 + 0.36 * n[l_]);
            let c = thin(dist, 2.0 * rr[l_]) * ground;
            // (Beyond the frayed edge's reach, nothing.)
            let frayed = dist >= 1.18 * r[l_] + 0.5;
            cov[l_] = if !frayed & (c > 0.0) { c } else { 0.0 };
        }
        if !cov.iter().any(|&c| c > 0.0) {
            continue;
        }
        let streak = value2_lanes(tile, &at[2], &at[3], l.seed ^ 0x51);
        for l_ in 0..LANES {
            let (_, _, e) = seg[l_];
            let rr = rr[l_];
            let inv = 1.0 / rr.max(1e-3);
            let (nx, ny) = (
                (e[0] * inv).clamp(-1.0, 1.0),
                (-e[1] * inv).clamp(-1.0, 1.0),
            );
            let nz = (1.0 - nx * nx - ny * ny).max(0.0).sqrt();
            let albedo = mix(bark, thatch, (l.thatch * (0.4 + 0.9 * streak[l_])).min(1.0));
            let open = 0.55 + 0.45 * n[l_];
            color[l_] = look.shade(scale(albedo, open + 0.2), [nx, ny, nz], open);
        }
        any |= lay(chunk, &color, &cov);
    }
    any
}

/// Whether any lane is set.
#[inline(always)]
fn some(m: &[bool; LANES]) -> bool {
    m.iter().fold(false, |a, &m| a | m)
}

/// Lays the lanes' colours over `paint` by their coverage, where it is
/// more than none, as the reference lays a pixel's. Whether any was.
#[inline(always)]
fn lay(chunk: &mut [[f32; 4]], color: &[Linear; LANES], cov: &[f32; LANES]) -> bool {
    let mut any = false;
    for (l, o) in chunk.iter_mut().enumerate() {
        let cov = cov[l];
        if cov > 0.0 {
            let color = color[l];
            let keep = 1.0 - cov;
            *o = [
                o[0] * keep + color[0] * cov,
                o[1] * keep + color[1] * cov,
                o[2] * keep + color[2] * cov,
                o[3] * keep + cov,
            ];
            any = true;
        }
    }
    any
}

#[inline(always)]
fn bush_row_any(b: &Bush, look: &Look, py: f32, a: u32, paint: &mut [[f32; 4]]) -> bool {
    // The row's terms, as the reference works them out a pixel.
    let v = (b.foot[1] - py) / b.ht;
    if !(-0.02..=1.12).contains(&v) {
        return false;
    }
    let lean = b.lean * v * v;
    let cy = (v - 0.52) / 0.5;
    let sharp = (0.05 * b.ht).max(1.0);
    let edge = 0.29 - 0.5 / sharp;
    let out = |e: f32| (1.0 - e) * 2.4 + 1.25 * b.grain < edge;
    let ly = py * b.leaf;
    let ny = (cy * 0.8).clamp(-1.0, 1.0);
    let low = 0.6 + 0.4 * v.clamp(0.0, 1.0);
    let stems = v < 0.45;
    let px = 1.0 / b.ht;
    let w = (0.035 * b.ht).max(0.5);
    let reach = 1.01 * (0.5 * w + 0.5) * px + 1e-5;
    let tile = tile();
    let mut any = false;
    for (k, chunk) in paint.chunks_mut(LANES).enumerate() {
        let x0 = a as usize + k * LANES;
        let xs: [f32; LANES] = std::array::from_fn(|l| (x0 + l) as i32 as f32 + 0.5);
        let mut u = [0.0; LANES];
        let mut round = [0.0; LANES];
        let mut near = [false; LANES];
        for l in 0..LANES {
            u[l] = (xs[l] - b.foot[0] - lean) / b.hw;
            round[l] = (u[l] * u[l] + cy * cy).sqrt();
            let wide = u[l].abs() > 1.3;
            // (`&` and `|`, not `&&` and `||`, in the lanes' loops: no
            // branches, so that they vectorize.)
            near[l] = !wide & !out(round[l] - 0.16);
        }
        // A chunk wholly out of the crown, on a row above the stems, is
        // left as it is.
        if !stems && !near.iter().any(|&n| n) {
            continue;
        }
        // The crown: a rounded dome over the stems, its outline ragged,
        // leaves in tufts.
        let mut at = [[0.0; LANES]; 6];
        for l in 0..LANES {
            let lx = xs[l] * b.leaf;
            at[0][l] = u[l] * 2.6 + 5.0;
            at[1][l] = v * 2.6;
            at[2][l] = 0.87 * lx - 0.5 * ly;
            at[3][l] = 0.5 * lx + 0.87 * ly;
            at[4][l] = 1.3 * lx + 1.55 * ly;
            at[5][l] = 1.55 * lx - 1.3 * ly;
        }
        // The noise is looked up only for a chunk that needs it: the
        // outline's where a lane is near the crown, the leaves' where a
        // lane is in it (the other lanes' values are dropped).
        let mut crown = [0.0; LANES];
        let mut leaves = [0.0; LANES];
        if some(&near) {
            let ragged = value2_lanes(tile, &at[0], &at[1], b.seed);
            let mut e = [0.0; LANES];
            let mut inside = [false; LANES];
            for l in 0..LANES {
                e[l] = round[l] + 0.3 * (ragged[l] - 0.5);
                inside[l] = near[l] & !out(e[l]);
            }
            if some(&inside) {
                let tufts = value2_lanes(tile, &at[2], &at[3], b.seed ^ 0xa1);
                let finer = value2_lanes(tile, &at[4], &at[5], b.seed ^ 0xa2);
                for l in 0..LANES {
                    let n = tufts[l] + 0.6 * finer[l] - 0.8;
                    let density = (1.0 - e[l]) * 2.4 + n * 1.5 * b.grain;
                    // (Worked out in every lane, then chosen: no branches.)
                    let c = ((density - 0.3) * sharp + 0.5).clamp(0.0, 1.0);
                    leaves[l] = if inside[l] { n } else { 0.0 };
                    crown[l] = if inside[l] { c } else { 0.0 };
                }
            }
        }
        // The stems, fanning out from the foot into the crown.
        let mut stem = [0.0f32; LANES];
        if stems {
            for l in 0..LANES {
                let q = [(xs[l] - b.foot[0]) / b.ht, v];
                for (s, n) in b.stems.iter().zip(&b.across) {
                    let skip = (q[0] * n[0] + q[1] * n[1]).abs() > reach;
                    let tip = [s[0] * b.hw / b.ht, s[1]];
                    let d = segment_distance(q, [0.0, 0.0], tip).0 / px;
                    stem[l] = if skip {
                        stem[l]
                    } else {
                        stem[l].max(thin(d, w))
                    };
                }
            }
        }
        // Lit, and laid over what is there (a chunk with nothing to lay
        // is not lit).
        let mut cov = [0.0; LANES];
        for l in 0..LANES {
            let c = crown[l] + stem[l] * (1.0 - crown[l]);
            let (wide, bare) = (u[l].abs() > 1.3, (crown[l] <= 0.0) & (stem[l] <= 0.0));
            let seen = !(wide | bare);
            cov[l] = if seen { c } else { 0.0 };
        }
        if !cov.iter().any(|&c| c > 0.0) {
            continue;
        }
        let mut color = [[0.0; 3]; LANES];
        let mut nx = [0.0; LANES];
        for l in 0..LANES {
            nx[l] = (u[l] * 0.9).clamp(-1.0, 1.0);
            let nz = (1.0 - nx[l] * nx[l] - ny * ny).max(0.0).sqrt();
            let open = (0.45 + 0.55 * (leaves[l] + 0.5) * b.grain + 0.3 * (1.0 - b.grain))
                .clamp(0.2, 1.0)
                * low;
            color[l] = look.shade(scale(b.albedo, 0.7 + 0.3 * open), [nx[l], ny, nz], open);
        }
        // The wood, where a stem shows (only on the stems' rows).
        if stems {
            for l in 0..LANES {
                let wood = look.shade(b.stem, [nx[l], 0.0, 0.8], 0.5);
                let c = crown[l] + stem[l] * (1.0 - crown[l]);
                let mixed = mix(wood, color[l], crown[l] / c.max(1e-6));
                color[l] = if stem[l] <= 0.0 {
                    color[l]
                } else if crown[l] <= 0.0 {
                    wood
                } else {
                    mixed
                };
            }
        }
        any |= lay(chunk, &color, &cov);
    }
    any
}
