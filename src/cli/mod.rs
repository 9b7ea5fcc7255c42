//! The command line: a thin front end over the library.

mod animate;
mod life;
mod manifest;
mod random;
mod render;
mod share;
mod sheet;

use clap::{Parser, Subcommand};
use playa::error::{clip, quote};

/// playa: a generative desert-landscape renderer.
#[derive(Debug, Parser)]
#[command(name = "playa", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Animate a scene's rock automaton, generation by generation, as an APNG or a GIF.
    Animate(animate::AnimateArgs),
    /// Run the rock automaton on a seeded soup or an RLE pattern; write RLE.
    Life(life::LifeArgs),
    /// Render scenes (presets, pictures, preset names, share codes) to PNG pictures.
    Render(render::RenderArgs),
    /// Print a scene's share code, or a share code's scene.
    Share(share::ShareArgs),
    /// Check the manifests a batch wrote into a directory.
    Manifest(manifest::ManifestArgs),
    /// Print the scene "New scene" (or "Vary") makes of a scene with a roll, as RON.
    Random(random::RandomArgs),
    /// Many scenes (seeds, rolls or a setting's values) as labelled thumbnails on one PNG.
    Sheet(sheet::SheetArgs),
}

/// Runs the command line and returns the process exit code.
///
/// Usage errors exit 2 (as clap does); failures of a valid command exit 1.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = e.exit_code();
            let _ = clipped(e).print();
            return code;
        }
    };
    let result = match cli.command {
        Some(Command::Animate(args)) => animate::run(args),
        Some(Command::Life(args)) => life::run(args),
        Some(Command::Render(args)) => render::run(args),
        Some(Command::Share(args)) => share::run(args),
        Some(Command::Manifest(args)) => manifest::run(args),
        Some(Command::Random(args)) => random::run(args),
        Some(Command::Sheet(args)) => sheet::run(args),
        None if !has_display() || !cfg!(feature = "app") => {
            if cfg!(feature = "app") {
                eprintln!(
                    "playa: no display, so no window: rendering the default preset instead \
                     (see `playa render --help`)"
                );
            } else {
                eprintln!(
                    "playa: built without the window app: rendering the default preset \
                     instead (see `playa render --help`)"
                );
            }
            match Cli::try_parse_from(["playa", "render"]) {
                Ok(Cli {
                    command: Some(Command::Render(args)),
                }) => render::run(args),
                _ => unreachable!("`playa render` parses"),
            }
        }
        #[cfg(feature = "app")]
        None => playa::app::run().map_err(CliError::from),
        #[cfg(not(feature = "app"))]
        None => unreachable!("without the app, no arguments render"),
    };
    match result {
        Ok(()) => 0,
        Err(CliError::Usage(msg)) => {
            eprintln!("playa: {msg}");
            2
        }
        Err(CliError::Failed(e)) => {
            eprintln!("playa: {e:#}");
            1
        }
    }
}

/// How a command failed: bad arguments (exit 2) or a failed run (exit 1).
#[derive(Debug)]
pub enum CliError {
    /// The arguments were wrong; the message says which.
    Usage(String),
    /// A valid command failed.
    Failed(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError::Failed(e.into())
    }
}

/// clap's error with the arguments it quotes (an unknown argument, an
/// invalid value) cut as playa's own messages cut them: a 600 KB argument
/// is not echoed whole.
fn clipped(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    let cut: Vec<(ContextKind, ContextValue)> = e
        .context()
        .filter(|(kind, _)| matches!(kind, ContextKind::InvalidArg | ContextKind::InvalidValue))
        .filter_map(|(kind, value)| match value {
            ContextValue::String(text) if clip(text) != *text => {
                Some((kind, ContextValue::String(clip(text))))
            }
            _ => None,
        })
        .collect();
    if !cut.is_empty() {
        // The tips repeat the argument whole ("to pass '…' as a value").
        e.insert(ContextKind::Suggested, ContextValue::StyledStrs(Vec::new()));
    }
    for (kind, value) in cut {
        e.insert(kind, value);
    }
    e
}

/// Whether a window can be opened: an X11 or Wayland display is named.
fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|d| !d.is_empty()))
}

/// The threads a command works on: `jobs` (its `--jobs`), or one per core.
pub fn thread_pool(jobs: Option<u32>) -> Result<rayon::ThreadPool, CliError> {
    let threads = jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Failed(e.into()))
}

/// Parses `WxH` (e.g. `1920x1080`).
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("size {} must be WIDTHxHEIGHT, e.g. 256x256", quote(text)))?;
    let num = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("size {}: {} is not a whole number", quote(text), quote(s)))
    };
    let (w, h) = (num(w)?, num(h)?);
    if w == 0 || h == 0 {
        return Err(format!(
            "size {}: width and height must be at least 1",
            quote(text)
        ));
    }
    Ok((w, h))
}

/// Reads the range `text` given to `flag` (`--seeds`), `A..B` (B left
/// out) or `A..=B` (B included), as its first and last number, both
/// included ([`playa::range::whole`]); the error is one line naming the flag
/// and the text, and saying the rule.
pub fn parse_range<T>(flag: &str, text: &str) -> Result<(T, T), String>
where
    T: std::str::FromStr + Copy + Into<u64> + TryFrom<u64>,
{
    playa::range::whole(text).map_err(|problem| problem.message(flag, text))
}
