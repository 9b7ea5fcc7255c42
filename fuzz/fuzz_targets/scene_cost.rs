//! The cost limit: any share code that decodes is a scene that draws
//! within the limit. The first two bytes pick a picture size (up to
//! 320×180), the rest is share-code payload sealed with a good checksum;
//! a scene that decodes is drawn on one thread, and its time may not pass
//! `SLACK` times the limit's share of death-valley's time at that size
//! (the slack covers the noise of one timing and the sanitizer's uneven
//! slowdown). The scene's cost by the model is printed with a failure.
#![no_main]

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use playa::scene::cost::LIMIT;
use playa::{Scene, share};

/// How far past the limit a timing may go before it is a failure.
const SLACK: f64 = 3.0;

/// One thread, as the browser's page draws.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool starts")
    })
}

/// The time of drawing `scene` at `size`.
fn time(scene: &Scene, (w, h): (u32, u32)) -> Duration {
    let start = Instant::now();
    pool().install(|| playa::render(scene, w, h).expect("a valid scene renders"));
    start.elapsed()
}

/// death-valley's time at `size`: the fastest of five draws, remembered
/// per size.
fn death_valley(size: (u32, u32)) -> Duration {
    static KNOWN: std::sync::Mutex<Vec<((u32, u32), Duration)>> = std::sync::Mutex::new(Vec::new());
    let mut known = KNOWN.lock().unwrap();
    if let Some((_, t)) = known.iter().find(|(s, _)| *s == size) {
        return *t;
    }
    let t = (0..5)
        .map(|_| time(&Scene::default(), size))
        .min()
        .expect("five draws");
    known.push((size, t));
    t
}

fuzz_target!(|data: &[u8]| {
    let [w, h, rest @ ..] = data else {
        return;
    };
    // Sizes of a few steps, so that death-valley's times are few.
    let size = (32 + u32::from(w % 5) * 72, 18 + u32::from(h % 5) * 40);
    let code = share::seal_bytes(rest, 0);
    let Ok(scene) = share::decode(&code) else {
        return;
    };
    let took = time(&scene, size);
    let bound = death_valley(size).mul_f64(LIMIT * SLACK);
    // Twice, before it counts: a pause of the machine is not the scene's.
    if took > bound && time(&scene, size) > bound {
        panic!(
            "{code} took {took:?} at {size:?}, past {bound:?}; the model says {:.2}× death-valley",
            scene.cost().ratio()
        );
    }
});
