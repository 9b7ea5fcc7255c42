//! Measuring the app's speed from the inside: latency from a scene change
//! to its preview on screen, and UI frame times while rendering.
//!
//! Off unless asked for through the environment:
//! - `PLAYA_BENCH=N` drives the app by itself: N isolated changes of the
//!   density (each waits for its preview), then N frames of a simulated
//!   slider drag at 60 Hz (a change every frame); it prints medians to
//!   stderr and closes the window.
//! - `PLAYA_BENCH_SCENE=SCENE` starts the benchmark on that scene (a
//!   preset's name, a `.ron` file, a playa PNG or a share code) instead of
//!   the app's own.
//! - `PLAYA_PREVIEW_SIZE=WxH` renders the preview at that size whatever the
//!   window's size (e.g. `1280x720`).
//! - `PLAYA_BENCH_ZOOM=Z` (with `PLAYA_PREVIEW_SIZE`) zooms the preview in
//!   Z times (16: 1600%, a `WxH` view of a picture 16 times its size): half
//!   the isolated changes are density changes, then half are pans of the
//!   view, and the drag pans it at 60 Hz.
//! - `PLAYA_TRACE=FILE` also writes every sample as CSV lines to FILE.

use std::io::Write;
use std::time::Duration;

use web_time::Instant;

use crate::app::preview::Preview;
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
    /// The scene the benchmark starts on, if not the app's.
    bench_scene: Option<Scene>,
    forced_size: Option<[u32; 2]>,
    /// The zoom of the benchmark's view (1: fitted).
    zoom: f32,
    /// Whether the last change was a pan, not a scene change.
    panned: bool,
    /// A full preview set this frame: when its request was made.
    shown: Option<Instant>,
    /// The request time of the preview set in the last frame, to time the
    /// start of the next frame (after the last one was painted).
    painted: Option<Instant>,
    /// Isolated changes: request to the end of the frame that set the texture.
    isolated: Vec<f64>,
    /// Isolated pans, zoomed in: the same.
    isolated_pans: Vec<f64>,
    /// Isolated changes: request to the start of the next frame, after the
    /// texture was uploaded and the frame painted and swapped.
    isolated_painted: Vec<f64>,
    /// During the drag: request to the end of the frame showing it.
    drag: Vec<f64>,
    /// During the drag, with a render running: time to build a UI frame.
    drag_frames: Vec<f64>,
    /// During the drag, with a render running: time between frame starts.
    drag_intervals: Vec<f64>,
    /// During the drag, with a render running: eframe's time for the whole
    /// last frame (building, tessellating, painting; not waiting for vsync).
    drag_cpu: Vec<f64>,
    /// Before the changes, nothing rendering, a repaint every frame: time
    /// between frame starts (building, painting and swapping a frame).
    idle_intervals: Vec<f64>,
    renders: Vec<f64>,
    last_frame: Option<Instant>,
    finished: bool,
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
        let bench_scene =
            std::env::var("PLAYA_BENCH_SCENE").ok().map(
                |arg| match crate::source::Source::from_arg(&arg).and_then(|s| s.load()) {
                    Ok(loaded) => loaded.scene,
                    Err(e) => {
                        eprintln!("playa: PLAYA_BENCH_SCENE: {e}");
                        std::process::exit(2);
                    }
                },
            );
        let forced_size = std::env::var("PLAYA_PREVIEW_SIZE").ok().and_then(|s| {
            let (w, h) = s.split_once('x')?;
            Some([w.parse().ok()?, h.parse().ok()?])
        });
        let zoom = match std::env::var("PLAYA_BENCH_ZOOM") {
            Err(_) => 1.0,
            Ok(z) => match z.parse::<f32>() {
                Ok(z) if (1.0..=16.0).contains(&z) && forced_size.is_some() => z,
                _ => {
                    eprintln!(
                        "playa: PLAYA_BENCH_ZOOM={z}: must be a number from 1 to 16, \
                         with PLAYA_PREVIEW_SIZE=WxH"
                    );
                    std::process::exit(2);
                }
            },
        };
        Trace {
            file,
            bench: (bench_n > 0).then_some(Phase::Warmup(30)),
            bench_n,
            bench_scene,
            forced_size,
            zoom,
            panned: false,
            shown: None,
            painted: None,
            isolated: Vec::new(),
            isolated_pans: Vec::new(),
            isolated_painted: Vec::new(),
            drag: Vec::new(),
            drag_frames: Vec::new(),
            drag_intervals: Vec::new(),
            drag_cpu: Vec::new(),
            idle_intervals: Vec::new(),
            renders: Vec::new(),
            last_frame: None,
            finished: false,
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

    /// A preview frame, requested at `requested`, went to the GPU this frame.
    pub fn preview_shown(
        &mut self,
        requested: Instant,
        render_ms: f64,
        size: [u32; 2],
        full: bool,
    ) {
        if full {
            self.renders.push(render_ms);
            self.shown = Some(requested);
        }
        if let Some(f) = &mut self.file {
            let _ = writeln!(
                f,
                "preview,{:.3},{render_ms:.3},{}x{},{full}",
                requested.elapsed().as_secs_f64() * 1e3,
                size[0],
                size[1]
            );
        }
    }

    /// eframe's measure of the last frame's time (`cpu_usage`: building,
    /// tessellating and painting it), given at the start of the next.
    pub fn last_frame_cpu(&mut self, seconds: Option<f32>, in_flight: bool) {
        if let (Some(Phase::Drag(_)), Some(s), true) = (self.bench, seconds, in_flight) {
            self.drag_cpu.push(f64::from(s) * 1e3);
        }
    }

    /// The end of a UI frame that started at `start`.
    pub fn frame(&mut self, ctx: &egui::Context, start: Instant, in_flight: bool) {
        let took = start.elapsed().as_secs_f64() * 1e3;
        let interval = self.last_frame.map(|t| (start - t).as_secs_f64() * 1e3);
        self.last_frame = Some(start);
        if let Some(f) = &mut self.file {
            let _ = writeln!(f, "frame,{took:.3},{},{in_flight}", interval.unwrap_or(0.0));
        }
        let Some(phase) = self.bench else { return };
        if let Some(requested) = self.painted.take()
            && matches!(phase, Phase::Isolated(_))
        {
            self.isolated_painted
                .push((start - requested).as_secs_f64() * 1e3);
        }
        if let Some(requested) = self.shown.take() {
            let ms = requested.elapsed().as_secs_f64() * 1e3;
            match phase {
                Phase::Isolated(_) => {
                    if self.panned {
                        self.isolated_pans.push(ms);
                    } else {
                        self.isolated.push(ms);
                    }
                    self.painted = Some(requested);
                }
                Phase::Drag(_) => self.drag.push(ms),
                _ => {}
            }
        }
        if let (Phase::Warmup(_), false, Some(i)) = (phase, in_flight, interval) {
            self.idle_intervals.push(i);
        }
        if matches!(phase, Phase::Drag(_)) && in_flight {
            self.drag_frames.push(took);
            if let Some(i) = interval {
                self.drag_intervals.push(i);
            }
        }
        match phase {
            Phase::Drag(_) => ctx.request_repaint_after(Duration::from_micros(16_667)),
            // Between isolated changes the UI idles, as it does after a
            // click: the worker's repaint wakes it when the preview is in.
            // The frame right after a texture was set times its paint.
            Phase::Warmup(_) | Phase::Isolated(_) if !in_flight || self.painted.is_some() => {
                ctx.request_repaint();
            }
            _ => {}
        }
    }

    /// Drives the benchmark: changes the density like a slider would and,
    /// zoomed in, pans the view like a drag would.
    pub fn bench_step(&mut self, scene: &mut Scene, preview: &mut Preview) {
        let Some(phase) = self.bench else { return };
        if let Some(start) = self.bench_scene.take() {
            *scene = start;
            return;
        }
        preview.forced_view.0 = self.zoom;
        // Wait for the frame after the last texture set, which times its
        // paint, before the next change.
        let current = preview.is_current(scene) && self.painted.is_none();
        let zoomed = self.zoom > 1.0;
        let panned = &mut self.panned;
        let mut nudge = |scene: &mut Scene, k: u32, pan: bool| {
            *panned = pan;
            if pan {
                // Back and forth, 40 and 24 pixels a step.
                let sign = if (k / 2).is_multiple_of(2) { 1 } else { -1 };
                let [x, y] = &mut preview.forced_view.1;
                *x += 40 * sign;
                *y += 24 * sign;
            } else {
                let step = if k.is_multiple_of(2) { 0.002 } else { -0.002 };
                scene.automaton.density = (scene.automaton.density + step).clamp(0.0, 1.0);
            }
        };
        self.bench = Some(match phase {
            Phase::Warmup(0) if current => Phase::Isolated(self.bench_n),
            Phase::Warmup(k) if current => Phase::Warmup(k - 1),
            Phase::Isolated(0) if current => Phase::Drag(self.bench_n),
            Phase::Isolated(k) if current => {
                // Zoomed in: changes first, then pans.
                nudge(scene, k, zoomed && k <= self.bench_n / 2);
                Phase::Isolated(k - 1)
            }
            Phase::Drag(0) => {
                self.finish();
                self.close = true;
                Phase::Done
            }
            Phase::Drag(k) => {
                nudge(scene, k, zoomed);
                Phase::Drag(k - 1)
            }
            other => other,
        });
    }

    /// Prints the summary of what was measured (once).
    pub fn finish(&mut self) {
        if self.bench.is_none() || self.finished {
            return;
        }
        self.finished = true;
        let zoomed = self.zoom > 1.0;
        let summary = format!(
            "playa bench, preview {}{}:\n  \
             change -> texture set, end of that UI frame (isolated changes): {}\n  \
             pan -> texture set, end of that UI frame (isolated pans): {}\n  \
             change or pan -> start of the next frame, after paint and swap (isolated): {}\n  \
             {} -> preview shown, dragging at 60 Hz: {}\n  \
             preview render in the worker: {}\n  \
             UI frame build time while rendering (drag): {}\n  \
             whole frame incl. GL paint, eframe's cpu_usage, while rendering (drag): {}\n  \
             frame interval while rendering (drag, 60 Hz asked): {}\n  \
             frame interval, nothing rendering, repainting continuously: {}",
            self.forced_size
                .map_or("window-sized".to_string(), |[w, h]| format!("{w}x{h}")),
            if zoomed {
                format!(" at {:.0}%", self.zoom * 100.0)
            } else {
                String::new()
            },
            stats(&self.isolated),
            stats(&self.isolated_pans),
            stats(&self.isolated_painted),
            if zoomed { "pan" } else { "change" },
            stats(&self.drag),
            stats(&self.renders),
            stats(&self.drag_frames),
            stats(&self.drag_cpu),
            stats(&self.drag_intervals),
            stats(&self.idle_intervals),
        );
        eprintln!("{summary}");
        if let Some(f) = &mut self.file {
            for line in summary.lines() {
                let _ = writeln!(f, "# {line}");
            }
            let _ = f.flush();
        }
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
