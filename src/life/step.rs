//! The bit-parallel Life-like engine.
//!
//! Each generation works row by row on whole `u64` words (64 cells at a time):
//!
//! 1. For every source row, the *horizontal sum* of each cell with its west
//!    and east neighbours (0..=3) is computed once, as two bit planes `lo`,
//!    `hi`, with the wrap-around (or the dead border) folded in at the ends.
//! 2. For every output row, the horizontal sums of the rows above, at and
//!    below are added with bitwise full adders into the 3x3 block total
//!    (0..=9, four bit planes), which counts the cell itself once.
//! 3. The rule maps (total, alive) to the next state with a few AND/OR.
//!
//! Rows are split into bands computed in parallel with rayon; every output
//! cell depends only on the source grid, so the result is the same for any
//! number of threads or band size.

use rayon::prelude::*;

use crate::life::grid::{BitGrid, Topology};
use crate::life::rule::Rule;

/// A Life-like automaton: a rule on a topology.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Life {
    /// The birth/survival rule. Default: `B3/S23`.
    pub rule: Rule,
    /// How the grid's edges behave. Default: torus.
    pub topology: Topology,
}

impl Life {
    /// An automaton with `rule` on `topology`.
    pub fn new(rule: Rule, topology: Topology) -> Life {
        Life { rule, topology }
    }

    /// The next generation of `grid`.
    pub fn step(&self, grid: &BitGrid) -> BitGrid {
        let mut next = grid.clone();
        self.step_into(grid, &mut next);
        next
    }

    /// Writes the next generation of `src` into `dst`, which must have the
    /// same size. Runs on the current rayon pool.
    pub fn step_into(&self, src: &BitGrid, dst: &mut BitGrid) {
        assert_eq!(
            (src.width(), src.height()),
            (dst.width(), dst.height()),
            "step_into needs grids of the same size"
        );
        if self.rule == Rule::CONWAY {
            step_with::<Conway>(src, dst, self.rule, self.topology);
        } else {
            step_with::<AnyRule>(src, dst, self.rule, self.topology);
        }
    }

    /// `grid` after `generations` generations.
    pub fn run(&self, grid: &BitGrid, generations: u32) -> BitGrid {
        self.run_with(grid, generations, |_, _| {})
    }

    /// `grid` after `generations` generations, calling `visit(g, grid)` for
    /// generation 0 (the input) and after each generation `g`.
    pub fn run_with(
        &self,
        grid: &BitGrid,
        generations: u32,
        mut visit: impl FnMut(u32, &BitGrid),
    ) -> BitGrid {
        let mut current = grid.clone();
        visit(0, &current);
        if generations == 0 {
            return current;
        }
        let mut next = grid.clone();
        for g in 1..=generations {
            self.step_into(&current, &mut next);
            std::mem::swap(&mut current, &mut next);
            visit(g, &current);
        }
        current
    }

    /// The population of `grid` at generations 0 to `generations`.
    pub fn populations(&self, grid: &BitGrid, generations: u32) -> Vec<u64> {
        let mut counts = Vec::with_capacity(generations as usize + 1);
        self.run_with(grid, generations, |_, g| counts.push(g.population()));
        counts
    }
}

/// Maps the 3x3 block total (four bit planes, counting the cell itself) and
/// the cell's state to its next state, 64 cells at a time.
trait Kernel {
    fn next(rule: &Rule, s: [u64; 4], alive: u64) -> u64;
}

/// B3/S23, hand-reduced.
struct Conway;

impl Kernel for Conway {
    #[inline(always)]
    fn next(_: &Rule, [s0, s1, s2, s3]: [u64; 4], alive: u64) -> u64 {
        // total == 3 (born or survives with 2) | alive & total == 4 (survives with 3)
        !s3 & ((s0 & s1 & !s2) | (alive & !s0 & !s1 & s2))
    }
}

/// Any Life-like rule.
struct AnyRule;

impl Kernel for AnyRule {
    #[inline(always)]
    fn next(rule: &Rule, s: [u64; 4], alive: u64) -> u64 {
        let equals = |total: u32| {
            (0..4).fold(u64::MAX, |m, b| {
                m & if total >> b & 1 == 1 { s[b] } else { !s[b] }
            })
        };
        let (mut born, mut stays) = (0, 0);
        for k in 0..=8u32 {
            if rule.birth() >> k & 1 == 1 {
                born |= equals(k);
            }
            if rule.survive() >> k & 1 == 1 {
                stays |= equals(k + 1);
            }
        }
        (born & !alive) | (stays & alive)
    }
}

/// Horizontal sums (0..=3) of one row as two bit planes.
struct RowSum {
    lo: Vec<u64>,
    hi: Vec<u64>,
}

impl RowSum {
    fn new(words: usize) -> RowSum {
        RowSum {
            lo: vec![0; words],
            hi: vec![0; words],
        }
    }

    fn clear(&mut self) {
        self.lo.fill(0);
        self.hi.fill(0);
    }

    /// Fills the sums of `row` (cell + west + east), `width` cells wide.
    fn fill(&mut self, row: &[u64], width: usize, wrap: bool) {
        let n = row.len();
        let last_bit = (width - 1) % 64;
        let valid = if width.is_multiple_of(64) {
            u64::MAX
        } else {
            (1u64 << (width % 64)) - 1
        };
        let mut put = |j: usize, w: u64, c: u64, e: u64| {
            self.lo[j] = w ^ c ^ e;
            self.hi[j] = (w & c) | (e & (w ^ c));
        };
        // West neighbour of cell 0 and east neighbour of cell width-1.
        let west_in = if wrap { row[n - 1] >> last_bit & 1 } else { 0 };
        let east_in = if wrap { row[0] & 1 } else { 0 };
        if n == 1 {
            let c = row[0];
            let w = ((c << 1) | west_in) & valid;
            let e = (c >> 1) | (east_in << last_bit);
            put(0, w, c, e);
            return;
        }
        put(
            0,
            (row[0] << 1) | west_in,
            row[0],
            (row[0] >> 1) | (row[1] << 63),
        );
        for j in 1..n - 1 {
            let c = row[j];
            put(
                j,
                (c << 1) | (row[j - 1] >> 63),
                c,
                (c >> 1) | (row[j + 1] << 63),
            );
        }
        let c = row[n - 1];
        let w = ((c << 1) | (row[n - 2] >> 63)) & valid;
        put(n - 1, w, c, (c >> 1) | (east_in << last_bit));
    }
}

fn step_with<K: Kernel>(src: &BitGrid, dst: &mut BitGrid, rule: Rule, topology: Topology) {
    let (width, height, wpr) = (src.width(), src.height(), src.words_per_row());
    let wrap = topology == Topology::Torus;
    let valid_last = src.last_word_mask();
    let threads = rayon::current_num_threads().max(1);
    // Each band recomputes the sums of the two rows around it, so bands are
    // kept tall enough for that to be noise, yet several per thread.
    let band_rows = (height / (threads * 4)).clamp(16, 256).min(height);
    dst.words_mut()
        .par_chunks_mut(band_rows * wpr)
        .enumerate()
        .for_each(|(band, out)| {
            let y0 = band * band_rows;
            let rows = out.len() / wpr;
            let (mut above, mut here, mut below) =
                (RowSum::new(wpr), RowSum::new(wpr), RowSum::new(wpr));
            let source = |y: isize| -> Option<usize> {
                if (0..height as isize).contains(&y) {
                    Some(y as usize)
                } else if wrap {
                    Some(y.rem_euclid(height as isize) as usize)
                } else {
                    None
                }
            };
            let fill = |sum: &mut RowSum, y: isize| match source(y) {
                Some(y) => sum.fill(src.row(y), width, wrap),
                None => sum.clear(),
            };
            fill(&mut above, y0 as isize - 1);
            fill(&mut here, y0 as isize);
            for (i, out_row) in out.chunks_mut(wpr).enumerate() {
                let y = y0 + i;
                fill(&mut below, y as isize + 1);
                let alive = src.row(y);
                for j in 0..wpr {
                    let (a0, a1) = (above.lo[j], above.hi[j]);
                    let (b0, b1) = (here.lo[j], here.hi[j]);
                    let (c0, c1) = (below.lo[j], below.hi[j]);
                    let s0 = a0 ^ b0 ^ c0;
                    let k0 = (a0 & b0) | (c0 & (a0 ^ b0));
                    let t = a1 ^ b1 ^ c1;
                    let u = (a1 & b1) | (c1 & (a1 ^ b1));
                    let s1 = t ^ k0;
                    let v = t & k0;
                    out_row[j] = K::next(&rule, [s0, s1, u ^ v, u & v], alive[j]);
                }
                out_row[wpr - 1] &= valid_last;
                if i + 1 < rows {
                    std::mem::swap(&mut above, &mut here);
                    std::mem::swap(&mut here, &mut below);
                }
            }
        });
}
