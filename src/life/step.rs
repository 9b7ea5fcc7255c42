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
//!
//! The word loops run over slices cut to the row's length first, so that
//! they carry no bounds checks and LLVM vectorizes them. On x86_64 with
//! AVX2 (checked at run time) each band runs them compiled with
//! `#[target_feature(enable = "avx2")]`, four words a vector instead of
//! two; elsewhere (wasm32, other CPUs) the portable build runs. A test
//! checks every build this CPU runs against the per-cell reference.

use rayon::prelude::*;

use crate::base::simd::Build;
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
        self.step_on(src, dst, Build::best());
    }

    /// [`Life::step_into`] with the row loops of `build`.
    fn step_on(&self, src: &BitGrid, dst: &mut BitGrid, build: Build) {
        if self.rule == Rule::CONWAY {
            step_with::<Conway>(src, dst, self.rule, self.topology, build);
        } else {
            step_with::<AnyRule>(src, dst, self.rule, self.topology, build);
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

    #[inline(always)]
    fn clear(&mut self) {
        self.lo.fill(0);
        self.hi.fill(0);
    }

    /// Fills the sums of row `y` of `grid`: of the row it wraps to on a
    /// torus (`wrap`), none past a dead border.
    ///
    /// A method, not a closure in [`step_band`]: a closure is compiled
    /// apart, without the AVX2 of [`step_band_avx2`], and these loops ran
    /// two words a vector instead of four (a third of a generation's time).
    #[inline(always)]
    fn fill_from(&mut self, grid: &BitGrid, y: isize, wrap: bool) {
        let height = grid.height() as isize;
        if (0..height).contains(&y) {
            self.fill(grid.row(y as usize), grid.width(), wrap);
        } else if wrap {
            self.fill(grid.row(y.rem_euclid(height) as usize), grid.width(), wrap);
        } else {
            self.clear();
        }
    }

    /// Fills the sums of `row` (cell + west + east), `width` cells wide.
    #[inline(always)]
    fn fill(&mut self, row: &[u64], width: usize, wrap: bool) {
        let n = row.len();
        let last_bit = (width - 1) % 64;
        let valid = if width.is_multiple_of(64) {
            u64::MAX
        } else {
            (1u64 << (width % 64)) - 1
        };
        let (lo, hi) = (&mut self.lo[..n], &mut self.hi[..n]);
        let mut put = |j: usize, w: u64, c: u64, e: u64| {
            lo[j] = w ^ c ^ e;
            hi[j] = (w & c) | (e & (w ^ c));
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
        for (j, three) in row.windows(3).enumerate() {
            let [west, c, east] = [three[0], three[1], three[2]];
            put(j + 1, (c << 1) | (west >> 63), c, (c >> 1) | (east << 63));
        }
        let c = row[n - 1];
        let w = ((c << 1) | (row[n - 2] >> 63)) & valid;
        put(n - 1, w, c, (c >> 1) | (east_in << last_bit));
    }
}

fn step_with<K: Kernel>(
    src: &BitGrid,
    dst: &mut BitGrid,
    rule: Rule,
    topology: Topology,
    build: Build,
) {
    let (height, wpr) = (src.height(), src.words_per_row());
    let threads = rayon::current_num_threads().max(1);
    // Each band recomputes the sums of the two rows around it, so bands are
    // kept tall enough for that to be noise, yet several per thread.
    let band_rows = (height / (threads * 4)).clamp(16, 256).min(height);
    dst.words_mut()
        .par_chunks_mut(band_rows * wpr)
        .enumerate()
        .for_each(|(band, out)| {
            let y0 = band * band_rows;
            match build {
                // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
                #[cfg(target_arch = "x86_64")]
                Build::Avx2 => unsafe { step_band_avx2::<K>(src, out, y0, rule, topology) },
                Build::Portable => step_band::<K>(src, out, y0, rule, topology),
            }
        });
}

/// [`step_band`] compiled for AVX2: LLVM vectorizes its word loops four
/// words wide instead of two.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn step_band_avx2<K: Kernel>(
    src: &BitGrid,
    out: &mut [u64],
    y0: usize,
    rule: Rule,
    topology: Topology,
) {
    step_band::<K>(src, out, y0, rule, topology)
}

/// Writes into `out` (whole rows from row `y0`) the next generation of
/// those rows of `src`.
#[inline(always)]
fn step_band<K: Kernel>(src: &BitGrid, out: &mut [u64], y0: usize, rule: Rule, topology: Topology) {
    let wpr = src.words_per_row();
    let wrap = topology == Topology::Torus;
    let valid_last = src.last_word_mask();
    let rows = out.len() / wpr;
    let (mut above, mut here, mut below) = (RowSum::new(wpr), RowSum::new(wpr), RowSum::new(wpr));
    above.fill_from(src, y0 as isize - 1, wrap);
    here.fill_from(src, y0 as isize, wrap);
    for (i, out_row) in out.chunks_mut(wpr).enumerate() {
        let y = y0 + i;
        below.fill_from(src, y as isize + 1, wrap);
        let alive = &src.row(y)[..wpr];
        let out_row = &mut out_row[..wpr];
        let (al, ah) = (&above.lo[..wpr], &above.hi[..wpr]);
        let (bl, bh) = (&here.lo[..wpr], &here.hi[..wpr]);
        let (cl, ch) = (&below.lo[..wpr], &below.hi[..wpr]);
        for j in 0..wpr {
            let (a0, a1) = (al[j], ah[j]);
            let (b0, b1) = (bl[j], bh[j]);
            let (c0, c1) = (cl[j], ch[j]);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::life::reference;
    use crate::life::soup;

    /// Every build of the row loops gives the reference's grids: odd and
    /// word-sized widths, both topologies, Conway and another rule, a
    /// fresh soup and one that has thinned out.
    #[test]
    fn every_build_steps_as_the_reference() {
        let highlife: Rule = "B36/S23".parse().unwrap();
        for (width, height) in [(1, 5), (63, 17), (64, 40), (130, 33), (300, 70)] {
            for topology in [Topology::Torus, Topology::Bounded] {
                for rule in [Rule::CONWAY, highlife] {
                    let life = Life::new(rule, topology);
                    let start = soup(width, height, 0.6, width as u64).unwrap();
                    let later = life.run(&start, 12);
                    for grid in [&start, &later] {
                        let expected = reference::step(grid, rule, topology);
                        for build in Build::all() {
                            let mut next = grid.clone();
                            life.step_on(grid, &mut next, build);
                            assert_eq!(next, expected, "{width}x{height} {topology:?} {build:?}");
                        }
                    }
                }
            }
        }
    }
}
