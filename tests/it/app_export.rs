//! Export PNG… at a size of another aspect than the scene's: the frame on
//! the preview, the choice between cropping and changing the scene, sizes
//! too thin to draw; the zoom read-out, which is the preview's whatever the
//! export's size; and how long an export took, in words that fit it.

#![cfg(feature = "app")]

use std::time::Duration;

use crate::common::app::{harness_with, labels, settle, type_path, wait_idle, zoom_label};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use playa::app::export::png::SizePreset;
use playa::app::{AppState, PlayaApp};

/// The app with Export PNG… set to a custom `w × h`.
fn with_export_size(w: u32, h: u32) -> Harness<'static, PlayaApp> {
    let mut state = AppState::default();
    state.scene.seed = 7;
    state.export.size = SizePreset::Custom;
    state.export.custom = [w, h];
    harness_with(state)
}

/// Whether the dialog's Export button can be pressed.
fn export_enabled(h: &Harness<'_, PlayaApp>) -> bool {
    !h.get_by_role_and_label(Role::Button, "Export")
        .accesskit_node()
        .is_disabled()
}

/// Whether "Crop to the frame" is greyed out (there is nothing to crop).
fn crop_is_greyed_out(h: &Harness<'_, PlayaApp>) -> bool {
    h.get_by_label("Crop to the frame")
        .accesskit_node()
        .is_disabled()
}

fn open_export(h: &mut Harness<'_, PlayaApp>) {
    h.get_by_label("Export PNG…").click();
    settle(h);
}

#[test]
fn the_preview_shows_the_export_frame() {
    let mut h = with_export_size(1080, 1080);
    open_export(&mut h);
    assert!(
        h.query_by_label("Export frame: 1080 × 1080").is_some(),
        "{:?}",
        labels(&h)
    );
    let mut h = with_export_size(1920, 1080);
    open_export(&mut h);
    assert!(h.query_by_label("Export frame: 1920 × 1080").is_some());
}

#[test]
fn another_aspect_asks_to_crop_and_the_crop_is_playa_render_s() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = with_export_size(108, 108);
    open_export(&mut h);
    assert!(
        h.query_by_label_contains("108 × 108 is 1:1, the scene is 16:9")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    assert!(!export_enabled(&h), "Export waits for a choice");
    let out = dir.path().join("square.png");
    type_path(&mut h, &out);

    h.get_by_label("Crop to the frame").click();
    settle(&mut h);
    assert!(export_enabled(&h));
    h.get_by_role_and_label(Role::Button, "Export").click();
    wait_idle(&mut h);
    assert!(out.exists(), "{:?}", labels(&h));
    // The scene was not changed: the picture is cut from its own.
    assert_eq!(h.state().scene().aspect, 16.0 / 9.0);

    let ron = dir.path().join("scene.ron");
    std::fs::write(&ron, h.state().scene().to_ron()).unwrap();
    let cli = dir.path().join("cli.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_playa"))
        .args([
            "render",
            ron.to_str().unwrap(),
            "--size",
            "108x108",
            "--crop",
        ])
        .arg("--out")
        .arg(&cli)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(&cli).unwrap(),
        "the app's crop differs from `playa render --crop`"
    );
    let recipe = playa::output::recipe::read_recipe(&out).unwrap();
    assert_eq!(
        recipe.window.map(|w| w.to_string()).as_deref(),
        Some("108x108+42+0 of 192x108")
    );
}

#[test]
fn changing_the_scene_s_aspect_shows_in_the_preview_and_undoes() {
    let mut h = with_export_size(1080, 1080);
    open_export(&mut h);
    h.get_by_label("Change the scene's aspect to 1:1").click();
    settle(&mut h);
    assert_eq!(h.state().scene().aspect, 1.0);
    // The size is the scene's aspect now: nothing to choose (the choice
    // keeps its place, greyed out).
    assert!(export_enabled(&h));
    assert!(crop_is_greyed_out(&h), "{:?}", labels(&h));
    assert!(h.query_by_label("1:1, the scene's aspect.").is_some());
    assert!(h.state().preview_is_current());

    h.get_by_label("Close").click();
    settle(&mut h);
    h.get_by_label("Undo").click();
    settle(&mut h);
    assert_eq!(h.state().scene().aspect, 16.0 / 9.0);
}

#[test]
fn sizes_beyond_8_to_1_are_refused_in_one_red_line() {
    let mut h = with_export_size(16384, 3);
    open_export(&mut h);
    assert!(
        h.query_by_label("16384×3 is 5461:1; playa draws aspects up to 8:1")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    assert!(!export_enabled(&h));
    assert!(crop_is_greyed_out(&h));
    // Nor a frame on the preview for a picture that will not be made.
    assert!(
        h.query_by_label_contains("Export frame").is_none(),
        "{:?}",
        labels(&h)
    );
}

#[test]
fn the_zoom_read_out_is_the_preview_s_whatever_the_export_size() {
    for (w, hh) in [(1920, 1080), (7680, 4320), (320, 180), (1080, 1080)] {
        let h = with_export_size(w, hh);
        assert_eq!(zoom_label(&h), "100%", "exporting {w}×{hh}");
    }
}

#[test]
fn a_fast_export_says_milliseconds() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = with_export_size(64, 36);
    open_export(&mut h);
    type_path(&mut h, &dir.path().join("tiny.png"));
    h.get_by_role_and_label(Role::Button, "Export").click();
    wait_idle(&mut h);
    let text = h.state().message().expect("a message").text.clone();
    let took = text
        .rsplit_once(", ")
        .and_then(|(_, t)| t.strip_suffix(" ms)"))
        .unwrap_or_else(|| panic!("{text:?} does not end in milliseconds"));
    let ms: u32 = took.parse().unwrap();
    assert!(Duration::from_millis(ms.into()) < Duration::from_secs(1));
    assert!(!text.contains("0.0 s"), "{text}");
}

#[test]
fn an_animation_at_another_aspect_asks_to_match_it() {
    let mut state = AppState::default();
    state.animation_export.size = playa::app::export::animation::AnimationSize::Custom;
    state.animation_export.custom = [96, 96];
    let mut h = harness_with(state);
    h.get_by_label("Export animation…").click();
    settle(&mut h);
    assert!(
        h.query_by_label_contains(
            "96 × 96 is 1:1, the scene is 16:9: an animation is drawn at the scene's aspect"
        )
        .is_some(),
        "{:?}",
        labels(&h)
    );
    assert!(!export_enabled(&h));
    h.get_by_label("Change the scene's aspect to 1:1").click();
    settle(&mut h);
    assert_eq!(h.state().scene().aspect, 1.0);
    assert!(export_enabled(&h));
}

#[test]
fn an_animation_of_a_setting_is_playa_animate_s_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = AppState::default();
    state.scene.seed = 5;
    state.animate.fps = 10.0;
    state.animation_export.size = playa::app::export::animation::AnimationSize::Custom;
    state.animation_export.custom = [96, 54];
    let mut h = harness_with(state);
    h.get_by_label("Export animation…").click();
    settle(&mut h);
    let generations = |h: &Harness<'_, PlayaApp>| h.query_all_by_label("Generations").count();
    let before = generations(&h);
    h.get_by_role_and_label(Role::RadioButton, "A setting")
        .click();
    settle(&mut h);
    // The generations' row gives way to the setting's: the first the
    // scene has (the time of day), from its value to its range's end, as
    // the file made below shows.
    assert!(generations(&h) < before, "{:?}", labels(&h));
    for row in ["Setting", "From", "Frames"] {
        assert!(h.query_by_label(row).is_some(), "{row}: {:?}", labels(&h));
    }
    let out = dir.path().join("day.png");
    type_path(&mut h, &out);
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.step();
    wait_idle(&mut h);
    assert!(
        h.get_all_by_label_contains("Saved").next().is_some(),
        "{:?}",
        h.state().message()
    );

    let recipe = dir.path().join("scene.ron");
    std::fs::write(&recipe, h.state().scene().to_ron()).unwrap();
    let cli = dir.path().join("cli.png");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_playa"))
        .args(["animate", recipe.to_str().unwrap()])
        .args([
            "--set",
            "time=12.0..=24.0:24",
            "--fps",
            "10",
            "--size",
            "96x54",
            "--out",
        ])
        .arg(&cli)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(&cli).unwrap(),
        "the app's sweep differs from `playa animate`"
    );
}

/// A new custom size keeps "Crop to the frame" (issue 60, item 12): the
/// user's choice holds while it applies, and Export stays ready.
#[test]
fn a_new_custom_size_keeps_crop_to_the_frame() {
    let mut h = with_export_size(1920, 720);
    open_export(&mut h);
    h.get_by_label("Crop to the frame").click();
    settle(&mut h);
    assert!(export_enabled(&h));
    h.get_by_role_and_label(Role::SpinButton, "Width").click();
    settle(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.event(egui::Event::Text("1900".into()));
    h.key_press(egui::Key::Enter);
    settle(&mut h);
    assert!(
        h.query_all_by_label_contains("1900 × 720").next().is_some(),
        "{:?}",
        labels(&h)
    );
    assert!(export_enabled(&h), "the crop was cleared: {:?}", labels(&h));
}
