//! The sand is a height field on the ground, turned to the scene's wind, in
//! scene units (the eye, 0.22 over the ground, is 1.6 m), so a scene is the
//! same picture at any size.
//!
//! Here: the sand's height, slope, shade and ripples at many points
//! together (`Samples`, a row for each part, so that the loops vectorize),
//! from noises read off a table (`Lattice`), for each form: transverse
//! ridges (point by point without branches, and built for AVX2), barchans
//! and star dunes.

use super::Dunes;
use crate::base::math::{self, floor_i32};
use crate::base::noise::{hash2, signed, smoothstep};
use crate::base::simd::Build;
use crate::layers::world::METRE;

/// Sand's angle of repose (about 33°), as a slope.
pub(super) const REPOSE: f32 = 0.65;

/// The sand's height and its slope at a point of the ground.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Sample {
    /// Height over the base, scene units.
    pub(super) h: f32,
    /// Slope across (x) and away (z).
    pub(super) gx: f32,
    pub(super) gz: f32,
    /// How much of the light a ridge toward the sun leaves, 0 to 1.
    lit: f32,
    /// How plain the ripples are here (none on a slip face).
    ripples: f32,
    /// Which face of which dune the point is on: two points on one face
    /// may be drawn between, not across a brink.
    pub(super) face: u32,
}

/// Samples of the sand at many points, a row for each of their parts (so
/// that a loop over them vectorizes).
#[derive(Clone, Debug, Default)]
pub(super) struct Samples {
    pub(super) h: Vec<f32>,
    pub(super) gx: Vec<f32>,
    pub(super) gz: Vec<f32>,
    pub(super) lit: Vec<f32>,
    pub(super) ripples: Vec<f32>,
    pub(super) face: Vec<u32>,
}

impl Samples {
    /// Room for `n` samples.
    fn resize(&mut self, n: usize) {
        for part in [
            &mut self.h,
            &mut self.gx,
            &mut self.gz,
            &mut self.lit,
            &mut self.ripples,
        ] {
            part.resize(n, 0.0);
        }
        self.face.resize(n, 0);
    }

    fn set(&mut self, i: usize, s: Sample) {
        (self.h[i], self.gx[i], self.gz[i]) = (s.h, s.gx, s.gz);
        (self.lit[i], self.ripples[i], self.face[i]) = (s.lit, s.ripples, s.face);
    }

    pub(super) fn get(&self, i: usize) -> Sample {
        Sample {
            h: self.h[i],
            gx: self.gx[i],
            gz: self.gz[i],
            lit: self.lit[i],
            ripples: self.ripples[i],
            face: self.face[i],
        }
    }
}

/// The height field of a dune sea.
#[derive(Clone, Debug)]
pub(super) struct Field {
    form: u32,
    /// The tallest dune, and their spacing, scene units.
    pub(super) tallest: f32,
    pub(super) spacing: f32,
    inv_spacing: f32,
    /// How much sand: the interdune hollows shrink as it grows.
    sand: f32,
    /// Where the wind blows to: `[across, away]`.
    pub(super) wind: [f32; 2],
    seed: u32,
    /// For the ridges' shadows, where the sun shines along the wind
    /// enough to cast them: how much of its way lies along the wind, the
    /// tangent of its height, and whether it is upwind.
    shadow: Option<(f32, f32, bool)>,
    /// The noises' values.
    pub(super) lattice: Lattice,
    /// Star dunes' arms: directions to pick from.
    arms: [[f32; 2]; 16],
    /// A ridge's crest height over the tallest: its mean, and how far it
    /// strays from it along the crest.
    crest_mean: f32,
    crest_spread: f32,
    /// The highest a crest rises, over the tallest (no cap in the first
    /// look, whose crests keep under it).
    crest_cap: f32,
    /// The share of a slip face's height that curves out into its foot,
    /// the apron (0: the face meets the sand in a crease).
    apron: f32,
}

/// Random values at the lattice points of the dunes' noises: a table
/// looked up, where hashing each point took most of a sample's time.
#[derive(Clone, Debug)]
pub(super) struct Lattice {
    values: Box<[f32; LATTICE]>,
    /// A row's offset into `values`, for the 2-D noise.
    rows: Box<[u32; 256]>,
}

/// Values in the lattice's table: the noises repeat after this many
/// points (hundreds of dunes).
const LATTICE: usize = 1024;

impl Lattice {
    fn new(seed: u32) -> Lattice {
        let mut values = Box::new([0.0; LATTICE]);
        for (i, v) in values.iter_mut().enumerate() {
            *v = signed(hash2(i as u32, 0x1a7, seed));
        }
        let mut rows = Box::new([0; 256]);
        for (j, r) in rows.iter_mut().enumerate() {
            *r = hash2(j as u32, 0x2b0, seed);
        }
        Lattice { values, rows }
    }

    #[inline(always)]
    fn at(&self, i: u32) -> f32 {
        self.values[i as usize & (LATTICE - 1)]
    }

    /// Smooth 1-D value noise in -1..1 and its slope, lattice spacing 1;
    /// `salt` picks one of many.
    #[inline(always)]
    pub(super) fn noise1(&self, x: f32, salt: u32) -> (f32, f32) {
        let i = floor_i32(x);
        let t = x - i as f32;
        let i = (i as u32).wrapping_add(salt);
        let (a, b) = (self.at(i), self.at(i.wrapping_add(1)));
        let s = t * t * (3.0 - 2.0 * t);
        (a + (b - a) * s, (b - a) * 6.0 * t * (1.0 - t))
    }

    /// Smooth 2-D value noise in -1..1 and its slopes along x and y,
    /// lattice spacing 1.
    #[inline(always)]
    pub(super) fn noise2(&self, x: f32, y: f32) -> (f32, f32, f32) {
        let (i, j) = (floor_i32(x), floor_i32(y));
        let (tx, ty) = (x - i as f32, y - j as f32);
        let (i, j) = (i as u32, j as u32);
        let (r0, r1) = (
            self.rows[(j & 255) as usize].wrapping_add(i),
            self.rows[(j.wrapping_add(1) & 255) as usize].wrapping_add(i),
        );
        let (a, b, c, d) = (
            self.at(r0),
            self.at(r0.wrapping_add(1)),
            self.at(r1),
            self.at(r1.wrapping_add(1)),
        );
        let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
        let (dsx, dsy) = (6.0 * tx * (1.0 - tx), 6.0 * ty * (1.0 - ty));
        let top = a + (b - a) * sx;
        let bottom = c + (d - c) * sx;
        (
            top + (bottom - top) * sy,
            ((b - a) + (d - c - b + a) * sy) * dsx,
            (bottom - top) * dsy,
        )
    }
}

impl Field {
    /// The field of dunes `d` under the wind, lit by `light`; `sand_look`
    /// (from the second look) gives the ridges crests that rise and fall
    /// along their length and slip faces that curve out into their foot,
    /// so that a slip face does not read as a band of even width.
    pub(super) fn new(
        d: &Dunes,
        wind: [f32; 2],
        light: [f32; 3],
        seed: u32,
        sand_look: bool,
    ) -> Field {
        let spacing = d.spacing * METRE;
        let tallest = (d.height * METRE).min(0.1 * spacing);
        // The light's vector is x right, y up, z toward the viewer; on the
        // ground, away is -z.
        let flat = (light[0] * light[0] + light[2] * light[2]).sqrt();
        let sun = (flat > 1e-3 && light[1] > 0.0)
            .then(|| ([light[0] / flat, -light[2] / flat], light[1] / flat));
        let mut arms = [[0.0; 2]; 16];
        for (i, a) in arms.iter_mut().enumerate() {
            let t = std::f32::consts::TAU * i as f32 / 16.0;
            *a = [math::cos(t), math::sin(t)];
        }
        let shadow = sun.and_then(|(way, tan)| {
            let along = way[0] * wind[0] + way[1] * wind[1];
            (along.abs() > 0.05).then_some((along.abs(), tan, along < 0.0))
        });
        Field {
            shadow,
            form: d.form,
            tallest,
            spacing,
            inv_spacing: 1.0 / spacing,
            sand: d.cover,
            wind,
            seed,
            lattice: Lattice::new(seed),
            arms,
            crest_mean: if sand_look { 0.5 } else { 0.68 },
            crest_spread: if sand_look { 0.85 } else { 0.32 },
            crest_cap: if sand_look { 1.0 } else { f32::INFINITY },
            apron: if sand_look { 0.4 } else { 0.0 },
        }
    }

    /// The sand at ground points `(x[i], z[i])` (`z` away from the
    /// viewer), with its slope, into `out`; with its shade and ripples too
    /// where `footprint` (a pixel's length on the ground at each point) is
    /// given.
    pub(super) fn samples(
        &self,
        build: Build,
        x: &[f32],
        z: &[f32],
        footprint: Option<&[f32]>,
        out: &mut Samples,
    ) {
        let n = x.len();
        out.resize(n);
        if self.form == 1 {
            let Samples {
                h,
                gx,
                gz,
                lit,
                ripples,
                face,
            } = out;
            let parts = (&mut h[..], &mut gx[..], &mut gz[..]);
            let (h, gx, gz) = parts;
            let (lit, ripples, face) = (&mut lit[..], &mut ripples[..], &mut face[..]);
            match (build, footprint) {
                (Build::Portable, None) => {
                    self.ridges::<false>(x, z, &[], h, gx, gz, lit, ripples, face)
                }
                (Build::Portable, Some(f)) => {
                    self.ridges::<true>(x, z, f, h, gx, gz, lit, ripples, face)
                }
                // SAFETY: `Build::Avx2` is only chosen where the CPU has it.
                #[cfg(target_arch = "x86_64")]
                (Build::Avx2, None) => unsafe {
                    self.ridges_avx2::<false>(x, z, &[], h, gx, gz, lit, ripples, face)
                },
                #[cfg(target_arch = "x86_64")]
                (Build::Avx2, Some(f)) => unsafe {
                    self.ridges_avx2::<true>(x, z, f, h, gx, gz, lit, ripples, face)
                },
            }
            return;
        }
        let [wx, wz] = self.wind;
        for i in 0..n {
            // Along the wind and across it.
            let u = x[i] * wx + z[i] * wz;
            let v = z[i] * wx - x[i] * wz;
            let (h, du, dv, lit, ripples, face) = match self.form {
                0 => self.barchan(u, v),
                _ => self.star(u, v),
            };
            out.set(
                i,
                Sample {
                    h,
                    gx: du * wx - dv * wz,
                    gz: du * wz + dv * wx,
                    lit,
                    ripples,
                    face,
                },
            );
        }
    }

    /// [`Field::ridges`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn ridges_avx2<const LIGHT: bool>(
        &self,
        x: &[f32],
        z: &[f32],
        footprint: &[f32],
        h: &mut [f32],
        gx: &mut [f32],
        gz: &mut [f32],
        lit: &mut [f32],
        ripples: &mut [f32],
        face: &mut [u32],
    ) {
        self.ridges::<LIGHT>(x, z, footprint, h, gx, gz, lit, ripples, face);
    }

    /// Transverse ridges across the wind: a gentle windward slope rising to
    /// a sharp brink, then the slip face down at the angle of repose. The
    /// crests wander and their heights change along them. With `LIGHT`,
    /// the shadow of the ridge toward the sun and the ripples too.
    ///
    /// Point by point, without branches (both sides worked out, one kept),
    /// so that the loop vectorizes: every build gives the same bits.
    /// The parts of the samples are slices apart (not read out of one
    /// struct), so that the compiler knows they do not overlap.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn ridges<const LIGHT: bool>(
        &self,
        x: &[f32],
        z: &[f32],
        footprint: &[f32],
        h: &mut [f32],
        gx: &mut [f32],
        gz: &mut [f32],
        lit: &mut [f32],
        ripples: &mut [f32],
        face: &mut [u32],
    ) {
        let n = x
            .len()
            .min(z.len())
            .min(h.len())
            .min(gx.len())
            .min(gz.len());
        let n = n.min(lit.len()).min(ripples.len()).min(face.len());
        let (x, z) = (&x[..n], &z[..n]);
        let footprint = if LIGHT { &footprint[..n] } else { &[] };
        let (h, gx, gz) = (&mut h[..n], &mut gx[..n], &mut gz[..n]);
        let (lit, ripples, face) = (&mut lit[..n], &mut ripples[..n], &mut face[..n]);
        let [wx, wz] = self.wind;
        let s = self.inv_spacing;
        let noise = &self.lattice;
        // The shadows' terms, the same for every point (worked out for
        // none where there are none, and not kept).
        let shadow = self.shadow.is_some();
        let (along, tan, upwind) = self.shadow.unwrap_or((1.0, 0.0, false));
        let next = if upwind { -1 } else { 1 };
        for i in 0..n {
            // Along the wind and across it.
            let u = x[i] * wx + z[i] * wz;
            let v = z[i] * wx - x[i] * wz;
            let (n1, d1) = noise.noise1(v * s * 0.7, 0);
            let (n2, d2) = noise.noise1(v * s * 2.3, 331);
            // The crests break into lobes bowed upwind, their horns
            // downwind (barchanoid ridges): a ridged noise, sharp where it
            // crosses 0.
            let (n3, du3, dv3) = noise.noise2(u * s * 0.55, v * s * 1.1);
            let sign = if n3 < 0.0 { -1.0 } else { 1.0 };
            let lobes = 0.3 * (1.0 - n3 * sign);
            let phase = u * s + 0.45 * n1 + 0.1 * n2 + lobes;
            let dphase_du = s * (1.0 - 0.3 * sign * du3 * 0.55);
            let dphase_dv = (0.45 * 0.7 * d1 + 0.1 * 2.3 * d2 - 0.3 * sign * dv3 * 1.1) * s;
            let k = floor_i32(phase);
            let t = phase - k as f32;
            let (hk, dhk) = self.crest(k, v);
            // The slip face's share of a wavelength, and the hollow's
            // between ridges (none in a sand sea). Its lower `apron` of
            // height curves out to the sand: the face is that much longer.
            let apron = self.apron;
            let stretch = 1.0 / (1.0 - 0.5 * apron);
            let slip = hk * s / REPOSE * stretch;
            let brink = 1.0 - slip;
            let gap = 0.45 * (1.0 - self.sand) * brink;
            let (hollow, on_slip) = (t < gap, t >= brink);
            let w = brink - gap;
            let up = (t - gap) / w;
            let shape = up * up * (3.0 - 2.0 * up);
            // Down the slip face from its foot (0) to the brink (1): at the
            // angle of repose above the apron, a parabola within it.
            let q = ((1.0 - t) / slip.max(1e-6)).clamp(0.0, 1.0);
            let within = q < apron;
            let fall = if within {
                q * q / (2.0 * apron.max(1e-6))
            } else {
                q - 0.5 * apron
            };
            let steep = if within { q / apron.max(1e-6) } else { 1.0 };
            // (The first look's face, as it was drawn: its bits kept.)
            let face_height = if apron > 0.0 {
                hk * stretch * fall
            } else {
                (1.0 - t) * REPOSE * self.spacing
            };
            let height = if hollow {
                0.0
            } else if on_slip {
                face_height
            } else {
                hk * shape
            };
            let dh_dphase = if hollow {
                0.0
            } else if on_slip {
                -REPOSE * self.spacing * steep
            } else {
                hk * 6.0 * up * (1.0 - up) / w
            };
            let dh_dv = if hollow || on_slip { 0.0 } else { dhk * shape };
            let du = dh_dphase * dphase_du;
            let dv = dh_dphase * dphase_dv + dh_dv;
            h[i] = height;
            gx[i] = du * wx - dv * wz;
            gz[i] = du * wz + dv * wx;
            face[i] = ((k as u32) << 1) | u32::from(on_slip);
            if !LIGHT {
                (lit[i], ripples[i]) = (1.0, 0.0);
                continue;
            }
            // The shadow of the ridge toward the sun, if it rises over the
            // sun's ray from here: the last brink behind where the sun is
            // upwind, else the next ahead.
            let beyond = self.crest(k + next, v).0;
            let (ahead, top) = if upwind {
                if on_slip {
                    (t - brink, hk)
                } else {
                    (t + 1.0 - brink, beyond)
                }
            } else if !on_slip {
                (brink - t, hk)
            } else {
                (brink + 1.0 - t, beyond)
            };
            let d = ahead * self.spacing / along;
            let over = top - (height + d * tan);
            let soft = 0.005 * d + 0.02 * METRE + footprint[i];
            let shade = if shadow {
                1.0 - smoothstep(-soft, soft, over)
            } else {
                1.0
            };
            lit[i] = shade;
            ripples[i] = if on_slip { 0.0 } else { 1.0 };
        }
    }

    /// The height of ridge `k`'s crest at `v` across the wind, and its
    /// slope along `v`.
    #[inline(always)]
    pub(super) fn crest(&self, k: i32, v: f32) -> (f32, f32) {
        let s = self.inv_spacing;
        let (n, d) = self.lattice.noise1(v * s * 0.45 + k as f32 * 7.31, 677);
        let (mean, spread) = (self.crest_mean, self.crest_spread);
        (
            self.tallest * (mean + spread * n).clamp(0.08, self.crest_cap),
            if mean + spread * n < self.crest_cap && mean + spread * n > 0.08 {
                self.tallest * spread * d * s * 0.45
            } else {
                0.0
            },
        )
    }

    /// Barchans: crescents apart on the floor, their horns downwind, on a
    /// grid of cells across the wind, every other row shifted.
    fn barchan(&self, u: f32, v: f32) -> (f32, f32, f32, f32, f32, u32) {
        let across = 1.3 * self.spacing;
        let j = floor_i32(v / across);
        let shift = 0.5 * (j & 1) as f32;
        let i = floor_i32(u * self.inv_spacing + shift);
        let hash = hash2(i as u32, j as u32, self.seed);
        let mut dice = crate::base::noise::Dice::after(hash);
        if dice.unit() > 0.35 + 0.65 * self.sand {
            return (0.0, 0.0, 0.0, 1.0, 1.0, 0);
        }
        let size = 0.7 + 0.3 * dice.unit();
        let r = (self.tallest * 5.0).min(0.34 * self.spacing) * size;
        let hb = 0.2 * r;
        let cu = (i as f32 + 0.5 - shift + 0.08 * dice.signed()) * self.spacing;
        let cv = (j as f32 + 0.5 + 0.12 * dice.signed()) * across;
        let (s, q) = ((u - cu) / r, (v - cv) / r);
        // The horns bend downwind.
        const BENT: f32 = 0.9;
        let sp = s - BENT * q * q;
        let dsp_dq = -2.0 * BENT * q;
        // The body: a low cap, longer upwind.
        let a2 = if sp < 0.0 { 1.3 * 1.3 } else { 0.9 * 0.9 };
        let body = 1.0 - q * q - sp * sp / a2;
        if body <= 0.0 {
            return (0.0, 0.0, 0.0, 1.0, 1.0, 0);
        }
        const BRINK: f32 = 0.05;
        let db_dsp = -2.0 * sp / a2;
        let (mut h, mut dh_ds, mut dh_dq) =
            (hb * body, hb * db_dsp, hb * (-2.0 * q + db_dsp * dsp_dq));
        let mut ripples = 1.0;
        if sp > BRINK {
            // The slip face, cut down from the brink at the angle of repose.
            let top = hb * (1.0 - q * q - BRINK * BRINK / a2);
            let slip = top - REPOSE * r * (sp - BRINK);
            if slip < h {
                h = slip.max(0.0);
                if slip > 0.0 {
                    dh_ds = -REPOSE * r;
                    dh_dq = hb * -2.0 * q - REPOSE * r * dsp_dq;
                    ripples = 0.0;
                } else {
                    (dh_ds, dh_dq) = (0.0, 0.0);
                }
            }
        }
        let face = (hash | 1) ^ u32::from(ripples == 0.0) << 1;
        (h, dh_ds / r, dh_dq / r, 1.0, ripples, face)
    }

    /// Star dunes: a peak on each cell with three to five sinuous arms,
    /// sharp crests and concave faces between.
    fn star(&self, u: f32, v: f32) -> (f32, f32, f32, f32, f32, u32) {
        let (i, j) = (
            floor_i32(u * self.inv_spacing),
            floor_i32(v * self.inv_spacing),
        );
        let hash = hash2(i as u32, j as u32, self.seed ^ 0x57a2);
        let mut dice = crate::base::noise::Dice::after(hash);
        // Within its cell: the arms and the faces reach a third of it and
        // the peak strays a tenth.
        let top = self.tallest.min(0.08 * self.spacing)
            * (0.7 + 0.3 * dice.unit())
            * (0.6 + 0.4 * self.sand);
        let cu = (i as f32 + 0.5 + 0.1 * dice.signed()) * self.spacing;
        let cv = (j as f32 + 0.5 + 0.1 * dice.signed()) * self.spacing;
        let (pu, pv) = (u - cu, v - cv);
        let reach = 0.34 * self.spacing;
        // The peak, a concave cone.
        let r = (pu * pu + pv * pv).sqrt().max(1e-6);
        let (mut h, dr) = concave(top, r);
        let (mut du, mut dv) = (dr * pu / r, dr * pv / r);
        let arms = 3 + dice.bits() % 3;
        let first = dice.bits();
        let mut which = 0;
        for a in 0..arms {
            // Each arm's dice are drawn whether or not the point is beside
            // it, so every point sees the same arms.
            let dir =
                self.arms[(first.wrapping_add(a * 16 / arms + (dice.bits() & 1)) & 15) as usize];
            // The arm falls along its length and bends sideways.
            let bend = 0.5 * dice.signed() / reach;
            let along = pu * dir[0] + pv * dir[1];
            if along <= 0.0 || along >= reach {
                continue;
            }
            let side = pu * -dir[1] + pv * dir[0] - bend * along * along;
            let crest = top * (1.0 - along / reach);
            let (k, dk_dside) = concave(crest, side.abs());
            if k > h {
                let x = 1.0 - side.abs() / (3.0 * crest);
                let dk_dcrest = x * (2.0 - x);
                let dside_dalong = -2.0 * bend * along;
                let sign = if side < 0.0 { -1.0 } else { 1.0 };
                // d/dalong and d/dside, back to u and v.
                let d_along = dk_dcrest * -top / reach + dk_dside * sign * dside_dalong;
                let d_side = dk_dside * sign;
                h = k;
                // Each side of an arm's crest is a face of its own.
                which = 2 * (a + 1) + u32::from(side < 0.0);
                du = d_along * dir[0] - d_side * dir[1];
                dv = d_along * dir[1] + d_side * dir[0];
            }
        }
        let ripples = if (du * du + dv * dv) > 0.3 { 0.0 } else { 1.0 };
        (
            h,
            du,
            dv,
            1.0,
            ripples,
            hash ^ which.wrapping_mul(0x9e37_79b9),
        )
    }
}

/// A concave face falling from `top` at about the angle of repose at its
/// crest to the sand three times `top` away: its height and its slope
/// along `d`, `d` away.
#[inline]
fn concave(top: f32, d: f32) -> (f32, f32) {
    if top <= 0.0 || d >= 3.0 * top {
        return (0.0, 0.0);
    }
    let x = 1.0 - d / (3.0 * top);
    (top * x * x, -2.0 * x / 3.0)
}
