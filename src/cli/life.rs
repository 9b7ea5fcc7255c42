//! `playa life`: the rock automaton on its own, RLE in and out.

use std::path::PathBuf;

use clap::Args;

use super::{CliError, parse_size};
use playa::life::{clumps, rle};
use playa::{BitGrid, Life, Rule, Topology};

/// Arguments of `playa life`.
#[derive(Debug, Args)]
pub struct LifeArgs {
    /// Grid size WxH. Default: 256x256, or the pattern's own size with --in.
    #[arg(long, value_parser = parse_size)]
    size: Option<(usize, usize)>,
    /// Seed of the random soup.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Share of live cells in the soup, 0 to 1.
    #[arg(long, default_value_t = playa::life::soup::DEFAULT_DENSITY,
          allow_negative_numbers = true)]
    density: f64,
    /// Life-like rule: B3/S23, b3/s23 or Golly's S/B form 23/3.
    /// Default: the pattern's rule with --in, else B3/S23.
    #[arg(long)]
    rule: Option<String>,
    /// Generations to run.
    #[arg(long, default_value_t = 8)]
    gens: u32,
    /// Bounded plane (dead outside) instead of the default torus.
    #[arg(long)]
    bounded: bool,
    /// Start from this RLE pattern, top-left at cell (0, 0), instead of a soup.
    #[arg(long = "in", value_name = "PATTERN.rle")]
    input: Option<PathBuf>,
    /// Write the result here instead of standard output (RLE text; a name
    /// ending in a picture or video format's extension, such as .png, is
    /// refused).
    #[arg(long, value_name = "RESULT.rle")]
    out: Option<PathBuf>,
    /// Print generation, population and clump count per generation (to stderr
    /// when the grid goes to stdout).
    #[arg(long)]
    stats: bool,
}

/// Largest number of generations `playa life` runs.
pub const MAX_GENERATIONS: u32 = 1_000_000;

/// Runs `playa life`: steps a seeded soup or an RLE pattern the asked
/// number of generations and writes the grid as RLE; out-of-range
/// arguments are usage errors.
pub fn run(args: LifeArgs) -> Result<(), CliError> {
    let usage = |e: playa::Error| CliError::Usage(e.to_string());
    if let Some(out) = &args.out {
        super::check_not_other_format(
            "--out",
            out,
            &[],
            "playa life writes an RLE pattern (e.g. result.rle)",
        )?;
    }
    if !(0.0..=1.0).contains(&args.density) {
        return Err(CliError::Usage(format!(
            "--density {} must be between 0 and 1",
            args.density
        )));
    }
    if args.gens > MAX_GENERATIONS {
        return Err(CliError::Usage(format!(
            "--gens {} is above the limit of {MAX_GENERATIONS}",
            args.gens
        )));
    }
    let arg_rule = match &args.rule {
        Some(text) => Some(text.parse::<Rule>().map_err(usage)?),
        None => None,
    };
    let (grid, pattern_rule) = match &args.input {
        Some(path) => {
            let pattern = rle::read_file(path)?;
            let (w, h) = args
                .size
                .unwrap_or((pattern.grid.width(), pattern.grid.height()));
            let mut grid = BitGrid::new(w, h).map_err(usage)?;
            grid.paste(&pattern.grid, 0, 0);
            (grid, pattern.rule)
        }
        None => {
            let (w, h) = args.size.unwrap_or((256, 256));
            (
                playa::life::soup(w, h, args.density, args.seed).map_err(usage)?,
                None,
            )
        }
    };
    let rule = arg_rule.or(pattern_rule).unwrap_or_default();
    let topology = if args.bounded {
        Topology::Bounded
    } else {
        Topology::Torus
    };
    let life = Life::new(rule, topology);
    let mut stats_lines = Vec::new();
    let result = life.run_with(&grid, args.gens, |g, grid| {
        if args.stats {
            let clumps = clumps::find(grid, topology).len();
            stats_lines.push(format!(
                "generation {g:>6}  population {:>10}  clumps {clumps:>8}",
                grid.population()
            ));
        }
    });
    let comment = format!(
        "Made by playa {}: {} generations of {rule}{}",
        env!("CARGO_PKG_VERSION"),
        args.gens,
        if args.bounded {
            " on a bounded plane"
        } else {
            " on a torus"
        }
    );
    let text = rle::to_string(&result, rule, &[comment]);
    match &args.out {
        Some(path) => {
            playa::base::atomic::write_atomically(path, text.as_bytes())?;
            for line in &stats_lines {
                outln!("{line}")?;
            }
        }
        None => {
            for line in &stats_lines {
                errln!("{line}");
            }
            super::write_stdout(format_args!("{text}"))?;
        }
    }
    Ok(())
}
