//! The rectangle of a frame that changed since the frame before: what an
//! APNG or GIF frame after the first stores.

use image::RgbaImage;

/// A rectangle of a frame, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rect {
    /// Left edge.
    pub(super) x: u32,
    /// Top edge.
    pub(super) y: u32,
    /// Width, at least 1.
    pub(super) width: u32,
    /// Height, at least 1.
    pub(super) height: u32,
}

impl Rect {
    /// The whole of `frame`.
    pub(super) fn whole(frame: &RgbaImage) -> Rect {
        Rect {
            x: 0,
            y: 0,
            width: frame.width(),
            height: frame.height(),
        }
    }

    /// The smallest rectangle holding every pixel that differs between
    /// `before` and `after` (the same size); one pixel at the top left if
    /// none does (a frame has at least one pixel).
    pub(super) fn changed(before: &RgbaImage, after: &RgbaImage) -> Rect {
        let width = after.width() as usize;
        let stride = width * 4;
        let a: Vec<&[u8]> = before.as_raw().chunks_exact(stride).collect();
        let b: Vec<&[u8]> = after.as_raw().chunks_exact(stride).collect();
        let differs = |y: &usize| a[*y] != b[*y];
        let Some(top) = (0..b.len()).find(differs) else {
            return Rect {
                x: 0,
                y: 0,
                width: 1,
                height: 1,
            };
        };
        let bottom = (top..b.len()).rev().find(differs).unwrap_or(top);
        let (mut left, mut right) = (width, 0);
        for y in top..=bottom {
            let (ra, rb) = (a[y], b[y]);
            let differs = |x: &usize| ra[x * 4..x * 4 + 4] != rb[x * 4..x * 4 + 4];
            if let Some(l) = (0..width).find(differs) {
                left = left.min(l);
                right = right.max((l..width).rev().find(differs).unwrap_or(l));
            }
        }
        Rect {
            x: left as u32,
            y: top as u32,
            width: (right + 1 - left) as u32,
            height: (bottom + 1 - top) as u32,
        }
    }

    /// The rectangle's rows of `frame`: `(x, y, rgba, before)`, the row's
    /// first pixel, its RGBA bytes and the same pixels of `previous`.
    pub(super) fn rows<'a>(
        self,
        frame: &'a RgbaImage,
        previous: Option<&'a RgbaImage>,
    ) -> impl Iterator<Item = (u32, u32, &'a [u8], Option<&'a [u8]>)> + 'a {
        let (x0, w) = (self.x as usize, self.width as usize);
        let stride = frame.width() as usize * 4;
        let row = move |img: &'a RgbaImage, y: u32| {
            &img.as_raw()[y as usize * stride..][x0 * 4..(x0 + w) * 4]
        };
        let x = self.x;
        (self.y..self.y + self.height)
            .map(move |y| (x, y, row(frame, y), previous.map(|p| row(p, y))))
    }
}
