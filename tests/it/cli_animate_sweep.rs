//! `playa animate --set KEY=A..B:N` end to end: the frames are the scene at
//! each value of one setting (a day's light, the wind), the APNG is made
//! again from itself, the GIF is the same on every run, and every bad
//! input is one line, exit 2 and no file.

use std::io::{BufReader, Cursor};
use std::path::Path;
use std::process::Output;

use crate::common::cli::{files, playa, playa_ok, stderr, words};
use image::AnimationDecoder;
use image::codecs::png::PngDecoder;

/// Runs `playa animate args…` in `dir`, which must succeed.
fn animate(dir: &Path, args: &[&str]) -> Output {
    playa_ok(dir, &[&["animate"], args].concat())
}

/// An APNG's frames, composed.
fn apng_frames(path: &Path) -> Vec<image::RgbaImage> {
    let file = BufReader::new(std::fs::File::open(path).unwrap());
    PngDecoder::new(file)
        .unwrap()
        .apng()
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
        .into_iter()
        .map(|f| f.into_buffer())
        .collect()
}

/// The pixels of `playa render args…` (one picture, `at.png`).
fn rendered(dir: &Path, args: &[&str]) -> image::RgbaImage {
    let out = dir.join("at.png");
    playa_ok(
        dir,
        &[
            &["render"],
            args,
            &["--force", "--out", out.to_str().unwrap()],
        ]
        .concat(),
    );
    let image = image::open(&out).unwrap().to_rgba8();
    std::fs::remove_file(out).unwrap();
    image
}

#[test]
fn a_time_sweep_is_the_scene_at_each_hour() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = animate(
        d,
        &words("death-valley --set time=6..=18:4 --set wind=0.2 --size 96x54"),
    );
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(
        summary.contains("4 frames (time 6..=18:4) at 96x54"),
        "{summary}"
    );
    // Named for the key.
    assert_eq!(files(d), ["death-valley-1-time-anim.png"]);
    let path = d.join("death-valley-1-time-anim.png");
    let frames = apng_frames(&path);
    assert_eq!(frames.len(), 4);
    for (k, frame) in frames.iter().enumerate() {
        let hour = 6 + 4 * k;
        let want = rendered(
            d,
            &words(&format!(
                "death-valley --set time={hour} --set wind=0.2 --size 96x54"
            )),
        );
        assert!(*frame == want, "frame {k} differs from `playa render`");
        if k > 0 {
            assert!(
                *frame != frames[k - 1],
                "frames {k} and {} are alike",
                k - 1
            );
        }
    }
    // Its recipe is the scene it was made from, before the sweep: its
    // noon, with the wind the command line set.
    playa_ok(
        d,
        &words("render death-valley-1-time-anim.png --out still.png"),
    );
    let start = rendered(d, &words("death-valley --set wind=0.2 --size 96x54"));
    assert!(image::open(d.join("still.png")).unwrap().to_rgba8() == start);
    std::fs::remove_file(d.join("still.png")).unwrap();

    // Made again from itself: the same bytes, under the same name.
    let first = std::fs::read(&path).unwrap();
    animate(d, &["death-valley-1-time-anim.png", "--force"]);
    assert_eq!(files(d), ["death-valley-1-time-anim.png"]);
    assert!(first == std::fs::read(&path).unwrap(), "the remake differs");
    // Another sweep replaces its own; --frames turns it back into the
    // generations.
    animate(
        d,
        &words("death-valley-1-time-anim.png --set sun_x=0.2..0.8:3 --out sun.png"),
    );
    assert_eq!(apng_frames(&d.join("sun.png")).len(), 3);
    let o = animate(
        d,
        &words("death-valley-1-time-anim.png --frames 0..=2 --out g.png"),
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("(generations 0..=2)"));
    assert_eq!(apng_frames(&d.join("g.png")).len(), 3);
}

#[test]
fn a_sweep_s_file_holds_the_scene_it_started_from() {
    // Issue 60, item 15: a day from 8.5 h to midnight keeps death-valley's
    // noon, not the last frame's moonlight.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    animate(
        d,
        &words("death-valley --set time=8.5..=24:6 --size 96x54 --out sw.png"),
    );
    let code = |what: &str| {
        let o = playa_ok(d, &["share", what]);
        String::from_utf8_lossy(&o.stdout).trim().to_string()
    };
    playa_ok(
        d,
        &words("render death-valley --size 96x54 --out still.png"),
    );
    assert_eq!(code("sw.png"), code("still.png"));
    // And the sweep with it: the file is made again from itself.
    let first = std::fs::read(d.join("sw.png")).unwrap();
    animate(d, &words("sw.png --force --out again.png"));
    assert!(first == std::fs::read(d.join("again.png")).unwrap());
}

#[test]
fn a_gif_sweep_is_the_same_every_time_and_its_frames_differ() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = words("dune-sea --set wind=0..360:4 --size 96x54 --format gif");
    animate(d, &[&args[..], &["--out", "a.gif"]].concat());
    animate(d, &[&args[..], &["--out", "b.gif"]].concat());
    let bytes = std::fs::read(d.join("a.gif")).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    assert!(bytes == std::fs::read(d.join("b.gif")).unwrap());
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(Cursor::new(&bytes)).unwrap();
    let mut frames = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        // After the first, a frame holds what changed: never nothing.
        assert!(
            frame.buffer.chunks_exact(4).any(|p| p[3] != 0),
            "frame {frames}"
        );
        frames += 1;
    }
    assert_eq!(frames, 4);
    // The default name says the key.
    std::fs::create_dir(d.join("out")).unwrap();
    animate(
        d,
        &words(
            "storm-over-the-ranges --set clouds.drift=0..1:2 --size 32x18 --format gif --out out",
        ),
    );
    assert_eq!(
        files(&d.join("out")),
        ["storm-over-the-ranges-31-clouds.drift-anim.gif"]
    );
}

#[test]
fn bad_sweeps_are_one_line_exit_2_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: &[(&str, &str)] = &[
        (
            "--set time=5..20:4 --set wind=0..1:3",
            "--set wind: a second sweep: time is swept already",
        ),
        (
            "--set time=5..20:4 --frames 0..4",
            "--frames gives generations, --set time=5..20:4 a sweep",
        ),
        ("--set nosuch=0..1:4", "--set nosuch: no such setting"),
        ("--set time=5..20:1", "an animation's sweep needs 2 or more"),
        ("--set time=5..=20:1", "needs N of 2 or more"),
        ("--set time=5..20:5000", "more than the limit of 1000"),
        ("--set time=20..5:4", "is reversed"),
        ("--set rocks.visible=false..true:2", "is not a number"),
        ("--set aspect=1..2:3", "its aspect is not swept"),
        (
            "--set time=5..20:4 --cells",
            "--cells shows the automaton's generations",
        ),
        (
            "--set time=5..20:4 --frames-dir fr",
            "--frames-dir holds the automaton's generations",
        ),
    ];
    for (args, says) in cases {
        let o = playa(
            d,
            &[&["animate", "--size", "32x18"], &words(args)[..]].concat(),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args}: {err}");
        assert_eq!(err.lines().count(), 1, "{args}: {err}");
        assert!(
            err.starts_with("playa: ") && err.contains(says),
            "{args}: {err}"
        );
        assert!(files(d).is_empty(), "{args} left {:?}", files(d));
    }
    // A sweep's animation keeps its sweep: a fixed value of its key is
    // refused.
    animate(d, &words("--set time=5..20:2 --size 32x18 --out t.png"));
    let o = playa(d, &words("animate t.png --set time=9 --out u.png"));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("the animation sweeps time"), "{err}");
    assert_eq!(files(d), ["t.png"]);
}
