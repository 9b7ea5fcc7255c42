//! The user's presets on the command line: `playa render NAME` (and every
//! command taking a scene) finds them after the shipped presets, and
//! `playa render --list` lists them after the shipped ones, with where they
//! are kept. Each test keeps its presets in a folder of its own
//! (`PLAYA_CONFIG_DIR`).

use std::path::{Path, PathBuf};

use crate::common::cli::{assert_stderr_has, assert_stdout_has, command, playa_ok, stderr, text};
use playa::scene::Scene;
use playa::source::user_presets::{CONFIG_DIR_VAR, Store};

/// The presets folder of a test's config folder in `dir`.
fn presets_folder(dir: &Path) -> PathBuf {
    dir.join(".playa-config").join("presets")
}

fn mine() -> Scene {
    Scene {
        seed: 31,
        ..playa::scene::presets::load("boulder-field").unwrap()
    }
}

/// A test folder with the user's preset "my dunes" (and `extra` files in
/// the presets folder).
fn with_presets(extra: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let folder = presets_folder(dir.path());
    Store::in_folder(&folder)
        .save("my dunes", &mine(), "Boulders at dusk, kept.", false)
        .unwrap();
    for (name, text) in extra {
        std::fs::write(folder.join(name), text).unwrap();
    }
    dir
}

#[test]
fn a_users_preset_renders_by_its_name() {
    let dir = with_presets(&[]);
    let d = dir.path();
    playa_ok(d, &["render", "my dunes", "--size", "64x36"]);
    let png = d.join("my dunes-31.png");
    let recipe = playa::output::recipe::read_recipe(&png).unwrap();
    assert_eq!(recipe.scene, mine());
    // In any letter case, and with another seed.
    playa_ok(d, &["render", "My Dunes", "--seed", "4", "--size", "64x36"]);
    assert!(d.join("my dunes-4.png").is_file());
    // Every command that takes a scene.
    let o = playa_ok(d, &["share", "my dunes"]);
    assert_eq!(text(&o.stdout).trim(), playa::share::encode(&mine()));
}

#[test]
fn the_list_shows_the_users_presets_after_the_shipped_ones() {
    let dir = with_presets(&[("broken.ron", "(seed: -1)")]);
    let o = playa_ok(dir.path(), &["render", "--list"]);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    let shipped = playa::scene::presets::PRESETS.len();
    assert!(lines[0].starts_with("death-valley "), "{out}");
    assert_eq!(lines[shipped], "", "{out}");
    let folder = presets_folder(dir.path());
    assert_eq!(
        lines[shipped + 1],
        format!("Yours, in {}:", folder.display())
    );
    assert_eq!(
        lines[shipped + 2],
        format!("{:<20} Boulders at dusk, kept.", "my dunes")
    );
    assert_eq!(lines.len(), shipped + 3, "{out}");
    // The file that is no preset: one line on stderr, and still exit 0.
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "playa: skipped {}: line 1",
            folder.join("broken.ron").display()
        )),
        "{err}"
    );
}

#[test]
fn bad_names_and_bad_presets_are_one_line_and_a_failure() {
    let dir = with_presets(&[
        ("broken.ron", "(seed: -1)"),
        ("death-valley.ron", "(seed: 5)"),
    ]);
    let d = dir.path();
    // A name that is no preset's lists the shipped presets and the user's.
    // (`share` takes one input: its one line is the whole of stderr.)
    let o = command(d).args(["share", "nothing"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("nothing: no such preset (the presets are: death-valley")
            && err.contains("; yours: my dunes)"),
        "{err}"
    );
    // A preset whose file does not load: its file, its line.
    let o = command(d).args(["share", "broken"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(&o, "broken.ron: line 1");
    assert_eq!(stderr(&o).lines().count(), 1);
    let o = command(d).args(["render", "broken"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(&o, "broken.ron: line 1");
    // A file named as a shipped preset never hides it.
    playa_ok(d, &["render", "death-valley", "--size", "64x36"]);
    let recipe = playa::output::recipe::read_recipe(&d.join("death-valley-1.png")).unwrap();
    assert_eq!(recipe.scene, Scene::default());
    let o = playa_ok(d, &["render", "--list"]);
    assert_stderr_has(
        &o,
        "death-valley.ron: not a preset: preset \"death-valley\": death-valley is a built-in preset",
    );
    assert_stdout_has(&o, "my dunes ");
}

#[test]
fn with_no_presets_the_list_says_where_they_would_be() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("elsewhere");
    let o = command(dir.path())
        .args(["render", "--list"])
        .env(CONFIG_DIR_VAR, &config)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_stdout_has(
        &o,
        &format!(
            "Yours, in {}: none yet (the app's \"Save as preset…\" keeps a scene there)",
            config.join("presets").display()
        ),
    );
    assert!(!config.exists(), "listing makes no folder");
}
