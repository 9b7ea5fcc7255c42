#![cfg(feature = "app")]
//! The app's layout, view and export never show a stale or misleading
//! state: the side panel keeps its width, zoom is in real pixels, a new tent
//! shows, export asks before overwriting, and errors stay short. Driven by
//! role and label with egui_kittest (no GPU, no window).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use playa::app::{AppState, PlayaApp};

fn harness() -> Harness<'static, PlayaApp> {
    harness_with(AppState::default())
}

fn harness_with(state: AppState) -> Harness<'static, PlayaApp> {
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut PlayaApp| app.ui(ui), PlayaApp::new(state));
    settle(&mut h);
    h
}

/// Runs frames until the full preview of the current scene is on screen and
/// the UI is idle; bounded, so a broken worker fails the test.
fn settle(h: &mut Harness<'_, PlayaApp>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        h.step();
        if h.state().preview_is_current() {
            h.step();
            h.run();
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no preview of the current scene within 60 s");
}

/// A file dropped on the window.
#[derive(Debug)]
struct Dropped(std::path::PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn a_huge_bad_scene_file_gives_a_short_one_line_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rule.ron");
    let rule = format!("B3/S{}", "9".repeat(600_000));
    std::fs::write(&path, format!("(automaton: (rule: \"{rule}\"))")).unwrap();
    let mut h = harness();
    let before = h.state().scene().clone();

    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(path.clone())));
    settle(&mut h);
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
