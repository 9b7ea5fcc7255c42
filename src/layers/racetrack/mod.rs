//! The Racetrack: a pale, nearly flat playa of cracked mud with sailing
//! stones, each at the end of the furrow it cut as wind-driven ice pushed
//! it (Norris et al. 2014).
//!
//! Everything lies on the ground plane, in scene units (the eye
//! 0.22 over the ground is 1.6 m): the mud's crack polygons, the stones
//! and their trails, so the picture is the same at any resolution. The
//! cracks are strips of crust split across into cells: with fresh mud the
//! strips' edges run straight and the splits meet them in T-junctions;
//! with age the edges zigzag and the splits line up into hexagons with
//! Y-junctions at 120°. Far off, where a cell is a few pixels, the cracks
//! fade into their mean tone, then into the horizon's haze. The stones
//! moved along the scene's wind: each trail runs upwind from its stone,
//! the trails of neighbours start parallel and fan out toward their ends,
//! and smooth stones wander where rough ones cut straight. A pixel is a
//! function of its position and the prepared numbers only, and each band
//! draws only the trails and stones that reach into it.

use serde::Serialize;

mod draw;
mod mud;
mod place;
#[cfg(test)]
mod tests;

use super::world::{EYE, METRE};
use super::{Draw, Frame, Ground, Kind, Prepare};
use crate::base::color::{Linear, Rgb};
use crate::base::math;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

/// Settings of the Racetrack layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Racetrack {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Colour of the dry mud in full light. Default: (214, 200, 178).
    pub color: Rgb,
    /// Size of the crack polygons, metres (0.02 to 1). Default: 0.12.
    pub cell: f32,
    /// How dark the cracks are, 0 to 1. Default: 0.6.
    pub cracks: f32,
    /// The crust's age: 0 fresh (T-junctions at 90°), 1 old (hexagons,
    /// Y-junctions at 120°). Default: 0.5.
    pub age: f32,
    /// Number of sailing stones, 0 to 300. Default: 36.
    pub stones: u32,
    /// A stone's typical width, metres (0.05 to 2). Default: 0.3.
    pub size: f32,
    /// A trail's typical length, metres (0 to 400). Default: 60.
    pub trail: f32,
    /// How much smooth stones wander off a straight line, 0 to 1.
    /// Default: 0.35.
    pub wander: f32,
    /// How far neighbouring trails fan out toward their ends, 0 to 1.
    /// Default: 0.4.
    pub divergence: f32,
    /// Colour of the stones. Default: (112, 100, 90).
    pub stone_color: Rgb,
}

impl Default for Racetrack {
    fn default() -> Self {
        Racetrack {
            visible: true,
            opacity: 1.0,
            color: Rgb(214, 200, 178),
            cell: 0.12,
            cracks: 0.6,
            age: 0.5,
            stones: 36,
            size: 0.3,
            trail: 60.0,
            wander: 0.35,
            divergence: 0.4,
            stone_color: Rgb(112, 100, 90),
        }
    }
}

/// Mud colours New scene picks from (sRGB).
const MUDS: &[Rgb] = &[
    Rgb(214, 200, 178),
    Rgb(206, 196, 182),
    Rgb(222, 208, 184),
    Rgb(200, 186, 164),
    Rgb(216, 206, 194),
];

impl Kind for Racetrack {
    const NAME: &'static str = "racetrack";
    const TITLE: &'static str = "Racetrack";
    const SETTINGS: &'static [Setting<Racetrack>] = &[
        super::visible(),
        super::opacity(),
        other!(
            Rgb,
            "color",
            color,
            "Mud colour",
            "Colour of the dry mud",
            Roll::Pick(MUDS)
        ),
        float!(log "cell", cell, 0.02, 1.0, 1000, "Cell size",
            "Size of the crack polygons, metres", Roll::Range(0.08, 0.2)),
        float!(
            "cracks",
            cracks,
            0.0,
            1.0,
            1000,
            "Cracks",
            "How dark the cracks are",
            Roll::Range(0.35, 0.8)
        ),
        float!(
            "age",
            age,
            0.0,
            1.0,
            1000,
            "Crust age",
            "Fresh mud (T-junctions) to old crust (hexagons)",
            Roll::Pick(&[0.0, 0.25, 0.5, 0.75, 1.0])
        ),
        uint!(
            "stones",
            stones,
            0,
            MAX_STONES,
            "Stones",
            "Number of sailing stones",
            Roll::Range(12, 70)
        ),
        float!(log "size", size, 0.05, 2.0, 1000, "Stone size",
            "A stone's typical width, metres", Roll::Range(0.2, 0.45)),
        float!(
            "trail",
            trail,
            0.0,
            400.0,
            10,
            "Trail length",
            "A trail's typical length, metres",
            Roll::Range(25.0, 150.0)
        ),
        float!(
            "wander",
            wander,
            0.0,
            1.0,
            1000,
            "Wander",
            "How much smooth stones wander off a straight line",
            Roll::Range(0.0, 0.7)
        ),
        float!(
            "divergence",
            divergence,
            0.0,
            1.0,
            1000,
            "Divergence",
            "How far neighbouring trails fan out toward their ends",
            Roll::Range(0.1, 0.8)
        ),
        other!(
            Rgb,
            "stone_color",
            stone_color,
            "Stone colour",
            "Colour of the stones",
            Roll::Keep
        ),
    ];

    super::common_settings!();
}

/// Most stones.
pub const MAX_STONES: u32 = 300;

/// Stones lie no further than this (scene units, about 220 m).
const STONES_FAR: f32 = 30.0;
/// Trails are drawn no further than this.
const TRAILS_FAR: f32 = 80.0;
/// Height of a strip of crust, in cell widths (a hexagon's row).
const ROW: f32 = 0.866;

/// The luminance of a linear colour.
fn lum(c: Linear) -> f32 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

impl Racetrack {
    /// How much of the floor of `ground` the stones and their trails cover
    /// (the mud itself is the floor), and how far up they reach: never
    /// over the horizon.
    pub(crate) fn cover(&self, ground: &Ground) -> super::Cover {
        let floor = (1.0 - ground.horizon).max(0.05);
        let near = EYE / floor;
        let (r, trail) = (0.5 * self.size * METRE, self.trail * METRE);
        let mut area = 0.0;
        const SAMPLES: u32 = 24;
        for i in 0..SAMPLES {
            let u = (i as f32 + 0.5) / SAMPLES as f32;
            let z = near * math::powf(STONES_FAR / near, u);
            // The stone's outline and its trail, in picture heights squared.
            let stone = std::f32::consts::PI * (r / z) * 0.5 * (0.7 * r / z + r * EYE / (z * z));
            // A furrow (with its rims) runs away from the stone, narrowing
            // with distance, or across the picture: half of each.
            let hw = 1.6 * 0.6 * r;
            let away = hw * EYE * (1.0 / (z * z) - 1.0 / ((z + trail) * (z + trail)));
            let across = (trail / z).min(ground.aspect) * 2.0 * hw * EYE / (z * z);
            let furrow = 0.5 * (away + across);
            area += stone + furrow;
        }
        let share =
            self.opacity * self.stones as f32 * area / SAMPLES as f32 / (ground.aspect * floor);
        super::Cover {
            floor: share.min(1.0),
            sky: 0.0,
            reach: -(EYE - 0.7 * 1.4 * r) / STONES_FAR,
        }
    }
}

impl Prepare for Racetrack {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}
