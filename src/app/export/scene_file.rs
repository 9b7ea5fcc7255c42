//! "Save scene…": the scene as a `.ron` file, the file `playa render` and
//! Open… read back to the same scene.
//!
//! It is the export dialog ([`Dialog`]) with nothing to set: a file (the
//! native save dialog or a typed path; in the browser a download), a
//! question before a file is replaced, and the file written whole or not
//! at all ([`crate::base::atomic`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

#[cfg(target_arch = "wasm32")]
use crate::app::export::dialog::deliver;
#[cfg(not(target_arch = "wasm32"))]
use crate::app::export::dialog::on_thread;
use crate::app::export::dialog::{Dialog, Exporter, Run};
use crate::scene::Scene;

/// "Save scene…" settings remembered between runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SceneFileSettings {
    /// Folder of the last scene saved. Default: the working directory.
    pub folder: Option<PathBuf>,
}

/// The text of a saved scene: the scene as RON, every field written out,
/// quantized as every scene is when it is rendered (so the file, the share
/// code and the pixels agree).
pub fn scene_text(scene: &Scene) -> String {
    let mut text = scene.quantized().to_commented_ron();
    text.push('\n');
    text
}

/// The file name proposed for `scene`, known as `preset`:
/// `{preset}-{seed}.ron` (`scene-{seed}.ron` for a pasted one), as
/// exports are named.
pub fn default_file_name(preset: &str, scene: &Scene) -> String {
    let name = if preset.is_empty() { "scene" } else { preset };
    format!("{}.ron", Scene::file_stem(name, scene.seed))
}

/// "Save scene…": the export dialog for a scene file.
pub type SceneFileDialog = Dialog<SceneFile>;

/// The scene file's part of its [`Dialog`]: nothing to set.
#[derive(Default)]
pub struct SceneFile;

/// A scene being saved: the text, written on its own thread natively (it
/// is small, but the disk may be slow), offered as a download in the
/// browser.
pub struct SceneFileRun {
    bytes: usize,
    #[cfg(not(target_arch = "wasm32"))]
    done: std::sync::mpsc::Receiver<crate::Result<bool>>,
    #[cfg(target_arch = "wasm32")]
    pending: (String, PathBuf),
}

impl Exporter for SceneFile {
    type Settings = SceneFileSettings;
    type Request = String;
    type Run = SceneFileRun;
    const TITLE: &'static str = "Save scene";
    const ID: &'static str = "save-scene-dialog";
    const WIDTH: f32 = 460.0;
    const ACTION: &'static str = "Save";

    fn extension(_: &SceneFileSettings) -> &'static str {
        "ron"
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn file_kind(_: &SceneFileSettings) -> &'static str {
        "playa scene"
    }

    fn folder(settings: &mut SceneFileSettings) -> &mut Option<PathBuf> {
        &mut settings.folder
    }

    fn settings_ui(_: &mut Dialog<Self>, ui: &mut egui::Ui, _: &mut SceneFileSettings, _: &Scene) {
        ui.weak(
            "The scene as text: Open… or dropping it on the window loads it, \
             `playa render FILE.ron` renders it.",
        );
    }

    fn prepare(&self, _: &SceneFileSettings, scene: &Scene) -> Result<String, String> {
        scene.validate().map_err(|e| e.to_string())?;
        Ok(scene_text(scene))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn launch(text: String, path: &Path) -> Result<SceneFileRun, String> {
        let path = path.to_path_buf();
        let bytes = text.len();
        let done = on_thread("playa-save-scene", move || {
            crate::base::atomic::write_atomically(&path, text.as_bytes()).map(|()| true)
        })?;
        Ok(SceneFileRun { bytes, done })
    }

    #[cfg(target_arch = "wasm32")]
    fn launch(text: String, path: &Path) -> Result<SceneFileRun, String> {
        Ok(SceneFileRun {
            bytes: text.len(),
            pending: (text, path.to_path_buf()),
        })
    }
}

impl Run for SceneFileRun {
    #[cfg(not(target_arch = "wasm32"))]
    fn advance(&mut self) -> Option<crate::Result<bool>> {
        self.done.try_recv().ok()
    }

    #[cfg(target_arch = "wasm32")]
    fn advance(&mut self) -> Option<crate::Result<bool>> {
        let (text, path) = &self.pending;
        Some(deliver(path, "scene.ron", text.as_bytes(), "text/plain"))
    }

    /// A scene is written at once: there is nothing to stop.
    fn cancel(&mut self) {}

    fn cancelling(&self) -> bool {
        false
    }

    fn progress(&self, _: Duration) -> (f32, String) {
        (0.5, "Saving…".to_string())
    }

    fn status_line(&self) -> String {
        "Saving the scene…".to_string()
    }

    fn summary(&self) -> String {
        format!(
            "{} bytes",
            crate::app::window::status::thousands(self.bytes as u64)
        )
    }
}

impl SceneFileDialog {
    /// Opens the dialog, proposing `{preset}-{seed}.ron` in the last folder.
    pub fn open(&mut self, settings: &SceneFileSettings, preset: &str, scene: &Scene) {
        self.open_with(settings.folder.as_deref(), |_| {
            default_file_name(preset, scene)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_scene_reads_back_to_the_same_scene() {
        let mut scene = crate::scene::presets::load("badlands").unwrap();
        scene.seed = 77;
        scene.automaton.density = 0.123_456_7;
        let text = scene_text(&scene);
        let back = Scene::from_ron(&text, "saved").unwrap();
        assert_eq!(back, scene.quantized());
        assert_eq!(crate::share::encode(&back), crate::share::encode(&scene));
    }

    #[test]
    fn file_names_match_the_exports() {
        let scene = Scene {
            seed: 42,
            ..Scene::default()
        };
        assert_eq!(default_file_name("night", &scene), "night-42.ron");
        assert_eq!(default_file_name("", &scene), "scene-42.ron");
    }
}
