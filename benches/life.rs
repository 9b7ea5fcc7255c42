//! Cell-generations per second of the bit-parallel engine on 80% torus soups,
//! fresh and settled.
//!
//! `cargo bench --bench life`; criterion reports the throughput in elements
//! (= cell-generations) per second for each size and thread count.

use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};
use playa::{BitGrid, Life, soup};

fn life(c: &mut Criterion) {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads = vec![1, all];
    threads.dedup();
    let mut group = c.benchmark_group("life");
    group.sample_size(10);
    for (side, gens) in [(1024usize, 100u32), (4096, 20), (8192, 8)] {
        let start = soup(side, side, 0.8, 1).unwrap();
        group.throughput(Throughput::Elements((side * side) as u64 * u64::from(gens)));
        run_on_each(
            &mut group,
            &threads,
            &format!("{side}x{side}x{gens}"),
            &start,
            gens,
        );
    }
    // A settled soup: the 4096² soup after 20 generations (a few live
    // cells in a thousand), run 200 generations more.
    let (side, gens) = (4096usize, 200u32);
    let settled = Life::default().run(&soup(side, side, 0.8, 1).unwrap(), 20);
    group.throughput(Throughput::Elements((side * side) as u64 * u64::from(gens)));
    run_on_each(
        &mut group,
        &threads,
        "settled-4096x4096x200",
        &settled,
        gens,
    );
    group.finish();
}

/// Benches `gens` generations from `start` as `name`, on a pool of each
/// of `threads` threads.
fn run_on_each(
    group: &mut BenchmarkGroup<'_, WallTime>,
    threads: &[usize],
    name: &str,
    start: &BitGrid,
    gens: u32,
) {
    for &n in threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap();
        let id = BenchmarkId::new(name, format!("{n}-threads"));
        group.bench_with_input(id, start, |b, start| {
            b.iter(|| pool.install(|| Life::default().run(start, gens)))
        });
    }
}

criterion_group!(benches, life);
criterion_main!(benches);
