//! 8-connected clumps of live cells: how many, how large and where
//! (`playa life --stats` counts them).
//!
//! A scanline flood fill. From a start cell it widens, cell by cell, to the
//! whole horizontal run of live cells, records the run, and pushes onto an
//! explicit stack the stretches of the rows above and below (one cell wider
//! at each end) still to search, cell by cell. On a torus rows and columns
//! wrap, and a clump is laid out in unwrapped coordinates (see [`Clump`]).
//! Memory is one bit per cell (the live cells not yet in a clump), the
//! stack, which holds row stretches, not cells, the clumps themselves and,
//! for [`label`] only, one `u32` label per cell. Start cells are found by
//! scanning that bit set word by word, so empty space between clumps costs
//! one word test per 64 cells.

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
    fill(grid, topology, |_, _, _, _| {})
}

/// The clumps of `grid` as [`find`] gives them, and a label per cell (row
/// after row, `width * height` of them): 0 for a dead cell, `i + 1` for a
/// cell of `clumps[i]`.
pub fn label(grid: &BitGrid, topology: Topology) -> (Vec<u32>, Vec<Clump>) {
    let width = grid.width();
    let mut labels = vec![0; width * grid.height()];
    let clumps = fill(grid, topology, |y, x0, len, clump| {
        let row = &mut labels[y * width..(y + 1) * width];
        let id = clump as u32 + 1;
        // A run on a torus may wrap past the east edge.
        let east = len.min(width - x0);
        row[x0..x0 + east].fill(id);
        row[..len - east].fill(id);
    });
    (labels, clumps)
}

/// A stretch of a row still to search for live cells, in unwrapped coordinates.
struct Search {
    y: i64,
    from_x: i64,
    to_x: i64,
}

/// Running totals of one clump.
struct Totals {
    cells: i64,
    min: (i64, i64),
    max: (i64, i64),
    sum: (i128, i128),
}

impl Totals {
    fn new(x: i64, y: i64) -> Totals {
        Totals {
            cells: 0,
            min: (x, y),
            max: (x, y),
            sum: (0, 0),
        }
    }

    /// Adds the run of cells `x0..=x1` of row `y`.
    fn add_run(&mut self, x0: i64, x1: i64, y: i64) {
        let n = x1 - x0 + 1;
        self.cells += n;
        self.min = (self.min.0.min(x0), self.min.1.min(y));
        self.max = (self.max.0.max(x1), self.max.1.max(y));
        // x0 + ... + x1, exact: (x0 + x1) * n is always even.
        self.sum.0 += i128::from(x0 + x1) * i128::from(n) / 2;
        self.sum.1 += i128::from(y) * i128::from(n);
    }

    fn finish(self, width: i64, height: i64) -> Clump {
        let n = i128::from(self.cells);
        // Wrapping the sum modulo n * side, in integers, keeps the mean
        // strictly below the side (no float rounding up to `width`).
        let mean = |sum: i128, side: i64| (sum.rem_euclid(n * i128::from(side))) as f64 / n as f64;
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

/// Finds the clumps, calling `visit(y, x0, len, clump)` for every run of
/// `len` cells of row `y` from column `x0` (eastwards, wrapping on a torus)
/// that joins clump number `clump`.
fn fill(
    grid: &BitGrid,
    topology: Topology,
    mut visit: impl FnMut(usize, usize, usize, usize),
) -> Vec<Clump> {
    let (width, height) = (grid.width() as i64, grid.height() as i64);
    let wpr = grid.words_per_row();
    let torus = topology == Topology::Torus;
    // Live cells not yet in a clump.
    let mut left = grid.words().to_vec();
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
    let mut clumps = Vec::new();
    let mut stack = Vec::new();
    for i in 0..left.len() {
        while left[i] != 0 {
            let x = ((i % wpr) * 64 + left[i].trailing_zeros() as usize) as i64;
            let y = (i / wpr) as i64;
            let mut totals = Totals::new(x, y);
            stack.push(Search {
                y,
                from_x: x,
                to_x: x,
            });
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
                    if !take(&mut left, x, row) {
                        x += 1;
                        continue;
                    }
                    // Widen to the whole run. On a torus it stops at the latest
                    // when it comes round to cells already taken.
                    let (mut x0, mut x1) = (x, x);
                    while (torus || x0 > 0) && take(&mut left, x0 - 1, row) {
                        x0 -= 1;
                    }
                    while (torus || x1 < width - 1) && take(&mut left, x1 + 1, row) {
                        x1 += 1;
                    }
                    totals.add_run(x0, x1, y);
                    let len = (x1 - x0 + 1) as usize;
                    visit(row, x0.rem_euclid(width) as usize, len, clumps.len());
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
            clumps.push(totals.finish(width, height));
        }
    }
    clumps
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn grid(width: usize, height: usize, cells: &[(usize, usize)]) -> BitGrid {
        let mut g = BitGrid::new(width, height).unwrap();
        for &(x, y) in cells {
            g.set(x, y, true);
        }
        g
    }

    fn boxes(clumps: &[Clump]) -> Vec<(u32, i64, i64, i64, i64)> {
        clumps
            .iter()
            .map(|c| (c.cells, c.min_x, c.min_y, c.max_x, c.max_y))
            .collect()
    }

    /// The plain reference: union-find over cells and their eight
    /// neighbours, labels numbered by first cell in row-major order.
    fn reference_labels(grid: &BitGrid, topology: Topology) -> Vec<u32> {
        let (w, h) = (grid.width() as i64, grid.height() as i64);
        let mut parent: Vec<usize> = (0..(w * h) as usize).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let alive = |x: i64, y: i64| -> Option<usize> {
            let (x, y) = match topology {
                Topology::Torus => (x.rem_euclid(w), y.rem_euclid(h)),
                Topology::Bounded if (0..w).contains(&x) && (0..h).contains(&y) => (x, y),
                Topology::Bounded => return None,
            };
            grid.get(x as usize, y as usize)
                .then_some((y * w + x) as usize)
        };
        for (x, y) in grid.alive_cells() {
            let (x, y) = (x as i64, y as i64);
            let here = (y * w + x) as usize;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(there) = alive(x + dx, y + dy) {
                        let (a, b) = (root(&mut parent, here), root(&mut parent, there));
                        parent[a] = b;
                    }
                }
            }
        }
        let mut id_of_root = vec![0u32; parent.len()];
        let mut next = 0;
        let mut labels = vec![0; parent.len()];
        for (x, y) in grid.alive_cells() {
            let i = y * w as usize + x;
            let r = root(&mut parent, i);
            if id_of_root[r] == 0 {
                next += 1;
                id_of_root[r] = next;
            }
            labels[i] = id_of_root[r];
        }
        labels
    }

    /// Checks `label` and `find` against the reference, and each clump's
    /// totals against its labelled cells where coordinates need no unwrapping.
    fn check_against_reference(grid: &BitGrid, topology: Topology) {
        let (labels, clumps) = label(grid, topology);
        assert_eq!(labels, reference_labels(grid, topology), "{grid:?}");
        assert_eq!(find(grid, topology), clumps);
        let total: u64 = clumps.iter().map(|c| u64::from(c.cells)).sum();
        assert_eq!(total, grid.population());
        let (w, h) = (grid.width(), grid.height());
        for (i, c) in clumps.iter().enumerate() {
            let members: Vec<(usize, usize)> = grid
                .alive_cells()
                .filter(|&(x, y)| labels[y * w + x] == i as u32 + 1)
                .collect();
            assert_eq!(members.len(), c.cells as usize);
            assert!((0.0..w as f64).contains(&c.centroid.0), "{c:?}");
            assert!((0.0..h as f64).contains(&c.centroid.1), "{c:?}");
            if topology == Topology::Bounded {
                let n = members.len() as f64;
                let xs = members.iter().map(|&(x, _)| x as i64);
                let ys = members.iter().map(|&(_, y)| y as i64);
                assert_eq!(
                    (c.min_x, c.min_y, c.max_x, c.max_y),
                    (
                        xs.clone().min().unwrap(),
                        ys.clone().min().unwrap(),
                        xs.clone().max().unwrap(),
                        ys.clone().max().unwrap()
                    )
                );
                let mean_x = xs.sum::<i64>() as f64 / n;
                let mean_y = ys.sum::<i64>() as f64 / n;
                assert!((c.centroid.0 - mean_x).abs() < 1e-9, "{c:?}");
                assert!((c.centroid.1 - mean_y).abs() < 1e-9, "{c:?}");
            } else {
                // Cells in distinct columns (rows) have distinct unwrapped x (y),
                // and a connected clump spans at most one column (row) per cell.
                let mut columns = vec![false; w];
                let mut rows = vec![false; h];
                for &(x, y) in &members {
                    (columns[x], rows[y]) = (true, true);
                }
                let count = |v: &[bool]| v.iter().filter(|&&b| b).count() as i64;
                let (box_w, box_h) = (c.max_x - c.min_x + 1, c.max_y - c.min_y + 1);
                assert!(
                    count(&columns) <= box_w && box_w <= members.len() as i64,
                    "{c:?}"
                );
                assert!(
                    count(&rows) <= box_h && box_h <= members.len() as i64,
                    "{c:?}"
                );
                let (x, y) = (members[0].0 as i64, members[0].1 as i64);
                assert!((c.min_x..=c.max_x).contains(&x) && (c.min_y..=c.max_y).contains(&y));
            }
        }
    }

    #[test]
    fn empty_grid_has_no_clumps() {
        for topology in [Topology::Torus, Topology::Bounded] {
            assert!(find(&BitGrid::new(70, 5).unwrap(), topology).is_empty());
            let (labels, clumps) = label(&BitGrid::new(1, 1).unwrap(), topology);
            assert_eq!((labels, clumps), (vec![0], vec![]));
        }
    }

    #[test]
    fn block_is_one_clump() {
        let g = grid(10, 10, &[(3, 4), (4, 4), (3, 5), (4, 5)]);
        for topology in [Topology::Torus, Topology::Bounded] {
            let clumps = find(&g, topology);
            assert_eq!(boxes(&clumps), vec![(4, 3, 4, 4, 5)]);
            assert_eq!(clumps[0].centroid, (3.5, 4.5));
        }
    }

    #[test]
    fn diagonal_neighbours_join_and_gaps_split() {
        let diagonal = grid(8, 8, &[(2, 2), (3, 3)]);
        assert_eq!(find(&diagonal, Topology::Bounded).len(), 1);
        let anti = grid(8, 8, &[(3, 2), (2, 3)]);
        assert_eq!(
            boxes(&find(&anti, Topology::Bounded)),
            vec![(2, 2, 2, 3, 3)]
        );
        let apart = grid(8, 8, &[(2, 2), (4, 2)]);
        assert_eq!(find(&apart, Topology::Bounded).len(), 2);
        let below = grid(8, 8, &[(2, 2), (2, 4)]);
        assert_eq!(find(&below, Topology::Bounded).len(), 2);
    }

    #[test]
    fn clumps_across_torus_edges_are_whole_and_unwrapped() {
        // (0, 3) and (9, 4) touch diagonally through the west/east edge.
        let g = grid(10, 8, &[(0, 3), (9, 4)]);
        let torus = find(&g, Topology::Torus);
        assert_eq!(boxes(&torus), vec![(2, -1, 3, 0, 4)]);
        assert_eq!(torus[0].centroid, (9.5, 3.5));
        let bounded = find(&g, Topology::Bounded);
        assert_eq!(boxes(&bounded), vec![(1, 0, 3, 0, 3), (1, 9, 4, 9, 4)]);
        // Through the north/south edge, and through a corner.
        let g = grid(10, 8, &[(5, 0), (4, 7), (5, 7)]);
        let torus = find(&g, Topology::Torus);
        assert_eq!(boxes(&torus), vec![(3, 4, -1, 5, 0)]);
        // Mean y is -2/3, wrapped to 8 - 2/3 = 22/3.
        assert_eq!(torus[0].centroid, (14.0 / 3.0, 22.0 / 3.0));
        assert_eq!(find(&g, Topology::Bounded).len(), 2);
        let corner = grid(10, 8, &[(0, 0), (9, 7)]);
        assert_eq!(
            boxes(&find(&corner, Topology::Torus)),
            vec![(2, -1, -1, 0, 0)]
        );
        assert_eq!(find(&corner, Topology::Bounded).len(), 2);
        // A run that wraps within its row is labelled on both sides.
        let g = grid(70, 2, &[(0, 1), (1, 1), (68, 1), (69, 1)]);
        let (labels, clumps) = label(&g, Topology::Torus);
        assert_eq!(boxes(&clumps), vec![(4, -2, 1, 1, 1)]);
        assert_eq!(labels.iter().filter(|&&l| l == 1).count(), 4);
        check_against_reference(&g, Topology::Torus);
    }

    #[test]
    fn clumps_come_in_row_major_order_of_first_cell() {
        // A clump's first cell is its topmost, then westmost, whatever its
        // shape; the tall clump on the east comes before the one that starts
        // a row lower on the west.
        let g = grid(12, 6, &[(8, 0), (8, 1), (1, 1), (1, 2), (5, 4), (0, 5)]);
        let clumps = find(&g, Topology::Bounded);
        assert_eq!(
            boxes(&clumps),
            vec![
                (2, 8, 0, 8, 1),
                (2, 1, 1, 1, 2),
                (1, 5, 4, 5, 4),
                (1, 0, 5, 0, 5)
            ]
        );
    }

    #[test]
    fn tiny_tori_terminate_and_count_once() {
        // On these a cell is its own neighbour, or its neighbours repeat.
        let cases = [
            grid(1, 1, &[(0, 0)]),
            grid(2, 2, &[(0, 0), (1, 0), (0, 1), (1, 1)]),
            grid(2, 2, &[(1, 1)]),
            grid(1, 5, &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
            grid(5, 1, &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
            grid(1, 5, &[(0, 1), (0, 3)]),
            grid(3, 3, &[(0, 0), (1, 1), (2, 2)]),
            grid(64, 1, &[(0, 0), (63, 0)]),
        ];
        for g in &cases {
            for topology in [Topology::Torus, Topology::Bounded] {
                check_against_reference(g, topology);
            }
        }
        assert_eq!(
            boxes(&find(&grid(1, 1, &[(0, 0)]), Topology::Torus)),
            vec![(1, 0, 0, 0, 0)]
        );
        let full = find(
            &grid(2, 2, &[(0, 0), (1, 0), (0, 1), (1, 1)]),
            Topology::Torus,
        );
        assert_eq!(full.len(), 1);
        assert_eq!(full[0].cells, 4);
        // A 1-wide torus: cells two apart in a 5-tall column stay apart,
        // in a 3-tall one they touch through the edge.
        assert_eq!(
            find(&grid(1, 5, &[(0, 1), (0, 3)]), Topology::Torus).len(),
            2
        );
        assert_eq!(
            find(&grid(1, 3, &[(0, 0), (0, 2)]), Topology::Torus).len(),
            1
        );
    }

    #[test]
    fn soups_match_the_reference() {
        for (w, h, density, seed) in [(300, 200, 0.3, 1), (129, 64, 0.6, 2), (64, 130, 0.05, 3)] {
            let g = crate::life::soup(w, h, density, seed).unwrap();
            for topology in [Topology::Torus, Topology::Bounded] {
                check_against_reference(&g, topology);
            }
        }
        // A settled field (soup run a few generations) has the shapes rocks have.
        let g = crate::life::soup(256, 256, 0.8, 7).unwrap();
        let g = crate::Life::new(crate::Rule::CONWAY, Topology::Torus).run(&g, 8);
        check_against_reference(&g, Topology::Torus);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn random_soups_match_the_reference(
            width in 1usize..=70,
            height in 1usize..=40,
            density in 0.0..=1.0f64,
            seed: u64,
        ) {
            let g = crate::life::soup(width, height, density, seed).unwrap();
            check_against_reference(&g, Topology::Torus);
            check_against_reference(&g, Topology::Bounded);
        }
    }
}
