//! Where a scene comes from: the one place that says what an input is — a
//! shipped preset's name, one of the user's presets
//! ([`crate::source::user_presets`]), a `.ron` scene file, a picture made by playa, a
//! share code or a link holding one, or scene text — and loads its scene.
//!
//! The command line and the app both load through here, so an input means
//! the same everywhere and a bad one gets the same message: one line naming
//! the input. Nothing is read whole to find out what it is: a file's kind is
//! told from its first [`HEAD_BYTES`] bytes and its name, a scene file above
//! [`MAX_RON_BYTES`] is refused before it is read, and a picture's recipe is
//! read only up to its image data (files above [`MAX_PNG_BYTES`] refused
//! first).
//!
//! [`MAX_RON_BYTES`]: crate::scene::MAX_RON_BYTES
//! [`MAX_PNG_BYTES`]: crate::output::recipe::MAX_PNG_BYTES

pub mod user_presets;

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, quote};
use crate::output::recipe::{self, PNG_SIGNATURE};
use crate::scene::Scene;
use crate::scene::presets::{self, Preset};
use crate::share;
use user_presets::UserPreset;

/// How much of a file is read to tell what it is.
pub const HEAD_BYTES: usize = 4096;

/// What an input is: where its scene comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A shipped preset.
    Preset(&'static Preset),
    /// One of the user's presets, loaded (see [`crate::source::user_presets`]).
    User(UserPreset),
    /// A share code (`playa1-…`, or any `playaN-`, so that a code of a newer
    /// format says so when it is loaded), or a link holding one
    /// (`https://…#playa1-…`, see [`share::link`]; one without a code says
    /// so when it is loaded).
    Code(String),
    /// A scene as RON text, with what it is called in messages (e.g.
    /// "pasted text").
    Ron {
        /// The text.
        text: String,
        /// Where it came from.
        name: String,
    },
    /// A scene file (RON).
    SceneFile(PathBuf),
    /// A picture made by playa: its recipe is loaded, not its pixels.
    Picture(PathBuf),
    /// The bytes of a picture made by playa, read already (a browser's file
    /// picker or drop), named `name` in messages.
    PictureBytes {
        /// The PNG file's bytes.
        bytes: Vec<u8>,
        /// Its name, for messages.
        name: String,
    },
}

/// A loaded input: its scene and, for a picture, the picture's size.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The scene.
    pub scene: Scene,
    /// A picture's width and height in pixels, from its PNG header: at this
    /// size the scene renders to the same pixels again. `None` for the
    /// other kinds of input.
    pub size: Option<(u32, u32)>,
    /// The part of the scene's picture a picture input shows, when it was
    /// cut from a larger one ([`crate::compose::window`]): with it the picture is
    /// made again byte for byte. `None` for a whole picture and the other
    /// kinds of input.
    pub window: Option<crate::compose::window::Window>,
    /// The compression a picture input was encoded with, as it records it
    /// ([`recipe::COMPRESSION_KEY`]): rendered again with it, the picture
    /// is the same bytes. `None` for a picture of an older playa and the
    /// other kinds of input.
    pub compression: Option<crate::output::picture::Compression>,
    /// The animation a picture input is a frame of ([`Recipe::frame_of`]).
    ///
    /// [`Recipe::frame_of`]: crate::output::recipe::Recipe::frame_of
    pub frame_of: Option<String>,
}

impl Loaded {
    /// A picture input, loaded from the recipe it carries.
    fn picture(recipe: recipe::Recipe) -> Loaded {
        Loaded {
            scene: recipe.scene,
            size: Some((recipe.width, recipe.height)),
            window: recipe.window,
            compression: recipe.compression,
            frame_of: recipe.frame_of,
        }
    }
}

impl Source {
    /// What `input`, an argument of the command line, is: an existing file
    /// (see [`Source::from_path`]), else a shipped preset's name, else one
    /// of the user's presets (in [`user_presets::default_folder`]), else a
    /// share code (by its `playaN-` shape). A file wins over a preset of the
    /// same name; a user's preset that does not load is an error naming its
    /// file. A link (`https://…#playa1-…`) is a share code. Anything
    /// else is an error naming the input: a missing file
    /// when it looks like a path (it has an extension or a `/`), else an
    /// unknown preset.
    pub fn from_arg(input: &str) -> Result<Source> {
        if input.trim().is_empty() {
            return Err(Error::NotAScene {
                input: quote(input),
                reason: "it is empty".into(),
            });
        }
        let path = Path::new(input);
        if path.is_file() {
            return Source::from_path(path);
        }
        if let Some(preset) = presets::find(input) {
            return Ok(Source::Preset(preset));
        }
        if let Some(preset) = user_preset(input)? {
            return Ok(Source::User(preset));
        }
        if share::looks_like_code(input) {
            return Ok(Source::Code(input.trim().to_string()));
        }
        if path.exists() {
            // A folder, say: `from_path` says what it is.
            return Source::from_path(path);
        }
        if path.extension().is_some() || input.contains(['/', '\\']) {
            return Err(Error::io(
                path,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            ));
        }
        Err(unknown_name(input))
    }

    /// What the file at `path` is, from its first [`HEAD_BYTES`] bytes and
    /// its name: a picture if it starts with the PNG signature or is named
    /// `.png` (a `.png` that is no PNG then fails to load, saying so); a
    /// scene file if it is named `.ron` or its text starts as a scene does
    /// (`(`, after blanks and comments). Anything else is refused, naming
    /// the file.
    pub fn from_path(path: &Path) -> Result<Source> {
        let io = |e| Error::io(path, e);
        let file = crate::base::file::open_regular(path)?;
        let mut head = Vec::with_capacity(HEAD_BYTES);
        file.take(HEAD_BYTES as u64)
            .read_to_end(&mut head)
            .map_err(io)?;
        let named = |ext: &str| {
            path.extension()
                .is_some_and(|x| x.eq_ignore_ascii_case(ext))
        };
        if head.starts_with(&PNG_SIGNATURE) || named("png") {
            Ok(Source::Picture(path.to_path_buf()))
        } else if named("ron") || starts_as_ron(&head) {
            Ok(Source::SceneFile(path.to_path_buf()))
        } else {
            Err(Error::NotAScene {
                input: path.display().to_string(),
                reason: "expected a .ron scene or a PNG made by playa".into(),
            })
        }
    }

    /// What `text`, pasted or typed, is: a share code, a link holding one,
    /// or a scene in RON (`(` first, after blanks and comments, as in a
    /// preset file). `name`
    /// says where it came from in messages, e.g. "pasted text".
    pub fn from_text(text: &str, name: &str) -> Result<Source> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(Error::NotAScene {
                input: name.to_string(),
                reason: "it is empty".into(),
            });
        }
        if share::looks_like_code(trimmed) {
            Ok(Source::Code(trimmed.to_string()))
        } else if starts_as_ron(trimmed.as_bytes()) {
            Ok(Source::Ron {
                text: text.to_string(),
                name: name.to_string(),
            })
        } else {
            Err(Error::NotAScene {
                input: format!("{name} {}", quote(trimmed)),
                reason: "expected a playa1- share code, a link to one or a scene in RON".into(),
            })
        }
    }

    /// What the bytes of a file named `name` hold, when they come without a
    /// path (a browser's file picker or drop): a PNG (by its signature) is a
    /// picture whose recipe is read; anything else is read as text, a share
    /// code or a scene in RON ([`Source::from_text`]).
    pub fn from_bytes(bytes: Vec<u8>, name: &str) -> Result<Source> {
        if bytes.starts_with(&recipe::PNG_SIGNATURE) {
            return Ok(Source::PictureBytes {
                bytes,
                name: name.to_string(),
            });
        }
        match String::from_utf8(bytes) {
            Ok(text) => Source::from_text(&text, name),
            Err(_) => Err(Error::NotAScene {
                input: name.to_string(),
                reason: "it is neither a PNG nor text".into(),
            }),
        }
    }

    /// Loads the scene. An error names the input: the file, the preset, the
    /// share code (quoted, cut short if long) or the text's name.
    pub fn load(&self) -> Result<Loaded> {
        let scene = match self {
            Source::Preset(preset) => preset.scene()?,
            Source::User(preset) => preset.scene.clone(),
            Source::Code(code) => share::decode(code).map_err(|e| Error::Scene {
                source_name: code.clone(),
                reason: e.to_string(),
            })?,
            Source::Ron { text, name } => Scene::from_ron(text, name)?,
            Source::SceneFile(path) => Scene::from_ron_file(path)?,
            Source::Picture(path) => return Ok(Loaded::picture(recipe::read_recipe(path)?)),
            Source::PictureBytes { bytes, name } => {
                return Ok(Loaded::picture(recipe::decode_recipe(bytes, name)?));
            }
        };
        Ok(Loaded {
            scene,
            size: None,
            window: None,
            compression: None,
            frame_of: None,
        })
    }
}

/// The user's preset called `input`, if `input` can be a preset's name and
/// there is a store to look in; an error if its file does not load.
fn user_preset(input: &str) -> Result<Option<UserPreset>> {
    if user_presets::check_name(input).is_err() {
        return Ok(None);
    }
    match user_presets::Store::from_env() {
        Ok(store) => store.find(input),
        Err(_) => Ok(None),
    }
}

/// The error for `input`, a name that is no preset's: naming the shipped
/// presets and the user's.
fn unknown_name(input: &str) -> Error {
    let yours = user_presets::Store::from_env()
        .and_then(|store| store.list())
        .map(|listing| listing.presets)
        .unwrap_or_default();
    let mut reason = format!(
        "no such preset (the presets are: {}",
        presets::PRESETS
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !yours.is_empty() {
        // A long list would not be one line a person reads.
        const SHOWN: usize = 10;
        let names: Vec<&str> = yours.iter().take(SHOWN).map(|p| p.name.as_str()).collect();
        reason.push_str(&format!("; yours: {}", names.join(", ")));
        if yours.len() > SHOWN {
            reason.push_str(&format!(" and {} more", yours.len() - SHOWN));
        }
    }
    reason.push(')');
    Error::Scene {
        source_name: input.to_string(),
        reason,
    }
}

/// Whether `head`, the start of a text, starts as a scene in RON does: with
/// `(` or a `#![enable(…)]` attribute, after blanks and `//` or `/* */`
/// comments. Invalid UTF-8 (or a character cut at the end) stops the text.
fn starts_as_ron(head: &[u8]) -> bool {
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default(),
    };
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if let Some(comment) = rest.strip_prefix("//") {
            rest = comment.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(comment) = rest.strip_prefix("/*") {
            rest = comment.split_once("*/").map_or("", |(_, after)| after);
        } else {
            return rest.starts_with('(') || rest.starts_with("#![");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::picture::{Compression, write_png};

    /// The scene of `input` given on the command line.
    fn arg(input: &str) -> Result<Loaded> {
        Source::from_arg(input)?.load()
    }

    fn file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn error(result: Result<impl std::fmt::Debug>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn every_kind_of_input_loads() {
        let dir = tempfile::tempdir().unwrap();
        let scene = Scene {
            seed: 4321,
            ..presets::load("badlands").unwrap()
        };
        let ron = file(dir.path(), "mine.ron", scene.to_ron().as_bytes());
        let text = file(dir.path(), "mine.txt", scene.to_ron().as_bytes());
        let png = dir.path().join("mine.png");
        let image = crate::render(&scene, 30, 17).unwrap();
        write_png(&png, &image, &scene, &[], Compression::Fast).unwrap();
        // A picture is told by its signature, whatever its name.
        let renamed = dir.path().join("picture.dat");
        std::fs::copy(&png, &renamed).unwrap();
        let code = share::encode(&scene);

        assert!(
            matches!(Source::from_arg("badlands"), Ok(Source::Preset(p)) if p.name == "badlands")
        );
        assert!(matches!(Source::from_arg(&code), Ok(Source::Code(_))));
        for path in [&ron, &text] {
            let input = path.to_str().unwrap();
            assert!(matches!(Source::from_arg(input), Ok(Source::SceneFile(_))));
            assert_eq!(
                arg(input).unwrap(),
                Loaded {
                    scene: scene.clone(),
                    size: None,
                    window: None,
                    compression: None,
                    frame_of: None,
                }
            );
        }
        for path in [&png, &renamed] {
            let input = path.to_str().unwrap();
            assert!(matches!(Source::from_arg(input), Ok(Source::Picture(_))));
            let loaded = arg(input).unwrap();
            assert_eq!((loaded.scene, loaded.size), (scene.clone(), Some((30, 17))));
        }
        assert_eq!(
            arg("badlands").unwrap().scene,
            presets::load("badlands").unwrap()
        );
        assert_eq!(arg(&code).unwrap().scene, scene);
        let link = share::link("https://example.org/playa/index.html", &scene).unwrap();
        assert!(matches!(Source::from_arg(&link), Ok(Source::Code(_))));
        assert_eq!(arg(&link).unwrap().scene, scene);
        assert_eq!(arg(&format!("#{code}")).unwrap().scene, scene);
        let pasted = Source::from_text(&format!(" {link}\n"), "pasted text").unwrap();
        assert_eq!(pasted.load().unwrap().scene, scene);
        let pasted = Source::from_text(&format!("  {code}\n"), "pasted text").unwrap();
        assert_eq!(pasted.load().unwrap().scene, scene);
        let pasted = Source::from_text(&scene.to_ron(), "pasted text").unwrap();
        assert_eq!(pasted.load().unwrap().scene, scene);
    }

    #[test]
    fn shipped_presets_load_from_their_files_and_their_text() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("presets");
        for preset in presets::PRESETS {
            let path = dir.join(format!("{}.ron", preset.name));
            let from_file = Source::from_path(&path).unwrap().load().unwrap();
            assert_eq!(from_file.scene, preset.scene().unwrap());
            // Pasted as they are, leading comment and all.
            let pasted = Source::from_text(preset.ron, "pasted text").unwrap();
            assert_eq!(pasted.load().unwrap().scene, preset.scene().unwrap());
        }
    }

    #[test]
    fn scene_text_is_told_by_its_start() {
        for text in [
            "(seed: 1)",
            "  \n(",
            "// a comment\n// another\n(seed: 2)",
            "/* block */ (",
            "\u{feff}(",
            "#![enable(implicit_some)]\n(",
        ] {
            assert!(starts_as_ron(text.as_bytes()), "{text:?}");
        }
        for text in [
            "",
            "groceries",
            "// only a comment",
            "/* open (",
            "seed: 1",
            "x(",
        ] {
            assert!(!starts_as_ron(text.as_bytes()), "{text:?}");
        }
        // A character cut at the end of the head, or bytes that are not text.
        assert!(starts_as_ron(b"(seed: 1) // \xc3"));
        assert!(!starts_as_ron(b"\xff\xfe("));
    }

    #[test]
    fn bad_inputs_get_one_error_naming_them() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let notes = file(d, "notes.txt", b"groceries");
        let fake = file(d, "fake.png", b"not really");
        let binary = file(d, "x.ron", &[0xff, 0x00, 0x12]);
        let broken = file(d, "broken.ron", b"(seed: 1,\n  colour: 3)");
        let broken_png = file(d, "a.png", b"\x89PNG\r\n\x1a\nbroken");
        let path = |p: &Path| p.to_str().unwrap().to_string();
        let cases = [
            (path(&notes), "is not a playa scene: expected a .ron scene"),
            (path(&fake), "not a PNG"),
            (path(&binary), "valid UTF-8"),
            (path(&broken), "line 2, column"),
            (path(&broken_png), "damaged PNG"),
            (path(d), "a folder, not a file"),
            (path(&d.join("missing.ron")), "no such file"),
            ("missing/scene".into(), "no such file"),
            (
                "no-such-preset".into(),
                "no such preset (the presets are: death-valley",
            ),
            ("playa1-AAAAAAA".into(), "share code: "),
            ("playa9-AAAAAAA".into(), "made by a newer playa (format 9)"),
            (
                "https://example.org/playa/".into(),
                "share code: the link has no share code after #",
            ),
            (
                "https://example.org/#scene".into(),
                "share code: the link's fragment \"scene\" is not a share code",
            ),
        ];
        for (input, needle) in cases {
            let err = error(arg(&input));
            assert!(
                err.contains(&input) && err.contains(needle),
                "{input}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        }
        assert_eq!(error(arg(" ")), "\" \" is not a playa scene: it is empty");

        let long = format!("playa1-{}", "A".repeat(1000));
        let err = error(arg(&long));
        assert!(
            err.starts_with(&format!(
                "{}… (1007 characters): share code: ",
                &long[..crate::error::EXCERPT_CHARS]
            )),
            "{err}"
        );
    }

    #[test]
    fn bad_pastes_say_why() {
        let text = |t: &str| Source::from_text(t, "pasted text").and_then(|s| s.load());
        assert_eq!(
            error(text(" \n")),
            "pasted text is not a playa scene: it is empty"
        );
        assert_eq!(
            error(text("hello world")),
            "pasted text \"hello world\" is not a playa scene: \
             expected a playa1- share code, a link to one or a scene in RON"
        );
        let long = error(text(&"word ".repeat(100)));
        assert!(
            long.contains(&format!(
                "\"{}…\" (499 characters)",
                &"word ".repeat(12)[..crate::error::EXCERPT_CHARS]
            )),
            "{long}"
        );
        assert!(error(text("(seed: -1)")).starts_with("pasted text: line 1"));
        assert!(error(text("playa1-AAAAAAA")).starts_with("playa1-AAAAAAA: share code: "));
        assert_eq!(
            error(text("http://localhost:8000/\n")),
            "http://localhost:8000/: share code: the link has no share code after #"
        );
        // A share code is not looked up as a file or preset when pasted.
        assert!(error(text("death-valley")).contains("is not a playa scene"));
    }

    /// A sparse file of 1 GiB starting with `head`: reading it whole would
    /// take a gigabyte.
    fn huge(dir: &Path, name: &str, head: &[u8]) -> String {
        let path = dir.join(name);
        let mut file = std::fs::File::create(&path).unwrap();
        std::io::Write::write_all(&mut file, head).unwrap();
        file.set_len(1 << 30).unwrap();
        path.to_str().unwrap().to_string()
    }

    #[test]
    fn huge_files_are_refused_before_they_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let png = recipe::MAX_PNG_BYTES.to_string();
        let ron = crate::scene::MAX_RON_BYTES.to_string();
        for (input, limit) in [
            (huge(d, "huge.png", &PNG_SIGNATURE), &png),
            (huge(d, "huge.ron", b"(seed: 1, "), &ron),
            (huge(d, "huge-scene", b"// a scene\n(seed: 1, "), &ron),
        ] {
            let err = error(arg(&input));
            assert!(
                err.contains(&input) && err.contains(limit.as_str()),
                "{err}"
            );
        }
        let err = error(arg(&huge(d, "huge.bin", b"groceries")));
        assert!(err.contains("huge.bin is not a playa scene"), "{err}");
    }
}
