//! "Export PNG…": a size, a file, and a background job with a progress bar
//! and Cancel.
//!
//! The job renders and encodes with [`crate::picture::render_png`], as
//! `playa render` does, so the file is byte-identical to the command line's
//! for the same scene and size, and carries the scene's recipe. The picture
//! is rendered strip by strip straight into the file (an 8K export never
//! holds the whole image), written atomically: Cancel stops it between two
//! writes and leaves no file.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use web_time::Instant;

use serde::{Deserialize, Serialize};

use super::Message;
#[cfg(not(target_arch = "wasm32"))]
use super::files::FileDialog;
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

/// Renders `scene` at `width × height` into the PNG file `path` exactly as
/// `playa render` does, counting the bytes written in `written`. Returns
/// `Ok(false)`, with no file written, if `cancel` was set before the end.
pub fn export_png(
    scene: &Scene,
    (width, height): (u32, u32),
    path: &std::path::Path,
    cancel: &AtomicBool,
    written: &AtomicU64,
) -> crate::Result<bool> {
    let mut failure = None;
    let result = crate::atomic::write_atomically_with(path, |file| {
        let mut out = Watched {
            inner: std::io::BufWriter::with_capacity(1 << 20, file),
            cancel,
            written,
        };
        crate::picture::render_png(
            &mut out,
            scene,
            width,
            height,
            &[],
            crate::picture::Compression::default(),
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

/// A running export.
struct Job {
    path: PathBuf,
    size: (u32, u32),
    started: Instant,
    /// Expected total time, from the size.
    estimate: Duration,
    cancel: Arc<AtomicBool>,
    /// Bytes of the file written so far.
    written: Arc<AtomicU64>,
    done: std::sync::mpsc::Receiver<crate::Result<bool>>,
}

/// The export dialog and its job.
#[derive(Default)]
pub struct ExportDialog {
    open: bool,
    /// The file path being edited.
    path: String,
    job: Option<Job>,
    #[cfg(not(target_arch = "wasm32"))]
    browse: Option<FileDialog>,
    /// A hint under the path field (e.g. the file dialog could not open).
    hint: Option<String>,
    /// Result of the last export, shown in the dialog.
    outcome: Option<Message>,
    /// A file that exists, which Export would replace: the dialog asks
    /// before it does.
    replacing: Option<PathBuf>,
}

/// The file to write for `typed`, a path typed or chosen: with
/// `.{extension}` added when it has no extension (`noext` →
/// `noext.png`).
pub fn file_path(typed: &str, extension: &str) -> PathBuf {
    let path = PathBuf::from(typed.trim());
    if path.extension().is_none() && path.file_name().is_some() {
        path.with_extension(extension)
    } else {
        path
    }
}

/// The file an export starts on, from the path `typed` (shown back as
/// the file it names, extension added), or `None` while `replacing` asks
/// whether an existing file may be replaced (`replace` answers yes).
pub fn target(
    typed: &mut String,
    extension: &str,
    replace: bool,
    replacing: &mut Option<PathBuf>,
) -> Result<Option<PathBuf>, String> {
    if typed.trim().is_empty() {
        return Err("choose a file to export to".to_string());
    }
    let path = file_path(typed, extension);
    *typed = path.display().to_string();
    *replacing = None;
    #[cfg(not(target_arch = "wasm32"))]
    if !replace && path.exists() {
        *replacing = Some(path);
        return Ok(None);
    }
    #[cfg(target_arch = "wasm32")]
    let _ = replace;
    Ok(Some(path))
}

/// The file `replacing` asks about, while the path `typed` still names it,
/// its question shown.
pub fn replace_question_ui(
    ui: &mut egui::Ui,
    replacing: &Option<PathBuf>,
    typed: &str,
    extension: &str,
) -> Option<PathBuf> {
    let asking = replacing
        .as_ref()
        .filter(|p| **p == file_path(typed, extension))
        .cloned();
    if let Some(path) = &asking {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "⚠ {} already exists. Replace it?",
                super::files::display_name(path)
            ),
        );
    }
    asking
}

impl ExportDialog {
    /// Opens the dialog, proposing `{preset}-{seed}.png` in the last folder.
    pub fn open(&mut self, settings: &ExportSettings, preset: &str, scene: &Scene) {
        self.open = true;
        self.outcome = None;
        self.hint = None;
        self.replacing = None;
        if self.job.is_none() {
            let name = default_file_name(preset, scene);
            let path = match &settings.folder {
                Some(dir) => dir.join(name),
                None => std::path::absolute(&name).unwrap_or_else(|_| PathBuf::from(name)),
            };
            self.path = path.display().to_string();
        }
    }

    /// Whether the dialog is showing.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Whether an export is running.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// A short line for the status bar while an export runs with the
    /// dialog closed.
    pub fn status_line(&self) -> Option<String> {
        let job = self.job.as_ref()?;
        (!self.open).then(|| format!("Exporting {}×{}…", job.size.0, job.size.1))
    }

    /// Collects a finished job's result into `message`.
    pub fn poll(&mut self, message: &mut Option<Message>) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(dialog) = &mut self.browse
            && let Some(result) = dialog.poll()
        {
            self.browse = None;
            match result {
                Some(path) => {
                    self.path = file_path(&path.display().to_string(), "png")
                        .display()
                        .to_string();
                    self.hint = None;
                }
                None => {
                    self.hint = Some(
                        "No file chosen. If no file dialog appeared (no desktop portal), type the path above."
                            .to_string(),
                    );
                }
            }
        }
        let Some(job) = &self.job else { return };
        let Ok(result) = job.done.try_recv() else {
            return;
        };
        let name = job.path.display();
        let secs = job.started.elapsed().as_secs_f64();
        let outcome = match result {
            Ok(true) => Message {
                text: format!("Saved {name} ({}×{}, {secs:.1} s)", job.size.0, job.size.1),
                error: false,
            },
            Ok(false) => Message {
                text: "Export cancelled; no file written".to_string(),
                error: false,
            },
            Err(e) => Message {
                text: format!("Export failed: {e}"),
                error: true,
            },
        };
        *message = Some(outcome.clone());
        self.outcome = Some(outcome);
        self.job = None;
    }

    /// Starts exporting `scene` with `settings` to the path in the field
    /// (`.png` added when it has no extension). A file that exists is
    /// replaced only once `replace` says so: else the dialog asks first.
    pub fn start(
        &mut self,
        settings: &mut ExportSettings,
        scene: &Scene,
        ms_per_mpx: Option<f64>,
        replace: bool,
    ) -> Result<(), String> {
        if self.job.is_some() {
            return Err("an export is already running".to_string());
        }
        let Some(path) = target(&mut self.path, "png", replace, &mut self.replacing)? else {
            return Ok(());
        };
        let (w, h) = settings.pixels(scene);
        crate::compose::check_size(w, h).map_err(|e| e.to_string())?;
        #[cfg(target_arch = "wasm32")]
        {
            let _ = ms_per_mpx;
            self.download(scene, (w, h), &path)
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.spawn(settings, scene, path, (w, h), ms_per_mpx)
    }

    /// Starts the export on its own thread, writing the file at `path`.
    #[cfg(not(target_arch = "wasm32"))]
    fn spawn(
        &mut self,
        settings: &mut ExportSettings,
        scene: &Scene,
        path: PathBuf,
        (w, h): (u32, u32),
        ms_per_mpx: Option<f64>,
    ) -> Result<(), String> {
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            if !dir.is_dir() {
                return Err(format!(
                    "folder {} does not exist",
                    crate::error::clip(&dir.display().to_string())
                ));
            }
            settings.folder = Some(dir.to_path_buf());
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let written = Arc::new(AtomicU64::new(0));
        let (tx, done) = std::sync::mpsc::channel();
        let mpx = f64::from(w) * f64::from(h) / 1e6;
        // Rendering plus fast PNG encoding, on the same cores; the preview's
        // speed is the best guess for the render, encoding costs about as
        // much again.
        let estimate =
            Duration::from_secs_f64((ms_per_mpx.unwrap_or(12.0) * 2.2 * mpx / 1e3).max(0.05));
        let job_scene = scene.clone();
        let job_path = path.clone();
        let job_cancel = Arc::clone(&cancel);
        let job_written = Arc::clone(&written);
        std::thread::Builder::new()
            .name("playa-export".into())
            .spawn(move || {
                let result = export_png(&job_scene, (w, h), &job_path, &job_cancel, &job_written);
                let _ = tx.send(result);
            })
            .map_err(|e| format!("could not start the export: {e}"))?;
        self.job = Some(Job {
            path,
            size: (w, h),
            started: Instant::now(),
            estimate,
            cancel,
            written,
            done,
        });
        self.outcome = None;
        self.hint = None;
        Ok(())
    }

    /// In the browser: renders `scene` at `size` on the UI thread (there
    /// are no others) and offers the PNG, byte-identical to `playa render`
    /// of the same scene and size, as a download named after `path`.
    #[cfg(target_arch = "wasm32")]
    fn download(
        &mut self,
        scene: &Scene,
        (w, h): (u32, u32),
        path: &std::path::Path,
    ) -> Result<(), String> {
        let started = Instant::now();
        let mut bytes = Vec::new();
        crate::picture::render_png(
            &mut bytes,
            scene,
            w,
            h,
            &[],
            crate::picture::Compression::default(),
        )
        .map_err(|e| e.to_string())?;
        let name = path
            .file_name()
            .map_or_else(|| "playa.png".into(), |n| n.to_string_lossy().into_owned());
        super::web::download(&name, &bytes, "image/png")?;
        let secs = started.elapsed().as_secs_f64();
        self.outcome = Some(Message {
            text: format!("Downloaded {name} ({w}×{h}, {secs:.1} s)"),
            error: false,
        });
        Ok(())
    }

    /// Draws the dialog when open; returns a message to show, if any.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        settings: &mut ExportSettings,
        scene: &Scene,
        ms_per_mpx: Option<f64>,
    ) -> Option<Message> {
        if !self.open {
            return None;
        }
        let mut message = None;
        let modal = egui::Modal::new(egui::Id::unique("export-dialog")).show(ctx, |ui| {
            ui.set_width(460.0);
            ui.heading("Export PNG");
            ui.add_space(6.0);
            let running = self.job.is_some();
            ui.add_enabled_ui(!running, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for preset in SizePreset::ALL {
                        ui.radio_value(&mut settings.size, preset, preset.label());
                    }
                });
                if settings.size == SizePreset::Custom {
                    custom_size_ui(ui, &mut settings.custom, scene);
                }
                let (w, h) = settings.pixels(scene);
                // Written strip by strip: memory follows the width only.
                let mib = crate::picture::streamed_bytes(w) as f64 / f64::from(1 << 20);
                let memory = if cfg!(target_arch = "wasm32") {
                    format!("at most {mib:.0} MiB while rendering, and the file")
                } else {
                    format!("written strip by strip: at most {mib:.0} MiB while rendering")
                };
                ui.weak(format!("{w} × {h} pixels, {memory}"));
                ui.add_space(4.0);
                ui.horizontal(|ui| {
                    let label = ui.label("File");
                    ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(300.0))
                        .labelled_by(label.id);
                    // In the browser the file is a download: no folders.
                    #[cfg(not(target_arch = "wasm32"))]
                    {
                        let browsing = self.browse.is_some();
                        if ui
                            .add_enabled(
                                !browsing,
                                egui::Button::new(if browsing {
                                    "Waiting…"
                                } else {
                                    "Browse…"
                                }),
                            )
                            .clicked()
                        {
                            let start = PathBuf::from(self.path.trim());
                            self.browse = Some(FileDialog::save_png(&start));
                        }
                    }
                });
                if let Some(hint) = &self.hint {
                    ui.colored_label(ui.visuals().warn_fg_color, hint);
                }
            });
            ui.add_space(6.0);
            if let Some(job) = &self.job {
                let t = job.started.elapsed().as_secs_f32() / job.estimate.as_secs_f32();
                // The encoder gives no progress of its own: the bar follows
                // the estimate and slows down near the end rather than stop.
                let fraction = 0.98 * (1.0 - (-1.4 * t).exp());
                let mib = job.written.load(Ordering::Relaxed) as f64 / f64::from(1 << 20);
                let text = if job.cancel.load(Ordering::Relaxed) {
                    "Cancelling…".to_string()
                } else {
                    format!("Rendering and writing… {mib:.1} MiB")
                };
                ui.add(egui::ProgressBar::new(fraction).text(text).animate(true));
                ui.ctx().request_repaint_after(Duration::from_millis(50));
            } else if let Some(outcome) = &self.outcome {
                let color = if outcome.error {
                    ui.visuals().error_fg_color
                } else {
                    ui.visuals().text_color()
                };
                ui.colored_label(color, &outcome.text);
            }
            ui.add_space(6.0);
            let asking = replace_question_ui(ui, &self.replacing, &self.path, "png");
            ui.horizontal(|ui| {
                if asking.is_some() {
                    let replace = ui
                        .add(egui::Button::new("Replace").min_size(egui::vec2(80.0, 0.0)))
                        .on_hover_text("Overwrite the file");
                    if replace.clicked()
                        && let Err(e) = self.start(settings, scene, ms_per_mpx, true)
                    {
                        let failed = Message {
                            text: e,
                            error: true,
                        };
                        self.outcome = Some(failed.clone());
                        message = Some(failed);
                    }
                    if ui.button("Cancel").clicked() {
                        self.replacing = None;
                    }
                } else if let Some(job) = &self.job {
                    if ui.button("Cancel").clicked() {
                        job.cancel.store(true, Ordering::Relaxed);
                    }
                    if ui
                        .button("Hide")
                        .on_hover_text("Keep exporting in the background")
                        .clicked()
                    {
                        self.open = false;
                    }
                } else {
                    if ui
                        .add(egui::Button::new("Export").min_size(egui::vec2(80.0, 0.0)))
                        .clicked()
                        && let Err(e) = self.start(settings, scene, ms_per_mpx, false)
                    {
                        let failed = Message {
                            text: e,
                            error: true,
                        };
                        self.outcome = Some(failed.clone());
                        message = Some(failed);
                    }
                    if ui.button("Close").clicked() {
                        self.open = false;
                    }
                }
            });
        });
        if modal.should_close() && self.job.is_none() {
            self.open = false;
        }
        message
    }
}

/// Width and height fields of a custom size, with "Match aspect" (the
/// height from the width at `scene`'s aspect): Export PNG's and Export
/// animation's.
pub(super) fn custom_size_ui(
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
            &path,
            &AtomicBool::new(true),
            &written,
        );
        assert!(!done.unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

        let done = export_png(
            &Scene::default(),
            (64, 36),
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
