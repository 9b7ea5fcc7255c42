//! The preview's render job, run on the worker thread: a quick half-size
//! frame when asked, then the full frame, each re-rendered on its own
//! [`Canvas`] and sent as an egui image with a fingerprint of its pixels.

use web_time::Instant;

use egui::ColorImage;

use crate::app::preview::worker::Outbox;
use crate::compose::canvas::Canvas;
use crate::compose::{Plan, Region};
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
    /// While the pointer moves and a full frame would be slow: only a
    /// frame this many times smaller each side (no full frame after it).
    pub coarse: Option<u32>,
    /// Zoomed in: the size of a whole picture to render after the view,
    /// shown scaled around it while the next view is on its way.
    pub backdrop: Option<[u32; 2]>,
    /// When the UI made the request (for latency figures).
    pub sent: Instant,
}

/// Which of a request's frames a frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The quick frame, at half the width and height, sent first.
    Quick,
    /// The frame at the requested size.
    Full,
    /// Zoomed in: the whole picture, small, sent after the view.
    Backdrop,
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
    /// Which of the request's frames it is.
    pub pass: Pass,
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
/// is already waiting), then the full frame, then the backdrop if asked;
/// or, while the pointer moves, only a coarse frame.
/// Each size has its canvas (`canvases[0]` the quick one, which also draws
/// backdrops: both are half the fitted size), which re-renders only what
/// the change since its last render touches ([`Canvas`]).
pub fn render_job(
    job: PreviewJob,
    out: &Outbox<'_, PreviewJob, PreviewFrame>,
    canvases: &mut [Canvas; 2],
    views: &mut Views,
) {
    let sizes: &[(u32, Pass)] = match job.coarse {
        Some(div) => &[(div, Pass::Quick)],
        None if job.quick => &[(2, Pass::Quick), (1, Pass::Full)],
        None => &[(1, Pass::Full)],
    };
    for &(div, pass) in sizes {
        if out.superseded() {
            return;
        }
        let (w, h) = ((job.width / div).max(1), (job.height / div).max(1));
        let start = Instant::now();
        let (rendered, cells, area) = match job.window {
            None => {
                let (rendered, cells) = render_whole(
                    &mut canvases[usize::from(pass == Pass::Full)],
                    &job.scene,
                    w,
                    h,
                );
                (rendered, cells, WHOLE)
            }
            Some(window) => {
                let window = scale_window(window, div, (w, h));
                let rendered = views
                    .render(&job.scene, (w, h), window, pass == Pass::Full)
                    .map(|image| (to_color_image(&image), fingerprint(image.as_raw())))
                    .map_err(|e| e.to_string());
                let cells = views.plan.as_ref().map(|p| p.grid().population());
                let [x, y, ww, wh] = window.map(|v| v as f32);
                let (w, h) = (w as f32, h as f32);
                (rendered, cells, [x / w, y / h, ww / w, wh / h])
            }
        };
        send(out, &job, pass, (rendered, cells, area), start);
    }
    // Only once the requests pause: during a drag it would hold up the
    // views that follow.
    if let Some([w, h]) = job.backdrop
        && out.idle_for(BACKDROP_AFTER)
    {
        let start = Instant::now();
        let (rendered, cells) = render_whole(&mut canvases[0], &job.scene, w, h);
        send(out, &job, Pass::Backdrop, (rendered, cells, WHOLE), start);
    }
}

/// How long the requests must pause before a backdrop is rendered.
const BACKDROP_AFTER: std::time::Duration = std::time::Duration::from_millis(150);

/// The area of a frame that shows the whole picture.
pub const WHOLE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

/// A render's image and fingerprint, or why it failed.
type Rendered = Result<(ColorImage, u64), String>;

/// The whole `w × h` picture of `scene`, on `canvas`, and the automaton's
/// live cells.
fn render_whole(canvas: &mut Canvas, scene: &Scene, w: u32, h: u32) -> (Rendered, Option<u64>) {
    let rendered = canvas
        .render(scene, w, h)
        .map(|image| (to_color_image(image), fingerprint(image.as_raw())))
        .map_err(|e| e.to_string());
    (rendered, canvas.plan().map(|p| p.grid().population()))
}

/// Sends the `pass` frame of `job`, rendered since `start`.
fn send(
    out: &Outbox<'_, PreviewJob, PreviewFrame>,
    job: &PreviewJob,
    pass: Pass,
    (rendered, cells, area): (Rendered, Option<u64>, [f32; 4]),
    start: Instant,
) {
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
        pass,
        ms,
        cells,
        fingerprint,
        sent: job.sent,
    });
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

/// What the worker keeps between zoomed-in views: the scene's plan, and
/// a region of the zoomed picture prepared around the last view, so that a
/// pan inside it only draws.
#[derive(Default)]
pub struct Views {
    plan: Option<Plan>,
    /// The region prepared, and the scene it was prepared for.
    region: Option<(Scene, Region)>,
}

impl Views {
    /// `window` of the `size` picture of `scene`. With `keep`, it is drawn
    /// from the region prepared for the last view when that holds it;
    /// otherwise a region is prepared and kept: after a pan (the same
    /// scene), the window with a margin of its own size on every side, for
    /// the pans to come; after a change, just the window, which costs
    /// least.
    fn render(
        &mut self,
        scene: &Scene,
        size: (u32, u32),
        window: [u32; 4],
        keep: bool,
    ) -> crate::Result<image::RgbaImage> {
        let (w, h) = size;
        let same = self.region.as_ref().filter(|(s, _)| s == scene);
        if keep
            && let Some((_, region)) = same
            && region.holds(w, h, window)
        {
            return region.render_window(window);
        }
        let panned = same.is_some();
        let next = match self.plan.take() {
            Some(old) => Plan::reuse(scene, old),
            None => Plan::new(scene),
        }?;
        let plan = self.plan.insert(next);
        if !keep {
            return plan.render_window(w, h, window);
        }
        let area = if panned { around(window, size) } else { window };
        let region = plan.region(w, h, area)?;
        let image = region.render_window(window);
        self.region = Some((scene.clone(), region));
        image
    }
}

/// `window` with a margin of its own width and height on each side, cut
/// to the `size` picture.
fn around(window: [u32; 4], size: (u32, u32)) -> [u32; 4] {
    let [x, y, w, h] = window;
    let (x0, y0) = (x.saturating_sub(w), y.saturating_sub(h));
    let (x1, y1) = ((x + 2 * w).min(size.0), (y + 2 * h).min(size.1));
    [x0, y0, x1 - x0, y1 - y0]
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
