//! One ground, seen from one eye: the camera every layer reads, the sand
//! that things on the ground stand on, and the depths that decide what
//! hides what.
//!
//! **The eye.** A scene's `eye` is the eye's height over the ground and
//! its `lens` the focal length. The ground is laid out on the screen (the
//! automaton's rows run from the horizon down, a tent stands at a row), so
//! a row is a depth: a flat point `k` pixels under the horizon lies at
//! depth `eye · h / k`. The eye's height therefore scales what stands on
//! the ground against its row ([`World::scale`]: exactly 1 at 1.6 m), and
//! the lens scales what lies too far for its depth to matter, the ranges,
//! the sun and the clouds ([`World::zoom`]: exactly 1 at 24 mm).
//!
//! **One ground** (the scene's `one_ground`). The dunes are the terrain:
//! the eye stands its height over the tallest sand, and a thing at row `y`
//! of the flat ground stands on the sand at that depth, lifted by the
//! sand's height there ([`Terrain::lift`]). Each pixel of a band then
//! carries two depths ([`Depth`]), as *keys*: how many pixels under the
//! horizon a flat point at that depth would lie, so nearer is larger. The
//! ground's key is that of the terrain drawn there, where it can hide
//! what stands behind it (the sand; the relief's near rise). The things'
//! key is that of the nearest thing drawn there. A thing at key `k`
//! paints a pixel only where neither is nearer, so the nearer is drawn
//! over the farther whatever the layers' order; and the compositor draws
//! the ground's surfaces (floor, dunes, relief, the Racetrack's mud) under
//! whatever stands on them ([`drawing_order`]).

use std::sync::Arc;

use super::{Layer, dunes};

/// The eye's height of every scene before share-code format 7, metres
/// (the scene's `eye` by default).
pub const DEFAULT_EYE: f32 = 1.6;
/// The lens of every scene before format 7, millimetres (the scene's
/// `lens` by default).
pub const DEFAULT_LENS: f32 = 24.0;

/// The eye's height over flat ground in every scene before format 7,
/// scene units (a scene unit is the picture's height at depth 1): 1.6 m.
pub(crate) const EYE: f32 = 0.22;
/// A metre in scene units.
pub(crate) const METRE: f32 = EYE / DEFAULT_EYE;

/// The camera and the ground of one picture (in [`super::Frame`]).
pub(crate) struct World {
    /// Whether the scene has one ground (depth decides, things stand on
    /// the terrain).
    pub on: bool,
    /// The eye's height over the ground's base, scene units: over the
    /// tallest sand where one ground has dunes.
    pub eye: f32,
    /// How much larger a thing on the ground is drawn than a scene before
    /// format 7 draws it at the same row: [`EYE`] / `eye`.
    pub scale: f32,
    /// The focal length against 24 mm's: how much larger far things are.
    pub zoom: f32,
    /// The sand that things stand on, in one ground with dunes.
    pub terrain: Option<Arc<Terrain>>,
}

impl World {
    /// The world of a scene whose eye is `eye` metres high through a lens
    /// of `lens` mm, with `layers`, drawn `h` pixels high with the horizon
    /// at row `horizon` and the middle column at `middle`, under the wind
    /// and the light of the scene's seed and look.
    pub fn new(
        (on, eye, lens): (bool, f32, f32),
        layers: &[Layer],
        (h, horizon, middle): (f32, f32, f32),
        (wind, light, seed, look): ([f32; 2], [f32; 3], u64, u32),
    ) -> World {
        let (eye, dunes) = eye_over(on, eye, layers);
        let terrain = dunes.map(|d| {
            let sand = d.sand((wind, light, seed, look), (eye, h, horizon, middle));
            Arc::new(Terrain { sand })
        });
        World {
            on,
            eye,
            scale: EYE / eye,
            zoom: lens / DEFAULT_LENS,
            terrain,
        }
    }

    /// How many pixels the ground lifts a thing standing at column `x`
    /// whose foot is `key` pixels under the horizon on flat ground: 0
    /// without a terrain.
    pub fn lift(&self, x: f32, key: f32) -> f32 {
        match &self.terrain {
            Some(t) if key > 0.0 => t.lift(x, key),
            _ => 0.0,
        }
    }
}

/// The eye's height over the ground's base, scene units, for a scene with
/// `one_ground` whose eye is `eye` metres over the ground and whose layers
/// are `layers`; and in one ground the dunes things stand on (the first
/// drawn), over whose tallest sand the eye then stands.
pub(crate) fn eye_over(
    one_ground: bool,
    eye: f32,
    layers: &[Layer],
) -> (f32, Option<&dunes::Dunes>) {
    // Exactly the eye of every scene before format 7 at its default.
    let base = if eye == DEFAULT_EYE { EYE } else { eye * METRE };
    let dunes = one_ground
        .then(|| {
            layers.iter().find_map(|l| match l {
                Layer::Dunes(d) if d.visible && d.opacity > 0.0 => Some(d),
                _ => None,
            })
        })
        .flatten();
    match dunes {
        Some(d) => (base + d.tallest(), Some(d)),
        None => (base, None),
    }
}

/// How much larger things on the ground are drawn than at 1.6 m on flat
/// ground ([`World::scale`]), for a scene's one ground, eye and layers.
pub(crate) fn scale_of(one_ground: bool, eye: f32, layers: &[Layer]) -> f32 {
    EYE / eye_over(one_ground, eye, layers).0
}

/// The ground's height field, for what stands on it.
pub(crate) struct Terrain {
    sand: dunes::Sand,
}

impl Terrain {
    /// See [`World::lift`].
    pub fn lift(&self, x: f32, key: f32) -> f32 {
        self.sand.lift(x, key)
    }
}

/// A band's depths, pixel for pixel as its colours (see the module docs):
/// `f32::NEG_INFINITY` where nothing is nearer than the sky.
pub(crate) struct Depth<'a> {
    /// The key of the terrain that can hide what stands behind it.
    pub ground: &'a mut [f32],
    /// The key of the nearest thing drawn.
    pub things: &'a mut [f32],
}

/// Nothing drawn yet: as far as the sky.
pub(crate) const FAR: f32 = f32::NEG_INFINITY;

impl Depth<'_> {
    /// Whether a thing whose foot lies at `key` shows at pixel `i` of the
    /// band: no nearer thing is drawn there, and no terrain more than
    /// `margin` nearer (a thing reaches a little under its foot).
    #[inline]
    pub fn shows(&self, i: usize, key: f32, margin: f32) -> bool {
        self.things[i] <= key && self.ground[i] <= key + margin
    }

    /// Marks pixel `i` as covered by a thing at `key`.
    #[inline]
    pub fn cover(&mut self, i: usize, key: f32) {
        self.things[i] = key;
    }
}

/// Whether a kind of layer stands on the ground (its things are ordered
/// by depth in one ground).
pub(crate) fn stands(layer: &Layer) -> bool {
    matches!(layer, Layer::Rocks(_) | Layer::Tent(_) | Layer::Plants(_))
}

/// Whether a kind of layer is a surface of the ground, drawn under what
/// stands on it in one ground.
pub(crate) fn surface(layer: &Layer) -> bool {
    matches!(
        layer,
        Layer::Floor(_) | Layer::Dunes(_) | Layer::Relief(_) | Layer::Racetrack(_)
    )
}

/// The order in which one ground draws `layers`, as indices: each surface
/// that comes after the first thing standing on the ground is drawn just
/// before it (in their own order), the rest where it is. `None` where that
/// is the layers' own order.
///
/// A Racetrack is a playa's mud with stones standing on it: it is drawn
/// after the dunes, its mud under their sand and its stones standing on
/// it or in front of it by depth.
pub(crate) fn drawing_order(layers: &[Layer]) -> Option<Vec<usize>> {
    let mut order: Vec<usize> = match layers.iter().position(stands) {
        Some(first) => {
            let late: Vec<usize> = (first..layers.len())
                .filter(|&i| surface(&layers[i]))
                .collect();
            let mut order: Vec<usize> = (0..first).collect();
            order.extend(&late);
            order.extend((first..layers.len()).filter(|i| !late.contains(i)));
            order
        }
        None => (0..layers.len()).collect(),
    };
    let dunes = |i: &usize| matches!(layers[*i], Layer::Dunes(_));
    if let Some(last) = order.iter().rposition(dunes) {
        let early: Vec<usize> = order[..last]
            .iter()
            .copied()
            .filter(|&i| matches!(layers[i], Layer::Racetrack(_)))
            .collect();
        order.retain(|i| !early.contains(i));
        let at = order.iter().rposition(dunes).map_or(0, |p| p + 1);
        order.splice(at..at, early);
    }
    (!order.iter().copied().eq(0..layers.len())).then_some(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::*;

    #[test]
    fn surfaces_go_under_what_stands_on_them() {
        let layers = vec![
            Layer::Sky(Sky::default()),
            Layer::Rocks(Rocks::default()),
            Layer::Spiral(Spiral::default()),
            Layer::Dunes(Dunes::default()),
            Layer::Tent(Tent::default()),
            Layer::Floor(Floor::default()),
        ];
        assert_eq!(drawing_order(&layers), Some(vec![0, 3, 5, 1, 2, 4]));
        // A Racetrack's mud goes under the dunes' sand.
        let playa = vec![
            Layer::Sky(Sky::default()),
            Layer::Racetrack(Racetrack::default()),
            Layer::Dunes(Dunes::default()),
            Layer::Spiral(Spiral::default()),
        ];
        assert_eq!(drawing_order(&playa), Some(vec![0, 2, 1, 3]));
        assert_eq!(
            drawing_order(&[playa[0].clone(), playa[2].clone(), playa[1].clone()]),
            None
        );
        assert_eq!(drawing_order(&layers[..3]), None);
        assert_eq!(drawing_order(&Scene::default_layers()), None);
    }

    use crate::Scene;

    #[test]
    fn the_default_eye_and_lens_change_nothing() {
        let w = World::new(
            (false, DEFAULT_EYE, DEFAULT_LENS),
            &[],
            (720.0, 400.0, 640.0),
            ([1.0, 0.0], [0.0, 1.0, 0.0], 1, 1),
        );
        assert_eq!((w.eye, w.scale, w.zoom), (EYE, 1.0, 1.0));
        assert_eq!(w.lift(3.0, 100.0), 0.0);
    }
}
