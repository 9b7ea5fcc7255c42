#![cfg(feature = "app")]
//! The app never shows a stale state: the Share field, the rule field, the
//! number fields, the generation scrubber, the Preset box and the status
//! bar all show the scene (egui_kittest, no window).

use std::time::{Duration, Instant};

use crate::common::app::{
    MemoryStorage, copied, drop_file, field, harness_of, harness_with, message, settle, type_into,
};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use playa::app::{AppState, PlayaApp};
use playa::scene::Scene;

/// The app on a shipped preset, as choosing it in the Preset box leaves it.
fn harness_on(preset: &str) -> Harness<'static, PlayaApp> {
    let mut h = harness_with(AppState::default());
    h.get_by_role_and_label(Role::ComboBox, "Preset").click();
    settle(&mut h);
    h.get_by_label(preset).click();
    settle(&mut h);
    assert_eq!(
        h.state().scene(),
        &playa::scene::presets::load(preset).unwrap()
    );
    h
}

#[test]
fn the_share_field_shows_the_scenes_code_after_a_bad_code_or_a_pasted_scene() {
    let mut h = harness_on("badlands");
    let badlands = h.state().scene().clone();
    let code = playa::share::encode(&badlands);
    assert_eq!(field(&h, "Share"), code);

    // A code with a bad checksum: the error, the scene stays, and the code
    // typed stays to be corrected, until Escape shows the scene's code
    // again.
    type_into(&mut h, "Share", "playa1-vRKQUCwUQfQAz");
    h.key_press(Key::Enter);
    settle(&mut h);
    let error = h.state().message().expect("an error").clone();
    assert!(error.error, "{error:?}");
    assert_eq!(h.state().scene(), &badlands);
    assert_eq!(field(&h, "Share"), "playa1-vRKQUCwUQfQAz");
    h.get_by_role_and_label(Role::TextInput, "Share").focus();
    h.step();
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(field(&h, "Share"), code);

    // Copy copies the scene's code.
    h.get_by_label("Copy").click();
    h.step();
    assert_eq!(copied(&h), Some(code.clone()));
    assert_eq!(
        message(&h).as_deref(),
        Some("Copied the scene to the clipboard")
    );

    // A scene pasted as RON into the field loads, and the field shows its
    // code, not the RON.
    let other = Scene {
        seed: 4242,
        ..Scene::default()
    };
    h.get_by_role_and_label(Role::TextInput, "Share").focus();
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Paste(other.to_ron()));
    settle(&mut h);
    assert_eq!(h.state().scene(), &other);
    assert_eq!(field(&h, "Share"), playa::share::encode(&other));

    // A code pasted where a click left the cursor, inside the old code,
    // loads too.
    h.get_by_role_and_label(Role::TextInput, "Share").focus();
    h.step();
    h.event(egui::Event::Paste(code.clone()));
    settle(&mut h);
    assert_eq!(h.state().scene(), &badlands);
    assert_eq!(field(&h, "Share"), code);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(h.state().scene(), &other);

    // Typing and leaving with Escape changes nothing and shows the code.
    type_into(&mut h, "Share", "half a co");
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(h.state().scene(), &other);
    assert_eq!(field(&h, "Share"), playa::share::encode(&other));
}

#[test]
fn a_share_code_typed_by_hand_is_checked_on_enter_not_on_every_key() {
    let mut h = harness_with(AppState::default());
    let before = h.state().scene().clone();
    let night = playa::scene::presets::load("night-under-stars").unwrap();
    let code = playa::share::encode(&night);

    // Half a code: nothing loads and nothing complains while typing.
    type_into(&mut h, "Share", &code[..code.len() / 2]);
    assert_eq!(message(&h), None);
    assert_eq!(h.state().scene(), &before);
    // The whole code, still typing: nothing yet.
    h.get_by_role_and_label(Role::TextInput, "Share")
        .type_text(&code[code.len() / 2..]);
    settle(&mut h);
    assert_eq!(message(&h), None);
    assert_eq!(h.state().scene(), &before);
    // Enter loads it.
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().scene(), &night);

    // A typo committed with Enter: one error, the scene stays.
    type_into(&mut h, "Share", "playa1-nope");
    assert!(!h.state().message().is_some_and(|m| m.error));
    h.key_press(Key::Enter);
    settle(&mut h);
    assert!(h.state().message().is_some_and(|m| m.error));
    assert_eq!(h.state().scene(), &night);
}

#[test]
fn the_rule_field_shows_the_scenes_rule_after_enter_or_escape() {
    let mut h = harness_with(AppState::default());
    let rule = h.state().scene().automaton.rule.to_string();
    assert_eq!(rule, "B3/S23");

    // An invalid rule committed with Enter: the scene keeps its rule, the
    // field shows it, and the status bar says why.
    type_into(&mut h, "Rule", "garbage!?");
    h.get_by_label_contains("⚠ invalid rule");
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.rule.to_string(), rule);
    assert_eq!(field(&h, "Rule"), rule);
    assert!(h.query_by_label_contains("⚠").is_none());
    let error = h.state().message().expect("a message").clone();
    assert!(error.error && error.text.contains("garbage!?"), "{error:?}");

    // Escape after an invalid rule: the scene's rule, no error.
    type_into(&mut h, "Rule", "garbage!?");
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(field(&h, "Rule"), rule);
    assert!(h.query_by_label_contains("⚠").is_none());

    // Escape after a valid rule, applied while typing: back to the rule
    // before the edit.
    type_into(&mut h, "Rule", "B36/S23");
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.rule.to_string(), "B36/S23");
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.rule.to_string(), rule);
    assert_eq!(field(&h, "Rule"), rule);
}

/// The number box of the slider labelled `label` (a spin button under the
/// same label; while it is typed in, its value is the text typed).
fn number_box<'t>(h: &'t Harness<'_, PlayaApp>, label: &'t str) -> egui_kittest::Node<'t> {
    h.get_by_role_and_label(Role::SpinButton, label)
}

#[test]
fn number_fields_apply_on_enter_or_leaving_and_escape_restores() {
    let mut state = AppState::default();
    state.scene.automaton.density = 0.45;
    let mut h = harness_with(state);

    // Click into the box: the text is being edited, the scene is not.
    number_box(&h, "Density").click();
    settle(&mut h);
    h.key_press(Key::End);
    for _ in 0..3 {
        h.key_press(Key::Backspace);
        h.step();
    }
    assert_eq!(h.state().scene().automaton.density, 0.45, "mid-edit");
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    for c in ["0", ".", "8"] {
        h.event(egui::Event::Text(c.into()));
        h.step();
    }
    assert_eq!(h.state().scene().automaton.density, 0.45, "mid-edit");
    assert_eq!(
        number_box(&h, "Density").value().as_deref(),
        Some("0.8"),
        "the box shows what was typed"
    );

    // Enter applies.
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.density, 0.8);

    // Escape restores.
    number_box(&h, "Density").click();
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("0.3".into()));
    h.step();
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.density, 0.8);
    assert_eq!(
        number_box(&h, "Density")
            .accesskit_node()
            .numeric_value()
            .map(|v| v as f32),
        Some(0.8)
    );

    // Leaving the field (a click elsewhere) applies.
    number_box(&h, "Density").click();
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("0.3".into()));
    h.step();
    assert_eq!(h.state().scene().automaton.density, 0.8, "mid-edit");
    h.get_by_label("Rock automaton").click();
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.density, 0.3);
}

/// The highest value the slider labelled `label` reaches.
fn slider_end(h: &Harness<'_, PlayaApp>, label: &str) -> f64 {
    h.get_by_role_and_label(Role::Slider, label)
        .accesskit_node()
        .max_numeric_value()
        .expect("a slider has a range")
}

#[test]
fn the_scrubber_has_the_generations_settings_range_and_plays_on_from_where_it_is() {
    let mut state = AppState::default();
    state.scene.automaton.generations = 90;
    let mut h = harness_with(state);
    let end = slider_end(&h, "Generations");
    assert_eq!(end, f64::from(playa::scene::MAX_GENERATIONS));
    assert_eq!(slider_end(&h, "Generation"), end, "one range");

    // Stepping on never moves the end.
    h.state_mut().state.scene.automaton.generations = 250;
    settle(&mut h);
    h.get_by_label("⏵").click();
    settle(&mut h);
    assert_eq!(h.state().scene().automaton.generations, 251);
    assert_eq!(slider_end(&h, "Generation"), end);

    // Play goes on from the generation shown (and shows the run: the
    // scene stays).
    h.get_by_label("▶ Play").click();
    let deadline = Instant::now() + Duration::from_secs(60);
    let on_screen = |h: &Harness<'_, PlayaApp>| {
        h.state()
            .preview_scene()
            .map_or(0, |s| s.automaton.generations)
    };
    while on_screen(&h) == 251 {
        assert!(Instant::now() < deadline, "Play did not step");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(on_screen(&h), 252);
    assert_eq!(h.state().scene().automaton.generations, 251);
    h.get_by_label("⏸ Pause").click();
    settle(&mut h);

    // Nothing of the scrubber is stored to come back stale: after a
    // restart and a preset, the range is still the setting's.
    let mut storage = MemoryStorage::default();
    h.state().save_to(&mut storage);
    let mut h = harness_of(PlayaApp::from_storage(Some(&storage)));
    h.get_by_role_and_label(Role::ComboBox, "Preset").click();
    settle(&mut h);
    h.get_by_label("badlands").click();
    settle(&mut h);
    assert_eq!(slider_end(&h, "Generation"), end);
}

/// The text the Preset box shows.
fn preset_box(h: &Harness<'_, PlayaApp>) -> String {
    h.get_by_role_and_label(Role::ComboBox, "Preset")
        .value()
        .expect("the preset box shows a name")
}

#[test]
fn the_preset_box_says_edited_or_where_the_scene_came_from_and_messages_expire() {
    // Loaded by hand, the message read at once: waiting for the preview
    // (frames of 1/4 s each, as many as a busy machine needs) could outlast it.
    let mut h = harness_with(AppState::default());
    h.get_by_role_and_label(Role::ComboBox, "Preset").click();
    settle(&mut h);
    h.get_by_label("badlands").click();
    // A frame to take the click, one to show what it did.
    h.step();
    h.step();
    assert_eq!(preset_box(&h), "badlands");
    assert_eq!(message(&h).as_deref(), Some("Loaded preset badlands"));

    // The message goes after a while (each frame of the harness is 1/4 s),
    // and the frame that drops it no longer shows it.
    let mut frames = 0;
    while message(&h).is_some() {
        assert!(frames < 40, "the message did not expire in 10 s");
        h.step();
        frames += 1;
    }
    assert!(frames >= 12, "gone after {frames} frames: too soon to read");
    assert!(h.query_by_label("Loaded preset badlands").is_none());

    // An edit marks the box; undoing it unmarks it.
    h.get_by_label("New random seed").click();
    settle(&mut h);
    assert_eq!(preset_box(&h), "badlands (edited)");
    h.get_by_label("Undo").click();
    settle(&mut h);
    assert_eq!(preset_box(&h), "badlands");

    // A pasted code: its source, not the last preset.
    let other = Scene {
        seed: 31,
        ..Scene::default()
    };
    h.event(egui::Event::Paste(playa::share::encode(&other)));
    settle(&mut h);
    assert_eq!(h.state().scene(), &other);
    assert_eq!(preset_box(&h), "pasted scene");
    h.get_by_label("Next seed").click();
    settle(&mut h);
    assert_eq!(preset_box(&h), "pasted scene (edited)");

    // A playa picture dropped on the window: its name.
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("evening.png");
    let scene = Scene {
        seed: 5,
        ..Scene::default()
    };
    let image = playa::render(&scene, 64, 36).unwrap();
    playa::output::picture::write_png(&png, &image, &scene, &[], Default::default()).unwrap();
    drop_file(&mut h, &png);
    assert_eq!(h.state().scene(), &scene);
    assert_eq!(preset_box(&h), "evening");
}

/// The tooltips on screen.
fn tooltips(h: &Harness<'_, PlayaApp>) -> usize {
    h.ctx.memory(|m| {
        m.areas()
            .visible_layer_ids()
            .iter()
            .filter(|l| l.order == egui::Order::Tooltip)
            .count()
    })
}

/// Hovers `at` until any tooltip has had time to show.
fn hover(h: &mut Harness<'_, PlayaApp>, at: egui::Pos2) {
    h.event(egui::Event::PointerMoved(at));
    for _ in 0..3 {
        h.step();
    }
    std::thread::sleep(Duration::from_millis(700));
    for _ in 0..3 {
        h.step();
    }
}

#[test]
fn the_rule_s_parts_each_show_one_tooltip() {
    let mut h = harness_with(AppState::default());
    h.ctx
        .global_style_mut(|s| s.interaction.tooltip_delay = 0.0);
    // The rule's line, with its name and with an error typed.
    let line = |h: &Harness<'_, PlayaApp>| {
        h.query_all_by_label("Life")
            .chain(h.query_all_by_label_contains("⚠ invalid rule"))
            .map(|n| n.rect())
            .next()
            .expect("the rule's line")
    };
    let field = h.get_by_role_and_label(Role::TextInput, "Rule").rect();
    for at in [field.center(), line(&h).center()] {
        hover(&mut h, at);
        assert!(tooltips(&h) <= 1, "{} tooltips at {at:?}", tooltips(&h));
    }
    type_into(
        &mut h,
        "Rule",
        "B3/S23/garbage that is long enough to be cut short!?",
    );
    let at = line(&h).center();
    hover(&mut h, at);
    assert_eq!(tooltips(&h), 1, "one tooltip on the error");
}

#[test]
fn a_seed_typed_keeps_the_panel_still_and_the_largest_seed_shows_whole() {
    let mut state = AppState::default();
    state.scene.seed = u64::MAX;
    let mut h = harness_with(state);
    let below = h.get_by_label("🔀 New scene").rect();
    let seed = h.get_by_role_and_label(Role::TextInput, "Seed").rect();
    let font =
        egui::FontId::monospace(h.ctx.global_style().text_styles[&egui::TextStyle::Monospace].size);
    let digits = h.ctx.fonts_mut(|f| {
        f.layout_no_wrap(u64::MAX.to_string(), font, egui::Color32::WHITE)
            .size()
            .x
    });
    // The text and the field's margins (4 points each side).
    assert!(
        seed.width() >= digits + 8.0,
        "{seed:?} is narrower than 20 digits ({digits})"
    );
    type_into(&mut h, "Seed", "12x");
    h.get_by_label_contains("⚠");
    assert_eq!(
        h.get_by_label("🔀 New scene").rect(),
        below,
        "the panel moved"
    );
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(h.get_by_label("🔀 New scene").rect(), below);
}

/// The share of the floor below the horizon that `scene`'s rocks cover:
/// the pixels that differ with the rocks shown and hidden, on a small
/// render.
fn floor_cover(scene: &Scene) -> f64 {
    let (w, h) = (320, 180);
    let shown = playa::render(scene, w, h).unwrap();
    let mut bare = scene.clone();
    for layer in &mut bare.layers {
        if let playa::Layer::Rocks(r) = layer {
            r.visible = false;
        }
    }
    let hidden = playa::render(&bare, w, h).unwrap();
    let top = (scene.horizon * h as f32).ceil() as u32;
    let covered = (top..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let (a, b) = (shown.get_pixel(x, y).0, hidden.get_pixel(x, y).0);
            (0..3).any(|c| a[c].abs_diff(b[c]) >= 8)
        })
        .count();
    covered as f64 / f64::from((h - top) * w)
}

#[test]
fn the_stones_follow_the_columns_so_any_count_gives_clumps() {
    let mut h = harness_on("death-valley");
    let before = h.state().scene().clone();
    let was = floor_cover(&before);
    for columns in ["2048", "160"] {
        number_box(&h, "Columns").click();
        settle(&mut h);
        h.key_press_modifiers(Modifiers::COMMAND, Key::A);
        h.event(egui::Event::Text(columns.into()));
        h.key_press(Key::Enter);
        settle(&mut h);
        let scene = h.state().scene().clone();
        assert_eq!(scene.automaton.columns.to_string(), columns);
        let cover = floor_cover(&scene);
        assert!(
            (0.01..=0.6).contains(&cover) && (0.4..=2.5).contains(&(cover / was)),
            "{columns} columns cover {cover:.3} of the floor (at {}: {was:.3})",
            before.automaton.columns
        );
    }
    // One undo step each.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(h.state().scene(), &before);
}

/// The Camera section, closed at first, holds the eye, the lens and one
/// ground: its sliders reach the settings' whole ranges, and ticking One
/// ground makes the scene one ground (a new code version).
#[test]
fn the_camera_section_sets_the_eye_the_lens_and_one_ground() {
    let mut h = harness_with(AppState::default());
    assert!(
        h.query_by_role_and_label(Role::Slider, "Eye height")
            .is_none()
    );
    // Its arrow, left of the title.
    let title = h.get_by_label("Camera").rect();
    let arrow = egui::pos2(title.left() - 8.0, title.center().y);
    h.event(egui::Event::PointerMoved(arrow));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: arrow,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    settle(&mut h);
    assert_eq!(slider_end(&h, "Eye height"), 2000.0);
    assert_eq!(slider_end(&h, "Lens"), 400.0);
    assert!(!h.state().scene().one_ground);
    h.get_by_role_and_label(Role::CheckBox, "One ground")
        .click();
    settle(&mut h);
    assert!(h.state().scene().one_ground);
    assert!(playa::share::encode(h.state().scene()).starts_with("playa7-"));
}
