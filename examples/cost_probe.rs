//! The data behind the cost model (`playa::layers::cost`): each scene
//! file's time against death-valley's (one thread's CPU time, the median
//! of `--runs`, death-valley timed again beside each), with the model's
//! figure and the automaton's live cells. A scene over the limit is
//! refused as playa refuses it; to fit the model past the limit, raise
//! `playa::scene::cost::LIMIT` for the run.
//!
//! `cargo run --release --example cost_probe -- [--threads N] [--size WxH] [--runs N] FILE.ron...`
fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut threads = 1;
    let mut size = (1280u32, 720u32);
    let mut runs = 5;
    while args.first().is_some_and(|a| a.starts_with("--")) {
        let flag = args.remove(0);
        let v = args.remove(0);
        match flag.as_str() {
            "--threads" => threads = v.parse().unwrap(),
            "--runs" => runs = v.parse().unwrap(),
            "--size" => {
                let (w, h) = v.split_once('x').unwrap();
                size = (w.parse().unwrap(), h.parse().unwrap());
            }
            _ => panic!("unknown flag {flag}"),
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let time = |scene: &playa::Scene| {
        pool.install(|| {
            let mut t: Vec<f64> = (0..runs)
                .map(|_| {
                    let s = cpu();
                    playa::render(scene, size.0, size.1).unwrap();
                    cpu() - s
                })
                .collect();
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
    };
    let dv = time(&playa::Scene::default());
    println!("death-valley {dv:.2} ms");
    for f in args {
        let text = std::fs::read_to_string(&f).unwrap();
        let scene = match playa::Scene::from_ron(&text, &f) {
            Ok(scene) => scene,
            Err(e) => {
                println!("{e}");
                continue;
            }
        };
        let ms = time(&scene);
        // death-valley timed again beside each scene: the machine's load drifts.
        let dv = (dv + time(&playa::Scene::default())) / 2.0;
        let live = playa::compose::Plan::new(&scene)
            .unwrap()
            .grid()
            .population();
        let model = scene.cost().ratio();
        println!(
            "{f}\t{ms:.2} ms\t{:.2}x\tmodel {model:.2}x\tlive {live}",
            ms / dv
        );
    }
}

/// The process's CPU time, ms (others' work on a busy machine not counted).
fn cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}
