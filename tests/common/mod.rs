//! What the integration tests share: driving the app's UI (`app`),
//! running the `playa` binary (`cli`) and sizing rayon's pool (`threads`).
//!
//! Each file in `tests/` is a crate of its own and uses only some of these
//! helpers; the rest would warn as dead code in that crate, hence the one
//! `allow` below.
#![allow(dead_code)]

#[cfg(feature = "app")]
pub mod app;
pub mod cli;
pub mod threads;
