#![cfg(feature = "app")]
//! The side panel says what it will do: a share code typed loads when the
//! field is left, the rule's error keeps its line, density's slider travels
//! what leaves clumps, the seed field refuses what is no seed, Open…'s
//! fallback points at its field, the layout holds at 800×500, and a click
//! on a number box never changes it (egui_kittest, no window).

use std::time::{Duration, Instant};

use crate::common::app::{field, harness, harness_with, message, settle, type_into};
use egui::accesskit::Role;
use egui::{Event, Key, Modifiers, PointerButton, Pos2, Rect, pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use playa::app::{AppState, PlayaApp};
use playa::scene::Scene;

/// Clicks the status bar: away from any field, changing nothing.
fn click_away(h: &mut Harness<'_, PlayaApp>) {
    h.get_by_label_contains("Rendered ").click();
    settle(h);
}

#[test]
fn a_share_code_typed_without_enter_loads_when_the_field_is_left() {
    let mut h = harness();
    let before = h.state().scene().clone();
    let night = playa::scene::presets::load("night-under-stars").unwrap();
    let code = playa::share::encode(&night);

    type_into(&mut h, "Share", &code);
    assert_eq!(h.state().scene(), &before, "nothing loads while typing");
    click_away(&mut h);
    assert_eq!(h.state().scene(), &night);
    assert_eq!(field(&h, "Share"), code);

    // A code that is no scene: the error, and the text stays to be
    // corrected; the scene stays.
    type_into(&mut h, "Share", "playa1-nope");
    click_away(&mut h);
    assert_eq!(h.state().scene(), &night);
    assert!(h.state().message().is_some_and(|m| m.error));
    assert_eq!(field(&h, "Share"), "playa1-nope");
    h.get_by_label_contains("⚠");
    // Escape in the field: the scene's code again.
    h.get_by_role_and_label(Role::TextInput, "Share").focus();
    h.step();
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(field(&h, "Share"), code);
    assert!(h.query_by_label_contains("⚠").is_none());
}

/// The top of the Edges row (its Wrap button), under the rule field.
fn edges_top(h: &Harness<'_, PlayaApp>) -> f32 {
    h.get_by_label("Wrap").rect().top()
}

#[test]
fn the_rule_fields_error_keeps_its_line_and_is_short() {
    let mut h = harness();
    let top = edges_top(&h);
    // Each key, valid or not: nothing under the field moves.
    for (typed, valid) in [("B", false), ("B3", false), ("B3/", false), ("B3/S", true)] {
        type_into(&mut h, "Rule", typed);
        assert_eq!(edges_top(&h), top, "after {typed:?}");
        assert_eq!(h.query_by_label_contains("⚠").is_none(), valid, "{typed:?}");
    }
    // A long error: one line, without the text typed (that is on hover
    // and, on Enter, in the status bar).
    type_into(&mut h, "Rule", &"garbage!?".repeat(8));
    let line = h.get_by_label_contains("⚠");
    let text = line.accesskit_node().value().unwrap_or_default();
    assert!(
        text.starts_with("⚠ invalid rule: expected two parts"),
        "{text}"
    );
    assert!(!text.contains("garbage"), "{text}");
    assert!(line.rect().height() < 24.0, "{:?}", line.rect());
    assert_eq!(edges_top(&h), top);
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(edges_top(&h), top);
    assert!(message(&h).is_some_and(|m| m.contains("garbage!?")));
}

/// The ends of the slider labelled `label`.
fn slider_range(h: &Harness<'_, PlayaApp>, label: &str) -> (f64, f64) {
    let node = h.get_by_role_and_label(Role::Slider, label);
    let node = node.accesskit_node();
    (
        node.min_numeric_value().expect("a range"),
        node.max_numeric_value().expect("a range"),
    )
}

/// Picks `name` from the rule field's menu of known rules.
fn pick_rule(h: &mut Harness<'_, PlayaApp>, name: &str) {
    h.get_by_label("Known rules").click();
    settle(h);
    h.get_by_label_contains(&format!("{name}  ")).click();
    settle(h);
}

#[test]
fn the_density_slider_travels_what_leaves_clumps_for_the_rule() {
    let mut h = harness();
    assert_eq!(h.state().scene().automaton.rule.to_string(), "B3/S23");
    let close = |(a, b): (f64, f64), (c, d): (f32, f32)| {
        (a - f64::from(c)).abs() < 1e-6 && (b - f64::from(d)).abs() < 1e-6
    };
    assert!(close(slider_range(&h, "Density"), (0.05, 0.8)));

    // Majority: its range, and a density above it moves to its top.
    h.state_mut().state.scene.automaton.density = 0.7;
    settle(&mut h);
    pick_rule(&mut h, "Majority");
    assert_eq!(h.state().scene().automaton.rule.to_string(), "B5678/S45678");
    assert!(close(slider_range(&h, "Density"), (0.325, 0.475)));
    assert_eq!(h.state().scene().automaton.density, 0.475);

    // The hover text says why it ends there.
    // (A tooltip shows after a short delay: on a busy machine, a few
    // frames more.)
    h.get_by_role_and_label(Role::Slider, "Density").hover();
    crate::common::app::await_label(&mut h, "one mass");

    // A rule typed by hand: the whole range, the density as it was.
    type_into(&mut h, "Rule", "B2/S");
    h.key_press(Key::Enter);
    settle(&mut h);
    assert!(close(slider_range(&h, "Density"), (0.0, 1.0)));
    assert_eq!(h.state().scene().automaton.density, 0.475);

    // A scene from before, outside its rule's range: kept as it is.
    let mut state = AppState::default();
    state.scene.automaton.rule = "B5678/S45678".parse().unwrap();
    state.scene.automaton.density = 0.9;
    let h = harness_with(state);
    assert_eq!(h.state().scene().automaton.density, 0.9);
    assert!(close(slider_range(&h, "Density"), (0.325, 0.475)));
}

#[test]
fn the_seed_field_refuses_what_is_no_seed_where_it_is_typed() {
    let mut state = AppState::default();
    state.scene.seed = 77;
    let mut h = harness_with(state);

    for (typed, says) in [
        ("hello", "whole number"),
        ("18446744073709551616", "too large"),
    ] {
        type_into(&mut h, "Seed", typed);
        assert!(
            h.query_all_by_label_contains("⚠")
                .any(|n| n.accesskit_node().value().is_some_and(|l| l.contains(says))),
            "{typed}"
        );
        h.key_press(Key::Enter);
        settle(&mut h);
        assert_eq!(h.state().scene().seed, 77, "{typed}");
        assert_eq!(field(&h, "Seed"), "77");
        assert!(h.state().message().is_some_and(|m| m.error), "{typed}");
        assert!(h.query_by_label_contains("⚠").is_none());
    }

    // The largest seed is a seed, and Next stops there.
    type_into(&mut h, "Seed", "18446744073709551615");
    assert!(h.query_by_label_contains("⚠").is_none());
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().scene().seed, u64::MAX);
    h.get_by_label("Next seed").click();
    settle(&mut h);
    assert_eq!(h.state().scene().seed, u64::MAX);
    h.get_by_label("Previous seed").click();
    settle(&mut h);
    assert_eq!(h.state().scene().seed, u64::MAX - 1);
    assert_eq!(field(&h, "Seed"), (u64::MAX - 1).to_string());
}

#[test]
fn opens_fallback_points_at_the_path_field_above() {
    let mut h = harness();
    h.get_by_label("Open…").click();
    // No desktop portal here: the dialog answers "nothing chosen" at once.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !message(&h).is_some_and(|m| m.starts_with("No file opened")) {
        assert!(Instant::now() < deadline, "no answer from the dialog");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    let text = message(&h).unwrap();
    assert!(text.contains("Path field above"), "{text}");
    settle(&mut h);
    let path = h.get_by_role_and_label(Role::TextInput, "Path").rect();
    let open = h.get_by_label("Open…").rect();
    assert!(path.top() > open.bottom(), "the Path field is under Open…");
    let status = h.get_by_label_contains("No file opened").rect();
    assert!(status.top() > path.bottom(), "and the message under both");
}

/// The app in an 800×500 window, its first preview on screen.
fn small_harness() -> Harness<'static, PlayaApp> {
    let mut h = Harness::builder().with_size([800.0, 500.0]).build_ui_state(
        |ui, app: &mut PlayaApp| app.ui(ui),
        PlayaApp::new(AppState::default()),
    );
    settle(&mut h);
    h
}

/// Drags with the primary button from `from` to `to`, in steps.
fn drag(h: &mut Harness<'_, PlayaApp>, from: Pos2, to: Pos2) {
    h.event(Event::PointerMoved(from));
    h.step();
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    for k in 1..=4 {
        h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 4.0)));
        h.step();
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(h);
}

#[test]
fn at_800_by_500_nothing_is_cut_and_the_panel_resizes_within_bounds() {
    let mut h = small_harness();
    let window = Rect::from_min_size(Pos2::ZERO, vec2(800.0, 500.0));
    let inside = |h: &Harness<'_, PlayaApp>, label: &str, right: f32| {
        let r = h
            .get_all_by_label(label)
            .map(|n| n.rect())
            .reduce(|a, b| a.union(b))
            .unwrap();
        assert!(
            window.contains_rect(r) && r.right() <= right,
            "{label}: {r:?}, right edge {right}"
        );
    };
    for label in ["▶ Play", "⏵", "Generation", "of 1000"] {
        inside(&h, label, 800.0);
    }

    // The panel's edge dragged far right stops where the preview keeps
    // 400 points; far left, at 300.
    let fit = h.get_by_label("Fit").rect().left();
    let edge = find_edge(&mut h, fit);
    // (372 points at first: the largest seed and a scroll bar fit.)
    assert!((367.0..=377.0).contains(&edge), "the panel ends at {edge}");
    drag(&mut h, pos2(edge, 300.0), pos2(780.0, 300.0));
    let fit = h.get_by_label("Fit").rect().left();
    let wide = find_edge(&mut h, fit);
    assert!((395.0..=405.0).contains(&wide), "the panel ends at {wide}");
    drag(&mut h, pos2(wide, 300.0), pos2(20.0, 300.0));
    let fit = h.get_by_label("Fit").rect().left();
    let narrow = find_edge(&mut h, fit);
    assert!(
        (295.0..=305.0).contains(&narrow),
        "the panel ends at {narrow}"
    );
    // At its narrowest, the panel's rows fit it.
    let right = narrow - 4.0;
    for label in [
        "Night",
        "Redo",
        "Open…",
        "⊞ Variations",
        "Lock seed",
        "Lock light",
    ] {
        inside(&h, label, right);
    }
    for label in ["of 1000", "Generation"] {
        inside(&h, label, 800.0);
    }
}

/// The side panel's edge: the middle of the band where the pointer shows
/// a resize cursor, scanning left from `x`.
fn find_edge(h: &mut Harness<'_, PlayaApp>, x: f32) -> f32 {
    use egui::CursorIcon::{ResizeEast, ResizeHorizontal, ResizeWest};
    let mut band: Option<(f32, f32)> = None;
    let mut x = x;
    while x > 200.0 {
        h.event(Event::PointerMoved(pos2(x, 300.0)));
        h.step();
        let cursor = h.output().platform_output.cursor_icon;
        if matches!(cursor, ResizeHorizontal | ResizeEast | ResizeWest) {
            band = Some((x, band.map_or(x, |b| b.1)));
        } else if let Some((left, right)) = band {
            return (left + right) / 2.0;
        }
        x -= 1.0;
    }
    panic!("no panel edge found");
}

/// Presses on `at`, holds it past egui's click time, moves `by` and
/// releases: a slow click with a twitch, or (far enough) a drag.
fn press_move_release(h: &mut Harness<'_, PlayaApp>, at: Pos2, by: egui::Vec2) {
    h.event(Event::PointerMoved(at));
    h.step();
    h.event(Event::PointerButton {
        pos: at,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    // Each frame of the harness is 1/4 s: past the 0.8 s of a click.
    for _ in 0..5 {
        h.step();
    }
    for k in 1..=4 {
        h.event(Event::PointerMoved(at + by * (k as f32 / 4.0)));
        h.step();
    }
    h.event(Event::PointerButton {
        pos: at + by,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.step();
    settle(h);
}

#[test]
fn a_click_never_changes_a_number_box_and_a_drag_does() {
    let mut state = AppState::default();
    state.scene.automaton.density = 0.45;
    state.scene.automaton.generations = 8;
    let mut h = harness_with(state);
    let scene = h.state().scene().clone();
    let values = |s: &Scene| (s.automaton.density, s.aspect, s.automaton.generations);

    let boxes = [
        h.get_by_role_and_label(Role::SpinButton, "Density").rect(),
        h.get_by_role_and_label(Role::SpinButton, "Aspect ratio")
            .rect(),
        h.get_by_role_and_label(Role::SpinButton, "Generation")
            .rect(),
    ];
    for rect in boxes {
        // A slow click with a twitch of 3 points: no change.
        press_move_release(&mut h, rect.center(), vec2(3.0, -2.0));
        assert_eq!(values(h.state().scene()), values(&scene), "{rect:?}");
        h.key_press(Key::Escape);
        settle(&mut h);
    }
    assert_eq!(h.state().scene(), &scene);

    // A deliberate drag still changes each.
    for rect in boxes {
        let before = values(h.state().scene());
        press_move_release(&mut h, rect.center(), vec2(40.0, 0.0));
        assert_ne!(values(h.state().scene()), before, "{rect:?}");
    }
}

/// At the default 1280×800 window the Seed field shows the largest seed's
/// 20 digits whole (issue 60, item 2).
#[test]
fn the_seed_field_holds_the_largest_seed_at_the_default_size() {
    let mut h = harness();
    type_into(&mut h, "Seed", "18446744073709551615");
    h.key_press(Key::Enter);
    settle(&mut h);
    let font = h.ctx.global_style().text_styles[&egui::TextStyle::Monospace].clone();
    let digits = h.ctx.fonts_mut(|f| {
        f.layout_no_wrap(u64::MAX.to_string(), font, egui::Color32::WHITE)
            .size()
            .x
    });
    let field = h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Seed");
    // The text sits inside the field's margins (4 points each side).
    assert!(
        field.rect().width() >= digits + 8.0,
        "the field is {} wide for digits {} wide",
        field.rect().width(),
        digits
    );
}

/// The side panel keeps the width it had once the window is wide again:
/// made narrow by a narrow window, it comes back (issue 60, item 11).
#[test]
fn the_side_panel_comes_back_after_the_window_was_narrow() {
    let mut h = harness();
    let panel = |h: &Harness<'_, PlayaApp>| {
        h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Seed")
            .rect()
            .right()
    };
    let wide = panel(&h);
    for width in [590.0, 800.0] {
        h.set_size(egui::vec2(width, 800.0));
        settle(&mut h);
        h.set_size(egui::vec2(1280.0, 800.0));
        settle(&mut h);
        assert!(
            (panel(&h) - wide).abs() < 1.0,
            "after {width} wide the Seed field ends at {}, not {wide}",
            panel(&h)
        );
    }
}

/// The named hour ("golden hour", "moonlight") never lies over the Sun
/// position slider, whatever time is picked (issue 60, item 5).
#[test]
fn the_named_hour_keeps_off_the_sun_slider() {
    let mut h = harness();
    for time in ["Golden", "Night", "Noon"] {
        h.get_by_label(time).click();
        settle(&mut h);
        let hours: Vec<Rect> = h
            .query_all_by_label("Hour")
            .filter_map(|n| n.accesskit_node().bounding_box())
            .map(|b| {
                Rect::from_min_max(
                    pos2(b.x0 as f32, b.y0 as f32),
                    pos2(b.x1 as f32, b.y1 as f32),
                )
            })
            .collect();
        assert!(!hours.is_empty());
        for (hour, slider) in hours.iter().flat_map(|&hr| {
            h.query_all_by_role(Role::Slider)
                .map(move |s| (hr, s.rect()))
        }) {
            assert!(
                !hour.intersects(slider),
                "{time}: the hour {hour:?} lies over a slider at {slider:?}"
            );
        }
    }
}
