//! Plants: the Mojave's creosote bushes and Joshua trees, standing on the
//! ground in perspective, lit by the scene's light, each casting a shadow
//! on the ground away from the sun.
//!
//! Large creosote bushes stand regularly spaced (a jittered grid on the
//! ground, by seed), as they do on the fans; small ones gather beside the
//! automaton's clumps, off to the side of their stones. Joshua trees rise
//! on a trunk that forks in pairs, each branch ending in a spiky cluster of
//! leaves; the nearest may reach into the sky. Farther plants are smaller
//! and hazier.
//!
//! The layer in files, one idea each:
//!
//! - `place`: where the plants stand, on the ground in perspective, off
//!   the stones and the tents' clearings.
//! - `grow`: each plant grown where it stands: a bush's crown, a tree's
//!   trunk forking in pairs, their shadows, their light and haze.
//! - `parts`: the parts a plant is drawn from (shaggy limbs, leaf
//!   clusters, a bush's crown, the capsules of its shadow), in the
//!   picture's pixels.
//! - `draw`: the plants prepared for one picture, filed under the bands
//!   they touch, and drawing a band: shadows and bodies, far to near.
//! - `kernels`: the shaders of the busiest parts, several pixels of a
//!   row at once (SIMD), checked against `draw`'s pixel by pixel.

mod draw;
mod grow;
mod kernels;
mod parts;
mod place;

use serde::Serialize;

use super::{Draw, Frame, Kind, Prepare};
use crate::base::color::Rgb;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

/// Settings of the plants layer. Ranges and precisions: [`Plants::SETTINGS`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plants {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// How many large creosote bushes stand on the ground, regularly
    /// spaced: 0 none, 1 about one bush height apart. Default: 0.5.
    pub creosote: f32,
    /// Share of the automaton's clumps (of two cells or more) with small
    /// creosote bushes beside their stones. Range 0 to 1. Default: 0.5.
    pub clumped: f32,
    /// Number of Joshua trees. Range 0 to 64. Default: 5.
    pub joshua: u32,
    /// Height of a Joshua tree, in heights of a large creosote bush
    /// (each tree varies around it). Range 1.5 to 10. Default: 4.5.
    pub height: f32,
    /// Height of a large creosote bush on the nearest ground, fraction of
    /// the picture's height. Range 0.004 to 0.3. Default: 0.07.
    pub near_size: f32,
    /// Height of a large creosote bush on the farthest ground, fraction of
    /// the picture's height; near / far sets the perspective. Range 0.002
    /// to 0.3. Default: 0.016.
    pub far_size: f32,
    /// How far the plants lean downwind, 0 to 1. Default: 0.3.
    pub lean: f32,
    /// Colour of the creosote's foliage. Default: (92, 102, 50), dark olive.
    pub creosote_color: Rgb,
    /// Colour of the Joshua trees' leaves. Default: (112, 124, 66).
    pub joshua_color: Rgb,
    /// Strength of the plants' shadows on the ground. Range 0 to 2.
    /// Default: 1.
    pub shadow: f32,
}

impl Default for Plants {
    fn default() -> Self {
        Plants {
            visible: true,
            opacity: 1.0,
            creosote: 0.5,
            clumped: 0.5,
            joshua: 5,
            height: 4.5,
            near_size: 0.07,
            far_size: 0.016,
            lean: 0.3,
            creosote_color: Rgb(92, 102, 50),
            joshua_color: Rgb(112, 124, 66),
            shadow: 1.0,
        }
    }
}

impl Kind for Plants {
    const NAME: &'static str = "plants";
    const TITLE: &'static str = "Plants";
    const SETTINGS: &'static [Setting<Plants>] = &[
        super::visible(),
        super::opacity(),
        float!(
            "creosote",
            creosote,
            0.0,
            1.0,
            1000,
            "Creosote",
            "How many large creosote bushes stand on the ground, regularly spaced",
            Roll::Range(0.2, 0.7)
        ),
        float!(
            "clumped",
            clumped,
            0.0,
            1.0,
            1000,
            "Small bushes",
            "Share of the stones' clumps with small creosote bushes beside them",
            Roll::Range(0.2, 0.8)
        ),
        uint!(
            "joshua",
            joshua,
            0,
            64,
            "Joshua trees",
            "Number of Joshua trees",
            Roll::Range(1, 12)
        ),
        float!(
            "height",
            height,
            1.5,
            10.0,
            100,
            "Tree height",
            "Height of a Joshua tree, in creosote bush heights",
            Roll::Range(3.5, 6.0)
        ),
        float!(log "near_size", near_size, 0.004, 0.3, 20_000,
            "Near size", "Height of a large bush on the nearest ground", Roll::Range(0.055, 0.09)),
        float!(log "far_size", far_size, 0.002, 0.3, 20_000,
            "Far size", "Height of a large bush on the farthest ground", Roll::Range(0.01, 0.022)),
        float!(
            "lean",
            lean,
            0.0,
            1.0,
            1000,
            "Lean",
            "How far the plants lean downwind",
            Roll::Range(0.0, 0.6)
        ),
        other!(
            Rgb,
            "creosote_color",
            creosote_color,
            "Creosote colour",
            "Colour of the creosote bushes' foliage",
            Roll::Keep
        ),
        other!(
            Rgb,
            "joshua_color",
            joshua_color,
            "Leaf colour",
            "Colour of the Joshua trees' leaves",
            Roll::Keep
        ),
        float!(
            "shadow",
            shadow,
            0.0,
            2.0,
            1000,
            "Shadow",
            "Strength of the plants' shadows on the ground",
            Roll::Keep
        ),
    ];

    super::common_settings!();
}

impl Prepare for Plants {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(draw::PlantsDraw::new(self, frame)))
    }
}

impl Plants {
    /// How much of the floor of `ground` the plants cover, and how far the
    /// tallest tree reaches above the horizon (a tree on the nearest
    /// ground, at its tallest). A model of where `place` puts them: the
    /// large bushes' density over the ground's depth, the small ones by
    /// the field's clumps, the trees by their count and height.
    pub fn cover(&self, ground: &super::Ground) -> super::Cover {
        let g = place::Ground::of(self, ground.horizon, 1.0, ground.scale);
        let floor = (1.0 - ground.horizon).max(1e-3) * ground.aspect;
        // A bush of height 1 covers about 0.75 (a lacy oval 1.3 wide); the
        // bushes per unit of ground times their area in the picture, over
        // the depths, is `density · aspect · 0.75 · ln(depth)` of h².
        let large =
            place::large_density(self) * 0.75 * crate::base::math::ln(g.depth) * ground.aspect;
        // Small bushes and trees at the middle depth's size.
        let mid = g.size(0.5 * (1.0 + g.depth));
        let clumps = ground.stones.clumps_of_at_least(2);
        let small = clumps * self.clumped * 2.0 * 0.75 * (0.45 * mid).powi(2);
        let trees = self.joshua as f32 * 0.2 * (self.height * mid).powi(2);
        let reach = if self.joshua > 0 {
            ground.horizon
                - (place::NEAREST - self.near_size * ground.scale * self.height * place::TALLEST)
        } else {
            ground.horizon - (place::NEAREST - self.near_size * ground.scale * 1.1)
        };
        super::Cover {
            floor: ((large + small + trees) / floor).min(1.0),
            sky: 0.0,
            reach,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
