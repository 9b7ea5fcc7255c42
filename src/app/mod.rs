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
pub mod state;
pub mod web;
pub mod window;

#[cfg(test)]
mod tests;

use std::time::Duration;

use web_time::Instant;

use crate::explore::randomize;
use crate::scene::Scene;
use explore::variations;
use export::animation::AnimationExportDialog;
use export::png::ExportDialog;
use export::scene_file::SceneFileDialog;
use history::History;
use preview::Preview;
use preview::animate::Playback;
use state::{clock_seed, default_store, log_line};
use window::controls::Controls;

pub use state::{AppState, Message, WEB_URL_VAR};
#[cfg(not(target_arch = "wasm32"))]
pub use window::run;

/// Key of the app state in eframe's storage.
const STORAGE_KEY: &str = "playa-app";

/// Key of the user's presets in eframe's storage, in the browser (natively
/// they are files, see [`crate::source::user_presets`]).
#[cfg(target_arch = "wasm32")]
const PRESETS_KEY: &str = "playa-presets";

/// Seconds a message stays in the status bar (errors twice as long): long
/// enough to read, and gone before it can describe a scene edited since.
const MESSAGE_SECONDS: f64 = 5.0;

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
    /// The side panel's width: the one the user chose (the default until
    /// they drag its edge), the one shown in the last frame, and the
    /// window's width then.
    panel_width: (f32, f32, f32),
    /// Which of the two export dialogs was last in front: the one whose
    /// frame the preview shows while both are open.
    front: preview::Framed,
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
    /// The scene's traits in a sentence, shown under the preview, and the
    /// scene they were read from (read again when it changes).
    traits: Option<(Scene, crate::traits::Traits)>,
    /// Whether the narrow layout's drawer of controls is open (see
    /// [`phone`]).
    drawer_open: bool,
    /// Whether a narrow window takes the phone's layout: in the browser
    /// (a phone's screen); a desktop window keeps the side panel however
    /// narrow it is made.
    narrow_layout: bool,
}

impl PlayaApp {
    /// Which export dialog's frame the preview shows: the open one's, or
    /// while both are open the one in front (the last one opened or
    /// clicked); none while neither is.
    fn framed(&mut self, ctx: &egui::Context) -> Option<preview::Framed> {
        let top = ctx.memory(|m| m.areas().top_layer_id(egui::Order::Middle));
        if top == Some(self.export.layer()) {
            self.front = preview::Framed::Png;
        } else if top == Some(self.animation_export.layer()) {
            self.front = preview::Framed::Animation;
        }
        match (self.export.is_open(), self.animation_export.is_open()) {
            (false, false) => None,
            (true, false) => Some(preview::Framed::Png),
            (false, true) => Some(preview::Framed::Animation),
            (true, true) => Some(self.front),
        }
    }

    /// The scene's traits, in a sentence under the preview ("Dune sea at
    /// dawn, wind from the west, …"); hovering it lists them one per line.
    fn traits_ui(&mut self, ui: &mut egui::Ui) {
        let scene = &self.state.scene;
        if self.traits.as_ref().is_none_or(|(of, _)| of != scene) {
            self.traits = Some((scene.clone(), crate::traits::Traits::of(scene)));
        }
        if let Some((_, traits)) = &self.traits {
            ui.add(egui::Label::new(egui::RichText::new(traits.sentence()).small()).truncate())
                .on_hover_text(traits.lines().trim_end());
        }
    }

    /// An app showing `state`, with its preview worker started, the user's
    /// presets in their folder (see [`crate::source::user_presets::default_folder`];
    /// in the browser, none until [`PlayaApp::from_storage`]). A scene
    /// that fails validation (e.g. from an older version's storage) is
    /// replaced by the default.
    pub fn new(state: AppState) -> Self {
        PlayaApp::with_presets(state, default_store())
    }

    /// The app as the browser runs it: a narrow window (a phone's) takes
    /// the phone's layout ([`window::phone`]). The browser's app is so
    /// from the start; this is for trying that layout natively.
    pub fn with_narrow_layout(mut self) -> Self {
        self.narrow_layout = true;
        self
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
            traits: None,
            export: ExportDialog::default(),
            animation_export: AnimationExportDialog::default(),
            save_scene: SceneFileDialog::default(),
            front: preview::Framed::Png,
            panel_width: (PANEL_WIDTH, PANEL_WIDTH, 0.0),
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
            narrow_layout: cfg!(target_arch = "wasm32"),
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
        self.preview.is_current(&self.on_view())
    }

    /// The scene as the preview shows it: the scene, or while Play's run is
    /// on view, the scene at the run's generation.
    pub fn on_view(&self) -> std::borrow::Cow<'_, Scene> {
        match self.playback.on_view(&self.state.scene) {
            Some(scene) => std::borrow::Cow::Owned(scene),
            None => std::borrow::Cow::Borrowed(&self.state.scene),
        }
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
        let narrow = self.narrow_layout && window::phone::is_narrow(&ctx);
        self.grid.narrow = narrow;
        if narrow {
            self.top_bar_ui(ui);
            self.preview.margin = window::phone::NARROW_MARGIN;
        } else {
            self.drawer_open = false;
            self.preview.margin = preview::MARGIN;
            // The panel may widen to 520 points but always leaves the
            // preview 400: at 800 points wide, from 300 to 400.
            let window = ctx.content_rect().width();
            let widest = (window - 400.0).clamp(300.0, 520.0);
            // The width the user chose (or the default) comes back when a
            // narrow window that squeezed the panel is made wide again.
            let (chosen, shown, last_window) = self.panel_width;
            let want = chosen.min(widest);
            let mut panel = egui::Panel::left("controls")
                .resizable(true)
                .default_size(PANEL_WIDTH)
                .size_range(300.0..=widest);
            let restore = shown < want - 0.5;
            if restore {
                panel = panel.exact_size(want);
            }
            let width = panel
                .show(ui, |ui| self.controls_ui(ui))
                .response
                .rect
                .width();
            // A change of width in a window of the same width is the
            // user's, dragging the panel's edge.
            let chosen = if !restore && window == last_window && (width - shown).abs() > 0.5 {
                width
            } else {
                chosen
            };
            self.panel_width = (chosen, width, window);
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
                    self.traits_ui(ui);
                    let ready = self.preview.is_current(&self.on_view());
                    if let Some(generation) = self.playback.ui(
                        ui,
                        self.state.scene.automaton.generations,
                        &self.state.animate,
                        ready,
                    ) {
                        self.state.scene.automaton.generations = generation;
                    }
                });
            egui::CentralPanel::no_frame().show(ui, |ui| {
                // The frame of the export dialog that is open (of the one in
                // front, when both are); none when neither is.
                let framed = match self.framed(ui.ctx()) {
                    Some(preview::Framed::Animation) => (
                        self.state.animation_export.pixels(&self.state.scene),
                        Some(preview::Framed::Animation),
                    ),
                    framed => (self.state.export.pixels(&self.state.scene), framed),
                };
                // A run on view is drawn from a copy; the tent dragged on
                // it moves in the scene.
                match self.playback.on_view(&self.state.scene) {
                    Some(mut on_view) => {
                        self.preview.ui(ui, &mut on_view, framed);
                        self.state.scene.layers = on_view.layers;
                    }
                    None => self.preview.ui(ui, &mut self.state.scene, framed),
                }
                grid_area = ui.max_rect();
            });
        });
        if narrow {
            self.drawer_ui(&ctx, grid_area);
        }
        let grid_events = self.grid.ui(&ctx, grid_area, &mut self.state.variations);
        self.adopt(grid_events);
        let speed = self.preview.ms_per_mpx();
        // The dialogs stand beside the preview, where there is room.
        self.export.keep_off(grid_area.left());
        self.animation_export.keep_off(grid_area.left());
        self.save_scene.keep_off(grid_area.left());
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

        // No edit takes the scene past its cost limit: one that would (a
        // layer added or made visible, the horizon raised) is undone,
        // saying why. (The layers' sliders already end at the limit.)
        if self.state.scene != self.last_scene
            && let Err(e) = self.state.scene.check_cost()
            && self.last_scene.check_cost().is_ok()
        {
            self.state.scene = self.last_scene.clone();
            self.set_message(format!("Not applied: {e}"), true);
        }
        if self.state.scene != self.last_scene {
            self.controls.sync(&self.state.scene);
            self.last_scene = self.state.scene.clone();
        }
        let pointer_down = ctx.input(|i| i.pointer.any_down());
        let editing = pointer_down || self.controls.editing_text();
        self.editing = editing;
        self.history.observe(&self.state.scene, editing);
        match self.playback.on_view(&self.state.scene) {
            Some(on_view) => self.preview.request(&ctx, &on_view, pointer_down),
            None => self.preview.request(&ctx, &self.state.scene, pointer_down),
        }
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

    /// Applies what the side panel asked for.
    fn handle(&mut self, events: Vec<event::Event>) {
        use event::Event;
        for event in events {
            match event {
                Event::Dice => self.roll_dice(),
                Event::NewScene => {
                    if let Some(why) = randomize::cannot_roll(&self.state.scene, &self.state.locks)
                    {
                        self.set_message(why, true);
                        continue;
                    }
                    let roll = self.next_roll();
                    let old = self.state.scene.clone();
                    self.state.scene = randomize::new_scene(&old, &self.state.locks, roll);
                    // A new picture, named for what it is: its composition
                    // and its roll ("dune-sea-7f3a"), not "… (edited)".
                    self.state.preset = rolled_name(&self.state.scene, roll);
                    self.state.loaded = crate::share::encode(&self.state.scene);
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

    /// Keeps the scene and the address's fragment in step (see
    /// [`web::link`]): a link's scene is loaded, committed edits are written.
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

/// The name of a scene New scene rolled with `roll`: its composition and
/// the roll's last four hex digits, as a file's name would have them
/// ("dune-sea-7f3a"; the whole roll is in the message's hover).
fn rolled_name(scene: &Scene, roll: u64) -> String {
    let traits = crate::traits::Traits::of(scene);
    let composition = traits.name(crate::traits::ARCHETYPE).to_lowercase();
    format!("{}-{:04x}", composition.replace(' ', "-"), roll & 0xffff)
}

/// The side panel's width at first, points.
const PANEL_WIDTH: f32 = 372.0;
