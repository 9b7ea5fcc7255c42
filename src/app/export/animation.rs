//! "Export animation…": the automaton's generations, or one setting swept
//! from one value to another (a day's light, the wind shifting), as an
//! APNG or a GIF, with a frame range (the scrubber's to begin with) or the
//! sweep's values and frames, speed, size, a progress bar and Cancel.
//!
//! The export is the library's [`Animation`], exactly as `playa animate` makes
//! it, so the file is byte-identical to the command line's with the same
//! settings. Natively it runs on its own thread and writes the file
//! atomically (Cancel leaves none); in the browser, which has one thread,
//! it renders one frame per UI frame ([`Animation::steps`]) and offers the
//! file as a download.

use std::path::{Path, PathBuf};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::animation::{self, Animation, Format, Options, Sweep};
use crate::app::Message;
#[cfg(target_arch = "wasm32")]
use crate::app::export::dialog::deliver_worker_result;
#[cfg(not(target_arch = "wasm32"))]
use crate::app::export::dialog::on_thread;
use crate::app::export::dialog::{Dialog, Exporter, Run};
use crate::app::export::png::size_for_long_side;
use crate::compose::window::{Window, check_aspect};
use crate::explore::tweak::{MAX_SWEEP, Sweepable, sweepable};
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

/// Whether an animation of `settings` can be made of `scene`: an aspect
/// playa draws, and the scene's (animations are not cropped).
fn fits(settings: &AnimationExportSettings, scene: &Scene) -> Result<(), String> {
    let (w, h) = settings.pixels(scene);
    check_aspect(w, h).map_err(|e| e.to_string())?;
    if Window::crop(scene.aspect, w, h).is_some() {
        return Err(format!(
            "{w} × {h} is not the scene's aspect: match the size or change the scene"
        ));
    }
    Ok(())
}

/// The file name `playa animate` would give: `{preset}-{seed}-anim.png`
/// (or `.gif`), `{preset}-{seed}-{KEY}-anim.png` for a sweep of `KEY`.
pub fn default_file_name(
    preset: &str,
    scene: &Scene,
    format: Format,
    swept: Option<&str>,
) -> String {
    let name = if preset.is_empty() { "playa" } else { preset };
    let swept = swept.map_or(String::new(), |key| format!("-{}", key.replace('#', "")));
    format!(
        "{}{swept}-anim.{}",
        Scene::file_stem(name, scene.seed),
        format.extension()
    )
}

/// "Export animation…": the export dialog for the automaton's generations
/// or a setting's sweep.
pub type AnimationExportDialog = Dialog<AnimationExport>;

/// What the frames of an exported animation change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Changes {
    /// The automaton's generations.
    #[default]
    Generations,
    /// One setting, swept from one value to another.
    Setting,
}

/// The animation export's part of its [`Dialog`]: the frame range and
/// speed, which come from the scrubber each time the dialog opens, or the
/// sweep of a setting.
#[derive(Default)]
pub struct AnimationExport {
    /// Whether the frames are the generations or a setting's values.
    changes: Changes,
    /// Generations of the first and last frame.
    frames: [u32; 2],
    /// The setting swept (`None` until one is chosen: the first of the
    /// scene's then), its first and last value, and its frames.
    sweep: Option<Sweepable>,
    /// The sweep's first and last value, both included.
    from_to: [f64; 2],
    /// The sweep's number of frames, 2 to [`MAX_SWEEP`].
    sweep_frames: usize,
    /// Frames per second.
    fps: f32,
    /// The preset's name the dialog opened with, for the file's name.
    preset: String,
    /// The aspect "Change the scene's aspect" asked for, until
    /// [`AnimationExportDialog::ui`] sets it on the scene.
    new_aspect: Option<f32>,
}

/// Frames of a sweep to begin with: two seconds at 12 frames a second.
const SWEEP_FRAMES: usize = 24;

impl AnimationExport {
    /// The sweep the dialog's fields give, if a setting changes.
    fn sweep(&self) -> Option<Sweep> {
        let setting = self
            .sweep
            .as_ref()
            .filter(|_| self.changes == Changes::Setting)?;
        let [from, to] = self.from_to;
        Some(Sweep::new(
            &setting.key,
            setting.sweep_text(from, to, self.sweep_frames),
        ))
    }

    /// Chooses `setting` to sweep: from its value in the scene to the end
    /// of the range New scene rolls it in (or of its whole range) that
    /// lies beyond; from the range's start when the value is at its end.
    fn choose(&mut self, setting: Sweepable) {
        let (lo, hi) = setting.roll.unwrap_or((setting.min, setting.max));
        let v = setting.value;
        self.from_to = if v < hi {
            [v, hi]
        } else if lo < v {
            [lo, v]
        } else {
            [setting.min, setting.max]
        };
        self.sweep = Some(setting);
    }

    /// The file name `playa animate` gives these settings.
    fn file_name(&self, settings: &AnimationExportSettings, scene: &Scene) -> String {
        let swept = self.sweep().map(|s| s.key);
        default_file_name(&self.preset, scene, settings.format, swept.as_deref())
    }

    /// The options the dialog's fields give.
    fn options(&self, settings: &AnimationExportSettings) -> Options {
        Options {
            first: self.frames[0],
            last: self.frames[1],
            sweep: self.sweep(),
            fps: self.fps,
            hold: settings.hold,
            loops: settings.loops,
            cells: None,
            format: settings.format,
        }
    }
}

/// A running animation export.
pub struct AnimationRun {
    frames: usize,
    runner: Runner,
}

/// How an animation export makes its frames: on a thread natively, in a
/// Web Worker in the browser.
enum Runner {
    #[cfg(not(target_arch = "wasm32"))]
    Thread {
        progress: Arc<animation::Progress>,
        done: std::sync::mpsc::Receiver<crate::Result<bool>>,
    },
    #[cfg(target_arch = "wasm32")]
    Worker {
        /// The worker making the file (gone once over).
        worker: Option<crate::app::web::ExportWorker>,
        /// The download's name.
        path: PathBuf,
        format: Format,
        cancelled: bool,
    },
}

impl Exporter for AnimationExport {
    type Settings = AnimationExportSettings;
    type Request = Animation;
    type Run = AnimationRun;
    const TITLE: &'static str = "Export animation";
    const ID: &'static str = "animation-export-dialog";
    const WIDTH: f32 = 480.0;

    fn extension(settings: &AnimationExportSettings) -> &'static str {
        settings.format.extension()
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn file_kind(settings: &AnimationExportSettings) -> &'static str {
        match settings.format {
            Format::Apng => "Animated PNG",
            Format::Gif => "GIF",
        }
    }

    fn folder(settings: &mut AnimationExportSettings) -> &mut Option<PathBuf> {
        &mut settings.folder
    }

    /// The range, speed, format and size.
    fn settings_ui(
        dialog: &mut Dialog<Self>,
        ui: &mut egui::Ui,
        settings: &mut AnimationExportSettings,
        scene: &Scene,
    ) {
        let named = dialog.exporter.file_name(settings, scene);
        egui::Grid::new("animation-export-grid")
            .num_columns(2)
            .spacing([12.0, 8.0])
            .show(ui, |ui| {
                ui.label("What changes");
                ui.horizontal(|ui| {
                    let changes = &mut dialog.exporter.changes;
                    ui.radio_value(changes, Changes::Generations, "Generations")
                        .on_hover_text("The automaton's run, generation by generation");
                    ui.radio_value(changes, Changes::Setting, "A setting")
                        .on_hover_text(
                            "One setting from one value to another: the light of a day, \
                             the wind shifting, clouds drifting",
                        );
                });
                ui.end_row();

                match dialog.exporter.changes {
                    Changes::Generations => generations_ui(ui, &mut dialog.exporter),
                    Changes::Setting => sweep_ui(ui, &mut dialog.exporter, scene),
                }

                let max_fps = match settings.format {
                    Format::Apng => animation::MAX_FPS,
                    Format::Gif => animation::MAX_GIF_FPS,
                };
                let label = ui.label("Frames per second");
                ui.add(
                    egui::DragValue::new(&mut dialog.exporter.fps)
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
                        dialog.match_extension(settings.format);
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
            dialog.exporter.fps = dialog.exporter.fps.min(animation::MAX_GIF_FPS);
        }
        // The file's name follows what changes, unless typed.
        let renamed = dialog.exporter.file_name(settings, scene);
        if renamed != named {
            dialog.rename_default(&named, &renamed);
        }
        if let Some(sweep) = dialog.exporter.sweep()
            && let Err(e) = sweep.tweak()
        {
            ui.colored_label(ui.visuals().error_fg_color, e.to_string());
        }
        if settings.size == AnimationSize::Custom {
            crate::app::export::png::custom_size_ui(ui, &mut settings.custom, scene);
        }
        let (w, h) = settings.pixels(scene);
        ui.weak(format!("{w} × {h} pixels"));
        if let Err(e) = crate::compose::window::check_aspect(w, h) {
            ui.colored_label(ui.visuals().error_fg_color, e.to_string());
        } else if Window::crop(scene.aspect, w, h).is_some() {
            // Animations are not cropped: the size or the scene must change.
            crate::app::export::png::aspect_mismatch_line(
                ui,
                (w, h),
                scene,
                "an animation is drawn at the scene's aspect",
            );
            // Or "Match aspect", beside the size, changes the size.
            if let Some(aspect) = crate::app::export::png::change_aspect_ui(ui, (w, h), false) {
                dialog.exporter.new_aspect = Some(aspect);
            }
        }
    }

    fn ready(&self, settings: &AnimationExportSettings, scene: &Scene) -> bool {
        let sweep_reads = match self.changes {
            Changes::Generations => true,
            Changes::Setting => self.sweep().is_some_and(|s| s.tweak().is_ok()),
        };
        sweep_reads && fits(settings, scene).is_ok()
    }

    fn prepare(
        &self,
        settings: &AnimationExportSettings,
        scene: &Scene,
    ) -> Result<Animation, String> {
        fits(settings, scene)?;
        Animation::new(scene, &self.options(settings), settings.pixels(scene))
            .map_err(|e| e.to_string())
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn launch(animation: Animation, path: &Path) -> Result<AnimationRun, String> {
        let frames = animation.frame_count();
        let progress = Arc::new(animation::Progress::default());
        let run_progress = Arc::clone(&progress);
        let path = path.to_path_buf();
        let done = on_thread("playa-animation", move || {
            // What a killed export of this file left.
            crate::base::atomic::remove_stale_of(&path);
            animation.write_file(&path, &run_progress)
        })?;
        Ok(AnimationRun {
            frames,
            runner: Runner::Thread { progress, done },
        })
    }

    #[cfg(target_arch = "wasm32")]
    fn launch(animation: Animation, path: &Path) -> Result<AnimationRun, String> {
        let job = crate::app::export::job::ExportJob::animation(&animation);
        Ok(AnimationRun {
            frames: animation.frame_count(),
            runner: Runner::Worker {
                worker: Some(crate::app::web::ExportWorker::start(&job)?),
                path: path.to_path_buf(),
                format: animation.options().format,
                cancelled: false,
            },
        })
    }
}

/// The "Generations" row: the first and last frame's generations.
fn generations_ui(ui: &mut egui::Ui, exporter: &mut AnimationExport) {
    let label = ui.label("Generations");
    ui.horizontal(|ui| {
        let [first, last] = &mut exporter.frames;
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
}

/// The rows of a sweep: the setting, its first and last value, and the
/// number of frames.
fn sweep_ui(ui: &mut egui::Ui, exporter: &mut AnimationExport, scene: &Scene) {
    let settings = sweepable(scene);
    if exporter.sweep.is_none()
        && let Some(first) = settings.first()
    {
        exporter.choose(first.clone());
    }
    let label = ui.label("Setting");
    let chosen = exporter.sweep.as_ref().map_or("", |s| s.label.as_str());
    let mut choice = None;
    egui::ComboBox::from_id_salt("animation-sweep-setting")
        .selected_text(chosen)
        .width(260.0)
        .show_ui(ui, |ui| {
            for setting in &settings {
                let on = exporter
                    .sweep
                    .as_ref()
                    .is_some_and(|s| s.key == setting.key);
                if ui.selectable_label(on, &setting.label).clicked() {
                    choice = Some(setting.clone());
                }
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text("The setting the frames change");
    if let Some(setting) = choice {
        exporter.choose(setting);
    }
    ui.end_row();

    if let Some(setting) = &exporter.sweep {
        let label = ui.label("From");
        ui.horizontal(|ui| {
            let [from, to] = &mut exporter.from_to;
            let unit = if setting.key == "time" { " h" } else { "" };
            let step =
                ((setting.max - setting.min) / 300.0).max(10f64.powi(-(setting.decimals as i32)));
            fn field<'a>(
                value: &'a mut f64,
                setting: &Sweepable,
                step: f64,
                unit: &str,
            ) -> egui::DragValue<'a> {
                egui::DragValue::new(value)
                    .range(setting.min..=setting.max)
                    .speed(step)
                    .max_decimals(setting.decimals)
                    .suffix(unit)
            }
            ui.add(field(from, setting, step, unit))
                .labelled_by(label.id)
                .on_hover_text("The setting's value in the first frame");
            let to_label = ui.label("to");
            ui.add(field(to, setting, step, unit))
                .labelled_by(to_label.id)
                .on_hover_text("The setting's value in the last frame (included)");
        });
        ui.end_row();
    }

    let label = ui.label("Frames");
    ui.add(egui::DragValue::new(&mut exporter.sweep_frames).range(2..=MAX_SWEEP))
        .labelled_by(label.id)
        .on_hover_text("Frames from the first value to the last, evenly apart");
    ui.end_row();
}

impl AnimationRun {
    fn frames_written(&self) -> usize {
        match &self.runner {
            #[cfg(not(target_arch = "wasm32"))]
            Runner::Thread { progress, .. } => progress.frames_written(),
            #[cfg(target_arch = "wasm32")]
            Runner::Worker { worker, .. } => worker
                .as_ref()
                .map_or(self.frames, |w| w.progress() as usize),
        }
    }
}

impl Run for AnimationRun {
    fn advance(&mut self) -> Option<crate::Result<bool>> {
        match &mut self.runner {
            #[cfg(not(target_arch = "wasm32"))]
            Runner::Thread { done, .. } => done.try_recv().ok(),
            #[cfg(target_arch = "wasm32")]
            Runner::Worker {
                worker,
                path,
                format,
                cancelled,
            } => {
                if *cancelled {
                    // Stops the worker where it is.
                    *worker = None;
                    return Some(Ok(false));
                }
                let result = worker.as_ref()?.poll()?;
                *worker = None;
                let fallback = format!("playa-anim.{}", format.extension());
                Some(deliver_worker_result(
                    path,
                    &fallback,
                    result,
                    format.mime(),
                ))
            }
        }
    }

    fn cancel(&mut self) {
        match &mut self.runner {
            #[cfg(not(target_arch = "wasm32"))]
            Runner::Thread { progress, .. } => progress.cancel(),
            #[cfg(target_arch = "wasm32")]
            Runner::Worker { cancelled, .. } => *cancelled = true,
        }
    }

    fn cancelling(&self) -> bool {
        match &self.runner {
            #[cfg(not(target_arch = "wasm32"))]
            Runner::Thread { progress, .. } => progress.cancelled(),
            #[cfg(target_arch = "wasm32")]
            Runner::Worker { cancelled, .. } => *cancelled,
        }
    }

    fn progress(&self, _: Duration) -> (f32, String) {
        let done = self.frames_written();
        (
            done as f32 / self.frames.max(1) as f32,
            format!("Frame {done} of {}", self.frames),
        )
    }

    fn status_line(&self) -> String {
        format!(
            "Exporting animation, frame {} of {}…",
            self.frames_written(),
            self.frames
        )
    }

    fn summary(&self) -> String {
        format!("{} frames", self.frames)
    }
}

impl AnimationExportDialog {
    /// Opens the dialog with the generations from the soup to the one
    /// shown (at least one step) at the scrubber's speed, proposing
    /// `{preset}-{seed}-anim.png` (or `.gif`) in the last folder.
    pub fn open(
        &mut self,
        settings: &AnimationExportSettings,
        scrubber: &crate::app::preview::animate::AnimateSettings,
        preset: &str,
        scene: &Scene,
    ) {
        self.open_with(settings.folder.as_deref(), |exporter| {
            // The generations up to the one shown: soup to picture.
            exporter.frames = [0, scene.automaton.generations.clamp(1, MAX_GENERATIONS)];
            exporter.fps = crate::setting::round_to(
                scrubber.fps.clamp(animation::MIN_FPS, animation::MAX_FPS),
                100,
            );
            exporter.preset = preset.to_string();
            // A setting kept from the last time starts again from its value
            // in this scene, if the scene still has it.
            let kept = exporter
                .sweep
                .take()
                .and_then(|kept| sweepable(scene).into_iter().find(|s| s.key == kept.key));
            if let Some(setting) = kept {
                exporter.choose(setting);
            }
            if exporter.sweep_frames < 2 {
                exporter.sweep_frames = SWEEP_FRAMES;
            }
            exporter.file_name(settings, scene)
        });
    }

    /// The options the dialog's fields give.
    pub fn options(&self, settings: &AnimationExportSettings) -> Options {
        self.exporter.options(settings)
    }

    /// Draws the dialog when open; returns a message to show, if any.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        settings: &mut AnimationExportSettings,
        scene: &mut Scene,
    ) -> Option<Message> {
        let message = self.show(ctx, settings, scene);
        if let Some(aspect) = self.exporter.new_aspect.take() {
            scene.aspect = aspect;
        }
        message
    }

    /// The file field's name `to` where it is the name `from` the dialog
    /// gave (a name typed is kept).
    fn rename_default(&mut self, from: &str, to: &str) {
        let path = PathBuf::from(self.path.trim());
        if path.file_name().is_some_and(|name| name == from) {
            self.path = path.with_file_name(to).display().to_string();
        }
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
            default_file_name("badlands", &scene, Format::Gif, None),
            "badlands-42-anim.gif"
        );
        assert_eq!(
            default_file_name("badlands", &scene, Format::Apng, Some("tent#2.x")),
            "badlands-42-tent2.x-anim.png"
        );
    }

    #[test]
    fn the_range_ends_at_the_generation_shown_at_the_scrubbers_speed() {
        let mut d = AnimationExportDialog::default();
        let scrubber = crate::app::preview::animate::AnimateSettings { fps: 7.333 };
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

    #[test]
    fn a_setting_starts_from_its_value_toward_its_range_s_end() {
        let mut d = AnimationExport::default();
        let scene = Scene::default();
        let time = sweepable(&scene)
            .into_iter()
            .find(|s| s.key == "time")
            .unwrap();
        d.choose(time);
        d.changes = Changes::Setting;
        d.sweep_frames = 4;
        assert_eq!(d.from_to, [12.0, 24.0]);
        let sweep = d.sweep().unwrap();
        assert_eq!(sweep, Sweep::new("time", "12.0..=24.0:4"));
        assert_eq!(sweep.tweak().unwrap().len(), 4);
        let settings = AnimationExportSettings::default();
        assert_eq!(d.options(&settings).frame_count(), 4);
        d.changes = Changes::Generations;
        assert_eq!(d.options(&settings).sweep, None);
    }
}
