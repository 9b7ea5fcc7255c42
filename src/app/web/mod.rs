//! The app in the browser: the page's address holding the scene's share
//! code ([`link`], also read natively from `PLAYA_WEB_URL`), and the glue
//! between eframe's web runner and the page (start, downloads, the export
//! worker, compiled for wasm32 only).

pub mod link;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
pub use page::*;
