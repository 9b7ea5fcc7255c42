//! 8-connected clumps of live cells. WORK IN PROGRESS.

use crate::grid::{BitGrid, Topology};

/// One clump of live cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Clump {
    /// Number of cells.
    pub cells: u32,
}

/// The clumps of `grid`.
pub fn find(_grid: &BitGrid, _topology: Topology) -> Vec<Clump> {
    todo!()
}
