//! The spiral: a line drawing laid over the landscape. A segment is drawn,
//! turned by a fixed angle (160°) and lengthened by a fixed step, over and
//! over; the result is a star-like spiral, an ornament (a constellation over
//! the night sky, say) drawn with anti-aliased lines.

use serde::Serialize;

use super::{Band, Draw, Frame, Kind, Prepare};
use crate::base::color::{Linear, Rgb, add, scale};
use crate::base::math;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

/// Most segments of the spiral.
pub const MAX_SEGMENTS: u32 = 10_000;

/// Settings of the spiral layer. Off by default.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spiral {
    /// Whether the layer is drawn. Default: false.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 0.7.
    pub opacity: f32,
    /// Start of the first segment, fraction of the width. Range -1 to 2.
    /// Default: 0.62.
    pub x: f32,
    /// Start of the first segment, fraction of the height. Range -1 to 2.
    /// Default: 0.22.
    pub y: f32,
    /// Length of the first segment, fraction of the height. Range 0 to 1.
    /// Default: 0.01.
    pub length: f32,
    /// Growth of each segment over the last, fraction of the height. Range 0
    /// to 1. Default: 0.006.
    pub step: f32,
    /// Turn between segments, degrees. Range -360 to 360. Default: 160.
    pub turn: f32,
    /// Number of segments. Range 0 to [`MAX_SEGMENTS`]. Default: 36.
    pub segments: u32,
    /// Line width, fraction of the height. Range 0 to 0.05. Default: 0.0015.
    pub width: f32,
    /// Line colour. Default: (236, 230, 255).
    pub color: Rgb,
}

impl Default for Spiral {
    fn default() -> Self {
        Spiral {
            visible: false,
            opacity: 0.7,
            x: 0.62,
            y: 0.22,
            length: 0.01,
            step: 0.006,
            turn: 160.0,
            segments: 36,
            width: 0.0015,
            color: Rgb(236, 230, 255),
        }
    }
}

impl Kind for Spiral {
    const NAME: &'static str = "spiral";
    const TITLE: &'static str = "Spiral";
    const SETTINGS: &'static [Setting<Spiral>] = &[
        super::visible(),
        super::opacity(),
        float!(
            "x",
            x,
            -1.0,
            2.0,
            1000,
            "Start x",
            "Start of the first segment, left to right",
            Roll::Keep
        ),
        float!(
            "y",
            y,
            -1.0,
            2.0,
            1000,
            "Start y",
            "Start of the first segment, top to bottom",
            Roll::Keep
        ),
        float!(log "length", length, 0.0, 1.0, 10_000, "Length",
            "Length of the first segment", Roll::Keep),
        float!(log "step", step, 0.0, 1.0, 10_000, "Step", "Growth of each segment",
            Roll::Keep),
        // Degrees, to 1/100.
        float!(
            "turn",
            turn,
            -360.0,
            360.0,
            100,
            "Turn",
            "Turn between segments, degrees",
            Roll::Keep
        ),
        uint!(log "segments", segments, 0, MAX_SEGMENTS, "Segments", "Number of segments",
            Roll::Keep),
        float!(log "width", width, 0.0, 0.05, 10_000, "Line width", "Width of the line",
            Roll::Keep),
        other!(
            Rgb,
            "color",
            color,
            "Colour",
            "Colour of the line",
            Roll::Keep
        ),
    ];

    super::common_settings!();
}

impl Prepare for Spiral {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

impl Spiral {
    /// The spiral's vertices in scene units (x in heights from the left, y
    /// in heights from the top).
    pub fn points(&self, aspect: f32) -> Vec<(f32, f32)> {
        let mut p = (self.x * aspect, self.y);
        let mut angle = 0.0f32;
        let mut len = self.length;
        let mut out = Vec::with_capacity(self.segments as usize + 1);
        out.push(p);
        for _ in 0..self.segments {
            p = (p.0 + len * math::cos(angle), p.1 - len * math::sin(angle));
            out.push(p);
            angle += self.turn.to_radians();
            len += self.step;
        }
        out
    }

    fn prepare_draw(&self, f: &Frame) -> SpiralDraw {
        let pts: Vec<(f32, f32)> = self
            .points(f.w / f.h)
            .into_iter()
            .map(|(x, y)| (x * f.h, y * f.h))
            .collect();
        // Thin lines keep their weight at any size: below a pixel they are
        // drawn a pixel wide and fainter.
        let width = self.width * f.h;
        let hw = (0.5 * width).max(0.5);
        let faint = (width / (2.0 * hw)).min(1.0);
        let reach = hw + 1.5;
        let segments = pts
            .windows(2)
            .map(|s| {
                let (a, b) = (s[0], s[1]);
                Segment {
                    a,
                    b,
                    y0: (a.1.min(b.1) - reach).floor().max(0.0) as u32,
                    y1: (a.1.max(b.1) + reach).ceil().max(0.0) as u32,
                }
            })
            .collect();
        let star_r = (0.0025 * f.h).max(0.8);
        SpiralDraw {
            opacity: self.opacity * faint,
            color: self.color.linear(),
            segments,
            vertices: pts,
            hw,
            star_r,
            star_energy: ((0.0025 * f.h) / star_r).powi(2),
        }
    }
}

struct Segment {
    a: (f32, f32),
    b: (f32, f32),
    y0: u32,
    y1: u32,
}

/// The spiral prepared for one picture.
pub(crate) struct SpiralDraw {
    opacity: f32,
    color: Linear,
    segments: Vec<Segment>,
    vertices: Vec<(f32, f32)>,
    hw: f32,
    star_r: f32,
    star_energy: f32,
}

impl Draw for SpiralDraw {
    fn touches(&self, y0: u32, y1: u32) -> bool {
        let reach = self.star_r * 3.0 + 1.0;
        self.segments.iter().any(|s| s.y0 < y1 && y0 < s.y1)
            || self
                .vertices
                .iter()
                .any(|&(_, vy)| vy - reach < y1 as f32 && y0 as f32 <= vy + reach)
    }

    fn draw(&self, band: &mut Band) {
        let (by0, by1) = (band.y0, band.y1());
        let (bx0, bx1) = (band.x0, band.x1());
        let reach = self.hw + 1.5;
        for s in &self.segments {
            if s.y1 <= by0 || s.y0 >= by1 {
                continue;
            }
            let (ax, ay) = s.a;
            let (dx, dy) = (s.b.0 - ax, s.b.1 - ay);
            let len2 = (dx * dx + dy * dy).max(1e-9);
            for y in s.y0.max(by0)..s.y1.min(by1) {
                let py = y as f32 + 0.5;
                // Columns the segment can reach on this row.
                let (t0, t1) = if dy.abs() < 1e-6 {
                    (0.0, 1.0)
                } else {
                    let ta = ((py - reach - ay) / dy).clamp(0.0, 1.0);
                    let tb = ((py + reach - ay) / dy).clamp(0.0, 1.0);
                    (ta.min(tb), ta.max(tb))
                };
                let xa = ax + dx * t0;
                let xb = ax + dx * t1;
                let x0 = ((xa.min(xb) - reach).floor().max(0.0) as u32).max(bx0);
                let x1 = ((xa.max(xb) + reach).ceil().max(0.0) as u32).min(bx1);
                let row = band.row(y);
                for x in x0..x1 {
                    let px = x as f32 + 0.5;
                    let t = (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0);
                    let (ex, ey) = (px - ax - dx * t, py - ay - dy * t);
                    let d = (ex * ex + ey * ey).sqrt();
                    let cov = (self.hw + 0.5 - d).clamp(0.0, 1.0);
                    if cov > 0.0 {
                        let c = &mut row[(x - bx0) as usize];
                        // Lines add light, like a constellation drawn in the sky.
                        *c = add(*c, scale(self.color, cov * self.opacity * 0.35));
                    }
                }
            }
        }
        // A small star at every vertex.
        let r = self.star_r;
        for &(vx, vy) in &self.vertices {
            let y0 = (vy - r * 3.0).floor().max(by0 as f32) as u32;
            let y1 = ((vy + r * 3.0).ceil().max(0.0) as u32).min(by1);
            for y in y0..y1 {
                let dy = y as f32 + 0.5 - vy;
                let x0 = ((vx - r * 3.0).floor().max(0.0) as u32).max(bx0);
                let x1 = ((vx + r * 3.0).ceil().max(0.0) as u32).min(bx1);
                let row = band.row(y);
                for x in x0..x1 {
                    let dx = x as f32 + 0.5 - vx;
                    let g = math::exp(-(dx * dx + dy * dy) / (r * r)) * self.star_energy;
                    let c = &mut row[(x - bx0) as usize];
                    *c = add(*c, scale(self.color, g * self.opacity * 1.5));
                }
            }
        }
    }
}
