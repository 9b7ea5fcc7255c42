//! Animations: a scene's rock automaton generation by generation, or one
//! of its settings over time, as an APNG or a GIF.
//!
//! Frame `k` of an animation is its scene with the automaton stopped at
//! generation `first + k`, up to `last` included: the landscape with the
//! soup's noise turning into clumps of stones (or, with
//! [`Options::cells`], the bare automaton, one cell a square of pixels).
//! With a [`Sweep`] instead, frame `k` is the scene with one setting at the
//! sweep's value `k` (the key and values of `playa render --set`, e.g.
//! `time` from 5 to 20 for a day's light), its automaton at its own
//! generations.
//!
//! [`Animation::write`] streams: a window of a few frames is rendered in
//! parallel while the window before it is encoded and written, in order, so
//! memory holds a few frames, never the whole animation. The automaton runs
//! once, a generation at a time ([`Plan::generations`](crate::compose::Plan::generations));
//! a sweep runs it again only for a frame whose value changes it.
//!
//! - **APNG** (`apng`, through the `png` crate): 8-bit RGB, and every
//!   frame decodes to exactly the pixels `playa render` gives for its
//!   generation. After the first, a frame is stored as the rectangle that
//!   changed since the frame before (the sky and the ranges never do),
//!   drawn over it, so any decoder composes the whole frame again. The file
//!   carries its recipe as a still picture does ([`SCENE_KEY`] and
//!   [`CODE_KEY`]), and its options in [`ANIMATION_KEY`], so `playa
//!   animate anim.png` makes it again, byte for byte. The recipe of the
//!   generations is the scene of the last frame, which `playa render
//!   anim.png` renders; a sweep's is the scene it started from (opened,
//!   the file brings back that scene, and its sweep is in the options).
//! - **GIF** (`gif`, through the `gif` crate): one global palette of 256
//!   colours, cut from the first and last frames (`colormap`), and
//!   ordered dithering with a fixed 8×8 pattern: the same file on every
//!   run, and what stands still in the picture stands still in the GIF.
//!   Frames after the first are the changed rectangle too. Delays count
//!   in hundredths of a second ([`Options::gif_delay`]).
//!
//! The bytes depend only on the scene, the options and the size, never on
//! the number of threads.
//!
//! ## Files
//!
//! - `options.rs`: [`Options`], [`Sweep`] and [`Format`], their limits, the frame
//!   delays each format stores, and [`read_options`].
//! - `film.rs`: [`Animation`], a checked scene, options and size, and its
//!   frames' [`Plans`]: the automaton's generations or the sweep's scenes.
//! - `cells.rs`: the bare automaton as pictures ([`cells_size`]).
//! - `stream.rs`: [`Animation::write`] window by window, [`Steps`] frame by
//!   frame, and the [`Progress`] a watcher reads and cancels through.
//! - `writer.rs`: [`FrameWriter`], the frames into the file, each cut to the
//!   rectangle that changed (`rect.rs`).
//! - `apng.rs`, `gif.rs`, `colormap.rs`: the two formats' files and the
//!   GIF's palette.
//!
//! An animation as a folder of frames, each a PNG with its recipe, made in
//! shards ([`Animation::write_frames`]) and assembled into the same file
//! ([`crate::batch::frames::Frames`]), is a batch's: see
//! [`crate::batch::frames`].
//!
//! [`SCENE_KEY`]: crate::output::recipe::SCENE_KEY
//! [`CODE_KEY`]: crate::output::recipe::CODE_KEY

mod apng;
mod cells;
mod colormap;
mod film;
mod gif;
mod options;
mod rect;
pub(crate) mod stream;
mod writer;

#[cfg(test)]
mod tests;

pub use cells::{DEAD_CELL, LIVE_CELL, cells_scale_to_fit, cells_size};
pub use film::{Animation, Plans};
pub use options::{
    ANIMATION_KEY, Format, MAX_CELL_SCALE, MAX_FPS, MAX_GIF_FPS, MAX_HOLD, MAX_LOOPS, MIN_FPS,
    Options, Sweep, read_options,
};
pub use stream::{Progress, Steps};
pub use writer::FrameWriter;

use rect::Rect;
