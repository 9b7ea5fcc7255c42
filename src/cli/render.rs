//! `playa render`: scenes to PNG pictures, in batches, in parallel.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use std::collections::HashMap;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::{CliError, parse_size};
use playa::picture::{self, Compression};
use playa::source::{Loaded, Source};
use playa::{Scene, compose, presets};

/// Most images one `playa render` makes (inputs × seeds).
pub const MAX_BATCH: u64 = 100_000;
/// The name pictures of share codes are filed under: `shared-{seed}.png`.
pub const SHARED: &str = "shared";
/// Default picture width; the height follows the scene's aspect ratio.
pub const DEFAULT_WIDTH: u32 = 1920;

/// Arguments of `playa render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Scenes to render: preset files (.ron), pictures made by playa (.png,
    /// re-rendered from their recipe), names of shipped presets (see
    /// --list), share codes or links holding one (https://…#playa1-…).
    /// Default: the death-valley preset.
    #[arg(value_name = "PRESET.ron|PICTURE.png|NAME|CODE")]
    inputs: Vec<String>,
    /// Render the scene of a share code (`playa share` makes them) or of a
    /// link holding one (https://…#playa1-…); may be given more than once.
    /// Its pictures are named shared-{seed}.png.
    #[arg(long = "code", value_name = "CODE|LINK")]
    codes: Vec<String>,
    /// Render with this seed instead of the scene's own.
    #[arg(long, conflicts_with = "seeds")]
    seed: Option<u64>,
    /// Render every seed of a range: A..B (B excluded) or A..=B.
    #[arg(long, value_name = "A..B", value_parser = parse_seeds)]
    seeds: Option<(u64, u64)>,
    /// Picture size WxH. Default: a picture's own size for a picture input,
    /// else 1920 wide, the height from the scene's aspect ratio. At most
    /// 16384 per side and 2^28 pixels.
    #[arg(long, value_parser = parse_size)]
    size: Option<(usize, usize)>,
    /// Output directory (created if needed), or a file ending in .png when
    /// the batch is one image. Default: the current directory.
    #[arg(long, value_name = "DIR|FILE.png")]
    out: Option<PathBuf>,
    /// Images rendered at once (threads). Default: all cores.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// Overwrite existing files (they are skipped otherwise).
    #[arg(long)]
    force: bool,
    /// PNG compression: fast, default or best.
    #[arg(long, default_value = "fast", value_parser = parse_compression)]
    compression: Compression,
    /// List the shipped presets with what they show, and exit.
    #[arg(long)]
    list: bool,
}

fn parse_compression(text: &str) -> Result<Compression, String> {
    text.parse()
}

/// Parses `A..B` (B excluded) or `A..=B` into an inclusive range.
fn parse_seeds(text: &str) -> Result<(u64, u64), String> {
    let (a, b, inclusive) = if let Some((a, b)) = text.split_once("..=") {
        (a, b, true)
    } else if let Some((a, b)) = text.split_once("..") {
        (a, b, false)
    } else {
        return Err(format!("seeds {text:?} must be a range A..B or A..=B"));
    };
    let num = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|_| format!("seeds {text:?}: {s:?} is not a whole number"))
    };
    let (a, b) = (num(a)?, num(b)?);
    let last = if inclusive {
        b
    } else {
        b.checked_sub(1)
            .ok_or_else(|| format!("seeds {text:?} is empty"))?
    };
    if last < a {
        return Err(format!("seeds {text:?} is empty"));
    }
    Ok((a, last))
}

/// One picture to make.
struct Job {
    /// The input as given, for messages.
    input: String,
    scene: Scene,
    size: (u32, u32),
    path: PathBuf,
}

pub fn run(args: RenderArgs) -> Result<(), CliError> {
    if args.list {
        let width = console::Term::stdout()
            .size_checked()
            .map(|(_, columns)| usize::from(columns));
        print!("{}", preset_list(width));
        return Ok(());
    }
    let size = match args.size {
        Some((w, h)) => {
            let (w, h) = (
                u32::try_from(w).unwrap_or(u32::MAX),
                u32::try_from(h).unwrap_or(u32::MAX),
            );
            compose::check_size(w, h).map_err(|e| CliError::Usage(format!("--size: {e}")))?;
            Some((w, h))
        }
        None => None,
    };
    let inputs = if args.inputs.is_empty() && args.codes.is_empty() {
        vec![presets::DEFAULT.to_string()]
    } else {
        args.inputs.clone()
    };

    let mut failures: Vec<String> = Vec::new();
    let mut scenes = Vec::new();
    let sources = inputs
        .iter()
        .map(|input| (input, Source::from_arg(input)))
        .chain(
            args.codes
                .iter()
                .map(|code| (code, Ok(Source::Code(code.clone())))),
        );
    for (input, source) in sources {
        match source.and_then(|source| load(&source)) {
            Ok((name, loaded)) => scenes.push((input.clone(), name, loaded)),
            Err(e) => failures.push(e.to_string()),
        }
    }
    let seeds = |scene: &Scene| -> Vec<u64> {
        match (args.seeds, args.seed) {
            (Some((a, b)), _) => (a..=b).collect(),
            (None, Some(s)) => vec![s],
            (None, None) => vec![scene.seed],
        }
    };
    let count = args.seeds.map_or(1, |(a, b)| b - a + 1) * scenes.len() as u64;
    if count > MAX_BATCH {
        return Err(CliError::Usage(format!(
            "the batch has {count} images, more than the limit of {MAX_BATCH}"
        )));
    }

    let single_file = args
        .out
        .as_ref()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")));
    let mut jobs = Vec::new();
    for (input, name, loaded) in &scenes {
        for seed in seeds(&loaded.scene) {
            let mut scene = loaded.scene.clone();
            scene.seed = seed;
            let size = size
                .or(loaded.size)
                .unwrap_or_else(|| compose::size_for_width(&scene, DEFAULT_WIDTH));
            let file = format!("{}.png", Scene::file_stem(name, seed));
            let path = match (single_file, &args.out) {
                (Some(f), _) => f.clone(),
                (None, Some(dir)) => dir.join(file),
                (None, None) => PathBuf::from(file),
            };
            jobs.push(Job {
                input: input.clone(),
                scene,
                size,
                path,
            });
        }
    }
    // Two different scenes must not be written to one file (two codes with
    // the same seed, say); the same scene given twice is made once.
    let mut by_path: HashMap<&Path, &Job> = HashMap::new();
    let mut duplicates = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        match by_path.get(job.path.as_path()) {
            Some(first) if first.scene == job.scene => duplicates.push(i),
            Some(first) if single_file.is_none() => {
                return Err(CliError::Usage(format!(
                    "{} and {} would both be written to {}: render them separately, \
                     with their own --out",
                    first.input,
                    job.input,
                    job.path.display()
                )));
            }
            _ => {
                by_path.insert(&job.path, job);
            }
        }
    }
    drop(by_path);
    for i in duplicates.into_iter().rev() {
        jobs.remove(i);
    }
    if let Some(file) = single_file
        && jobs.len() > 1
    {
        return Err(CliError::Usage(format!(
            "--out {} names one file, but the batch has {} images; give a directory",
            file.display(),
            jobs.len()
        )));
    }
    if let (None, Some(dir)) = (single_file, &args.out) {
        // A failure shows up as each image's write error, naming its input.
        let _ = std::fs::create_dir_all(dir);
    }

    let threads = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Failed(e.into()))?;
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(jobs.len() as u64), target);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} images, {elapsed} (eta {eta})")
            .expect("a valid template"),
    );
    let start = Instant::now();
    let errors = Mutex::new(Vec::new());
    let skipped = Mutex::new(0u64);
    pool.install(|| {
        jobs.par_iter().enumerate().for_each(|(i, job)| {
            if !args.force && job.path.exists() {
                *skipped.lock().expect("no panics while held") += 1;
            } else if let Err(e) = make(job, args.compression) {
                errors
                    .lock()
                    .expect("no panics while held")
                    .push((i, format!("{} (seed {}): {e}", job.input, job.scene.seed)));
            }
            bar.inc(1);
        });
    });
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let mut errors = errors.into_inner().expect("no panics while held");
    errors.sort();
    let failed_jobs = errors.len() as u64;
    failures.extend(errors.into_iter().map(|(_, e)| e));
    let skipped = skipped.into_inner().expect("no panics while held");
    let made = jobs.len() as u64 - skipped - failed_jobs;
    for line in &failures {
        eprintln!("playa: {line}");
    }
    println!(
        "{made} images in {seconds:.2} s ({:.1} images/s){}{}",
        made as f64 / seconds.max(1e-9),
        if skipped > 0 {
            format!(", {skipped} skipped (existing; --force overwrites)")
        } else {
            String::new()
        },
        if failures.is_empty() {
            String::new()
        } else {
            format!(", {} failed", failures.len())
        }
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(anyhow::anyhow!(
            "{} of the inputs or images failed",
            failures.len()
        )))
    }
}

/// Renders and writes one picture.
fn make(job: &Job, compression: Compression) -> playa::Result<()> {
    let (w, h) = job.size;
    picture::render_png_file(&job.path, &job.scene, w, h, &[], compression)
}

/// An input's scene, the size of a picture input and the name its pictures
/// are filed under. The error names the input.
pub(super) fn load(source: &Source) -> playa::Result<(String, Loaded)> {
    let loaded = source.load()?;
    let stem = |path: &Path| {
        path.file_stem()
            .map_or_else(|| "scene".into(), |s| s.to_string_lossy().into_owned())
    };
    let name = match source {
        Source::Preset(preset) => preset.name.to_string(),
        Source::Code(_) => SHARED.to_string(),
        Source::Ron { .. } => "scene".to_string(),
        Source::SceneFile(path) => stem(path),
        Source::Picture(path) => picture_stem(&stem(path), loaded.scene.seed),
        Source::PictureBytes { name, .. } => {
            picture_stem(&stem(Path::new(name)), loaded.scene.seed)
        }
    };
    Ok((name, loaded))
}

/// The name a picture's scene is filed under: `name-7.png` made with seed 7
/// is filed again as `name`.
pub(super) fn picture_stem(stem: &str, seed: u64) -> String {
    stem.strip_suffix(&format!("-{seed}"))
        .filter(|s| !s.is_empty())
        .unwrap_or(stem)
        .to_string()
}

/// The lines of `--list`: each preset's name and its whole description,
/// wrapped at spaces to `width` columns when there is a width (a terminal),
/// continued under the description's first column.
fn preset_list(width: Option<usize>) -> String {
    let mut out = String::new();
    for preset in presets::PRESETS {
        let mut line = format!("{:<20}", preset.name);
        for (i, word) in preset.description().split_whitespace().enumerate() {
            let columns = line.chars().count() + 1 + word.chars().count();
            if i > 0 && width.is_some_and(|w| columns > w) {
                out.push_str(&line);
                out.push('\n');
                line = " ".repeat(20);
            }
            line.push(' ');
            line.push_str(word);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_whole_and_wraps_at_spaces() {
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let whole = preset_list(None);
        assert_eq!(whole.lines().count(), presets::PRESETS.len());
        for p in presets::PRESETS {
            assert!(whole.contains(&format!("{:<20} {}\n", p.name, p.description())));
        }
        for width in [40, 61, 80, 100] {
            let wrapped = preset_list(Some(width));
            for line in wrapped.lines() {
                assert!(line.chars().count() <= width, "{width}: {line:?}");
            }
            // The same words in the same order, none cut.
            assert_eq!(words(&wrapped), words(&whole), "{width}");
            assert!(wrapped.lines().count() > presets::PRESETS.len(), "{width}");
        }
        // Narrower than a word: one word a line, never cut.
        let narrow = preset_list(Some(22));
        assert_eq!(words(&narrow), words(&whole));
        for line in narrow.lines() {
            let named = presets::PRESETS.iter().any(|p| line.starts_with(p.name));
            assert_eq!(
                line.split_whitespace().count(),
                1 + usize::from(named),
                "{line:?}"
            );
        }
    }

    #[test]
    fn seed_ranges() {
        assert_eq!(parse_seeds("3..6"), Ok((3, 5)));
        assert_eq!(parse_seeds("3..=6"), Ok((3, 6)));
        assert!(parse_seeds("6..6").is_err());
        assert!(parse_seeds("0..0").is_err());
        assert!(parse_seeds("x..3").is_err());
        assert!(parse_seeds("7").is_err());
    }
}
