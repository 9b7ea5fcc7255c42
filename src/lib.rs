//! playa: a generative desert-landscape renderer.
//!
//! Rocks grow from a Life-like cellular automaton: a seeded random soup run a
//! few generations leaves natural clumps, and each live cell becomes a stone.

pub mod allocator;
pub mod animation;
#[cfg(feature = "app")]
pub mod app;
pub mod atomic;
pub mod batch;
pub mod canvas;
pub mod color;
pub mod compose;
mod encoder;
pub mod error;
pub mod layers;
pub mod life;
pub mod limit;
pub mod manifest;
pub mod math;
pub mod noise;
pub mod palette;
pub mod picture;
pub mod presets;
pub mod randomize;
pub mod recipe;
pub mod scene;
pub mod setting;
pub mod shard;
pub mod share;
mod simd;
pub mod source;
pub mod tiles;

pub use animation::Animation;
pub use compose::render;
pub use error::{Error, Result};
pub use layers::Layer;
pub use life::{BitGrid, Life, Rule, Topology, soup};
pub use palette::TimeOfDay;
pub use scene::Scene;
pub use source::Source;
