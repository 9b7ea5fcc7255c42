//! Measuring the app's speed from the inside: latency from a scene change
//! to its preview on screen, and UI frame times while rendering.
//!
//! Off unless asked for through the environment:
//! - `PLAYA_BENCH=N` drives the app by itself: N isolated changes of the
//!   density (each waits for its preview), then N frames of a simulated
//!   slider drag at 60 Hz (a change every frame); it prints medians to
//!   stderr and closes the window.
//! - `PLAYA_PREVIEW_SIZE=WxH` renders the preview at that size whatever the
//!   window's size (e.g. `1280x720`).
//! - `PLAYA_TRACE=FILE` also writes every sample as CSV lines to FILE.

use std::io::Write;
use std::time::{Duration, Instant};

use super::preview::Preview;
use crate::scene::Scene;

/// Phases of the self-driven benchmark.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Waiting for the first preview (and the window to settle).
    Warmup(u32),
    /// One change, then wait until its preview is on screen.
    Isolated(u32),
    /// A change every frame, as a slider drag, at 60 Hz.
    Drag(u32),
    Done,
}

/// Samples and the benchmark's state.
pub struct Trace {
    file: Option<std::io::BufWriter<std::fs::File>>,
    bench: Option<Phase>,
    bench_n: u32,
    forced_size: Option<[u32; 2]>,
    /// Latency of a preview set this frame, finished at the end of the frame.
    shown: Option<(Duration, bool)>,
    isolated: Vec<f64>,
    drag: Vec<f64>,
    frames_busy: Vec<f64>,
    intervals_busy: Vec<f64>,
    frames_all: Vec<f64>,
    renders: Vec<f64>,
    last_frame: Option<Instant>,
    close: bool,
}

impl Trace {
    /// A trace configured from `PLAYA_BENCH`, `PLAYA_PREVIEW_SIZE` and
    /// `PLAYA_TRACE`; inert when none is set.
    pub fn from_env() -> Self {
        let file = std::env::var_os("PLAYA_TRACE")
            .and_then(|p| std::fs::File::create(p).ok())
            .map(std::io::BufWriter::new);
        let bench_n = std::env::var("PLAYA_BENCH")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let forced_size = std::env::var("PLAYA_PREVIEW_SIZE").ok().and_then(|s| {
            let (w, h) = s.split_once('x')?;
            Some([w.parse().ok()?, h.parse().ok()?])
        });
        Trace {
            file,
            bench: (bench_n > 0).then_some(Phase::Warmup(30)),
            bench_n,
            forced_size,
            shown: None,
            isolated: Vec::new(),
            drag: Vec::new(),
            frames_busy: Vec::new(),
            intervals_busy: Vec::new(),
            frames_all: Vec::new(),
            renders: Vec::new(),
            last_frame: None,
            close: false,
        }
    }

    /// The preview size forced by `PLAYA_PREVIEW_SIZE`.
    pub fn forced_size(&self) -> Option<[u32; 2]> {
        self.forced_size
    }

    /// Whether the benchmark is over and the window should close.
    pub fn should_close(&self) -> bool {
        self.close
    }

    /// A preview frame went to the GPU this frame.
    pub fn preview_shown(
        &mut self,
        since_request: Duration,
        render_ms: f64,
        size: [u32; 2],
        full: bool,
    ) {
        if full {
            self.renders.push(render_ms);
        }
        self.shown = Some((since_request, full));
        if let Some(f) = &mut self.file {
            let _ = writeln!(
                f,
                "preview,{:.3},{render_ms:.3},{}x{},{full}",
                since_request.as_secs_f64() * 1e3,
                size[0],
                size[1]
            );
        }
    }

    /// The end of a UI frame that took `took` to build.
    pub fn frame(&mut self, ctx: &egui::Context, start: Instant, in_flight: bool) {
        let took = start.elapsed().as_secs_f64() * 1e3;
        let interval = self.last_frame.map(|t| (start - t).as_secs_f64() * 1e3);
        self.last_frame = Some(start);
        if self.bench.is_none() && self.file.is_none() {
            return;
        }
        self.frames_all.push(took);
        if in_flight {
            self.frames_busy.push(took);
            if let Some(i) = interval {
                self.intervals_busy.push(i);
            }
        }
        if let Some((latency, full)) = self.shown.take() {
            // The frame that set the texture ends here; the paint follows.
            let to_screen = latency.as_secs_f64() * 1e3 + took;
            if full {
                match self.bench {
                    Some(Phase::Isolated(_)) => self.isolated.push(to_screen),
                    Some(Phase::Drag(_)) => self.drag.push(to_screen),
                    _ => {}
                }
            }
        }
        if let Some(f) = &mut self.file {
            let _ = writeln!(f, "frame,{took:.3},{},{in_flight}", interval.unwrap_or(0.0));
        }
        match self.bench {
            Some(Phase::Drag(_)) => ctx.request_repaint_after(Duration::from_micros(16_667)),
            Some(Phase::Warmup(_) | Phase::Isolated(_)) => ctx.request_repaint(),
            _ => {}
        }
    }

    /// Drives the benchmark: changes the density like a slider would.
    pub fn bench_step(&mut self, scene: &mut Scene, preview: &Preview) {
        let Some(phase) = self.bench else { return };
        let current = preview.is_current(scene);
        let nudge = |scene: &mut Scene, k: u32| {
            let step = if k.is_multiple_of(2) { 0.002 } else { -0.002 };
            scene.automaton.density = (scene.automaton.density + step).clamp(0.0, 1.0);
        };
        self.bench = Some(match phase {
            Phase::Warmup(0) if current => Phase::Isolated(self.bench_n),
            Phase::Warmup(k) if current => Phase::Warmup(k - 1),
            Phase::Isolated(0) if current => Phase::Drag(self.bench_n),
            Phase::Isolated(k) if current => {
                nudge(scene, k);
                Phase::Isolated(k - 1)
            }
            Phase::Drag(0) => {
                self.finish();
                self.close = true;
                Phase::Done
            }
            Phase::Drag(k) => {
                nudge(scene, k);
                Phase::Drag(k - 1)
            }
            other => other,
        });
    }

    /// Prints the summary of what was measured (once).
    pub fn finish(&mut self) {
        if self.bench.is_none() || self.frames_all.is_empty() {
            return;
        }
        let summary = format!(
            "playa bench: preview {} | change→screen isolated: {} | during drag: {} | render: {} | UI frame while rendering: {} | frame interval while rendering: {} | all UI frames: {}",
            self.forced_size
                .map_or("window-sized".to_string(), |[w, h]| format!("{w}x{h}")),
            stats(&self.isolated),
            stats(&self.drag),
            stats(&self.renders),
            stats(&self.frames_busy),
            stats(&self.intervals_busy),
            stats(&self.frames_all),
        );
        eprintln!("{summary}");
        if let Some(f) = &mut self.file {
            let _ = writeln!(f, "# {summary}");
            let _ = f.flush();
        }
        self.frames_all.clear();
    }
}

/// `median (p90, max, n)` of samples in ms.
fn stats(samples: &[f64]) -> String {
    if samples.is_empty() {
        return "n/a".to_string();
    }
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let at = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize];
    format!(
        "median {:.1} ms (p90 {:.1}, max {:.1}, n={})",
        at(0.5),
        at(0.9),
        s[s.len() - 1],
        s.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_reads_medians() {
        assert_eq!(stats(&[]), "n/a");
        assert!(stats(&[3.0, 1.0, 2.0]).starts_with("median 2.0 ms"));
    }
}
