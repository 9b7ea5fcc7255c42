//! How many of New scene's rolls are worth keeping (issue 59): each roll
//! rendered at 320×180 and measured by `playa::explore::keepers` (a black,
//! dim or empty ground, or a murky picture); prints the share flagged, each
//! kind's count, and the flagged rolls with their figures.
//! `cargo run --release --example keepers -- [--preset NAME] [--rolls A..B]
//! [--vary STRENGTH]` (default: rolls 7000..7240 of New scene from
//! death-valley, rolls the figures were not tuned on).

use std::collections::BTreeMap;
use std::ops::Range;

use anyhow::{Context, Result};
use clap::Parser;
use playa::explore::keepers::{self, Weakness};
use playa::explore::randomize::{Locks, new_scene, vary};
use playa::scene::Scene;
use rayon::prelude::*;

#[derive(Parser)]
struct Args {
    /// The preset New scene starts from.
    #[arg(long, default_value = "death-valley")]
    preset: String,
    /// The rolls, A..B.
    #[arg(long, default_value = "7000..7240", value_parser = parse_range)]
    rolls: Range<u64>,
    /// Measure Vary of each roll at this strength instead.
    #[arg(long)]
    vary: Option<f32>,
}

fn parse_range(s: &str) -> Result<Range<u64>, String> {
    let (a, b) = s.split_once("..").ok_or("expected A..B")?;
    Ok(a.parse().map_err(|e| format!("{e}"))?..b.parse().map_err(|e| format!("{e}"))?)
}

fn main() -> Result<()> {
    let args = Args::parse();
    let base = playa::scene::presets::find(&args.preset)
        .with_context(|| format!("no preset named {}", args.preset))?
        .scene()?;
    let locks = Locks::default();
    let rolls: Vec<u64> = args.rolls.clone().collect();
    let measured: Vec<(u64, Scene, keepers::Looks)> = rolls
        .par_iter()
        .map(|&roll| {
            let rolled = new_scene(&base, &locks, roll);
            let scene = match args.vary {
                Some(strength) => vary(&rolled, &locks, roll, strength),
                None => rolled,
            };
            let looks = keepers::looks(&scene)?;
            Ok((roll, scene, looks))
        })
        .collect::<Result<_>>()?;
    let mut counts: BTreeMap<Weakness, usize> = BTreeMap::new();
    let mut flagged = Vec::new();
    for (roll, scene, looks) in &measured {
        if let Some(w) = looks.weakness() {
            *counts.entry(w).or_default() += 1;
            let traits = playa::traits::Traits::of(scene).sentence();
            flagged.push(format!(
                "  roll {roll}: {} (mean {:.1}, detail {:.1}, spread {:.1}): {traits}",
                w.name(),
                looks.mean,
                looks.detail,
                looks.spread
            ));
        }
    }
    let n = measured.len();
    println!(
        "{} of {n} rolls flagged ({:.1}%){}",
        flagged.len(),
        100.0 * flagged.len() as f64 / n.max(1) as f64,
        counts
            .iter()
            .map(|(w, c)| format!(", {c} {}", w.name()))
            .collect::<String>()
    );
    for line in flagged {
        println!("{line}");
    }
    Ok(())
}
