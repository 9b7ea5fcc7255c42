//! Output: a scene into files a person keeps.
//!
//! PNGs that carry their recipe ([`picture`], streamed in parallel strips
//! by the encoder), the recipe read back from a PNG ([`recipe`]: the text
//! chunks' keys are all named there), and Deep Zoom pyramids ([`tiles`]).
//!
//! Architecture invariant: output uses [`crate::base`], [`crate::scene`],
//! [`crate::share`] and [`crate::compose`]; it never sees the front ends,
//! batches or the exploring tools.

pub(crate) mod encoder;
pub mod picture;
pub mod recipe;
pub mod tiles;
