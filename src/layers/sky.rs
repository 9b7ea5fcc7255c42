//! The sky: a zenith-to-horizon gradient, the sun or moon with its glow, and
//! seeded stars at night.

use serde::Serialize;

use super::{Band, Draw, Frame, Kind, Prepare, blend};
use crate::base::color::{Linear, add, scale};
use crate::base::math;
use crate::base::noise::{hash2, smoothstep, sub_seed, unit, value2};
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

/// Most stars in a sky.
pub const MAX_STARS: u32 = 20_000;

/// Settings of the sky layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sky {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Whether the sun (or, at night, the moon) disc is drawn. Default: true.
    pub sun: bool,
    /// Radius of the disc, fraction of the height. Range 0 to 0.2.
    /// Default: 0.026.
    pub sun_size: f32,
    /// Strength of the glow around the disc. Range 0 to 4. Default: 1.
    pub glow: f32,
    /// Number of stars (seen at night, faintly at dusk). Range 0 to
    /// [`MAX_STARS`]. Default: 1500.
    pub stars: u32,
    /// Brightness of the Milky Way band at night. Range 0 to 2. Default: 1.
    pub milky_way: f32,
}

impl Default for Sky {
    fn default() -> Self {
        Sky {
            visible: true,
            opacity: 1.0,
            sun: true,
            sun_size: 0.026,
            glow: 1.0,
            stars: 1500,
            milky_way: 1.0,
        }
    }
}

impl Kind for Sky {
    const NAME: &'static str = "sky";
    const TITLE: &'static str = "Sky";
    const SETTINGS: &'static [Setting<Sky>] = &[
        super::visible(),
        super::opacity(),
        other!(
            Bool,
            "sun",
            sun,
            "Sun / moon",
            "Draw the sun (or, at night, the moon) disc"
        ),
        float!(
            "sun_size",
            sun_size,
            0.0,
            0.2,
            10_000,
            "Disc size",
            "Radius of the disc",
            Roll::Range(0.016, 0.04)
        ),
        float!(
            "glow",
            glow,
            0.0,
            4.0,
            1000,
            "Glow",
            "Glow around the disc",
            Roll::Range(0.6, 1.6)
        ),
        uint!(log "stars", stars, 0, MAX_STARS, "Stars", "Stars at night (faint at dusk)",
            Roll::Range(600, 4000)),
        float!(
            "milky_way",
            milky_way,
            0.0,
            2.0,
            1000,
            "Milky Way",
            "Brightness of the Milky Way at night",
            Roll::Range(0.4, 1.4)
        ),
    ];

    super::common_settings!();
}

impl Prepare for Sky {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

impl Sky {
    fn prepare_draw(&self, f: &Frame) -> SkyDraw {
        let p = &f.palette;
        let horizon = f.horizon.max(1.0);
        let rows = (0..f.height)
            .map(|y| p.sky(((y as f32 + 0.5) / horizon).min(1.0)))
            .collect();
        let (cx, cy) = (f.sun_x * f.w, p.sun_y * f.h);
        let glow = (self.glow > 0.0).then(|| {
            // A longer lens draws the sun, its glow and the moon larger.
            let r = p.glow_radius * f.h * f.world.zoom;
            let lut = (0..GLOW_LUT)
                .map(|i| {
                    let q = i as f32 / (GLOW_LUT - 1) as f32;
                    let d = q.sqrt() * 4.0;
                    let core = 1.0 / (1.0 + d * d * 60.0);
                    let broad = math::exp(-d * d);
                    (0.7 * broad + 0.6 * core) * (1.0 - q) * (1.0 - q) * self.glow
                })
                .collect();
            Glow {
                cx,
                cy,
                r2: r * r,
                color: p.glow,
                lut,
            }
        });
        let disc = (self.sun && self.sun_size > 0.0).then(|| Disc {
            cx,
            cy,
            r: self.sun_size * f.h * f.world.zoom,
            color: p.disc,
            moon: p.moon,
            seed: sub_seed(f.seed, 11),
        });
        let milky_way = (p.stars > 0.9 && self.milky_way > 0.0).then(|| MilkyWay {
            strength: self.milky_way,
            seed: sub_seed(f.seed, 13),
            start: 0.02 + 0.12 * unit(sub_seed(f.seed, 14)),
            end: f.horizon_frac * (0.55 + 0.3 * unit(sub_seed(f.seed, 15))),
            color: scale(crate::base::color::Rgb(150, 160, 200).linear(), 0.14),
        });
        let stars = stars(self, f, milky_way.as_ref());
        SkyDraw {
            opacity: self.opacity,
            rows,
            glow,
            disc,
            stars,
            milky_way,
            horizon,
            h: f.h,
            w: f.w,
        }
    }
}

/// Entries of the glow profile table, indexed by squared distance.
const GLOW_LUT: usize = 1024;

/// Seeded stars, sorted by their first row.
fn stars(sky: &Sky, f: &Frame, milky_way: Option<&MilkyWay>) -> Vec<Star> {
    let vis = f.palette.stars;
    if vis <= 0.0 || sky.stars == 0 {
        return Vec::new();
    }
    let seed = sub_seed(f.seed, 12);
    // Size in scene units; below 0.7 px the star is drawn 0.7 px wide with
    // the same energy, so it looks the same at every resolution.
    let sigma_scene = 0.0006;
    let sigma_px = sigma_scene * f.h;
    let sigma = sigma_px.max(0.7);
    let energy = (sigma_px / sigma).powi(2);
    let mut out: Vec<Star> = (0..sky.stars)
        .filter_map(|i| {
            let h = |k: u32| unit(hash2(i, k, seed));
            let (mut x, mut y) = (h(0), h(1) * f.horizon_frac);
            if let Some(mw) = milky_way {
                // Half the stars crowd toward the Milky Way's band.
                if h(5) < 0.5 {
                    let along = h(6);
                    let across = (h(7) - 0.5) * (h(8) * 0.12);
                    x = along;
                    y = mw.centre(along) + across;
                    if !(0.0..f.horizon_frac).contains(&y) {
                        return None;
                    }
                }
            }
            let fade = smoothstep(0.0, 0.45, 1.0 - y / f.horizon_frac);
            let b = (0.03 + 0.9 * h(2).powi(8)) * vis * fade * 2.5 * energy;
            if b < 0.002 {
                return None;
            }
            let warm = h(3);
            let tint = [0.85 + 0.3 * warm, 0.92, 1.15 - 0.3 * warm];
            let (px, py) = (x * f.w, y * f.h);
            let reach = (sigma * 3.0).ceil();
            Some(Star {
                x: px,
                y: py,
                inv2s2: 1.0 / (2.0 * sigma * sigma),
                color: scale(tint, b),
                y0: (py - reach).max(0.0) as u32,
                y1: (py + reach + 1.0).max(0.0) as u32,
                x0: (px - reach).max(0.0) as u32,
                x1: ((px + reach + 1.0).max(0.0) as u32).min(f.width),
            })
        })
        .collect();
    out.sort_by_key(|s| s.y0);
    out
}

struct Glow {
    cx: f32,
    cy: f32,
    r2: f32,
    color: Linear,
    lut: Vec<f32>,
}

struct Disc {
    cx: f32,
    cy: f32,
    r: f32,
    color: Linear,
    moon: bool,
    seed: u32,
}

struct Star {
    x: f32,
    y: f32,
    inv2s2: f32,
    color: Linear,
    y0: u32,
    y1: u32,
    x0: u32,
    x1: u32,
}

/// A faint band of light across the night sky.
struct MilkyWay {
    strength: f32,
    seed: u32,
    /// Height of the band's centre at the left edge, fraction of the height.
    start: f32,
    /// Height of the band's centre at the right edge.
    end: f32,
    color: Linear,
}

impl MilkyWay {
    /// The band's centre height (fraction of height) at `x` (fraction of width).
    fn centre(&self, x: f32) -> f32 {
        // A gentle arc from high on the left to low on the right.
        self.start + (self.end - self.start) * x - 0.12 * x * (1.0 - x)
    }
}

/// The sky prepared for one picture.
pub(crate) struct SkyDraw {
    opacity: f32,
    /// Gradient colour of each row.
    rows: Vec<Linear>,
    glow: Option<Glow>,
    disc: Option<Disc>,
    stars: Vec<Star>,
    milky_way: Option<MilkyWay>,
    horizon: f32,
    h: f32,
    w: f32,
}

impl Draw for SkyDraw {
    fn covers(&self, _y0: u32, _y1: u32) -> bool {
        self.opacity >= 1.0
    }

    fn draw(&self, band: &mut Band) {
        let op = self.opacity;
        let bx0 = band.x0;
        for y in band.y0..band.y1() {
            let base = self.rows[y as usize];
            let row = band.row(y);
            if op >= 1.0 {
                row.fill(base);
            } else {
                for c in row.iter_mut() {
                    blend(c, base, op);
                }
            }
            let py = y as f32 + 0.5;
            if let Some(mw) = &self.milky_way
                && py < self.horizon
            {
                let sy = py / self.h;
                for (x, c) in (bx0..).zip(row.iter_mut()) {
                    let sx = (x as f32 + 0.5) / self.w;
                    let d = (sy - mw.centre(sx)) / 0.09;
                    if d.abs() >= 1.0 {
                        continue;
                    }
                    let across = (1.0 - d * d) * (1.0 - d * d);
                    let clouds = value2(sx * 14.0, sy * 14.0, mw.seed) * 0.6
                        + value2(sx * 40.0, sy * 40.0, mw.seed ^ 1) * 0.4;
                    let dark_lane = 1.0
                        - 0.7 * smoothstep(0.15, 0.0, d.abs()) * value2(sx * 9.0, 1.0, mw.seed ^ 2);
                    let fade = smoothstep(0.0, 0.3, 1.0 - sy / (self.horizon / self.h));
                    let k = across * clouds * dark_lane * fade * mw.strength * op;
                    *c = add(*c, scale(mw.color, k));
                }
            }
            if let Some(g) = &self.glow {
                let dy = py - g.cy;
                let dy2 = dy * dy;
                if dy2 < g.r2 {
                    let half = (g.r2 - dy2).sqrt();
                    let (x0, x1) = band.clip(
                        (g.cx - half).max(0.0) as u32,
                        (g.cx + half + 1.0).max(0.0) as u32,
                    );
                    let row = band.row(y);
                    let k = (GLOW_LUT - 1) as f32 / g.r2;
                    for x in x0..x1 {
                        let dx = x as f32 + 0.5 - g.cx;
                        let q = ((dx * dx + dy2) * k) as usize;
                        if q < GLOW_LUT {
                            let v = g.lut[q] * op;
                            let c = &mut row[(x - bx0) as usize];
                            c[0] += g.color[0] * v;
                            c[1] += g.color[1] * v;
                            c[2] += g.color[2] * v;
                        }
                    }
                }
            }
            if let Some(d) = &self.disc {
                let dy = py - d.cy;
                if dy.abs() < d.r + 1.0 {
                    let half = ((d.r + 1.0).powi(2) - dy * dy).max(0.0).sqrt();
                    let (x0, x1) = band.clip(
                        (d.cx - half).max(0.0) as u32,
                        (d.cx + half + 1.0).max(0.0) as u32,
                    );
                    let row = band.row(y);
                    for x in x0..x1 {
                        let dx = x as f32 + 0.5 - d.cx;
                        let dist = (dx * dx + dy * dy).sqrt();
                        let cov = (d.r - dist + 0.5).clamp(0.0, 1.0);
                        if cov <= 0.0 {
                            continue;
                        }
                        let mut col = d.color;
                        if d.moon {
                            let rr = (dist / d.r).min(1.0);
                            let limb = 0.75 + 0.25 * (1.0 - rr * rr).sqrt();
                            let (u, v) = (dx / d.r, dy / d.r);
                            let maria = value2(u * 2.2 + 5.0, v * 2.2 + 5.0, d.seed);
                            let k = limb * (1.0 - 0.22 * smoothstep(0.45, 0.75, maria));
                            col = scale(col, k);
                        }
                        blend(&mut row[(x - bx0) as usize], col, cov * op);
                    }
                }
            }
        }
        // Stars: only those whose rows meet the band (sorted by first row).
        let end = self.stars.partition_point(|s| s.y0 < band.y1());
        for s in &self.stars[..end] {
            if s.y1 <= band.y0 {
                continue;
            }
            let (x0, x1) = band.clip(s.x0, s.x1);
            if x0 >= x1 {
                continue;
            }
            for y in s.y0.max(band.y0)..s.y1.min(band.y1()) {
                let dy = y as f32 + 0.5 - s.y;
                let gy = math::exp(-dy * dy * s.inv2s2) * op;
                let row = band.row(y);
                for x in x0..x1 {
                    let dx = x as f32 + 0.5 - s.x;
                    let g = math::exp(-dx * dx * s.inv2s2) * gy;
                    let c = &mut row[(x - bx0) as usize];
                    *c = add(*c, scale(s.color, g));
                }
            }
        }
    }
}
