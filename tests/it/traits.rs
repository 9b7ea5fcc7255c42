//! A roll's traits: the census of 2,000 New scene rolls matches the
//! tables' weights within sampling error; `playa random --traits` and
//! `--census` say them; a picture carries them in a text chunk.

use playa::Scene;
use playa::explore::randomize::{self, Locks, Traits, traits};
use rayon::prelude::*;

#[test]
fn the_census_of_2000_rolls_matches_the_weights() {
    let start = Scene::default();
    let rolled: Vec<Traits> = (0..2000u64)
        .into_par_iter()
        .map(|r| Traits::of(&randomize::new_scene(&start, &Locks::default(), r)))
        .collect();
    let n = rolled.len() as f64;
    let expected = traits::expected_shares();
    let mut off = Vec::new();
    for (i, axis) in traits::AXES.iter().enumerate() {
        for (v, choice) in axis.choices.iter().enumerate() {
            let share = rolled.iter().filter(|t| usize::from(t[i]) == v).count() as f64 / n;
            let p = expected[i][v];
            // Four standard errors: about one chance in 16,000 per value of
            // failing by bad luck, so the 60-odd values pass together.
            let error = 4.0 * (p * (1.0 - p) / n).sqrt() + 1.0 / n;
            if (share - p).abs() > error {
                off.push(format!(
                    "{} {}: {:.1}% of rolls, {:.1}% expected",
                    axis.key,
                    choice.name,
                    share * 100.0,
                    p * 100.0
                ));
            }
        }
    }
    assert!(off.is_empty(), "{off:#?}");
    // Rare values are rare, and come up.
    let rare = &expected[traits::RARE];
    assert!(rare[1..].iter().all(|&p| p > 0.005 && p < 0.05), "{rare:?}");
}
