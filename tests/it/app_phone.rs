#![cfg(feature = "app")]
//! The app in a phone's window (390×844 points), driven with egui_kittest:
//! the picture fills the width, Share and Export stay in the top bar, the
//! controls open in a drawer over the picture, and two fingers zoom about
//! the point between them. At 1280×800 the layout is the wide one.

use crate::common::app::{
    Picture, copied, field, harness_sized, message, pictures, settle, zoom_label,
};
use egui::accesskit::Role;
use egui::{Pos2, Rect, pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use playa::app::{AppState, PlayaApp};

/// A phone's window, in points.
const PHONE: [f32; 2] = [390.0, 844.0];

/// The app on its default state in a phone's window.
fn phone() -> Harness<'static, PlayaApp> {
    harness_sized(
        PlayaApp::new(AppState::default()).with_narrow_layout(),
        PHONE,
    )
}

/// Whether the Preset box (the first of the controls) is in the UI.
fn controls_shown(h: &Harness<'_, PlayaApp>) -> bool {
    h.query_by_role_and_label(Role::ComboBox, "Preset")
        .is_some()
}

/// Asserts that `rect` lies inside the phone's screen.
fn assert_on_screen(rect: Rect, what: &str) {
    let screen = Rect::from_min_size(Pos2::ZERO, PHONE.into());
    assert!(
        screen.contains_rect(rect),
        "{what} at {rect:?} is off screen"
    );
}

/// Asserts that the export dialog titled `title` is open and inside the
/// phone's screen: its title, its file field and its Close button.
fn assert_dialog_on_screen(h: &Harness<'_, PlayaApp>, title: &str) {
    assert_on_screen(h.get_by_label(title).rect(), title);
    let file = h.get_by_role_and_label(Role::TextInput, "File");
    assert_on_screen(file.rect(), "the File field");
    assert_on_screen(h.get_by_label("Close").rect(), "Close");
}

/// The whole picture's rectangle on screen, from the last frame's
/// pictures: the picture as a whole (its texture drawn entire), or the
/// whole picture's backdrop drawn around a zoomed view (part of its
/// texture, the part on screen).
fn picture_rect(h: &Harness<'_, PlayaApp>) -> Rect {
    let whole = |p: &Picture| p.uv.min == Pos2::ZERO && p.uv.max == pos2(1.0, 1.0);
    let shown = pictures(h);
    match shown.as_slice() {
        [only] if whole(only) => only.rect,
        [backdrop, _] => {
            let size = backdrop.rect.size() / backdrop.uv.size();
            Rect::from_min_size(backdrop.rect.min - backdrop.uv.min.to_vec2() * size, size)
        }
        other => panic!("no picture to measure among {other:?}"),
    }
}

#[test]
fn the_picture_fills_a_phone_s_width_with_share_and_export_above_it() {
    let mut h = phone();
    let picture = picture_rect(&h);
    assert!(
        picture.width() >= 0.95 * PHONE[0],
        "the picture is {} points wide of {}",
        picture.width(),
        PHONE[0]
    );
    assert!(!controls_shown(&h), "the controls wait in the drawer");

    // Share copies the scene's code, in the frame of the click.
    let code = playa::share::encode(h.state().scene());
    let share = h.get_by_role_and_label(Role::Button, "Share");
    assert_on_screen(share.rect(), "Share");
    share.click();
    h.step();
    assert_eq!(copied(&h), Some(code));
    assert_eq!(
        message(&h).as_deref(),
        Some("Copied the scene to the clipboard")
    );
    h.step();
    assert_eq!(copied(&h), None, "copied once");

    // Export opens the export dialog, which fits the screen.
    let export = h.get_by_role_and_label(Role::Button, "Export");
    assert_on_screen(export.rect(), "Export");
    export.click();
    h.run();
    assert_dialog_on_screen(&h, "Export PNG");
    h.get_by_label("Close").click();
    h.run();
    assert!(h.query_by_label("Export PNG").is_none());
}

#[test]
fn the_drawer_holds_the_controls_and_closes_three_ways() {
    let mut h = phone();
    let open = |h: &mut Harness<'_, PlayaApp>| {
        h.get_by_label("☰").click();
        h.run();
        assert!(controls_shown(h), "☰ opens the drawer");
        let preset = h.get_by_role_and_label(Role::ComboBox, "Preset").rect();
        assert_on_screen(preset, "the Preset box");
    };

    open(&mut h);
    h.get_by_label("☰").click();
    h.run();
    assert!(!controls_shown(&h), "☰ again closes it");

    open(&mut h);
    // The controls work as in the side panel.
    let seed = h.state().scene().seed;
    h.get_by_label("Next seed").click();
    settle(&mut h);
    assert_eq!(h.state().scene().seed, seed + 1);
    h.get_by_label("✖").click();
    h.run();
    assert!(!controls_shown(&h), "✖ closes it");

    open(&mut h);
    // A tap on the picture beside the drawer.
    let beside = pos2(PHONE[0] - 10.0, PHONE[1] / 2.0);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: beside,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    h.run();
    assert!(!controls_shown(&h), "a tap beside it closes it");

    // The animation export, from the drawer, fits the screen too.
    open(&mut h);
    h.get_by_label("Export animation…").click();
    h.run();
    assert_dialog_on_screen(&h, "Export animation");
}

/// Two fingers as the browser reports them: the first also as the mouse.
fn touch(h: &Harness<'_, PlayaApp>, phase: egui::TouchPhase, fingers: [Pos2; 2]) {
    let first = fingers[0];
    match phase {
        egui::TouchPhase::Start => h.event(egui::Event::PointerButton {
            pos: first,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: egui::Modifiers::NONE,
        }),
        egui::TouchPhase::Move => h.event(egui::Event::PointerMoved(first)),
        _ => h.event(egui::Event::PointerButton {
            pos: first,
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: egui::Modifiers::NONE,
        }),
    }
    for (id, pos) in fingers.into_iter().enumerate() {
        h.event(egui::Event::Touch {
            device_id: egui::TouchDeviceId(1),
            id: egui::TouchId(id as u64),
            phase,
            pos,
            force: None,
        });
    }
}

#[test]
fn two_fingers_zoom_about_the_point_between_them() {
    let mut h = phone();
    let tents = h.state().scene().layers.clone();
    let before = picture_rect(&h);
    assert_eq!(zoom_label(&h), "100%");
    // Off the picture's centre, so a zoom about another point shows.
    let centre = before.center() + vec2(-80.0, 30.0);
    let at = |spread: f32| [centre - vec2(spread, 0.0), centre + vec2(spread, 0.0)];
    touch(&h, egui::TouchPhase::Start, at(40.0));
    h.step();
    for spread in [50.0, 60.0, 70.0, 80.0] {
        touch(&h, egui::TouchPhase::Move, at(spread));
        h.step();
    }
    let after = picture_rect(&h);
    touch(&h, egui::TouchPhase::End, at(80.0));
    h.step();

    let ratio = after.width() / before.width();
    assert!(
        (ratio - 2.0).abs() < 0.02,
        "fingers twice as far apart zoom ×{ratio}"
    );
    let fraction = |r: Rect| (centre - r.min) / r.size();
    let (was, is) = (fraction(before), fraction(after));
    assert!(
        (was - is).length() < 0.005,
        "the point between the fingers moved on the picture, from {was:?} to {is:?}"
    );
    assert_eq!(h.state().scene().layers, tents, "no tent was dragged");
    settle(&mut h);
    assert_eq!(zoom_label(&h), "200%");
}

#[test]
fn a_wide_window_keeps_the_side_panel() {
    let h = harness_sized(PlayaApp::new(AppState::default()), [1280.0, 800.0]);
    assert!(controls_shown(&h), "the side panel shows the controls");
    let preset = h.get_by_role_and_label(Role::ComboBox, "Preset").rect();
    assert!(preset.left() < 300.0, "the controls are on the left");
    assert!(h.query_by_label("☰").is_none(), "no drawer");
}

#[test]
fn a_narrow_desktop_window_keeps_the_side_panel() {
    // A desktop window made narrow (or zoomed in: fewer points across)
    // keeps the desktop layout; the phone's is the browser's.
    for size in [[560.0, 500.0], [390.0, 844.0]] {
        let h = harness_sized(PlayaApp::new(AppState::default()), size);
        assert!(
            controls_shown(&h),
            "{size:?}: the side panel shows the controls"
        );
        assert!(h.query_by_label("☰").is_none(), "{size:?}: no drawer");
    }
}

#[test]
fn a_link_to_a_preset_s_exact_code_is_named_after_the_preset() {
    let mut h = phone();
    let valley = playa::scene::presets::load("death-valley").unwrap();
    let edited = playa::scene::Scene {
        seed: valley.seed + 1,
        ..valley.clone()
    };
    h.event(egui::Event::Paste(playa::share::encode(&edited)));
    settle(&mut h);
    assert!(
        h.query_by_label("pasted scene").is_some(),
        "one setting off"
    );

    h.state_mut()
        .sync_link(&format!("#{}", playa::share::encode(&valley)));
    settle(&mut h);
    assert_eq!(h.state().scene(), &valley);
    assert!(h.query_by_label("pasted scene").is_none());
    h.get_by_label("death-valley");
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run();
    let file = field(&h, "File");
    let name = format!("death-valley-{}.png", valley.seed);
    assert!(file.ends_with(&name), "the export is {file}, not {name}");
}

#[test]
fn the_variations_grid_fits_a_phone() {
    let mut h = phone();
    h.key_press(egui::Key::V);
    settle(&mut h);
    assert_on_screen(h.get_by_label("Variations").rect(), "the grid");
    let strength = h.get_by_role_and_label(Role::SpinButton, "Strength");
    assert_on_screen(strength.rect(), "Strength");
    for n in [4, 16] {
        let copy = format!("Copy the code of variation {n}");
        assert_on_screen(h.get_by_label(&copy).rect(), &copy);
    }
}
