//! A closure run on a rayon pool of a chosen size, so that a test can
//! compare what one thread and many threads make.

/// Runs `f` on a new rayon pool of `threads` threads and returns its result.
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}
