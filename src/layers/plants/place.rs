//! Where the plants stand, and each plant as the parts it is drawn from,
//! in the picture's pixels: large creosote bushes on a jittered grid of
//! the ground, small ones beside the automaton's clumps, Joshua trees
//! grown from a trunk that forks in pairs.
//!
//! The ground is seen in perspective: a plant `q` times as deep as the
//! nearest ground (`q` from 1 to the depth ratio near / far) stands on row
//! `y_v + (y_near − y_v) / q` and is `1 / q` as large. Lengths on the
//! ground are in heights of a large creosote bush (units).

use super::Plants;
use crate::base::color::{Linear, add, mix, mul, scale};
use crate::base::math;
use crate::base::noise::{Dice, hash2, smoothstep, sub_seed};
use crate::layers::Frame;

/// The nearest ground plants stand on, fraction of the height from the
/// top (the stones' nearest row, as the rocks layer lays it by default).
pub(super) const NEAREST: f32 = 0.98;
/// The gap between the horizon and the farthest ground, fraction of the
/// height (the stones' farthest row, by default).
const FAR_GAP: f32 = 0.02;
/// The tallest a Joshua tree grows over the layer's `height`.
pub(super) const TALLEST: f32 = 1.25;
/// Large bushes per unit² of ground at `creosote` 1.
pub(super) const LARGE_DENSITY: f32 = 0.22;
/// The most large bushes placed: a denser field is spaced wider.
const MOST_LARGE: f32 = 4000.0;
/// The stones' sizes near and far, as the rocks layer places them by
/// default: the small bushes stand beside the clumps where they lie.
const STONES: (f32, f32) = (0.042, 0.022);

/// The ground in perspective, as the plants stand on it.
pub(super) struct Ground {
    /// Rows (px) of the nearest and farthest ground, and of the line the
    /// ground's depths converge to.
    y_near: f32,
    y_v: f32,
    /// The farthest ground's depth over the nearest's (1.25 to 40).
    pub depth: f32,
    near: f32,
    far: f32,
    h: f32,
}

impl Ground {
    /// The ground of `plants` under a horizon at `horizon` (fraction of
    /// the height) in a picture `h` pixels high.
    pub fn of(plants: &Plants, horizon: f32, h: f32) -> Ground {
        let depth = (plants.near_size / plants.far_size).clamp(1.25, 40.0);
        let (y_near, y_far) = (NEAREST * h, (horizon + FAR_GAP) * h);
        Ground {
            y_near,
            y_v: (depth * y_far - y_near) / (depth - 1.0),
            depth,
            near: plants.near_size,
            far: plants.far_size,
            h,
        }
    }

    /// The row (px) of ground at depth `q`.
    pub fn y(&self, q: f32) -> f32 {
        self.y_v + (self.y_near - self.y_v) / q
    }

    /// The depth of the ground at row `y` (px).
    pub fn q(&self, y: f32) -> f32 {
        (self.y_near - self.y_v) / (y - self.y_v).max(1e-3)
    }

    /// A large bush's height at depth `q`, fraction of the height: from
    /// `near_size` at 1 to `far_size` at the farthest, as 1 / depth.
    pub fn size(&self, q: f32) -> f32 {
        let t = (q - 1.0) / (self.depth - 1.0);
        1.0 / (1.0 / self.near + t * (1.0 / self.far - 1.0 / self.near))
    }

    /// Pixels per unit at depth `q`.
    fn unit(&self, q: f32) -> f32 {
        self.size(q) * self.h
    }

    /// Screen rows per pixel of depth on the ground at row `y`: how flat
    /// the ground's shapes (the shadows) lie there.
    fn flat(&self, y: f32) -> f32 {
        ((y - self.y_v) / self.h).clamp(0.03, 0.6)
    }
}

/// The large bushes' density per unit² of ground, before a dense field is
/// thinned.
pub(super) fn large_density(plants: &Plants) -> f32 {
    LARGE_DENSITY * plants.creosote
}

/// The light a plant is lit by, and the haze in front of it.
#[derive(Clone, Copy)]
pub(super) struct Look {
    /// The sun's light, less under a cloud.
    pub direct: Linear,
    pub ambient: Linear,
    /// Light from the sand, on faces turned down.
    pub bounce: Linear,
    /// Toward the light: x right, y up, z toward the viewer.
    pub light: [f32; 3],
    pub fog: Linear,
    /// How much of the fog lies in front of the plant, 0..1.
    pub haze: f32,
}

impl Look {
    /// The colour of `albedo` with normal `n` (y up), its ambient light
    /// scaled by `open`, seen through the haze.
    #[inline]
    pub fn shade(&self, albedo: Linear, n: [f32; 3], open: f32) -> Linear {
        let [lx, ly, lz] = self.light;
        let lambert = (n[0] * lx + n[1] * ly + n[2] * lz).max(0.0);
        // Sun behind the plant: its edges on the sun's side glow.
        let rim = (n[0] * lx).max(0.0) * (1.0 - n[2]) * (-lz).max(0.0) * 0.6;
        let light = add(
            add(
                scale(self.direct, lambert + rim),
                scale(self.ambient, open * (0.6 + 0.4 * n[1])),
            ),
            scale(self.bounce, (-n[1]).max(0.0)),
        );
        mix(mul(albedo, light), self.fog, self.haze)
    }
}

/// A shaggy limb of a Joshua tree: a tapered capsule from `a` to `b`
/// (px), its edge frayed and its bark streaked with dead leaves.
pub(super) struct Limb {
    pub a: [f32; 2],
    pub b: [f32; 2],
    pub ra: f32,
    pub rb: f32,
    /// How much of it is thatched with dead leaves, 0 (bare bark) to 1.
    pub thatch: f32,
    /// No limb below this row (px): the trunk stands on the ground.
    pub ground: f32,
    pub seed: u32,
}

/// One leaf of a cluster: a spike from the cluster's centre.
pub(super) struct Spike {
    /// Unit direction on the picture (y down).
    pub e: [f32; 2],
    pub len: f32,
    pub inv_len: f32,
    /// Half-width at its base (px).
    pub w: f32,
    /// Its colour, lit and hazed.
    pub color: Linear,
}

/// A Joshua tree's spiky cluster of leaves at a branch's tip.
pub(super) struct Rosette {
    pub c: [f32; 2],
    pub r: f32,
    pub core: Linear,
    pub spikes: Vec<Spike>,
    /// Per [`SECTORS`]th of the turn around the centre, the spikes that
    /// may cover a pixel there beyond [`Rosette::inner`] (by index, in
    /// order).
    pub sectors: Vec<Vec<u8>>,
    /// Within this radius (px) every spike is looked at.
    pub inner: f32,
    /// As [`Rosette::sectors`], from half of [`Rosette::inner`] out to
    /// it: the spikes a pixel there may lie on, fewer than all.
    pub near: Vec<Vec<u8>>,
    /// [`Rosette::sectors`] and [`Rosette::near`] as sets, bit `i` for
    /// spike `i`: what the shaders of several pixels at once look up.
    pub sector_bits: [u32; SECTORS],
    pub near_bits: [u32; SECTORS],
}

/// Sectors of a leaf cluster's turn ([`Rosette::sectors`]).
pub(super) const SECTORS: usize = 24;

/// Where the direction (`x`, `y`) lies around the turn, 0 to 4: a
/// "diamond angle", growing with the angle as it does, but worked out
/// with a division alone.
#[inline]
pub(super) fn diamond(x: f32, y: f32) -> f32 {
    let s = x.abs() + y.abs();
    if s <= 0.0 {
        return 0.0;
    }
    let (x, y) = (x / s, y / s);
    if y >= 0.0 {
        if x >= 0.0 { y } else { 1.0 - x }
    } else if x < 0.0 {
        2.0 - y
    } else {
        3.0 + x
    }
}

impl Rosette {
    /// Files each spike under the sectors a pixel it covers may lie in,
    /// beyond `inner`: within its half-angle there, `asin((w + 0.5) /
    /// inner)` of its direction, and a margin.
    /// The lists of [`Rosette::sectors`] as sets of bits.
    fn bits(lists: &[Vec<u8>]) -> [u32; SECTORS] {
        std::array::from_fn(|k| lists[k].iter().fold(0, |set, &i| set | 1 << i))
    }

    fn sectors(spikes: &[Spike], inner: f32) -> Vec<Vec<u8>> {
        let per = SECTORS as f32 / 4.0;
        let mut sectors = vec![Vec::new(); SECTORS];
        for (i, s) in spikes.iter().enumerate() {
            let a = math::atan2(s.e[1], s.e[0]);
            let half = math::asin(((s.w + 0.5) / inner).min(1.0)) + 0.05;
            let at = |a: f32| diamond(math::cos(a), math::sin(a));
            let (lo, hi) = ((at(a - half) * per) as i32, (at(a + half) * per) as i32);
            // The sectors from `lo` on to `hi`, round the turn if need be.
            let hi = if hi < lo { hi + SECTORS as i32 } else { hi };
            for k in lo..=hi {
                sectors[k as usize % SECTORS].push(i as u8);
            }
        }
        for list in &mut sectors {
            list.sort_unstable();
            list.dedup();
        }
        sectors
    }
}

/// A creosote bush: a rounded, open crown of small leaves on stems that
/// fan out from the ground.
pub(super) struct Bush {
    /// Centre of its foot on the ground (px).
    pub foot: [f32; 2],
    /// Half-width and height (px).
    pub hw: f32,
    pub ht: f32,
    /// How far the crown's top leans aside (px).
    pub lean: f32,
    /// Per pixel: how fine its leaves are, and how much they show.
    pub leaf: f32,
    pub grain: f32,
    pub albedo: Linear,
    pub stem: Linear,
    /// Stems' tips, in half-widths across and heights up from the foot.
    pub stems: [[f32; 2]; 5],
    /// Unit vectors across the stems, in heights: how far a point is from
    /// a stem's line, to skip the stems far from a pixel.
    pub across: [[f32; 2]; 5],
    pub seed: u32,
}

/// A part of a plant's body.
pub(super) enum Part {
    Limb(Limb),
    Rosette(Rosette),
    Bush(Bush),
}

/// A part of a plant's shadow: a capsule on the ground, in pixel columns
/// across and pixels of depth from the plant's foot (toward the viewer),
/// with a soft edge.
pub(super) struct Umbra {
    pub a: [f32; 2],
    pub b: [f32; 2],
    pub r: f32,
    pub soft: f32,
}

/// A plant as it is drawn.
pub(super) struct Plant {
    /// Its foot's row (px), where it stands.
    pub foot: f32,
    /// Screen rows per pixel of depth at its foot ([`Ground::flat`]).
    pub flat: f32,
    /// Its parts in drawing order, each with its box `[x0, y0, x1, y1]`.
    pub parts: Vec<([i32; 4], Part)>,
    /// Its shadow's parts and their boxes.
    pub umbrae: Vec<([i32; 4], Umbra)>,
    /// How dark its shadow is where it is whole, 0..1.
    pub shadow: f32,
    pub look: Look,
    /// The boxes of its body and of its shadow.
    pub body: [i32; 4],
    pub shade: [i32; 4],
}

/// The box of a circle of radius `r` around `c`, a pixel wider.
fn disc_box(c: [f32; 2], r: f32) -> [i32; 4] {
    [
        (c[0] - r - 1.0).floor() as i32,
        (c[1] - r - 1.0).floor() as i32,
        (c[0] + r + 1.0).ceil() as i32,
        (c[1] + r + 1.0).ceil() as i32,
    ]
}

/// The union of two boxes.
fn union(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

/// Where the stones lie, as the rocks layer lays its grid by default: the
/// picture's row of a grid row and back, and the stones' size there.
struct Stones {
    depth: f32,
    y_far: f32,
    rows: f32,
    cols: f32,
    h: f32,
    w: f32,
}

impl Stones {
    fn of(f: &Frame) -> Stones {
        Stones {
            depth: STONES.0 / STONES.1,
            y_far: f.horizon_frac + FAR_GAP,
            rows: f.grid.height() as f32,
            cols: f.grid.width() as f32,
            h: f.h,
            w: f.w,
        }
    }

    /// The row (px) of (fractional) grid row `r`, and the stones' size
    /// there (px), as the rocks layer's `place` works them out.
    fn at(&self, r: f32) -> (f32, f32) {
        let depth = self.depth;
        let t = ((r + 0.5) / self.rows).clamp(0.0, 1.0);
        let s = 1.0 / (depth + (1.0 - depth) * t);
        let norm = (s - 1.0 / depth) / (1.0 - 1.0 / depth);
        (
            (self.y_far + (NEAREST - self.y_far) * norm) * self.h,
            STONES.0 * s * self.h,
        )
    }

    /// The (fractional) grid row at picture row `y` (px).
    fn row(&self, y: f32) -> f32 {
        let depth = self.depth;
        let norm = (y / self.h - self.y_far) / (NEAREST - self.y_far);
        let s = (norm * (1.0 - 1.0 / depth) + 1.0 / depth).max(1e-3);
        (1.0 / s - depth) / (1.0 - depth) * self.rows - 0.5
    }

    /// The (fractional) grid column at picture column `x` (px).
    fn col(&self, x: f32) -> f32 {
        x / self.w * self.cols - 0.5
    }
}

/// What placing the plants of one picture shares.
pub(super) struct Placer<'a> {
    plants: &'a Plants,
    f: &'a Frame<'a>,
    ground: Ground,
    seed: u32,
    /// A shadow's run on the ground per pixel of height: across, and in
    /// pixels of depth toward the viewer.
    cast: [f32; 2],
    /// The lean per pixel of height, across and toward the viewer.
    lean: [f32; 2],
    /// The tents' clearings: centre and radii (px).
    clearings: Vec<[f32; 4]>,
    stones: Stones,
}

/// A place on the ground: across (units from the middle) and depth (`q`).
#[derive(Clone, Copy)]
struct Spot {
    x: f32,
    q: f32,
}

impl<'a> Placer<'a> {
    pub fn new(plants: &'a Plants, f: &'a Frame<'a>) -> Placer<'a> {
        let light = f.palette.light;
        // Shadows fall away from the sun, longer when it is low.
        let flat = (light[0] * light[0] + light[2] * light[2]).sqrt().max(1e-3);
        let len = (flat / light[1].max(0.12)).clamp(0.35, 2.5);
        let cast = [-light[0] / flat * len, -light[2] / flat * len];
        let lean = [
            plants.lean * f.wind[0] * 0.1,
            -plants.lean * f.wind[1] * 0.1,
        ];
        Placer {
            plants,
            f,
            ground: Ground::of(plants, f.horizon_frac, f.h),
            seed: sub_seed(f.seed, 700),
            cast,
            lean,
            clearings: f
                .clearings
                .iter()
                .map(|c| [c.x * f.h, c.y * f.h, c.rx * f.h, c.ry * f.h])
                .collect(),
            stones: Stones::of(f),
        }
    }

    /// Whether a stone lies within `half` pixels of `p` across (and a
    /// third of that in depth): a plant there would stand on it.
    fn stony(&self, p: [f32; 2], half: f32) -> bool {
        let st = &self.stones;
        let grid = self.f.grid;
        let (cols, rows) = (grid.width() as i32, grid.height() as i32);
        let d = st.at(st.row(p[1])).1;
        let reach_x = (half + 0.6 * d) / (st.w / st.cols);
        let (r0, r1) = (
            st.row(p[1] - 0.35 * (half + d)),
            st.row(p[1] + 0.35 * (half + d)),
        );
        let c = st.col(p[0]);
        let (c0, c1) = ((c - reach_x).round() as i32, (c + reach_x).round() as i32);
        let (r0, r1) = (r0.round() as i32, r1.round() as i32);
        (r0.max(0)..=r1.min(rows - 1))
            .any(|r| (c0.max(0)..=c1.min(cols - 1)).any(|c| grid.get(c as usize, r as usize)))
    }

    /// The picture's point of a spot on the ground.
    fn at(&self, s: Spot) -> [f32; 2] {
        [
            0.5 * self.f.w + s.x * self.ground.unit(s.q),
            self.ground.y(s.q),
        ]
    }

    /// Whether a plant `half` pixels wide at `p` stands on a tent's
    /// clearing.
    fn cleared(&self, p: [f32; 2], half: f32) -> bool {
        self.clearings.iter().any(|&[cx, cy, rx, ry]| {
            let (u, v) = ((p[0] - cx) / (rx + half), (p[1] - cy) / (ry + 0.3 * half));
            u * u + v * v < 1.0
        })
    }

    /// Every plant, far to near.
    pub fn plants(&self) -> Vec<Plant> {
        let trees = self.tree_spots();
        let mut plants: Vec<Plant> = Vec::new();
        for (k, s) in trees.iter().enumerate() {
            plants.push(self.joshua(*s, Dice::new(hash2(k as u32, 0x705a, self.seed))));
        }
        self.large_bushes(&trees, &mut plants);
        self.small_bushes(&mut plants);
        // Far to near; on a row, west to east.
        plants.sort_by(|a, b| {
            (a.foot, a.body[0])
                .partial_cmp(&(b.foot, b.body[0]))
                .expect("finite")
        });
        plants
    }

    /// Where the Joshua trees stand: by seed, most toward the near ground,
    /// apart from each other and off the tents' clearings.
    fn tree_spots(&self) -> Vec<Spot> {
        let g = &self.ground;
        let mut spots: Vec<Spot> = Vec::new();
        for k in 0..self.plants.joshua {
            let mut dice = Dice::new(hash2(k, 0x7ee, self.seed));
            for _ in 0..8 {
                let u = dice.unit();
                let q = 1.0 + (g.depth - 1.0) * u * u.sqrt();
                let half = 0.5 * self.f.w / g.unit(q);
                let s = Spot {
                    x: dice.signed() * 0.95 * half,
                    q,
                };
                let apart = spots.iter().all(|o| {
                    let (dx, dz) = (s.x - o.x, (s.q - o.q) / self.plants.near_size);
                    dx * dx + dz * dz > 9.0
                });
                let at = self.at(s);
                if apart && !self.cleared(at, g.unit(q)) && !self.stony(at, 0.6 * g.unit(q)) {
                    spots.push(s);
                    break;
                }
            }
        }
        spots
    }

    /// The large bushes: a jittered grid on the ground, one bush a cell
    /// (the grid's spacing set by `creosote`), none at a tree's foot.
    fn large_bushes(&self, trees: &[Spot], plants: &mut Vec<Plant>) {
        let density = large_density(self.plants);
        if density <= 0.0 {
            return;
        }
        let g = &self.ground;
        // Depth in units: the nearest ground is 1 / near_size away.
        let z0 = 1.0 / self.plants.near_size;
        let (z_near, z_far) = (z0, z0 * g.depth);
        let half = |z: f32| 0.5 * self.f.w / g.unit(z / z0) + 1.0;
        let mut step = 1.0 / density.sqrt();
        // The ground's area, to thin a field too dense to draw.
        let area = 0.5 * (z_far - z_near) * 2.0 * (half(z_near) + half(z_far));
        if area / (step * step) > MOST_LARGE {
            step = (area / MOST_LARGE).sqrt();
        }
        let (j0, j1) = ((z_near / step).floor() as i32, (z_far / step).ceil() as i32);
        for j in j0..j1 {
            let hw = half((j as f32 + 0.5) * step) + step;
            let (i0, i1) = ((-hw / step).floor() as i32, (hw / step).ceil() as i32);
            for i in i0..i1 {
                let mut dice = Dice::new(hash2(i as u32, j as u32, self.seed ^ 0xb05));
                if dice.unit() > 0.92 {
                    continue;
                }
                let x = (i as f32 + 0.5 + 0.7 * (dice.unit() - 0.5)) * step;
                let z = (j as f32 + 0.5 + 0.7 * (dice.unit() - 0.5)) * step;
                if z < z_near || z > z_far {
                    continue;
                }
                let s = Spot { x, q: z / z0 };
                let near_tree = trees.iter().any(|t| {
                    let (dx, dz) = (x - t.x, z - t.q * z0);
                    dx * dx + dz * dz < 1.5
                });
                let size = 0.65 + 0.6 * dice.unit();
                let p = self.at(s);
                let u = g.unit(s.q) * size;
                if near_tree
                    || p[0] < -u
                    || p[0] > self.f.w + u
                    || self.cleared(p, 0.8 * u)
                    || self.stony(p, 0.7 * u)
                {
                    continue;
                }
                plants.push(self.bush(p, u, dice));
            }
        }
    }

    /// The small bushes: beside a share of the clumps of two or more cells,
    /// off to one side of their stones (where the rocks layer lays them by
    /// default), one to three together.
    fn small_bushes(&self, plants: &mut Vec<Plant>) {
        let f = self.f;
        let cols = f.grid.width() as f32;
        for (k, clump) in f.clumps.iter().enumerate() {
            if clump.cells < 2 {
                continue;
            }
            let mut dice = Dice::new(hash2(k as u32, 0x5a11, self.seed));
            if dice.unit() >= self.plants.clumped {
                continue;
            }
            let (cx, cy) = clump.centroid;
            let (y, d) = self.stones.at(cy as f32);
            let x = (cx as f32 + 0.5) / cols * f.w;
            let reach =
                0.5 * ((clump.max_x - clump.min_x).max(clump.max_y - clump.min_y) as f32) + 1.0;
            // How far the clump's stones reach from its centre.
            let extent = d * (0.6 + 0.3 * reach);
            let side = if dice.unit() < 0.5 { -1.0 } else { 1.0 };
            let count = 1 + u32::from(clump.cells >= 4) + u32::from(dice.unit() < 0.35);
            let u = self.ground.unit(self.ground.q(y));
            let mut along = extent;
            for n in 0..count {
                let size = (0.35 + 0.25 * dice.unit()) * if n == 0 { 1.0 } else { 0.8 };
                let hw = 0.8 * u * size;
                along += hw * (0.8 + 0.4 * dice.unit());
                let mut p = [x + side * along, y + d * (0.6 * dice.signed() - 0.25)];
                // On along the row until clear of the stones.
                for _ in 0..6 {
                    if !self.stony(p, 0.8 * hw) {
                        break;
                    }
                    along += 0.5 * hw;
                    p[0] = x + side * along;
                }
                along += hw;
                if p[1] <= f.horizon + 1.0 || self.cleared(p, hw) || self.stony(p, 0.8 * hw) {
                    continue;
                }
                let u = self.ground.unit(self.ground.q(p[1]));
                plants.push(self.bush(p, u * size, dice));
            }
        }
    }

    /// The light and haze of a plant standing at `p`.
    fn look(&self, p: [f32; 2]) -> (Look, f32) {
        let f = self.f;
        let pal = &f.palette;
        let sun = f.shade.as_ref().map_or(1.0, |s| s.light(p[0], p[1]));
        // Aerial perspective: the farther (the nearer the horizon), the
        // more of the horizon's haze in front.
        let dist = f.h / (p[1] - f.horizon).max(0.5);
        let look = Look {
            direct: scale(pal.direct, sun),
            ambient: pal.ambient,
            bounce: scale(mul(f.ground, pal.ground), 0.3),
            light: pal.light,
            fog: pal.horizon,
            haze: 1.0 - math::exp(-0.006 * dist),
        };
        (look, sun)
    }

    /// How dark a plant's shadow is, in light `sun` (less under a cloud).
    fn darkness(&self, sun: f32) -> f32 {
        (self.f.palette.shadow * self.plants.shadow * sun * 0.95).min(0.92)
    }

    /// A creosote bush standing at `p`, `u` pixels high.
    fn bush(&self, p: [f32; 2], u: f32, mut dice: Dice) -> Plant {
        let (ht, hw) = (u, u * (0.7 + 0.2 * dice.unit()));
        let (look, sun) = self.look(p);
        let tone = 0.8 + 0.35 * dice.unit();
        let albedo = scale(self.plants.creosote_color.linear(), tone);
        let lean = self.lean[0] * ht;
        let stems = std::array::from_fn(|k| {
            let across = (k as f32 - 2.0) * 0.32 + 0.12 * dice.signed();
            [across, 0.5 + 0.1 * dice.unit()]
        });
        let across = stems.map(|s: [f32; 2]| {
            // As the stem's tip is drawn.
            let tip = [s[0] * hw / ht, s[1]];
            let len = (tip[0] * tip[0] + tip[1] * tip[1]).sqrt();
            [-tip[1] / len, tip[0] / len]
        });
        let bush = Bush {
            foot: p,
            hw,
            ht,
            lean,
            leaf: 1.0 / (0.06 * ht).max(0.7),
            grain: smoothstep(4.0, 18.0, ht),
            albedo,
            stem: scale([0.045, 0.037, 0.03], 1.0),
            stems,
            across,
            seed: dice.bits(),
        };
        let body = [
            (p[0] - 1.3 * hw - lean.abs() - 1.0).floor() as i32,
            (p[1] - 1.1 * ht - 1.0).floor() as i32,
            (p[0] + 1.3 * hw + lean.abs() + 1.0).ceil() as i32,
            (p[1] + 1.0).ceil() as i32,
        ];
        // Its shadow: from its foot to under its crown's middle.
        let c = 0.55 * ht;
        let umbra = Umbra {
            a: [p[0], 0.0],
            b: [p[0] + lean * 0.5 + c * self.cast[0], c * self.cast[1]],
            r: 0.85 * hw,
            soft: 0.35 * hw + 0.6,
        };
        let flat = self.ground.flat(p[1]);
        let shadow = self.darkness(sun);
        self.plant(
            p,
            flat,
            vec![(body, Part::Bush(bush))],
            vec![umbra],
            look,
            shadow,
        )
    }

    /// A plant from its parts, its umbrae boxed on the ground.
    fn plant(
        &self,
        p: [f32; 2],
        flat: f32,
        parts: Vec<([i32; 4], Part)>,
        umbrae: Vec<Umbra>,
        look: Look,
        shadow: f32,
    ) -> Plant {
        let umbrae: Vec<([i32; 4], Umbra)> = umbrae
            .into_iter()
            .map(|u| {
                let e = u.r + u.soft;
                let b = [
                    (u.a[0].min(u.b[0]) - e - 1.0).floor() as i32,
                    (p[1] + flat * (u.a[1].min(u.b[1]) - e) - 1.0).floor() as i32,
                    (u.a[0].max(u.b[0]) + e + 1.0).ceil() as i32,
                    (p[1] + flat * (u.a[1].max(u.b[1]) + e) + 1.0).ceil() as i32,
                ];
                (b, u)
            })
            .collect();
        let boxes =
            |list: &mut dyn Iterator<Item = [i32; 4]>| list.reduce(union).unwrap_or([0, 0, 0, 0]);
        let body = boxes(&mut parts.iter().map(|(b, _)| *b));
        let shade = boxes(&mut umbrae.iter().map(|(b, _)| *b));
        Plant {
            foot: p[1],
            flat,
            parts,
            umbrae,
            shadow,
            look,
            body,
            shade,
        }
    }

    /// A Joshua tree standing at spot `s`: a trunk unbranched to its first
    /// fork (0.9 to 3 m of 5 to 10), then branches forking in pairs every
    /// 0.6 to 0.9 m, bending up, each tip a spiky cluster of leaves.
    fn joshua(&self, s: Spot, mut dice: Dice) -> Plant {
        let foot = self.at(s);
        let g = &self.ground;
        let meters = 5.0 + 5.0 * dice.unit();
        let tall = g.unit(s.q) * self.plants.height * (0.8 + (TALLEST - 0.8) * dice.unit());
        let m = tall / meters;
        let (look, sun) = self.look(foot);
        let lean = self.lean;
        // A point of the tree (meters: across, up, toward the viewer),
        // bent downwind, on the picture and its shadow on the ground.
        let bend = |p: [f32; 3]| {
            let k = p[1] * p[1] / meters;
            [p[0] + lean[0] * k, p[1], p[2] + lean[1] * k]
        };
        let screen = |p: [f32; 3]| {
            let p = bend(p);
            [foot[0] + p[0] * m, foot[1] - p[1] * m]
        };
        let ground = |p: [f32; 3]| {
            let p = bend(p);
            [
                foot[0] + (p[0] + p[1] * self.cast[0]) * m,
                (p[2] + p[1] * self.cast[1]) * m,
            ]
        };
        let leaves = self.plants.joshua_color.linear();
        let mut limbs: Vec<([i32; 4], Part)> = Vec::new();
        let mut rosettes: Vec<([i32; 4], Part)> = Vec::new();
        let mut umbrae = Vec::new();
        let limb = |a: [f32; 3], b: [f32; 3], ra: f32, rb: f32, thatch: f32, seed: u32| {
            let (pa, pb) = (screen(a), screen(b));
            let r = ra.max(rb) * m * 1.25 + 1.0;
            let bbox = [
                (pa[0].min(pb[0]) - r).floor() as i32,
                (pa[1].min(pb[1]) - r).floor() as i32,
                (pa[0].max(pb[0]) + r).ceil() as i32,
                ((pa[1].max(pb[1]) + r).ceil() as i32).min(foot[1].ceil() as i32 + 1),
            ];
            let part = Limb {
                a: pa,
                b: pb,
                ra: ra * m,
                rb: rb * m,
                thatch,
                ground: foot[1] + 0.5,
                seed,
            };
            let umbra = Umbra {
                a: ground(a),
                b: ground(b),
                r: 0.5 * (ra + rb) * m,
                soft: 0.5 + 0.02 * b[1] * m,
            };
            (bbox, part, umbra)
        };
        // The trunk.
        let trunk_r = 0.24 + 0.12 * dice.unit();
        let first = 0.9 + 2.1 * dice.unit();
        let top = [0.08 * dice.signed(), first, 0.08 * dice.signed()];
        let (b, p, u) = limb(
            [0.0, -0.05, 0.0],
            top,
            trunk_r * 1.15,
            trunk_r,
            0.35,
            dice.bits(),
        );
        limbs.push((b, Part::Limb(p)));
        umbrae.push(u);
        // Branches: (start, tilt from upright, azimuth, radius, forks so far).
        let mut open = vec![(
            top,
            0.12 * dice.signed(),
            std::f32::consts::TAU * dice.unit(),
            trunk_r * 0.85,
            0u32,
        )];
        let mut tips = Vec::new();
        let reach = meters * (0.8 + 0.15 * dice.unit());
        let mut segments = 0;
        while let Some((p, tilt, azimuth, r, forks)) = open.pop() {
            let grown = p[1] >= reach || forks >= 6 || segments >= 90;
            if grown || (forks >= 2 && dice.unit() < 0.1) {
                tips.push((p, tilt, azimuth));
                continue;
            }
            // The first flowering always forks; later ones, often.
            let fork = forks == 0 || (dice.unit() < 0.6 && tips.len() + open.len() < 28);
            let ways: &[f32] = if fork { &[-1.0, 1.0] } else { &[0.0] };
            let spread = if forks == 0 {
                0.45 + 0.3 * dice.unit()
            } else {
                0.3 + 0.3 * dice.unit()
            };
            for &way in ways {
                let tilt = ((tilt + way * spread) * 0.72 + 0.12 * dice.signed()).clamp(-1.2, 1.2);
                let azimuth = azimuth + 0.35 * dice.signed();
                let len = (0.6 + 0.3 * dice.unit()) * if forks == 0 { 1.2 } else { 1.0 };
                let (st, ct) = (math::sin(tilt), math::cos(tilt));
                let dir = [st * math::cos(azimuth), ct, st * math::sin(azimuth)];
                let end = [
                    p[0] + dir[0] * len,
                    p[1] + dir[1] * len,
                    p[2] + dir[2] * len,
                ];
                let rb = (r * 0.9).max(0.12);
                let thatch = 0.45 + 0.12 * forks as f32;
                let (b, part, u) = limb(p, end, r, rb, thatch, dice.bits());
                limbs.push((b, Part::Limb(part)));
                umbrae.push(u);
                segments += 1;
                let forks = forks + u32::from(fork);
                open.push((end, tilt, azimuth, if fork { rb * 0.9 } else { rb }, forks));
            }
        }
        // A cluster of leaves at each tip.
        for (p, tilt, azimuth) in tips {
            let r = 0.45 + 0.15 * dice.unit();
            let dir = [math::sin(tilt) * math::cos(azimuth), math::cos(tilt)];
            let c3 = [p[0] + dir[0] * 0.5 * r, p[1] + dir[1] * 0.5 * r, p[2]];
            let c = screen(c3);
            let rosette = self.rosette(c, r * m, [dir[0], dir[1]], leaves, &look, &mut dice);
            rosettes.push((disc_box(c, r * m * 1.05), Part::Rosette(rosette)));
            umbrae.push(Umbra {
                a: ground(c3),
                b: ground(c3),
                r: 0.75 * r * m,
                soft: 0.5 + 0.02 * c3[1] * m + 0.2 * r * m,
            });
        }
        // Limbs first, leaves over them; nearer leaves (lower) last.
        rosettes.sort_by(|a, b| a.0[3].cmp(&b.0[3]));
        limbs.extend(rosettes);
        let flat = g.flat(foot[1]);
        let shadow = self.darkness(sun);
        self.plant(foot, flat, limbs, umbrae, look, shadow)
    }

    /// A cluster of stiff, spiky leaves around `c` (px), `r` pixels long,
    /// pointing mostly along the branch's direction `dir` (y up), the
    /// lowest ones dead and drooping.
    fn rosette(
        &self,
        c: [f32; 2],
        r: f32,
        dir: [f32; 2],
        leaves: Linear,
        look: &Look,
        dice: &mut Dice,
    ) -> Rosette {
        let dead = [0.3, 0.24, 0.14];
        // (At most 32: the shaders keep a set of spikes in a `u32`.)
        let count = 26;
        let turn = std::f32::consts::TAU / count as f32;
        let spikes: Vec<Spike> = (0..count)
            .map(|k| {
                let a = (k as f32 + 0.8 * dice.signed()) * turn;
                let (mut ex, mut ey) = (math::cos(a), math::sin(a));
                // Leaves lean toward where the branch points.
                ex += 0.45 * dir[0];
                ey += 0.45 * dir[1];
                let n = (ex * ex + ey * ey).sqrt().max(1e-3);
                let (ex, ey) = (ex / n, ey / n);
                let down = smoothstep(0.0, -0.7, ey);
                let len = r * (0.7 + 0.3 * dice.unit()) * (1.0 - 0.35 * down);
                let tone = 0.75 + 0.5 * dice.unit();
                let albedo = scale(mix(leaves, dead, down * 0.85), tone);
                // A leaf faces out along its length, a little toward us.
                let normal = [ex * 0.75, ey * 0.75, 0.66];
                Spike {
                    e: [ex, -ey],
                    len,
                    inv_len: 1.0 / len.max(1e-6),
                    w: (0.09 * r).max(0.3),
                    color: look.shade(albedo, normal, 1.0),
                }
            })
            .collect();
        let inner = 0.35 * r + 1.0;
        let sectors = Rosette::sectors(&spikes, inner);
        let near = Rosette::sectors(&spikes, 0.5 * inner);
        Rosette {
            c,
            r,
            core: look.shade(scale(leaves, 0.55), [0.0, 0.3, 0.95], 0.8),
            sector_bits: Rosette::bits(&sectors),
            near_bits: Rosette::bits(&near),
            sectors,
            near,
            inner,
            spikes,
        }
    }
}

/// How much of a shadow's part covers the ground at column `x`, `depth`
/// pixels of depth from the plant's foot.
#[inline(always)]
pub(super) fn umbra(u: &Umbra, x: f32, depth: f32) -> f32 {
    let d = segment_distance([x, depth], u.a, u.b).0;
    smoothstep(u.r + u.soft, u.r - u.soft, d)
}

/// The distance from `p` to the segment `a`–`b`, where along it the
/// nearest point lies (0 at `a`, 1 at `b`), and `p` from that point.
#[inline(always)]
pub(super) fn segment_distance(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> (f32, f32, [f32; 2]) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let e = [p[0] - a[0] - dx * t, p[1] - a[1] - dy * t];
    ((e[0] * e[0] + e[1] * e[1]).sqrt(), t, e)
}

/// Coverage of a line `w` pixels wide at distance `d` from its middle.
#[inline(always)]
pub(super) fn thin(d: f32, w: f32) -> f32 {
    (0.5 * w + 0.5 - d).clamp(0.0, 1.0).min(w + 0.15)
}
