//! What the cost limit lets a scene cost: `cargo bench --bench cost`.
//!
//! Each of [`playa::scene::cost::worst_scenes`] (the costliest scenes the
//! limit allows, one per way of spending it) rendered at 1280×720, beside
//! death-valley, on all cores and on one thread (the browser's page has
//! one). The limit holds when each takes at most 10× death-valley's time;
//! docs/PERFORMANCE.md ("What a scene may cost") has the figures.
//!
//! `cargo bench --bench cost -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group};
use playa::scene::cost::worst_scenes;
use playa::{Scene, render};

fn cost(c: &mut Criterion) {
    let (w, h) = (1280u32, 720u32);
    let mut scenes = vec![("death-valley", Scene::default())];
    scenes.extend(worst_scenes());
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool starts");
    let mut group = c.benchmark_group("worst");
    group.sample_size(10);
    for (name, scene) in &scenes {
        println!(
            "{name}: the model says {:.2}× death-valley",
            scene.cost().ratio()
        );
        group.bench_function(BenchmarkId::new("all-cores", name), |b| {
            b.iter(|| black_box(render(scene, w, h).unwrap()))
        });
        group.bench_function(BenchmarkId::new("one-thread", name), |b| {
            b.iter(|| one.install(|| black_box(render(scene, w, h).unwrap())))
        });
    }
    group.finish();
}

criterion_group!(benches, cost);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
