//! The shade the clouds cast on the ground and the ranges.

use super::{Deck, FARTHEST, SHADE_OCTAVES};
use crate::base::simd::Build;

/// The shade clouds cast on the ground: the direct light a point of the
/// floor gets, following its ray toward the sun up to the deck. The ground
/// kinds (the floor, the stones, the tent) read it from the frame.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CloudShade {
    pub(super) deck: Deck,
    /// The most light a cloud takes from the ground, 0..1.
    pub(super) strength: f32,
    /// From a point of the ground to the deck along the sun's ray, in deck
    /// heights: across and away.
    pub(super) toward: (f32, f32),
    pub(super) half_width: f32,
    pub(super) focal: f32,
    pub(super) horizon: f32,
}

/// How far off the ranges' faces stand, in deck heights, for their shade.
const RANGES_AWAY: f32 = 5.0;

/// The camera's height over the ground, in deck heights.
const EYE: f32 = 1.0 / 24.0;

/// Every [`SHADE_STEP`]th column and row of the picture, the shade is
/// worked out; pixels between are interpolated (the shade is soft).
const SHADE_STEP: u32 = 4;

/// The shade on the samples around a block of pixels (see
/// [`CloudShade::samples`]).
pub(crate) struct ShadeSamples {
    i0: u32,
    j0: u32,
    cols: usize,
    light: Vec<f32>,
}

impl ShadeSamples {
    /// The light at every [`SHADE_STEP`]th column and row around pixels
    /// `x0..x1` of rows `y0..y1` (not empty), at the pixels' centres: the
    /// deck's noise at the point of the deck `point` gives for a pixel
    /// centre, a row at a time, made a light by `light`.
    fn of(
        deck: &Deck,
        (x0, x1): (u32, u32),
        (y0, y1): (u32, u32),
        point: impl Fn(f32, f32) -> (f32, f32),
        light: impl Fn(f32) -> f32,
    ) -> ShadeSamples {
        let (i0, i1) = (x0 / SHADE_STEP, (x1 - 1) / SHADE_STEP + 1);
        let (j0, j1) = (y0 / SHADE_STEP, (y1 - 1) / SHADE_STEP + 1);
        let cols = (i1 - i0 + 1) as usize;
        let mut values = Vec::with_capacity(cols * (j1 - j0 + 1) as usize);
        let build = Build::best();
        let (mut across, mut away, mut noise) = (Vec::new(), Vec::new(), Vec::new());
        for j in j0..=j1 {
            let y = (j * SHADE_STEP) as f32 + 0.5;
            across.clear();
            away.clear();
            for i in i0..=i1 {
                let (a, w) = point((i * SHADE_STEP) as f32 + 0.5, y);
                across.push(a);
                away.push(w);
            }
            deck.noises(build, (&across, &away), SHADE_OCTAVES, None, &mut noise);
            values.extend(noise.iter().map(|&n| light(n)));
        }
        ShadeSamples {
            i0,
            j0,
            cols,
            light: values,
        }
    }

    /// The light at pixel `(x, y)` of the block, interpolated between its
    /// four samples (at exact quarters: the same bits in any window).
    pub(crate) fn at(&self, x: u32, y: u32) -> f32 {
        let (i, j) = (
            (x / SHADE_STEP - self.i0) as usize,
            (y / SHADE_STEP - self.j0) as usize,
        );
        let step = SHADE_STEP as f32;
        let (tx, ty) = (
            (x % SHADE_STEP) as f32 / step,
            (y % SHADE_STEP) as f32 / step,
        );
        let v = |di: usize, dj: usize| self.light[(j + dj) * self.cols + i + di];
        let top = v(0, 0) + (v(1, 0) - v(0, 0)) * tx;
        let bottom = v(0, 1) + (v(1, 1) - v(0, 1)) * tx;
        top + (bottom - top) * ty
    }
}

impl CloudShade {
    /// The shade on every [`SHADE_STEP`]th column and row around pixels
    /// `x0..x1` of rows `y0..y1` (not empty), for [`ShadeSamples::at`].
    pub(crate) fn samples(&self, cols: (u32, u32), rows: (u32, u32)) -> ShadeSamples {
        ShadeSamples::of(
            &self.deck,
            cols,
            rows,
            |x, y| self.ground_point(x, y),
            |n| self.light_of(n),
        )
    }

    /// [`CloudShade::samples`] on the ranges: their faces stand
    /// [`RANGES_AWAY`] deck heights off and slope back, so a point higher
    /// on them lies further off and nearer the deck, and its ray to the sun
    /// meets the deck sooner. The haze between takes some of the shadow.
    pub(crate) fn samples_on_ranges(&self, cols: (u32, u32), rows: (u32, u32)) -> ShadeSamples {
        ShadeSamples::of(
            &self.deck,
            cols,
            rows,
            |x, y| self.ranges_point(x, y),
            |n| self.light_on_ranges_of(n),
        )
    }

    /// Where the ray toward the sun from the ranges at pixel centre
    /// `(x, y)` meets the deck.
    fn ranges_point(&self, x: f32, y: f32) -> (f32, f32) {
        let rise = (self.horizon - y).max(0.0) / self.focal * RANGES_AWAY;
        let up = rise.min(0.9);
        let across = (x - self.half_width) / self.focal * RANGES_AWAY;
        let k = 1.0 - up;
        (
            across + self.toward.0 * k,
            RANGES_AWAY + 1.5 * rise + self.toward.1 * k,
        )
    }

    /// The light on the ranges under the deck's noise `n`.
    fn light_on_ranges_of(&self, n: f32) -> f32 {
        let (density, thick) = self.deck.shape(n);
        1.0 - 0.7 * self.strength * density * (0.7 + 0.3 * thick)
    }

    /// How much light the ground at pixel centre `(x, y)` (below the
    /// horizon) gets, 1 in full light, less in a cloud's shadow.
    pub(crate) fn light(&self, x: f32, y: f32) -> f32 {
        let (across, away) = self.ground_point(x, y);
        // The shade is soft: the finest octaves would not show.
        self.light_of(self.deck.noise(across, away, SHADE_OCTAVES))
    }

    /// Where the ray toward the sun from the ground at pixel centre
    /// `(x, y)` meets the deck.
    fn ground_point(&self, x: f32, y: f32) -> (f32, f32) {
        let below = (y - self.horizon).max(0.5);
        // Where the ground point lies, in deck heights.
        let away = (EYE * self.focal / below).min(FARTHEST);
        let across = (x - self.half_width) / self.focal * away;
        (across + self.toward.0, away + self.toward.1)
    }

    /// The light on the ground under the deck's noise `n`.
    fn light_of(&self, n: f32) -> f32 {
        let (density, thick) = self.deck.shape(n);
        1.0 - self.strength * density * (0.7 + 0.3 * thick)
    }
}
