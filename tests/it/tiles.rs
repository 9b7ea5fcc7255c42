//! `playa render --tiles`: the Deep Zoom pyramid end to end, against
//! libvips' `dzsave` of the same picture (the same descriptor, the same
//! tiles, the picture's own level pixel for pixel; the levels below are
//! drawn at their size, where `dzsave` halves), and shared over shards.
//!
//! The comparison with libvips needs its `vips` command, so that test is
//! `#[ignore]`d: a plain `cargo test` lists it as ignored with what it needs.
//! `.ci/run` installs `libvips-tools` and runs it with `-- --ignored`; run
//! that way without `vips`, it fails saying so.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::cli::{assert_stderr_has, assert_stdout_has, playa, playa_ok, text, words};

/// Every tile under `files` (`{level}/{col}_{row}.png`), decoded.
fn tiles(files: &Path) -> BTreeMap<String, image::RgbImage> {
    let mut out = BTreeMap::new();
    for level in std::fs::read_dir(files).unwrap() {
        let level = level.unwrap();
        if !level.file_type().unwrap().is_dir() {
            continue;
        }
        for tile in std::fs::read_dir(level.path()).unwrap() {
            let tile = tile.unwrap();
            let name = format!(
                "{}/{}",
                level.file_name().to_string_lossy(),
                tile.file_name().to_string_lossy()
            );
            out.insert(name, image::open(tile.path()).unwrap().to_rgb8());
        }
    }
    out
}

/// The scene of the pyramid tests, at a size whose edge tiles are short.
const SCENE: [&str; 5] = ["golden-hour", "--seed", "4", "--size", "701x397"];

/// Renders [`SCENE`] into `d` as `picture.png` and as PNG tiles in `deep/`;
/// returns the tiles.
fn pyramid(d: &Path) -> BTreeMap<String, image::RgbImage> {
    playa_ok(
        d,
        &[&["render"], &SCENE[..], &["--out", "picture.png"]].concat(),
    );
    let o = playa_ok(
        d,
        &[
            &["render"],
            &SCENE[..],
            &["--tiles", "deep", "--tile-format", "png"],
        ]
        .concat(),
    );
    assert_stdout_has(&o, "in 11 levels");
    tiles(&d.join("deep/golden-hour-4_files"))
}

#[test]
fn the_pyramid_is_the_picture_and_each_level_is_drawn_at_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ours = pyramid(d);
    // The picture's own level is the picture.
    let picture = image::open(d.join("picture.png")).unwrap().to_rgb8();
    let corner = &ours["10/0_0.png"];
    assert_eq!(corner.dimensions(), (255, 255));
    for (x, y, p) in corner.enumerate_pixels() {
        assert_eq!(p, picture.get_pixel(x, y));
    }
    // The level below is the scene drawn at its size, not halved.
    playa_ok(
        d,
        &words("render golden-hour --seed 4 --size 351x199 --out half.png"),
    );
    let half = image::open(d.join("half.png")).unwrap().to_rgb8();
    let below = &ours["9/0_0.png"];
    assert_eq!(below.dimensions(), (255, 199));
    for (x, y, p) in below.enumerate_pixels() {
        assert_eq!(p, half.get_pixel(x, y));
    }
}

#[test]
#[ignore = "needs libvips (its vips command); .ci/run runs it"]
fn the_pyramid_is_libvips_dzsave_of_the_picture() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ours = pyramid(d);
    let vips = Command::new("vips")
        .current_dir(d)
        .args([
            "dzsave",
            "picture.png",
            "vips",
            "--tile-size",
            "254",
            "--overlap",
            "1",
            "--suffix",
            ".png",
        ])
        .output();
    match vips {
        Ok(o) => assert!(o.status.success(), "vips: {}", text(&o.stderr)),
        Err(e) => panic!(
            "the comparison with libvips cannot run: vips: {e} (apt install libvips-tools; \
             .ci/run does)"
        ),
    }
    let theirs = tiles(&d.join("vips_files"));
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        theirs.keys().collect::<Vec<_>>(),
        "the same tiles"
    );
    for (name, tile) in &ours {
        assert_eq!(tile.dimensions(), theirs[name].dimensions(), "{name}");
        if name.starts_with("10/") {
            assert!(*tile == theirs[name], "tile {name} differs from libvips'");
        }
    }
    // dzsave halves the picture; playa draws each level, so they differ.
    assert!(ours["9/0_0.png"] != theirs["9/0_0.png"]);
    // The descriptors say the same.
    let attributes = |path: &Path| {
        let xml = std::fs::read_to_string(path).unwrap();
        let mut found: Vec<String> = ["Format", "Overlap", "TileSize", "Width", "Height"]
            .iter()
            .map(|a| {
                let at = xml.find(&format!("{a}=\"")).unwrap() + a.len() + 2;
                xml[at..at + xml[at..].find('"').unwrap()].to_string()
            })
            .collect();
        found.sort();
        found
    };
    assert_eq!(
        attributes(&d.join("deep/golden-hour-4.dzi")),
        attributes(&d.join("vips.dzi"))
    );
}

#[test]
fn tiles_make_a_viewer_and_refuse_batches() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(d, &words("render --size 300x169 --tiles t"));
    let html = std::fs::read_to_string(d.join("t/index.html")).unwrap();
    assert!(
        html.contains("openseadragon/openseadragon.min.js"),
        "{html}"
    );
    assert!(html.contains("\"Url\":\"death-valley-1_files/\""), "{html}");
    assert!(d.join("t/openseadragon/LICENSE.txt").exists());
    let top = image::open(d.join("t/death-valley-1_files/9/1_0.jpeg")).unwrap();
    assert_eq!((top.width(), top.height()), (300 - 253, 169));

    let o = playa(d, &words("render --seeds 1..3 --size 30x17 --tiles u"));
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "one picture");
    let o = playa(d, &words("render --size 30x17 --tiles u --out x"));
    assert_eq!(o.status.code(), Some(2));
    assert!(!d.join("u").exists());
}

/// Every file under `dir` but the manifests, by path, with its bytes.
fn every_file(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let name = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else if !name.starts_with("playa-manifest") {
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

#[test]
fn three_shards_make_the_pyramid_of_one_byte_for_byte_and_reruns_skip_done_tiles() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = "render badlands --seed 2 --size 700x394 --tile-format png --tiles";
    let o = playa_ok(d, &[&words(args)[..], &["one"]].concat());
    assert_stdout_has(&o, "17 tiles in 11 levels");
    let mut shares = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let o = playa_ok(
            d,
            &[&words(args)[..], &["three", "--shard", &shard]].concat(),
        );
        let out = text(&o.stdout);
        let made: usize = out.split(' ').next().unwrap().parse().unwrap();
        assert!(
            out.contains(&format!("shard {i}/3: {made} of 17 tiles")),
            "{out}"
        );
        shares.push(made);
    }
    assert_eq!(shares.iter().sum::<usize>(), 17, "{shares:?}");
    assert!(shares.iter().all(|&n| n > 0 && n < 17), "{shares:?}");
    let (one, three) = (every_file(&d.join("one")), every_file(&d.join("three")));
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        three.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &one {
        assert!(*bytes == three[name], "{name} differs");
    }
    // Each shard's manifest records its own tiles, each tile once.
    let mut recorded = Vec::new();
    for i in 1..=3 {
        let m = playa::batch::manifest::Manifest::read(
            &d.join(format!("three/playa-manifest-{i}-of-3.jsonl")),
        )
        .unwrap();
        assert_eq!(m.entries.len(), shares[i - 1]);
        assert_eq!(m.header.tiles.as_deref(), Some("png"));
        recorded.extend(m.entries.into_iter().map(|e| e.file));
    }
    recorded.sort();
    let mut tiles: Vec<&String> = one.keys().filter(|k| k.contains("_files/")).collect();
    tiles.sort();
    assert_eq!(recorded.iter().collect::<Vec<_>>(), tiles);

    // A rerun makes nothing; a tile lost is made again, alone.
    let o = playa_ok(d, &[&words(args)[..], &["one"]].concat());
    assert_stdout_has(&o, "0 tiles in 11 levels");
    assert_stdout_has(&o, "17 already done");
    std::fs::remove_file(d.join("one/badlands-2_files/10/1_1.png")).unwrap();
    let o = playa_ok(d, &[&words(args)[..], &["one"]].concat());
    assert_stdout_has(&o, "1 tiles in 11 levels");
    assert!(every_file(&d.join("one")) == one, "made again the same");
    // `playa manifest check` counts tiles: every one there once, as recorded.
    for pyramid in ["one", "three"] {
        let o = playa_ok(d, &["manifest", "check", pyramid]);
        assert_stdout_has(&o, "17 jobs in");
        assert_stdout_has(&o, "all present once, every file as recorded");
    }
}
