//! The ground's relief: alluvial fans spreading from the ranges' feet, a
//! dry wash winding from the foreground to the horizon, and a near rise
//! across the bottom of the picture.
//!
//! The fans are cones of debris seen from far off: low humps against the
//! ranges' foot, pale and coarse at the apex, with channels radiating from
//! it, their toes running out onto the floor; where neighbours meet they
//! merge into a bajada. The wash lies on the ground plane (as the floor's
//! patches and cracks do) so it narrows and winds in perspective: a pale
//! bed of fine sand between two cut banks, the one facing the sun lit, the
//! other in shadow. The near rise is ground close to the viewer, lit from
//! behind as the sun is in the picture: a darker mound with a bright rim
//! on its crest, gravel on its face, a frame for what lies beyond.
//!
//! The wash and the rise change what is under them by the light they get
//! (the floor's grain and the clouds' shade stay); the fans paint over the
//! ranges' foot. A pixel is a function of its position and the prepared
//! numbers only, the same in any window and on any thread.

use serde::Serialize;

use super::{Band, Draw, Frame, Ground, Kind, Prepare, blend};
use crate::base::color::{Linear, Rgb, mix, mul, scale};
use crate::base::math;
use crate::base::noise::{Dice, hash2, smoothstep, sub_seed, unit, value2};
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other};

/// Settings of the relief layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Relief {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// How many and how large the alluvial fans at the ranges' feet are, 0
    /// (none) to 1 (a bajada of merged fans). Default: 0.6.
    pub fans: f32,
    /// Colour of the fans' debris in full light. Default: (200, 184, 158).
    pub fan_color: Rgb,
    /// Width of a dry wash winding toward the horizon, 0 (none) to 1.
    /// Default: 0.4.
    pub wash: f32,
    /// How much the wash winds, 0 (straight) to 1. Default: 0.5.
    pub bend: f32,
    /// Height of a near rise across the foreground, 0 (none) to 1 (a
    /// quarter of the picture). Default: 0.3.
    pub rise: f32,
    /// Which side the rise is higher on, -1 (left) to 1 (right). Default:
    /// -0.4.
    pub tilt: f32,
}

impl Default for Relief {
    fn default() -> Self {
        Relief {
            visible: true,
            opacity: 1.0,
            fans: 0.6,
            fan_color: Rgb(200, 184, 158),
            wash: 0.4,
            bend: 0.5,
            rise: 0.3,
            tilt: -0.4,
        }
    }
}

/// Debris colours New scene picks from (sRGB).
const DEBRIS: &[Rgb] = &[
    Rgb(200, 184, 158),
    Rgb(188, 170, 146),
    Rgb(206, 194, 172),
    Rgb(180, 160, 134),
    Rgb(196, 170, 140),
];

impl Kind for Relief {
    const NAME: &'static str = "relief";
    const TITLE: &'static str = "Relief";
    const SETTINGS: &'static [Setting<Relief>] = &[
        super::visible(),
        super::opacity(),
        float!(
            "fans",
            fans,
            0.0,
            1.0,
            1000,
            "Fans",
            "Alluvial fans at the ranges' feet: none to a bajada",
            Roll::Range(0.0, 1.0)
        ),
        other!(
            Rgb,
            "fan_color",
            fan_color,
            "Debris colour",
            "Colour of the fans' debris",
            Roll::Pick(DEBRIS)
        ),
        float!(
            "wash",
            wash,
            0.0,
            1.0,
            1000,
            "Wash",
            "Width of a dry wash winding toward the horizon",
            Roll::Pick(&[0.0, 0.0, 0.3, 0.5, 0.8])
        ),
        float!(
            "bend",
            bend,
            0.0,
            1.0,
            1000,
            "Bend",
            "How much the wash winds",
            Roll::Range(0.2, 0.9)
        ),
        float!(
            "rise",
            rise,
            0.0,
            1.0,
            1000,
            "Near rise",
            "Height of a rise of ground across the foreground",
            Roll::Pick(&[0.0, 0.0, 0.2, 0.35, 0.5])
        ),
        float!(
            "tilt",
            tilt,
            -1.0,
            1.0,
            1000,
            "Rise tilt",
            "Which side the rise is higher on, left to right",
            Roll::Range(-0.8, 0.8)
        ),
    ];

    super::common_settings!();
}

/// A full rise's height, fraction of the picture's height.
const RISE: f32 = 0.4;
/// A full fan's height over the horizon, fraction of the picture's height.
const FAN_HEIGHT: f32 = 0.07;
/// A full wash's width on the ground, scene units (about 10 m).
const WASH: f32 = 1.4;
/// The wash is drawn up to this far (scene units); beyond, it fades.
const WASH_FAR: f32 = 60.0;

impl Relief {
    /// The relief covers no floor with things (it is ground itself); its
    /// fans reach over the horizon by their height.
    pub(crate) fn cover(&self, _ground: &Ground) -> super::Cover {
        super::Cover {
            reach: if self.fans > 0.0 {
                FAN_HEIGHT * self.fans.sqrt()
            } else {
                f32::MIN
            },
            ..super::Cover::NONE
        }
    }

    /// The fans of a picture with `seed`, `aspect` (width / height):
    /// apex across the picture (fraction of the width), half width and
    /// height (fractions of the height).
    fn fan_list(&self, seed: u32, aspect: f32) -> Vec<Fan> {
        if self.fans <= 0.0 {
            return Vec::new();
        }
        let mut dice = Dice::new(seed ^ 0xfa45);
        let n = 1 + (self.fans * 5.0).round() as u32;
        (0..n)
            .map(|i| {
                let x = (i as f32 + 0.2 + 0.6 * dice.unit()) / n as f32;
                let half = aspect * (0.1 + 0.22 * self.fans) * (0.7 + 0.6 * dice.unit());
                let height = FAN_HEIGHT * self.fans.sqrt() * (0.55 + 0.45 * dice.unit());
                Fan {
                    x,
                    half,
                    height,
                    seed: dice.bits(),
                }
            })
            .collect()
    }
}

impl Prepare for Relief {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

/// One alluvial fan, in fractions of the picture (see [`Relief::fan_list`]).
#[derive(Clone, Copy, Debug)]
struct Fan {
    x: f32,
    half: f32,
    height: f32,
    seed: u32,
}

/// A column's fans: the bajada's top (pixels, fractional), and the fan
/// highest there with its apex (pixels) and its toe's depth below the
/// horizon (pixels).
#[derive(Clone, Copy)]
struct FanColumn {
    top: f32,
    apex: [f32; 2],
    /// Across the fan, -1 (its left edge) to 1 (its right edge).
    across: f32,
    toe: f32,
    seed: u32,
}

/// A fan seen from above, lying on the ground: its apex (pixels), its
/// length toward the eye (rows), and its half width per row down.
#[derive(Clone, Copy)]
struct LaidFan {
    apex: [f32; 2],
    length: f32,
    slope: f32,
    seed: u32,
}

/// A row of the wash: its centre and half width (pixels) and how much of
/// it shows (fading with distance).
#[derive(Clone, Copy)]
struct WashRow {
    centre: f32,
    half: f32,
    strength: f32,
    /// Depth on the ground, for the bed's bars.
    z: f32,
}

struct ReliefDraw {
    opacity: f32,
    horizon: f32,
    h: f32,
    x0: u32,
    /// Per prepared column (from `x0`): the fans there, if any.
    fans: Vec<Option<FanColumn>>,
    /// The fans' lit colour, and the haze it fades into.
    fan_lit: Linear,
    haze: Linear,
    /// Rows `fan_rows.0..fan_rows.1` hold some fan.
    fan_rows: (u32, u32),
    /// The fans seen lying on the ground from above, the rows they
    /// cover, and how much they show (0 from a standing eye).
    laid: Vec<LaidFan>,
    laid_rows: (u32, u32),
    lay: f32,
    /// Which side the light comes from (-1 left .. 1 right).
    side: f32,
    /// Per row from `wash_first`: the wash there.
    wash: Vec<WashRow>,
    wash_first: u32,
    /// Per prepared column: the rise's crest (pixels from the top).
    rise: Vec<f32>,
    /// The rise's highest crest (its first row).
    rise_first: u32,
    /// The depth key of the rise's crest (see [`super::world`]): a fifth
    /// of the ground's rows from the picture's bottom.
    rise_key: f32,
    /// Per prepared column: the light on the rise's flank there.
    flank: Vec<f32>,
    /// The rise's face's colour, and the light on its crest's rim as a
    /// multiplier.
    rise_base: Linear,
    /// Whether the rise's gravel is strewn (from the second look): each
    /// cell may hold two pebbles anywhere in it, of many sizes, softly
    /// lit; in the first look a pebble or none, in a row, lit or dark.
    strewn: bool,
    rim: Linear,
    seed: u32,
    shade: Option<super::clouds::CloudShade>,
}

impl Relief {
    fn prepare_draw(&self, f: &Frame) -> ReliefDraw {
        let p = &f.palette;
        let seed = sub_seed(f.seed, 0x5e11);
        let aspect = f.w / f.h;
        let side = p.light[0].clamp(-1.0, 1.0);
        // Fans: the highest fan in each column.
        let list = self.fan_list(seed, aspect);
        // From high above, the fans lie down: the cone that stands over
        // the horizon from the floor is seen spread on the basin's far
        // side, its apex at the range's foot and its toe reaching toward
        // the eye (none of this below a standing eye's height).
        let lay = smoothstep(
            0.0,
            1.0,
            math::ln(f.world.eye / super::world::EYE) / math::ln(300.0),
        );
        let stand = 1.0 - 0.8 * lay;
        let mut fan_rows = (u32::MAX, 0u32);
        let fans: Vec<Option<FanColumn>> = f
            .cols
            .clone()
            .map(|x| {
                let px = (x as f32 + 0.5) / f.h;
                let mut best: Option<FanColumn> = None;
                for fan in &list {
                    let t = (px - fan.x * aspect) / fan.half;
                    if t.abs() >= 1.0 {
                        continue;
                    }
                    let height = fan.height * stand;
                    let top = f.horizon - height * f.h * math::powf(1.0 - t.abs(), 1.6);
                    if best.is_none_or(|b| top < b.top) {
                        best = Some(FanColumn {
                            top,
                            apex: [fan.x * f.w, f.horizon - height * f.h],
                            across: t,
                            toe: 0.5 * fan.height * f.h * (1.0 - t * t),
                            seed: fan.seed,
                        });
                    }
                }
                if let Some(b) = best {
                    fan_rows.0 = fan_rows.0.min(b.top.floor().max(0.0) as u32);
                    fan_rows.1 = fan_rows.1.max((f.horizon + b.toe).ceil() as u32 + 1);
                }
                best
            })
            .collect();
        // The fans seen from above: cones on the ground, their apex at
        // the range's foot just under the horizon, their toe a round arc
        // nearer the eye, as long (in rows) as the eye is high.
        let laid: Vec<LaidFan> = if lay > 0.0 {
            list.iter()
                .map(|fan| {
                    let apex = [fan.x * f.w, f.horizon + 0.004 * f.h];
                    let length = 1.8 * fan.height * lay * f.world.zoom * f.h;
                    LaidFan {
                        apex,
                        length,
                        slope: 1.3 * fan.half * f.h / length.max(1.0),
                        seed: fan.seed,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let laid_rows = laid.iter().fold((u32::MAX, 0u32), |(a, b), l| {
            (
                a.min(l.apex[1].floor() as u32),
                b.max((l.apex[1] + l.length).ceil() as u32 + 1),
            )
        });
        let lit = mul(self.fan_color.linear(), p.ground);
        let haze = mix(p.horizon, mul(f.ground, p.ground), 0.3);
        // The wash: its centre winds on the ground plane, as far across
        // at each depth as the picture is wide there times a slow wave in
        // the log of the depth, so it winds alike near and far.
        let wash_first = (f.horizon.floor().max(0.0) as u32).max(f.rows.start);
        let wash = if self.wash > 0.0 {
            let mut dice = Dice::new(seed ^ 0x3a57);
            let start = 0.25 + 0.5 * dice.unit();
            let phase = std::f32::consts::TAU * dice.unit();
            let near = f.world.eye / ((f.h - f.horizon) / f.h).max(0.05);
            let x0 = (start - 0.5) * aspect * near;
            (wash_first..f.rows.end)
                .map(|y| {
                    let dy = ((y as f32 + 0.5 - f.horizon) / f.h).max(1e-4);
                    let z = f.world.eye / dy;
                    let wave = math::sin(2.4 * math::ln(z / near) + phase);
                    let across = x0 + self.bend * 0.3 * aspect * (near * z).sqrt() * wave;
                    let half = 0.5 * WASH * self.wash;
                    WashRow {
                        centre: f.w * 0.5 + across / z * f.h,
                        half: half / z * f.h,
                        strength: 1.0 - smoothstep(0.3, 1.0, z / WASH_FAR),
                        z,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        // The rise: a long low mound, higher on the tilt's side, its crest
        // wavering slowly.
        let rise_seed = seed ^ 0x7153;
        let crest = |u: f32| {
            let wave = value2(u * 2.5 * aspect, 0.5, rise_seed) - 0.5;
            let fine = value2(u * 14.0 * aspect, 3.5, rise_seed) - 0.5;
            // A broad hump, its crest toward the tilt's side.
            let across = (u - 0.5 - 0.45 * self.tilt) / 0.8;
            let shape = (1.0 - across * across).max(0.12) + 0.35 * wave + 0.05 * fine;
            let top = f.h - RISE * self.rise * shape.max(0.05) * f.h;
            top.max(f.horizon + 0.04 * f.h)
        };
        // Per column, the crest and the light on the flank under it: the
        // flank that slopes down toward the sun's side is lit.
        let (rise, flank): (Vec<f32>, Vec<f32>) = if self.rise > 0.0 {
            f.cols
                .clone()
                .map(|x| {
                    let u = (x as f32 + 0.5) / f.w;
                    let du = 0.01;
                    let slope = (crest(u + du) - crest(u - du)) / (2.0 * du * f.w);
                    (crest(u), (1.0 + 0.9 * side * slope).clamp(0.6, 1.4))
                })
                .unzip()
        } else {
            (Vec::new(), Vec::new())
        };
        let rise_first = rise.iter().fold(f.h, |a, &b| a.min(b)).floor().max(0.0) as u32;
        // The rise's face turns toward the viewer, away from the sun in
        // the picture: sky light and a little sun; its crest catches the
        // sun from behind.
        let face = [side * 0.25, 0.55, 0.8];
        let n = (face[0] * face[0] + face[1] * face[1] + face[2] * face[2]).sqrt();
        let cos = (face[0] * p.light[0] + face[1] * p.light[1] + face[2] * p.light[2]) / n;
        let rise_face = [
            (p.ambient[0] * 0.9 + p.direct[0] * cos.max(0.0)) / p.ground[0].max(1e-4),
            (p.ambient[1] * 0.9 + p.direct[1] * cos.max(0.0)) / p.ground[1].max(1e-4),
            (p.ambient[2] * 0.9 + p.direct[2] * cos.max(0.0)) / p.ground[2].max(1e-4),
        ];
        let rise_face = mix(rise_face, [0.86, 0.8, 0.76], 0.5);
        let rim = scale(mix([1.0; 3], p.glow, 0.3), 1.35);
        ReliefDraw {
            opacity: self.opacity,
            horizon: f.horizon,
            h: f.h,
            x0: f.cols.start,
            fans,
            fan_lit: lit,
            haze,
            fan_rows,
            laid,
            laid_rows,
            lay,
            side,
            wash,
            wash_first,
            rise,
            rise_first,
            rise_key: 0.8 * (f.h - f.horizon),
            flank,
            rise_base: mul(mul(f.ground, p.ground), rise_face),
            strewn: p.look >= crate::base::palette::LOOK_SAND,
            rim,
            seed,
            shade: f.shade.clone(),
        }
    }
}

/// A smooth step from 0 to 1 as `d` passes `edge`, over `soft`.
#[inline]
fn ramp(d: f32, edge: f32, soft: f32) -> f32 {
    ((d - edge) / soft + 0.5).clamp(0.0, 1.0)
}

impl ReliefDraw {
    /// The wash's light on row `r` at `d` (signed, in half widths from its
    /// centre), with `soft` its anti-aliasing in half widths: a pale bed
    /// with faint bars, the banks lit on the sun's side and dark on the
    /// other, with the dark bank's shadow on the bed, and a darker lip of
    /// gravel along the top of each bank.
    fn wash_light(&self, r: &WashRow, d: f32, soft: f32) -> f32 {
        let a = d.abs();
        let bars = value2(d * 2.5, r.z * 0.9, self.seed ^ 0xba25) - 0.5;
        let bed = 1.16 + 0.16 * bars;
        // The bank on this side faces the centre: lit if the light comes
        // from the side it faces.
        let lit = if d < 0.0 { self.side } else { -self.side };
        let bank = if lit > 0.0 {
            1.0 + 0.4 * lit
        } else {
            1.0 + 0.5 * lit
        };
        let shadow = if lit < 0.0 { 1.0 + 0.35 * lit } else { 1.0 };
        let soft = soft.max(0.04);
        let in_bank = ramp(a, 0.8, soft);
        let out = ramp(a, 1.0, soft);
        let in_shadow = ramp(a, 0.62, soft) * (1.0 - in_bank);
        let lip = 1.0 - 0.08 * (1.0 - ramp(a, 1.3, soft.max(0.15)));
        let inside = bed * (1.0 + (shadow - 1.0) * in_shadow);
        let k = inside + (bank - inside) * in_bank;
        k + (lip - k) * out
    }

    /// The fans' colour at pixel `(x, y)` of column `fc`.
    fn fan_color(&self, fc: &FanColumn, x: u32, y: u32) -> Linear {
        let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
        let down = (py - fc.apex[1]).max(0.0);
        let v = (down / (self.horizon - fc.apex[1]).max(1.0)).min(1.5);
        // Channels radiate from the apex.
        let u = (px - fc.apex[0]) / (down + 0.004 * self.h);
        let channels = value2(u * 5.0, 0.5, fc.seed) - 0.5;
        let fine = value2(u * 17.0, v * 3.0, fc.seed) - 0.5;
        // Coarse, pale debris at the apex; fine at the toe.
        let grit = unit(hash2(x, y, self.seed)) - 0.5;
        // Old surfaces dark with varnish between the channels, fresh pale
        // debris in them; paler toward the toe.
        let channel = smoothstep(0.1, 0.3, channels + 0.3 * fine);
        let v = v.min(1.0);
        let k = 0.78
            + 0.2 * v
            + 0.2 * channel
            + 0.1 * fine
            + 0.14 * self.side * fc.across
            + 0.12 * (1.0 - v) * grit;
        mix(scale(self.fan_lit, k.max(0.2)), self.haze, 0.3 + 0.15 * v)
    }

    /// The rise's colour at pixel `(x, y)` of `row`, `below` pixels under
    /// its crest, with its flank lit by `flank`: the face's light, a bright
    /// rim on the crest, gravel.
    fn rise_color(&self, row: &GravelRow, x: u32, below: f32, flank: f32) -> Linear {
        // Soil in soft streaks along the slope, and grain.
        let px = x as f32 + 0.5;
        let streaks = value2(
            px / (0.06 * self.h),
            row.y as f32 / (0.012 * self.h),
            self.seed,
        ) - 0.5;
        let mut k = flank * (1.0 - 0.2 * smoothstep(0.0, 0.2 * self.h, below))
            + 0.14 * streaks
            + 0.08 * (unit(hash2(x, row.y, self.seed ^ 0x61a)) - 0.5);
        // Gravel: a pebble or none per cell.
        let cx = (px / row.cell) as u32;
        let h = hash2(cx, row.band, self.seed ^ 0x9eb1);
        if self.strewn {
            k *= strewn_gravel(row, px, cx, h, self.seed);
        } else if h & 3 == 0 {
            let ox = (cx as f32 + 0.2 + 0.6 * unit(h >> 2)) * row.cell;
            let oy = row.centre(unit(h >> 12));
            let r = row.cell * (0.12 + 0.1 * unit(h >> 22));
            let (dx, dy) = (px - ox, (row.y as f32 + 0.5 - oy) * 1.6);
            if dx * dx + dy * dy < r * r {
                // Lit on its top, dark below.
                k *= if dy < -0.3 * r { 1.15 } else { 0.7 };
            }
        }
        let rim = math::exp(-below / (0.004 * self.h).max(0.6));
        let color = scale(self.rise_base, k);
        [
            color[0] * (1.0 + (self.rim[0] - 1.0) * rim),
            color[1] * (1.0 + (self.rim[1] - 1.0) * rim),
            color[2] * (1.0 + (self.rim[2] - 1.0) * rim),
        ]
    }

    /// The gravel's cells on row `y`: bands of cells that grow toward
    /// the viewer as the ground under them comes nearer.
    fn gravel_row(&self, y: u32) -> GravelRow {
        let depth = ((y as f32 + 0.5 - self.horizon) / self.h).max(0.01);
        let v = math::ln(depth) * GRAVEL_BANDS;
        let band = v.floor();
        let mid = math::exp((band + 0.5) / GRAVEL_BANDS) * self.h;
        GravelRow {
            y,
            band: band as i32 as u32,
            cell: 0.16 * mid,
            top: self.horizon + math::exp(band / GRAVEL_BANDS) * self.h,
            height: mid * (1.0 - math::exp(-1.0 / GRAVEL_BANDS)),
        }
    }
}

/// The light on the rise's strewn gravel at pixel column `px` of `row`, in
/// its cell `cx` (hashed `h`): up to two pebbles a cell, anywhere in it and
/// of sizes from grit to cobble, each lit on the top and shaded softly
/// below, so that the gravel reads as strewn rather than stamped. 1 off
/// the pebbles.
fn strewn_gravel(row: &GravelRow, px: f32, cx: u32, h: u32, seed: u32) -> f32 {
    let mut k = 1.0;
    for (i, h) in [h, hash2(cx, row.band, seed ^ 0x5c3d)]
        .into_iter()
        .enumerate()
    {
        if h % 5 >= 2 - i as u32 {
            continue;
        }
        let ox = (cx as f32 + unit(h >> 3)) * row.cell;
        let oy = row.top + (0.15 + 0.7 * unit(h >> 11)) * row.height;
        let size = unit(h >> 19);
        let r = row.cell * (0.06 + 0.3 * size * size);
        let (dx, dy) = (px - ox, (row.y as f32 + 0.5 - oy) * 1.6);
        let d = (dx * dx + dy * dy).sqrt() / r;
        if d < 1.0 {
            // From 1.2 on the lit top to 0.75 at the foot, the edge
            // blended over a fifth of the radius.
            let lit = 1.0 - 0.45 * smoothstep(-0.8, 0.9, dy / r);
            let edge = smoothstep(1.0, 0.8, d);
            k *= 1.0 + (1.2 * lit - 1.0) * edge;
        }
    }
    k
}

/// Bands of gravel per factor e of distance below the horizon.
const GRAVEL_BANDS: f32 = 14.0;

/// One row's band of gravel cells (see [`ReliefDraw::gravel_row`]).
struct GravelRow {
    y: u32,
    band: u32,
    /// A cell's width, pixels.
    cell: f32,
    /// The band's top row and height, pixels.
    top: f32,
    height: f32,
}

impl GravelRow {
    /// A pebble's centre row in the band, `t` (0..1) down it.
    fn centre(&self, t: f32) -> f32 {
        self.top + (0.35 + 0.3 * t) * self.height
    }
}

impl Draw for ReliefDraw {
    fn touches(&self, _y0: u32, y1: u32) -> bool {
        let first = [
            self.fan_rows.0,
            self.laid_rows.0,
            if self.wash.is_empty() {
                u32::MAX
            } else {
                self.wash_first
            },
            if self.rise.is_empty() {
                u32::MAX
            } else {
                self.rise_first
            },
        ];
        first.iter().any(|&f| y1 > f)
    }

    fn draw(&self, band: &mut Band) {
        let (x0, x1) = (band.x0, band.x1());
        if x0 >= x1 {
            return;
        }
        let column = |x: u32| (x - self.x0) as usize;
        // The wash, on the ground.
        for y in band.y0.max(self.wash_first)..band.y1() {
            let Some(r) = self.wash.get((y - self.wash_first) as usize) else {
                break;
            };
            let strength = r.strength * self.opacity;
            if strength <= 0.0 || r.half < 0.25 {
                continue;
            }
            let reach = r.half * 1.45 + 1.0;
            let (a, b) = (
                (r.centre - reach).floor().max(x0 as f32) as u32,
                ((r.centre + reach).ceil().max(0.0) as u32).min(x1),
            );
            let soft = 1.0 / r.half;
            // Where the wash is thinner than a few pixels, it is only a
            // pale line.
            let faint = smoothstep(0.25, 2.5, r.half);
            let row = band.row(y);
            for x in a..b {
                let d = (x as f32 + 0.5 - r.centre) / r.half;
                let k = 1.0 + (self.wash_light(r, d, soft) - 1.0) * strength * faint;
                let c = &mut row[(x - x0) as usize];
                *c = scale(*c, k);
            }
        }
        // The fans, over the ranges' foot and the far floor.
        for y in band.y0.max(self.fan_rows.0)..band.y1().min(self.fan_rows.1) {
            let py = y as f32 + 0.5;
            let row = band.row(y);
            for x in x0..x1 {
                let Some(fc) = self.fans[column(x)] else {
                    continue;
                };
                let alpha = if py < self.horizon {
                    (py + 0.5 - fc.top).clamp(0.0, 1.0)
                } else {
                    let s = (py - self.horizon) / fc.toe.max(0.5);
                    1.0 - smoothstep(0.0, 1.0, s)
                };
                if alpha > 0.0 {
                    let over = self.fan_color(&fc, x, y);
                    blend(&mut row[(x - x0) as usize], over, alpha * self.opacity);
                }
            }
        }
        // The fans seen from above, on the ground: each pixel takes the
        // fan it lies deepest in.
        for y in band.y0.max(self.laid_rows.0)..band.y1().min(self.laid_rows.1) {
            let py = y as f32 + 0.5;
            let row = band.row(y);
            for x in x0..x1 {
                let px = x as f32 + 0.5;
                let mut best: Option<(f32, FanColumn)> = None;
                for l in &self.laid {
                    let down = py - l.apex[1];
                    if down <= 0.0 {
                        continue;
                    }
                    let u = (px - l.apex[0]) / (down * l.slope + 0.5);
                    if u.abs() >= 1.0 {
                        continue;
                    }
                    // The toe's arc, its debris thinning out into the
                    // basin's floor, and its sides fading into the next.
                    let reach = l.length * (1.0 - u * u).sqrt();
                    let inside = (1.0 - smoothstep(0.45, 1.0, down / reach.max(1.0)))
                        * (1.0 - smoothstep(0.6, 1.0, u.abs()));
                    if inside <= 0.0 || best.is_some_and(|(b, _)| b >= inside) {
                        continue;
                    }
                    let fc = FanColumn {
                        top: l.apex[1],
                        apex: [l.apex[0], l.apex[1] - 0.02 * self.h],
                        across: u,
                        toe: l.length,
                        seed: l.seed,
                    };
                    best = Some((inside, fc));
                }
                if let Some((inside, fc)) = best {
                    let over = self.fan_color(&fc, x, y);
                    let alpha = inside.min(1.0) * self.lay * self.opacity;
                    blend(&mut row[(x - x0) as usize], over, alpha);
                }
            }
        }
        // The near rise, over everything else of the ground.
        let first = band.y0.max(self.rise_first);
        if self.rise.is_empty() || first >= band.y1() {
            return;
        }
        let shade = self
            .shade
            .as_ref()
            .map(|s| s.samples((x0, x1), (first, band.y1())));
        for y in first..band.y1() {
            let py = y as f32 + 0.5;
            let gravel = self.gravel_row(y);
            let row = band.row(y);
            for x in x0..x1 {
                let top = self.rise[column(x)];
                let cover = (py + 0.5 - top).clamp(0.0, 1.0);
                if cover <= 0.0 {
                    continue;
                }
                let flank = self.flank[column(x)];
                let mut color = self.rise_color(&gravel, x, (py - top).max(0.0), flank);
                if let Some(s) = &shade {
                    color = scale(color, s.at(x, y));
                }
                blend(&mut row[(x - x0) as usize], color, cover * self.opacity);
            }
            // In one ground, the rise hides what stands behind its crest:
            // its face is as near as its crest, or as the flat ground
            // under it, whichever is nearer.
            if let Some(d) = band.depth.as_mut() {
                let start = ((y - band.y0) * band.width) as usize;
                let key = self.rise_key.max(py - self.horizon);
                for x in x0..x1 {
                    let top = self.rise[column(x)];
                    if (py + 0.5 - top) * self.opacity >= 0.5 {
                        d.ground[start + (x - x0) as usize] = key;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
