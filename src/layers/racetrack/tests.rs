//! The Racetrack's stones and trails as the eye and the ground place
//! them: larger at a row from a lower eye, lifted on sand in one ground,
//! hidden behind what is nearer and marking what they cover.

use super::draw::RacetrackDraw;
use super::*;
use crate::base::color::Linear;
use crate::compose::Plan;
use crate::layers::world::{Depth, FAR};
use crate::layers::{BAND_ROWS, Band, Dunes, Layer};
use crate::scene::Scene;

/// The default scene with a Racetrack of large stones, seen from `eye`
/// metres, in one ground or not, on dunes or not.
fn track(eye: f32, one_ground: bool, dunes: bool) -> Scene {
    let mut scene = Scene {
        eye,
        one_ground,
        ..Scene::default()
    };
    if dunes {
        scene.add_layer(Layer::Dunes(Dunes {
            height: 14.0,
            spacing: 140.0,
            cover: 0.95,
            ..Dunes::default()
        }));
    }
    scene.add_layer(Layer::Racetrack(Racetrack {
        stones: 80,
        size: 0.8,
        trail: 120.0,
        ..Racetrack::default()
    }));
    scene
}

/// The Racetrack of `scene`.
fn settings(scene: &Scene) -> Racetrack {
    scene
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Racetrack(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap()
}

/// A stone's width against its row's depth under the horizon goes as one
/// over the eye's height: from a stone's eye (0.3 m) a stone at a row is
/// larger than from a person's (1.6 m), from an overlook (100 m) smaller.
#[test]
fn a_lower_eye_draws_the_stones_larger_at_their_rows() {
    let sizes = |eye: f32| -> f32 {
        let mut scene = track(eye, false, false);
        // (Eighty stones this large from a stone's eye would cost too much.)
        for layer in &mut scene.layers {
            if let Layer::Racetrack(r) = layer {
                (r.stones, r.size) = (6, 0.5);
            }
        }
        let plan = Plan::new(&scene).unwrap();
        let draw = settings(&scene).prepare_draw(&plan.frame(640, 360));
        let mut ratios: Vec<f32> = draw
            .stones
            .iter()
            .filter(|s| s.rx > 0.3 && s.key > 0.0)
            .map(|s| s.rx / s.key)
            .collect();
        ratios.sort_by(f32::total_cmp);
        ratios[ratios.len() / 2]
    };
    let (low, standing, high) = (sizes(0.3), sizes(1.6), sizes(100.0));
    assert!(
        (low / standing - 1.6 / 0.3).abs() < 0.5 && standing > 10.0 * high,
        "{low}, {standing}, {high}"
    );
}

/// In one ground on dunes, each stone (and its shadow) is lifted as the
/// sand lifts its foot, and each trail's ends with it.
#[test]
fn the_stones_and_trails_lie_on_the_sand() {
    let scene = track(1.6, true, true);
    let plan = Plan::new(&scene).unwrap();
    let frame = plan.frame(640, 360);
    let mut flat = plan.frame(640, 360);
    flat.world.terrain = None;
    let r = settings(&scene);
    let (on, off) = (r.prepare_draw(&frame), r.prepare_draw(&flat));
    assert!(on.lifted && !off.lifted);
    let mut lifted = 0;
    for (a, b) in on.stones.iter().zip(&off.stones) {
        let lift = frame.world.lift(b.cx, b.key);
        assert_eq!((a.key, a.lift, b.lift), (b.key, lift, 0.0));
        assert!((b.cy - a.cy - lift).abs() < 1e-3);
        assert!((b.shadow_line[1] - a.shadow_line[1] - lift).abs() < 1e-3);
        lifted += usize::from(lift > 2.0);
    }
    assert!(lifted > 5, "{lifted} stones lifted");
    assert!(on.segments.iter().any(|s| s.lift[0] > 2.0));
    for (a, b) in on.segments.iter().zip(&off.segments) {
        assert!((b.line[1] - a.line[1] - a.lift[0]).abs() < 1e-3);
        assert!((b.line[3] - a.line[3] - a.lift[1]).abs() < 1e-3);
    }
}

/// The pixels of a `w × h` picture band by band, `draw` drawing each
/// over a background that varies with depths made by `depths` (ground,
/// things), or none; and the things' depths after.
fn paint(
    draw: &RacetrackDraw,
    (w, h): (u32, u32),
    depths: Option<(f32, f32)>,
) -> (Vec<Linear>, Vec<f32>) {
    let (mut all, mut keys) = (Vec::new(), Vec::new());
    for index in 0..h.div_ceil(BAND_ROWS) as usize {
        let y0 = index as u32 * BAND_ROWS;
        let rows = BAND_ROWS.min(h - y0);
        let n = (rows * w) as usize;
        let mut px: Vec<Linear> = (0..n).map(|i| [(i % 7) as f32 * 0.1, 0.3, 0.2]).collect();
        let (g, t) = depths.unwrap_or((FAR, FAR));
        let (mut ground, mut things) = (vec![g; n], vec![t; n]);
        draw.draw(&mut Band {
            y0,
            rows,
            x0: 0,
            width: w,
            index,
            px: &mut px,
            depth: depths.map(|_| Depth {
                ground: &mut ground,
                things: &mut things,
            }),
        });
        all.extend(px);
        keys.extend(things);
    }
    (all, keys)
}

/// In one ground the stones mark the pixels they cover with their feet's
/// keys; behind a nearer thing (or a nearer crest) the stones, their
/// shadows and their trails do not show: the mud alone is drawn.
#[test]
fn in_one_ground_the_stones_cover_and_are_hidden() {
    let scene = track(1.6, true, false);
    let plan = Plan::new(&scene).unwrap();
    let (w, h) = (480, 270);
    let frame = plan.frame(w, h);
    let r = settings(&scene);
    let draw = r.prepare_draw(&frame);
    let (_, keys) = paint(&draw, (w, h), Some((FAR, FAR)));
    let covered = keys.iter().filter(|&&k| k != FAR).count();
    assert!(covered > 500, "{covered} pixels covered");
    assert!(
        keys.iter()
            .all(|&k| k == FAR || draw.stones.iter().any(|s| s.key == k))
    );
    let bare = Racetrack { stones: 0, ..r }.prepare_draw(&frame);
    let (mud, _) = paint(&bare, (w, h), None);
    let (px, _) = paint(&draw, (w, h), Some((FAR, 1e9)));
    assert!(px == mud, "behind nearer things a stone or trail shows");
    // Behind nearer terrain (the sand, the near rise) even the mud lies
    // under it: what was drawn before stays.
    let unseen = Racetrack { opacity: 0.0, ..r }.prepare_draw(&frame);
    let (terrain, _) = paint(&unseen, (w, h), None);
    let (px, _) = paint(&draw, (w, h), Some((1e9, FAR)));
    assert!(
        px == terrain,
        "behind nearer terrain the mud, a stone or a trail shows"
    );
    let (px, _) = paint(&draw, (w, h), Some((FAR, FAR)));
    assert!(px != mud);
}
