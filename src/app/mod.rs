//! The desktop app: a live preview of the scene with every parameter at hand.
//!
//! The app is a thin front end over the library. Its state is plain data
//! ([`AppState`], persisted by eframe between runs); everything else in
//! [`PlayaApp`] is a cache or a handle to background work. Rendering never
//! runs on the UI thread: the preview worker ([`preview`]) and export jobs
//! ([`export`]) do it and send pixels back.
//!
//! [`PlayaApp::ui`] draws the whole window into any [`egui::Ui`], so the tests
//! drive the real UI with egui_kittest, without eframe or a GPU.

pub mod event;
pub mod explore;
pub mod export;
pub mod files;
pub mod history;
pub mod preview;
pub mod web;
pub mod window;

use std::time::Duration;

use web_time::Instant;

use serde::{Deserialize, Serialize};

use crate::explore::randomize::{self, Locks};
use crate::scene::Scene;
use explore::variations;
use export::animation::{AnimationExportDialog, AnimationExportSettings};
use export::png::{ExportDialog, ExportSettings};
use export::scene_file::{SceneFileDialog, SceneFileSettings};
use history::History;
use preview::Preview;
use preview::animate::{AnimateSettings, Playback};
use window::controls::Controls;

/// Key of the app state in eframe's storage.
const STORAGE_KEY: &str = "playa-app";

/// Key of the user's presets in eframe's storage, in the browser (natively
/// they are files, see [`crate::source::user_presets`]).
#[cfg(target_arch = "wasm32")]
const PRESETS_KEY: &str = "playa-presets";

/// The environment variable that, set and not blank, gives the web address
/// of the Share field's links in place of [`AppState::web_address`].
pub const WEB_URL_VAR: &str = "PLAYA_WEB_URL";

/// Everything the app remembers between runs, as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AppState {
    /// The scene being edited. Default: the default scene (death valley).
    pub scene: Scene,
    /// The name of what the scene was loaded from: a shipped preset's name,
    /// a file's name without its extension, or empty for a pasted scene or
    /// a link. Shown in the Preset box and naming exports.
    /// Default: "death-valley".
    pub preset: String,
    /// The share code of the scene as it was loaded: when the scene's own
    /// code differs, the Preset box adds "(edited)". Default: the default
    /// scene's code (empty in a state stored before it existed, and then
    /// taken from [`AppState::preset`] at start-up).
    #[serde(default)]
    pub loaded: String,
    /// Parameter groups that New scene and Vary leave alone. Default:
    /// the spiral.
    pub locks: Locks,
    /// Size and path of the last export.
    pub export: ExportSettings,
    /// Size, format and path of the last animation export.
    pub animation_export: AnimationExportSettings,
    /// Speed of the generation scrubber (its range is the generations
    /// setting's).
    pub animate: AnimateSettings,
    /// State of the dice: each roll advances it. Default: 0 (then seeded from
    /// the clock at start-up).
    pub dice: u64,
    /// The variations grid: open or not, its mode and Vary's strength.
    pub variations: variations::GridSettings,
    /// The address of playa's web page (e.g. `https://example.org/playa/`):
    /// with one, the Share field gives a link to the scene,
    /// `address#playa1-…` (see [`crate::share::link`]), instead of the bare
    /// code. [`WEB_URL_VAR`] wins when set. Default: empty (bare codes).
    pub web_address: String,
    /// The folder of the last "Save scene…".
    pub scene_file: SceneFileSettings,
}

impl AppState {
    /// What the Preset box shows for a scene whose share code is
    /// `scene_code`: where the scene came from, and "(edited)" once it
    /// differs from what was loaded.
    pub fn origin_label(&self, scene_code: &str) -> String {
        let origin = if self.preset.is_empty() {
            "pasted scene"
        } else {
            &self.preset
        };
        if scene_code == self.loaded {
            origin.to_string()
        } else {
            format!("{origin} (edited)")
        }
    }

    /// The web address the Share field makes links with: `env`, the value
    /// of [`WEB_URL_VAR`], when set and not blank, else
    /// [`AppState::web_address`] when not blank; `None`: bare codes.
    pub fn link_address<'a>(&'a self, env: Option<&'a str>) -> Option<&'a str> {
        [env, Some(&self.web_address)]
            .into_iter()
            .flatten()
            .map(str::trim)
            .find(|address| !address.is_empty())
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            scene: Scene::default(),
            preset: files::DEFAULT_PRESET.to_string(),
            loaded: crate::share::encode(&Scene::default()),
            locks: Locks::default(),
            export: ExportSettings::default(),
            animation_export: AnimationExportSettings::default(),
            animate: AnimateSettings::default(),
            dice: 0,
            variations: variations::GridSettings::default(),
            web_address: String::new(),
            scene_file: SceneFileSettings::default(),
        }
    }
}

/// Seconds a message stays in the status bar (errors twice as long): long
/// enough to read, and gone before it can describe a scene edited since.
const MESSAGE_SECONDS: f64 = 5.0;

/// A one-line message in the status bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The text, written to be read as it is.
    pub text: String,
    /// Whether it reports a failure (shown in red).
    pub error: bool,
}

/// The playa window: state, caches and background work.
pub struct PlayaApp {
    /// The persisted state; `state.scene` is what the preview shows.
    pub state: AppState,
    history: History<Scene>,
    preview: Preview,
    controls: Controls,
    playback: Playback,
    export: ExportDialog,
    animation_export: AnimationExportDialog,
    save_scene: SceneFileDialog,
    message: Option<Message>,
    /// More about the message, shown on hovering it: the message it
    /// belongs to, and the text (a roll's number).
    message_hover: Option<(Message, String)>,
    /// The message as last seen, and when it first showed (`ui.input`'s
    /// time), to let it expire; `None`: not seen yet.
    message_shown: Option<(Message, f64)>,
    /// The scene at the end of the last frame, to notice changes.
    last_scene: Scene,
    /// A dropped file being read (in the browser, files are read
    /// asynchronously).
    dropped: Option<files::FileDialog>,
    /// Whether an edit is in progress (a drag, typing, the animation).
    editing: bool,
    /// The scene in the page's address, in the browser.
    link: web::link::Link,
    trace: preview::trace::Trace,
    /// The variations grid's page and its thumbnails.
    grid: variations::Grid,
    /// Whether the narrow layout's drawer of controls is open (see
    /// [`phone`]).
    drawer_open: bool,
}

impl PlayaApp {
    /// An app showing `state`, with its preview worker started, the user's
    /// presets in their folder (see [`crate::source::user_presets::default_folder`];
    /// in the browser, none until [`PlayaApp::from_storage`]). A scene
    /// that fails validation (e.g. from an older version's storage) is
    /// replaced by the default.
    pub fn new(state: AppState) -> Self {
        PlayaApp::with_presets(state, default_store())
    }

    /// [`PlayaApp::new`] with the user's presets in `store`.
    pub fn with_presets(mut state: AppState, store: crate::source::user_presets::Store) -> Self {
        if let Err(e) = state.scene.validate() {
            log_line(&format!("stored scene ignored: {e}"));
            state.scene = Scene::default();
            state.preset = files::DEFAULT_PRESET.to_string();
            state.loaded = String::new();
        }
        if state.loaded.is_empty() {
            // Stored before the loaded scene was kept: the shipped preset
            // the state names, else the scene as it is.
            let preset = crate::scene::presets::load(&state.preset);
            state.loaded = crate::share::encode(preset.as_ref().unwrap_or(&state.scene));
        }
        if state.dice == 0 {
            state.dice = clock_seed();
        }
        let history = History::new(state.scene.clone());
        let controls = Controls::new(&state.scene, store);
        if state.preset.is_empty()
            && let Some(name) = controls.presets.preset_with_code(&state.loaded)
        {
            state.preset = name;
        }
        let last_scene = state.scene.clone();
        let trace = preview::trace::Trace::from_env();
        let mut preview = Preview::new();
        preview.forced_size = trace.forced_size();
        PlayaApp {
            state,
            history,
            preview,
            controls,
            playback: Playback::default(),
            export: ExportDialog::default(),
            animation_export: AnimationExportDialog::default(),
            save_scene: SceneFileDialog::default(),
            message: None,
            message_hover: None,
            message_shown: None,
            last_scene,
            dropped: None,
            editing: false,
            link: web::link::Link::default(),
            trace,
            grid: variations::Grid::new(),
            drawer_open: false,
        }
    }

    /// The app as eframe starts it: the stored state if there is one.
    pub fn from_storage(storage: Option<&dyn eframe::Storage>) -> Self {
        let state = storage
            .and_then(|s| eframe::get_value::<AppState>(s, STORAGE_KEY))
            .unwrap_or_default();
        // In the browser the user's presets are kept in the page's storage.
        #[cfg(target_arch = "wasm32")]
        {
            let texts = storage
                .and_then(|s| eframe::get_value(s, PRESETS_KEY))
                .unwrap_or_default();
            PlayaApp::with_presets(state, crate::source::user_presets::Store::in_memory(texts))
        }
        #[cfg(not(target_arch = "wasm32"))]
        PlayaApp::new(state)
    }

    /// Stores the state for the next start (eframe calls this on exit and
    /// every few seconds).
    pub fn save_to(&self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, STORAGE_KEY, &self.state);
        #[cfg(target_arch = "wasm32")]
        if let Some(texts) = self.controls.presets.store().texts() {
            eframe::set_value(storage, PRESETS_KEY, texts);
        }
    }

    /// The user's presets' names, as the picker last read them.
    pub fn user_presets(&self) -> Vec<&str> {
        self.controls.presets.names()
    }

    /// Whether the picker's thumbnail of `scene` is ready.
    pub fn has_thumbnail(&self, scene: &Scene) -> bool {
        self.controls
            .presets
            .has_thumbnail(&crate::share::encode(scene))
    }

    /// The scene being edited.
    pub fn scene(&self) -> &Scene {
        &self.state.scene
    }

    /// The message in the status bar, if any.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The preview on screen: whether it is the full-size render of the
    /// current scene (not a quick frame, not an older scene).
    pub fn preview_is_current(&self) -> bool {
        self.preview.is_current(&self.state.scene)
    }

    /// The scene the preview on screen was rendered from, if any.
    pub fn preview_scene(&self) -> Option<&Scene> {
        self.preview.shown_scene()
    }

    /// The variations grid's page and thumbnails.
    pub fn grid(&self) -> &variations::Grid {
        &self.grid
    }

    /// A hash of the pixels on screen, to tell pictures apart in tests.
    pub fn preview_fingerprint(&self) -> Option<u64> {
        self.preview.fingerprint()
    }

    /// Replaces the scene (as loading a preset, a file or a paste does) and
    /// says so in the status bar; `name` is the name the scene goes by
    /// from now on (see [`AppState::preset`]). One undo step.
    /// A scene with no name of its own (pasted, a link) that is exactly a
    /// preset goes by the preset's.
    pub fn load_scene(&mut self, scene: Scene, from: &str, name: &str) {
        self.state.loaded = crate::share::encode(&scene);
        let preset = Some(name)
            .filter(|name| name.is_empty())
            .and_then(|_| self.controls.presets.preset_with_code(&self.state.loaded));
        let text = match &preset {
            Some(preset) => format!("Loaded {from}: preset {preset}"),
            None => format!("Loaded {from}"),
        };
        self.state.preset = preset.unwrap_or_else(|| name.to_string());
        self.state.scene = scene;
        self.controls.sync(&self.state.scene);
        self.playback.stop();
        self.set_message(text, false);
    }

    /// Shows `text` in the status bar. Only there: what a person does in
    /// the window is no news for the terminal that started it.
    fn set_message(&mut self, text: impl Into<String>, error: bool) {
        self.message = Some(Message {
            text: text.into(),
            error,
        });
        self.message_shown = None;
    }

    /// Shows `text` in the status bar, with `hover` when it is hovered.
    fn set_message_with_hover(&mut self, text: String, hover: String) {
        self.set_message(text, false);
        self.message_hover = self.message.clone().map(|m| (m, hover));
    }

    /// Clears the message once it has shown long enough (however it was
    /// set: exports write theirs directly), before the status bar is drawn,
    /// and asks for the frame that will clear it.
    fn expire_message(&mut self, ctx: &egui::Context) {
        let Some(message) = &self.message else {
            self.message_shown = None;
            return;
        };
        let now = ctx.input(|i| i.time);
        let since = match &self.message_shown {
            Some((shown, since)) if shown == message => *since,
            _ => {
                self.message_shown = Some((message.clone(), now));
                now
            }
        };
        let seconds = if message.error {
            2.0 * MESSAGE_SECONDS
        } else {
            MESSAGE_SECONDS
        };
        let left = since + seconds - now;
        if left <= 0.0 {
            self.message = None;
            self.message_shown = None;
        } else {
            ctx.request_repaint_after(Duration::from_secs_f64(left));
        }
    }

    /// Draws the whole window into `ui` and runs one frame of the app.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let frame_start = Instant::now();
        let ctx = ui.ctx().clone();
        window::fonts::install(&ctx);
        if let Some(d) = self.preview.receive(&ctx) {
            self.trace.preview_shown(d.sent, d.ms, d.size, d.full);
            #[cfg(target_arch = "wasm32")]
            if d.full {
                web::picture_shown();
            }
        }
        self.grid.receive(&ctx);
        self.export.poll(&mut self.message);
        self.animation_export.poll(&mut self.message);
        self.save_scene.poll(&mut self.message);
        self.shortcuts(&ctx);
        self.dropped_files(&ctx);
        self.poll_dropped();
        self.pasted(&ctx);
        self.controls.can_undo = self.history.can_undo(&self.state.scene);
        self.controls.can_redo = self.history.can_redo(&self.state.scene);
        self.trace
            .bench_step(&mut self.state.scene, &mut self.preview);
        #[cfg(target_arch = "wasm32")]
        if let Some(size) = web::take_export_request() {
            self.export_for_bench(&size);
        }
        self.expire_message(&ctx);

        let mut grid_area = ctx.content_rect();
        egui::Panel::bottom("status")
            .frame(
                egui::Frame::side_top_panel(ui.style()).inner_margin(egui::Margin::symmetric(8, 4)),
            )
            .show(ui, |ui| self.status_ui(ui));
        let narrow = window::phone::is_narrow(&ctx);
        if narrow {
            self.top_bar_ui(ui);
            self.preview.margin = window::phone::NARROW_MARGIN;
        } else {
            self.drawer_open = false;
            self.preview.margin = preview::MARGIN;
            // The panel may widen to 520 points but always leaves the
            // preview 400: at 800 points wide, from 300 to 400.
            let widest = (ctx.content_rect().width() - 400.0).clamp(300.0, 520.0);
            egui::Panel::left("controls")
                .resizable(true)
                .default_size(360.0)
                .size_range(300.0..=widest)
                .show(ui, |ui| self.controls_ui(ui));
        }
        // The preview's background is the clear colour
        // ([`PlayaApp::clear_color`]): not filled again under the picture.
        egui::CentralPanel::no_frame().show(ui, |ui| {
            egui::Panel::bottom("timeline")
                .frame(
                    egui::Frame::side_top_panel(ui.style())
                        .inner_margin(egui::Margin::symmetric(10, 6)),
                )
                .show(ui, |ui| {
                    let ready = self.preview.is_current(&self.state.scene);
                    self.playback.ui(
                        ui,
                        &mut self.state.scene.automaton.generations,
                        &self.state.animate,
                        ready,
                    );
                });
            egui::CentralPanel::no_frame().show(ui, |ui| {
                let picture = self.state.export.pixels(&self.state.scene);
                self.preview.ui(ui, &mut self.state.scene, picture);
                grid_area = ui.max_rect();
            });
        });
        if narrow {
            self.drawer_ui(&ctx, grid_area);
        }
        let grid_events = self.grid.ui(&ctx, grid_area, &mut self.state.variations);
        self.adopt(grid_events);
        let speed = self.preview.ms_per_mpx();
        if let Some(msg) =
            self.export
                .ui(&ctx, &mut self.state.export, &mut self.state.scene, speed)
        {
            self.message = Some(msg);
        }
        if let Some(msg) = self.animation_export.ui(
            &ctx,
            &mut self.state.animation_export,
            &mut self.state.scene,
        ) {
            self.message = Some(msg);
        }
        if let Some(msg) = self
            .save_scene
            .show(&ctx, &mut self.state.scene_file, &self.state.scene)
        {
            self.message = Some(msg);
        }

        if self.state.scene != self.last_scene {
            self.controls.sync(&self.state.scene);
            self.last_scene = self.state.scene.clone();
        }
        let editing = ctx.input(|i| i.pointer.any_down())
            || self.playback.playing()
            || self.controls.editing_text();
        self.editing = editing;
        self.history.observe(&self.state.scene, editing);
        self.preview.request(&ctx, &self.state.scene);
        self.grid.update(
            &ctx,
            &self.state.variations,
            &self.state.scene,
            &self.state.locks,
            editing,
        );
        if self.message.as_ref() != self.message_shown.as_ref().map(|(m, _)| m) {
            // A message set after the status bar was drawn: show it now.
            ctx.request_repaint();
        }
        self.trace
            .frame(&ctx, frame_start, self.preview.in_flight());
        #[cfg(target_arch = "wasm32")]
        web::frame_drawn(self.export.running());
    }

    /// Exports the scene as a PNG of the dialog's size named `size` to
    /// `playa-bench.png`, as the dialog's Export button would: what a
    /// browser driver asks through [`web::request_export`].
    #[cfg(target_arch = "wasm32")]
    fn export_for_bench(&mut self, size: &str) {
        let Some(preset) = export::png::SizePreset::ALL
            .into_iter()
            .find(|p| p.label() == size)
        else {
            self.set_message(format!("no export size named {size:?}"), true);
            return;
        };
        self.state.export.size = preset;
        self.export
            .open_with(None, |_| "playa-bench.png".to_string());
        if let Err(e) = self
            .export
            .start(&mut self.state.export, &self.state.scene, true)
        {
            self.set_message(e, true);
        }
    }

    /// The controls in the rest of `ui` (the side panel, or the narrow
    /// layout's drawer), as wide as `ui` is: content wider than that (a
    /// scroll bar appearing beside it, a long name) is clipped instead of
    /// widening the panel, which would keep the width, and save it, once
    /// the content is narrow again.
    fn controls_ui(&mut self, ui: &mut egui::Ui) {
        let rect = ui.available_rect_before_wrap();
        let mut content = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        content.shrink_clip_rect(rect);
        let events = self.controls.ui(&mut content, &mut self.state);
        ui.advance_cursor_after_rect(rect);
        self.handle(events);
    }

    fn status_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 14.0;
            match self.preview.last_render() {
                Some(r) => {
                    ui.label(format!(
                        "Rendered {}×{} in {:.1} ms",
                        r.width, r.height, r.ms
                    ));
                }
                None => {
                    ui.label("Rendering…");
                }
            }
            if let Some(cells) = self.preview.cells() {
                ui.label(format!("{} live cells", thousands(cells)));
            }
            if let Some(err) = self.preview.error() {
                ui.colored_label(ui.visuals().error_fg_color, err);
            }
            if let Some(line) = self.export.status_line() {
                ui.label(line);
            }
            if let Some(line) = self.animation_export.status_line() {
                ui.label(line);
            }
            if let Some(msg) = &self.message {
                let color = if msg.error {
                    ui.visuals().error_fg_color
                } else {
                    ui.visuals().weak_text_color()
                };
                let label = ui
                    .add(egui::Label::new(egui::RichText::new(&msg.text).color(color)).truncate());
                if let Some((_, hover)) = self.message_hover.as_ref().filter(|(m, _)| m == msg) {
                    label.on_hover_text(hover);
                }
            }
        });
    }

    /// Applies what the side panel asked for.
    fn handle(&mut self, events: Vec<event::Event>) {
        use event::Event;
        for event in events {
            match event {
                Event::Dice => self.roll_dice(),
                Event::NewScene => {
                    let roll = self.next_roll();
                    let old = self.state.scene.clone();
                    self.state.scene = randomize::new_scene(&old, &self.state.locks, roll);
                    self.controls.sync(&self.state.scene);
                    let text = format!(
                        "New scene: {}",
                        randomize::describe(&old, &self.state.scene)
                    );
                    let hover = format!(
                        "{text}\nRoll 0x{roll:016x} (playa random --roll 0x{roll:016x} \
                         makes it again from the scene before)"
                    );
                    self.set_message_with_hover(text, hover);
                }
                Event::Load(result) => match result {
                    Ok((scene, from, name)) => self.load_scene(scene, &from, &name),
                    Err(e) => self.set_message(e, true),
                },
                Event::Message(text, error) => self.set_message(text, error),
                Event::OpenExport => self.open_export(),
                Event::OpenAnimationExport => self.open_animation_export(),
                Event::OpenSaveScene => self.open_save_scene(),
                Event::Undo => self.undo(),
                Event::Redo => self.redo(),
            }
        }
    }

    /// Carries out what was done in the variations grid: a candidate
    /// adopted becomes the scene (one undo step), a code copied is said.
    fn adopt(&mut self, events: Vec<variations::GridEvent>) {
        for event in events {
            match event {
                variations::GridEvent::Adopt(scene, number) => {
                    let changed = randomize::describe(&self.state.scene, &scene);
                    self.state.scene = scene;
                    self.controls.sync(&self.state.scene);
                    self.playback.stop();
                    self.set_message(format!("Variation {number} is the scene: {changed}"), false);
                }
                variations::GridEvent::Copied(code) => {
                    self.set_message(format!("Copied {code}"), false);
                }
            }
        }
    }

    /// Rolls a new seed for the scene.
    pub fn roll_dice(&mut self) {
        self.state.scene.seed = randomize::new_seed(self.next_roll());
        self.controls.sync(&self.state.scene);
    }

    fn next_roll(&mut self) -> u64 {
        self.state.dice = randomize::splitmix64(self.state.dice);
        self.state.dice
    }

    fn undo(&mut self) {
        if let Some(scene) = self.history.undo(&self.state.scene) {
            self.state.scene = scene;
            self.controls.sync(&self.state.scene);
            self.playback.stop();
        }
    }

    fn redo(&mut self) {
        if let Some(scene) = self.history.redo(&self.state.scene) {
            self.state.scene = scene;
            self.controls.sync(&self.state.scene);
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let redo_shift = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        let export = KeyboardShortcut::new(Modifiers::COMMAND, Key::E);
        let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        // A text field keeps its own undo and its own letters.
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let save = ctx.input_mut(|i| i.consume_shortcut(&save));
        let (redo, undo, export, dice, new_scene, play, fit, grid) = ctx.input_mut(|i| {
            // Ctrl+Shift+Z also matches Ctrl+Z logically: consume it first.
            let redo = i.consume_shortcut(&redo_shift) | i.consume_shortcut(&redo_y);
            (
                redo,
                i.consume_shortcut(&undo),
                i.consume_shortcut(&export),
                i.consume_key(Modifiers::NONE, Key::D),
                i.consume_key(Modifiers::NONE, Key::R),
                i.consume_key(Modifiers::NONE, Key::Space),
                i.consume_key(Modifiers::NONE, Key::F),
                i.consume_key(Modifiers::NONE, Key::V),
            )
        });
        if redo {
            self.redo();
        }
        if undo {
            self.undo();
        }
        if export {
            self.open_export();
        }
        if save {
            self.open_save_scene();
        }
        if dice {
            self.roll_dice();
        }
        if new_scene {
            self.handle(vec![event::Event::NewScene]);
        }
        if grid {
            self.state.variations.open = !self.state.variations.open;
        }
        if play {
            self.playback
                .toggle(&mut self.state.scene.automaton.generations);
        }
        if fit {
            self.preview.fit();
        }
    }

    fn open_export(&mut self) {
        self.export
            .open(&self.state.export, &self.state.preset, &self.state.scene);
    }

    fn open_save_scene(&mut self) {
        self.save_scene.open(
            &self.state.scene_file,
            &self.state.preset,
            &self.state.scene,
        );
    }

    fn open_animation_export(&mut self) {
        self.playback.stop();
        self.animation_export.open(
            &self.state.animation_export,
            &self.state.animate,
            &self.state.preset,
            &self.state.scene,
        );
    }

    /// Loads text pasted while no text field has focus.
    fn pasted(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let pasted = ctx.input(|i| {
            i.events.iter().find_map(|e| match e {
                egui::Event::Paste(text) => Some(text.clone()),
                _ => None,
            })
        });
        if let Some(text) = pasted {
            self.paste(&text);
        }
    }

    /// Loads a `.ron` preset or a playa `.png` dropped on the window.
    fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        let Some(file) = dropped.first() else {
            return;
        };
        // In the browser a dropped file is read asynchronously, then loaded
        // like a file chosen with Open….
        #[cfg(target_arch = "wasm32")]
        {
            self.dropped = Some(files::FileDialog::read_dropped(file.clone()));
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.load_dropped(file.path());
    }

    /// Loads a file read after a drop (in the browser).
    fn poll_dropped(&mut self) {
        let Some(reader) = &mut self.dropped else {
            return;
        };
        let Some(answer) = reader.poll() else { return };
        self.dropped = None;
        match answer.map(files::scene_from_picked) {
            Some((name, Ok(scene))) => self.load_scene(scene, &name, files::stem(&name)),
            Some((_, Err(e))) => self.set_message(e, true),
            None => self.set_message("the dropped file could not be read", true),
        }
    }

    /// Loads the `.ron` preset or playa `.png` at `path`, dropped on the
    /// window.
    #[cfg(not(target_arch = "wasm32"))]
    fn load_dropped(&mut self, path: &std::path::Path) {
        let result = if path.as_os_str().is_empty() {
            Err("the dropped item is not a file".to_string())
        } else {
            files::scene_from_path(path).map(|s| (s, files::display_name(path)))
        };
        match result {
            Ok((scene, name)) => self.load_scene(scene, &name, files::stem(&name)),
            Err(e) => self.set_message(e, true),
        }
    }

    /// Loads a pasted share code or RON scene; a bad paste changes nothing
    /// and says why.
    pub fn paste(&mut self, text: &str) {
        match files::scene_from_text(text) {
            Ok(scene) => self.load_scene(scene, "pasted scene", ""),
            Err(e) => self.set_message(e, true),
        }
    }

    /// Keeps the scene and the address's fragment in step (see
    /// [`link`]): a link's scene is loaded, committed edits are written.
    pub fn sync_link(&mut self, hash: &str) {
        match self.link.on_frame(hash, &self.state.scene, self.editing) {
            web::link::LinkAction::None => {}
            web::link::LinkAction::Load(code) => match files::scene_from_text(&code) {
                Ok(scene) => self.load_scene(scene, "the link", ""),
                Err(e) => self.set_message(e, true),
            },
            web::link::LinkAction::Write(_code) => {
                #[cfg(target_arch = "wasm32")]
                web::replace_fragment(&_code);
            }
        }
    }

    /// Whether thumbnails (the variations grid's, the preset picker's) are
    /// still being rendered.
    pub fn thumbnails_rendering(&self) -> bool {
        self.grid.in_flight() || self.controls.presets.rendering()
    }

    /// Whether background work (a preview, an export, the picker's
    /// thumbnails) is still running.
    pub fn busy(&self) -> bool {
        self.preview.in_flight()
            || self.grid.in_flight()
            || self.export.running()
            || self.animation_export.running()
            || self.save_scene.running()
            || self.controls.presets.rendering()
    }
}

impl eframe::App for PlayaApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.trace
            .last_frame_cpu(frame.info().cpu_usage, self.preview.in_flight());
        PlayaApp::ui(self, ui);
        #[cfg(target_arch = "wasm32")]
        self.sync_link(&frame.info().web_info.location.hash);
        if self.trace.should_close() {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    /// The preview panel's background, which the panel leaves unfilled:
    /// where the window is painted in software (Mesa's llvmpipe, on a
    /// machine or VM without a GPU), filling it every frame under the
    /// picture costs as much as drawing the picture.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.extreme_bg_color.to_normalized_gamma_f32()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.save_to(storage);
    }

    /// Often, so a crash or a kill loses little (the state is small).
    fn auto_save_interval(&self) -> Duration {
        Duration::from_secs(5)
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.trace.finish();
    }
}

/// Opens the playa window on the last scene (or the default preset) and
/// runs until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run() -> crate::Result<()> {
    // The preview renders again at every change: its buffers are reused
    // rather than faulted in afresh each time.
    crate::base::allocator::keep_freed_memory();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("playa")
            .with_app_id("playa")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([720.0, 480.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "playa",
        options,
        Box::new(|cc| {
            setup_style(&cc.egui_ctx);
            Ok(Box::new(PlayaApp::from_storage(cc.storage)))
        }),
    )
    .map_err(|e| crate::Error::Io {
        path: "display".into(),
        error: std::io::Error::other(format!(
            "cannot open the playa window ({e}); `playa render` makes pictures without one"
        )),
    })
}

/// The store of the user's presets: their folder natively (in memory,
/// with a line saying why, when there is none); in the browser, empty
/// until [`PlayaApp::from_storage`] reads it.
fn default_store() -> crate::source::user_presets::Store {
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::source::user_presets::Store::from_env().unwrap_or_else(|e| {
            log_line(&format!("{e}; your presets are kept until playa closes"));
            crate::source::user_presets::Store::in_memory(Default::default())
        })
    }
    #[cfg(target_arch = "wasm32")]
    crate::source::user_presets::Store::in_memory(Default::default())
}

/// Look and feel: the dark theme with slightly roomier controls.
fn setup_style(ctx: &egui::Context) {
    ctx.set_theme(egui::Theme::Dark);
    ctx.global_style_mut(|style| {
        style.spacing.item_spacing = egui::vec2(8.0, 6.0);
        style.spacing.slider_width = 170.0;
    });
}

/// A seed for the dice from the clock: a different sequence every start.
fn clock_seed() -> u64 {
    let nanos = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_nanos();
    #[cfg(not(target_arch = "wasm32"))]
    let nanos = nanos ^ u128::from(std::process::id());
    randomize::splitmix64(nanos as u64).max(1)
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Writes a line to stderr (the app has no console of its own; this is
/// for whoever started it from a terminal).
fn log_line(text: &str) {
    eprintln!("playa: {text}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn state_round_trips_and_tolerates_missing_fields() {
        let state = AppState::default();
        let text = ron::to_string(&state).unwrap();
        let back: AppState = ron::from_str(&text).unwrap();
        assert_eq!(back, state);
        let partial: AppState = ron::from_str("(preset: \"night\")").unwrap();
        assert_eq!(partial.preset, "night");
        assert_eq!(partial.scene, Scene::default());
        assert_eq!(partial.web_address, "");
        let with_address = AppState {
            web_address: "https://example.org/playa/".into(),
            ..AppState::default()
        };
        let text = ron::to_string(&with_address).unwrap();
        assert_eq!(ron::from_str::<AppState>(&text).unwrap(), with_address);
    }

    #[test]
    fn a_state_stored_by_an_older_version_comes_back_without_stale_parts() {
        let badlands = crate::scene::presets::load("badlands").unwrap();
        let stored = format!(
            "(scene: {}, preset: \"badlands\", animate: (last: 251, fps: 9.0))",
            ron::to_string(&badlands).unwrap()
        );
        let state: AppState = ron::from_str(&stored).unwrap();
        // The scrubber's old end is not read: its range is the setting's.
        assert_eq!(state.animate.fps, 9.0);
        assert_eq!(state.loaded, "");
        let app = PlayaApp::new(state);
        let code = crate::share::encode(&badlands);
        assert_eq!(app.state.loaded, code);
        assert_eq!(app.state.origin_label(&code), "badlands");
        let edited = crate::share::encode(&Scene {
            seed: 3,
            ..badlands
        });
        assert_eq!(app.state.origin_label(&edited), "badlands (edited)");
    }

    #[test]
    fn the_environment_wins_over_the_setting_when_not_blank() {
        let mut state = AppState::default();
        assert_eq!(state.link_address(None), None);
        assert_eq!(state.link_address(Some(" ")), None);
        state.web_address = " https://a.example/playa/ ".into();
        assert_eq!(state.link_address(None), Some("https://a.example/playa/"));
        assert_eq!(
            state.link_address(Some("")),
            Some("https://a.example/playa/")
        );
        assert_eq!(
            state.link_address(Some("http://b.example/")),
            Some("http://b.example/")
        );
        state.web_address = "  ".into();
        assert_eq!(state.link_address(None), None);
        assert_eq!(
            state.link_address(Some("http://b.example/")),
            Some("http://b.example/")
        );
    }
}
