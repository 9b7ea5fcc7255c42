//! `playa sheet`: contact sheets of seeds, rolls and sweeps, their codes in
//! the PNG, and bad input refused with one line and no file.

use std::path::Path;

use crate::common::cli::{assert_stderr_has, playa, playa_ok, stderr, text, words};
use playa::explore::randomize::{self, Locks};
use playa::explore::sheet::{self, Cell, Layout};
use playa::{Scene, scene::presets, share};

/// The (code, label) lines of the sheet at `path`.
fn entries(path: &Path) -> Vec<(String, String)> {
    sheet::read(path).unwrap().expect("a sheet")
}

#[test]
fn a_sheet_of_seeds_is_the_library_s_sheet_with_every_code() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = playa_ok(
        d,
        &words("sheet salt-flat --seeds 3..=8 --cols 3 --size 64x36 --out s.png"),
    );
    assert!(text(&o.stdout).contains("6 thumbnails"), "{o:?}");
    let got = entries(&d.join("s.png"));
    let base = presets::load("salt-flat").unwrap();
    let cells: Vec<Cell> = (3..=8)
        .map(|seed| Cell {
            scene: Scene {
                seed,
                ..base.clone()
            },
            label: format!("seed {seed}"),
        })
        .collect();
    let want: Vec<(String, String)> = cells
        .iter()
        .map(|c| (share::encode(&c.scene), c.label.clone()))
        .collect();
    assert_eq!(got, want);
    // The pixels are the library's sheet.
    let layout = Layout {
        cols: 3,
        thumb: (64, 36),
    };
    let expected = sheet::render(&cells, &layout).unwrap();
    let decoded = image::open(d.join("s.png")).unwrap().to_rgba8();
    assert!(decoded == expected);
}

#[test]
fn rolls_are_playa_random_s_scenes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(
        d,
        &words("sheet golden-hour --rolls 0..4 --lock seed --size 48x27 --out r.png"),
    );
    let start = presets::load("golden-hour").unwrap();
    let mut locks = Locks::default();
    locks.set("seed", true);
    let got = entries(&d.join("r.png"));
    assert_eq!(got.len(), 4);
    for (roll, (code, label)) in got.iter().enumerate() {
        assert_eq!(label, &format!("roll {roll}"));
        let scene = share::decode(code).unwrap();
        assert_eq!(
            scene,
            randomize::new_scene(&start, &locks, roll as u64).quantized()
        );
    }
    // With --vary, Vary's.
    playa_ok(
        d,
        &words("sheet --rolls 5..=6 --vary 0.2 --size 48x27 --out v.png"),
    );
    let got = entries(&d.join("v.png"));
    let start = presets::load(presets::DEFAULT).unwrap();
    assert_eq!(
        share::decode(&got[1].0).unwrap(),
        randomize::vary(&start, &Locks::default(), 6, 0.2).quantized()
    );
}

#[test]
fn a_sweep_labels_each_value_and_several_inputs_their_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(
        d,
        &words("sheet badlands salt-flat --set horizon=0.4..=0.6:3 --size 48x27 --out w.png"),
    );
    let labels: Vec<String> = entries(&d.join("w.png")).into_iter().map(|e| e.1).collect();
    assert_eq!(
        labels,
        [
            "badlands horizon=0.4",
            "badlands horizon=0.5",
            "badlands horizon=0.6",
            "salt-flat horizon=0.4",
            "salt-flat horizon=0.5",
            "salt-flat horizon=0.6",
        ]
    );
}

#[test]
fn the_same_bytes_on_any_number_of_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let line = "sheet --seeds 0..5 --size 40x24 --cols 2";
    playa_ok(d, &words(&format!("{line} --jobs 1 --out one.png")));
    playa_ok(d, &words(&format!("{line} --jobs 3 --out three.png")));
    assert!(
        std::fs::read(d.join("one.png")).unwrap() == std::fs::read(d.join("three.png")).unwrap()
    );
}

#[test]
fn a_sheet_is_not_taken_for_one_scene() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(d, &words("sheet --seeds 1..3 --size 32x18 --out s.png"));
    let o = playa(d, &words("render s.png --out x"));
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(&o, "s.png: a contact sheet of 2 scenes");
    // `playa share` lists its codes.
    let o = playa_ok(d, &["share", "s.png"]);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[1].ends_with("\tseed 2"), "{out}");
    let code = lines[1].split('\t').next().unwrap();
    assert_eq!(share::decode(code).unwrap().seed, 2);
    let o = playa(d, &words("animate s.png --out a.png"));
    assert!(!o.status.success());
    assert_stderr_has(&o, "contact sheet");
}

#[test]
fn existing_sheets_are_kept_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.png"), b"keep").unwrap();
    let o = playa_ok(d, &words("sheet --size 32x18 --out s.png"));
    assert!(text(&o.stdout).contains("left alone"));
    assert_eq!(std::fs::read(d.join("s.png")).unwrap(), b"keep");
    playa_ok(d, &words("sheet --size 32x18 --out s.png --force"));
    assert_eq!(entries(&d.join("s.png")).len(), 1);
}

#[test]
fn bad_input_is_one_line_and_writes_nothing() {
    for (args, code, needle) in [
        ("--seeds 5..5", 2, "--seeds \"5..5\" is empty"),
        ("--rolls x..3", 2, "is not a whole number"),
        ("--rolls 0..3 --vary 2", 2, "--vary 2 is out of range"),
        ("--rolls 0..3 --lock rain", 2, "no such group"),
        (
            "--cols 0",
            2,
            "--cols \"0\" must be a whole number from 1 to 64",
        ),
        ("--size 0x10", 2, "--size"),
        ("--size 5000x10", 2, "at most 4096"),
        // 1:4096 was drawn, as render's --size refuses to.
        (
            "--rolls 0..4 --size 1x4096",
            2,
            "playa draws aspects up to 1:8",
        ),
        // 256 rows of default thumbnails: refused at once, not after the
        // rolls were made.
        (
            "--rolls 0..1024 --size 320x180",
            2,
            "use fewer or smaller thumbnails",
        ),
        ("--seeds 0..2000", 2, "more than the limit of 1024"),
        (
            "--seeds 0..3 --set sun_x=0,1",
            2,
            "a sheet shows one at a time",
        ),
        ("--set rocks.shine=1", 2, "rocks has no setting \"shine\""),
        (
            "--set rocks.roughness=-1",
            2,
            "rocks.roughness -1 is out of range",
        ),
        ("missing.ron", 1, "missing.ron"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let size = if args.contains("--size") {
            ""
        } else {
            "--size 32x18"
        };
        let line = format!("sheet {size} {args} --out s.png");
        let o = playa(dir.path(), &words(&line));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{line}: {err}");
        assert!(err.contains(needle), "{line}: no {needle:?} in:\n{err}");
        assert_eq!(err.lines().count(), 1, "{line}:\n{err}");
        assert!(!dir.path().join("s.png").exists(), "{line}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{line}");
    }
    let dir = tempfile::tempdir().unwrap();
    let o = playa(dir.path(), &words("sheet --out s.txt"));
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "ending in .png");
    let o = playa(dir.path(), &["sheet"]);
    assert_eq!(o.status.code(), Some(2));
    let o = playa(dir.path(), &words("sheet --vary 0.3 --out s.png"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--rolls"), "{}", stderr(&o));
}

#[test]
fn a_sheet_too_large_is_refused_before_any_scene_is_made() {
    // The sheet's size was checked once every scene had been made (4.4 s of
    // rolls): an input that cannot be read shows which comes first.
    let dir = tempfile::tempdir().unwrap();
    let o = playa(
        dir.path(),
        &words("sheet missing.ron --seeds 0..1024 --out s.png"),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("contact sheet") && !err.contains("missing.ron"),
        "{err}"
    );
}

#[test]
fn damaged_sheets_are_one_line_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(d, &words("sheet --seeds 1..4 --size 32x18 --out s.png"));
    let bytes = std::fs::read(d.join("s.png")).unwrap();
    let mut damaged = Vec::new();
    for cut in [0, 8, 20, 40, 60, 100, bytes.len() / 2, bytes.len() - 1] {
        damaged.push(bytes[..cut].to_vec());
    }
    for i in (8..bytes.len()).step_by(bytes.len() / 13 + 1) {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0x55;
        damaged.push(flipped);
    }
    for (k, bad) in damaged.iter().enumerate() {
        std::fs::write(d.join("bad.png"), bad).unwrap();
        for args in [
            &["share", "bad.png"][..],
            &["render", "bad.png", "--size", "16x9"],
        ] {
            let command = args[0];
            let o = playa(d, args);
            let err = stderr(&o);
            assert!(!err.contains("panicked"), "{command} {k}: {err}");
            if !o.status.success() {
                assert!(
                    err.lines().all(|l| l.starts_with("playa: ")),
                    "{command} {k}: {err}"
                );
            }
        }
    }
}
