//! The rocks layer's answer to "how much of the floor do I cover", without
//! drawing: whether the automaton left clumps (not a carpet, not an empty
//! plain), how much of the floor the stones will cover, and how far the
//! farthest reach up toward the sky.
//!
//! The estimate stamps each live cell's stone, as an ellipse where the
//! rocks layer's `place` would place it (a clump's stones gathered around
//! its centre), on a coarse raster of the floor. New scene and Vary use it to
//! keep their rolls inside the envelope of the presets, and
//! `tests/it/new_scene.rs` measures the real pictures.

use super::Rocks;
use crate::base::palette::TimeOfDay;
use crate::layers::{Cover, Ground};
use crate::life::BitGrid;
use crate::life::clumps;
use crate::life::grid::Topology;

/// The fewest and most live cells, as a share of the grid, that still make
/// a field of clumps: fewer is a bare plain, more a carpet of rubble.
const ALIVE: (f32, f32) = (0.0015, 0.15);
/// The largest clump, as a share of the grid: larger ones read as a
/// paved floor rather than stones.
const LARGEST_CLUMP: f32 = 0.02;
/// The most stones stamped to estimate a field's cover: a denser field is
/// sampled.
const STAMPED: usize = 3000;
/// Columns of the raster the cover is estimated on.
const RASTER_COLUMNS: usize = 160;

/// A live cell, as placing its stone sees it.
struct Cell {
    /// Grid column and row.
    at: (u32, u32),
    /// Its offset from its clump's centre, in cells.
    offset: (f32, f32),
    /// The cells of its clump.
    cells: u32,
}

/// A grid's live cells and clumps, as the rocks layer turns them into
/// stones.
pub struct StoneField {
    cols: usize,
    rows: usize,
    alive: f32,
    largest: f32,
    cells: Vec<Cell>,
}

impl StoneField {
    /// The field of the automaton's `grid` (after its generations), whose
    /// edges have `topology`.
    pub fn of(grid: &BitGrid, topology: Topology) -> StoneField {
        let (cols, rows) = (grid.width(), grid.height());
        let total = (cols * rows) as f32;
        let alive = grid.population() as f32 / total;
        // A bare plain or a carpet is judged by its count alone: labelling
        // a carpet's cells would cost more than the rest of a roll.
        if !(ALIVE.0..=ALIVE.1).contains(&alive) {
            return StoneField {
                cols,
                rows,
                alive,
                largest: alive,
                cells: Vec::new(),
            };
        }
        let (labels, found) = clumps::label(grid, topology);
        let largest = found.iter().map(|c| c.cells).max().unwrap_or(0) as f32 / total;
        let cells = labels
            .iter()
            .enumerate()
            .filter(|&(_, &k)| k > 0)
            .map(|(i, &k)| {
                let clump = &found[k as usize - 1];
                let (c, r) = (i % cols, i / cols);
                let near = |v: usize, centre: f64, side: usize| {
                    let d = v as f64 - centre;
                    let side = side as f64;
                    // The short way round on a torus.
                    (d - side * (d / side).round()) as f32
                };
                Cell {
                    at: (c as u32, r as u32),
                    offset: (
                        near(c, clump.centroid.0, cols),
                        near(r, clump.centroid.1, rows),
                    ),
                    cells: clump.cells,
                }
            })
            .collect();
        StoneField {
            cols,
            rows,
            alive,
            largest,
            cells,
        }
    }

    /// Whether the automaton left clumps of stones.
    pub fn is_clumpy(&self) -> bool {
        (ALIVE.0..=ALIVE.1).contains(&self.alive) && self.largest <= LARGEST_CLUMP
    }

    /// The number of clumps of at least `cells` live cells (none for a
    /// bare plain or a carpet, whose cells are not labelled).
    pub fn clumps_of_at_least(&self, cells: u32) -> f32 {
        self.cells
            .iter()
            .filter(|c| c.cells >= cells)
            .map(|c| 1.0 / c.cells as f32)
            .sum()
    }

    /// What `rocks` will visibly cover of the floor of `ground` (whose
    /// stones are this field), and how far above the horizon they reach.
    pub(crate) fn estimate(&self, ground: &Ground, rocks: &Rocks) -> Cover {
        let place = Perspective::new(ground, rocks, self.rows);
        let aspect = ground.aspect;
        let px = aspect / RASTER_COLUMNS as f32;
        let floor_rows = (((1.0 - ground.horizon) / px).ceil() as usize).max(1);
        let mut raster = vec![false; RASTER_COLUMNS * floor_rows];
        let mut highest = f32::MAX;
        let cell_w = aspect / self.cols as f32;
        // A dense field is stamped one cell in `stride`, and its cover
        // worked back from that sample's (below).
        let stride = self.cells.len().div_ceil(STAMPED).max(1);
        for (i, cell) in self.cells.iter().enumerate() {
            let (c, r) = (cell.at.0 as f32, cell.at.1 as f32);
            let d = place.size(r);
            let (spread, size) = match cell.cells {
                1 => (0.0, 0.6),
                n if n < rocks.outcrop => (rocks.spread * 1.6, 0.93),
                _ => (rocks.spread, 1.1),
            };
            let x = (c + 0.5) * cell_w + cell.offset.0 * (spread * d - cell_w);
            let y = place.y(r - cell.offset.1) + cell.offset.1 * spread * d * 0.4;
            let size = size * d;
            // A stone's outline rises about half its width (more for a
            // heaped boulder) and sinks a little; its shadow widens it.
            let (half, up, down) = (0.6 * size, 0.5 * size, 0.15 * size);
            highest = highest.min(y - up - 0.5 * size);
            if i % stride != 0 {
                continue;
            }
            let to_px = |v: f32| v / px;
            let (x0, x1) = (to_px(x - half).floor(), to_px(x + half).ceil());
            let (y0, y1) = (
                to_px(y - up - ground.horizon).floor(),
                to_px(y + down - ground.horizon).ceil(),
            );
            let (cx, cy) = (to_px(x), to_px(y - ground.horizon));
            let (rx, ry_up, ry_down) = (to_px(half), to_px(up), to_px(down));
            for py in (y0.max(0.0) as usize)..(y1.max(0.0) as usize).min(floor_rows) {
                let v = py as f32 + 0.5 - cy;
                let v = v / if v < 0.0 { ry_up } else { ry_down }.max(0.5);
                let across = (1.0 - v * v).max(0.0).sqrt() * rx.max(0.5);
                let from = (cx - across).max(x0).max(0.0).round() as usize;
                let to = ((cx + across).min(x1).round().max(0.0) as usize).min(RASTER_COLUMNS);
                for covered in &mut raster[py * RASTER_COLUMNS..][from.min(to)..to] {
                    *covered = true;
                }
            }
        }
        let sampled = raster.iter().filter(|&&c| c).count() as f32 / raster.len() as f32;
        // Cover is 1 − e^(−area), and the sample's area is 1/stride of it.
        let covered = 1.0 - (1.0 - sampled.min(0.999)).powi(stride as i32);
        // Calibrated on the pictures (`tests/it/new_scene.rs`): the lower the
        // sun, the longer the shadows, and dark stones at night change the
        // darker floor less. Cover is 1 − e^(−area): the factors scale the
        // area.
        let seen_at = |time| match time {
            TimeOfDay::Noon => 1.37,
            TimeOfDay::GoldenHour => 1.78,
            TimeOfDay::Dusk => 1.55,
            TimeOfDay::Night => 0.58,
            TimeOfDay::Dawn => 1.8,
            TimeOfDay::Morning => 1.5,
            TimeOfDay::BlueHour => 1.0,
            TimeOfDay::Moonlight | TimeOfDay::Hour(_) => 0.9,
        };
        let (a, b, t) = ground.time.between();
        let seen = seen_at(a) + (seen_at(b) - seen_at(a)) * t;
        let covered = 1.0 - (1.0 - covered.min(0.999)).powf(seen);
        let reach = if highest == f32::MAX {
            f32::MIN
        } else {
            ground.horizon - highest
        };
        Cover {
            floor: covered,
            sky: 0.0,
            reach,
        }
    }
}

/// Where grid rows lie on the picture and how large their stones are, as
/// the rocks layer places them (rows evenly spaced in depth).
struct Perspective {
    depth: f32,
    near: f32,
    y_far: f32,
    span: f32,
    rows: f32,
}

impl Perspective {
    fn new(ground: &Ground, rocks: &Rocks, rows: usize) -> Perspective {
        let y_far = ground.horizon + rocks.top;
        Perspective {
            depth: rocks.near_size / rocks.far_size.max(1e-4),
            near: rocks.near_size * ground.scale,
            y_far,
            span: rocks.bottom - y_far,
            rows: rows.max(1) as f32,
        }
    }

    /// The perspective scale of (fractional) grid row `row` (1/depth far,
    /// 1 near), and where it lies between the far and the near row.
    fn at(&self, row: f32) -> (f32, f32) {
        let t = (row + 0.5) / self.rows;
        let depth = self.depth;
        if (depth - 1.0).abs() < 1e-3 {
            (1.0, t)
        } else {
            let s = 1.0 / (depth + (1.0 - depth) * t);
            (s, (s - 1.0 / depth) / (1.0 - 1.0 / depth))
        }
    }

    /// The screen height of grid row `row`, fraction of the height.
    fn y(&self, row: f32) -> f32 {
        self.y_far + self.span * self.at(row).1
    }

    /// The stone size on grid row `row`, fraction of the height.
    fn size(&self, row: f32) -> f32 {
        self.near * self.at(row).0
    }
}
