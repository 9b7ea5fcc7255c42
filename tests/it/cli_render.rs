//! `playa render` end to end: batches, naming, skipping, and every bad input
//! giving one line that names it while the rest of the batch is rendered.

use crate::common::cli::{files, playa, playa_ok, stderr, words};

#[test]
fn no_input_renders_the_default_preset() {
    let dir = tempfile::tempdir().unwrap();
    let o = playa_ok(dir.path(), &["render", "--size", "64x36"]);
    assert_eq!(files(dir.path()), ["death-valley-1.png"]);
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(
        summary.contains("1 image in") && summary.contains("images/s"),
        "{summary}"
    );
}

#[test]
fn list_names_every_preset_with_its_whole_description() {
    let dir = tempfile::tempdir().unwrap();
    let o = playa(dir.path(), &["render", "--list"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    // Not a terminal: one line a preset, nothing cut; then the user's
    // (none here).
    let shipped = playa::scene::presets::PRESETS.len();
    assert_eq!(out.lines().count(), shipped + 2, "{out}");
    assert!(
        out.lines()
            .nth(shipped + 1)
            .unwrap()
            .starts_with("Yours, in "),
        "{out}"
    );
    for p in playa::scene::presets::PRESETS {
        let line = format!("{:<20} {}", p.name, p.description());
        assert!(out.lines().any(|l| l == line), "{line:?} not in:\n{out}");
    }
    // Both lines of the default preset's comment.
    assert!(
        out.contains(
            "a pale playa scattered with clumps of stones, a red dome tent. The default scene."
        ),
        "{out}"
    );
}

#[test]
fn batch_of_presets_and_seeds_into_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words("render salt-flat golden-hour --seeds 5..=7 --size 48x27 --out out --jobs 3"),
    );
    assert_eq!(
        files(&dir.path().join("out")),
        [
            "golden-hour-5.png",
            "golden-hour-6.png",
            "golden-hour-7.png",
            "salt-flat-5.png",
            "salt-flat-6.png",
            "salt-flat-7.png"
        ]
    );
    // The recipe carries the seed it was rendered with.
    let recipe =
        playa::output::recipe::read_recipe(&dir.path().join("out/salt-flat-6.png")).unwrap();
    assert_eq!(
        (recipe.scene.seed, recipe.width, recipe.height),
        (6, 48, 27)
    );
}

#[test]
fn existing_files_are_skipped_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("death-valley-3.png");
    std::fs::write(&path, b"keep me").unwrap();
    let o = playa(dir.path(), &words("render --seed 3 --size 32x18"));
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("1 skipped"));
    assert_eq!(std::fs::read(&path).unwrap(), b"keep me");
    let o = playa(dir.path(), &words("render --seed 3 --size 32x18 --force"));
    assert!(o.status.success());
    assert_ne!(std::fs::read(&path).unwrap(), b"keep me");
}

#[test]
fn a_picture_re_renders_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words("render night-under-stars --seed 9 --size 120x68 --out a.png"),
    );
    playa_ok(dir.path(), &words("render a.png --size 120x68 --out again"));
    assert_eq!(files(&dir.path().join("again")), ["a-9.png"]);
    assert_eq!(
        std::fs::read(dir.path().join("a.png")).unwrap(),
        std::fs::read(dir.path().join("again/a-9.png")).unwrap()
    );
    // A picture named after its seed keeps its name.
    playa_ok(
        dir.path(),
        &words("render again/a-9.png --size 16x9 --out y"),
    );
    assert_eq!(files(&dir.path().join("y")), ["a-9.png"]);
}

#[test]
fn a_picture_re_renders_at_its_own_size_without_size() {
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words("render golden-hour --seed 2 --size 300x169 --out b.png"),
    );
    playa_ok(dir.path(), &words("render b.png --out again"));
    assert_eq!(files(&dir.path().join("again")), ["b-2.png"]);
    let again = std::fs::read(dir.path().join("again/b-2.png")).unwrap();
    let size = image::load_from_memory(&again).unwrap();
    assert_eq!((size.width(), size.height()), (300, 169));
    assert!(
        std::fs::read(dir.path().join("b.png")).unwrap() == again,
        "the re-rendered picture differs"
    );
    // A new seed keeps the picture's size too; --size still wins.
    playa_ok(dir.path(), &words("render b.png --seeds 3..5 --out seeds"));
    for seed in [3, 4] {
        let path = dir.path().join(format!("seeds/b-{seed}.png"));
        let recipe = playa::output::recipe::read_recipe(&path).unwrap();
        assert_eq!(
            (recipe.width, recipe.height, recipe.scene.seed),
            (300, 169, seed)
        );
    }
    playa_ok(
        dir.path(),
        &words("render b.png --size 64x36 --out small.png"),
    );
    let recipe = playa::output::recipe::read_recipe(&dir.path().join("small.png")).unwrap();
    assert_eq!((recipe.width, recipe.height), (64, 36));
}

#[test]
fn each_bad_input_is_named_and_the_rest_is_rendered() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("broken.ron"), "(seed: 1,\n  colour: 3)").unwrap();
    std::fs::write(d.join("absurd.ron"), "(automaton: (columns: 1000000000))").unwrap();
    std::fs::write(d.join("good.ron"), "(seed: 4, time: Dusk)").unwrap();
    let mut plain = Vec::new();
    image::DynamicImage::ImageRgba8(image::RgbaImage::new(8, 8))
        .write_to(
            &mut std::io::Cursor::new(&mut plain),
            image::ImageFormat::Png,
        )
        .unwrap();
    std::fs::write(d.join("plain.png"), plain).unwrap();
    std::fs::write(d.join("fake.png"), "not really").unwrap();
    let o = playa(
        d,
        &words(
            "render missing.ron broken.ron absurd.ron plain.png fake.png no-such-preset \
             good.ron salt-flat --size 40x22 --out out",
        ),
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let line = |needle: &str, what: &str| {
        assert!(
            err.lines().any(|l| l.contains(needle) && l.contains(what)),
            "no line with {needle:?} and {what:?} in:\n{err}"
        )
    };
    line("missing.ron", "no such file");
    line("broken.ron", "line 2, column");
    line("broken.ron", "colour");
    line("absurd.ron", "2048");
    line("plain.png", "no playa:scene recipe");
    line("fake.png", "not a PNG");
    line("no-such-preset", "no such preset");
    assert_eq!(files(&d.join("out")), ["good-4.png", "salt-flat-3.png"]);
}

#[test]
fn links_render_like_their_codes_and_bad_ones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scene = playa::Scene {
        seed: 21,
        ..playa::scene::presets::load("badlands").unwrap()
    };
    let link = playa::share::link("https://example.org/playa/", &scene).unwrap();
    let o = playa(
        d,
        &[
            "render",
            &link,
            "https://example.org/playa/",
            "badlands",
            "--seed",
            "21",
            "--size",
            "40x22",
            "--out",
            "out",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    // One line for the bad link, then the batch's summary.
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.lines()
            .next()
            .unwrap()
            .contains("https://example.org/playa/: share code: the link has no share code after #"),
        "{err}"
    );
    assert_eq!(files(&d.join("out")), ["badlands-21.png", "shared-21.png"]);
    let from_link = std::fs::read(d.join("out/shared-21.png")).unwrap();
    let from_preset = std::fs::read(d.join("out/badlands-21.png")).unwrap();
    assert!(from_link == from_preset, "the two PNG files differ");
}

#[test]
fn bad_sizes_are_refused_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    for size in ["0x10", "10x0", "65537x10", "65536x65537", "axb"] {
        let o = playa(dir.path(), &["render", "--size", size]);
        assert_eq!(o.status.code(), Some(2), "{size}");
        assert!(
            stderr(&o).contains(size.split('x').next().unwrap()),
            "{size}: {}",
            stderr(&o)
        );
    }
    assert!(stderr(&playa(dir.path(), &["render", "--size", "70000x10"])).contains("65536"));
    // Held in memory (not fast compression): today's limits.
    for size in ["16385x10", "16384x16385"] {
        let o = playa(
            dir.path(),
            &["render", "--size", size, "--compression", "best"],
        );
        assert_eq!(o.status.code(), Some(2), "{size}");
        assert!(stderr(&o).contains("16384"), "{size}: {}", stderr(&o));
        assert!(stderr(&o).contains("fast"), "{size}: {}", stderr(&o));
    }
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn unwritable_output_is_named_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    // The output "directory" is a file: nothing can be written under it,
    // which is said once, before any picture is tried.
    let o = playa(
        dir.path(),
        &words("render salt-flat --size 16x9 --out file/sub"),
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("--out file/sub: the folder cannot be made"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(files(dir.path()), ["file"]);
}

#[test]
fn one_file_out_needs_one_image() {
    let dir = tempfile::tempdir().unwrap();
    let o = playa(
        dir.path(),
        &words("render --seeds 1..3 --out one.png --size 16x9"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("one.png"));
    assert!(files(dir.path()).is_empty());
}

#[test]
fn no_temporary_files_are_left() {
    let dir = tempfile::tempdir().unwrap();
    let o = playa(
        dir.path(),
        &words("render --seeds 0..4 --size 32x18 --jobs 2"),
    );
    assert!(o.status.success());
    assert_eq!(files(dir.path()).len(), 4);
    assert!(
        files(dir.path())
            .iter()
            .all(|f| f.ends_with(".png") && !f.starts_with('.'))
    );
}

#[test]
fn a_crop_is_the_scene_s_picture_cut_and_renders_again_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words("render badlands --size 54x54 --crop --out crop.png"),
    );
    playa_ok(
        dir.path(),
        &words("render badlands --size 96x54 --out full.png"),
    );
    let crop = dir.path().join("crop.png");
    let recipe = playa::output::recipe::read_recipe(&crop).unwrap();
    let window = recipe.window.expect("the crop is recorded");
    assert_eq!(window.to_string(), "54x54+21+0 of 96x54");
    // The middle of the scene's own picture, not the scene laid out square.
    let full = image::open(dir.path().join("full.png")).unwrap().to_rgba8();
    let cut = image::imageops::crop_imm(&full, 21, 0, 54, 54).to_image();
    assert_eq!(image::open(&crop).unwrap().to_rgba8(), cut);

    // Made again from the picture alone: the same bytes, window and all.
    playa_ok(dir.path(), &words("render crop.png --out again.png"));
    let again = std::fs::read(dir.path().join("again.png")).unwrap();
    assert_eq!(again, std::fs::read(&crop).unwrap());

    let o = playa(dir.path(), &words("render crop.png --tiles pyramid"));
    assert!(!o.status.success());
    let err = stderr(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("--tiles makes pyramids of whole pictures"),
        "{err}"
    );
}

#[test]
fn a_size_thinner_than_8_to_1_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (size, says) in [
        (
            "16384x3",
            "16384×3 is 5461:1; playa draws aspects up to 8:1",
        ),
        (
            "3x16384",
            "3×16384 is 1:5461; playa draws aspects up to 1:8",
        ),
    ] {
        let o = playa(dir.path(), &["render", "--size", size]);
        assert!(!o.status.success(), "{size}");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
    assert!(files(dir.path()).is_empty());
    playa_ok(dir.path(), &words("render --size 400x50"));
}

#[test]
fn a_window_is_that_rectangle_of_the_picture_and_renders_again_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(d, &words("render badlands --size 96x54 --out full.png"));
    let full = image::open(d.join("full.png")).unwrap().to_rgba8();
    for compression in ["fast", "best"] {
        let out = format!("window-{compression}.png");
        playa_ok(
            d,
            &[
                &words("render badlands --size 96x54 --window 10,7,30,20 --out")[..],
                &[&out, "--compression", compression],
            ]
            .concat(),
        );
        let window = d.join(&out);
        let cut = image::imageops::crop_imm(&full, 10, 7, 30, 20).to_image();
        assert_eq!(
            image::open(&window).unwrap().to_rgba8(),
            cut,
            "{compression}"
        );
        let recipe = playa::output::recipe::read_recipe(&window).unwrap();
        assert_eq!(
            recipe.window.expect("the window is recorded").to_string(),
            "30x20+10+7 of 96x54"
        );
        // Made again from the window alone: the same bytes.
        let again = format!("again-{compression}.png");
        playa_ok(
            d,
            &[
                &["render", &out, "--out", &again],
                &["--compression", compression][..],
            ]
            .concat(),
        );
        assert_eq!(
            std::fs::read(d.join(&again)).unwrap(),
            std::fs::read(&window).unwrap(),
            "{compression}"
        );
    }
    // A window of a crop is that rectangle of the crop.
    playa_ok(
        d,
        &words("render badlands --size 54x54 --crop --out crop.png"),
    );
    playa_ok(
        d,
        &words("render crop.png --window 3,4,20,10 --out of-crop.png"),
    );
    let crop = image::open(d.join("crop.png")).unwrap().to_rgba8();
    assert_eq!(
        image::open(d.join("of-crop.png")).unwrap().to_rgba8(),
        image::imageops::crop_imm(&crop, 3, 4, 20, 10).to_image()
    );
    // The whole picture as a window is the plain picture.
    playa_ok(
        d,
        &words("render badlands --size 96x54 --window 0,0,96,54 --out whole.png"),
    );
    assert_eq!(
        std::fs::read(d.join("whole.png")).unwrap(),
        std::fs::read(d.join("full.png")).unwrap()
    );
}

#[test]
fn a_bad_window_is_refused_in_one_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (window, says) in [
        ("90,0,10,10", "reaches past the 96x54 picture (to 100,10)"),
        ("0,50,10,5", "reaches past the 96x54 picture (to 10,55)"),
        ("4294967295,0,2,2", "reaches past the 96x54 picture"),
        ("0,0,0,5", "the window is empty (0x5)"),
        ("0,0,5,0", "the window is empty (5x0)"),
        ("1,2,3", "give X,Y,W,H"),
        ("1,2,3,4,5", "give X,Y,W,H"),
        ("a,b,c,d", "give X,Y,W,H"),
        ("-1,0,5,5", "give X,Y,W,H"),
        ("", "give X,Y,W,H"),
    ] {
        let o = playa(
            dir.path(),
            &[
                "render", "--size", "96x54", "--window", window, "--out", "w",
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{window}");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{window}: {err}");
        assert!(
            err.contains("--window") && err.contains(says),
            "{window}: {err}"
        );
        assert!(files(dir.path()).is_empty(), "{window}");
    }
}

/// Every shipped picture in assets/ (made with `--compression best`) is
/// made again, byte for byte, by `playa render` with no other flag: the
/// picture records its compression.
#[test]
fn the_shipped_pictures_make_themselves_again() {
    let dir = tempfile::tempdir().unwrap();
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let shipped: Vec<String> = files(&assets)
        .into_iter()
        .filter(|n| n.ends_with(".png"))
        .map(|n| assets.join(n).to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        shipped.len(),
        playa::scene::presets::PRESETS.len(),
        "{shipped:?}"
    );
    let mut args = vec!["render"];
    args.extend(shipped.iter().map(String::as_str));
    playa_ok(dir.path(), &args);
    for asset in &shipped {
        let asset = std::path::Path::new(asset);
        let seed = playa::output::recipe::read_recipe(asset)
            .unwrap()
            .scene
            .seed;
        let stem = asset.file_stem().unwrap().to_string_lossy();
        let again = std::fs::read(dir.path().join(format!("{stem}-{seed}.png"))).unwrap();
        assert!(
            again == std::fs::read(asset).unwrap(),
            "{stem}: not the same bytes"
        );
    }
}

/// A picture written with each compression is made again to the same
/// bytes, and an explicit `--compression` overrides the recorded one.
#[test]
fn a_picture_is_made_again_with_its_own_compression_unless_one_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    for c in ["fast", "default", "best"] {
        let made = format!("{c}.png");
        let again = format!("again-{c}.png");
        playa_ok(
            dir.path(),
            &[
                "render",
                "salt-flat",
                "--size",
                "96x54",
                "--compression",
                c,
                "--out",
                &made,
            ],
        );
        let recorded = playa::output::recipe::read_recipe(&dir.path().join(&made)).unwrap();
        assert_eq!(recorded.compression.map(|c| c.name()), Some(c));
        playa_ok(dir.path(), &["render", &made, "--out", &again]);
        assert!(read(&made) == read(&again), "{c}: not the same bytes");
    }
    assert!(read("fast.png") != read("best.png"));
    playa_ok(
        dir.path(),
        &[
            "render",
            "best.png",
            "--compression",
            "fast",
            "--out",
            "over.png",
        ],
    );
    assert!(read("over.png") == read("fast.png"));
}

/// A frame of `playa animate --frames-dir` is a picture playa wrote, so it
/// too is made again to the same bytes, keeping the animation it is a frame
/// of; made with another seed or size it is a plain picture, and an APNG's
/// still never claims to be a frame.
#[test]
fn a_frame_is_made_again_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    let frame_of = |name: &str| {
        playa::output::recipe::read_recipe(&dir.path().join(name))
            .unwrap()
            .frame_of
    };
    let film = "animate salt-flat --frames 0..3 --size 96x54";
    playa_ok(dir.path(), &words(&format!("{film} --frames-dir frames")));
    playa_ok(
        dir.path(),
        &words("render frames/frame-0002.png --out again.png"),
    );
    assert!(
        read("again.png") == read("frames/frame-0002.png"),
        "not the same bytes"
    );
    assert!(frame_of("frames/frame-0002.png").is_some());
    playa_ok(
        dir.path(),
        &words("render frames/frame-0002.png --size 64x36 --out small.png"),
    );
    assert_eq!(frame_of("small.png"), None);
    playa_ok(dir.path(), &words(&format!("{film} --out anim.png")));
    assert_eq!(frame_of("anim.png"), None);
    playa_ok(dir.path(), &words("render anim.png --out still.png"));
    assert_eq!(frame_of("still.png"), None);
}

/// Every range of `render` and `sheet` (`--seeds`, `--rolls`) follows one
/// rule, and a range that holds nothing, counts down or lacks an end is one
/// line naming the flag, the text and the rule, with exit 2 and no file.
#[test]
fn empty_reversed_and_half_ranges_are_refused_in_one_line() {
    let rule = "(A..B leaves B out; A..=B includes it)";
    for (line, says) in [
        ("render --seeds 8..2", "--seeds \"8..2\" is reversed"),
        ("render --seeds 5..5", "--seeds \"5..5\" is empty"),
        ("render --seeds 5..=4", "--seeds \"5..=4\" is empty"),
        ("render --seeds 3..", "--seeds \"3..\" has no end"),
        ("render --seeds ..3", "--seeds \"..3\" has no start"),
        (
            "render --seeds x..3",
            "--seeds \"x..3\": \"x\" is not a whole number",
        ),
        (
            "sheet --seeds 8..2 --out s.png",
            "--seeds \"8..2\" is reversed",
        ),
        (
            "sheet --rolls 5..=4 --out s.png",
            "--rolls \"5..=4\" is empty",
        ),
        (
            "sheet --rolls 2 --out s.png",
            "--rolls \"2\" must be a range, A..B or A..=B",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let o = playa(dir.path(), &words(line));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{line}: {err}");
        assert_eq!(err.lines().count(), 1, "{line}: {err}");
        assert!(
            err.starts_with(&format!("playa: {says}")) && err.trim_end().ends_with(rule),
            "{line}: {err}"
        );
        assert!(files(dir.path()).is_empty(), "{line}");
    }
    // 0..3 is three seeds, 0..=3 four.
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words("render --seeds 0..3 --size 16x9 --out a"),
    );
    playa_ok(
        dir.path(),
        &words("render --seeds 0..=3 --size 16x9 --out b"),
    );
    assert_eq!(files(&dir.path().join("a")).len(), 3);
    assert_eq!(files(&dir.path().join("b")).len(), 4);
}
