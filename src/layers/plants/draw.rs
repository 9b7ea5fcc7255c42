//! The plants prepared for one picture, and drawing a band of them: each
//! plant filed under the bands its body or shadow touches, drawn far to
//! near, its shadow on the ground first, then its body. A pixel's colour
//! depends only on its position and the prepared plants, so a window draws
//! as the whole picture does.

use super::Plants;
use super::kernels::{self, Tile};
use super::parts::{
    Bush, Limb, Look, Part, Plant, Rosette, SECTORS, Spike, diamond, segment_distance, thin, umbra,
};
use super::place::Placer;
use crate::base::color::{Linear, mix, scale};
use crate::base::math;
use crate::base::noise::TILE_SIDE;
use crate::base::simd::Build;
use crate::layers::{BAND_ROWS, Band, Draw, Frame};

/// The plants prepared for one picture.
pub(crate) struct PlantsDraw {
    opacity: f32,
    plants: Vec<Plant>,
    /// Per band of [`BAND_ROWS`] rows, the plants that touch it, far to
    /// near.
    bands: Vec<Vec<u32>>,
}

impl PlantsDraw {
    pub(super) fn new(settings: &Plants, f: &Frame) -> PlantsDraw {
        let plants = if settings.visible {
            Placer::new(settings, f).plants()
        } else {
            Vec::new()
        };
        PlantsDraw::of(plants, settings.opacity, f)
    }

    /// `plants` (far to near) prepared for the picture of `f`, drawn at
    /// `opacity`.
    pub(super) fn of(plants: Vec<Plant>, opacity: f32, f: &Frame) -> PlantsDraw {
        let count = (f.height as usize).div_ceil(BAND_ROWS as usize);
        let mut bands = vec![Vec::new(); count];
        let last = f.height as i32 - 1;
        for (i, plant) in plants.iter().enumerate() {
            let [x0, y0, x1, y1] = union(plant.body, plant.shade);
            if x1 <= 0 || x0 >= f.width as i32 || y1 <= 0 || y0 > last {
                continue;
            }
            let (b0, b1) = (
                y0.max(0) as u32 / BAND_ROWS,
                (y1 - 1).min(last).max(0) as u32 / BAND_ROWS,
            );
            for band in &mut bands[b0 as usize..=b1 as usize] {
                band.push(i as u32);
            }
        }
        PlantsDraw {
            opacity,
            plants,
            bands,
        }
    }
}

fn union(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

impl Draw for PlantsDraw {
    fn touches(&self, y0: u32, y1: u32) -> bool {
        let (b0, b1) = (y0 / BAND_ROWS, y1.div_ceil(BAND_ROWS));
        self.opacity > 0.0
            && (b0..b1).any(|b| self.bands.get(b as usize).is_some_and(|l| !l.is_empty()))
    }

    fn draw(&self, band: &mut Band) {
        self.draw_with(band, Some(Build::best()));
    }
}

impl PlantsDraw {
    /// Draws the plants on `band`, the shadows and parts by the shaders of
    /// `build`
    /// ([`kernels`]), or pixel by pixel (`None`: the reference they are
    /// checked against).
    pub(super) fn draw_with(&self, band: &mut Band, build: Option<Build>) {
        let Some(list) = self.bands.get(band.index) else {
            return;
        };
        if self.opacity <= 0.0 {
            return;
        }
        let mut dark: Vec<f32> = Vec::new();
        let mut paint: Vec<[f32; 4]> = Vec::new();
        for &i in list {
            let plant = &self.plants[i as usize];
            shadow(plant, band, self.opacity, build, &mut dark);
            body(plant, band, self.opacity, build, &mut paint);
        }
    }
}

/// The rows of box `b` in the band, and its columns there (empty if the
/// box misses the band).
fn clip(b: [i32; 4], band: &Band) -> (std::ops::Range<u32>, u32, u32) {
    let y0 = b[1].max(band.y0 as i32) as u32;
    let y1 = (b[3].max(0) as u32).min(band.y1());
    let x0 = b[0].max(band.x0 as i32) as u32;
    let x1 = (b[2].max(0) as u32).min(band.x1());
    (y0..y1.max(y0), x0, x1.max(x0))
}

/// Darkens the ground under the plant's shadow: the darkest of its parts'
/// shadows at each pixel, once.
fn shadow(plant: &Plant, band: &mut Band, opacity: f32, build: Option<Build>, dark: &mut Vec<f32>) {
    let (rows, x0, x1) = clip(plant.shade, band);
    if x0 >= x1 || plant.shadow <= 0.0 {
        return;
    }
    let k = plant.shadow * opacity;
    // The buffer is cleared once, then a row clears only the columns the
    // row before it went through (`lo..hi`): a row of a wide shadow
    // touches few of them.
    dark.clear();
    dark.resize((x1 - x0) as usize, 0.0);
    let (mut lo, mut hi) = (0, 0);
    for y in rows {
        if lo < hi {
            dark[lo..hi].fill(0.0);
        }
        (lo, hi) = (usize::MAX, 0);
        let py = y as f32 + 0.5;
        let depth = (py - plant.foot) / plant.flat;
        let mut any = false;
        for (b, u) in &plant.umbrae {
            if (y as i32) < b[1] || (y as i32) >= b[3] {
                continue;
            }
            let Some((a, b)) = columns(b, x0, x1, row_span(u.a, u.b, u.r + u.soft, depth)) else {
                continue;
            };
            let (a_, b_) = ((a - x0) as usize, (b - x0) as usize);
            (lo, hi) = (lo.min(a_), hi.max(b_));
            let row = &mut dark[a_..b_];
            if let Some(build) = build {
                any |= kernels::umbra_row(build, u, depth, a, row);
                continue;
            }
            for (x, d) in (a..b).zip(row) {
                let v = umbra(u, x as f32 + 0.5, depth);
                if v > *d {
                    *d = v;
                    any = true;
                }
            }
        }
        if !any {
            continue;
        }
        let start = band.at(x0 + lo as u32, y);
        if let Some(depth) = band.depth.as_ref() {
            // In one ground the shadow lies on the ground as deep as its
            // row there: what stands nearer hides it.
            let key = plant.key + (py - plant.foot);
            let px = &mut band.px[start..start + (hi - lo)];
            for (i, (c, &d)) in (start..).zip(px.iter_mut().zip(&dark[lo..hi])) {
                if d > 0.0 && depth.shows(i, key, REACH) {
                    *c = scale(*c, 1.0 - k * d);
                }
            }
            continue;
        }
        let span = band.span(y, x0 + lo as u32, x0 + hi as u32);
        for (c, &d) in span.iter_mut().zip(&dark[lo..hi]) {
            if d > 0.0 {
                *c = scale(*c, 1.0 - k * d);
            }
        }
    }
}

/// How far a plant's body, or its shadow, reaches under where it lies on
/// the ground (px): the sand it may be drawn over is this much nearer.
const REACH: f32 = 2.0;

/// The columns of box `b` within `x0..x1` and the span `xa..xb` (px) of
/// a row (none if empty).
#[inline]
fn columns(b: &[i32; 4], x0: u32, x1: u32, span: Option<(f32, f32)>) -> Option<(u32, u32)> {
    let (xa, xb) = span?;
    let a = (b[0] as f32).max(xa.floor()).max(x0 as f32) as u32;
    let b = (b[2] as f32).min(xb.ceil() + 1.0).min(x1 as f32).max(0.0) as u32;
    (a < b).then_some((a, b))
}

/// Where along row `y` points lie within `r` of the segment `a`–`b`: from
/// the part of the segment within `r` of the row, `r` either side.
#[inline]
fn row_span(a: [f32; 2], b: [f32; 2], r: f32, y: f32) -> Option<(f32, f32)> {
    let dy = b[1] - a[1];
    let (t0, t1) = if dy.abs() < 1e-6 {
        if (y - a[1]).abs() > r {
            return None;
        }
        (0.0, 1.0)
    } else {
        let (t0, t1) = ((y - r - a[1]) / dy, (y + r - a[1]) / dy);
        (t0.min(t1).max(0.0), t0.max(t1).min(1.0))
    };
    if t0 > t1 {
        return None;
    }
    let (xa, xb) = (a[0] + (b[0] - a[0]) * t0, a[0] + (b[0] - a[0]) * t1);
    Some((xa.min(xb) - r, xa.max(xb) + r))
}

/// Paints the plant's body: its parts laid over each other in order, then
/// the whole over the band.
fn body(
    plant: &Plant,
    band: &mut Band,
    opacity: f32,
    build: Option<Build>,
    paint: &mut Vec<[f32; 4]>,
) {
    let (rows, x0, x1) = clip(plant.body, band);
    if x0 >= x1 {
        return;
    }
    // (Cleared as [`shadow`]'s buffer is.)
    paint.clear();
    paint.resize((x1 - x0) as usize, [0.0; 4]);
    let (mut lo, mut hi) = (0, 0);
    for y in rows {
        if lo < hi {
            paint[lo..hi].fill([0.0; 4]);
        }
        (lo, hi) = (usize::MAX, 0);
        let py = y as f32 + 0.5;
        let mut any = false;
        for (b, part) in &plant.parts {
            if (y as i32) < b[1] || (y as i32) >= b[3] {
                continue;
            }
            let span = match part {
                // (The frayed edge reaches 1.18 radii out.)
                Part::Limb(l) => row_span(l.a, l.b, 1.18 * l.ra.max(l.rb) + 0.5, py),
                _ => Some((f32::MIN, f32::MAX)),
            };
            let Some((a, b)) = columns(b, x0, x1, span) else {
                continue;
            };
            (lo, hi) = (lo.min((a - x0) as usize), hi.max((b - x0) as usize));
            if let Some(build) = build {
                let row = &mut paint[(a - x0) as usize..(b - x0) as usize];
                match part {
                    Part::Bush(bush) => {
                        any |= kernels::bush_row(build, bush, &plant.look, py, a, row);
                        continue;
                    }
                    Part::Limb(limb) => {
                        any |= kernels::limb_row(build, limb, &plant.look, py, a, row);
                        continue;
                    }
                    Part::Rosette(rosette) => {
                        any |= kernels::rosette_row(build, rosette, py, a, row);
                        continue;
                    }
                }
            }
            for x in a..b {
                let p = [x as f32 + 0.5, py];
                let (color, cov) = match part {
                    Part::Limb(l) => limb(l, p, &plant.look),
                    Part::Rosette(r) => rosette(r, p),
                    Part::Bush(b) => bush(b, p, &plant.look),
                };
                if cov > 0.0 {
                    let o = &mut paint[(x - x0) as usize];
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
        }
        if !any {
            continue;
        }
        let lay = |c: &mut Linear, o: &[f32; 4]| {
            let keep = 1.0 - o[3] * opacity;
            *c = [
                c[0] * keep + o[0] * opacity,
                c[1] * keep + o[1] * opacity,
                c[2] * keep + o[2] * opacity,
            ];
        };
        let start = band.at(x0 + lo as u32, y);
        if let Some(depth) = band.depth.as_mut() {
            // In one ground, only where nothing nearer stands; and what it
            // covers hides what stands behind it.
            let px = &mut band.px[start..start + (hi - lo)];
            for (i, (c, o)) in (start..).zip(px.iter_mut().zip(&paint[lo..hi])) {
                if o[3] > 0.0 && depth.shows(i, plant.key, REACH) {
                    lay(c, o);
                    if o[3] * opacity >= 0.5 {
                        depth.cover(i, plant.key);
                    }
                }
            }
            continue;
        }
        let span = band.span(y, x0 + lo as u32, x0 + hi as u32);
        for (c, o) in span.iter_mut().zip(&paint[lo..hi]) {
            if o[3] > 0.0 {
                lay(c, o);
            }
        }
    }
}

/// Smooth value noise in 0..1, lattice spacing 1, from the noise tile
/// (looked up, not hashed: the plants' leaves and shag are per pixel),
/// the tile shifted by `seed`; it repeats every [`TILE_SIDE`] cells.
#[inline]
fn value2(x: f32, y: f32, seed: u32) -> f32 {
    value2_in(kernels::tile(), x, y, seed)
}

/// [`value2`] in `tile` (the shaders' `value2_lanes` works the same out
/// for several points at once).
#[inline(always)]
fn value2_in(tile: &Tile, x: f32, y: f32, seed: u32) -> f32 {
    // `floor` without a call: exact for the picture's coordinates.
    let (ix, iy) = (math::floor_i32(x), math::floor_i32(y));
    let (tx, ty) = (x - ix as f32, y - iy as f32);
    let mask = TILE_SIDE as i32 - 1;
    let (ix, iy) = (
        ix.wrapping_add(seed as i32),
        iy.wrapping_add((seed >> 8) as i32),
    );
    let (i0, i1) = ((ix & mask) as usize, (ix.wrapping_add(1) & mask) as usize);
    let (j0, j1) = (
        (iy & mask) as usize * TILE_SIDE,
        (iy.wrapping_add(1) & mask) as usize * TILE_SIDE,
    );
    let (v00, v10, v01, v11) = (tile[j0 + i0], tile[j0 + i1], tile[j1 + i0], tile[j1 + i1]);
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let top = v00 + (v10 - v00) * sx;
    let bottom = v01 + (v11 - v01) * sx;
    0.5 + 0.5 * (top + (bottom - top) * sy)
}

/// A shaggy limb at pixel `p`: its colour and coverage.
#[inline]
fn limb(l: &Limb, p: [f32; 2], look: &Look) -> (Linear, f32) {
    let (dist, t, e) = segment_distance(p, l.a, l.b);
    let r = l.ra + (l.rb - l.ra) * t;
    // (Beyond the frayed edge's reach, nothing.)
    if dist >= 1.18 * r + 0.5 {
        return ([0.0; 3], 0.0);
    }
    // Dead leaves hang along it: a frayed edge, streaked up and down.
    let fibre = (0.3 * r).max(0.6);
    let n = value2(p[0] / fibre, p[1] / (2.5 * fibre), l.seed);
    let rr = r * (0.82 + 0.36 * n);
    let cov = thin(dist, 2.0 * rr) * ((l.ground - p[1]) + 0.5).clamp(0.0, 1.0);
    if cov <= 0.0 {
        return ([0.0; 3], 0.0);
    }
    let inv = 1.0 / rr.max(1e-3);
    let (nx, ny) = (
        (e[0] * inv).clamp(-1.0, 1.0),
        (-e[1] * inv).clamp(-1.0, 1.0),
    );
    let nz = (1.0 - nx * nx - ny * ny).max(0.0).sqrt();
    let bark = [0.06, 0.05, 0.038];
    let thatch = [0.26, 0.2, 0.12];
    let streak = value2(p[0] / fibre + 17.0, p[1] / (4.0 * fibre), l.seed ^ 0x51);
    let albedo = mix(bark, thatch, (l.thatch * (0.4 + 0.9 * streak)).min(1.0));
    // The shag's grooves are in shadow.
    let open = 0.55 + 0.45 * n;
    (
        look.shade(scale(albedo, open + 0.2), [nx, ny, nz], open),
        cov,
    )
}

/// A cluster of leaves at pixel `p`: its colour and coverage.
#[inline]
fn rosette(r: &Rosette, p: [f32; 2]) -> (Linear, f32) {
    let (dx, dy) = (p[0] - r.c[0], p[1] - r.c[1]);
    let rho2 = dx * dx + dy * dy;
    if rho2 > (r.r + 1.0) * (r.r + 1.0) {
        return ([0.0; 3], 0.0);
    }
    let rho = rho2.sqrt();
    let core = (0.3 * r.r + 0.5 - rho).clamp(0.0, 1.0);
    let (mut best, mut color) = (core, r.core);
    let mut look_at = |s: &Spike| {
        let along = dx * s.e[0] + dy * s.e[1];
        if along <= 0.0 || along >= s.len + 0.5 {
            return;
        }
        let across = (dx * s.e[1] - dy * s.e[0]).abs();
        let hw = s.w * (1.0 - along * s.inv_len).max(0.0);
        let cov = thin(across, 2.0 * hw);
        if cov > best {
            best = cov;
            color = s.color;
        }
    };
    // Near the centre every spike; farther only those of the pixel's
    // sector, the others cover nothing there (a sector's list is longer
    // nearer the centre, where a spike spans more of the turn).
    if rho < 0.5 * r.inner {
        r.spikes.iter().for_each(look_at);
    } else {
        let k = ((diamond(dx, dy) * (SECTORS as f32 / 4.0)) as usize).min(SECTORS - 1);
        let list = if rho < r.inner {
            &r.near[k]
        } else {
            &r.sectors[k]
        };
        for &i in list {
            look_at(&r.spikes[i as usize]);
        }
    }
    (color, best)
}

/// A creosote bush at pixel `p`: its colour and coverage.
#[inline]
fn bush(b: &Bush, p: [f32; 2], look: &Look) -> (Linear, f32) {
    // Up from the foot (0 to 1), and across the crown, which leans.
    let v = (b.foot[1] - p[1]) / b.ht;
    let u = (p[0] - b.foot[0] - b.lean * v * v) / b.hw;
    if !(-0.02..=1.12).contains(&v) || u.abs() > 1.3 {
        return ([0.0; 3], 0.0);
    }
    // The crown: a rounded dome over the stems, its outline ragged.
    let cy = (v - 0.52) / 0.5;
    let round = (u * u + cy * cy).sqrt();
    let sharp = (0.05 * b.ht).max(1.0);
    // The leaves add at most 0.8 · 1.5 · grain to the density, the ragged
    // outline at most 0.15 to the distance `e`: a pixel whose density
    // stays under the crown's edge (by a margin over any rounding) even so
    // is out of the crown, and needs no noise. (The leaves only light a
    // crown.)
    let edge = 0.29 - 0.5 / sharp;
    let out = |e: f32| (1.0 - e) * 2.4 + 1.25 * b.grain < edge;
    let (leaves, crown) = 'crown: {
        if out(round - 0.16) {
            break 'crown (0.0, 0.0);
        }
        let ragged = value2(u * 2.6 + 5.0, v * 2.6, b.seed) - 0.5;
        let e = round + 0.3 * ragged;
        if out(e) {
            break 'crown (0.0, 0.0);
        }
        // Small leaves in tufts: open toward the edge, thick inside.
        // (Turned coordinates for each octave: no grid in the tufts.)
        let (lx, ly) = (p[0] * b.leaf, p[1] * b.leaf);
        let leaves = value2(0.87 * lx - 0.5 * ly, 0.5 * lx + 0.87 * ly, b.seed ^ 0xa1)
            + 0.6 * value2(1.3 * lx + 1.55 * ly, 1.55 * lx - 1.3 * ly, b.seed ^ 0xa2)
            - 0.8;
        let density = (1.0 - e) * 2.4 + leaves * 1.5 * b.grain;
        (leaves, ((density - 0.3) * sharp + 0.5).clamp(0.0, 1.0))
    };
    // The stems, fanning out from the foot into the crown.
    let mut stem = 0.0f32;
    if v < 0.45 {
        let px = 1.0 / b.ht;
        let w = (0.035 * b.ht).max(0.5);
        let q = [(p[0] - b.foot[0]) / b.ht, v];
        // A stem covers nothing `0.5 w + 0.5` pixels or more from it: a
        // pixel farther than that from the stem's line (by a margin over
        // any rounding) skips it.
        let reach = 1.01 * (0.5 * w + 0.5) * px + 1e-5;
        for (s, n) in b.stems.iter().zip(&b.across) {
            if (q[0] * n[0] + q[1] * n[1]).abs() > reach {
                continue;
            }
            let a = [0.0, 0.0];
            let tip = [s[0] * b.hw / b.ht, s[1]];
            let d = segment_distance(q, a, tip).0 / px;
            stem = stem.max(thin(d, w));
        }
    }
    if crown <= 0.0 && stem <= 0.0 {
        return ([0.0; 3], 0.0);
    }
    let nx = (u * 0.9).clamp(-1.0, 1.0);
    let ny = (cy * 0.8).clamp(-1.0, 1.0);
    let nz = (1.0 - nx * nx - ny * ny).max(0.0).sqrt();
    // Deep in the crown, and low, the leaves are in their own shade.
    let open = (0.45 + 0.55 * (leaves + 0.5) * b.grain + 0.3 * (1.0 - b.grain)).clamp(0.2, 1.0)
        * (0.6 + 0.4 * v.clamp(0.0, 1.0));
    let cov = crown + stem * (1.0 - crown);
    let leaf = || look.shade(scale(b.albedo, 0.7 + 0.3 * open), [nx, ny, nz], open);
    let wood = || look.shade(b.stem, [nx, 0.0, 0.8], 0.5);
    let color = if stem <= 0.0 {
        leaf()
    } else if crown <= 0.0 {
        wood()
    } else {
        mix(wood(), leaf(), crown / cov.max(1e-6))
    };
    (color, cov)
}
