//! The desert floor: the plain from the horizon down, hazy and pale far
//! away, darker and warmer toward the viewer, with seeded patches and grain.

use serde::Serialize;

use super::{Band, Draw, Frame, Kind, Prepare};
use crate::base::color::{Linear, Rgb, mix, mul, scale};
use crate::base::math;
use crate::base::noise::{hash2, hash32, smoothstep, sub_seed, unit, value2};
use crate::base::palette::LOOK_SAND;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other};

/// Settings of the desert floor layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Floor {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Colour of the ground in full light. Default: (218, 198, 160), pale sand.
    pub color: Rgb,
    /// How much darker and warmer the ground gets toward the viewer.
    /// Range 0 to 1. Default: 0.5.
    pub warmth: f32,
    /// Strength of the fine per-pixel grain. Range 0 to 0.5. Default: 0.05.
    pub grain: f32,
    /// Strength of the large seeded patches (desert pavement, dry washes).
    /// Range 0 to 1. Default: 0.3.
    pub patches: f32,
    /// Strength of the polygon cracks of a dried crust (salt pans, mud
    /// flats). Range 0 to 1. Default: 0.
    pub cracks: f32,
    /// Strength of the mirage on a hot floor: a band just below the
    /// horizon showing the sky mirrored, shimmering (gone at night). Range
    /// 0 to 1. Default: 0 (since share-code format 5; left out of RON at 0).
    #[serde(skip_serializing_if = "crate::setting::is_zero")]
    pub mirage: f32,
}

impl Default for Floor {
    fn default() -> Self {
        Floor {
            visible: true,
            opacity: 1.0,
            color: Rgb(218, 198, 160),
            warmth: 0.5,
            grain: 0.05,
            patches: 0.3,
            cracks: 0.0,
            mirage: 0.0,
        }
    }
}

/// The colour of the sand under the rocks and the tent: the first floor
/// layer's, else the default floor's.
pub(crate) fn ground_albedo(layers: &[super::Layer]) -> Linear {
    layers
        .iter()
        .find_map(|l| match l {
            super::Layer::Floor(f) => Some(f.color),
            _ => None,
        })
        .unwrap_or(Floor::default().color)
        .linear()
}

/// Sand colours New scene picks from (sRGB).
const SANDS: &[Rgb] = &[
    Rgb(218, 198, 160),
    Rgb(226, 206, 170),
    Rgb(210, 184, 146),
    Rgb(200, 176, 140),
    Rgb(230, 214, 186),
    Rgb(214, 190, 156),
];

impl Kind for Floor {
    const NAME: &'static str = "floor";
    const TITLE: &'static str = "Floor";
    const SETTINGS: &'static [Setting<Floor>] = &[
        super::visible(),
        super::opacity(),
        other!(
            Rgb,
            "color",
            color,
            "Sand colour",
            "Colour of the sand",
            Roll::Pick(SANDS)
        ),
        float!(
            "warmth",
            warmth,
            0.0,
            1.0,
            1000,
            "Warmth",
            "Darker and warmer toward the viewer",
            Roll::Range(0.2, 0.8)
        ),
        float!(
            "grain",
            grain,
            0.0,
            0.5,
            1000,
            "Grain",
            "Fine grain of the ground",
            Roll::Range(0.02, 0.08)
        ),
        float!(
            "patches",
            patches,
            0.0,
            1.0,
            1000,
            "Patches",
            "Large patches of desert pavement",
            Roll::Range(0.1, 0.5)
        ),
        float!(
            "cracks",
            cracks,
            0.0,
            1.0,
            1000,
            "Cracks",
            "Polygon cracks of a dried crust (salt pans, mud flats)",
            Roll::Pick(&[0.0, 0.0, 0.0, 0.3, 0.6])
        ),
        float!(
            "mirage",
            mirage,
            0.0,
            1.0,
            1000,
            "Mirage",
            "The sky mirrored in a shimmering band below the horizon, on a hot floor",
            Roll::Pick(&[0.0, 0.0, 0.0, 0.0, 0.4, 0.7]),
            since 5
        ),
    ];

    super::common_settings!();
}

impl Prepare for Floor {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

impl Floor {
    fn prepare_draw(&self, f: &Frame) -> FloorDraw {
        let p = &f.palette;
        let lit = mul(p.albedo(self.color.linear()), p.ground);
        let warm = mix([1.0, 1.0, 1.0], [0.78, 0.6, 0.46], self.warmth);
        let first = f.horizon.floor().max(0.0) as u32;
        let depth = (f.h - f.horizon).max(1.0);
        // A mirage needs a hot floor: none once the stars are out.
        let day = 1.0 - p.stars.clamp(0.0, 1.0);
        let haze_glare = scale(p.horizon, 1.08);
        // The ground's depth at a row follows the eye: from higher up, a
        // row lies farther off and its cracks and patches are smaller.
        let eye = f.world.eye;
        // The patches are the ground's mottling at every scale: from
        // higher up, larger patches (a pan's salt and mud, a fan's
        // gravels) take the place of the small ones, so the ground keeps
        // a texture seen from an overlook. As before at the default eye.
        let patch_eye = if eye == super::world::EYE {
            eye
        } else {
            super::world::EYE * math::powf(eye / super::world::EYE, 0.3)
        };
        // From the second look, the patches are plainer the higher the
        // eye, so that the ground seen from a rise or an overlook keeps its
        // texture (the forms a standing eye sees in pebbles).
        let lift = if p.look >= LOOK_SAND && eye > super::world::EYE {
            1.0 + 0.6 * math::ln(eye / super::world::EYE) / std::f32::consts::LN_10
        } else {
            1.0
        };
        let rows = (first..f.height)
            .map(|y| {
                let py = y as f32 + 0.5;
                // Distance below the horizon, scene units, and 0..1 down the floor.
                let dy = ((py - f.horizon) / f.h).max(1e-4);
                let t = ((py - f.horizon) / depth).clamp(0.0, 1.0);
                let hz = 0.32 * (1.0 - smoothstep(0.0, 0.1, dy));
                let near = math::powf(t, 1.6);
                // Far ground fades toward the sky's horizon, warmed by the sand.
                let haze = mix(p.horizon, lit, 0.3);
                let mut color = mix(lit, haze, hz * 1.4);
                color = mul(color, mix([1.0; 3], warm, near));
                let cover = (y as f32 + 1.0 - f.horizon).clamp(0.0, 1.0);
                // The mirage: strongest on the horizon, gone a band below
                // it; each row mirrors the sky as far above the horizon as
                // the row lies below it, stretched.
                let s = (py - f.horizon) / (MIRAGE_DEPTH * f.h);
                let mirage = if s < 1.0 && self.mirage > 0.0 {
                    let strength = self.mirage * day * math::powf(1.0 - s.max(0.0), 1.3);
                    let t = (1.0 - 0.1 - s.max(0.0) * 0.4).clamp(0.0, 1.0);
                    Some((strength, mix(p.sky(t), haze_glare, 0.2)))
                } else {
                    None
                };
                FloorRow {
                    color,
                    cover,
                    z: eye / dy,
                    patch_z: patch_eye / dy,
                    patches: self.patches * lift * smoothstep(0.01, 0.07, dy),
                    cracks: self.cracks * smoothstep(0.012, 0.06, dy),
                    z_step: eye / (dy * dy) / f.h,
                    mirage,
                }
            })
            .collect();
        FloorDraw {
            opacity: self.opacity,
            rows,
            first,
            grain: self.grain,
            aspect: f.w / f.h,
            w: f.w,
            h: f.h,
            seed: sub_seed(f.seed, 200),
            shade: f.shade.clone(),
        }
    }
}

struct FloorRow {
    color: Linear,
    /// Coverage of the row by the floor (partial on the horizon's row).
    cover: f32,
    /// Depth of the row on the ground plane.
    z: f32,
    /// Strength of the patches on this row (fading out toward the horizon,
    /// where they would shimmer).
    patches: f32,
    /// Strength of the cracks on this row (fading out toward the horizon).
    cracks: f32,
    /// Change of depth from this row to the next.
    z_step: f32,
    /// The depth the patches are laid out by (see `prepare_draw`).
    patch_z: f32,
    /// The mirage on this row: its strength and the mirrored sky's colour.
    mirage: Option<(f32, Linear)>,
}

/// Depth of the mirage's band below the horizon at full strength, fraction
/// of the picture's height.
const MIRAGE_DEPTH: f32 = 0.035;

/// The floor prepared for one picture.
pub(crate) struct FloorDraw {
    opacity: f32,
    rows: Vec<FloorRow>,
    first: u32,
    grain: f32,
    aspect: f32,
    w: f32,
    h: f32,
    seed: u32,
    /// The clouds' shade on the ground, if any.
    shade: Option<super::clouds::CloudShade>,
}

/// Side of the grain tile.
const GRAIN_SIDE: usize = crate::base::noise::TILE_SIDE;

/// Lattice frequency of the crack polygons on the ground plane.
const CRACK_FREQ: f32 = 9.0;
/// Half the width of a crack, in polygon sizes.
const CRACK_HALF_WIDTH: f32 = 0.018;

/// One screen row of the crack polygons: a Voronoi diagram of one jittered
/// point per lattice cell on the ground plane; its three lattice rows of
/// points are computed once per screen row.
struct CrackRow {
    /// Ground x of the row's first pixel and per pixel, relative to the
    /// first lattice column held.
    gx0: f32,
    gx_step: f32,
    /// Ground depth of the row, relative to the first lattice row held.
    gz: f32,
    /// Lattice columns held per lattice row.
    cells: usize,
    /// A pixel's size on the ground, in polygon sizes (for anti-aliasing).
    footprint: f32,
    strength: f32,
}

impl CrackRow {
    /// Brightness factor at pixel `x`: dark along the polygon edges.
    #[inline]
    fn shade(&self, x: usize, points: &[(f32, f32)]) -> f32 {
        let gx = (x as f32 + 0.5) * self.gx_step + self.gx0;
        let i = (gx as usize).clamp(1, self.cells - 2);
        let (mut d1, mut d2) = (f32::INFINITY, f32::INFINITY);
        let (mut p1, mut p2) = ((0.0, 0.0), (0.0, 0.0));
        for j in 0..3 {
            for &p in &points[j * self.cells + i - 1..j * self.cells + i + 2] {
                let d = (gx - p.0) * (gx - p.0) + (self.gz - p.1) * (self.gz - p.1);
                if d < d1 {
                    (d2, p2) = (d1, p1);
                    (d1, p1) = (d, p);
                } else if d < d2 {
                    (d2, p2) = (d, p);
                }
            }
        }
        // Distance to the bisector of the two nearest points: the edge.
        let gap = ((p2.0 - p1.0) * (p2.0 - p1.0) + (p2.1 - p1.1) * (p2.1 - p1.1)).sqrt();
        let edge = (d2 - d1) / (2.0 * gap.max(1e-6));
        let line = ((CRACK_HALF_WIDTH - edge) / self.footprint + 0.5).clamp(0.0, 1.0);
        1.0 - self.strength * 0.45 * line
    }
}

impl FloorDraw {
    /// The crack polygons' points for row `r` (into `points`), or `None`
    /// where there are no cracks or they would be smaller than pixels.
    fn crack_row(&self, r: &FloorRow, points: &mut Vec<(f32, f32)>) -> Option<CrackRow> {
        if r.cracks <= 0.0 {
            return None;
        }
        let span = self.aspect * r.z * CRACK_FREQ;
        let left = -0.5 * span;
        let ix0 = left.floor() - 1.0;
        let cells = span.ceil() as usize + 4;
        if cells > MAX_CELLS {
            return None;
        }
        let gz = r.z * CRACK_FREQ;
        let iz0 = gz.floor() - 1.0;
        points.clear();
        for j in 0..3 {
            for i in 0..cells {
                let (cx, cz) = ((ix0 as i32 + i as i32) as u32, (iz0 as i32 + j) as u32);
                let h = hash2(cx, cz, self.seed ^ 0xc0ac);
                let jx = 0.15 + 0.7 * unit(h);
                let jz = 0.15 + 0.7 * unit(hash32(h));
                points.push((i as f32 + jx, j as f32 + jz));
            }
        }
        let gx_step = span / self.w;
        let gz_step = r.z_step * CRACK_FREQ;
        Some(CrackRow {
            gx0: left - ix0,
            gx_step,
            footprint: (0.5 * (gx_step * gx_step + gz_step * gz_step)).sqrt(),
            gz: gz - iz0,
            cells,
            strength: r.cracks,
        })
    }
}

impl FloorDraw {
    /// Row `y` of the floor from column `x0` on, with the mirage over it:
    /// the ground (colour `base`, brightness `gain`) blended toward the
    /// mirrored `sky` by up to `strength`, in streaks that shimmer along the row; the whole
    /// blended over the band's pixels by `op`.
    fn mirage(
        &self,
        row: &mut [Linear],
        (x0, y): (usize, u32),
        (base, strength, sky): (Linear, f32, Linear),
        gain: &[f32],
        op: f32,
    ) {
        // Streaks: value noise stretched along the row, a few pixels high,
        // in the picture's coordinates (the same in any window).
        let (sx, sy) = (1.0 / (0.03 * self.h), 1.0 / (0.004 * self.h));
        let yv = (y as f32 + 0.5) * sy;
        for ((x, c), &k) in (x0..).zip(row.iter_mut()).zip(gain) {
            let n = value2((x as f32 + 0.5) * sx, yv, self.seed ^ 0x3a1e);
            let a = strength * (0.25 + 1.1 * n).clamp(0.0, 1.0);
            let over = mix(scale(base, k), sky, a);
            if op >= 1.0 {
                *c = over;
            } else {
                super::blend(c, over, op);
            }
        }
    }
}

/// Lattice frequency of the patches on the ground plane.
const PATCH_FREQ: f32 = 1.6;
/// Most lattice cells a row of patches spans (more are not drawn).
const MAX_CELLS: usize = 256;

impl Draw for FloorDraw {
    fn covers(&self, y0: u32, y1: u32) -> bool {
        self.opacity >= 1.0
            && y0 >= self.first
            && (y0..y1).all(|y| {
                self.rows
                    .get((y - self.first) as usize)
                    .is_some_and(|r| r.cover >= 1.0)
            })
    }

    fn draw(&self, band: &mut Band) {
        let mut lattice = [0.0f32; MAX_CELLS + 2];
        let mut points = Vec::new();
        let mut gain = vec![0.0f32; band.width as usize];
        // `gain[j]` is column `bx0 + j`.
        let (bx0, bx1) = (band.x0 as usize, band.x1() as usize);
        let tile = crate::base::noise::noise_tile();
        let first = band.y0.max(self.first);
        let shade = self
            .shade
            .as_ref()
            .filter(|_| first < band.y1() && band.width > 0)
            .map(|s| s.samples((band.x0, band.x1()), (first, band.y1())));
        for y in first..band.y1() {
            let r = &self.rows[(y - self.first) as usize];
            // Brightness of each pixel of the row, in passes that vectorize.
            // Grain: a row of the fixed noise tile, rotated by a seeded
            // amount per row so the tile never lines up.
            let hy = hash32(y.wrapping_mul(0x9e37_79b9) ^ self.seed) as usize;
            let tile_row = &tile[(hy >> 7 & (GRAIN_SIDE - 1)) * GRAIN_SIDE..][..GRAIN_SIDE];
            // Rotated on by the band's first column, so that `gain` starts
            // with the grain of that column.
            let shift = hy.wrapping_add(bx0) & (GRAIN_SIDE - 1);
            let mut grain_row = [0.0f32; GRAIN_SIDE];
            grain_row[..GRAIN_SIDE - shift].copy_from_slice(&tile_row[shift..]);
            grain_row[GRAIN_SIDE - shift..].copy_from_slice(&tile_row[..shift]);
            for chunk in gain.chunks_mut(GRAIN_SIDE) {
                for (k, &g) in chunk.iter_mut().zip(&grain_row) {
                    *k = 1.0 + self.grain * g;
                }
            }
            // Patches: 2-D value noise on the ground plane. The lattice row
            // under this screen row is blended once; then each lattice cell
            // spans a run of pixels that interpolate along x.
            let gx_scale = self.aspect * r.patch_z * PATCH_FREQ / self.w;
            let gx0 = -0.5 * self.aspect * r.patch_z * PATCH_FREQ;
            let ix0 = gx0.floor();
            let cells = ((-2.0 * gx0).ceil() as usize + 2).min(MAX_CELLS + 2);
            if r.patches > 0.0 && cells < MAX_CELLS {
                let gz = r.patch_z * PATCH_FREQ;
                let iz = gz.floor();
                let tz = gz - iz;
                let sz = tz * tz * (3.0 - 2.0 * tz);
                let iz = iz as i32 as u32;
                for (i, v) in lattice[..cells].iter_mut().enumerate() {
                    let ix = (ix0 as i32 + i as i32) as u32;
                    let a = unit(hash2(ix, iz, self.seed));
                    let b = unit(hash2(ix, iz.wrapping_add(1), self.seed));
                    *v = (a + (b - a) * sz - 0.5) * 2.0 * r.patches;
                }
                // From the row's first column, not the band's: the runs
                // are the picture's (a run's cell is the one at its start),
                // and a walk is a step per cell, not per pixel.
                let mut x = 0;
                while x < bx1 {
                    let gx = (x as f32 + 0.5) * gx_scale + gx0 - ix0;
                    let i = (gx as usize).min(cells - 2);
                    // Pixels whose centres fall in cell i.
                    let end = ((((i + 1) as f32 - gx0 + ix0) / gx_scale - 0.5)
                        .ceil()
                        .max(0.0) as usize)
                        .clamp(x + 1, bx1);
                    let (l0, l1) = (lattice[i], lattice[i + 1]);
                    // The run's columns in the band (none left of it).
                    let b = end.max(bx0);
                    let a = x.clamp(bx0, b);
                    for (j, k) in gain[a - bx0..b - bx0].iter_mut().enumerate() {
                        let t = ((((a + j) as f32 + 0.5) * gx_scale + gx0 - ix0) - i as f32)
                            .clamp(0.0, 1.0);
                        *k += l0 + (l1 - l0) * (t * t * (3.0 - 2.0 * t));
                    }
                    x = end;
                }
            }
            if let Some(c) = self.crack_row(r, &mut points) {
                for (x, k) in (bx0..).zip(gain.iter_mut()) {
                    *k *= c.shade(x, &points);
                }
            }
            // Under a cloud, less light.
            if let Some(shade) = &shade {
                for (x, k) in (band.x0..).zip(gain.iter_mut()) {
                    *k *= shade.at(x, y);
                }
            }
            let op = r.cover * self.opacity;
            // In one ground, flat floor drawn over sand hides nothing.
            if op >= 0.5
                && let Some(d) = band.depth.as_mut()
            {
                let start = ((y - band.y0) * band.width) as usize;
                d.ground[start..start + band.width as usize].fill(super::world::FAR);
            }
            let row = band.row(y);
            if let Some((strength, sky)) = r.mirage {
                self.mirage(row, (bx0, y), (r.color, strength, sky), &gain, op);
                continue;
            }
            if op >= 1.0 {
                // Exactly, not blended: covered rows start from an
                // uncleared scratch buffer (see `covers`).
                for (c, &k) in row.iter_mut().zip(&gain) {
                    *c = scale(r.color, k);
                }
            } else {
                for (c, &k) in row.iter_mut().zip(&gain) {
                    let over = scale(r.color, k);
                    c[0] += (over[0] - c[0]) * op;
                    c[1] += (over[1] - c[1]) * op;
                    c[2] += (over[2] - c[2]) * op;
                }
            }
        }
    }
}
