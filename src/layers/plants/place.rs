//! Where the plants stand: large creosote bushes on a jittered grid of
//! the ground, small ones beside the automaton's clumps, Joshua trees
//! apart from each other, all off the stones and the tents' clearings.
//!
//! The ground is seen in perspective: a plant `q` times as deep as the
//! nearest ground (`q` from 1 to the depth ratio near / far) stands on row
//! `y_v + (y_near − y_v) / q` and is `1 / q` as large. Lengths on the
//! ground are in heights of a large creosote bush (units).

use super::Plants;
use super::parts::Plant;
use crate::base::noise::{Dice, hash2, sub_seed};
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
    /// How much larger the eye sees a plant than at 1.6 m
    /// ([`crate::layers::world::World::scale`]).
    pub scale: f32,
}

impl Ground {
    /// The ground of `plants` under a horizon at `horizon` (fraction of
    /// the height) in a picture `h` pixels high, seen `scale` times as
    /// large as from 1.6 m.
    pub fn of(plants: &Plants, horizon: f32, h: f32, scale: f32) -> Ground {
        let depth = (plants.near_size / plants.far_size).clamp(1.25, 40.0);
        let (y_near, y_far) = (NEAREST * h, (horizon + FAR_GAP) * h);
        Ground {
            y_near,
            y_v: (depth * y_far - y_near) / (depth - 1.0),
            depth,
            near: plants.near_size,
            far: plants.far_size,
            h,
            scale,
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
    pub(super) fn unit(&self, q: f32) -> f32 {
        self.size(q) * self.h * self.scale
    }

    /// How many units deep the nearest ground lies: the lower the eye,
    /// the nearer the ground at a row.
    fn nearest(&self) -> f32 {
        1.0 / (self.near * self.scale)
    }

    /// Screen rows per pixel of depth on the ground at row `y`: how flat
    /// the ground's shapes (the shadows) lie there.
    pub(super) fn flat(&self, y: f32) -> f32 {
        ((y - self.y_v) / self.h).clamp(0.03, 0.6)
    }
}

/// The large bushes' density per unit² of ground, before a dense field is
/// thinned.
pub(super) fn large_density(plants: &Plants) -> f32 {
    LARGE_DENSITY * plants.creosote
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
    /// How much larger the eye sees a stone than at 1.6 m.
    scale: f32,
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
            scale: f.world.scale,
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
            STONES.0 * s * self.h * self.scale,
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
    pub(super) plants: &'a Plants,
    pub(super) f: &'a Frame<'a>,
    pub(super) ground: Ground,
    seed: u32,
    /// A shadow's run on the ground per pixel of height: across, and in
    /// pixels of depth toward the viewer.
    pub(super) cast: [f32; 2],
    /// The lean per pixel of height, across and toward the viewer.
    pub(super) lean: [f32; 2],
    /// The tents' clearings: centre and radii (px).
    clearings: Vec<[f32; 4]>,
    stones: Stones,
}

/// A place on the ground: across (units from the middle) and depth (`q`).
#[derive(Clone, Copy)]
pub(super) struct Spot {
    x: f32,
    pub(super) q: f32,
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
            ground: Ground::of(plants, f.horizon_frac, f.h, f.world.scale),
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
    pub(super) fn at(&self, s: Spot) -> [f32; 2] {
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
            (a.row, a.body[0])
                .partial_cmp(&(b.row, b.body[0]))
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
                    let (dx, dz) = (s.x - o.x, (s.q - o.q) / (self.plants.near_size * g.scale));
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
        // Depth in units: the nearest ground is 1 / near_size away (from
        // the eye at 1.6 m).
        let z0 = g.nearest();
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
}
