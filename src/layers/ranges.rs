//! Distant mountain ranges: seeded fBm ridgelines, farther ones paler, bluer
//! and softer (aerial perspective), lit on the slopes facing the sun.

use serde::{Deserialize, Serialize};

use super::{Band, Draw, Frame};
use crate::color::{Linear, Rgb, mix, mul, scale};
use crate::error::Result;
use crate::noise::{fbm1, sub_seed};
use crate::scene::{Limit, OPACITY, checked, de_opacity};

/// Most mountain ranges in the layer.
pub const MAX_RANGES: u32 = 4;
/// Range of [`Ranges::count`].
pub const COUNT: Limit = Limit::new("ranges.count", 1.0, MAX_RANGES as f64);
/// Range of [`Ranges::height`].
pub const HEIGHT: Limit = Limit::new("ranges.height", 0.0, 0.5);
/// Range of [`Ranges::roughness`].
pub const ROUGHNESS: Limit = Limit::new("ranges.roughness", 0.0, 1.0);
/// Range of [`Ranges::haze`].
pub const HAZE: Limit = Limit::new("ranges.haze", 0.0, 1.0);
/// Range of [`Ranges::width`].
pub const WIDTH: Limit = Limit::new("ranges.width", 0.1, 10.0);

checked!(de_count: u32 = COUNT);
checked!(de_height: f32 = HEIGHT);
checked!(de_roughness: f32 = ROUGHNESS);
checked!(de_haze: f32 = HAZE);
checked!(de_width: f32 = WIDTH);

/// Settings of the mountain ranges layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Ranges {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    #[serde(deserialize_with = "de_opacity")]
    pub opacity: f32,
    /// Number of ranges, 1 to [`MAX_RANGES`]. Default: 3.
    #[serde(deserialize_with = "de_count")]
    pub count: u32,
    /// Height of the tallest (farthest) range above the horizon, fraction of
    /// the picture height. Range 0 to 0.5. Default: 0.2.
    #[serde(deserialize_with = "de_height")]
    pub height: f32,
    /// Jaggedness of the ridgelines (fBm gain). Range 0 to 1. Default: 0.5.
    #[serde(deserialize_with = "de_roughness")]
    pub roughness: f32,
    /// Horizontal scale of the mountains: larger is broader. Range 0.1 to 10.
    /// Default: 1.
    #[serde(deserialize_with = "de_width")]
    pub width: f32,
    /// Rock colour of the nearest range (before haze and light).
    /// Default: (132, 104, 88).
    pub color: Rgb,
    /// Strength of the aerial perspective: how much the farthest range fades
    /// into the horizon's colour. Range 0 to 1. Default: 0.6.
    #[serde(deserialize_with = "de_haze")]
    pub haze: f32,
}

impl Default for Ranges {
    fn default() -> Self {
        Ranges {
            visible: true,
            opacity: 1.0,
            count: 3,
            height: 0.2,
            roughness: 0.5,
            width: 1.0,
            color: Rgb(132, 104, 88),
            haze: 0.6,
        }
    }
}

impl Ranges {
    /// Checks the numbers against their limits.
    pub fn validate(&self) -> Result<()> {
        OPACITY.check(f64::from(self.opacity), self.opacity)?;
        COUNT.check(f64::from(self.count), self.count)?;
        HEIGHT.check(f64::from(self.height), self.height)?;
        ROUGHNESS.check(f64::from(self.roughness), self.roughness)?;
        WIDTH.check(f64::from(self.width), self.width)?;
        HAZE.check(f64::from(self.haze), self.haze)
    }

    pub(crate) fn prepare(&self, f: &Frame) -> RangesDraw {
        let p = &f.palette;
        let n = self.count.clamp(1, MAX_RANGES) as usize;
        let rock = self.color.linear();
        let side = ((f.scene.sun_x - 0.5) * 2.0).clamp(-1.0, 1.0);
        let aspect = f.w / f.h;
        let mut ranges = Vec::with_capacity(n);
        let mut top = f.horizon;
        for i in 0..n {
            // 1 for the farthest range, 0 for the nearest.
            let far = if n == 1 {
                0.5
            } else {
                (n - 1 - i) as f32 / (n - 1) as f32
            };
            let height = self.height * (0.42 + 0.58 * far) * f.h;
            let freq = f64::from((2.0 + 3.5 * (1.0 - far)) / self.width);
            let octaves = 7;
            let gain = 0.3 + 0.4 * self.roughness;
            let seed = sub_seed(f.scene.seed, 100 + i as u32);
            // Ridge height over the horizon, 0..~1.2, at scene x (in heights,
            // so features keep their shape at any aspect).
            let profile = |sx: f64, octaves: u32| {
                let v = fbm1(sx * freq, seed, octaves, gain);
                let broad = fbm1(sx * freq * 0.3 + 31.7, seed ^ 0x55, 2, 0.5);
                (0.5 + 0.6 * v + 0.5 * broad).clamp(0.0, 1.3)
            };
            let to_px = |m: f32| f.horizon - height * (0.2 + 0.8 * m.powf(1.2));
            let ridge: Vec<f32> = (0..=f.width)
                .map(|x| to_px(profile(f64::from(x as f32 / f.w * aspect), octaves)))
                .collect();
            // Light from the slope of the broad shape (fine octaves would
            // streak the faces).
            let e = 0.02f64;
            let cols: Vec<Column> = (0..f.width as usize)
                .map(|x| {
                    let (a, b) = (ridge[x], ridge[x + 1]);
                    let slope = b - a;
                    let sx = f64::from((x as f32 + 0.5) / f.w * aspect);
                    let broad = (profile(sx + e, 2) - profile(sx - e, 2)) / (2.0 * e as f32);
                    let lit = (-broad * side * 0.35).clamp(-1.0, 1.0);
                    Column {
                        ridge: 0.5 * (a + b),
                        inv: 1.0 / (1.0 + slope * slope).sqrt(),
                        shade: 1.0 + lit * (0.45 - 0.3 * far),
                    }
                })
                .collect();
            let min = cols.iter().map(|c| c.ridge).fold(f32::INFINITY, f32::min);
            top = top.min(min);
            let haze = (self.haze * (0.25 + 0.75 * far)).min(1.0);
            let lit = mul(rock, p.ground);
            let base = mix(scale(lit, 0.55 + 0.25 * far), p.horizon, haze);
            ranges.push(Range {
                cols,
                base,
                haze_color: p.horizon,
                height: height.max(1.0),
                soft: (0.0012 * f.h * (0.6 + 1.4 * far)).max(0.7),
                foot_haze: 0.3 + 0.3 * far,
            });
        }
        RangesDraw {
            opacity: self.opacity,
            ranges,
            top: top.max(0.0) as u32,
            bottom: (f.horizon + 1.0) as u32,
            horizon: f.horizon,
        }
    }
}

struct Column {
    /// Ridge height (pixels from the top) at the column's centre.
    ridge: f32,
    /// 1 / sqrt(1 + slope²): turns vertical distance into distance to the edge.
    inv: f32,
    /// Light on the slope: above 1 facing the sun, below 1 facing away.
    shade: f32,
}

struct Range {
    cols: Vec<Column>,
    /// Colour with its haze, before the slope's light.
    base: Linear,
    haze_color: Linear,
    /// Height in pixels (for the haze at the foot).
    height: f32,
    /// Edge softness in pixels.
    soft: f32,
    /// Extra haze at the foot of the range.
    foot_haze: f32,
}

/// The ranges prepared for one picture.
pub(crate) struct RangesDraw {
    opacity: f32,
    ranges: Vec<Range>,
    top: u32,
    bottom: u32,
    horizon: f32,
}

impl Draw for RangesDraw {
    fn draw(&self, band: &mut Band) {
        let y0 = band.y0.max(self.top);
        let y1 = band.y1().min(self.bottom);
        for y in y0..y1 {
            let py = y as f32 + 0.5;
            let row = band.row(y);
            for r in &self.ranges {
                // Haze thickens toward the foot of the range.
                let up = ((self.horizon - py) / r.height).clamp(0.0, 1.0);
                let k = r.foot_haze * (1.0 - up) * (1.0 - up);
                let a = scale(r.base, 1.0 - k);
                let b = scale(r.haze_color, k);
                let inv_soft = 1.0 / r.soft;
                let fall_k = 1.0 / (0.7 * r.height);
                for (c, col) in row.iter_mut().zip(&r.cols) {
                    let d = (py - col.ridge) * col.inv * inv_soft;
                    if d <= -0.5 {
                        continue;
                    }
                    let cov = (d + 0.5).min(1.0) * self.opacity;
                    // The slope's light fades down the face.
                    let fall = (1.0 - (py - col.ridge) * fall_k).max(0.0);
                    let s = 1.0 + (col.shade - 1.0) * fall;
                    let over = [a[0] * s + b[0], a[1] * s + b[1], a[2] * s + b[2]];
                    c[0] += (over[0] - c[0]) * cov;
                    c[1] += (over[1] - c[1]) * cov;
                    c[2] += (over[2] - c[2]) * cov;
                }
            }
        }
    }
}
