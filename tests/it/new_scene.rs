//! "New scene" and "Vary" make showable pictures of many kinds: over 240
//! held-out rolls each, at least 95% pass the layers' own cover estimates
//! (`randomize::flaws`) and, measured on small renders, leave the sky free
//! of stones, cover 1–60% of the floor with them where there are stones,
//! and are neither black nor empty; at least 9 kinds of layer each appear
//! in 5% of rolls.
//!
//! `PLAYA_ROLLS_REPORT=DIR` is gone with the per-preset loop: look at
//! rolls with `playa sheet --rolls A..B` instead.

use playa::explore::randomize::{self, Locks};
use playa::{Layer, Scene};

/// The size the figures are measured at.
const SIZE: (u32, u32) = (320, 180);

/// The change in a colour channel (of 255) that counts a pixel as covered:
/// faint fringes of the contact shadows do not.
const VISIBLE: u8 = 8;

/// Rocks' share of the pixels above the horizon, and of those below it:
/// the pixels that differ between `scene` with its rocks shown and hidden.
fn rock_cover(scene: &Scene) -> (f64, f64) {
    let (w, h) = SIZE;
    let shown = playa::render(scene, w, h).unwrap();
    let mut bare = scene.clone();
    for layer in &mut bare.layers {
        if let Layer::Rocks(r) = layer {
            r.visible = false;
        }
    }
    let hidden = playa::render(&bare, w, h).unwrap();
    let horizon = (scene.horizon * h as f32).floor() as u32;
    let (mut sky, mut floor) = (0u64, 0u64);
    for y in 0..h {
        for x in 0..w {
            let (a, b) = (shown.get_pixel(x, y).0, hidden.get_pixel(x, y).0);
            let diff = (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap();
            if diff >= VISIBLE {
                if y < horizon {
                    sky += 1;
                } else {
                    floor += 1;
                }
            }
        }
    }
    (
        sky as f64 / (horizon * w) as f64,
        floor as f64 / ((h - horizon) * w) as f64,
    )
}

/// The presets whose stones are the rocks layer's (the Racetrack's stones
/// are its own layer's, with their trails): the envelope is the rocks'.
fn presets_with_rocks() -> impl Iterator<Item = &'static playa::scene::presets::Preset> {
    playa::scene::presets::PRESETS.iter().filter(|p| {
        p.scene()
            .unwrap()
            .layers
            .iter()
            .any(|l| matches!(l, Layer::Rocks(r) if r.visible))
    })
}

/// Whether a scene's rocks are within the presets' envelope.
fn inside((sky, floor): (f64, f64)) -> bool {
    sky <= 0.01 && (0.01..=0.60).contains(&floor)
}

#[test]
fn the_presets_are_inside_the_envelope() {
    for p in presets_with_rocks() {
        let cover = rock_cover(&p.scene().unwrap());
        eprintln!("{}: {cover:?}", p.name);
        assert!(inside(cover), "{}: {cover:?}", p.name);
    }
}

/// What is wrong with a rolled scene's picture, if anything: the flaws
/// its layers' cover estimates show ([`randomize::flaws`]); measured on a
/// small picture, stones over the sky or outside 1–60% of the floor; a
/// black picture (below the horizon, nothing readable) or an empty one
/// (one flat colour).
fn showable(scene: &Scene) -> Result<(), String> {
    let flaws = randomize::flaws(scene);
    if !flaws.is_empty() {
        return Err(flaws.join("; "));
    }
    let has_rocks = scene
        .layers
        .iter()
        .any(|l| matches!(l, Layer::Rocks(r) if r.visible));
    if has_rocks {
        let cover = rock_cover(scene);
        if !inside(cover) {
            return Err(format!("stones measured at {cover:?} (sky, floor)"));
        }
    }
    let (w, h) = (160, 90);
    let picture = playa::render(scene, w, h).unwrap();
    let luma = |p: &image::Rgba<u8>| {
        0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2])
    };
    let horizon = ((scene.horizon * h as f32) as u32).min(h - 1);
    let ground: Vec<f64> = (horizon..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| luma(picture.get_pixel(x, y)))
        .collect();
    let mean = ground.iter().sum::<f64>() / ground.len() as f64;
    if mean < DARKEST_GROUND {
        return Err(format!(
            "a black picture: the ground's mean is {mean:.1} of 255"
        ));
    }
    let all: Vec<f64> = picture.pixels().map(luma).collect();
    let m = all.iter().sum::<f64>() / all.len() as f64;
    let spread = (all.iter().map(|v| (v - m).powi(2)).sum::<f64>() / all.len() as f64).sqrt();
    if spread < FLATTEST {
        return Err(format!(
            "an empty picture: its brightness spreads {spread:.1}"
        ));
    }
    Ok(())
}

/// The darkest the ground below the horizon may be on average, of 255 in
/// sRGB: a moonlit floor is about 40, a starlit one about 20.
const DARKEST_GROUND: f64 = 10.0;

/// The least spread of brightness a picture may have, of 255: a picture
/// flatter than that shows nothing.
const FLATTEST: f64 = 4.0;

/// The rolls measured: held out from the ones the tables were tuned on.
const ROLLS: std::ops::Range<u64> = 5000..5240;

/// Fails unless at least 95% of `scenes` are showable, listing the others.
fn mostly_showable(what: &str, scenes: &[(u64, Scene)]) {
    use rayon::prelude::*;
    let bad: Vec<String> = scenes
        .par_iter()
        .filter_map(|(roll, s)| showable(s).err().map(|e| format!("roll {roll}: {e}")))
        .collect();
    let share = 1.0 - bad.len() as f64 / scenes.len() as f64;
    println!(
        "{what}: {:.1}% of {} inside; {bad:#?}",
        share * 100.0,
        scenes.len()
    );
    assert!(
        share >= 0.95,
        "{what}: only {:.1}% inside: {bad:#?}",
        share * 100.0
    );
}

#[test]
fn new_scenes_are_showable() {
    use rayon::prelude::*;
    let start = Scene::default();
    let scenes: Vec<(u64, Scene)> = ROLLS
        .into_par_iter()
        .map(|r| (r, randomize::new_scene(&start, &Locks::default(), r)))
        .collect();
    mostly_showable("New scene", &scenes);
}

#[test]
fn varied_scenes_are_showable() {
    use rayon::prelude::*;
    let start = Scene::default();
    for strength in [1.0, 0.5, 0.2] {
        let scenes: Vec<(u64, Scene)> = ROLLS
            .step_by(2)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|r| {
                let rolled = randomize::new_scene(&start, &Locks::default(), r);
                (r, randomize::vary(&rolled, &Locks::default(), r, strength))
            })
            .collect();
        mostly_showable(&format!("Vary {strength} of New scene"), &scenes);
    }
    // And from each preset as it ships.
    let scenes: Vec<(u64, Scene)> = playa::scene::presets::PRESETS
        .par_iter()
        .flat_map(|p| {
            let scene = p.scene().unwrap();
            (0..10u64)
                .map(|r| (r, randomize::vary(&scene, &Locks::default(), r, 0.5)))
                .collect::<Vec<_>>()
        })
        .collect();
    mostly_showable("Vary 0.5 of the presets", &scenes);
}

#[test]
fn new_scenes_are_many_kinds_of_picture() {
    use std::collections::{BTreeMap, BTreeSet};
    let start = Scene::default();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut sets = BTreeSet::new();
    for roll in ROLLS {
        let s = randomize::new_scene(&start, &Locks::default(), roll);
        let set: BTreeSet<&str> = s
            .layers
            .iter()
            .filter(|l| l.visible() && !matches!(l, Layer::Spiral(_)))
            .map(|l| l.name())
            .collect();
        for k in &set {
            *kinds.entry(k).or_default() += 1;
        }
        sets.insert(set);
    }
    let common = kinds.values().filter(|&&n| n * 20 >= ROLLS.count()).count();
    println!("kinds: {kinds:?}; {} sets of kinds", sets.len());
    assert!(common >= 9, "only {common} kinds in 5% of rolls: {kinds:?}");
    assert!(sets.len() >= 20, "only {} sets of kinds", sets.len());
}

/// Mean absolute difference of two pictures' channels, of 255.
fn distance(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    let sum: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.as_raw().len() as f64
}

#[test]
fn the_stronger_the_vary_the_farther_the_picture() {
    use rayon::prelude::*;
    let (w, h) = (160, 90);
    let locks = Locks::default();
    let strengths = [0.0, 0.15, 0.4, 1.0];
    let mut means = Vec::new();
    for strength in strengths {
        let total: f64 = playa::scene::presets::PRESETS
            .par_iter()
            .map(|p| {
                let scene = p.scene().unwrap();
                let base = playa::render(&scene, w, h).unwrap();
                (0..12)
                    .map(|roll| {
                        let v = randomize::vary(&scene, &locks, roll, strength);
                        distance(&base, &playa::render(&v, w, h).unwrap())
                    })
                    .sum::<f64>()
            })
            .sum();
        means.push(total / (12 * playa::scene::presets::PRESETS.len()) as f64);
    }
    println!("mean pixel distance by strength {strengths:?}: {means:.2?}");
    assert!(
        means.windows(2).all(|w| w[0] < w[1]),
        "the distance grows with the strength: {means:?}"
    );
}
