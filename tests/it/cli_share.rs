//! `playa share` and `playa render --code` end to end: codes from every kind
//! of input, back to RON, to the same picture bytes, links wherever codes
//! go, and bad codes and links refused with one line.

use std::process::Output;

use crate::common::cli::{playa, playa_ok, stderr, words};
use playa::{Scene, output::recipe, scene::presets, share};

/// What a run printed on standard output, without the blanks around it.
fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// The share code a PNG file (`name`, its bytes `png`) carries, if any.
fn code_in(png: &[u8], name: &str) -> Option<String> {
    recipe::read_text(std::io::Cursor::new(png), name, recipe::CODE_KEY).unwrap()
}

#[test]
fn share_prints_the_code_of_any_input() {
    let dir = tempfile::tempdir().unwrap();
    let o = playa_ok(dir.path(), &["share"]);
    assert_eq!(share::decode(&stdout(&o)).unwrap(), Scene::default());

    let o = playa(dir.path(), &["share", "salt-flat", "--seed", "9"]);
    let code = stdout(&o);
    let mut expected = presets::load("salt-flat").unwrap();
    expected.seed = 9;
    assert_eq!(code, share::encode(&expected));

    // The code's RON, as a preset file, shares as the same code.
    let o = playa_ok(dir.path(), &["share", "--decode", &code]);
    let ron = String::from_utf8(o.stdout).unwrap();
    assert!(
        ron.starts_with(&format!("// Shared scene {code}\n")),
        "{ron}"
    );
    std::fs::write(dir.path().join("mine.ron"), &ron).unwrap();
    assert_eq!(Scene::from_ron(&ron, "mine").unwrap(), expected);
    assert_eq!(stdout(&playa(dir.path(), &["share", "mine.ron"])), code);

    // A picture shares as its scene; a code as itself, or with a new seed.
    playa_ok(
        dir.path(),
        &words("render mine.ron --size 32x18 --out p.png"),
    );
    assert_eq!(stdout(&playa(dir.path(), &["share", "p.png"])), code);
    assert_eq!(stdout(&playa(dir.path(), &["share", &code])), code);
    let o = playa(dir.path(), &["share", &code, "--seed", "10"]);
    expected.seed = 10;
    assert_eq!(stdout(&o), share::encode(&expected));
}

#[test]
fn a_code_renders_the_same_bytes_as_its_scene() {
    let dir = tempfile::tempdir().unwrap();
    let code = stdout(&playa(dir.path(), &["share", "badlands", "--seed", "5"]));
    playa_ok(dir.path(), &words("render badlands --seed 5 --size 64x36"));
    playa_ok(dir.path(), &["render", "--code", &code, "--size", "64x36"]);
    let from_preset = std::fs::read(dir.path().join("badlands-5.png")).unwrap();
    let from_code = std::fs::read(dir.path().join("shared-5.png")).unwrap();
    assert!(from_preset == from_code, "the two PNG files differ");

    // The picture carries the code, and its recipe reads back.
    assert_eq!(
        code_in(&from_code, "shared-5.png").as_deref(),
        Some(code.as_str())
    );
    let recipe = recipe::decode_recipe(&from_code, "shared-5.png").unwrap();
    assert_eq!(share::encode(&recipe.scene), code);

    // A code given as a plain input works too, over --seeds.
    playa_ok(
        dir.path(),
        &["render", &code, "--seeds", "1..3", "--size", "16x9"],
    );
    assert!(dir.path().join("shared-1.png").exists());
    assert!(dir.path().join("shared-2.png").exists());
}

#[test]
fn a_link_works_wherever_its_code_does() {
    let dir = tempfile::tempdir().unwrap();
    let code = stdout(&playa(
        dir.path(),
        &["share", "night-under-stars", "--seed", "8"],
    ));
    let link = format!("https://example.org/playa/index.html#{code}");

    // --decode: the same RON as the code's, headed by the code.
    let from_code = playa(dir.path(), &["share", "--decode", &code]);
    let from_link = playa(dir.path(), &["share", "--decode", &link]);
    assert!(from_link.status.success(), "{}", stderr(&from_link));
    assert_eq!(from_link.stdout, from_code.stdout);
    let ron = stdout(&from_link);
    assert!(
        ron.starts_with(&format!("// Shared scene {code}\n")),
        "{ron}"
    );

    // As an input to share, with blanks around and as a bare fragment.
    assert_eq!(
        stdout(&playa(dir.path(), &["share", &format!(" {link} ")])),
        code
    );
    assert_eq!(
        stdout(&playa(dir.path(), &["share", &format!("#{code}")])),
        code
    );

    // --code: the same picture, with the code (not the link) inside.
    playa_ok(dir.path(), &["render", "--code", &code, "--size", "48x27"]);
    let by_code = std::fs::read(dir.path().join("shared-8.png")).unwrap();
    std::fs::remove_file(dir.path().join("shared-8.png")).unwrap();
    playa_ok(dir.path(), &["render", "--code", &link, "--size", "48x27"]);
    let by_link = std::fs::read(dir.path().join("shared-8.png")).unwrap();
    assert!(by_code == by_link, "the two PNG files differ");
    assert_eq!(
        code_in(&by_link, "shared-8.png").as_deref(),
        Some(code.as_str())
    );
}

#[test]
fn bad_links_give_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = stdout(&playa(dir.path(), &["share", "--seed", "3"]));
    for (args, needle) in [
        (
            vec!["share", "--decode", "https://example.org/playa/"],
            "https://example.org/playa/: share code: the link has no share code after #",
        ),
        (
            vec!["share", "--decode", "https://example.org/playa/#"],
            "the link has no share code after #",
        ),
        (
            vec!["share", "https://example.org/#scene"],
            "the link's fragment \"scene\" is not a share code (they start with playa1-, playa2-, playa3-, playa4-, playa5-, playa6-, playa7- or playa8-)",
        ),
        (
            vec![
                "render",
                "--code",
                "https://example.org/#nope",
                "--size",
                "16x9",
            ],
            "the link's fragment \"nope\" is not a share code",
        ),
        (
            vec!["render", "--code", &format!("https://example.org/#{good}x")],
            "share code: the checksum does not match",
        ),
    ] {
        let o = playa(dir.path(), &args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        let lines: Vec<&str> = err.lines().collect();
        assert!(lines[0].contains(needle), "{args:?}: {err}");
        // render adds its batch's summary line.
        let summary = usize::from(args[0] == "render");
        assert_eq!(lines.len(), 1 + summary, "{err}");
    }
    assert!(!dir.path().join("shared-3.png").exists());
}

#[test]
fn bad_codes_give_one_line_and_the_rest_is_rendered() {
    let dir = tempfile::tempdir().unwrap();
    let good = stdout(&playa(dir.path(), &["share", "--seed", "3"]));
    let mut typo = good.clone().into_bytes();
    let last = typo.len() - 1;
    typo[last] = if typo[last] == b'A' { b'B' } else { b'A' };
    let typo = String::from_utf8(typo).unwrap();
    let newer = good.replacen("playa1-", "playa9-", 1);
    let o = playa(
        dir.path(),
        &[
            "render", "--code", &good, "--code", &typo, "--code", &newer, "--size", "16x9",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{typo}: share code: the checksum")),
        "{err}"
    );
    assert!(err.contains("made by a newer playa (format 9)"), "{err}");
    assert!(dir.path().join("shared-3.png").exists());

    for (args, needle) in [
        (vec!["share", "--decode", "playa1-"], "too short"),
        (vec!["share", "--decode", "hello"], "not a playa share code"),
        (vec!["share", "nope"], "nope: no such preset"),
        (vec!["share", "missing.ron"], "missing.ron"),
    ] {
        let o = playa(dir.path(), &args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn two_scenes_for_one_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = stdout(&playa(dir.path(), &["share", "--seed", "4"]));
    let b = stdout(&playa(dir.path(), &["share", "salt-flat", "--seed", "4"]));
    let o = playa(
        dir.path(),
        &["render", "--code", &a, "--code", &b, "--size", "16x9"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("shared-4.png"), "{}", stderr(&o));
    // The same scene twice is made once.
    let o = playa_ok(
        dir.path(),
        &["render", "--code", &a, "--code", &a, "--size", "16x9"],
    );
    assert!(stdout(&o).starts_with("1 image in"), "{}", stdout(&o));
}

/// A scene with three tents: the Tent layers numbered as `--set tent#N`
/// counts them.
fn with_tents() -> Scene {
    let mut scene = Scene::default();
    scene.add_layer(playa::layers::Layer::Tent(Default::default()));
    scene.add_layer(playa::layers::Layer::Tent(Default::default()));
    scene
}

#[test]
fn decoded_ron_names_layers_of_one_kind() {
    let dir = tempfile::tempdir().unwrap();
    let scene = with_tents();
    let o = playa_ok(dir.path(), &["share", "--decode", &share::encode(&scene)]);
    let ron = String::from_utf8(o.stdout).unwrap();
    assert_eq!(Scene::from_ron(&ron, "decoded").unwrap(), scene);
    let lines: Vec<&str> = ron.lines().map(str::trim).collect();
    for n in 1..=3 {
        let at = lines
            .iter()
            .position(|l| *l == format!("// Tent {n}, --set tent#{n}.…"))
            .unwrap_or_else(|| panic!("no comment for Tent {n}:\n{ron}"));
        assert_eq!(lines[at + 1], "Tent((");
    }
    // Layers alone of their kind keep their bare RON.
    assert!(!ron.contains("// Sky"), "{ron}");
}
