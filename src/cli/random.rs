//! `playa random`: the scene the app's "New scene" (or "Vary") makes of a
//! scene with a given roll, printed as RON.

use clap::Args;

use super::CliError;
use playa::error::quote;
use playa::explore::randomize::{self, Locks, Traits, traits};
use playa::explore::tweak::{self, Tweaks};
use playa::{Source, scene::presets, share};

/// Arguments of `playa random`.
#[derive(Debug, Args)]
pub struct RandomArgs {
    /// The scene to start from: a preset file (.ron), a picture made by
    /// playa (.png), a shipped preset's name, a share code or a link holding
    /// one. Default: the death-valley preset.
    #[arg(value_name = "PRESET.ron|PICTURE.png|NAME|CODE")]
    input: Option<String>,
    /// The roll: a whole number, decimal or hex (0x1f; the app shows its
    /// rolls in hex). The same input and roll always give the same scene.
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "rolls",
        conflicts_with = "rolls",
        allow_hyphen_values = true
    )]
    roll: Option<String>,
    /// With --census: the rolls counted, A..B (B left out) or A..=B.
    #[arg(
        long,
        value_name = "A..B",
        requires = "census",
        allow_hyphen_values = true
    )]
    rolls: Option<String>,
    /// Count each trait value's share of New scene's --rolls, against the
    /// share its table's weights give it, instead of printing a scene.
    #[arg(long, requires = "rolls", conflicts_with_all = ["vary", "set", "traits"])]
    census: bool,
    /// Print the rolled scene's traits, one per line ("Composition: dune
    /// sea"), instead of its RON.
    #[arg(long)]
    traits: bool,
    /// Vary the scene instead of making a new one: a scene STRENGTH away,
    /// 0 (only the seed changes) to 1.
    #[arg(long, value_name = "STRENGTH", allow_hyphen_values = true)]
    vary: Option<String>,
    /// Keep a group as it is: seed, light, automaton, a layer kind (sky,
    /// ranges, floor, rocks, tent, spiral, ...: its layers as they are), or
    /// a trait (archetype, time, weather, wind, palette, ground,
    /// vegetation, stones, focal, rare: its value, the details rolled).
    /// May be given more than once.
    /// The spiral is locked unless unlocked, as in the app.
    #[arg(long, value_name = "GROUP")]
    lock: Vec<String>,
    /// Let a group be re-rolled that is locked by default (the spiral).
    #[arg(long, value_name = "GROUP")]
    unlock: Vec<String>,
    /// Pin a setting on the result, KEY=VALUE (see `playa render --help`);
    /// may be given more than once.
    #[arg(long = "set", value_name = "KEY=VALUE", allow_hyphen_values = true)]
    set: Vec<String>,
}

/// Runs `playa random`: prints the rolled scene as RON, after comment
/// lines saying what it is, its share code and what changed, in words. `playa render` reads it back.
pub fn run(args: RandomArgs) -> Result<(), CliError> {
    if let Some(rolls) = &args.rolls {
        return census(&args, rolls);
    }
    let roll = parse_roll(args.roll.as_deref().unwrap_or_default()).map_err(CliError::Usage)?;
    let strength = args
        .vary
        .as_deref()
        .map(parse_strength)
        .transpose()
        .map_err(CliError::Usage)?;
    let locks = locks(&args.lock, &args.unlock).map_err(CliError::Usage)?;
    let tweaks = parse_tweaks(&args.set, "playa random makes one scene")?;
    let input = args.input.as_deref().unwrap_or(presets::DEFAULT);
    let start = Source::from_arg(input)?.load()?.scene;
    if let Some(why) = randomize::cannot_roll(&start, &locks) {
        return Err(CliError::Usage(why));
    }
    let rolled = match strength {
        Some(s) => randomize::vary(&start, &locks, roll, s),
        None => randomize::new_scene(&start, &locks, roll),
    };
    // Quantized, as every scene read back is: the RON is then exactly the
    // scene `playa render` reads.
    // (Only a --set is to blame: a roll keeps the scene's limits.)
    let scene = match tweaks.apply(&rolled) {
        Ok(scene) => scene.quantized(),
        Err(e) if args.set.is_empty() => return Err(CliError::Failed(e.into())),
        Err(e) => return Err(CliError::Usage(format!("--set {e}"))),
    };
    let traits = Traits::of(&scene);
    if args.traits {
        outln!("{}", traits.lines().trim_end())?;
        return Ok(());
    }
    let what = match strength {
        Some(s) => format!("Varied {s}"),
        None => "New scene".to_string(),
    };
    outln!(
        "// {what}, roll {roll}, of {}: {}\n// {}\n// Changed: {}\n{}",
        input.replace(['\n', '\r'], " "),
        share::encode(&scene),
        traits.sentence(),
        randomize::describe(&start, &scene),
        scene.to_commented_ron()
    )?;
    Ok(())
}

/// Most rolls a census counts: as many as a batch's pictures (each roll is
/// a scene made, milliseconds of a core).
const MAX_ROLLS: u64 = playa::batch::MAX_JOBS;

/// `playa random --rolls A..B --census`: each trait value's share of New
/// scene's rolls, beside the share its table gives it; a share more than
/// four standard errors off is marked. More than [`MAX_ROLLS`] are refused
/// before anything is made.
fn census(args: &RandomArgs, rolls: &str) -> Result<(), CliError> {
    use rayon::prelude::*;
    let (first, last): (u64, u64) =
        super::parse_range("--rolls", rolls).map_err(CliError::Usage)?;
    // Counted in u128: every roll, 0..=18446744073709551615, is 2⁶⁴ of them.
    let count = u128::from(last - first) + 1;
    if count > u128::from(MAX_ROLLS) {
        return Err(CliError::Usage(format!(
            "--rolls {} is {count} rolls, more than the limit of {MAX_ROLLS}",
            quote(rolls)
        )));
    }
    let locks = locks(&args.lock, &args.unlock).map_err(CliError::Usage)?;
    let input = args.input.as_deref().unwrap_or(presets::DEFAULT);
    let start = Source::from_arg(input)?.load()?.scene;
    let bar = super::progress_bar(count as u64, "rolls");
    let counted: Vec<Traits> = (first..=last)
        .into_par_iter()
        .map(|roll| {
            let traits = Traits::of(&randomize::new_scene(&start, &locks, roll));
            bar.inc(1);
            traits
        })
        .collect();
    bar.finish_and_clear();
    let n = counted.len() as f64;
    let expected = traits::expected_shares();
    outln!(
        "Census of {} New scene rolls ({first}..={last}) of {}{}",
        counted.len(),
        input.replace(['\n', '\r'], " "),
        if locks == Locks::default() {
            String::new()
        } else {
            " (locked groups change the shares; the expected ones assume none)".to_string()
        }
    )?;
    for (i, axis) in traits::AXES.iter().enumerate() {
        outln!(
            "\n{:<24} {:>7} {:>9} {:>7} {:>6}",
            axis.title,
            "weight",
            "expected",
            "share",
            "rolls"
        )?;
        let total: u32 = axis.choices.iter().map(|c| c.weight).sum();
        for (v, choice) in axis.choices.iter().enumerate() {
            let count = counted.iter().filter(|t| usize::from(t[i]) == v).count();
            let share = count as f64 / n;
            let p = expected[i][v];
            let off = (share - p).abs() > 4.0 * (p * (1.0 - p) / n).sqrt() + 0.5 / n;
            outln!(
                "  {:<22} {:>6.1}% {:>8.1}% {:>6.1}% {:>6}{}",
                choice.name,
                100.0 * f64::from(choice.weight) / f64::from(total.max(1)),
                100.0 * p,
                100.0 * share,
                count,
                if off { "  off its weight" } else { "" }
            )?;
        }
    }
    Ok(())
}

/// `--set` values for a command that makes one scene: a sweep is refused,
/// saying `why`.
pub(super) fn parse_tweaks(set: &[String], why: &str) -> Result<Tweaks, CliError> {
    let tweaks = Tweaks::parse(set).map_err(|e| CliError::Usage(format!("--set {e}")))?;
    if let Some(sweep) = tweaks.sweep() {
        return Err(CliError::Usage(format!(
            "--set {}: a sweep of {} values, but {why} (sweeps are for playa render, \
             playa sheet and playa animate)",
            sweep.key(),
            sweep.len()
        )));
    }
    Ok(tweaks)
}

/// Parses a roll: a whole number, decimal or `0x` hex.
pub(super) fn parse_roll(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => t.parse::<u64>(),
    };
    parsed.map_err(|_| {
        // The app shows its rolls as bare hex digits.
        if u64::from_str_radix(t, 16).is_ok() {
            format!(
                "--roll {}: a hex roll starts with 0x, as 0x{t}",
                quote(text)
            )
        } else {
            format!(
                "--roll {} is not a roll: a whole number from 0 to 18446744073709551615, \
                 decimal or hex (0x1f)",
                quote(text)
            )
        }
    })
}

/// Parses `--vary`'s strength, 0 to 1.
pub(super) fn parse_strength(text: &str) -> Result<f32, String> {
    let v: f32 = text
        .trim()
        .parse()
        .map_err(|_| format!("--vary {} is not a number from 0 to 1", quote(text)))?;
    playa::setting::limit::Limit::new("--vary", 0.0, 1.0)
        .check(v.into(), text.trim())
        .map_err(|e| e.to_string())?;
    Ok(v)
}

/// The locks: the app's defaults, with `lock` locked and `unlock`
/// unlocked. An unknown group, or one given both ways, is refused naming
/// the groups.
pub(super) fn locks(lock: &[String], unlock: &[String]) -> Result<Locks, String> {
    let groups: Vec<&str> = [randomize::SEED, randomize::LIGHT, randomize::AUTOMATON]
        .into_iter()
        .chain(tweak::kind_names())
        .chain(traits::AXES.iter().map(|a| a.key))
        .collect();
    let mut locks = Locks::default();
    for (flag, names, locked) in [("--lock", lock, true), ("--unlock", unlock, false)] {
        for name in names {
            if !groups.contains(&name.as_str()) {
                return Err(format!(
                    "{flag} {}: no such group; the groups are {}",
                    quote(name),
                    groups.join(", ")
                ));
            }
            if locked && unlock.contains(name) {
                return Err(format!("--lock {name} and --unlock {name}: give one"));
            }
            locks.set(name, locked);
        }
    }
    Ok(locks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_are_decimal_or_hex() {
        assert_eq!(parse_roll("42"), Ok(42));
        assert_eq!(parse_roll("0x1f"), Ok(31));
        assert_eq!(parse_roll("0XFFFFFFFFFFFFFFFF"), Ok(u64::MAX));
        for bad in ["", "-1", "1.5", "0x", "xyz", "18446744073709551616"] {
            assert!(parse_roll(bad).unwrap_err().starts_with("--roll"), "{bad}");
        }
        assert_eq!(
            parse_roll("00000000000000ff").unwrap_err(),
            "--roll \"00000000000000ff\": a hex roll starts with 0x, as 0x00000000000000ff"
        );
    }

    #[test]
    fn strengths_are_0_to_1() {
        assert_eq!(parse_strength("0.3"), Ok(0.3));
        assert_eq!(parse_strength("1"), Ok(1.0));
        for bad in ["1.5", "-0.1", "NaN", "x"] {
            assert!(parse_strength(bad).unwrap_err().contains("--vary"), "{bad}");
        }
    }

    #[test]
    fn locks_start_from_the_app_s() {
        let l = locks(&[], &[]).unwrap();
        assert_eq!(l, Locks::default());
        let l = locks(&["seed".into(), "rocks".into()], &["spiral".into()]).unwrap();
        assert!(l.is_locked("seed") && l.is_locked("rocks") && !l.is_locked("spiral"));
        let e = locks(&["sky2".into()], &[]).unwrap_err();
        assert!(e.contains("light") && e.contains("tent"), "{e}");
        assert!(locks(&["seed".into()], &["seed".into()]).is_err());
    }
}
