//! `playa animate`: a scene's rock automaton, generation by generation, or
//! one of its settings swept (`--set time=5..=20:60`), as an APNG or a GIF
//! (see [`playa::animation`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;

use super::render::{load, picture_stem};
use super::{CliError, parse_range, parse_size};
use playa::animation::{self, Animation, Format, Options, Progress, Sweep};
use playa::batch::DEFAULT_WIDTH;
use playa::batch::frames::Frames;
use playa::batch::shard::Shard;
use playa::error::quote;
use playa::explore::tweak::Tweaks;
use playa::source::Source;
use playa::{compose, scene::presets};

/// Arguments of `playa animate`.
///
/// Values are read here rather than by clap, so that every bad value is
/// one line naming the flag.
#[derive(Debug, Args)]
pub struct AnimateArgs {
    /// The scene: a preset file (.ron), a picture made by playa (.png: an
    /// animation made by `playa animate` is made again with its own
    /// settings, which the flags below change), a shipped preset's name, a
    /// share code or a link holding one. Default: the death-valley preset.
    #[arg(value_name = "PRESET.ron|PICTURE.png|NAME|CODE")]
    input: Option<String>,
    /// The scene of a share code or of a link holding one, instead of an
    /// input.
    #[arg(long, value_name = "CODE|LINK")]
    code: Option<String>,
    /// Animate with this seed instead of the scene's own.
    #[arg(long)]
    seed: Option<u64>,
    /// The generations shown: frame k is the scene with its automaton
    /// stopped at generation A+k. A..B leaves B out (0..24 is generations 0
    /// to 23, 24 frames), A..=B includes it. Default: 0..=the scene's
    /// generations. An APNG made again keeps its own (and --frames turns
    /// an APNG's sweep back into generations). Not with a sweep (--set
    /// KEY=A..B:N).
    #[arg(long, value_name = "A..B|A..=B", allow_hyphen_values = true)]
    frames: Option<String>,
    /// Frames per second, 0.1 to 100 (a GIF: at most 50), to 1/100.
    /// Default: 12.
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    fps: Option<String>,
    /// Seconds the last frame stays on screen beyond its frame time, 0 to
    /// 60. Default: 0.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    hold: Option<String>,
    /// Times the animation plays; 0 loops forever. Default: 0.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    loops: Option<String>,
    /// Frame size WxH. Default: a picture input's own size, else 1920 wide,
    /// the height from the scene's aspect ratio. At most 16384 per side and
    /// 2^28 pixels. With --cells: the room the grid is fitted in.
    #[arg(long, value_name = "WxH")]
    size: Option<String>,
    /// File format: apng or gif. Default: gif if --out ends in .gif, else
    /// apng.
    #[arg(long, value_name = "apng|gif")]
    format: Option<String>,
    /// The bare automaton instead of the landscape: each cell a square of
    /// pixels, live cells light on dark, as Golly shows them. (For RLE
    /// patterns, see `playa life --in`; they are not animated here.)
    #[arg(long)]
    cells: bool,
    /// With --cells: pixels a side of a cell, 1 to 64. Default: the largest
    /// at which the grid fits the --size (or the default size).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    scale: Option<String>,
    /// Output file (.png for an APNG, .gif for a GIF) or an existing
    /// directory. Default: {name}-{seed}-anim.png (or .gif) in the current
    /// directory, {name}-{seed}-{KEY}-anim.png for a sweep of KEY. Written
    /// whole or not at all.
    #[arg(long, value_name = "FILE|DIR")]
    out: Option<PathBuf>,
    /// Overwrite an existing file (it is left alone otherwise).
    #[arg(long)]
    force: bool,
    /// Write the frames into DIR (made if missing), each a PNG with its
    /// recipe, frame-{generation}.png, instead of the animation's file: for
    /// a job array, with --shard. A frame already there is kept.
    /// `--from-frames DIR` then makes the file. A DIR named like a picture
    /// or video file (frames.gif) is refused.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    frames_dir: Option<PathBuf>,
    /// With --frames-dir: write only this shard of the frames, I/N (e.g.
    /// 2/4), or `auto` to read it from the scheduler's array variables (as
    /// `playa render --shard auto`).
    #[arg(long, value_name = "I/N|auto", requires = "frames_dir")]
    shard: Option<String>,
    /// The number of shards for --shard auto where the scheduler gives only
    /// the index. Default: $PLAYA_SHARDS.
    #[arg(long, value_name = "N", requires = "shard")]
    shards: Option<u32>,
    /// Make the animation from the frames in DIR (written by --frames-dir,
    /// every one there): the same file as without the folder. Takes --out,
    /// --format and --force; the scene and its settings are the frames'.
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "input", "code", "seed", "frames", "fps", "hold", "loops", "size",
        "cells", "scale", "set", "frames_dir",
    ])]
    from_frames: Option<PathBuf>,
    /// Set a setting after loading the scene: KEY=VALUE, e.g.
    /// rocks.roughness=0.8 (the keys and values are those of `playa render
    /// --set`). One of them may be a sweep, which the frames show instead
    /// of the generations: frame k is the scene with KEY at the sweep's
    /// value k. A..=B:N is N frames evenly from A to B, both included
    /// (time=5..=20:60, a day's light, times of day in hours); A..B:N is N
    /// frames from A in steps of (B-A)/N, B left out (wind=-1..1:24);
    /// v1,v2,... lists them. 2 to 1000 frames; the automaton stays at the
    /// scene's generations. May be given more than once.
    #[arg(long = "set", value_name = "KEY=VALUE", allow_hyphen_values = true)]
    set: Vec<String>,
}

/// What the command line asks for: the animation and its file.
struct Request {
    animation: Animation,
    path: PathBuf,
}

/// Runs `playa animate`: writes the animation of the scene's automaton to
/// its file (left alone if it exists, unless `--force`), with a progress
/// bar on a terminal.
pub fn run(args: AnimateArgs) -> Result<(), CliError> {
    // (clap's `requires` gives way to --out's conflict with --frames-dir.)
    if args.shard.is_some() && args.frames_dir.is_none() {
        return Err(CliError::Usage(
            "--shard needs --frames-dir: an animation's file is made whole, its frames in shards"
                .into(),
        ));
    }
    if let Some(dir) = &args.frames_dir {
        super::check_not_other_format(
            "--frames-dir",
            dir,
            &[],
            "--frames-dir is the frames' directory",
        )?;
    }
    if let Some(dir) = &args.from_frames {
        return from_frames(dir, &args);
    }
    let Request { animation, path } = request(&args)?;
    if let Some(dir) = &args.frames_dir {
        return frames(&animation, dir, &args);
    }
    if path.exists() && !args.force {
        outln!("{} exists, left alone (--force overwrites)", path.display())?;
        return Ok(());
    }
    // What a killed run writing this file left.
    playa::base::atomic::remove_stale_of(&path);
    let count = animation.frame_count();
    let bar = crate::cli::progress_bar(count as u64, "frames");
    let start = Instant::now();
    let progress = Progress::default();
    let written = std::thread::scope(|s| {
        let job = s.spawn(|| animation.write_file(&path, &progress));
        while !job.is_finished() {
            bar.set_position(progress.frames_written() as u64);
            std::thread::sleep(Duration::from_millis(50));
        }
        job.join().expect("the animation's writer does not panic")
    })?;
    bar.finish_and_clear();
    debug_assert!(written, "nothing cancels the command line's animation");
    let took = start.elapsed();
    let seconds = took.as_secs_f64();
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    let (w, h) = animation.size();
    let options = animation.options();
    outln!(
        "{count} frames ({}) at {w}x{h} in {} ({:.1} frames/s): {}, {}",
        shown(options),
        playa::output::picture::duration_text(took),
        count as f64 / seconds.max(1e-9),
        path.display(),
        size_text(bytes),
    )?;
    Ok(())
}

/// The animation and its path from the arguments; a bad value is a usage
/// error naming it, an input that does not load a failure.
fn request(args: &AnimateArgs) -> Result<Request, CliError> {
    let usage = |e: String| CliError::Usage(e);
    let source = source_of(args)?;
    let (name, loaded) = load(&source)?;
    let stored = animation::read_options(&source)?;
    let tweaks = Tweaks::parse(&args.set).map_err(|e| usage(format!("--set {e}")))?;
    if tweaks.sets_seed() && args.seed.is_some() {
        return Err(usage(
            "--set seed and --seed both give the seed: give one".into(),
        ));
    }
    let sweep = tweaks.sweep().map(|t| Sweep::new(t.key(), t.text()));
    if let Some(sweep) = &sweep {
        check_sweep(args, sweep)?;
    }
    let mut scene = tweaks
        .apply_fixed(&loaded.scene)
        .map_err(|e| usage(format!("--set {e}")))?;
    if let Some(seed) = args.seed {
        scene.seed = seed;
    }
    let mut options = stored.clone().unwrap_or_else(|| Options::for_scene(&scene));

    set_options(args, &mut options, sweep, &tweaks, stored.as_ref())?;

    let size = size_and_cells(args, &mut options, &scene, loaded.size)?;
    let animation = Animation::new(&scene, &options, size).map_err(|e| usage(e.to_string()))?;

    let file = || file_name(&name, stored.as_ref(), &options, &scene);
    let path = match &args.out {
        Some(dir) if dir.is_dir() => dir.join(file()),
        Some(out) => out.clone(),
        None => PathBuf::from(file()),
    };
    Ok(Request { animation, path })
}

/// The scene the animation is made of: the input, `--code`, or the
/// default preset.
fn source_of(args: &AnimateArgs) -> Result<Source, CliError> {
    let usage = |e: String| CliError::Usage(e);
    Ok(match (&args.input, &args.code) {
        (Some(_), Some(_)) => {
            return Err(usage(
                "give a scene or --code, not both: an animation has one scene".into(),
            ));
        }
        (None, Some(code)) => Source::Code(code.clone()),
        (Some(input), None) => Source::from_arg(input)?,
        (None, None) => Source::from_arg(presets::DEFAULT)?,
    })
}

/// Refuses what a sweep's animation cannot be: generations (`--frames`,
/// `--cells`, `--frames-dir`) as well.
fn check_sweep(args: &AnimateArgs, sweep: &Sweep) -> Result<(), CliError> {
    let usage = |e: String| CliError::Usage(e);
    sweep.tweak().map_err(|e| usage(format!("--set {e}")))?;
    let given = format!("--set {}={}", sweep.key, sweep.values);
    if args.frames.is_some() {
        return Err(usage(format!(
            "--frames gives generations, {given} a sweep: an animation's frames are one \
             or the other"
        )));
    }
    if args.cells || args.scale.is_some() {
        return Err(usage(format!(
            "--cells shows the automaton's generations, {given} a sweep of the landscape: \
             give one"
        )));
    }
    if args.frames_dir.is_some() {
        return Err(usage(format!(
            "--frames-dir holds the automaton's generations: {given} is made into the \
             animation's file at once (leave out --frames-dir)"
        )));
    }
    Ok(())
}

/// Sets `options` (stored in the input's file, if it is an animation) from
/// the command line: the generations or the `sweep`, the speed, the holds,
/// the plays and the format.
fn set_options(
    args: &AnimateArgs,
    options: &mut Options,
    sweep: Option<Sweep>,
    tweaks: &Tweaks,
    stored: Option<&Options>,
) -> Result<(), CliError> {
    let usage = |e: String| CliError::Usage(e);
    if let Some(text) = &args.frames {
        (options.first, options.last) = parse_range("--frames", text).map_err(usage)?;
        options.sweep = None;
    }
    if sweep.is_some() {
        options.sweep = sweep;
        options.cells = None;
    } else if let Some(stored) = &options.sweep {
        if let Some(t) = tweaks.iter().find(|t| t.key() == stored.key) {
            return Err(usage(format!(
                "--set {}={}: the animation sweeps {} ({}); give a sweep to change it, or \
                 --frames for the generations",
                t.key(),
                t.text(),
                stored.key,
                stored.values
            )));
        }
        if args.frames_dir.is_some() {
            return Err(usage(format!(
                "--frames-dir holds the automaton's generations, and this animation sweeps \
                 {}: give --frames for the generations",
                stored.label()
            )));
        }
    }
    if let Some(text) = &args.fps {
        options.fps = parse_number("--fps", text).map_err(usage)?;
    }
    if let Some(text) = &args.hold {
        options.hold = parse_number("--hold", text).map_err(usage)?;
    }
    if let Some(text) = &args.loops {
        options.loops = text.trim().parse().map_err(|_| {
            usage(format!(
                "--loops {} must be a whole number of plays (0: forever)",
                quote(text)
            ))
        })?;
    }
    options.format =
        chosen_format(args)?.unwrap_or_else(|| stored.as_ref().map_or(Format::Apng, |o| o.format));
    Ok(())
}

/// The frames' size: `--size`, or the cells' at `--scale` (or the largest
/// that fits), or the input's own, else the default width; sets
/// `options`'s cells.
fn size_and_cells(
    args: &AnimateArgs,
    options: &mut Options,
    scene: &playa::Scene,
    own: Option<(u32, u32)>,
) -> Result<(u32, u32), CliError> {
    let usage = |e: String| CliError::Usage(e);
    let size = match &args.size {
        Some(text) => {
            let (w, h) = parse_size(text).map_err(|e| usage(format!("--size: {e}")))?;
            let (w, h) = (
                u32::try_from(w).unwrap_or(u32::MAX),
                u32::try_from(h).unwrap_or(u32::MAX),
            );
            compose::check_picture_size(w, h, false).map_err(|e| usage(format!("--size: {e}")))?;
            Some((w, h))
        }
        None => None,
    };
    if args.scale.is_some() && !args.cells && options.cells.is_none() {
        return Err(usage(
            "--scale sets the pixels of a cell: it needs --cells".into(),
        ));
    }
    if let Some(text) = &args.scale {
        if args.size.is_some() {
            return Err(usage(
                "give --scale or --size with --cells, not both: the size follows from the scale"
                    .into(),
            ));
        }
        let scale = text.trim().parse().map_err(|_| {
            usage(format!(
                "--scale {} must be a whole number of pixels",
                quote(text)
            ))
        })?;
        options.cells = Some(scale);
    } else if args.cells || options.cells.is_some() {
        let scale = match (size, options.cells) {
            (None, Some(stored)) => stored,
            (room, _) => animation::cells_scale_to_fit(
                scene,
                room.unwrap_or_else(|| compose::size_for_width(scene, DEFAULT_WIDTH)),
            ),
        };
        options.cells = Some(scale);
    }
    Ok(match options.cells {
        Some(scale) => animation::cells_size(scene, scale),
        None => size
            .or(own)
            .unwrap_or_else(|| compose::size_for_width(scene, DEFAULT_WIDTH)),
    })
}

/// The animation's file name: the input's name (an animation made again
/// is named as it was, once), the seed, the swept key, `-anim` and the
/// format's extension.
fn file_name(
    name: &str,
    stored: Option<&Options>,
    options: &Options,
    scene: &playa::Scene,
) -> String {
    let mut stem = name.strip_suffix("-anim").unwrap_or(name);
    // An animation made again is named as it was, once.
    for sweep in [
        stored.as_ref().and_then(|o| o.sweep.as_ref()),
        options.sweep.as_ref(),
    ]
    .into_iter()
    .flatten()
    {
        stem = stem
            .strip_suffix(&format!("-{}", sweep_file_key(sweep)))
            .unwrap_or(stem);
    }
    let stem = picture_stem(stem, scene.seed);
    let swept = options
        .sweep
        .as_ref()
        .map_or(String::new(), |s| format!("-{}", sweep_file_key(s)));
    format!(
        "{}{swept}-anim.{}",
        playa::Scene::file_stem(&stem, scene.seed),
        options.format.extension()
    )
}

/// The format `--format` and `--out`'s extension ask for (checked to agree),
/// or `None` if neither does.
fn chosen_format(args: &AnimateArgs) -> Result<Option<Format>, CliError> {
    let usage = |e: String| CliError::Usage(e);
    let out_format = args
        .out
        .as_deref()
        .filter(|out| !out.is_dir())
        .map(|out| {
            Format::from_path(out).ok_or_else(|| {
                usage(format!(
                    "--out {}: an animation's file ends in .png (APNG) or .gif",
                    out.display()
                ))
            })
        })
        .transpose()?;
    match (&args.format, out_format) {
        (Some(text), out) => {
            let format: Format = text.parse().map_err(usage)?;
            if let Some(out) = out.filter(|&o| o != format) {
                return Err(usage(format!(
                    "--format {} but --out names a .{} file",
                    format.name(),
                    out.extension()
                )));
            }
            Ok(Some(format))
        }
        (None, out) => Ok(out),
    }
}

/// `--frames-dir DIR`: this shard's frames of `animation` into `dir`.
fn frames(animation: &Animation, dir: &Path, args: &AnimateArgs) -> Result<(), CliError> {
    let shard = match args.shard.as_deref() {
        None => Shard::WHOLE,
        Some("auto") => Shard::from_env(args.shards, |name| std::env::var(name).ok())
            .map_err(|e| CliError::Usage(e.to_string()))?,
        Some(text) => Shard::parse(text).map_err(|e| CliError::Usage(format!("--shard: {e}")))?,
    };
    std::fs::create_dir_all(dir).map_err(|e| playa::Error::io(dir, e))?;
    let start = Instant::now();
    let written = animation.write_frames(dir, shard, &Progress::default())?;
    let (w, h) = animation.size();
    let options = animation.options();
    let of = if shard.is_whole() {
        String::new()
    } else {
        format!("shard {shard}: ")
    };
    let repaired = match written.repaired {
        0 => String::new(),
        n => format!(" ({n} repaired: gone or changed since recorded)"),
    };
    outln!(
        "{of}{} of {} frames made{repaired} (generations {}..={} at {w}x{h}), {} there already, \
         in {}: {}",
        written.made,
        written.owned,
        options.first,
        options.last,
        written.kept,
        playa::output::picture::duration_text(start.elapsed()),
        dir.display(),
    )?;
    Ok(())
}

/// `--from-frames DIR`: the animation made from the frames in `dir`.
fn from_frames(dir: &Path, args: &AnimateArgs) -> Result<(), CliError> {
    let format = chosen_format(args)?;
    let frames = Frames::read(dir, format)?;
    let animation = frames.animation();
    let file = || {
        let name = dir
            .file_name()
            .map_or("frames".into(), |n| n.to_string_lossy().into_owned());
        format!("{name}-anim.{}", animation.options().format.extension())
    };
    let path = match &args.out {
        Some(out) if out.is_dir() => out.join(file()),
        Some(out) => out.clone(),
        None => PathBuf::from(file()),
    };
    if path.exists() && !args.force {
        outln!("{} exists, left alone (--force overwrites)", path.display())?;
        return Ok(());
    }
    // What a killed run writing this file left.
    playa::base::atomic::remove_stale_of(&path);
    let start = Instant::now();
    frames.write_file(&path, &Progress::default())?;
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    let (w, h) = animation.size();
    outln!(
        "{} frames from {} at {w}x{h} in {}: {}, {}",
        animation.frame_count(),
        dir.display(),
        playa::output::picture::duration_text(start.elapsed()),
        path.display(),
        size_text(bytes),
    )?;
    Ok(())
}

/// What the frames show, for the summary: `generations 0..=8`, or the
/// sweep, `time 5..=20:60`.
fn shown(options: &Options) -> String {
    match &options.sweep {
        Some(sweep) => sweep.label(),
        None => format!("generations {}..={}", options.first, options.last),
    }
}

/// What a file name says of a sweep: its key, without a layer's `#`
/// (`tent2.x`).
fn sweep_file_key(sweep: &Sweep) -> String {
    sweep.key.replace('#', "")
}

/// Parses a decimal number given to `flag`.
fn parse_number(flag: &str, text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{flag} {} is not a number", quote(text)))
}

/// `bytes` in KiB or MiB.
fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.0} KiB", (bytes as f64 / 1024.0).ceil())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_ranges_leave_the_end_out_unless_written_dot_dot_equals() {
        let frames = |text: &str| parse_range::<u32>("--frames", text);
        assert_eq!(frames("0..24"), Ok((0, 23)));
        assert_eq!(frames("3..=7"), Ok((3, 7)));
        assert_eq!(frames(" 4 ..= 4 "), Ok((4, 4)));
        for bad in [
            "5..3", "4..4", "4..=3", "..", "3..", "..3", "a..3", "7", "-1..3",
        ] {
            let err = frames(bad).unwrap_err();
            assert!(
                err.starts_with("--frames")
                    && err.ends_with(&format!("({})", playa::base::range::RULE)),
                "{bad}: {err}"
            );
        }
        assert!(frames("5..3").unwrap_err().contains("reversed"));
        assert!(frames("4..4").unwrap_err().contains("empty"));
        assert!(frames("3..").unwrap_err().contains("no end"));
    }

    #[test]
    fn sizes_read_in_kib_or_mib() {
        assert_eq!(size_text(1), "1 KiB");
        assert_eq!(size_text(3 << 20), "3.0 MiB");
    }
}
