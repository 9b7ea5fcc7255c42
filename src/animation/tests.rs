//! Tests of the animation module: delays, options, changed rectangles,
//! the stream against the steps, threads and cells.

use image::RgbaImage;

use super::rect::Rect;
use super::*;
use crate::scene::{MAX_GENERATIONS, Scene};

/// A small animation of the light from 6:00 to 18:00 in 4 frames, with a
/// fixed wind.
fn small_sweep(format: Format) -> Animation {
    let mut scene = Scene::default();
    scene.automaton.columns = 64;
    scene.wind = 0.4;
    let options = Options {
        sweep: Some(Sweep::new("time", "6..=18:4")),
        format,
        ..Options::default()
    };
    Animation::new(&scene, &options, (48, 27)).unwrap()
}

fn small(format: Format) -> Animation {
    let mut scene = Scene::default();
    scene.automaton.columns = 64;
    let options = Options {
        first: 2,
        last: 6,
        format,
        ..Options::default()
    };
    Animation::new(&scene, &options, (48, 27)).unwrap()
}

#[test]
fn apng_delays_are_exact_fractions() {
    let o = Options {
        fps: 12.0,
        hold: 1.5,
        ..Options::default()
    };
    assert_eq!(o.apng_delay(0, 3), (1, 12));
    // 1/12 + 3/2 = 19/12.
    assert_eq!(o.apng_delay(2, 3), (19, 12));
    let o = Options {
        fps: 12.5,
        ..Options::default()
    };
    assert_eq!(o.apng_delay(0, 3), (2, 25));
    let o = Options {
        fps: 0.1,
        hold: 60.0,
        ..Options::default()
    };
    assert_eq!(o.apng_delay(0, 2), (10, 1));
    assert_eq!(o.apng_delay(1, 2), (70, 1));
    // 1/12.37 + 0.01 = 11237/123700 does not fit 16 bits: milliseconds.
    let o = Options {
        fps: 12.37,
        hold: 0.01,
        ..Options::default()
    };
    assert_eq!(o.apng_delay(1, 2), (91, 1000));
}

#[test]
fn gif_delays_keep_time_in_hundredths() {
    let o = Options {
        fps: 12.0,
        hold: 2.0,
        ..Options::default()
    };
    let delays: Vec<u16> = (0..12).map(|k| o.gif_delay(k, 12)).collect();
    assert_eq!(delays[..11], [8, 9, 8, 8, 9, 8, 8, 9, 8, 8, 9]);
    // 12 frames last one second, plus the hold.
    assert_eq!(delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 300);
    let o = Options {
        fps: 50.0,
        ..Options::default()
    };
    assert!((0..100).all(|k| o.gif_delay(k, 100) == 2));
}

#[test]
fn options_are_checked() {
    let bad = [
        Options {
            fps: 0.0,
            ..Options::default()
        },
        Options {
            fps: f32::NAN,
            ..Options::default()
        },
        Options {
            fps: 60.0,
            format: Format::Gif,
            ..Options::default()
        },
        Options {
            first: 5,
            last: 3,
            ..Options::default()
        },
        Options {
            last: MAX_GENERATIONS + 1,
            ..Options::default()
        },
        Options {
            hold: -1.0,
            ..Options::default()
        },
        Options {
            cells: Some(0),
            ..Options::default()
        },
    ];
    for o in bad {
        assert!(o.validate().is_err(), "{o:?}");
    }
    let gif = Options {
        fps: 60.0,
        format: Format::Gif,
        ..Options::default()
    };
    let err = gif.validate().unwrap_err().to_string();
    assert!(err.contains("at most 50"), "{err}");
    assert!(
        Options {
            fps: 60.0,
            ..Options::default()
        }
        .validate()
        .is_ok()
    );
}

#[test]
fn options_round_trip_through_ron() {
    let o = Options {
        first: 3,
        last: 30,
        fps: 7.5,
        hold: 1.25,
        loops: 2,
        cells: Some(4),
        format: Format::Gif,
        sweep: None,
    };
    assert_eq!(Options::from_ron(&o.to_ron(), "t").unwrap(), o);
    assert!(Options::from_ron("(fps: 0)", "t").is_err());
    assert!(Options::from_ron("(speed: 3)", "t").is_err());
}

proptest::proptest! {
    #[test]
    fn options_round_trip_and_any_text_is_valid_or_refused(
        first in 0u32..=MAX_GENERATIONS,
        span in 0u32..=MAX_GENERATIONS,
        fps in 10u32..=10_000,
        hold in 0u32..=6000,
        loops in 0u32..=MAX_LOOPS,
        cells in proptest::option::of(1u32..=MAX_CELL_SCALE),
        gif in proptest::bool::ANY,
        text in ".{0,80}",
    ) {
        let o = Options {
            first,
            last: (first + span).min(MAX_GENERATIONS),
            fps: fps as f32 / 100.0,
            hold: hold as f32 / 100.0,
            loops,
            cells,
            format: if gif && fps <= 5000 { Format::Gif } else { Format::Apng },
            sweep: None,
        };
        let o = Options { first: o.first.min(o.last), ..o.quantized() };
        proptest::prop_assert!(o.validate().is_ok(), "{:?}", o);
        proptest::prop_assert_eq!(Options::from_ron(&o.to_ron(), "t").unwrap(), o);
        let wrapped = format!("({text})");
        for t in [text.as_str(), wrapped.as_str()] {
            if let Ok(read) = Options::from_ron(t, "t") {
                proptest::prop_assert!(read.validate().is_ok());
            }
        }
    }
}

#[test]
fn changed_rectangles_hold_every_change() {
    let a = RgbaImage::from_pixel(9, 7, image::Rgba([1, 2, 3, 255]));
    assert_eq!(
        Rect::changed(&a, &a),
        Rect {
            x: 0,
            y: 0,
            width: 1,
            height: 1
        }
    );
    for points in [
        vec![(4, 3)],
        vec![(0, 0)],
        vec![(8, 6)],
        vec![(2, 1), (6, 5)],
        vec![(6, 1), (2, 5)],
        vec![(8, 0), (0, 6)],
    ] {
        let mut b = a.clone();
        for &(x, y) in &points {
            b.put_pixel(x, y, image::Rgba([9, 9, 9, 255]));
        }
        let r = Rect::changed(&a, &b);
        let xs = points.iter().map(|p| p.0);
        let ys = points.iter().map(|p| p.1);
        let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
        let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
        assert_eq!(
            r,
            Rect {
                x: x0,
                y: y0,
                width: x1 - x0 + 1,
                height: y1 - y0 + 1
            },
            "{points:?}"
        );
    }
}

#[test]
fn steps_make_the_same_bytes_as_write() {
    for format in Format::ALL {
        let animation = small(format);
        let mut streamed = Vec::new();
        assert!(
            animation
                .write(&mut streamed, &Progress::default())
                .unwrap()
        );
        let mut steps = animation.steps().unwrap();
        let bytes = loop {
            if let Some(bytes) = steps.step().unwrap() {
                break bytes;
            }
        };
        assert_eq!(steps.frames_written(), 5);
        assert!(bytes == streamed, "{format:?}");
    }
}

/// The file `animation` writes on a pool of `threads` threads.
fn written_on(animation: &Animation, threads: usize) -> Vec<u8> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut out = Vec::new();
    pool.install(|| animation.write(&mut out, &Progress::default()))
        .unwrap();
    out
}

#[test]
fn the_same_on_any_number_of_threads() {
    for format in Format::ALL {
        let animation = small(format);
        let bytes = |threads| written_on(&animation, threads);
        assert!(bytes(1) == bytes(3), "{format:?}");
    }
}

#[test]
fn cancel_stops_before_the_end() {
    let animation = small(Format::Apng);
    let progress = Progress::default();
    progress.cancel();
    let mut out = Vec::new();
    assert!(!animation.write(&mut out, &progress).unwrap());
    assert_eq!(progress.frames_written(), 0);
}

#[test]
fn cells_are_squares_of_the_scale() {
    let mut scene = Scene::default();
    scene.automaton.columns = 20;
    let (cols, rows) = scene.grid_size();
    let options = Options {
        cells: Some(3),
        first: 0,
        last: 1,
        ..Options::default()
    };
    assert_eq!(cells_size(&scene, 3), (cols as u32 * 3, rows as u32 * 3));
    assert!(Animation::new(&scene, &options, (100, 100)).is_err());
    let animation = Animation::new(&scene, &options, cells_size(&scene, 3)).unwrap();
    let plan = animation.plans().unwrap().next().unwrap().unwrap();
    let mut image = RgbaImage::new(cols as u32 * 3, rows as u32 * 3);
    animation.draw(&plan, &mut image).unwrap();
    for (x, y, p) in image.enumerate_pixels() {
        let alive = plan.grid().get(x as usize / 3, y as usize / 3);
        let want = if alive { LIVE_CELL } else { DEAD_CELL };
        assert_eq!(p.0[..3], want, "{x},{y}");
    }
    assert_eq!(cells_scale_to_fit(&scene, (cols as u32 * 3 + 2, 10_000)), 3);
    assert_eq!(cells_scale_to_fit(&scene, (1, 1)), 1);
}

#[test]
fn a_sweep_reads_from_ron_and_old_options_still_do() {
    let o = Options {
        sweep: Some(Sweep::new("clouds.drift", "0..1:8")),
        ..Options::default()
    };
    let text = o.to_ron();
    assert!(text.contains("sweep"), "{text}");
    assert_eq!(Options::from_ron(&text, "t").unwrap(), o);
    assert_eq!(o.frame_count(), 8);
    // Options written before sweeps have none, and without one none is
    // written: the generations' files keep their bytes.
    let old = "(first:0,last:8,fps:12.0,hold:0.0,loops:0,cells:None,format:Apng)";
    assert_eq!(Options::from_ron(old, "t").unwrap(), Options::default());
    assert_eq!(Options::default().to_ron(), old);
    for (values, says) in [
        ("0..1:1", "2 or more"),
        ("0..=1:1", "2 or more"),
        ("0..1:5000", "limit of 1000"),
        ("1..0:4", "reversed"),
    ] {
        let o = Options {
            sweep: Some(Sweep::new("wind", values)),
            ..Options::default()
        };
        let e = o.validate().unwrap_err().to_string();
        assert!(e.contains(says), "{values}: {e}");
        assert!(Options::from_ron(&o.to_ron(), "t").is_err());
    }
    let aspect = Options {
        sweep: Some(Sweep::new("aspect", "1..2:4")),
        ..Options::default()
    };
    assert!(
        aspect
            .validate()
            .unwrap_err()
            .to_string()
            .contains("one size")
    );
}

#[test]
fn a_sweeps_frames_are_the_scene_at_each_value() {
    let animation = small_sweep(Format::Apng);
    assert_eq!(animation.frame_count(), 4);
    // The recipe is the scene the sweep started from (its own noon); the
    // automaton keeps its own generations.
    assert_eq!(animation.scene().time, Scene::default().time);
    assert_eq!(
        animation.scene().automaton.generations,
        Scene::default().automaton.generations
    );
    assert_eq!(animation.frame_label(1), "time=10");
    let plans: Vec<_> = animation
        .plans()
        .unwrap()
        .collect::<crate::Result<_>>()
        .unwrap();
    assert_eq!(plans.len(), 4);
    for (k, plan) in plans.iter().enumerate() {
        let mut scene = animation.scene().clone();
        scene.time = crate::base::palette::TimeOfDay::Hour(6.0 + 4.0 * k as f32).quantized();
        let mut want = RgbaImage::new(48, 27);
        crate::compose::render_into(&scene, &mut want).unwrap();
        let mut got = RgbaImage::new(48, 27);
        animation.draw(plan, &mut got).unwrap();
        assert!(got == want, "frame {k}");
        // Each frame's grid is the one the automaton makes of it.
        assert!(plan.grid() == crate::compose::Plan::new(&scene).unwrap().grid());
    }
}

#[test]
fn a_sweep_is_the_same_on_any_number_of_threads_and_by_steps() {
    for format in Format::ALL {
        let animation = small_sweep(format);
        let bytes = |threads| written_on(&animation, threads);
        let one = bytes(1);
        assert!(one == bytes(3), "{format:?}");
        let mut steps = animation.steps().unwrap();
        let stepped = loop {
            if let Some(bytes) = steps.step().unwrap() {
                break bytes;
            }
        };
        assert!(stepped == one, "{format:?}");
    }
}

#[test]
fn a_sweep_of_the_automaton_runs_it_for_each_frame() {
    let mut scene = Scene::default();
    scene.automaton.columns = 64;
    let options = Options {
        sweep: Some(Sweep::new("automaton.density", "0.3..=0.6:3")),
        ..Options::default()
    };
    let animation = Animation::new(&scene, &options, (48, 27)).unwrap();
    let grids: Vec<_> = animation
        .plans()
        .unwrap()
        .map(|p| p.unwrap().grid().clone())
        .collect();
    assert!(grids[0] != grids[1] && grids[1] != grids[2]);
    for (k, grid) in grids.iter().enumerate() {
        let scene = animation.frame_scene(k);
        assert!(*grid == *crate::compose::Plan::new(&scene).unwrap().grid());
    }
}
