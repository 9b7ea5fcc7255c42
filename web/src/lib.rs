//! playa in the browser: starts the app (the library's own, no second copy)
//! on the page's canvas. Built by `web/build.sh` into `target/web/`.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;

/// Runs when the page loads the module: the app on `<canvas id="playa">`.
/// (In an export's worker there is no page: nothing starts.)
#[wasm_bindgen(start)]
pub fn start() {
    if web_sys::window().is_none() {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        if let Err(e) = playa::app::web::start("playa").await {
            playa::app::web::show_failure(&e);
        }
    });
}

/// Median milliseconds of `runs` renders of the default scene at
/// `width × height` on this page (one thread, as the browser gives): the
/// README's web render figure, called from the page by the measuring
/// script (`import("./playa_web.js")`).
#[wasm_bindgen]
pub fn render_ms(width: u32, height: u32, runs: u32) -> f64 {
    let scene = playa::Scene::default();
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = web_time::Instant::now();
            let _ = playa::render(&scene, width, height);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The bytes of an export job (`playa::app::export_job::ExportJob` as
/// text), made in an export's worker (`export-worker.js`); `progress` is
/// called with the bytes or frames made so far.
#[wasm_bindgen]
pub fn run_export(job: &str, progress: &js_sys::Function) -> Result<Vec<u8>, JsValue> {
    let job =
        playa::app::export_job::ExportJob::from_text(job).map_err(|e| JsValue::from_str(&e))?;
    job.run(|done| {
        let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(done as f64));
    })
    .map_err(|e| JsValue::from_str(&e.to_string()))
}
