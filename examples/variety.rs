//! How varied New scene's rolls are (issue 48): Vendi scores of a set of
//! held-out rolls' pictures, by colour and by layout; which layer kinds
//! they show; and the share inside the envelope (no flaw).
//! `cargo run --release --example variety -- [--preset NAME]
//! [--rolls A..B] [--size WxH] [--vary STRENGTHS] [--sheet FILE.png]
//! [--calibrate]` (default: rolls 1000..1240 of New scene from
//! death-valley, pictures of 64×36; `--vary 1.0,0.5` also measures one
//! Vary, at each strength, of each New-scene roll).
//!
//! The Vendi score (Friedman & Dieng 2022, "The Vendi Score") is the
//! effective number of different pictures in the set: with a similarity
//! K(x, y) (K(x, x) = 1) and the eigenvalues λ of K/n, it is
//! exp(−Σ λ log λ), from 1 (all alike) to n (all different). Here K is an
//! RBF of the mean squared difference of two pictures' vectors,
//! K = exp(−mean((x − y)²) / (2w²)), at a width w fixed once
//! ([`COLOUR_WIDTH`], [`LAYOUT_WIDTH`]), so that a score is an absolute
//! figure: a later build's rolls are compared with today's on the same
//! scale. The score grows with n: compare sets of the same size only.
//!
//! - Colour: each picture rendered at twice `--size` and averaged down to
//!   it (boxes of 2×2), its sRGB values as fractions of 1.
//! - Layout: the picture's luma (Rec. 709 weights on the sRGB values)
//!   averaged down to 32×18, then made zero-mean and unit-variance. That
//!   drops hue, overall brightness and contrast but keeps where things
//!   are (the horizon, the ranges' line, the tent, stones and clumps,
//!   the sun). For such vectors mean((a − b)²) = 2(1 − r), r their
//!   correlation, so K = exp(−(1 − r)/w²).
//!
//! For a Vary set, also how like its New-scene roll each varied scene
//! stays: the mean of K between the two, by colour and by layout.
//!
//! The layer kinds: for each kind, the share of rolls that show it
//! (visible); how many kinds at least one roll in twenty shows; how many
//! different sets of shown kinds there are, with and without the spiral.
//!
//! The envelope: a roll is inside when its list of flaws is empty: the
//! library's (`playa::explore::randomize::flaws`, from the layers' cover
//! estimates) and what only the picture shows ([`picture_flaws`]).

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Parser;
use image::RgbaImage;
use playa::explore::randomize::{Locks, new_scene, vary};
use playa::explore::sheet;
use playa::{Layer, Scene};
use rayon::prelude::*;

/// The width of the colour kernel, in sRGB fractions (a root mean square
/// difference per value). Chosen once, on commit d37094b (before issue
/// 48's New scene), so that the default run (rolls 1000..1240 of New scene
/// from death-valley at 64×36) scores what issue 48 gives for those
/// rolls, 30: `--calibrate` found 0.1157, rounded to 0.116, which scores
/// 29.8. Never to be re-chosen: later builds are measured against it.
const COLOUR_WIDTH: f64 = 0.116;

/// The width of the layout kernel, on z-normalised luma (K = exp(−(1 −
/// r)/w²), r the correlation). Chosen once, as [`COLOUR_WIDTH`] was, for
/// issue 48's 22: `--calibrate` found 0.7994, rounded to 0.8, which scores
/// 21.9.
const LAYOUT_WIDTH: f64 = 0.8;

/// What `--calibrate` aims the widths at: issue 48's figures for today's
/// 240 rolls, colour then layout.
const TARGETS: (f64, f64) = (30.0, 22.0);

/// The layout vectors' size: coarse enough that a stone's exact place
/// does not count, fine enough to see the horizon, a range's line and a
/// tent.
const LAYOUT: (u32, u32) = (32, 18);

/// Each picture is rendered at this many times `--size` and averaged down,
/// so that small things (stones, a tent) count by their area instead of
/// being hit or missed by a pixel.
const SUPERSAMPLE: u32 = 2;

/// A kind shown in at least this share of the rolls counts as one New
/// scene uses.
const COMMON_KIND: f64 = 0.05;

/// A floor (the rows below the horizon) darker than this mean luma (sRGB
/// fraction) is a flaw: nothing to see. At 64×36 the darkest preset's is
/// 0.14, and the darkest of today's rolls 1000..1240 (and their Varies)
/// 0.12.
const DARK_FLOOR: f64 = 0.05;

/// A picture whose luma varies less than this (standard deviation, sRGB
/// fraction) is a flaw: an empty picture. At 64×36 the flattest preset's
/// is 0.058, the flattest of today's rolls 0.044.
const FLAT: f64 = 0.02;

/// The most rolls measured at once: the kernel matrices are n × n and
/// their eigenvalues take n³ steps.
const MAX_ROLLS: u64 = 1000;

/// The sets of shown kinds listed, the commonest first.
const TOP_SETS: usize = 8;

/// Measures how varied New scene's rolls are.
#[derive(Parser)]
#[command(name = "variety")]
struct Args {
    /// The shipped preset New scene rolls from.
    #[arg(long, default_value = playa::scene::presets::DEFAULT)]
    preset: String,
    /// The roll numbers, A..B (B not included); held out from any roll
    /// looked at while tuning New scene.
    #[arg(long, default_value = "1000..1240", value_parser = parse_rolls)]
    rolls: Range<u64>,
    /// The size of the pictures compared, WxH, at least 32x18. The widths
    /// were chosen at 64x36: compare figures at one size only (at 128x72
    /// today's colour score is 35.6, not 29.8).
    #[arg(long, default_value = "64x36", value_parser = parse_size)]
    size: (u32, u32),
    /// Also measure one Vary of each New-scene roll at each of these
    /// strengths, e.g. 1.0,0.5.
    #[arg(long, value_delimiter = ',', value_parser = parse_strength)]
    vary: Vec<f32>,
    /// Writes a contact sheet of New scene's first 16 rolls to this PNG.
    #[arg(long)]
    sheet: Option<PathBuf>,
    /// Also prints the kernel widths that would give issue 48's figures
    /// (30 and 22) on New scene's rolls.
    #[arg(long)]
    calibrate: bool,
}

fn parse_rolls(text: &str) -> Result<Range<u64>, String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("{text:?} is not A..B"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|e| format!("{t:?} in {text:?}: {e}"))
    };
    let (a, b) = (number(a)?, number(b)?);
    if !(2..=MAX_ROLLS).contains(&b.saturating_sub(a)) {
        return Err(format!("{text:?} is not 2 to {MAX_ROLLS} rolls"));
    }
    Ok(a..b)
}

fn parse_strength(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(s) if (0.0..=1.0).contains(&s) => Ok(s),
        _ => Err(format!("{text:?} is not a strength of 0 to 1")),
    }
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once('x')
        .ok_or_else(|| format!("{text:?} is not WxH"))?;
    let number = |t: &str, least: u32| match t.parse::<u32>() {
        Ok(n) if (least..=1024).contains(&n) => Ok(n),
        _ => Err(format!(
            "{t:?} in {text:?} is not a side of {least} to 1024"
        )),
    };
    Ok((number(w, LAYOUT.0)?, number(h, LAYOUT.1)?))
}

/// One scene of a set, measured.
struct Measured {
    scene: Scene,
    /// sRGB fractions at `--size`, three a pixel.
    colour: Vec<f64>,
    /// Z-normalised luma at [`LAYOUT`].
    layout: Vec<f64>,
    flaws: Vec<String>,
}

fn measure(scene: Scene, size: (u32, u32)) -> Result<Measured> {
    let (w, h) = size;
    let picture = playa::render(&scene, w * SUPERSAMPLE, h * SUPERSAMPLE)
        .with_context(|| format!("rendering scene seed {}", scene.seed))?;
    let colour = average(&picture, size);
    let luma: Vec<f64> = colour
        .chunks_exact(3)
        .map(|p| 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2])
        .collect();
    let layout = z_normalised(box_down(&luma, size, LAYOUT));
    // flaws: the library's envelope (the layers' cover estimates), and
    // what only the picture shows.
    let mut flaws = playa::explore::randomize::flaws(&scene);
    flaws.extend(picture_flaws(&scene, &luma, size));
    Ok(Measured {
        scene,
        colour,
        layout,
        flaws,
    })
}

/// The picture's sRGB fractions averaged down to `size`.
fn average(picture: &RgbaImage, size: (u32, u32)) -> Vec<f64> {
    let from = picture.dimensions();
    let channel = |c: usize| {
        let plane: Vec<f64> = picture
            .pixels()
            .map(|p| f64::from(p.0[c]) / 255.0)
            .collect();
        box_down(&plane, from, size)
    };
    let (r, g, b) = (channel(0), channel(1), channel(2));
    (0..r.len()).flat_map(|i| [r[i], g[i], b[i]]).collect()
}

/// A plane of `from` pixels averaged over boxes down to `to` (each box the
/// source pixels whose index scales into the target one).
fn box_down(plane: &[f64], from: (u32, u32), to: (u32, u32)) -> Vec<f64> {
    let (fw, fh) = (from.0 as usize, from.1 as usize);
    let (tw, th) = (to.0 as usize, to.1 as usize);
    let mut sums = vec![0.0; tw * th];
    let mut counts = vec![0u32; tw * th];
    for y in 0..fh {
        for x in 0..fw {
            let i = (y * th / fh) * tw + x * tw / fw;
            sums[i] += plane[y * fw + x];
            counts[i] += 1;
        }
    }
    sums.iter()
        .zip(&counts)
        .map(|(s, &c)| s / f64::from(c.max(1)))
        .collect()
}

/// `v` less its mean, over its standard deviation (all zeros when it has
/// none).
fn z_normalised(mut v: Vec<f64>) -> Vec<f64> {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    for x in &mut v {
        *x = if sd > 1e-9 { (*x - mean) / sd } else { 0.0 };
    }
    v
}

/// What keeps `scene` from being shown that only its picture's `luma` at
/// `size` shows: a floor too dark to see ([`DARK_FLOOR`]), a flat picture
/// ([`FLAT`]).
fn picture_flaws(scene: &Scene, luma: &[f64], size: (u32, u32)) -> Vec<String> {
    let mut flaws = Vec::new();
    let (w, h) = (size.0 as usize, size.1 as usize);
    let top = ((f64::from(scene.horizon) * h as f64).ceil() as usize).min(h - 1);
    let floor = &luma[top * w..];
    if floor.iter().sum::<f64>() / (floor.len() as f64) < DARK_FLOOR {
        flaws.push("dark floor".to_string());
    }
    let mean = luma.iter().sum::<f64>() / luma.len() as f64;
    let var = luma.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / luma.len() as f64;
    if var.sqrt() < FLAT {
        flaws.push("flat picture".to_string());
    }
    flaws
}

/// The mean squared difference of every pair of `vectors`, n × n.
fn distances(vectors: &[&[f64]]) -> Vec<f64> {
    let n = vectors.len();
    let rows: Vec<Vec<f64>> = (0..n)
        .into_par_iter()
        .map(|i| {
            (0..n)
                .map(|j| mean_squared(vectors[i], vectors[j]))
                .collect()
        })
        .collect();
    rows.concat()
}

fn mean_squared(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>() / a.len() as f64
}

/// The RBF similarity of a mean squared difference at `width`.
fn kernel(d2: f64, width: f64) -> f64 {
    (-d2 / (2.0 * width * width)).exp()
}

/// The Vendi score of n items whose mean squared differences are `d2`
/// (n × n), under [`kernel`] at `width`.
fn vendi(d2: &[f64], width: f64) -> f64 {
    let n = (d2.len() as f64).sqrt().round() as usize;
    let k: Vec<f64> = d2.iter().map(|&d| kernel(d, width) / n as f64).collect();
    let entropy: f64 = eigenvalues(k, n)
        .into_iter()
        .filter(|&l| l > 1e-15)
        .map(|l| -l * l.ln())
        .sum();
    entropy.exp()
}

/// The eigenvalues of the symmetric n × n matrix `a` (row-major), by
/// cyclic Jacobi rotations until the off-diagonal is negligible.
fn eigenvalues(mut a: Vec<f64>, n: usize) -> Vec<f64> {
    let total: f64 = a.iter().map(|x| x * x).sum();
    for _sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|p| (p + 1..n).map(move |q| (p, q)))
            .map(|(p, q)| a[p * n + q].powi(2))
            .sum();
        if off <= 1e-24 * total {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                // The rotation that zeroes a[p][q] (Numerical Recipes §11.1).
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (kp, kq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * kp - s * kq;
                    a[k * n + q] = s * kp + c * kq;
                }
                for k in 0..n {
                    let (pk, qk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * pk - s * qk;
                    a[q * n + k] = s * pk + c * qk;
                }
            }
        }
    }
    (0..n).map(|i| a[i * n + i]).collect()
}

/// The width at which the Vendi score of `d2` is `target` (the score falls
/// as the width grows), by bisection on its logarithm.
fn width_for(d2: &[f64], target: f64) -> f64 {
    let (mut lo, mut hi) = (1e-3_f64.ln(), 10_f64.ln());
    for _ in 0..30 {
        let mid = (lo + hi) / 2.0;
        if vendi(d2, mid.exp()) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The names of every layer kind, in kind order.
fn kind_names() -> Vec<&'static str> {
    Layer::every_kind().iter().map(Layer::name).collect()
}

/// The kinds `scene` shows, in kind order.
fn shown(scene: &Scene) -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> = scene
        .layers
        .iter()
        .filter(|l| l.visible())
        .map(Layer::name)
        .collect();
    let order = kind_names();
    kinds.sort_by_key(|k| order.iter().position(|o| o == k));
    kinds.dedup();
    kinds
}

/// The report on one set: Vendi scores, kinds, the envelope; and, for a
/// Vary set, how like its New-scene roll each scene stays.
fn report(title: &str, set: &[Measured], parents: Option<&[Measured]>) {
    let n = set.len();
    println!("{title}");
    let colours: Vec<&[f64]> = set.iter().map(|m| m.colour.as_slice()).collect();
    let layouts: Vec<&[f64]> = set.iter().map(|m| m.layout.as_slice()).collect();
    let (colour, layout) = (distances(&colours), distances(&layouts));
    println!(
        "  Vendi score, colour: {:.1}   layout: {:.1}   (of {n})",
        vendi(&colour, COLOUR_WIDTH),
        vendi(&layout, LAYOUT_WIDTH)
    );
    if let Some(parents) = parents {
        let likeness = |f: fn(&Measured) -> &[f64], width: f64| {
            set.iter()
                .zip(parents)
                .map(|(m, p)| kernel(mean_squared(f(m), f(p)), width))
                .sum::<f64>()
                / n as f64
        };
        println!(
            "  Likeness to its New-scene roll (mean kernel), colour: {:.2}   layout: {:.2}",
            likeness(|m| &m.colour, COLOUR_WIDTH),
            likeness(|m| &m.layout, LAYOUT_WIDTH)
        );
    }

    let inside = set.iter().filter(|m| m.flaws.is_empty()).count();
    let mut flaws: HashMap<&str, usize> = HashMap::new();
    for flaw in set.iter().flat_map(|m| &m.flaws) {
        // A flaw's kind: its text up to a colon, if it gives figures after.
        *flaws
            .entry(flaw.split(':').next().unwrap_or(flaw))
            .or_default() += 1;
    }
    let mut flaws: Vec<_> = flaws.into_iter().collect();
    flaws.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    println!(
        "  Inside the envelope: {inside} of {n} ({:.1}%)",
        percent(inside, n)
    );
    for (flaw, count) in flaws.iter().take(5) {
        println!("    {count:>4}  {flaw}");
    }

    let sets: Vec<Vec<&str>> = set.iter().map(|m| shown(&m.scene)).collect();
    let names = kind_names();
    let share = |kind: &str| sets.iter().filter(|s| s.contains(&kind)).count();
    let line: Vec<String> = names
        .iter()
        .map(|k| format!("{k} {:.0}%", percent(share(k), n)))
        .collect();
    println!("  Kinds shown: {}", line.join(", "));
    let common = names
        .iter()
        .filter(|k| share(k) as f64 >= COMMON_KIND * n as f64)
        .count();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for s in &sets {
        *counts.entry(s.join(" ")).or_default() += 1;
    }
    let without_spiral: std::collections::BTreeSet<Vec<&&str>> = sets
        .iter()
        .map(|s| s.iter().filter(|k| **k != "spiral").collect())
        .collect();
    println!(
        "  Kinds in at least {:.0}% of rolls: {common} of {}; sets of kinds: {} ({} without the spiral)",
        COMMON_KIND * 100.0,
        names.len(),
        counts.len(),
        without_spiral.len()
    );
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (kinds, count) in counts.iter().take(TOP_SETS) {
        println!("    {count:>4}  {kinds}");
    }
    println!();
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("variety: {e:#}");
        std::process::exit(1);
    }
}

fn run(args: Args) -> Result<()> {
    let start = Instant::now();
    let base = playa::scene::presets::load(&args.preset)?;
    let locks = Locks::default();
    let rolls: Vec<u64> = args.rolls.clone().collect();

    let presets: Vec<Measured> = playa::scene::presets::PRESETS
        .par_iter()
        .map(|p| measure(p.scene()?, args.size))
        .collect::<Result<_>>()?;
    let mut renders = presets.len();
    let outside: Vec<String> = playa::scene::presets::PRESETS
        .iter()
        .zip(&presets)
        .filter(|(_, m)| !m.flaws.is_empty())
        .map(|(p, m)| format!("{} ({})", p.name, m.flaws.join(", ")))
        .collect();

    let new: Vec<Measured> = rolls
        .par_iter()
        .map(|&r| measure(new_scene(&base, &locks, r), args.size))
        .collect::<Result<_>>()?;
    renders += new.len();
    println!(
        "Variety of New scene from {}, rolls {}..{}, pictures {}x{} (widths: colour {COLOUR_WIDTH}, layout {LAYOUT_WIDTH})",
        args.preset, args.rolls.start, args.rolls.end, args.size.0, args.size.1
    );
    println!(
        "Shipped presets inside the envelope: {} of {}{}",
        presets.len() - outside.len(),
        presets.len(),
        if outside.is_empty() {
            String::new()
        } else {
            format!("; outside: {}", outside.join("; "))
        }
    );
    println!();
    report("New scene", &new, None);
    if args.calibrate {
        let colours: Vec<&[f64]> = new.iter().map(|m| m.colour.as_slice()).collect();
        let layouts: Vec<&[f64]> = new.iter().map(|m| m.layout.as_slice()).collect();
        println!(
            "Calibration: widths for Vendi {} (colour) and {} (layout) on these rolls: {:.4}, {:.4}",
            TARGETS.0,
            TARGETS.1,
            width_for(&distances(&colours), TARGETS.0),
            width_for(&distances(&layouts), TARGETS.1)
        );
        println!();
    }

    for &strength in &args.vary {
        let varied: Vec<Measured> = new
            .par_iter()
            .zip(&rolls)
            .map(|(m, &r)| measure(vary(&m.scene, &locks, r, strength), args.size))
            .collect::<Result<_>>()?;
        renders += varied.len();
        report(
            &format!("Vary at strength {strength}, once from each roll"),
            &varied,
            Some(&new),
        );
    }

    if let Some(path) = &args.sheet {
        let cells: Vec<sheet::Cell> = new
            .iter()
            .zip(&rolls)
            .take(16)
            .map(|(m, r)| sheet::Cell {
                scene: m.scene.clone(),
                label: format!("roll {r}"),
            })
            .collect();
        sheet::write_file(path, &cells, &sheet::Layout::default())
            .with_context(|| format!("writing the sheet {}", path.display()))?;
        println!(
            "Sheet of the first {} rolls: {}",
            cells.len(),
            path.display()
        );
    }
    println!(
        "{renders} scenes rolled and rendered, measured in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_finds_known_eigenvalues() {
        // [[2, 1, 0], [1, 2, 0], [0, 0, 5]]: 1, 3 and 5.
        let a = vec![2.0, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 5.0];
        let mut l = eigenvalues(a, 3);
        l.sort_by(f64::total_cmp);
        for (got, want) in l.iter().zip([1.0, 3.0, 5.0]) {
            assert!((got - want).abs() < 1e-12, "{l:?}");
        }
    }

    #[test]
    fn vendi_counts_distinct_items() {
        // Four items all far apart score 4; four alike score 1; two pairs
        // of twins score 2.
        let far: Vec<f64> = (0..16)
            .map(|i| if i % 5 == 0 { 0.0 } else { 1e3 })
            .collect();
        assert!((vendi(&far, 1.0) - 4.0).abs() < 1e-9);
        assert!((vendi(&[0.0; 16], 1.0) - 1.0).abs() < 1e-9);
        let pairs: Vec<f64> = (0..16)
            .map(|i| if (i / 4) / 2 == (i % 4) / 2 { 0.0 } else { 1e3 })
            .collect();
        assert!((vendi(&pairs, 1.0) - 2.0).abs() < 1e-9);
    }

    #[test]
    fn box_down_averages() {
        let plane = [1.0, 3.0, 5.0, 7.0];
        assert_eq!(box_down(&plane, (2, 2), (1, 1)), vec![4.0]);
        assert_eq!(box_down(&plane, (2, 2), (2, 1)), vec![3.0, 5.0]);
    }
}
