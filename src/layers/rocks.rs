//! Rocks: the automaton's survivors as stones on the ground.
//!
//! The grid lies on the ground plane in perspective: its columns span the
//! picture's width, its rows run from just below the horizon to the bottom,
//! evenly spaced in depth, so far rows crowd toward the horizon. Each live
//! cell becomes a stone that grows toward the viewer (the original sketch:
//! 30 px far, 50 px near on a 1000 px canvas), jittered in place, size and
//! shape, lit from the sun's side, with a soft contact shadow.
//!
//! Stones are drawn far to near (the grid's row-major order). For the bands,
//! each stone is filed under every band its box meets, in that order, so a
//! band draws exactly the stones that touch it, in the global order.

use rayon::prelude::*;
use serde::Serialize;

use super::{BAND_ROWS, Band, Draw, Frame, Kind, Prepare};
use crate::color::{Linear, Rgb, mix, mul, scale};
use crate::error::Result;
use crate::noise::{Dice, hash2, sub_seed};
use crate::setting::{Roll, Setting, float, other};

/// Settings of the rocks layer. The grid itself comes from the scene's
/// [`crate::scene::Automaton`]. Ranges and precisions: [`Rocks::SETTINGS`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rocks {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Stone diameter on the nearest row, fraction of the height. Range
    /// 0.0005 to 0.3. Default: 0.042.
    pub near_size: f32,
    /// Stone diameter on the farthest row, fraction of the height; the
    /// ratio near / far sets the perspective. Range 0.0005 to 0.3.
    /// Default: 0.022.
    pub far_size: f32,
    /// Gap between the horizon and the farthest row, fraction of the height.
    /// Range 0 to 0.5. Default: 0.02.
    pub top: f32,
    /// Height of the nearest row, fraction of the height from the top (above
    /// 1 is below the picture). Range 0 to 1.5. Default: 0.98.
    pub bottom: f32,
    /// Random displacement of each stone, in stone diameters. Range 0 to 2.
    /// Default: 0.5.
    pub jitter: f32,
    /// Colour of most stones. Default: (116, 116, 108).
    pub primary: Rgb,
    /// Opacity of the primary stones. Range 0 to 1. Default: 0.7.
    pub primary_alpha: f32,
    /// Colour of the other stones. Default: (87, 93, 55), olive.
    pub secondary: Rgb,
    /// Opacity of the secondary stones. Range 0 to 1. Default: 0.9.
    pub secondary_alpha: f32,
    /// Share of stones in the secondary colour. Range 0 to 1. Default: 1/15.
    pub secondary_share: f32,
    /// Strength of the contact shadows. Range 0 to 2. Default: 1.
    pub shadow: f32,
}

impl Default for Rocks {
    fn default() -> Self {
        Rocks {
            visible: true,
            opacity: 1.0,
            near_size: 0.042,
            far_size: 0.022,
            top: 0.02,
            bottom: 0.98,
            jitter: 0.5,
            primary: Rgb(116, 116, 108),
            primary_alpha: 0.7,
            secondary: Rgb(87, 93, 55),
            secondary_alpha: 0.9,
            secondary_share: 1.0 / 15.0,
            shadow: 1.0,
        }
    }
}

impl Kind for Rocks {
    const NAME: &'static str = "rocks";
    const TITLE: &'static str = "Stones";
    const SETTINGS: &'static [Setting<Rocks>] = &[
        super::visible(),
        super::opacity(),
        // Sizes to 1/20000 of the height: a stone of 0.0005 still has 10 steps.
        float!(log "near_size", near_size, 0.0005, 0.3, 20_000, "Near size",
            "Stone size on the nearest row", Roll::Range(0.035, 0.065)),
        float!(log "far_size", far_size, 0.0005, 0.3, 20_000, "Far size",
            "Stone size on the farthest row", Roll::Range(0.018, 0.034)),
        float!(
            "top",
            top,
            0.0,
            0.5,
            1000,
            "Top gap",
            "Gap between the horizon and the farthest stones",
            Roll::Keep
        ),
        float!(
            "bottom",
            bottom,
            0.0,
            1.5,
            1000,
            "Nearest row",
            "Where the nearest row sits",
            Roll::Keep
        ),
        float!(
            "jitter",
            jitter,
            0.0,
            2.0,
            1000,
            "Jitter",
            "Random offset of each stone",
            Roll::Range(0.25, 0.7)
        ),
        other!(
            Rgb,
            "primary",
            primary,
            "Stone colour",
            "Colour of most stones",
            Roll::Keep
        ),
        float!(
            "primary_alpha",
            primary_alpha,
            0.0,
            1.0,
            1000,
            "Stone alpha",
            "Opacity of the common stones",
            Roll::Keep
        ),
        other!(
            Rgb,
            "secondary",
            secondary,
            "Second colour",
            "Colour of the other stones",
            Roll::Keep
        ),
        float!(
            "secondary_alpha",
            secondary_alpha,
            0.0,
            1.0,
            1000,
            "Second alpha",
            "Opacity of the other stones",
            Roll::Keep
        ),
        // 1/3000, so that the default 1/15 is exact.
        float!(
            "secondary_share",
            secondary_share,
            0.0,
            1.0,
            3000,
            "Second share",
            "Share of stones in the second colour",
            Roll::Range(0.03, 0.15)
        ),
        float!(
            "shadow",
            shadow,
            0.0,
            2.0,
            1000,
            "Shadow",
            "Contact shadows under the stones",
            Roll::Keep
        ),
    ];

    fn common(&self) -> (bool, f32) {
        (self.visible, self.opacity)
    }

    fn common_mut(&mut self) -> (&mut bool, &mut f32) {
        (&mut self.visible, &mut self.opacity)
    }
}

impl Prepare for Rocks {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_stones(frame)?))
    }
}

impl Rocks {
    fn prepare_stones(&self, f: &Frame) -> Result<RocksDraw> {
        let grid = f.grid;
        let (cols, rows) = (grid.width(), grid.height());
        let p = &f.palette;
        let seed = sub_seed(f.seed, 300);
        let light = p.light;
        // Shadows fall away from the sun, longer when it is low.
        let flat = (light[0] * light[0] + light[2] * light[2]).sqrt().max(1e-3);
        let (sx, sz) = (-light[0] / flat, -light[2] / flat);
        let len = (flat / light[1].max(0.12)).clamp(0.35, 2.5);
        let depth = self.near_size / self.far_size;
        let y_far = f.horizon_frac + self.top;
        let span = self.bottom - y_far;
        // The stone colours are the original sketch's translucent colours
        // laid over the sand, made opaque: the same flat colour, but solid
        // stones that shade and overlap cleanly.
        let sand = f.ground;
        let colors = [
            mix(sand, self.primary.linear(), self.primary_alpha),
            mix(sand, self.secondary.linear(), self.secondary_alpha),
        ];
        let lighting = Lighting {
            direct: p.direct,
            ambient: p.ambient,
            bounce: scale(mul(sand, p.ground), 0.35),
            light,
        };
        let secondary = (f64::from(self.secondary_share) * f64::from(u32::MAX)) as u64;
        // Stones row by row (far to near), not flattened: no copying.
        let stones: Vec<Vec<Stone>> = (0..rows)
            .into_par_iter()
            .map(|r| {
                // Rows evenly spaced in depth: screen height and size go as
                // 1 / depth, normalized so the far row sits at y_far.
                let t = (r as f32 + 0.5) / rows as f32;
                let (s, norm) = if (depth - 1.0).abs() < 1e-3 {
                    (1.0, t)
                } else {
                    let s = 1.0 / (depth + (1.0 - depth) * t);
                    (s, (s - 1.0 / depth) / (1.0 - 1.0 / depth))
                };
                let y = (y_far + span * norm) * f.h;
                let d = self.near_size * s * f.h;
                let r32 = r as u32;
                live_in_row(grid, r)
                    .filter_map(|c| {
                        let mut dice = Dice::new(hash2(c as u32, r32, seed));
                        let x = (c as f32 + 0.5) / cols as f32 * f.w
                            + self.jitter * d * dice.signed() * 0.5;
                        let y = y + self.jitter * d * dice.signed() * 0.18;
                        // No stones where a tent is pitched.
                        let cleared = f.clearings.iter().any(|c| {
                            let (u, v) = (
                                (x / f.h - c.x) / (c.rx + 0.4 * d / f.h),
                                (y / f.h - c.y) / (c.ry + 0.3 * d / f.h),
                            );
                            u * u + v * v < 1.0
                        });
                        if cleared {
                            return None;
                        }
                        let size = d * (0.6 + 0.7 * dice.unit());
                        let rx = 0.5 * size;
                        let ry = rx * (0.6 + 0.3 * dice.unit());
                        let pick = u64::from(dice.bits()) < secondary;
                        let tone = 0.8 + 0.4 * dice.unit();
                        let warm = 0.08 * dice.signed();
                        let base = colors[usize::from(pick)];
                        let albedo = [
                            base[0] * tone * (1.0 + warm),
                            base[1] * tone,
                            base[2] * tone * (1.0 - warm),
                        ];
                        let rx_left = rx * (0.8 + 0.4 * dice.unit());
                        let rx_right = rx * (0.8 + 0.4 * dice.unit());
                        let ry_top = ry * (1.0 + 0.5 * dice.unit());
                        let shear = 0.35 * dice.signed();
                        let texture = dice.bits();
                        let facets = Facets::new(&lighting, albedo, &mut dice);
                        Some(Stone::new(StoneShape {
                            x,
                            y,
                            rx_left,
                            rx_right,
                            ry_top,
                            ry_bottom: ry * 0.4,
                            shear,
                            facets,
                            shadow: (sx * len, sz * len),
                            texture,
                        }))
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let bands = (f.height as usize).div_ceil(BAND_ROWS as usize);
        let index = BandIndex::new(&stones, bands);
        Ok(RocksDraw {
            opacity: self.opacity,
            stones,
            index,
            shadow: p.shadow * self.shadow,
            width: f.width,
        })
    }

    /// Number of stones the layer draws in `frame`: its live cells, less
    /// those on ground cleared for a tent.
    pub(crate) fn stone_count(&self, frame: &Frame) -> Result<usize> {
        Ok(self
            .prepare_stones(frame)?
            .stones
            .iter()
            .map(Vec::len)
            .sum())
    }
}

/// The live columns of row `r`, west to east.
fn live_in_row(grid: &crate::life::BitGrid, r: usize) -> impl Iterator<Item = usize> + '_ {
    grid.row(r).iter().enumerate().flat_map(|(i, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                i * 64 + b
            })
        })
    })
}

/// The light falling on the stones.
struct Lighting {
    direct: Linear,
    ambient: Linear,
    /// Light bounced up from the sand.
    bounce: Linear,
    light: [f32; 3],
}

impl Lighting {
    /// Colour of a flat facet of `albedo` facing `n` (unit: x right, y up,
    /// z toward the viewer).
    fn facet(&self, albedo: Linear, n: [f32; 3]) -> Linear {
        let l = self.light;
        let lambert = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]).max(0.0);
        let up = 0.5 + 0.5 * n[1];
        let mut c = [0.0; 3];
        for i in 0..3 {
            c[i] = albedo[i]
                * (self.direct[i] * lambert + self.ambient[i] * up + self.bounce[i] * (1.0 - up));
        }
        c
    }
}

/// A stone's three flat faces (top, left, right), lit once per stone, and
/// where they meet, in the stone's unit coordinates.
struct Facets {
    top: Linear,
    left: Linear,
    right: Linear,
    /// The top face ends at `nv = ridge + tilt * nu`.
    ridge: f32,
    tilt: f32,
    /// Left and right faces meet at `nu = split + lean * nv`.
    split: f32,
    lean: f32,
}

impl Facets {
    fn new(lighting: &Lighting, albedo: Linear, dice: &mut Dice) -> Facets {
        let norm = |v: [f32; 3]| {
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            [v[0] / n, v[1] / n, v[2] / n]
        };
        let top = norm([0.35 * dice.signed(), 1.0, 0.35 + 0.4 * dice.unit()]);
        let left = norm([-0.85 - 0.3 * dice.unit(), 0.25 + 0.3 * dice.unit(), 0.55]);
        let right = norm([0.85 + 0.3 * dice.unit(), 0.25 + 0.3 * dice.unit(), 0.55]);
        Facets {
            top: lighting.facet(albedo, top),
            left: lighting.facet(albedo, left),
            right: lighting.facet(albedo, right),
            ridge: -0.15 + 0.15 * dice.signed(),
            tilt: 0.35 * dice.signed(),
            split: 0.25 * dice.signed(),
            lean: 0.4 * dice.signed(),
        }
    }
}

/// Where and how a stone is, in pixels.
struct StoneShape {
    x: f32,
    y: f32,
    rx_left: f32,
    rx_right: f32,
    ry_top: f32,
    ry_bottom: f32,
    shear: f32,
    facets: Facets,
    /// Shadow direction on screen times its length, in stone radii.
    shadow: (f32, f32),
    texture: u32,
}

/// A stone ready to rasterize: an egg-shaped outline made of four quarter
/// ellipses (so it can be lopsided and flat-bottomed), sheared, with three
/// lit faces, plus the ellipse of its contact shadow.
struct Stone {
    x: f32,
    y: f32,
    /// 1 / radius: left, right, top, bottom.
    inv: [f32; 4],
    shear: f32,
    facets: Facets,
    /// Faces' blend across the row and down the column: stone units to
    /// blend fractions (pixels over a slightly rounded edge).
    side_k: f32,
    top_k: f32,
    /// Outline anti-aliasing: coverage is `0.5 - (f - 1) * aa` where `f` is
    /// the squared normalized radius (first-order distance in pixels), so
    /// it is 1 inside `f < inner2` and 0 outside `f > outer2`.
    aa: f32,
    inner2: f32,
    outer2: f32,
    /// Shadow centre and 1 / radii.
    sx: f32,
    sy: f32,
    sinv: [f32; 2],
    texture: u32,
    /// Box in pixels: x0, y0, x1, y1 (x1, y1 excluded; may be negative or
    /// past the picture, clipped when drawn).
    bbox: [i32; 4],
}

impl Stone {
    fn new(s: StoneShape) -> Stone {
        let rx = 0.5 * (s.rx_left + s.rx_right);
        let ry = s.ry_top.max(s.ry_bottom);
        let sx = s.x + s.shadow.0 * rx * 0.55;
        let sy = s.y + s.ry_bottom * 0.4 + s.shadow.1.abs() * ry * 0.25;
        let srx = rx * (1.05 + 0.45 * s.shadow.0.abs());
        let sry = ry * 0.55 + s.ry_bottom * 0.5;
        let reach_x = s.rx_left.max(s.rx_right) + s.shear.abs() * ry + 1.5;
        let x0 = (s.x - reach_x).min(sx - srx) - 1.0;
        let x1 = (s.x + reach_x).max(sx + srx) + 1.0;
        let y0 = s.y - s.ry_top - 1.5;
        let y1 = (s.y + s.ry_bottom + 1.5).max(sy + sry + 1.0);
        let soft = (0.12 * ry).max(0.7);
        let r_eff = (rx * 0.5 * (s.ry_top + s.ry_bottom)).sqrt();
        let aa = 0.5 * r_eff.max(0.25);
        Stone {
            x: s.x,
            y: s.y,
            inv: [
                1.0 / s.rx_left.max(0.05),
                1.0 / s.rx_right.max(0.05),
                1.0 / s.ry_top.max(0.05),
                1.0 / s.ry_bottom.max(0.05),
            ],
            shear: s.shear,
            facets: s.facets,
            side_k: 0.5 * (s.rx_left + s.rx_right) / soft,
            top_k: s.ry_top / soft,
            aa,
            inner2: (1.0 - 0.5 / aa).max(0.0),
            outer2: 1.0 + 0.5 / aa,
            sx,
            sy,
            sinv: [1.0 / srx.max(0.05), 1.0 / sry.max(0.05)],
            texture: s.texture,
            bbox: [
                x0.floor() as i32,
                y0.floor() as i32,
                x1.ceil() as i32,
                y1.ceil() as i32,
            ],
        }
    }
}

/// Stones filed by band, in drawing order (compressed rows:
/// `start[b]..start[b+1]` of `ids` are band `b`'s stones, each as its grid
/// row and its place in that row).
struct BandIndex {
    start: Vec<u32>,
    ids: Vec<(u32, u32)>,
}

impl BandIndex {
    fn new(rows: &[Vec<Stone>], bands: usize) -> BandIndex {
        let range = |s: &Stone| {
            let b0 = (s.bbox[1].max(0) as u32 / BAND_ROWS) as usize;
            let b1 = ((s.bbox[3].max(0) as u32).saturating_sub(1) / BAND_ROWS) as usize;
            (b0, b1.min(bands.saturating_sub(1)))
        };
        let mut count = vec![0u32; bands + 1];
        for s in rows.iter().flatten() {
            let (b0, b1) = range(s);
            for c in count.iter_mut().take(b1 + 1).skip(b0) {
                *c += 1;
            }
        }
        let mut start = vec![0u32; bands + 1];
        for b in 0..bands {
            start[b + 1] = start[b] + count[b];
        }
        let mut fill = start.clone();
        let mut ids = vec![(0u32, 0u32); start[bands] as usize];
        for (r, row) in rows.iter().enumerate() {
            for (i, s) in row.iter().enumerate() {
                let (b0, b1) = range(s);
                for f in fill.iter_mut().take(b1 + 1).skip(b0) {
                    ids[*f as usize] = (r as u32, i as u32);
                    *f += 1;
                }
            }
        }
        BandIndex { start, ids }
    }

    fn band(&self, b: usize) -> &[(u32, u32)] {
        match (self.start.get(b), self.start.get(b + 1)) {
            (Some(&s), Some(&e)) => &self.ids[s as usize..e as usize],
            _ => &[],
        }
    }
}

/// The rocks prepared for one picture.
pub(crate) struct RocksDraw {
    opacity: f32,
    stones: Vec<Vec<Stone>>,
    index: BandIndex,
    shadow: f32,
    width: u32,
}

impl Draw for RocksDraw {
    fn draw(&self, band: &mut Band) {
        for &(r, i) in self.index.band(band.index) {
            self.draw_stone(&self.stones[r as usize][i as usize], band);
        }
    }
}

impl RocksDraw {
    fn draw_stone(&self, s: &Stone, band: &mut Band) {
        let y0 = s.bbox[1].max(band.y0 as i32) as u32;
        let y1 = s.bbox[3].min(band.y1() as i32).max(0) as u32;
        let width = self.width as f32;
        let op = self.opacity;
        let shadow = self.shadow * op;
        let fc = &s.facets;
        // Columns [a, b) of the picture covered by `lo..hi` (pixel units).
        // (Truncation on values clamped to 0 or more, not `ceil`/`floor`,
        // which are library calls on baseline x86-64.)
        let span = |lo: f32, hi: f32| -> (usize, usize) {
            let lo = (lo - 0.5).clamp(0.0, width);
            let a = lo as usize + usize::from((lo as usize as f32) < lo);
            let b = ((hi + 0.5).clamp(0.0, width) as usize).min(width as usize);
            (a, b.max(a))
        };
        for y in y0..y1 {
            let py = y as f32 + 0.5;
            let row = band.row(y);
            // Contact shadow: a soft ellipse, darkest at its centre.
            let sdy = (py - s.sy) * s.sinv[1];
            let sdy2 = sdy * sdy;
            if sdy2 < 1.0 {
                let half = (1.0 - sdy2).sqrt() / s.sinv[0];
                let (a, b) = span(s.sx - half, s.sx + half);
                let mut sdx = (a as f32 + 0.5 - s.sx) * s.sinv[0];
                for c in &mut row[a..b] {
                    let g = (sdx * sdx + sdy2).min(1.0);
                    let k = (1.0 - g) * shadow;
                    let m = 1.0 - k * (0.3 + 0.45 * (1.0 - g) * (1.0 - g));
                    c[0] *= m;
                    c[1] *= m;
                    c[2] *= m * 1.03;
                    sdx += s.sinv[0];
                }
            }
            // The stone.
            let dy = py - s.y;
            let nv = dy * if dy < 0.0 { s.inv[2] } else { s.inv[3] };
            let nv2 = nv * nv;
            if nv2 >= s.outer2 {
                continue;
            }
            let reach = (s.outer2 - nv2).sqrt();
            let cx = s.x - s.shear * dy;
            let (a, b) = span(cx - reach / s.inv[0], cx + reach / s.inv[1]);
            // Terms of the row: darker toward the ground; where the faces
            // meet along it (blend = row term + per-pixel slope × nu).
            let ao = 1.0 - 0.45 * crate::noise::smoothstep(-0.1, 1.0, nv);
            let side0 = 0.5 - (fc.split + fc.lean * nv) * s.side_k;
            let top0 = 0.5 + (fc.ridge - nv) * s.top_k;
            let top_nu = fc.tilt * s.top_k;
            let tile = crate::noise::noise_tile();
            let side_len = crate::noise::TILE_SIDE;
            let grain_row = &tile
                [((y as usize).wrapping_add(s.texture as usize) & (side_len - 1)) * side_len..]
                [..side_len];
            let grain_shift = (s.texture >> 8) as usize;
            for (k, c) in row[a..b].iter_mut().enumerate() {
                let x = a + k;
                let dx = x as f32 + 0.5 - cx;
                let nu = dx * if dx < 0.0 { s.inv[0] } else { s.inv[1] };
                let f = nu * nu + nv2;
                if f >= s.outer2 {
                    continue;
                }
                let cov = if f <= s.inner2 {
                    1.0
                } else {
                    (0.5 - (f - 1.0) * s.aa).clamp(0.0, 1.0)
                };
                let side = (side0 + nu * s.side_k).clamp(0.0, 1.0);
                let top = (top0 + nu * top_nu).clamp(0.0, 1.0);
                // Rounded off toward the outline, and a little grit.
                let round = 1.0 - 0.2 * f.min(1.0);
                let grit = 1.0 + 0.08 * grain_row[(x + grain_shift) & (side_len - 1)];
                let shade = ao * grit * round;
                let a = cov * op;
                for (i, ci) in c.iter_mut().enumerate() {
                    let sides = fc.left[i] + (fc.right[i] - fc.left[i]) * side;
                    let v = (sides + (fc.top[i] - sides) * top) * shade;
                    *ci += (v - *ci) * a;
                }
            }
        }
    }
}
