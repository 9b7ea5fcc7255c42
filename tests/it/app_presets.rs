#![cfg(feature = "app")]
//! Keeping scenes in the app: "Save scene…" writes a `.ron` that loads
//! back to the same scene; "Save as preset…" keeps the scene among the
//! user's presets, which the picker shows with thumbnails beside the
//! shipped ones, renames and deletes. Each test keeps its presets in a
//! folder of its own, never the user's.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::app::{
    drop_file, harness_of, message, preset_box, settle, type_path, wait_idle,
};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use playa::app::{AppState, PlayaApp};
use playa::scene::Scene;
use playa::source::user_presets::Store;

/// The app on the default scene, its presets in `folder`.
fn app_in(folder: &Path) -> Harness<'static, PlayaApp> {
    harness_of(PlayaApp::with_presets(
        AppState::default(),
        Store::in_folder(folder),
    ))
}

/// Replaces the text of the field labelled `label` with `text`.
fn type_into(h: &mut Harness<'_, PlayaApp>, label: &str, text: &str) {
    let field = h.get_by_role_and_label(Role::TextInput, label);
    field.focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    h.run();
}

/// Opens the preset picker (or closes it), its thumbnails rendered.
fn open_picker(h: &mut Harness<'_, PlayaApp>) {
    h.get_by_role_and_label(Role::ComboBox, "Preset").click();
    wait_idle(h);
}

/// Picks `name` in the preset picker.
fn pick(h: &mut Harness<'_, PlayaApp>, name: &str) {
    open_picker(h);
    h.get_by_label(name).click();
    settle(h);
}

/// Saves the scene as the preset `name` with "Save as preset…".
fn save_as_preset(h: &mut Harness<'_, PlayaApp>, name: &str) {
    h.get_by_label("Save as preset…").click();
    h.run();
    type_into(h, "Name", name);
    h.get_by_label("Save").click();
    settle(h);
}

fn store_names(folder: &Path) -> Vec<String> {
    Store::in_folder(folder)
        .list()
        .unwrap()
        .presets
        .into_iter()
        .map(|p| p.name)
        .collect()
}

#[test]
fn a_scene_saved_as_a_preset_is_picked_again_by_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("presets");
    let mut h = app_in(&folder);
    pick(&mut h, "badlands");
    h.get_by_label("New random seed").click();
    settle(&mut h);
    let kept = h.state().scene().clone();
    assert_ne!(kept, playa::scene::presets::load("badlands").unwrap());

    h.get_by_label("Save as preset…").click();
    h.run();
    // The Name field has the keyboard; an empty name is no error yet, but
    // Save waits for one.
    let field = h.get_by_role_and_label(Role::TextInput, "Name");
    assert!(field.accesskit_node().is_focused());
    assert!(h.query_by_label_contains("⚠").is_none());
    assert!(h.get_by_label("Save").accesskit_node().is_disabled());
    // A built-in's name is refused in place, and Save cannot be pressed.
    type_into(&mut h, "Name", "Badlands");
    h.get_by_label_contains("⚠ badlands is a built-in preset; choose another name");
    assert!(h.get_by_label("Save").accesskit_node().is_disabled());
    type_into(&mut h, "Name", "dunes/1");
    h.get_by_label_contains("'/' is not allowed");
    type_into(&mut h, "Name", "evening dunes");
    assert!(h.query_by_label_contains("⚠").is_none());
    type_into(&mut h, "Description", "Randomized badlands.");
    h.get_by_label("Save").click();
    settle(&mut h);

    assert_eq!(store_names(&folder), ["evening dunes"]);
    let saved = Store::in_folder(&folder).get("evening dunes").unwrap();
    assert_eq!(saved.scene, kept.quantized());
    assert_eq!(saved.description, "Randomized badlands.");
    assert_eq!(
        preset_box(&h),
        "evening dunes",
        "the saved preset is current"
    );
    assert!(
        message(&h).is_some_and(|m| m.starts_with("Saved preset evening dunes in ")),
        "{:?}",
        message(&h)
    );

    // Picked again after another preset: the same scene, by its name.
    pick(&mut h, "death-valley");
    assert_eq!(h.state().scene(), &Scene::default());
    pick(&mut h, "evening dunes");
    let kept = kept.quantized();
    assert_eq!(h.state().scene(), &kept);
    assert_eq!(preset_box(&h), "evening dunes");
    assert_eq!(
        message(&h).as_deref(),
        Some("Loaded your preset evening dunes")
    );
    settle(&mut h);
    assert_eq!(h.state().preview_scene(), Some(&kept));

    // Saving under the same name asks to replace it.
    h.get_by_label("Next seed").click();
    settle(&mut h);
    h.get_by_label("Save as preset…").click();
    h.run();
    assert_eq!(
        h.get_by_role_and_label(Role::TextInput, "Name").value(),
        Some("evening dunes".to_string()),
        "the current preset's name is proposed"
    );
    h.get_by_label_contains("You have a preset called evening dunes: saving replaces it.");
    h.get_by_label("Replace").click();
    settle(&mut h);
    let replaced = Store::in_folder(&folder).get("evening dunes").unwrap();
    assert_eq!(replaced.scene.seed, kept.seed + 1);
    assert_eq!(store_names(&folder), ["evening dunes"]);
}

#[test]
fn the_picker_shows_a_thumbnail_of_every_preset() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("presets");
    let mine = Scene {
        seed: 12,
        ..playa::scene::presets::load("salt-flat").unwrap()
    };
    Store::in_folder(&folder)
        .save("mine", &mine, "", false)
        .unwrap();
    let mut h = app_in(&folder);
    open_picker(&mut h);
    let mut scenes: Vec<Scene> = playa::scene::presets::PRESETS
        .iter()
        .map(|p| p.scene().unwrap())
        .collect();
    scenes.push(mine);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !scenes.iter().all(|s| h.state().has_thumbnail(s)) {
        assert!(Instant::now() < deadline, "thumbnails did not arrive");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.run();
    for p in playa::scene::presets::PRESETS {
        h.get_by_label(&format!("Thumbnail of {}", p.name));
    }
    h.get_by_label("Thumbnail of mine");
    // A click on a thumbnail loads its preset.
    h.get_by_label("Thumbnail of golden-hour").click();
    settle(&mut h);
    assert_eq!(
        h.state().scene(),
        &playa::scene::presets::load("golden-hour").unwrap()
    );
    assert_eq!(preset_box(&h), "golden-hour");
}

#[test]
fn a_preset_is_renamed_and_deleted_from_the_picker() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("presets");
    let mut h = app_in(&folder);
    save_as_preset(&mut h, "first");
    h.get_by_label("Next seed").click();
    settle(&mut h);
    save_as_preset(&mut h, "second");
    assert_eq!(store_names(&folder), ["first", "second"]);

    // Rename: a clash is said in place; a good name renames the file and
    // the Preset box follows.
    open_picker(&mut h);
    h.get_by_label("Rename second").click();
    h.run();
    type_into(&mut h, "Name", "First");
    h.get_by_label_contains("⚠ you have a preset called first already");
    assert!(h.get_by_label("Rename").accesskit_node().is_disabled());
    type_into(&mut h, "Name", "salt-flat");
    h.get_by_label_contains("⚠ salt-flat is a built-in preset");
    type_into(&mut h, "Name", "later");
    h.get_by_label("Rename").click();
    settle(&mut h);
    assert_eq!(store_names(&folder), ["first", "later"]);
    assert_eq!(preset_box(&h), "later");
    assert_eq!(
        message(&h).as_deref(),
        Some("Renamed preset second to later")
    );

    // Delete asks first; Cancel keeps the preset.
    open_picker(&mut h);
    h.get_by_label("Delete first").click();
    h.run();
    h.get_by_label_contains("Delete your preset first?");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(store_names(&folder), ["first", "later"]);
    open_picker(&mut h);
    h.get_by_label("Delete first").click();
    h.run();
    h.get_by_label("Delete").click();
    settle(&mut h);
    assert_eq!(store_names(&folder), ["later"]);
    assert_eq!(message(&h).as_deref(), Some("Deleted preset first"));
    open_picker(&mut h);
    assert!(h.query_by_label("first").is_none());
    h.get_by_label("later");
}

#[test]
fn a_preset_saved_elsewhere_shows_when_the_picker_opens_and_bad_files_are_noted() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("presets");
    let mut h = app_in(&folder);
    open_picker(&mut h);
    h.get_by_label_contains("None yet");
    // Closed by a second click on the box.
    open_picker(&mut h);
    assert!(h.query_by_label_contains("None yet").is_none());

    let other = Scene {
        seed: 99,
        ..Scene::default()
    };
    Store::in_folder(&folder)
        .save("from the command line", &other, "", false)
        .unwrap();
    std::fs::write(folder.join("broken.ron"), "(seed: -1)").unwrap();
    pick(&mut h, "from the command line");
    assert_eq!(h.state().scene(), &other);
    open_picker(&mut h);
    h.get_by_label_contains("⚠ skipped");
    h.get_by_label_contains("broken.ron: line 1");
}

#[test]
fn save_scene_writes_a_ron_that_loads_back_to_the_same_scene() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_in(&dir.path().join("presets"));
    pick(&mut h, "night-under-stars");
    h.get_by_label("New random seed").click();
    settle(&mut h);
    let scene = h.state().scene().clone();

    h.get_by_label("Save scene…").click();
    h.run();
    let proposed = h
        .get_by_role_and_label(Role::TextInput, "File")
        .value()
        .unwrap();
    assert!(
        proposed.ends_with(&format!("night-under-stars-{}.ron", scene.seed)),
        "{proposed}"
    );
    let path = dir.path().join("kept");
    type_path(&mut h, &path);
    h.get_by_label("Save").click();
    wait_idle(&mut h);
    let file = dir.path().join("kept.ron");
    assert!(file.is_file(), "the .ron extension is added");
    assert!(
        message(&h).is_some_and(|m| m.starts_with(&format!("Saved {}", file.display()))),
        "{:?}",
        message(&h)
    );

    h.get_by_label("Close").click();
    h.run();

    // What `playa render` reads, and what Open… and a drop load.
    let read = playa::Source::from_arg(file.to_str().unwrap())
        .unwrap()
        .load()
        .unwrap();
    assert_eq!(read.scene, scene.quantized());
    pick(&mut h, "death-valley");
    drop_file(&mut h, &file);
    assert_eq!(h.state().scene(), &scene.quantized());
    assert_eq!(
        playa::share::encode(h.state().scene()),
        playa::share::encode(&scene)
    );
    assert_eq!(preset_box(&h), "kept");

    // Saving again asks before replacing the file.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    type_path(&mut h, &file);
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label_contains("kept.ron already exists.");
    h.get_by_label("Replace it?");
}

/// Clicks the primary button at `pos`.
fn click_at(h: &mut Harness<'_, PlayaApp>, pos: egui::Pos2) {
    h.event(egui::Event::PointerMoved(pos));
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    h.run();
}

/// Issue 60, item 13: the whole row of a preset picks it, its
/// description and the room beside a short name too.
#[test]
fn a_click_anywhere_on_a_preset_s_row_picks_it() {
    let dir = tempfile::tempdir().unwrap();
    for (name, spot) in [("golden-hour", "description"), ("badlands", "beside")] {
        let mut h = app_in(&dir.path().join("presets"));
        open_picker(&mut h);
        let preset = playa::scene::presets::get(name).unwrap();
        let label = h.get_by_label(name).rect();
        let pos = match spot {
            "description" => {
                let text = preset.description();
                let words: String = text.chars().take(12).collect();
                let d = h.get_by_label_contains(&words).rect();
                d.center()
            }
            _ => egui::pos2(label.right() + 60.0, label.center().y),
        };
        click_at(&mut h, pos);
        settle(&mut h);
        assert_eq!(
            h.state().scene(),
            &preset.scene().unwrap(),
            "a click {spot} {name} at {pos:?} did not pick it"
        );
        assert_eq!(preset_box(&h), name);
    }
}
