//! What a layer costs to draw, known before anything is drawn: a model of
//! each kind's work, from its settings alone (and, for what grows from the
//! automaton, the number of cells it left alive).
//!
//! The figures are milliseconds of one thread's time for a 1280×720
//! picture of the kind on the development machine (`examples/cost_probe.rs`
//! times scenes of one kind against death-valley; `cargo bench --bench
//! cost` renders the worst scenes the limits allow). What matters is their
//! ratio to death-valley's (about 19 ms), which holds across machines, and
//! that no term is low: each is fitted to the slowest of the measured cases
//! of its kind, rounded up. A kind's work grows with the rows it draws, the
//! sky's or the ground's, so each cost is split between the two: a layer
//! above that hides either ([`Layer::hides`]) saves that part of the work.
//!
//! The terms, kind by kind:
//! - per-pixel kinds (sky, ranges, floor, clouds, relief, dunes, tent,
//!   spiral): a cost for the rows they draw, and the stars' and spiral
//!   segments' count;
//! - the Racetrack: its mud, then per stone its furrow (a constant and its
//!   width, the stone's size, as long as the trail reaches) and its body
//!   (size²);
//! - the stones: per live cell of the automaton;
//! - the plants: the creosote's spacing (more bushes the smaller the far
//!   ones), the clumped bushes (per live cell, and their size²), and per
//!   Joshua tree its parts and its size² (on the screen at most a few
//!   times the picture's height).

use super::{
    Clouds, Dunes, Floor, Layer, Plants, Racetrack, Ranges, Relief, Rocks, Sky, Spiral, Tent,
};

/// What the cost of a layer depends on beyond its own settings.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// The horizon, fraction of the picture's height from the top.
    pub horizon: f32,
    /// The automaton's live cells after its generations: the stones, and
    /// what the clumped bushes grow beside.
    pub live: f64,
    /// How much larger the eye draws things on the ground than at 1.6 m
    /// (a stone's eye draws them larger, an overlook smaller).
    pub scale: f32,
    /// The look that draws the scene ([`crate::scene::Scene::look`]).
    pub look: u32,
}

/// A layer's cost in milliseconds (see the module's comment), split
/// between the rows above the horizon and those below.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    /// The work on the sky's rows.
    pub sky: f64,
    /// The work on the ground's rows.
    pub ground: f64,
}

impl Cost {
    /// The whole cost.
    pub fn total(self) -> f64 {
        self.sky + self.ground
    }
}

/// The work of composing a picture whatever its layers: the bands set up,
/// and every pixel turned to sRGB with its dither, ms.
pub const PICTURE: f64 = 7.0;

/// The horizon of the pictures the per-row figures were measured on
/// (death-valley's): a kind's sky work scales with the horizon, its
/// ground work with the rest.
const MEASURED_HORIZON: f64 = 0.56;

/// The automaton's work per cell and generation, ms (a 2048 × 2048 grid
/// run 500 generations takes about as long as 9 death-valleys).
pub const PER_CELL_GENERATION: f64 = 8.0e-8;

impl Layer {
    /// What drawing the layer costs in `view` (nothing when hidden).
    pub fn cost(&self, view: &View) -> Cost {
        if !self.visible() {
            return Cost::default();
        }
        let (sky, ground) = match self {
            Layer::Sky(s) => sky(s),
            Layer::Clouds(c) => clouds(c),
            Layer::Ranges(r) => ranges(r),
            Layer::Floor(f) => floor(f),
            Layer::Relief(r) => relief(r),
            Layer::Dunes(d) => dunes(d, view.look),
            Layer::Racetrack(r) => (0.0, racetrack(r, view.scale)),
            Layer::Rocks(r) => (0.0, rocks(r, view.live, view.scale)),
            Layer::Plants(p) => (0.0, plants(p, view.live, view.scale)),
            Layer::Tent(t) => tent(t, view.scale),
            Layer::Spiral(s) => spiral(s),
        };
        let horizon = f64::from(view.horizon.clamp(0.0, 1.0));
        Cost {
            sky: sky * horizon / MEASURED_HORIZON,
            ground: ground * (1.0 - horizon) / (1.0 - MEASURED_HORIZON),
        }
    }

    /// What the layer hides of the layers under it, `(sky, ground)`: an
    /// opaque sky hides everything, an opaque floor or Racetrack the
    /// ground. The compositor skips the bands a layer above covers, so
    /// their work is not done.
    pub fn hides(&self) -> (bool, bool) {
        let opaque = self.visible() && self.opacity() >= 1.0;
        match self {
            Layer::Sky(_) => (opaque, opaque),
            Layer::Floor(_) | Layer::Racetrack(_) => (false, opaque),
            _ => (false, false),
        }
    }

    /// The settings of the layer that its cost grows with, in words, for
    /// a message that says what to lower.
    pub fn costly_settings(&self) -> &'static str {
        match self {
            Layer::Sky(_) => "its stars",
            Layer::Racetrack(_) => "its stones, stone size or trail",
            Layer::Rocks(_) => "the automaton's columns or density (each live cell is a stone)",
            Layer::Plants(_) => {
                "its Joshua trees or their height, or its near and far sizes or clumped bushes"
            }
            Layer::Spiral(_) => "its segments",
            Layer::Clouds(_)
            | Layer::Ranges(_)
            | Layer::Floor(_)
            | Layer::Relief(_)
            | Layer::Dunes(_)
            | Layer::Tent(_) => "the number of such layers",
        }
    }
}

/// `(sky, ground)` ms of a sky: its gradient over the whole picture, and
/// its stars.
fn sky(s: &Sky) -> (f64, f64) {
    let stars = 2.2e-3 * f64::from(s.stars);
    (1.2 + stars, 0.8)
}

/// `(sky, ground)` ms of a deck of clouds: the noise over the sky, and
/// the shade they cast on the ground.
fn clouds(_: &Clouds) -> (f64, f64) {
    (24.0, 6.0)
}

/// `(sky, ground)` ms of the ranges, by their count.
fn ranges(r: &Ranges) -> (f64, f64) {
    (0.6 + 0.5 * f64::from(r.count), 0.3)
}

/// `(sky, ground)` ms of a floor.
fn floor(_: &Floor) -> (f64, f64) {
    (0.0, 1.5)
}

/// `(sky, ground)` ms of the relief: each of its forms, as strong as it is.
fn relief(r: &Relief) -> (f64, f64) {
    let forms = f64::from(r.fans.min(1.0) + r.wash.min(1.0) + r.rise.min(1.0));
    (0.0, 8.0 + 9.0 * forms)
}

/// `(sky, ground)` ms of the dunes: a march of every column; from the
/// second look, about 2.6 times that (the ridges' shapes leave more to
/// work out pixel by pixel, and each band works out the rows around it:
/// `fresh-newest/dune-sea` against `fresh/dune-sea` in docs/PERFORMANCE.md).
fn dunes(_: &Dunes, look: u32) -> (f64, f64) {
    if look >= crate::base::palette::LOOK_SAND {
        (1.0, 78.0)
    } else {
        (1.0, 30.0)
    }
}

/// `(sky, ground)` ms of a tent drawn `scale` times as large: its pixels,
/// at most the frame's.
fn tent(_: &Tent, scale: f32) -> (f64, f64) {
    let area = f64::from(scale * scale).min(40.0);
    (0.3, 1.5 * area.max(1.0))
}

/// `(sky, ground)` ms of the spiral: the pixels its segments cross, each
/// as long as it is (growing by `step`) and no longer than the frame
/// lets it be, as wide as its line and its antialiased edges.
fn spiral(s: &Spiral) -> (f64, f64) {
    // The segments' lengths, in heights: length + k · step, each cut at
    // LONGEST, summed in closed form.
    const LONGEST: f64 = 2.0;
    let (n, first, step) = (
        f64::from(s.segments),
        f64::from(s.length).min(LONGEST),
        f64::from(s.step),
    );
    let growing = if step > 0.0 {
        ((LONGEST - first) / step).ceil().clamp(0.0, n)
    } else {
        n
    };
    let lengths =
        growing * first + step * growing * (growing - 1.0) / 2.0 + (n - growing) * LONGEST;
    let pixels = lengths * 720.0 * (f64::from(s.width) * 720.0 + 3.0);
    (0.5 + 1.3e-5 * pixels, 0.0)
}

/// Ms of a Racetrack: its mud, then each stone's furrow, as wide as the
/// stone and as long as its trail (past about 30 m a trail runs out of
/// the ground in view), and its body.
fn racetrack(r: &Racetrack, scale: f32) -> f64 {
    let size = f64::from(r.size * scale);
    let reach = (f64::from(r.trail) / 30.0).min(1.0);
    // (The furrows cost most when the wind blows them across the view.)
    let stone = 1.35 * (reach * (0.08 + 0.7 * size) + 0.6 * size * size);
    28.0 + f64::from(r.stones) * stone
}

/// Ms of a rocks layer with `live` stones: each stone placed and culled;
/// each stone left in view drawn (as many as the floor's pixels hold at
/// the stones' size: where they crowd, the near ones hide the rest); and
/// the pixels they cover, a few times the floor's at most; drawn `scale`
/// times as large.
fn rocks(r: &Rocks, live: f64, scale: f32) -> f64 {
    // The floor's pixels at 1280×720 under death-valley's horizon.
    const FLOOR: f64 = 1280.0 * 720.0 * (1.0 - MEASURED_HORIZON);
    let (near, far) = (
        f64::from(r.near_size * scale),
        f64::from(r.far_size * scale),
    );
    // A stone's pixels: its size² (the mean over the ground's depth).
    let pixels = (near * near + near * far + far * far) / 3.0 * 720.0 * 720.0;
    let in_view = live.min(4.0 * FLOOR / pixels.max(1.0));
    let covered = (live * pixels).min(6.0 * FLOOR);
    2.0 + 3.0e-4 * live + 1.0e-3 * in_view + 1.0e-5 * covered
}

/// Ms of a plants layer on a field of `live` cells, drawn `scale` times
/// as large.
fn plants(p: &Plants, live: f64, scale: f32) -> f64 {
    let (near, far) = (
        f64::from(p.near_size * scale),
        f64::from(p.far_size * scale),
    );
    // Bushes about a bush's height apart: the smaller the far ones, the
    // more of them (below about 3% of the height, as many as the
    // ground's rows hold).
    let creosote = f64::from(p.creosote) * (3.0 + 22.0 * (0.03 / far).min(1.0));
    // The mean square of a bush's height over the ground's depth.
    let square = (near * near + near * far + far * far) / 3.0;
    let clumped = f64::from(p.clumped) * (4.0 + 2.0e-4 * live + 600.0 * square);
    // A tree's height on the screen, at the depth of a typical bush, and
    // no larger than a tree cut by the frame.
    let tree = (f64::from(p.height) * (near * far).sqrt()).min(0.3);
    let joshua = f64::from(p.joshua) * (0.7 + 28.0 * tree * tree);
    6.0 + creosote + clumped + joshua
}
