//! The command line: a thin front end over the library.
//!
//! What a command prints on standard output goes through [`outln!`] (never
//! `println!`, which panics when the reader has gone away): a closed pipe
//! is [`CliError::StdoutClosed`], which [`main`] turns into a quiet exit.
//! Messages go to standard error through [`errln!`] (never `eprintln!`,
//! which panics likewise, e.g. under `2>&1 | head`).

/// Writes a line to standard output, as `println!` does, but returns
/// `Result<(), CliError>` instead of panicking: see [`write_stdout`].
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes a line to standard error, as `eprintln!` does, but never panics:
/// a message no one is left to read (standard error a closed pipe) is
/// dropped, and the exit status still says how the run went.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod animate;
mod life;
mod manifest;
mod random;
mod render;
mod share;
mod sheet;

use clap::error::ErrorKind;
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
/// Usage errors exit 2 (as clap does), each one line; failures of a valid
/// command exit 1; a reader that closed standard output ends the command
/// quietly, with 0.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return e.exit_code();
        }
        Err(e) => {
            errln!("playa: {}", one_line(e));
            return 2;
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
                errln!(
                    "playa: no display, so no window: rendering the default preset instead \
                     (see `playa render --help`)"
                );
            } else {
                errln!(
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
        // The reader stopped reading (`playa … | head -1`): that is its
        // choice, not playa failing, so nothing is said and the exit is 0,
        // as ripgrep does; a status of its own would fail every
        // `set -o pipefail` script that cuts playa's output short. (Rust
        // ignores SIGPIPE, so playa is not killed by it as C programs are.)
        Err(CliError::StdoutClosed) => 0,
        Err(CliError::Usage(msg)) => {
            errln!("playa: {msg}");
            2
        }
        Err(CliError::Failed(e)) => {
            errln!("playa: {e:#}");
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
    /// Standard output is a pipe whose reader has gone away: the command
    /// stops, quietly.
    StdoutClosed,
}

/// Writes `text` to standard output and flushes it. A reader that has gone
/// away (`EPIPE`) is [`CliError::StdoutClosed`]; any other error is a
/// failure naming standard output.
pub fn write_stdout(text: std::fmt::Arguments) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_fmt(text)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => CliError::StdoutClosed,
            _ => CliError::Failed(anyhow::Error::new(e).context("writing to standard output")),
        })
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

/// clap's usage error as one line, in playa's voice: clap's first line
/// with the lines it indents below it (the values a flag takes, the
/// arguments missing), its suggestion, and where the help is, without its
/// usage block and "For more information" line. A bad value of a flag is
/// said as a command's own checks say it: `--size: size "0x0": width and
/// height must be at least 1`.
fn one_line(e: clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    // playa's own parsers quote the value they refuse; std's ("invalid
    // digit found in string") do not, and keep clap's line, which does.
    let own_words = match (
        e.get(ContextKind::InvalidValue),
        std::error::Error::source(&e),
    ) {
        (Some(ContextValue::String(value)), Some(why)) => why.to_string().contains(&quote(value)),
        _ => false,
    };
    let e = clipped(e);
    let text = e.render().to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let mut said = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // clap indents what belongs to its first line right below it.
    for more in lines.by_ref().take_while(|l| !l.trim().is_empty()) {
        said.push(' ');
        said.push_str(more.trim());
    }
    let flag = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) if arg.starts_with('-') => arg.split(' ').next(),
        _ => None,
    };
    if let (ErrorKind::ValueValidation, Some(flag), Some(why), true) =
        (e.kind(), flag, std::error::Error::source(&e), own_words)
    {
        said = format!("{flag}: {why}");
    }
    let (path, command) = help_command(std::env::args_os().skip(1));
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let names: Vec<&str> = command
            .get_subcommands()
            .map(|c| c.get_name())
            .filter(|&n| n != "help")
            .collect();
        said = format!("`{path}` needs a command: {}", names.join(", "));
    }
    let suggested = [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ]
    .into_iter()
    .find_map(|kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(format!("'{s}'")),
        Some(ContextValue::Strings(s)) if !s.is_empty() => Some(
            s.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(" or "),
        ),
        _ => None,
    });
    if let Some(suggested) = suggested {
        said.push_str(&format!("; did you mean {suggested}?"));
    }
    format!("{said} (see `{path} --help`)")
}

/// The command whose `--help` to see for `args` (without the program's
/// name): `playa`, then each subcommand named in turn (`playa manifest
/// check`), as words and as clap's command.
fn help_command(args: impl Iterator<Item = std::ffi::OsString>) -> (String, clap::Command) {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let mut path = String::from("playa");
    for arg in args {
        if arg == "--" {
            break;
        }
        let Some(sub) = arg
            .to_str()
            .and_then(|name| command.find_subcommand(name))
            .cloned()
        else {
            continue;
        };
        path.push(' ');
        path.push_str(sub.get_name());
        command = sub;
    }
    (path, command)
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

/// A bar counting `len` `things` ("images", "rolls") on standard error,
/// with the time taken and left; hidden when standard error is no
/// terminal (a log, a pipe), where it would only be noise.
pub fn progress_bar(len: u64, things: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {things}, {{elapsed}} (eta {{eta}})");
    bar.set_style(ProgressStyle::with_template(&template).expect("a valid template"));
    bar
}

/// Extensions of picture formats (lowercase): a name ending in one is a
/// file of that format, not a directory. playa writes only some of them,
/// each flag its own ([`check_not_other_format`]).
const PICTURE_EXTENSIONS: &[&str] = &[
    "apng", "avif", "bmp", "dds", "dib", "dng", "eps", "exr", "gif", "hdr", "heic", "heif", "ico",
    "icns", "j2k", "jfif", "jp2", "jpe", "jpeg", "jpg", "jxl", "pam", "pbm", "pdf", "pgm", "png",
    "pnm", "ppm", "psd", "qoi", "svg", "tga", "tif", "tiff", "webp", "xcf",
];

/// Extensions of video formats (lowercase), none of which playa writes.
const VIDEO_EXTENSIONS: &[&str] = &[
    "3gp", "avi", "flv", "m4v", "mkv", "mov", "mp4", "mpeg", "mpg", "ogv", "webm", "wmv",
];

/// Refuses `path`, given to `flag`, when its name ends in the extension of
/// a picture or video format other than `writes` (`--out pic.jpg` would
/// otherwise make a directory named `pic.jpg`, or a PNG named so), before
/// anything is made; `but` says what the flag takes instead. A directory
/// that exists is taken as it is, and a name with another dot in it
/// (`run.v2`) is no picture's.
pub fn check_not_other_format(
    flag: &str,
    path: &std::path::Path,
    writes: &[&str],
    but: &str,
) -> Result<(), CliError> {
    let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
        return Ok(());
    };
    let lower = ext.to_ascii_lowercase();
    if path.is_dir()
        || !PICTURE_EXTENSIONS
            .iter()
            .chain(VIDEO_EXTENSIONS)
            .any(|&e| e == lower)
        || writes.contains(&lower.as_str())
    {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "{flag} {} names a .{ext} file, but {but}",
        clip(&path.display().to_string())
    )))
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
/// included ([`playa::base::range::whole`]); the error is one line naming the flag
/// and the text, and saying the rule.
pub fn parse_range<T>(flag: &str, text: &str) -> Result<(T, T), String>
where
    T: std::str::FromStr + Copy + Into<u64> + TryFrom<u64>,
{
    playa::base::range::whole(text).map_err(|problem| problem.message(flag, text))
}
