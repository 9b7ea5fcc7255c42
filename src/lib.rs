//! playa: a generative desert-landscape renderer.
//!
//! Rocks grow from a Life-like cellular automaton: a seeded random soup run a
//! few generations leaves natural clumps, and each live cell becomes a stone.

pub mod clumps;
pub mod error;
pub mod export;
pub mod grid;
pub mod life;
pub mod reference;
pub mod rle;
pub mod rule;
pub mod soup;

pub use error::{Error, Result};
pub use grid::{BitGrid, Topology};
pub use life::Life;
pub use rule::Rule;
pub use soup::soup;
