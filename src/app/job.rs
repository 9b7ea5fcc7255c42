//! The preview's render job, run on the worker thread: a quick half-size
//! frame when asked, then the full frame, each re-rendered on its own
//! [`Canvas`] and sent as an egui image with a fingerprint of its pixels.

use web_time::Instant;

use egui::ColorImage;

use super::worker::Outbox;
use crate::canvas::Canvas;
use crate::compose::Plan;
use crate::scene::Scene;

/// What the UI asks the worker to render.
pub struct PreviewJob {
    /// Increasing number of the request.
    pub id: u64,
    /// The scene to render.
    pub scene: Scene,
    /// Full preview size in pixels.
    pub width: u32,
    /// Full preview size in pixels.
    pub height: u32,
    /// The part `[x, y, w, h]` of the `width × height` picture to render,
    /// when zoomed in (the rest is off screen); `None`: all of it.
    pub window: Option<[u32; 4]>,
    /// Whether to send a quick half-size frame first.
    pub quick: bool,
    /// When the UI made the request (for latency figures).
    pub sent: Instant,
}

/// A rendered preview frame, ready for the GPU.
pub struct PreviewFrame {
    /// The request it answers.
    pub id: u64,
    /// The scene it shows.
    pub scene: Scene,
    /// The pixels, or why rendering failed.
    pub image: Result<ColorImage, String>,
    /// The part of the picture it shows, in fractions of its width and
    /// height (`[x, y, w, h]`; all of it: `[0, 0, 1, 1]`).
    pub area: [f32; 4],
    /// Whether this is the full-size frame (not the quick one).
    pub full: bool,
    /// Time spent rendering, in ms.
    pub ms: f64,
    /// Live cells of the rock automaton after its generations.
    pub cells: Option<u64>,
    /// Hash of the pixels.
    pub fingerprint: u64,
    /// When the UI made the request.
    pub sent: Instant,
}

/// The worker's job: a quick frame if asked (skipped when a newer request
/// is already waiting), then the full frame. Each size has its canvas
/// (`canvases[0]` the quick one), which re-renders only what the change
/// since its last render touches ([`Canvas`]).
pub fn render_job(
    job: PreviewJob,
    out: &Outbox<'_, PreviewJob, PreviewFrame>,
    canvases: &mut [Canvas; 2],
    plan: &mut Option<Plan>,
) {
    let sizes: &[(u32, bool)] = if job.quick {
        &[(2, false), (1, true)]
    } else {
        &[(1, true)]
    };
    for &(div, full) in sizes {
        if out.superseded() {
            return;
        }
        let (w, h) = ((job.width / div).max(1), (job.height / div).max(1));
        let start = Instant::now();
        let (rendered, cells, area) = match job.window {
            None => {
                let canvas = &mut canvases[usize::from(full)];
                let rendered = canvas
                    .render(&job.scene, w, h)
                    .map(|image| (to_color_image(image), fingerprint(image.as_raw())))
                    .map_err(|e| e.to_string());
                let cells = canvas.plan().map(|p| p.grid().population());
                (rendered, cells, [0.0, 0.0, 1.0, 1.0])
            }
            Some(window) => {
                let window = scale_window(window, div, (w, h));
                let rendered = window_plan(plan, &job.scene)
                    .and_then(|p| p.render_window(w, h, window))
                    .map(|image| (to_color_image(&image), fingerprint(image.as_raw())))
                    .map_err(|e| e.to_string());
                let cells = plan.as_ref().map(|p| p.grid().population());
                let [x, y, ww, wh] = window.map(|v| v as f32);
                let (w, h) = (w as f32, h as f32);
                (rendered, cells, [x / w, y / h, ww / w, wh / h])
            }
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let (image, fingerprint) = match rendered {
            Ok((image, fingerprint)) => (Ok(image), fingerprint),
            Err(e) => (Err(e), 0),
        };
        out.send(PreviewFrame {
            id: job.id,
            scene: job.scene.clone(),
            image,
            area,
            full,
            ms,
            cells,
            fingerprint,
            sent: job.sent,
        });
    }
}

/// `window` of the full-size picture in the picture `div` times smaller,
/// `size`: rounded outwards, and inside it.
fn scale_window(window: [u32; 4], div: u32, size: (u32, u32)) -> [u32; 4] {
    let [x, y, w, h] = window;
    let (x0, y0) = ((x / div).min(size.0 - 1), (y / div).min(size.1 - 1));
    let x1 = (x + w).div_ceil(div).clamp(x0 + 1, size.0);
    let y1 = (y + h).div_ceil(div).clamp(y0 + 1, size.1);
    [x0, y0, x1 - x0, y1 - y0]
}

/// The plan of `scene` for windows, reusing the last one's automaton run
/// when it is the same.
fn window_plan<'a>(plan: &'a mut Option<Plan>, scene: &Scene) -> crate::Result<&'a Plan> {
    let next = match plan.take() {
        Some(old) => Plan::reuse(scene, old),
        None => Plan::new(scene),
    }?;
    Ok(plan.insert(next))
}

/// The RGBA picture as an egui image. Opaque pixels (all of a landscape with
/// its sky) need no premultiplication.
fn to_color_image(img: &image::RgbaImage) -> ColorImage {
    let size = [img.width() as usize, img.height() as usize];
    let raw = img.as_raw();
    if raw.chunks_exact(4).all(|p| p[3] == 255) {
        ColorImage::from_rgba_premultiplied(size, raw)
    } else {
        ColorImage::from_rgba_unmultiplied(size, raw)
    }
}

/// FNV-style hash of the bytes, eight at a time in four independent lanes
/// (a single chain of multiplies would take longer than the copy).
pub fn fingerprint(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut lanes = [0xcbf2_9ce4_8422_2325u64; 4];
    let mut chunks = bytes.chunks_exact(32);
    for c in &mut chunks {
        for (lane, word) in lanes.iter_mut().zip(c.chunks_exact(8)) {
            let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            *lane = (*lane ^ w).wrapping_mul(PRIME);
        }
    }
    let mut h = lanes.iter().fold(0u64, |h, &l| (h ^ l).wrapping_mul(PRIME));
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_tell_bytes_apart() {
        assert_ne!(fingerprint(b"abcdefgh1"), fingerprint(b"abcdefgh2"));
        assert_eq!(fingerprint(b"same"), fingerprint(b"same"));
    }
}
