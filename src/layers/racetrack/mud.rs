//! The mud: its crust's cracks, strips split into cells (T-junctions when
//! fresh, hexagons when old), the noise they are bent and toned by, and
//! each screen row's look of the mud.

use super::{METRE, ROW, Racetrack};
use crate::base::color::Linear;
use crate::base::math;
use crate::base::noise::hash32;

/// Smooth value noise in -1..1, lattice spacing 1, from the noise tile.
#[inline]
pub(super) fn smooth(x: f32, y: f32, seed: u32) -> f32 {
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
pub(super) const SIDE: u32 = crate::base::noise::TILE_SIDE as u32;

/// The noise tile, looked up once for the four corners of a cell; as an
/// array, its indices (below `SIDE²`) need no check.
#[inline]
pub(super) fn tile() -> &'static [f32; (SIDE * SIDE) as usize] {
    crate::base::noise::noise_tile()
        .try_into()
        .expect("the noise tile is SIDE² values")
}

/// A value in -1..1 for lattice point `(i, j)`, from the noise tile.
#[inline]
pub(super) fn lattice(i: i32, j: i32, seed: u32) -> f32 {
    lattice_in(tile(), i, j, seed)
}

/// [`lattice`] in `tile`.
#[inline]
pub(super) fn lattice_in(tile: &[f32; (SIDE * SIDE) as usize], i: i32, j: i32, seed: u32) -> f32 {
    let x = (i as u32).wrapping_add(seed) % SIDE;
    let y = (j as u32).wrapping_add(seed >> 8) % SIDE;
    tile[(y * SIDE + x) as usize]
}

/// The pattern of the crust's cracks, in cell widths on the ground.
pub(super) struct Crust {
    /// The ground's axes turned into the pattern's: `u = c·X + s·Z`,
    /// `v = −s·X + c·Z`, over the cell's size.
    pub(super) rot: (f32, f32),
    pub(super) inv_cell: f32,
    /// The age, and one minus it.
    pub(super) age: f32,
    /// Half the strips' edges' zigzag, cell widths.
    pub(super) zig: f32,
    /// Half widths of the strips' edges and of the splits, cell widths.
    pub(super) half_edge: f32,
    pub(super) half_split: f32,
    /// The zigzag's slant, for the edges' true widths.
    pub(super) slant: f32,
    /// The mean share of the ground in cracks.
    pub(super) mean: f32,
    pub(super) seed: u32,
}

impl Crust {
    pub(super) fn new(r: &Racetrack, seed: u32) -> Crust {
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
    pub(super) fn split(&self, s: i32, k: i32) -> f32 {
        k as f32 + 0.5 * (s & 1) as f32 + (1.0 - self.age) * 0.38 * lattice(k, s, self.seed)
    }

    /// The split of strip `s` nearest `u` is the `k0`th or one of its
    /// neighbours.
    #[inline]
    pub(super) fn middle(s: i32, u: f32) -> i32 {
        math::floor_i32(u - 0.5 * (s & 1) as f32 + 0.5)
    }

    /// Strip `s`'s splits around its `k0`th and where its lower edge lies.
    pub(super) fn strip(&self, s: i32, k0: i32) -> Strip {
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
    pub(super) fn nearest(&self, memo: &mut Memo, s: i32, u: f32) -> ((f32, i32), f32) {
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
    pub(super) fn edge(&self, j: i32, u: f32) -> f32 {
        let ((c, _), base) = self.nearest(&mut Memo::new(self), j + 1, u);
        self.edge_under(base, u, c)
    }

    /// [`Crust::edge`] below strip `j + 1`, given that strip's `base` and
    /// its split `c` nearest `u`.
    #[inline]
    pub(super) fn edge_under(&self, base: f32, u: f32, c: f32) -> f32 {
        let tri = 1.0 - 2.0 * (u - c).abs().min(0.5);
        base + self.zig * (tri - 0.5) * 2.0
    }

    /// Ground `(x, z)` in the pattern's axes, cell widths.
    #[inline]
    pub(super) fn uv(&self, x: f32, z: f32) -> (f32, f32) {
        let (c, s) = self.rot;
        (
            (c * x + s * z) * self.inv_cell,
            (c * z - s * x) * self.inv_cell,
        )
    }

    /// How far the pattern is bent at ground `(x, z)`: cracks are not
    /// ruled lines.
    pub(super) fn warp(&self, x: f32, z: f32) -> [f32; 2] {
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
    pub(super) fn at(
        &self,
        memo: &mut Memo,
        x: f32,
        z: f32,
        [du, dv]: [f32; 2],
    ) -> (f32, f32, u32) {
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
pub(super) struct Strip {
    pub(super) s: i32,
    pub(super) k0: i32,
    pub(super) splits: [f32; 3],
    pub(super) base: f32,
}

/// What the crust looked up last, for the next pixel: neighbouring pixels
/// mostly lie in the same cells, so they need the same splits and the same
/// cell's look. A pixel looks at four neighbouring strips at most, each
/// kept in the slot of its number modulo 4; the values are those worked
/// out afresh, so the pixels do not depend on what was kept.
pub(super) struct Memo {
    pub(super) strips: [Strip; 4],
    /// The last cell's hash, and its cracks' width and its tone.
    pub(super) cell: u32,
    pub(super) look: (f32, f32),
}

impl Memo {
    pub(super) fn new(crust: &Crust) -> Memo {
        Memo {
            strips: std::array::from_fn(|s| crust.strip(s as i32, 0)),
            cell: 0,
            look: cell_look(0),
        }
    }

    /// [`cell_look`] of `cell`.
    #[inline]
    pub(super) fn look(&mut self, cell: u32) -> (f32, f32) {
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
pub(super) fn cell_look(cell: u32) -> (f32, f32) {
    (
        0.75 + 0.5 * crate::base::noise::unit(cell),
        0.04 * crate::base::noise::signed(hash32(cell)),
    )
}

/// The share of a pixel `[d − ½, d + ½]` a line `[−hw, hw]` covers.
#[inline]
pub(super) fn coverage(d: f32, hw: f32) -> f32 {
    (hw.min(d + 0.5) - (-hw).max(d - 0.5)).clamp(0.0, 1.0)
}

/// A screen row of the mud: its colour and how the ground lies there.
pub(super) struct Row {
    pub(super) color: Linear,
    /// Coverage of the row by the mud (partial on the horizon's row).
    pub(super) cover: f32,
    /// Depth of the row on the ground.
    pub(super) z: f32,
    /// How much of the layer's contrast is left in the haze.
    pub(super) contrast: f32,
    /// Pixels per ground unit across and in depth.
    pub(super) k_across: f32,
    pub(super) k_depth: f32,
    /// How much of the cracks' pattern shows (0: only their mean tone).
    pub(super) detail: f32,
    /// Pixels per cell width across the strips' edges and the splits.
    pub(super) per_edge: f32,
    pub(super) per_split: f32,
    /// How much the large patches show.
    pub(super) patches: f32,
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
