//! The rocks' checks: a stone depends on its cell alone, reclearing places
//! what a fresh placing does, and the fast paths (the AVX2 shaders,
//! culling) paint the bits of their references.

use super::outline::{KNOTS, Rough};
use super::prepared::RocksDraw;
use super::*;
use crate::base::simd::Build;
use crate::compose::Plan;
use crate::layers::tent::Clearing;
use crate::scene::Scene;

/// A stone's place, size, shape and colour come from its own cell (and
/// the scene's seed) alone: clearing ground for a tent removes the
/// stones on it and leaves every other stone exactly as it was. (A
/// stone next to a tent that is removed may look different only because
/// a stone that comes back in front of it covers part of it.)
#[test]
fn a_stones_traits_depend_on_its_cell_alone() {
    let scene = Scene::default();
    let rocks = Rocks::default();
    let plan = Plan::new(&scene).unwrap();
    let cleared = plan.frame(640, 360);
    assert!(!cleared.clearings.is_empty(), "the default tent clears");
    let mut open = plan.frame(640, 360);
    open.clearings.clear();
    let traits = |frame: &Frame| -> Vec<([u32; 12], [u32; 2 * KNOTS])> {
        let draw = rocks.prepare_stones(frame).unwrap();
        draw.rows
            .iter()
            .flat_map(|row| &row.stones)
            .map(|rough| {
                let s = rough.stone(&draw.outline);
                let a = s.look.albedo;
                let numbers = [
                    s.x, s.y, s.inv[0], s.inv[1], s.inv[2], s.inv[3], s.shear, s.sx, s.sy, a[0],
                    a[1], a[2],
                ];
                (numbers.map(f32::to_bits), s.knots.map(f32::to_bits))
            })
            .collect()
    };
    let (kept, all) = (traits(&cleared), traits(&open));
    assert!(kept.len() < all.len(), "the tent clears some stones");
    let all: std::collections::HashSet<_> = all.into_iter().collect();
    for stone in &kept {
        assert!(
            all.contains(stone),
            "a stone changed when ground was cleared"
        );
    }
}

/// Moving the clearings and placing again only the rows near them gives
/// the stones a fresh placing gives, and every stone or grain that came
/// or went lies in the pixel rows said to have changed.
#[test]
fn reclearing_places_what_a_fresh_placing_does() {
    let mut scene = Scene::default();
    scene.automaton.columns = 200;
    scene.automaton.density = 0.4;
    let rocks = Rocks {
        gravel: 1.0,
        near_size: 0.12,
        ..Rocks::default()
    };
    let plan = Plan::new(&scene).unwrap();
    let frame = plan.frame(480, 270);
    let tent = frame.clearings[0];
    let stones = |draw: &RocksDraw| -> Vec<Vec<([i32; 4], [u32; 3])>> {
        let bits = |r: &Rough| [r.shape.x, r.shape.y, r.albedo[0]].map(f32::to_bits);
        let rows = draw.rows.iter();
        rows.map(|row| {
            row.boxes
                .iter()
                .copied()
                .zip(row.stones.iter().map(bits))
                .collect()
        })
        .collect()
    };
    let mut old = rocks.prepare_stones(&frame).unwrap();
    let moves = [
        (0.05, 0.0),
        (0.0, 0.04),
        (-0.3, -0.02),
        (0.6, 0.1),
        (0.011, 0.0),
    ];
    let mut at = frame;
    for (k, (dx, dy)) in moves.into_iter().enumerate() {
        let mut now = plan.frame(480, 270);
        now.clearings = vec![Clearing {
            x: at.clearings[0].x + dx,
            y: at.clearings[0].y + dy,
            ..tent
        }];
        if k == 3 {
            // And a second tent.
            now.clearings.push(Clearing { x: 0.3, ..tent });
        }
        let before = stones(&old);
        let (draw, changed) = rocks.reclear(&now, old);
        let fresh = rocks.prepare_stones(&now).unwrap();
        let after = stones(&draw);
        assert!(after == stones(&fresh), "move {k}: not as placed afresh");
        let said = |bbox: &[i32; 4]| {
            changed
                .iter()
                .any(|&(y0, y1)| y0 <= bbox[1] && bbox[3] <= y1)
        };
        let mut came_or_went = 0;
        for (then, now) in before.iter().zip(&after) {
            for (bbox, _) in then.iter().filter(|s| !now.contains(s)) {
                assert!(said(bbox), "move {k}: a stone went unsaid");
                came_or_went += 1;
            }
            for (bbox, _) in now.iter().filter(|s| !then.contains(s)) {
                assert!(said(bbox), "move {k}: a stone came unsaid");
                came_or_went += 1;
            }
        }
        assert!(came_or_went > 0, "move {k} moved no stone");
        (old, at) = (draw, now);
    }
}

use crate::layers::paint_bands as paint;

/// Every other build this CPU runs (AVX2, where it has it) paints the same
/// bits as the portable one: the occlusion pass and the shaders, on stones
/// of every size, opaque and translucent, over a background that varies.
/// (On a CPU with only the portable build there is nothing to compare.)
#[test]
fn every_build_paints_the_bits_of_the_portable_one() {
    for (density, columns, opacity, near) in [
        (0.4, 560, 1.0, 0.042),
        (0.5, 968, 0.7, 0.006),
        (0.3, 160, 1.0, 0.3),
    ] {
        let mut scene = Scene::default();
        scene.automaton.density = density;
        scene.automaton.columns = columns;
        let rocks = Rocks {
            opacity,
            near_size: near,
            ..Rocks::default()
        };
        let plan = Plan::new(&scene).unwrap();
        let (w, h) = (517, 291);
        let draw = rocks.prepare_stones(&plan.frame(w, h)).unwrap();
        let portable = paint(w, h, |band| draw.draw_with(band, Build::Portable));
        for build in Build::all().into_iter().filter(|&b| b != Build::Portable) {
            let picture = paint(w, h, |band| draw.draw_with(band, build));
            assert!(
                picture == portable,
                "density {density}, {columns} columns, opacity {opacity}: {build:?} differs"
            );
        }
    }
}

/// The reference for culling: drawing every stone whole, far to near,
/// gives the same bits, on packed fields, sparse ones, translucent
/// stones and odd sizes, over a background that varies.
#[test]
fn culling_hidden_stones_changes_no_pixel() {
    let cases = [
        (0.4, 560, 1.0),
        (0.5, 968, 1.0),
        (0.8, 560, 1.0),
        (0.4, 300, 0.6),
    ];
    for (density, columns, opacity) in cases {
        let mut scene = Scene::default();
        scene.automaton.density = density;
        scene.automaton.columns = columns;
        for layer in &mut scene.layers {
            if let crate::layers::Layer::Rocks(r) = layer {
                r.opacity = opacity;
            }
        }
        let rocks = scene
            .layers
            .iter()
            .find_map(|l| match l {
                crate::layers::Layer::Rocks(r) => Some(r.clone()),
                _ => None,
            })
            .unwrap();
        let plan = Plan::new(&scene).unwrap();
        for (w, h) in [(640, 360), (333, 187)] {
            let frame = plan.frame(w, h);
            let mut draw = rocks.prepare_stones(&frame).unwrap();
            let pictures = [true, false].map(|cull| {
                draw.cull = cull;
                paint(w, h, |band| draw.draw(band))
            });
            assert!(
                pictures[0] == pictures[1],
                "density {density}, {columns} columns, opacity {opacity}, {w}x{h}: culling changes pixels"
            );
        }
    }
}

use crate::base::color::Linear;
use crate::layers::world::{Depth, FAR};
use crate::layers::{BAND_ROWS, Band, Draw, Dunes, Layer};

/// The default scene in one ground, its stones on a sea of dunes.
fn on_dunes() -> Scene {
    let mut scene = Scene {
        one_ground: true,
        ..Scene::default()
    };
    let at = scene
        .layers
        .iter()
        .position(|l| matches!(l, Layer::Rocks(_)))
        .unwrap();
    scene.layers.insert(
        at,
        Layer::Dunes(Dunes {
            height: 14.0,
            spacing: 140.0,
            cover: 0.95,
            ..Dunes::default()
        }),
    );
    scene
}

/// In one ground on dunes, each stone and grain stands where it would on
/// flat ground, lifted as the sand lifts its foot, its box with it.
#[test]
fn stones_stand_on_the_sand() {
    let plan = Plan::new(&on_dunes()).unwrap();
    let rocks = Rocks::default();
    let frame = plan.frame(640, 360);
    assert!(frame.world.terrain.is_some(), "the dunes are the terrain");
    let mut flat = plan.frame(640, 360);
    flat.world.terrain = None;
    let (on, off) = (
        rocks.prepare_stones(&frame).unwrap(),
        rocks.prepare_stones(&flat).unwrap(),
    );
    let mut lifted = 0;
    for (a, b) in on.rows.iter().zip(&off.rows) {
        assert_eq!(a.stones.len(), b.stones.len());
        assert_eq!(a.feet.len(), a.stones.len(), "every stone has its foot");
        for i in 0..a.stones.len() {
            let key = a.feet[i][0];
            assert_eq!(key, b.feet[i][0], "a stone's key is its flat place's");
            let (up, down) = (&a.stones[i].shape, &b.stones[i].shape);
            let lift = frame.world.lift(down.x, key);
            assert_eq!(up.x, down.x);
            assert!(
                (down.y - up.y - lift).abs() < 1e-3,
                "lifted {} for {lift}",
                down.y - up.y
            );
            // Its box (and so the bands it is drawn in) with it.
            assert!((b.boxes[i][1] - a.boxes[i][1] - lift.round() as i32).abs() <= 1);
            assert!((b.boxes[i][3] - a.boxes[i][3] - lift.round() as i32).abs() <= 1);
            lifted += usize::from(lift > 2.0);
        }
    }
    assert!(lifted > 100, "{lifted} stones lifted");
}

/// Draws `draw` on the rows of band `index` of a `w × h` picture over a
/// background that varies, with depths `depth` (ground, then things), or
/// none; gives back the pixels.
fn in_band(
    draw: &dyn Draw,
    (w, h, index): (u32, u32, usize),
    px: &mut [Linear],
    depth: Option<(&mut [f32], &mut [f32])>,
) {
    let y0 = index as u32 * BAND_ROWS;
    let rows = BAND_ROWS.min(h - y0);
    draw.draw(&mut Band {
        y0,
        rows,
        x0: 0,
        width: w,
        index,
        px,
        depth: depth.map(|(ground, things)| Depth { ground, things }),
    });
}

/// Where the sand drawn in one ground is nearer than the foot of every
/// stone that reaches a band (a crest in front), the stones paint nothing;
/// drawn without depths, they would paint there.
#[test]
fn a_stone_behind_a_crest_is_hidden() {
    let scene = on_dunes();
    let plan = Plan::new(&scene).unwrap();
    let (w, h) = (640u32, 360u32);
    let frame = plan.frame(w, h);
    let sand = scene
        .layers
        .iter()
        .find(|l| matches!(l, Layer::Dunes(_)))
        .unwrap()
        .prepare(&frame)
        .unwrap();
    // (From the eye over the tallest sand, stones of the default sizes
    // are drawn a tenth as large.)
    let rocks = Rocks {
        near_size: 0.3,
        far_size: 0.2,
        ..Rocks::default()
    };
    let draw = rocks.prepare_stones(&frame).unwrap();
    let (mut hidden, mut drawn) = (0, 0);
    for index in 0..h.div_ceil(BAND_ROWS) as usize {
        let y0 = index as u32 * BAND_ROWS;
        let n = (BAND_ROWS.min(h - y0) * w) as usize;
        let mut px: Vec<Linear> = (0..n).map(|i| [(i % 7) as f32 * 0.1, 0.3, 0.2]).collect();
        let (mut ground, mut things) = (vec![FAR; n], vec![FAR; n]);
        in_band(
            &*sand,
            (w, h, index),
            &mut px,
            Some((&mut ground, &mut things)),
        );
        let under = px.clone();
        let mut bare = px.clone();
        in_band(
            &draw,
            (w, h, index),
            &mut px,
            Some((&mut ground, &mut things)),
        );
        in_band(&draw, (w, h, index), &mut bare, None);
        // Per pixel, the nearest any stone whose box holds it reaches.
        let mut reach = vec![FAR; n];
        for row in &draw.rows {
            for (b, [key, margin]) in row.boxes.iter().zip(&row.feet) {
                for y in b[1].max(y0 as i32)..b[3].min((y0 + BAND_ROWS).min(h) as i32) {
                    for x in b[0].max(0)..b[2].min(w as i32) {
                        let i = (y as u32 - y0) as usize * w as usize + x as usize;
                        reach[i] = reach[i].max(key + margin);
                    }
                }
            }
        }
        for i in 0..n {
            if bare[i] != under[i] {
                drawn += 1;
                if ground[i] > reach[i] {
                    hidden += 1;
                    assert_eq!(px[i], under[i], "a stone shows through the sand");
                }
            }
        }
    }
    assert!(
        hidden > 500 && hidden < drawn / 2,
        "{hidden} of {drawn} pixels behind crests"
    );
}

/// Stones whose boxes meet a window of a band in one ground are drawn
/// there with the very bits, and mark the very depths, of the whole rows.
#[test]
fn a_window_in_one_ground_is_the_whole_rows_there() {
    let scene = on_dunes();
    let plan = Plan::new(&scene).unwrap();
    let (w, h) = (333u32, 187u32);
    let frame = plan.frame(w, h);
    let sand = scene
        .layers
        .iter()
        .find(|l| matches!(l, Layer::Dunes(_)))
        .unwrap()
        .prepare(&frame)
        .unwrap();
    let near = Rocks {
        near_size: 0.12,
        gravel: 1.0,
        ..Rocks::default()
    };
    let draw = near.prepare_stones(&frame).unwrap();
    for index in 0..h.div_ceil(BAND_ROWS) as usize {
        let y0 = index as u32 * BAND_ROWS;
        let rows = BAND_ROWS.min(h - y0);
        let n = (rows * w) as usize;
        let mut px: Vec<Linear> = (0..n).map(|i| [(i % 7) as f32 * 0.1, 0.3, 0.2]).collect();
        let (mut ground, mut things) = (vec![FAR; n], vec![FAR; n]);
        in_band(
            &*sand,
            (w, h, index),
            &mut px,
            Some((&mut ground, &mut things)),
        );
        let (x, cw) = (101u32, 64u32);
        let cut = |v: &[f32]| -> Vec<f32> {
            (0..rows as usize)
                .flat_map(|r| v[r * w as usize + x as usize..][..cw as usize].to_vec())
                .collect()
        };
        let mut part: Vec<Linear> = (0..rows as usize)
            .flat_map(|r| px[r * w as usize + x as usize..][..cw as usize].to_vec())
            .collect();
        let (mut part_ground, mut part_things) = (cut(&ground), cut(&things));
        in_band(
            &draw,
            (w, h, index),
            &mut px,
            Some((&mut ground, &mut things)),
        );
        draw.draw(&mut Band {
            y0,
            rows,
            x0: x,
            width: cw,
            index,
            px: &mut part,
            depth: Some(Depth {
                ground: &mut part_ground,
                things: &mut part_things,
            }),
        });
        let whole: Vec<Linear> = (0..rows as usize)
            .flat_map(|r| px[r * w as usize + x as usize..][..cw as usize].to_vec())
            .collect();
        assert!(part == whole, "band {index}: the window's pixels differ");
        assert!(
            part_things == cut(&things),
            "band {index}: the window's depths differ"
        );
    }
}

/// Two fields of stones in one ground: whichever layer comes first, the
/// nearer stone is drawn over the farther, and swapping the layers
/// changes only a few pixels at the stones' edges; drawn in the layers'
/// order (not one ground), swapping them changes many.
#[test]
fn in_one_ground_the_nearer_stone_is_drawn_over_whatever_the_order() {
    let base = crate::scene::presets::load("death-valley").unwrap();
    let at = base
        .layers
        .iter()
        .position(|l| matches!(l, Layer::Rocks(_)))
        .unwrap();
    let other = Layer::Rocks(Rocks {
        top: 0.05,
        bottom: 1.1,
        jitter: 1.2,
        near_size: 0.06,
        primary: crate::base::color::Rgb(170, 110, 80),
        primary_alpha: 0.9,
        ..Rocks::default()
    });
    let (w, h) = (960u32, 540u32);
    for one_ground in [true, false] {
        let mut first = base.clone();
        first.one_ground = one_ground;
        first.layers.insert(at + 1, other.clone());
        let mut second = first.clone();
        second.layers.swap(at, at + 1);
        let (a, b) = (
            crate::render(&first, w, h).unwrap(),
            crate::render(&second, w, h).unwrap(),
        );
        // The share of the pixels that differ at all, and by more than
        // a twentieth in a channel.
        let share = |by: u8| {
            let pairs = a.pixels().zip(b.pixels());
            let differ = pairs
                .filter(|(p, q)| p.0.iter().zip(q.0).any(|(u, v)| u.abs_diff(v) > by))
                .count();
            differ as f64 / f64::from(w * h)
        };
        let (all, seen) = (share(0), share(12));
        if one_ground {
            // Where a nearer stone's edge partly covers a farther one,
            // the farther is drawn under the edge or over it.
            assert!(
                all < 0.006 && seen < 0.003,
                "one ground: {all} of the pixels differ, {seen} by more than a twentieth"
            );
        } else {
            assert!(
                all > 0.015 && seen > 0.01,
                "layers' order: only {all} differ"
            );
        }
    }
}

/// The eye's height sets how large a stone at its row is drawn: a stone's
/// eye (0.3 m) larger than a person's (1.6 m), an overlook (100 m)
/// smaller.
#[test]
fn a_lower_eye_draws_stones_larger() {
    let width = |eye: f32| {
        let scene = Scene {
            eye,
            ..Scene::default()
        };
        let plan = Plan::new(&scene).unwrap();
        let draw = Rocks::default()
            .prepare_stones(&plan.frame(640, 360))
            .unwrap();
        let boxes = draw.rows.iter().flat_map(|r| &r.boxes);
        boxes.map(|b| i64::from(b[2] - b[0])).sum::<i64>()
    };
    // (From a stone's eye the nearer stones hide more of the farther and
    // the frame cuts the nearest: their widths add up to less than the
    // eye's 5.3 times.)
    let (low, standing, high) = (width(0.3), width(1.6), width(100.0));
    assert!(
        low > 2 * standing && standing > 3 * high,
        "{low}, {standing}, {high}"
    );
}

/// In one ground on dunes, re-rendering on a canvas as a tent is dragged
/// over large stones and the stones and the sand change gives the bytes
/// of a fresh render: the lifted stones' boxes say which bands they
/// touch, and a tent's clearing which stones come and go.
#[test]
fn re_renders_in_one_ground_equal_fresh_renders() {
    use crate::compose::canvas::Canvas;
    let mut scene = on_dunes();
    scene.automaton.density = 0.4;
    scene.automaton.columns = 200;
    for l in &mut scene.layers {
        if let Layer::Rocks(r) = l {
            (r.near_size, r.far_size, r.gravel) = (0.3, 0.1, 1.0);
        }
    }
    type Edit = Box<dyn Fn(&mut Scene)>;
    let tent = |s: &mut Scene, dx: f32, dy: f32| {
        for l in &mut s.layers {
            if let Layer::Tent(t) = l {
                (t.x, t.y) = (t.x + dx, t.y + dy);
            }
        }
    };
    let rocks = |s: &mut Scene, f: &dyn Fn(&mut Rocks)| {
        for l in &mut s.layers {
            if let Layer::Rocks(r) = l {
                f(r);
            }
        }
    };
    let edits: Vec<Edit> = vec![
        Box::new(move |s| tent(s, 0.0, 0.1)),
        Box::new(move |s| tent(s, 0.07, 0.0)),
        Box::new(move |s| tent(s, 0.07, -0.05)),
        Box::new(move |s| tent(s, -0.3, 0.02)),
        Box::new(move |s| rocks(s, &|r| r.jitter = 1.5)),
        Box::new(move |s| rocks(s, &|r| r.visible = false)),
        Box::new(move |s| rocks(s, &|r| r.visible = true)),
        Box::new(|s| {
            for l in &mut s.layers {
                if let Layer::Dunes(d) = l {
                    d.height = 6.0;
                }
            }
        }),
        Box::new(move |s| tent(s, 0.1, 0.03)),
    ];
    let (w, h) = (320, 180);
    let mut canvas = Canvas::new();
    let mut now = scene;
    canvas.render(&now, w, h).unwrap();
    for (k, edit) in edits.iter().enumerate() {
        edit(&mut now);
        let kept = canvas.render(&now, w, h).unwrap().clone();
        assert!(
            kept == crate::render(&now, w, h).unwrap(),
            "edit {k} differs"
        );
    }
}
