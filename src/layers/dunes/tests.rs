//! The dunes' checks: chunks of rows marched as the bands are drawn, in
//! any order, on several threads and in windows, paint the bits of the
//! whole march; a large picture's dunes hold a few rows, not the picture;
//! the sand has no cliffs; every build paints the portable one's bits.

use std::ops::Range;

use rayon::prelude::*;

use super::field::Samples;
use super::*;
use crate::base::color::Linear;
use crate::base::math;
use crate::base::palette::TimeOfDay;
use crate::base::simd::Build;
use crate::compose::Plan;
use crate::layers::world::METRE;
use crate::layers::{BAND_ROWS, Band};
use crate::scene::Scene;

/// The bits `draw` paints, band by band.
fn paint(w: u32, h: u32, draw: &DunesDraw) -> Vec<u32> {
    crate::layers::paint_bands(w, h, |band| draw.draw(band))
}

/// The bits `draw` paints on columns `cols` of rows `y0..y1` (in one of
/// the picture's bands), over a background that varies from pixel to
/// pixel of the picture.
fn paint_band(draw: &DunesDraw, cols: &Range<u32>, (y0, y1): (u32, u32)) -> Vec<u32> {
    let mut px: Vec<Linear> = (y0..y1)
        .flat_map(|y| {
            cols.clone()
                .map(move |x| [(x % 7) as f32 * 0.1, 0.3, (y % 5) as f32 * 0.2])
        })
        .collect();
    draw.draw(&mut Band {
        y0,
        rows: y1 - y0,
        x0: cols.start,
        width: cols.len() as u32,
        index: (y0 / BAND_ROWS) as usize,
        px: &mut px,
        depth: None,
    });
    px.iter().flatten().map(|v| v.to_bits()).collect()
}

/// The picture's bands of rows, cut to `rows`, as a window draws them.
fn bands(rows: Range<u32>) -> Vec<(u32, u32)> {
    let first = rows.start / BAND_ROWS;
    (first..rows.end.div_ceil(BAND_ROWS))
        .map(|b| {
            let y0 = (b * BAND_ROWS).max(rows.start);
            (y0, ((b + 1) * BAND_ROWS).min(rows.end))
        })
        .collect()
}

/// A scene of the dunes `dunes` at `time`, the wind at `wind` degrees,
/// the horizon at `horizon`.
fn scene(time: TimeOfDay, wind: f32, horizon: f32, seed: u64) -> Scene {
    Scene {
        time,
        wind,
        horizon,
        seed,
        ..Scene::default()
    }
}

/// [`scene`] in the second look, whose sand is smoothed at its edges
/// from the pixels around each band.
fn sand_scene(time: TimeOfDay, wind: f32, horizon: f32, seed: u64) -> Scene {
    Scene {
        look: LOOK_SAND,
        ..scene(time, wind, horizon, seed)
    }
}

/// Where the depths of every pixel are not kept, the bands' chunks of
/// rows, each marched from where its columns' marches start, give the
/// bits of the whole march: for every form, in pictures and windows
/// whose last chunk and band are short, with the bands drawn in any
/// order and on several threads.
#[test]
fn chunks_paint_the_bits_of_the_whole_march() {
    let cases = [
        (1, 0.95, 14.0, 140.0, TimeOfDay::Dawn, 200.0, 0.42, 1),
        (1, 0.6, 40.0, 150.0, TimeOfDay::Noon, 90.0, 0.2, 1),
        (0, 0.25, 10.0, 140.0, TimeOfDay::Morning, 80.0, 0.35, 1),
        (2, 0.9, 30.0, 200.0, TimeOfDay::GoldenHour, 10.0, 0.5, 1),
        (
            1,
            0.95,
            14.0,
            140.0,
            TimeOfDay::GoldenHour,
            200.0,
            0.42,
            LOOK_SAND,
        ),
        (2, 0.9, 30.0, 200.0, TimeOfDay::Dawn, 10.0, 0.5, LOOK_SAND),
    ];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    for (i, case) in cases.into_iter().enumerate() {
        let (form, cover, height, spacing, time, wind, horizon, look) = case;
        let dunes = Dunes {
            form,
            cover,
            height,
            spacing,
            ..Dunes::default()
        };
        let scene = Scene {
            look,
            ..scene(time, wind, horizon, i as u64)
        };
        let plan = Plan::new(&scene).unwrap();
        for (w, h) in [(301, 517), (97, 1000)] {
            // The whole picture, drawn from the depths of every pixel.
            let frame = plan.frame(w, h);
            let whole = dunes.prepare_with(&frame, Build::best(), usize::MAX);
            assert!(whole.whole.is_some());
            let all = 0..w;
            let picture: Vec<Vec<u32>> = bands(0..h)
                .into_iter()
                .map(|b| paint_band(&whole, &all, b))
                .collect();
            let lazy = dunes.prepare_with(&frame, Build::best(), 0);
            assert!(lazy.whole.is_none() && lazy.first == whole.first);
            // Top to bottom, bottom to top, and on three threads.
            let down: Vec<Vec<u32>> = bands(0..h)
                .into_iter()
                .map(|b| paint_band(&lazy, &all, b))
                .collect();
            assert!(down == picture, "case {i}, {w}x{h}: chunks differ");
            let mut up: Vec<Vec<u32>> = bands(0..h)
                .into_iter()
                .rev()
                .map(|b| paint_band(&lazy, &all, b))
                .collect();
            up.reverse();
            assert!(up == picture, "case {i}, {w}x{h}: chunks upward differ");
            let lazy = dunes.prepare_with(&frame, Build::best(), 0);
            let threads: Vec<Vec<u32>> = pool.install(|| {
                bands(0..h)
                    .into_par_iter()
                    .map(|b| paint_band(&lazy, &all, b))
                    .collect()
            });
            assert!(threads == picture, "case {i}, {w}x{h}: threads differ");
            // Windows, prepared for their own pixels alone.
            for (cols, rows) in [
                (13..250, 203..517),
                (0..1, 100..400),
                (40..90, 0..h / 2 + 3),
                (w - 33..w, h - 70..h - 1),
            ] {
                let cols = cols.start.min(w - 1)..cols.end.min(w);
                let mut frame = plan.frame(w, h);
                (frame.cols, frame.rows) = (cols.clone(), rows.clone());
                let window = dunes.prepare_with(&frame, Build::best(), 0);
                for b in bands(rows.clone()) {
                    let cut: Vec<u32> = picture[(b.0 / BAND_ROWS) as usize]
                        .chunks(3 * w as usize)
                        .skip((b.0 % BAND_ROWS) as usize)
                        .take((b.1 - b.0) as usize)
                        .flat_map(|row| &row[3 * cols.start as usize..3 * cols.end as usize])
                        .copied()
                        .collect();
                    assert!(
                        paint_band(&window, &cols, b) == cut,
                        "case {i}, {w}x{h}: window {cols:?} x {rows:?} differs at rows {b:?}"
                    );
                }
            }
        }
    }
}

/// The dunes of a large picture hold where each chunk's marches start
/// and the depths of a chunk of rows for each thread drawing, not of
/// every pixel: a streamed dune sea 32768×18432 held 2.25 GiB of them.
#[test]
fn the_dunes_hold_a_few_rows_not_the_picture() {
    let (w, h) = (1500u32, 2600u32);
    let scene = crate::scene::presets::load("dune-sea").unwrap();
    let composer = Plan::new(&scene).unwrap().at(w, h).unwrap();
    let rows = 32;
    let mut scratch = composer.scratch();
    let mut out = vec![0; (w * rows * 4) as usize];
    for y0 in (0..h).step_by(rows as usize) {
        let n = rows.min(h - y0);
        composer.render_rows(y0, &mut out[..(w * n * 4) as usize], &mut scratch);
    }
    let (_, dunes) = composer
        .into_layers()
        .find(|(i, _)| matches!(scene.layers[*i], crate::layers::Layer::Dunes(_)))
        .unwrap();
    let dunes = dunes.into_any().downcast::<DunesDraw>().unwrap();
    let picture = (w * h * 4) as usize;
    // A chunk of rows and the row after it, for each thread and one
    // more;
    // a start for each block of columns and chunk of rows.
    let chunk = (CHUNK as usize + 1) * (w as usize).div_ceil(LANES) * LANES * 4;
    let chunks = (rayon::current_num_threads() + 1) * chunk;
    let starts = (w as usize).div_ceil(LANES) * (h / CHUNK) as usize * 4;
    let held = dunes.held_bytes();
    assert!(
        held <= chunks + starts && held < picture / 8,
        "the dunes hold {held} bytes"
    );
}

/// The sand has no cliffs: along lines across many dunes of every
/// form, its height changes between points a centimetre apart by no
/// more than a slope steeper than any face allows. (Star dunes once
/// drew an arm's dice only where a point lay beside it, so the arms
/// moved from point to point.)
#[test]
fn the_sand_has_no_cliffs() {
    for (form, sand_look) in (0..3).flat_map(|f| [(f, false), (f, true)]) {
        let dunes = Dunes {
            form,
            height: 30.0,
            spacing: 300.0,
            cover: 0.6,
            ..Dunes::default()
        };
        let field = Field::new(&dunes, [0.6, 0.8], [0.5, 0.4, -0.77], 11, sand_look);
        let step = 0.01 * METRE;
        let mut mid = 0;
        for line in 0..40 {
            let angle = line as f32 * 0.37;
            let (dx, dz) = (math::cos(angle) * step, math::sin(angle) * step);
            let (x0, z0) = (line as f32 * 3.1 - 60.0, 50.0 + line as f32 * 1.7);
            let points = 60_000;
            let x: Vec<f32> = (0..points).map(|k| x0 + k as f32 * dx).collect();
            let z: Vec<f32> = (0..points).map(|k| z0 + k as f32 * dz).collect();
            let mut samples = Samples::default();
            field.samples(Build::Portable, &x, &z, None, &mut samples);
            for k in 1..points {
                let (a, b) = (samples.h[k - 1], samples.h[k]);
                mid += usize::from(b > 0.5 * field.tallest);
                assert!(
                    (b - a).abs() <= 2.0 * step,
                    "form {form}: the sand steps by {} from ({}, {})",
                    b - a,
                    x[k],
                    z[k]
                );
            }
        }
        assert!(mid > 1000, "form {form}: the lines cross few dunes");
    }
}

/// The sand's sampling and light are written to vectorize, built for
/// AVX2 where the CPU has it: every build marches and paints the bits
/// of the portable one, for every form, sun and wind.
#[test]
fn every_build_paints_the_bits_of_the_portable_one() {
    let cases = [
        (1, TimeOfDay::Dawn, 200.0, 0.95),
        (1, TimeOfDay::Noon, 90.0, 0.4),
        (1, TimeOfDay::GoldenHour, 10.0, 0.7),
        (1, TimeOfDay::Night, 300.0, 1.0),
        (0, TimeOfDay::GoldenHour, 250.0, 0.5),
        (2, TimeOfDay::Dawn, 120.0, 0.8),
    ];
    let (w, h) = (389, 233);
    for (form, time, wind, cover) in cases {
        let mut scene = Scene {
            time,
            wind,
            horizon: 0.45,
            ..Scene::default()
        };
        scene.seed = u64::from(form) + 3;
        let dunes = Dunes {
            form,
            cover,
            ..Dunes::default()
        };
        let plan = Plan::new(&scene).unwrap();
        let frame = plan.frame(w, h);
        let portable = dunes.prepare_with(&frame, Build::Portable, usize::MAX);
        let reference = paint(w, h, &portable);
        let depth = |d: &DunesDraw| d.whole.as_ref().expect("whole depths").iz.clone();
        assert!(depth(&portable).iter().any(|&iz| iz > 0.0));
        for build in Build::all().into_iter().filter(|&b| b != Build::Portable) {
            let other = dunes.prepare_with(&frame, build, usize::MAX);
            assert!(
                depth(&other) == depth(&portable) && paint(w, h, &other) == reference,
                "form {form}, {time:?}, wind {wind}: {build:?} gives other bits"
            );
        }
    }
}

/// The dune-sea preset's dunes: transverse ridges 14 m high, 140 m apart.
fn dune_sea() -> Dunes {
    Dunes {
        form: 1,
        height: 14.0,
        spacing: 140.0,
        cover: 0.95,
        ..Dunes::default()
    }
}

/// From the second look a ridge's crest rises and falls along its length,
/// so its slip face is no band of even width (one read as a river), and
/// the face curves out into its foot rather than meeting the sand in a
/// crease: the first look's crests keep over a third of the tallest's
/// height and its faces fall at the angle of repose to the foot.
#[test]
fn the_second_look_s_slip_faces_vary_and_curve_into_their_foot() {
    let dunes = dune_sea();
    for sand_look in [false, true] {
        let field = Field::new(&dunes, [0.6, 0.8], [0.5, 0.4, -0.77], 11, sand_look);
        // The crests' heights along a stretch of a hundred spacings.
        let heights: Vec<f32> = (0..2000)
            .map(|i| field.crest(3, i as f32 * 0.05 * field.spacing).0)
            .collect();
        let (low, high) = heights
            .iter()
            .fold((f32::MAX, 0.0f32), |(lo, hi), &h| (lo.min(h), hi.max(h)));
        if sand_look {
            assert!(
                low < 0.25 * high,
                "the crests keep between {low} and {high}"
            );
        } else {
            assert!(
                low > 0.35 * high,
                "the first look's crests: {low} to {high}"
            );
        }
        // Down the wind across ten ridges: the slope of each slip face
        // at its foot (its lowest fiftieth).
        let steps = 100_000;
        let du = 10.0 * field.spacing / steps as f32;
        let x: Vec<f32> = (0..steps).map(|k| k as f32 * du * 0.6).collect();
        let z: Vec<f32> = (0..steps).map(|k| k as f32 * du * 0.8).collect();
        let mut samples = Samples::default();
        field.samples(Build::Portable, &x, &z, None, &mut samples);
        let feet: Vec<f32> = (0..steps)
            .filter(|&k| samples.face[k] & 1 == 1 && samples.h[k] < 0.02 * field.tallest)
            .map(|k| samples.gx[k].hypot(samples.gz[k]))
            .collect();
        assert!(feet.len() > 10, "the line crosses few slip faces");
        let gentlest = feet.iter().copied().fold(f32::MAX, f32::min);
        if sand_look {
            assert!(
                gentlest < 0.2 * field::REPOSE,
                "the feet fall at {gentlest}"
            );
        } else {
            assert!(
                gentlest > 0.5 * field::REPOSE,
                "the first look's feet: {gentlest}"
            );
        }
    }
}

/// From the second look a brink, a nearer crest over farther sand and a
/// shadow's edge are drawn smooth, not in steps: beside them a pixel takes
/// its neighbours' light, so that few neighbouring pixels differ by much.
#[test]
fn the_second_look_draws_edges_smooth() {
    let dunes = dune_sea();
    let plan = Plan::new(&sand_scene(TimeOfDay::GoldenHour, 200.0, 0.42, 3)).unwrap();
    let (w, h) = (320, 180);
    let frame = plan.frame(w, h);
    let mut draw = dunes.prepare_with(&frame, Build::best(), usize::MAX);
    assert!(draw.antialias);
    // Neighbouring pixels of sand (under the horizon) whose luminance
    // differs by more than a fifth.
    let steps = |draw: &DunesDraw| {
        let bits = paint(w, h, draw);
        let lum = |x: u32, y: u32| {
            let i = 3 * (y * w + x) as usize;
            let c = |k: usize| f32::from_bits(bits[i + k]);
            0.2126 * c(0) + 0.7152 * c(1) + 0.0722 * c(2)
        };
        let first = frame.horizon.ceil() as u32 + 2;
        let mut n = 0;
        for y in first..h - 1 {
            for x in 0..w - 1 {
                let here = lum(x, y);
                n += usize::from((lum(x + 1, y) - here).abs() > 0.2);
                n += usize::from((lum(x, y + 1) - here).abs() > 0.2);
            }
        }
        n
    };
    let smooth = steps(&draw);
    draw.antialias = false;
    let stepped = steps(&draw);
    assert!(stepped > 100, "the sand has few edges to smooth: {stepped}");
    assert!(
        smooth * 4 < stepped,
        "{smooth} steps between neighbours, against {stepped} unsmoothed"
    );
}
