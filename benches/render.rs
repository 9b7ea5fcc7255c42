//! Rendering speed: `cargo bench --bench render`.
//!
//! Pixels per second for the preview size (1280×720), 4K, 4K written to a
//! PNG file, a dense 4K rock field (density 0.4, ~125k stones), and images
//! per second for a 1080p batch rendered to PNG in parallel.
//!
//! `cargo bench --bench render -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use playa::layers::{Layer, Rocks};
use playa::picture::{self, Compression};
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
    let dense = dense_scene();
    let stones = playa::compose::Plan::new(&dense)
        .unwrap()
        .stone_count()
        .unwrap();
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

criterion_group!(benches, bench);
criterion_main!(benches);
