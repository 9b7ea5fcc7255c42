#![cfg(feature = "app")]
//! The variations grid, driven by role and label with egui_kittest:
//! opening it shows the page's thumbnails, each the picture of its
//! candidate; a click adopts one (one undo step) and the grid moves
//! around it; More and Back page; the mode and the strength change the
//! candidates; a scene change drops stale thumbnails.

use std::time::{Duration, Instant};

use crate::common::app::{copied, harness};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use playa::app::PlayaApp;
use playa::app::explore::variations::GridMode;
use playa::app::preview::job::fingerprint;
use playa::explore::randomize::Locks;
use playa::explore::variations::{self, Mode, PAGE, THUMBNAIL};
use playa::scene::Scene;

/// Runs frames until the grid's page around the current scene is whole
/// and the preview of the scene is on screen (the workers render on
/// their own threads), then lets the UI settle; bounded.
fn wait_grid(h: &mut Harness<'_, PlayaApp>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        h.step();
        let app = h.state();
        if app.grid().is_filled(app.scene()) && app.preview_is_current() {
            break;
        }
        assert!(Instant::now() < deadline, "the grid did not fill in 60 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    h.step();
    h.run();
}

/// The app with its grid open and filled.
fn open_grid() -> Harness<'static, PlayaApp> {
    let mut h = harness();
    h.get_by_label("⊞ Variations").click();
    wait_grid(&mut h);
    h
}

/// The fingerprints of the pictures of `scenes`, rendered alone.
fn pictures(scenes: &[Scene]) -> Vec<Option<u64>> {
    scenes
        .iter()
        .map(|s| {
            Some(fingerprint(
                variations::thumbnail(s, THUMBNAIL).unwrap().as_raw(),
            ))
        })
        .collect()
}

/// The page the grid should show around the app's scene in `mode`.
fn expected(h: &Harness<'_, PlayaApp>, mode: Mode, page: u32) -> Vec<Scene> {
    let app = h.state();
    variations::page(app.scene(), &app.state.locks, mode, page)
}

#[test]
fn opening_the_grid_shows_every_candidate_as_its_own_picture() {
    let mut h = harness();
    assert!(h.query_by_label("Variation 1").is_none(), "closed at first");
    h.get_by_label("⊞ Variations").click();
    wait_grid(&mut h);
    let app = h.state();
    assert!(app.state.variations.open);
    assert_eq!(app.grid().shown(), PAGE as usize);
    let strength = app.state.variations.strength;
    let want = expected(&h, Mode::Vary { strength }, 0);
    assert_eq!(h.state().grid().candidates(), want.as_slice());
    // Each thumbnail is its candidate's picture, in its place.
    assert_eq!(h.state().grid().fingerprints(), pictures(&want));
    for n in 1..=PAGE {
        h.get_by_role_and_label(Role::Button, &format!("Variation {n}"));
    }
    assert!(h.state().grid().filled_ms().is_some());

    // V closes it, and opens it again.
    h.key_press(egui::Key::V);
    h.run();
    assert!(!h.state().state.variations.open);
    assert!(h.query_by_label("Variation 1").is_none());
    h.key_press(egui::Key::V);
    wait_grid(&mut h);
    assert!(h.state().state.variations.open);
    h.get_by_label("Variation 16");
}

#[test]
fn a_click_adopts_that_candidate_and_undo_restores_the_scene() {
    let mut h = open_grid();
    let before = h.state().scene().clone();
    let chosen = h.state().grid().candidates()[5].clone();
    assert_ne!(chosen, before);

    h.get_by_label("Variation 6").click();
    h.step();
    assert_eq!(h.state().scene(), &chosen);
    let said = h.state().message().map(|m| m.text.clone());
    assert_eq!(
        said,
        Some(format!(
            "Variation 6 is the scene: {}",
            playa::explore::randomize::describe(&before, &chosen)
        ))
    );
    wait_grid(&mut h);

    // The grid stays open and shows the variations around the new scene.
    let strength = h.state().state.variations.strength;
    let around = expected(&h, Mode::Vary { strength }, 0);
    assert_eq!(
        variations::page(&chosen, &Locks::default(), Mode::Vary { strength }, 0),
        around
    );
    assert_eq!(h.state().grid().candidates(), around.as_slice());
    assert_eq!(h.state().grid().fingerprints(), pictures(&around));

    // One undo step back to where we were.
    h.get_by_label("Undo").click();
    wait_grid(&mut h);
    assert_eq!(h.state().scene(), &before);
    assert_eq!(
        h.state().grid().candidates(),
        expected(&h, Mode::Vary { strength }, 0).as_slice()
    );
}

#[test]
fn more_shows_the_next_page_and_back_brings_the_same_page_again() {
    let mut h = open_grid();
    let first = h.state().grid().candidates().to_vec();
    let first_pictures = h.state().grid().fingerprints();
    assert_eq!(h.state().grid().page(), 0);
    h.get_by_label("Page 1");

    h.get_by_label("More ▶").click();
    wait_grid(&mut h);
    assert_eq!(h.state().grid().page(), 1);
    h.get_by_label("Page 2");
    let strength = h.state().state.variations.strength;
    let second = expected(&h, Mode::Vary { strength }, 1);
    assert_eq!(h.state().grid().candidates(), second.as_slice());
    assert_ne!(second, first);
    assert_eq!(h.state().grid().fingerprints(), pictures(&second));

    h.get_by_label("◀ Back").click();
    wait_grid(&mut h);
    assert_eq!(h.state().grid().page(), 0);
    assert_eq!(h.state().grid().candidates(), first.as_slice());
    assert_eq!(h.state().grid().fingerprints(), first_pictures);
}

#[test]
fn the_mode_and_the_strength_change_the_candidates() {
    let mut h = open_grid();
    let vary = h.state().grid().candidates().to_vec();
    let seed = h.state().scene().seed;

    h.get_by_label("Seeds").click();
    wait_grid(&mut h);
    assert_eq!(h.state().state.variations.mode, GridMode::Seeds);
    let seeds: Vec<u64> = h
        .state()
        .grid()
        .candidates()
        .iter()
        .map(|s| s.seed)
        .collect();
    assert_eq!(
        seeds,
        (1..=u64::from(PAGE)).map(|n| seed + n).collect::<Vec<_>>()
    );
    h.get_by_label(&format!("seed {}", seed + 1));
    let scene = h.state().scene().clone();
    assert!(
        h.state().grid().candidates().iter().all(|c| Scene {
            seed: scene.seed,
            ..c.clone()
        } == scene),
        "Seeds changes only the seed"
    );

    h.get_by_label("New scene").click();
    wait_grid(&mut h);
    let new_scenes = h.state().grid().candidates().to_vec();
    assert_eq!(new_scenes, expected(&h, Mode::NewScene, 0));
    assert_ne!(new_scenes, vary);

    // Back to Vary, one step of strength up: other candidates.
    h.get_by_label("Vary").click();
    wait_grid(&mut h);
    assert_eq!(h.state().grid().candidates(), vary.as_slice());
    let strength = h.state().state.variations.strength;
    h.get_by_role_and_label(Role::Slider, "Strength").focus();
    h.key_press(egui::Key::ArrowRight);
    wait_grid(&mut h);
    let stronger = h.state().state.variations.strength;
    assert!(stronger > strength, "{stronger} after {strength}");
    let want = expected(&h, Mode::Vary { strength: stronger }, 0);
    assert_eq!(h.state().grid().candidates(), want.as_slice());
    assert_ne!(want, vary);
    assert_eq!(h.state().grid().fingerprints(), pictures(&want));
}

#[test]
fn a_scene_change_drops_the_stale_thumbnails() {
    let mut h = open_grid();
    let stale = h.state().grid().fingerprints();
    h.get_by_label("Next seed").click();
    h.step();
    // The frame of the change shows none of the old page's pictures.
    let now = h.state().grid().fingerprints();
    let want = pictures(h.state().grid().candidates());
    for (i, (shown, want)) in now.iter().zip(&want).enumerate() {
        assert!(shown.is_none() || shown == want, "thumbnail {i} is stale");
    }
    wait_grid(&mut h);
    let fresh = h.state().grid().fingerprints();
    assert_eq!(fresh, want);
    assert_ne!(fresh, stale);
    let strength = h.state().state.variations.strength;
    assert_eq!(
        h.state().grid().candidates(),
        expected(&h, Mode::Vary { strength }, 0).as_slice()
    );
}

#[test]
fn each_thumbnail_copies_its_share_code() {
    let mut h = open_grid();
    let code = playa::share::encode(&h.state().grid().candidates()[2]);
    h.get_by_label("Copy the code of variation 3").click();
    h.step();
    assert_eq!(copied(&h), Some(code.clone()));
    h.run();
    h.get_by_label(&format!("Copied {code}"));
    // The scene stays.
    assert_ne!(h.state().scene(), &h.state().grid().candidates()[2]);
}

/// The shapes painted inside `rect`, nested ones flattened.
fn shapes_in(h: &Harness<'_, PlayaApp>, rect: egui::Rect) -> Vec<egui::Shape> {
    fn flatten(shape: &egui::Shape, out: &mut Vec<egui::Shape>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| flatten(s, out)),
            s => out.push(s.clone()),
        }
    }
    let mut all = Vec::new();
    for clipped in &h.output().shapes {
        flatten(&clipped.shape, &mut all);
    }
    all.into_iter()
        .filter(|s| rect.contains_rect(s.visual_bounding_rect()))
        .collect()
}

#[test]
fn the_copy_button_shows_a_clipboard() {
    let h = open_grid();
    let button = h.get_by_label("Copy the code of variation 1").rect();
    let inside = shapes_in(&h, button.expand(0.5));
    // A clipboard drawn: a board taller than wide, and a clip on it; no
    // glyph of a font (whose emoji reads as a tag at this size).
    assert!(
        !inside.iter().any(|s| matches!(s, egui::Shape::Text(_))),
        "a glyph: {inside:?}"
    );
    let boards = inside
        .iter()
        .filter(|s| match s {
            egui::Shape::Rect(r) => r.rect.height() > r.rect.width() && r.rect.height() >= 8.0,
            _ => false,
        })
        .count();
    assert!(boards >= 1, "no board: {inside:?}");
}
