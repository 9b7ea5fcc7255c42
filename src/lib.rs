//! playa: a generative desert-landscape renderer.
//!
//! A [`Scene`] is plain data: a seed, the light, a Life-like rock automaton
//! and an ordered list of [`Layer`]s. Rocks grow from the automaton: a
//! seeded random soup run a few generations leaves natural clumps, and each
//! clump becomes stones on the ground, larger toward the viewer.
//!
//! # The pipeline
//!
//! ```text
//! Source ──▶ Scene ──▶ compose::Plan ──▶ compose::Composer ──▶ picture / tiles
//! (a preset,  (plain     (quantized,       (each visible layer    (PNG with its
//!  .ron, PNG,  data)      automaton run     prepared at a size;    recipe, Deep
//!  share code)            once, clumps)     bands drawn in         Zoom pyramid)
//!                                           parallel)
//! ```
//!
//! [`canvas::Canvas`] runs the same pipeline for a live preview, keeping what
//! an edit leaves unchanged; [`animation`] runs it generation by generation
//! into an APNG or a GIF; [`share`] turns a scene into a short code and back.
//! The same scene gives the same bytes on any number of threads, on any
//! machine and in the browser.
//!
//! # Entry points
//!
//! - [`render`]: a scene into an RGBA image.
//! - [`Source::load`]: a scene from a preset's name, a `.ron` file, a playa
//!   PNG, a share code or a link.
//! - [`picture::render_png`]: a scene straight into a PNG that carries its
//!   recipe, streamed for large sizes ([`picture::write_file`] makes it a
//!   file, whole or not at all).
//! - [`canvas::Canvas::render`]: re-rendering after an edit.
//! - [`Animation::write`]: an animation of the automaton, streamed.
//! - [`share::encode`] and [`share::decode`]: share codes.
//! - [`tweak::Tweaks`]: settings set by name (`rocks.roughness=0.8`), and
//!   sweeps of one setting's values.
//! - [`sheet::write_file`]: many scenes as labelled thumbnails on one PNG.
//! - [`Life`], [`BitGrid`], [`Rule`]: the automaton on its own.
//!
//! ```
//! let scene = playa::scene::presets::load("death-valley")?;
//! let image = playa::render(&scene, 320, 180)?;
//! assert_eq!(image.dimensions(), (320, 180));
//! # Ok::<(), playa::Error>(())
//! ```
//!
//! Every function returns [`Result`]: bad input is an [`Error`], never a
//! panic. The window app is the module `app`, behind the default cargo
//! feature `app`.

#![warn(missing_docs)]

// The parts, lowest first: each uses only those above it in this list
// (docs/ARCHITECTURE.md, "Parts and their rules"; tests/architecture.rs
// holds it).
pub mod error;

pub mod animation;
#[cfg(feature = "app")]
pub mod app;
pub mod base;
pub mod batch;
pub mod compose;
pub mod explore;
pub mod layers;
pub mod life;
pub mod output;
pub mod scene;
pub mod setting;
pub mod share;
pub mod source;

pub use animation::Animation;
pub use base::palette::TimeOfDay;
pub use compose::render;
pub use error::{Error, Result};
pub use layers::Layer;
pub use life::{BitGrid, Life, Rule, Topology, soup};
pub use scene::Scene;
pub use source::Source;
