//! The layers of a scene, each in its own module: its settings (plain data,
//! serde) and how it draws itself.
//!
//! Drawing has two steps. `prepare` runs once per picture and precomputes
//! what does not depend on the pixel (a colour per row, a ridgeline per
//! column, the list of stones); `draw` then paints one band of rows into a
//! linear-light scratch buffer, on whichever thread the band lands. `draw`
//! reads only the prepared data and the pixel position, so every band comes
//! out the same on any thread.

pub mod clouds;
pub mod cost;
pub mod dunes;
pub mod floor;
pub mod plants;
pub mod racetrack;
pub mod ranges;
pub mod relief;
pub mod rocks;
pub mod sky;
pub mod spiral;
pub mod tent;
pub(crate) mod world;

use serde::{Deserialize, Serialize};

pub use clouds::Clouds;
pub use dunes::Dunes;
pub use floor::Floor;
pub use plants::Plants;
pub use racetrack::Racetrack;
pub use ranges::Ranges;
pub use relief::Relief;
pub use rocks::Rocks;
pub use sky::Sky;
pub use spiral::Spiral;
pub use tent::Tent;

use crate::base::color::Linear;
use crate::base::math;
use crate::base::palette::{Palette, TimeOfDay};
use crate::error::Result;
use crate::life::BitGrid;
use crate::life::clumps::Clump;
use crate::setting::{self, Roll, Setting};

/// A kind of layer: a settings struct described by its table of
/// [`Setting`]s (how it draws itself is its `Prepare`, inside the crate).
/// Everything generic about layers (reading, checking, rounding, share
/// codes, the app's forms, New scene and Vary) goes through this trait and the table.
pub trait Kind: Clone + Default + PartialEq + Serialize + Send + Sync + 'static {
    /// Short lower-case name (`"rocks"`): messages, locks, RON variant in
    /// lower case.
    const NAME: &'static str;
    /// Title in the app (`"Stones"`).
    const TITLE: &'static str;
    /// Every setting, in share-code order, starting with [`visible`] and
    /// [`opacity`].
    const SETTINGS: &'static [Setting<Self>];

    /// `visible` and `opacity`, which every layer has.
    fn common(&self) -> (bool, f32);
    /// Mutable `visible` and `opacity`.
    fn common_mut(&mut self) -> (&mut bool, &mut f32);
}

/// Writes [`Kind::common`] and [`Kind::common_mut`] inside a layer's `impl
/// Kind`: every layer's settings struct has the fields `visible` and
/// `opacity`, read and written alike.
macro_rules! common_settings {
    () => {
        fn common(&self) -> (bool, f32) {
            (self.visible, self.opacity)
        }

        fn common_mut(&mut self) -> (&mut bool, &mut f32) {
            (&mut self.visible, &mut self.opacity)
        }
    };
}
use common_settings;

/// How a layer kind prepares to draw one picture (every kind has it).
pub(crate) trait Prepare {
    /// Precomputes what drawing needs for one picture.
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>>;

    /// The layer `old` prepared again for `frame`, which differs from the
    /// frame `old` was prepared for only in the tents' clearings (same
    /// settings, same size, same light, grid and sand). Gives the layer
    /// and the pixel rows (`y0..y1` ranges) where it may now draw
    /// differently. By default it is prepared afresh, and may differ
    /// anywhere.
    fn prepare_reclear(&self, frame: &Frame, old: Box<dyn Draw>) -> Result<Reprepared> {
        drop(old);
        prepared_afresh(self, frame)
    }
}

/// `layer` prepared afresh for `frame`, as [`Prepare::prepare_reclear`]
/// does by default: it may draw differently anywhere.
pub(crate) fn prepared_afresh<P: Prepare + ?Sized>(layer: &P, frame: &Frame) -> Result<Reprepared> {
    Ok((layer.prepare(frame)?, vec![(0, frame.height as i32)]))
}

/// A layer prepared again, and the pixel rows (`y0..y1` ranges) where it
/// may draw differently than before ([`Prepare::prepare_reclear`]).
pub(crate) type Reprepared = (Box<dyn Draw>, Vec<(i32, i32)>);

/// A setting every layer has, the `$i`th of [`Kind::common`]:
/// `common_setting!(i, name, label, hint, Variant { other fields })`.
macro_rules! common_setting {
    ($i:tt, $name:literal, $label:literal, $hint:literal,
     $variant:ident { $($field:ident: $value:expr),* $(,)? }) => {
        setting::setting!($name, $label, $hint, 1, $variant {
            get: |l| l.common().$i,
            put: |l, v| *l.common_mut().$i = v,
            $($field: $value),*
        })
    };
}

/// The `visible` setting every layer starts its table with.
pub const fn visible<K: Kind>() -> Setting<K> {
    common_setting!(0, "visible", "Visible", "Show the layer", Bool {})
}

/// The `opacity` setting every layer has second: 0 to 1, precision 0.001.
pub const fn opacity<K: Kind>() -> Setting<K> {
    common_setting!(
        1,
        "opacity",
        "Opacity",
        "How much of the layer shows",
        Float {
            min: 0.0,
            max: 1.0,
            per_unit: 1000,
            log: false,
            wraps: false,
            roll: Roll::Keep,
        }
    )
}

/// Writes the [`Layer`] enum and its dispatch from one list of kinds, in
/// share-code order. `$d` is a literal `$`, for the inner macros.
macro_rules! kinds {
    ($d:tt; $($(#[$doc:meta])* $kind:ident),* $(,)?) => {
        /// One layer of a scene with its settings. Every layer has `visible`
        /// and `opacity` (0..1, default 1); the rest is its own.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum Layer {
            $($(#[$doc])* $kind($kind),)*
        }

        /// Number of layer kinds.
        pub const KINDS: usize = [$(stringify!($kind)),*].len();

        /// `match`es a layer on its kind, binding its settings to `$l` in
        /// `$body`, which is compiled once per kind (so it may call generic
        /// code over [`Kind`]).
        macro_rules! match_kind {
            ($d layer:expr, $d l:ident => $d body:expr) => {
                match $d layer {
                    $($crate::layers::Layer::$kind($d l) => $d body,)*
                }
            };
        }
        pub(crate) use match_kind;

        /// Like [`match_kind!`] on two layers, when they are of one kind:
        /// `$body` with both bound; `$other` when the kinds differ.
        macro_rules! match_kinds {
            ($d a:expr, $d b:expr, ($d x:ident, $d y:ident) => $d body:expr, _ => $d other:expr) => {
                match ($d a, $d b) {
                    $(($crate::layers::Layer::$kind($d x), $crate::layers::Layer::$kind($d y)) => $d body,)*
                    _ => $d other,
                }
            };
        }
        pub(crate) use match_kinds;

        impl Layer {
            /// A layer of every kind with its default settings, in kind order.
            pub fn every_kind() -> Vec<Layer> {
                vec![$(Layer::$kind($kind::default()),)*]
            }

            /// The index of the layer's kind, in the order of the variants.
            pub fn kind_index(&self) -> usize {
                let mut i = 0;
                $(
                    if matches!(self, Layer::$kind(_)) {
                        return i;
                    }
                    i += 1;
                )*
                unreachable!("{i} kinds")
            }
        }

        $(
            impl<'de> Deserialize<'de> for $kind {
                /// Reads the settings through their table
                /// ([`setting::read`]).
                fn deserialize<D: serde::Deserializer<'de>>(
                    d: D,
                ) -> std::result::Result<Self, D::Error> {
                    static NAMES: std::sync::OnceLock<Vec<&'static str>> =
                        std::sync::OnceLock::new();
                    let names = NAMES.get_or_init(|| {
                        <$kind as Kind>::SETTINGS.iter().map(|s| s.name).collect()
                    });
                    setting::read(d, stringify!($kind), <$kind as Kind>::NAME, <$kind as Kind>::SETTINGS, names)
                }
            }
        )*
    };
}

kinds!($;
    /// The sky gradient, sun or moon, glow and stars.
    Sky,
    /// Distant mountain ranges.
    Ranges,
    /// The desert floor.
    Floor,
    /// The automaton's survivors as stones on the ground.
    Rocks,
    /// The red dome tent.
    Tent,
    /// The 160° line spiral ornament.
    Spiral,
    /// A deck of clouds in the sky (since share-code format 3).
    Clouds,
    /// The Racetrack: cracked mud with sailing stones and their trails
    /// (since share-code format 4).
    Racetrack,
    /// Creosote bushes and Joshua trees on the ground (since share-code
    /// format 4).
    Plants,
    /// The ground's relief: alluvial fans, a dry wash, a near rise (since
    /// share-code format 5).
    Relief,
    /// A sand sea: transverse ridges, barchans or star dunes (since
    /// share-code format 6).
    Dunes,
);

/// The kinds of layer share codes of `format` know: the first six until
/// format 2, clouds too in format 3, the Racetrack and plants too in
/// format 4, the relief too in format 5, the dunes too in format 6. A
/// format's count never changes (a layer's reference is written in bits
/// enough for it): a later kind needs a later format.
pub fn kinds_in_format(format: u32) -> usize {
    match format {
        ..=2 => 6,
        3 => 7,
        4 => 9,
        5 => 10,
        _ => 11,
    }
}

impl Layer {
    /// Short lower-case name of the layer kind (`"sky"`, `"rocks"`, ...).
    pub fn name(&self) -> &'static str {
        fn name<K: Kind>(_: &K) -> &'static str {
            K::NAME
        }
        match_kind!(self, l => name(l))
    }

    /// The layer kind's title in the app (`"Stones"`).
    pub fn title(&self) -> &'static str {
        fn title<K: Kind>(_: &K) -> &'static str {
            K::TITLE
        }
        match_kind!(self, l => title(l))
    }

    /// Whether the layer is drawn.
    pub fn visible(&self) -> bool {
        match_kind!(self, l => l.common().0)
    }

    /// The layer's opacity, 0..1.
    pub fn opacity(&self) -> f32 {
        match_kind!(self, l => l.common().1)
    }

    /// Mutable `visible` and `opacity`.
    pub fn common_mut(&mut self) -> (&mut bool, &mut f32) {
        match_kind!(self, l => l.common_mut())
    }

    /// Checks the layer's numbers against their documented limits.
    pub fn validate(&self) -> Result<()> {
        fn check<K: Kind>(l: &K) -> Result<()> {
            setting::validate(K::SETTINGS, l, K::NAME)
        }
        match_kind!(self, l => check(l))
    }

    /// Rounds every float of the layer to its precision.
    pub fn quantize(&mut self) {
        fn round<K: Kind>(l: &mut K) {
            setting::quantize(K::SETTINGS, l)
        }
        match_kind!(self, l => round(l))
    }

    /// Precomputes what drawing needs for one picture.
    pub(crate) fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        match_kind!(self, l => Prepare::prepare(l, frame))
    }

    /// See [`Prepare::prepare_reclear`].
    pub(crate) fn prepare_reclear(&self, frame: &Frame, old: Box<dyn Draw>) -> Result<Reprepared> {
        match_kind!(self, l => Prepare::prepare_reclear(l, frame, old))
    }
}

/// What a kind needs to say how much of the picture it covers, without
/// drawing it: the picture's shape and light, and the automaton's field.
pub struct Ground<'a> {
    /// Width / height of the picture.
    pub aspect: f32,
    /// The horizon, fraction of the height from the top.
    pub horizon: f32,
    /// The time of day (the lower the sun, the longer the shadows).
    pub time: TimeOfDay,
    /// The automaton's live cells and clumps, as stones.
    pub stones: &'a rocks::cover::StoneField,
    /// How much larger the eye draws what stands on the ground than a
    /// person standing on flat ground would (1 for every scene before the
    /// eye).
    pub scale: f32,
}

/// How much of the picture a layer covers, as New scene and Vary check it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cover {
    /// The share of the floor (below the horizon) it visibly covers, 0 to 1.
    pub floor: f32,
    /// The share of the sky it covers, 0 to 1.
    pub sky: f32,
    /// How far above the horizon it reaches at the highest, fraction of the
    /// height: 0 or less stays below it.
    pub reach: f32,
}

impl Cover {
    /// Nothing covered, nothing reaching up.
    pub const NONE: Cover = Cover {
        floor: 0.0,
        sky: 0.0,
        reach: f32::MIN,
    };
}

impl Layer {
    /// How much of the floor and the sky of `ground` the layer covers, and
    /// how far it reaches into the sky: each kind answers for itself (the
    /// stones by their model of where the rocks layer places them, the tent
    /// by its dome, the clouds by their cover, the Racetrack by its stones
    /// and their trails, the plants by their model of where they stand,
    /// the dunes by their sand; the sky, the ranges, the floor itself and
    /// the spiral cover neither).
    pub fn cover(&self, ground: &Ground) -> Cover {
        match self {
            Layer::Rocks(r) => r.cover(ground),
            Layer::Tent(t) => t.cover(ground),
            Layer::Plants(p) => p.cover(ground),
            Layer::Clouds(c) => Cover {
                sky: c.cover,
                ..Cover::NONE
            },
            Layer::Racetrack(r) => r.cover(ground),
            Layer::Relief(r) => r.cover(ground),
            Layer::Dunes(d) => d.cover(ground),
            Layer::Sky(_) | Layer::Ranges(_) | Layer::Floor(_) | Layer::Spiral(_) => Cover::NONE,
        }
    }
}

/// What every layer knows about the picture being drawn: the picture's
/// size, the light, and the facts several layers share, worked out once per
/// picture (the automaton's grid, the ground cleared for tents, the colour
/// of the sand).
pub(crate) struct Frame<'a> {
    /// The scene's seed.
    pub seed: u64,
    /// The sun's position, fraction of the width.
    pub sun_x: f32,
    /// The horizon, fraction of the height from the top.
    pub horizon_frac: f32,
    /// Picture width in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// The columns that will be drawn: the whole width, or a window's. A
    /// layer may prepare only these (what it prepares per column).
    pub cols: std::ops::Range<u32>,
    /// The rows that will be drawn: the whole height, or a window's.
    pub rows: std::ops::Range<u32>,
    /// Picture width in pixels, as a float.
    pub w: f32,
    /// Picture height in pixels (= pixels per scene unit of length).
    pub h: f32,
    /// Horizon row, in pixels from the top (fractional).
    pub horizon: f32,
    /// Sky colours and light.
    pub palette: Palette,
    /// The rock automaton's grid after its generations.
    pub grid: &'a BitGrid,
    /// A label per cell of the grid, row after row: 0 for a dead cell,
    /// `i + 1` for a cell of `clumps[i]`.
    pub labels: &'a [u32],
    /// The grid's clumps (8-connected, see [`crate::life::clumps`]).
    pub clumps: &'a [Clump],
    /// Ground cleared for each tent that is drawn (see [`Tent::is_drawn`]),
    /// where no stone lies.
    pub clearings: Vec<tent::Clearing>,
    /// The albedo of the sand: the first floor layer's colour.
    pub ground: Linear,
    /// The shade the first visible clouds layer casts on the ground, if
    /// any: the floor, the stones and the tent are darker under a cloud.
    pub shade: Option<clouds::CloudShade>,
    /// Where the wind blows to, as a unit vector on the ground: `[across,
    /// away]`, across to the right and away from the viewer (from
    /// [`crate::Scene::wind`]; `[1, 0]` exactly at 0°).
    pub wind: [f32; 2],
    /// The eye, and the ground things stand on ([`world`]).
    pub world: world::World,
    /// How thick a dust storm fills the air, 0 (none, always in the first
    /// look) to 1 ([`clouds::storm`]): the palette is already its light;
    /// the ranges fade into it.
    pub dust: f32,
}

impl<'a> Frame<'a> {
    /// The frame of a scene with `light` and `layers`, whose automaton left
    /// `grid` with its clump labels and clumps, drawn at `width × height`.
    pub fn new(
        light: &Light,
        layers: &[Layer],
        (grid, labels, clumps): (&'a BitGrid, &'a [u32], &'a [Clump]),
        width: u32,
        height: u32,
    ) -> Frame<'a> {
        let (w, h) = (width as f32, height as f32);
        let mut palette = Palette::in_look(light.look, light.time, light.sun_x, light.horizon);
        let dust = clouds::storm::strength(layers, light.look);
        clouds::storm::darken(&mut palette, dust);
        let shade = layers.iter().find_map(|l| match l {
            Layer::Clouds(c) if c.visible => c.shade(
                (light.seed, wind_vector(light.wind)),
                &palette,
                (w, h, light.horizon * h),
            ),
            _ => None,
        });
        let world = world::World::new(
            (light.one_ground, light.eye, light.lens),
            layers,
            (h, light.horizon * h, 0.5 * w),
            (
                wind_vector(light.wind),
                palette.light,
                light.seed,
                light.look,
            ),
        );
        let scale = world.scale;
        Frame {
            seed: light.seed,
            sun_x: light.sun_x,
            horizon_frac: light.horizon,
            width,
            height,
            cols: 0..width,
            rows: 0..height,
            w,
            h,
            horizon: light.horizon * h,
            palette,
            grid,
            labels,
            clumps,
            clearings: layers
                .iter()
                .enumerate()
                .filter_map(|(i, l)| match l {
                    Layer::Tent(t) if t.is_drawn(&layers[i + 1..], light.horizon, scale) => {
                        Some(t.clearing(w, h, scale))
                    }
                    _ => None,
                })
                .collect(),
            ground: floor::ground_albedo(layers),
            world,
            shade,
            wind: wind_vector(light.wind),
            dust,
        }
    }
}

/// The unit vector on the ground (`[across, away]`) the wind blows along at
/// `degrees` ([`crate::Scene::wind`]): exactly `[1, 0]` at 0.
pub(crate) fn wind_vector(degrees: f32) -> [f32; 2] {
    if degrees == 0.0 {
        return [1.0, 0.0];
    }
    let r = degrees.to_radians();
    [math::cos(r), math::sin(r)]
}

/// The scene-wide settings the layers draw under.
pub(crate) struct Light {
    /// The scene's seed.
    pub seed: u64,
    /// The time of day.
    pub time: TimeOfDay,
    /// The sun's position, fraction of the width.
    pub sun_x: f32,
    /// The horizon, fraction of the height from the top.
    pub horizon: f32,
    /// Where the wind blows to, degrees ([`crate::Scene::wind`]).
    pub wind: f32,
    /// One ground, the eye's height (metres) and the lens (mm): see
    /// [`crate::Scene::one_ground`].
    pub one_ground: bool,
    pub eye: f32,
    pub lens: f32,
    /// The look, the version of the light ([`crate::Scene::look`]).
    pub look: u32,
}

/// Rows per band of composition: the layers draw a band at a time.
pub const BAND_ROWS: u32 = 8;

/// A band being composed, in linear light: up to [`BAND_ROWS`] rows of the
/// picture, and of those rows the columns `x0..x0 + width` (the whole row,
/// or a window's columns). Layers work in the picture's coordinates and
/// draw only the band's columns, so a pixel comes out the same whatever
/// window it is drawn in.
pub(crate) struct Band<'a> {
    /// First row of the band.
    pub y0: u32,
    /// Number of rows.
    pub rows: u32,
    /// First column of the band.
    pub x0: u32,
    /// Number of columns.
    pub width: u32,
    /// Index of the picture's band of [`BAND_ROWS`] rows this band lies in
    /// (`y0 / BAND_ROWS`).
    pub index: usize,
    /// `rows × width` pixels, row after row.
    pub px: &'a mut [Linear],
    /// Their depths, in one ground ([`world`]); `None` elsewhere.
    pub depth: Option<world::Depth<'a>>,
}

impl<'a> Band<'a> {
    /// The whole rows `y0..y0 + rows` of a picture `width` pixels wide, in
    /// band `index`.
    pub fn rows(y0: u32, rows: u32, width: u32, index: usize, px: &'a mut [Linear]) -> Band<'a> {
        Band {
            y0,
            rows,
            x0: 0,
            width,
            index,
            px,
            depth: None,
        }
    }

    /// The index of pixel `(x, y)` (inside the band) in `px` and the
    /// depths.
    #[inline]
    pub fn at(&self, x: u32, y: u32) -> usize {
        ((y - self.y0) * self.width + (x - self.x0)) as usize
    }

    /// The band's pixels of row `y` (absolute), which must be in the band:
    /// columns `x0..x1()`.
    #[inline]
    pub fn row(&mut self, y: u32) -> &mut [Linear] {
        let w = self.width as usize;
        let start = (y - self.y0) as usize * w;
        &mut self.px[start..start + w]
    }

    /// The pixels of row `y` at columns `a..b` (absolute, inside the band).
    #[inline]
    pub fn span(&mut self, y: u32, a: u32, b: u32) -> &mut [Linear] {
        let x0 = self.x0;
        &mut self.row(y)[(a - x0) as usize..(b - x0) as usize]
    }

    /// One past the last row of the band.
    pub fn y1(&self) -> u32 {
        self.y0 + self.rows
    }

    /// One past the last column of the band.
    pub fn x1(&self) -> u32 {
        self.x0 + self.width
    }

    /// Columns `a..b` cut to the band's (maybe empty: then `a >= b`).
    #[inline]
    pub fn clip(&self, a: u32, b: u32) -> (u32, u32) {
        (a.max(self.x0), b.min(self.x1()))
    }
}

/// A layer prepared for one picture.
pub(crate) trait Draw: Send + Sync + IntoAny {
    /// Paints the layer over `band`.
    fn draw(&self, band: &mut Band);

    /// Whether the layer paints every pixel of rows `y0..y1` opaquely, so
    /// that what is under it need not be drawn there.
    fn covers(&self, _y0: u32, _y1: u32) -> bool {
        false
    }

    /// Whether drawing the band of rows `y0..y1` may change a pixel (false
    /// only when it surely changes none: a re-render then keeps the band,
    /// see [`crate::compose::canvas`]).
    fn touches(&self, _y0: u32, _y1: u32) -> bool {
        true
    }
}

/// A prepared layer taken back as its own type: the layer that prepared
/// it can reuse it ([`Prepare::prepare_reclear`]).
pub(crate) trait IntoAny {
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any>;
}

impl<T: std::any::Any> IntoAny for T {
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

/// Blends `c` toward `over` by `a` (0..1).
#[inline]
pub(crate) fn blend(c: &mut Linear, over: Linear, a: f32) {
    c[0] += (over[0] - c[0]) * a;
    c[1] += (over[1] - c[1]) * a;
    c[2] += (over[2] - c[2]) * a;
}

/// The bits `draw` paints on a `w × h` picture, band by band, over a
/// background that varies: for tests that compare two ways of drawing.
#[cfg(test)]
pub(crate) fn paint_bands(w: u32, h: u32, draw: impl Fn(&mut Band)) -> Vec<u32> {
    let mut bits = Vec::new();
    for index in 0..h.div_ceil(BAND_ROWS) as usize {
        let y0 = index as u32 * BAND_ROWS;
        let rows = BAND_ROWS.min(h - y0);
        let mut px: Vec<Linear> = (0..rows * w)
            .map(|i| [(i % 7) as f32 * 0.1, 0.3, (i % 5) as f32 * 0.2])
            .collect();
        draw(&mut Band::rows(y0, rows, w, index, &mut px));
        bits.extend(px.iter().flatten().map(|v| v.to_bits()));
    }
    bits
}

#[cfg(test)]
mod tests;
