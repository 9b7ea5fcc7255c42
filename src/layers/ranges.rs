//! Distant mountain ranges: seeded fBm ridgelines, farther ones paler, bluer
//! and softer (aerial perspective), lit on the slopes facing the sun.

use serde::Serialize;

use rayon::prelude::*;

use super::{Band, Draw, Frame, Kind, Prepare};
use crate::base::color::{Linear, Rgb, mix, mul, scale};
use crate::base::math;
use crate::base::noise::{fbm1, sub_seed};
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

/// Most mountain ranges in the layer.
pub const MAX_RANGES: u32 = 4;

/// Settings of the mountain ranges layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranges {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Number of ranges, 1 to [`MAX_RANGES`]. Default: 3.
    pub count: u32,
    /// Height of the tallest (farthest) range above the horizon, fraction of
    /// the picture height. Range 0 to 0.5. Default: 0.2.
    pub height: f32,
    /// Jaggedness of the ridgelines (fBm gain). Range 0 to 1. Default: 0.5.
    pub roughness: f32,
    /// Horizontal scale of the mountains: larger is broader. Range 0.1 to 10.
    /// Default: 1.
    pub width: f32,
    /// Rock colour of the nearest range (before haze and light).
    /// Default: (132, 104, 88).
    pub color: Rgb,
    /// Steps cut into the slopes: 0 for peaks, more for stepped mesas and
    /// buttes. Range 0 to 16. Default: 0.
    pub terraces: u32,
    /// Strength of the aerial perspective: how much the farthest range fades
    /// into the horizon's colour. Range 0 to 1. Default: 0.6.
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
            terraces: 0,
            haze: 0.6,
        }
    }
}

impl Kind for Ranges {
    const NAME: &'static str = "ranges";
    const TITLE: &'static str = "Ranges";
    const SETTINGS: &'static [Setting<Ranges>] = &[
        super::visible(),
        super::opacity(),
        uint!(
            "count",
            count,
            1,
            MAX_RANGES,
            "Count",
            "Number of mountain ranges",
            Roll::Range(1, 4)
        ),
        float!(
            "height",
            height,
            0.0,
            0.5,
            1000,
            "Height",
            "Height of the farthest range",
            Roll::Range(0.06, 0.24)
        ),
        float!(
            "roughness",
            roughness,
            0.0,
            1.0,
            1000,
            "Roughness",
            "Jaggedness of the ridgelines",
            Roll::Range(0.3, 0.7)
        ),
        float!(log "width", width, 0.1, 10.0, 100, "Breadth",
            "Horizontal scale of the mountains", Roll::Range(0.6, 2.0)),
        other!(
            Rgb,
            "color",
            color,
            "Rock colour",
            "Colour of the nearest range",
            Roll::Keep
        ),
        float!(
            "haze",
            haze,
            0.0,
            1.0,
            1000,
            "Haze",
            "Aerial perspective: far ranges fade into the sky",
            Roll::Range(0.3, 0.8)
        ),
        uint!(
            "terraces",
            terraces,
            0,
            16,
            "Terraces",
            "Steps cut into the slopes: 0 for peaks, more for mesas and buttes",
            Roll::Pick(&[0, 0, 0, 0, 2, 3, 5])
        ),
    ];

    super::common_settings!();
}

/// How high the ranges' peaks stand over the ground before them, metres
/// (the Panamints rise about 3,000 m over Badwater).
const RANGE_TOP: f32 = 3000.0;

impl Prepare for Ranges {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

impl Ranges {
    fn prepare_draw(&self, f: &Frame) -> RangesDraw {
        let p = &f.palette;
        let n = self.count.clamp(1, MAX_RANGES) as usize;
        let rock = self.color.linear();
        let side = ((f.sun_x - 0.5) * 2.0).clamp(-1.0, 1.0);
        let aspect = f.w / f.h;
        // The lens: a longer one draws the ranges higher and wider, about
        // the picture's middle. The eye: from higher up, the peaks stand
        // less far over the horizon (from over the ranges' tops, hardly
        // at all). Both exactly as before at 24 mm and 1.6 m.
        let zoom = f.world.zoom;
        let across = move |x: f32| {
            if zoom == 1.0 {
                x / f.w * aspect
            } else {
                ((x / f.w - 0.5) / zoom + 0.5) * aspect
            }
        };
        let lift = if f.world.eye == super::world::EYE {
            zoom
        } else {
            let top = RANGE_TOP * super::world::METRE;
            zoom * ((top - f.world.eye) / (top - super::world::EYE)).clamp(0.12, 1.0)
        };
        let mut ranges = Vec::with_capacity(n);
        // Each range's ridge row at a column boundary, for the whole width
        // when a window needs the picture's highest points (below).
        let mut ridges: Vec<Box<dyn Fn(u32) -> f32 + Sync + '_>> = Vec::with_capacity(n);
        for i in 0..n {
            // 1 for the farthest range, 0 for the nearest.
            let far = if n == 1 {
                0.5
            } else {
                (n - 1 - i) as f32 / (n - 1) as f32
            };
            let height = self.height * (0.42 + 0.58 * far) * f.h * lift;
            let freq = f64::from((2.0 + 3.5 * (1.0 - far)) / self.width);
            let octaves = 7;
            let gain = 0.35 + 0.4 * self.roughness;
            let seed = sub_seed(f.seed, 100 + i as u32);
            // Ridge height over the horizon, 0..~1.2, at scene x (in heights,
            // so features keep their shape at any aspect).
            let profile = move |sx: f64, octaves: u32| {
                let v = fbm1(sx * freq, seed, octaves, gain);
                let broad = fbm1(sx * freq * 0.3 + 31.7, seed ^ 0x55, 2, 0.5);
                if self.terraces == 0 {
                    return soft_clamp(0.5 + 0.75 * v + 0.4 * broad);
                }
                // Flat steps with steep risers, cut into the broad shape
                // only; the fine octaves then roughen the steps a little.
                let coarse = fbm1(sx * freq, seed, octaves.min(3), gain);
                let m = soft_clamp(0.5 + 0.75 * coarse + 0.4 * broad);
                let k = self.terraces as f32;
                let q = m * k;
                let stepped =
                    (q.floor() + crate::base::noise::smoothstep(0.55, 0.9, q.fract())) / k;
                (stepped + 0.12 * (v - coarse)).clamp(0.0, 1.3)
            };
            let to_px = move |m: f32| f.horizon - height * (0.2 + 0.8 * math::powf(m, 1.2));
            let ridge_at = move |x: u32| to_px(profile(f64::from(across(x as f32)), octaves));
            // Only the columns drawn: a window of a huge picture prepares
            // its own columns, not the picture's.
            let (c0, c1) = (f.cols.start, f.cols.end);
            let ridge: Vec<f32> = (c0..=c1).map(ridge_at).collect();
            // Light from the slope of the broad shape (fine octaves would
            // streak the faces).
            let e = 0.02f64;
            let mut cols = Columns::default();
            for (x, pair) in (c0 as usize..).zip(ridge.windows(2)) {
                let (a, b) = (pair[0], pair[1]);
                let slope = b - a;
                let sx = f64::from(across(x as f32 + 0.5));
                let broad = (profile(sx + e, 2) - profile(sx - e, 2)) / (2.0 * e as f32);
                let lit = (-broad * side * 0.35).clamp(-1.0, 1.0);
                cols.ridge.push(0.5 * (a + b));
                cols.inv.push(1.0 / (1.0 + slope * slope).sqrt());
                cols.shade.push(1.0 + lit * (0.45 - 0.3 * far));
                cols.gully
                    .push(fbm1(sx * freq * 9.0 + 7.3, seed ^ 0x77, 3, 0.55) * (0.12 - 0.09 * far));
            }
            let min = cols.ridge.iter().copied().fold(f32::INFINITY, f32::min);
            ridges.push(Box::new(ridge_at));
            let haze = (self.haze * (0.2 + 0.6 * far)).min(1.0);
            let lit = mul(rock, p.ground);
            let base = mix(scale(lit, 0.55 + 0.25 * far), p.horizon, haze);
            ranges.push(Range {
                top: min,
                cols,
                base,
                haze_color: p.horizon,
                height: height.max(1.0),
                soft: (0.0012 * f.h * (0.6 + 1.4 * far)).max(0.7),
                foot_haze: 0.3 + 0.3 * far,
                // The farther, the more of it the dust hides.
                veil: f.dust * (0.8 + 0.2 * far),
            });
        }
        if f.cols != (0..f.width) || f.rows != (0..f.height) {
            whole_picture_tops(&mut ranges, &ridges, f);
        }
        let top = ranges.iter().map(|r| r.top).fold(f.horizon, f32::min);
        RangesDraw {
            opacity: self.opacity,
            x0: f.cols.start,
            ranges,
            top: top.max(0.0) as u32,
            bottom: (f.horizon + 1.0) as u32,
            horizon: f.horizon,
            shade: f.shade.clone(),
        }
    }
}

/// Gives `ranges`, prepared for a window's columns, highest points that
/// make the window draw what the whole picture draws there (`ridges[i]` is
/// range `i`'s ridge row at a column boundary).
///
/// A band draws a range only on rows from its highest point less its soft
/// edge, and no range above the highest of them all. A steep column's soft
/// edge reaches above that, so the picture's own highest points decide some
/// pixels, and a window sees only its own. A window's columns show a range
/// only below a row `reach`; any column of the picture whose ridge lies a
/// soft edge and two rows above that stands for the picture's highest point
/// just as well (every row that shows is drawn either way). Such a column
/// is looked for among a few hundred; only when none is found (the window
/// holds the range's highest peak) is every column of the picture looked at.
fn whole_picture_tops(
    ranges: &mut [Range],
    ridges: &[Box<dyn Fn(u32) -> f32 + Sync + '_>],
    f: &Frame,
) {
    let top_at = |ridge: &dyn Fn(u32) -> f32, x: u32| 0.5 * (ridge(x) + ridge(x + 1));
    for (r, ridge) in ranges.iter_mut().zip(ridges) {
        // Below its own highest point (and so below the highest of all),
        // a window draws every row as the picture does.
        if f.rows.start as f32 >= r.top + 1.0 {
            continue;
        }
        let c = &r.cols;
        let reach = c
            .ridge
            .iter()
            .zip(&c.inv)
            .map(|(&ridge, &inv)| ridge - 0.5 * r.soft / inv)
            .fold(f32::INFINITY, f32::min);
        let high = reach - r.soft - 2.0;
        const TRIES: u32 = 512;
        let step = (f.width / TRIES).max(1);
        let found = (0..f.width)
            .step_by(step as usize)
            .map(|x| top_at(ridge, x))
            .find(|&t| t <= high);
        r.top = found.unwrap_or_else(|| {
            (0..f.width)
                .into_par_iter()
                .map(|x| top_at(ridge, x))
                .reduce(|| f32::INFINITY, f32::min)
        });
    }
}

/// Keeps a ridge height within about 0..1.2 without flat cut-offs: values
/// beyond the ends are compressed, not clipped.
fn soft_clamp(m: f32) -> f32 {
    if m > 1.0 {
        1.0 + 0.25 * (1.0 - 1.0 / (1.0 + (m - 1.0) * 2.0)) * 0.8
    } else if m < 0.05 {
        0.05 * (1.0 / (1.0 + (0.05 - m) * 8.0))
    } else {
        m
    }
}

/// Per column of the picture (structure of arrays, for the vector units).
#[derive(Default)]
struct Columns {
    /// Ridge height (pixels from the top) at the column's centre.
    ridge: Vec<f32>,
    /// 1 / sqrt(1 + slope²): turns vertical distance into distance to the edge.
    inv: Vec<f32>,
    /// Light on the slope: above 1 facing the sun, below 1 facing away.
    shade: Vec<f32>,
    /// Erosion: streaks down the face, strongest below the ridge.
    gully: Vec<f32>,
}

struct Range {
    /// Highest point of the ridge, pixels from the top.
    top: f32,
    cols: Columns,
    /// Colour with its haze, before the slope's light.
    base: Linear,
    haze_color: Linear,
    /// Height in pixels (for the haze at the foot).
    height: f32,
    /// Edge softness in pixels.
    soft: f32,
    /// Extra haze at the foot of the range.
    foot_haze: f32,
    /// How much of the range a dust storm hides in its colour, 0 to 1.
    veil: f32,
}

/// The ranges prepared for one picture.
pub(crate) struct RangesDraw {
    opacity: f32,
    /// The first column prepared (each range's `cols` start there).
    x0: u32,
    ranges: Vec<Range>,
    top: u32,
    bottom: u32,
    horizon: f32,
    /// The clouds' shade, if any: a cloud's shadow on the faces.
    shade: Option<super::clouds::CloudShade>,
}

impl Draw for RangesDraw {
    fn draw(&self, band: &mut Band) {
        let y0 = band.y0.max(self.top);
        let y1 = band.y1().min(self.bottom);
        let (bx0, bx1) = (band.x0, band.x1());
        let shade = self
            .shade
            .as_ref()
            .filter(|_| y0 < y1 && bx0 < bx1)
            .map(|s| s.samples_on_ranges((bx0, bx1), (y0, y1)));
        // The light each pixel of a row gets: exactly 1 without clouds, so
        // their pixels are as they were.
        let mut light = vec![1.0f32; (bx1 - bx0) as usize];
        for y in y0..y1 {
            let py = y as f32 + 0.5;
            if let Some(s) = &shade {
                for (x, l) in (bx0..).zip(light.iter_mut()) {
                    *l = s.at(x, y);
                }
            }
            let row = band.row(y);
            for r in &self.ranges {
                if py < r.top - r.soft - 1.0 {
                    continue;
                }
                // Haze thickens toward the foot of the range.
                let up = ((self.horizon - py) / r.height).clamp(0.0, 1.0);
                let k = r.foot_haze * (1.0 - up) * (1.0 - up);
                let (mut a, mut b) = (scale(r.base, 1.0 - k), scale(r.haze_color, k));
                if r.veil > 0.0 {
                    // The face's light and colour fade into the dust.
                    (a, b) = (scale(a, 1.0 - r.veil), mix(b, r.haze_color, r.veil));
                }
                let inv_soft = 1.0 / r.soft;
                let fall_k = 1.0 / (0.7 * r.height);
                let gully_k = 1.0 / (0.3 * r.height);
                let op = self.opacity;
                let c = &r.cols;
                let (a0, a1) = ((bx0 - self.x0) as usize, (bx1 - self.x0) as usize);
                // No branches: above the ridge the coverage is 0 and the
                // blend leaves the pixel exactly as it was.
                for (((((px, &ridge), &inv), &shade), &gully), &light) in row
                    .iter_mut()
                    .zip(&c.ridge[a0..a1])
                    .zip(&c.inv[a0..a1])
                    .zip(&c.shade[a0..a1])
                    .zip(&c.gully[a0..a1])
                    .zip(&light)
                {
                    let below = py - ridge;
                    let cov = (below * inv * inv_soft + 0.5).clamp(0.0, 1.0) * op;
                    // The slope's light fades down the face.
                    let fall = crate::base::math::at_least(1.0 - below * fall_k, 0.0);
                    let streak = (below * gully_k).clamp(0.0, 1.0);
                    let s = (1.0 + (shade - 1.0) * fall + gully * streak) * light;
                    for (i, p) in px.iter_mut().enumerate() {
                        *p += (a[i] * s + b[i] - *p) * cov;
                    }
                }
            }
        }
    }
}
