//! The native half of `web/bench.sh`: the median milliseconds of renders of
//! the default scene on one thread, as the browser's page measures them
//! (`render_ms` in `web/src/lib.rs`), after one render not counted.
//! `cargo run --release --example render_ms -- [WIDTH HEIGHT RUNS]`
//! (default: 1280 720 15).

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("render_ms: {a:?} is not a number");
                std::process::exit(2)
            })
        })
        .collect();
    let (width, height, runs) = match args[..] {
        [] => (1280, 720, 15),
        [w, h, runs] => (w, h, runs.max(1)),
        _ => {
            eprintln!("usage: render_ms [WIDTH HEIGHT RUNS]");
            std::process::exit(2)
        }
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool starts");
    let scene = playa::Scene::default();
    let median = pool.install(|| {
        let render = || {
            let start = std::time::Instant::now();
            playa::render(&scene, width, height).expect("the default scene renders");
            start.elapsed().as_secs_f64() * 1e3
        };
        render();
        let mut times: Vec<f64> = (0..runs).map(|_| render()).collect();
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    });
    println!("{median:.2}");
}
