//! What the integration tests share: driving the app's UI (`app`),
//! running the `playa` binary (`cli`) and sizing rayon's pool (`threads`).
//!
//! Some helpers are used only by tests built with a feature (the app's)
//! or on one platform: without it they would warn as dead code, hence the
//! one `allow` below.
#![allow(dead_code)]

#[cfg(feature = "app")]
pub mod app;
pub mod cli;
pub mod threads;
