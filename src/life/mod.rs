//! The rock automaton: a seeded soup run a few generations of a Life-like
//! rule on a bit-packed grid. Everything here is independent of the
//! renderer; the rocks layer reads the grid it leaves.
//!
//! - [`grid`]: the bit-packed grid and its topology;
//! - [`rule`]: Life-like rules (`B3/S23`, Golly's `23/3`);
//! - [`soup`](mod@soup): the seeded random start;
//! - [`step`]: the bit-parallel engine ([`Life`]);
//! - [`reference`](mod@reference): the plain per-cell engine it is tested against;
//! - [`clumps`]: 8-connected clumps of live cells;
//! - [`rle`]: the RLE pattern format of Golly and LifeViewer.

pub mod clumps;
pub mod grid;
pub mod reference;
pub mod rle;
pub mod rule;
pub mod soup;
pub mod step;

pub use grid::{BitGrid, Topology};
pub use rule::Rule;
pub use soup::soup;
pub use step::Life;
