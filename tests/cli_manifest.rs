//! A manifest is untrusted input: a recorded file that is not a plain name
//! in the folder is refused by `playa manifest check` and by a rerun,
//! naming the manifest and the line, and nothing outside the folder is read
//! or written.

mod common;

use std::path::Path;

use common::cli::{assert_stderr_has, playa, playa_ok, stderr, text, words};

const BATCH: &str = "render --seeds 1..4 --size 64x36 --out b";

/// Rewrites line `number` (1-based) of `dir`'s whole-batch manifest to
/// record `file`, with the length and SHA-256 of `like`'s bytes.
fn record_file(dir: &Path, number: usize, file: &str, like: &Path) {
    let path = dir.join("playa-manifest.jsonl");
    let mut lines: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut entry: serde_json::Value = serde_json::from_str(&lines[number - 1]).unwrap();
    let (sha256, bytes) = playa::manifest::hash_file(like).unwrap();
    entry["file"] = file.into();
    entry["sha256"] = sha256.into();
    entry["bytes"] = bytes.into();
    lines[number - 1] = entry.to_string();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn a_recorded_file_outside_the_folder_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let victim = d.join("victim.png");
    let absolute = victim.to_str().unwrap().to_string();
    for file in ["../victim.png", absolute.as_str(), "a/b.png"] {
        let _ = std::fs::remove_dir_all(d.join("b"));
        playa_ok(d, &words(BATCH));
        // Each a picture that would pass as the recorded one if followed.
        std::fs::copy(d.join("b/death-valley-1.png"), &victim).unwrap();
        std::fs::create_dir_all(d.join("b/a")).unwrap();
        std::fs::copy(d.join("b/death-valley-1.png"), d.join("b/a/b.png")).unwrap();
        record_file(&d.join("b"), 3, file, &victim);
        let manifest = std::fs::read(d.join("b/playa-manifest.jsonl")).unwrap();
        let before = |path: &Path| {
            (
                std::fs::read(path).unwrap(),
                std::fs::metadata(path).unwrap().modified().unwrap(),
            )
        };
        let (victim_before, inner_before) = (before(&victim), before(&d.join("b/a/b.png")));

        let check = playa(d, &["manifest", "check", "b"]);
        let rerun = playa(d, &words(BATCH));
        for (what, o) in [("check", &check), ("rerun", &rerun)] {
            assert_eq!(
                o.status.code(),
                Some(1),
                "{file}: {what}: {}",
                text(&o.stdout)
            );
            assert_stderr_has(o, "b/playa-manifest.jsonl: line 3: ");
            assert_stderr_has(o, "is not a plain name inside the manifest's folder");
            assert_eq!(
                stderr(o).lines().count(),
                1,
                "{file}: {what}: {}",
                stderr(o)
            );
        }
        assert_eq!(
            std::fs::read(d.join("b/playa-manifest.jsonl")).unwrap(),
            manifest,
            "{file}: the manifest was changed"
        );
        assert_eq!(before(&victim), victim_before, "{file}");
        assert_eq!(before(&d.join("b/a/b.png")), inner_before, "{file}");
    }
}
