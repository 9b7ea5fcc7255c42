//! "Export PNG…": a size, a file, and a background job with a progress bar
//! and Cancel.
//!
//! The job renders and encodes with [`crate::output::picture::render_png`], as
//! `playa render` does, so the file is byte-identical to the command line's
//! for the same scene and size, and carries the scene's recipe. The picture
//! is rendered strip by strip straight into the file (an 8K export never
//! holds the whole image), written atomically: Cancel stops it between two
//! writes and leaves no file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::app::Message;
#[cfg(target_arch = "wasm32")]
use crate::app::export::dialog::deliver_worker_result;
#[cfg(not(target_arch = "wasm32"))]
use crate::app::export::dialog::on_thread;
use crate::app::export::dialog::{Dialog, Exporter, Run};
use crate::compose::window::{Window, aspect_text, check_aspect};
use crate::scene::Scene;

/// Named export sizes, by the picture's longer side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SizePreset {
    /// 1920 on the long side (1920×1080 at 16:9).
    #[default]
    Hd1080,
    /// 2560 on the long side (2560×1440 at 16:9).
    Qhd1440,
    /// 3840 on the long side (3840×2160 at 16:9).
    Uhd4k,
    /// 7680 on the long side (7680×4320 at 16:9).
    Uhd8k,
    /// Width and height as typed.
    Custom,
}

impl SizePreset {
    /// All presets, smallest first.
    pub const ALL: [SizePreset; 5] = [
        SizePreset::Hd1080,
        SizePreset::Qhd1440,
        SizePreset::Uhd4k,
        SizePreset::Uhd8k,
        SizePreset::Custom,
    ];

    /// Its name in the dialog.
    pub fn label(self) -> &'static str {
        match self {
            SizePreset::Hd1080 => "1080p",
            SizePreset::Qhd1440 => "1440p",
            SizePreset::Uhd4k => "4K",
            SizePreset::Uhd8k => "8K",
            SizePreset::Custom => "Custom",
        }
    }

    fn long_side(self) -> Option<u32> {
        match self {
            SizePreset::Hd1080 => Some(1920),
            SizePreset::Qhd1440 => Some(2560),
            SizePreset::Uhd4k => Some(3840),
            SizePreset::Uhd8k => Some(7680),
            SizePreset::Custom => None,
        }
    }
}

/// Export settings remembered between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExportSettings {
    /// Chosen size. Default: 1080p.
    pub size: SizePreset,
    /// Custom width and height. Default: 1920×1080.
    pub custom: [u32; 2],
    /// Folder of the last export. Default: the working directory.
    pub folder: Option<PathBuf>,
}

impl Default for ExportSettings {
    fn default() -> Self {
        ExportSettings {
            size: SizePreset::default(),
            custom: [1920, 1080],
            folder: None,
        }
    }
}

impl ExportSettings {
    /// The picture size for `scene`: the preset's long side, the short side
    /// from the scene's aspect (as `playa render` sizes by width).
    pub fn pixels(&self, scene: &Scene) -> (u32, u32) {
        match self.size.long_side() {
            None => (self.custom[0], self.custom[1]),
            Some(long) => size_for_long_side(scene, long),
        }
    }

    /// The part of `scene`'s picture the export cuts, when its size is of
    /// another aspect than the scene's ([`Window::crop`]).
    pub fn crop(&self, scene: &Scene) -> Option<Window> {
        let (w, h) = self.pixels(scene);
        Window::crop(scene.aspect, w, h)
    }
}

/// `aspect` kept to the scene's precision for it (1/2520, the share
/// code's), as the scene's aspect is set to a size's.
fn quantized_aspect(w: u32, h: u32) -> f32 {
    ((f64::from(w) / f64::from(h) * 2520.0).round() / 2520.0) as f32
}

/// The picture size of `scene` with `long` pixels on its longer side, the
/// other from the scene's aspect (a landscape sized by width, as `playa
/// render` does).
pub fn size_for_long_side(scene: &Scene, long: u32) -> (u32, u32) {
    if scene.aspect >= 1.0 {
        crate::compose::size_for_width(scene, long)
    } else {
        (((long as f32) * scene.aspect).round().max(1.0) as u32, long)
    }
}

/// The file name `playa render` would give: `{preset}-{seed}.png`.
pub fn default_file_name(preset: &str, scene: &Scene) -> String {
    let name = if preset.is_empty() { "playa" } else { preset };
    format!("{}.png", Scene::file_stem(name, scene.seed))
}

/// Renders `scene` at `size`, or its `window` when the size is cut from a
/// picture of the scene's aspect, into the PNG file `path` exactly as
/// `playa render` (with `--crop` for a window) does, counting the bytes written in `written`. Returns
/// `Ok(false)`, with no file written, if `cancel` was set before the end.
pub fn export_png(
    scene: &Scene,
    size: (u32, u32),
    window: Option<&Window>,
    path: &std::path::Path,
    cancel: &AtomicBool,
    written: &AtomicU64,
) -> crate::Result<bool> {
    // What a killed export of this file left.
    crate::base::atomic::remove_stale_of(path);
    let mut failure = None;
    let result = crate::base::atomic::write_atomically_with(path, |file| {
        let mut out = Watched {
            inner: std::io::BufWriter::with_capacity(1 << 20, file),
            cancel,
            written,
        };
        crate::output::picture::render_png_framed(
            &mut out,
            scene,
            size,
            window,
            &[],
            crate::output::picture::Compression::default(),
        )
        .map_err(|e| {
            let message = e.to_string();
            failure = Some(e);
            std::io::Error::other(message)
        })?;
        out.inner.flush()
    });
    match (result, failure) {
        (Ok(()), _) => Ok(true),
        (Err(_), _) if cancel.load(Ordering::Relaxed) => Ok(false),
        (Err(_), Some(e)) | (Err(e), None) => Err(e),
    }
}

/// A writer that counts what passes and fails once Cancel was pressed,
/// which stops the encoder at its next write.
struct Watched<'a, W> {
    inner: W,
    cancel: &'a AtomicBool,
    written: &'a AtomicU64,
}

impl<W: Write> Write for Watched<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("export cancelled"));
        }
        let n = self.inner.write(buf)?;
        self.written.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// "Export PNG…": the export dialog for a picture.
pub type ExportDialog = Dialog<PngExport>;

/// The PNG export's part of its [`Dialog`]: the preview's speed, which
/// sizes the progress bar's estimate.
#[derive(Default)]
pub struct PngExport {
    /// Milliseconds the preview took per megapixel, if known.
    ms_per_mpx: Option<f64>,
    /// Whether "Crop to the frame" was chosen: a size of another aspect
    /// than the scene's exports only once the user chose. The choice
    /// holds while the size changes (opening the dialog clears it).
    crop_chosen: bool,
    /// The aspect "Change the scene's aspect" asked for, until
    /// [`ExportDialog::ui`] sets it on the scene.
    new_aspect: Option<f32>,
}

/// What a PNG export renders: the scene, at a checked size.
pub struct PngRequest {
    scene: Scene,
    size: (u32, u32),
    /// The part of the scene's picture exported, when cropped.
    window: Option<Window>,
    /// Expected total time, from the size.
    estimate: Duration,
}

/// A running PNG export: natively on its own thread, in the browser in a
/// Web Worker, so the page keeps painting.
pub struct PngRun {
    size: (u32, u32),
    /// Expected total time, from the size.
    estimate: Duration,
    /// Set by Cancel.
    cancel: Arc<AtomicBool>,
    /// Bytes of the file written so far.
    written: Arc<AtomicU64>,
    #[cfg(not(target_arch = "wasm32"))]
    done: std::sync::mpsc::Receiver<crate::Result<bool>>,
    /// The worker making the file (gone once over), and the download's
    /// name.
    #[cfg(target_arch = "wasm32")]
    worker: (Option<crate::app::web::ExportWorker>, PathBuf),
}

impl Exporter for PngExport {
    type Settings = ExportSettings;
    type Request = PngRequest;
    type Run = PngRun;
    const TITLE: &'static str = "Export PNG";
    const ID: &'static str = "export-dialog";
    const WIDTH: f32 = 460.0;

    fn extension(_: &ExportSettings) -> &'static str {
        "png"
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn file_kind(_: &ExportSettings) -> &'static str {
        "PNG picture"
    }

    fn folder(settings: &mut ExportSettings) -> &mut Option<PathBuf> {
        &mut settings.folder
    }

    /// The size, and the memory it takes; at another aspect than the
    /// scene's, the choice between cropping and changing the scene.
    fn settings_ui(
        dialog: &mut Dialog<Self>,
        ui: &mut egui::Ui,
        settings: &mut ExportSettings,
        scene: &Scene,
    ) {
        // Every line is always there, in a place of its own (fields that
        // do not apply are greyed out), so that the form keeps one height
        // and the buttons below it never move.
        ui.horizontal_wrapped(|ui| {
            for preset in SizePreset::ALL {
                ui.radio_value(&mut settings.size, preset, preset.label());
            }
        });
        let (w, h) = settings.pixels(scene);
        if settings.size == SizePreset::Custom {
            custom_size_ui(ui, &mut settings.custom, scene);
        } else {
            // The preset's size, greyed out: Custom makes it editable.
            ui.add_enabled_ui(false, |ui| custom_size_ui(ui, &mut [w, h], scene));
        }
        // Written strip by strip: memory follows the width only. (The
        // size is in the fields above.)
        let memory = |w: u32| {
            let mib = crate::output::picture::streamed_bytes(w) as f64 / f64::from(1 << 20);
            if cfg!(target_arch = "wasm32") {
                format!("At most {mib:.0} MiB while rendering, and the file")
            } else {
                format!("Written strip by strip: at most {mib:.0} MiB while rendering")
            }
        };
        let weak = ui.visuals().weak_text_color();
        fixed_lines(ui, &memory(w), weak, &memory(crate::compose::MAX_SIDE));
        dialog.exporter.aspect_ui(ui, (w, h), scene);
    }

    fn ready(&self, settings: &ExportSettings, scene: &Scene) -> bool {
        self.fits(settings, scene).is_ok()
    }

    fn prepare(&self, settings: &ExportSettings, scene: &Scene) -> Result<PngRequest, String> {
        let (w, h) = settings.pixels(scene);
        crate::compose::check_size(w, h).map_err(|e| e.to_string())?;
        self.fits(settings, scene)?;
        let mpx = f64::from(w) * f64::from(h) / 1e6;
        // Rendering plus fast PNG encoding, on the same cores; the preview's
        // speed is the best guess for the render, encoding costs about as
        // much again.
        let estimate =
            Duration::from_secs_f64((self.ms_per_mpx.unwrap_or(12.0) * 2.2 * mpx / 1e3).max(0.05));
        Ok(PngRequest {
            scene: scene.clone(),
            size: (w, h),
            window: settings.crop(scene),
            estimate,
        })
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn launch(request: PngRequest, path: &Path) -> Result<PngRun, String> {
        let cancel = Arc::new(AtomicBool::new(false));
        let written = Arc::new(AtomicU64::new(0));
        let run_cancel = Arc::clone(&cancel);
        let run_written = Arc::clone(&written);
        let path = path.to_path_buf();
        let PngRequest {
            scene,
            size,
            window,
            estimate,
        } = request;
        let done = on_thread("playa-export", move || {
            export_png(
                &scene,
                size,
                window.as_ref(),
                &path,
                &run_cancel,
                &run_written,
            )
        })?;
        Ok(PngRun {
            size,
            estimate,
            cancel,
            written,
            done,
        })
    }

    #[cfg(target_arch = "wasm32")]
    fn launch(request: PngRequest, path: &Path) -> Result<PngRun, String> {
        let job = crate::app::export::job::ExportJob::png(
            &request.scene,
            request.size,
            request.window.as_ref(),
        );
        Ok(PngRun {
            size: request.size,
            estimate: request.estimate,
            cancel: Arc::default(),
            written: Arc::default(),
            worker: (
                Some(crate::app::web::ExportWorker::start(&job)?),
                path.to_path_buf(),
            ),
        })
    }
}

impl Run for PngRun {
    #[cfg(not(target_arch = "wasm32"))]
    fn advance(&mut self) -> Option<crate::Result<bool>> {
        self.done.try_recv().ok()
    }

    /// The PNG once the worker has made it, byte-identical to `playa
    /// render` of the same scene and size, offered as a download.
    #[cfg(target_arch = "wasm32")]
    fn advance(&mut self) -> Option<crate::Result<bool>> {
        let (worker, path) = &mut self.worker;
        if self.cancel.load(Ordering::Relaxed) {
            // Stops the worker where it is.
            *worker = None;
            return Some(Ok(false));
        }
        let running = worker.as_ref()?;
        self.written.store(running.progress(), Ordering::Relaxed);
        let result = running.poll()?;
        *worker = None;
        Some(deliver_worker_result(
            path,
            "playa.png",
            result,
            "image/png",
        ))
    }

    fn cancel(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    fn cancelling(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    fn progress(&self, elapsed: Duration) -> (f32, String) {
        let t = elapsed.as_secs_f32() / self.estimate.as_secs_f32();
        // The encoder gives no progress of its own: the bar follows the
        // estimate and slows down near the end rather than stop.
        let fraction = 0.98 * (1.0 - (-1.4 * t).exp());
        (
            fraction,
            progress_text(self.written.load(Ordering::Relaxed), elapsed),
        )
    }

    fn status_line(&self) -> String {
        format!("Exporting {}×{}…", self.size.0, self.size.1)
    }

    fn summary(&self) -> String {
        format!("{}×{}", self.size.0, self.size.1)
    }
}

/// The progress bar's words, `written` bytes of the file out after
/// `elapsed`: the time so far while the encoder holds everything back
/// (an 8K picture's first bytes come late), then how much is written.
/// Only real figures: no time before the first second, no size before
/// the first tenth of a MiB ("0.0 MiB, 0 s" said nothing).
fn progress_text(written: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    let mib = written as f64 / f64::from(1 << 20);
    match (mib >= 0.1, secs >= 1) {
        (true, true) => format!("Rendering and writing… {mib:.1} MiB, {secs} s"),
        (true, false) => format!("Rendering and writing… {mib:.1} MiB"),
        (false, true) => format!("Rendering… {secs} s"),
        (false, false) => "Rendering…".to_string(),
    }
}

impl PngExport {
    /// Whether `settings` can be exported for `scene`: an aspect playa
    /// draws, and at another aspect than the scene's, "Crop to the frame"
    /// chosen for this size. The error says what is missing.
    fn fits(&self, settings: &ExportSettings, scene: &Scene) -> Result<(), String> {
        let (w, h) = settings.pixels(scene);
        check_aspect(w, h).map_err(|e| e.to_string())?;
        if settings.crop(scene).is_some() && !self.crop_chosen {
            return Err(format!(
                "{w} × {h} is not the scene's aspect: choose to crop or to change the scene"
            ));
        }
        Ok(())
    }

    /// At a size of another aspect than `scene`'s: one line saying so,
    /// and the choice between cutting the frame out of the scene's
    /// picture and giving the scene the size's aspect (seen in the preview
    /// at once, undone with Undo). Beyond 8:1, one red line.
    ///
    /// Both lines are always there, so that the form keeps its height: at
    /// the scene's aspect the line says so and the choice is greyed out.
    fn aspect_ui(&mut self, ui: &mut egui::Ui, (w, h): (u32, u32), scene: &Scene) {
        let visuals = ui.visuals().clone();
        let (sw, sh) = size_for_long_side(scene, 1920);
        let longest = format!(
            "{0} × {0} is {1}, the scene is {1}: the preview shows the frame.",
            crate::compose::MAX_SIDE,
            "1000:1000"
        );
        let differs = match check_aspect(w, h) {
            Err(e) => {
                fixed_lines(ui, &e.to_string(), visuals.error_fg_color, &longest);
                false
            }
            Ok(()) if Window::crop(scene.aspect, w, h).is_none() => {
                let text = format!("{}, the scene's aspect.", aspect_text(sw, sh));
                fixed_lines(ui, &text, visuals.weak_text_color(), &longest);
                false
            }
            Ok(()) => {
                let text = mismatch_text((w, h), scene, "the preview shows the frame");
                fixed_lines(ui, &text, visuals.warn_fg_color, &longest);
                true
            }
        };
        let chosen = differs && self.crop_chosen;
        ui.add_enabled_ui(differs, |ui| {
            ui.horizontal_wrapped(|ui| {
                if ui
                    .radio(chosen, "Crop to the frame")
                    .on_hover_text("Export the part of the scene's picture inside the frame")
                    .clicked()
                {
                    self.crop_chosen = true;
                }
                if let Some(aspect) = change_aspect_ui(ui, (w, h), true) {
                    self.new_aspect = Some(aspect);
                }
            })
        });
    }
}

/// The line saying that `w × h` is not `scene`'s aspect, and what follows
/// (`then`).
pub(crate) fn aspect_mismatch_line(
    ui: &mut egui::Ui,
    (w, h): (u32, u32),
    scene: &Scene,
    then: &str,
) {
    ui.colored_label(
        ui.visuals().warn_fg_color,
        mismatch_text((w, h), scene, then),
    );
}

/// The words of [`aspect_mismatch_line`].
fn mismatch_text((w, h): (u32, u32), scene: &Scene, then: &str) -> String {
    let (sw, sh) = size_for_long_side(scene, 1920);
    format!(
        "{w} × {h} is {}, the scene is {}: {then}.",
        aspect_text(w, h),
        aspect_text(sw, sh)
    )
}

/// `text` in `color`, wrapped, in a place as many lines high as
/// `longest`, the longest text the place holds, takes at the form's
/// width (at most two; a longer text is cut short with "…"): the form
/// keeps its height whatever the text.
pub(crate) fn fixed_lines(ui: &mut egui::Ui, text: &str, color: egui::Color32, longest: &str) {
    let width = ui.available_width();
    let font = egui::TextStyle::Body.resolve(ui.style());
    let job = |text: &str| {
        let mut job = egui::text::LayoutJob::single_section(
            text.to_string(),
            egui::TextFormat::simple(font.clone(), color),
        );
        job.wrap = egui::text::TextWrapping {
            max_width: width,
            max_rows: 2,
            break_anywhere: false,
            overflow_character: Some('…'),
        };
        job
    };
    let height = ui.fonts_mut(|f| f.layout_job(job(longest))).size().y;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, height), egui::Sense::hover());
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    child.label(job(text));
}

/// "Change the scene's aspect to W:H", as a radio button (one choice of
/// two) or a button; the aspect to give the scene once clicked. Disabled
/// beyond the scene's own limits (1:4 to 4:1).
pub(crate) fn change_aspect_ui(ui: &mut egui::Ui, (w, h): (u32, u32), radio: bool) -> Option<f32> {
    let aspect = quantized_aspect(w, h);
    let fits = (crate::scene::MIN_ASPECT..=crate::scene::MAX_ASPECT).contains(&aspect);
    let text = format!("Change the scene's aspect to {}", aspect_text(w, h));
    let change = if radio {
        ui.add_enabled(fits, egui::RadioButton::new(false, text))
    } else {
        ui.add_enabled(fits, egui::Button::new(text))
    };
    change
        .on_hover_text("Lay the scene out again at this aspect (Undo takes it back)")
        .on_disabled_hover_text("A scene's aspect goes from 1:4 to 4:1")
        .clicked()
        .then_some(aspect)
}

impl ExportDialog {
    /// Opens the dialog, proposing `{preset}-{seed}.png` in the last folder.
    pub fn open(&mut self, settings: &ExportSettings, preset: &str, scene: &Scene) {
        self.open_with(settings.folder.as_deref(), |exporter| {
            exporter.crop_chosen = false;
            default_file_name(preset, scene)
        });
    }

    /// Draws the dialog when open, the progress bar's estimate from the
    /// preview's `ms_per_mpx`; returns a message to show, if any. "Change
    /// the scene's aspect" changes `scene` (the app's history makes it a
    /// step to undo).
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        settings: &mut ExportSettings,
        scene: &mut Scene,
        ms_per_mpx: Option<f64>,
    ) -> Option<Message> {
        self.exporter.ms_per_mpx = ms_per_mpx;
        let message = self.show(ctx, settings, scene);
        if let Some(aspect) = self.exporter.new_aspect.take() {
            scene.aspect = aspect;
        }
        message
    }
}

/// Width and height fields of a custom size, with "Match aspect" (the
/// height from the width at `scene`'s aspect): Export PNG's and Export
/// animation's.
pub(crate) fn custom_size_ui(
    ui: &mut egui::Ui,
    custom: &mut [u32; 2],
    scene: &crate::scene::Scene,
) {
    ui.horizontal(|ui| {
        let w = ui.label("Width");
        ui.add(egui::DragValue::new(&mut custom[0]).range(1..=crate::compose::MAX_SIDE))
            .labelled_by(w.id);
        let h = ui.label("Height");
        ui.add(egui::DragValue::new(&mut custom[1]).range(1..=crate::compose::MAX_SIDE))
            .labelled_by(h.id);
        if ui
            .button("Match aspect")
            .on_hover_text("Height from the width and the scene's aspect")
            .clicked()
        {
            custom[1] = crate::compose::size_for_width(scene, custom[0]).1;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_says_a_real_figure_before_the_first_bytes() {
        let early = progress_text(0, Duration::from_millis(7300));
        assert_eq!(early, "Rendering… 7 s");
        assert!(!early.contains("MiB"));
        let later = progress_text(5 << 20, Duration::from_secs(12));
        assert_eq!(later, "Rendering and writing… 5.0 MiB, 12 s");
    }

    /// No "0.0 MiB, 0 s" (issue 60, item 1): a figure is said once it is
    /// one.
    #[test]
    fn progress_says_no_zero_figures() {
        assert_eq!(progress_text(0, Duration::from_millis(300)), "Rendering…");
        assert_eq!(
            progress_text(20_000, Duration::from_millis(1200)),
            "Rendering… 1 s"
        );
        assert_eq!(
            progress_text(3 << 20, Duration::from_millis(800)),
            "Rendering and writing… 3.0 MiB"
        );
    }

    #[test]
    fn preset_sizes_follow_the_aspect() {
        let mut scene = Scene::default();
        let mut s = ExportSettings::default();
        assert_eq!(s.pixels(&scene), (1920, 1080));
        s.size = SizePreset::Uhd4k;
        assert_eq!(s.pixels(&scene), (3840, 2160));
        s.size = SizePreset::Uhd8k;
        assert_eq!(s.pixels(&scene), (7680, 4320));
        scene.aspect = 0.5;
        s.size = SizePreset::Hd1080;
        assert_eq!(s.pixels(&scene), (960, 1920));
        s.size = SizePreset::Custom;
        s.custom = [100, 50];
        assert_eq!(s.pixels(&scene), (100, 50));
    }

    #[test]
    fn cancel_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.png");
        let written = AtomicU64::new(0);
        let done = export_png(
            &Scene::default(),
            (64, 36),
            None,
            &path,
            &AtomicBool::new(true),
            &written,
        );
        assert!(!done.unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

        let done = export_png(
            &Scene::default(),
            (64, 36),
            None,
            &path,
            &AtomicBool::new(false),
            &written,
        );
        assert!(done.unwrap());
        assert_eq!(
            written.load(Ordering::Relaxed),
            std::fs::metadata(&path).unwrap().len()
        );
    }

    #[test]
    fn file_names_match_the_command_line() {
        let scene = Scene {
            seed: 42,
            ..Scene::default()
        };
        assert_eq!(default_file_name("night", &scene), "night-42.png");
        assert_eq!(default_file_name("", &scene), "playa-42.png");
    }
}
