//! Every setting of a scene as a table: its name, its range and its
//! precision. [`Scene::quantize`](super::Scene::quantize) rounds floats to
//! their precision with it, and the share code ([`crate::share`]) writes each
//! setting as a whole number in `0..count` with it.
//!
//! Floats are kept on a grid of `1 / per_unit`, anchored at 0 (so `0.74` and
//! the range ends stay exact). The precision of each float:
//!
//! | setting | precision |
//! |---|---|
//! | `aspect` | 1/2520 (16/9, 4/3, 3/2, 21/9, 1.85 and every ratio of denominator up to 10 are exact) |
//! | `rocks.near_size`, `rocks.far_size` | 1/20000 |
//! | `sky.sun_size`, `spiral.length`, `spiral.step`, `spiral.width` | 1/10000 |
//! | `rocks.secondary_share` | 1/3000 (1/15 is exact) |
//! | `ranges.width` | 1/100 |
//! | `spiral.turn` | 1/100 degree |
//! | every other float (positions, opacities, strengths) | 1/1000 |
//!
//! The order of the tables and the precisions are part of the share-code
//! format: change them only with a new format version.

use super::{ASPECT, DENSITY, GENERATIONS, HORIZON, Limit, OPACITY, SUN_X, Scene};
use crate::color::Rgb;
use crate::grid::Topology;
use crate::layers::{Floor, Layer, Ranges, Rocks, Sky, Spiral, Tent};
use crate::layers::{floor, ranges, rocks, sky, spiral, tent};
use crate::palette::TimeOfDay;
use crate::rule::Rule;

/// One setting of a `T` (a scene or a layer's settings).
pub(crate) struct Field<T> {
    /// The setting's name, as in the RON.
    pub name: &'static str,
    /// How it is read, written and rounded.
    pub access: Access<T>,
}

/// Reads and writes one setting of a `T`, by its type.
pub(crate) enum Access<T> {
    /// A float within `limit`, kept to `1 / per_unit`.
    Float {
        get: fn(&T) -> f32,
        put: fn(&mut T, f32),
        limit: Limit,
        per_unit: u32,
    },
    /// A whole number within `limit`.
    Uint {
        get: fn(&T) -> u32,
        put: fn(&mut T, u32),
        limit: Limit,
    },
    /// A switch.
    Bool {
        get: fn(&T) -> bool,
        put: fn(&mut T, bool),
    },
    /// An sRGB colour.
    Rgb {
        get: fn(&T) -> Rgb,
        put: fn(&mut T, Rgb),
    },
    /// The time of day.
    Time {
        get: fn(&T) -> TimeOfDay,
        put: fn(&mut T, TimeOfDay),
    },
    /// A Life-like rule.
    Rule {
        get: fn(&T) -> Rule,
        put: fn(&mut T, Rule),
    },
    /// The grid's topology.
    Topology {
        get: fn(&T) -> Topology,
        put: fn(&mut T, Topology),
    },
}

/// `v` rounded to the nearest multiple of `1 / per_unit`. Non-finite values
/// are left alone, for [`Scene::validate`] to reject.
pub fn quantize(v: f32, per_unit: u32) -> f32 {
    if !v.is_finite() {
        return v;
    }
    let n = f64::from(per_unit);
    ((f64::from(v) * n).round() / n) as f32
}

/// `x` on the grid of `1 / per_unit`, as a whole number (rounded).
fn steps(x: f64, per_unit: u32) -> i64 {
    (x * f64::from(per_unit)).round() as i64
}

impl<T> Field<T> {
    /// Number of distinct values of the setting.
    pub fn count(&self) -> u64 {
        match &self.access {
            Access::Float {
                limit, per_unit, ..
            } => (steps(limit.max, *per_unit) - steps(limit.min, *per_unit)) as u64 + 1,
            Access::Uint { limit, .. } => (limit.max - limit.min) as u64 + 1,
            Access::Bool { .. } | Access::Topology { .. } => 2,
            Access::Rgb { .. } => 1 << 24,
            Access::Time { .. } => TimeOfDay::ALL.len() as u64,
            // B0 is refused, so birth has 8 bits and survival 9.
            Access::Rule { .. } => 1 << 17,
        }
    }

    /// The setting as a whole number in `0..count()`. Values outside the
    /// range (and NaN) are clamped to it.
    pub fn index(&self, t: &T) -> u64 {
        let last = self.count() - 1;
        match &self.access {
            Access::Float {
                get,
                limit,
                per_unit,
                ..
            } => {
                let v = f64::from(get(t));
                let v = if v.is_nan() { limit.min } else { v };
                let k =
                    steps(v.clamp(limit.min, limit.max), *per_unit) - steps(limit.min, *per_unit);
                (k.max(0) as u64).min(last)
            }
            Access::Uint { get, limit, .. } => {
                (f64::from(get(t)).clamp(limit.min, limit.max) - limit.min) as u64
            }
            Access::Bool { get, .. } => u64::from(get(t)),
            Access::Rgb { get, .. } => {
                let Rgb(r, g, b) = get(t);
                u64::from(r) << 16 | u64::from(g) << 8 | u64::from(b)
            }
            Access::Time { get, .. } => {
                let time = get(t);
                TimeOfDay::ALL.iter().position(|&x| x == time).unwrap_or(0) as u64
            }
            Access::Rule { get, .. } => {
                let rule = get(t);
                u64::from(rule.birth() >> 1) << 9 | u64::from(rule.survive())
            }
            Access::Topology { get, .. } => u64::from(get(t) == Topology::Bounded),
        }
    }

    /// Sets the setting from a whole number; `None` if `k` is not one of
    /// its values.
    pub fn set_index(&self, t: &mut T, k: u64) -> Option<()> {
        if k >= self.count() {
            return None;
        }
        match &self.access {
            Access::Float {
                put,
                limit,
                per_unit,
                ..
            } => {
                let n = steps(limit.min, *per_unit) + k as i64;
                put(t, (n as f64 / f64::from(*per_unit)) as f32);
            }
            Access::Uint { put, limit, .. } => put(t, limit.min as u32 + k as u32),
            Access::Bool { put, .. } => put(t, k == 1),
            Access::Rgb { put, .. } => put(t, Rgb((k >> 16) as u8, (k >> 8) as u8, k as u8)),
            Access::Time { put, .. } => put(t, TimeOfDay::ALL[k as usize]),
            Access::Rule { put, .. } => {
                let rule = Rule::from_masks(((k >> 9) as u16) << 1, (k & 0x1ff) as u16).ok()?;
                put(t, rule);
            }
            Access::Topology { put, .. } => put(
                t,
                if k == 1 {
                    Topology::Bounded
                } else {
                    Topology::Torus
                },
            ),
        }
        Some(())
    }

    /// Rounds a float setting to its precision; other settings are exact.
    pub fn quantize(&self, t: &mut T) {
        if let Access::Float {
            get, put, per_unit, ..
        } = &self.access
        {
            put(t, quantize(get(t), *per_unit));
        }
    }
}

macro_rules! float {
    ($name:literal, $($path:ident).+, $limit:expr, $per_unit:expr) => {
        Field {
            name: $name,
            access: Access::Float {
                get: |t| t.$($path).+,
                put: |t, v| t.$($path).+ = v,
                limit: $limit,
                per_unit: $per_unit,
            },
        }
    };
}

macro_rules! access {
    ($name:literal, $variant:ident, $($path:ident).+ $(, $limit:expr)?) => {
        Field {
            name: $name,
            access: Access::$variant {
                get: |t| t.$($path).+,
                put: |t, v| t.$($path).+ = v,
                $(limit: $limit,)?
            },
        }
    };
}

/// The scene's own settings, apart from the seed and the layers.
pub(crate) const SCENE: &[Field<Scene>] = &[
    float!("aspect", aspect, ASPECT, 2520),
    access!("time", Time, time),
    float!("sun_x", sun_x, SUN_X, 1000),
    float!("horizon", horizon, HORIZON, 1000),
    float!("automaton.density", automaton.density, DENSITY, 1000),
    access!(
        "automaton.generations",
        Uint,
        automaton.generations,
        GENERATIONS
    ),
    access!("automaton.rule", Rule, automaton.rule),
    access!("automaton.topology", Topology, automaton.topology),
    access!("automaton.columns", Uint, automaton.columns, super::COLUMNS),
];

/// The sky's settings.
pub(crate) const SKY: &[Field<Sky>] = &[
    access!("visible", Bool, visible),
    float!("opacity", opacity, OPACITY, 1000),
    access!("sun", Bool, sun),
    float!("sun_size", sun_size, sky::SUN_SIZE, 10_000),
    float!("glow", glow, sky::GLOW, 1000),
    access!("stars", Uint, stars, sky::STARS),
    float!("milky_way", milky_way, sky::MILKY_WAY, 1000),
];

/// The mountain ranges' settings.
pub(crate) const RANGES: &[Field<Ranges>] = &[
    access!("visible", Bool, visible),
    float!("opacity", opacity, OPACITY, 1000),
    access!("count", Uint, count, ranges::COUNT),
    float!("height", height, ranges::HEIGHT, 1000),
    float!("roughness", roughness, ranges::ROUGHNESS, 1000),
    float!("width", width, ranges::WIDTH, 100),
    access!("color", Rgb, color),
    float!("haze", haze, ranges::HAZE, 1000),
    access!("terraces", Uint, terraces, ranges::TERRACES),
];

/// The desert floor's settings.
pub(crate) const FLOOR: &[Field<Floor>] = &[
    access!("visible", Bool, visible),
    float!("opacity", opacity, OPACITY, 1000),
    access!("color", Rgb, color),
    float!("warmth", warmth, floor::WARMTH, 1000),
    float!("grain", grain, floor::GRAIN, 1000),
    float!("patches", patches, floor::PATCHES, 1000),
    float!("cracks", cracks, floor::CRACKS, 1000),
];

/// The rocks' settings.
pub(crate) const ROCKS: &[Field<Rocks>] = &[
    access!("visible", Bool, visible),
    float!("opacity", opacity, OPACITY, 1000),
    float!("near_size", near_size, rocks::SIZE, 20_000),
    float!("far_size", far_size, rocks::SIZE, 20_000),
    float!("top", top, rocks::TOP, 1000),
    float!("bottom", bottom, rocks::BOTTOM, 1000),
    float!("jitter", jitter, rocks::JITTER, 1000),
    access!("primary", Rgb, primary),
    float!("primary_alpha", primary_alpha, rocks::UNIT, 1000),
    access!("secondary", Rgb, secondary),
    float!("secondary_alpha", secondary_alpha, rocks::UNIT, 1000),
    float!("secondary_share", secondary_share, rocks::UNIT, 3000),
    float!("shadow", shadow, rocks::SHADOW, 1000),
];

/// The tent's settings.
pub(crate) const TENT: &[Field<Tent>] = &[
    access!("visible", Bool, visible),
    float!("opacity", opacity, OPACITY, 1000),
    float!("x", x, tent::X, 1000),
    float!("y", y, tent::Y, 1000),
    float!("size", size, tent::SIZE, 1000),
    access!("color", Rgb, color),
    float!("lantern", lantern, tent::LANTERN, 1000),
];

/// The spiral's settings.
pub(crate) const SPIRAL: &[Field<Spiral>] = &[
    access!("visible", Bool, visible),
    float!("opacity", opacity, OPACITY, 1000),
    float!("x", x, spiral::POSITION, 1000),
    float!("y", y, spiral::POSITION, 1000),
    float!("length", length, spiral::LENGTH, 10_000),
    float!("step", step, spiral::LENGTH, 10_000),
    float!("turn", turn, spiral::TURN, 100),
    access!("segments", Uint, segments, spiral::SEGMENTS),
    float!("width", width, spiral::WIDTH, 10_000),
    access!("color", Rgb, color),
];

/// Rounds every float of `layer` to its precision.
pub(crate) fn quantize_layer(layer: &mut Layer) {
    fn all<T>(fields: &[Field<T>], t: &mut T) {
        for f in fields {
            f.quantize(t);
        }
    }
    match layer {
        Layer::Sky(l) => all(SKY, l),
        Layer::Ranges(l) => all(RANGES, l),
        Layer::Floor(l) => all(FLOOR, l),
        Layer::Rocks(l) => all(ROCKS, l),
        Layer::Tent(l) => all(TENT, l),
        Layer::Spiral(l) => all(SPIRAL, l),
    }
}

/// Rounds every float of the scene's own settings to its precision.
pub(crate) fn quantize_scene(scene: &mut Scene) {
    for f in SCENE {
        f.quantize(scene);
    }
}
