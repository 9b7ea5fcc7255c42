//! Measures the soup densities worth sliding through for each named rule
//! (`scene::RULE_DENSITIES`): over the presets (their columns and
//! generations, seeds 1 to 3), the densities, in steps of 0.025, at which
//! at least 4 runs in 5 leave a field of clumps: at least 1 cell in 1000
//! alive, at least 10 clumps, none over a tenth of the grid.
//! `cargo run --release --example density_ranges`
use playa::compose::Plan;
use playa::life::clumps;
use playa::scene::RULE_NAMES;

/// The steps of 0.025 from 0 to 1.
const STEPS: usize = 40;

fn main() {
    for (name, rule) in RULE_NAMES {
        let mut passes = [0u32; STEPS + 1];
        let mut runs = 0;
        for preset in playa::scene::presets::PRESETS {
            for seed in 1..=3 {
                runs += 1;
                let mut scene = preset.scene().expect("the presets load");
                scene.seed = seed;
                scene.automaton.rule = rule.parse().expect("the named rules parse");
                for (k, passed) in passes.iter_mut().enumerate() {
                    scene.automaton.density = k as f32 / STEPS as f32;
                    let plan = Plan::new(&scene).expect("the presets are valid");
                    let grid = plan.grid();
                    let cells = (grid.width() * grid.height()) as f64;
                    let found = clumps::find(grid, scene.automaton.topology);
                    let largest = found.iter().map(|c| c.cells).max().unwrap_or(0);
                    *passed += u32::from(
                        grid.population() as f64 >= cells / 1000.0
                            && found.len() >= 10
                            && f64::from(largest) <= cells / 10.0,
                    );
                }
            }
        }
        let ks: Vec<usize> = (0..=STEPS).filter(|&k| passes[k] * 5 >= runs * 4).collect();
        match (ks.first(), ks.last()) {
            (Some(lo), Some(hi)) => println!(
                "{name:>12} {rule:<14} {:.3}..={:.3}{}",
                *lo as f32 / STEPS as f32,
                *hi as f32 / STEPS as f32,
                if hi - lo + 1 == ks.len() {
                    ""
                } else {
                    " (with gaps)"
                }
            ),
            _ => println!("{name:>12} {rule:<14} no density leaves a field of clumps"),
        }
    }
}
