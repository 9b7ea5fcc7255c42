//! `playa render`: scenes to PNG pictures, in batches, in parallel.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use std::collections::{HashMap, HashSet};

use clap::Args;
use rayon::prelude::*;

use super::{CliError, parse_size};
use list::{preset_list, user_preset_list};
use playa::batch::manifest::{self, Entry, Found, Header, OtherBatch};
use playa::batch::shard::Shard;
use playa::batch::{self, Batch, Job};
use playa::error::clip;
use playa::explore::tweak::Tweaks;
use playa::output::picture::{self, Compression};
use playa::output::tiles::TileFormat;
use playa::source::{Loaded, Source};
use playa::{base::atomic, compose, output::recipe, scene::presets, share};
use tiles::tiles;

/// Most images one `playa render` makes (inputs × seeds).
pub const MAX_BATCH: u64 = playa::batch::MAX_JOBS;
/// The name pictures of share codes are filed under: `shared-{seed}.png`.
pub const SHARED: &str = "shared";

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
    /// Render every seed of a range: A..B leaves B out (0..8 is seeds 0 to
    /// 7), A..=B includes it (0..=8 is 0 to 8). An empty or reversed range
    /// is refused.
    #[arg(long, value_name = "A..B|A..=B", allow_hyphen_values = true)]
    seeds: Option<String>,
    /// Picture size WxH. Default: a picture's own size for a picture input,
    /// else 1920 wide, the height from the scene's aspect ratio. At most
    /// 65536 per side and 2^32 pixels with fast compression (streamed band
    /// by band) or --tiles, else 16384 per side and 2^28 pixels.
    #[arg(long, value_parser = parse_size)]
    size: Option<(usize, usize)>,
    /// At a --size of another aspect than the scene's, cut the centre of
    /// the scene's picture (drawn at its own aspect, covering the size)
    /// instead of laying the scene out again at that aspect, as the app's
    /// "Crop to the frame" does. The PNG records the crop (its playa:window
    /// chunk), so rendering it again makes the same picture.
    #[arg(long, requires = "size")]
    crop: bool,
    /// Render only the rectangle X,Y,W,H (pixels: left, top, width, height)
    /// of the picture of --size (or of each input's own size) as its own
    /// W×H PNG, at the rectangle's cost, e.g. --size 20480x11520 --window
    /// 9600,5400,1280,720. The PNG records the window (its playa:window
    /// chunk), so rendering it again makes the same picture.
    #[arg(long, value_name = "X,Y,W,H", conflicts_with_all = ["crop", "tiles"],
          allow_hyphen_values = true)]
    window: Option<String>,
    /// Output directory (created if needed), or a file ending in .png when
    /// the batch is one image. A name ending in another picture or video
    /// format's extension (.jpg, .gif, .webp, .mp4, …) is refused: playa
    /// writes PNG. Default: the current directory.
    #[arg(long, value_name = "DIR|FILE.png")]
    out: Option<PathBuf>,
    /// Images rendered at once (threads). Default: all cores.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// Overwrite existing files (they are skipped otherwise).
    #[arg(long)]
    force: bool,
    /// PNG compression: fast, default or best. Default: a picture input's
    /// own (its playa:compression chunk, so that rendering it again makes
    /// the same bytes), else fast. Every PNG records its compression.
    #[arg(long, value_parser = parse_compression)]
    compression: Option<Compression>,
    /// Render only this shard of the batch: I/N (1-based, e.g. 2/4), or
    /// auto for the index a job array gives (Kubernetes
    /// JOB_COMPLETION_INDEX, Slurm SLURM_ARRAY_TASK_ID, AWS Batch
    /// AWS_BATCH_JOB_ARRAY_INDEX). Jobs are dealt by a stable hash of their
    /// file name; each shard records its own manifest.
    /// With --tiles, the pyramid's tiles are dealt instead (by level, column
    /// and row) and the shard's manifest in DIR records its tiles.
    #[arg(long, value_name = "I/N|auto")]
    shard: Option<String>,
    /// The number of shards for --shard auto where the scheduler gives only
    /// the index (Kubernetes, AWS Batch). Default: $PLAYA_SHARDS.
    #[arg(long, value_name = "N", requires = "shard",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(playa::batch::shard::MAX_SHARDS)))]
    shards: Option<u32>,
    /// Write the picture as a Deep Zoom pyramid into DIR instead of a PNG:
    /// {name}-{seed}.dzi, its tiles (254 pixels, 1-pixel overlap) and an
    /// index.html that pans and zooms it (OpenSeadragon). One image only.
    /// Every level is the scene drawn at that level's size (lower levels
    /// are drawn, not halved from the picture: as sharp as the picture) and
    /// every tile on its own, so memory is a few tiles whatever the size.
    /// The manifest in DIR records each tile: a rerun makes only the tiles
    /// still missing; with --shard each task makes its share. A DIR named
    /// like a picture or video file (pyramid.jpg) is refused.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    tiles: Option<PathBuf>,
    /// The tiles' format: jpeg or png.
    #[arg(long, default_value = "jpeg", value_parser = parse_tile_format, requires = "tiles")]
    tile_format: TileFormat,
    /// Set a setting after loading each input: KEY=VALUE, e.g.
    /// rocks.roughness=0.8. KEY is seed, a setting of the scene (aspect,
    /// time, sun_x, horizon, automaton.density, automaton.generations,
    /// automaton.rule, automaton.topology, automaton.columns), KIND.SETTING
    /// for every layer of a kind (rocks.visible=false) or KIND#N.SETTING for
    /// the Nth (tent#2.x=0.3). VALUE: a number, true/false, a colour
    /// (#aa8844 or 170,136,68), Noon/GoldenHour/Dusk/Night, a rule (B3/S23),
    /// Torus/Bounded. A sweep renders one picture per value, named
    /// {name}_{KEY}-{VALUE}-{seed}.png: A..=B:N is N values evenly from A to
    /// B, both included (rocks.roughness=0..=1:5 is 0, 0.25, 0.5, 0.75, 1);
    /// A..B:N is N values from A in steps of (B-A)/N, B left out
    /// (rocks.roughness=0..1:4 is 0, 0.25, 0.5, 0.75); v1,v2,... lists them.
    /// A..B leaves B out, A..=B includes it, as in every range. May be given
    /// more than once, with at most one sweep.
    #[arg(long = "set", value_name = "KEY=VALUE", allow_hyphen_values = true)]
    set: Vec<String>,
    /// List the shipped presets with what they show, then yours (saved
    /// with the app's "Save as preset…"; the folder is $PLAYA_CONFIG_DIR/presets
    /// when set), and exit.
    #[arg(long)]
    list: bool,
}

/// Reads `--window X,Y,W,H`: four whole numbers, the width and height at
/// least 1.
fn parse_window(text: &str) -> Result<[u32; 4], String> {
    let bad = || {
        format!(
            "--window {}: give X,Y,W,H, four whole numbers (left, top, width, height \
             in pixels), e.g. 0,0,1280,720",
            clip(text)
        )
    };
    let parts: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let [x, y, w, h] = parts[..] else {
        return Err(bad());
    };
    if w == 0 || h == 0 {
        return Err(format!(
            "--window {}: the window is empty ({w}x{h}); its width and height must be at least 1",
            clip(text)
        ));
    }
    Ok([x, y, w, h])
}

/// Makes `job` the rectangle `[x, y, w, h]` of the picture it would make:
/// of a cropped picture, the same rectangle of that crop. The whole
/// picture stays a plain picture. The error says where the rectangle
/// falls outside.
fn apply_window(job: &mut Job, [x, y, w, h]: [u32; 4]) -> Result<(), String> {
    let (pw, ph) = job.size;
    let right = u64::from(x) + u64::from(w);
    let bottom = u64::from(y) + u64::from(h);
    if right > u64::from(pw) || bottom > u64::from(ph) {
        return Err(format!(
            "{x},{y},{w},{h} reaches past the {pw}x{ph} picture (to {right},{bottom}); \
             it must lie inside it"
        ));
    }
    if (x, y, w, h) == (0, 0, pw, ph) {
        return Ok(());
    }
    let (ox, oy, full_w, full_h) = match job.window {
        Some(c) => (c.x, c.y, c.full_w, c.full_h),
        None => (0, 0, pw, ph),
    };
    job.window = Some(playa::compose::window::Window {
        x: ox + x,
        y: oy + y,
        w,
        h,
        full_w,
        full_h,
    });
    job.size = (w, h);
    Ok(())
}

fn parse_tile_format(text: &str) -> Result<TileFormat, String> {
    text.parse()
}

fn parse_compression(text: &str) -> Result<Compression, String> {
    text.parse()
}

/// Reads `--seeds A..B` (B left out) or `A..=B` (B included) as the first
/// and last seed.
fn parse_seeds(text: &str) -> Result<(u64, u64), String> {
    super::parse_range("--seeds", text)
}

/// Runs `playa render`: lists the presets, or renders every input at every
/// seed (this task's shard of the batch) to PNG pictures or tile pyramids,
/// recording them in the directory's manifest so a rerun resumes.
pub fn run(args: RenderArgs) -> Result<(), CliError> {
    if args.list {
        return list();
    }
    check_outputs(&args)?;
    let shard = shard_of(&args)?;
    // Streamed into a file (fast compression, or tiles) a picture may be
    // far bigger than one held in memory.
    // A picture input that records another compression is held, and a
    // size too large for it is refused when it is made.
    let streamed = args.compression.is_none_or(|c| c == Compression::Fast)
        || args.tiles.is_some()
        || args.window.is_some();
    let rect = args
        .window
        .as_deref()
        .map(parse_window)
        .transpose()
        .map_err(CliError::Usage)?;
    let size = size_of(&args, streamed)?;
    let seeds = args
        .seeds
        .as_deref()
        .map(parse_seeds)
        .transpose()
        .map_err(CliError::Usage)?;
    let tweaks = Tweaks::parse(&args.set).map_err(|e| CliError::Usage(format!("--set {e}")))?;
    if tweaks.sets_seed() && (args.seed.is_some() || seeds.is_some()) {
        return Err(CliError::Usage(
            "--set seed and --seed or --seeds both give the seed: give one".into(),
        ));
    }
    let (loaded, mut failures) = load_inputs(&args, &tweaks);
    let batch = Batch {
        inputs: loaded,
        seeds: seeds.or(args.seed.map(|s| (s, s))),
        size,
        compression: args.compression,
        crop: args.crop,
    };
    let all_jobs = jobs_of(&batch, rect)?;
    let single_file = single_file(&args, &all_jobs, shard)?;
    if let Some(dir) = &args.tiles {
        let [job] = &all_jobs[..] else {
            return Err(CliError::Usage(format!(
                "--tiles makes one picture's pyramid, but the batch has {} images",
                all_jobs.len()
            )));
        };
        if let Some(window) = &job.window {
            return Err(CliError::Usage(format!(
                "--tiles makes pyramids of whole pictures, and {} is cropped ({window})",
                clip(&job.input)
            )));
        }
        for line in &failures {
            errln!("playa: {line}");
        }
        return tiles(job, &batch, dir, shard, &args);
    }
    let jobs: Vec<&Job> = all_jobs.iter().filter(|j| shard.owns(&j.key)).collect();
    let dir = match (single_file, &args.out) {
        (Some(_), _) => None,
        (None, Some(dir)) => Some(dir.clone()),
        (None, None) => Some(PathBuf::from(".")),
    };
    let path_of = |job: &Job| match (single_file, &dir) {
        (Some(f), _) => f.clone(),
        (None, Some(dir)) => dir.join(job.file_name()),
        (None, None) => unreachable!("a file or a directory"),
    };
    // Every render into a directory records its pictures in the shard's
    // manifest there; a rerun resumes from it. A batch of which every
    // input failed has nothing to record (and must not replace what the
    // directory's manifest records).
    let (manifest, done) = match dir.as_ref().filter(|_| !batch.inputs.is_empty()) {
        Some(dir) => {
            let header = Header {
                batch: batch.record(),
                shard: shard.to_string(),
                window: rect,
                tiles: None,
                frames: None,
            };
            open_manifest(dir, &header, shard, &args, &jobs, &mut failures)?
        }
        None => (None, HashMap::new()),
    };

    let start = Instant::now();
    let (outcomes, errors) = make_all(
        &args,
        &jobs,
        path_of,
        dir.as_deref(),
        &done,
        manifest.as_ref(),
    )?;
    let took = start.elapsed();
    failures.extend(errors);
    for line in &failures {
        errln!("playa: {line}");
    }
    let n = |o: Outcome| outcomes.get(&o).copied().unwrap_or(0);
    let made = n(Outcome::Made) + n(Outcome::Repaired);
    let mut notes = String::new();
    if !shard.is_whole() {
        notes += &format!(", shard {shard}: {} of {} jobs", jobs.len(), all_jobs.len());
    }
    notes += &outcome_notes(&outcomes, failures.len());
    // Failures fail the run even when no one reads the summary.
    let printed = outln!(
        "{made} {} in {} ({:.1} images/s){notes}",
        if made == 1 { "image" } else { "images" },
        picture::duration_text(took),
        made as f64 / took.as_secs_f64().max(1e-9),
    );
    if failures.is_empty() {
        printed
    } else {
        Err(CliError::Failed(anyhow::anyhow!(
            "{} of the inputs or images failed",
            failures.len()
        )))
    }
}

/// `--list`: the shipped presets and the user's, fitted to the terminal.
fn list() -> Result<(), CliError> {
    let width = console::Term::stdout()
        .size_checked()
        .map(|(_, columns)| usize::from(columns));
    let users = user_preset_list(width)?;
    super::write_stdout(format_args!("{}{users}", preset_list(width)))
}

/// Refuses an `--out` or `--tiles` that names a file of another format.
fn check_outputs(args: &RenderArgs) -> Result<(), CliError> {
    if let Some(out) = &args.out {
        super::check_not_other_format(
            "--out",
            out,
            &["png"],
            "playa render writes PNG pictures: give a directory or a file ending in .png",
        )?;
    }
    if let Some(dir) = &args.tiles {
        super::check_not_other_format("--tiles", dir, &[], "--tiles is the pyramid's directory")?;
    }
    Ok(())
}

/// The share of the batch this run makes (`--shard`, `auto` from a job
/// array's environment).
fn shard_of(args: &RenderArgs) -> Result<Shard, CliError> {
    Ok(match args.shard.as_deref() {
        None => Shard::WHOLE,
        Some("auto") => Shard::from_env(args.shards, |name| std::env::var(name).ok())
            .map_err(|e| CliError::Usage(e.to_string()))?,
        Some(text) => Shard::parse(text).map_err(|e| CliError::Usage(format!("--shard: {e}")))?,
    })
}

/// `--size`, checked for a picture `streamed` into its file or held.
fn size_of(args: &RenderArgs, streamed: bool) -> Result<Option<(u32, u32)>, CliError> {
    let Some((w, h)) = args.size else {
        return Ok(None);
    };
    let (w, h) = (
        u32::try_from(w).unwrap_or(u32::MAX),
        u32::try_from(h).unwrap_or(u32::MAX),
    );
    compose::check_picture_size(w, h, streamed)
        .map_err(|e| match compose::check_size(w, h) {
            // Too large to hold: say how to make it.
            Err(_) if !streamed => playa::Error::out_of_range(
                "--size",
                format!("{w}x{h}"),
                format!(
                    "{e}; with --compression fast up to {} a side",
                    compose::MAX_STREAMED_SIDE
                ),
            ),
            _ => e,
        })
        .map_err(|e| CliError::Usage(format!("--size: {e}")))?;
    Ok(Some((w, h)))
}

/// The batch's inputs, each with the `--set`s applied (a sweep's pictures
/// filed under the name and the value), and the lines of those that
/// failed to load.
fn load_inputs(args: &RenderArgs, tweaks: &Tweaks) -> (Vec<batch::Input>, Vec<String>) {
    let inputs = if args.inputs.is_empty() && args.codes.is_empty() {
        vec![presets::DEFAULT.to_string()]
    } else {
        args.inputs.clone()
    };
    let mut failures: Vec<String> = Vec::new();
    let mut loaded = Vec::new();
    let sources = inputs
        .iter()
        .map(|input| (input, Source::from_arg(input)))
        .chain(
            args.codes
                .iter()
                .map(|code| (code, Ok(Source::Code(code.clone())))),
        );
    for (input, source) in sources {
        let loaded_input = source
            .and_then(|source| load(&source))
            .map_err(|e| e.to_string())
            .and_then(|(name, l)| {
                let frame_of = frame_of(input, &l)?;
                let variants = tweaks
                    .variants(&l.scene)
                    .map_err(|e| format!("{}: --set {e}", clip(input)))?;
                Ok((name, l, frame_of, variants))
            });
        match loaded_input {
            Ok((name, l, frame_of, variants)) => loaded.extend(variants.into_iter().map(|v| {
                batch::Input {
                    input: input.clone(),
                    name: v
                        .file_suffix()
                        .map_or_else(|| name.clone(), |s| format!("{name}_{s}")),
                    frame_of: frame_of.clone().filter(|_| v.scene == l.scene),
                    scene: v.scene,
                    size: l.size,
                    window: l.window,
                    compression: l.compression,
                }
            })),
            Err(e) => failures.push(e),
        }
    }
    (loaded, failures)
}

/// The batch's jobs, at most [`MAX_BATCH`], each cut to the `--window`
/// `rect` when one is given.
fn jobs_of(batch: &Batch, rect: Option<[u32; 4]>) -> Result<Vec<Job>, CliError> {
    let count = batch.count();
    if count > MAX_BATCH {
        return Err(CliError::Usage(format!(
            "the batch has {count} images, more than the limit of {MAX_BATCH}"
        )));
    }
    let mut all_jobs = batch.jobs().map_err(|e| CliError::Usage(e.to_string()))?;
    if let Some(rect) = rect {
        let several = batch.inputs.len() > 1;
        for job in &mut all_jobs {
            apply_window(job, rect).map_err(|e| {
                CliError::Usage(match several {
                    true => format!("{}: --window {e}", clip(&job.input)),
                    false => format!("--window {e}"),
                })
            })?;
        }
    }
    Ok(all_jobs)
}

/// The one file `--out` names (a `.png`), if it names one: refused for
/// more than one picture or a shard; what a killed render of it left is
/// removed.
fn single_file<'a>(
    args: &'a RenderArgs,
    all_jobs: &[Job],
    shard: Shard,
) -> Result<Option<&'a PathBuf>, CliError> {
    let single_file = args
        .out
        .as_ref()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")));
    if let Some(file) = single_file {
        if all_jobs.len() > 1 {
            return Err(CliError::Usage(format!(
                "--out {} names one file, but the batch has {} images; give a directory",
                file.display(),
                all_jobs.len()
            )));
        }
        if !shard.is_whole() {
            return Err(CliError::Usage(format!(
                "--shard {shard} needs a directory to share, not --out {}",
                file.display()
            )));
        }
        // What a killed render of this file left.
        atomic::remove_stale_of(file);
    }
    Ok(single_file)
}

/// The shard's manifest in `dir` (made if need be), opened for `header`,
/// and what it records as done; what a killed render there left is
/// removed. A folder that cannot be made fails the run once, before any
/// job; a manifest that cannot be used is one more of the `failures`.
fn open_manifest(
    dir: &Path,
    header: &Header,
    shard: Shard,
    args: &RenderArgs,
    jobs: &[&Job],
    failures: &mut Vec<String>,
) -> Result<(Option<manifest::Writer>, HashMap<String, Entry>), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        for line in failures.iter() {
            errln!("playa: {line}");
        }
        CliError::Failed(anyhow::anyhow!(
            "--out {}: the folder cannot be made: {e}",
            clip(&dir.display().to_string())
        ))
    })?;
    // A whole batch rendered into a directory that holds another batch's
    // manifest starts it anew (batches rendered one after another); a
    // shard meeting another batch's manifest is a task of a job array
    // started with other arguments, a mistake to refuse; so is a batch
    // short of an input that failed, which would record less than the
    // batch asked for.
    let other = if shard.is_whole() && failures.is_empty() {
        OtherBatch::Replace
    } else {
        OtherBatch::Refuse
    };
    let opened = match manifest::Writer::open(dir, shard, header, args.force, other) {
        Ok((writer, entries)) => {
            for line in writer.repaired() {
                errln!("playa: warning: {line}");
            }
            (Some(writer), entries)
        }
        Err(e @ playa::Error::Manifest { .. }) if failures.is_empty() => {
            return Err(CliError::Failed(e.into()));
        }
        Err(e) => {
            failures.push(format!("the manifest: {e}"));
            (None, HashMap::new())
        }
    };
    let files: HashSet<String> = jobs.iter().map(|j| j.file_name()).collect();
    atomic::remove_stale(dir, &files);
    Ok(opened)
}

/// Makes `jobs` on `--jobs` threads, with a progress bar: how many came to
/// each outcome, and the lines of those that failed, in the jobs' order.
fn make_all(
    args: &RenderArgs,
    jobs: &[&Job],
    path_of: impl Fn(&Job) -> PathBuf + Sync,
    dir: Option<&Path>,
    done: &HashMap<String, Entry>,
    manifest: Option<&manifest::Writer>,
) -> Result<(HashMap<Outcome, u64>, Vec<String>), CliError> {
    let pool = super::thread_pool(args.jobs)?;
    let bar = crate::cli::progress_bar(jobs.len() as u64, "images");
    let errors = Mutex::new(Vec::new());
    let outcomes = Mutex::new(HashMap::<Outcome, u64>::new());
    pool.install(|| {
        jobs.par_iter().enumerate().for_each(|(i, job)| {
            let path = path_of(job);
            let done = done.get(&job.key);
            match make(job, &path, dir, done, manifest, args) {
                Ok(outcome) => {
                    *outcomes
                        .lock()
                        .expect("no panics while held")
                        .entry(outcome)
                        .or_default() += 1;
                }
                Err(e) => errors.lock().expect("no panics while held").push((
                    i,
                    format!("{} (seed {}): {e}", clip(&job.input), job.scene.seed),
                )),
            }
            bar.inc(1);
        });
    });
    bar.finish_and_clear();
    let mut errors = errors.into_inner().expect("no panics while held");
    errors.sort();
    Ok((
        outcomes.into_inner().expect("no panics while held"),
        errors.into_iter().map(|(_, e)| e).collect(),
    ))
}

/// The summary's notes on the jobs not made afresh and on `failed` ones.
fn outcome_notes(outcomes: &HashMap<Outcome, u64>, failed: usize) -> String {
    let n = |o: Outcome| outcomes.get(&o).copied().unwrap_or(0);
    let mut notes = String::new();
    if n(Outcome::Recorded) > 0 {
        notes += &format!(", {} already done (in the manifest)", n(Outcome::Recorded));
    }
    if n(Outcome::Repaired) > 0 {
        notes += &format!(
            ", {} repaired (gone or changed since recorded: made and recorded again)",
            n(Outcome::Repaired)
        );
    }
    if n(Outcome::Existing) > 0 {
        notes += &format!(
            ", {} skipped (existing; --force overwrites)",
            n(Outcome::Existing)
        );
    }
    if failed > 0 {
        notes += &format!(", {failed} failed");
    }
    notes
}

/// What became of one job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Outcome {
    /// Rendered and written.
    Made,
    /// Recorded, but its file was gone or changed: rendered, written and
    /// recorded again.
    Repaired,
    /// Already in the manifest with its file as recorded, or its file was
    /// already there with this job's recipe (and is now recorded).
    Recorded,
    /// A file of that name that is not this job's picture, kept.
    Existing,
}

/// Makes one job's picture at `path` unless it is done, and records it in
/// the manifest. `done` is the manifest's entry for the job, if any.
fn make(
    job: &Job,
    path: &Path,
    dir: Option<&Path>,
    done: Option<&Entry>,
    manifest: Option<&manifest::Writer>,
    args: &RenderArgs,
) -> playa::Result<Outcome> {
    // A folder (or a FIFO, a device) where the picture goes is neither a
    // picture to skip nor one to write over.
    if let Some(kind) = not_a_picture_file(path) {
        return Err(playa::Error::io(
            path,
            std::io::Error::other(format!("{kind} is there, not a picture")),
        ));
    }
    let found = match dir {
        Some(dir) if !args.force => Found::of(dir, &job.file_name(), done),
        _ => Found::Unrecorded,
    };
    match found {
        Found::Done => return Ok(Outcome::Recorded),
        // Ours, and not as recorded: made again over it.
        Found::Stale => {}
        Found::Unrecorded if args.force || !path.exists() => {}
        Found::Unrecorded => {
            // Killed between the rename and the manifest's line: the
            // picture is whole (written atomically), so it is recorded now.
            if manifest.is_some() && is_picture_of(path, job) {
                record(job, path, manifest, 0)?;
                return Ok(Outcome::Recorded);
            }
            return Ok(Outcome::Existing);
        }
    }
    let start = Instant::now();
    let (w, h) = job.size;
    let frame_of: Vec<(&str, String)> = job
        .frame_of
        .iter()
        .map(|options| (playa::animation::ANIMATION_KEY, options.clone()))
        .collect();
    picture::write_file(path, |out| {
        picture::render_png_framed(
            out,
            &job.scene,
            (w, h),
            job.window.as_ref(),
            &frame_of,
            job.compression,
        )
    })?;
    record(job, path, manifest, start.elapsed().as_millis() as u64)?;
    Ok(match found {
        Found::Stale => Outcome::Repaired,
        _ => Outcome::Made,
    })
}

/// What is at `path` if it is there and is neither a file nor a symbolic
/// link (which the picture's rename replaces): "a folder", "a FIFO", ….
pub(super) fn not_a_picture_file(path: &Path) -> Option<&'static str> {
    let kind = std::fs::symlink_metadata(path).ok()?.file_type();
    if kind.is_file() || kind.is_symlink() {
        return None;
    }
    Some(if kind.is_dir() {
        "a folder"
    } else {
        "something other than a file (a FIFO, a socket or a device)"
    })
}

/// Appends `job`'s entry (its file at `path` hashed now) to the manifest.
fn record(
    job: &Job,
    path: &Path,
    manifest: Option<&manifest::Writer>,
    ms: u64,
) -> playa::Result<()> {
    let Some(manifest) = manifest else {
        return Ok(());
    };
    let (sha256, bytes) = manifest::hash_file(path)?;
    manifest.record(&Entry {
        key: job.key.clone(),
        code: share::encode(&job.scene),
        input: job.input.clone(),
        seed: job.scene.seed,
        file: job.file_name(),
        sha256,
        bytes,
        ms,
    })
}

/// Whether the PNG at `path` is `job`'s picture: its recipe's share code,
/// its compression, its size and its window (if cropped) are the job's.
fn is_picture_of(path: &Path, job: &Job) -> bool {
    // A link is not followed (it may lead out of the directory).
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let texts = playa::base::file::open_regular(path).ok().and_then(|f| {
        recipe::read_texts(
            std::io::BufReader::new(f),
            "",
            [
                recipe::CODE_KEY,
                recipe::WINDOW_KEY,
                recipe::COMPRESSION_KEY,
            ],
        )
        .ok()
    });
    texts.is_some_and(|[code, window, compression]| {
        code.is_some_and(|c| c == share::encode(&job.scene))
            && window == job.window.map(|w| w.to_string())
            && compression.as_deref() == Some(job.compression.name())
    }) && image::image_dimensions(path).is_ok_and(|d| d == job.size)
}

/// The animation options of a still picture input, a frame of one
/// ([`Loaded::frame_of`]), read and written again as playa writes them: a
/// picture made from it carries only options playa has checked. The error
/// names the input's chunk.
fn frame_of(input: &str, loaded: &Loaded) -> Result<Option<String>, String> {
    let name = format!("{} ({})", clip(input), playa::animation::ANIMATION_KEY);
    loaded
        .frame_of
        .as_deref()
        .map(|text| playa::animation::Options::from_ron(text, &name).map(|o| o.to_ron()))
        .transpose()
        .map_err(|e| e.to_string())
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
        Source::User(preset) => preset.name.clone(),
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

mod list;
mod tiles;

#[cfg(test)]
mod tests;
