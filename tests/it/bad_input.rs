//! Bad input never breaks playa: every loader — share code, RON scene, RLE
//! pattern, PNG recipe — returns an error for empty, huge, truncated,
//! bit-flipped, mistyped and random input, and names the documented limit
//! for absurd values, instead of panicking or trying.

use std::io::Write;
use std::path::Path;

use crate::common::cli::command;
use playa::life::rle;
use playa::output::picture::{self, Compression};
use playa::output::recipe;
use playa::{Scene, scene::presets, share};
use proptest::prelude::*;

/// The loaders, over bytes: `Ok` with the scene (or nothing for RLE).
fn share_code(bytes: &[u8]) -> Result<Option<Scene>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    share::decode(text).map(Some).map_err(|e| e.to_string())
}

fn scene_ron(bytes: &[u8]) -> Result<Option<Scene>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    Scene::from_ron(text, "in.ron")
        .map(Some)
        .map_err(|e| e.to_string())
}

fn rle_pattern(bytes: &[u8]) -> Result<Option<Scene>, String> {
    rle::read(bytes).map(|_| None).map_err(|e| e.to_string())
}

fn png_recipe(bytes: &[u8]) -> Result<Option<Scene>, String> {
    recipe::decode_recipe(bytes, "in.png")
        .map(|r| Some(r.scene))
        .map_err(|e| e.to_string())
}

type Loader = fn(&[u8]) -> Result<Option<Scene>, String>;
const LOADERS: [(&str, Loader); 4] = [
    ("share code", share_code),
    ("RON", scene_ron),
    ("RLE", rle_pattern),
    ("PNG", png_recipe),
];

/// A good input for each loader, in the order of [`LOADERS`].
fn good_inputs() -> [Vec<u8>; 4] {
    let mut scene = presets::load("night-under-stars").unwrap();
    scene.seed = 31;
    let image = playa::render(&scene, 32, 18).unwrap();
    let png = picture::encode_png_to_vec(&image, &scene, &[], Compression::Fast).unwrap();
    [
        share::encode(&scene).into_bytes(),
        scene.to_ron().into_bytes(),
        b"#N Glider\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n".to_vec(),
        png,
    ]
}

/// A loader's result must be an error or a valid scene.
fn valid_or_error(result: &Result<Option<Scene>, String>) {
    if let Ok(Some(scene)) = result {
        scene.validate().unwrap();
    }
}

#[test]
fn good_inputs_load() {
    for ((name, load), input) in LOADERS.iter().zip(good_inputs()) {
        assert!(load(&input).is_ok(), "{name}");
    }
}

#[test]
fn empty_input_is_refused() {
    for (name, load) in LOADERS {
        for empty in [&b""[..], b" ", b"\n\n", b"\0"] {
            assert!(load(empty).is_err(), "{name} accepted {empty:?}");
        }
    }
}

#[test]
fn every_input_of_the_wrong_type_is_refused() {
    let inputs = good_inputs();
    for (i, (name, load)) in LOADERS.iter().enumerate() {
        for (j, input) in inputs.iter().enumerate() {
            if i != j {
                assert!(load(input).is_err(), "{name} accepted a {}", LOADERS[j].0);
            }
        }
    }
}

#[test]
fn truncated_inputs_are_refused() {
    let [code, ron, rle_text, png] = good_inputs();
    for cut in 0..code.len() {
        assert!(share_code(&code[..cut]).is_err(), "code cut at {cut}");
    }
    let last_paren = ron.iter().rposition(|&b| b == b')').unwrap();
    for cut in 0..last_paren {
        assert!(scene_ron(&ron[..cut]).is_err(), "RON cut at {cut}");
    }
    let bang = rle_text.iter().position(|&b| b == b'!').unwrap();
    for cut in 0..bang {
        assert!(rle_pattern(&rle_text[..cut]).is_err(), "RLE cut at {cut}");
    }
    // The recipe is read up to the first image data: a cut before it fails.
    let idat = png.windows(4).position(|w| w == b"IDAT").unwrap();
    for cut in 0..idat {
        assert!(png_recipe(&png[..cut]).is_err(), "PNG cut at {cut}");
    }
}

#[test]
fn bit_flips_are_refused_or_harmless() {
    let inputs = good_inputs();
    let scene = png_recipe(&inputs[3]).unwrap().unwrap();
    for ((name, load), input) in LOADERS.iter().zip(&inputs) {
        // The PNG's recipe is in its first chunks; its pixels are not read.
        let end = match *name {
            "PNG" => input.windows(4).position(|w| w == b"IDAT").unwrap(),
            _ => input.len(),
        };
        for at in 0..end {
            for bit in 0..8 {
                let mut flipped = input.clone();
                flipped[at] ^= 1 << bit;
                let result = load(&flipped);
                valid_or_error(&result);
                match *name {
                    // Every character counts and is checksummed.
                    "share code" => assert!(result.is_err(), "flip at {at}.{bit}"),
                    // Chunks are checksummed: never another scene.
                    "PNG" => {
                        if let Ok(Some(s)) = result {
                            assert_eq!(s, scene, "flip at {at}.{bit}")
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// A sparse file of 1 GiB: it takes no disk space, and reading it whole
/// would take a gigabyte of memory.
fn huge_file(dir: &Path, name: &str, head: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(head).unwrap();
    file.set_len(1 << 30).unwrap();
    path
}

#[test]
fn huge_files_are_refused_without_being_read() {
    let dir = tempfile::tempdir().unwrap();
    let ron = huge_file(dir.path(), "huge.ron", b"(seed: 1, ");
    let err = Scene::from_ron_file(&ron).unwrap_err().to_string();
    assert!(
        err.contains("huge.ron: file is 1073741824 bytes") && err.contains("1048576"),
        "{err}"
    );

    let rle_path = huge_file(dir.path(), "huge.rle", b"x = 3, y = 3\n");
    let err = rle::read_file(&rle_path).unwrap_err().to_string();
    assert!(err.contains("longer than 65536 bytes"), "{err}");

    let png_path = huge_file(dir.path(), "huge.png", &good_inputs()[3][..64]);
    let err = recipe::read_recipe(&png_path).unwrap_err().to_string();
    assert!(
        err.contains("huge.png") && err.contains(&recipe::MAX_PNG_BYTES.to_string()),
        "{err}"
    );

    let long = format!("playa1-{}", "A".repeat(10 << 20));
    let err = share::decode(&long).unwrap_err().to_string();
    assert!(err.contains(&share::MAX_CODE_CHARS.to_string()), "{err}");
    let big = " ".repeat(playa::scene::MAX_RON_BYTES + 1);
    let err = Scene::from_ron(&big, "big").unwrap_err().to_string();
    assert!(err.contains("1048576"), "{err}");
}

/// A dunes setting out of its range is refused in one line that names the
/// setting, its value and the place.
#[test]
fn dunes_out_of_range_are_refused_in_one_line() {
    for (text, needle) in [
        (
            "(layers: [Dunes((form: 3))])",
            "dunes.form 3 is out of range",
        ),
        (
            "(layers: [Dunes((height: 0.2))])",
            "dunes.height 0.2 is out of range",
        ),
        ("(layers: [Dunes((spacing: 1e9))])", "dunes.spacing"),
        (
            "(layers: [\n  Dunes((cover: -0.1)),\n])",
            "dunes.cover -0.1",
        ),
        ("(layers: [Dunes((ripples: NaN))])", "dunes.ripples NaN"),
    ] {
        let err = Scene::from_ron(text, "sand.ron").unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err}");
        assert!(err.starts_with("sand.ron:"), "{text}: {err}");
        assert_eq!(err.lines().count(), 1, "{text}: {err}");
    }
}

/// Messages that misled (issue 57): a number beyond an `f32` is quoted as
/// written, not as `inf`; a number with a point where a whole number goes
/// is said to be no whole number, not a missing comma; a whole number too
/// large for any integer is out of range.
#[test]
fn numbers_are_named_as_written() {
    for (text, message) in [
        (
            "(layers: [Tent((size: 1e39))])",
            "tent.size 1e39 is out of range: must be a number from 0 to 1",
        ),
        (
            "(layers: [Dunes((height: 1e-50))])",
            "dunes.height 1e-50 is out of range",
        ),
        ("(sun_x: 1e40)", "sun_x 1e40 is out of range"),
        (
            "(layers: [Dunes((form: 2.0))])",
            "dunes.form is a whole number from 0 to 2, not 2.0",
        ),
        (
            "(automaton: (generations: 8.5))",
            "automaton.generations is a whole number from 0 to 1000, not 8.5",
        ),
        (
            "(layers: [Plants((joshua: 18446744073709551616))])",
            "plants.joshua 18446744073709551616 is out of range: must be a number from 0 to 64",
        ),
        (
            "(seed: 18446744073709551616)",
            "seed 18446744073709551616 is out of range: must be a whole number from 0 to \
             18446744073709551615",
        ),
        (
            "(seed: 1e3)",
            "seed is a whole number from 0 to 18446744073709551615, not 1000.0",
        ),
        (
            "(automaton: (columns: 1e30))",
            "automaton.columns 1e30 is out of range",
        ),
        (
            "(layers: [Sky((stars: 1000000000000000000000000000000000000000000))])",
            "sky.stars 1e42 is out of range",
        ),
    ] {
        let err = Scene::from_ron(text, "n.ron").unwrap_err().to_string();
        assert!(err.starts_with("n.ron: line 1, column "), "{text}: {err}");
        assert!(err.contains(message), "{text}: {err}");
        assert_eq!(err.lines().count(), 1, "{text}: {err}");
    }
    // Whole numbers as they were: in range, read; out of it, named.
    let scene = Scene::from_ron("(layers: [Dunes((form: 2))])", "d.ron").unwrap();
    assert_eq!(scene.to_ron().matches("form: 2").count(), 1);
    let err = Scene::from_ron("(layers: [Dunes((form: -1))])", "d.ron")
        .unwrap_err()
        .to_string();
    assert!(err.contains("dunes.form -1 is out of range"), "{err}");
}

#[test]
fn absurd_values_are_refused_naming_the_limit() {
    let ron_cases = [
        ("(automaton: (columns: 1000000000))", "2048"),
        ("(automaton: (columns: 0))", "automaton.columns 0"),
        ("(automaton: (columns: -5))", "columns"),
        ("(automaton: (generations: 1000000))", "1000"),
        ("(automaton: (density: -0.5))", "from 0 to 1"),
        ("(horizon: NaN)", "horizon NaN"),
        ("(aspect: inf)", "aspect inf"),
        ("(sun_x: 1e40)", "sun_x"),
        ("(seed: -1)", "seed"),
        ("(seed: 18446744073709551616)", "seed"),
        ("(layers: [Sky((stars: 1000000000000))])", "stars"),
        ("(layers: [Spiral((segments: 4000000000))])", "10000"),
        ("(layers: [Ranges((count: 0))])", "ranges.count"),
        (
            "(aspect: 0.25, automaton: (columns: 2048))",
            "4194304 cells",
        ),
        ("(layers: [Tent((size: -1.0))])", "tent.size"),
    ];
    for (text, needle) in ron_cases {
        let err = Scene::from_ron(text, "absurd.ron").unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err}");
    }
    let mut too_many = String::from("(layers: [");
    for _ in 0..=playa::scene::MAX_LAYERS {
        too_many.push_str("Sky(()),");
    }
    too_many.push_str("])");
    let err = Scene::from_ron(&too_many, "layers.ron")
        .unwrap_err()
        .to_string();
    assert!(err.contains("at most 32"), "{err}");

    let rle_cases = [
        ("x = 1000000000, y = 1\n!", "65536"),
        ("x = 65536, y = 65536\n!", "268435456 cells"),
        ("x = -3, y = 3\n!", "not a whole number"),
        ("x = 99999999999999999999999, y = 1\n!", "too large"),
        ("x = 3, y = 3\n99999999999999999999o!", "too large"),
        ("x = 3, y = 3\n18446744073709551615o!", "more than x = 3"),
        (
            "x = 3, y = 3\n$18446744073709551615$o!",
            "more rows than y = 3",
        ),
        ("x = 3, y = 3\nb18446744073709551615o!", "more than x = 3"),
    ];
    for (text, needle) in rle_cases {
        let err = rle::parse(text).unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err}");
    }

    // A picture whose recipe asks for too much.
    let image = image::RgbaImage::new(2, 2);
    let mut bytes = Vec::new();
    let mut enc = png::Encoder::new(&mut bytes, 2, 2);
    enc.set_color(png::ColorType::Rgba);
    enc.add_itxt_chunk(
        recipe::SCENE_KEY.into(),
        "(automaton: (generations: 1000000))".into(),
    )
    .unwrap();
    let mut w = enc.write_header().unwrap();
    w.write_image_data(image.as_raw()).unwrap();
    w.finish().unwrap();
    let err = recipe::decode_recipe(&bytes, "absurd.png")
        .unwrap_err()
        .to_string();
    assert!(err.contains("absurd.png") && err.contains("1000"), "{err}");
}

/// How much of its input a message may quote: ~80 characters, and so a
/// message about a huge input stays short.
const MAX_QUOTED: usize = 80;

/// `message` is one line, quotes at most [`MAX_QUOTED`] characters of the
/// input (its longest run of `filler`, the character the huge input is made
/// of) and says how long the input was.
fn quotes_little(what: &str, message: &str, filler: char, length: usize) {
    assert_eq!(message.lines().count(), 1, "{what}: {message:.300}");
    let longest = message
        .split(|c| c != filler)
        .map(|run| run.chars().count())
        .max()
        .unwrap_or(0);
    assert!(
        longest <= MAX_QUOTED && message.len() < 400,
        "{what}: {} bytes, quoting {longest} characters: {message:.300}",
        message.len()
    );
    assert!(
        message.contains('…') && message.contains(&format!("({length} characters)")),
        "{what}: the message should say the input was cut and how long it was: {message}"
    );
}

#[test]
fn errors_quote_at_most_80_characters_of_their_input() {
    let huge = "9".repeat(600_000);
    let rule = format!("B3/S{huge}");
    let ron = format!("(automaton: (rule: \"{rule}\"))");
    let err = Scene::from_ron(&ron, "rule.ron").unwrap_err().to_string();
    quotes_little("a 600 KB rule in RON", &err, '9', rule.len());
    let err = rule.parse::<playa::Rule>().unwrap_err().to_string();
    quotes_little("a 600 KB rule", &err, '9', rule.len());

    let name = "q".repeat(5000);
    for (what, text) in [
        ("an unknown field", format!("({name}: 1)")),
        ("an unknown variant", format!("(time: {name})")),
        ("a string for a number", format!("(seed: \"{name}\")")),
        ("an unknown layer", format!("(layers: [{name}(())])")),
    ] {
        let err = Scene::from_ron(&text, "in.ron").unwrap_err().to_string();
        quotes_little(what, &err, 'q', 5000);
    }

    let header = format!("x = 3, y = 3, {name} = 1\n!");
    let err = rle::parse(&header).unwrap_err().to_string();
    quotes_little("an RLE header key", &err, 'q', 5000);
    let err = rle::parse(&format!("x = {name}, y = 1\n!"))
        .unwrap_err()
        .to_string();
    quotes_little("an RLE header value", &err, 'q', 5000);

    let link = format!("https://example.org/#{name}");
    let err = share::decode(&link).unwrap_err().to_string();
    quotes_little("a link's fragment", &err, 'q', 5000);
    let err = share::link(&format!("https://example.org/{name} x"), &Scene::default())
        .unwrap_err()
        .to_string();
    quotes_little("a web address", &err, 'q', 5022);

    let err = playa::Source::from_text(&format!("{name}\nmore"), "pasted text")
        .unwrap_err()
        .to_string();
    quotes_little("pasted text", &err, 'q', 5005);
    let err = playa::Source::from_arg(&name).unwrap_err().to_string();
    quotes_little("a preset's name", &err, 'q', 5000);
    let path = format!("{}.ron", &name[..3000]);
    let err = playa::Source::from_arg(&path).unwrap_err().to_string();
    quotes_little("a missing file", &err, 'q', 3004);
}

/// The command line's stderr for `args`: one line per message, none quoting
/// more than [`MAX_QUOTED`] characters of the argument.
#[test]
fn the_command_line_quotes_at_most_80_characters_of_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rule.ron");
    let rule = format!("B3/S{}", "9".repeat(600_000));
    std::fs::write(&file, format!("(automaton: (rule: \"{rule}\"))")).unwrap();
    let long = "7".repeat(5000);
    let cases: [(&str, Vec<String>, usize); 5] = [
        (
            "a 600 KB rule in a file",
            vec!["render".into(), file.display().to_string()],
            rule.len(),
        ),
        (
            "a long --size",
            vec!["render".into(), "--size".into(), format!("{long}y")],
            5001,
        ),
        (
            "a long --frames",
            vec!["animate".into(), "--frames".into(), format!("{long}.")],
            5001,
        ),
        (
            "a long unknown flag",
            vec!["render".into(), format!("--{long}")],
            5002,
        ),
        (
            "a long preset name",
            vec!["share".into(), long.clone()],
            5000,
        ),
    ];
    for (what, args, length) in cases {
        let out = command(dir.path())
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{what}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.len() < 1000,
            "{what}: {} bytes on stderr",
            stderr.len()
        );
        let filler = if what.contains("rule") { '9' } else { '7' };
        let quoting: Vec<&str> = stderr.lines().filter(|l| l.contains(filler)).collect();
        assert!(!quoting.is_empty(), "{what}: {stderr:.300}");
        for line in quoting {
            quotes_little(what, line, filler, length);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        for (_, load) in LOADERS {
            valid_or_error(&load(&bytes));
        }
        prop_assert!(share_code(&bytes).is_err());
        prop_assert!(png_recipe(&bytes).is_err());
    }

    #[test]
    fn random_text_after_a_good_start_is_refused(
        cut in 0usize..4096,
        tail in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        // A good input cut anywhere, followed by junk.
        for ((_, load), input) in LOADERS.iter().zip(good_inputs()) {
            let mut bytes = input[..cut.min(input.len())].to_vec();
            bytes.extend(&tail);
            valid_or_error(&load(&bytes));
        }
    }
}

/// Every usage error clap finds is one line, `playa: …`, naming the help to
/// see, with exit 2 and nothing on standard output; `--help` and
/// `--version` still print on standard output and exit 0.
#[test]
fn every_usage_error_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("render --size 0x100", "--size: size \"0x100\""),
        ("life --size 0x0", "--size: size \"0x0\""),
        ("sheet --seeds 1..3", "--out <FILE.png>"),
        ("render --jobs many", "'many'"),
        ("render --bogus", "'--bogus'"),
        ("render --ouy x.png", "did you mean '--out'?"),
        ("rendr", "did you mean 'random' or 'render'?"),
        ("render --out", "'--out"),
        ("share --decode", "'--decode"),
        ("manifest", "`playa manifest` needs a command: check"),
        ("manifest check", "<DIR>"),
        ("sheet --seeds 1..3 --rolls 1..3", "cannot be used with"),
        ("life --rule B3/S23 --rule B36/S23", "'--rule"),
    ];
    for (line, needle) in cases {
        let o = crate::common::cli::playa(dir.path(), &crate::common::cli::words(line));
        let err = crate::common::cli::stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{line}: {err}");
        assert_eq!(err.lines().count(), 1, "{line}:\n{err}");
        assert!(err.starts_with("playa: "), "{line}: {err}");
        assert!(err.contains(needle), "{line}: no {needle:?} in {err}");
        assert!(err.contains("--help`)"), "{line}: {err}");
        assert!(o.stdout.is_empty(), "{line}");
    }
    for line in ["--help", "render --help", "--version"] {
        let o = crate::common::cli::playa_ok(dir.path(), &crate::common::cli::words(line));
        assert!(!o.stdout.is_empty(), "{line}");
        assert!(o.stderr.is_empty(), "{line}");
    }
}

/// The limits of float options and settings are quoted as a person writes
/// them: `0.1`, not the `f64` digits of an `f32` (`0.10000000149011612`).
/// Every setting's range through `--set` is walked in `tweak`'s unit tests.
#[test]
fn float_limits_are_quoted_without_noise() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("animate --fps 0 --out a.png", "from 0.1 to 100"),
        ("animate --fps 1000 --out a.png", "from 0.1 to 100"),
        ("animate --hold -1 --out a.png", "from 0 to 60"),
        ("animate --hold 100 --out a.png", "from 0 to 60"),
        ("animate --fps 60 --out a.gif", "at most 50 frames"),
        ("random --roll 1 --vary 2", "from 0 to 1"),
        // A negative number is the flag's value, not another flag.
        (
            "life --density -0.1",
            "--density -0.1 must be between 0 and 1",
        ),
        ("render --set horizon=0 --out out", "from 0.1 to 0.9"),
        (
            "render --set horizon=0.1..0.95:3 --out out",
            "from 0.1 to 0.9",
        ),
        (
            "render --set rocks.near_size=0 --out out",
            "from 0.0005 to 0.3",
        ),
        (
            "sheet --set automaton.density=0..2:3 --out s.png",
            "from 0 to 1",
        ),
    ];
    for (line, needle) in cases {
        let o = crate::common::cli::playa(dir.path(), &crate::common::cli::words(line));
        let err = crate::common::cli::stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{line}: {err}");
        assert_eq!(err.lines().count(), 1, "{line}:\n{err}");
        assert!(err.contains(needle), "{line}: no {needle:?} in {err}");
        assert!(!err.contains("0000000") && !err.contains("99999"), "{err}");
    }
}

/// An `--out` (or `--tiles`, `--frames-dir`) named as a file of a picture or
/// video format the flag does not write is refused with one line naming the
/// flag and the name, and nothing is made; a directory whose name has
/// another dot in it still works.
#[test]
fn a_file_of_another_format_is_refused_and_nothing_is_made() {
    let cases = [
        ("render --size 16x9 --out pic.jpg", "--out pic.jpg", ".png"),
        (
            "render --size 16x9 --out pic.JPEG",
            "--out pic.JPEG",
            ".png",
        ),
        ("render --size 16x9 --out pic.gif", "--out pic.gif", ".png"),
        (
            "render --size 16x9 --out pic.webp",
            "--out pic.webp",
            ".png",
        ),
        ("render --size 16x9 --out pic.tif", "--out pic.tif", ".png"),
        ("render --size 16x9 --out pic.bmp", "--out pic.bmp", ".png"),
        (
            "render --size 16x9 --out pic.avif",
            "--out pic.avif",
            ".png",
        ),
        (
            "render --size 16x9 --out film.mp4",
            "--out film.mp4",
            ".png",
        ),
        (
            "render --size 64x64 --tiles pyramid.jpg",
            "--tiles pyramid.jpg",
            "directory",
        ),
        (
            "animate --size 16x9 --frames 0..1 --out film.mp4",
            "--out film.mp4",
            ".gif",
        ),
        (
            "animate --size 16x9 --frames 0..1 --out film.webp",
            "--out film.webp",
            ".gif",
        ),
        (
            "animate --size 16x9 --frames 0..1 --frames-dir f.gif",
            "--frames-dir f.gif",
            "directory",
        ),
        (
            "sheet --size 16x9 --seeds 0..2 --out sheet.jpg",
            "--out sheet.jpg",
            ".png",
        ),
        ("life --size 16x16 --out grid.png", "--out grid.png", "RLE"),
    ];
    for (line, names, takes) in cases {
        let dir = tempfile::tempdir().unwrap();
        let o = crate::common::cli::playa(dir.path(), &crate::common::cli::words(line));
        let err = crate::common::cli::stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{line}: {err}");
        assert_eq!(err.lines().count(), 1, "{line}:\n{err}");
        assert!(err.contains(names) && err.contains(takes), "{line}: {err}");
        let made: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(made.is_empty(), "{line}: made {made:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    for line in [
        "render --size 16x9 --out run.v2",
        "render --size 64x64 --tiles pyramid.v2",
        "animate --size 16x9 --frames 0..1 --frames-dir frames.v2",
    ] {
        crate::common::cli::playa_ok(dir.path(), &crate::common::cli::words(line));
        let made = dir.path().join(line.rsplit(' ').next().unwrap());
        assert!(made.is_dir(), "{line}");
    }
}
