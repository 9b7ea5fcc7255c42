//! Rendering speed: `cargo bench --bench render`.
//!
//! - `preview`: the preview size (1280×720), for every preset and for
//!   death-valley packed with stones (density 0.3, 0.4, 0.5 on 560 and 968
//!   columns): a fresh render (`fresh/…`), the same in the newest look
//!   (`fresh-newest/…`, as New scene draws it), and a re-render on a
//!   [`Canvas`] after one change, a density step (`density/…`, the rocks
//!   redrawn) or a tent step (`tent/…`).
//! - `render`: 1280×720 and 4K, 4K written to a PNG file, 4K death-valley at
//!   density 0.4, a dense 4K rock field of small stones (~126k).
//! - `window`: a 1280×720 window of the default scene's 1920×1080 picture
//!   zoomed 16× (30720×17280, the app's 1600%), over the horizon and the
//!   tent (`centre`) and over the nearest stones (`stones`), each with its
//!   plan made (a change of the scene), a step of a pan drawn from the
//!   region prepared around the view (`pan`, as the app's preview worker
//!   does), against a plain 1280×720 render (`plain`) and the window's
//!   rows across half the picture's width (`half-rows`: a window cost twice
//!   that when layers drew whole rows).
//! - `batch`: images per second for a 1080p batch rendered to PNG in
//!   parallel.
//! - `variations`: a page of the app's variations grid, 16 thumbnails of
//!   240×135 around the default scene, in each mode: made as the app makes
//!   them (`16x240x135/…`: the candidates, then the thumbnails one after
//!   another, each on all cores), and side by side, a thumbnail per task
//!   (`side-by-side/…`).
//!
//! `cargo bench --bench render -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use playa::compose::Plan;
use playa::compose::canvas::Canvas;
use playa::explore::randomize::Locks;
use playa::explore::variations::{self, Mode, THUMBNAIL};
use playa::layers::{Layer, Rocks};
use playa::output::picture::{self, Compression};
use playa::{Scene, render};
use rayon::prelude::*;

/// The default scene with a dense rock field: a 968-column soup at density
/// 0.4 leaves about 125 000 stones after 8 generations.
fn dense_scene() -> Scene {
    let mut scene = Scene::default();
    scene.automaton.density = 0.4;
    scene.automaton.columns = 968;
    for layer in &mut scene.layers {
        if let Layer::Rocks(r) = layer {
            *r = Rocks {
                near_size: 0.006,
                far_size: 0.0025,
                jitter: 0.3,
                ..Rocks::default()
            };
        }
    }
    scene
}

/// death-valley with its automaton at `density` on `columns` columns.
fn packed(density: f32, columns: u32) -> Scene {
    let mut scene = Scene::default();
    scene.automaton.density = density;
    scene.automaton.columns = columns;
    scene
}

/// The preview's work: fresh renders, and re-renders after one change.
fn preview(c: &mut Criterion) {
    let (w, h) = (1280u32, 720u32);
    let mut scenes: Vec<(String, Scene)> = playa::scene::presets::PRESETS
        .iter()
        .map(|p| (p.name.to_string(), p.scene().unwrap()))
        .collect();
    for columns in [560, 968] {
        for density in [0.3, 0.4, 0.5] {
            scenes.push((
                format!("dv-d{density}-c{columns}"),
                packed(density, columns),
            ));
        }
    }
    let mut group = c.benchmark_group("preview");
    group.sample_size(20);
    group.throughput(Throughput::Elements(u64::from(w * h)));
    for (name, scene) in &scenes {
        group.bench_function(BenchmarkId::new("fresh", name), |b| {
            b.iter(|| black_box(render(scene, w, h).unwrap()))
        });
        // The same scene in the newest look, as New scene draws it.
        let newest = Scene {
            look: playa::scene::LOOK_NEWEST,
            ..scene.clone()
        };
        if newest != *scene {
            group.bench_function(BenchmarkId::new("fresh-newest", name), |b| {
                b.iter(|| black_box(render(&newest, w, h).unwrap()))
            });
        }
        // Each step alternates between two scenes one change apart.
        let mut stepped = scene.clone();
        stepped.automaton.density = (scene.automaton.density + 0.01).min(1.0);
        let mut canvas = Canvas::new();
        let mut k = 0u32;
        group.bench_function(BenchmarkId::new("density", name), |b| {
            b.iter(|| {
                k += 1;
                let s = if k.is_multiple_of(2) { scene } else { &stepped };
                black_box(canvas.render(s, w, h).unwrap());
            })
        });
        let mut moved = scene.clone();
        for layer in &mut moved.layers {
            if let Layer::Tent(t) = layer {
                t.x += 0.01;
            }
        }
        if moved != *scene {
            group.bench_function(BenchmarkId::new("tent", name), |b| {
                b.iter(|| {
                    k += 1;
                    let s = if k.is_multiple_of(2) { scene } else { &moved };
                    black_box(canvas.render(s, w, h).unwrap());
                })
            });
        }
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    let scene = Scene::default();
    let mut group = c.benchmark_group("render");
    group.sample_size(20);
    for (w, h) in [(1280u32, 720u32), (3840, 2160)] {
        group.throughput(Throughput::Elements(u64::from(w * h)));
        group.bench_with_input(
            BenchmarkId::new("death-valley", format!("{w}x{h}")),
            &(w, h),
            |b, &(w, h)| b.iter(|| black_box(render(&scene, w, h).unwrap())),
        );
    }
    let (w, h) = (3840u32, 2160u32);
    group.throughput(Throughput::Elements(u64::from(w * h)));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.png");
    group.bench_function(
        BenchmarkId::new("death-valley+png-file", "3840x2160"),
        |b| {
            b.iter(|| {
                let image = render(&scene, w, h).unwrap();
                picture::write_png(&path, &image, &scene, &[], Compression::Fast).unwrap();
            })
        },
    );
    let packed = packed(0.4, 560);
    group.bench_function(BenchmarkId::new("dv-d0.4-c560", "3840x2160"), |b| {
        b.iter(|| black_box(render(&packed, w, h).unwrap()))
    });
    let dense = dense_scene();
    let stones = Plan::new(&dense).unwrap().stone_count().unwrap();
    eprintln!("dense scene: {stones} stones");
    group.bench_function(
        BenchmarkId::new(format!("dense-{stones}-stones"), "3840x2160"),
        |b| b.iter(|| black_box(render(&dense, w, h).unwrap())),
    );
    group.finish();

    let mut group = c.benchmark_group("batch");
    group.sample_size(10);
    let images = 8u64;
    group.throughput(Throughput::Elements(images));
    // As `playa render --seeds 0..8 --size 1920x1080` does: each image
    // rendered straight to a PNG, images in parallel (into memory here, to
    // leave the disk out).
    group.bench_function(
        BenchmarkId::new("death-valley-png-images", "1920x1080"),
        |b| {
            b.iter(|| {
                (0..images).into_par_iter().for_each(|seed| {
                    let mut scene = scene.clone();
                    scene.seed = seed;
                    let mut png = Vec::new();
                    picture::render_png(&mut png, &scene, 1920, 1080, &[], Compression::Fast)
                        .unwrap();
                    black_box(png);
                })
            })
        },
    );
    group.finish();
}

/// A window of a picture 16 times the size of 1920×1080 against a plain
/// render of the window's size: a window costs its own pixels.
fn window(c: &mut Criterion) {
    let scene = Scene::default();
    let (w, h) = (1280u32, 720u32);
    let (width, height) = (1920 * 16, 1080 * 16);
    let mut group = c.benchmark_group("window");
    group.sample_size(20);
    group.throughput(Throughput::Elements(u64::from(w * h)));
    group.bench_function(BenchmarkId::new("plain", "1280x720"), |b| {
        b.iter(|| black_box(render(&scene, w, h).unwrap()))
    });
    let horizon = (scene.horizon * height as f32) as u32;
    for (name, x, y) in [
        ("centre", (width - w) / 2, horizon - h / 2),
        ("stones", width / 3, height - h - height / 20),
    ] {
        group.bench_function(
            BenchmarkId::new(name, format!("1280x720-of-{width}x{height}")),
            |b| {
                b.iter(|| {
                    let plan = Plan::new(&scene).unwrap();
                    black_box(plan.render_window(width, height, [x, y, w, h]).unwrap())
                })
            },
        );
    }
    // A pan of the app's zoomed view: the worker keeps a region prepared
    // around the view, so each step of a drag only draws.
    let plan = Plan::new(&scene).unwrap();
    let (x, y) = ((width - w) / 2, horizon - h / 2);
    let region = plan
        .region(width, height, [x - w, y - h, 3 * w, 3 * h])
        .unwrap();
    let mut k = 0u32;
    group.bench_function(
        BenchmarkId::new("pan", format!("1280x720-of-{width}x{height}")),
        |b| {
            b.iter(|| {
                k += 1;
                let step = k % 8;
                let window = [x + 40 * step, y + 24 * step, w, h];
                black_box(region.render_window(window).unwrap())
            })
        },
    );
    // What a window cost when layers drew whole rows: the window's rows
    // across half the picture's width (a window is at most 16384 wide),
    // so twice this.
    group.sample_size(10);
    group.bench_function(
        BenchmarkId::new("half-rows", format!("15360x720-of-{width}x{height}")),
        |b| {
            b.iter(|| {
                let plan = Plan::new(&scene).unwrap();
                let y = horizon - h / 2;
                black_box(
                    plan.render_window(width, height, [0, y, width / 2, h])
                        .unwrap(),
                )
            })
        },
    );
    group.finish();
}

/// A page of the variations grid, as the app makes it, in each mode.
fn grid(c: &mut Criterion) {
    let scene = Scene::default();
    let locks = Locks::default();
    let mut group = c.benchmark_group("variations");
    group.sample_size(20);
    group.throughput(Throughput::Elements(u64::from(variations::PAGE)));
    let [w, h] = THUMBNAIL;
    let modes = [
        ("seeds", Mode::Seeds),
        ("vary-0.5", Mode::Vary { strength: 0.5 }),
        ("new-scene", Mode::NewScene),
    ];
    for (name, mode) in modes {
        let mut page = 0;
        group.bench_function(
            BenchmarkId::new(format!("{}x{w}x{h}", variations::PAGE), name),
            |b| {
                b.iter(|| {
                    // A new page each time: nothing is cached between pages.
                    page += 1;
                    let scenes = variations::page(&scene, &locks, mode, page);
                    variations::render_thumbnails(
                        &scenes,
                        THUMBNAIL,
                        || false,
                        |_, picture| {
                            black_box(picture.unwrap());
                        },
                    );
                })
            },
        );
        group.bench_function(BenchmarkId::new("side-by-side", name), |b| {
            b.iter(|| {
                page += 1;
                variations::page(&scene, &locks, mode, page)
                    .par_iter()
                    .for_each(|scene| {
                        black_box(variations::thumbnail(scene, THUMBNAIL).unwrap());
                    });
            })
        });
    }
    group.finish();
}

criterion_group!(benches, preview, bench, window, grid);

fn main() {
    // The allocator set up as the app runs it (the preview's work is
    // what these benches measure).
    playa::base::allocator::keep_freed_memory();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
