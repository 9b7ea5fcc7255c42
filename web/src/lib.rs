//! playa in the browser: starts the app (the library's own, no second copy)
//! on the page's canvas. Built by `web/build.sh` into `target/web/`.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;

/// Runs when the page loads the module: the app on `<canvas id="playa">`.
#[wasm_bindgen(start)]
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        if let Err(e) = playa::app::web::start("playa").await {
            playa::app::web::show_failure(&e);
        }
    });
}
