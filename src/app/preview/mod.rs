//! The live preview: the scene fitted to the central panel at its aspect,
//! rendered by a background worker, with wheel zoom, drag pan, a "Fit"
//! reset, and the tent dragged into place with the mouse. The export's
//! frame is drawn over it: where a picture of another aspect is cut from
//! the scene's (see [`crate::compose::window`]), the rest is dimmed.

pub mod animate;
pub mod job;
pub mod trace;
pub mod worker;

mod frame;
mod navigate;

use std::time::Duration;

use web_time::Instant;

use egui::{Color32, Pos2, Rect, Sense, TextureHandle, TextureOptions, Vec2, pos2, vec2};

pub use self::frame::Framed;
use crate::app::preview::job::{Pass, PreviewFrame, PreviewJob, WHOLE, render_job};
use crate::app::preview::worker::{Outbox, Worker};
use crate::compose::canvas::Canvas;
use crate::scene::Scene;

/// A change whose full preview is expected to take longer than this (from
/// the last render's speed) first gets a quick frame at half the width and
/// height (a quarter of the pixels), so the picture follows the hand. Below
/// it the quick frame costs more than it gives: it delays the full frame by
/// its own render and paint (measured with `PLAYA_BENCH`: a 50-70 ms render
/// reached the screen ~40% later with quick frames than without).
pub const QUICK_FRAME_MS: f64 = 80.0;

/// A frame drawn while the pointer moves should take no longer than this
/// (20 a second): where the full frame would take longer (a large
/// preview, a busy machine), the preview is drawn coarser while it moves
/// (2, 4 or 8 times smaller each side), and exactly once it is let go.
pub const COARSE_FRAME_MS: f64 = 50.0;

/// How many times smaller, each side, a frame drawn while the pointer
/// moves may be: the least that comes within [`COARSE_FRAME_MS`].
const COARSE_DIVISORS: [u32; 3] = [2, 4, 8];

/// A quick frame that took more than this share of its full frame's time
/// is not worth sending: the full frame comes that much later, and the
/// quick one barely sooner. In a packed field most of a render's cost is
/// per stone, not per pixel: a quarter of the pixels costs about 80% as
/// much (1280×720 against 640×360 at density 0.4 on 560 and 968 columns).
pub const QUICK_SHARE_MAX: f64 = 0.5;

/// After a quick frame cost too much, every this many slow requests still
/// get one, to measure again (the scene may have changed).
const QUICK_PROBE_EVERY: u32 = 8;

/// A preview awaited for less than this shows no spinner. Most renders
/// are in by then, and the spinner would only flash; it also animates, so
/// while it shows the window is repainted every frame, and where windows
/// are painted in software (Mesa's llvmpipe, on a machine or VM without a
/// GPU) each paint takes the cores the render needs.
pub const SPINNER_DELAY: Duration = Duration::from_millis(250);

/// How long until the spinner of a preview awaited for `waited` shows:
/// zero once it should.
fn spinner_wait(waited: Duration) -> Duration {
    SPINNER_DELAY.saturating_sub(waited)
}

/// The largest side of a preview render, whatever the zoom (the GPU's
/// `max_texture_side` may lower it further).
pub const MAX_PREVIEW_SIDE: usize = 4096;

/// The closest zoom out, as a fraction of the fitted picture.
const MIN_FIT_ZOOM: f32 = 0.25;

/// The closest zoom in, in screen pixels per pixel of the exported
/// picture (16: each of its pixels a block of 16×16).
const MAX_ZOOM: f32 = 16.0;

/// A frame that went to the GPU, for the latency figures.
#[derive(Clone, Copy, Debug)]
pub struct Delivered {
    /// When the UI asked for it.
    pub sent: Instant,
    /// Time spent rendering it, in ms.
    pub ms: f64,
    /// Its size in pixels.
    pub size: [u32; 2],
    /// Whether it is the full-size frame.
    pub full: bool,
}

/// The last full render, for the status bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderInfo {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Render time in ms.
    pub ms: f64,
}

/// What the preview on screen shows.
struct Shown {
    id: u64,
    scene: Scene,
    /// The part of the picture the texture holds, in fractions of its
    /// width and height: `[x, y, w, h]`.
    area: [f32; 4],
    full: bool,
    fingerprint: u64,
}

/// What a request renders: the picture's size and, zoomed in, the window
/// of it on screen.
type View = ([u32; 2], Option<[u32; 4]>);

/// Zoomed in, the whole picture behind the view: what a pan or a zoom
/// uncovers shows it, scaled, until the new view is in, never black.
struct Backdrop {
    texture: TextureHandle,
    scene: Scene,
}

/// The space, in points, around the fitted picture in the wide layout.
pub const MARGIN: f32 = 12.0;

/// What a pointer drag on the preview does.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Drag {
    None,
    Pan,
    /// Moves the tent layer at this index; `grab` is the offset of the
    /// pointer from the tent's anchor, in image fractions; `from` is where
    /// the tent stood (a second finger puts it back: two fingers zoom).
    Tent {
        layer: usize,
        grab: Vec2,
        from: Vec2,
    },
}

/// The preview panel's state and its worker.
pub struct Preview {
    worker: Worker<PreviewJob, PreviewFrame>,
    texture: Option<TextureHandle>,
    shown: Option<Shown>,
    backdrop: Option<Backdrop>,
    /// The size backdrops are rendered at: half the fitted picture's.
    backdrop_size: [u32; 2],
    /// The last request: its id, scene, size and window.
    sent: Option<(u64, Scene, View)>,
    next_id: u64,
    /// Size the panel wants, in pixels (set by [`Preview::ui`]).
    want: [u32; 2],
    /// The part of the `want`-sized picture on screen, when zoomed in.
    window: Option<[u32; 4]>,
    /// Full render time per megapixel, to decide on quick frames.
    ms_per_mpx: Option<f64>,
    /// What quick frames cost lately, to decide on them.
    quick: QuickShare,
    /// What frames smaller than the full one cost lately, per megapixel
    /// (drawn in a moment of a machine's load), to choose how coarse a
    /// frame to draw while the pointer moves.
    coarse_ms_per_mpx: Option<f64>,
    /// Whether the last request was for a coarse frame only: the exact one
    /// is still to ask for.
    sent_coarse: bool,
    last: Option<RenderInfo>,
    cells: Option<u64>,
    error: Option<String>,
    zoom: f32,
    pan: Vec2,
    drag: Drag,
    /// The space, in points, between the panel's edges and the fitted
    /// picture. Default: [`MARGIN`] (the narrow layout sets less, so the
    /// picture fills a phone's width).
    pub margin: f32,
    /// Overrides the panel's size (for measurements at a fixed size): the
    /// size of the view in pixels.
    pub forced_size: Option<[u32; 2]>,
    /// With `forced_size`, the zoom (fitted = 1) and the view's offset
    /// from the centre of the zoomed picture, in its pixels.
    pub forced_view: (f32, [i64; 2]),
    /// Since when the preview has awaited a render (the first request
    /// since its last full frame), for the spinner.
    awaited: Option<Instant>,
}

impl Default for Preview {
    fn default() -> Self {
        Preview::new()
    }
}

impl Preview {
    /// A preview with its worker thread started.
    pub fn new() -> Self {
        let mut canvases = [Canvas::new(), Canvas::new()];
        let mut views = crate::app::preview::job::Views::default();
        let worker = Worker::spawn(
            "playa-preview",
            move |job: PreviewJob, out: &Outbox<'_, PreviewJob, PreviewFrame>| {
                render_job(job, out, &mut canvases, &mut views);
            },
        );
        Preview {
            worker,
            texture: None,
            shown: None,
            backdrop: None,
            backdrop_size: [0, 0],
            sent: None,
            next_id: 1,
            want: [0, 0],
            window: None,
            ms_per_mpx: None,
            coarse_ms_per_mpx: None,
            sent_coarse: false,
            quick: QuickShare::default(),
            last: None,
            cells: None,
            error: None,
            zoom: 1.0,
            pan: Vec2::ZERO,
            drag: Drag::None,
            margin: MARGIN,
            forced_size: None,
            forced_view: (1.0, [0, 0]),
            awaited: None,
        }
    }

    /// Takes the frames the worker finished and puts the newest on the GPU;
    /// what went up, if anything.
    pub fn receive(&mut self, ctx: &egui::Context) -> Option<Delivered> {
        self.worker.set_repaint(ctx);
        let (backdrops, frames): (Vec<PreviewFrame>, Vec<PreviewFrame>) = self
            .worker
            .results()
            .partition(|f| f.pass == Pass::Backdrop);
        if let Some(frame) = backdrops.into_iter().next_back()
            && let Ok(image) = frame.image
        {
            match &mut self.backdrop {
                Some(b) => {
                    b.texture.set(image, TextureOptions::LINEAR);
                    b.scene = frame.scene;
                }
                None => {
                    self.backdrop = Some(Backdrop {
                        texture: ctx.load_texture(
                            "preview-backdrop",
                            image,
                            TextureOptions::LINEAR,
                        ),
                        scene: frame.scene,
                    });
                }
            }
        }
        for frame in &frames {
            self.quick
                .rendered(frame.id, frame.ms, frame.pass == Pass::Full);
            if frame.pass == Pass::Quick
                && let Ok(image) = &frame.image
            {
                let mpx = (image.size[0] * image.size[1]) as f64 / 1e6;
                self.coarse_ms_per_mpx = Some(frame.ms / mpx.max(1e-4));
            }
        }
        let frame = frames.into_iter().reduce(|older, newer| {
            // Two frames in one UI frame: only the newer is shown, but a
            // full frame beats a quick one of the same request.
            if newer.id == older.id && newer.pass == Pass::Quick && older.pass == Pass::Full {
                older
            } else {
                newer
            }
        })?;
        if let Some(cells) = frame.cells {
            self.cells = Some(cells);
        }
        let image = match frame.image {
            Ok(image) => image,
            Err(e) => {
                self.error = Some(e);
                return None;
            }
        };
        self.error = None;
        let [w, h] = [image.size[0] as u32, image.size[1] as u32];
        let full = frame.pass == Pass::Full;
        if full {
            self.last = Some(RenderInfo {
                width: w,
                height: h,
                ms: frame.ms,
            });
            let mpx = f64::from(w) * f64::from(h) / 1e6;
            self.ms_per_mpx = Some(frame.ms / mpx.max(0.01));
        }
        // Zooming in from the whole picture: it becomes the backdrop.
        if frame.area != WHOLE
            && let Some(shown) = &self.shown
            && shown.area == WHOLE
            && let Some(texture) = self.texture.take()
        {
            self.backdrop = Some(Backdrop {
                texture,
                scene: shown.scene.clone(),
            });
        }
        match &mut self.texture {
            Some(t) => t.set(image, TextureOptions::LINEAR),
            None => self.texture = Some(ctx.load_texture("preview", image, TextureOptions::LINEAR)),
        }
        self.shown = Some(Shown {
            id: frame.id,
            scene: frame.scene,
            area: frame.area,
            full,
            fingerprint: frame.fingerprint,
        });
        Some(Delivered {
            sent: frame.sent,
            ms: frame.ms,
            size: [w, h],
            full,
        })
    }

    /// Asks for a render of `scene` if it or the panel size changed since
    /// the last request. While the pointer `moving` edits the scene (a
    /// slider dragged, a tent moved), a full frame that would take longer
    /// than [`COARSE_FRAME_MS`] is drawn coarser instead, as painting
    /// programs do; the exact frame is asked for once it stops.
    pub fn request(&mut self, ctx: &egui::Context, scene: &Scene, moving: bool) {
        let (size, window) = match self.forced_size {
            Some(view) => {
                self.backdrop_size = [(view[0] / 2).max(1), (view[1] / 2).max(1)];
                forced_view(view, self.forced_view)
            }
            None => (self.want, self.window),
        };
        if size[0] == 0 || size[1] == 0 {
            return;
        }
        // What the request costs follows the pixels it renders: the
        // window's, zoomed in.
        let [w, h] = window.map_or(size, |[_, _, w, h]| [w, h]);
        let mpx = f64::from(w) * f64::from(h) / 1e6;
        let coarse = if moving {
            self.coarse_divisor(mpx)
        } else {
            None
        };
        if let Some((_, s, view)) = &self.sent
            && *view == (size, window)
            && s == scene
            && (coarse.is_some() || !self.sent_coarse)
        {
            return;
        }
        let slow = self
            .ms_per_mpx
            .is_some_and(|ms| ms * mpx > QUICK_FRAME_MS && size[0] >= 256)
            // In the browser the job runs on the UI thread: a quick frame
            // would only delay the full one.
            && !cfg!(target_arch = "wasm32");
        let quick = coarse.is_none() && self.quick.wanted(slow);
        let backdrop =
            (window.is_some() && !self.has_backdrop_of(scene)).then_some(self.backdrop_size);
        let id = self.next_id;
        self.next_id += 1;
        self.sent = Some((id, scene.clone(), (size, window)));
        self.sent_coarse = coarse.is_some();
        let now = Instant::now();
        self.awaited.get_or_insert(now);
        self.worker.set_repaint(ctx);
        self.worker.request(PreviewJob {
            id,
            scene: scene.clone(),
            width: size[0],
            height: size[1],
            window,
            quick,
            coarse,
            backdrop,
            sent: now,
        });
    }

    /// How many times smaller each side of a frame of `mpx` megapixels is
    /// drawn while the pointer moves: `None` (exact) when the full frame
    /// comes within [`COARSE_FRAME_MS`], else the least of
    /// [`COARSE_DIVISORS`] whose frame does, by what frames cost lately
    /// (the coarse ones', else the full ones'). Not in the browser, where
    /// the job runs on the UI thread between frames.
    fn coarse_divisor(&self, mpx: f64) -> Option<u32> {
        if cfg!(target_arch = "wasm32") {
            return None;
        }
        let full = self.ms_per_mpx? * mpx;
        if full <= COARSE_FRAME_MS {
            return None;
        }
        let rate = self.coarse_ms_per_mpx.or(self.ms_per_mpx)?;
        let fits = |d: u32| rate * mpx / f64::from(d * d) <= COARSE_FRAME_MS;
        Some(
            COARSE_DIVISORS
                .into_iter()
                .find(|&d| fits(d))
                .unwrap_or(COARSE_DIVISORS[COARSE_DIVISORS.len() - 1]),
        )
    }

    /// Whether a whole picture of `scene` is at hand to show around a
    /// zoomed-in view: the backdrop, or the picture on screen.
    fn has_backdrop_of(&self, scene: &Scene) -> bool {
        self.backdrop.as_ref().is_some_and(|b| b.scene == *scene)
            || self
                .shown
                .as_ref()
                .is_some_and(|s| s.area == WHOLE && s.scene == *scene)
    }

    /// Whether the full render of `scene` at the wanted size is on screen.
    pub fn is_current(&self, scene: &Scene) -> bool {
        match (&self.shown, &self.sent) {
            (Some(shown), Some((id, _, _))) => {
                shown.full && shown.id == *id && shown.scene == *scene
            }
            _ => false,
        }
    }

    /// Whether a request has not been answered by its last frame yet: the
    /// full one, or the coarse one that is all a request made while the
    /// pointer moves gets.
    pub fn in_flight(&self) -> bool {
        match (&self.shown, &self.sent) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(shown), Some((id, _, _))) => shown.id != *id || !(shown.full || self.sent_coarse),
        }
    }

    /// The scene of the picture on screen.
    pub fn shown_scene(&self) -> Option<&Scene> {
        self.shown.as_ref().map(|s| &s.scene)
    }

    /// Hash of the pixels on screen.
    pub fn fingerprint(&self) -> Option<u64> {
        self.shown.as_ref().map(|s| s.fingerprint)
    }

    /// The last full render's size and time.
    pub fn last_render(&self) -> Option<RenderInfo> {
        self.last
    }

    /// Full render time per megapixel, from the last full preview.
    pub fn ms_per_mpx(&self) -> Option<f64> {
        self.ms_per_mpx
    }

    /// Live cells of the automaton in the last render.
    pub fn cells(&self) -> Option<u64> {
        self.cells
    }

    /// Why the last render failed, if it did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Resets zoom and pan so the whole picture fits the panel.
    pub fn fit(&mut self) {
        self.zoom = 1.0;
        self.pan = Vec2::ZERO;
    }

    /// Draws the preview into the rest of `ui` and handles zoom, pan and
    /// tent dragging (which edits `scene`). `picture` is the size the
    /// export `framed` writes: its frame is drawn over the preview (none
    /// while no export dialog is open), and "1:1" shows one of its pixels
    /// per pixel of the screen. The
    /// read-out's 100% is the picture fitted to the panel, whatever the
    /// export's size.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        scene: &mut Scene,
        (picture, framed): ((u32, u32), Option<Framed>),
    ) {
        let panel = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(panel, Sense::click_and_drag());
        let fit = fit_rect(panel.shrink(self.margin), scene.aspect);
        let ppp = ui.ctx().pixels_per_point();
        let max_side = ui.ctx().input(|i| i.max_texture_side).min(MAX_PREVIEW_SIDE) as f32;
        // A picture of another aspect is cut from a larger one of the
        // scene's: the preview shows that one.
        let allowed = crate::compose::window::check_aspect(picture.0, picture.1).is_ok();
        let crop = crate::compose::window::Window::crop(scene.aspect, picture.0, picture.1)
            .filter(|_| allowed && framed.is_some());
        let full_w = crop.map_or(picture.0, |w| w.full_w);
        // Screen pixels per exported pixel when the picture fits the panel.
        let fit_zoom = fit.width() * ppp / full_w.max(1) as f32;
        let largest =
            crate::compose::MAX_STREAMED_SIDE as f32 / (fit.width().max(fit.height()) * ppp);
        let zooms = MIN_FIT_ZOOM..=(MAX_ZOOM / fit_zoom).min(largest).max(1.0);

        self.zoom_and_pan(ui, &response, fit, &zooms);
        let image_rect = Rect::from_center_size(fit.center() + self.pan, fit.size() * self.zoom);
        self.drag_tent_or_pan(ui, &response, image_rect, scene);
        if response.double_clicked() {
            self.fit();
        }
        self.plan_render(panel, fit, image_rect, ppp, max_side);

        let painter = ui.painter_at(panel);
        match (&self.texture, &self.shown) {
            (Some(texture), Some(shown)) => {
                let whole = Rect::from_min_max(Pos2::ZERO, pos2(1.0, 1.0));
                if shown.area != WHOLE {
                    // Around the view on screen, until the next is in. Only
                    // the part on screen: zoomed in, the whole picture's
                    // rectangle is tens of thousands of points wide, more
                    // than some rasterizers draw reliably.
                    let visible = image_rect.intersect(panel);
                    let uv = Rect::from_min_max(
                        ((visible.min - image_rect.min) / image_rect.size()).to_pos2(),
                        ((visible.max - image_rect.min) / image_rect.size()).to_pos2(),
                    );
                    match &self.backdrop {
                        Some(b) => painter.image(b.texture.id(), visible, uv, Color32::WHITE),
                        None => painter.rect_filled(visible, 0.0, ui.visuals().faint_bg_color),
                    };
                }
                let [x, y, w, h] = shown.area;
                let rect = Rect::from_min_size(
                    image_rect.min + vec2(x, y) * image_rect.size(),
                    vec2(w, h) * image_rect.size(),
                );
                painter.image(texture.id(), rect, whole, Color32::WHITE);
            }
            _ => {
                painter.rect_filled(image_rect, 4.0, ui.visuals().faint_bg_color);
            }
        }
        if self.in_flight() {
            // (Set by the request that is in flight.)
            let waited = self.awaited.map_or(Duration::ZERO, |since| since.elapsed());
            let wait = spinner_wait(waited);
            if wait.is_zero() {
                let spot =
                    Rect::from_min_size(panel.right_top() + vec2(-34.0, 10.0), vec2(22.0, 22.0));
                ui.put(spot, egui::Spinner::new());
            } else {
                // Idle until then, unless the render comes first.
                ui.ctx().request_repaint_after(wait);
            }
        } else {
            self.awaited = None;
        }
        // A size the export refuses has no frame to show.
        if let (true, Some(framed)) = (allowed, framed) {
            frame::frame_ui(ui, panel, image_rect, crop, picture, framed);
        }
        if let Some(new) = self.overlay_ui(ui, panel, fit_zoom) {
            self.set_zoom(new, fit.center(), fit);
        }
    }

    /// What to render for the view: fitted or zoomed out, the whole
    /// picture at the fitted size; zoomed in, the part of the picture on
    /// screen, at the screen's resolution, of the picture at the size it is
    /// shown at.
    fn plan_render(&mut self, panel: Rect, fit: Rect, image_rect: Rect, ppp: f32, max_side: f32) {
        let mut px = fit.size() * ppp;
        px /= (px.x.max(px.y) / max_side).max(1.0);
        let fitted = [px.x.round().max(1.0) as u32, px.y.round().max(1.0) as u32];
        self.backdrop_size = fitted.map(|side| (side / 2).max(1));
        if self.zoom <= 1.0 {
            self.want = fitted;
            self.window = None;
            return;
        }
        let side = crate::compose::MAX_STREAMED_SIDE as f32;
        let size = (image_rect.size() * ppp)
            .round()
            .clamp(vec2(1.0, 1.0), vec2(side, side));
        let visible = image_rect.intersect(panel);
        if !visible.is_positive() {
            // Panned off the picture: nothing to render.
            return;
        }
        // Screen points to pixels of the picture at `size`.
        let scale = size / image_rect.size();
        let from = ((visible.min - image_rect.min) * scale)
            .floor()
            .max(Vec2::ZERO);
        let to = ((visible.max - image_rect.min) * scale).ceil().min(size);
        let cap = vec2(max_side, max_side);
        let to = to.min(from + cap).max(from + vec2(1.0, 1.0));
        self.want = [size.x as u32, size.y as u32];
        self.window = Some([
            from.x as u32,
            from.y as u32,
            (to.x - from.x) as u32,
            (to.y - from.y) as u32,
        ]);
    }

    /// The zoom read-out, "Fit" and "1:1" over the preview's top-left
    /// corner; the zoom asked for (fitted = 1). `fit_zoom` is the screen's
    /// pixels per exported pixel when fitted.
    fn overlay_ui(&mut self, ui: &mut egui::Ui, panel: Rect, fit_zoom: f32) -> Option<f32> {
        let bar = Rect::from_min_size(panel.left_top() + vec2(10.0, 10.0), vec2(240.0, 24.0));
        let mut asked = None;
        ui.scope_builder(egui::UiBuilder::new().max_rect(bar), |ui| {
            ui.horizontal(|ui| {
                egui::Frame::new()
                    .fill(Color32::from_black_alpha(150))
                    .corner_radius(4.0)
                    .inner_margin(egui::Margin::symmetric(6, 2))
                    .show(ui, |ui| {
                        ui.label(
                            egui::RichText::new(zoom_label(self.zoom))
                                .color(Color32::from_gray(220))
                                .monospace(),
                        )
                        .on_hover_text(
                            "Zoom of the preview: at 100% the whole picture fits the view",
                        );
                    });
                let fit = ui
                    .add_enabled(
                        self.zoom != 1.0 || self.pan != Vec2::ZERO,
                        egui::Button::new("Fit"),
                    )
                    .on_hover_text("Fit the whole picture (F, or double-click)");
                if fit.clicked() {
                    self.fit();
                }
                let one_to_one = 1.0 / fit_zoom;
                let actual = ui
                    .add_enabled(
                        zoom_label(self.zoom) != zoom_label(one_to_one),
                        egui::Button::new("1:1"),
                    )
                    .on_hover_text("One pixel of the exported picture per pixel of the screen");
                if actual.clicked() {
                    asked = Some(one_to_one);
                }
            });
        });
        asked
    }
}

/// Whether quick frames pay, from what the last one cost against its full
/// frame ([`QUICK_SHARE_MAX`]).
#[derive(Default)]
struct QuickShare {
    /// The last quick frame not yet followed by its full frame: its
    /// request and render time.
    pending: Option<(u64, f64)>,
    /// The last quick frame's render time over its full frame's.
    share: Option<f64>,
    /// Slow requests sent without a quick frame since then.
    skipped: u32,
}

impl QuickShare {
    /// Whether a request gets a quick frame first; `slow` when its full
    /// frame is expected to take longer than [`QUICK_FRAME_MS`].
    fn wanted(&mut self, slow: bool) -> bool {
        if !slow {
            return false;
        }
        match self.share {
            Some(share) if share > QUICK_SHARE_MAX => {
                self.skipped += 1;
                self.skipped.is_multiple_of(QUICK_PROBE_EVERY)
            }
            _ => true,
        }
    }

    /// A frame of request `id` rendered in `ms`: the quick one or the full.
    fn rendered(&mut self, id: u64, ms: f64, full: bool) {
        if !full {
            self.pending = Some((id, ms));
        } else if let Some((quick_id, quick_ms)) = self.pending.take()
            && quick_id == id
        {
            self.share = Some(quick_ms / ms.max(1e-3));
            self.skipped = 0;
        }
    }
}

/// What a request renders for a forced `view` size at `(zoom, offset)`:
/// the whole picture at the view's size, or zoomed in, the view's window of
/// the picture `zoom` times its size, `offset` pixels from its centre and
/// kept inside it.
fn forced_view(view: [u32; 2], (zoom, offset): (f32, [i64; 2])) -> View {
    if zoom <= 1.0 {
        return (view, None);
    }
    let side = crate::compose::MAX_STREAMED_SIDE as f32;
    let size = view.map(|v| (v as f32 * zoom).round().clamp(1.0, side) as u32);
    let at = |axis: usize| {
        let room = i64::from(size[axis].saturating_sub(view[axis]));
        (room / 2 + offset[axis]).clamp(0, room) as u32
    };
    let [w, h] = [0, 1].map(|axis| view[axis].min(size[axis]));
    (size, Some([at(0), at(1), w, h]))
}

/// A zoom (fitted = 1) as the read-out shows it: whole percents, with one
/// decimal below 10%.
fn zoom_label(zoom: f32) -> String {
    let percent = zoom * 100.0;
    if percent < 9.95 {
        format!("{percent:.1}%")
    } else {
        format!("{percent:.0}%")
    }
}

/// Positions from dragging are rounded to 1/1000 so the scene stays tidy.
fn quantize(v: f32) -> f32 {
    (v * 1000.0).round() / 1000.0
}

/// The largest rect of `aspect` (width / height) centred in `outer`.
pub fn fit_rect(outer: Rect, aspect: f32) -> Rect {
    let aspect = aspect.max(0.01);
    let size = if outer.width() / outer.height().max(1.0) > aspect {
        vec2(outer.height() * aspect, outer.height())
    } else {
        vec2(outer.width(), outer.width() / aspect)
    };
    Rect::from_center_size(outer.center(), size.max(vec2(1.0, 1.0)))
}

#[cfg(test)]
mod tests;
