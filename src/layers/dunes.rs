//! Dunes: a sand sea on the floor, or instead of it. Transverse ridges
//! across the wind, barchans (crescents whose horns point downwind) or
//! star dunes (arms in several directions, where the wind turns), each
//! slip face at sand's angle of repose, ripples across the wind.
//!
//! The sand is a height field on the ground, turned to the scene's wind, in
//! scene units (the eye, 0.22 over the ground, is 1.6 m), so a scene is the
//! same picture at any size. The viewer stands as high as the tallest dune,
//! looking out over the sea, so no crest rises over the horizon.
//!
//! `prepare` marches each column of the picture from near to far in steps
//! even on the screen (even in one over the depth), keeping the highest
//! row drawn so far: what lies behind a crest stays hidden. Where three
//! steps do not lie on a line (a crest, the foot of a slip face), or two lie
//! on different faces of a dune, the step between is halved until they do
//! not, so a crest's top and a face's edge fall
//! where they are, not where a step happened to land. Each row keeps the
//! depth of the ground it shows. `draw` then lights that ground point by
//! the height field's own slope, so every crease is as sharp as the sand's:
//! the sun, the sky from above, the shadow a ridge casts toward the next,
//! the ripples, the haze of distance, the clouds' shade. Far off, where a
//! dune's length spans a few rows, the relief fades to flat sand rather
//! than to a flicker of crests stepped over.
//!
//! A column's march depends only on the column and the picture, and starts
//! at a depth fixed by the rows to be drawn, before any ground that could
//! reach them: every window and band comes out the same.
//!
//! The steps are the same in every march (a lattice even in one over the
//! depth), and so are their halvings: a march may start at any step before
//! which no ground comes up into the rows it draws, and stop at the first
//! that comes up above them. So a picture keeps the depths of every pixel
//! only where they are few (`WHOLE`). A larger one's `prepare` marches
//! each column once to keep where the marches of each block of columns
//! start for each chunk of rows (two strips'), and `draw` marches a band's
//! chunk again, the columns of a block together: its memory is a few
//! chunks' and a number a block a chunk, not a number a pixel.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde::Serialize;

use super::{Band, Draw, Frame, Ground, Kind, Prepare, blend};
use crate::base::color::{Linear, Rgb, mix, mul, scale};
use crate::base::math::{self, floor_i32};
use crate::base::noise::{hash2, signed, smoothstep, sub_seed};
use crate::base::simd::Build;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

/// Settings of the dunes layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dunes {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// The dunes' form: 0 barchans, 1 transverse ridges, 2 star dunes.
    /// Default: 1.
    pub form: u32,
    /// The tallest dunes' height, metres (2 to 150). A dune is at most a
    /// tenth of its spacing high. Default: 20.
    pub height: f32,
    /// How far apart the dunes are, metres (40 to 2000). Default: 240.
    pub spacing: f32,
    /// How much sand there is, 0 to 1: barchans apart on the floor, or
    /// ridges with bare hollows between, to a sand sea. Default: 0.9.
    pub cover: f32,
    /// How plain the ripples are, 0 to 1. Default: 0.6.
    pub ripples: f32,
    /// Colour of the sand in full light. Default: (224, 174, 120).
    pub color: Rgb,
}

impl Default for Dunes {
    fn default() -> Self {
        Dunes {
            visible: true,
            opacity: 1.0,
            form: 1,
            height: 20.0,
            spacing: 240.0,
            cover: 0.9,
            ripples: 0.6,
            color: Rgb(224, 174, 120),
        }
    }
}

/// Sand colours New scene picks from (sRGB): golden, Namib red, pale,
/// Arabian gold, Mesquite Flat's.
const SANDS: &[Rgb] = &[
    Rgb(224, 174, 120),
    Rgb(214, 146, 98),
    Rgb(232, 206, 168),
    Rgb(226, 184, 128),
    Rgb(206, 168, 124),
];

impl Kind for Dunes {
    const NAME: &'static str = "dunes";
    const TITLE: &'static str = "Dunes";
    const SETTINGS: &'static [Setting<Dunes>] = &[
        super::visible(),
        super::opacity(),
        uint!(
            "form",
            form,
            0,
            2,
            "Form",
            "0 barchans (crescents), 1 transverse ridges, 2 star dunes",
            Roll::Pick(&[0, 1, 1, 2])
        ),
        float!(log "height", height, 2.0, 150.0, 10, "Height",
            "The tallest dunes' height, metres", Roll::Range(8.0, 40.0)),
        float!(log "spacing", spacing, 40.0, 2000.0, 1, "Spacing",
            "How far apart the dunes are, metres", Roll::Range(150.0, 450.0)),
        float!(
            "cover",
            cover,
            0.0,
            1.0,
            1000,
            "Sand",
            "Dunes apart on the floor to a sand sea",
            Roll::Range(0.4, 1.0)
        ),
        float!(
            "ripples",
            ripples,
            0.0,
            1.0,
            1000,
            "Ripples",
            "How plain the ripples across the wind are",
            Roll::Range(0.3, 0.9)
        ),
        other!(
            Rgb,
            "color",
            color,
            "Sand colour",
            "Colour of the sand",
            Roll::Pick(SANDS)
        ),
    ];

    super::common_settings!();
}

use super::world::METRE;
/// Sand's angle of repose (about 33°), as a slope.
const REPOSE: f32 = 0.65;
/// A ripple's wavelength, scene units (about 30 cm).
const RIPPLE: f32 = 0.3 * METRE;
/// How high the viewer stands, in the tallest dune's heights: on a
/// lookout over the sea.
const LOOKOUT: f32 = 3.0;
/// The march's step on flat sand, pixels on the screen.
const STEP: f32 = 16.0;
/// How far off a line (pixels) the middle of three steps may lie before
/// the steps between are halved.
const BEND: f32 = 1.0;
/// The picture height whose rows decide where the far dunes fade.
const REFERENCE: f32 = 1080.0;
/// Columns in a block of the prepared depths.
const LANES: usize = 32;
/// Rows in a chunk of the depths marched at once as bands are drawn, where
/// the picture's are not kept whole: two of a streamed picture's strips
/// (see [`crate::output`]), so that a march's start and end (a few steps
/// each) cost little beside its middle.
const CHUNK: u32 = 64;
/// The most bytes the depths of every pixel take where they are kept
/// whole, marched once when the layer is prepared (a 1280×720 picture's
/// take 3.5 MiB).
const WHOLE: usize = 4 << 20;
/// How much plainer the dunes' forms are drawn under the stars (see
/// [`DunesDraw::relief_gain`]).
const RELIEF_GAIN: f32 = 1.5;
/// How many times longer the steps under the picture are.
const COARSE: u32 = 4;
/// The most times a step is halved.
const HALVINGS: u32 = 4;

/// The sand's height and its slope at a point of the ground.
#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    /// Height over the base, scene units.
    h: f32,
    /// Slope across (x) and away (z).
    gx: f32,
    gz: f32,
    /// How much of the light a ridge toward the sun leaves, 0 to 1.
    lit: f32,
    /// How plain the ripples are here (none on a slip face).
    ripples: f32,
    /// Which face of which dune the point is on: two points on one face
    /// may be drawn between, not across a brink.
    face: u32,
}

/// Samples of the sand at many points, a row for each of their parts (so
/// that a loop over them vectorizes).
#[derive(Clone, Debug, Default)]
struct Samples {
    h: Vec<f32>,
    gx: Vec<f32>,
    gz: Vec<f32>,
    lit: Vec<f32>,
    ripples: Vec<f32>,
    face: Vec<u32>,
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

    fn get(&self, i: usize) -> Sample {
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
struct Field {
    form: u32,
    /// The tallest dune, and their spacing, scene units.
    tallest: f32,
    spacing: f32,
    inv_spacing: f32,
    /// How much sand: the interdune hollows shrink as it grows.
    sand: f32,
    /// Where the wind blows to: `[across, away]`.
    wind: [f32; 2],
    seed: u32,
    /// For the ridges' shadows, where the sun shines along the wind
    /// enough to cast them: how much of its way lies along the wind, the
    /// tangent of its height, and whether it is upwind.
    shadow: Option<(f32, f32, bool)>,
    /// The noises' values.
    lattice: Lattice,
    /// Star dunes' arms: directions to pick from.
    arms: [[f32; 2]; 16],
}

/// Random values at the lattice points of the dunes' noises: a table
/// looked up, where hashing each point took most of a sample's time.
#[derive(Clone, Debug)]
struct Lattice {
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
    fn noise1(&self, x: f32, salt: u32) -> (f32, f32) {
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
    fn noise2(&self, x: f32, y: f32) -> (f32, f32, f32) {
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
    fn new(d: &Dunes, wind: [f32; 2], light: [f32; 3], seed: u32) -> Field {
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
        }
    }

    /// The sand at ground points `(x[i], z[i])` (`z` away from the
    /// viewer), with its slope, into `out`; with its shade and ripples too
    /// where `footprint` (a pixel's length on the ground at each point) is
    /// given.
    fn samples(
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
            // between ridges (none in a sand sea).
            let slip = hk * s / REPOSE;
            let brink = 1.0 - slip;
            let gap = 0.45 * (1.0 - self.sand) * brink;
            let (hollow, on_slip) = (t < gap, t >= brink);
            let w = brink - gap;
            let up = (t - gap) / w;
            let shape = up * up * (3.0 - 2.0 * up);
            let height = if hollow {
                0.0
            } else if on_slip {
                (1.0 - t) * REPOSE * self.spacing
            } else {
                hk * shape
            };
            let dh_dphase = if hollow {
                0.0
            } else if on_slip {
                -REPOSE * self.spacing
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
    fn crest(&self, k: i32, v: f32) -> (f32, f32) {
        let s = self.inv_spacing;
        let (n, d) = self.lattice.noise1(v * s * 0.45 + k as f32 * 7.31, 677);
        (
            self.tallest * (0.68 + 0.32 * n),
            self.tallest * 0.32 * d * s * 0.45,
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

impl Dunes {
    /// How much of the ground between the dunes is sand, 0 (the floor
    /// shows) to 1.
    fn sheet(&self) -> f32 {
        match self.form {
            1 => smoothstep(0.3, 0.75, self.cover),
            _ => smoothstep(0.55, 0.9, self.cover),
        }
    }

    /// How much of the floor of `ground` the dunes cover; nothing of them
    /// rises over the horizon (the viewer stands as high as the tallest).
    pub(crate) fn cover(&self, _ground: &Ground) -> super::Cover {
        super::Cover {
            floor: self.opacity * self.share(),
            sky: 0.0,
            reach: -0.01,
        }
    }

    /// The share of the floor that is sand, at full opacity.
    fn share(&self) -> f32 {
        let sheet = self.sheet();
        let dunes = match self.form {
            // A crescent's footprint in its cell, in cells that have one.
            0 => {
                let r = (self.height * 5.0).min(0.34 * self.spacing) * 0.85 / self.spacing;
                (0.35 + 0.65 * self.cover) * 1.9 * r * r / 1.3
            }
            1 => 1.0 - 0.45 * (1.0 - self.cover),
            _ => 0.45 + 0.3 * self.cover,
        };
        (sheet + (1.0 - sheet) * dunes).min(1.0)
    }
}

/// Where the dunes rise from flat near the eye, and where they fade far
/// off (depths, scene units).
struct Reach {
    /// Where the near sand rises from flat to the dunes.
    near: (f32, f32),
    /// Where the far dunes' relief fades, and where their light fades too.
    far: (f32, f32),
    farthest: (f32, f32),
}

impl Reach {
    fn new(field: &Field, eye: f32, h: f32, horizon: f32) -> Reach {
        // The nearest sand the picture shows, flat, and where the dunes
        // are full height: from the picture's bottom on.
        let bottom = eye * h / (h - horizon).max(1.0);
        // Where a dune's length spans twelve rows and less, or the
        // tallest stands eight high, the relief fades: its crests would
        // step from pixel to pixel. The dunes are lit as if they stood on
        // to where a length spans three rows. Rows of a picture 1080 high
        // at most, so that a larger picture is the same picture.
        let rows = REFERENCE;
        let fade = (field.spacing * rows * eye / 12.0)
            .sqrt()
            .min(field.tallest * rows / 8.0);
        let light = 1.4 * (field.spacing * rows * eye / 12.0).sqrt();
        Reach {
            near: (0.35 * bottom, 0.7 * bottom),
            far: (0.6 * fade, 1.2 * fade),
            farthest: (0.6 * light, 1.2 * light),
        }
    }

    /// How much of the dunes' relief stands at depth `z`: flat near the
    /// viewer's feet and far off.
    #[inline]
    fn relief(&self, z: f32) -> f32 {
        if z >= self.far.1 || z <= self.near.0 {
            return 0.0;
        }
        smoothstep(self.near.0, self.near.1, z) * (1.0 - smoothstep(self.far.0, self.far.1, z))
    }
}

impl Dunes {
    /// The tallest dune's height, scene units.
    pub(crate) fn tallest(&self) -> f32 {
        (self.height * METRE).min(0.1 * self.spacing * METRE)
    }

    /// The eye's height over the sand's base, scene units: on a lookout
    /// over the sea, or in one ground the world's eye (over the tallest
    /// sand of the first dunes), never under these dunes' crests.
    fn eye(&self, field: &Field, world: &super::world::World) -> f32 {
        if world.on {
            world.eye.max(field.tallest + 0.1 * super::world::EYE)
        } else {
            world.eye + LOOKOUT * field.tallest
        }
    }

    /// The sand as a terrain things stand on, seen from `eye` (scene
    /// units, over the sand's base) in a picture `h` pixels high with the
    /// horizon at row `horizon` and the middle column at `middle`.
    pub(crate) fn sand(
        &self,
        wind: [f32; 2],
        light: [f32; 3],
        seed: u64,
        (eye, h, horizon, middle): (f32, f32, f32, f32),
    ) -> Sand {
        let field = Field::new(self, wind, light, sub_seed(seed, 0xd0e5));
        let reach = Reach::new(&field, eye, h, horizon);
        Sand {
            field,
            reach,
            eye,
            h,
            middle,
        }
    }
}

/// The dunes' sand as the ground things stand on ([`super::world::Terrain`]).
pub(crate) struct Sand {
    field: Field,
    reach: Reach,
    eye: f32,
    h: f32,
    middle: f32,
}

impl Sand {
    /// How many pixels the sand lifts a thing at column `x` whose foot
    /// lies `key` pixels under the horizon on flat ground (`key > 0`): the
    /// sand's height there as the dunes draw it, seen from the eye.
    pub(crate) fn lift(&self, x: f32, key: f32) -> f32 {
        let z = self.eye * self.h / key;
        let k = self.reach.relief(z);
        if k <= 0.0 {
            return 0.0;
        }
        let across = (x - self.middle) / self.h;
        let mut out = Samples::default();
        self.field
            .samples(Build::Portable, &[across * z], &[z], None, &mut out);
        out.h[0] * k * self.h / z
    }
}

impl Prepare for Dunes {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

/// The dunes prepared for one picture.
struct DunesDraw {
    /// Which build of the sand's sampling runs.
    build: Build,
    opacity: f32,
    horizon: f32,
    /// Pixels per scene unit at depth 1, and the picture's middle column.
    h: f32,
    middle: f32,
    /// The eye's height over the sand's base.
    eye: f32,
    /// Whether the sand keeps its depths in the band's (one ground).
    keys: bool,
    field: Field,
    /// Depths where the near sand rises from flat to the dunes.
    near: (f32, f32),
    /// Depths where the far dunes' relief fades (they are drawn flat
    /// beyond, lit as if they stood), and where their light fades too.
    far: (f32, f32),
    farthest: (f32, f32),
    /// The prepared columns and rows.
    x0: u32,
    y0: u32,
    rows: u32,
    /// The picture's height, pixels.
    picture: f32,
    /// How many columns are prepared.
    cols: u32,
    /// The depths of every prepared pixel, where they take at most
    /// [`WHOLE`] bytes. Else they are marched a chunk of rows at a time as
    /// the bands are drawn, and only where the marches start is kept.
    whole: Option<Arc<Depths>>,
    /// Where the marches of each block of [`LANES`] columns start for each
    /// chunk of rows: the step (see [`Step::lattice`]) for chunk `c`'s rows
    /// in block `b` at `starts[b * chunks + c]`.
    starts: Vec<u32>,
    /// How many chunks have their starts kept: all but the last, whose
    /// marches start where the whole column's does.
    chunks: u32,
    /// The chunks marched last, the most recently used last.
    kept: Mutex<Vec<Arc<Depths>>>,
    /// The first row any column shows sand on.
    first: u32,
    /// The sand in the flat ground's light, the haze it fades into, and
    /// the light's parts.
    sand: Linear,
    haze: Linear,
    ambient: Linear,
    direct: Linear,
    light: [f32; 3],
    /// One over the light on flat ground, per channel (the sand's colour
    /// is given under it).
    flat: Linear,
    /// How much the light on the sand is raised at night, so that a
    /// moonlit sea keeps its forms (1 by day).
    night: f32,
    /// How much the moon's light on a slope differs from its light on
    /// flat sand, over the sun's (1 by day): by moonlight the eye sees
    /// little but the forms, so they are drawn plainer.
    relief_gain: f32,
    /// The least of the moon's light a face turned from it keeps, over
    /// flat sand's: the sky's light, which the eye sees by at night.
    moonlit_shade: f32,
    /// How much of the ground between the dunes is sand; and the share of
    /// sand far off, where the dunes fade.
    sheet: f32,
    far_sand: f32,
    ripples: f32,
    /// The sand as the sky's light colours it (greyer).
    sky_sand: Linear,
    shade: Option<super::clouds::CloudShade>,
}

impl DunesDraw {
    /// The bytes it holds of depths and of where marches start.
    #[cfg(test)]
    fn held_bytes(&self) -> usize {
        let kept = self.kept.lock().unwrap();
        let depths: usize = self
            .whole
            .iter()
            .chain(kept.iter())
            .map(|d| d.iz.capacity())
            .sum();
        (depths + self.starts.capacity()) * 4
    }
}

impl Dunes {
    fn prepare_draw(&self, f: &Frame) -> DunesDraw {
        self.prepare_with(f, Build::best(), WHOLE)
    }

    /// [`Dunes::prepare_draw`] with the sand sampled by `build`, the depths
    /// of every pixel kept where they take at most `whole_bytes`.
    fn prepare_with(&self, f: &Frame, build: Build, whole_bytes: usize) -> DunesDraw {
        let p = &f.palette;
        let field = Field::new(self, f.wind, p.light, sub_seed(f.seed, 0xd0e5));
        let eye = self.eye(&field, &f.world);
        let Reach {
            near,
            far,
            farthest,
        } = Reach::new(&field, eye, f.h, f.horizon);
        let lit = mul(self.color.linear(), p.ground);
        let flat = std::array::from_fn(|c| {
            1.0 / (p.ambient[c] + p.direct[c] * p.light[1].max(0.0)).max(1e-4)
        });
        // The rows and columns to draw, from the fourth one at or before
        // the first to four past the last: a pixel takes its colour from
        // the fourth ones around it (see `draw`).
        let (cols, rows) = (
            (f.cols.start & !3)..(f.cols.end + 4).min(f.width),
            (f.rows.start & !3)..(f.rows.end + 4).min(f.height),
        );
        // How much the light is the moon's.
        let moonlit = if p.moon { p.stars.clamp(0.0, 1.0) } else { 0.0 };
        let mut draw = DunesDraw {
            build,
            opacity: self.opacity,
            horizon: f.horizon,
            h: f.h,
            middle: 0.5 * f.w,
            eye,
            keys: f.world.on,
            field,
            near,
            far,
            farthest,
            x0: cols.start,
            y0: rows.start,
            rows: rows.len() as u32,
            picture: f.h,
            cols: cols.len() as u32,
            whole: None,
            starts: Vec::new(),
            chunks: 0,
            kept: Mutex::new(Vec::new()),
            first: u32::MAX,
            sand: lit,
            haze: mix(p.horizon, lit, 0.3),
            ambient: p.ambient,
            direct: p.direct,
            light: p.light,
            flat,
            night: 1.0 + 0.8 * p.stars.clamp(0.0, 1.0),
            relief_gain: 1.0 + RELIEF_GAIN * moonlit,
            moonlit_shade: 0.3 * moonlit,
            sheet: self.sheet(),
            far_sand: self.share(),
            ripples: self.ripples,
            sky_sand: {
                let grey = (lit[0] + lit[1] + lit[2]) / 3.0;
                mix(lit, [grey; 3], 0.4)
            },
            shade: f.shade.clone(),
        };
        if cols.is_empty() || rows.is_empty() {
            return draw;
        }
        // The depths of every pixel, if they are few; else where each
        // chunk's marches start.
        let mut whole = (cols.len() * rows.len() * 4 <= whole_bytes)
            .then(|| Depths::new(cols.clone(), rows.clone()));
        if whole.is_none() {
            draw.chunks = (rows.len() as u32).saturating_sub(2) / CHUNK;
        }
        let chunks = draw.chunks as usize;
        let blocks = cols.len().div_ceil(LANES);
        let mut starts = vec![0; blocks * chunks];
        let firsts: Vec<u32> = match &mut whole {
            Some(whole) => whole
                .iz
                .par_chunks_mut(LANES * rows.len())
                .enumerate()
                .map(|(b, depth)| draw.prepare_block(b, Some(depth), &mut []))
                .collect(),
            None => starts
                .par_chunks_mut(chunks.max(1))
                .enumerate()
                .map(|(b, starts)| draw.prepare_block(b, None, starts))
                .collect(),
        };
        draw.first = firsts.into_iter().min().unwrap_or(u32::MAX);
        draw.whole = whole.map(Arc::new);
        draw.starts = starts;
        draw
    }
}

/// Room for the marches of a block of columns, reused from block to
/// block: the columns are marched together, a step of each at a time,
/// and their steps worked out together (a column's march alone would work
/// out too few at once where it is short).
#[derive(Default)]
struct March {
    columns: Vec<Column>,
    /// The steps to work out together: their columns, how their ground
    /// runs across per unit of depth, one over their depths and their
    /// numbers (see [`Step::lattice`]); and the steps worked out.
    column: Vec<u32>,
    across: Vec<f32>,
    iz: Vec<f32>,
    lattice: Vec<u32>,
    found: Vec<Step>,
    probe: Probe,
}

/// One column's march, in a [`March`].
#[derive(Default)]
struct Column {
    /// How its ground runs across per unit of depth.
    across: f32,
    /// The step it starts at, and the next one to take (`None` once it has
    /// stopped).
    start: u32,
    next: Option<u32>,
    /// The steps, near to far, and how many more times each segment
    /// between two is to be halved; and room for the next round's.
    points: Vec<Step>,
    halvings: Vec<u32>,
    spare_points: Vec<Step>,
    spare_halvings: Vec<u32>,
}

/// Room for the points at which the sand is sampled together: ground
/// points `(x, z)`, the lengths of a pixel there, and the samples.
#[derive(Debug, Default)]
struct Probe {
    x: Vec<f32>,
    z: Vec<f32>,
    footprint: Vec<f32>,
    samples: Samples,
    /// The light there: colour, cover, and how much of the relief stands.
    r: Vec<f32>,
    g: Vec<f32>,
    b: Vec<f32>,
    alpha: Vec<f32>,
    relief: Vec<f32>,
}

/// One step of a column's march: one over its depth, and its row on the
/// screen (fractional).
#[derive(Clone, Copy, Debug)]
struct Step {
    iz: f32,
    y: f32,
    /// How steeply the sand rises away along the column's ray there.
    rise: f32,
    /// The face it lies on (see [`Sample::face`]).
    face: u32,
    /// Its number `k` (one over its depth is `k` times a step's), counted
    /// from the horizon, for the steps every march takes; 0 for the
    /// middles of halved ones.
    lattice: u32,
}

impl Step {
    /// Whether a crest lies between `self` and the farther `b`: the sand
    /// rises at one and falls at the other.
    fn crest_before(&self, b: &Step) -> bool {
        self.rise > 0.0 && b.rise < 0.0
    }

    /// Whether a brink or a crease lies between `self` and `b`: they lie
    /// on two faces.
    fn crease_before(&self, b: &Step) -> bool {
        self.face != b.face
    }
}

impl DunesDraw {
    /// How much of the dunes' relief stands at depth `z` ([`Reach::relief`]).
    #[inline]
    fn relief(&self, z: f32) -> f32 {
        Reach {
            near: self.near,
            far: self.far,
            farthest: self.farthest,
        }
        .relief(z)
    }

    /// The steps at one over the depths `iz`, in columns whose ground runs
    /// `across` per unit of depth (one each), added to `out`.
    fn steps(&self, across: &[f32], iz: &[f32], probe: &mut Probe, out: &mut Vec<Step>) {
        let Probe { x, z, samples, .. } = probe;
        z.clear();
        z.extend(iz.iter().map(|&iz| 1.0 / iz));
        x.clear();
        x.extend(across.iter().zip(z.iter()).map(|(&across, &z)| across * z));
        self.field.samples(self.build, x, z, None, samples);
        out.extend(iz.iter().zip(z.iter()).enumerate().map(|(i, (&iz, &z))| {
            let k = self.relief(z);
            let (h, rise, face) = if k > 0.0 {
                let s = samples.get(i);
                (s.h * k, (s.gx * across[i] + s.gz) * k, s.face)
            } else {
                (0.0, 0.0, 0)
            };
            Step {
                iz,
                y: self.horizon + self.h * (self.eye - h) * iz,
                rise,
                face,
                lattice: 0,
            }
        }));
    }

    /// The step at the picture's bottom: the rows below the horizon, in
    /// steps of flat sand. Nearer, the steps are [`COARSE`] times as long.
    fn under(&self) -> u32 {
        ((self.picture - self.horizon).max(0.0) / STEP).ceil() as u32
    }

    /// The step where a march to draw rows down to `bottom` (not included)
    /// starts: where the sand rises from flat (nearer, it lies under the
    /// picture), or nearer the horizon where no dune could reach those
    /// rows from nearer. The same in every column.
    fn start(&self, bottom: u32) -> u32 {
        // One over the depth per step, even on the screen for flat sand.
        let per = STEP / (self.h * self.eye);
        let flat = (1.0 / (self.near.0 * per)).ceil();
        let reach = ((bottom as f32 - self.horizon).max(0.0) / STEP * self.eye
            / (self.eye - self.field.tallest))
            .ceil();
        // Nearer than the picture's bottom the steps are four times as
        // long (they lie under the picture, and only hide what is behind
        // them): counted from the bottom's step, so that every march takes
        // the same steps.
        let under = self.under();
        let start = flat.min(reach) as u32 + 1;
        if start > under {
            under + (start - under).div_ceil(COARSE) * COARSE
        } else {
            start
        }
    }

    /// Marches columns `xs` from near to far, column `x` from step
    /// `start(x)` (see [`Step::lattice`]) to the horizon, or to the first
    /// step after it that comes up to row `stop` or higher (farther ground
    /// shows only above it), into `march.columns[..].points`.
    ///
    /// Every march takes the same steps (and halves them alike) from where
    /// it starts: a march from a nearer step gives the same steps farther
    /// on.
    fn march(&self, xs: Range<u32>, start: impl Fn(u32) -> u32, stop: f32, march: &mut March) {
        // One over the depth per step, even on the screen for flat sand.
        let per = STEP / (self.h * self.eye);
        let under = self.under();
        let March {
            columns,
            column,
            across,
            iz,
            lattice,
            found,
            probe,
        } = march;
        columns.resize_with(xs.len(), Column::default);
        columns.truncate(xs.len());
        for (c, x) in columns.iter_mut().zip(xs) {
            c.across = (x as f32 + 0.5 - self.middle) / self.h;
            c.start = start(x);
            // From the step before the first, for the first one's test of
            // a bend: the same as where the march starts further off.
            c.next = Some(c.start + if c.start >= under { COARSE } else { 1 });
            c.points.clear();
        }
        // A step of each column at a time (two the first time: the one
        // before the first, and the first), all worked out together.
        let mut first = true;
        loop {
            column.clear();
            across.clear();
            iz.clear();
            lattice.clear();
            for (i, c) in columns.iter_mut().enumerate() {
                for _ in 0..if first { 2 } else { 1 } {
                    let Some(k) = c.next else {
                        break;
                    };
                    column.push(i as u32);
                    across.push(c.across);
                    iz.push(k as f32 * per);
                    lattice.push(k);
                    c.next = (k > 1).then(|| k - if k > under { COARSE } else { 1 });
                }
            }
            if iz.is_empty() {
                break;
            }
            first = false;
            found.clear();
            self.steps(across, iz, probe, found);
            for ((step, &i), &k) in found.iter().zip(column.iter()).zip(lattice.iter()) {
                let c = &mut columns[i as usize];
                c.points.push(Step {
                    lattice: k,
                    ..*step
                });
                if k < c.start && step.y <= stop {
                    c.next = None;
                }
            }
        }
        // Halve the steps where three do not lie on a line, or a crest or
        // a crease lies between two.
        for c in columns.iter_mut() {
            c.halvings.clear();
            c.halvings.extend(c.points.windows(3).map(|w| {
                let [before, a, b] = [w[0], w[1], w[2]];
                let bent = (before.y - 2.0 * a.y + b.y).abs() > BEND
                    || a.crest_before(&b)
                    || a.crease_before(&b);
                if bent { HALVINGS } else { 0 }
            }));
            c.points.remove(0);
        }
        self.refine(march);
    }

    /// Calls `put(row, iz)` with one over the depth of the ground each of
    /// `rows` shows, from a column's march `points` (near to far): the
    /// rows whose centres lie between each step and the next (higher),
    /// above what is drawn already. A march that starts where nothing
    /// nearer comes up into `rows` (see [`DunesDraw::start`]) gives them as
    /// the whole column's does.
    fn shown(&self, points: &[Step], rows: Range<u32>, mut put: impl FnMut(u32, f32)) {
        let bottom = rows.end as f32;
        let mut top = bottom;
        for w in points.windows(2) {
            let (a, b) = (w[0], w[1]);
            if b.y >= top || b.y >= a.y {
                continue;
            }
            let lo = a.y.min(top);
            let mut r = (b.y - 0.5).ceil().max(rows.start as f32);
            while r + 0.5 < lo && r < bottom {
                let t = (a.y - (r + 0.5)) / (a.y - b.y);
                put(r as u32, a.iz + (b.iz - a.iz) * t);
                r += 1.0;
            }
            top = b.y;
        }
        // Beyond the last step the sand is flat to the horizon.
        let mut r = (self.horizon - 0.5).ceil().max(rows.start as f32);
        while r + 0.5 < top.min(bottom) {
            let iz = ((r + 0.5 - self.horizon) / (self.h * self.eye)).max(0.0);
            if iz > 0.0 {
                put(r as u32, iz);
            }
            r += 1.0;
        }
    }

    /// The row under chunk `c`'s rows, not included (see [`CHUNK`]).
    fn chunk_end(&self, c: u32) -> u32 {
        self.y0 + (c + 1) * CHUNK + 1
    }

    /// Marches the columns of block `b` (see [`DunesDraw::starts`]) whole,
    /// giving the first row that shows sand in any of them (`u32::MAX` if
    /// none). Writes their depths into `depth` if given (row after row,
    /// a lane a column), and into `starts` where their marches for each
    /// chunk may start: the last step before the first that comes up into
    /// the chunk's rows or higher, the nearest of their columns'.
    fn prepare_block(&self, b: usize, mut depth: Option<&mut [f32]>, starts: &mut [u32]) -> u32 {
        let x0 = self.x0 + (b * LANES) as u32;
        let x1 = (x0 + LANES as u32).min(self.x0 + self.cols);
        let rows = self.y0..self.y0 + self.rows;
        let start = self.start(rows.end);
        let mut march = March::default();
        self.march(x0..x1, |_| start, rows.start as f32 + 0.5, &mut march);
        let mut first = u32::MAX;
        for (lane, c) in march.columns.iter().enumerate() {
            let points = &c.points;
            self.shown(points, rows.clone(), |r, iz| {
                if iz > 0.0 {
                    first = first.min(r);
                }
                if let Some(depth) = depth.as_deref_mut() {
                    depth[(r - rows.start) as usize * LANES + lane] = iz;
                }
            });
            // The chunks from the lowest up: each step comes up to a
            // chunk's rows no sooner than to those of the chunk under it.
            let mut chunk = starts.len();
            let mut put = |c: usize, k: u32| starts[c] = starts[c].max(k);
            let mut last = points.first().map_or(start, |p| p.lattice);
            for p in points {
                while chunk > 0 && p.y < self.chunk_end(chunk as u32 - 1) as f32 {
                    chunk -= 1;
                    put(chunk, last);
                }
                if p.lattice > 0 {
                    last = p.lattice;
                }
            }
            // The chunks no step comes up to: from the last step on, flat
            // sand to the horizon.
            for c in 0..chunk {
                put(c, last);
            }
        }
        first
    }

    /// One over the depth of the ground each pixel of columns `cols` and
    /// rows `rows` shows, each column marched from its block's start for
    /// the chunk that ends at or under `rows.end`.
    fn march_chunk(&self, cols: Range<u32>, rows: Range<u32>) -> Depths {
        let mut depths = Depths::new(cols.clone(), rows.clone());
        let c = ((rows.end - self.y0 - 1).div_ceil(CHUNK).max(1) - 1) as usize;
        let whole = self.start(self.y0 + self.rows);
        let chunks = self.chunks as usize;
        let start = |x: u32| {
            let b = (x - self.x0) as usize / LANES;
            if c < chunks {
                self.starts[b * chunks + c]
            } else {
                whole
            }
        };
        let mut march = March::default();
        let n = rows.len();
        for (i, block) in depths.iz.chunks_mut(LANES * n).enumerate() {
            let x0 = cols.start + (i * LANES) as u32;
            let x1 = (x0 + LANES as u32).min(cols.end);
            self.march(x0..x1, start, rows.start as f32 + 0.5, &mut march);
            for (lane, column) in march.columns.iter().enumerate() {
                self.shown(&column.points, rows.clone(), |r, iz| {
                    block[(r - rows.start) as usize * LANES + lane] = iz;
                });
            }
        }
        depths
    }

    /// The depths of the pixels of columns `cols` and rows `rows`: the
    /// whole picture's, a chunk marched lately, or the chunk of rows from
    /// the one `rows` starts in marched now (the row after it too: a band
    /// reads it), kept for the next bands.
    fn depths(&self, cols: Range<u32>, rows: Range<u32>) -> Arc<Depths> {
        if let Some(whole) = &self.whole {
            return whole.clone();
        }
        if cols.is_empty() || rows.is_empty() {
            return Arc::new(Depths::new(cols, rows));
        }
        let lock = || self.kept.lock().unwrap_or_else(|e| e.into_inner());
        {
            let mut kept = lock();
            if let Some(i) = kept.iter().position(|d| d.holds(&cols, &rows)) {
                let d = kept.remove(i);
                kept.push(d.clone());
                return d;
            }
        }
        let top = self.y0 + (rows.start - self.y0) / CHUNK * CHUNK;
        let bottom = (top + CHUNK + 1).max(rows.end).min(self.y0 + self.rows);
        let depths = Arc::new(self.march_chunk(cols, top..bottom));
        let mut kept = lock();
        // A chunk for each thread drawing, and one more.
        if kept.len() > rayon::current_num_threads() {
            kept.remove(0);
        }
        kept.push(depths.clone());
        depths
    }

    /// Halves the segments between each column's steps (near to far),
    /// segment `i` up to `halvings[i]` times, while its middle lies off the
    /// line between its ends or a crest or crease lies between: all the
    /// segments of all the columns a halving at a time, so that their
    /// middles are worked out together.
    fn refine(&self, march: &mut March) {
        let one_face = |a: &Step, b: &Step| !a.crest_before(b) && !a.crease_before(b);
        let March {
            columns,
            across,
            iz,
            found,
            probe,
            ..
        } = march;
        loop {
            across.clear();
            iz.clear();
            for c in columns.iter() {
                for (w, _) in c
                    .points
                    .windows(2)
                    .zip(&c.halvings)
                    .filter(|&(_, &h)| h > 0)
                {
                    across.push(c.across);
                    iz.push(0.5 * (w[0].iz + w[1].iz));
                }
            }
            if iz.is_empty() {
                return;
            }
            found.clear();
            self.steps(across, iz, probe, found);
            let mut middle = found.iter();
            for c in columns.iter_mut() {
                if c.halvings.iter().all(|&h| h == 0) {
                    continue;
                }
                let Column {
                    points,
                    halvings,
                    spare_points,
                    spare_halvings,
                    ..
                } = c;
                spare_points.clear();
                spare_halvings.clear();
                for (w, &h) in points.windows(2).zip(halvings.iter()) {
                    let (a, b) = (w[0], w[1]);
                    spare_points.push(a);
                    if h == 0 {
                        spare_halvings.push(0);
                        continue;
                    }
                    let m = *middle.next().expect("a middle for each segment halved");
                    let straight = (m.y - 0.5 * (a.y + b.y)).abs() <= 0.5 * BEND;
                    let left = if straight && one_face(&a, &m) && one_face(&m, &b) {
                        0
                    } else {
                        h - 1
                    };
                    spare_points.push(m);
                    spare_halvings.extend([left, left]);
                }
                spare_points.extend(points.last());
                std::mem::swap(points, spare_points);
                std::mem::swap(halvings, spare_halvings);
            }
        }
    }

    /// The sand's colour and cover at pixels `(x, iz)` (column `x`, whose
    /// ground lies at one over depth `iz`), and the face each is on, added
    /// to `out`: the sand sampled at all of them together.
    fn colors(&self, points: &[(u32, f32)], probe: &mut Probe, out: &mut Vec<Px>) {
        let Probe {
            x,
            z,
            footprint,
            samples,
            r,
            g,
            b,
            alpha,
            relief,
        } = probe;
        let wz = self.field.wind[1];
        z.clear();
        z.extend(points.iter().map(|&(_, iz)| 1.0 / iz));
        x.clear();
        x.extend(
            points
                .iter()
                .zip(z.iter())
                .map(|(&(x, _), &z)| (x as f32 + 0.5 - self.middle) / self.h * z),
        );
        // A pixel's length on the ground, across and away; a shadow's edge
        // is soft over a pixel at least: the height over the sun's ray
        // changes by about a third of its length.
        footprint.clear();
        footprint.extend(
            z.iter()
                .map(|&z| 0.3 * (z / self.h * (1.0 + (z / self.eye * wz).abs()))),
        );
        self.field
            .samples(self.build, x, z, Some(footprint), samples);
        let n = points.len();
        for part in [&mut *relief, &mut *r, &mut *g, &mut *b, &mut *alpha] {
            part.resize(n, 0.0);
        }
        let Samples {
            h,
            gx,
            gz,
            lit,
            ripples,
            face,
        } = samples;
        let sample = [&h[..], &gx[..], &gz[..], &lit[..], &ripples[..]];
        let light = [
            &mut r[..],
            &mut g[..],
            &mut b[..],
            &mut alpha[..],
            &mut relief[..],
        ];
        match self.build {
            Build::Portable => self.lights(x, z, sample, light),
            // SAFETY: `Build::Avx2` is only chosen where the CPU has it.
            #[cfg(target_arch = "x86_64")]
            Build::Avx2 => unsafe { self.lights_avx2(x, z, sample, light) },
        }
        out.extend((0..n).map(|i| Px {
            color: [r[i], g[i], b[i]],
            alpha: alpha[i],
            face: if relief[i] > 0.0 { face[i] } else { 0 },
        }));
    }

    /// [`DunesDraw::lights`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn lights_avx2(&self, x: &[f32], z: &[f32], s: [&[f32]; 5], out: [&mut [f32]; 5]) {
        let [h, gx, gz, lit, ripples] = s;
        let [r, g, b, alpha, relief] = out;
        self.lights(x, z, [h, gx, gz, lit, ripples], [r, g, b, alpha, relief]);
    }

    /// The sand's colour and cover at ground points `(x[i], z[i])`, from
    /// the field's samples there (height, slope, shade and ripples), into
    /// `r`, `g`, `b` and `alpha`, with how much of its relief stands there
    /// (0 to 1) into `relief`. Point by point without branches, so that
    /// the loop vectorizes: every build gives the same bits.
    #[inline(always)]
    fn lights(&self, x: &[f32], z: &[f32], s: [&[f32]; 5], out: [&mut [f32]; 5]) {
        let [sh, sgx, sgz, slit, sripples] = s;
        let [r, g, b, alpha, relief] = out;
        let n = x
            .len()
            .min(z.len())
            .min(sh.len())
            .min(sgx.len())
            .min(sgz.len());
        let n = n
            .min(slit.len())
            .min(sripples.len())
            .min(r.len())
            .min(g.len());
        let n = n.min(b.len()).min(alpha.len()).min(relief.len());
        let [wx, wz] = self.field.wind;
        let l = self.light;
        let flat_sun = (l[0] * l[0] + l[2] * l[2]).sqrt().max(1e-4);
        for i in 0..n {
            let (gx, z) = (x[i], z[i]);
            let k = smoothstep(self.near.0, self.near.1, z)
                * (1.0 - smoothstep(self.farthest.0, self.farthest.1, z));
            // No relief: flat sand, lit, with ripples.
            let stands = k > 0.0;
            let (h, sx, sz) = if stands {
                (sh[i], sgx[i], sgz[i])
            } else {
                (0.0, 0.0, 0.0)
            };
            let (shade, rippled) = if stands {
                (slit[i], sripples[i])
            } else {
                (1.0, 1.0)
            };
            // A pixel's length on the ground, across and away.
            let footprint = z / self.h * (1.0 + (z / self.eye * wz).abs());
            let (mut sx, mut sz) = (sx * k, sz * k);
            // Ripples across the wind: a gentle stoss and a steep lee,
            // where they span a few pixels.
            let plain = self.ripples * rippled * smoothstep(4.0, 10.0, RIPPLE / footprint);
            let u = gx * wx + z * wz;
            let v = z * wx - gx * wz;
            let (wave, _) = self.field.lattice.noise1(v / (6.0 * RIPPLE), 883);
            let phase = u / RIPPLE + 1.5 * wave;
            let t = phase - floor_i32(phase) as f32;
            let slope = if t < 0.72 { 0.03 } else { -0.08 };
            if plain > 0.0 {
                sx += plain * slope * wx;
                sz += plain * slope * wz;
            }
            let n = [-sx, 1.0, sz];
            let len = (n[0] * n[0] + 1.0 + n[2] * n[2]).sqrt();
            let cos = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]) / len;
            // Three lights: the sun, the sky (less on steep faces), and a
            // bounce from the lit sand onto faces turned from the sun.
            let sun = cos.max(0.0) * (1.0 - (1.0 - shade) * k);
            let sun = if self.relief_gain > 1.0 {
                (l[1] + (sun - l[1]) * self.relief_gain).max(self.moonlit_shade * l[1])
            } else {
                sun
            };
            let sky = 0.55 + 0.45 / len;
            let away = -(n[0] * l[0] + n[2] * l[2]) / (len * flat_sun);
            let bounce = 0.2 * away.max(0.0);
            let color: Linear = std::array::from_fn(|c| {
                let lit =
                    self.direct[c] * (sun + bounce * self.sand[c]) * self.flat[c] * self.night;
                let fill = self.ambient[c] * sky * self.flat[c] * self.night;
                // The sky's light on the sand is less coloured by it: cool
                // shadows.
                (self.sand[c] * lit + self.sky_sand[c] * fill).min(2.6 * self.sand[c])
            });
            // The haze of distance, as the floor's: by the rows to the
            // horizon.
            let haze = 0.4 * (1.0 - smoothstep(0.0, 0.06, self.eye / z));
            let color = mix(color, self.haze, haze);
            let body = smoothstep(0.0, 0.03 * self.field.tallest, h * k);
            let near = self.sheet.max(body);
            [r[i], g[i], b[i]] = color;
            alpha[i] = self.far_sand + (near - self.far_sand) * k;
            relief[i] = k;
        }
    }
}

/// Room for working out pixels exactly.
#[derive(Debug, Default)]
struct Room {
    probe: Probe,
    /// The pixels that show sand, as `(column, one over the depth)`, and
    /// their colours.
    sand: Vec<(u32, f32)>,
    lit: Vec<Px>,
}

impl DunesDraw {
    /// The sand at `pixels`, worked out exactly, into `out` (`None` where
    /// none shows).
    fn exact(
        &self,
        depths: &Depths,
        pixels: &[(u32, u32)],
        room: &mut Room,
        out: &mut Vec<Option<Px>>,
    ) {
        let Room { probe, sand, lit } = room;
        sand.clear();
        sand.extend(
            pixels
                .iter()
                .filter_map(|&(x, y)| Some((x, depths.at(x, y)?))),
        );
        lit.clear();
        self.colors(sand, probe, lit);
        let mut lit = lit.iter();
        out.clear();
        out.extend(pixels.iter().map(|&(x, y)| {
            depths
                .at(x, y)
                .map(|_| *lit.next().expect("a colour for each pixel of sand"))
        }));
    }
}

/// One over the depth of the ground each pixel of a rectangle shows, 0
/// where no sand shows: in blocks of [`LANES`] columns, row after row in
/// each (a column is marched into its block's lane; the pixels of a row
/// are drawn one after the other).
struct Depths {
    /// The rectangle's first column and row, and its size.
    x0: u32,
    y0: u32,
    cols: u32,
    rows: u32,
    iz: Vec<f32>,
}

impl Depths {
    /// Room for the depths of columns `cols` and rows `rows`, no sand yet.
    fn new(cols: Range<u32>, rows: Range<u32>) -> Depths {
        Depths {
            x0: cols.start,
            y0: rows.start,
            cols: cols.len() as u32,
            rows: rows.len() as u32,
            iz: vec![0.0; cols.len().div_ceil(LANES) * LANES * rows.len()],
        }
    }

    /// Whether it holds the pixels of columns `cols` and rows `rows`.
    fn holds(&self, cols: &Range<u32>, rows: &Range<u32>) -> bool {
        self.x0 <= cols.start
            && cols.end <= self.x0 + self.cols
            && self.y0 <= rows.start
            && rows.end <= self.y0 + self.rows
    }

    /// One over the depth at pixel `(x, y)`, if it is held and shows sand.
    #[inline]
    fn at(&self, x: u32, y: u32) -> Option<f32> {
        let (c, r) = (x.checked_sub(self.x0)?, y.checked_sub(self.y0)?);
        if c >= self.cols || r >= self.rows {
            return None;
        }
        let (c, r) = (c as usize, r as usize);
        let iz = self.iz[(c / LANES * self.rows as usize + r) * LANES + c % LANES];
        (iz > 0.0).then_some(iz)
    }
}

/// The sand at a pixel: its colour, its cover and its face (see
/// [`Sample::face`]).
#[derive(Clone, Copy, Debug)]
struct Px {
    color: Linear,
    alpha: f32,
    face: u32,
}

/// How far apart (linear light, or cover) the colours around a point may
/// be for it to take their mean rather than its own.
const AGREE: f32 = 0.025;

impl Draw for DunesDraw {
    fn touches(&self, _y0: u32, y1: u32) -> bool {
        y1 > self.first
    }

    fn covers(&self, y0: u32, _y1: u32) -> bool {
        // Opaque sand from the first row wholly under the horizon down.
        self.opacity >= 1.0
            && self.sheet >= 1.0
            && self.far_sand >= 1.0
            && y0 as f32 >= self.horizon.ceil() + 1.0
            && y0 >= self.first
    }

    fn draw(&self, band: &mut Band) {
        let (x0, x1) = (band.x0, band.x1());
        let (y0, y1) = (band.y0.max(self.first), band.y1());
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        let shade = self.shade.as_ref().map(|s| s.samples((x0, x1), (y0, y1)));
        let mut room = Room::default();
        // The sand is worked out exactly on every fourth column of every
        // fourth row around the band; between, on every second, it is the
        // mean of the four (or two) around where they lie on one face and
        // agree, else worked out; and each pixel likewise from the second
        // ones. A brink, a shadow's edge or a nearer crest is drawn
        // exactly; smooth sand is drawn at a sixteenth of the cost. Every
        // point depends only on its position: the same in any band.
        let (gx, gy) = (x0 & !3, y0 & !3);
        let (n4x, n4y) = ((x1 - 1 - gx) / 4 + 2, (y1 - 1 - gy) / 4 + 2);
        // The depths of the pixels read: from the fourth column and row at
        // or before the band's first to the fourth after its last.
        let (x_end, y_end) = (self.x0 + self.cols, self.y0 + self.rows);
        let depths = self.depths(
            gx.clamp(self.x0, x_end)..(gx + 4 * n4x - 3).clamp(self.x0, x_end),
            gy.clamp(self.y0, y_end)..(gy + 4 * n4y - 3).clamp(self.y0, y_end),
        );
        let points: Vec<(u32, u32)> = (0..n4y)
            .flat_map(|j| (0..n4x).map(move |i| (gx + 4 * i, gy + 4 * j)))
            .collect();
        let mut fourth = Vec::new();
        self.exact(&depths, &points, &mut room, &mut fourth);
        let (n2x, n2y) = (2 * n4x - 1, 2 * n4y - 1);
        let mut second: Vec<Option<Px>> = (0..n2y)
            .flat_map(|j| (0..n2x).map(move |i| (i, j)))
            .map(|(i, j)| {
                let at = |i: u32, j: u32| fourth[(j * n4x + i) as usize];
                between([i / 2, i.div_ceil(2)], [j / 2, j.div_ceil(2)], at)
            })
            .collect();
        // The points worked out after the means, all together.
        let missing: Vec<usize> = (0..second.len()).filter(|&k| second[k].is_none()).collect();
        let points: Vec<(u32, u32)> = missing
            .iter()
            .map(|&k| (gx + 2 * (k as u32 % n2x), gy + 2 * (k as u32 / n2x)))
            .collect();
        let mut found = Vec::new();
        self.exact(&depths, &points, &mut room, &mut found);
        for (k, px) in missing.into_iter().zip(found) {
            second[k] = px;
        }
        let at = |i: u32, j: u32| second[(j * n2x + i) as usize];
        // Per cell of the second grid: whether its four corners lie on one
        // face and agree (the pixels inside are their means).
        let agreed: Vec<bool> = (0..n2y - 1)
            .flat_map(|j| (0..n2x - 1).map(move |i| (i, j)))
            .map(|(i, j)| {
                let corners = || Some([at(i, j)?, at(i + 1, j)?, at(i, j + 1)?, at(i + 1, j + 1)?]);
                corners().is_some_and(|c| agree(&c))
            })
            .collect();
        let corner = |i: u32, j: u32| at(i, j).expect("an agreed cell's corners are sand");
        let mut pixels: Vec<Option<Px>> = Vec::with_capacity((x1 - x0) as usize);
        let (mut missing, mut found) = (Vec::new(), Vec::new());
        for y in y0..y1 {
            let (j, oy) = ((y - gy) / 2, (y - gy) & 1);
            pixels.clear();
            missing.clear();
            pixels.extend((x0..x1).map(|x| {
                let (i, ox) = ((x - gx) / 2, (x - gx) & 1);
                if ox == 0 && oy == 0 {
                    return at(i, j);
                }
                if !agreed[(j * (n2x - 1) + i) as usize] {
                    missing.push((x, y));
                    return None;
                }
                Some(match (ox, oy) {
                    (1, 0) => mean2(corner(i, j), corner(i + 1, j)),
                    (0, _) => mean2(corner(i, j), corner(i, j + 1)),
                    _ => mean2(
                        mean2(corner(i, j), corner(i + 1, j)),
                        mean2(corner(i, j + 1), corner(i + 1, j + 1)),
                    ),
                })
            }));
            self.exact(&depths, &missing, &mut room, &mut found);
            for (&(x, _), &px) in missing.iter().zip(found.iter()) {
                pixels[(x - x0) as usize] = px;
            }
            let row = band.row(y);
            for (x, px) in (x0..x1).zip(pixels.iter()) {
                let Some(px) = *px else {
                    continue;
                };
                let mut color = px.color;
                if let Some(s) = &shade {
                    color = scale(color, s.at(x, y));
                }
                let c = &mut row[(x - x0) as usize];
                let alpha = px.alpha * self.opacity;
                if alpha >= 1.0 {
                    *c = color;
                } else {
                    blend(c, color, alpha);
                }
            }
            // In one ground, the sand hides what stands behind it.
            if let (true, Some(d)) = (self.keys, band.depth.as_mut()) {
                let start = ((y - band.y0) * band.width) as usize;
                for (x, px) in (x0..x1).zip(pixels.iter()) {
                    if let (Some(px), Some(iz)) = (px, depths.at(x, y))
                        && px.alpha * self.opacity >= 0.5
                    {
                        d.ground[start + (x - band.x0) as usize] = self.h * self.eye * iz;
                    }
                }
            }
        }
    }
}

/// The mean of the points of a coarser grid at columns `xs` and rows `ys`
/// (the same twice where the point lies on the grid's line), read by
/// `at`, where all are sand on one face and agree within [`AGREE`].
#[inline]
fn between(xs: [u32; 2], ys: [u32; 2], at: impl Fn(u32, u32) -> Option<Px>) -> Option<Px> {
    let a = at(xs[0], ys[0])?;
    if xs[0] == xs[1] && ys[0] == ys[1] {
        return Some(a);
    }
    let around = [a, at(xs[1], ys[0])?, at(xs[0], ys[1])?, at(xs[1], ys[1])?];
    agree(&around).then(|| {
        let [a, b, c, d] = around;
        mean2(mean2(a, b), mean2(c, d))
    })
}

/// Whether four points lie on one face and their colours and covers
/// within [`AGREE`] of each other.
#[inline]
fn agree(around: &[Px; 4]) -> bool {
    let face = around[0].face;
    if around.iter().any(|p| p.face != face) {
        return false;
    }
    let mut lo = [f32::MAX; 4];
    let mut hi = [f32::MIN; 4];
    for p in around {
        for (k, v) in [p.color[0], p.color[1], p.color[2], p.alpha]
            .into_iter()
            .enumerate()
        {
            lo[k] = lo[k].min(v);
            hi[k] = hi[k].max(v);
        }
    }
    (0..4).all(|k| hi[k] - lo[k] <= AGREE)
}

/// The mean of two points.
#[inline]
fn mean2(a: Px, b: Px) -> Px {
    Px {
        color: std::array::from_fn(|k| 0.5 * (a.color[k] + b.color[k])),
        alpha: 0.5 * (a.alpha + b.alpha),
        face: a.face,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::palette::TimeOfDay;
    use crate::base::simd::Build;
    use crate::compose::Plan;
    use crate::layers::BAND_ROWS;
    use crate::scene::Scene;

    /// The bits `draw` paints, band by band.
    fn paint(w: u32, h: u32, draw: &DunesDraw) -> Vec<u32> {
        crate::layers::paint_bands(w, h, |band| draw.draw(band))
    }

    /// The bits `draw` paints on columns `cols` of rows `y0..y1` (in one of
    /// the picture's bands), over a background that varies from pixel to
    /// pixel of the picture.
    fn paint_band(draw: &DunesDraw, cols: &Range<u32>, (y0, y1): (u32, u32)) -> Vec<u32> {
        let mut px: Vec<Linear> = (y0..y1)
            .flat_map(|y| {
                cols.clone()
                    .map(move |x| [(x % 7) as f32 * 0.1, 0.3, (y % 5) as f32 * 0.2])
            })
            .collect();
        draw.draw(&mut Band {
            y0,
            rows: y1 - y0,
            x0: cols.start,
            width: cols.len() as u32,
            index: (y0 / BAND_ROWS) as usize,
            px: &mut px,
            depth: None,
        });
        px.iter().flatten().map(|v| v.to_bits()).collect()
    }

    /// The picture's bands of rows, cut to `rows`, as a window draws them.
    fn bands(rows: Range<u32>) -> Vec<(u32, u32)> {
        let first = rows.start / BAND_ROWS;
        (first..rows.end.div_ceil(BAND_ROWS))
            .map(|b| {
                let y0 = (b * BAND_ROWS).max(rows.start);
                (y0, ((b + 1) * BAND_ROWS).min(rows.end))
            })
            .collect()
    }

    /// A scene of the dunes `dunes` at `time`, the wind at `wind` degrees,
    /// the horizon at `horizon`.
    fn scene(time: TimeOfDay, wind: f32, horizon: f32, seed: u64) -> Scene {
        Scene {
            time,
            wind,
            horizon,
            seed,
            ..Scene::default()
        }
    }

    /// Where the depths of every pixel are not kept, the bands' chunks of
    /// rows, each marched from where its columns' marches start, give the
    /// bits of the whole march: for every form, in pictures and windows
    /// whose last chunk and band are short, with the bands drawn in any
    /// order and on several threads.
    #[test]
    fn chunks_paint_the_bits_of_the_whole_march() {
        let cases = [
            (1, 0.95, 14.0, 140.0, TimeOfDay::Dawn, 200.0, 0.42),
            (1, 0.6, 40.0, 150.0, TimeOfDay::Noon, 90.0, 0.2),
            (0, 0.25, 10.0, 140.0, TimeOfDay::Morning, 80.0, 0.35),
            (2, 0.9, 30.0, 200.0, TimeOfDay::GoldenHour, 10.0, 0.5),
        ];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for (i, (form, cover, height, spacing, time, wind, horizon)) in
            cases.into_iter().enumerate()
        {
            let dunes = Dunes {
                form,
                cover,
                height,
                spacing,
                ..Dunes::default()
            };
            let plan = Plan::new(&scene(time, wind, horizon, i as u64)).unwrap();
            for (w, h) in [(301, 517), (97, 1000)] {
                // The whole picture, drawn from the depths of every pixel.
                let frame = plan.frame(w, h);
                let whole = dunes.prepare_with(&frame, Build::best(), usize::MAX);
                assert!(whole.whole.is_some());
                let all = 0..w;
                let picture: Vec<Vec<u32>> = bands(0..h)
                    .into_iter()
                    .map(|b| paint_band(&whole, &all, b))
                    .collect();
                let lazy = dunes.prepare_with(&frame, Build::best(), 0);
                assert!(lazy.whole.is_none() && lazy.first == whole.first);
                // Top to bottom, bottom to top, and on three threads.
                let down: Vec<Vec<u32>> = bands(0..h)
                    .into_iter()
                    .map(|b| paint_band(&lazy, &all, b))
                    .collect();
                assert!(down == picture, "case {i}, {w}x{h}: chunks differ");
                let mut up: Vec<Vec<u32>> = bands(0..h)
                    .into_iter()
                    .rev()
                    .map(|b| paint_band(&lazy, &all, b))
                    .collect();
                up.reverse();
                assert!(up == picture, "case {i}, {w}x{h}: chunks upward differ");
                let lazy = dunes.prepare_with(&frame, Build::best(), 0);
                let threads: Vec<Vec<u32>> = pool.install(|| {
                    bands(0..h)
                        .into_par_iter()
                        .map(|b| paint_band(&lazy, &all, b))
                        .collect()
                });
                assert!(threads == picture, "case {i}, {w}x{h}: threads differ");
                // Windows, prepared for their own pixels alone.
                for (cols, rows) in [
                    (13..250, 203..517),
                    (0..1, 100..400),
                    (40..90, 0..h / 2 + 3),
                    (w - 33..w, h - 70..h - 1),
                ] {
                    let cols = cols.start.min(w - 1)..cols.end.min(w);
                    let mut frame = plan.frame(w, h);
                    (frame.cols, frame.rows) = (cols.clone(), rows.clone());
                    let window = dunes.prepare_with(&frame, Build::best(), 0);
                    for b in bands(rows.clone()) {
                        let cut: Vec<u32> = picture[(b.0 / BAND_ROWS) as usize]
                            .chunks(3 * w as usize)
                            .skip((b.0 % BAND_ROWS) as usize)
                            .take((b.1 - b.0) as usize)
                            .flat_map(|row| &row[3 * cols.start as usize..3 * cols.end as usize])
                            .copied()
                            .collect();
                        assert!(
                            paint_band(&window, &cols, b) == cut,
                            "case {i}, {w}x{h}: window {cols:?} x {rows:?} differs at rows {b:?}"
                        );
                    }
                }
            }
        }
    }

    /// The dunes of a large picture hold where each chunk's marches start
    /// and the depths of a chunk of rows for each thread drawing, not of
    /// every pixel: a streamed dune sea 32768×18432 held 2.25 GiB of them.
    #[test]
    fn the_dunes_hold_a_few_rows_not_the_picture() {
        let (w, h) = (1500u32, 2600u32);
        let scene = crate::scene::presets::load("dune-sea").unwrap();
        let composer = Plan::new(&scene).unwrap().at(w, h).unwrap();
        let rows = 32;
        let mut scratch = composer.scratch();
        let mut out = vec![0; (w * rows * 4) as usize];
        for y0 in (0..h).step_by(rows as usize) {
            let n = rows.min(h - y0);
            composer.render_rows(y0, &mut out[..(w * n * 4) as usize], &mut scratch);
        }
        let (_, dunes) = composer
            .into_layers()
            .find(|(i, _)| matches!(scene.layers[*i], crate::layers::Layer::Dunes(_)))
            .unwrap();
        let dunes = dunes.into_any().downcast::<DunesDraw>().unwrap();
        let picture = (w * h * 4) as usize;
        // A chunk of rows and the row after it, for each thread and one
        // more;
        // a start for each block of columns and chunk of rows.
        let chunk = (CHUNK as usize + 1) * (w as usize).div_ceil(LANES) * LANES * 4;
        let chunks = (rayon::current_num_threads() + 1) * chunk;
        let starts = (w as usize).div_ceil(LANES) * (h / CHUNK) as usize * 4;
        let held = dunes.held_bytes();
        assert!(
            held <= chunks + starts && held < picture / 8,
            "the dunes hold {held} bytes"
        );
    }

    /// The sand has no cliffs: along lines across many dunes of every
    /// form, its height changes between points a centimetre apart by no
    /// more than a slope steeper than any face allows. (Star dunes once
    /// drew an arm's dice only where a point lay beside it, so the arms
    /// moved from point to point.)
    #[test]
    fn the_sand_has_no_cliffs() {
        for form in 0..3 {
            let dunes = Dunes {
                form,
                height: 30.0,
                spacing: 300.0,
                cover: 0.6,
                ..Dunes::default()
            };
            let field = Field::new(&dunes, [0.6, 0.8], [0.5, 0.4, -0.77], 11);
            let step = 0.01 * METRE;
            let mut mid = 0;
            for line in 0..40 {
                let angle = line as f32 * 0.37;
                let (dx, dz) = (math::cos(angle) * step, math::sin(angle) * step);
                let (x0, z0) = (line as f32 * 3.1 - 60.0, 50.0 + line as f32 * 1.7);
                let points = 60_000;
                let x: Vec<f32> = (0..points).map(|k| x0 + k as f32 * dx).collect();
                let z: Vec<f32> = (0..points).map(|k| z0 + k as f32 * dz).collect();
                let mut samples = Samples::default();
                field.samples(Build::Portable, &x, &z, None, &mut samples);
                for k in 1..points {
                    let (a, b) = (samples.h[k - 1], samples.h[k]);
                    mid += usize::from(b > 0.5 * field.tallest);
                    assert!(
                        (b - a).abs() <= 2.0 * step,
                        "form {form}: the sand steps by {} from ({}, {})",
                        b - a,
                        x[k],
                        z[k]
                    );
                }
            }
            assert!(mid > 1000, "form {form}: the lines cross few dunes");
        }
    }

    /// The sand's sampling and light are written to vectorize, built for
    /// AVX2 where the CPU has it: every build marches and paints the bits
    /// of the portable one, for every form, sun and wind.
    #[test]
    fn every_build_paints_the_bits_of_the_portable_one() {
        let cases = [
            (1, TimeOfDay::Dawn, 200.0, 0.95),
            (1, TimeOfDay::Noon, 90.0, 0.4),
            (1, TimeOfDay::GoldenHour, 10.0, 0.7),
            (1, TimeOfDay::Night, 300.0, 1.0),
            (0, TimeOfDay::GoldenHour, 250.0, 0.5),
            (2, TimeOfDay::Dawn, 120.0, 0.8),
        ];
        let (w, h) = (389, 233);
        for (form, time, wind, cover) in cases {
            let mut scene = Scene {
                time,
                wind,
                horizon: 0.45,
                ..Scene::default()
            };
            scene.seed = u64::from(form) + 3;
            let dunes = Dunes {
                form,
                cover,
                ..Dunes::default()
            };
            let plan = Plan::new(&scene).unwrap();
            let frame = plan.frame(w, h);
            let portable = dunes.prepare_with(&frame, Build::Portable, usize::MAX);
            let reference = paint(w, h, &portable);
            let depth = |d: &DunesDraw| d.whole.as_ref().expect("whole depths").iz.clone();
            assert!(depth(&portable).iter().any(|&iz| iz > 0.0));
            for build in Build::all().into_iter().filter(|&b| b != Build::Portable) {
                let other = dunes.prepare_with(&frame, build, usize::MAX);
                assert!(
                    depth(&other) == depth(&portable) && paint(w, h, &other) == reference,
                    "form {form}, {time:?}, wind {wind}: {build:?} gives other bits"
                );
            }
        }
    }
}
