//! A manifest is untrusted input, and a rerun repairs a batch: a recorded
//! file that is not a plain name in the folder is refused by `playa
//! manifest check` and by a rerun, naming the manifest and the line, and
//! nothing outside the folder is read or written.

use std::path::Path;

use crate::common::cli::{assert_stderr_has, pictures, playa, playa_ok, stderr, text, words};

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
    let (sha256, bytes) = playa::batch::manifest::hash_file(like).unwrap();
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

/// Flips one bit in the middle of the PNG's first IDAT chunk and writes the
/// chunk's CRC again, so the file still reads as a PNG with its recipe.
fn flip_a_pixel_byte(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let mut at = 8;
    loop {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        if &bytes[at + 4..at + 8] == b"IDAT" {
            bytes[at + 8 + len / 2] ^= 0x01;
            let crc = crc32(&bytes[at + 4..at + 8 + len]);
            bytes[at + 8 + len..at + 12 + len].copy_from_slice(&crc.to_be_bytes());
            break;
        }
        at += 12 + len;
    }
    std::fs::write(path, bytes).unwrap();
}

/// The CRC-32 of PNG chunks (ISO 3309), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn a_rerun_renders_a_lost_or_changed_picture_again_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for shard in [None, Some("1/2")] {
        let _ = std::fs::remove_dir_all(d.join("b"));
        // Enough jobs for shard 1 of 2 to have two.
        let mut args = words("render --seeds 1..9 --size 64x36 --out b");
        args.extend(shard.map(|s| ["--shard", s]).into_iter().flatten());
        playa_ok(d, &args);
        let made = pictures(&d.join("b"));
        let mut names = made.keys();
        let (lost, changed) = (names.next().unwrap(), names.next().unwrap());
        std::fs::remove_file(d.join("b").join(lost)).unwrap();
        flip_a_pixel_byte(&d.join("b").join(changed));
        assert!(
            playa::output::recipe::read_texts(
                std::fs::File::open(d.join("b").join(changed))
                    .map(std::io::BufReader::new)
                    .unwrap(),
                "",
                [playa::output::recipe::CODE_KEY],
            )
            .unwrap()[0]
                .is_some()
        );

        let o = playa_ok(d, &args);
        let summary = text(&o.stdout);
        assert!(summary.starts_with("2 images in"), "{shard:?}: {summary}");
        assert!(summary.contains("2 repaired"), "{shard:?}: {summary}");
        assert_eq!(pictures(&d.join("b")), made, "{shard:?}");
        if shard.is_none() {
            let o = playa(d, &["manifest", "check", "b"]);
            assert!(o.status.success(), "{}{}", text(&o.stdout), stderr(&o));
            assert!(text(&o.stdout).contains("all present once"));
        }
        // A third run has nothing to do.
        let o = playa_ok(d, &args);
        let summary = text(&o.stdout);
        assert!(summary.starts_with("0 images in"), "{shard:?}: {summary}");
        assert!(!summary.contains("repaired"), "{shard:?}: {summary}");
    }
}

#[test]
fn a_batch_whose_only_input_is_bad_leaves_the_manifest_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(d, &words(BATCH));
    let manifest = std::fs::read(d.join("b/playa-manifest.jsonl")).unwrap();
    for bad in ["nosuch.ron", "--code=playa1-nonsense"] {
        let o = playa(
            d,
            &[
                "render", bad, "--seeds", "1..4", "--size", "64x36", "--out", "b",
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{bad}");
        assert_eq!(
            std::fs::read(d.join("b/playa-manifest.jsonl")).unwrap(),
            manifest,
            "{bad}: the manifest was replaced"
        );
    }
    let o = playa(d, &["manifest", "check", "b"]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    // Into a new directory: no manifest of an empty batch either.
    let o = playa(d, &words("render nosuch.ron --out c"));
    assert_eq!(o.status.code(), Some(1));
    assert!(!d.join("c/playa-manifest.jsonl").exists());
}
