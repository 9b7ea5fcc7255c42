//! The app under egui_kittest, as the UI tests drive it: a harness of the
//! app's real UI (no GPU, no window), frames run until the preview is
//! current or background work is done, and the inputs a desktop gives it
//! (typed paths, dropped files, eframe's storage).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use playa::app::{AppState, PlayaApp};

/// The app on its default state, its first preview on screen.
pub fn harness() -> Harness<'static, PlayaApp> {
    harness_with(AppState::default())
}

/// The app on `state`, its first preview on screen.
pub fn harness_with(state: AppState) -> Harness<'static, PlayaApp> {
    harness_of(PlayaApp::new(state))
}

/// `app` in a 1280×800 window, its first preview on screen.
pub fn harness_of(app: PlayaApp) -> Harness<'static, PlayaApp> {
    harness_sized(app, [1280.0, 800.0])
}

/// `app` in a window of `size` points, its first preview on screen.
pub fn harness_sized(app: PlayaApp, size: [f32; 2]) -> Harness<'static, PlayaApp> {
    let mut h = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut PlayaApp| app.ui(ui), app);
    settle(&mut h);
    h
}

/// Runs frames until the full preview of the current scene is on screen
/// (the worker renders on its own thread), no thumbnail is on its way (each
/// that arrives asks for a frame) and the UI is idle; bounded, so a broken
/// worker fails the test instead of hanging it.
pub fn settle(h: &mut Harness<'_, PlayaApp>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        h.step();
        if h.state().preview_is_current() && !h.state().thumbnails_rendering() {
            // One more frame so the UI shows what arrived, then settle.
            h.step();
            h.run();
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no preview of the current scene within 60 s");
}

/// Steps frames until background work (an export) is over, then lets the
/// UI settle; bounded. The first frame takes a click that starts the work.
pub fn wait_idle(h: &mut Harness<'_, PlayaApp>) {
    let deadline = Instant::now() + Duration::from_secs(120);
    h.step();
    while h.state().busy() {
        assert!(Instant::now() < deadline, "the export did not finish");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
    h.run();
}

/// The text of the text field labelled `label`.
pub fn field(h: &Harness<'_, PlayaApp>, label: &str) -> String {
    h.get_by_role_and_label(Role::TextInput, label)
        .value()
        .expect("a text field has a value")
}

/// Types `path` into the open dialog's File field, replacing what it held.
pub fn type_path(h: &mut Harness<'_, PlayaApp>, path: &Path) {
    let field = h.get_by_role_and_label(Role::TextInput, "File");
    field.focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    field.type_text(path.to_str().unwrap());
    settle(h);
}

/// What the last frame put on the clipboard, if anything.
pub fn copied(h: &Harness<'_, PlayaApp>) -> Option<String> {
    h.output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
}

/// A file dropped on the window.
#[derive(Debug)]
pub struct Dropped(pub PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Drops the file at `path` on the window and settles.
pub fn drop_file(h: &mut Harness<'_, PlayaApp>, path: &Path) {
    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(path.to_path_buf())));
    settle(h);
}

/// eframe's storage, in memory.
#[derive(Default)]
pub struct MemoryStorage(pub std::collections::HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// Focuses the text field labelled `label`, selects all and types `text`
/// (one key at a time, as a person does), without committing.
pub fn type_into(h: &mut Harness<'_, PlayaApp>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    for c in text.chars() {
        h.get_by_role_and_label(Role::TextInput, label)
            .type_text(&c.to_string());
        h.step();
    }
}

/// The status bar's message, if any.
pub fn message(h: &Harness<'_, PlayaApp>) -> Option<String> {
    h.state().message().map(|m| m.text.clone())
}

/// The text the Preset box shows.
pub fn preset_box(h: &Harness<'_, PlayaApp>) -> String {
    h.get_by_role_and_label(Role::ComboBox, "Preset")
        .value()
        .expect("the preset box shows a name")
}

/// Every label's text (or value) in the UI.
pub fn labels(h: &Harness<'_, PlayaApp>) -> Vec<String> {
    h.query_all_by_role(Role::Label)
        .filter_map(|n| n.accesskit_node().label().or(n.accesskit_node().value()))
        .collect()
}

/// The zoom read-out over the preview ("47%").
pub fn zoom_label(h: &Harness<'_, PlayaApp>) -> String {
    labels(h)
        .into_iter()
        .find(|l| {
            l.strip_suffix('%')
                .is_some_and(|n| n.parse::<f32>().is_ok())
        })
        .expect("a zoom read-out")
}

/// A picture the last frame painted: a mesh with a texture other than
/// egui's font atlas.
#[derive(Clone, Copy, Debug)]
pub struct Picture {
    /// Where the texture is drawn, before clipping.
    pub rect: egui::Rect,
    /// The part of the texture drawn there (0 to 1).
    pub uv: egui::Rect,
    /// The clip rectangle it is drawn in.
    pub clip: egui::Rect,
}

/// The pictures the last frame painted, in painting order.
pub fn pictures(h: &Harness<'_, PlayaApp>) -> Vec<Picture> {
    h.output()
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Mesh(mesh) if mesh.texture_id != egui::TextureId::default() => {
                let rect = |points: Vec<egui::Pos2>| egui::Rect::from_points(&points);
                Some(Picture {
                    rect: rect(mesh.vertices.iter().map(|v| v.pos).collect()),
                    uv: rect(mesh.vertices.iter().map(|v| v.uv).collect()),
                    clip: clipped.clip_rect,
                })
            }
            _ => None,
        })
        .collect()
}

/// Waits, up to 10 s of frames, until a label containing `text` shows:
/// a tooltip shows after a short delay, on a busy machine a few frames
/// later. Hover once before: hovering again restarts the delay.
pub fn await_label(h: &mut Harness<'_, PlayaApp>, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        h.step();
        if h.query_by_label_contains(text).is_some() {
            return;
        }
        assert!(Instant::now() < deadline, "no {text:?} within 10 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}
