//! The desert floor: the plain from the horizon down, hazy and pale far
//! away, darker and warmer toward the viewer, with seeded patches and grain.

use serde::{Deserialize, Serialize};

use super::{Band, Draw, Frame};
use crate::color::{Linear, Rgb, mix, mul, scale};
use crate::error::Result;
use crate::noise::{hash2, hash32, signed, smoothstep, sub_seed, unit};
use crate::scene::{Limit, OPACITY, checked, de_opacity};

/// Range of [`Floor::warmth`].
pub const WARMTH: Limit = Limit::new("floor.warmth", 0.0, 1.0);
/// Range of [`Floor::grain`].
pub const GRAIN: Limit = Limit::new("floor.grain", 0.0, 0.5);
/// Range of [`Floor::patches`].
pub const PATCHES: Limit = Limit::new("floor.patches", 0.0, 1.0);

checked!(de_warmth: f32 = WARMTH);
checked!(de_grain: f32 = GRAIN);
checked!(de_patches: f32 = PATCHES);

/// Settings of the desert floor layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Floor {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    #[serde(deserialize_with = "de_opacity")]
    pub opacity: f32,
    /// Colour of the ground in full light. Default: (218, 198, 160), pale sand.
    pub color: Rgb,
    /// How much darker and warmer the ground gets toward the viewer.
    /// Range 0 to 1. Default: 0.5.
    #[serde(deserialize_with = "de_warmth")]
    pub warmth: f32,
    /// Strength of the fine per-pixel grain. Range 0 to 0.5. Default: 0.05.
    #[serde(deserialize_with = "de_grain")]
    pub grain: f32,
    /// Strength of the large seeded patches (desert pavement, dry washes).
    /// Range 0 to 1. Default: 0.3.
    #[serde(deserialize_with = "de_patches")]
    pub patches: f32,
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
        }
    }
}

impl Floor {
    /// Checks the numbers against their limits.
    pub fn validate(&self) -> Result<()> {
        OPACITY.check(f64::from(self.opacity), self.opacity)?;
        WARMTH.check(f64::from(self.warmth), self.warmth)?;
        GRAIN.check(f64::from(self.grain), self.grain)?;
        PATCHES.check(f64::from(self.patches), self.patches)
    }

    pub(crate) fn prepare(&self, f: &Frame) -> FloorDraw {
        let p = &f.palette;
        let lit = mul(self.color.linear(), p.ground);
        let warm = mix([1.0, 1.0, 1.0], [0.78, 0.6, 0.46], self.warmth);
        let first = f.horizon.floor().max(0.0) as u32;
        let depth = (f.h - f.horizon).max(1.0);
        let rows = (first..f.height)
            .map(|y| {
                let py = y as f32 + 0.5;
                // Distance below the horizon, scene units, and 0..1 down the floor.
                let dy = ((py - f.horizon) / f.h).max(1e-4);
                let t = ((py - f.horizon) / depth).clamp(0.0, 1.0);
                let hz = 0.4 * (1.0 - smoothstep(0.0, 0.1, dy));
                let near = t.powf(1.6);
                let mut color = mix(lit, p.horizon, hz);
                color = mul(color, mix([1.0; 3], warm, near));
                let cover = (y as f32 + 1.0 - f.horizon).clamp(0.0, 1.0);
                FloorRow {
                    color,
                    cover,
                    z: 0.22 / dy,
                    patches: self.patches * smoothstep(0.01, 0.07, dy),
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
            seed: sub_seed(f.scene.seed, 200),
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
}

/// The floor prepared for one picture.
pub(crate) struct FloorDraw {
    opacity: f32,
    rows: Vec<FloorRow>,
    first: u32,
    grain: f32,
    aspect: f32,
    w: f32,
    seed: u32,
}

/// Side of the grain tile.
const GRAIN_SIDE: usize = 128;

/// A 128×128 tile of white noise in -1..1: grain by lookup, not by hashing
/// every pixel.
fn grain_tile() -> &'static [f32] {
    static TILE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    TILE.get_or_init(|| {
        (0..GRAIN_SIDE * GRAIN_SIDE)
            .map(|i| signed(hash32(i as u32 ^ 0x6a09_e667)))
            .collect()
    })
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
        for y in band.y0.max(self.first)..band.y1() {
            let r = &self.rows[(y - self.first) as usize];
            let row = band.row(y);
            // Patches: 2-D value noise on the ground plane. The lattice row
            // under this screen row is blended once, then each pixel only
            // interpolates along x.
            let gz = r.z * PATCH_FREQ;
            let gx_scale = self.aspect * r.z * PATCH_FREQ / self.w;
            let gx0 = -0.5 * self.aspect * r.z * PATCH_FREQ;
            let ix0 = gx0.floor();
            let cells = ((-2.0 * gx0).ceil() as usize + 2).min(MAX_CELLS + 2);
            let patches = r.patches > 0.0 && cells < MAX_CELLS;
            if patches {
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
            }
            let op = r.cover * self.opacity;
            // Grain: a row of the fixed noise tile, shifted by a seeded
            // amount per row so the tile never lines up.
            let hy = hash32(y.wrapping_mul(0x9e37_79b9) ^ self.seed) as usize;
            let tile = grain_tile();
            let tile_row = &tile[(hy >> 7 & (GRAIN_SIDE - 1)) * GRAIN_SIDE..][..GRAIN_SIDE];
            for (x, c) in row.iter_mut().enumerate() {
                let mut k = 1.0 + self.grain * tile_row[(x + hy) & (GRAIN_SIDE - 1)];
                if patches {
                    let gx = (x as f32 + 0.5) * gx_scale + gx0 - ix0;
                    let i = (gx as usize).min(cells - 2);
                    let t = gx - i as f32;
                    let s = t * t * (3.0 - 2.0 * t);
                    k += lattice[i] + (lattice[i + 1] - lattice[i]) * s;
                }
                let over = scale(r.color, k);
                if op >= 1.0 {
                    // Exactly, not blended: covered rows start from an
                    // uncleared scratch buffer (see `covers`).
                    *c = over;
                } else {
                    c[0] += (over[0] - c[0]) * op;
                    c[1] += (over[1] - c[1]) * op;
                    c[2] += (over[2] - c[2]) * op;
                }
            }
        }
    }
}
