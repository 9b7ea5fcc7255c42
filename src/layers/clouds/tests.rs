//! The clouds' tests.

use super::*;
use crate::compose::Plan;
use crate::scene::Scene;

/// The deck's noise and the clouds' shapes are written to vectorize,
/// built for AVX2 where the CPU has it: every build gives the bits of
/// the portable one.
#[test]
fn every_build_gives_the_bits_of_the_portable_one() {
    let clouds = Clouds {
        streaks: 0.6,
        cover: 0.7,
        ..Clouds::default()
    };
    let deck = clouds.deck(7, [0.6, 0.8]);
    let across: Vec<f32> = (0..999).map(|i| (i as f32 - 500.0) * 0.137).collect();
    let away: Vec<f32> = (0..999).map(|i| 1.0 + (i % 97) as f32 * 0.41).collect();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let mut portable = Vec::new();
    deck.noises(Build::Portable, &across, &away, OCTAVES, &mut portable);
    assert!(portable.iter().all(|n| (0.0..=1.0).contains(n)));
    for build in Build::all() {
        let mut other = Vec::new();
        deck.noises(build, &across, &away, OCTAVES, &mut other);
        assert_eq!(bits(&other), bits(&portable), "{build:?}: the deck's noise");
    }
    // The shapes of a row of the sky, from the deck's samples.
    let scene = Scene::default();
    let plan = Plan::new(&scene).unwrap();
    let (w, h) = (301, 170);
    let draw = clouds.prepare_draw(&plan.frame(w, h));
    let (samples, cols) = draw.samples((0, w), (0, 40));
    let column: Vec<u32> = (0..w).map(|x| x / DECK_STEP_X).collect();
    let tx: Vec<f32> = (0..w)
        .map(|x| (x % DECK_STEP_X) as f32 / DECK_STEP_X as f32)
        .collect();
    for y in [0, 1, 17, 38] {
        let shapes = |build: Build| {
            let (mut density, mut thick) = (vec![0.0; w as usize], vec![0.0; w as usize]);
            draw.shapes(
                build,
                &samples,
                cols,
                (0, y),
                &column,
                &tx,
                (&mut density, &mut thick),
            );
            (bits(&density), bits(&thick))
        };
        let portable = shapes(Build::Portable);
        for build in Build::all() {
            assert_eq!(shapes(build), portable, "{build:?}: the shapes of row {y}");
        }
    }
}
