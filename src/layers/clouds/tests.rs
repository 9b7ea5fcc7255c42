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
    deck.noises(
        Build::Portable,
        (&across, &away),
        OCTAVES,
        None,
        &mut portable,
    );
    assert!(portable.iter().all(|n| (0.0..=1.0).contains(n)));
    for build in Build::all() {
        let mut other = Vec::new();
        deck.noises(build, (&across, &away), OCTAVES, None, &mut other);
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
                (0, y, 0.0),
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

/// From the second look, small clouds far off thin to a veil rather than
/// break into specks: near the horizon, where the deck's samples skip
/// across its finer octaves, the cloud's cover changes from pixel to
/// pixel less than half as much as when every octave is kept.
#[test]
fn small_far_clouds_thin_to_a_veil_not_specks() {
    let clouds = Clouds {
        size: 0.1,
        cover: 0.4,
        ..Clouds::default()
    };
    let scene = Scene {
        look: crate::base::palette::LOOK_SAND,
        ..Scene::default()
    };
    let plan = Plan::new(&scene).unwrap();
    let (w, h) = (480, 270);
    let frame = plan.frame(w, h);
    let mut draw = clouds.prepare_draw(&frame);
    assert!(draw.antialias, "the second look fades the octaves");
    // The rows from a sixth of the sky's height over the horizon down to
    // it, pixel after pixel.
    let rows = ((frame.horizon * 5.0 / 6.0) as u32, frame.horizon as u32 - 1);
    let speckle = |draw: &CloudsDraw| {
        let (samples, cols) = draw.samples((0, w), rows);
        let column: Vec<u32> = (0..w).map(|x| x / DECK_STEP_X).collect();
        let tx: Vec<f32> = (0..w)
            .map(|x| (x % DECK_STEP_X) as f32 / DECK_STEP_X as f32)
            .collect();
        let (mut density, mut thick) = (vec![0.0; w as usize], vec![0.0; w as usize]);
        let (mut change, mut n) = (0.0, 0);
        for y in rows.0..rows.1 {
            let softer = draw.softer(draw.distance(y as f32 + 0.5));
            let at = (rows.0, y, softer);
            let out = (&mut density[..], &mut thick[..]);
            draw.shapes(Build::Portable, &samples, cols, at, &column, &tx, out);
            change += density.windows(2).map(|p| (p[1] - p[0]).abs()).sum::<f32>();
            n += w - 1;
        }
        change / n as f32
    };
    let veiled = speckle(&draw);
    draw.antialias = false;
    let specks = speckle(&draw);
    assert!(
        specks > 0.02,
        "the far clouds are specks in the first place: {specks}"
    );
    assert!(
        veiled < 0.5 * specks,
        "the far clouds change {veiled} a pixel, against {specks} with every octave"
    );
}
