//! `playa sheet`: many scenes — seeds, rolls or a setting's values — as
//! labelled thumbnails on one contact sheet (see [`playa::explore::sheet`]).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::random::{locks, parse_strength};
use super::render::load;
use super::{CliError, parse_range, parse_size};
use playa::error::{clip, quote};
use playa::explore::randomize;
use playa::explore::sheet::{self, Cell, Layout};
use playa::explore::tweak::Tweaks;
use playa::source::Source;
use playa::{Scene, scene::presets};

/// Arguments of `playa sheet`.
///
/// Values are read here rather than by clap, so that every bad value is
/// one line naming the flag.
#[derive(Debug, Args)]
pub struct SheetArgs {
    /// Scenes: preset files (.ron), pictures made by playa (.png), shipped
    /// presets' names, share codes or links holding one. Default: the
    /// death-valley preset.
    #[arg(value_name = "PRESET.ron|PICTURE.png|NAME|CODE")]
    inputs: Vec<String>,
    /// A thumbnail per seed: A..B leaves B out (0..16 is 0 to 15), A..=B
    /// includes it.
    #[arg(
        long,
        value_name = "A..B|A..=B",
        conflicts_with = "rolls",
        allow_hyphen_values = true
    )]
    seeds: Option<String>,
    /// A thumbnail per roll of "New scene" (as `playa random --roll N`), or
    /// of "Vary" with --vary: A..B leaves B out, A..=B includes it.
    #[arg(long, value_name = "A..B|A..=B", allow_hyphen_values = true)]
    rolls: Option<String>,
    /// With --rolls: vary each scene by STRENGTH, 0 to 1, instead of making
    /// new ones.
    #[arg(
        long,
        value_name = "STRENGTH",
        requires = "rolls",
        allow_hyphen_values = true
    )]
    vary: Option<String>,
    /// With --rolls: keep a group as it is (seed, light, automaton or a
    /// layer kind); may be given more than once. The spiral is locked
    /// unless unlocked.
    #[arg(long, value_name = "GROUP", requires = "rolls")]
    lock: Vec<String>,
    /// With --rolls: let a group locked by default (the spiral) be rolled.
    #[arg(long, value_name = "GROUP", requires = "rolls")]
    unlock: Vec<String>,
    /// Set a setting, KEY=VALUE, as `playa render --set` does (after the
    /// roll with --rolls). A sweep makes a thumbnail per value, instead of
    /// --seeds or --rolls: rocks.roughness=0..=1:5 is 5 values from 0 to 1,
    /// both included; 0..1:4 is 4 values from 0 in steps of 1/4, 1 left
    /// out; or v1,v2,....
    #[arg(long = "set", value_name = "KEY=VALUE", allow_hyphen_values = true)]
    set: Vec<String>,
    /// Thumbnails per row, 1 to 64. Default: 4.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    cols: Option<String>,
    /// A thumbnail's size WxH, each side up to 4096. Default: 320x180.
    #[arg(long, value_name = "WxH")]
    size: Option<String>,
    /// The sheet's file (.png). Written whole or not at all.
    #[arg(long, value_name = "FILE.png", required = true)]
    out: PathBuf,
    /// Overwrite an existing file (it is left alone otherwise).
    #[arg(long)]
    force: bool,
    /// Thumbnails rendered at once (threads). Default: all cores.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
}

/// Most columns of a sheet.
const MAX_COLS: u32 = 64;

/// What the thumbnails of one input are.
#[derive(Clone, Copy)]
enum Axis {
    /// The scene as it is.
    Once,
    /// These seeds, first and last included.
    Seeds(u64, u64),
    /// These rolls, first and last included, of New scene or Vary.
    Rolls(u64, u64, Option<f32>),
}

/// Runs `playa sheet`: renders every thumbnail and writes the sheet.
pub fn run(args: SheetArgs) -> Result<(), CliError> {
    let usage = CliError::Usage;
    let tweaks = Tweaks::parse(&args.set).map_err(|e| usage(format!("--set {e}")))?;
    let axis = axis_of(&args)?;
    if let (Some(sweep), false) = (tweaks.sweep(), matches!(axis, Axis::Once)) {
        return Err(usage(format!(
            "--set {} is a sweep, and so is --{}: a sheet shows one at a time",
            sweep.key(),
            if args.seeds.is_some() {
                "seeds"
            } else {
                "rolls"
            }
        )));
    }
    if tweaks.sets_seed() && args.seeds.is_some() {
        return Err(usage(
            "--set seed and --seeds both give the seed: give one".into(),
        ));
    }
    let locks = locks(&args.lock, &args.unlock).map_err(usage)?;
    let cols = cols_of(&args)?;
    let thumb = thumb_of(&args)?;
    if !args
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        return Err(usage(format!(
            "--out {}: a sheet is a PNG file, ending in .png",
            args.out.display()
        )));
    }
    let count = match axis {
        Axis::Once => 1,
        // Without wrapping: `0..=18446744073709551615` is no 0 rolls.
        Axis::Seeds(a, b) | Axis::Rolls(a, b, _) => (b - a).saturating_add(1),
    }
    .saturating_mul(tweaks.sweep().map_or(1, |s| s.len() as u64))
    .saturating_mul(args.inputs.len().max(1) as u64);
    if count > sheet::MAX_CELLS as u64 {
        return Err(usage(format!(
            "the sheet would have {count} thumbnails, more than the limit of {}",
            sheet::MAX_CELLS
        )));
    }
    // The sheet's size, before any scene is rolled or thumbnail rendered.
    let layout = Layout { cols, thumb };
    sheet::check(count as usize, &layout).map_err(|e| usage(e.to_string()))?;

    let cells = cells_of(&args, axis, &tweaks, &locks)?;

    if let Some(kind) = super::render::not_a_picture_file(&args.out) {
        return Err(CliError::Usage(format!(
            "--out {}: {kind} is there, not a picture",
            args.out.display()
        )));
    }
    if args.out.exists() && !args.force {
        outln!(
            "{} exists, left alone (--force overwrites)",
            args.out.display()
        )?;
        return Ok(());
    }
    // What a killed run writing this sheet left.
    playa::base::atomic::remove_stale_of(&args.out);
    let pool = super::thread_pool(args.jobs)?;
    let start = Instant::now();
    pool.install(|| sheet::write_file(&args.out, &cells, &layout))?;
    outln!(
        "{} thumbnails of {}x{} in {} columns in {}: {}",
        cells.len(),
        thumb.0,
        thumb.1,
        cols.min(cells.len() as u32),
        playa::output::picture::duration_text(start.elapsed()),
        args.out.display()
    )?;
    Ok(())
}

/// What the sheet's thumbnails run through: `--seeds`, `--rolls` (with
/// `--vary`'s strength), or neither (the scenes as they are, or a sweep).
fn axis_of(args: &SheetArgs) -> Result<Axis, CliError> {
    let usage = CliError::Usage;
    Ok(match (&args.seeds, &args.rolls) {
        (Some(text), _) => {
            let (a, b) = parse_range("--seeds", text).map_err(usage)?;
            Axis::Seeds(a, b)
        }
        (None, Some(text)) => {
            let (a, b) = parse_range("--rolls", text).map_err(usage)?;
            let strength = args.vary.as_deref().map(parse_strength).transpose();
            Axis::Rolls(a, b, strength.map_err(usage)?)
        }
        (None, None) => Axis::Once,
    })
}

/// `--cols`, checked.
fn cols_of(args: &SheetArgs) -> Result<u32, CliError> {
    let usage = CliError::Usage;
    Ok(match &args.cols {
        None => sheet::DEFAULT_COLS,
        Some(text) => text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|c| (1..=MAX_COLS).contains(c))
            .ok_or_else(|| {
                usage(format!(
                    "--cols {} must be a whole number from 1 to {MAX_COLS}",
                    quote(text)
                ))
            })?,
    })
}

/// `--size`, a thumbnail's, checked.
fn thumb_of(args: &SheetArgs) -> Result<(u32, u32), CliError> {
    let usage = CliError::Usage;
    Ok(match &args.size {
        None => sheet::DEFAULT_THUMB,
        Some(text) => {
            let (w, h) = parse_size(text).map_err(|e| usage(format!("--size: {e}")))?;
            let max = sheet::MAX_THUMB_SIDE as usize;
            if w > max || h > max {
                return Err(usage(format!(
                    "--size {}: a thumbnail is at most {max} a side",
                    quote(text)
                )));
            }
            let (w, h) = (w as u32, h as u32);
            playa::compose::window::check_aspect(w, h)
                .map_err(|e| usage(format!("--size: {e}")))?;
            (w, h)
        }
    })
}

/// The sheet's cells, input by input: each scene along `axis`, `tweaks`
/// applied, rolls keeping `locks`, labelled (with the input's name when
/// there are several).
fn cells_of(
    args: &SheetArgs,
    axis: Axis,
    tweaks: &Tweaks,
    locks: &randomize::Locks,
) -> Result<Vec<Cell>, CliError> {
    let usage = CliError::Usage;
    let inputs = if args.inputs.is_empty() {
        vec![presets::DEFAULT.to_string()]
    } else {
        args.inputs.clone()
    };
    let named = inputs.len() > 1;
    let mut cells = Vec::new();
    for input in &inputs {
        let (name, loaded) = load(&Source::from_arg(input)?)?;
        let prefix = if named {
            format!("{name} ")
        } else {
            String::new()
        };
        let set = |scene: &Scene| {
            tweaks
                .variants(scene)
                .map_err(|e| usage(format!("{}: --set {e}", clip(input))))
        };
        match axis {
            Axis::Once => {
                for v in set(&loaded.scene)? {
                    let label = v
                        .label()
                        .unwrap_or_else(|| format!("seed {}", v.scene.seed));
                    cells.push(Cell {
                        label: format!("{prefix}{label}"),
                        scene: v.scene,
                    });
                }
            }
            Axis::Seeds(a, b) => {
                let scene = tweaks
                    .apply(&loaded.scene)
                    .map_err(|e| usage(format!("{}: --set {e}", clip(input))))?;
                for seed in a..=b {
                    cells.push(Cell {
                        scene: Scene {
                            seed,
                            ..scene.clone()
                        },
                        label: format!("{prefix}seed {seed}"),
                    });
                }
            }
            Axis::Rolls(a, b, strength) => {
                if let Some(why) = randomize::cannot_roll(&loaded.scene, locks) {
                    return Err(usage(format!("{}: {why}", clip(input))));
                }
                for roll in a..=b {
                    let rolled = match strength {
                        Some(s) => randomize::vary(&loaded.scene, locks, roll, s),
                        None => randomize::new_scene(&loaded.scene, locks, roll),
                    };
                    // (Only a --set is to blame: a roll keeps the scene's limits.)
                    let scene = tweaks.apply(&rolled).map_err(|e| {
                        if args.set.is_empty() {
                            CliError::Failed(e.into())
                        } else {
                            usage(format!("{}: --set {e}", clip(input)))
                        }
                    })?;
                    cells.push(Cell {
                        scene,
                        label: format!("{prefix}roll {roll}"),
                    });
                }
            }
        }
    }
    Ok(cells)
}
