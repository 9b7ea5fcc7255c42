//! playa: a generative desert-landscape renderer.
//!
//! Rocks grow from a Life-like cellular automaton: a seeded random soup run a
//! few generations leaves natural clumps, and each live cell becomes a stone.

pub mod app;
pub mod atomic;
pub mod clumps;
pub mod color;
pub mod compose;
mod encoder;
pub mod error;
pub mod grid;
pub mod layers;
pub mod life;
pub mod noise;
pub mod palette;
pub mod picture;
pub mod presets;
pub mod recipe;
pub mod reference;
pub mod rle;
pub mod rule;
pub mod scene;
pub mod share;
pub mod soup;
pub mod source;

pub use compose::render;
pub use error::{Error, Result};
pub use grid::{BitGrid, Topology};
pub use layers::Layer;
pub use life::Life;
pub use palette::TimeOfDay;
pub use rule::Rule;
pub use scene::Scene;
pub use soup::soup;
pub use source::Source;
