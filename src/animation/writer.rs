//! The frames of an animation into its file: each frame cut to the
//! rectangle that changed and converted for its format (any thread), then
//! written in order to the APNG or GIF sink.

use std::io::Write;

use image::RgbaImage;
use rayon::prelude::*;

use super::rect::Rect;
use super::{ANIMATION_KEY, Animation, Format, Options, apng, colormap, gif};
use crate::error::{Error, Result};

impl Animation {
    /// A frame writer that writes the animation's header into `out`; frames are
    /// then pushed in order ([`FrameWriter::push`]). A GIF's palette is made
    /// here, from the first and last frames (and, of a sweep, frames
    /// evenly between), rendered for it.
    pub fn frame_writer<W: Write>(&self, out: W) -> Result<FrameWriter<W>> {
        self.frame_writer_with(out, || {
            self.palette_frames()
                .into_par_iter()
                .map(|k| self.single_frame(k))
                .collect()
        })
    }

    /// [`Animation::frame_writer`] with the first and last frames given (a
    /// GIF's palette is cut from them), not rendered.
    pub fn frame_writer_from<W: Write>(
        &self,
        out: W,
        first: &RgbaImage,
        last: &RgbaImage,
    ) -> Result<FrameWriter<W>> {
        let mut writer = self.frame_writer_with(out, || Ok(vec![first.clone(), last.clone()]))?;
        writer.first_frame = None;
        Ok(writer)
    }

    /// [`Animation::frame_writer`], `samples` giving the frames a GIF's
    /// palette is cut from, the first frame first, when the format needs
    /// them.
    fn frame_writer_with<W: Write>(
        &self,
        out: W,
        samples: impl FnOnce() -> Result<Vec<RgbaImage>>,
    ) -> Result<FrameWriter<W>> {
        let count = self.frame_count();
        let (w, h) = (self.width, self.height);
        let mut first_frame = None;
        let (framer, sink) = match self.options.format {
            Format::Apng => {
                let texts = crate::output::picture::texts(
                    self.scene(),
                    &[(ANIMATION_KEY, self.options.to_ron())],
                    None,
                )?;
                let sink = apng::Sink::new(out, w, h, count as u32, self.options.loops, &texts)?;
                (Framer::Apng, Sink::Apng(sink))
            }
            Format::Gif => {
                let mut samples = samples()?;
                let colormap = colormap::Colormap::from_frames(&samples.iter().collect::<Vec<_>>());
                first_frame = Some(samples.swap_remove(0));
                let sink = gif::Sink::new(
                    out,
                    (w, h),
                    colormap.palette(),
                    colormap.transparent(),
                    self.options.loops,
                )?;
                (Framer::Gif(colormap), Sink::Gif(sink))
            }
        };
        Ok(FrameWriter {
            framer,
            sink,
            options: self.options.clone(),
            count,
            next: 0,
            first_frame,
        })
    }
}

/// The frames of an animation into its file: each frame is prepared
/// (cropped to what changed, converted, compressed where the format lets
/// it) on any thread, then written in order.
pub struct FrameWriter<W: Write> {
    /// The per-format work on a frame, shared with the threads preparing
    /// frames.
    pub(super) framer: Framer,
    /// The file being written.
    pub(super) sink: Sink<W>,
    /// The animation's options: the frames' delays and loops.
    pub(super) options: Options,
    /// Number of frames the file holds.
    pub(super) count: usize,
    /// Index of the next frame to write.
    pub(super) next: usize,
    /// The first frame, when making the writer rendered it (a GIF's
    /// palette is cut from it): used rather than rendered again.
    pub(super) first_frame: Option<RgbaImage>,
}

impl<W: Write> FrameWriter<W> {
    /// Writes the next frame, `frame`; `previous` must be the frame pushed
    /// before it (`None` for the first).
    pub fn push(&mut self, previous: Option<&RgbaImage>, frame: &RgbaImage) -> Result<()> {
        let prepared = self.framer.prepare(previous, frame);
        self.sink
            .write(prepared, &self.options, self.next, self.count)?;
        self.next += 1;
        Ok(())
    }

    /// Ends the file once every frame was pushed.
    pub fn finish(self) -> Result<()> {
        if self.next != self.count {
            return Err(Error::Png {
                source_name: "animation encoder".into(),
                reason: format!("{} frames written of {}", self.next, self.count),
            });
        }
        match self.sink {
            Sink::Apng(sink) => sink.finish(),
            Sink::Gif(sink) => sink.finish(),
        }
    }
}

/// The per-format work on a frame that needs no file: thread-safe.
pub(super) enum Framer {
    /// RGBA pixels, the unchanged ones transparent.
    Apng,
    /// Palette indices through the animation's colormap, LZW-compressed.
    Gif(colormap::Colormap),
}

/// A frame ready to be written: the rectangle that changed and its data
/// in the format's form.
pub(super) struct Prepared {
    /// The rectangle of the frame that changed.
    rect: Rect,
    /// Its pixels as the format stores them.
    data: Vec<u8>,
}

impl Framer {
    /// Prepares a frame, against the frame before it: the rectangle that
    /// changed, its pixels that did not left transparent.
    pub(super) fn prepare(&self, previous: Option<&RgbaImage>, frame: &RgbaImage) -> Prepared {
        let rect = match previous {
            Some(previous) => Rect::changed(previous, frame),
            None => Rect::whole(frame),
        };
        let rows = rect.rows(frame, previous);
        let data = match self {
            Framer::Apng => {
                let mut data = Vec::with_capacity(rect.width as usize * rect.height as usize * 4);
                for (_, _, now, before) in rows {
                    match before {
                        None => {
                            data.extend(now.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2], 255]))
                        }
                        Some(before) => {
                            data.extend(now.chunks_exact(4).zip(before.chunks_exact(4)).flat_map(
                                |(p, b)| {
                                    if p == b {
                                        [0; 4]
                                    } else {
                                        [p[0], p[1], p[2], 255]
                                    }
                                },
                            ))
                        }
                    }
                }
                data
            }
            Framer::Gif(colormap) => gif::compress(&colormap.indices(rect, rows)),
        };
        Prepared { rect, data }
    }
}

/// Where frames are written.
pub(super) enum Sink<W: Write> {
    /// An APNG file.
    Apng(apng::Sink<W>),
    /// A GIF file.
    Gif(gif::Sink<W>),
}

impl<W: Write> Sink<W> {
    /// Writes frame `index` of `count`.
    pub(super) fn write(
        &mut self,
        frame: Prepared,
        options: &Options,
        index: usize,
        count: usize,
    ) -> Result<()> {
        match self {
            Sink::Apng(sink) => sink.write(
                frame.rect,
                options.apng_delay(index, count),
                index == 0,
                &frame.data,
            ),
            Sink::Gif(sink) => sink.write(
                frame.rect,
                options.gif_delay(index, count),
                index == 0,
                frame.data,
            ),
        }
    }
}
