//! The pixel shaders of a stone's body and contact shadow, [`LANES`]
//! pixels at a time, each written once and compiled for every
//! [`Build`](crate::base::simd::Build).

use super::outline::Stone;
use super::prepared::RocksDraw;
use super::runs::{BodyRow, Run, ShadowRow};
use super::shade::Shading;
use crate::base::simd::Build;
use crate::layers::Band;

impl RocksDraw {
    /// Draws a run of a stone's contact shadow: its outline squashed onto
    /// the ground, soft, darkest at its centre.
    pub(super) fn draw_shadow(
        &self,
        build: Build,
        s: &Stone,
        run: &Run,
        row: &ShadowRow,
        band: &mut Band,
    ) {
        match build {
            // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Build::Avx2 => unsafe { self.draw_shadow_avx2(s, run, row, band) },
            Build::Portable => self.draw_shadow_any(s, run, row, band),
        }
    }

    /// [`RocksDraw::draw_shadow`] compiled for AVX2: twice the lanes of
    /// the baseline, the same operations (no fused multiply-add), so the
    /// same pixels.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn draw_shadow_avx2(&self, s: &Stone, run: &Run, row: &ShadowRow, band: &mut Band) {
        self.draw_shadow_any(s, run, row, band);
    }

    #[inline(always)]
    fn draw_shadow_any(
        &self,
        s: &Stone,
        run: &Run,
        &ShadowRow { sinv, sdy2 }: &ShadowRow,
        band: &mut Band,
    ) {
        let shadow = self.shadow * self.opacity;
        let px = band.span(run.y, run.a, run.b);
        for (k, chunk) in px.chunks_mut(LANES).enumerate() {
            let x0 = run.a as usize + k * LANES;
            // Darkening of red and green, and of blue, lane by lane.
            let (mut m, mut mb) = ([0.0; LANES], [0.0; LANES]);
            let lanes = lanes(x0);
            for l in 0..LANES {
                let dx = lanes[l] as f32 + 0.5 - s.sx;
                let sdx = dx * if dx < 0.0 { sinv[0] } else { sinv[1] };
                let g = sdx * sdx + sdy2;
                let g = if g < 1.0 { g } else { 1.0 };
                let k = (1.0 - g) * shadow;
                m[l] = 1.0 - k * (0.3 + 0.45 * (1.0 - g) * (1.0 - g));
                // Shade a little bluer (skylight), none outside the outline.
                mb[l] = m[l] * (1.0 + 0.03 * k);
            }
            for (l, c) in chunk.iter_mut().enumerate() {
                c[0] *= m[l];
                c[1] *= m[l];
                c[2] *= mb[l];
            }
        }
    }

    /// Draws a run of a stone's body, on a row of outline `row`.
    pub(super) fn draw_body(
        &self,
        build: Build,
        s: &Stone,
        shading: &Shading,
        run: &Run,
        row: &BodyRow,
        band: &mut Band,
    ) {
        match build {
            // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Build::Avx2 => unsafe { self.draw_body_avx2(s, shading, run, row, band) },
            Build::Portable => self.draw_body_any(s, shading, run, row, band),
        }
    }

    /// [`RocksDraw::draw_body`] compiled for AVX2 (see
    /// [`RocksDraw::draw_shadow_avx2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn draw_body_avx2(
        &self,
        s: &Stone,
        shading: &Shading,
        run: &Run,
        row: &BodyRow,
        band: &mut Band,
    ) {
        self.draw_body_any(s, shading, run, row, band);
    }

    /// The body shader, [`LANES`] pixels at a time: each lane's colour is
    /// worked out as one pixel's would be, then written where the lane
    /// lies inside the outline.
    #[inline(always)]
    fn draw_body_any(
        &self,
        s: &Stone,
        shading: &Shading,
        run: &Run,
        &BodyRow { nv, cx, inv }: &BodyRow,
        band: &mut Band,
    ) {
        let y = run.y;
        let op = self.opacity;
        let fc = &shading.facets;
        let texture = shading.texture;
        let (a, b) = (run.a, run.b);
        let nv2 = nv * nv;
        // Terms of the row: darker toward the ground; where the faces
        // meet along it (blend = row term + per-pixel slope × nu).
        let ao = 1.0 - 0.45 * crate::base::noise::smoothstep(-0.1, 1.0, nv);
        let side0 = 0.5 - (fc.split + fc.lean * nv) * s.side_k;
        let top0 = 0.5 + (fc.ridge - nv) * s.top_k;
        let top_nu = fc.tilt * s.top_k;
        // The foot is buried: sand banked against it, up to a line that
        // rises with how deep the stone sits.
        let line = 1.0 - 1.2 * self.sink;
        let buried = if self.sink > 0.0 {
            0.85 * crate::base::noise::smoothstep(line - 0.3, line + 0.3, nv)
        } else {
            0.0
        };
        let sand = self.lighting.sand;
        let tile = crate::base::noise::noise_tile();
        const SIDE: usize = crate::base::noise::TILE_SIDE;
        let grain_row: &[f32; SIDE] = tile
            [((y as usize).wrapping_add(texture as usize) & (SIDE - 1)) * SIDE..][..SIDE]
            .try_into()
            .expect("a tile row");
        let grain_shift = (texture >> 8) as usize;
        let px = band.span(y, a, b);
        for (k, chunk) in px.chunks_mut(LANES).enumerate() {
            let x0 = a as usize + k * LANES;
            // Columns as i32 (exact below 2^24, as the picture is), which
            // convert to floats lane by lane.
            let lanes = lanes(x0);
            let grain: [f32; LANES] =
                std::array::from_fn(|l| grain_row[(x0 + l + grain_shift) & (SIDE - 1)]);
            let mut f = [0.0; LANES];
            let mut alpha = [0.0; LANES];
            let mut v = [[0.0; LANES]; 3];
            for l in 0..LANES {
                let dx = lanes[l] as f32 + 0.5 - cx;
                let nu = dx * if dx < 0.0 { inv[0] } else { inv[1] };
                f[l] = nu * nu + nv2;
                let cov = if f[l] <= s.inner2 {
                    1.0
                } else {
                    (0.5 - (f[l] - 1.0) * s.aa).clamp(0.0, 1.0)
                };
                let side = (side0 + nu * s.side_k).clamp(0.0, 1.0);
                let top = (top0 + nu * top_nu).clamp(0.0, 1.0);
                // Rounded off toward the outline, and a little grit.
                let round = 1.0 - 0.2 * if f[l] < 1.0 { f[l] } else { 1.0 };
                let grit = 1.0 + 0.08 * grain[l];
                let shade = ao * grit * round;
                alpha[l] = cov * op;
                for (i, vi) in v.iter_mut().enumerate() {
                    let sides = fc.left[i] + (fc.right[i] - fc.left[i]) * side;
                    let rock = (sides + (fc.top[i] - sides) * top) * shade;
                    vi[l] = rock + (sand[i] * grit - rock) * buried;
                }
            }
            for (l, c) in chunk.iter_mut().enumerate() {
                if f[l] >= s.outer2 {
                    continue;
                }
                let a = alpha[l];
                for (i, ci) in c.iter_mut().enumerate() {
                    // Exactly the stone where it is opaque, whatever was
                    // under.
                    *ci = if a >= 1.0 {
                        v[i][l]
                    } else {
                        *ci + (v[i][l] - *ci) * a
                    };
                }
            }
        }
    }
}

/// Pixels the stone shaders work on at once, the lanes of an AVX2
/// register: their loops over lanes compile to SIMD.
const LANES: usize = 8;

/// The columns of the lanes from column `x0`, as `i32`: exact (pictures are
/// far narrower than 2^24), and they convert to floats lane by lane.
#[inline(always)]
fn lanes(x0: usize) -> [i32; LANES] {
    std::array::from_fn(|l| (x0 + l) as i32)
}
