//! Writing an animation as a stream: windows of frames rendered in
//! parallel while the window before is written ([`Animation::write`]), or
//! one frame a call ([`Steps`]) for a caller that cannot wait; and the
//! [`Progress`] a watcher reads and cancels through.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use image::RgbaImage;
use rayon::prelude::*;

use super::Animation;
use super::film::Plans;
use super::writer::{FrameWriter, Framer, Prepared};
use crate::compose::Plan;
use crate::error::Result;

/// Progress of an animation being written, and its Cancel: shared between
/// the writer and whoever watches it.
#[derive(Debug, Default)]
pub struct Progress {
    frames: AtomicUsize,
    cancel: AtomicBool,
}

impl Progress {
    /// Frames written so far.
    pub fn frames_written(&self) -> usize {
        self.frames.load(Ordering::Relaxed)
    }

    /// Asks the writer to stop; it stops before its next frame.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether Cancel was asked for.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Counts a frame written.
    pub(crate) fn count_frame(&self) {
        self.frames.fetch_add(1, Ordering::Relaxed);
    }
}

impl Animation {
    /// Makes the animation into `out`, streaming: windows of a few frames
    /// are rendered and prepared in parallel while the window before is
    /// written. Returns `Ok(false)` if `progress` was cancelled (part of
    /// the animation may have been written to `out`).
    pub fn write<W: Write + Send>(&self, out: W, progress: &Progress) -> Result<bool> {
        let mut writer = self.frame_writer(out)?;
        let mut plans = self.plans()?;
        // Enough frames to keep every core busy while one encodes; the
        // memory is two windows and one frame.
        let window = rayon::current_num_threads().clamp(2, 4);
        let mut previous = None;
        let first = writer.first_frame.take();
        let mut ready =
            self.prepare_window(&mut plans, window, &writer.framer, &mut previous, first)?;
        while !ready.is_empty() {
            let FrameWriter {
                framer,
                sink,
                options,
                count,
                next,
                ..
            } = &mut writer;
            let (written, prepared) = rayon::join(
                || -> Result<bool> {
                    for frame in ready.drain(..) {
                        if progress.cancelled() {
                            return Ok(false);
                        }
                        sink.write(frame, options, *next, *count)?;
                        *next += 1;
                        progress.frames.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(true)
                },
                || {
                    if progress.cancelled() {
                        return Ok(Vec::new());
                    }
                    self.prepare_window(&mut plans, window, framer, &mut previous, None)
                },
            );
            if !written? {
                return Ok(false);
            }
            ready = prepared?;
        }
        if progress.cancelled() {
            return Ok(false);
        }
        writer.finish()?;
        Ok(true)
    }

    /// Renders the next `window` frames in parallel and prepares them for
    /// writing, each against the one before (`previous`: the last frame of
    /// the window before, replaced by this window's last). `first`, when
    /// given, is the window's first frame, rendered already.
    fn prepare_window(
        &self,
        plans: &mut Plans,
        window: usize,
        framer: &Framer,
        previous: &mut Option<RgbaImage>,
        first: Option<RgbaImage>,
    ) -> Result<Vec<Prepared>> {
        let plans = plans.take(window).collect::<Result<Vec<Plan>>>()?;
        let mut frames: Vec<Option<RgbaImage>> = plans.iter().map(|_| None).collect();
        if let Some(slot) = frames.first_mut() {
            *slot = first;
        }
        frames
            .par_iter_mut()
            .zip(&plans)
            .try_for_each(|(frame, plan)| -> Result<()> {
                if frame.is_none() {
                    *frame = Some(self.frame(plan)?);
                }
                Ok(())
            })?;
        let frames: Vec<RgbaImage> = frames.into_iter().flatten().collect();
        let prepared = (0..frames.len())
            .into_par_iter()
            .map(|i| {
                let before = if i == 0 {
                    previous.as_ref()
                } else {
                    Some(&frames[i - 1])
                };
                framer.prepare(before, &frames[i])
            })
            .collect();
        if let Some(last) = frames.into_iter().next_back() {
            *previous = Some(last);
        }
        Ok(prepared)
    }

    /// [`Animation::write`] into a file, atomically: a failure or Cancel
    /// leaves no file (and an existing one untouched). `Ok(false)`:
    /// cancelled.
    pub fn write_file(&self, path: &Path, progress: &Progress) -> Result<bool> {
        write_file_with(path, progress, |out| self.write(out, progress))
    }

    /// The animation's bytes, made frame by frame, one frame a call to
    /// [`Steps::step`]: for a caller that cannot wait for the whole, such
    /// as the browser, which renders on its page's one thread between UI
    /// frames. The bytes are those of [`Animation::write`].
    pub fn steps(&self) -> Result<Steps> {
        let bytes = SharedBytes::default();
        Ok(Steps {
            writer: Some(self.frame_writer(bytes.clone())?),
            plans: self.plans()?,
            animation: self.clone(),
            previous: None,
            bytes,
        })
    }
}

/// An animation being made one frame at a time (see [`Animation::steps`]).
pub struct Steps {
    animation: Animation,
    plans: Plans,
    writer: Option<FrameWriter<SharedBytes>>,
    previous: Option<RgbaImage>,
    bytes: SharedBytes,
}

impl Steps {
    /// Renders and writes the next frame; after the last, finishes the file
    /// and returns its bytes.
    pub fn step(&mut self) -> Result<Option<Vec<u8>>> {
        let Some(writer) = &mut self.writer else {
            return Ok(None);
        };
        if let Some(plan) = self.plans.next() {
            let plan = plan?;
            let frame = match writer.first_frame.take() {
                Some(first) => first,
                None => self.animation.frame(&plan)?,
            };
            writer.push(self.previous.as_ref(), &frame)?;
            self.previous = Some(frame);
            return Ok(None);
        }
        if let Some(writer) = self.writer.take() {
            writer.finish()?;
        }
        let bytes = std::mem::take(&mut *self.bytes.0.lock().expect("no panics while held"));
        Ok(Some(bytes))
    }

    /// Frames written so far.
    pub fn frames_written(&self) -> usize {
        self.writer
            .as_ref()
            .map_or_else(|| self.animation.frame_count(), |writer| writer.next)
    }
}

/// A byte buffer that a [`Steps`] and its writer share.
#[derive(Clone, Default)]
struct SharedBytes(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBytes {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .expect("no panics while held")
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes a file atomically with `write` (which says whether it finished,
/// `false`: cancelled): a failure or Cancel leaves no file (and an existing
/// one untouched). `Ok(false)`: cancelled.
pub(crate) fn write_file_with(
    path: &Path,
    progress: &Progress,
    write: impl FnOnce(&mut std::io::BufWriter<&mut std::fs::File>) -> Result<bool>,
) -> Result<bool> {
    let mut failure = None;
    let result = crate::base::atomic::write_atomically_with(path, |file| {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        match write(&mut out) {
            Ok(true) => out.flush(),
            Ok(false) => Err(std::io::Error::other("cancelled")),
            Err(e) => {
                let message = e.to_string();
                failure = Some(e);
                Err(std::io::Error::other(message))
            }
        }
    });
    match (result, failure) {
        (Ok(()), _) => Ok(true),
        (Err(_), None) if progress.cancelled() => Ok(false),
        (Err(_), Some(e)) | (Err(e), None) => Err(e),
    }
}
