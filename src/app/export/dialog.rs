//! The export dialog's state machine, written once for every kind of file
//! the app exports: a file path (typed, or chosen in the native save
//! dialog; in the browser the file is a download), a question before an
//! existing file is replaced, the export running in the background with a
//! progress bar and Cancel, and its result (saved, failed or cancelled)
//! shown in the dialog and the status bar.
//!
//! What differs between "Export PNG…" and "Export animation…" (the
//! settings form, the file's extension, how the export runs and what its
//! progress says) is an [`Exporter`] and the [`Run`] it starts.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui::RichText;
use web_time::Instant;

use crate::app::Message;
#[cfg(not(target_arch = "wasm32"))]
use crate::app::files::FileDialog;
use crate::scene::Scene;

/// What an export dialog exports: the parts of [`Dialog`] that differ
/// from one kind of file to another.
pub trait Exporter: Default {
    /// The settings remembered between runs (compared, so that a message
    /// about other settings is cleared once they change).
    type Settings: Clone + PartialEq;
    /// What [`Exporter::prepare`] checked and made, for
    /// [`Exporter::launch`] to run.
    type Request;
    /// An export once started.
    type Run: Run;
    /// The dialog's heading.
    const TITLE: &'static str;
    /// The id of the dialog's window.
    const ID: &'static str;
    /// The dialog's width in points (the file field takes all but 160).
    const WIDTH: f32;
    /// The word on the button that starts it, and in a failure's message.
    /// Default: "Export".
    const ACTION: &'static str = "Export";

    /// The extension, without its dot, of the file made with `settings`.
    fn extension(settings: &Self::Settings) -> &'static str;

    /// The description of such files in the native save dialog's filter.
    #[cfg(not(target_arch = "wasm32"))]
    fn file_kind(settings: &Self::Settings) -> &'static str;

    /// The folder of the last export, in `settings`.
    fn folder(settings: &mut Self::Settings) -> &mut Option<PathBuf>;

    /// The form above the file field (it may change the field, e.g. its
    /// extension to match a format).
    fn settings_ui(
        dialog: &mut Dialog<Self>,
        ui: &mut egui::Ui,
        settings: &mut Self::Settings,
        scene: &Scene,
    );

    /// Whether Export is enabled: the form has what an export needs (a
    /// choice made, a size allowed). Default: always.
    fn ready(&self, _settings: &Self::Settings, _scene: &Scene) -> bool {
        true
    }

    /// Checks `settings` and makes the request to export `scene`; the
    /// error is the message to show.
    fn prepare(&self, settings: &Self::Settings, scene: &Scene) -> Result<Self::Request, String>;

    /// Starts `request`: natively on its own thread, writing the file at
    /// `path`; in the browser, as a download named after `path`.
    fn launch(request: Self::Request, path: &Path) -> Result<Self::Run, String>;
}

/// An export once started, moved on by its dialog each frame.
pub trait Run {
    /// Moves the export on (in the browser, a step of it on the UI
    /// thread); its result once it is over: `Ok(true)` done, `Ok(false)`
    /// cancelled, with no file written.
    fn advance(&mut self) -> Option<crate::Result<bool>>;
    /// Asks the export to stop.
    fn cancel(&mut self);
    /// Whether Cancel was pressed.
    fn cancelling(&self) -> bool;
    /// The progress bar's fraction done and text, `elapsed` after the
    /// start.
    fn progress(&self, elapsed: Duration) -> (f32, String);
    /// The status bar's line while the dialog is hidden.
    fn status_line(&self) -> String;
    /// What was made, in the message once it is saved (`1920×1080`,
    /// `25 frames`).
    fn summary(&self) -> String;
}

/// A running export: the file and when it started, and the run itself.
struct ExportTask<R> {
    /// Where the file goes (natively), or its name (the download's).
    path: PathBuf,
    started: Instant,
    run: R,
}

/// An export dialog for the files `E` makes, and its running export.
pub struct Dialog<E: Exporter> {
    /// Whether the dialog is showing.
    pub(crate) open: bool,
    /// The file path being edited.
    pub(crate) path: String,
    /// The settings of this kind of export that live as long as the
    /// dialog (not remembered between runs).
    pub(crate) exporter: E,
    task: Option<ExportTask<E::Run>>,
    /// The native save dialog, and the extension its answer gets when it
    /// has none.
    #[cfg(not(target_arch = "wasm32"))]
    browse: Option<(FileDialog, &'static str)>,
    /// A hint under the path field (e.g. the file dialog could not open).
    hint: Option<String>,
    /// Result of the last export, shown in the dialog.
    outcome: Option<Message>,
    /// A file that exists, which Export would replace: the dialog asks
    /// before it does.
    replacing: Option<PathBuf>,
    /// Whether the dialog comes to the front when next drawn (it was just
    /// opened: over another dialog, it is the one in use).
    raise: bool,
    /// The left edge of the preview, set each frame by the app
    /// ([`Dialog::keep_off`]): the dialog is made narrow enough to stand
    /// left of it, over the controls, leaving the frame in sight.
    preview_left: f32,
    /// The form's height in the last frame, and the tallest it has been
    /// (two frames running) since the dialog opened: the buttons stay
    /// below that, so they never move up under the cursor as the form's
    /// lines come and go.
    form_size: (f32, f32),
}

/// The gap between a dialog and the window's edge, or the preview.
const MARGIN: f32 = 12.0;

/// The narrowest a dialog's form is made to stand beside the preview
/// ([`Dialog::keep_off`]).
const COMPACT_WIDTH: f32 = 300.0;

/// The file to write for `typed`, a path typed or chosen: with
/// `.{extension}` added when it has no extension (`noext` →
/// `noext.png`).
fn file_path(typed: &str, extension: &str) -> PathBuf {
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
fn target(
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

/// Runs `work` on a thread named `name`; its result arrives on the
/// returned channel.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn on_thread(
    name: &str,
    work: impl FnOnce() -> crate::Result<bool> + Send + 'static,
) -> Result<std::sync::mpsc::Receiver<crate::Result<bool>>, String> {
    let (tx, done) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| format!("could not start the export: {e}"))?;
    Ok(done)
}

/// Offers `bytes` as a download named after `path` (`fallback` when it
/// names no file): the browser's way of saving.
#[cfg(target_arch = "wasm32")]
pub(crate) fn deliver(
    path: &Path,
    fallback: &str,
    bytes: &[u8],
    mime: &str,
) -> crate::Result<bool> {
    deliver_worker_result(path, fallback, Ok(js_sys::Uint8Array::from(bytes)), mime)
}

/// Like [`deliver`], the bytes an export's worker made, or why it failed.
#[cfg(target_arch = "wasm32")]
pub(crate) fn deliver_worker_result(
    path: &Path,
    fallback: &str,
    result: Result<js_sys::Uint8Array, String>,
    mime: &str,
) -> crate::Result<bool> {
    let name = path.file_name().map_or_else(
        || fallback.to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    result
        .and_then(|bytes| crate::app::web::download(&name, &bytes, mime))
        .map_err(|e| crate::Error::Io {
            path: path.to_path_buf(),
            error: std::io::Error::other(e),
        })?;
    Ok(true)
}

impl<E: Exporter> Default for Dialog<E> {
    fn default() -> Self {
        Dialog {
            open: false,
            path: String::new(),
            exporter: E::default(),
            task: None,
            #[cfg(not(target_arch = "wasm32"))]
            browse: None,
            hint: None,
            outcome: None,
            replacing: None,
            raise: false,
            preview_left: 0.0,
            form_size: (0.0, 0.0),
        }
    }
}

impl<E: Exporter> Dialog<E> {
    /// Opens the dialog. Unless an export is running, `fresh` sets the
    /// exporter's fields for this scene and names the file proposed in
    /// `folder` (else the working directory).
    pub fn open_with(&mut self, folder: Option<&Path>, fresh: impl FnOnce(&mut E) -> String) {
        self.open = true;
        self.raise = true;
        self.outcome = None;
        self.hint = None;
        self.replacing = None;
        self.form_size = (0.0, 0.0);
        if self.task.is_none() {
            let name = fresh(&mut self.exporter);
            let path = match folder {
                Some(dir) => dir.join(name),
                None => std::path::absolute(&name).unwrap_or_else(|_| PathBuf::from(name)),
            };
            self.path = path.display().to_string();
        }
    }

    /// Keeps the dialog off the preview, whose left edge is at `left`
    /// (points): where the controls beside it leave room, the dialog
    /// stands over them, no wider than they are.
    pub fn keep_off(&mut self, left: f32) {
        self.preview_left = left;
    }

    /// Whether the dialog is showing.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// The dialog's window's layer: which of two dialogs is in front.
    pub fn layer(&self) -> egui::LayerId {
        egui::LayerId::new(egui::Order::Middle, Self::window_id())
    }

    fn window_id() -> egui::Id {
        egui::Id::unique(E::ID)
    }

    /// Whether an export is running.
    pub fn running(&self) -> bool {
        self.task.is_some()
    }

    /// A short line for the status bar while an export runs with the
    /// dialog closed.
    pub fn status_line(&self) -> Option<String> {
        let task = self.task.as_ref()?;
        (!self.open).then(|| task.run.status_line())
    }

    /// Collects the file dialog's answer; moves a running export on and
    /// collects its result into `message`.
    pub fn poll(&mut self, message: &mut Option<Message>) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some((dialog, extension)) = &mut self.browse
            && let Some(result) = dialog.poll()
        {
            match result {
                Some(path) => {
                    self.path = file_path(&path.display().to_string(), extension)
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
            self.browse = None;
        }
        let Some(task) = &mut self.task else { return };
        let Some(result) = task.run.advance() else {
            return;
        };
        let took = crate::output::picture::duration_text(task.started.elapsed());
        #[cfg(not(target_arch = "wasm32"))]
        let (saved, name) = ("Saved", task.path.display().to_string());
        #[cfg(target_arch = "wasm32")]
        let (saved, name) = ("Downloaded", crate::app::files::display_name(&task.path));
        let outcome = match result {
            Ok(true) => Message {
                text: format!("{saved} {name} ({}, {took})", task.run.summary()),
                error: false,
            },
            Ok(false) => Message {
                text: "Export cancelled; no file written".to_string(),
                error: false,
            },
            Err(e) => Message {
                text: format!("{} failed: {e}", E::ACTION),
                error: true,
            },
        };
        *message = Some(outcome.clone());
        self.outcome = Some(outcome);
        self.task = None;
    }

    /// Starts exporting `scene` with `settings` to the path in the field
    /// (the file's extension added when it has none). A file that exists
    /// is replaced only once `replace` says so: else the dialog asks first.
    pub fn start(
        &mut self,
        settings: &mut E::Settings,
        scene: &Scene,
        replace: bool,
    ) -> Result<(), String> {
        if self.task.is_some() {
            return Err("an export is already running".to_string());
        }
        let extension = E::extension(settings);
        let Some(path) = target(&mut self.path, extension, replace, &mut self.replacing)? else {
            return Ok(());
        };
        let request = self.exporter.prepare(settings, scene)?;
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            if !dir.is_dir() {
                return Err(format!(
                    "folder {} does not exist",
                    crate::error::clip(&dir.display().to_string())
                ));
            }
            *E::folder(settings) = Some(dir.to_path_buf());
        }
        let run = E::launch(request, &path)?;
        self.task = Some(ExportTask {
            path,
            started: Instant::now(),
            run,
        });
        self.outcome = None;
        self.hint = None;
        Ok(())
    }

    /// [`Dialog::start`], its error shown in the dialog and returned as
    /// the message to show.
    fn start_or_report(
        &mut self,
        settings: &mut E::Settings,
        scene: &Scene,
        replace: bool,
    ) -> Option<Message> {
        let failed = Message {
            text: self.start(settings, scene, replace).err()?,
            error: true,
        };
        self.outcome = Some(failed.clone());
        Some(failed)
    }

    /// Draws the dialog when open; returns a message to show, if any.
    ///
    /// A window of its own, not a modal: it starts at the left, over the
    /// controls, so that the frame on the preview stays in sight (and the
    /// preview can still be zoomed and panned to judge it), and it can be
    /// moved by its title. Its buttons keep their places while its lines
    /// change: the line that reports (a question, the progress, the
    /// result) has a place kept for it.
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        settings: &mut E::Settings,
        scene: &Scene,
    ) -> Option<Message> {
        if !self.open {
            return None;
        }
        let mut message = None;
        let mut open = true;
        let width = self.width(ctx);
        let screen = ctx.content_rect();
        let start = egui::pos2(
            screen.left() + MARGIN.min((screen.width() - width) / 2.0).max(0.0),
            screen.top() + 36.0,
        );
        if std::mem::take(&mut self.raise) {
            ctx.move_to_top(self.layer());
        }
        egui::Window::new(E::TITLE)
            .id(Self::window_id())
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .default_pos(start)
            .constrain(true)
            .show(ctx, |ui| {
                ui.set_width(width);
                let running = self.task.is_some();
                let before = (settings.clone(), self.path.clone());
                let form = ui.scope(|ui| {
                    let mut enter = false;
                    ui.add_enabled_ui(!running, |ui| {
                        E::settings_ui(self, ui, settings, scene);
                        ui.add_space(4.0);
                        enter = self.file_ui(ui, settings);
                    });
                    enter
                });
                let enter = form.inner;
                if (settings.clone(), self.path.clone()) != before {
                    // A result or a question about other settings no longer
                    // says anything about these.
                    self.outcome = None;
                    self.hint = None;
                }
                // The buttons stay below the tallest the form has been:
                // a height it kept two frames running, in frames that are
                // shown (a new window's first frames, and a new grid's,
                // are laid out again before they are).
                let height = form.response.rect.height();
                let shown = !ui.is_sizing_pass() && !ui.ctx().will_discard();
                if shown {
                    if (height - self.form_size.0).abs() < 0.5 {
                        self.form_size.1 = self.form_size.1.max(height);
                    }
                    self.form_size.0 = height;
                }
                ui.add_space((self.form_size.1 - height).max(0.0));
                ui.add_space(6.0);
                let (asking, answer) = self.report_ui(ui, E::extension(settings));
                match answer {
                    Some(true) => message = self.start_or_report(settings, scene, true),
                    Some(false) => self.replacing = None,
                    None => {}
                }
                ui.add_space(6.0);
                let pressed = self.buttons_ui(ui, settings, scene, asking.is_some());
                message = pressed.or(message.take());
                if enter && !running && asking.is_none() && self.exporter.ready(settings, scene) {
                    message = self.start_or_report(settings, scene, false);
                }
            });
        let escape = ctx.input(|i| i.key_pressed(egui::Key::Escape));
        if (!open || escape) && self.task.is_none() {
            self.open = false;
        } else if !open {
            // Closed while it runs: the export goes on, as with Hide.
            self.open = false;
        }
        message
    }

    /// The dialog's width: [`Exporter::WIDTH`], or as narrow as the
    /// controls left of the preview, down to [`COMPACT_WIDTH`], so that
    /// it leaves the preview and its frame in sight; in a window too
    /// narrow for that (a phone's), as wide as fits with room around it.
    fn width(&self, ctx: &egui::Context) -> f32 {
        let screen = ctx.content_rect();
        // The window's frame and its inner margin take about 2 × 8 points
        // beyond the width given to the form.
        let beside = self.preview_left - screen.left() - 2.0 * MARGIN - 16.0;
        if beside >= COMPACT_WIDTH {
            E::WIDTH.min(beside)
        } else {
            E::WIDTH.min(screen.width() - 40.0)
        }
    }

    /// The file field and Browse… (natively). Returns whether Enter was
    /// pressed in the field: that exports, as in any save dialog.
    fn file_ui(&mut self, ui: &mut egui::Ui, settings: &E::Settings) -> bool {
        let width = self.width(ui.ctx());
        ui.horizontal(|ui| {
            let label = ui.label("File");
            let field = ui
                .add(egui::TextEdit::singleline(&mut self.path).desired_width(width - 160.0))
                .labelled_by(label.id);
            // In the browser the file is a download: no folders.
            #[cfg(not(target_arch = "wasm32"))]
            {
                let browsing = self.browse.is_some();
                let text = if browsing { "Waiting…" } else { "Browse…" };
                if ui.add_enabled(!browsing, egui::Button::new(text)).clicked() {
                    let start = PathBuf::from(self.path.trim());
                    let extension = E::extension(settings);
                    let dialog = FileDialog::save(&start, E::file_kind(settings), extension);
                    self.browse = Some((dialog, extension));
                }
            }
            #[cfg(target_arch = "wasm32")]
            let _ = settings;
            field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))
        })
        .inner
    }

    /// The line that reports, in the place kept for it (two lines high):
    /// the question before replacing a file, with its answers, the running
    /// export's progress bar, the last one's result, or a hint about the
    /// file field. Returns the file the dialog asks about, if it asks, and
    /// the answer given this frame: `Some(true)` replace, `Some(false)`
    /// keep it.
    ///
    /// The answers stand at the right of the question, away from Export
    /// (which waits greyed out in its place), as Krita's and Blender's
    /// questions do: the second click of a double-click on Export lands on
    /// nothing.
    fn report_ui(&self, ui: &mut egui::Ui, extension: &str) -> (Option<PathBuf>, Option<bool>) {
        let asking = self
            .replacing
            .as_ref()
            .filter(|p| **p == file_path(&self.path, extension))
            .cloned();
        let line = ui.text_style_height(&egui::TextStyle::Body);
        let (rect, _) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), 2.0 * line + 4.0),
            egui::Sense::hover(),
        );
        let mut ui = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        let visuals = ui.visuals().clone();
        if let Some(path) = &asking {
            let name = crate::app::files::display_name(path);
            let mut answer = None;
            ui.horizontal(|ui| {
                ui.add(
                    egui::Label::new(
                        RichText::new(format!("⚠ {name} already exists."))
                            .color(visuals.warn_fg_color),
                    )
                    .truncate(),
                );
            });
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .button("Keep")
                    .on_hover_text("Leave the file as it is")
                    .clicked()
                {
                    answer = Some(false);
                }
                if ui
                    .button("Replace")
                    .on_hover_text("Overwrite the file")
                    .clicked()
                {
                    answer = Some(true);
                }
                ui.colored_label(visuals.warn_fg_color, "Replace it?");
            });
            return (asking, answer);
        }
        let (text, color) = if let Some(task) = &self.task {
            let (fraction, text) = task.run.progress(task.started.elapsed());
            let text = if task.run.cancelling() {
                "Cancelling…".to_string()
            } else {
                text
            };
            ui.add(egui::ProgressBar::new(fraction).text(text).animate(true));
            ui.ctx().request_repaint_after(Duration::from_millis(50));
            return (None, None);
        } else if let Some(outcome) = &self.outcome {
            let color = if outcome.error {
                visuals.error_fg_color
            } else {
                visuals.text_color()
            };
            (outcome.text.clone(), color)
        } else if let Some(hint) = &self.hint {
            (hint.clone(), visuals.warn_fg_color)
        } else {
            return (None, None);
        };
        // At most two lines: a long path is cut short (the status bar
        // has the whole message).
        let mut job = egui::text::LayoutJob::single_section(
            text,
            egui::TextFormat::simple(egui::TextStyle::Body.resolve(ui.style()), color),
        );
        job.wrap = egui::text::TextWrapping {
            max_width: rect.width(),
            max_rows: 2,
            break_anywhere: true,
            overflow_character: Some('…'),
        };
        ui.label(job);
        (None, None)
    }

    /// The buttons, each in the same place whatever the dialog's state:
    /// Cancel and Hide while an export runs, else Export and Close (Export
    /// greyed out while the dialog asks, `asking`, whether to replace a
    /// file: the question has its own answers). Returns a message to
    /// show, if any.
    fn buttons_ui(
        &mut self,
        ui: &mut egui::Ui,
        settings: &mut E::Settings,
        scene: &Scene,
        asking: bool,
    ) -> Option<Message> {
        let mut message = None;
        let button = |text: &str| egui::Button::new(text).min_size(egui::vec2(80.0, 0.0));
        ui.horizontal(|ui| {
            if let Some(task) = &mut self.task {
                if ui.add(button("Cancel")).clicked() {
                    task.run.cancel();
                }
                if ui
                    .add(button("Hide"))
                    .on_hover_text("Keep exporting in the background")
                    .clicked()
                {
                    self.open = false;
                }
            } else {
                let ready = self.exporter.ready(settings, scene) && !asking;
                if ui.add_enabled(ready, button(E::ACTION)).clicked() {
                    message = self.start_or_report(settings, scene, false);
                }
                if ui.add(button("Close")).clicked() {
                    self.open = false;
                }
            }
        });
        message
    }
}
