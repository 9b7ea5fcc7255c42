//! Scenes from files, drops and pastes: presets, playa PNGs, RON text.
//!
//! Every loader returns either a valid scene or one message a person can
//! read; the caller shows the message and leaves the current scene alone.

use std::path::{Path, PathBuf};

use crate::scene::Scene;

/// Name of the default preset.
pub const DEFAULT_PRESET: &str = crate::presets::DEFAULT;

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

/// Reads the scene of a `.ron` preset or a playa `.png` (its recipe; the
/// pixels are not read). Anything else is refused with a message naming it.
pub fn scene_from_path(path: &Path) -> Result<Scene, String> {
    use std::io::Read;
    let name = display_name(path);
    let mut file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    if !file
        .metadata()
        .map_err(|e| format!("{name}: {e}"))?
        .is_file()
    {
        return Err(format!("{name} is not a file"));
    }
    let mut head = Vec::with_capacity(PNG_SIGNATURE.len());
    (&mut file)
        .take(PNG_SIGNATURE.len() as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: {e}"))?;
    if head == PNG_SIGNATURE {
        return crate::recipe::read_recipe(path)
            .map(|r| r.scene)
            .map_err(|e| e.to_string());
    }
    // Presets are small: read at most one byte past the limit, so a huge
    // file is refused without being read whole.
    let mut bytes = head;
    file.take(crate::scene::MAX_RON_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: {e}"))?;
    scene_from_bytes(&bytes, &name)
}

/// Reads a scene from the bytes of a file named `name`: a PNG (by its
/// signature) must carry a playa recipe; anything else must be RON text.
pub fn scene_from_bytes(bytes: &[u8], name: &str) -> Result<Scene, String> {
    if bytes.starts_with(PNG_SIGNATURE) {
        return crate::recipe::decode_recipe(bytes, name)
            .map(|r| r.scene)
            .map_err(|e| e.to_string());
    }
    let is_ron = Path::new(name)
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("ron"));
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(not_a_scene(name));
    };
    if !is_ron && !text.trim_start().starts_with('(') {
        return Err(not_a_scene(name));
    }
    Scene::from_ron(text, name).map_err(|e| e.to_string())
}

/// Reads a pasted scene: RON text (a share code once they exist).
pub fn scene_from_text(text: &str) -> Result<Scene, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("the clipboard is empty: nothing to load".to_string());
    }
    if crate::share::looks_like_code(text) {
        return crate::share::decode(text).map_err(|e| e.to_string());
    }
    if !text.starts_with('(') {
        let shown: String = text.chars().take(24).collect();
        return Err(format!(
            "pasted text {shown:?}… is not a playa scene (expected a playa1- share code or RON)"
        ));
    }
    Scene::from_ron(text, "pasted scene").map_err(|e| e.to_string())
}

/// The scene as compact one-line RON, for the share field.
pub fn scene_to_text(scene: &Scene) -> String {
    crate::share::encode(scene)
}

/// A native file dialog (rfd) running on its own thread, so the window keeps
/// repainting while it is open, and never hangs if the dialog cannot open
/// (no desktop portal): it then answers "nothing chosen".
pub struct FileDialog {
    answer: std::sync::mpsc::Receiver<Option<PathBuf>>,
}

impl FileDialog {
    fn spawn(pick: impl FnOnce() -> Option<PathBuf> + Send + 'static) -> Self {
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

    /// "Save as" for a PNG, starting at `start` (a file path).
    pub fn save_png(start: &Path) -> Self {
        let dir = start.parent().filter(|d| d.is_dir()).map(Path::to_path_buf);
        let name = start.file_name().map(|n| n.to_string_lossy().into_owned());
        FileDialog::spawn(move || {
            let mut d = rfd::FileDialog::new().add_filter("PNG picture", &["png"]);
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

    /// The answer once the dialog closed: `Some(None)` if nothing was
    /// chosen (or the dialog could not open), `None` while it is open.
    pub fn poll(&mut self) -> Option<Option<PathBuf>> {
        match self.answer.try_recv() {
            Ok(answer) => Some(answer),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Some(None),
        }
    }
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

fn not_a_scene(name: &str) -> String {
    format!("{name} is not a playa scene: drop a .ron preset or a PNG made by playa")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ron_text_round_trips() {
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
    fn bad_pastes_say_why() {
        assert!(scene_from_text("").unwrap_err().contains("empty"));
        assert!(
            scene_from_text("hello world")
                .unwrap_err()
                .contains("not a playa scene")
        );
        assert!(scene_from_text("(seed: -1)").is_err());
    }

    #[test]
    fn non_scene_files_are_refused() {
        let err = scene_from_bytes(b"just some notes", "notes.txt").unwrap_err();
        assert!(err.contains("notes.txt is not a playa scene"), "{err}");
        let err = scene_from_bytes(&[0xff, 0x00, 0x12], "x.ron").unwrap_err();
        assert!(err.contains("x.ron"), "{err}");
        let err = scene_from_bytes(b"\x89PNG\r\n\x1a\nbroken", "a.png").unwrap_err();
        assert!(err.contains("a.png"), "{err}");
    }

    #[test]
    fn shipped_presets_load_from_their_files() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("presets");
        for preset in crate::presets::PRESETS {
            let path = dir.join(format!("{}.ron", preset.name));
            assert_eq!(scene_from_path(&path).unwrap(), preset.scene().unwrap());
        }
    }
}
