//! The dunes prepared for one picture (`DunesDraw`): the sand's field,
//! where its relief stands, its light, and the depths its marches found
//! or where they start; and the depths of the ground each pixel of a
//! rectangle shows (`Depths`), in blocks of `LANES` columns.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use super::field::Field;
use crate::base::color::Linear;
use crate::base::simd::Build;

/// Columns in a block of the prepared depths.
pub(super) const LANES: usize = 32;

/// The dunes prepared for one picture.
pub(super) struct DunesDraw {
    /// Which build of the sand's sampling runs.
    pub(super) build: Build,
    pub(super) opacity: f32,
    pub(super) horizon: f32,
    /// Pixels per scene unit at depth 1, and the picture's middle column.
    pub(super) h: f32,
    pub(super) middle: f32,
    /// The eye's height over the sand's base.
    pub(super) eye: f32,
    /// Whether the sand keeps its depths in the band's (one ground).
    pub(super) keys: bool,
    pub(super) field: Field,
    /// Depths where the near sand rises from flat to the dunes.
    pub(super) near: (f32, f32),
    /// Depths where the far dunes' relief fades (they are drawn flat
    /// beyond, lit as if they stood), and where their light fades too.
    pub(super) far: (f32, f32),
    pub(super) farthest: (f32, f32),
    /// The prepared columns and rows.
    pub(super) x0: u32,
    pub(super) y0: u32,
    pub(super) rows: u32,
    /// The picture's height, pixels.
    pub(super) picture: f32,
    /// How many columns are prepared.
    pub(super) cols: u32,
    /// The depths of every prepared pixel, where they take at most
    /// [`WHOLE`](super::WHOLE) bytes. Else they are marched a chunk of rows at a time as
    /// the bands are drawn, and only where the marches start is kept.
    pub(super) whole: Option<Arc<Depths>>,
    /// Where the marches of each block of [`LANES`] columns start for each
    /// chunk of rows: the step (see `Step::lattice`) for chunk `c`'s rows
    /// in block `b` at `starts[b * chunks + c]`.
    pub(super) starts: Vec<u32>,
    /// How many chunks have their starts kept: all but the last, whose
    /// marches start where the whole column's does.
    pub(super) chunks: u32,
    /// The chunks marched last, the most recently used last.
    pub(super) kept: Mutex<Vec<Arc<Depths>>>,
    /// The first row any column shows sand on.
    pub(super) first: u32,
    /// The sand in the flat ground's light, the haze it fades into, and
    /// the light's parts.
    pub(super) sand: Linear,
    pub(super) haze: Linear,
    pub(super) ambient: Linear,
    pub(super) direct: Linear,
    pub(super) light: [f32; 3],
    /// One over the light on flat ground, per channel (the sand's colour
    /// is given under it).
    pub(super) flat: Linear,
    /// How much the light on the sand is raised at night, so that a
    /// moonlit sea keeps its forms (1 by day).
    pub(super) night: f32,
    /// How much the moon's light on a slope differs from its light on
    /// flat sand, over the sun's (1 by day): by moonlight the eye sees
    /// little but the forms, so they are drawn plainer.
    pub(super) relief_gain: f32,
    /// The least of the moon's light a face turned from it keeps, over
    /// flat sand's: the sky's light, which the eye sees by at night.
    pub(super) moonlit_shade: f32,
    /// How much of the ground between the dunes is sand; and the share of
    /// sand far off, where the dunes fade.
    pub(super) sheet: f32,
    pub(super) far_sand: f32,
    pub(super) ripples: f32,
    /// The sand as the sky's light colours it (greyer in the first look,
    /// bluer from the second).
    pub(super) sky_sand: Linear,
    /// One over the tallest dune's height, scene units.
    pub(super) inv_tallest: f32,
    /// How much less of the sky a trough sees than a crest (0 in the first
    /// look): the sand darkens from crest to trough, so that the forms
    /// read under any light.
    pub(super) occlusion: f32,
    /// How much brighter the sun is on the crests than on flat sand (0 in
    /// the first look): the crests catch the light.
    pub(super) rim: f32,
    /// How deep the ripples are, over the first look's (1 there): deeper
    /// at a low sun, so that they catch it.
    pub(super) ripple_gain: f32,
    /// How much the sand swells and dips between the ripples, as a
    /// slope (0 in the first look): the texture that carries the sand's
    /// light to the horizon.
    pub(super) swell: f32,
    pub(super) shade: Option<crate::layers::clouds::CloudShade>,
    /// Whether a pixel beside another face takes its neighbours' light
    /// (from the second look): brinks and crests drawn smooth, not in
    /// steps.
    pub(super) antialias: bool,
}

impl DunesDraw {
    /// The bytes it holds of depths and of where marches start.
    #[cfg(test)]
    pub(super) fn held_bytes(&self) -> usize {
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

/// One over the depth of the ground each pixel of a rectangle shows, 0
/// where no sand shows: in blocks of [`LANES`] columns, row after row in
/// each (a column is marched into its block's lane; the pixels of a row
/// are drawn one after the other).
pub(super) struct Depths {
    /// The rectangle's first column and row, and its size.
    x0: u32,
    y0: u32,
    cols: u32,
    rows: u32,
    pub(super) iz: Vec<f32>,
}

impl Depths {
    /// Room for the depths of columns `cols` and rows `rows`, no sand yet.
    pub(super) fn new(cols: Range<u32>, rows: Range<u32>) -> Depths {
        Depths {
            x0: cols.start,
            y0: rows.start,
            cols: cols.len() as u32,
            rows: rows.len() as u32,
            iz: vec![0.0; cols.len().div_ceil(LANES) * LANES * rows.len()],
        }
    }

    /// Whether it holds the pixels of columns `cols` and rows `rows`.
    pub(super) fn holds(&self, cols: &Range<u32>, rows: &Range<u32>) -> bool {
        self.x0 <= cols.start
            && cols.end <= self.x0 + self.cols
            && self.y0 <= rows.start
            && rows.end <= self.y0 + self.rows
    }

    /// One over the depth at pixel `(x, y)`, if it is held and shows sand.
    #[inline]
    pub(super) fn at(&self, x: u32, y: u32) -> Option<f32> {
        let (c, r) = (x.checked_sub(self.x0)?, y.checked_sub(self.y0)?);
        if c >= self.cols || r >= self.rows {
            return None;
        }
        let (c, r) = (c as usize, r as usize);
        let iz = self.iz[(c / LANES * self.rows as usize + r) * LANES + c % LANES];
        (iz > 0.0).then_some(iz)
    }
}
