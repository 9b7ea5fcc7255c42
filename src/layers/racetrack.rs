//! The Racetrack: a pale, nearly flat playa of cracked mud with sailing
//! stones, each at the end of the furrow it cut as wind-driven ice pushed
//! it (Norris et al. 2014).
//!
//! Everything lies on the ground plane, in scene units (the eye
//! 0.22 over the ground is 1.6 m): the mud's crack polygons, the stones
//! and their trails, so the picture is the same at any resolution. The
//! cracks are strips of crust split across into cells: with fresh mud the
//! strips' edges run straight and the splits meet them in T-junctions;
//! with age the edges zigzag and the splits line up into hexagons with
//! Y-junctions at 120°. Far off, where a cell is a few pixels, the cracks
//! fade into their mean tone, then into the horizon's haze. The stones
//! moved along the scene's wind: each trail runs upwind from its stone,
//! the trails of neighbours start parallel and fan out toward their ends,
//! and smooth stones wander where rough ones cut straight. A pixel is a
//! function of its position and the prepared numbers only, and each band
//! draws only the trails and stones that reach into it.

use serde::Serialize;

use super::{Band, Draw, Frame, Ground, Kind, Prepare, blend};
use crate::base::color::{Linear, Rgb, mix, mul, scale};
use crate::base::math;
use crate::base::noise::{Dice, fbm1, hash32, smoothstep, sub_seed};
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

/// Settings of the Racetrack layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Racetrack {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Colour of the dry mud in full light. Default: (214, 200, 178).
    pub color: Rgb,
    /// Size of the crack polygons, metres (0.02 to 1). Default: 0.12.
    pub cell: f32,
    /// How dark the cracks are, 0 to 1. Default: 0.6.
    pub cracks: f32,
    /// The crust's age: 0 fresh (T-junctions at 90°), 1 old (hexagons,
    /// Y-junctions at 120°). Default: 0.5.
    pub age: f32,
    /// Number of sailing stones, 0 to 300. Default: 36.
    pub stones: u32,
    /// A stone's typical width, metres (0.05 to 2). Default: 0.3.
    pub size: f32,
    /// A trail's typical length, metres (0 to 400). Default: 60.
    pub trail: f32,
    /// How much smooth stones wander off a straight line, 0 to 1.
    /// Default: 0.35.
    pub wander: f32,
    /// How far neighbouring trails fan out toward their ends, 0 to 1.
    /// Default: 0.4.
    pub divergence: f32,
    /// Colour of the stones. Default: (112, 100, 90).
    pub stone_color: Rgb,
}

impl Default for Racetrack {
    fn default() -> Self {
        Racetrack {
            visible: true,
            opacity: 1.0,
            color: Rgb(214, 200, 178),
            cell: 0.12,
            cracks: 0.6,
            age: 0.5,
            stones: 36,
            size: 0.3,
            trail: 60.0,
            wander: 0.35,
            divergence: 0.4,
            stone_color: Rgb(112, 100, 90),
        }
    }
}

/// Mud colours New scene picks from (sRGB).
const MUDS: &[Rgb] = &[
    Rgb(214, 200, 178),
    Rgb(206, 196, 182),
    Rgb(222, 208, 184),
    Rgb(200, 186, 164),
    Rgb(216, 206, 194),
];

impl Kind for Racetrack {
    const NAME: &'static str = "racetrack";
    const TITLE: &'static str = "Racetrack";
    const SETTINGS: &'static [Setting<Racetrack>] = &[
        super::visible(),
        super::opacity(),
        other!(
            Rgb,
            "color",
            color,
            "Mud colour",
            "Colour of the dry mud",
            Roll::Pick(MUDS)
        ),
        float!(log "cell", cell, 0.02, 1.0, 1000, "Cell size",
            "Size of the crack polygons, metres", Roll::Range(0.08, 0.2)),
        float!(
            "cracks",
            cracks,
            0.0,
            1.0,
            1000,
            "Cracks",
            "How dark the cracks are",
            Roll::Range(0.35, 0.8)
        ),
        float!(
            "age",
            age,
            0.0,
            1.0,
            1000,
            "Crust age",
            "Fresh mud (T-junctions) to old crust (hexagons)",
            Roll::Pick(&[0.0, 0.25, 0.5, 0.75, 1.0])
        ),
        uint!(
            "stones",
            stones,
            0,
            MAX_STONES,
            "Stones",
            "Number of sailing stones",
            Roll::Range(12, 70)
        ),
        float!(log "size", size, 0.05, 2.0, 1000, "Stone size",
            "A stone's typical width, metres", Roll::Range(0.2, 0.45)),
        float!(
            "trail",
            trail,
            0.0,
            400.0,
            10,
            "Trail length",
            "A trail's typical length, metres",
            Roll::Range(25.0, 150.0)
        ),
        float!(
            "wander",
            wander,
            0.0,
            1.0,
            1000,
            "Wander",
            "How much smooth stones wander off a straight line",
            Roll::Range(0.0, 0.7)
        ),
        float!(
            "divergence",
            divergence,
            0.0,
            1.0,
            1000,
            "Divergence",
            "How far neighbouring trails fan out toward their ends",
            Roll::Range(0.1, 0.8)
        ),
        other!(
            Rgb,
            "stone_color",
            stone_color,
            "Stone colour",
            "Colour of the stones",
            Roll::Keep
        ),
    ];

    super::common_settings!();
}

/// Most stones.
pub const MAX_STONES: u32 = 300;

/// The eye's height over the ground, scene units (as the floor's).
const EYE: f32 = 0.22;
/// A metre in scene units: the eye is 1.6 m over the ground.
const METRE: f32 = EYE / 1.6;
/// Stones lie no further than this (scene units, about 220 m).
const STONES_FAR: f32 = 30.0;
/// Trails are drawn no further than this.
const TRAILS_FAR: f32 = 80.0;
/// Height of a strip of crust, in cell widths (a hexagon's row).
const ROW: f32 = 0.866;

/// The luminance of a linear colour.
fn lum(c: Linear) -> f32 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

impl Racetrack {
    /// How much of the floor of `ground` the stones and their trails cover
    /// (the mud itself is the floor), and how far up they reach: never
    /// over the horizon.
    pub(crate) fn cover(&self, ground: &Ground) -> super::Cover {
        let floor = (1.0 - ground.horizon).max(0.05);
        let near = EYE / floor;
        let (r, trail) = (0.5 * self.size * METRE, self.trail * METRE);
        let mut area = 0.0;
        const SAMPLES: u32 = 24;
        for i in 0..SAMPLES {
            let u = (i as f32 + 0.5) / SAMPLES as f32;
            let z = near * math::powf(STONES_FAR / near, u);
            // The stone's outline and its trail, in picture heights squared.
            let stone = std::f32::consts::PI * (r / z) * 0.5 * (0.7 * r / z + r * EYE / (z * z));
            // A furrow (with its rims) runs away from the stone, narrowing
            // with distance, or across the picture: half of each.
            let hw = 1.6 * 0.6 * r;
            let away = hw * EYE * (1.0 / (z * z) - 1.0 / ((z + trail) * (z + trail)));
            let across = (trail / z).min(ground.aspect) * 2.0 * hw * EYE / (z * z);
            let furrow = 0.5 * (away + across);
            area += stone + furrow;
        }
        let share =
            self.opacity * self.stones as f32 * area / SAMPLES as f32 / (ground.aspect * floor);
        super::Cover {
            floor: share.min(1.0),
            sky: 0.0,
            reach: -(EYE - 0.7 * 1.4 * r) / STONES_FAR,
        }
    }
}

impl Prepare for Racetrack {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

/// Smooth value noise in -1..1, lattice spacing 1, from the noise tile.
#[inline]
fn smooth(x: f32, y: f32, seed: u32) -> f32 {
    let (ix, iy) = (math::floor_i32(x), math::floor_i32(y));
    let (tx, ty) = (x - ix as f32, y - iy as f32);
    let tile = tile();
    let v = |dx: i32, dy: i32| lattice_in(tile, ix + dx, iy + dy, seed);
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let top = v(0, 0) + (v(1, 0) - v(0, 0)) * sx;
    let bottom = v(0, 1) + (v(1, 1) - v(0, 1)) * sx;
    top + (bottom - top) * sy
}

/// The noise tile's side.
const SIDE: u32 = crate::base::noise::TILE_SIDE as u32;

/// The noise tile, looked up once for the four corners of a cell; as an
/// array, its indices (below `SIDE²`) need no check.
#[inline]
fn tile() -> &'static [f32; (SIDE * SIDE) as usize] {
    crate::base::noise::noise_tile()
        .try_into()
        .expect("the noise tile is SIDE² values")
}

/// A value in -1..1 for lattice point `(i, j)`, from the noise tile.
#[inline]
fn lattice(i: i32, j: i32, seed: u32) -> f32 {
    lattice_in(tile(), i, j, seed)
}

/// [`lattice`] in `tile`.
#[inline]
fn lattice_in(tile: &[f32; (SIDE * SIDE) as usize], i: i32, j: i32, seed: u32) -> f32 {
    let x = (i as u32).wrapping_add(seed) % SIDE;
    let y = (j as u32).wrapping_add(seed >> 8) % SIDE;
    tile[(y * SIDE + x) as usize]
}

/// The pattern of the crust's cracks, in cell widths on the ground.
struct Crust {
    /// The ground's axes turned into the pattern's: `u = c·X + s·Z`,
    /// `v = −s·X + c·Z`, over the cell's size.
    rot: (f32, f32),
    inv_cell: f32,
    /// The age, and one minus it.
    age: f32,
    /// Half the strips' edges' zigzag, cell widths.
    zig: f32,
    /// Half widths of the strips' edges and of the splits, cell widths.
    half_edge: f32,
    half_split: f32,
    /// The zigzag's slant, for the edges' true widths.
    slant: f32,
    /// The mean share of the ground in cracks.
    mean: f32,
    seed: u32,
}

impl Crust {
    fn new(r: &Racetrack, seed: u32) -> Crust {
        let angle = 0.3 + 1.0 * crate::base::noise::unit(hash32(seed ^ 0x7e11));
        let zig = 0.2887 * r.age;
        let half_edge = 0.03 * (1.3 - 0.3 * r.age);
        let half_split = 0.03 * (0.7 + 0.3 * r.age);
        Crust {
            rot: (math::cos(angle), math::sin(angle)),
            inv_cell: 1.0 / (r.cell * METRE),
            age: r.age,
            zig,
            half_edge,
            half_split,
            slant: 1.0 / (1.0 + 4.0 * zig * zig).sqrt(),
            mean: 2.0 * half_edge / ROW + 2.0 * half_split,
            seed,
        }
    }

    /// Where the `k`th split of strip `s` lies along `u`.
    #[inline]
    fn split(&self, s: i32, k: i32) -> f32 {
        k as f32 + 0.5 * (s & 1) as f32 + (1.0 - self.age) * 0.38 * lattice(k, s, self.seed)
    }

    /// The split of strip `s` nearest `u` is the `k0`th or one of its
    /// neighbours.
    #[inline]
    fn middle(s: i32, u: f32) -> i32 {
        math::floor_i32(u - 0.5 * (s & 1) as f32 + 0.5)
    }

    /// Strip `s`'s splits around its `k0`th and where its lower edge lies.
    fn strip(&self, s: i32, k0: i32) -> Strip {
        Strip {
            s,
            k0,
            splits: [
                self.split(s, k0 - 1),
                self.split(s, k0),
                self.split(s, k0 + 1),
            ],
            base: s as f32 * ROW + (1.0 - self.age) * 0.2 * lattice(s - 1, 0x51, self.seed),
        }
    }

    /// The nearest split of strip `s` to `u`: its place and index, and the
    /// strip as `memo` keeps it.
    #[inline]
    fn nearest(&self, memo: &mut Memo, s: i32, u: f32) -> ((f32, i32), f32) {
        let k0 = Crust::middle(s, u);
        let slot = &mut memo.strips[(s & 3) as usize];
        if slot.s != s || slot.k0 != k0 {
            *slot = self.strip(s, k0);
        }
        let [below, c, after] = slot.splits;
        let mut best = (c, k0);
        for (c, k) in [(below, k0 - 1), (after, k0 + 1)] {
            if (u - c).abs() < (u - best.0).abs() {
                best = (c, k);
            }
        }
        (best, slot.base)
    }

    /// The edge between strips `j` and `j + 1` at `u`: straight when
    /// fresh, zigzagging up to the splits of strip `j + 1` when old.
    #[cfg(test)]
    fn edge(&self, j: i32, u: f32) -> f32 {
        let ((c, _), base) = self.nearest(&mut Memo::new(self), j + 1, u);
        self.edge_under(base, u, c)
    }

    /// [`Crust::edge`] below strip `j + 1`, given that strip's `base` and
    /// its split `c` nearest `u`.
    #[inline]
    fn edge_under(&self, base: f32, u: f32, c: f32) -> f32 {
        let tri = 1.0 - 2.0 * (u - c).abs().min(0.5);
        base + self.zig * (tri - 0.5) * 2.0
    }

    /// Ground `(x, z)` in the pattern's axes, cell widths.
    #[inline]
    fn uv(&self, x: f32, z: f32) -> (f32, f32) {
        let (c, s) = self.rot;
        (
            (c * x + s * z) * self.inv_cell,
            (c * z - s * x) * self.inv_cell,
        )
    }

    /// How far the pattern is bent at ground `(x, z)`: cracks are not
    /// ruled lines.
    fn warp(&self, x: f32, z: f32) -> [f32; 2] {
        let (u, v) = self.uv(x, z);
        let (wu, wv) = (u * 0.3, v * 0.3);
        [
            0.22 * smooth(wu, wv, self.seed ^ 0x3a7),
            0.22 * smooth(wu + 31.7, wv, self.seed ^ 0x91c),
        ]
    }

    /// At ground `(x, z)`, the pattern bent by `warp` there: the distances (cell widths) to the nearest
    /// strip edge and split, and a hash of the cell.
    #[inline]
    fn at(&self, memo: &mut Memo, x: f32, z: f32, [du, dv]: [f32; 2]) -> (f32, f32, u32) {
        let (u, v) = self.uv(x, z);
        let (u, v) = (u + du, v + dv);
        let j0 = math::floor_i32(v * (1.0 / ROW));
        let (mine, mine_base) = self.nearest(memo, j0, u);
        let (above, above_base) = self.nearest(memo, j0 + 1, u);
        let mut lo = self.edge_under(mine_base, u, mine.0);
        let mut hi = self.edge_under(above_base, u, above.0);
        let (mut strip, mut near) = (j0, mine);
        if v < lo {
            strip = j0 - 1;
            hi = lo;
            let base;
            (near, base) = self.nearest(memo, strip, u);
            lo = self.edge_under(base, u, near.0);
        } else if v > hi {
            strip = j0 + 1;
            lo = hi;
            near = above;
            let ((c, _), base) = self.nearest(memo, j0 + 2, u);
            hi = self.edge_under(base, u, c);
        }
        let edge = (v - lo).min(hi - v).max(0.0) * self.slant;
        let (c, k) = near;
        let cell = if u >= c { k } else { k - 1 };
        (
            edge,
            (u - c).abs(),
            hash32((strip as u32).wrapping_mul(0x9e37_79b9) ^ cell as u32 ^ self.seed),
        )
    }
}

/// Strip `s`'s splits from its `k0 − 1`th to its `k0 + 1`th, and the
/// height of its lower edge before the zigzag: what the crust looks up in
/// the noise tile around a place along the strip.
#[derive(Clone, Copy)]
struct Strip {
    s: i32,
    k0: i32,
    splits: [f32; 3],
    base: f32,
}

/// What the crust looked up last, for the next pixel: neighbouring pixels
/// mostly lie in the same cells, so they need the same splits and the same
/// cell's look. A pixel looks at four neighbouring strips at most, each
/// kept in the slot of its number modulo 4; the values are those worked
/// out afresh, so the pixels do not depend on what was kept.
struct Memo {
    strips: [Strip; 4],
    /// The last cell's hash, and its cracks' width and its tone.
    cell: u32,
    look: (f32, f32),
}

impl Memo {
    fn new(crust: &Crust) -> Memo {
        Memo {
            strips: std::array::from_fn(|s| crust.strip(s as i32, 0)),
            cell: 0,
            look: cell_look(0),
        }
    }

    /// [`cell_look`] of `cell`.
    #[inline]
    fn look(&mut self, cell: u32) -> (f32, f32) {
        if cell != self.cell {
            self.cell = cell;
            self.look = cell_look(cell);
        }
        self.look
    }
}

/// A cell's cracks' width (a share of the crust's) and its tone, from its
/// hash.
#[inline]
fn cell_look(cell: u32) -> (f32, f32) {
    (
        0.75 + 0.5 * crate::base::noise::unit(cell),
        0.04 * crate::base::noise::signed(hash32(cell)),
    )
}

/// The share of a pixel `[d − ½, d + ½]` a line `[−hw, hw]` covers.
#[inline]
fn coverage(d: f32, hw: f32) -> f32 {
    (hw.min(d + 0.5) - (-hw).max(d - 0.5)).clamp(0.0, 1.0)
}

/// One stone and its trail, on the ground.
struct Stone {
    /// Centre of its foot on the ground.
    x: f32,
    z: f32,
    /// Half its width across, half its depth, its height (scene units).
    rx: f32,
    rz: f32,
    c: f32,
    /// The wobble of its outline: second and third harmonics.
    wobble: [f32; 3],
    albedo: Linear,
    /// Where its grain lies in the noise.
    grain: u32,
    /// How rough its underside is, 0 smooth .. 1 rough.
    rough: f32,
}

/// A straight piece of a trail on the ground.
struct Segment {
    a: [f32; 2],
    /// Unit direction from `a`, and the length.
    dir: [f32; 2],
    len: f32,
    /// Half the furrow's width.
    hw: f32,
    /// How deep and plain it is (fading toward the trail's start).
    strength: f32,
    /// The screen rows it may touch, and the line it projects to with its
    /// reach in pixels.
    rows: (i32, i32),
    line: [f32; 4],
    reach: f32,
}

/// A stone as drawn: its outline on the screen, its lit colours.
struct Drawn {
    /// Centre and radii of its outline, pixels.
    cx: f32,
    cy: f32,
    rx: f32,
    ry: f32,
    rows: (i32, i32),
    wobble: [f32; 3],
    albedo: Linear,
    /// The light on it (cloud shade and all).
    direct: Linear,
    ambient: Linear,
    bounce: Linear,
    haze: Linear,
    hazed: f32,
    grain: u32,
    /// Its shadow on the ground: from the foot's centre along `to`, radius
    /// `r`, strength; and the rows it may touch.
    foot: [f32; 2],
    to: [f32; 2],
    r: f32,
    shadow: f32,
    shadow_rows: (i32, i32),
    shadow_line: [f32; 4],
    shadow_reach: f32,
}

struct Row {
    color: Linear,
    /// Coverage of the row by the mud (partial on the horizon's row).
    cover: f32,
    /// Depth of the row on the ground.
    z: f32,
    /// How much of the layer's contrast is left in the haze.
    contrast: f32,
    /// Pixels per ground unit across and in depth.
    k_across: f32,
    k_depth: f32,
    /// How much of the cracks' pattern shows (0: only their mean tone).
    detail: f32,
    /// Pixels per cell width across the strips' edges and the splits.
    per_edge: f32,
    per_split: f32,
    /// How much the large patches show.
    patches: f32,
}

/// The Racetrack prepared for one picture.
struct RacetrackDraw {
    opacity: f32,
    rows: Vec<Row>,
    first: u32,
    half_width: f32,
    focal: f32,
    crust: Crust,
    cracks: f32,
    patch_seed: u32,
    segments: Vec<Segment>,
    stones: Vec<Drawn>,
    /// Per band of the picture: the segments, and the stones (far to near)
    /// that reach into it.
    band_segments: Vec<Vec<u32>>,
    band_stones: Vec<Vec<u32>>,
    /// Toward the light on the ground: across, away, up.
    light: [f32; 3],
    /// The direct and sky light's luminance on the ground.
    sun: f32,
    sky: f32,
    shade: Option<super::clouds::CloudShade>,
}

/// Screen rows `y0..y1` (clipped to the picture) a line `line` with reach
/// `r` may touch.
fn line_rows(line: [f32; 4], r: f32, height: u32) -> (i32, i32) {
    let lo = (line[1].min(line[3]) - r).floor().max(0.0);
    let hi = (line[1].max(line[3]) + r).ceil().min(height as f32);
    (lo as i32, hi as i32)
}

/// The columns `a..b` of row `y` within `r` pixels of the screen line
/// `line` (whole pixels, before clipping to a band).
#[inline]
fn line_span(line: [f32; 4], r: f32, y: u32) -> (i32, i32) {
    let [x0, y0, x1, y1] = line;
    let (top, bottom) = (y as f32 - r, y as f32 + 1.0 + r);
    let (t0, t1) = if (y1 - y0).abs() < 1e-6 {
        (0.0, 1.0)
    } else {
        let (a, b) = ((top - y0) / (y1 - y0), (bottom - y0) / (y1 - y0));
        (a.min(b).clamp(0.0, 1.0), a.max(b).clamp(0.0, 1.0))
    };
    let (xa, xb) = (x0 + (x1 - x0) * t0, x0 + (x1 - x0) * t1);
    (
        (xa.min(xb) - r).floor() as i32,
        (xa.max(xb) + r).ceil() as i32 + 1,
    )
}

impl Racetrack {
    /// The stones of the picture, far to near, and their trails' points
    /// (from the stone upwind to the trail's start).
    fn place(&self, f: &Frame) -> Vec<(Stone, Vec<[f32; 2]>)> {
        let seed = sub_seed(f.seed, 700);
        let floor = ((f.h - f.horizon) / f.h).max(0.02);
        let near = EYE / floor;
        let aspect = f.w / f.h;
        let wind = f.wind;
        let albedo = self.stone_color.linear();
        let mut out: Vec<(Stone, Vec<[f32; 2]>)> = (0..self.stones)
            .map(|i| {
                let mut dice = Dice::new(hash32(seed ^ i.wrapping_mul(0x2c1b_3c6d)));
                let z = near * 1.05 * math::powf(STONES_FAR / (near * 1.05), dice.unit());
                let x = dice.signed() * 0.55 * aspect * z;
                // Sizes spread as a log-normal would, most near the typical.
                let g = dice.signed() + dice.signed() + dice.signed();
                let r = 0.5 * self.size * METRE * math::exp(0.22 * g);
                let rough = if dice.unit() < 0.4 {
                    1.0
                } else {
                    0.6 * dice.unit()
                };
                let tint = 0.75 + 0.5 * dice.unit();
                let warm = 0.06 * dice.signed();
                let stone = Stone {
                    x,
                    z,
                    rx: r * (0.85 + 0.3 * dice.unit()),
                    rz: r * (0.8 + 0.4 * dice.unit()),
                    c: r * (0.55 + 0.35 * dice.unit()),
                    wobble: [
                        0.12 * dice.signed(),
                        0.12 * dice.signed(),
                        0.08 * dice.signed(),
                    ],
                    albedo: [
                        albedo[0] * tint * (1.0 + warm),
                        albedo[1] * tint,
                        albedo[2] * tint * (1.0 - warm),
                    ],
                    grain: dice.bits(),
                    rough,
                };
                // The trail, forward from its start: the ice sheet's
                // heading, shared by neighbours, turned a little as the
                // trail goes on, more toward its end, and wandering for a
                // smooth stone.
                let length = self.trail * METRE * (0.35 + 0.9 * dice.unit());
                let sheet = 0.35 * smooth(x * 0.08, z * 0.08, seed ^ 0x5ee7);
                let fan = self.divergence * 0.9 * dice.signed();
                let wander = self.wander * (1.0 - rough) * 0.6;
                let curl = self.wander * 0.5 * dice.signed() * (1.0 - 0.7 * rough);
                let phase = f64::from(dice.unit()) * 100.0;
                let steps = ((length / 0.12).ceil() as usize).clamp(4, 160);
                let ds = length / steps as f32;
                let mut path = Vec::with_capacity(steps + 1);
                let mut p = [0.0f32, 0.0];
                path.push(p);
                let wave_len = 2.0 + 10.0 * METRE * self.trail.max(1.0) / 60.0;
                for n in 0..steps {
                    let t = (n as f32 + 0.5) / steps as f32;
                    let s = t * length;
                    let turn = sheet
                        + fan * t * t
                        + curl * t
                        + wander * fbm1(f64::from(s / wave_len) + phase, seed ^ i, 3, 0.5);
                    let (c, sn) = (math::cos(turn), math::sin(turn));
                    let d = [wind[0] * c - wind[1] * sn, wind[0] * sn + wind[1] * c];
                    p = [p[0] + d[0] * ds, p[1] + d[1] * ds];
                    path.push(p);
                }
                // Shifted so that it ends at the stone, and listed from it.
                let end = p;
                let trail = path
                    .iter()
                    .rev()
                    .map(|q| [q[0] - end[0] + x, q[1] - end[1] + z])
                    .collect();
                (stone, trail)
            })
            .collect();
        out.sort_by(|a, b| b.0.z.total_cmp(&a.0.z));
        out
    }

    fn prepare_draw(&self, f: &Frame) -> RacetrackDraw {
        let p = &f.palette;
        let lit = mul(self.color.linear(), p.ground);
        let haze = mix(p.horizon, lit, 0.3);
        let warm = mix([1.0; 3], [0.86, 0.76, 0.66], 0.35);
        let first = f.horizon.floor().max(0.0) as u32;
        let depth = (f.h - f.horizon).max(1.0);
        let crust = Crust::new(self, sub_seed(f.seed, 701));
        let hazed = |dy: f32| 0.45 * (1.0 - smoothstep(0.0, 0.1, dy));
        let rows: Vec<Row> = (first..f.height)
            .map(|y| {
                let py = y as f32 + 0.5;
                let dy = ((py - f.horizon) / f.h).max(1e-4);
                let t = ((py - f.horizon) / depth).clamp(0.0, 1.0);
                let hz = hazed(dy);
                let mut color = mix(lit, haze, hz);
                color = mul(color, mix([1.0; 3], warm, math::powf(t, 1.6)));
                let z = EYE / dy;
                let (k_across, k_depth) = (f.h / z, EYE * f.h / (z * z));
                // The smallest side of a cell on the screen, pixels.
                let cell_px = k_depth.min(k_across) / crust.inv_cell;
                let (c, s) = crust.rot;
                let px = |nx: f32, nz: f32| {
                    ((nx * k_across) * (nx * k_across) + (nz * k_depth) * (nz * k_depth)).sqrt()
                        / crust.inv_cell
                };
                Row {
                    per_edge: px(-s, c),
                    per_split: px(c, s),
                    patches: smoothstep(0.01, 0.07, dy),
                    color,
                    cover: (y as f32 + 1.0 - f.horizon).clamp(0.0, 1.0),
                    z,
                    contrast: 1.0 - hz,
                    k_across,
                    k_depth,
                    detail: smoothstep(3.0, 5.0, cell_px),
                }
            })
            .collect();
        let light = [p.light[0], -p.light[2], p.light[1]];
        let (sun, sky) = (lum(p.direct), lum(p.ambient));
        let project = |q: [f32; 2]| [0.5 * f.w + q[0] * f.h / q[1], f.horizon + EYE * f.h / q[1]];
        let clip_near = EYE * f.h / (f.h - f.horizon + 2.0).max(1.0);
        let bands = f.height.div_ceil(super::BAND_ROWS) as usize;
        let (band_of, last_band) = (
            |y: i32| (y.max(0) as u32 / super::BAND_ROWS) as usize,
            (f.rows.end.max(1) - 1) / super::BAND_ROWS,
        );
        let first_band = f.rows.start / super::BAND_ROWS;
        // The bands of the rows to draw that rows `lo..hi` (not empty) lie in.
        let bands_of = |lo: i32, hi: i32| {
            let (a, b) = (
                band_of(lo).max(first_band as usize),
                (band_of(hi - 1) + 1).min(last_band as usize + 1),
            );
            a.min(b)..b
        };
        let mut band_segments = vec![Vec::new(); bands];
        let mut band_stones = vec![Vec::new(); bands];
        let mut segments = Vec::new();
        let mut stones = Vec::new();
        // The sun's shadow on the ground: away from it, as long as the
        // light is low.
        let ground_len = (light[0] * light[0] + light[1] * light[1]).sqrt().max(1e-4);
        let away = [-light[0] / ground_len, -light[1] / ground_len];
        let cast = (ground_len / light[2].max(0.05)).min(12.0);
        let shadow = if light[2] > 0.02 {
            p.shadow * smoothstep(0.02, 0.15, light[2])
        } else {
            0.0
        };
        let bounce = scale(lit, 0.35);
        for (stone, trail) in self.place(f) {
            let hw = 0.6 * stone.rx;
            // The trail's segments, cut to the ground in view.
            let n = trail.len() - 1;
            for (k, pair) in trail.windows(2).enumerate() {
                let (mut a, mut b) = (pair[0], pair[1]);
                if a[1].max(b[1]) < clip_near || a[1].min(b[1]) > TRAILS_FAR {
                    continue;
                }
                for (lo, hi) in [(clip_near, true), (TRAILS_FAR, false)] {
                    let out = |q: [f32; 2]| if hi { q[1] < lo } else { q[1] > lo };
                    if out(a) || out(b) {
                        let t = (lo - a[1]) / (b[1] - a[1]);
                        let m = [a[0] + (b[0] - a[0]) * t, lo];
                        if out(a) {
                            a = m;
                        } else {
                            b = m;
                        }
                    }
                }
                let d = [b[0] - a[0], b[1] - a[1]];
                let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
                if len < 1e-6 {
                    continue;
                }
                let (pa, pb) = (project(a), project(b));
                let line = [pa[0], pa[1], pb[0], pb[1]];
                let reach = 2.0 * hw * f.h / a[1].min(b[1]) + 1.5;
                let along = (k as f32 + 0.5) / n as f32;
                let seg = Segment {
                    a,
                    dir: [d[0] / len, d[1] / len],
                    len,
                    hw,
                    strength: (0.55 + 0.45 * stone.rough) * (1.0 - 0.35 * along),
                    rows: line_rows(line, reach, f.height),
                    line,
                    reach,
                };
                let id = segments.len() as u32;
                if seg.rows.1 > seg.rows.0 {
                    for list in &mut band_segments[bands_of(seg.rows.0, seg.rows.1)] {
                        list.push(id);
                    }
                }
                segments.push(seg);
            }
            // The stone on the screen.
            let (z, x) = (stone.z, stone.x);
            let ground = project([x, z]);
            let (c_px, foot_px) = (stone.c * f.h / z, stone.rz * EYE * f.h / (z * z));
            let rx = stone.rx * f.h / z;
            let ry = 0.5 * (c_px + foot_px);
            let cy = ground[1] - 0.5 * (c_px - foot_px);
            let grow = 1.3;
            let rows = (
                ((cy - ry * grow).floor().max(0.0)) as i32,
                ((cy + ry * grow).ceil() + 1.0).min(f.height as f32) as i32,
            );
            let light_here = f
                .shade
                .as_ref()
                .map_or(1.0, |s| s.light(ground[0], ground[1]));
            let dy = ((ground[1] - f.horizon) / f.h).max(1e-4);
            let r = stone.rx.max(stone.rz);
            let to = [away[0] * cast * stone.c, away[1] * cast * stone.c];
            let tip = [x + to[0], (z + to[1]).max(clip_near)];
            let (s0, s1) = (project([x, z]), project(tip));
            let shadow_line = [s0[0], s0[1], s1[0], s1[1]];
            let shadow_reach = 1.6 * r * f.h / z.min(tip[1]) + 1.5;
            let drawn = Drawn {
                cx: ground[0],
                cy,
                rx: rx.max(0.3),
                ry: ry.max(0.3),
                rows,
                wobble: stone.wobble,
                albedo: stone.albedo,
                direct: scale(p.direct, light_here),
                ambient: p.ambient,
                bounce,
                haze,
                hazed: hazed(dy),
                grain: stone.grain,
                foot: [x, z],
                to,
                r,
                shadow: shadow * light_here,
                shadow_rows: line_rows(shadow_line, shadow_reach, f.height),
                shadow_line,
                shadow_reach,
            };
            let lo = drawn.rows.0.min(drawn.shadow_rows.0);
            let hi = drawn.rows.1.max(drawn.shadow_rows.1);
            let id = stones.len() as u32;
            if hi > lo {
                for list in &mut band_stones[bands_of(lo, hi)] {
                    list.push(id);
                }
            }
            stones.push(drawn);
        }
        RacetrackDraw {
            opacity: self.opacity,
            rows,
            first,
            half_width: 0.5 * f.w,
            focal: f.h,
            crust,
            cracks: self.cracks,
            patch_seed: sub_seed(f.seed, 702),
            segments,
            stones,
            band_segments,
            band_stones,
            light,
            sun,
            sky,
            shade: f.shade.clone(),
        }
    }
}

impl RacetrackDraw {
    /// The mud's brightness at pixel `x` of row `r`: its patches and
    /// cracks (and how much of a crack there is, 0..1).
    #[inline]
    fn mud(
        &self,
        memo: &mut Memo,
        r: &Row,
        x: u32,
        y: u32,
        [patch, du, dv]: [f32; 3],
    ) -> (f32, f32) {
        let gx = (x as f32 + 0.5 - self.half_width) / self.focal * r.z;
        let grain = 0.025 * lattice(x as i32, y as i32, self.patch_seed);
        let mut crack = self.crust.mean;
        let mut k = 1.0 + patch + grain;
        if r.detail > 0.0 {
            let (edge, split, cell) = self.crust.at(memo, gx, r.z, [du, dv]);
            let (width, tone) = memo.look(cell);
            // Pixels per cell width across each kind of crack.
            let (pe, ps) = (r.per_edge, r.per_split);
            let cov = coverage(edge * pe, self.crust.half_edge * pe * width)
                .max(coverage(split * ps, self.crust.half_split * ps * width));
            // The crust's edges curl up and catch the light; each cell has
            // its own tone.
            let near = edge.min(split);
            // (Past the curl's end the step is exactly 1: no division.)
            let step = if near >= 0.12 {
                1.0
            } else {
                smoothstep(0.03, 0.12, near)
            };
            let curl = 0.05 * (1.0 - step);
            k *= 1.0 + r.detail * (curl + tone);
            crack += (cov - crack) * r.detail;
        }
        (k, crack)
    }
}

impl Draw for RacetrackDraw {
    fn covers(&self, y0: u32, y1: u32) -> bool {
        self.opacity >= 1.0
            && y0 >= self.first
            && (y0..y1).all(|y| {
                self.rows
                    .get((y - self.first) as usize)
                    .is_some_and(|r| r.cover >= 1.0)
            })
    }

    fn touches(&self, y0: u32, y1: u32) -> bool {
        y1 > self.first && y0 < y1
    }

    fn draw(&self, band: &mut Band) {
        let (x0, x1) = (band.x0, band.x1());
        let first = band.y0.max(self.first);
        if first >= band.y1() || x0 >= x1 {
            return;
        }
        let w = (x1 - x0) as usize;
        let shade = self
            .shade
            .as_ref()
            .map(|s| s.samples((x0, x1), (first, band.y1())));
        let segs = self
            .band_segments
            .get(band.index)
            .map_or(&[][..], |v| &v[..]);
        let stones = self.band_stones.get(band.index).map_or(&[][..], |v| &v[..]);
        // Per pixel of a row: the nearest furrow (its distance in widths,
        // and its light), and the stones' shadow.
        let mut key = vec![f32::INFINITY; w];
        let mut furrow = vec![1.0f32; w];
        let mut groove = vec![0.0f32; w];
        let mut dark = vec![0.0f32; w];
        let flat = self.sun * self.light[2].max(0.0) + self.sky;
        let mut samples: Vec<[f32; 3]> = Vec::new();
        let mut memo = Memo::new(&self.crust);
        for y in first..band.y1() {
            let r = &self.rows[(y - self.first) as usize];
            key.fill(f32::INFINITY);
            furrow.fill(1.0);
            groove.fill(0.0);
            dark.fill(0.0);
            let zx = r.z / self.focal;
            let (foot_x, foot_z) = (1.0 / r.k_across, 1.0 / r.k_depth);
            for &i in segs {
                let s = &self.segments[i as usize];
                if (y as i32) < s.rows.0 || (y as i32) >= s.rows.1 {
                    continue;
                }
                let (a, b) = line_span(s.line, s.reach, y);
                let (a, b) = (a.max(x0 as i32), b.min(x1 as i32));
                // The pixel's footprint across the furrow, ground units.
                let fp = s.dir[1].abs() * foot_x + s.dir[0].abs() * foot_z;
                let hw = s.hw.max(0.75 * fp);
                let amp = s.hw / hw * s.strength;
                // Pixels farther than this squared (a little over 1.9
                // widths, above any rounding) are out of the furrow's
                // reach: no square root for them.
                let beyond = (1.92 * hw) * (1.92 * hw);
                for x in a.max(0)..b.max(0) {
                    let gx = (x as f32 + 0.5 - self.half_width) * zx;
                    let (px, pz) = (gx - s.a[0], r.z - s.a[1]);
                    let t = (px * s.dir[0] + pz * s.dir[1]).clamp(0.0, s.len);
                    let (dx, dz) = (px - s.dir[0] * t, pz - s.dir[1] * t);
                    let d2 = dx * dx + dz * dz;
                    if d2 > beyond {
                        continue;
                    }
                    let q = d2.sqrt() / hw;
                    let j = (x as u32 - x0) as usize;
                    if q >= 1.9 || q >= key[j] {
                        continue;
                    }
                    key[j] = q;
                    // The furrow's cross-section: a groove, a low rim; its
                    // slope tilts the ground toward or away from the light.
                    let side = if s.dir[0] * dz - s.dir[1] * dx >= 0.0 {
                        1.0
                    } else {
                        -1.0
                    };
                    let (slope, deep) = if q < 1.0 {
                        (2.0 * q, 1.0 - q * q)
                    } else {
                        let e = (q - 1.45) / 0.45;
                        let slope = if e.abs() < 1.0 { -0.6 * e / 0.45 } else { 0.0 };
                        (slope, 0.0)
                    };
                    let tilt = 0.22 * slope * side * amp;
                    // Normal: up, tipped across the furrow.
                    let (nx, nz) = (s.dir[1] * tilt, -s.dir[0] * tilt);
                    let n = (1.0 + tilt * tilt).sqrt();
                    let dot = ((nx * self.light[0] + nz * self.light[1]) + self.light[2]) / n;
                    let lit = (self.sun * dot.max(0.0) + self.sky * (0.8 + 0.2 / n)) / flat;
                    furrow[j] = lit * (1.0 - 0.08 * deep * amp);
                    groove[j] = deep * amp;
                }
            }
            for &i in stones {
                let st = &self.stones[i as usize];
                if st.shadow <= 0.0
                    || (y as i32) < st.shadow_rows.0
                    || (y as i32) >= st.shadow_rows.1
                {
                    continue;
                }
                let (a, b) = line_span(st.shadow_line, st.shadow_reach, y);
                let (a, b) = (a.max(x0 as i32), b.min(x1 as i32));
                let len2 = st.to[0] * st.to[0] + st.to[1] * st.to[1];
                for x in a.max(0)..b.max(0) {
                    let gx = (x as f32 + 0.5 - self.half_width) * zx;
                    let (px, pz) = (gx - st.foot[0], r.z - st.foot[1]);
                    let t = ((px * st.to[0] + pz * st.to[1]) / len2.max(1e-12)).clamp(0.0, 1.0);
                    let (dx, dz) = (px - st.to[0] * t, pz - st.to[1] * t);
                    // Narrowing toward the tip, softening as it goes.
                    let radius = st.r * (1.0 - 0.45 * t);
                    let d = (dx * dx + dz * dz).sqrt() / radius;
                    let s = st.shadow * (1.0 - smoothstep(0.55 - 0.2 * t, 1.1 + 0.3 * t, d));
                    let j = (x as u32 - x0) as usize;
                    dark[j] = dark[j].max(s);
                }
            }
            let op = r.cover * self.opacity;
            let row = band.row(y);
            // The patches and the cracks' bending are smooth: worked out
            // on every `STEP`th column of the picture and interpolated
            // (exact quarters: the same bits in any window).
            const STEP: u32 = 4;
            samples.clear();
            for i in x0 / STEP..=(x1 - 1) / STEP + 1 {
                let gx = ((i * STEP) as f32 + 0.5 - self.half_width) * zx;
                let patch = 0.06 * r.patches * smooth(gx * 0.3, r.z * 0.3, self.patch_seed);
                let [du, dv] = if r.detail > 0.0 {
                    self.crust.warp(gx, r.z)
                } else {
                    [0.0; 2]
                };
                samples.push([patch, du, dv]);
            }
            for (j, c) in row.iter_mut().enumerate() {
                let x = x0 + j as u32;
                let i = (x / STEP - x0 / STEP) as usize;
                let t = (x % STEP) as f32 * (1.0 / STEP as f32);
                let (a, b) = (samples[i], samples[i + 1]);
                let smooth = [
                    a[0] + (b[0] - a[0]) * t,
                    a[1] + (b[1] - a[1]) * t,
                    a[2] + (b[2] - a[2]) * t,
                ];
                let (k, crack) = self.mud(&mut memo, r, x, y, smooth);
                let crack = crack * self.cracks * 0.85 * (1.0 - 0.5 * groove[j]);
                let mut gain = k * (1.0 - crack) * furrow[j] * (1.0 - dark[j]);
                gain = 1.0 + (gain - 1.0) * r.contrast;
                if let Some(s) = &shade {
                    gain *= s.at(x, y);
                }
                let over = scale(r.color, gain);
                if op >= 1.0 {
                    *c = over;
                } else {
                    blend(c, over, op);
                }
            }
            // The stones, far to near.
            for &i in stones {
                let st = &self.stones[i as usize];
                if (y as i32) < st.rows.0 || (y as i32) >= st.rows.1 {
                    continue;
                }
                let nv = (y as f32 + 0.5 - st.cy) / st.ry;
                let a = ((st.cx - 1.3 * st.rx).floor() as i32).max(x0 as i32);
                let b = ((st.cx + 1.3 * st.rx).ceil() as i32 + 1).min(x1 as i32);
                for x in a.max(0)..b.max(0) {
                    let nu = (x as f32 + 0.5 - st.cx) / st.rx;
                    let r2 = nu * nu + nv * nv;
                    if r2 > 1.9 {
                        continue;
                    }
                    let rr = r2.sqrt().max(1e-6);
                    let (ca, sa) = (nu / rr, nv / rr);
                    let outline = 1.0
                        + st.wobble[0] * (ca * ca - sa * sa)
                        + st.wobble[1] * 2.0 * ca * sa
                        + st.wobble[2] * (4.0 * ca * ca * ca - 3.0 * ca);
                    let edge = (outline - rr) * st.rx.min(st.ry);
                    let alpha = (edge + 0.5).clamp(0.0, 1.0);
                    if alpha <= 0.0 {
                        continue;
                    }
                    // A dome: its top turned up, its front to the viewer.
                    let (u, v) = (nu / outline, nv / outline);
                    let nz = (1.0 - u * u - v * v).max(0.0).sqrt();
                    let (mut n0, mut n1, mut n2) = (u, 0.35 - 0.8 * v, nz + 0.15);
                    let norm = (n0 * n0 + n1 * n1 + n2 * n2).sqrt();
                    (n0, n1, n2) = (n0 / norm, n1 / norm, n2 / norm);
                    let l = [self.light[0], self.light[2], -self.light[1]];
                    let lambert = (n0 * l[0] + n1 * l[1] + n2 * l[2]).max(0.0);
                    let up = 0.5 + 0.5 * n1;
                    let grain = 1.0
                        + 0.12 * smooth(u * 5.0, v * 5.0, st.grain)
                        + 0.06 * smooth(u * 13.0, v * 13.0, st.grain >> 3);
                    // Darker where it meets the mud.
                    let foot = 1.0 - 0.4 * smoothstep(0.35, 1.0, v);
                    // The sun catches the rim on its side.
                    let rim = 0.6 * smoothstep(0.75, 1.0, rr / outline) * lambert;
                    let mut color = [0.0; 3];
                    for (ch, color) in color.iter_mut().enumerate() {
                        *color = st.albedo[ch]
                            * grain
                            * foot
                            * (st.direct[ch] * (lambert + rim)
                                + st.ambient[ch] * up
                                + st.bounce[ch] * (1.0 - up));
                    }
                    let color = mix(color, st.haze, st.hazed);
                    blend(
                        &mut row[(x as u32 - x0) as usize],
                        color,
                        alpha * self.opacity,
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pixel_is_covered_by_as_much_line_as_lies_in_it() {
        assert_eq!(coverage(0.0, 0.5), 1.0);
        assert!((coverage(0.0, 0.1) - 0.2).abs() < 1e-6);
        assert!((coverage(0.5, 0.5) - 0.5).abs() < 1e-6);
        assert_eq!(coverage(2.0, 0.5), 0.0);
    }

    /// Old crust is hexagons: its edges zigzag as far as its splits are
    /// apart; fresh crust's edges run straight, and its splits are placed
    /// at random.
    #[test]
    fn old_crust_zigzags_and_fresh_crust_runs_straight() {
        let old = Crust::new(
            &Racetrack {
                age: 1.0,
                ..Racetrack::default()
            },
            5,
        );
        let fresh = Crust::new(
            &Racetrack {
                age: 0.0,
                ..Racetrack::default()
            },
            5,
        );
        let spread = |c: &Crust| {
            let e: Vec<f32> = (0..40).map(|i| c.edge(3, i as f32 * 0.05)).collect();
            e.iter().cloned().fold(f32::MIN, f32::max) - e.iter().cloned().fold(f32::MAX, f32::min)
        };
        assert!(
            (spread(&old) - 2.0 * 0.2887).abs() < 0.02,
            "{}",
            spread(&old)
        );
        assert!(spread(&fresh) < 1e-4, "{}", spread(&fresh));
        // Old splits sit at the hexagons' corners, exactly half a cell on
        // from the strip below.
        assert_eq!(old.split(4, 2), 2.0);
        assert_eq!(old.split(5, 2), 2.5);
        assert!((0..20).any(|k| (fresh.split(4, k) - k as f32).abs() > 0.05));
    }
}
