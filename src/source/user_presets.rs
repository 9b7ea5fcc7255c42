//! The user's own presets: scenes kept by name beside the shipped ones.
//!
//! A [`Store`] keeps each preset as a scene in RON, its description (if
//! any) in a leading `//` comment as the shipped presets in `presets/`
//! have it. Natively the store is a folder, one `NAME.ron` a preset
//! ([`default_folder`]: `$PLAYA_CONFIG_DIR/presets`, else `presets` in the
//! folder where the app keeps its state); every file is written through
//! [`crate::base::atomic`], so a failure never leaves half a preset. In the
//! browser there is no folder: the app keeps the store in memory
//! ([`Store::in_memory`]) and saves its texts in the page's local storage.
//!
//! A preset's name ([`check_name`]) is what `playa render NAME` takes: it
//! never equals a shipped preset's name (those come first), never looks
//! like a share code or a file, and is kept short. Files in the folder
//! that are not presets (a bad name, a scene that does not load) are
//! skipped, each with a note ([`Listing::skipped`]), never a panic.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, clip, quote};
use crate::scene::presets;
use crate::scene::{MAX_RON_BYTES, Scene};

/// The environment variable that, set and not blank, names the folder
/// playa keeps its own files in (the presets in its `presets` folder) in
/// place of the platform's.
pub const CONFIG_DIR_VAR: &str = "PLAYA_CONFIG_DIR";

/// The app id the platform's folder is named after: the same as the
/// window app's, so presets sit beside its stored state.
pub const APP_ID: &str = "playa";

/// The longest name a preset may have, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// The longest description kept, in characters (longer ones are cut).
pub const MAX_DESCRIPTION_CHARS: usize = 300;

/// Names Windows keeps for devices: no file can have them.
const DEVICE_NAMES: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// `name` as a preset is called, blanks around it removed, or why it
/// cannot be one: it is empty or longer than [`MAX_NAME_CHARS`], has
/// anything but letters, digits, `-`, `_` and spaces, does not start with a
/// letter or digit, is a shipped preset's name (in any case), looks like a
/// share code, or is a name Windows keeps for devices.
pub fn check_name(name: &str) -> Result<String> {
    let trimmed = name.trim();
    let refuse = |reason: &str| {
        Err(Error::UserPreset {
            name: trimmed.to_string(),
            reason: reason.to_string(),
        })
    };
    if trimmed.is_empty() {
        return refuse("a preset needs a name");
    }
    if trimmed.chars().count() > MAX_NAME_CHARS {
        return refuse(&format!(
            "the name is longer than {MAX_NAME_CHARS} characters"
        ));
    }
    if let Some(c) = trimmed
        .chars()
        .find(|&c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | ' ')))
    {
        return refuse(&format!(
            "{c:?} is not allowed in a name (letters, digits, -, _ and spaces are)"
        ));
    }
    if !trimmed.starts_with(char::is_alphanumeric) {
        return refuse("a name starts with a letter or a digit");
    }
    let lower = trimmed.to_lowercase();
    if let Some(builtin) = presets::PRESETS.iter().find(|p| p.name == lower) {
        return refuse(&format!(
            "{} is a built-in preset; choose another name",
            builtin.name
        ));
    }
    if crate::share::looks_like_code(trimmed) {
        return refuse("the name looks like a share code; choose another name");
    }
    if DEVICE_NAMES.contains(&lower.as_str()) {
        return refuse("the name is kept for a device on Windows; choose another name");
    }
    Ok(trimmed.to_string())
}

/// One of the user's presets, loaded.
#[derive(Clone, Debug, PartialEq)]
pub struct UserPreset {
    /// Its name, e.g. `"evening dunes"`.
    pub name: String,
    /// What it shows: its leading `//` comment, its lines joined; empty
    /// when it has none.
    pub description: String,
    /// The scene.
    pub scene: Scene,
}

/// What [`Store::list`] found: the presets, by name, and a note for each
/// file skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listing {
    /// The presets, sorted by name, letter case aside.
    pub presets: Vec<UserPreset>,
    /// Why each file that is not a preset was skipped, one line each
    /// (naming the file).
    pub skipped: Vec<String>,
}

/// Where a [`Store`] keeps its presets.
#[derive(Clone, Debug)]
enum Place {
    /// One `NAME.ron` a preset in a folder, made when the first is saved.
    Folder(PathBuf),
    /// Name to RON text, in memory (the browser, tests).
    Memory(BTreeMap<String, String>),
}

/// The user's presets: list, load, save, rename, delete.
#[derive(Clone, Debug)]
pub struct Store {
    place: Place,
}

/// The folder where playa keeps the user's presets: `presets` in
/// [`CONFIG_DIR_VAR`] when it is set and not blank, else in the folder
/// eframe keeps the app's state in (`eframe::storage_dir("playa")`):
/// `$XDG_DATA_HOME/playa` or `~/.local/share/playa` on Linux and other
/// Unixes, `~/Library/Application Support/playa` on macOS,
/// `%APPDATA%\playa\data` on Windows. `None` where there is no such
/// folder (no home, the browser).
pub fn default_folder() -> Option<PathBuf> {
    let config =
        std::env::var_os(CONFIG_DIR_VAR).filter(|d| !d.to_string_lossy().trim().is_empty());
    config
        .map(PathBuf::from)
        .or_else(|| app_data_dir(APP_ID))
        .map(|dir| dir.join("presets"))
}

/// The folder eframe keeps an app's state in, computed as eframe 0.37's
/// `storage_dir` does (the command line is built without eframe too).
#[cfg(all(
    unix,
    not(target_os = "macos"),
    not(target_os = "ios"),
    not(target_os = "android")
))]
fn app_data_dir(app_id: &str) -> Option<PathBuf> {
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::home_dir().map(|p| p.join(".local").join("share")))
        .map(|p| {
            p.join(
                app_id
                    .to_lowercase()
                    .replace(|c: char| c.is_ascii_whitespace(), ""),
            )
        })
}

/// The folder eframe keeps an app's state in, computed as eframe 0.37's
/// `storage_dir` does (the command line is built without eframe too).
#[cfg(target_os = "macos")]
fn app_data_dir(app_id: &str) -> Option<PathBuf> {
    std::env::home_dir().map(|p| {
        p.join("Library")
            .join("Application Support")
            .join(app_id.replace(|c: char| c.is_ascii_whitespace(), "-"))
    })
}

/// The folder eframe keeps an app's state in, computed as eframe 0.37's
/// `storage_dir` does (the roaming application data folder, which
/// `%APPDATA%` names).
#[cfg(windows)]
fn app_data_dir(app_id: &str) -> Option<PathBuf> {
    std::env::var_os("APPDATA")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .map(|p| p.join(app_id).join("data"))
}

/// No folder for app state on this platform (the browser, phones).
#[cfg(not(any(unix, windows)))]
fn app_data_dir(_app_id: &str) -> Option<PathBuf> {
    None
}

/// No folder for app state on this platform (phones).
#[cfg(any(target_os = "ios", target_os = "android"))]
fn app_data_dir(_app_id: &str) -> Option<PathBuf> {
    None
}

impl Store {
    /// The store in `folder`, one `NAME.ron` a preset. The folder is made
    /// when the first preset is saved.
    pub fn in_folder(folder: impl Into<PathBuf>) -> Store {
        Store {
            place: Place::Folder(folder.into()),
        }
    }

    /// The store in [`default_folder`], or an error saying there is none.
    pub fn from_env() -> Result<Store> {
        default_folder().map(Store::in_folder).ok_or_else(|| {
            Error::io(
                "presets folder",
                std::io::Error::other(format!(
                    "no home folder to keep presets in; set {CONFIG_DIR_VAR}"
                )),
            )
        })
    }

    /// A store in memory holding `texts` (name to RON text, as
    /// [`Store::texts`] gives them): the browser's, kept in its local
    /// storage by the app.
    pub fn in_memory(texts: BTreeMap<String, String>) -> Store {
        Store {
            place: Place::Memory(texts),
        }
    }

    /// The folder, for a store in one.
    pub fn folder(&self) -> Option<&Path> {
        match &self.place {
            Place::Folder(dir) => Some(dir),
            Place::Memory(_) => None,
        }
    }

    /// The texts of a store in memory, name to RON, to keep elsewhere.
    pub fn texts(&self) -> Option<&BTreeMap<String, String>> {
        match &self.place {
            Place::Folder(_) => None,
            Place::Memory(texts) => Some(texts),
        }
    }

    /// Where the presets are, in words: the folder, or "this browser".
    pub fn place(&self) -> String {
        match &self.place {
            Place::Folder(dir) => dir.display().to_string(),
            Place::Memory(_) => "this browser's storage".to_string(),
        }
    }

    /// Every preset, sorted by name, and a note for each file skipped. A
    /// folder not made yet holds none; one that cannot be read is an
    /// error.
    pub fn list(&self) -> Result<Listing> {
        let mut listing = Listing::default();
        let (names, misnamed) = self.names()?;
        for (name, text) in names {
            let loaded = match text {
                Text::File(path) => read_limited(&path).and_then(|text| {
                    let source = path.display().to_string();
                    preset_of(&name, &text, &source)
                }),
                Text::Memory(text) => preset_of(&name, &text, &format!("preset {name}")),
            };
            match loaded {
                Ok(preset) => listing.presets.push(preset),
                Err(e) => listing.skipped.push(e.to_string()),
            }
        }
        listing.skipped.extend(misnamed);
        listing.presets.sort_by(|a, b| order(&a.name, &b.name));
        Ok(listing)
    }

    /// The preset called `name` (its letter case aside when no preset has
    /// it exactly), if there is one; an error if its file cannot be read
    /// or its scene does not load.
    pub fn find(&self, name: &str) -> Result<Option<UserPreset>> {
        let name = name.trim();
        let Some(found) = self.lookup(name)? else {
            return Ok(None);
        };
        match self.text_of(&found)? {
            Text::File(path) => {
                let text = read_limited(&path)?;
                preset_of(&found, &text, &path.display().to_string()).map(Some)
            }
            Text::Memory(text) => preset_of(&found, &text, &format!("preset {found}")).map(Some),
        }
    }

    /// The preset called `name`, or an error naming it.
    pub fn get(&self, name: &str) -> Result<UserPreset> {
        self.find(name)?.ok_or_else(|| Error::UserPreset {
            name: name.trim().to_string(),
            reason: format!("you have no preset of this name (in {})", self.place()),
        })
    }

    /// Keeps `scene` as the preset `name` (checked by [`check_name`]),
    /// with `description` (one line; blank: none) in its leading comment.
    /// A preset of that name (in any letter case) is replaced only when
    /// `replace` says so, else it is an error saying it exists. Returns the
    /// preset as it will load.
    pub fn save(
        &mut self,
        name: &str,
        scene: &Scene,
        description: &str,
        replace: bool,
    ) -> Result<UserPreset> {
        let name = check_name(name)?;
        scene.validate()?;
        let existing = self.lookup(&name)?;
        if existing.is_some() && !replace {
            return Err(Error::UserPreset {
                name,
                reason: "you have a preset of this name already".to_string(),
            });
        }
        let description = one_line(description);
        let text = preset_text(&description, scene);
        match &mut self.place {
            Place::Folder(dir) => {
                std::fs::create_dir_all(&*dir).map_err(|e| Error::io(&*dir, e))?;
                crate::base::atomic::write_atomically(&file_of(dir, &name), text.as_bytes())?;
                // Replaced under another letter case: the old file goes.
                if let Some(old) = existing.filter(|old| *old != name) {
                    let _ = std::fs::remove_file(file_of(dir, &old));
                }
            }
            Place::Memory(texts) => {
                if let Some(old) = existing {
                    texts.remove(&old);
                }
                texts.insert(name.clone(), text.clone());
            }
        }
        preset_of(&name, &text, &format!("preset {name}"))
    }

    /// Renames the preset `from` to `to` (checked by [`check_name`]); `to`
    /// may not be another preset's name. Returns the new name.
    pub fn rename(&mut self, from: &str, to: &str) -> Result<String> {
        let to = check_name(to)?;
        let Some(from) = self.lookup(from.trim())? else {
            return Err(self.missing(from));
        };
        if let Some(other) = self.lookup(&to)?.filter(|other| *other != from) {
            return Err(Error::UserPreset {
                name: to,
                reason: format!("you have a preset called {other} already"),
            });
        }
        if from == to {
            return Ok(to);
        }
        match &mut self.place {
            Place::Folder(dir) => {
                let (old, new) = (file_of(dir, &from), file_of(dir, &to));
                std::fs::rename(&old, &new).map_err(|e| Error::io(&old, e))?;
            }
            Place::Memory(texts) => {
                let text = texts.remove(&from).unwrap_or_default();
                texts.insert(to.clone(), text);
            }
        }
        Ok(to)
    }

    /// Deletes the preset `name`.
    pub fn delete(&mut self, name: &str) -> Result<()> {
        let Some(found) = self.lookup(name.trim())? else {
            return Err(self.missing(name));
        };
        match &mut self.place {
            Place::Folder(dir) => {
                let path = file_of(dir, &found);
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))
            }
            Place::Memory(texts) => {
                texts.remove(&found);
                Ok(())
            }
        }
    }

    fn missing(&self, name: &str) -> Error {
        Error::UserPreset {
            name: name.trim().to_string(),
            reason: format!("you have no preset of this name (in {})", self.place()),
        }
    }

    /// The name of the preset called `name`: exactly, else in another
    /// letter case. Only names are looked at, no file is read.
    fn lookup(&self, name: &str) -> Result<Option<String>> {
        let names: Vec<String> = self.names()?.0.into_iter().map(|(n, _)| n).collect();
        if names.iter().any(|n| n == name) {
            return Ok(Some(name.to_string()));
        }
        let lower = name.to_lowercase();
        Ok(names.into_iter().find(|n| n.to_lowercase() == lower))
    }

    /// Every preset's name and where its text is: each `.ron` file of the
    /// folder (not read yet), or each text in memory; and a note for each
    /// file whose extension is `.ron` in other letters (`NAME.RON`): a
    /// preset is `NAME.ron`, the file playa opens, renames and deletes for
    /// it (`file_of`).
    fn names(&self) -> Result<(Names, Vec<String>)> {
        match &self.place {
            Place::Memory(texts) => Ok((
                texts
                    .iter()
                    .map(|(n, t)| (n.clone(), Text::Memory(t.clone())))
                    .collect(),
                Vec::new(),
            )),
            Place::Folder(dir) => {
                let entries = match std::fs::read_dir(dir) {
                    Ok(entries) => entries,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        return Ok((Vec::new(), Vec::new()));
                    }
                    Err(e) => return Err(Error::io(dir, e)),
                };
                let (mut found, mut misnamed) = (Vec::new(), Vec::new());
                for entry in entries {
                    let entry = entry.map_err(|e| Error::io(dir, e))?;
                    let path = entry.path();
                    let Some(extension) = path.extension() else {
                        continue;
                    };
                    if extension == "ron" {
                        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
                        if let Some(stem) = stem {
                            found.push((stem, Text::File(path)));
                        }
                    } else if extension.eq_ignore_ascii_case("ron") {
                        misnamed.push(format!(
                            "{}: not a preset: a preset's file ends in .ron, in small letters",
                            clip(&path.display().to_string())
                        ));
                    }
                }
                misnamed.sort();
                Ok((found, misnamed))
            }
        }
    }

    fn text_of(&self, name: &str) -> Result<Text> {
        match &self.place {
            Place::Folder(dir) => Ok(Text::File(file_of(dir, name))),
            Place::Memory(texts) => Ok(Text::Memory(texts.get(name).cloned().unwrap_or_default())),
        }
    }
}

/// Presets by name, with where each one's text is.
type Names = Vec<(String, Text)>;

/// Where a preset's text is.
enum Text {
    File(PathBuf),
    Memory(String),
}

/// The file of the preset `name` in `dir`.
fn file_of(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.ron"))
}

/// The preset `name` of RON `text`, its errors naming `source` (its file),
/// or why it is not one: a name that is no preset's, a scene that does not
/// load.
fn preset_of(name: &str, text: &str, source: &str) -> Result<UserPreset> {
    let not_a_preset = |reason: String| Error::Scene {
        source_name: source.to_string(),
        reason: format!("not a preset: {reason}"),
    };
    match check_name(name) {
        // A name is looked up trimmed: a file named with blanks around its
        // name could never be found by it.
        Ok(checked) if checked != name => {
            return Err(not_a_preset(format!(
                "preset {}: blanks around the name",
                quote(name)
            )));
        }
        Ok(_) => {}
        Err(e) => return Err(not_a_preset(e.to_string())),
    }
    // A byte-order mark before the description's comment hides it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let scene = Scene::from_ron(text, source)?;
    Ok(UserPreset {
        name: name.to_string(),
        description: presets::description_of(text),
        scene,
    })
}

/// The text of a preset: its description as a comment, then the scene,
/// quantized as every scene is when it is rendered (so the file, its share
/// code and its pixels agree).
fn preset_text(description: &str, scene: &Scene) -> String {
    let mut text = String::new();
    if !description.is_empty() {
        text.push_str(&format!("// {description}\n"));
    }
    text.push_str(&scene.quantized().to_ron());
    text.push('\n');
    text
}

/// `text` on one line, blanks squeezed, cut at [`MAX_DESCRIPTION_CHARS`].
fn one_line(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    line.chars().take(MAX_DESCRIPTION_CHARS).collect()
}

/// Names in the order a person expects: letter case aside, then exactly.
fn order(a: &str, b: &str) -> std::cmp::Ordering {
    a.to_lowercase()
        .cmp(&b.to_lowercase())
        .then_with(|| a.cmp(b))
}

/// The text of the file at `path`, refused above [`MAX_RON_BYTES`] before
/// it is read.
fn read_limited(path: &Path) -> Result<String> {
    let io = |e| Error::io(path, e);
    let file = crate::base::file::open_regular(path)?;
    let meta = file.metadata().map_err(io)?;
    if meta.len() > MAX_RON_BYTES as u64 {
        return Err(Error::Scene {
            source_name: path.display().to_string(),
            reason: format!(
                "file is {} bytes, more than the limit of {MAX_RON_BYTES}",
                meta.len()
            ),
        });
    }
    let mut text = String::new();
    file.take(MAX_RON_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    Ok(text)
}

#[cfg(test)]
mod tests;
