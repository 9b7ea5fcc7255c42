//! A user-preset folder: any files in it list as presets or are skipped
//! with a one-line note, never a panic. Every preset listed loads by its
//! name (and by its name in other letter case) as it was listed, a store
//! in memory holding the same texts lists the same presets, and a preset
//! saved again loads as `save` says it will and leaves the folder holding
//! the same files.
//!
//! The input is the folder's files, `NAME\0CONTENTS\0NAME\0CONTENTS…` (at
//! most four): a name is a file name's bytes (not UTF-8 at all, if so),
//! each `/` in it made `_`; a name ending in `/` is a folder of that name
//! instead of a file.
#![no_main]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use playa::source::user_presets::{Listing, MAX_DESCRIPTION_CHARS, Store, check_name};

/// Most files read from one input.
const MAX_FILES: usize = 4;
/// The longest file name most file systems take, in bytes.
const MAX_NAME_BYTES: usize = 255;

/// A folder of this process's own, emptied for each input: in memory
/// where there is one (`/dev/shm`), since a save syncs its file.
fn folder() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let shm = PathBuf::from("/dev/shm");
        let base = if shm.is_dir() {
            shm
        } else {
            std::env::temp_dir()
        };
        base.join(format!("playa-fuzz-user-presets-{}", std::process::id()))
    })
}

fn one_line(message: &str) {
    assert!(
        !message.contains(['\n', '\r']),
        "a message of more than one line: {message:?}"
    );
    assert!(!message.trim().is_empty(), "an empty message");
}

/// Writes the files of `data` into the empty folder `dir`. Returns the
/// name and text of each file the store lists (`NAME.ron`, the extension
/// in any case), for a store in memory to hold the same; `None` when one
/// of them is no regular `NAME.ron` file whose name and text are UTF-8,
/// which a store in memory cannot hold as it is.
fn write_files(dir: &Path, data: &[u8]) -> Option<BTreeMap<String, String>> {
    let mut texts = Some(BTreeMap::new());
    let mut parts = data.split(|&b| b == 0);
    for _ in 0..MAX_FILES {
        let Some(name) = parts.next() else {
            break;
        };
        let contents = parts.next().unwrap_or_default();
        let folder = name.ends_with(b"/");
        let mut name: Vec<u8> = name
            .iter()
            .map(|&b| if b == b'/' { b'_' } else { b })
            .collect();
        if folder {
            name.pop();
        }
        name.truncate(MAX_NAME_BYTES);
        if name.is_empty() || name == b"." || name == b".." {
            continue;
        }
        let path = dir.join(OsStr::from_bytes(&name));
        let listed = path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("ron"));
        let exact = path.extension() == Some(OsStr::new("ron"));
        let stem = path.file_stem().and_then(OsStr::to_str).map(str::to_string);
        if folder {
            if std::fs::create_dir(&path).is_ok() && listed {
                texts = None;
            }
            continue;
        }
        if path.is_dir() {
            continue;
        }
        std::fs::write(&path, contents).expect("a file is written");
        match (exact, stem, std::str::from_utf8(contents)) {
            (true, Some(stem), Ok(text)) => {
                if let Some(t) = &mut texts {
                    t.insert(stem, text.to_string());
                }
            }
            _ if listed => texts = None,
            _ => {}
        }
    }
    texts
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<std::ffi::OsString> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("the folder lists")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    names.sort();
    names
}

/// `text` as `Store::save` keeps a description: on one line, blanks
/// squeezed, cut, and read back from its comment (so without blanks at its
/// end).
fn kept(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = line.chars().take(MAX_DESCRIPTION_CHARS).collect();
    cut.trim().to_string()
}

fuzz_target!(|data: &[u8]| {
    let dir = folder();
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("the folder is made");
    let texts = write_files(dir, data);

    let mut store = Store::in_folder(dir.clone());
    let Listing { presets, skipped } = store.list().expect("a folder that is there lists");
    for note in &skipped {
        one_line(note);
    }
    for pair in presets.windows(2) {
        let (a, b) = (&pair[0].name, &pair[1].name);
        assert!(
            (a.to_lowercase(), a) <= (b.to_lowercase(), b),
            "{a:?} is listed before {b:?}"
        );
    }
    for p in &presets {
        // Each listed preset is the file `NAME.ron` (`y.Ron` and ` y.ron`
        // are skipped with a note: found by this target).
        assert!(
            dir.join(format!("{}.ron", p.name)).is_file(),
            "{:?} is listed, but there is no file of its name",
            p.name
        );
        assert_eq!(
            check_name(&p.name).ok().as_ref(),
            Some(&p.name),
            "{:?} is listed, a name no preset can have",
            p.name
        );
        p.scene.validate().expect("a listed preset is valid");
        let got = store
            .get(&p.name)
            .unwrap_or_else(|e| panic!("listed {:?} does not load: {e}", p.name));
        assert_eq!(&got, p, "{:?} loads other than it was listed", p.name);
        match store.find(&p.name.to_ascii_uppercase()) {
            Ok(Some(q)) => assert_eq!(q.name.to_lowercase(), p.name.to_lowercase()),
            Ok(None) => panic!("{:?} is not found in capitals", p.name),
            Err(e) => one_line(&e.to_string()),
        }
    }
    if let Some(texts) = texts {
        let memory = Store::in_memory(texts)
            .list()
            .expect("a store in memory lists");
        assert_eq!(
            memory.presets, presets,
            "a store in memory lists other presets"
        );
        assert_eq!(memory.skipped.len(), skipped.len());
    }

    // A preset saved again, as the app does when a person edits it: in
    // place, nothing else in the folder changed (no file left half-written).
    let Some(p) = presets.first() else {
        return;
    };
    let before = entries(dir);
    let saved = store
        .save(&p.name, &p.scene, &p.description, true)
        .unwrap_or_else(|e| panic!("{:?} cannot be saved again: {e}", p.name));
    assert_eq!(saved.scene, p.scene.quantized());
    assert_eq!(saved.description, kept(&p.description));
    let again = store
        .get(&p.name)
        .unwrap_or_else(|e| panic!("{:?} saved does not load: {e}", p.name));
    assert_eq!(again, saved, "{:?} loads other than save said", p.name);
    assert_eq!(
        entries(dir),
        before,
        "saving {:?} changed the folder",
        p.name
    );
});
