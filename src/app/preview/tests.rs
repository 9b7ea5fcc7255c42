use super::navigate::{tent_hit, tent_index};
use super::*;
use crate::layers::Layer;

#[test]
fn the_spinner_shows_only_once_a_render_is_slow() {
    let ms = Duration::from_millis;
    assert_eq!(spinner_wait(Duration::ZERO), SPINNER_DELAY);
    assert_eq!(spinner_wait(ms(100)), SPINNER_DELAY - ms(100));
    assert!(spinner_wait(SPINNER_DELAY).is_zero());
    assert!(spinner_wait(ms(2000)).is_zero());
}

#[test]
fn fit_keeps_the_aspect_and_stays_inside() {
    let outer = Rect::from_min_size(Pos2::ZERO, vec2(1000.0, 400.0));
    let r = fit_rect(outer, 16.0 / 9.0);
    assert!((r.width() / r.height() - 16.0 / 9.0).abs() < 1e-3);
    assert!(outer.contains_rect(r));
    assert_eq!(r.height(), 400.0);
    let r = fit_rect(outer, 0.5);
    assert_eq!(r.height(), 400.0);
    assert_eq!(r.width(), 200.0);
}

#[test]
fn quick_frames_stop_where_they_cost_nearly_a_full_frame() {
    let mut q = QuickShare::default();
    assert!(!q.wanted(false), "a fast render gets no quick frame");
    // Unmeasured: a slow request gets one.
    assert!(q.wanted(true));
    // Pixels dominate: a quarter of them took a quarter of the time.
    q.rendered(1, 25.0, false);
    q.rendered(1, 100.0, true);
    assert!(q.wanted(true));
    // Stones dominate: the quick frame took 80% of the full one.
    q.rendered(2, 80.0, false);
    q.rendered(2, 100.0, true);
    let sent: Vec<bool> = (0..2 * QUICK_PROBE_EVERY).map(|_| q.wanted(true)).collect();
    let probes = sent.iter().filter(|&&quick| quick).count();
    assert_eq!(
        probes, 2,
        "only a probe every {QUICK_PROBE_EVERY}: {sent:?}"
    );
    // A probe that finds pixels dominating again brings them back.
    q.rendered(3, 20.0, false);
    q.rendered(3, 100.0, true);
    assert!(q.wanted(true) && q.wanted(true));
    // A quick frame whose full frame never came (a newer request won)
    // measures nothing.
    q.rendered(4, 90.0, false);
    q.rendered(5, 100.0, true);
    assert!(q.wanted(true));
}

#[test]
fn the_default_tent_can_be_grabbed() {
    let scene = Scene::default();
    let i = tent_index(&scene).expect("the default scene has a tent");
    let Layer::Tent(t) = &scene.layers[i] else {
        unreachable!()
    };
    assert!(tent_hit(&scene, i, vec2(t.x, t.y - 0.02)));
    assert!(!tent_hit(&scene, i, vec2(t.x + 0.4, t.y)));
}

/// The frames `preview` receives within `wait`, each as (full, size).
fn frames_within(
    preview: &mut Preview,
    ctx: &egui::Context,
    wait: std::time::Duration,
) -> Vec<(bool, [u32; 2])> {
    let deadline = Instant::now() + wait;
    let mut got = Vec::new();
    while Instant::now() < deadline {
        if let Some(d) = preview.receive(ctx) {
            got.push((d.full, d.size));
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    got
}

/// Issue 60, item 18: while the pointer moves and a full frame would take
/// longer than a frame's time (a busy machine), the preview is drawn
/// coarser, small enough to come in time, and no full frame holds up the
/// next; once the pointer is let go, the exact frame follows.
#[test]
fn a_slow_drag_gets_coarse_frames_and_the_exact_one_after() {
    let ctx = egui::Context::default();
    let mut preview = Preview::new();
    preview.forced_size = Some([1280, 720]);
    let scene = crate::scene::presets::load("golden-hour").unwrap();
    // As measured on a machine whose cores are taken: about 1.2 s a frame.
    preview.ms_per_mpx = Some(1300.0);
    preview.request(&ctx, &scene, true);
    let during = frames_within(&mut preview, &ctx, std::time::Duration::from_millis(1500));
    assert!(!during.is_empty(), "no frame while dragging");
    assert!(
        during
            .iter()
            .all(|&(full, [w, h])| !full && w <= 1280 / 8 && h <= 720 / 8),
        "{during:?}"
    );
    // Another step of the drag: still coarse, at the size that came in time.
    let mut moved = scene.clone();
    moved.sun_x = 0.5;
    preview.request(&ctx, &moved, true);
    let during = frames_within(&mut preview, &ctx, std::time::Duration::from_millis(1000));
    assert!(during.iter().all(|&(full, _)| !full), "{during:?}");
    assert!(!preview.is_current(&moved));
    // Let go: the exact frame, the same scene.
    preview.request(&ctx, &moved, false);
    let after = frames_within(&mut preview, &ctx, std::time::Duration::from_millis(3000));
    assert_eq!(after.last(), Some(&(true, [1280, 720])), "{after:?}");
    assert!(preview.is_current(&moved));
    let exact = crate::render(&moved, 1280, 720).unwrap();
    assert_eq!(
        preview.fingerprint(),
        Some(super::job::fingerprint(exact.as_raw()))
    );
}
