//! The layers of a scene, each in its own module: its settings (plain data,
//! serde) and how it draws itself.
//!
//! Drawing has two steps. `prepare` runs once per picture and precomputes
//! what does not depend on the pixel (a colour per row, a ridgeline per
//! column, the list of stones); `draw` then paints one band of rows into a
//! linear-light scratch buffer, on whichever thread the band lands. `draw`
//! reads only the prepared data and the pixel position, so every band comes
//! out the same on any thread.

pub mod floor;
pub mod ranges;
pub mod rocks;
pub mod sky;
pub mod spiral;
pub mod tent;

use serde::{Deserialize, Serialize};

pub use floor::Floor;
pub use ranges::Ranges;
pub use rocks::Rocks;
pub use sky::Sky;
pub use spiral::Spiral;
pub use tent::Tent;

use crate::color::Linear;
use crate::error::Result;
use crate::palette::Palette;
use crate::scene::Scene;

/// One layer of a scene with its settings. Every layer has `visible` and
/// `opacity` (0..1, default 1); the rest is its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Layer {
    /// The sky gradient, sun or moon, glow and stars.
    Sky(Sky),
    /// Distant mountain ranges.
    Ranges(Ranges),
    /// The desert floor.
    Floor(Floor),
    /// The automaton's survivors as stones on the ground.
    Rocks(Rocks),
    /// The red dome tent.
    Tent(Tent),
    /// The 160° line spiral ornament.
    Spiral(Spiral),
}

impl Layer {
    /// Short lower-case name of the layer kind (`"sky"`, `"rocks"`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Layer::Sky(_) => "sky",
            Layer::Ranges(_) => "ranges",
            Layer::Floor(_) => "floor",
            Layer::Rocks(_) => "rocks",
            Layer::Tent(_) => "tent",
            Layer::Spiral(_) => "spiral",
        }
    }

    /// Whether the layer is drawn.
    pub fn visible(&self) -> bool {
        match self {
            Layer::Sky(l) => l.visible,
            Layer::Ranges(l) => l.visible,
            Layer::Floor(l) => l.visible,
            Layer::Rocks(l) => l.visible,
            Layer::Tent(l) => l.visible,
            Layer::Spiral(l) => l.visible,
        }
    }

    /// The layer's opacity, 0..1.
    pub fn opacity(&self) -> f32 {
        match self {
            Layer::Sky(l) => l.opacity,
            Layer::Ranges(l) => l.opacity,
            Layer::Floor(l) => l.opacity,
            Layer::Rocks(l) => l.opacity,
            Layer::Tent(l) => l.opacity,
            Layer::Spiral(l) => l.opacity,
        }
    }

    /// Checks the layer's numbers against their documented limits.
    pub fn validate(&self) -> Result<()> {
        crate::scene::OPACITY.check(f64::from(self.opacity()), self.opacity())?;
        match self {
            Layer::Sky(l) => l.validate(),
            Layer::Ranges(l) => l.validate(),
            Layer::Floor(l) => l.validate(),
            Layer::Rocks(l) => l.validate(),
            Layer::Tent(l) => l.validate(),
            Layer::Spiral(l) => l.validate(),
        }
    }

    /// Precomputes what drawing needs for one picture.
    pub(crate) fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(match self {
            Layer::Sky(l) => Box::new(l.prepare(frame)),
            Layer::Ranges(l) => Box::new(l.prepare(frame)),
            Layer::Floor(l) => Box::new(l.prepare(frame)),
            Layer::Rocks(l) => Box::new(l.prepare(frame)?),
            Layer::Tent(l) => Box::new(l.prepare(frame)),
            Layer::Spiral(l) => Box::new(l.prepare(frame)),
        })
    }
}

/// What every layer knows about the picture being drawn.
pub(crate) struct Frame<'a> {
    /// The scene.
    pub scene: &'a Scene,
    /// Picture width in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// Picture width in pixels, as a float.
    pub w: f32,
    /// Picture height in pixels (= pixels per scene unit of length).
    pub h: f32,
    /// Horizon row, in pixels from the top (fractional).
    pub horizon: f32,
    /// Sky colours and light.
    pub palette: Palette,
}

impl<'a> Frame<'a> {
    /// The frame of `scene` drawn at `width × height`.
    pub fn new(scene: &'a Scene, width: u32, height: u32) -> Frame<'a> {
        let h = height as f32;
        Frame {
            scene,
            width,
            height,
            w: width as f32,
            h,
            horizon: scene.horizon * h,
            palette: Palette::new(scene.time, scene.sun_x, scene.horizon),
        }
    }
}

/// A band of rows being composed, in linear light.
pub(crate) struct Band<'a> {
    /// First row of the band.
    pub y0: u32,
    /// Number of rows.
    pub rows: u32,
    /// Width in pixels.
    pub width: u32,
    /// Index of the band (bands are [`crate::compose::BAND_ROWS`] rows).
    pub index: usize,
    /// `rows × width` pixels, row after row.
    pub px: &'a mut [Linear],
}

impl Band<'_> {
    /// The pixels of row `y` (absolute), which must be in the band.
    #[inline]
    pub fn row(&mut self, y: u32) -> &mut [Linear] {
        let w = self.width as usize;
        let start = (y - self.y0) as usize * w;
        &mut self.px[start..start + w]
    }

    /// One past the last row of the band.
    pub fn y1(&self) -> u32 {
        self.y0 + self.rows
    }
}

/// A layer prepared for one picture.
pub(crate) trait Draw: Send + Sync {
    /// Paints the layer over `band`.
    fn draw(&self, band: &mut Band);

    /// Whether the layer paints every pixel of rows `y0..y1` opaquely, so
    /// that what is under it need not be drawn there.
    fn covers(&self, _y0: u32, _y1: u32) -> bool {
        false
    }
}

/// Blends `c` toward `over` by `a` (0..1).
#[inline]
pub(crate) fn blend(c: &mut Linear, over: Linear, a: f32) {
    c[0] += (over[0] - c[0]) * a;
    c[1] += (over[1] - c[1]) * a;
    c[2] += (over[2] - c[2]) * a;
}
