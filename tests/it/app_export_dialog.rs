//! The export dialogs as a user meets them: beside the frame they ask
//! about, movable, their buttons still under the cursor whatever line
//! comes and goes, Enter in the File field exports, a result about other
//! settings is cleared, and the preview shows the open dialog's frame.

#![cfg(feature = "app")]

use crate::common::app::{harness_with, labels, pictures, settle, type_path, wait_idle};
use egui::accesskit::Role;
use egui::{Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use playa::app::export::png::SizePreset;
use playa::app::{AppState, PlayaApp};

/// The app, its Export PNG… set to a small custom size (quick exports).
fn small() -> Harness<'static, PlayaApp> {
    let mut state = AppState::default();
    state.export.size = SizePreset::Custom;
    state.export.custom = [64, 36];
    harness_with(state)
}

/// Where the node labelled `label` (a button's role when `button`) is.
fn rect_of(h: &Harness<'_, PlayaApp>, label: &str, button: bool) -> Rect {
    let node = if button {
        h.get_by_role_and_label(Role::Button, label)
    } else {
        h.get_by_label(label)
    };
    node.rect()
}

/// The preview's picture on screen: the largest picture painted.
fn preview(h: &Harness<'_, PlayaApp>) -> Rect {
    pictures(h)
        .into_iter()
        .map(|p| p.rect.intersect(p.clip))
        .max_by(|a, b| a.area().total_cmp(&b.area()))
        .expect("the preview on screen")
}

/// Whether the open dialog (not the status bar at the window's foot)
/// says `text`.
fn dialog_says(h: &Harness<'_, PlayaApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text)
        .any(|n| n.rect().max.y < 700.0)
}

/// Drags with the primary button from `from` to `to`.
fn drag(h: &mut Harness<'_, PlayaApp>, from: Pos2, to: Pos2) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(from));
    h.step();
    h.event(button(from, true));
    h.step();
    for i in 1..=5 {
        h.event(egui::Event::PointerMoved(
            from + (to - from) * (i as f32 / 5.0),
        ));
        h.step();
    }
    h.event(button(to, false));
    h.step();
    h.run();
}

#[test]
fn the_export_dialog_leaves_the_frame_in_sight_and_moves_by_its_title() {
    let mut h = small();
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    let centre = preview(&h).center();
    let dialog = ["File", "Export", "Close", "Browse…"]
        .into_iter()
        .map(|l| rect_of(&h, l, l != "File"))
        .fold(rect_of(&h, "Export PNG", false), Rect::union);
    // (The window's node is the whole window.)
    assert!(
        !dialog.contains(centre),
        "the dialog {dialog:?} covers the frame's centre {centre:?}"
    );
    // Dragged by its title bar, it goes where it is put, buttons and all.
    let window = rect_of(&h, "Export PNG", false);
    let title = egui::pos2(window.center().x, window.top() + 10.0);
    let export = rect_of(&h, "Export", true);
    drag(&mut h, title, title + egui::vec2(300.0, 120.0));
    let moved = rect_of(&h, "Export", true);
    assert!(
        (moved.min - export.min - egui::vec2(300.0, 120.0)).length() < 2.0,
        "Export went from {export:?} to {moved:?}"
    );
}

#[test]
fn the_dialogs_keep_no_more_room_than_their_report_line_needs() {
    for dialog in ["Export PNG…", "Export animation…", "Save scene…"] {
        let mut h = small();
        h.get_by_label(dialog).click();
        settle(&mut h);
        let file = h.get_by_role_and_label(Role::TextInput, "File").rect();
        let action = h
            .query_all_by_role(Role::Button)
            .filter(|n| n.rect().top() > file.bottom())
            .map(|n| n.rect())
            .min_by(|a, b| a.top().total_cmp(&b.top()))
            .expect("buttons under the File field");
        // Two lines kept for the report, and the spacing around them.
        let gap = action.top() - file.bottom();
        assert!(
            gap < 64.0,
            "{dialog}: {gap} points between File and the buttons"
        );
    }
}

#[test]
fn the_buttons_keep_their_places_as_the_dialog_s_lines_change() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.png");
    let mut h = small();
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    type_path(&mut h, &path);
    let export = rect_of(&h, "Export", true);
    let close = rect_of(&h, "Close", true);

    // A result line appears.
    h.get_by_label("Export").click();
    wait_idle(&mut h);
    assert!(dialog_says(&h, "Saved"), "{:?}", labels(&h));
    assert_eq!(
        rect_of(&h, "Export", true),
        export,
        "Export moved as Saved appeared"
    );
    // The question before replacing (issue 60, item 9): Replace stands
    // with the question, away from Export, which waits greyed out in its
    // place; so the second click of a double-click on Export replaces
    // nothing.
    let before = std::fs::metadata(&path).unwrap().modified().unwrap();
    h.get_by_label("Export").click();
    h.run();
    h.get_by_label_contains("kept.png already exists");
    let replace = rect_of(&h, "Replace", true);
    assert!(
        !replace.expand(24.0).intersects(export),
        "Replace {replace:?} is where Export {export:?} was"
    );
    assert_eq!(rect_of(&h, "Export", true), export);
    assert_eq!(rect_of(&h, "Close", true), close);
    h.get_by_label("Export").click();
    wait_idle(&mut h);
    h.get_by_label_contains("kept.png already exists");
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        before,
        "a second click on Export replaced the file"
    );
    h.get_by_role_and_label(Role::Button, "Keep").click();
    h.run();
    assert!(h.query_by_label_contains("already exists").is_none());
    assert_eq!(rect_of(&h, "Export", true), export);
    // Replace, asked again, replaces.
    h.get_by_label("Export").click();
    h.run();
    h.get_by_label("Replace").click();
    wait_idle(&mut h);
    assert!(dialog_says(&h, "Saved"), "{:?}", labels(&h));
    assert_eq!(rect_of(&h, "Export", true), export);
}

/// Sets the Export PNG dialog's custom size to `w × h`.
fn set_custom_size(h: &mut Harness<'_, PlayaApp>, w: u32, hgt: u32) {
    for (field, value) in [("Width", w), ("Height", hgt)] {
        h.get_by_role_and_label(Role::SpinButton, field).click();
        h.run();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.event(egui::Event::Text(value.to_string()));
        h.key_press(egui::Key::Enter);
        settle(h);
    }
}

/// Issue 60, items 4 and 8: the PNG dialog keeps one height whatever its
/// lines say, so its buttons never move (not down as a custom size's
/// lines first appear, nor stay low after they go) and it keeps no room
/// it does not use.
#[test]
fn the_png_dialog_keeps_one_height_whatever_its_lines_say() {
    let mut h = harness_with(AppState::default());
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    let export = rect_of(&h, "Export", true);
    h.get_by_label("Custom").click();
    settle(&mut h);
    assert_eq!(rect_of(&h, "Export", true), export, "Custom moved Export");
    set_custom_size(&mut h, 1920, 720);
    assert!(dialog_says(&h, "the scene is 16:9"), "{:?}", labels(&h));
    assert_eq!(
        rect_of(&h, "Export", true),
        export,
        "the aspect's lines moved Export"
    );
    h.get_by_label("Crop to the frame").click();
    settle(&mut h);
    assert_eq!(rect_of(&h, "Export", true), export);
    h.get_by_label("1080p").click();
    settle(&mut h);
    assert_eq!(rect_of(&h, "Export", true), export, "1080p moved Export");
    // Closed and opened again, it is as high as at first.
    h.get_by_label("Close").click();
    settle(&mut h);
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    assert_eq!(rect_of(&h, "Export", true), export);
}

/// Issue 60, item 3, and item 8's hidden zoom buttons: where the window
/// leaves room beside the preview, each dialog stands over the controls,
/// off the preview, its frame and its zoom buttons.
#[test]
fn the_dialogs_stand_beside_the_preview() {
    for size in [[800.0, 500.0], [1280.0, 800.0], [1920.0, 1080.0]] {
        for dialog in ["Export PNG…", "Export animation…", "Save scene…"] {
            let mut h = crate::common::app::harness_sized(PlayaApp::new(AppState::default()), size);
            h.get_by_label(dialog).click();
            settle(&mut h);
            let fit = rect_of(&h, "Fit", true);
            // The dialog's own widgets: between its title and its buttons.
            let title = dialog.trim_end_matches('…');
            let window = rect_of(&h, title, false);
            let close = rect_of(&h, "Close", true);
            let file = h.get_by_role_and_label(Role::TextInput, "File").rect();
            let right = h
                .query_all_by_role(Role::Button)
                .map(|n| n.rect())
                .filter(|r| r.top() >= window.top() && r.bottom() <= close.bottom() + 1.0)
                .chain([file, window])
                .map(|r| r.right())
                .fold(0.0_f32, f32::max);
            let picture = preview(&h);
            assert!(
                right < picture.left() && right < fit.left(),
                "{size:?} {dialog}: the dialog reaches {right}, the preview starts at {} \
                 and Fit at {}",
                picture.left(),
                fit.left()
            );
        }
    }
}

#[test]
fn enter_in_the_file_field_exports() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("entered.png");
    let mut h = small();
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    type_path(&mut h, &path);
    h.get_by_role_and_label(Role::TextInput, "File").focus();
    h.step();
    h.key_press(egui::Key::Enter);
    wait_idle(&mut h);
    assert!(
        std::fs::read(&path).is_ok_and(|b| b.starts_with(b"\x89PNG")),
        "Enter did not export: {:?}",
        labels(&h)
    );
    assert!(dialog_says(&h, "Saved"));
}

#[test]
fn a_result_about_other_settings_is_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small();
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    type_path(&mut h, &dir.path().join("first.png"));
    h.get_by_label("Export").click();
    wait_idle(&mut h);
    assert!(dialog_says(&h, "Saved"));
    // Another size: the line about the last export no longer holds.
    h.get_by_label("4K").click();
    h.run();
    assert!(!dialog_says(&h, "Saved"), "a stale line: {:?}", labels(&h));
    // Nor after the file is changed.
    h.get_by_label("Custom").click();
    h.run();
    type_path(&mut h, &dir.path().join("second.png"));
    h.get_by_label("Export").click();
    wait_idle(&mut h);
    assert!(dialog_says(&h, "Saved"), "{:?}", labels(&h));
    type_path(&mut h, &dir.path().join("third.png"));
    assert!(!dialog_says(&h, "Saved"), "a stale line: {:?}", labels(&h));
}

/// The frame over the preview is the open dialog's, the one in front when
/// both are open (Ctrl+E brings Export PNG… to the front); with no dialog
/// open the preview is whole and undimmed (issue 60, items 6 and 7).
#[test]
fn the_preview_shows_the_frame_of_the_dialog_in_front_and_none_when_closed() {
    let mut state = AppState::default();
    state.export.size = SizePreset::Custom;
    state.export.custom = [1920, 720];
    let mut h = harness_with(state);
    assert!(
        h.query_by_label_contains("frame:").is_none(),
        "a frame with no dialog open: {:?}",
        labels(&h)
    );
    h.get_by_label("Export animation…").click();
    settle(&mut h);
    let animation = "Animation frame: 1280 × 720";
    assert!(h.query_by_label(animation).is_some(), "{:?}", labels(&h));
    // Ctrl+E opens Export PNG… over it, in front: its frame shows.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    settle(&mut h);
    assert!(
        h.query_by_label("Export frame: 1920 × 720").is_some(),
        "{:?}",
        labels(&h)
    );
    assert!(h.query_by_label(animation).is_none());
    // Close, where both dialogs' buttons lie, closes the one in front:
    // the one left is Export animation….
    h.get_all_by_label("Close").next().unwrap().click();
    settle(&mut h);
    assert!(h.query_by_label(animation).is_some(), "{:?}", labels(&h));
    h.get_by_label("Close").click();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("frame:").is_none(),
        "a frame after Close: {:?}",
        labels(&h)
    );
}

/// While a dialog is open, single keys are its own: typing after a click
/// that missed the File field does not roll a new scene or play (issue
/// 60, item 10). Its Ctrl shortcuts still work, and the keys work again
/// once it is closed.
#[test]
fn single_key_shortcuts_wait_while_a_dialog_is_open() {
    let mut h = small();
    let before = crate::common::app::preset_box(&h);
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    for key in [egui::Key::R, egui::Key::D, egui::Key::V] {
        h.key_press(key);
        settle(&mut h);
    }
    assert_eq!(
        crate::common::app::preset_box(&h),
        before,
        "a key reached the app"
    );
    h.get_by_label("Close").click();
    settle(&mut h);
    h.key_press(egui::Key::R);
    settle(&mut h);
    assert_ne!(
        crate::common::app::preset_box(&h),
        before,
        "R rolls a new scene once the dialog is closed"
    );
}
