//! `playa random`: the scene "New scene" or "Vary" makes of a scene with a
//! roll, as RON that `playa render` reads back.

use crate::common::cli::{assert_stderr_has, playa, playa_ok, stderr, text, words};
use playa::explore::randomize::{self, Locks};
use playa::{Scene, scene::presets};

/// The scene `playa random args…` printed (quantized, as every scene read
/// is: New scene rolls floats to 0.001, finer than some settings keep).
fn random(args: &str) -> Scene {
    let dir = tempfile::tempdir().unwrap();
    let o = playa_ok(dir.path(), &words(&format!("random {args}")));
    Scene::from_ron(&text(&o.stdout), "stdout").unwrap()
}

#[test]
fn the_same_roll_gives_the_app_s_scene() {
    let start = presets::load("golden-hour").unwrap();
    let locks = Locks::default();
    assert_eq!(
        random("golden-hour --roll 7"),
        randomize::new_scene(&start, &locks, 7).quantized()
    );
    // Hex as the app shows its rolls.
    assert_eq!(
        random("golden-hour --roll 0x00000000000000ff"),
        randomize::new_scene(&start, &locks, 255).quantized()
    );
    assert_eq!(
        random("golden-hour --roll 7 --vary 0.3"),
        randomize::vary(&start, &locks, 7, 0.3).quantized()
    );
    // No input: the default preset.
    assert_eq!(
        random("--roll 3"),
        randomize::new_scene(&presets::load(presets::DEFAULT).unwrap(), &locks, 3).quantized()
    );
    assert_ne!(random("--roll 3"), random("--roll 4"));
}

#[test]
fn locks_keep_their_groups() {
    let start = presets::load("badlands").unwrap();
    let mut locks = Locks::default();
    locks.set("seed", true);
    locks.set("light", true);
    locks.set("spiral", false);
    let got = random("badlands --roll 11 --lock seed --lock light --unlock spiral");
    assert_eq!(got, randomize::new_scene(&start, &locks, 11).quantized());
    assert_eq!(got.seed, start.seed);
    assert_eq!((got.time, got.sun_x), (start.time, start.sun_x));
}

#[test]
fn set_pins_a_value_on_the_result() {
    let got = random("--roll 5 --set time=Night --set automaton.columns=200");
    let mut expected = randomize::new_scene(&Scene::default(), &Locks::default(), 5).quantized();
    expected.time = playa::TimeOfDay::Night;
    expected.automaton.columns = 200;
    assert_eq!(got, expected);
}

#[test]
fn the_printed_scene_renders_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = playa_ok(d, &words("random salt-flat --roll 0x1f --vary 0.5"));
    let out = text(&o.stdout);
    let first = out.lines().next().unwrap();
    let scene = Scene::from_ron(&out, "stdout").unwrap();
    let code = playa::share::encode(&scene);
    assert!(
        first.starts_with("// Varied 0.5, roll 31, of salt-flat: ") && first.ends_with(&code),
        "{first}"
    );
    let traits = randomize::Traits::of(&scene);
    assert_eq!(
        out.lines().nth(1).unwrap(),
        format!("// {}", traits.sentence())
    );
    let changed = randomize::describe(&presets::load("salt-flat").unwrap(), &scene);
    assert_eq!(
        out.lines().nth(2).unwrap(),
        format!("// Changed: {changed}")
    );
    std::fs::write(d.join("rolled.ron"), &out).unwrap();
    playa_ok(d, &words("render rolled.ron --size 48x27 --out rolled.png"));
    let recipe = playa::output::recipe::read_recipe(&d.join("rolled.png")).unwrap();
    assert_eq!(recipe.scene, scene);
    // And the share code of it is the code printed.
    let o = playa_ok(d, &["share", "rolled.ron"]);
    assert_eq!(text(&o.stdout).trim(), code);
}

#[test]
fn bad_input_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, code, needle) in [
        ("random --roll xyz", 2, "--roll \"xyz\" is not a roll"),
        ("random --roll 2a", 2, "a hex roll starts with 0x, as 0x2a"),
        ("random --roll -1", 2, "is not a roll"),
        ("random --roll 18446744073709551616", 2, "is not a roll"),
        (
            "random --roll 1 --vary 1.5",
            2,
            "--vary 1.5 is out of range",
        ),
        (
            "random --roll 1 --vary lots",
            2,
            "--vary \"lots\" is not a number",
        ),
        (
            "random --roll 1 --lock sunshine",
            2,
            "the groups are seed, light, automaton, sky",
        ),
        (
            "random --roll 1 --set rocks.roughness=2",
            2,
            "rocks.roughness 2 is out of range",
        ),
        (
            "random --roll 1 --set time=Noon,Dusk",
            2,
            "a sweep of 2 values",
        ),
        ("random no-such-preset --roll 1", 1, "no-such-preset"),
    ] {
        let o = playa(dir.path(), &words(args));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{args}: {err}");
        assert!(err.contains(needle), "{args}: no {needle:?} in:\n{err}");
        assert_eq!(err.lines().count(), 1, "{args}:\n{err}");
        assert!(o.stdout.is_empty(), "{args}");
    }
    let o = playa(dir.path(), &["random"]);
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "--roll");
}

#[test]
fn the_printed_scene_names_the_layers_set_by_number() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut scene = Scene::default();
    scene.add_layer(playa::layers::Layer::Tent(Default::default()));
    std::fs::write(d.join("two.ron"), scene.to_ron()).unwrap();
    let o = playa_ok(
        d,
        &words("random two.ron --roll 2 --lock tent --set tent#2.x=0.9"),
    );
    let out = text(&o.stdout);
    let rolled = Scene::from_ron(&out, "stdout").unwrap();
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let at = lines
        .iter()
        .position(|l| *l == "// Tent 2, --set tent#2.…")
        .unwrap_or_else(|| panic!("Tent 2 is not named:\n{out}"));
    assert_eq!(lines[at + 1], "Tent((");
    assert!(
        lines[at + 2..].iter().take(8).any(|l| *l == "x: 0.9,"),
        "{out}"
    );
    let Some(tent) = rolled
        .layers
        .iter()
        .filter_map(|l| match l {
            playa::layers::Layer::Tent(t) => Some(t),
            _ => None,
        })
        .nth(1)
    else {
        panic!("the second tent is kept")
    };
    assert_eq!(tent.x, 0.9);
}

#[test]
fn traits_are_printed_one_per_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = playa_ok(d, &words("random dune-sea --roll 7 --traits"));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), randomize::traits::AXES.len(), "{out}");
    for (line, axis) in lines.iter().zip(randomize::traits::AXES) {
        let value = line
            .strip_prefix(&format!("{}: ", axis.title))
            .unwrap_or_else(|| panic!("{line}"));
        assert!(axis.choices.iter().any(|c| c.name == value), "{line}");
    }
    // The same as the scene's, read from the RON it prints without it.
    let o = playa_ok(d, &words("random dune-sea --roll 7"));
    let scene = Scene::from_ron(&text(&o.stdout), "stdout").unwrap();
    assert_eq!(out, randomize::Traits::of(&scene).lines());
}

#[test]
fn a_census_counts_every_value() {
    let dir = tempfile::tempdir().unwrap();
    let o = playa_ok(dir.path(), &words("random --rolls 0..40 --census"));
    // The progress bar is drawn only on a terminal.
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("Census of 40 New scene rolls (0..=39) of death-valley"),
        "{out}"
    );
    // A block per axis: its title, then a row per value ending in its count.
    let blocks: Vec<&str> = out.split("\n\n").skip(1).collect();
    assert_eq!(blocks.len(), randomize::traits::AXES.len(), "{out}");
    for (block, axis) in blocks.iter().zip(randomize::traits::AXES) {
        let mut rows = block.lines();
        assert!(rows.next().unwrap().starts_with(axis.title), "{block}");
        let counts: Vec<(&str, u64)> = rows
            .map(|row| {
                let count = row.split_whitespace().last().unwrap().parse().unwrap();
                (row.trim_start(), count)
            })
            .collect();
        assert_eq!(counts.len(), axis.choices.len(), "{block}");
        for ((row, _), choice) in counts.iter().zip(axis.choices) {
            assert!(row.starts_with(choice.name), "{row}");
        }
        assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 40, "{block}");
    }
    for (args, needle) in [
        ("random --census", "--rolls"),
        ("random --rolls 0..10", "--census"),
        ("random --rolls 0..10 --census --vary 0.5", "--vary"),
        ("random --rolls 10..5 --census", "--rolls"),
    ] {
        let o = playa(dir.path(), &words(args));
        assert_ne!(o.status.code(), Some(0), "{args}");
        assert_stderr_has(&o, needle);
        assert!(o.stdout.is_empty(), "{args}");
    }
}

#[test]
fn a_census_of_more_rolls_than_a_batch_s_pictures_is_refused_at_once() {
    // 0..100001 ran for 12 minutes; 0..=4294967296 asked for 42.9 GB.
    let dir = tempfile::tempdir().unwrap();
    let limit = playa::batch::MAX_JOBS;
    for (rolls, count) in [
        (format!("5..={}", u64::MAX), (u64::MAX - 4).to_string()),
        ("0..=4294967296".to_string(), "4294967297".to_string()),
        (format!("0..{}", limit + 1), (limit + 1).to_string()),
    ] {
        let o = playa(dir.path(), &["random", "--rolls", &rolls, "--census"]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{rolls}: {err}");
        assert_eq!(err.lines().count(), 1, "{rolls}: {err}");
        assert!(
            err.contains(&format!("is {count} rolls, more than the limit of {limit}")),
            "{rolls}: {err}"
        );
        assert!(o.stdout.is_empty(), "{rolls}");
    }
}
