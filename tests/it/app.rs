#![cfg(feature = "app")]
//! The app's real UI, driven by role and label with egui_kittest (no GPU,
//! no window): dice, rule validation, undo, presets, locks, pastes, drops,
//! export and animation export.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::app::{
    MemoryStorage, copied, drop_file, field, harness, harness_with, preset_box, settle, type_path,
    wait_idle,
};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use playa::app::{AppState, PlayaApp};
use playa::scene::Scene;

#[test]
fn dice_changes_the_seed_and_the_preview() {
    let mut h = harness();
    let seed = h.state().scene().seed;
    let picture = h.state().preview_fingerprint().expect("a preview");

    h.get_by_label("New random seed").click();
    settle(&mut h);
    let new_seed = h.state().scene().seed;
    assert_ne!(new_seed, seed, "the dice must change the seed");

    settle(&mut h);
    assert_eq!(h.state().preview_scene().map(|s| s.seed), Some(new_seed));
    assert_ne!(
        h.state().preview_fingerprint(),
        Some(picture),
        "the picture must change"
    );
}

#[test]
fn next_and_previous_seed_step_by_one() {
    let mut h = harness();
    let seed = h.state().scene().seed;
    h.get_by_label("Next seed").click();
    settle(&mut h);
    assert_eq!(h.state().scene().seed, seed + 1);
    h.get_by_label("Previous seed").click();
    settle(&mut h);
    assert_eq!(h.state().scene().seed, seed);
}

#[test]
fn an_invalid_rule_shows_its_error_and_keeps_the_scene() {
    let mut h = harness();
    let before = h.state().scene().clone();

    let field = h.get_by_role_and_label(Role::TextInput, "Rule");
    field.focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    field.type_text("B9/S23");
    settle(&mut h);

    // The error is on screen, in words, and the scene did not change.
    h.get_by_label_contains("⚠ invalid rule");
    assert_eq!(h.state().scene(), &before);

    // Fixing it applies it and clears the error.
    let field = h.get_by_role_and_label(Role::TextInput, "Rule");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    field.type_text("B36/S23");
    settle(&mut h);
    assert!(h.query_by_label_contains("⚠ invalid rule").is_none());
    assert_eq!(h.state().scene().automaton.rule.to_string(), "B36/S23");
}

#[test]
fn undo_restores_the_previous_seed_and_redo_brings_it_back() {
    let mut h = harness();
    let seed = h.state().scene().seed;
    h.get_by_label("New random seed").click();
    settle(&mut h);
    let rolled = h.state().scene().seed;
    assert_ne!(rolled, seed);

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    settle(&mut h);
    assert_eq!(h.state().scene().seed, seed, "Ctrl+Z");

    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    settle(&mut h);
    assert_eq!(h.state().scene().seed, rolled, "Ctrl+Shift+Z");

    h.get_by_label("Undo").click();
    settle(&mut h);
    assert_eq!(h.state().scene().seed, seed, "the undo button");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    settle(&mut h);
    assert_eq!(h.state().scene().seed, rolled, "Ctrl+Y");
}

#[test]
fn a_slider_drag_is_one_undo_step() {
    let mut h = harness();
    let before = h.state().scene().automaton.density;
    let slider = h.get_by_role_and_label(Role::Slider, "Density");
    let rect = slider.rect();
    let y = rect.center().y;
    h.drag_at(egui::pos2(rect.left() + 4.0, y));
    h.step();
    for i in 1..=10 {
        h.hover_at(egui::pos2(rect.left() + 4.0 + 8.0 * i as f32, y));
        h.step();
    }
    h.drop_at(egui::pos2(rect.left() + 84.0, y));
    settle(&mut h);
    assert_ne!(h.state().scene().automaton.density, before);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.density, before);
}

#[test]
fn loading_a_preset_changes_the_scene() {
    let mut h = harness();
    let before = h.state().scene().clone();
    h.get_by_role_and_label(Role::ComboBox, "Preset").click();
    settle(&mut h);
    h.get_by_label("night-under-stars").click();
    settle(&mut h);
    let night = playa::scene::presets::load("night-under-stars").unwrap();
    assert_ne!(night, before);
    assert_eq!(h.state().scene(), &night);
    assert_eq!(h.state().state.preset, "night-under-stars");
    settle(&mut h);
    assert_eq!(h.state().preview_scene(), Some(&night));
}

#[test]
fn locked_groups_survive_randomize() {
    let mut h = harness();
    h.get_by_label("Lock seed").click();
    settle(&mut h);
    h.get_by_label("Lock rock automaton").click();
    settle(&mut h);
    let before = h.state().scene().clone();

    h.get_by_label("🔀 New scene").click();
    settle(&mut h);
    let after = h.state().scene().clone();
    assert_eq!(after.seed, before.seed, "seed is locked");
    assert_eq!(after.automaton, before.automaton, "automaton is locked");
    assert_ne!(after, before, "the unlocked groups were re-rolled");

    // Unlocked, the seed moves.
    h.get_by_label("Lock seed").click();
    settle(&mut h);
    h.get_by_label("🔀 New scene").click();
    settle(&mut h);
    assert_ne!(h.state().scene().seed, before.seed);
}

#[test]
fn the_traits_show_and_a_locked_trait_survives_new_scene() {
    use playa::traits::{ARCHETYPE, Traits};
    let mut h = harness();
    // The line under the preview says the scene's traits.
    let traits = Traits::of(h.state().scene());
    h.get_by_label(&traits.sentence());
    // The Traits section lists them, each with a lock.
    h.get_by_label("Traits").click();
    settle(&mut h);
    h.get_by_label("Lock composition").click();
    settle(&mut h);
    let composition = traits[ARCHETYPE];
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..6 {
        h.get_by_label("🔀 New scene").click();
        settle(&mut h);
        let now = Traits::of(h.state().scene());
        assert_eq!(now[ARCHETYPE], composition, "{}", now.sentence());
        seen.insert(now.sentence());
        // And the line follows the scene.
        h.get_by_label(&now.sentence());
    }
    assert!(
        seen.len() > 1,
        "New scene rolled the other traits: {seen:?}"
    );
}

#[test]
fn a_bad_paste_says_why_and_changes_nothing() {
    let mut h = harness();
    let before = h.state().scene().clone();
    h.event(egui::Event::Paste("definitely not a scene".into()));
    settle(&mut h);
    assert_eq!(h.state().scene(), &before);
    h.get_by_label_contains("is not a playa scene");

    // A good paste loads.
    let other = Scene {
        seed: 777,
        ..Scene::default()
    };
    h.event(egui::Event::Paste(ron::to_string(&other).unwrap()));
    settle(&mut h);
    assert_eq!(h.state().scene(), &other);
}

#[test]
fn the_share_field_gives_a_link_with_a_web_address_and_loads_pasted_links() {
    assert!(
        std::env::var_os(playa::app::WEB_URL_VAR).is_none(),
        "this test needs PLAYA_WEB_URL unset"
    );
    let scene = Scene {
        seed: 99,
        ..Scene::default()
    };
    let code = playa::share::encode(&scene);
    // No address: the bare code.
    let h = harness_with(AppState {
        scene: scene.clone(),
        ..AppState::default()
    });
    assert_eq!(field(&h, "Share"), code);

    // A configured address: the link, and Copy copies it.
    let address = "https://example.org/playa/index.html";
    let mut h = harness_with(AppState {
        scene: scene.clone(),
        web_address: address.into(),
        ..AppState::default()
    });
    assert_eq!(field(&h, "Share"), format!("{address}#{code}"));
    // (Into view first: the Share field lies low in the panel.)
    h.get_by_label("Copy").scroll_to_me();
    settle(&mut h);
    h.get_by_label("Copy").click();
    h.step();
    assert_eq!(copied(&h), Some(format!("{address}#{code}")));

    // A link pasted on the window loads its scene; the field follows it.
    let other = Scene {
        seed: 4321,
        ..playa::scene::presets::load("golden-hour").unwrap()
    };
    let link = playa::share::link("https://elsewhere.example/#old", &other).unwrap();
    h.event(egui::Event::Paste(format!(" {link}\n")));
    settle(&mut h);
    assert_eq!(h.state().scene(), &other);
    let other_code = playa::share::encode(&other);
    assert_eq!(field(&h, "Share"), format!("{address}#{other_code}"));

    // A link without a code says so and changes nothing.
    h.event(egui::Event::Paste("https://example.org/playa/".into()));
    settle(&mut h);
    assert_eq!(h.state().scene(), &other);
    h.get_by_label_contains("the link has no share code after #");

    // A link typed into the Share field loads too.
    let field = h.get_by_role_and_label(Role::TextInput, "Share");
    field.focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    field.type_text(&format!("http://127.0.0.1:8000/#{code}"));
    h.key_press(egui::Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().scene(), &scene);
}

#[test]
fn the_web_address_is_set_under_the_link_button() {
    assert!(
        std::env::var_os(playa::app::WEB_URL_VAR).is_none(),
        "this test needs PLAYA_WEB_URL unset"
    );
    let mut h = harness();
    let code = playa::share::encode(h.state().scene());
    assert!(h.query_by_label("Web address").is_none());
    h.get_by_label("🔗").scroll_to_me();
    settle(&mut h);
    h.get_by_label("🔗").click();
    settle(&mut h);

    let input = h.get_by_role_and_label(Role::TextInput, "Web address");
    input.focus();
    input.type_text("example.org/playa/");
    settle(&mut h);
    // Not a web address: the bare code, and why.
    h.get_by_label_contains("is not a web address: expected one like https://");
    assert_eq!(field(&h, "Share"), code);

    let input = h.get_by_role_and_label(Role::TextInput, "Web address");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    input.type_text("https://example.org/playa/");
    settle(&mut h);
    assert!(h.query_by_label_contains("is not a web address").is_none());
    assert_eq!(h.state().state.web_address, "https://example.org/playa/");
    assert_eq!(
        field(&h, "Share"),
        format!("https://example.org/playa/#{code}")
    );
}

#[test]
fn dropping_a_preset_or_picture_loads_it_and_anything_else_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness();
    let before = h.state().scene().clone();

    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "groceries").unwrap();
    drop_file(&mut h, &notes);
    assert_eq!(h.state().scene(), &before);
    h.get_by_label_contains("notes.txt is not a playa scene");

    let preset = Path::new(env!("CARGO_MANIFEST_DIR")).join("presets/badlands.ron");
    drop_file(&mut h, &preset);
    assert_eq!(
        h.state().scene(),
        &playa::scene::presets::load("badlands").unwrap()
    );

    let scene = Scene {
        seed: 4321,
        ..Scene::default()
    };
    let png = dir.path().join("picture.png");
    let image = playa::render(&scene, 64, 36).unwrap();
    playa::output::picture::write_png(&png, &image, &scene, &[], Default::default()).unwrap();
    drop_file(&mut h, &png);
    assert_eq!(h.state().scene(), &scene);
}

#[test]
fn export_writes_the_same_bytes_as_playa_render() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = AppState::default();
    state.scene.seed = 99;
    state.export.size = playa::app::export::png::SizePreset::Custom;
    state.export.custom = [320, 180];
    let mut h = harness_with(state);

    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    let out = dir.path().join("from-app.png");
    type_path(&mut h, &out);
    h.get_by_label("Export").click();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !out.exists() || h.state().busy() {
        assert!(Instant::now() < deadline, "export did not finish");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
    assert!(
        !h.get_all_by_label_contains("Saved")
            .collect::<Vec<_>>()
            .is_empty()
    );

    let recipe = dir.path().join("scene.ron");
    std::fs::write(&recipe, h.state().scene().to_ron()).unwrap();
    let cli = dir.path().join("from-cli.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_playa"))
        .args([
            "render",
            recipe.to_str().unwrap(),
            "--size",
            "320x180",
            "--out",
        ])
        .arg(&cli)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(&cli).unwrap(),
        "the app's export differs from `playa render`"
    );
}

#[test]
fn export_animation_writes_the_same_bytes_as_playa_animate() {
    use playa::animation::Format;
    let dir = tempfile::tempdir().unwrap();
    let mut state = AppState::default();
    state.scene.seed = 77;
    state.scene.automaton.generations = 4;
    state.animate.fps = 10.0;
    state.animation_export.size = playa::app::export::animation::AnimationSize::Custom;
    state.animation_export.custom = [96, 54];
    state.animation_export.hold = 1.5;
    state.animation_export.loops = 2;
    let mut h = harness_with(state);

    h.get_by_label("Export animation…").click();
    settle(&mut h);
    // The range and speed are the scrubber's.
    assert!(h.query_by_label_contains("5 frames").is_some());
    for (format, name) in [(Format::Apng, "app.png"), (Format::Gif, "app.gif")] {
        if format == Format::Gif {
            h.get_by_label("GIF").click();
            settle(&mut h);
        }
        let out = dir.path().join(name);
        type_path(&mut h, &out);
        h.get_by_label("Export").click();
        h.step();
        wait_idle(&mut h);
        assert!(
            h.get_all_by_label_contains("Saved").next().is_some(),
            "{:?}",
            h.state().message()
        );

        let recipe = dir.path().join("scene.ron");
        std::fs::write(&recipe, h.state().scene().to_ron()).unwrap();
        let cli = dir.path().join(format!("cli-{name}"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_playa"))
            .args(["animate", recipe.to_str().unwrap()])
            .args(["--frames", "0..=4", "--fps", "10", "--hold", "1.5"])
            .args(["--loops", "2", "--size", "96x54", "--out"])
            .arg(&cli)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(&cli).unwrap(),
            "the app's {format:?} differs from `playa animate`"
        );
    }
}

#[test]
fn an_animation_export_shows_progress_and_cancel_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = AppState::default();
    state.scene.automaton.generations = 400;
    state.animation_export.size = playa::app::export::animation::AnimationSize::Hd1080;
    let mut h = harness_with(state);
    h.get_by_label("Export animation…").click();
    settle(&mut h);
    let out = dir.path().join("long.png");
    type_path(&mut h, &out);
    h.get_by_label("Export").click();
    // A frame to start the job, one to show its progress.
    h.step();
    h.step();
    assert!(h.state().busy());
    assert!(h.query_by_label_contains("of 401").is_some());
    // As a mouse does: over the button a frame before pressing it.
    h.get_by_label("Cancel").hover();
    h.step();
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("Cancelling").is_some());
    wait_idle(&mut h);
    assert!(h.get_all_by_label_contains("cancelled").next().is_some());
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn play_shows_the_run_without_changing_the_scene_and_keep_is_one_undo_step() {
    let mut state = AppState::default();
    state.scene.automaton.generations = 16;
    let mut h = harness_with(state);
    let scene = h.state().scene().clone();
    let preset = preset_box(&h);
    let on_screen = |h: &Harness<'_, PlayaApp>| {
        h.state()
            .preview_scene()
            .map_or(0, |s| s.automaton.generations)
    };
    h.get_by_label("▶ Play").click();
    let deadline = Instant::now() + Duration::from_secs(60);
    while on_screen(&h) < 19 {
        assert!(
            Instant::now() < deadline,
            "the run did not reach generation 19"
        );
        h.step();
        // The scene, its code and its name stay as they were.
        assert_eq!(h.state().scene(), &scene);
        std::thread::sleep(Duration::from_millis(10));
    }
    h.get_by_label("⏸ Pause").click();
    settle(&mut h);
    let paused = on_screen(&h);
    assert!(paused >= 19, "{paused}");
    assert_eq!(h.state().scene(), &scene);
    assert_eq!(preset_box(&h), preset, "not edited");
    h.get_by_label("Back to 16").click();
    settle(&mut h);
    assert_eq!(on_screen(&h), 16);

    // Keep makes the generation on view the scene's: one undo step.
    h.get_by_label("▶ Play").click();
    while on_screen(&h) < 18 {
        assert!(Instant::now() < deadline, "the run did not go on");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.get_by_label("⏸ Pause").click();
    settle(&mut h);
    let kept = on_screen(&h);
    h.get_by_label("Keep").click();
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.generations, kept);
    assert!(h.query_by_label("Keep").is_none());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    settle(&mut h);
    assert_eq!(h.state().scene(), &scene);
}

#[test]
fn the_last_scene_and_settings_come_back_after_a_restart() {
    let mut storage = MemoryStorage::default();
    {
        let mut h = harness();
        h.get_by_label("New random seed").click();
        settle(&mut h);
        h.get_by_label("Lock seed").click();
        settle(&mut h);
        h.state().save_to(&mut storage);
    }
    let saved: AppState = eframe::get_value(&storage, "playa-app").expect("state stored");
    let restarted = PlayaApp::from_storage(Some(&storage));
    assert_eq!(restarted.state, saved);
    assert!(
        restarted
            .state
            .locks
            .is_locked(playa::explore::randomize::SEED)
    );
    assert_ne!(restarted.scene().seed, Scene::default().seed);

    // A stored scene that no longer validates falls back to the default.
    let mut broken = saved.clone();
    broken.scene.automaton.columns = 0;
    eframe::set_value(&mut storage, "playa-app", &broken);
    let restarted = PlayaApp::from_storage(Some(&storage));
    assert_eq!(restarted.scene(), &Scene::default());
}
