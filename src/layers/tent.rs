//! The tent: a red Coleman-style dome, lit on the sun's side, with a dark
//! door, panel seams, guy lines and a shadow on the ground. At night a
//! lantern can glow inside.

use serde::{Deserialize, Serialize};

use super::{Band, Draw, Frame};
use crate::color::{Linear, Rgb, mix, mul, scale};
use crate::error::Result;
use crate::noise::smoothstep;
use crate::scene::{Limit, OPACITY, checked, de_opacity};

/// Range of [`Tent::x`].
pub const X: Limit = Limit::new("tent.x", -0.5, 1.5);
/// Range of [`Tent::y`].
pub const Y: Limit = Limit::new("tent.y", 0.0, 1.5);
/// Range of [`Tent::size`].
pub const SIZE: Limit = Limit::new("tent.size", 0.0, 1.0);
/// Range of [`Tent::lantern`].
pub const LANTERN: Limit = Limit::new("tent.lantern", 0.0, 2.0);

checked!(de_x: f32 = X);
checked!(de_y: f32 = Y);
checked!(de_size: f32 = SIZE);
checked!(de_lantern: f32 = LANTERN);

/// Settings of the tent layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tent {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    #[serde(deserialize_with = "de_opacity")]
    pub opacity: f32,
    /// Centre of the tent, fraction of the width. Range -0.5 to 1.5.
    /// Default: 0.3.
    #[serde(deserialize_with = "de_x")]
    pub x: f32,
    /// Where the tent meets the ground, fraction of the height from the top.
    /// Range 0 to 1.5. Default: 0.8.
    #[serde(deserialize_with = "de_y")]
    pub y: f32,
    /// Width of the tent, fraction of the height. Range 0 to 1. Default: 0.2.
    #[serde(deserialize_with = "de_size")]
    pub size: f32,
    /// Colour of the fly. Default: (204, 38, 30), Coleman red.
    pub color: Rgb,
    /// Light of a lantern inside (for night scenes). Range 0 to 2. Default: 0.
    #[serde(deserialize_with = "de_lantern")]
    pub lantern: f32,
}

impl Default for Tent {
    fn default() -> Self {
        Tent {
            visible: true,
            opacity: 1.0,
            x: 0.3,
            y: 0.8,
            size: 0.2,
            color: Rgb(204, 38, 30),
            lantern: 0.0,
        }
    }
}

/// Height of the dome over its width.
const HEIGHT: f32 = 0.56;

/// Top of the dome at `u` (−0.5..0.5 across), in tent widths.
fn dome(u: f32) -> f32 {
    let a = (2.0 * u).abs().min(1.0);
    HEIGHT * (1.0 - a.powf(2.4)).max(0.0).powf(0.55)
}

impl Tent {
    /// Checks the numbers against their limits.
    pub fn validate(&self) -> Result<()> {
        OPACITY.check(f64::from(self.opacity), self.opacity)?;
        X.check(f64::from(self.x), self.x)?;
        Y.check(f64::from(self.y), self.y)?;
        SIZE.check(f64::from(self.size), self.size)?;
        LANTERN.check(f64::from(self.lantern), self.lantern)
    }

    pub(crate) fn prepare(&self, f: &Frame) -> TentDraw {
        let p = &f.palette;
        let w = self.size * f.h;
        let (cx, cy) = (self.x * f.w, self.y * f.h);
        let side = ((f.scene.sun_x - self.x) * 3.0).clamp(-1.0, 1.0);
        let flat = (p.light[0].powi(2) + p.light[2].powi(2)).sqrt().max(1e-3);
        let len = (flat / p.light[1].max(0.12)).clamp(0.3, 2.5);
        // Outline per column: dome top and its slope (in pixels).
        let x0 = (cx - 0.5 * w - 2.0).floor().max(0.0) as u32;
        let x1 = ((cx + 0.5 * w + 2.0).ceil().max(0.0) as u32).min(f.width);
        let columns = (x0..x1)
            .map(|x| {
                let u = (x as f32 + 0.5 - cx) / w.max(1e-3);
                let e = 0.5 / w.max(1e-3);
                let top = dome(u) * w;
                let slope = (dome(u + e) - dome(u - e)) * w;
                (top, 1.0 / (1.0 + slope * slope).sqrt())
            })
            .collect();
        let shadow_dx = -side * len * 0.25 * w;
        TentDraw {
            opacity: self.opacity,
            cx,
            cy,
            w,
            x0,
            columns,
            fly: self.color.linear(),
            floor: Rgb(70, 70, 74).linear(),
            door: Rgb(34, 14, 12).linear(),
            lantern: self.lantern,
            direct: p.direct,
            ambient: p.ambient,
            light: [side.signum() * p.light[0].abs(), p.light[1], p.light[2]],
            shadow: p.shadow,
            shadow_c: (cx + shadow_dx, cy + 0.02 * w),
            shadow_r: (0.62 * w + shadow_dx.abs() * 0.6, 0.085 * w + 0.01 * w * len),
            y0: (cy - HEIGHT * w - 2.0).floor().max(0.0) as u32,
            y1: (cy + 0.2 * w + 2.0).ceil().max(0.0) as u32,
            sx0: ((cx + shadow_dx - 0.62 * w - shadow_dx.abs() * 0.6 - w * 0.3)
                .floor()
                .max(0.0)) as u32,
            sx1: ((cx + shadow_dx + 0.62 * w + shadow_dx.abs() * 0.6 + w * 0.3)
                .ceil()
                .max(0.0) as u32)
                .min(f.width),
        }
    }
}

/// The tent prepared for one picture.
pub(crate) struct TentDraw {
    opacity: f32,
    cx: f32,
    cy: f32,
    w: f32,
    /// First column of `columns`.
    x0: u32,
    /// Per column: dome top above the base (px), and 1 / sqrt(1 + slope²).
    columns: Vec<(f32, f32)>,
    fly: Linear,
    floor: Linear,
    door: Linear,
    lantern: f32,
    direct: Linear,
    ambient: Linear,
    light: [f32; 3],
    shadow: f32,
    shadow_c: (f32, f32),
    shadow_r: (f32, f32),
    y0: u32,
    y1: u32,
    sx0: u32,
    sx1: u32,
}

/// Coverage of a line of half-width `hw` (px) at distance `d` (px).
#[inline]
fn line(d: f32, hw: f32) -> f32 {
    (hw + 0.5 - d.abs()).clamp(0.0, 1.0)
}

impl Draw for TentDraw {
    fn draw(&self, band: &mut Band) {
        if self.w < 0.5 {
            return;
        }
        let op = self.opacity;
        let w = self.w;
        let lantern = [1.0, 0.55, 0.2];
        let width = band.width;
        for y in band.y0.max(self.y0)..band.y1().min(self.y1) {
            let py = y as f32 + 0.5;
            let row = band.row(y);
            // Shadow and the lantern's pool of light on the ground.
            for x in self.sx0..self.sx1 {
                let px = x as f32 + 0.5;
                let c = &mut row[x as usize];
                let (u, v) = (
                    (px - self.shadow_c.0) / self.shadow_r.0,
                    (py - self.shadow_c.1) / self.shadow_r.1,
                );
                let g = u * u + v * v;
                if g < 1.0 {
                    let m = 1.0 - self.shadow * op * 0.85 * smoothstep(1.0, 0.2, g);
                    *c = scale(*c, m);
                }
                if self.lantern > 0.0 && py > self.cy - 0.02 * w {
                    let (u, v) = (
                        (px - self.cx) / (0.7 * w),
                        (py - self.cy - 0.02 * w) / (0.14 * w),
                    );
                    let g = u * u + v * v;
                    if g < 1.0 {
                        let k = self.lantern * op * 0.35 * (1.0 - g) * (1.0 - g);
                        *c = [
                            c[0] + (c[0] * 3.0 + 0.02) * lantern[0] * k,
                            c[1] + (c[1] * 3.0 + 0.02) * lantern[1] * k,
                            c[2] + (c[2] * 3.0 + 0.02) * lantern[2] * k,
                        ];
                    }
                }
            }
            // Guy lines from the dome's shoulders to stakes on the ground.
            for s in [-1.0f32, 1.0] {
                let (ax, ay) = (self.cx + s * 0.36 * w, self.cy - 0.3 * w);
                let (bx, by) = (self.cx + s * 0.78 * w, self.cy + 0.035 * w);
                if py < ay - 1.0 || py > by + 1.0 {
                    continue;
                }
                let t = ((py - ay) / (by - ay)).clamp(0.0, 1.0);
                let lx = ax + (bx - ax) * t;
                let inv = (by - ay) / ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
                let hw = (0.003 * w).max(0.35);
                let xa = (lx - 2.0).max(0.0) as u32;
                let xb = ((lx + 3.0).max(0.0) as u32).min(width);
                for x in xa..xb {
                    let d = (x as f32 + 0.5 - lx) * inv;
                    let a = line(d, hw) * op * 0.55 * (hw / 0.35).min(1.0);
                    let c = &mut row[x as usize];
                    *c = mix(*c, [0.02, 0.02, 0.02], a);
                }
            }
            // The dome.
            let v = (self.cy - py) / w;
            let bottom = ((self.cy - py) + 0.5).clamp(0.0, 1.0);
            if bottom <= 0.0 {
                continue;
            }
            for (k, &(top, inv)) in self.columns.iter().enumerate() {
                let x = self.x0 as usize + k;
                let px = x as f32 + 0.5;
                let d = ((top - (self.cy - py)) * inv).min(1e6);
                let cov = (d + 0.5).clamp(0.0, 1.0) * bottom;
                if cov <= 0.0 {
                    continue;
                }
                let u = (px - self.cx) / w;
                let col = self.fabric(u, v, top / w);
                let c = &mut row[x];
                *c = mix(*c, col, cov * op);
            }
        }
    }
}

impl TentDraw {
    /// Colour of the tent at (`u`, `v`) (tent widths from the base centre,
    /// `v` up), under a dome whose top there is `top`.
    fn fabric(&self, u: f32, v: f32, top: f32) -> Linear {
        let w = self.w;
        let px = 1.0 / w;
        // Normal of a half-ellipsoid for the light.
        let nx = (2.0 * u).clamp(-1.0, 1.0) * 0.95;
        let ny = (v / HEIGHT).clamp(0.0, 1.0) * 0.8;
        let nz = (1.0 - nx * nx - ny * ny).max(0.0).sqrt();
        let [lx, ly, lz] = self.light;
        let lambert = (nx * lx + ny * ly + nz * lz).max(0.0);
        // Sunlight through the fly from behind makes it glow a little.
        let glow = 0.25 * (-lz).max(0.0);
        let light = [
            self.direct[0] * (lambert + glow) + self.ambient[0] * (0.6 + 0.4 * ny),
            self.direct[1] * (lambert + glow * 0.4) + self.ambient[1] * (0.6 + 0.4 * ny),
            self.direct[2] * (lambert + glow * 0.3) + self.ambient[2] * (0.6 + 0.4 * ny),
        ];
        // Base panel, fly, door.
        let bathtub = smoothstep(0.07 + px, 0.07 - px, v);
        let mut albedo = mix(self.fly, self.floor, bathtub);
        // Pole sleeves: arcs from the base corners over the top.
        let arc = 0.5 * 0.62 * (1.0 - (v / top.max(1e-3)).min(1.0).powi(2)).sqrt();
        let seam = line((u.abs() - arc) * w, 0.004 * w);
        albedo = scale(albedo, 1.0 - 0.35 * seam);
        let mut col = mul(albedo, light);
        // Door: an arch in the middle of the front.
        let door_w = 0.17;
        let door_h = 0.36;
        let du = u / door_w;
        let edge = door_h * (1.0 - du * du).max(0.0).sqrt() - v;
        let door =
            ((edge * w + 0.5).clamp(0.0, 1.0)) * ((door_w - u.abs()) * w + 0.5).clamp(0.0, 1.0);
        if door > 0.0 {
            let mut inside = mul(self.door, light);
            if self.lantern > 0.0 {
                let k = self.lantern * (0.5 + 0.5 * (1.0 - du * du).max(0.0));
                inside = [
                    inside[0] + 1.6 * k,
                    inside[1] + 0.75 * k,
                    inside[2] + 0.25 * k,
                ];
            }
            col = mix(col, inside, door);
            // The rolled-up flap along the top of the arch.
            let flap = line(edge * w - 0.012 * w, 0.008 * w) * door;
            col = mix(col, scale(mul(self.fly, light), 0.7), flap);
        }
        if self.lantern > 0.0 {
            // The fly glows from inside.
            let k = self.lantern * 0.35 * (1.0 - (2.0 * u).powi(2)).max(0.0);
            col = [
                col[0] + self.fly[0] * k * 1.4,
                col[1] + self.fly[1] * k * 0.9 + 0.004 * k,
                col[2] + self.fly[2] * k * 0.5,
            ];
        }
        col
    }
}
