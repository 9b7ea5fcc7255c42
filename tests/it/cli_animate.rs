//! `playa animate` end to end: APNG frames decode to the very pixels of
//! `playa render` at each generation, an APNG is made again from itself to
//! the same bytes, GIFs are the same on every run with the right delays and
//! loop count, and every bad input is one line, exit 2 and no file.

use std::io::{BufReader, Cursor};
use std::path::Path;
use std::process::Output;

use crate::common::cli::{files, playa, playa_ok, stderr, words};
use image::AnimationDecoder;
use image::codecs::png::PngDecoder;
use playa::{Scene, scene::presets};

/// Runs `playa animate args…` in `dir`, which must succeed.
fn animate(dir: &Path, args: &[&str]) -> Output {
    playa_ok(dir, &[&["animate"], args].concat())
}

/// An APNG's frames, composed, and their delays in seconds.
fn apng_frames(path: &Path) -> (Vec<image::RgbaImage>, Vec<f64>) {
    let file = BufReader::new(std::fs::File::open(path).unwrap());
    let frames = PngDecoder::new(file)
        .unwrap()
        .apng()
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap();
    let delays = frames
        .iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            f64::from(n) / f64::from(d) / 1000.0
        })
        .collect();
    (
        frames.into_iter().map(|f| f.into_buffer()).collect(),
        delays,
    )
}

/// The pixels of `playa render` of `scene` at `size`.
fn rendered(dir: &Path, scene: &Scene, size: &str) -> image::RgbaImage {
    let ron = dir.join("at.ron");
    std::fs::write(&ron, scene.to_ron()).unwrap();
    let out = dir.join("at.png");
    playa_ok(
        dir,
        &[
            "render",
            ron.to_str().unwrap(),
            "--size",
            size,
            "--force",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    image::open(&out).unwrap().to_rgba8()
}

#[test]
fn apng_frames_are_the_pixels_of_render_at_each_generation() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = animate(
        d,
        &words("night-under-stars --seed 5 --frames 2..=6 --size 96x54 --fps 12 --out a.png"),
    );
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(
        summary.contains("5 frames (generations 2..=6) at 96x54"),
        "{summary}"
    );
    let (frames, delays) = apng_frames(&d.join("a.png"));
    assert_eq!(frames.len(), 5);
    let mut scene = presets::load("night-under-stars").unwrap();
    scene.seed = 5;
    for (k, frame) in frames.iter().enumerate() {
        scene.automaton.generations = 2 + k as u32;
        let want = rendered(d, &scene, "96x54");
        assert!(*frame == want, "frame {k} differs from `playa render`");
    }
    // The frames differ: the automaton moves.
    assert!(frames[0] != frames[4]);
    for delay in delays {
        assert!((delay - 1.0 / 12.0).abs() < 1e-9, "{delay}");
    }
    // The same number of plays as asked: forever.
    let file = BufReader::new(std::fs::File::open(d.join("a.png")).unwrap());
    let apng = PngDecoder::new(file).unwrap().apng().unwrap();
    assert!(matches!(
        apng.loop_count(),
        image::metadata::LoopCount::Infinite
    ));
}

#[test]
fn an_apng_is_made_again_from_itself_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    animate(
        d,
        &words(
            "badlands --frames 0..=5 --size 80x45 --fps 7.5 --hold 1.25 --loops 3 --out first.png",
        ),
    );
    animate(d, &["first.png", "--out", "again.png"]);
    let first = std::fs::read(d.join("first.png")).unwrap();
    assert!(
        first == std::fs::read(d.join("again.png")).unwrap(),
        "the remake differs"
    );
    // Its recipe is a scene: `playa render` of it is its last frame.
    let (frames, delays) = apng_frames(&d.join("first.png"));
    assert!((delays[0] - 1.0 / 7.5).abs() < 1e-9, "{delays:?}");
    assert!((delays[5] - (1.0 / 7.5 + 1.25)).abs() < 1e-9, "{delays:?}");
    playa_ok(d, &words("render first.png --out still.png"));
    let still = image::open(d.join("still.png")).unwrap().to_rgba8();
    assert!(still == frames[5]);
    let apng = PngDecoder::new(Cursor::new(first)).unwrap().apng().unwrap();
    assert!(matches!(
        apng.loop_count(),
        image::metadata::LoopCount::Finite(n) if n.get() == 3
    ));

    // A flag changes what it names and keeps the rest.
    animate(d, &["first.png", "--frames", "1..=2", "--out", "short.png"]);
    let (short, delays) = apng_frames(&d.join("short.png"));
    assert_eq!(short.len(), 2);
    assert!(short[0] == frames[1] && short[1] == frames[2]);
    assert!((delays[1] - (1.0 / 7.5 + 1.25)).abs() < 1e-9, "{delays:?}");
}

/// A GIF's frames composed over each other, with their delays (1/100 s)
/// and its loop count.
fn gif_frames(bytes: &[u8]) -> (Vec<image::RgbaImage>, Vec<u16>, gif::Repeat) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(Cursor::new(bytes)).unwrap();
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut canvas = image::RgbaImage::new(w, h);
    let (mut frames, mut delays) = (Vec::new(), Vec::new());
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        for (i, p) in frame.buffer.chunks_exact(4).enumerate() {
            if p[3] == 0 {
                continue;
            }
            let x = u32::from(frame.left) + i as u32 % u32::from(frame.width);
            let y = u32::from(frame.top) + i as u32 / u32::from(frame.width);
            canvas.put_pixel(x, y, image::Rgba([p[0], p[1], p[2], 255]));
        }
        delays.push(frame.delay);
        frames.push(canvas.clone());
    }
    (frames, delays, decoder.repeat())
}

#[test]
fn gifs_are_the_same_every_time_and_close_to_the_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = words("golden-hour --frames 0..12 --size 128x72 --hold 2");
    animate(d, &[&args[..], &["--out", "a.gif"]].concat());
    animate(
        d,
        &[&args[..], &["--format", "gif", "--out", "b.gif"]].concat(),
    );
    let bytes = std::fs::read(d.join("a.gif")).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    assert!(bytes == std::fs::read(d.join("b.gif")).unwrap());

    let (frames, delays, repeat) = gif_frames(&bytes);
    assert_eq!(frames.len(), 12);
    assert_eq!(repeat, gif::Repeat::Infinite);
    // 12 fps in hundredths: 8 or 9, one second in all; the hold at the end.
    assert_eq!(delays[..11], [8, 9, 8, 8, 9, 8, 8, 9, 8, 8, 9]);
    assert_eq!(delays[11], 8 + 200);
    let mut scene = presets::load("golden-hour").unwrap();
    for (k, frame) in frames.iter().enumerate().step_by(5) {
        scene.automaton.generations = k as u32;
        let want = rendered(d, &scene, "128x72");
        let error: u64 = frame
            .as_raw()
            .iter()
            .zip(want.as_raw())
            .map(|(a, b)| u64::from(a.abs_diff(*b)))
            .sum();
        let mean = error as f64 / (128.0 * 72.0 * 3.0);
        assert!(mean < 6.0, "frame {k}: mean error {mean}");
    }

    for (loops, want) in [("1", gif::Repeat::Finite(0)), ("3", gif::Repeat::Finite(2))] {
        let name = format!("l{loops}.gif");
        animate(
            d,
            &[&args[..], &["--loops", loops, "--out", &name]].concat(),
        );
        let (_, _, repeat) = gif_frames(&std::fs::read(d.join(&name)).unwrap());
        assert_eq!(repeat, want, "--loops {loops}");
    }
}

#[test]
fn cells_are_squares_of_the_scale() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut scene = Scene::default();
    scene.automaton.columns = 48;
    std::fs::write(d.join("s.ron"), scene.to_ron()).unwrap();
    let (cols, rows) = scene.grid_size();
    animate(
        d,
        &words("s.ron --cells --scale 3 --frames 0..4 --out c.png"),
    );
    let (frames, _) = apng_frames(&d.join("c.png"));
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[0].dimensions(), (cols as u32 * 3, rows as u32 * 3));
    for frame in &frames {
        for p in frame.pixels() {
            assert!(
                p.0[..3] == playa::animation::LIVE_CELL || p.0[..3] == playa::animation::DEAD_CELL,
                "{p:?}"
            );
        }
    }
    // Without --scale, the largest scale that fits the size.
    animate(
        d,
        &words("s.ron --cells --size 200x200 --frames 0..2 --out fit.png"),
    );
    let (frames, _) = apng_frames(&d.join("fit.png"));
    let scale = (200 / cols).min(200 / rows) as u32;
    assert_eq!(
        frames[0].dimensions(),
        (cols as u32 * scale, rows as u32 * scale)
    );
    // Made again from itself, at its own scale.
    animate(d, &["c.png", "--out", "c2.png"]);
    assert!(std::fs::read(d.join("c.png")).unwrap() == std::fs::read(d.join("c2.png")).unwrap());
}

#[test]
fn an_existing_file_is_left_alone_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = ["--frames", "0..=1", "--size", "32x18"];
    animate(d, &args);
    assert_eq!(files(d), ["death-valley-1-anim.png"]);
    let path = d.join("death-valley-1-anim.png");
    std::fs::write(&path, b"mine").unwrap();
    let o = animate(d, &args);
    assert!(String::from_utf8_lossy(&o.stdout).contains("left alone"));
    assert_eq!(std::fs::read(&path).unwrap(), b"mine");
    animate(d, &[&args[..], &["--force"]].concat());
    assert!(std::fs::read(&path).unwrap().starts_with(b"\x89PNG"));
    // Into a directory, with the default name; a GIF named .gif.
    std::fs::create_dir(d.join("out")).unwrap();
    animate(
        d,
        &[
            &args[..],
            &["--format", "gif", "--seed", "4", "--out", "out"],
        ]
        .concat(),
    );
    assert_eq!(files(&d.join("out")), ["death-valley-4-anim.gif"]);
}

#[test]
fn bad_input_is_one_line_exit_2_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: &[(&[&str], &str)] = &[
        (&["--fps", "0"], "fps 0 is out of range"),
        (&["--fps", "fast"], "--fps \"fast\" is not a number"),
        (&["--fps", "101"], "fps 101 is out of range"),
        (&["--format", "gif", "--fps", "60"], "at most 50"),
        (&["--out", "x.gif", "--fps", "51"], "at most 50"),
        (
            &["--frames", "5..3"],
            "--frames \"5..3\" is reversed: its end comes before its start \
             (A..B leaves B out; A..=B includes it)",
        ),
        (
            &["--frames", "4..4"],
            "--frames \"4..4\" is empty (A..B leaves",
        ),
        (&["--frames", "4..=3"], "is empty"),
        (&["--frames", "3.."], "has no end"),
        (&["--frames", ".."], "has no start"),
        (
            &["--frames", "x..3"],
            "--frames \"x..3\": \"x\" is not a whole number",
        ),
        (
            &["--frames", "0..=1001"],
            "last generation 1001 is out of range",
        ),
        (
            &["--size", "20000x100"],
            "--size: picture width 20000 is out of range",
        ),
        (&["--size", "0x10"], "--size"),
        (
            &["--size", "900x100"],
            "--size: 900×100 is 9:1; playa draws aspects up to 8:1",
        ),
        (&["--hold", "-1"], "hold -1 is out of range"),
        (&["--fps", "-3"], "fps -3 is out of range"),
        (&["--loops", "many"], "--loops \"many\""),
        (&["--loops", "70000"], "loops 70000 is out of range"),
        (&["--format", "webm"], "format \"webm\" must be apng or gif"),
        (&["--out", "x.webp"], "ends in .png (APNG) or .gif"),
        (
            &["--format", "gif", "--out", "x.png"],
            "--format gif but --out names a .png file",
        ),
        (&["--scale", "3"], "needs --cells"),
        (&["--cells", "--scale", "0"], "cell scale 0 is out of range"),
        (&["--cells", "--scale", "2", "--size", "9x9"], "not both"),
        (&["death-valley", "--code", "playa1-x"], "not both"),
    ];
    for (args, says) in cases {
        let o = playa(d, &[&["animate"], *args].concat());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("playa: ") && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(files(d).is_empty(), "{args:?} left {:?}", files(d));
    }
}

#[test]
fn an_input_that_does_not_load_fails_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = playa(d, &["animate", "missing.ron"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.ron"), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(files(d).is_empty());
}

/// FNV-1a (64-bit) of a file's bytes.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The bytes of two small animations, pinned: the browser's Export
/// animation… must download these very bytes (`web/tests/pixels.rs` pins
/// the same hashes; re-pin both together when a change is intended).
#[test]
fn animation_files_are_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, want) in [
        // The APNG re-blessed when pictures gained their traits chunk (issue
        // 48): its frames are the same.
        // Re-blessed again when the stones trait came to be read in the noon
        // sun's light (issue 59): the night's stones read "clumps", as by day.
        ("n.png", 0x69e1_691c_f8d0_a165u64),
        ("n.gif", 0x49a6_7793_67ee_5113),
    ] {
        let args = ["night-under-stars", "--frames", "0..=3", "--size", "64x36"];
        animate(d, &[&args[..], &["--out", name]].concat());
        let hash = fnv(&std::fs::read(d.join(name)).unwrap());
        assert_eq!(hash, want, "{name}: {hash:#x}");
    }
}
