//! The rocks prepared for one picture, and drawing them on a band: the
//! grid rows whose stones may touch it, the occlusion pass, then each run
//! of pixels shaded, far to near; in one ground, each stone then marks the
//! pixels its body covers with its depth.

use super::cull::BandScratch;
use super::outline::Stone;
use super::prepared::RocksDraw;
use super::runs::{BodyRow, Part, Run};
use super::shade::Shading;
use crate::base::simd::Build;
use crate::layers::{BAND_ROWS, Band, Draw};

thread_local! {
    static SCRATCH: std::cell::RefCell<BandScratch> = std::cell::RefCell::new(BandScratch::default());
}

impl Draw for RocksDraw {
    fn touches(&self, y0: u32, y1: u32) -> bool {
        debug_assert_eq!(y0 % BAND_ROWS, 0);
        let band = (y0 / BAND_ROWS) as usize;
        self.index.band(band).any(|r| {
            let boxes = &self.rows[r as usize].boxes;
            boxes.iter().any(|b| b[1] < y1 as i32 && (y0 as i32) < b[3])
        })
    }

    fn draw(&self, band: &mut Band) {
        self.draw_with(band, Build::best());
    }
}

impl RocksDraw {
    /// Draws the stones on `band` with the `build` of the occlusion pass
    /// and the shaders (chosen once per band, not per run).
    pub(super) fn draw_with(&self, band: &mut Band, build: Build) {
        SCRATCH.with(|scratch| {
            let scratch = &mut *scratch.borrow_mut();
            match build {
                // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
                #[cfg(target_arch = "x86_64")]
                Build::Avx2 => unsafe { self.visible_runs_avx2(band, scratch, self.cull) },
                Build::Portable => self.visible_runs(band, scratch, self.cull),
            }
            // Far to near: each stone over the ones behind it, its shadow
            // under its body. A stone's runs come together: its shading is
            // worked out once.
            let mut shaded: Option<(u32, Shading)> = None;
            for run in scratch.runs.iter().rev() {
                let stone = &scratch.stones[run.stone as usize];
                match &run.part {
                    Part::Body(row) => {
                        let shading = match &shaded {
                            Some((id, shading)) if *id == run.stone => shading,
                            _ => {
                                let shading = match &self.shade {
                                    // Under a cloud, less of the sun.
                                    Some(shade) => stone.look.shading(
                                        &self.lighting.shaded(shade.light(stone.x, stone.y)),
                                    ),
                                    None => stone.look.shading(&self.lighting),
                                };
                                &shaded.insert((run.stone, shading)).1
                            }
                        };
                        self.draw_body(build, stone, shading, run, row, band);
                        if band.depth.is_some() {
                            self.cover(stone, run, row, band);
                        }
                    }
                    Part::Shadow(row) => self.draw_shadow(build, stone, run, row, band),
                }
            }
        });
    }

    /// Marks with the stone's key the pixels of `run` (of `row` of its
    /// body) it has painted with coverage of one half or more, as the body
    /// shader works it out: nearer than whatever is drawn there.
    fn cover(&self, s: &Stone, run: &Run, &BodyRow { nv, cx, inv }: &BodyRow, band: &mut Band) {
        if run.a >= run.b {
            return;
        }
        let at = band.at(run.a, run.y);
        let Some(depth) = band.depth.as_mut() else {
            return;
        };
        let nv2 = nv * nv;
        for x in run.a..run.b {
            let dx = x as f32 + 0.5 - cx;
            let nu = dx * if dx < 0.0 { inv[0] } else { inv[1] };
            let f = nu * nu + nv2;
            let cov = if f <= s.inner2 {
                1.0
            } else {
                (0.5 - (f - 1.0) * s.aa).clamp(0.0, 1.0)
            };
            if f < s.outer2 && cov * self.opacity >= 0.5 {
                depth.cover(at + (x - run.a) as usize, s.key);
            }
        }
    }
}
