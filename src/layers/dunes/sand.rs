//! Where the dunes stand in the picture: they rise from flat sand near
//! the viewer's feet, and far off they fade to flat sand (`Reach`). The
//! viewer stands as high as the tallest dune, looking out over the sea, so
//! no crest rises over the horizon (in one ground, the eye is the world's,
//! over the first dunes' crests). Also the sand as the terrain things
//! stand on in one ground (`Sand`).

use super::Dunes;
use super::field::{Field, Samples};
use crate::base::noise::{smoothstep, sub_seed};
use crate::base::palette::LOOK_SAND;
use crate::base::simd::Build;
use crate::layers::world::{EYE, METRE, World};

/// How high the viewer stands, in the tallest dune's heights: on a
/// lookout over the sea.
const LOOKOUT: f32 = 3.0;
/// The picture height whose rows decide where the far dunes fade.
const REFERENCE: f32 = 1080.0;

/// Where the dunes rise from flat near the eye, and where they fade far
/// off (depths, scene units).
pub(super) struct Reach {
    /// Where the near sand rises from flat to the dunes.
    pub(super) near: (f32, f32),
    /// Where the far dunes' relief fades, and where their light fades too.
    pub(super) far: (f32, f32),
    pub(super) farthest: (f32, f32),
}

impl Reach {
    pub(super) fn new(field: &Field, eye: f32, h: f32, horizon: f32) -> Reach {
        // The nearest sand the picture shows, flat, and where the dunes
        // are full height: from the picture's bottom on.
        let bottom = eye * h / (h - horizon).max(1.0);
        // Where a dune's length spans twelve rows and less, or the
        // tallest stands eight high, the relief fades: its crests would
        // step from pixel to pixel. The dunes are lit as if they stood on
        // to where a length spans three rows. Rows of a picture 1080 high
        // at most, so that a larger picture is the same picture.
        let rows = REFERENCE;
        let fade = (field.spacing * rows * eye / 12.0)
            .sqrt()
            .min(field.tallest * rows / 8.0);
        let light = 1.4 * (field.spacing * rows * eye / 12.0).sqrt();
        Reach {
            near: (0.35 * bottom, 0.7 * bottom),
            far: (0.6 * fade, 1.2 * fade),
            farthest: (0.6 * light, 1.2 * light),
        }
    }

    /// How much of the dunes' relief stands at depth `z`: flat near the
    /// viewer's feet and far off.
    #[inline]
    pub(super) fn relief(&self, z: f32) -> f32 {
        if z >= self.far.1 || z <= self.near.0 {
            return 0.0;
        }
        smoothstep(self.near.0, self.near.1, z) * (1.0 - smoothstep(self.far.0, self.far.1, z))
    }
}

impl Dunes {
    /// The tallest dune's height, scene units.
    pub(crate) fn tallest(&self) -> f32 {
        (self.height * METRE).min(0.1 * self.spacing * METRE)
    }

    /// The eye's height over the sand's base, scene units: on a lookout
    /// over the sea, or in one ground the world's eye (over the tallest
    /// sand of the first dunes), never under these dunes' crests.
    pub(super) fn eye(&self, field: &Field, world: &World) -> f32 {
        if world.on {
            world.eye.max(field.tallest + 0.1 * EYE)
        } else {
            world.eye + LOOKOUT * field.tallest
        }
    }

    /// The sand as a terrain things stand on, under the wind and the light
    /// of the scene's seed and look, seen from `eye` (scene units, over
    /// the sand's base) in a picture `h` pixels high with the horizon at
    /// row `horizon` and the middle column at `middle`.
    pub(crate) fn sand(
        &self,
        (wind, light, seed, look): ([f32; 2], [f32; 3], u64, u32),
        (eye, h, horizon, middle): (f32, f32, f32, f32),
    ) -> Sand {
        let field = Field::new(self, wind, light, sub_seed(seed, 0xd0e5), look >= LOOK_SAND);
        let reach = Reach::new(&field, eye, h, horizon);
        Sand {
            field,
            reach,
            eye,
            h,
            middle,
        }
    }
}

/// The dunes' sand as the ground things stand on
/// ([`Terrain`](crate::layers::world::Terrain)).
pub(crate) struct Sand {
    field: Field,
    reach: Reach,
    eye: f32,
    h: f32,
    middle: f32,
}

impl Sand {
    /// How many pixels the sand lifts a thing at column `x` whose foot
    /// lies `key` pixels under the horizon on flat ground (`key > 0`): the
    /// sand's height there as the dunes draw it, seen from the eye.
    pub(crate) fn lift(&self, x: f32, key: f32) -> f32 {
        let z = self.eye * self.h / key;
        let k = self.reach.relief(z);
        if k <= 0.0 {
            return 0.0;
        }
        let across = (x - self.middle) / self.h;
        let mut out = Samples::default();
        self.field
            .samples(Build::Portable, &[across * z], &[z], None, &mut out);
        out.h[0] * k * self.h / z
    }
}
