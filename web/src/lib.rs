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
/// `width × height` on this page (one thread, as the browser gives), after
/// one render not counted, as `examples/render_ms.rs` measures natively:
/// called by `web/bench.sh` (`import("./playa_web.js")`).
#[wasm_bindgen]
pub fn render_ms(width: u32, height: u32, runs: u32) -> f64 {
    let scene = playa::Scene::default();
    let render = || {
        let start = web_time::Instant::now();
        let _ = playa::render(&scene, width, height);
        start.elapsed().as_secs_f64() * 1e3
    };
    render();
    let mut times: Vec<f64> = (0..runs.max(1)).map(|_| render()).collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The bytes of an export job (`playa::app::export::job::ExportJob` as
/// text), made in an export's worker (`export-worker.js`); `progress` is
/// called with the bytes or frames made so far.
#[wasm_bindgen]
pub fn run_export(job: &str, progress: &js_sys::Function) -> Result<Vec<u8>, JsValue> {
    let job =
        playa::app::export::job::ExportJob::from_text(job).map_err(|e| JsValue::from_str(&e))?;
    job.run(|done| {
        let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(done as f64));
    })
    .map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Starts a PNG export of the scene at the export dialog's size named
/// `size` ("4K", "8K"), as its Export button does: for `web/bench.sh`,
/// which counts the frames the page draws meanwhile.
#[wasm_bindgen]
pub fn bench_export(size: &str) {
    playa::app::web::request_export(size);
}

/// Frames the app has drawn since it started (`web/bench.sh`).
#[wasm_bindgen]
pub fn bench_frames() -> f64 {
    playa::app::web::frames_drawn() as f64
}

/// Whether an export was running at the app's last frame (`web/bench.sh`).
#[wasm_bindgen]
pub fn bench_exporting() -> bool {
    playa::app::web::exporting()
}
