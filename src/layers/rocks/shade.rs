//! The light on a stone: the sun, the sky and the sand's bounce, and a
//! stone's three flat faces lit once per stone, with its grain.

use crate::base::color::Linear;
use crate::base::noise::Dice;

/// The light falling on the stones.
pub(super) struct Lighting {
    /// The sun's light.
    pub(super) direct: Linear,
    /// The sky's light, strongest on faces turned up.
    pub(super) ambient: Linear,
    /// Light bounced up from the sand.
    pub(super) bounce: Linear,
    /// Toward the sun (unit: x right, y up, z toward the viewer).
    pub(super) light: [f32; 3],
    /// The lit sand banked against the stones' feet.
    pub(super) sand: Linear,
}

impl Lighting {
    /// This light with `light` (0..1) of the sun's getting through: in a
    /// cloud's shadow.
    pub(super) fn shaded(&self, light: f32) -> Lighting {
        Lighting {
            direct: crate::base::color::scale(self.direct, light),
            ..*self
        }
    }

    /// Colour of a flat facet of `albedo` facing `n` (unit: x right, y up,
    /// z toward the viewer).
    fn facet(&self, albedo: Linear, n: [f32; 3]) -> Linear {
        let l = self.light;
        let lambert = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]).max(0.0);
        let up = 0.5 + 0.5 * n[1];
        let mut c = [0.0; 3];
        for i in 0..3 {
            c[i] = albedo[i]
                * (self.direct[i] * lambert + self.ambient[i] * up + self.bounce[i] * (1.0 - up));
        }
        c
    }
}

/// A stone's three flat faces (top, left, right), lit once per stone, and
/// where they meet, in the stone's unit coordinates.
pub(super) struct Facets {
    /// Colour of the top face.
    pub(super) top: Linear,
    /// Colour of the left face.
    pub(super) left: Linear,
    /// Colour of the right face.
    pub(super) right: Linear,
    /// The top face ends at `nv = ridge + tilt * nu`.
    pub(super) ridge: f32,
    /// How the top face's edge slants across the stone.
    pub(super) tilt: f32,
    /// Left and right faces meet at `nu = split + lean * nv`.
    pub(super) split: f32,
    /// How the line between the side faces slants down the stone.
    pub(super) lean: f32,
}

impl Facets {
    fn new(lighting: &Lighting, albedo: Linear, dice: &mut Dice) -> Facets {
        let norm = |v: [f32; 3]| {
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            [v[0] / n, v[1] / n, v[2] / n]
        };
        let top = norm([0.35 * dice.signed(), 1.0, 0.35 + 0.4 * dice.unit()]);
        let left = norm([-0.85 - 0.3 * dice.unit(), 0.25 + 0.3 * dice.unit(), 0.55]);
        let right = norm([0.85 + 0.3 * dice.unit(), 0.25 + 0.3 * dice.unit(), 0.55]);
        Facets {
            top: lighting.facet(albedo, top),
            left: lighting.facet(albedo, left),
            right: lighting.facet(albedo, right),
            ridge: -0.15 + 0.15 * dice.signed(),
            tilt: 0.35 * dice.signed(),
            split: 0.25 * dice.signed(),
            lean: 0.4 * dice.signed(),
        }
    }
}

/// What a stone looks like, worked out only when it is drawn: its colour,
/// and the dice (where its outline's draws left them) for its faces and
/// grain.
#[derive(Clone, Copy)]
pub(super) struct Look {
    /// Its colour.
    pub(super) albedo: Linear,
    /// The dice its faces and grain are rolled with.
    pub(super) dice: Dice,
}

/// A stone's lit faces and grain, for drawing.
pub(super) struct Shading {
    /// The three faces, lit.
    pub(super) facets: Facets,
    /// Where the stone's grain lies in the noise tile (its row and column
    /// offsets).
    pub(super) texture: u32,
}

impl Look {
    /// The stone's faces lit by `lighting`, and its grain.
    pub(super) fn shading(self, lighting: &Lighting) -> Shading {
        let mut dice = self.dice;
        let texture = dice.bits();
        let facets = Facets::new(lighting, self.albedo, &mut dice);
        Shading { facets, texture }
    }
}
