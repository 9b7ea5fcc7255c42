//! The sand's light: its colour and cover at the pixels that show it
//! (`Px`), the sand sampled at all of them together and lit point by point
//! without branches, so that the loop vectorizes (built for AVX2 too).
//!
//! `draw` lights the ground point a pixel shows by the height field's own
//! slope, so every crease is as sharp as the sand's: the sun, the sky from
//! above, the shadow a ridge casts toward the next, the ripples, the haze
//! of distance (and the clouds' shade, as the band is drawn). Far off,
//! where a dune's length spans a few rows, the relief fades to flat sand
//! rather than to a flicker of crests stepped over.

use super::field::Samples;
use super::march::Probe;
use super::prepared::DunesDraw;
use crate::base::color::{Linear, mix};
use crate::base::math::floor_i32;
use crate::base::noise::smoothstep;
use crate::base::simd::Build;
use crate::layers::world::METRE;

/// A ripple's wavelength, scene units (about 30 cm).
const RIPPLE: f32 = 0.3 * METRE;
/// The smaller swell's size, scene units (about 2.5 m).
const SWELL: f32 = 2.5 * METRE;

/// The sand at a pixel: its colour, its cover and its face (see
/// [`Sample::face`](super::field::Sample::face)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Px {
    pub(super) color: Linear,
    pub(super) alpha: f32,
    pub(super) face: u32,
}

impl DunesDraw {
    /// The sand's colour and cover at pixels `(x, iz)` (column `x`, whose
    /// ground lies at one over depth `iz`), and the face each is on, added
    /// to `out`: the sand sampled at all of them together.
    pub(super) fn colors(&self, points: &[(u32, f32)], probe: &mut Probe, out: &mut Vec<Px>) {
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
            let plain = self.ripples
                * rippled
                * smoothstep(4.0, 10.0, RIPPLE / footprint)
                * self.ripple_gain;
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
            if self.swell > 0.0 {
                // Swells of two sizes between the ripples, where they span
                // a few pixels, stretched across the wind.
                for (size, salt) in [(SWELL, 0.0), (4.0 * SWELL, 57.0)] {
                    let fade = smoothstep(2.0, 6.0, size / footprint);
                    let (_, du, dv) = self.field.lattice.noise2(u / size + salt, v / (3.0 * size));
                    let a = self.swell * fade;
                    sx += a * (du * wx - dv * wz / 3.0);
                    sz += a * (du * wz + dv * wx / 3.0);
                }
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
            // A trough sees less of the sky than a crest, and a crest
            // catches the sun (from the second look).
            let high = (h * k * self.inv_tallest).clamp(0.0, 1.0);
            let sky = (0.55 + 0.45 / len) * (1.0 - self.occlusion * (1.0 - high));
            let sun = sun * (1.0 + self.rim * smoothstep(0.75, 1.0, high));
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
