//! Plants stand on the ground, cast their shadows away from the sun, keep
//! off the tents' clearings, and grow more with their settings; the
//! shaders of every build paint the bits of the per-pixel reference.

use super::Plants;
use super::draw::PlantsDraw;
use super::parts::{Part, Plant};
use super::place::Placer;
use crate::Scene;
use crate::base::simd::Build;
use crate::layers::Layer;

/// The plants of `plants` placed in `scene` at 640 × 360.
fn placed(scene: &Scene, plants: &Plants) -> Vec<Plant> {
    let plan = crate::compose::Plan::new(scene).unwrap();
    let frame = plan.frame(640, 360);
    Placer::new(plants, &frame).plants()
}

fn scene(time: crate::TimeOfDay, sun_x: f32) -> Scene {
    let mut scene = crate::scene::presets::load("death-valley").unwrap();
    scene.time = time;
    scene.sun_x = sun_x;
    scene
}

fn trees(plants: &[Plant]) -> impl Iterator<Item = &Plant> {
    plants.iter().filter(|p| {
        p.parts
            .iter()
            .any(|(_, part)| matches!(part, Part::Limb(_)))
    })
}

#[test]
fn plants_stand_on_the_ground_and_only_trees_reach_the_sky() {
    let s = scene(crate::TimeOfDay::Noon, 0.7);
    let horizon = s.horizon * 360.0;
    let plants = placed(&s, &Plants::default());
    assert!(plants.len() > 20, "{}", plants.len());
    assert_eq!(trees(&plants).count(), 5);
    for p in &plants {
        assert!(p.foot > horizon, "a plant on the sky at {}", p.foot);
        // Its body rests on its foot's row, a pixel of edge below at most.
        assert!(
            p.body[3] <= p.foot.ceil() as i32 + 1,
            "{:?} at {}",
            p.body,
            p.foot
        );
        let tree = p
            .parts
            .iter()
            .any(|(_, part)| matches!(part, Part::Limb(_)));
        if !tree {
            assert!(p.body[1] as f32 > horizon - 2.0, "a bush above the horizon");
        }
    }
    // Far to near.
    assert!(plants.windows(2).all(|w| w[0].foot <= w[1].foot));
}

#[test]
fn shadows_fall_away_from_the_sun_and_lengthen_as_it_sinks() {
    let length = |time, sun_x| {
        let s = scene(time, sun_x);
        let plants = placed(&s, &Plants::default());
        let (mut across, mut n) = (0.0, 0.0);
        for p in trees(&plants) {
            let foot_x = 0.5 * (p.body[0] + p.body[2]) as f32;
            across += 0.5 * (p.shade[0] + p.shade[2]) as f32 - foot_x;
            n += 1.0;
        }
        across / n
    };
    let (left, right) = (
        length(crate::TimeOfDay::Noon, 0.1),
        length(crate::TimeOfDay::Noon, 0.9),
    );
    assert!(
        left > 0.0 && right < 0.0,
        "sun left: {left}, right: {right}"
    );
    let low = length(crate::TimeOfDay::GoldenHour, 0.9);
    assert!(low < 1.5 * right, "golden hour {low} against noon {right}");
}

#[test]
fn more_creosote_more_bushes_and_none_on_a_tents_clearing() {
    let s = scene(crate::TimeOfDay::Noon, 0.7);
    let count = |creosote, clumped| {
        placed(
            &s,
            &Plants {
                creosote,
                clumped,
                joshua: 0,
                ..Plants::default()
            },
        )
        .len()
    };
    assert_eq!(count(0.0, 0.0), 0);
    let (few, many) = (count(0.2, 0.0), count(0.8, 0.0));
    assert!(few > 0 && many > 2 * few, "{few} {many}");
    assert!(count(0.0, 1.0) > 0, "small bushes by the clumps");
    let tent = s
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Tent(t) => Some(t.clearing(640.0, 360.0)),
            _ => None,
        })
        .expect("death-valley has a tent");
    let dense = placed(
        &s,
        &Plants {
            creosote: 1.0,
            clumped: 1.0,
            joshua: 30,
            ..Plants::default()
        },
    );
    for p in &dense {
        let x = 0.5 * (p.body[0] + p.body[2]) as f32 / 360.0;
        let (u, v) = ((x - tent.x) / tent.rx, (p.foot / 360.0 - tent.y) / tent.ry);
        assert!(u * u + v * v >= 1.0, "a plant on the tent's clearing");
    }
}

#[test]
fn the_cover_grows_with_the_plants_and_the_nearest_tree_reaches_the_sky() {
    let s = scene(crate::TimeOfDay::Noon, 0.7);
    let grid = crate::compose::rock_grid(&s).unwrap();
    let stones = crate::layers::rocks::cover::StoneField::of(&grid, s.automaton.topology);
    let ground = crate::layers::Ground {
        aspect: s.aspect,
        horizon: s.horizon,
        time: s.time,
        stones: &stones,
    };
    let some = Plants::default().cover(&ground);
    let more = Plants {
        creosote: 1.0,
        ..Plants::default()
    }
    .cover(&ground);
    assert!((0.02..0.6).contains(&some.floor), "{some:?}");
    assert!(more.floor > some.floor);
    // Trees of 6 bush heights on the nearest ground reach into the sky.
    let tall = Plants {
        height: 6.0,
        ..Plants::default()
    }
    .cover(&ground);
    assert!(tall.reach > 0.0 && tall.reach > some.reach, "{tall:?}");
    let bushes = Plants {
        joshua: 0,
        ..Plants::default()
    }
    .cover(&ground);
    assert!(
        bushes.reach < 0.0 && bushes.reach < some.reach,
        "{bushes:?}"
    );
    // And the picture agrees: no tree's top rises higher than the model
    // says.
    let plants = placed(
        &s,
        &Plants {
            height: 6.0,
            ..Plants::default()
        },
    );
    let top = trees(&plants).map(|p| p.body[1]).min().unwrap() as f32 / 360.0;
    assert!(s.horizon - top <= tall.reach + 0.01, "{top} {tall:?}");
}

/// The bits of the plants of `plants` in `scene` drawn at `w` × `h` over
/// a background that varies, band by band, by the shaders of `build`
/// (`None`: pixel by pixel).
fn painted(scene: &Scene, plants: &Plants, (w, h): (u32, u32), build: Option<Build>) -> Vec<u32> {
    let plan = crate::compose::Plan::new(scene).unwrap();
    let frame = plan.frame(w, h);
    let draw = PlantsDraw::new(plants, &frame);
    crate::layers::paint_bands(w, h, |band| draw.draw_with(band, build))
}

/// Every build of the shaders paints the bits of the per-pixel reference:
/// bushes large and small, leaning, lit at every time of day, opaque and
/// translucent.
#[test]
fn every_build_paints_the_bits_of_the_reference() {
    let cases = [
        (crate::TimeOfDay::GoldenHour, Plants::default(), (517, 291)),
        (
            crate::TimeOfDay::Noon,
            Plants {
                creosote: 1.0,
                clumped: 1.0,
                joshua: 12,
                lean: 0.9,
                near_size: 0.25,
                opacity: 0.6,
                ..Plants::default()
            },
            (640, 360),
        ),
        (
            crate::TimeOfDay::Dusk,
            Plants {
                creosote: 0.7,
                far_size: 0.002,
                ..Plants::default()
            },
            (1280, 720),
        ),
    ];
    for (time, plants, size) in cases {
        let s = scene(time, 0.3);
        let reference = painted(&s, &plants, size, None);
        for build in Build::all() {
            assert!(
                painted(&s, &plants, size, Some(build)) == reference,
                "{time:?}, {size:?}: {build:?} differs"
            );
        }
    }
}
