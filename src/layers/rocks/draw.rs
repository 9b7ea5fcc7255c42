//! The rocks prepared for one picture, and drawing them on a band: the
//! grid rows whose stones may touch it, the occlusion pass, then each run
//! of pixels shaded, far to near.

use super::cull::{BandScratch, Part};
use super::outline::Outline;
use super::place::StoneRow;
use super::shade::{Lighting, Shading};
use crate::base::simd::Build;
use crate::layers::tent::Clearing;
use crate::layers::{BAND_ROWS, Band, Draw};

/// For each band, the grid rows whose stones may touch it: a stone's box
/// follows its row's place (far rows higher up) give or take its jitter
/// and size, so the stones touching a band come from a run of rows. A band
/// checks each stone of the run against its box.
pub(super) struct BandRows {
    /// `rows[b]`: grid rows `first..last` for band `b` (empty if none).
    rows: Vec<(u32, u32)>,
    /// `reach[r]`: the lowest pixel row (excluded) the boxes of grid rows
    /// `0..=r` reach: far rows lie higher up, so once a band is covered
    /// down to it, the rows from `r` farther are hidden.
    pub(super) reach: Vec<i32>,
}

impl BandRows {
    /// The grid rows each of `bands` bands looks at, and how far down the
    /// rows reach, from the grid rows' `stones`.
    pub(super) fn new(stones: &[StoneRow], bands: usize) -> BandRows {
        let mut rows = vec![(u32::MAX, 0u32); bands];
        let mut reach = Vec::with_capacity(stones.len());
        let mut lowest = i32::MIN;
        for (r, row) in stones.iter().enumerate() {
            let Some((top, bottom)) = row.extent else {
                reach.push(lowest);
                continue;
            };
            lowest = lowest.max(bottom);
            reach.push(lowest);
            let b0 = (top.max(0) as u32 / BAND_ROWS) as usize;
            let b1 = ((bottom.max(0) as u32).saturating_sub(1) / BAND_ROWS) as usize;
            for band in rows.iter_mut().take(b1.saturating_add(1)).skip(b0) {
                band.0 = band.0.min(r as u32);
                band.1 = band.1.max(r as u32 + 1);
            }
        }
        BandRows { rows, reach }
    }

    /// The grid rows whose stones may touch band `b`.
    pub(super) fn band(&self, b: usize) -> std::ops::Range<u32> {
        match self.rows.get(b) {
            Some(&(first, last)) if first < last => first..last,
            _ => 0..0,
        }
    }
}

/// The rocks prepared for one picture.
pub(super) struct RocksDraw {
    /// Which preparation this is (each has its own), for the threads'
    /// caches of rolled stones ([`BandScratch::rolled`]).
    pub(super) id: u64,
    /// The layer's opacity, 0 to 1 ([`Rocks::opacity`]).
    ///
    /// [`Rocks::opacity`]: super::Rocks::opacity
    pub(super) opacity: f32,
    /// The stones, grid row by grid row, far to near.
    pub(super) rows: Vec<StoneRow>,
    /// Which grid rows each band looks at.
    pub(super) index: BandRows,
    /// The light the stones' faces are lit by.
    pub(super) lighting: Lighting,
    /// Strength of the contact shadows: the palette's times the layer's.
    pub(super) shadow: f32,
    /// How deep the stones sit in the sand ([`Rocks::sink`]).
    ///
    /// [`Rocks::sink`]: super::Rocks::sink
    pub(super) sink: f32,
    /// What every stone's outline shares, to roll a stone whole.
    pub(super) outline: Outline,
    /// The tents' clearings it was placed around.
    pub(super) clearings: Vec<Clearing>,
    /// Whether hidden pixels are left undrawn: always, but in the test
    /// that checks this against drawing every stone whole.
    pub(super) cull: bool,
}

/// Preparations of the rocks so far: each [`RocksDraw`] takes the next
/// number as its `id`.
pub(super) static PREPARED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

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
                                &shaded
                                    .insert((run.stone, stone.look.shading(&self.lighting)))
                                    .1
                            }
                        };
                        self.draw_body(build, stone, shading, run, row, band);
                    }
                    Part::Shadow(row) => self.draw_shadow(build, stone, run, row, band),
                }
            }
        });
    }
}
