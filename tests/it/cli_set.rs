//! `--set KEY=VALUE` on `playa render` and `playa animate`: settings by
//! name, sweeps named by their value, and every bad key or value one line
//! with exit 2 and nothing written.

use crate::common::cli::{assert_stderr_has, files, playa, playa_ok, stderr, words};
use playa::Layer;
use playa::output::recipe::read_recipe;

fn roughness(scene: &playa::Scene) -> Vec<f32> {
    scene
        .layers
        .iter()
        .filter_map(|l| match l {
            Layer::Rocks(r) => Some(r.roughness),
            _ => None,
        })
        .collect()
}

#[test]
fn set_changes_the_rendered_scene() {
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words(
            "render salt-flat --size 48x27 --set time=Dusk --set rocks.roughness=0.8 \
             --set automaton.density=0.5 --set tent.visible=false",
        ),
    );
    assert_eq!(files(dir.path()), ["salt-flat-3.png"]);
    let scene = read_recipe(&dir.path().join("salt-flat-3.png"))
        .unwrap()
        .scene;
    assert_eq!(scene.time, playa::TimeOfDay::Dusk);
    assert_eq!(roughness(&scene), [0.8]);
    assert_eq!(scene.automaton.density, 0.5);
    assert!(
        scene
            .layers
            .iter()
            .all(|l| l.name() != "tent" || !l.visible())
    );
    // The same scene as the edited preset's RON, byte for byte.
    let mut expected = playa::scene::presets::load("salt-flat").unwrap();
    expected.time = playa::TimeOfDay::Dusk;
    expected.automaton.density = 0.5;
    assert_eq!(scene.automaton, expected.automaton);
    assert_eq!(scene.sun_x, expected.sun_x);
}

#[test]
fn a_sweep_renders_one_picture_per_value_named_by_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = playa_ok(
        dir.path(),
        &words("render --set rocks.roughness=0..=1:5 --size 48x27 --out sweep"),
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("5 images"),
        "{o:?}"
    );
    let out = dir.path().join("sweep");
    assert_eq!(
        files(&out),
        [
            "death-valley_rocks.roughness-0-1.png",
            "death-valley_rocks.roughness-0.25-1.png",
            "death-valley_rocks.roughness-0.5-1.png",
            "death-valley_rocks.roughness-0.75-1.png",
            "death-valley_rocks.roughness-1-1.png",
        ]
    );
    let scene = read_recipe(&out.join("death-valley_rocks.roughness-0.75-1.png"))
        .unwrap()
        .scene;
    assert_eq!(roughness(&scene), [0.75]);
    // The manifest knows every picture of the sweep.
    let o = playa(dir.path(), &["manifest", "check", "sweep"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A rerun resumes: nothing is rendered again.
    let o = playa_ok(
        dir.path(),
        &words("render --set rocks.roughness=0..=1:5 --size 48x27 --out sweep"),
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 images"),
        "{o:?}"
    );
    // A picture of the sweep renders again under its own name.
    playa_ok(
        &out,
        &words("render death-valley_rocks.roughness-0.25-1.png --out again"),
    );
    assert_eq!(
        files(&out.join("again")),
        ["death-valley_rocks.roughness-0.25-1.png"]
    );
}

/// `A..B:N` leaves B out, as every range does: N steps of (B − A)/N from A.
#[test]
fn a_sweep_to_b_leaves_b_out_and_to_equals_b_includes_it() {
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words("render --set rocks.roughness=0..1:4 --size 32x18 --out a"),
    );
    assert_eq!(
        files(&dir.path().join("a")),
        [
            "death-valley_rocks.roughness-0-1.png",
            "death-valley_rocks.roughness-0.25-1.png",
            "death-valley_rocks.roughness-0.5-1.png",
            "death-valley_rocks.roughness-0.75-1.png",
        ]
    );
    playa_ok(
        dir.path(),
        &words("render --set automaton.generations=2..=8:4 --size 32x18 --out b"),
    );
    assert_eq!(
        files(&dir.path().join("b")),
        [
            "death-valley_automaton.generations-2-1.png",
            "death-valley_automaton.generations-4-1.png",
            "death-valley_automaton.generations-6-1.png",
            "death-valley_automaton.generations-8-1.png",
        ]
    );
}

#[test]
fn sweeps_combine_with_seeds_and_lists() {
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words("render badlands --seeds 3..5 --set time=Noon,Night --size 32x18"),
    );
    assert_eq!(
        files(dir.path()),
        [
            "badlands_time-Night-3.png",
            "badlands_time-Night-4.png",
            "badlands_time-Noon-3.png",
            "badlands_time-Noon-4.png",
        ]
    );
    // A sweep of the seed is named by the seed alone.
    let dir = tempfile::tempdir().unwrap();
    playa_ok(
        dir.path(),
        &words("render --set seed=10..=30:3 --size 32x18"),
    );
    assert_eq!(
        files(dir.path()),
        [
            "death-valley-10.png",
            "death-valley-20.png",
            "death-valley-30.png"
        ]
    );
}

#[test]
fn the_nth_layer_and_a_missing_layer() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("two.ron"),
        "(layers: [Sky(()), Floor(()), Rocks(()), Rocks((roughness: 0.1))])",
    )
    .unwrap();
    std::fs::write(d.join("bare.ron"), "(layers: [Sky(()), Floor(())])").unwrap();
    playa_ok(
        d,
        &words("render two.ron --set rocks#2.roughness=0.9 --size 32x18"),
    );
    let scene = read_recipe(&d.join("two-1.png")).unwrap().scene;
    let default = playa::layers::Rocks::default().roughness;
    assert_eq!(roughness(&scene), [default, 0.9]);

    // A layer the scene does not have: that input is named, the rest
    // rendered, and the exit status says so.
    let o = playa(
        d,
        &words("render bare.ron salt-flat --set rocks.roughness=0.5 --size 32x18 --out out"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(
        &o,
        "bare.ron: --set rocks.roughness: the scene has no rocks layer",
    );
    assert_eq!(files(&d.join("out")), ["salt-flat-3.png"]);
    let o = playa(
        d,
        &words("render two.ron --set rocks#3.roughness=0.5 --size 32x18"),
    );
    assert_stderr_has(&o, "the scene has 2 rocks layers, not 3");
}

#[test]
fn bad_keys_and_values_are_one_line_and_write_nothing() {
    for (args, needle) in [
        ("--set colour=3", "--set colour: no such setting"),
        (
            "--set rocks.rough=1",
            "rocks has no setting \"rough\"; its settings are visible, opacity",
        ),
        (
            "--set rocks.roughness=1.5",
            "--set rocks.roughness 1.5 is out of range: must be a number from 0 to 1",
        ),
        ("--set rocks.roughness=abc", "\"abc\" is not a number"),
        (
            "--set time=teatime",
            "Noon, GoldenHour, Dusk, BlueHour, Night, Moonlight",
        ),
        ("--set rocks.visible=maybe", "true or false"),
        ("--set tent.color=#zzzzzz", "a colour"),
        ("--set automaton.rule=B0/S8", "B0"),
        (
            "--set seed=-4",
            "--set seed -4 is out of range: must be a whole number",
        ),
        ("--set rocks", "KEY=VALUE"),
        (
            "--set rocks.roughness=0..1:5 --set sun_x=0,1",
            "second sweep",
        ),
        ("--set horizon=0.5 --set horizon=0.6", "set twice"),
        // Issue 57: keys that overlap set one setting twice; messages
        // that misled.
        (
            "--set dunes#1.height=10 --set dunes.height=5",
            "--set dunes.height: is set twice: dunes#1.height sets it too",
        ),
        (
            "--set plants.joshua=18446744073709551616",
            "--set plants.joshua 18446744073709551616 is out of range: must be a number \
             from 0 to 64",
        ),
        (
            "--set dunes.color=1,2",
            "\"1,2\" has 2 parts, but a colour has three",
        ),
        (
            "--set rocks.roughness=1..0:3",
            "--set rocks.roughness: the sweep \"1..0:3\" is reversed: its end comes before \
             its start (A..B leaves B out; A..=B includes it)",
        ),
        (
            "--set rocks.roughness=0.5..0.5:3",
            "is empty (A..B leaves B out",
        ),
        ("--set rocks.roughness=0..=1:1", "needs N of 2 or more"),
        ("--set rocks.roughness=0..1:0", "needs N of 1 or more"),
        ("--set rocks.roughness=0..:3", "has no end"),
        ("--set seed=4 --seed 5", "give one"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let line = format!("render --size 32x18 {args}");
        let o = playa(dir.path(), &words(&line));
        let err = stderr(&o);
        assert!(!o.status.success(), "{line}");
        assert!(err.contains(needle), "{line}: no {needle:?} in:\n{err}");
        assert_eq!(err.lines().count(), 1, "{line}:\n{err}");
        assert!(!err.contains("panicked"), "{line}: {err}");
        assert_eq!(files(dir.path()), Vec::<String>::new(), "{line}");
    }
    // A usage error exits 2.
    let dir = tempfile::tempdir().unwrap();
    let o = playa(dir.path(), &words("render --set colour=3"));
    assert_eq!(o.status.code(), Some(2));
    // A scene the values make too big is that input's failure.
    let o = playa(
        dir.path(),
        &words("render --size 32x18 --set aspect=0.25 --set automaton.columns=2048"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(&o, "death-valley: --set automaton grid 2048x8192");
    assert_eq!(files(dir.path()), Vec::<String>::new());
}

#[test]
fn animate_takes_set_and_a_sweep_is_its_frames() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(
        d,
        &words("animate --frames 0..=2 --size 32x18 --set rocks.roughness=0.9 --out a.png"),
    );
    assert_eq!(
        roughness(&read_recipe(&d.join("a.png")).unwrap().scene),
        [0.9]
    );
    // A sweep is the frames (tests/it/cli_animate_sweep.rs tests them).
    let o = playa_ok(
        d,
        &words("animate --size 32x18 --set rocks.roughness=0..=1:3 --out s.png"),
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("3 frames (rocks.roughness 0..=1:3)"));
    let o = playa(
        d,
        &words("animate --size 32x18 --set rocks.roughness=0..=1:3 --frames 0..2 --out b.png"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "--frames gives generations");
    let o = playa(
        d,
        &words("animate --size 32x18 --set sky.stars=-1 --out b.png"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert_stderr_has(&o, "sky.stars -1 is out of range");
    assert!(!d.join("b.png").exists());
}
