//! "New scene" stays within the presets' envelope: over 200 rolls from each
//! preset, at least 95% leave the sky alone (rocks change at most 1% of the
//! pixels above the horizon) and cover 1–60% of the floor with stones,
//! measured on small renders with the rocks shown and hidden.
//!
//! `PLAYA_ROLLS_REPORT=DIR` also writes every roll's picture into `DIR` and
//! prints each roll's figures, for looking at contact sheets.

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

#[test]
fn new_scenes_stay_inside_the_presets_envelope() {
    let report = std::env::var_os("PLAYA_ROLLS_REPORT").map(std::path::PathBuf::from);
    let rolls = 200;
    let locks = Locks::default();
    let mut failures = Vec::new();
    for p in presets_with_rocks() {
        let preset = p.scene().unwrap();
        let covers: Vec<(f64, f64)> = {
            use rayon::prelude::*;
            (0..rolls)
                .into_par_iter()
                .map(|roll| {
                    let scene = randomize::new_scene(&preset, &locks, roll);
                    let cover = rock_cover(&scene);
                    if let Some(dir) = &report {
                        let (w, h) = SIZE;
                        playa::render(&scene, w, h)
                            .unwrap()
                            .save(dir.join(format!("{}-{roll:03}.png", p.name)))
                            .unwrap();
                    }
                    cover
                })
                .collect()
        };
        let outside: Vec<_> = covers
            .iter()
            .enumerate()
            .filter(|(_, c)| !inside(**c))
            .collect();
        if report.is_some() {
            for (roll, (sky, floor)) in covers.iter().enumerate() {
                println!(
                    "{} roll {roll}: sky {:.2}% floor {:.1}%{}",
                    p.name,
                    sky * 100.0,
                    floor * 100.0,
                    if inside((*sky, *floor)) {
                        ""
                    } else {
                        "  OUTSIDE"
                    }
                );
            }
        }
        let share = 1.0 - outside.len() as f64 / rolls as f64;
        println!("{}: {:.1}% of {rolls} rolls inside", p.name, share * 100.0);
        if share < 0.95 {
            failures.push(format!(
                "{}: only {:.1}% inside; outside: {:?}",
                p.name,
                share * 100.0,
                &outside[..outside.len().min(8)]
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Whether the tent (where there is one) stands whole inside the frame and
/// the sun inside the sky: the parts of the envelope that are not stones.
fn framed(scene: &Scene) -> bool {
    let sun = (0.0..=1.0).contains(&scene.sun_x);
    sun && scene.layers.iter().all(|l| match l {
        Layer::Tent(t) if t.visible => {
            let (cx, half) = (t.x * scene.aspect, t.size / 2.0);
            cx - half >= 0.0 && cx + half <= scene.aspect && t.y <= 1.0 && t.y > scene.horizon
        }
        _ => true,
    })
}

#[test]
fn varied_scenes_stay_inside_the_presets_envelope() {
    use rayon::prelude::*;
    let rolls = 30;
    let locks = Locks::default();
    let mut failures = Vec::new();
    for strength in [0.25, 0.5, 1.0] {
        for p in presets_with_rocks() {
            let preset = p.scene().unwrap();
            let outside: Vec<_> = (0..rolls)
                .into_par_iter()
                .filter_map(|roll| {
                    let scene = randomize::vary(&preset, &locks, roll, strength);
                    let cover = rock_cover(&scene);
                    (!inside(cover) || !framed(&scene)).then_some((roll, cover))
                })
                .collect();
            let share = 1.0 - outside.len() as f64 / rolls as f64;
            println!(
                "vary {strength} from {}: {:.1}% of {rolls} rolls inside",
                p.name,
                share * 100.0
            );
            if share < 0.95 {
                failures.push(format!(
                    "vary {strength} from {}: only {:.1}% inside; outside: {outside:?}",
                    p.name,
                    share * 100.0
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn new_scenes_are_framed() {
    let locks = Locks::default();
    for p in playa::scene::presets::PRESETS {
        let preset = p.scene().unwrap();
        for roll in 0..100 {
            let scene = randomize::new_scene(&preset, &locks, roll);
            assert!(framed(&scene), "{} roll {roll}: {scene:?}", p.name);
        }
    }
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
