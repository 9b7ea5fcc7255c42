//! An export as the browser hands it to a Web Worker: what the worker's own
//! wasm instance needs to make the file's bytes, sent as text, the scene as
//! its share code. The page keeps painting while the worker renders; the
//! bytes are those `playa render` and `playa animate` write.

use serde::{Deserialize, Serialize};

use crate::animation::{Animation, Options};
use crate::compose::window::Window;
use crate::error::Result;
use crate::output::picture::{Compression, render_png_framed};
use crate::scene::Scene;

/// What a worker makes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ExportJob {
    /// A PNG picture of `size`, cut from the scene's own picture by
    /// `window` (`[x, y, w, h, full_w, full_h]`) when cropped.
    Png {
        /// The scene's share code.
        code: String,
        /// The picture's width and height.
        size: (u32, u32),
        /// The crop, if any.
        window: Option<[u32; 6]>,
    },
    /// An animation (APNG or GIF, as `options` say) of frames of `size`.
    Animation {
        /// The scene's share code.
        code: String,
        /// What the animation shows and how it plays.
        options: Options,
        /// The frames' width and height.
        size: (u32, u32),
    },
}

impl ExportJob {
    /// The job of a PNG of `scene` at `size`, cropped to `window`.
    pub fn png(scene: &Scene, size: (u32, u32), window: Option<&Window>) -> ExportJob {
        ExportJob::Png {
            code: crate::share::encode(scene),
            size,
            window: window.map(|w| [w.x, w.y, w.w, w.h, w.full_w, w.full_h]),
        }
    }

    /// The job of `animation`.
    pub fn animation(animation: &Animation) -> ExportJob {
        ExportJob::Animation {
            code: crate::share::encode(animation.scene()),
            options: animation.options().clone(),
            size: animation.size(),
        }
    }

    /// The job as text, for `postMessage`.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a job is plain data")
    }

    /// The job of `text` ([`ExportJob::to_text`]); the error says why
    /// not.
    pub fn from_text(text: &str) -> std::result::Result<ExportJob, String> {
        serde_json::from_str(text).map_err(|e| format!("not a playa export job: {e}"))
    }

    /// The file's bytes. `progress` is called as the work goes on: with
    /// the bytes written so far for a picture, the frames for an
    /// animation.
    pub fn run(&self, mut progress: impl FnMut(u64)) -> Result<Vec<u8>> {
        match self {
            ExportJob::Png { code, size, window } => {
                let scene = crate::share::decode(code)?;
                let window = window.map(|[x, y, w, h, full_w, full_h]| Window {
                    x,
                    y,
                    w,
                    h,
                    full_w,
                    full_h,
                });
                let mut bytes = Counted {
                    bytes: Vec::new(),
                    progress: &mut progress,
                };
                render_png_framed(
                    &mut bytes,
                    &scene,
                    *size,
                    window.as_ref(),
                    &[],
                    Compression::default(),
                )?;
                Ok(bytes.bytes)
            }
            ExportJob::Animation {
                code,
                options,
                size,
            } => {
                let scene = crate::share::decode(code)?;
                let mut steps = Animation::new(&scene, options, *size)?.steps()?;
                loop {
                    if let Some(bytes) = steps.step()? {
                        return Ok(bytes);
                    }
                    progress(steps.frames_written() as u64);
                }
            }
        }
    }
}

/// A byte buffer that reports its length as it grows.
struct Counted<'a, F: FnMut(u64)> {
    bytes: Vec<u8>,
    progress: &'a mut F,
}

impl<F: FnMut(u64)> std::io::Write for Counted<'_, F> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        (self.progress)(self.bytes.len() as u64);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_job_makes_the_bytes_of_a_png_render_and_reports_its_growth() {
        let scene = crate::scene::presets::load("golden-hour").unwrap();
        let job = ExportJob::png(&scene, (320, 180), None);
        let job = ExportJob::from_text(&job.to_text()).unwrap();
        let mut seen = Vec::new();
        let bytes = job.run(|n| seen.push(n)).unwrap();
        let mut direct = Vec::new();
        crate::output::picture::render_png(
            &mut direct,
            &scene,
            320,
            180,
            &[],
            Compression::default(),
        )
        .unwrap();
        assert!(bytes == direct);
        assert_eq!(seen.last(), Some(&(bytes.len() as u64)));
        assert!(seen.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn a_cropped_png_job_keeps_its_window() {
        let scene = Scene::default();
        let window = Window::crop(scene.aspect, 200, 200).unwrap();
        let job = ExportJob::png(&scene, (200, 200), Some(&window));
        let bytes = job.run(|_| {}).unwrap();
        let mut direct = Vec::new();
        render_png_framed(
            &mut direct,
            &scene,
            (200, 200),
            Some(&window),
            &[],
            Compression::default(),
        )
        .unwrap();
        assert!(bytes == direct);
    }

    #[test]
    fn an_animation_job_makes_the_animation_s_bytes_frame_by_frame() {
        let scene = Scene::default();
        for format in [
            crate::animation::Format::Apng,
            crate::animation::Format::Gif,
        ] {
            let options = Options {
                first: 0,
                last: 3,
                format,
                ..Options::default()
            };
            let animation = Animation::new(&scene, &options, (96, 54)).unwrap();
            let job = ExportJob::from_text(&ExportJob::animation(&animation).to_text()).unwrap();
            let mut frames = Vec::new();
            let bytes = job.run(|n| frames.push(n)).unwrap();
            let mut direct = Vec::new();
            animation
                .write(&mut direct, &crate::animation::Progress::default())
                .unwrap();
            assert!(bytes == direct, "{format:?}");
            assert_eq!(frames.last(), Some(&4));
        }
    }

    #[test]
    fn text_that_is_not_a_job_is_one_clear_error() {
        let e = ExportJob::from_text("{\"Png\":{}}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("export job"), "{e}");
        assert!(!e.contains('\n'));
    }
}
