//! The plain per-cell automaton: slow, obvious, and the oracle the fast
//! engine is tested against.

use crate::life::grid::{BitGrid, Topology};
use crate::life::rule::Rule;

/// Live neighbours of (`x`, `y`) among its 8 Moore offsets. On a torus each
/// offset wraps, so on a grid 1 or 2 cells wide an offset may land on the
/// same cell twice, or on the cell itself; each landing counts.
pub fn neighbours(grid: &BitGrid, x: usize, y: usize, topology: Topology) -> u32 {
    let (w, h) = (grid.width() as isize, grid.height() as isize);
    let mut count = 0;
    for dy in -1..=1isize {
        for dx in -1..=1isize {
            if dx == 0 && dy == 0 {
                continue;
            }
            let (nx, ny) = (x as isize + dx, y as isize + dy);
            let cell = match topology {
                Topology::Torus => Some((nx.rem_euclid(w), ny.rem_euclid(h))),
                Topology::Bounded => {
                    ((0..w).contains(&nx) && (0..h).contains(&ny)).then_some((nx, ny))
                }
            };
            if let Some((cx, cy)) = cell {
                count += u32::from(grid.get(cx as usize, cy as usize));
            }
        }
    }
    count
}

/// The next generation of `grid`, one cell at a time.
pub fn step(grid: &BitGrid, rule: Rule, topology: Topology) -> BitGrid {
    let mut next = BitGrid::new(grid.width(), grid.height()).expect("same size as a valid grid");
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let alive = rule.next_state(grid.get(x, y), neighbours(grid, x, y, topology));
            next.set(x, y, alive);
        }
    }
    next
}
