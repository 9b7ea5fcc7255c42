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
