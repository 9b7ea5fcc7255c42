//! Writing a GIF through the `gif` crate: one global palette, frames as
//! LZW-compressed indices (compressed on any thread, before writing), each
//! after the first a rectangle kept over the frame before.

use std::borrow::Cow;
use std::io::Write;

use super::Rect;
use crate::error::{Error, Result};

/// A GIF being written.
pub(super) struct Sink<W: Write> {
    encoder: ::gif::Encoder<W>,
    /// The palette index that keeps the frame before's pixel.
    transparent: u8,
}

fn fail(e: ::gif::EncodingError) -> Error {
    Error::Png {
        source_name: "GIF encoder".into(),
        reason: e.to_string(),
    }
}

/// `indices` LZW-compressed as a GIF frame's image data (the minimum code
/// size first).
pub(super) fn compress(indices: &[u8]) -> Vec<u8> {
    let mut frame = ::gif::Frame {
        buffer: Cow::Borrowed(indices),
        ..::gif::Frame::default()
    };
    frame.make_lzw_pre_encoded();
    frame.buffer.into_owned()
}

impl<W: Write> Sink<W> {
    /// Writes the header of a `width × height` GIF with `palette` (RGB
    /// triples, at most 255) and the `transparent` index after them,
    /// played `plays` times (0: forever). GIF counts repeats after the
    /// first play (the NETSCAPE loop count): one play has no loop count at
    /// all, `n` plays a count of `n - 1`.
    pub fn new(
        out: W,
        (width, height): (u32, u32),
        palette: &[u8],
        transparent: u8,
        plays: u32,
    ) -> Result<Sink<W>> {
        let side = |v: u32| {
            u16::try_from(v).map_err(|_| Error::out_of_range("GIF side", v, "at most 65535 pixels"))
        };
        // The transparent index needs a colour of its own in the table.
        let mut table = palette.to_vec();
        table.extend_from_slice(&[0, 0, 0]);
        debug_assert_eq!(table.len() / 3, usize::from(transparent) + 1);
        let mut encoder =
            ::gif::Encoder::new(out, side(width)?, side(height)?, &table).map_err(fail)?;
        let repeat = match plays {
            0 => Some(::gif::Repeat::Infinite),
            1 => None,
            n => Some(::gif::Repeat::Finite(
                u16::try_from(n - 1).unwrap_or(u16::MAX),
            )),
        };
        if let Some(repeat) = repeat {
            encoder.set_repeat(repeat).map_err(fail)?;
        }
        Ok(Sink {
            encoder,
            transparent,
        })
    }

    /// Writes the next frame: `lzw`, the compressed indices of `rect`
    /// ([`compress`]), shown for `delay` hundredths of a second; after the
    /// `first`, its transparent pixels keep the frame before's.
    pub fn write(&mut self, rect: Rect, delay: u16, first: bool, lzw: Vec<u8>) -> Result<()> {
        // Sizes were checked against 65535 when the header was written.
        let frame = ::gif::Frame {
            delay,
            dispose: ::gif::DisposalMethod::Keep,
            transparent: (!first).then_some(self.transparent),
            left: rect.x as u16,
            top: rect.y as u16,
            width: rect.width as u16,
            height: rect.height as u16,
            buffer: Cow::Owned(lzw),
            ..::gif::Frame::default()
        };
        self.encoder
            .write_lzw_pre_encoded_frame(&frame)
            .map_err(fail)
    }

    /// Ends the file.
    pub fn finish(self) -> Result<()> {
        self.encoder.into_inner().map(drop).map_err(fail)
    }
}
