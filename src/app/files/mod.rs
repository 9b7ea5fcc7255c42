//! Scenes from files, drops and pastes, through [`crate::source`]; the file
//! dialogs.
//!
//! Every loader returns either a valid scene or one message a person can
//! read; the caller shows the message and leaves the current scene alone.

pub mod presets;

use std::path::{Path, PathBuf};

use crate::scene::Scene;
use crate::source::Source;

/// Name of the default preset.
pub const DEFAULT_PRESET: &str = crate::scene::presets::DEFAULT;

/// The folder of preset files, where "Open…" starts: `presets/` in the
/// working directory, else in the source tree the binary was built from.
/// (The shipped presets themselves are embedded in the library.)
pub fn presets_dir() -> Option<PathBuf> {
    let candidates = [
        PathBuf::from("presets"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("presets"),
    ];
    candidates.into_iter().find(|p| p.is_dir())
}

/// The file name of `path`, for messages.
pub fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The name a file's scene goes by (in the Preset box, and in export file
/// names): the file's name without its extension (`evening.png`:
/// `evening`).
pub fn stem(file_name: &str) -> &str {
    Path::new(file_name)
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or(file_name)
}

/// The scene of a file dropped on the window or chosen with Open…: a `.ron`
/// scene or a picture made by playa (see [`Source::from_path`]). The error
/// is the message to show.
pub fn scene_from_path(path: &Path) -> Result<Scene, String> {
    Source::from_path(path)
        .and_then(|source| source.load())
        .map(|loaded| loaded.scene)
        .map_err(|e| e.to_string())
}

/// The scene of pasted text: a share code or a scene in RON (see
/// [`Source::from_text`]). The error is the message to show.
pub fn scene_from_text(text: &str) -> Result<Scene, String> {
    Source::from_text(text, "pasted text")
        .and_then(|source| source.load())
        .map(|loaded| loaded.scene)
        .map_err(|e| e.to_string())
}

/// The scene's share code, for the share field.
pub fn scene_to_text(scene: &Scene) -> String {
    crate::share::encode(scene)
}

/// What a file dialog answers: natively a path; in the browser, where
/// pages never see paths, the chosen file's name and bytes.
#[cfg(not(target_arch = "wasm32"))]
pub type Picked = PathBuf;
/// What a file dialog answers: natively a path; in the browser, where
/// pages never see paths, the chosen file's name and bytes.
#[cfg(target_arch = "wasm32")]
pub type Picked = (String, Vec<u8>);

/// The scene of a picked file ([`Picked`]), with the file's name for
/// messages.
pub fn scene_from_picked(picked: Picked) -> (String, Result<Scene, String>) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        (display_name(&picked), scene_from_path(&picked))
    }
    #[cfg(target_arch = "wasm32")]
    {
        let (name, bytes) = picked;
        let scene = Source::from_bytes(bytes, &name)
            .and_then(|source| source.load())
            .map(|loaded| loaded.scene)
            .map_err(|e| e.to_string());
        (name, scene)
    }
}

/// A file dialog that does not block the window: natively rfd's dialog on
/// its own thread (and never a hang if the dialog cannot open, e.g. with no
/// desktop portal: it then answers "nothing chosen"); in the browser the
/// page's file picker, read asynchronously.
pub struct FileDialog {
    answer: std::sync::mpsc::Receiver<Option<Picked>>,
}

impl FileDialog {
    #[cfg(not(target_arch = "wasm32"))]
    fn spawn(pick: impl FnOnce() -> Option<Picked> + Send + 'static) -> Self {
        let (tx, answer) = std::sync::mpsc::channel();
        let started = std::thread::Builder::new()
            .name("playa-file-dialog".into())
            .spawn(move || {
                let _ = tx.send(pick());
            });
        if let Err(e) = started {
            eprintln!("playa: could not start the file dialog: {e}");
        }
        FileDialog { answer }
    }

    /// "Save as" for a file of `kind` ending in `.{extension}`, starting at
    /// `start` (a file path).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn save(start: &Path, kind: &'static str, extension: &'static str) -> Self {
        let dir = start.parent().filter(|d| d.is_dir()).map(Path::to_path_buf);
        let name = start.file_name().map(|n| n.to_string_lossy().into_owned());
        FileDialog::spawn(move || {
            let mut d = rfd::FileDialog::new().add_filter(kind, &[extension]);
            if let Some(dir) = dir {
                d = d.set_directory(dir);
            }
            if let Some(name) = name {
                d = d.set_file_name(name);
            }
            d.save_file()
        })
    }

    /// "Open" for a preset or a playa picture, starting in `dir`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_scene(dir: Option<PathBuf>) -> Self {
        FileDialog::spawn(move || {
            let mut d = rfd::FileDialog::new()
                .add_filter("playa scene or picture", &["ron", "png"])
                .add_filter("Any file", &["*"]);
            if let Some(dir) = dir {
                d = d.set_directory(dir);
            }
            d.pick_file()
        })
    }

    /// "Open" for a preset or a playa picture: the page's file picker.
    #[cfg(target_arch = "wasm32")]
    pub fn open_scene(_dir: Option<PathBuf>) -> Self {
        let (tx, answer) = std::sync::mpsc::channel();
        wasm_bindgen_futures::spawn_local(async move {
            let file = rfd::AsyncFileDialog::new()
                .add_filter("playa scene or picture", &["ron", "png"])
                .pick_file()
                .await;
            let picked = match file {
                Some(file) => Some((file.file_name(), file.read().await)),
                None => None,
            };
            let _ = tx.send(picked);
        });
        FileDialog { answer }
    }

    /// Reads a file dropped on the page.
    #[cfg(target_arch = "wasm32")]
    pub fn read_dropped(file: egui::DroppedFileHandle) -> Self {
        let (tx, answer) = std::sync::mpsc::channel();
        wasm_bindgen_futures::spawn_local(async move {
            let name = display_name(file.path());
            let picked = file.bytes_async().await.ok().map(|bytes| (name, bytes));
            let _ = tx.send(picked);
        });
        FileDialog { answer }
    }

    /// The answer once the dialog closed: `Some(None)` if nothing was
    /// chosen (or the dialog could not open), `None` while it is open.
    pub fn poll(&mut self) -> Option<Option<Picked>> {
        match self.answer.try_recv() {
            Ok(answer) => Some(answer),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Some(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_codes_and_ron_round_trip() {
        let scene = Scene {
            seed: 4242,
            ..Scene::default()
        };
        let text = scene_to_text(&scene);
        assert!(text.starts_with("playa1-"), "{text}");
        assert_eq!(scene_from_text(&text).unwrap(), scene.quantized());
        let ron = scene.to_ron();
        assert_eq!(scene_from_text(&ron).unwrap(), scene.quantized());
        let mut broken = text.clone();
        broken.pop();
        assert!(scene_from_text(&broken).is_err());
    }

    #[test]
    fn a_files_scene_goes_by_its_name_without_extension() {
        assert_eq!(stem("evening.png"), "evening");
        assert_eq!(stem("badlands.ron"), "badlands");
        assert_eq!(stem("notes"), "notes");
    }

    #[test]
    fn bad_pastes_and_files_say_why() {
        assert!(scene_from_text("").unwrap_err().contains("empty"));
        let err = scene_from_text("hello world").unwrap_err();
        assert!(err.contains("not a playa scene"), "{err}");
        assert!(scene_from_text("(seed: -1)").is_err());

        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "just some notes").unwrap();
        let err = scene_from_path(&notes).unwrap_err();
        assert!(err.contains("notes.txt is not a playa scene"), "{err}");
    }
}
