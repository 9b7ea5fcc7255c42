//! The scene: everything that decides the pixels, as plain data.
//!
//! A scene is written as RON. Every field has a default, so a preset names
//! only what it changes:
//!
//! ```ron
//! (
//!     seed: 7,
//!     time: GoldenHour,
//!     automaton: (density: 0.5, columns: 240),
//!     layers: [Sky(()), Ranges((count: 2)), Floor(()), Rocks(()), Tent((x: 0.7))],
//! )
//! ```
//!
//! Geometry is in scene units, never pixels: horizontal positions are
//! fractions of the picture's width, vertical positions and sizes fractions
//! of its height. The same scene renders the same picture at any resolution.
//!
//! Every number has a documented range; a value outside it is rejected when
//! the RON is read (with its line and column) and by [`Scene::validate`].
//! Floats are plain `f32`, kept to a documented precision: every scene read
//! (RON, serde, share code, PNG recipe) is quantized, and [`crate::render`]
//! draws the quantized scene, so scenes that differ only below the precision
//! are the same picture and the same share code. The ranges and precisions
//! are in the settings tables: [`Scene::SETTINGS`] for the scene's own, and
//! each layer kind's [`crate::layers::Kind::SETTINGS`].

pub mod cost;
mod layers;
pub mod presets;

pub use layers::{LayerName, layer_names};

use serde::de::DeserializeSeed;
use serde::{Deserialize, Serialize};

use crate::base::palette::TimeOfDay;
use crate::error::{Error, Result};
use crate::layers::Layer;
use crate::life::{Rule, Topology};
use crate::setting::limit::Limit;
use crate::setting::{self, Roll, Setting, float, other, uint};

/// Defines `fn $name` for `#[serde(deserialize_with = "...")]`: reads a
/// `$ty` and rejects it unless it is within the range of the setting called
/// `$setting` in [`Scene::SETTINGS`], so that serde reports the bad value
/// with its line and column.
macro_rules! checked {
    ($name:ident: $ty:ty = $setting:literal) => {
        fn $name<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<$ty, D::Error> {
            let limit = setting::find(Scene::SETTINGS, $setting)
                .and_then(|s| s.limit($setting))
                .expect("a number setting of the scene");
            <$ty as Checked>::read(d, &limit)
        }
    };
}

/// Reads a seed, naming its range when the number is outside it.
fn de_seed<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
    struct Seed;
    impl serde::de::Visitor<'_> for Seed {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a seed, a whole number from 0 to 18446744073709551615")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> std::result::Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> std::result::Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(out_of_range_seed(v)))
        }
        // RON reads a whole number beyond 64 bits as 128 bits.
        fn visit_u128<E: serde::de::Error>(self, v: u128) -> std::result::Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(out_of_range_seed(v)))
        }
        fn visit_i128<E: serde::de::Error>(self, v: i128) -> std::result::Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(out_of_range_seed(v)))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> std::result::Result<u64, E> {
            // A whole number too long for 128 bits comes as a float (`u64::MAX
            // as f64` is 2⁶⁴, one past the last seed).
            if v.fract() == 0.0 && !(0.0..u64::MAX as f64).contains(&v) {
                return Err(E::custom(out_of_range_seed(setting::written(v))));
            }
            Err(E::custom(format!(
                "seed is a whole number from 0 to 18446744073709551615, not {v:?}"
            )))
        }
    }
    fn out_of_range_seed(v: impl std::fmt::Display) -> Error {
        Error::out_of_range(
            "seed",
            v,
            "must be a whole number from 0 to 18446744073709551615",
        )
    }
    d.deserialize_any(Seed)
}

/// A setting type read through a [`Limit`].
trait Checked: Sized {
    /// Reads a value and checks it against `limit`.
    fn read<'de, D: serde::Deserializer<'de>>(
        d: D,
        limit: &Limit,
    ) -> std::result::Result<Self, D::Error>;
}

impl Checked for f32 {
    fn read<'de, D: serde::Deserializer<'de>>(
        d: D,
        limit: &Limit,
    ) -> std::result::Result<f32, D::Error> {
        setting::FloatIn(*limit).deserialize(d)
    }
}

impl Checked for u32 {
    fn read<'de, D: serde::Deserializer<'de>>(
        d: D,
        limit: &Limit,
    ) -> std::result::Result<u32, D::Error> {
        setting::WholeIn(*limit).deserialize(d)
    }
}

/// Narrowest accepted aspect ratio (width / height).
pub const MIN_ASPECT: f32 = 0.25;
/// Widest accepted aspect ratio (width / height).
pub const MAX_ASPECT: f32 = 4.0;
/// Most columns of the rock automaton's grid.
pub const MAX_COLUMNS: u32 = 2048;
/// Most cells (columns × rows) of the rock automaton's grid.
pub const MAX_GRID_CELLS: u64 = 1 << 22;
/// Most generations of the rock automaton.
pub const MAX_GENERATIONS: u32 = 1000;
/// Most layers in a scene.
pub const MAX_LAYERS: usize = 32;
/// Longest scene text accepted by [`Scene::from_ron`], in bytes (1 MiB).
pub const MAX_RON_BYTES: usize = 1 << 20;

/// Rules that grow stone-like clumps from a soup (Life and its blobby
/// relatives): what Vary may switch a rule to, and the app's rule menu
/// (with names) after the first. New scene picks a rule with the soups
/// that leave it clumps (`randomize`'s growths).
pub const RULES: &[&str] = &[
    "B3/S23",       // Life: scattered clumps and debris
    "B3/S23",       // (twice: the classic look is the most likely)
    "B4678/S35678", // Anneal: smooth boulder fields
    "B3/S45678",    // Coral: dense, crusty patches
    "B35678/S5678", // Diamoeba: large blobs
    "B36/S23",      // HighLife
    "B3678/S34678", // Day & Night: solid masses
    "B5678/S45678", // Vote-like: compact clumps
];

/// The rules of [`RULES`] with their names, in the app's rule menu and in
/// the words that describe a scene.
pub const RULE_NAMES: &[(&str, &str)] = &[
    ("Life", "B3/S23"),
    ("Anneal", "B4678/S35678"),
    ("Coral", "B3/S45678"),
    ("Diamoeba", "B35678/S5678"),
    ("HighLife", "B36/S23"),
    ("Day & Night", "B3678/S34678"),
    ("Majority", "B5678/S45678"),
];

const _: () = assert!(RULE_NAMES.len() + 1 == RULES.len());

/// The soup densities worth sliding through for each rule of
/// [`RULE_NAMES`] (by its text): `(rule, lowest, highest, what lies
/// above)`. Measured by `cargo run --release --example density_ranges`
/// over the presets (their columns and generations, seeds 1 to 3): from
/// `lowest` to `highest`, at least 4 runs in 5 leave a field of clumps (at
/// least 1 cell in 1000 alive, at least 10 clumps, none over a tenth of
/// the grid). Below `lowest` too few cells live through the generations
/// to make stones.
pub const RULE_DENSITIES: &[(&str, f32, f32, &str)] = &[
    ("B3/S23", 0.05, 0.8, OVERCROWDING),
    ("B4678/S35678", 0.175, 0.45, MERGING),
    ("B3/S45678", 0.25, 0.525, MERGING),
    ("B35678/S5678", 0.3, 0.5, MERGING),
    ("B36/S23", 0.05, 0.925, OVERCROWDING),
    ("B3678/S34678", 0.1, 0.325, MERGING),
    ("B5678/S45678", 0.325, 0.475, MERGING),
];

/// What lies above Life's and HighLife's densities in [`RULE_DENSITIES`].
const OVERCROWDING: &str = "overcrowding kills nearly every cell";
/// What lies above the blobby rules' densities in [`RULE_DENSITIES`].
const MERGING: &str = "the clumps merge into one mass";

/// The densities worth sliding through for `rule` (see
/// [`RULE_DENSITIES`]) and why they end where they do above; `None` for a
/// rule with no name, whose slider keeps the whole range.
pub fn density_range(rule: Rule) -> Option<(std::ops::RangeInclusive<f32>, &'static str)> {
    let text = rule.to_string();
    RULE_DENSITIES
        .iter()
        .find(|(r, ..)| *r == text)
        .map(|&(_, lo, hi, above)| (lo..=hi, above))
}

checked!(de_aspect: f32 = "aspect");
checked!(de_sun_x: f32 = "sun_x");
checked!(de_horizon: f32 = "horizon");
checked!(de_wind: f32 = "wind");
checked!(de_eye: f32 = "eye");
checked!(de_lens: f32 = "lens");
checked!(de_look: u32 = "look");

pub use crate::layers::world::{DEFAULT_EYE, DEFAULT_LENS};

fn is_default_eye(eye: &f32) -> bool {
    *eye == DEFAULT_EYE
}

fn is_default_lens(lens: &f32) -> bool {
    *lens == DEFAULT_LENS
}

pub use crate::base::palette::{LOOK_FIRST, LOOK_NEWEST, LOOK_SAND};

fn is_first_look(look: &u32) -> bool {
    *look == LOOK_FIRST
}
checked!(de_density: f32 = "automaton.density");
checked!(de_generations: u32 = "automaton.generations");
checked!(de_columns: u32 = "automaton.columns");

/// A landscape: seed, framing, light, the rock automaton and the layers.
///
/// Default: the Death Valley campsite (`presets/death-valley.ron`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// `remote = "Self"`: the derived code becomes `Scene::serialize` and
// `Scene::deserialize`, wrapped below by impls that quantize.
#[serde(default, deny_unknown_fields, remote = "Self")]
pub struct Scene {
    /// Seed of everything random: the soup, ridgelines, stars, grain and the
    /// stones' shapes. Any whole number from 0 to 2^64 − 1. Default: 1.
    #[serde(deserialize_with = "de_seed")]
    pub seed: u64,
    /// Intended width / height of the picture; sets the rock grid's rows and
    /// the default output size. Range 0.25 to 4. Default: 16/9.
    #[serde(deserialize_with = "de_aspect")]
    pub aspect: f32,
    /// Time of day: sky colours, sun height and light. Default: noon.
    pub time: TimeOfDay,
    /// Horizontal position of the sun (or moon), fraction of the width; also
    /// the side the light comes from. Range -0.5 to 1.5. Default: 0.74.
    #[serde(deserialize_with = "de_sun_x")]
    pub sun_x: f32,
    /// Height of the horizon, fraction of the height from the top. Range 0.1
    /// to 0.9. Default: 0.56.
    #[serde(deserialize_with = "de_horizon")]
    pub horizon: f32,
    /// The cellular automaton whose survivors become stones.
    pub automaton: Automaton,
    /// Where the wind blows to, in degrees on the ground: 0 across the
    /// picture to the right, 90 away from the viewer, 180 to the left, 270
    /// toward the viewer. Every layer that the wind shapes reads it (the
    /// clouds' drift, the Racetrack's trails, the plants' lean). Range 0 to
    /// 360, precision 0.1 (since share-code format 4); 360 is the same wind
    /// as 0 and is kept as 0. Default: 0. Left out
    /// of RON when 0, so a scene written before it existed reads and
    /// writes as it did.
    #[serde(
        deserialize_with = "de_wind",
        skip_serializing_if = "crate::setting::is_zero"
    )]
    pub wind: f32,
    /// One ground (since share-code format 7): the floor, the dunes and
    /// the relief make one terrain, whatever stands on the ground (stones,
    /// plants, tents, the Racetrack's stones) stands on it, and the nearer
    /// hides the farther whatever the layers' order. Off, as in every
    /// scene before it: things are drawn in layer order on flat ground.
    /// Default: false; left out of RON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub one_ground: bool,
    /// The eye's height over the ground, metres (since format 7): a
    /// stone's 0.3, a person standing 1.6, a dune's crest 30, an overlook
    /// over a basin 1,750. Range 0.3 to 2000. Default: 1.6; left out of
    /// RON at its default.
    #[serde(deserialize_with = "de_eye", skip_serializing_if = "is_default_eye")]
    pub eye: f32,
    /// The lens, as its focal length on a full-frame camera, millimetres
    /// (since format 7): 14 wide, 24 as every scene before it, 400 long.
    /// Range 14 to 400. Default: 24; left out of RON at its default.
    #[serde(deserialize_with = "de_lens", skip_serializing_if = "is_default_lens")]
    pub lens: f32,
    /// The look (since format 8): which version of playa's light draws
    /// the scene, so that a picture, once shared, keeps its pixels. 1, as
    /// every scene before it; 2 (December 2026) lights the night so that
    /// the ground reads (the moon, the sky's afterglow, a tent's glow) and
    /// the sand as sand (the sky's blue in its shade, lit crests,
    /// ripples at a low sun). New scene draws in the newest. Range 1 to
    /// [`LOOK_NEWEST`]. Default: 1; left out of RON at 1.
    #[serde(deserialize_with = "de_look", skip_serializing_if = "is_first_look")]
    pub look: u32,
    /// The layers, drawn in order (back to front). Default: sky, ranges,
    /// floor, rocks, tent and a hidden spiral.
    pub layers: Vec<Layer>,
}

/// The rock automaton: a seeded soup run a few generations of a Life-like
/// rule; every surviving cell becomes a stone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Automaton {
    /// Share of live cells in the soup. Range 0 to 1, precision 0.001.
    /// Default: 0.8.
    #[serde(deserialize_with = "de_density")]
    pub density: f32,
    /// Generations run before the survivors are placed. Range 0 to
    /// [`MAX_GENERATIONS`]. Default: 8.
    #[serde(deserialize_with = "de_generations")]
    pub generations: u32,
    /// The rule, as `"B3/S23"` (or Golly's `"23/3"`). Default: `"B3/S23"`.
    pub rule: Rule,
    /// Torus (edges wrap) or bounded plane. Default: torus.
    pub topology: Topology,
    /// Columns of the grid, spread over the picture's width; the rows are
    /// `columns / aspect`, spread from the horizon to the bottom. Range 1 to
    /// [`MAX_COLUMNS`], with at most [`MAX_GRID_CELLS`] cells. Default: 560.
    #[serde(deserialize_with = "de_columns")]
    pub columns: u32,
}

impl Default for Automaton {
    fn default() -> Self {
        Automaton {
            density: 0.8,
            generations: 8,
            rule: Rule::default(),
            topology: Topology::Torus,
            columns: 560,
        }
    }
}

impl Default for Scene {
    fn default() -> Self {
        Scene {
            seed: 1,
            aspect: 16.0 / 9.0,
            time: TimeOfDay::Noon,
            sun_x: 0.74,
            horizon: 0.56,
            automaton: Automaton::default(),
            wind: 0.0,
            one_ground: false,
            eye: DEFAULT_EYE,
            lens: DEFAULT_LENS,
            look: LOOK_FIRST,
            layers: Scene::default_layers(),
        }
    }
}

impl Serialize for Scene {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        Scene::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for Scene {
    /// Reads a scene and quantizes it ([`Scene::quantize`]).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Scene, D::Error> {
        let mut scene = Scene::deserialize(d)?;
        scene.quantize();
        Ok(scene)
    }
}

impl Scene {
    /// The scene's own settings, apart from the seed and the layers, in
    /// share-code order. Precisions: the aspect 1/2520 (16/9, 4/3, 3/2,
    /// 21/9, 1.85 and every ratio of denominator up to 10 are exact), the
    /// other floats 1/1000.
    pub const SETTINGS: &'static [Setting<Scene>] = &[
        float!(
            "aspect",
            aspect,
            MIN_ASPECT,
            MAX_ASPECT,
            2520,
            "Aspect",
            "Width / height of the picture",
            Roll::Keep
        ),
        other!(
            Time,
            "time",
            time,
            "Time of day",
            "Sky colours, sun height and light",
            Roll::Pick(&TimeOfDay::ALL)
        ),
        float!(
            "sun_x",
            sun_x,
            -0.5,
            1.5,
            1000,
            "Sun position",
            "Where the sun (or moon) stands, left to right; light comes from its side",
            Roll::Range(0.12, 0.88)
        ),
        float!(
            "horizon",
            horizon,
            0.1,
            0.9,
            1000,
            "Horizon",
            "Height of the horizon, from the top",
            Roll::Range(0.46, 0.64)
        ),
        float!(
            "automaton.density",
            automaton.density,
            0.0,
            1.0,
            1000,
            "Density",
            "Share of live cells in the starting soup",
            Roll::Range(0.35, 0.85)
        ),
        uint!(log "automaton.generations", automaton.generations, 0, MAX_GENERATIONS,
            "Generations", "Generations run before the survivors become stones",
            Roll::Pick(&[0, 2, 4, 6, 8, 8, 10, 12, 16, 24])),
        other!(
            Rule,
            "automaton.rule",
            automaton.rule,
            "Rule",
            "Birth and survival counts, as B3/S23 (or Golly's 23/3)",
            Roll::Pick(RULES)
        ),
        other!(
            Topology,
            "automaton.topology",
            automaton.topology,
            "Edges",
            "Whether the grid wraps around at its edges"
        ),
        uint!(log "automaton.columns", automaton.columns, 1, MAX_COLUMNS, "Columns",
            "Grid columns across the picture; rows follow from the aspect",
            Roll::Pick(&[160, 200, 240, 300, 360, 400, 480, 560])),
        float!(wraps
            "wind",
            wind,
            0.0,
            360.0,
            10,
            "Wind",
            "Where the wind blows to, in degrees: 0 right, 90 away from you, 180 left, 270 toward you",
            Roll::Range(0.0, 360.0),
            since 4
        ),
        setting::setting!(
            "one_ground",
            "One ground",
            "Things stand on one terrain and the nearer hides the farther, whatever the layers' order",
            7,
            Bool,
            one_ground {}
        ),
        float!(log
            "eye",
            eye,
            0.3,
            2000.0,
            10,
            "Eye height",
            "How high the eye is over the ground, metres: 0.3 a stone's, 1.6 standing, 30 a crest, 1750 an overlook",
            Roll::Keep,
            since 7
        ),
        float!(log
            "lens",
            lens,
            14.0,
            400.0,
            1,
            "Lens",
            "Focal length, mm: 14 wide (the near large, the ranges far) to 400 long (ranges stacked in haze)",
            Roll::Keep,
            since 7
        ),
        uint!(
            "look",
            look,
            LOOK_FIRST,
            LOOK_NEWEST,
            "Look",
            "Which version of playa's light draws the scene: 1 as scenes made before December 2026; 2 readable nights, sand lit as sand",
            Roll::Keep,
            since 8
        ),
    ];

    /// Sets the automaton's grid to `columns`, the stones of every rocks
    /// layer resized with the cells (a cell is `old / new` as wide), so
    /// that the floor keeps the share its stones covered: more columns give
    /// more and smaller clumps, never a carpet; fewer, larger ones. Sizes
    /// stay within their settings' limits.
    pub fn set_columns_with_stones(&mut self, columns: u32) {
        let old = self.automaton.columns;
        self.automaton.columns = columns;
        for layer in &mut self.layers {
            if let crate::layers::Layer::Rocks(r) = layer {
                r.follow_columns(old, columns);
            }
        }
    }

    /// Rounds every float to its documented precision ([`Scene::SETTINGS`]
    /// and each layer's table). Values outside their limits stay outside,
    /// for [`Scene::validate`].
    pub fn quantize(&mut self) {
        setting::quantize(Scene::SETTINGS, self);
        for layer in &mut self.layers {
            layer.quantize();
        }
    }

    /// A quantized copy of the scene ([`Scene::quantize`]).
    pub fn quantized(&self) -> Scene {
        let mut scene = self.clone();
        scene.quantize();
        scene
    }

    /// The default layer list: sky, ranges, floor, rocks, tent, and the
    /// spiral (hidden).
    pub fn default_layers() -> Vec<Layer> {
        // The kinds of the first formats: a default scene is the same
        // picture, and the same code, as it always was.
        let mut layers = Layer::every_kind();
        layers.truncate(crate::layers::kinds_in_format(2));
        layers
    }

    /// Reads a scene from RON text (after a byte-order mark, if it starts
    /// with one). `source_name` (a file name, "share code", ...) starts
    /// every error message; syntax errors, unknown fields and out-of-range
    /// values name their line and column.
    pub fn from_ron(text: &str, source_name: &str) -> Result<Scene> {
        let fail = |reason: String| Error::Scene {
            source_name: source_name.to_string(),
            reason,
        };
        if text.len() > MAX_RON_BYTES {
            return Err(fail(format!(
                "scene text is {} bytes, more than the limit of {MAX_RON_BYTES}",
                text.len()
            )));
        }
        // A byte-order mark, as some editors start a UTF-8 file with, is
        // no part of the scene.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let scene: Scene = crate::error::from_ron(text, 32).map_err(fail)?;
        scene.validate().map_err(|e| fail(e.to_string()))?;
        Ok(scene)
    }

    /// Reads a scene from a RON file, refusing files above [`MAX_RON_BYTES`]
    /// before reading them.
    pub fn from_ron_file(path: &std::path::Path) -> Result<Scene> {
        use std::io::Read;
        let file = crate::base::file::open_regular(path)?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        if len > MAX_RON_BYTES as u64 {
            return Err(Error::Scene {
                source_name: path.display().to_string(),
                reason: format!("file is {len} bytes, more than the limit of {MAX_RON_BYTES}"),
            });
        }
        // The file may grow while it is read: still never more than the limit.
        let mut text = String::new();
        file.take(MAX_RON_BYTES as u64 + 1)
            .read_to_string(&mut text)
            .map_err(|e| Error::io(path, e))?;
        Scene::from_ron(&text, &path.display().to_string())
    }

    /// The scene as pretty RON, every field written out.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .depth_limit(3)
            .indentor("    ");
        // Serializing plain data with finite floats cannot fail.
        ron::ser::to_string_pretty(self, config).expect("a scene always serializes")
    }

    /// The scene as [`Scene::to_ron`] writes it, for a person to read:
    /// a comment line names each layer of a kind that occurs more than
    /// once (`// Tent 2, --set tent#2.…`), as the app's layer list names
    /// it. Reads back as the same scene; hashes and pins use
    /// [`Scene::to_ron`], which stays bare.
    pub fn to_commented_ron(&self) -> String {
        let ron = self.to_ron();
        let names = layer_names(&self.layers);
        let mut out = String::with_capacity(ron.len() + 40 * names.len());
        let mut layers = names.iter();
        let mut in_layers = false;
        for line in ron.lines() {
            if line == "    layers: [" {
                in_layers = true;
            } else if in_layers && line == "    ]," {
                in_layers = false;
            } else if in_layers
                && line.starts_with("        ")
                && line[8..].starts_with(|c: char| c.is_ascii_uppercase())
                && let Some(name) = layers.next()
                && let Some(nth) = name.nth
            {
                out.push_str(&format!("        // {name}, --set {}#{nth}.…\n", name.key));
            }
            out.push_str(line);
            out.push('\n');
        }
        out.pop();
        out
    }

    /// Checks every number against its documented range (the settings
    /// tables of the scene and of each layer) and the grid against
    /// [`MAX_GRID_CELLS`].
    pub fn validate(&self) -> Result<()> {
        setting::validate(Scene::SETTINGS, self, "")?;
        let (cols, rows) = self.grid_size();
        let cells = cols as u64 * rows as u64;
        if cells > MAX_GRID_CELLS {
            return Err(Error::out_of_range(
                "automaton grid",
                format!("{cols}x{rows} ({cells} cells)"),
                format!("at most {MAX_GRID_CELLS} cells (columns × columns / aspect)"),
            ));
        }
        if self.layers.len() > MAX_LAYERS {
            return Err(Error::out_of_range(
                "number of layers",
                self.layers.len(),
                format!("at most {MAX_LAYERS}"),
            ));
        }
        for layer in &self.layers {
            layer.validate()?;
        }
        self.check_cost()
    }

    /// The rock automaton's grid after its generations: a seeded soup of
    /// [`Scene::grid_size`] run by its rule. Every live cell is a stone.
    pub fn rock_grid(&self) -> Result<crate::life::BitGrid> {
        let (cols, rows) = self.grid_size();
        let a = &self.automaton;
        let soup = crate::life::soup(cols, rows, f64::from(a.density), self.seed)?;
        Ok(crate::life::Life::new(a.rule, a.topology).run(&soup, a.generations))
    }

    /// How much larger the eye draws what stands on the ground than a
    /// person standing on flat ground sees it: 1 for every scene before the
    /// eye; in one ground with dunes the eye stands over their tallest sand
    /// ([`crate::layers::world`]).
    pub(crate) fn eye_scale(&self) -> f32 {
        crate::layers::world::scale_of(self.one_ground, self.eye, &self.layers)
    }

    /// Columns and rows of the rock automaton's grid (rows follow from the
    /// aspect ratio).
    pub fn grid_size(&self) -> (usize, usize) {
        let cols = self.automaton.columns.max(1) as usize;
        let rows = (cols as f64 / f64::from(self.aspect.max(MIN_ASPECT))).round();
        (cols, (rows as usize).max(1))
    }

    /// The file name stem for this scene rendered with `seed`:
    /// `{name}-{seed}`.
    pub fn file_stem(name: &str, seed: u64) -> String {
        format!("{name}-{seed}")
    }
}

#[cfg(test)]
mod tests;
