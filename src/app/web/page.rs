//! The app in the browser: started on a canvas by eframe's web runner, with
//! the scene's share code in the page's address (`index.html#playa1-…`) and
//! exports saved as downloads. Only this module touches the page; the app
//! itself is the same as on the desktop.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::app::export::job::ExportJob;

use crate::app::PlayaApp;
use crate::app::window::setup_style;

/// Starts the app on the `<canvas id="{canvas_id}">` of the page.
pub async fn start(canvas_id: &str) -> Result<(), JsValue> {
    let document = window()?
        .document()
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let canvas = document
        .get_element_by_id(canvas_id)
        .ok_or_else(|| JsValue::from_str(&format!("no element #{canvas_id} on the page")))?
        .dyn_into::<web_sys::HtmlCanvasElement>()?;
    create_webgl2_context(&canvas)?;
    eframe::WebRunner::new()
        .start(
            canvas,
            eframe::WebOptions::default(),
            Box::new(|cc| {
                setup_style(&cc.egui_ctx);
                CONTEXT.with(|c| *c.borrow_mut() = Some(cc.egui_ctx.clone()));
                repaint_on_hashchange(&cc.egui_ctx);
                let mut app = PlayaApp::from_storage(cc.storage);
                // Links made here point back to this page.
                if let Some(page) = page_address() {
                    app.state.web_address = page;
                }
                Ok(Box::new(app))
            }),
        )
        .await?;
    if let Some(loading) = document.get_element_by_id("loading") {
        loading.remove();
    }
    Ok(())
}

/// Makes the canvas's WebGL2 context before eframe asks for one (it then
/// gets this one) without the browser's multisampling: egui smooths its
/// own edges, and where the browser draws in software (no GPU) the
/// multisampled canvas cost half of every frame, so the page painted half
/// as often (docs/PERFORMANCE.md, "The browser"). Opaque, with no depth
/// or stencil buffer, which egui does not use.
fn create_webgl2_context(canvas: &web_sys::HtmlCanvasElement) -> Result<(), JsValue> {
    let options = js_sys::Object::new();
    for key in ["antialias", "alpha", "depth", "stencil"] {
        js_sys::Reflect::set(&options, &JsValue::from_str(key), &JsValue::FALSE)?;
    }
    // No WebGL2 here: eframe says so when it asks.
    let _ = canvas.get_context_with_context_options("webgl2", &options)?;
    Ok(())
}

/// The page's address without its fragment or query.
fn page_address() -> Option<String> {
    let location = web_sys::window()?.location();
    Some(format!(
        "{}{}",
        location.origin().ok()?,
        location.pathname().ok()?
    ))
}

/// A link pasted into the address bar changes only the fragment: no input
/// reaches the app, so wake it to read the new scene.
fn repaint_on_hashchange(ctx: &egui::Context) {
    let ctx = ctx.clone();
    let wake = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || ctx.request_repaint());
    if let Some(window) = web_sys::window() {
        let _ =
            window.add_event_listener_with_callback("hashchange", wake.as_ref().unchecked_ref());
    }
    // The page lives as long as the app: the listener is never removed.
    wake.forget();
}

/// Shows why the app could not start, in place of the "loading" line.
pub fn show_failure(error: &JsValue) {
    let text = format!("playa could not start: {error:?}");
    web_sys::console::error_1(&JsValue::from_str(&text));
    if let Some(loading) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading"))
    {
        loading.set_text_content(Some(&text));
    }
}

fn window() -> Result<web_sys::Window, JsValue> {
    web_sys::window().ok_or_else(|| JsValue::from_str("no window"))
}

/// Replaces the page address's fragment with `#{fragment}`, without a new
/// history entry (the back button leaves the page, not the last edit).
pub fn replace_fragment(fragment: &str) {
    let url = format!("#{fragment}");
    if let Ok(history) = window().and_then(|w| w.history()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Offers `bytes` as a download named `name` (the browser's way of saving).
pub fn download(name: &str, bytes: &js_sys::Uint8Array, mime: &str) -> Result<(), String> {
    let fail = |e: JsValue| format!("the browser refused the download: {e:?}");
    let parts = js_sys::Array::of1(bytes);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = window().map_err(fail)?.document().ok_or("no document")?;
    let anchor = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .map_err(|_| "no anchor element".to_string())?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Logs, once, how long after the page started loading the first full
/// picture was on screen (`playa: first picture after … ms`), so a
/// browser driver can time the page's load.
pub fn picture_shown() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static LOGGED: AtomicBool = AtomicBool::new(false);
    if LOGGED.swap(true, Ordering::Relaxed) {
        return;
    }
    if let Some(ms) = web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
    {
        web_sys::console::log_1(&JsValue::from_str(&format!(
            "playa: first picture after {ms:.0} ms"
        )));
    }
}

thread_local! {
    /// The app's context, to wake it when an export's worker reports.
    static CONTEXT: RefCell<Option<egui::Context>> = const { RefCell::new(None) };
}

/// An export running in a Web Worker of its own (`export-worker.js`, next
/// to the page, with its own instance of this module), so the page keeps
/// painting while it renders. Dropping it stops the worker at once.
pub struct ExportWorker {
    worker: web_sys::Worker,
    state: Rc<RefCell<WorkerState>>,
    _listener: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _failure: Closure<dyn FnMut(JsValue)>,
}

/// What the worker has reported.
#[derive(Default)]
struct WorkerState {
    /// Bytes written (a picture) or frames made (an animation) so far.
    progress: u64,
    /// The file's bytes, or why there are none.
    result: Option<Result<js_sys::Uint8Array, String>>,
}

impl ExportWorker {
    /// Starts a worker on `job`, with this page's compiled module.
    pub fn start(job: &ExportJob) -> Result<ExportWorker, String> {
        let fail = |e: JsValue| format!("the browser could not start the export: {e:?}");
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker =
            web_sys::Worker::new_with_options("export-worker.js", &options).map_err(fail)?;
        let state = Rc::new(RefCell::new(WorkerState::default()));
        let reported = Rc::clone(&state);
        let listener = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                let data = event.data();
                let field = |name: &str| {
                    js_sys::Reflect::get(&data, &JsValue::from_str(name))
                        .ok()
                        .filter(|v| !v.is_undefined())
                };
                let mut state = reported.borrow_mut();
                if let Some(done) = field("progress").and_then(|v| v.as_f64()) {
                    state.progress = done as u64;
                } else if let Some(bytes) = field("bytes") {
                    state.result = Some(Ok(bytes.unchecked_into()));
                } else if let Some(error) = field("error") {
                    state.result = Some(Err(error.as_string().unwrap_or_default()));
                }
                wake();
            },
        );
        let failed = Rc::clone(&state);
        let failure = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let message = js_sys::Reflect::get(&event, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "it could not load".to_string());
            failed.borrow_mut().result =
                Some(Err(format!("the export's worker failed: {message}")));
            wake();
        });
        worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        worker.set_onerror(Some(failure.as_ref().unchecked_ref()));
        let message = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| {
            js_sys::Reflect::set(&message, &JsValue::from_str(key), value).map(|_| ())
        };
        // The page's compiled module: the worker instantiates it without
        // fetching or compiling it again.
        set("module", &wasm_bindgen::module())
            .and_then(|()| set("job", &JsValue::from_str(&job.to_text())))
            .and_then(|()| worker.post_message(&message))
            .map_err(fail)?;
        Ok(ExportWorker {
            worker,
            state,
            _listener: listener,
            _failure: failure,
        })
    }

    /// Bytes written (a picture) or frames made (an animation) so far.
    pub fn progress(&self) -> u64 {
        self.state.borrow().progress
    }

    /// The file's bytes once made, or why the export failed; `None` while
    /// it runs.
    pub fn poll(&self) -> Option<Result<js_sys::Uint8Array, String>> {
        self.state.borrow_mut().result.take()
    }
}

impl Drop for ExportWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Asks the app for a frame (to show what a worker reported).
fn wake() {
    CONTEXT.with(|c| {
        if let Some(ctx) = &*c.borrow() {
            ctx.request_repaint();
        }
    });
}

/// What a browser driver (`web/bench.sh`) asks of the app through the
/// module's `bench_*` exports, and what it reads back.
#[derive(Default)]
struct Bench {
    /// An export size asked for ("4K", "8K"), until the app starts it.
    export: Option<String>,
    /// Frames the app has drawn.
    frames: u64,
    /// Whether an export was running at the last frame.
    exporting: bool,
}

thread_local! {
    static BENCH: RefCell<Bench> = RefCell::new(Bench::default());
}

/// Asks the app to export the scene as a PNG of the size named `size` (a
/// size of the export dialog: "1080p", "1440p", "4K", "8K"), as its
/// "Export" button does; the download is named `playa-bench.png`.
pub fn request_export(size: &str) {
    BENCH.with(|b| b.borrow_mut().export = Some(size.to_string()));
    wake();
}

/// The export size asked for by [`request_export`], once.
pub(crate) fn take_export_request() -> Option<String> {
    BENCH.with(|b| b.borrow_mut().export.take())
}

/// Counts a frame drawn, and whether an export was running.
pub(crate) fn frame_drawn(exporting: bool) {
    BENCH.with(|b| {
        let mut b = b.borrow_mut();
        b.frames += 1;
        b.exporting = exporting;
    });
}

/// Frames the app has drawn since it started.
pub fn frames_drawn() -> u64 {
    BENCH.with(|b| b.borrow().frames)
}

/// Whether an export was running when the app last drew a frame.
pub fn exporting() -> bool {
    BENCH.with(|b| b.borrow().exporting)
}
