//! 8-connected clumps of live cells: how many, how large and where
//! (`playa life --stats` counts them, the rocks are made from them).
//!
//! Two ways to the same clumps, tested equal:
//! - [`find`], a scanline flood fill. From a start cell it widens, cell by
//!   cell, to the whole horizontal run of live cells, records the run, and
//!   pushes onto an explicit stack the stretches of the rows above and
//!   below (one cell wider at each end) still to search, cell by cell.
//!   Memory is one bit per cell (the live cells not yet in a clump), the
//!   stack, which holds row stretches, not cells, and the clumps
//!   themselves; start cells are found by scanning that bit set word by
//!   word, so empty space between clumps costs one word test per 64 cells.
//! - [`label`], which also labels every cell, by runs in a union-find, in
//!   strips of rows on all threads; it needs a `u32` per cell anyway, and a
//!   few words per run.
//!
//! On a torus rows and columns wrap, and a clump is laid out in unwrapped
//! coordinates (see [`Clump`]).

use std::collections::HashMap;

use rayon::prelude::*;

use crate::life::grid::{BitGrid, Topology};

/// One clump: a maximal set of live cells joined through their eight
/// neighbours.
///
/// Coordinates are *unwrapped*: on a torus, a clump that crosses an edge is
/// laid out whole, relative to its first cell in row-major order (which keeps
/// its own coordinates). Its box may then start at a negative coordinate or
/// end at or past the grid's width or height; the cell at unwrapped (`x`, `y`)
/// is grid cell (`x mod width`, `y mod height`). A clump that wraps all the
/// way around the torus (a ring) has no such layout: its box is then as the
/// fill happened to reach the cells, at least as wide (or tall) as the grid,
/// deterministic but not meaningful; its `cells` count is exact regardless.
#[derive(Clone, Debug, PartialEq)]
pub struct Clump {
    /// Number of live cells in the clump.
    pub cells: u32,
    /// Smallest unwrapped x of a cell (western edge of the bounding box).
    pub min_x: i64,
    /// Smallest unwrapped y of a cell (northern edge of the bounding box).
    pub min_y: i64,
    /// Largest unwrapped x of a cell (eastern edge, inclusive).
    pub max_x: i64,
    /// Largest unwrapped y of a cell (southern edge, inclusive).
    pub max_y: i64,
    /// Mean position of the cells, cell (`x`, `y`) counting as the point
    /// (`x`, `y`), wrapped back into `[0, width) × [0, height)` on a torus.
    pub centroid: (f64, f64),
}

/// The clumps of `grid`, ordered by their first cell in row-major order.
/// On a torus, neighbours wrap around the edges.
pub fn find(grid: &BitGrid, topology: Topology) -> Vec<Clump> {
    let (width, height) = (grid.width() as i64, grid.height() as i64);
    let wpr = grid.words_per_row();
    // Live cells not yet in a clump.
    let mut left = grid.words().to_vec();
    let mut clumps = Vec::new();
    for i in 0..left.len() {
        while left[i] != 0 {
            let x = ((i % wpr) * 64 + left[i].trailing_zeros() as usize) as i64;
            let y = (i / wpr) as i64;
            clumps.push(flood(&mut left, wpr, (width, height), topology, x, y));
        }
    }
    clumps
}

/// The clumps of `grid` as [`find`] gives them, and a label per cell (row
/// after row, `width * height` of them): 0 for a dead cell, `i + 1` for a
/// cell of `clumps[i]`.
///
/// Labelled by runs, in strips of rows on all threads: each row's runs of
/// live cells are joined to the runs they touch in the row above (and, on
/// a torus, through the edges) in a union-find that keeps, per run, where
/// its cells lie in its clump's unwrapped layout (how many grid widths and
/// heights off); then the strips are joined where they meet. A clump whose
/// joins disagree about that wraps all the way around the torus: it has no
/// layout (see [`Clump`]) and its totals are those of the flood fill
/// [`find`] uses, from its first cell.
pub fn label(grid: &BitGrid, topology: Topology) -> (Vec<u32>, Vec<Clump>) {
    label_in_strips(grid, topology, |runs, height| {
        // A few runs are labelled at once, on this thread.
        if runs < PARALLEL_RUNS {
            height
        } else {
            height
                .div_ceil(4 * rayon::current_num_threads())
                .max(STRIP_ROWS)
        }
    })
}

/// [`label`] in strips of `strip_rows(runs, height)` rows, for a grid of
/// `runs` runs and `height` rows.
fn label_in_strips(
    grid: &BitGrid,
    topology: Topology,
    strip_rows: impl Fn(usize, usize) -> usize,
) -> (Vec<u32>, Vec<Clump>) {
    let (width, height) = (grid.width(), grid.height());
    let torus = topology == Topology::Torus;
    // Every run numbered up front (row `y`'s are `rows[y]..rows[y + 1]`),
    // so the strips fill their parts of the arrays in place.
    let mut rows = Vec::with_capacity(height + 1);
    rows.push(0u32);
    for y in 0..height {
        rows.push(rows[y] + runs_in(grid.row(y)));
    }
    let n = rows[height] as usize;
    let mut spans = vec![(0u32, 0u32); n];
    let mut links: Vec<Link> = (0..n as u32).map(Link::root).collect();
    let per = strip_rows(n, height).clamp(1, height);
    let starts: Vec<usize> = (0..height).step_by(per).collect();
    // The strips' runs, joined within each strip, in parallel.
    let mut parts = Vec::with_capacity(starts.len());
    let (mut spans_left, mut links_left) = (&mut spans[..], &mut links[..]);
    for &y0 in &starts {
        let y1 = (y0 + per).min(height);
        let k = (rows[y1] - rows[y0]) as usize;
        let (s, rest_s) = spans_left.split_at_mut(k);
        let (l, rest_l) = links_left.split_at_mut(k);
        (spans_left, links_left) = (rest_s, rest_l);
        parts.push((y0..y1, s, l));
    }
    parts.into_par_iter().for_each(|(ys, spans, links)| {
        let mut runs = Runs {
            rows: &rows,
            base: rows[ys.start],
            spans,
            links,
        };
        for y in ys.clone() {
            runs.fill_row(grid.row(y), y, width);
            if y > ys.start {
                runs.join_rows(y, y - 1, 0, width, torus);
            }
            if torus {
                runs.join_ends(y, width);
            }
        }
    });
    let mut runs = Runs {
        rows: &rows,
        base: 0,
        spans: &mut spans,
        links: &mut links,
    };
    // Where the strips meet; on a torus, the top row with the bottom row, a
    // grid height up.
    for &y in &starts[1..] {
        runs.join_rows(y, y - 1, 0, width, torus);
    }
    if torus {
        runs.join_rows(0, height - 1, -1, width, torus);
    }
    // A set's root is its first run (joins keep the lower number): it
    // numbers the clump, and the clump's layout is the root's. A run's
    // parent is a run before it or itself (a join points the higher root
    // at the lower, a path is only pointed at its root), so in run order
    // a parent's clump and frame are known before its children's: each
    // run's are its parent's, moved by its link's offset.
    let mut found: Vec<(u32, (i32, i32))> = Vec::with_capacity(n);
    let mut firsts = Vec::new();
    for (run, link) in runs.links.iter().enumerate() {
        found.push(if link.parent as usize == run {
            firsts.push(run);
            (firsts.len() as u32 - 1, (0, 0))
        } else {
            let (id, frame) = found[link.parent as usize];
            (id, (frame.0 + link.offset.0, frame.1 + link.offset.1))
        });
    }
    // Labels and totals strip by strip: the clumps that start in a strip
    // in a table, the few from other strips aside.
    let mut labels = vec![0; width * height];
    let (w, h) = (width as i64, height as i64);
    let partial: Vec<(Vec<Totals>, HashMap<u32, Totals>)> = labels
        .par_chunks_mut(per * width)
        .zip(&starts)
        .map(|(labels, &y0)| {
            let y1 = (y0 + per).min(height);
            let (from, to) = (rows[y0] as usize, rows[y1] as usize);
            // The clumps starting here are numbered from `own` on.
            let roots = (from..to).filter(|&r| runs.links[r].parent == r as u32);
            let own = roots
                .clone()
                .next()
                .map_or(firsts.len() as u32, |r| found[r].0);
            let mut table: Vec<Totals> = vec![Totals::new(); roots.count()];
            let mut others: HashMap<u32, Totals> = HashMap::new();
            for y in y0..y1 {
                let row = &mut labels[(y - y0) * width..][..width];
                let these = rows[y] as usize..rows[y + 1] as usize;
                for (&(id, frame), &(x0, x1)) in found[these.clone()].iter().zip(&runs.spans[these])
                {
                    row[x0 as usize..=x1 as usize].fill(id + 1);
                    let totals = match id.checked_sub(own) {
                        Some(k) if (k as usize) < table.len() => &mut table[k as usize],
                        _ => others.entry(id).or_insert_with(Totals::new),
                    };
                    let dx = i64::from(frame.0) * w;
                    let dy = i64::from(frame.1) * h;
                    totals.add_run(i64::from(x0) + dx, i64::from(x1) + dx, y as i64 + dy);
                }
            }
            (table, others)
        })
        .collect();
    let mut totals: Vec<Totals> = Vec::with_capacity(firsts.len());
    for (table, _) in &partial {
        totals.extend(table.iter().cloned());
    }
    for (_, others) in &partial {
        for (&id, part) in others {
            totals[id as usize].merge(part);
        }
    }
    // The clumps that wrap around, flood filled from their first cells
    // (each takes only its own cells).
    let mut left = Vec::new();
    let clumps = totals
        .into_iter()
        .zip(firsts)
        .map(|(totals, first)| {
            if !runs.links[first].ring {
                return totals.finish(w, h);
            }
            if left.is_empty() {
                left = grid.words().to_vec();
            }
            let y = rows.partition_point(|&r| r as usize <= first) - 1;
            let x = runs.spans[first].0;
            let wpr = grid.words_per_row();
            flood(&mut left, wpr, (w, h), topology, x.into(), y as i64)
        })
        .collect();
    (labels, clumps)
}

/// Fewest rows in a strip that [`label`] works on at once.
const STRIP_ROWS: usize = 32;

/// Fewest runs that [`label`] spreads over threads.
const PARALLEL_RUNS: usize = 16_384;

/// The number of runs of live cells in a row of words (its padding dead).
fn runs_in(words: &[u64]) -> u32 {
    let mut carry = 0;
    words
        .iter()
        .map(|&w| {
            // A run starts where a live cell follows a dead one.
            let starts = w & !(w << 1 | carry);
            carry = w >> 63;
            starts.count_ones()
        })
        .sum()
}

/// A run's place in the union-find.
#[derive(Clone, Copy)]
struct Link {
    /// The run it was joined under (itself for a set's root).
    parent: u32,
    /// Where its cells lie relative to its parent's, in grid widths and
    /// heights.
    offset: (i32, i32),
    /// At a root: whether the set wraps around the torus (two joins
    /// disagreed about where its cells lie).
    ring: bool,
}

impl Link {
    fn root(run: u32) -> Link {
        Link {
            parent: run,
            offset: (0, 0),
            ring: false,
        }
    }
}

/// The runs of live cells of some rows of a grid, numbered row by row,
/// west to east, in a union-find that knows the unwrapped layout of each
/// set: all of them, or a strip's (numbers from its first row's first on).
struct Runs<'a> {
    /// Run numbers of each row of the grid (row `y`'s are `rows[y]..rows[y
    /// + 1]`).
    rows: &'a [u32],
    /// The number of the first run here.
    base: u32,
    /// Columns `x0..=x1` of each run. A run never wraps: on a torus, one
    /// through the east edge is two, joined through the edge.
    spans: &'a mut [(u32, u32)],
    links: &'a mut [Link],
}

impl Runs<'_> {
    /// Index here of run number `run`.
    fn at(&self, run: u32) -> usize {
        (run - self.base) as usize
    }

    /// Records the runs of row `y` of `width` cells, `words`.
    fn fill_row(&mut self, words: &[u64], y: usize, width: usize) {
        // Scan for the next live cell, then for the next dead one.
        let next = |from: usize, live: bool| -> usize {
            let mut i = from / 64;
            if i >= words.len() {
                return words.len() * 64;
            }
            let flip = if live { 0 } else { u64::MAX };
            let mut word = (words[i] ^ flip) & (u64::MAX << (from % 64));
            while word == 0 {
                i += 1;
                if i == words.len() {
                    return words.len() * 64;
                }
                word = words[i] ^ flip;
            }
            i * 64 + word.trailing_zeros() as usize
        };
        let mut k = self.at(self.rows[y]);
        let mut x = next(0, true);
        while x < width {
            // The padding bits past the width are dead.
            let end = next(x, false).min(width);
            self.spans[k] = (x as u32, end as u32 - 1);
            k += 1;
            x = next(end, true);
        }
    }

    /// The root of run `a`'s set and where `a`'s cells lie relative to
    /// the root's.
    fn find(&self, a: u32) -> (u32, (i32, i32)) {
        let (mut r, mut off) = (a, (0, 0));
        loop {
            let link = self.links[self.at(r)];
            if link.parent == r {
                return (r, off);
            }
            off = (off.0 + link.offset.0, off.1 + link.offset.1);
            r = link.parent;
        }
    }

    /// [`Runs::find`], pointing the path straight at the root on the way.
    fn root(&mut self, a: u32) -> (u32, (i32, i32)) {
        let (r, off) = self.find(a);
        let (mut n, mut rest) = (a, off);
        while n != r {
            let k = self.at(n);
            let Link { parent, offset, .. } = self.links[k];
            self.links[k].parent = r;
            self.links[k].offset = rest;
            rest = (rest.0 - offset.0, rest.1 - offset.1);
            n = parent;
        }
        (r, off)
    }

    /// Joins runs `a` and `b`, `b`'s cells lying `d` grid widths and
    /// heights from `a`'s. The lower-numbered root stays the root.
    fn join(&mut self, a: u32, b: u32, d: (i32, i32)) {
        let (ra, pa) = self.root(a);
        let (rb, pb) = self.root(b);
        let want = (pa.0 + d.0 - pb.0, pa.1 + d.1 - pb.1);
        if ra == rb {
            if want != (0, 0) {
                let k = self.at(ra);
                self.links[k].ring = true;
            }
            return;
        }
        let (keep, gone, off) = if ra < rb {
            (ra, rb, want)
        } else {
            (rb, ra, (-want.0, -want.1))
        };
        let (k, g) = (self.at(keep), self.at(gone));
        let ring = self.links[g].ring;
        self.links[g].parent = keep;
        self.links[g].offset = off;
        self.links[k].ring |= ring;
    }

    /// On a torus, joins row `y`'s first and last runs if they touch
    /// through the west/east edge (a run covering the whole row touches
    /// itself).
    fn join_ends(&mut self, y: usize, width: usize) {
        let (first, end) = (self.rows[y], self.rows[y + 1]);
        if first < end
            && self.spans[self.at(first)].0 == 0
            && self.spans[self.at(end - 1)].1 as usize == width - 1
        {
            self.join(first, end - 1, (-1, 0));
        }
    }

    /// Joins the runs of row `y` to the runs of row `above` they touch
    /// (through a side or a corner), `above` lying `up` grid heights off;
    /// on a torus, also through the west/east edge.
    fn join_rows(&mut self, y: usize, above: usize, up: i32, width: usize, torus: bool) {
        let (mut i, end_i) = (self.rows[y], self.rows[y + 1]);
        let (mut j, end_j) = (self.rows[above], self.rows[above + 1]);
        if i == end_i || j == end_j {
            return;
        }
        let span = |runs: &Self, run: u32| runs.spans[runs.at(run)];
        if torus {
            let last = width as u32 - 1;
            if span(self, i).0 == 0 && span(self, end_j - 1).1 == last {
                self.join(i, end_j - 1, (-1, up));
            }
            if span(self, end_i - 1).1 == last && span(self, j).0 == 0 {
                self.join(end_i - 1, j, (1, up));
            }
        }
        // Both rows west to east: a pair touches if neither ends more than
        // a cell before the other begins; step past the one ending first.
        while i < end_i && j < end_j {
            let (a, b) = (span(self, i), span(self, j));
            if b.0 <= a.1 + 1 && a.0 <= b.1 + 1 {
                self.join(i, j, (0, up));
            }
            if a.1 < b.1 {
                i += 1;
            } else {
                j += 1;
            }
        }
    }
}

/// A stretch of a row still to search for live cells, in unwrapped coordinates.
struct Search {
    y: i64,
    from_x: i64,
    to_x: i64,
}

/// Running totals of one clump.
#[derive(Clone)]
struct Totals {
    cells: i64,
    min: (i64, i64),
    max: (i64, i64),
    /// Sums of the cells' x and y. A grid holds at most 2^28 cells, and
    /// an unwrapped coordinate moves at most a cell per neighbour from the
    /// first cell, so it stays below 2^29: the sums fit in an `i64`.
    sum: (i64, i64),
}

impl Totals {
    fn new() -> Totals {
        Totals {
            cells: 0,
            min: (i64::MAX, i64::MAX),
            max: (i64::MIN, i64::MIN),
            sum: (0, 0),
        }
    }

    /// Adds the cells counted in `other`.
    fn merge(&mut self, other: &Totals) {
        self.cells += other.cells;
        self.min = (self.min.0.min(other.min.0), self.min.1.min(other.min.1));
        self.max = (self.max.0.max(other.max.0), self.max.1.max(other.max.1));
        self.sum = (self.sum.0 + other.sum.0, self.sum.1 + other.sum.1);
    }

    /// Adds the run of cells `x0..=x1` of row `y`.
    fn add_run(&mut self, x0: i64, x1: i64, y: i64) {
        let n = x1 - x0 + 1;
        self.cells += n;
        self.min = (self.min.0.min(x0), self.min.1.min(y));
        self.max = (self.max.0.max(x1), self.max.1.max(y));
        // x0 + ... + x1, exact: (x0 + x1) * n is always even.
        self.sum.0 += (x0 + x1) * n / 2;
        self.sum.1 += y * n;
    }

    fn finish(self, width: i64, height: i64) -> Clump {
        let n = self.cells;
        // Wrapping the sum modulo n * side, in integers, keeps the mean
        // strictly below the side (no float rounding up to `width`).
        let mean = |sum: i64, side: i64| (sum.rem_euclid(n * side)) as f64 / n as f64;
        Clump {
            cells: u32::try_from(self.cells).expect("grids hold at most 2^28 cells"),
            min_x: self.min.0,
            min_y: self.min.1,
            max_x: self.max.0,
            max_y: self.max.1,
            centroid: (mean(self.sum.0, width), mean(self.sum.1, height)),
        }
    }
}

/// The clump of live cell (`x`, `y`) by scanline flood fill, taking its
/// cells out of `left` (the live cells not yet in a clump, `wpr` words a
/// row, on a grid `size` cells wide and high).
fn flood(
    left: &mut [u64],
    wpr: usize,
    (width, height): (i64, i64),
    topology: Topology,
    x: i64,
    y: i64,
) -> Clump {
    let torus = topology == Topology::Torus;
    // Takes grid cell (x mod width, row) out of `left`; whether it was there.
    let take = |left: &mut [u64], x: i64, row: usize| {
        // Most columns are in range; the division is only for wrapped ones.
        let x = if (0..width).contains(&x) {
            x
        } else {
            x.rem_euclid(width)
        } as usize;
        let (word, bit) = (&mut left[row * wpr + x / 64], 1u64 << (x % 64));
        let was = *word & bit != 0;
        *word &= !bit;
        was
    };
    let mut totals = Totals::new();
    let mut stack = vec![Search {
        y,
        from_x: x,
        to_x: x,
    }];
    while let Some(Search { y, from_x, to_x }) = stack.pop() {
        let row = if torus {
            y.rem_euclid(height)
        } else if (0..height).contains(&y) {
            y
        } else {
            continue;
        };
        let row = row as usize;
        let (from_x, to_x) = if torus {
            (from_x, to_x)
        } else {
            (from_x.max(0), to_x.min(width - 1))
        };
        let mut x = from_x;
        while x <= to_x {
            if !take(left, x, row) {
                x += 1;
                continue;
            }
            // Widen to the whole run. On a torus it stops at the latest
            // when it comes round to cells already taken.
            let (mut x0, mut x1) = (x, x);
            while (torus || x0 > 0) && take(left, x0 - 1, row) {
                x0 -= 1;
            }
            while (torus || x1 < width - 1) && take(left, x1 + 1, row) {
                x1 += 1;
            }
            totals.add_run(x0, x1, y);
            for y in [y - 1, y + 1] {
                stack.push(Search {
                    y,
                    from_x: x0 - 1,
                    to_x: x1 + 1,
                });
            }
            // x1 + 1 is dead or taken.
            x = x1 + 2;
        }
    }
    totals.finish(width, height)
}

#[cfg(test)]
mod tests;
