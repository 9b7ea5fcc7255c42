//! The tent: a red Coleman-style dome, lit on the sun's side, with a dark
//! door, panel seams, guy lines and a shadow on the ground. At night a
//! lantern can glow inside.

use serde::Serialize;

use super::{Band, Draw, Frame, Kind, Layer, Prepare};
use crate::base::color::{Linear, Rgb, mix, mul, scale};
use crate::base::math;
use crate::base::noise::smoothstep;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other};

/// Settings of the tent layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tent {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Centre of the tent, fraction of the width. Range -0.5 to 1.5.
    /// Default: 0.3.
    pub x: f32,
    /// Where the tent meets the ground, fraction of the height from the top.
    /// Range 0 to 1.5. Default: 0.8.
    pub y: f32,
    /// Width of the tent, fraction of the height. Range 0 to 1. Default: 0.2.
    pub size: f32,
    /// Colour of the fly. Default: (204, 38, 30), Coleman red.
    pub color: Rgb,
    /// Light of a lantern inside (for night scenes). Range 0 to 2. Default: 0.
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

/// Ground cleared for a tent, where no stone lies: an ellipse around its
/// floor, in picture heights (x from the left, y from the top).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Clearing {
    /// Centre.
    pub x: f32,
    /// Centre.
    pub y: f32,
    /// Half-width.
    pub rx: f32,
    /// Half-height.
    pub ry: f32,
}

impl Tent {
    /// The ground cleared for the tent in a picture of `w × h` pixels,
    /// seen `scale` times as large as from 1.6 m
    /// ([`super::world::World::scale`]): on flat ground, where it was
    /// placed, in one ground as well.
    pub(crate) fn clearing(&self, w: f32, h: f32, scale: f32) -> Clearing {
        let size = self.size * scale;
        Clearing {
            x: self.x * w / h,
            y: self.y + 0.04 * size,
            rx: 0.62 * size,
            ry: 0.1 * size,
        }
    }

    /// Whether the tent shows, under the layers `above` it in a scene whose
    /// horizon is at `horizon` (fraction of the height), seen `scale` times
    /// as large as from 1.6 m: it is visible, not
    /// transparent, and not hidden whole by an opaque layer above, as the
    /// sky is everywhere and the floor below the horizon. Only a tent that
    /// shows clears the ground of stones: one moved behind the floor leaves
    /// the stones where they lie.
    pub fn is_drawn(&self, above: &[Layer], horizon: f32, scale: f32) -> bool {
        // Where the dome's top is, with a margin for its anti-aliased edge
        // and the floor's at the horizon (a few pixels at any size).
        let top = self.y - HEIGHT * self.size * scale - 0.01;
        let hides = |layer: &Layer| match layer {
            Layer::Sky(sky) => sky.visible && sky.opacity >= 1.0,
            Layer::Floor(floor) => floor.visible && floor.opacity >= 1.0 && top >= horizon,
            _ => false,
        };
        self.visible && self.opacity > 0.0 && !above.iter().any(hides)
    }

    /// The tent moved along the ground (its `x`, within 0.1 to 0.9 of the
    /// width) to stand clear of `others` in a picture of `aspect`: where it
    /// is, if it overlaps none; else the place farthest from the nearest
    /// one, past its edge if there is room, the nearest to where it was on
    /// a tie. A tent added to a scene lands where it can be seen, not
    /// exactly on the tent already there.
    pub fn placed_apart(&self, others: &[&Tent], aspect: f32) -> Tent {
        // Gap between two tents' sides, in fractions of the width (negative:
        // they overlap).
        let gap =
            |x: f32, other: &Tent| (x - other.x).abs() - (self.size + other.size) * 0.55 / aspect;
        let nearest_gap = |x: f32| {
            others
                .iter()
                .map(|o| gap(x, o))
                .fold(f32::INFINITY, f32::min)
        };
        if nearest_gap(self.x) > 0.0 {
            return self.clone();
        }
        let x = (10..=90)
            .map(|percent| percent as f32 / 100.0)
            .map(|x| (x, nearest_gap(x).min(0.05), -(x - self.x).abs()))
            .max_by(|a, b| (a.1, a.2).partial_cmp(&(b.1, b.2)).expect("finite"))
            .map_or(self.x, |(x, _, _)| x);
        Tent {
            x: crate::setting::round_to(x, 1000),
            ..self.clone()
        }
    }

    /// Whether a point (fractions of the width and height) is on the tent
    /// in a picture of `aspect`: a box a little more generous than the dome
    /// (about 0.6 as tall as wide), so the tent is easy to grab.
    pub fn contains(&self, aspect: f32, x: f32, y: f32) -> bool {
        // The size is a fraction of the height; in width fractions the box
        // is narrower by the aspect.
        let half_w = self.size / aspect * 0.55;
        let height = self.size * 0.7;
        (x - self.x).abs() <= half_w && y <= self.y + 0.02 && y >= self.y - height
    }
}

impl Kind for Tent {
    const NAME: &'static str = "tent";
    const TITLE: &'static str = "Tent";
    const SETTINGS: &'static [Setting<Tent>] = &[
        super::visible(),
        super::opacity(),
        float!(
            "x",
            x,
            -0.5,
            1.5,
            1000,
            "Position",
            "Left to right (or drag the tent on the preview)",
            Roll::Range(0.15, 0.85)
        ),
        float!(
            "y",
            y,
            0.0,
            1.5,
            1000,
            "Ground",
            "Where the tent stands, from the top",
            Roll::Range(0.74, 0.9)
        ),
        float!(
            "size",
            size,
            0.0,
            1.0,
            1000,
            "Size",
            "Width of the tent",
            Roll::Range(0.13, 0.26)
        ),
        other!(
            Rgb,
            "color",
            color,
            "Fly colour",
            "Colour of the tent's fly",
            Roll::Keep
        ),
        float!(
            "lantern",
            lantern,
            0.0,
            2.0,
            1000,
            "Lantern",
            "A lantern glowing inside, for night scenes",
            Roll::Keep
        ),
    ];

    super::common_settings!();
}

impl Prepare for Tent {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

/// Height of the dome over its width.
const HEIGHT: f32 = 0.56;

impl Tent {
    /// The share of the floor of `ground` the dome covers (about a half
    /// ellipse as wide as the tent), and how far its top rises above the
    /// horizon.
    pub fn cover(&self, ground: &super::Ground) -> super::Cover {
        let floor = (1.0 - ground.horizon) * ground.aspect;
        let size = self.size * ground.scale;
        let dome = std::f32::consts::FRAC_PI_4 * size * size * HEIGHT;
        super::Cover {
            floor: (dome / floor.max(1e-6)).min(1.0),
            sky: 0.0,
            reach: ground.horizon - (self.y - size * HEIGHT),
        }
    }
}

/// Top of the dome at `u` (−0.5..0.5 across), in tent widths.
fn dome(u: f32) -> f32 {
    let a = (2.0 * u).abs().min(1.0);
    HEIGHT * math::powf((1.0 - math::powf(a, 2.4)).max(0.0), 0.55)
}

impl Tent {
    fn prepare_draw(&self, f: &Frame) -> TentDraw {
        let p = &f.palette;
        let w = self.size * f.h * f.world.scale;
        // Where it stands on flat ground, and its depth there; in one
        // ground, on the sand at that depth, upright.
        let (cx, ground) = (self.x * f.w, self.y * f.h);
        let key = ground - f.horizon;
        let lift = if f.world.on {
            f.world.lift(cx, key)
        } else {
            0.0
        };
        let cy = ground - lift;
        let side = ((f.sun_x - self.x) * 3.0).clamp(-1.0, 1.0);
        let flat = (p.light[0].powi(2) + p.light[2].powi(2)).sqrt().max(1e-3);
        let len = (flat / p.light[1].max(0.12)).clamp(0.3, 2.5);
        // Outline per column: dome top and its slope (in pixels).
        // Only the columns drawn (a window's, in a huge picture).
        let x0 = ((cx - 0.5 * w - 2.0).floor().max(0.0) as u32).max(f.cols.start);
        let x1 = ((cx + 0.5 * w + 2.0).ceil().max(0.0) as u32).min(f.cols.end);
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
        let sun = f.shade.as_ref().map_or(1.0, |s| s.light(cx, ground));
        TentDraw {
            opacity: self.opacity,
            cx,
            cy,
            key,
            w,
            x0,
            columns,
            fly: self.color.linear(),
            floor: Rgb(70, 70, 74).linear(),
            door: Rgb(34, 14, 12).linear(),
            lantern: self.lantern,
            // Under a cloud, less of the sun, and a fainter shadow.
            direct: crate::base::color::scale(p.direct, sun),
            ambient: p.ambient,
            light: [side.signum() * p.light[0].abs(), p.light[1], p.light[2]],
            shadow: p.shadow * sun,
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
    /// Where the middle of its base is drawn (px).
    cx: f32,
    cy: f32,
    /// Its depth's key ([`super::world`]): its base's row on flat ground
    /// under the horizon.
    key: f32,
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

/// How far the dome reaches under its base, and its shadow under where it
/// lies on the ground (px): the sand it may be drawn over is this much
/// nearer.
const REACH: f32 = 2.0;

/// Coverage of a line of half-width `hw` (px) at distance `d` (px).
#[inline]
fn line(d: f32, hw: f32) -> f32 {
    (hw + 0.5 - d.abs()).clamp(0.0, 1.0)
}

impl Draw for TentDraw {
    fn touches(&self, y0: u32, y1: u32) -> bool {
        self.w >= 0.5 && y0 < self.y1 && self.y0 < y1
    }

    fn draw(&self, band: &mut Band) {
        if self.w < 0.5 {
            return;
        }
        let op = self.opacity;
        let w = self.w;
        let lantern = [1.0, 0.55, 0.2];
        let (bx0, bx1) = (band.x0, band.x1());
        let clip = |a: u32, b: u32| (a.max(bx0), b.min(bx1));
        let (sx0, sx1) = clip(self.sx0, self.sx1);
        // The dome's columns in the band.
        let (dx0, dx1) = clip(self.x0, self.x0 + self.columns.len() as u32);
        let dome = if dx0 < dx1 {
            &self.columns[(dx0 - self.x0) as usize..(dx1 - self.x0) as usize]
        } else {
            &[]
        };
        // In one ground: what lies on the ground (its shadow, the
        // lantern's pool) lies as deep as its row, what stands (the dome,
        // the guy lines to their stakes) as deep as its base.
        let stakes = 0.035 * w + REACH;
        for y in band.y0.max(self.y0)..band.y1().min(self.y1) {
            let py = y as f32 + 0.5;
            let start = ((y - band.y0) * band.width) as usize;
            let row = &mut band.px[start..start + band.width as usize];
            let depth = &mut band.depth;
            let ground = self.key + (py - self.cy);
            // Shadow and the lantern's pool of light on the ground.
            for x in sx0..sx1 {
                let px = x as f32 + 0.5;
                if let Some(d) = depth.as_ref()
                    && !d.shows(start + (x - bx0) as usize, ground, REACH)
                {
                    continue;
                }
                let c = &mut row[(x - bx0) as usize];
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
                let (xa, xb) = clip((lx - 2.0).max(0.0) as u32, (lx + 3.0).max(0.0) as u32);
                for x in xa..xb {
                    let d = (x as f32 + 0.5 - lx) * inv;
                    let a = line(d, hw) * op * 0.55 * (hw / 0.35).min(1.0);
                    if let Some(depth) = depth.as_mut() {
                        let i = start + (x - bx0) as usize;
                        if !depth.shows(i, self.key, stakes) {
                            continue;
                        }
                        if a >= 0.5 {
                            depth.cover(i, self.key);
                        }
                    }
                    let c = &mut row[(x - bx0) as usize];
                    *c = mix(*c, [0.02, 0.02, 0.02], a);
                }
            }
            // The dome.
            let v = (self.cy - py) / w;
            let bottom = ((self.cy - py) + 0.5).clamp(0.0, 1.0);
            if bottom <= 0.0 {
                continue;
            }
            for (k, &(top, inv)) in dome.iter().enumerate() {
                let x = dx0 as usize + k;
                let px = x as f32 + 0.5;
                let d = ((top - (self.cy - py)) * inv).min(1e6);
                let cov = (d + 0.5).clamp(0.0, 1.0) * bottom;
                if cov <= 0.0 {
                    continue;
                }
                if let Some(depth) = depth.as_mut() {
                    let i = start + x - bx0 as usize;
                    if !depth.shows(i, self.key, REACH) {
                        continue;
                    }
                    if cov * op >= 0.5 {
                        depth.cover(i, self.key);
                    }
                }
                let u = (px - self.cx) / w;
                let col = self.fabric(u, v, top / w);
                let c = &mut row[x - bx0 as usize];
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
            let k = self.lantern * 0.2 * (1.0 - (2.0 * u).powi(2)).max(0.0);
            col = [
                col[0] + self.fly[0] * k * 1.4,
                col[1] + self.fly[1] * k * 0.9 + 0.004 * k,
                col[2] + self.fly[2] * k * 0.5,
            ];
        }
        col
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tent_is_placed_clear_of_the_others() {
        let first = Tent::default();
        let aspect = 16.0 / 9.0;
        assert_eq!(first.placed_apart(&[], aspect), first, "alone: unmoved");
        let far = Tent {
            x: 0.8,
            ..Tent::default()
        };
        assert_eq!(first.placed_apart(&[&far], aspect), first, "clear: unmoved");

        let second = first.placed_apart(&[&first], aspect);
        let gap = (second.x - first.x).abs() - 2.0 * first.size * 0.55 / aspect;
        assert!(gap >= 0.05, "x {} is {gap} clear", second.x);
        assert_eq!(second.x, crate::setting::round_to(second.x, 1000));
        let third = first.placed_apart(&[&first, &second], aspect);
        for other in [&first, &second] {
            assert!((third.x - other.x).abs() > 2.0 * first.size * 0.55 / aspect);
        }
    }

    use crate::Scene;
    use crate::layers::plants::tests::{drawn_with_depths, over, sea};

    /// `sea()`'s sand alone (its colours and ground keys) at 640 × 360,
    /// and the tent `tent` prepared on it.
    fn on_the_sea(tents: &[Tent]) -> (Vec<Linear>, Vec<f32>, Vec<TentDraw>) {
        let mut s = sea();
        s.layers.truncate(3);
        let (sand, ground, _) = drawn_with_depths(&s, (640, 360));
        s.layers.push(Layer::Tent(Tent::default()));
        let plan = crate::compose::Plan::new(&s).unwrap();
        let frame = plan.frame(640, 360);
        let draws = tents.iter().map(|t| t.prepare_draw(&frame)).collect();
        (sand, ground, draws)
    }

    /// Tents across the sea's sand, near to far.
    fn camps() -> Vec<Tent> {
        (0..12)
            .flat_map(|j| {
                (0..9).map(move |i| Tent {
                    x: 0.1 + 0.1 * i as f32,
                    y: 0.95 - 0.04 * j as f32,
                    size: 0.3,
                    ..Tent::default()
                })
            })
            .collect()
    }

    /// In one ground with dunes the tent stands on the sand at its depth,
    /// upright: drawn as high above its place on flat ground as the sand
    /// lifts it at its middle, shadow and all.
    #[test]
    fn a_tent_stands_on_the_sand_at_its_depth() {
        let (_, _, draws) = on_the_sea(&camps());
        let plan = crate::compose::Plan::new(&sea()).unwrap();
        let frame = plan.frame(640, 360);
        let mut high = 0;
        for (t, d) in camps().iter().zip(&draws) {
            let (ground, key) = (t.y * 360.0, t.y * 360.0 - frame.horizon);
            assert_eq!(d.key, key);
            let lift = frame.world.lift(d.cx, key);
            assert_eq!(d.cy, ground - lift);
            assert_eq!(d.shadow_c.1, d.cy + 0.02 * d.w);
            assert!(d.y0 as f32 <= d.cy - HEIGHT * d.w);
            high += usize::from(lift > 3.0);
        }
        assert!(
            high >= 6,
            "{high} tents stand 3 px or more over flat ground"
        );
    }

    /// A tent behind a dune's crest is hidden by the sand as far as the
    /// crest hides it: it paints no pixel where the sand is nearer than
    /// where it stands (by more than its stakes reach in front); some are
    /// hidden whole or in part, and those in front of every crest are
    /// drawn whole.
    #[test]
    fn the_sand_hides_a_tent_behind_its_crests() {
        let (sand, ground, draws) = on_the_sea(&camps());
        let (mut hidden, mut part, mut whole) = (0, 0, 0);
        for d in &draws {
            let (seen, all) = (
                over(&sand, Some(&ground), 640, d),
                over(&sand, None, 640, d),
            );
            let (mut shown, mut drawn) = (0, 0);
            for (i, (a, b)) in seen.iter().zip(&all).enumerate() {
                let y = (i / 640) as f32 + 0.5;
                let reach = d.key + (y - d.cy).max(0.035 * d.w) + REACH;
                if a != &sand[i] {
                    assert!(ground[i] <= reach, "a tent shows through the sand");
                    shown += 1;
                }
                drawn += usize::from(b != &sand[i]);
            }
            match shown {
                0 if drawn > 0 => hidden += 1,
                n if n < drawn => part += 1,
                _ => whole += 1,
            }
        }
        assert!(
            hidden + part >= 5 && whole >= 10,
            "{hidden} hidden, {part} in part, {whole} whole"
        );
    }

    /// The eye's height scales the tent and its clearing: from a stone's
    /// eye (0.3 m) it is larger than from a person's (1.6 m), from 100 m
    /// smaller; at 1.6 m as it always was.
    #[test]
    fn a_lower_eye_sees_a_larger_tent() {
        let seen = |eye: f32| {
            let s = Scene {
                eye,
                ..Scene::default()
            };
            let plan = crate::compose::Plan::new(&s).unwrap();
            let frame = plan.frame(640, 360);
            let tent = Tent::default();
            let drawn = crate::layers::paint_bands(640, 360, |b| tent.prepare_draw(&frame).draw(b));
            let blank = crate::layers::paint_bands(640, 360, |_| {});
            let painted = drawn
                .chunks(3)
                .zip(blank.chunks(3))
                .filter(|(a, b)| a != b)
                .count();
            (painted, frame.clearings[0])
        };
        let (low, standing, high) = (seen(0.3), seen(1.6), seen(100.0));
        assert!(low.0 > 4 * standing.0, "{low:?} {standing:?}");
        assert!(high.0 * 10 < standing.0, "{high:?} {standing:?}");
        assert_eq!(standing.1, Tent::default().clearing(640.0, 360.0, 1.0));
        assert!(low.1.rx > 5.0 * standing.1.rx && high.1.rx < 0.1 * standing.1.rx);
        assert_eq!((low.1.x, high.1.x), (standing.1.x, standing.1.x));
    }
}
