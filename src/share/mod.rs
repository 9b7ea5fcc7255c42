//! Share codes: a short text that reproduces a scene exactly.
//!
//! ```
//! use playa::{Scene, share};
//!
//! let scene = Scene { seed: 7, ..Scene::default() };
//! let code = share::encode(&scene);
//! assert_eq!(code, "playa1-XRGtELg");
//! assert_eq!(share::decode(&code)?, scene);
//! # Ok::<(), playa::Error>(())
//! ```
//!
//! A code is `playa`, the format number, `-`, then base64url characters
//! (`A-Z a-z 0-9 - _`, 6 bits each, most significant first): a 24-bit
//! checksum, then the payload, then zero bits up to the last character.
//!
//! The payload records only what differs from a *base* scene, with every
//! setting as a whole number of as many bits as its range needs (floats at
//! their documented precision), in the order of the settings tables
//! ([`Scene::SETTINGS`](crate::scene::Scene::SETTINGS), each layer kind's [`crate::layers::Kind::SETTINGS`]):
//!
//! ```text
//! base      3 bits   which base: 0 the default scene, 1.. the shipped presets
//! seed?     1 bit    then: bit count − 1 (6 bits), the seed (that many bits)
//! settings? 1 bit    then: a mask of the scene's 9 settings that differ, and
//!                    their values
//! layers?   1 bit    then: 1 bit "same kinds as the base's layers, in order",
//!                    else the number of layers (6 bits) and for each the
//!                    layer it starts from (a base layer, or a fresh layer of
//!                    one of the 6 kinds); then for each layer 1 bit
//!                    "changed", and if so a mask of its settings that differ
//!                    and their values
//! ```
//!
//! The checksum is CRC-24 (OpenPGP's) of the format number, the number of
//! payload characters and the payload. A CRC of degree 24 catches every
//! error within 24 consecutive bits, so every mistyped character, and every
//! swap of two neighbouring ones, is refused.
//!
//! The encoder tries every base and keeps the shortest code (the first base
//! of equal length), so equal scenes always get the same code: scenes are
//! quantized first, so neither RON field order, `23/3` against `B3/S23`, nor
//! float noise below the precision changes it, and decoding then encoding
//! gives back the same code.
//!
//! A *link* is a web address whose fragment is a code,
//! `https://example.org/playa/#playa1-…` ([`link`] makes one): the address
//! of playa's web page, which opens the scene. [`decode`] accepts a link,
//! or a bare `#playa1-…`, wherever it accepts a code, and reads the code in
//! its fragment; the address itself is not part of the format.
//!
//! The bases (`src/share/bases.ron`, every setting written out) are part of
//! format 1, frozen: a code means the same scene in every playa that reads
//! format 1, whatever later happens to the defaults and presets. Change them,
//! the field tables or this layout only with a new format number.
//!
//! ## Formats
//!
//! - **1**: the layout above, with every setting of the tables as they were
//!   (each [`Setting::since`](crate::setting::Setting::since) 1).
//! - **2**: the same layout and bases; the masks and values take in the
//!   settings added since (the rocks' `outcrop`, `spread`, `merge`,
//!   `roughness`, `gravel` and `sink`, at the end of their table). The bases
//!   do not write them: there they have their defaults as of format 2,
//!   frozen with it (`codes_of_format_2_are_pinned`).
//!
//! - **3**: the same layout and bases; a fresh layer may be of the kinds
//!   added since (clouds, the seventh kind), so the reference of a layer
//!   counts `bases + 7` instead of `bases + 6`. Only a scene with a layer of
//!   a later kind is written in format 3.
//! - **4** to **6**: the same layout and bases, with the settings and
//!   kinds of those formats (the wind, the Racetrack and plants; the
//!   relief; the dunes).
//! - **7**: the same layout and bases; the scene's `one_ground`, `eye` and
//!   `lens` (one terrain seen from one eye, see [`Scene`]). A scene that
//!   keeps them at their defaults is drawn, and coded, as before.
//! - **8**: the same layout and bases; the scene's `look` (the version of
//!   the light that draws it). A scene in the first look is coded as
//!   before.
//!
//! A code of an older format leaves the later settings out, and means their
//! base values. The encoder writes the oldest format that holds the scene,
//! so a scene whose later settings keep their base values (every preset,
//! every code shared before them) keeps its format-1 code, and a format-1
//! code decodes and encodes back to itself.
//!
//! ## Files
//!
//! - `codec.rs`: the code's text (prefix, checksum, base64url), [`encode`]
//!   and [`decode`].
//! - `payload.rs`: the scene as its differences from a base.
//! - `bases.rs`: the frozen base scenes of `bases.ron`.
//! - `bits.rs`: bit strings written and read a field at a time.
//! - `link.rs`: web addresses holding a code ([`link`]).

mod bases;
mod bits;
mod codec;
mod link;
mod payload;

#[cfg(test)]
mod tests;

pub use codec::{encode, seal_bytes};
pub use link::link;

use crate::error::Result;
use crate::scene::Scene;

/// The scene of a share code, or of a link holding one (see [`link`]).
/// Surrounding whitespace is ignored. Any other input — empty, cut off,
/// mistyped, from a newer playa, holding values outside the scene's
/// limits, or a link without a share code after its `#` — is an
/// [`Error::ShareCode`](crate::Error::ShareCode) saying what is wrong.
pub fn decode(code: &str) -> Result<Scene> {
    codec::decode_bare(link::code_in_link(code)?.unwrap_or(code))
}

/// Whether `text` has the shape of a share code of any format (`playa`,
/// digits, `-`), valid or not, or is a link meant to hold one (a web
/// address, or a bare `#…`): tells a code from a file or preset name. A
/// link then decodes to its scene, or says what is wrong with it.
pub fn looks_like_code(text: &str) -> bool {
    codec::is_code_shaped(text) || !matches!(link::code_in_link(text), Ok(None))
}

/// What every share code starts with, before the format number.
pub const PREFIX: &str = "playa";
/// The newest format, which this playa writes when a scene needs it; it
/// reads every format from 1 up to it.
pub const FORMAT: u32 = 8;
/// Longest share code accepted, in characters (a scene with every setting
/// of 32 layers changed needs about 600).
pub const MAX_CODE_CHARS: usize = 2048;
