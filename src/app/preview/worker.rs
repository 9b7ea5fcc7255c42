//! A background thread that works on the newest request only.
//!
//! The UI thread never waits on rendering: it drops a request into a
//! one-element slot and goes on painting. A request that arrives while an
//! older one is still waiting replaces it, so dragging a slider never builds
//! a queue of stale frames; the job itself can ask [`Outbox::superseded`] to
//! stop early (e.g. after its quick coarse frame). Results come back over a
//! channel, and the worker wakes the UI with `request_repaint`.
//!
//! In the browser there are no threads: the same worker runs its job on the
//! UI thread, on the newest request, when the UI collects results.

#[cfg(target_arch = "wasm32")]
use std::cell::RefCell;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
#[cfg(not(target_arch = "wasm32"))]
use std::thread::JoinHandle;

/// What the UI thread and the worker share.
struct Shared<Req> {
    slot: Mutex<Slot<Req>>,
    wake: Condvar,
}

struct Slot<Req> {
    /// The newest request not yet taken by the worker.
    pending: Option<Req>,
    /// Set when the [`Worker`] is dropped: the thread ends.
    closed: bool,
    /// Repainted whenever a result is sent.
    repaint: Option<egui::Context>,
    /// Requests replaced before the worker took them (for statistics).
    dropped: u64,
}

impl<Req> Shared<Req> {
    fn lock(&self) -> MutexGuard<'_, Slot<Req>> {
        // A panicking job poisons nothing we rely on: the slot stays valid.
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Handed to the job: sends results and tells whether newer work waits.
pub struct Outbox<'a, Req, Out> {
    shared: &'a Shared<Req>,
    results: &'a mpsc::Sender<Out>,
}

impl<Req, Out> Outbox<'_, Req, Out> {
    /// Sends a result to the UI and asks it to repaint.
    pub fn send(&self, out: Out) {
        // The receiver is gone only while the app shuts down.
        let _ = self.results.send(out);
        if let Some(ctx) = &self.shared.lock().repaint {
            ctx.request_repaint();
        }
    }

    /// Whether a newer request is waiting, so the current one is stale.
    pub fn superseded(&self) -> bool {
        self.shared.lock().pending.is_some()
    }

    /// Waits up to `time` for a newer request; whether none came (work
    /// worth doing only once the requests pause). In the browser, where
    /// the job runs on the UI thread, it cannot wait: whether none waits.
    pub fn idle_for(&self, time: std::time::Duration) -> bool {
        #[cfg(target_arch = "wasm32")]
        {
            let _ = time;
            !self.superseded()
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let slot = self.shared.lock();
            let (slot, _) = self
                .shared
                .wake
                .wait_timeout_while(slot, time, |s| s.pending.is_none() && !s.closed)
                .unwrap_or_else(PoisonError::into_inner);
            slot.pending.is_none() && !slot.closed
        }
    }
}

/// The job of a [`Worker`].
type Handler<Req, Out> = Box<dyn FnMut(Req, &Outbox<'_, Req, Out>) + Send>;

/// A background thread running `job` on the newest request.
pub struct Worker<Req, Out> {
    shared: Arc<Shared<Req>>,
    results: mpsc::Receiver<Out>,
    #[cfg(not(target_arch = "wasm32"))]
    thread: Option<JoinHandle<()>>,
    /// In the browser: the job and its results' sender, run on the UI
    /// thread by [`Worker::results`].
    #[cfg(target_arch = "wasm32")]
    inline: RefCell<(Handler<Req, Out>, mpsc::Sender<Out>)>,
}

impl<Req: Send + 'static, Out: Send + 'static> Worker<Req, Out> {
    /// Starts the thread, named `name`, running `job` for each request.
    pub fn spawn(name: &str, job: impl FnMut(Req, &Outbox<'_, Req, Out>) + Send + 'static) -> Self {
        let shared = Arc::new(Shared {
            slot: Mutex::new(Slot {
                pending: None,
                closed: false,
                repaint: None,
                dropped: 0,
            }),
            wake: Condvar::new(),
        });
        let (tx, results) = mpsc::channel();
        let job: Handler<Req, Out> = Box::new(job);
        #[cfg(not(target_arch = "wasm32"))]
        {
            let thread_shared = Arc::clone(&shared);
            let thread = std::thread::Builder::new()
                .name(name.to_string())
                .spawn(move || run(&thread_shared, &tx, job))
                .expect("the OS refused to start a thread");
            Worker {
                shared,
                results,
                thread: Some(thread),
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = name;
            Worker {
                shared,
                results,
                inline: RefCell::new((job, tx)),
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn run<Req, Out>(shared: &Shared<Req>, tx: &mpsc::Sender<Out>, mut job: Handler<Req, Out>) {
    loop {
        let request = {
            let mut slot = shared.lock();
            loop {
                if slot.closed {
                    return;
                }
                if let Some(r) = slot.pending.take() {
                    break r;
                }
                slot = shared
                    .wake
                    .wait(slot)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        job(
            request,
            &Outbox {
                shared,
                results: tx,
            },
        );
    }
}

impl<Req, Out> Worker<Req, Out> {
    /// Asks for `request`, replacing any request not yet started.
    pub fn request(&self, request: Req) {
        let mut slot = self.shared.lock();
        if slot.pending.replace(request).is_some() {
            slot.dropped += 1;
        }
        self.shared.wake.notify_one();
        // In the browser the job runs in the next frame's `results`.
        #[cfg(target_arch = "wasm32")]
        if let Some(ctx) = &slot.repaint {
            ctx.request_repaint();
        }
    }

    /// The results that arrived since the last call, oldest first. (In
    /// the browser, the newest request is worked on here, first.)
    pub fn results(&self) -> impl Iterator<Item = Out> + '_ {
        #[cfg(target_arch = "wasm32")]
        {
            let request = self.shared.lock().pending.take();
            if let Some(request) = request {
                let (job, tx) = &mut *self.inline.borrow_mut();
                job(
                    request,
                    &Outbox {
                        shared: &self.shared,
                        results: tx,
                    },
                );
            }
        }
        self.results.try_iter()
    }

    /// Blocks until a result arrives or `timeout` passes (not in the
    /// browser, where nothing can arrive while the UI thread waits).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn wait_result(&self, timeout: std::time::Duration) -> Option<Out> {
        self.results.recv_timeout(timeout).ok()
    }

    /// Sets the context repainted when a result arrives.
    pub fn set_repaint(&self, ctx: &egui::Context) {
        let mut slot = self.shared.lock();
        if slot.repaint.is_none() {
            slot.repaint = Some(ctx.clone());
        }
    }

    /// How many requests were replaced before the worker took them.
    pub fn dropped(&self) -> u64 {
        self.shared.lock().dropped
    }
}

impl<Req, Out> Drop for Worker<Req, Out> {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_all();
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(thread) = self.thread.take() {
            // The running job (one preview render) finishes first; that is
            // a few milliseconds.
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_request_is_answered_when_there_is_time() {
        let worker = Worker::spawn("test", |n: u32, out| out.send(n * 2));
        for n in 0..3 {
            worker.request(n);
            assert_eq!(worker.wait_result(Duration::from_secs(5)), Some(n * 2));
        }
    }

    #[test]
    fn newest_request_wins_and_stale_ones_are_dropped() {
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let worker = Worker::spawn("test", move |n: u32, out| {
            if n == 0 {
                // Hold the worker busy while the UI sends more.
                gate_rx.recv().unwrap();
            }
            out.send(n);
        });
        worker.request(0);
        std::thread::sleep(Duration::from_millis(50));
        for n in 1..=10 {
            worker.request(n);
        }
        gate_tx.send(()).unwrap();
        let got: Vec<u32> = (0..2)
            .filter_map(|_| worker.wait_result(Duration::from_secs(5)))
            .collect();
        assert_eq!(got, vec![0, 10]);
        assert_eq!(worker.wait_result(Duration::from_millis(100)), None);
        assert_eq!(worker.dropped(), 9);
    }

    #[test]
    fn a_job_sees_when_it_is_superseded() {
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let worker = Worker::spawn("test", move |n: u32, out| {
            if n == 0 {
                gate_rx.recv().unwrap();
                out.send(u32::from(out.superseded()));
            }
        });
        worker.request(0);
        std::thread::sleep(Duration::from_millis(50));
        worker.request(1);
        gate_tx.send(()).unwrap();
        assert_eq!(worker.wait_result(Duration::from_secs(5)), Some(1));
    }

    #[test]
    fn a_job_waits_for_a_pause_and_stops_waiting_at_a_newer_request() {
        // Request 0 waits long and is cut short by request 1; request 1
        // waits briefly and sees no newer request.
        let worker = Worker::spawn("test", |n: u32, out| {
            let wait = Duration::from_secs(if n == 0 { 30 } else { 0 });
            let start = std::time::Instant::now();
            let idle = out.idle_for(wait);
            out.send((n, idle, start.elapsed() < Duration::from_secs(10)));
        });
        worker.request(0);
        std::thread::sleep(Duration::from_millis(50));
        worker.request(1);
        let first = worker.wait_result(Duration::from_secs(20));
        assert_eq!(first, Some((0, false, true)));
        assert_eq!(
            worker.wait_result(Duration::from_secs(5)),
            Some((1, true, true))
        );
    }

    #[test]
    fn dropping_the_worker_ends_the_thread() {
        // The job holds `alive`: it is dropped with the job, when the
        // thread's loop ends.
        let (alive, gone) = mpsc::channel::<()>();
        let worker = Worker::spawn("test", move |n: u32, out| {
            let _held = &alive;
            out.send(n);
        });
        worker.request(1);
        assert_eq!(worker.wait_result(Duration::from_secs(5)), Some(1));
        drop(worker);
        // Dropping the worker ended the thread and waited for it: the job,
        // and the sender in it, are gone by now.
        assert_eq!(gone.try_recv(), Err(mpsc::TryRecvError::Disconnected));
    }
}
