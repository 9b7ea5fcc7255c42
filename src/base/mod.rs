//! The base: what every part of playa uses, knowing nothing of scenes.
//!
//! Colour in linear light and its sRGB encoding ([`color`]), the light of
//! each time of day ([`palette`]), seeded noise ([`noise`]), functions with
//! the same bits on every platform ([`math`]), the vectorised builds of the
//! hot loops (`simd`), the one reader of `A..B` ranges ([`range`]), a small
//! bitmap font for labels ([`font`]), files opened to read only when they
//! are regular files ([`file`](mod@file)), files written whole or not at all
//! ([`atomic`]) and the allocator's freed memory kept for the next render
//! ([`allocator`]).
//!
//! Architecture invariant: the base uses nothing of playa's but
//! [`crate::error`]. Every other part may use it.

pub mod allocator;
pub mod atomic;
pub mod color;
pub mod file;
pub mod font;
pub mod math;
pub mod noise;
pub mod palette;
pub mod range;
pub(crate) mod simd;
