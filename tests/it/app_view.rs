#![cfg(feature = "app")]
//! The app's layout, view and export never show a stale or misleading
//! state: the side panel keeps its width, zoom is the preview's (100% fitted), a new tent
//! shows, export asks before overwriting, and errors stay short. Driven by
//! role and label with egui_kittest (no GPU, no window).

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::app::{
    drop_file, harness, harness_with, labels, pictures, settle, type_path, wait_idle, zoom_label,
};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use playa::app::{AppState, PlayaApp};

#[test]
fn a_huge_bad_scene_file_gives_a_short_one_line_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rule.ron");
    let rule = format!("B3/S{}", "9".repeat(600_000));
    std::fs::write(&path, format!("(automaton: (rule: \"{rule}\"))")).unwrap();
    let mut h = harness();
    let before = h.state().scene().clone();

    drop_file(&mut h, &path);
    assert_eq!(h.state().scene(), &before);
    let message = h.state().message().expect("a message").text.clone();
    assert!(message.contains("invalid rule"), "{message:.200}");
    assert!(
        message.len() < 300 && message.lines().count() == 1,
        "{} bytes: {message:.300}",
        message.len()
    );
    assert!(message.contains("(600004 characters)"), "{message}");
    h.get_by_label_contains("invalid rule");
}

/// The tents of the scene, bottom to top.
fn tents(h: &Harness<'_, PlayaApp>) -> Vec<playa::layers::Tent> {
    h.state()
        .scene()
        .layers
        .iter()
        .filter_map(|l| match l {
            playa::Layer::Tent(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn an_added_tent_stands_clear_of_the_first() {
    let mut h = harness();
    let picture = h.state().preview_fingerprint().expect("a preview");
    h.get_by_label("+ Add layer").click();
    h.run();
    // The menu's Tent button, not the layer list's Tent header.
    h.get_all_by_label("Tent")
        .last()
        .expect("the menu lists Tent")
        .click();
    settle(&mut h);

    let tents = tents(&h);
    assert_eq!(tents.len(), 2, "a second tent is added");
    let aspect = h.state().scene().aspect;
    let (a, b) = (&tents[0], &tents[1]);
    // Their boxes (as the preview's hit test sees them) do not overlap.
    let half_widths = (a.size + b.size) * 0.55 / aspect;
    assert!(
        (a.x - b.x).abs() > half_widths,
        "the new tent at x {} overlaps the first at x {}",
        b.x,
        a.x
    );
    assert!((0.0..=1.0).contains(&b.x), "the new tent is in the picture");
    assert_ne!(
        h.state().preview_fingerprint(),
        Some(picture),
        "the new tent shows"
    );
}

/// Opens Export PNG… and types `path` into its File field.
fn export_to(h: &mut Harness<'_, PlayaApp>, path: &Path) {
    if h.query_by_label("File").is_none() {
        h.get_by_label("Export PNG…").click();
        settle(h);
    }
    type_path(h, path);
}

/// A small export, so the tests stay quick.
fn small_export_state() -> AppState {
    let mut state = AppState::default();
    state.export.size = playa::app::export::png::SizePreset::Custom;
    state.export.custom = [64, 36];
    state
}

/// Clicks Export in the open dialog (`dialog`, for the failure message),
/// whose File field names `path`, a file holding `earlier`: the dialog
/// asks before replacing it, and Keep keeps it.
fn export_asks_and_cancel_keeps(
    h: &mut Harness<'_, PlayaApp>,
    dialog: &str,
    path: &Path,
    earlier: &[u8],
) {
    h.get_by_label("Export").click();
    wait_idle(h);
    assert!(
        std::fs::read(path).unwrap() == earlier,
        "{dialog} replaced the file without asking"
    );
    let name = path.file_name().unwrap().to_str().unwrap();
    h.get_by_label_contains(&format!("{name} already exists"));
    h.get_by_label("Keep").click();
    h.run();
    assert!(h.query_by_label_contains("already exists").is_none());
    assert!(std::fs::read(path).unwrap() == earlier);
}

#[test]
fn export_asks_before_replacing_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.png");
    std::fs::write(&path, b"my earlier picture").unwrap();
    let mut h = harness_with(small_export_state());
    export_to(&mut h, &path);
    export_asks_and_cancel_keeps(&mut h, "Export", &path, b"my earlier picture");

    // Replace overwrites it.
    h.get_by_label("Export").click();
    h.run();
    h.get_by_label("Replace").click();
    wait_idle(&mut h);
    assert!(std::fs::read(&path).unwrap().starts_with(b"\x89PNG"));
    assert!(h.get_all_by_label_contains("Saved").count() > 0);
}

#[test]
fn export_adds_png_to_a_path_without_an_extension() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_with(small_export_state());
    export_to(&mut h, &dir.path().join("noext"));
    h.get_by_label("Export").click();
    wait_idle(&mut h);
    assert!(!dir.path().join("noext").exists(), "saved as noext");
    let png = std::fs::read(dir.path().join("noext.png")).expect("noext.png");
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn the_no_file_chosen_note_goes_once_a_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_with(small_export_state());
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    // With no desktop portal (as here) the dialog answers "nothing chosen".
    h.get_by_label("Browse…").click();
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.query_by_label_contains("No file chosen").is_none() {
        assert!(Instant::now() < deadline, "the file dialog never answered");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }

    export_to(&mut h, &dir.path().join("typed.png"));
    h.get_by_label("Export").click();
    wait_idle(&mut h);
    assert!(dir.path().join("typed.png").exists());
    assert!(
        h.query_by_label_contains("No file chosen").is_none(),
        "the note stays after a successful export"
    );
    h.get_by_label("Close").click();
    h.run();
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("No file chosen").is_none(),
        "the note comes back on reopening"
    );
}

#[test]
fn the_8k_option_states_the_memory_the_streamed_export_takes() {
    let mut h = harness();
    h.get_by_label("Export PNG…").click();
    settle(&mut h);
    h.get_by_label("8K").click();
    h.run();
    let mib = playa::output::picture::streamed_bytes(7680) as f64 / f64::from(1 << 20);
    h.get_by_label_contains(&format!(
        "Written strip by strip: at most {mib:.0} MiB while rendering"
    ));
    // The size shows in the greyed-out fields.
    let width = h.get_by_role_and_label(Role::SpinButton, "Width");
    assert_eq!(width.value().as_deref(), Some("7680"));
    assert!(h.query_by_label_contains("127 MiB").is_none());
}

#[test]
fn a_tent_behind_the_floor_clears_no_stones() {
    let mut h = harness();
    // Sky, Ranges, Floor, Rocks, Tent: twice back puts the tent under the
    // floor, which hides it whole.
    for _ in 0..2 {
        h.get_by_label("Move Tent back").click();
        settle(&mut h);
    }
    let names: Vec<&str> = h.state().scene().layers.iter().map(|l| l.title()).collect();
    assert_eq!(&names[..4], ["Sky", "Ranges", "Tent", "Floor"]);
    let hidden = h.state().preview_fingerprint().expect("a preview");

    h.get_by_label("Remove Tent").click();
    settle(&mut h);
    assert_eq!(tents(&h).len(), 0);
    assert_eq!(
        h.state().preview_fingerprint(),
        Some(hidden),
        "removing a tent no one can see changed the picture: it had cleared stones"
    );
}

/// The side panel's width, as its right-aligned buttons show it (with no
/// scroll bar).
fn panel_width(h: &Harness<'_, PlayaApp>) -> f32 {
    h.get_by_label("Remove Sky").rect().right()
}

/// Opens or closes a layer's settings with the triangle left of its name.
fn toggle_layer(h: &mut Harness<'_, PlayaApp>, title: &str) {
    let pos = h.get_by_label(title).rect().left_center() - egui::vec2(10.0, 0.0);
    h.hover_at(pos);
    h.drag_at(pos);
    h.drop_at(pos);
    // Frame by frame, as a window draws the opening and the scroll bar
    // fading in.
    for _ in 0..30 {
        h.step();
    }
    h.run();
}

#[test]
fn the_side_panel_keeps_its_width_as_layers_open_and_close() {
    let mut h = harness();
    let width = panel_width(&h);
    let rows = h.query_all_by_label("Opacity").count();
    for cycle in 0..14 {
        toggle_layer(&mut h, "Floor");
        assert!(
            h.query_all_by_label("Opacity").count() > rows,
            "cycle {cycle}: the Floor layer opens"
        );
        toggle_layer(&mut h, "Floor");
        assert_eq!(
            h.query_all_by_label("Opacity").count(),
            rows,
            "cycle {cycle}"
        );
    }
    assert_eq!(panel_width(&h), width, "the side panel crept");
}

#[test]
fn content_wider_than_the_side_panel_does_not_widen_it() {
    let narrow = harness();
    let fit = narrow.get_by_label("Fit").rect().left();
    // A preset name wider than the panel, as a long file name gives.
    let state = AppState {
        preset: "a-preset-with-a-very-long-name-that-is-wider-than-the-side-panel".into(),
        ..AppState::default()
    };
    let mut h = harness_with(state);
    for _ in 0..5 {
        h.step();
    }
    h.run();
    assert_eq!(
        h.get_by_label("Fit").rect().left(),
        fit,
        "the preview moved right: the side panel grew to fit its content"
    );
}

/// The width and height of the last full preview render, from the status
/// bar ("Rendered 896×504 in 57.8 ms").
fn rendered(h: &Harness<'_, PlayaApp>) -> (u32, u32) {
    let text = labels(h)
        .into_iter()
        .find(|l| l.starts_with("Rendered "))
        .expect("the status bar says what was rendered");
    let size = text["Rendered ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    let (w, hh) = size.split_once('×').unwrap();
    (w.parse().unwrap(), hh.parse().unwrap())
}

/// Steps frames until the preview of the current view has been on screen
/// for a few frames in a row (the wheel scrolls smoothly, over frames, and
/// each step of a zoom asks for its own render); bounded.
fn settle_view(h: &mut Harness<'_, PlayaApp>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut current = 0;
    while current < 5 {
        assert!(Instant::now() < deadline, "the view did not settle");
        h.step();
        current = if h.state().preview_is_current() {
            current + 1
        } else {
            0
        };
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Lets the view settle, then asserts that the read-out says `zoom` and
/// that the preview was rendered no larger than the screen shows it (the
/// window less the side panel), not larger and scaled.
fn assert_rendered_at_screen_size(h: &mut Harness<'_, PlayaApp>, zoom: &str) {
    settle_view(h);
    assert_eq!(zoom_label(h), zoom);
    let (w, hh) = rendered(h);
    assert!(
        w <= 1280 - 300 && hh <= 800,
        "at {zoom} the render is what the screen shows, not {w}×{hh} scaled"
    );
}

/// Zooms the preview in with the mouse wheel over it, `steps` notches.
fn wheel_zoom(h: &mut Harness<'_, PlayaApp>, steps: usize) {
    let centre = h.get_by_label("Fit").rect().left_top() + egui::vec2(300.0, 300.0);
    for _ in 0..steps {
        h.hover_at(centre);
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 400.0),
            phase: egui::TouchPhase::Move,
            modifiers: egui::Modifiers::NONE,
            source: egui::MouseWheelSource::Wheel,
        });
        h.step();
    }
}

/// Presses (or releases) the primary button at `pos`.
fn press(h: &mut Harness<'_, PlayaApp>, pos: egui::Pos2, pressed: bool) {
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    });
}

/// Points of the preview panel (from the zoom bar at its top left to the
/// panel under it) that no picture covers in the last frame painted: where
/// the preview would show its bare background. A picture is a mesh with
/// a texture other than egui's font atlas.
fn uncovered(h: &Harness<'_, PlayaApp>) -> Vec<egui::Pos2> {
    let bar = h.get_by_label("Fit").rect().left_top();
    let pictures: Vec<egui::Rect> = pictures(h)
        .iter()
        .map(|p| p.rect.intersect(p.clip))
        .collect();
    let (x0, y0) = (bar.x + 30.0, bar.y + 40.0);
    // Down to the panel under the preview: the scene's traits' line above
    // the timeline's Play button.
    let play = h.get_by_label("▶ Play").rect().top();
    let (x1, y1) = (1260.0, (play - 30.0).min(720.0));
    let mut missing = Vec::new();
    for i in 0..=20 {
        for j in 0..=20 {
            let p = egui::pos2(
                x0 + (x1 - x0) * i as f32 / 20.0,
                y0 + (y1 - y0) * j as f32 / 20.0,
            );
            if !pictures.iter().any(|r| r.contains(p)) {
                missing.push(p);
            }
        }
    }
    missing
}

/// Asserts that the last frame's pictures cover the preview panel.
fn assert_covered(h: &Harness<'_, PlayaApp>, when: &str) {
    let missing = uncovered(h);
    assert!(
        missing.is_empty(),
        "{when} left {} points of the preview bare, as {:?}",
        missing.len(),
        missing.first()
    );
}

#[test]
fn a_pan_or_zoom_never_uncovers_bare_background_while_the_view_renders() {
    let mut h = harness();
    h.get_by_label("1:1").click();
    settle_view(&mut h);
    wheel_zoom(&mut h, 40);
    settle_view(&mut h);
    assert_covered(&h, "the settled view");

    // A pan: the frame that moves the picture has not got its new view
    // yet, and shows the last picture where the old view does not reach.
    let from = h.get_by_label("Fit").rect().left_top() + egui::vec2(500.0, 400.0);
    let to = from + egui::vec2(-400.0, -250.0);
    h.event(egui::Event::PointerMoved(from));
    h.step();
    press(&mut h, from, true);
    h.step();
    for k in 1..=3 {
        h.event(egui::Event::PointerMoved(
            from + (to - from) * (k as f32 / 3.0),
        ));
        h.step();
        assert_covered(&h, "panning");
    }
    press(&mut h, to, false);
    settle_view(&mut h);

    // A change of the scene while zoomed in, then a pan and a zoom out:
    // still covered at every frame.
    h.state_mut().state.scene.seed += 1;
    h.step();
    let centre = h.get_by_label("Fit").rect().left_top() + egui::vec2(400.0, 300.0);
    h.event(egui::Event::PointerMoved(centre));
    h.step();
    press(&mut h, centre, true);
    h.event(egui::Event::PointerMoved(centre + egui::vec2(300.0, 200.0)));
    h.step();
    assert_covered(&h, "panning after a change");
    press(&mut h, centre + egui::vec2(300.0, 200.0), false);
    settle_view(&mut h);
    h.get_by_label("Fit").click();
    h.step();
    assert_covered(&h, "zooming out");
}

#[test]
fn zoom_is_the_preview_s_and_zoomed_in_renders_at_screen_resolution() {
    use egui::accesskit::Role;
    let mut h = harness();
    // Fitted is 100%, whatever the size Export PNG… writes.
    assert_eq!(zoom_label(&h), "100%");

    // 1:1: a window of the 1920×1080 picture, one pixel per screen pixel,
    // larger than the fitted picture.
    h.get_by_role_and_label(Role::Button, "1:1").click();
    settle_view(&mut h);
    let one_to_one = zoom_label(&h);
    let percent: f32 = one_to_one.trim_end_matches('%').parse().unwrap();
    assert!(percent > 100.0, "1:1 is {one_to_one}");
    assert_rendered_at_screen_size(&mut h, &one_to_one);
    assert!(
        h.get_by_role_and_label(Role::Button, "1:1")
            .accesskit_node()
            .is_disabled()
    );

    // Zoomed in all the way: 16 screen pixels per pixel of the picture,
    // still rendered at screen resolution.
    wheel_zoom(&mut h, 40);
    // The wheel scrolls smoothly: let it come to rest.
    settle_view(&mut h);
    let closest = zoom_label(&h);
    let times: f32 = closest.trim_end_matches('%').parse::<f32>().unwrap() / percent;
    assert!(
        (times - 16.0).abs() < 0.1,
        "{closest} is not 16 × {one_to_one}"
    );
    assert_rendered_at_screen_size(&mut h, &closest);

    h.get_by_label("Fit").click();
    settle_view(&mut h);
    assert_eq!(zoom_label(&h), "100%");
}

#[test]
fn export_animation_asks_before_replacing_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.png");
    std::fs::write(&path, b"my earlier animation").unwrap();
    let mut h = harness();
    h.get_by_label("Export animation…").click();
    settle(&mut h);
    type_path(&mut h, &path);
    export_asks_and_cancel_keeps(&mut h, "Export animation", &path, b"my earlier animation");
}
