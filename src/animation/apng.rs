//! Writing an APNG through the `png` crate: 8-bit RGBA frames, each after
//! the first a rectangle drawn over the frame before (dispose none, blend
//! over), its unchanged pixels fully transparent and the others opaque, so
//! decoders compose every whole frame exactly, with no arithmetic.

use std::io::Write;

use super::Rect;
use crate::error::{Error, Result};

/// How hard the frames are compressed: zlib's balanced level with adaptive
/// filtering, for small files (the changed rectangles are small, so this
/// costs less than rendering them).
const COMPRESSION: png::Compression = png::Compression::Balanced;

/// An APNG being written.
pub(super) struct Sink<W: Write> {
    writer: png::Writer<W>,
}

fn fail(e: png::EncodingError) -> Error {
    Error::Png {
        source_name: "APNG encoder".into(),
        reason: e.to_string(),
    }
}

impl<W: Write> Sink<W> {
    /// Writes the header of a `width × height` animation of `frames` frames
    /// played `plays` times (0: forever), and `texts` before the first
    /// frame.
    pub fn new(
        out: W,
        width: u32,
        height: u32,
        frames: u32,
        plays: u32,
        texts: &[png::text_metadata::ITXtChunk],
    ) -> Result<Sink<W>> {
        let mut encoder = png::Encoder::new(out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        encoder.set_compression(COMPRESSION);
        encoder.set_animated(frames, plays).map_err(fail)?;
        encoder.set_dispose_op(png::DisposeOp::None).map_err(fail)?;
        encoder.set_blend_op(png::BlendOp::Source).map_err(fail)?;
        let mut writer = encoder.write_header().map_err(fail)?;
        for text in texts {
            writer.write_text_chunk(text).map_err(fail)?;
        }
        Ok(Sink { writer })
    }

    /// Writes the next frame: `rgba`, the pixels of `rect`, shown for
    /// `delay` (numerator, denominator) seconds; after the `first`, drawn
    /// over the frame before.
    pub fn write(
        &mut self,
        rect: Rect,
        (num, den): (u16, u16),
        first: bool,
        rgba: &[u8],
    ) -> Result<()> {
        let w = &mut self.writer;
        // The position is checked against the size and the size against the
        // position: from the origin, both always fit.
        w.reset_frame_position().map_err(fail)?;
        w.set_frame_dimension(rect.width, rect.height)
            .map_err(fail)?;
        w.set_frame_position(rect.x, rect.y).map_err(fail)?;
        w.set_frame_delay(num, den).map_err(fail)?;
        let blend = if first {
            png::BlendOp::Source
        } else {
            png::BlendOp::Over
        };
        w.set_blend_op(blend).map_err(fail)?;
        w.write_image_data(rgba).map_err(fail)
    }

    /// Ends the file.
    pub fn finish(self) -> Result<()> {
        self.writer.finish().map_err(fail)
    }
}
