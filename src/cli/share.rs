//! `playa share`: a scene's share code, and a code's scene.

use clap::Args;

use super::CliError;
use playa::{Source, explore::sheet, scene::presets, share};

/// Arguments of `playa share`.
#[derive(Debug, Args)]
pub struct ShareArgs {
    /// The scene: a preset file (.ron), a picture made by playa (.png), the
    /// name of a shipped preset, a share code or a link holding one.
    /// Default: the death-valley preset. Of a contact sheet (`playa
    /// sheet`), every thumbnail's code and label, a line each.
    #[arg(value_name = "PRESET.ron|PICTURE.png|NAME|CODE")]
    input: Option<String>,
    /// Share the scene with this seed instead of its own.
    #[arg(long)]
    seed: Option<u64>,
    /// Print the scene of this share code, or of a link holding one
    /// (https://…#playa1-…), as RON (a preset file) instead.
    #[arg(long, value_name = "CODE|LINK", conflicts_with_all = ["input", "seed"])]
    decode: Option<String>,
}

/// Runs `playa share`: prints a scene's share code (a contact sheet's:
/// each thumbnail's code and label, a line each), or with `--decode` the
/// scene a share code describes, as RON.
pub fn run(args: ShareArgs) -> Result<(), CliError> {
    if let Some(code) = args.decode {
        let scene = Source::Code(code).load()?.scene;
        // A comment line first, as in the shipped presets: what this is.
        outln!(
            "// Shared scene {}\n{}",
            share::encode(&scene),
            scene.to_commented_ron()
        )?;
        return Ok(());
    }
    let input = args.input.as_deref().unwrap_or(presets::DEFAULT);
    let source = Source::from_arg(input)?;
    // A contact sheet holds many scenes: their codes, each with its label.
    if let Source::Picture(path) = &source
        && let Some(entries) = sheet::read(path)?
    {
        if args.seed.is_some() {
            return Err(CliError::Usage(format!(
                "{} is a contact sheet of {} scenes: --seed needs one scene",
                path.display(),
                entries.len()
            )));
        }
        for (code, label) in entries {
            outln!("{code}\t{label}")?;
        }
        return Ok(());
    }
    let mut scene = source.load()?.scene;
    if let Some(seed) = args.seed {
        scene.seed = seed;
    }
    outln!("{}", share::encode(&scene))?;
    Ok(())
}
