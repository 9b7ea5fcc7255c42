//! "Export animation…": the automaton's generations as an APNG or a GIF,
//! with a frame range (the scrubber's to begin with), speed, size, a
//! progress bar and Cancel.
//!
//! The job is the library's [`Animation`], exactly as `playa animate` makes
//! it, so the file is byte-identical to the command line's with the same
//! settings. Natively it runs on its own thread and writes the file
//! atomically (Cancel leaves none); in the browser, which has one thread,
//! it renders one frame per UI frame ([`Animation::steps`]) and offers the
//! file as a download.

use std::path::PathBuf;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use web_time::Instant;

use super::Message;
use super::export::size_for_long_side;
#[cfg(not(target_arch = "wasm32"))]
use super::files::FileDialog;
use crate::animation::{self, Animation, Format, Options};
use crate::scene::{MAX_GENERATIONS, Scene};

/// Named animation sizes, by the picture's longer side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnimationSize {
    /// 854 on the long side (854×480 at 16:9).
    Sd480,
    /// 1280 on the long side (1280×720 at 16:9).
    #[default]
    Hd720,
    /// 1920 on the long side (1920×1080 at 16:9).
    Hd1080,
    /// Width and height as typed.
    Custom,
}

impl AnimationSize {
    /// All sizes, smallest first.
    pub const ALL: [AnimationSize; 4] = [
        AnimationSize::Sd480,
        AnimationSize::Hd720,
        AnimationSize::Hd1080,
        AnimationSize::Custom,
    ];

    /// Its name in the dialog.
    pub fn label(self) -> &'static str {
        match self {
            AnimationSize::Sd480 => "480p",
            AnimationSize::Hd720 => "720p",
            AnimationSize::Hd1080 => "1080p",
            AnimationSize::Custom => "Custom",
        }
    }

    fn long_side(self) -> Option<u32> {
        match self {
            AnimationSize::Sd480 => Some(854),
            AnimationSize::Hd720 => Some(1280),
            AnimationSize::Hd1080 => Some(1920),
            AnimationSize::Custom => None,
        }
    }
}

/// Animation export settings remembered between runs. The frame range and
/// speed are not: they come from the scrubber each time the dialog opens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnimationExportSettings {
    /// Chosen size. Default: 720p.
    pub size: AnimationSize,
    /// Custom width and height. Default: 1280×720.
    pub custom: [u32; 2],
    /// APNG or GIF. Default: APNG.
    pub format: Format,
    /// Seconds the last frame is held. Default: 0.
    pub hold: f32,
    /// Times played, 0 forever. Default: 0.
    pub loops: u32,
    /// Folder of the last export. Default: the working directory.
    pub folder: Option<PathBuf>,
}

impl Default for AnimationExportSettings {
    fn default() -> Self {
        AnimationExportSettings {
            size: AnimationSize::default(),
            custom: [1280, 720],
            format: Format::Apng,
            hold: 0.0,
            loops: 0,
            folder: None,
        }
    }
}

impl AnimationExportSettings {
    /// The frame size for `scene`.
    pub fn pixels(&self, scene: &Scene) -> (u32, u32) {
        match self.size.long_side() {
            None => (self.custom[0], self.custom[1]),
            Some(long) => size_for_long_side(scene, long),
        }
    }
}

/// The file name `playa animate` would give: `{preset}-{seed}-anim.png`
/// (or `.gif`).
pub fn default_file_name(preset: &str, scene: &Scene, format: Format) -> String {
    let name = if preset.is_empty() { "playa" } else { preset };
    format!(
        "{}-anim.{}",
        Scene::file_stem(name, scene.seed),
        format.extension()
    )
}

/// A running export.
struct Job {
    /// Where the file goes (natively), or its name (the download's).
    path: PathBuf,
    frames: usize,
    started: Instant,
    work: Work,
}

/// The work of a job: a thread natively, frame by frame in the browser.
enum Work {
    #[cfg(not(target_arch = "wasm32"))]
    Thread {
        progress: Arc<animation::Progress>,
        done: std::sync::mpsc::Receiver<crate::Result<bool>>,
    },
    #[cfg(target_arch = "wasm32")]
    Steps {
        steps: Box<animation::Steps>,
        format: Format,
        cancelled: bool,
    },
}

impl Job {
    fn frames_written(&self) -> usize {
        match &self.work {
            #[cfg(not(target_arch = "wasm32"))]
            Work::Thread { progress, .. } => progress.frames_written(),
            #[cfg(target_arch = "wasm32")]
            Work::Steps { steps, .. } => steps.frames_written(),
        }
    }

    fn cancelling(&self) -> bool {
        match &self.work {
            #[cfg(not(target_arch = "wasm32"))]
            Work::Thread { progress, .. } => progress.cancelled(),
            #[cfg(target_arch = "wasm32")]
            Work::Steps { cancelled, .. } => *cancelled,
        }
    }

    fn cancel(&mut self) {
        match &mut self.work {
            #[cfg(not(target_arch = "wasm32"))]
            Work::Thread { progress, .. } => progress.cancel(),
            #[cfg(target_arch = "wasm32")]
            Work::Steps { cancelled, .. } => *cancelled = true,
        }
    }

    /// Moves the job on; its result once it is over: `Ok(true)` done,
    /// `Ok(false)` cancelled.
    fn advance(&mut self) -> Option<crate::Result<bool>> {
        match &mut self.work {
            #[cfg(not(target_arch = "wasm32"))]
            Work::Thread { done, .. } => done.try_recv().ok(),
            #[cfg(target_arch = "wasm32")]
            Work::Steps {
                steps,
                format,
                cancelled,
            } => {
                if *cancelled {
                    return Some(Ok(false));
                }
                match steps.step() {
                    Ok(None) => None,
                    Ok(Some(bytes)) => Some(deliver(&self.path, &bytes, *format)),
                    Err(e) => Some(Err(e)),
                }
            }
        }
    }
}

/// Offers a finished animation made in memory as a download named after
/// `path` (the browser's way of saving).
#[cfg(target_arch = "wasm32")]
fn deliver(path: &std::path::Path, bytes: &[u8], format: Format) -> crate::Result<bool> {
    let name = path.file_name().map_or_else(
        || format!("playa-anim.{}", format.extension()),
        |n| n.to_string_lossy().into_owned(),
    );
    super::web::download(&name, bytes, format.mime()).map_err(|e| crate::Error::Io {
        path: path.to_path_buf(),
        error: std::io::Error::other(e),
    })?;
    Ok(true)
}

/// The animation export dialog and its job.
#[derive(Default)]
pub struct AnimationExportDialog {
    open: bool,
    /// The file path being edited.
    path: String,
    /// Generations of the first and last frame.
    frames: [u32; 2],
    /// Frames per second.
    fps: f32,
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

impl AnimationExportDialog {
    /// Opens the dialog with the generations from the soup to the one
    /// shown (at least one step) at the scrubber's speed, proposing `{preset}-{seed}-anim.png` (or `.gif`) in the last folder.
    pub fn open(
        &mut self,
        settings: &AnimationExportSettings,
        scrubber: &super::animate::AnimateSettings,
        preset: &str,
        scene: &Scene,
    ) {
        self.open = true;
        self.outcome = None;
        self.hint = None;
        self.replacing = None;
        if self.job.is_none() {
            // The generations up to the one shown: soup to picture.
            self.frames = [0, scene.automaton.generations.clamp(1, MAX_GENERATIONS)];
            self.fps = crate::setting::round_to(
                scrubber.fps.clamp(animation::MIN_FPS, animation::MAX_FPS),
                100,
            );
            let name = default_file_name(preset, scene, settings.format);
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

    /// The options the dialog's fields give.
    pub fn options(&self, settings: &AnimationExportSettings) -> Options {
        Options {
            first: self.frames[0],
            last: self.frames[1],
            fps: self.fps,
            hold: settings.hold,
            loops: settings.loops,
            cells: None,
            format: settings.format,
        }
    }

    /// A short line for the status bar while an export runs with the
    /// dialog closed.
    pub fn status_line(&self) -> Option<String> {
        let job = self.job.as_ref()?;
        (!self.open).then(|| {
            format!(
                "Exporting animation, frame {} of {}…",
                job.frames_written(),
                job.frames
            )
        })
    }

    /// Moves a running job on and collects its result into `message`.
    pub fn poll(&mut self, message: &mut Option<Message>) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(dialog) = &mut self.browse
            && let Some(result) = dialog.poll()
        {
            self.browse = None;
            match result {
                Some(path) => {
                    self.path = path.display().to_string();
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
        let Some(job) = &mut self.job else { return };
        let Some(result) = job.advance() else {
            return;
        };
        let name = job.path.display();
        let secs = job.started.elapsed().as_secs_f64();
        let outcome = match result {
            Ok(true) => Message {
                text: format!("Saved {name} ({} frames, {secs:.1} s)", job.frames),
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

    /// Starts exporting `scene` with the dialog's settings to the path in
    /// the field (its format's extension added when it has none). A file that exists
    /// is replaced only once `replace` says so: else the dialog asks first.
    pub fn start(
        &mut self,
        settings: &mut AnimationExportSettings,
        scene: &Scene,
        replace: bool,
    ) -> Result<(), String> {
        if self.job.is_some() {
            return Err("an export is already running".to_string());
        }
        let extension = settings.format.extension();
        let Some(path) =
            super::export::target(&mut self.path, extension, replace, &mut self.replacing)?
        else {
            return Ok(());
        };
        let animation = Animation::new(scene, &self.options(settings), settings.pixels(scene))
            .map_err(|e| e.to_string())?;
        let frames = animation.frame_count();
        #[cfg(target_arch = "wasm32")]
        let work = Work::Steps {
            steps: Box::new(animation.steps().map_err(|e| e.to_string())?),
            format: settings.format,
            cancelled: false,
        };
        #[cfg(not(target_arch = "wasm32"))]
        let work = {
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
            let progress = Arc::new(animation::Progress::default());
            let (tx, done) = std::sync::mpsc::channel();
            let job_progress = Arc::clone(&progress);
            let job_path = path.clone();
            std::thread::Builder::new()
                .name("playa-animation".into())
                .spawn(move || {
                    let _ = tx.send(animation.write_file(&job_path, &job_progress));
                })
                .map_err(|e| format!("could not start the export: {e}"))?;
            Work::Thread { progress, done }
        };
        self.job = Some(Job {
            path,
            frames,
            started: Instant::now(),
            work,
        });
        self.outcome = None;
        self.hint = None;
        Ok(())
    }

    /// The file field's path with the extension of `format` when it ends in
    /// another animation's.
    fn match_extension(&mut self, format: Format) {
        let path = PathBuf::from(self.path.trim());
        if Format::from_path(&path).is_some_and(|f| f != format) {
            self.path = path
                .with_extension(format.extension())
                .display()
                .to_string();
        }
    }

    /// Draws the dialog when open; returns a message to show, if any.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        settings: &mut AnimationExportSettings,
        scene: &Scene,
    ) -> Option<Message> {
        if !self.open {
            return None;
        }
        let mut message = None;
        let modal = egui::Modal::new(egui::Id::unique("animation-export-dialog")).show(ctx, |ui| {
            ui.set_width(480.0);
            ui.heading("Export animation");
            ui.add_space(6.0);
            let running = self.job.is_some();
            ui.add_enabled_ui(!running, |ui| self.settings_ui(ui, settings, scene));
            ui.add_space(6.0);
            if let Some(job) = &self.job {
                let done = job.frames_written();
                let text = if job.cancelling() {
                    "Cancelling…".to_string()
                } else {
                    format!("Frame {done} of {}", job.frames)
                };
                ui.add(
                    egui::ProgressBar::new(done as f32 / job.frames.max(1) as f32)
                        .text(text)
                        .animate(true),
                );
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
            let asking = super::export::replace_question_ui(
                ui,
                &self.replacing,
                &self.path,
                settings.format.extension(),
            );
            ui.horizontal(|ui| {
                if asking.is_some() {
                    let replace = ui
                        .add(egui::Button::new("Replace").min_size(egui::vec2(80.0, 0.0)))
                        .on_hover_text("Overwrite the file");
                    if replace.clicked()
                        && let Err(e) = self.start(settings, scene, true)
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
                } else if let Some(job) = &mut self.job {
                    if ui.button("Cancel").clicked() {
                        job.cancel();
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
                        && let Err(e) = self.start(settings, scene, false)
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

    /// The range, speed, format, size and file.
    fn settings_ui(
        &mut self,
        ui: &mut egui::Ui,
        settings: &mut AnimationExportSettings,
        scene: &Scene,
    ) {
        egui::Grid::new("animation-export-grid")
            .num_columns(2)
            .spacing([12.0, 8.0])
            .show(ui, |ui| {
                let label = ui.label("Generations");
                ui.horizontal(|ui| {
                    let [first, last] = &mut self.frames;
                    ui.add(egui::DragValue::new(first).range(0..=MAX_GENERATIONS))
                        .labelled_by(label.id)
                        .on_hover_text("Generation of the first frame");
                    let to = ui.label("to");
                    ui.add(egui::DragValue::new(last).range(0..=MAX_GENERATIONS))
                        .labelled_by(to.id)
                        .on_hover_text("Generation of the last frame (included)");
                    *first = (*first).min(*last);
                    ui.weak(format!("{} frames", *last - *first + 1));
                });
                ui.end_row();

                let max_fps = match settings.format {
                    Format::Apng => animation::MAX_FPS,
                    Format::Gif => animation::MAX_GIF_FPS,
                };
                let label = ui.label("Frames per second");
                ui.add(
                    egui::DragValue::new(&mut self.fps)
                        .range(animation::MIN_FPS..=max_fps)
                        .speed(0.1)
                        .max_decimals(2),
                )
                .labelled_by(label.id);
                ui.end_row();

                let label = ui.label("Hold last frame");
                ui.add(
                    egui::DragValue::new(&mut settings.hold)
                        .range(0.0..=animation::MAX_HOLD)
                        .speed(0.05)
                        .max_decimals(2)
                        .suffix(" s"),
                )
                .labelled_by(label.id)
                .on_hover_text("Seconds the last frame stays beyond its frame time");
                ui.end_row();

                let label = ui.label("Plays");
                ui.add(
                    egui::DragValue::new(&mut settings.loops)
                        .range(0..=animation::MAX_LOOPS)
                        .custom_formatter(|n, _| {
                            if n == 0.0 {
                                "forever".to_string()
                            } else {
                                format!("{n}")
                            }
                        })
                        .custom_parser(|text| {
                            if text.trim() == "forever" {
                                Some(0.0)
                            } else {
                                text.trim().parse().ok()
                            }
                        }),
                )
                .labelled_by(label.id)
                .on_hover_text("Times the animation plays; 0 loops forever");
                ui.end_row();

                ui.label("Format");
                ui.horizontal(|ui| {
                    let before = settings.format;
                    ui.radio_value(&mut settings.format, Format::Apng, "APNG")
                        .on_hover_text("Exact pixels, carries its recipe");
                    ui.radio_value(&mut settings.format, Format::Gif, "GIF")
                        .on_hover_text("256 colours, plays everywhere; at most 50 frames a second");
                    if settings.format != before {
                        self.match_extension(settings.format);
                    }
                });
                ui.end_row();

                ui.label("Size");
                ui.horizontal_wrapped(|ui| {
                    for size in AnimationSize::ALL {
                        ui.radio_value(&mut settings.size, size, size.label());
                    }
                });
                ui.end_row();
            });
        if settings.format == Format::Gif {
            self.fps = self.fps.min(animation::MAX_GIF_FPS);
        }
        if settings.size == AnimationSize::Custom {
            super::export::custom_size_ui(ui, &mut settings.custom, scene);
        }
        let (w, h) = settings.pixels(scene);
        ui.weak(format!("{w} × {h} pixels"));
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let label = ui.label("File");
            ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(320.0))
                .labelled_by(label.id);
            // In the browser the file is a download: no folders.
            #[cfg(not(target_arch = "wasm32"))]
            {
                let browsing = self.browse.is_some();
                let text = if browsing { "Waiting…" } else { "Browse…" };
                if ui.add_enabled(!browsing, egui::Button::new(text)).clicked() {
                    let start = PathBuf::from(self.path.trim());
                    self.browse = Some(match settings.format {
                        Format::Apng => FileDialog::save(&start, "Animated PNG", "png"),
                        Format::Gif => FileDialog::save(&start, "GIF", "gif"),
                    });
                }
            }
        });
        if let Some(hint) = &self.hint {
            ui.colored_label(ui.visuals().warn_fg_color, hint);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_aspect_and_names_the_command_line() {
        let mut scene = Scene::default();
        let mut s = AnimationExportSettings::default();
        assert_eq!(s.pixels(&scene), (1280, 720));
        s.size = AnimationSize::Sd480;
        assert_eq!(s.pixels(&scene), (854, 480));
        scene.aspect = 0.5;
        s.size = AnimationSize::Hd1080;
        assert_eq!(s.pixels(&scene), (960, 1920));
        scene.seed = 42;
        assert_eq!(
            default_file_name("badlands", &scene, Format::Gif),
            "badlands-42-anim.gif"
        );
    }

    #[test]
    fn the_range_ends_at_the_generation_shown_at_the_scrubbers_speed() {
        let mut d = AnimationExportDialog::default();
        let scrubber = crate::app::animate::AnimateSettings { fps: 7.333 };
        let settings = AnimationExportSettings::default();
        let mut scene = Scene::default();
        scene.automaton.generations = 30;
        d.open(&settings, &scrubber, "x", &scene);
        let o = d.options(&settings);
        assert_eq!((o.first, o.last, o.fps), (0, 30, 7.33));
        // From the soup itself, at least one step.
        let mut d = AnimationExportDialog::default();
        scene.automaton.generations = 0;
        d.open(&settings, &scrubber, "x", &scene);
        assert_eq!(d.options(&settings).last, 1);
        d.match_extension(Format::Gif);
        assert!(d.path.ends_with("x-1-anim.gif"), "{}", d.path);
    }
}
