//! playa: a generative desert-landscape renderer.
//!
//! A shipped preset, rendered to a PNG that carries its own recipe:
//!
//! ```
//! use playa::output::picture::{self, Compression};
//! use playa::output::recipe;
//!
//! let scene = playa::scene::presets::load("death-valley")?;
//! let path = std::env::temp_dir().join(format!("death-valley-{}.png", std::process::id()));
//! picture::write_file(&path, |out| {
//!     picture::render_png(out, &scene, 640, 360, &[], Compression::Fast)
//! })?;
//! // The file holds its scene: playa makes the same picture from it.
//! assert_eq!(recipe::read_recipe(&path)?.scene, scene);
//! # std::fs::remove_file(&path).ok();
//! # Ok::<(), playa::Error>(())
//! ```
//!
//! A [`Scene`] is plain data: a seed, the light, a Life-like rock automaton
//! and an ordered list of [`Layer`]s. Rocks grow from the automaton: a
//! seeded random soup run a few generations leaves natural clumps, and each
//! clump becomes stones on the ground, larger toward the viewer. The same
//! scene gives the same bytes on any number of threads, on any machine and
//! in the browser. Every function returns [`Result`]: bad input is an
//! [`Error`], never a panic.
//!
//! # The parts
//!
//! The modules are the parts of docs/ARCHITECTURE.md, lowest first; each
//! uses only those before it (`tests/it/architecture.rs` holds this).
//!
//! - [`error`]: the one [`Error`] enum.
//! - [`base`]: colour, the light of each time of day, noise, bit-exact
//!   maths, the `A..B` ranges, files written whole or not at all.
//! - [`life`]: the automaton on its own: [`BitGrid`], [`Rule`], [`Life`],
//!   seeded soups, clumps, RLE.
//! - [`setting`]: a setting described once; reading, checking, rounding
//!   and rolling are driven by the tables.
//! - [`layers`]: the layer kinds (sky, ranges, floor, rocks, tent, spiral),
//!   each prepared once per picture and drawn a band of rows at a time.
//! - [`scene`]: [`Scene`] and the shipped presets ([`scene::presets`]).
//! - [`share`]: share codes and links ([`share::encode`],
//!   [`share::decode`]).
//! - [`compose`]: a scene into pixels ([`render`], `compose::Plan`);
//!   [`compose::canvas::Canvas`] re-renders what an edit changed;
//!   [`compose::window::Window`] is a part of the picture.
//! - [`output`]: PNGs that carry their recipe ([`output::picture`]), the
//!   recipe read back ([`output::recipe`]), Deep Zoom tiles
//!   ([`output::tiles`]).
//! - [`source`]: [`Source::load`], a scene from a preset's name, a user
//!   preset, a `.ron` file, a playa PNG, a share code or a link.
//! - [`animation`]: the automaton's run as an APNG or a GIF
//!   ([`Animation::write`]), streamed.
//! - [`batch`]: many pictures: jobs, shards, manifests, an animation's
//!   frames made in shards.
//! - [`explore`]: New scene and Vary ([`explore::randomize`]), settings
//!   set by name and swept ([`explore::tweak::Tweaks`]), contact sheets
//!   ([`explore::sheet`]).
//! - `app` (the default cargo feature `app`): the window app, a thin front
//!   end, as the command line (the `playa` binary) is.
//!
//! ```text
//! Source ──▶ Scene ──▶ compose::Plan ──▶ compose::Composer ──▶ output
//! (a preset,  (plain     (quantized,       (each visible layer    (PNG with its
//!  .ron, PNG,  data)      automaton run     prepared at a size;    recipe, Deep
//!  share code)            once, clumps)     bands drawn in         Zoom pyramid)
//!                                           parallel)
//! ```

#![warn(missing_docs)]

// The parts, lowest first: each uses only those above it in this list
// (docs/ARCHITECTURE.md, "Parts and their rules"; tests/it/architecture.rs
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
pub mod traits;

pub use animation::Animation;
pub use base::palette::TimeOfDay;
pub use compose::render;
pub use error::{Error, Result};
pub use layers::Layer;
pub use life::{BitGrid, Life, Rule, Topology, soup};
pub use scene::Scene;
pub use source::Source;
