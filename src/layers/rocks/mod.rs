//! Rocks: the automaton's survivors as stones on the ground.
//!
//! The grid lies on the ground plane in perspective: its columns span the
//! picture's width, its rows run from just below the horizon to the bottom,
//! evenly spaced in depth, so far rows crowd toward the horizon. Each live
//! cell becomes a stone that grows toward the viewer (by default 2.2% of
//! the picture's height far away, 4.2% near), jittered in place, size
//! and shape, lit from the sun's side, with a soft contact shadow.
//!
//! Stones are drawn far to near (the grid's row-major order). For the bands,
//! each stone is filed under every band its box meets, in that order, so a
//! band draws exactly the stones that touch it, in the global order.
//!
//! The layer in files, one idea each:
//!
//! - `place`: where each live cell's stone goes: a clump is one rock (its
//!   colour, heap and spread), outcrops merge 2×2 blocks into boulders, no
//!   stone on a tent's clearing; the stones of one grid row, kept as boxes.
//! - `gravel`: the grains of gravel in front of a clump's stones.
//! - `outline`: a stone's shape: placed and bounded first, its irregular
//!   outline (a profile through a few knots) rolled only when it shows;
//!   its body and shadow columns on a pixel row.
//! - `shade`: the light on a stone: its three lit faces and its grain.
//! - `draw`: the rocks prepared for one picture, and drawing a band:
//!   which grid rows may touch it, culling, then the shaders far to near.
//! - `cull`: the occlusion pass: the runs of pixels that show, found with
//!   one bit per pixel of what nearer stones already cover.
//! - `kernels`: the body and contact-shadow shaders, `LANES` pixels at a
//!   time, compiled for each `Build` of the hot loops.
//! - `tests`: stones depend on their cell alone, reclearing, the builds
//!   and culling checked against their references.

pub mod cover;
mod cull;
mod draw;
mod gravel;
mod kernels;
mod outline;
mod place;
mod prepared;
mod runs;
mod shade;
#[cfg(test)]
mod tests;

use rayon::prelude::*;
use serde::Serialize;

use self::place::Placer;
use self::prepared::RocksDraw;
use self::prepared::StoneRow;
use super::{Draw, Frame, Kind, Prepare, Reprepared, prepared_afresh};
use crate::base::color::Rgb;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

/// Settings of the rocks layer. The grid itself comes from the scene's
/// [`crate::scene::Automaton`]. Ranges and precisions: [`Rocks::SETTINGS`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rocks {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Stone diameter on the nearest row, fraction of the height. Range
    /// 0.0005 to 0.3. Default: 0.042.
    pub near_size: f32,
    /// Stone diameter on the farthest row, fraction of the height; the
    /// ratio near / far sets the perspective. Range 0.0005 to 0.3.
    /// Default: 0.022.
    pub far_size: f32,
    /// Gap between the horizon and the farthest row, fraction of the height.
    /// Range 0 to 0.5. Default: 0.02.
    pub top: f32,
    /// Height of the nearest row, fraction of the height from the top (above
    /// 1 is below the picture). Range 0 to 1.5. Default: 0.98.
    pub bottom: f32,
    /// Random displacement of each stone, in stone diameters. Range 0 to 2.
    /// Default: 0.5.
    pub jitter: f32,
    /// Colour of most stones. Default: (116, 116, 108).
    pub primary: Rgb,
    /// Opacity of the primary stones. Range 0 to 1. Default: 0.7.
    pub primary_alpha: f32,
    /// Colour of the other stones. Default: (87, 93, 55), olive.
    pub secondary: Rgb,
    /// Opacity of the secondary stones. Range 0 to 1. Default: 0.9.
    pub secondary_alpha: f32,
    /// Share of stones in the secondary colour. Range 0 to 1. Default: 1/15.
    pub secondary_share: f32,
    /// Strength of the contact shadows. Range 0 to 2. Default: 1.
    pub shadow: f32,
    /// Clumps of at least this many cells are outcrops (larger stones of
    /// one rock, heaped, some merged into boulders); smaller clumps of 2 or
    /// more are split rocks and pairs, lone cells pebbles. Range 2 to 64.
    /// Default: 5.
    pub outcrop: u32,
    /// How far the stones of a clump stand apart, in stone sizes per cell
    /// of the clump. Range 0 to 1. Default: 0.3.
    pub spread: f32,
    /// Share of an outcrop's blocks of 2×2 cells that make one boulder.
    /// Range 0 to 1. Default: 0.5.
    pub merge: f32,
    /// How irregular the stones' outlines are. Range 0 to 1. Default: 0.5.
    pub roughness: f32,
    /// Gravel scattered around clumps. Range 0 to 1. Default: 0.3.
    pub gravel: f32,
    /// How deep the stones sit in the sand. Range 0 to 1. Default: 0.4.
    pub sink: f32,
}

impl Default for Rocks {
    fn default() -> Self {
        Rocks {
            visible: true,
            opacity: 1.0,
            near_size: 0.042,
            far_size: 0.022,
            top: 0.02,
            bottom: 0.98,
            jitter: 0.5,
            primary: Rgb(116, 116, 108),
            primary_alpha: 0.7,
            secondary: Rgb(87, 93, 55),
            secondary_alpha: 0.9,
            secondary_share: 1.0 / 15.0,
            shadow: 1.0,
            outcrop: 5,
            spread: 0.3,
            merge: 0.5,
            roughness: 0.5,
            gravel: 0.3,
            sink: 0.4,
        }
    }
}

impl Kind for Rocks {
    const NAME: &'static str = "rocks";
    const TITLE: &'static str = "Stones";
    const SETTINGS: &'static [Setting<Rocks>] = &[
        super::visible(),
        super::opacity(),
        // Sizes to 1/20000 of the height: a stone of 0.0005 still has 10 steps.
        float!(log "near_size", near_size, Rocks::SIZE_LIMITS.0, Rocks::SIZE_LIMITS.1, 20_000,
            "Near size", "Stone size on the nearest row", Roll::Range(0.035, 0.065)),
        float!(log "far_size", far_size, Rocks::SIZE_LIMITS.0, Rocks::SIZE_LIMITS.1, 20_000,
            "Far size", "Stone size on the farthest row", Roll::Range(0.018, 0.034)),
        float!(
            "top",
            top,
            0.0,
            0.5,
            1000,
            "Top gap",
            "Gap between the horizon and the farthest stones",
            Roll::Keep
        ),
        float!(
            "bottom",
            bottom,
            0.0,
            1.5,
            1000,
            "Nearest row",
            "Where the nearest row sits",
            Roll::Keep
        ),
        float!(
            "jitter",
            jitter,
            0.0,
            2.0,
            1000,
            "Jitter",
            "Random offset of each stone",
            Roll::Range(0.25, 0.7)
        ),
        other!(
            Rgb,
            "primary",
            primary,
            "Stone colour",
            "Colour of most stones",
            Roll::Keep
        ),
        float!(
            "primary_alpha",
            primary_alpha,
            0.0,
            1.0,
            1000,
            "Stone alpha",
            "Opacity of the common stones",
            Roll::Keep
        ),
        other!(
            Rgb,
            "secondary",
            secondary,
            "Second colour",
            "Colour of the other stones",
            Roll::Keep
        ),
        float!(
            "secondary_alpha",
            secondary_alpha,
            0.0,
            1.0,
            1000,
            "Second alpha",
            "Opacity of the other stones",
            Roll::Keep
        ),
        // 1/3000, so that the default 1/15 is exact.
        float!(
            "secondary_share",
            secondary_share,
            0.0,
            1.0,
            3000,
            "Second share",
            "Share of stones in the second colour",
            Roll::Range(0.03, 0.15)
        ),
        float!(
            "shadow",
            shadow,
            0.0,
            2.0,
            1000,
            "Shadow",
            "Contact shadows under the stones",
            Roll::Keep
        ),
        // Written by share codes since format 2.
        uint!(
            "outcrop",
            outcrop,
            2,
            64,
            "Outcrop from",
            "Clumps of this many cells or more become outcrops and boulder piles",
            Roll::Range(3, 9),
            since 2
        ),
        float!(
            "spread",
            spread,
            0.0,
            1.0,
            1000,
            "Spread",
            "How far the stones of a clump stand apart",
            Roll::Range(0.15, 0.5),
            since 2
        ),
        float!(
            "merge",
            merge,
            0.0,
            1.0,
            1000,
            "Boulders",
            "Share of an outcrop's stones merged into boulders",
            Roll::Range(0.2, 0.8),
            since 2
        ),
        float!(
            "roughness",
            roughness,
            0.0,
            1.0,
            1000,
            "Roughness",
            "How irregular the stones' outlines are",
            Roll::Range(0.25, 0.8),
            since 2
        ),
        float!(
            "gravel",
            gravel,
            0.0,
            1.0,
            1000,
            "Gravel",
            "Gravel scattered around the clumps",
            Roll::Range(0.0, 0.6),
            since 2
        ),
        float!(
            "sink",
            sink,
            0.0,
            1.0,
            1000,
            "Sink",
            "How deep the stones sit in the sand",
            Roll::Range(0.2, 0.7),
            since 2
        ),
    ];

    super::common_settings!();
}

impl Prepare for Rocks {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_stones(frame)?))
    }

    fn prepare_reclear(&self, frame: &Frame, old: Box<dyn Draw>) -> Result<Reprepared> {
        match old.into_any().downcast::<RocksDraw>() {
            Ok(old) => {
                let (draw, rows) = self.reclear(frame, *old);
                Ok((Box::new(draw), rows))
            }
            Err(old) => {
                drop(old);
                prepared_afresh(self, frame)
            }
        }
    }
}

impl Rocks {
    /// The smallest and largest stone sizes, near and far (fractions of
    /// the picture's height).
    pub const SIZE_LIMITS: (f32, f32) = (0.0005, 0.3);

    /// Resizes the stones for an automaton's grid going from `old` columns
    /// to `new` (a cell is `old / new` as wide), so that the floor keeps
    /// the share they covered: more columns give more and smaller clumps,
    /// fewer larger ones. Sizes stay within [`Rocks::SIZE_LIMITS`].
    pub fn follow_columns(&mut self, old: u32, new: u32) {
        let scale = old.max(1) as f32 / new.max(1) as f32;
        let (lo, hi) = Self::SIZE_LIMITS;
        self.near_size = (self.near_size * scale).clamp(lo, hi);
        self.far_size = (self.far_size * scale).clamp(lo, hi);
    }

    /// How much of the floor of `ground` these stones will visibly cover,
    /// and how far above the horizon they reach (see [`cover`]).
    pub fn cover(&self, ground: &super::Ground) -> super::Cover {
        ground.stones.estimate(ground, self)
    }

    fn prepare_stones(&self, f: &Frame) -> Result<RocksDraw> {
        let placer = Placer::new(self, f);
        // Stones row by row (far to near). Only their outlines are worked
        // out here; how a stone looks (its lit faces) is worked out when it
        // is drawn, since in a packed field most stones are hidden.
        let rows: Vec<StoneRow> = (0..f.grid.height())
            .into_par_iter()
            .map(|r| placer.row(r, None, &mut Vec::new()))
            .collect();
        Ok(placer.finish(rows))
    }

    /// The rocks `old` (prepared from these settings for a frame that
    /// differs from `f` only in the tents' clearings) prepared for `f`,
    /// as [`Rocks::prepare_stones`] would: only the grid rows with a stone
    /// or grain near an old or a new clearing are placed again. Also gives
    /// the pixel rows (`y0..y1` ranges) of the stones and grains that were
    /// cleared or uncovered: only there may the rocks now draw differently.
    fn reclear(&self, f: &Frame, old: RocksDraw) -> (RocksDraw, Vec<(i32, i32)>) {
        let placer = Placer::new(self, f);
        let mut rows = old.rows;
        let mut changed = Vec::new();
        let again: Vec<_> = rows
            .par_iter()
            .enumerate()
            .filter(|(r, row)| {
                placer.near_clearings(*r, row, &old.clearings)
                    || placer.near_clearings(*r, row, &f.clearings)
            })
            .map(|(r, _)| {
                let mut changed = Vec::new();
                let row = placer.row(r, Some(&old.clearings), &mut changed);
                (r, row, changed)
            })
            .collect();
        for (r, row, moved) in again {
            changed.extend(moved);
            rows[r] = row;
        }
        (placer.finish(rows), changed)
    }

    /// Number of stones the layer draws in `frame`: a stone per live cell
    /// (an outcrop's boulder for four), less those on ground cleared for a
    /// tent, and the grains of gravel.
    pub(crate) fn stone_count(&self, frame: &Frame) -> Result<usize> {
        Ok(self
            .prepare_stones(frame)?
            .rows
            .iter()
            .map(|r| r.stones.len())
            .sum())
    }
}
