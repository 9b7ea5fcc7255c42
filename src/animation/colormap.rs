//! A GIF's colours: a palette of at most 256 colours cut from sample frames
//! by median cut, and every pixel mapped to it with ordered dithering.
//!
//! - Median cut: the pixels are counted in a histogram of 6 bits a channel;
//!   the box of histogram cells with the most pixels times its longest side
//!   is cut at the pixel median of that side, until there are 256 boxes or
//!   none can be cut; a box's colour is the mean of its pixels.
//! - Mapping: a table gives, for every 6-bit cell, the palette colour
//!   nearest to the cell's centre. A pixel is first offset by the 8×8 Bayer
//!   threshold of its position (the same offset on all three channels), so
//!   smooth gradients become a fine fixed pattern instead of bands. The
//!   pattern belongs to the position, not to the frame: a pixel that stays
//!   the same keeps its index from frame to frame.
//!
//! It is all integer arithmetic with ties broken by order, so the palette
//! and the indices are the same on every run, machine and thread count.

use image::RgbaImage;
use rayon::prelude::*;

use super::Rect;

/// Bits a channel of the histogram and of the mapping table.
const BITS: u32 = 6;
/// Cells a side of the histogram.
const SIDE: usize = 1 << BITS;
/// Most colours of the palette: a GIF holds 256, and the last index
/// is left for transparency.
const COLOURS: usize = 255;
/// Peak-to-peak amplitude of the dithering offset, in 8-bit levels: about
/// two steps of the palette in a gradient, enough to hide its bands.
const SPREAD: i32 = 12;

/// A palette and the table that maps colours to it.
pub(super) struct Colormap {
    /// RGB triples.
    palette: Vec<u8>,
    /// Palette index of each 6-bit cell, `r << 12 | g << 6 | b`.
    table: Vec<u8>,
}

/// The histogram cell of an 8-bit colour.
fn cell(r: u8, g: u8, b: u8) -> usize {
    let c = |v: u8| usize::from(v >> (8 - BITS));
    c(r) << (2 * BITS) | c(g) << BITS | c(b)
}

/// A non-empty cell of the histogram.
#[derive(Clone, Copy)]
struct Cell {
    /// Its 6-bit coordinates.
    at: [u8; 3],
    /// Pixels in it.
    count: u64,
    /// Sum of each channel of its pixels (8-bit values).
    sum: [u64; 3],
}

impl Colormap {
    /// The palette of `frames`' pixels and its table.
    pub fn from_frames(frames: &[&RgbaImage]) -> Colormap {
        let mut count = vec![0u64; SIDE * SIDE * SIDE];
        let mut sum = vec![[0u64; 3]; SIDE * SIDE * SIDE];
        for frame in frames {
            for p in frame.as_raw().chunks_exact(4) {
                let i = cell(p[0], p[1], p[2]);
                count[i] += 1;
                for c in 0..3 {
                    sum[i][c] += u64::from(p[c]);
                }
            }
        }
        let cells: Vec<Cell> = (0..count.len())
            .filter(|&i| count[i] > 0)
            .map(|i| Cell {
                at: [
                    (i >> (2 * BITS)) as u8,
                    (i >> BITS) as u8 & 63,
                    i as u8 & 63,
                ],
                count: count[i],
                sum: sum[i],
            })
            .collect();
        let palette: Vec<u8> = median_cut(cells)
            .iter()
            .flat_map(|cells| {
                let n: u64 = cells.iter().map(|c| c.count).sum();
                (0..3).map(move |c| {
                    let s: u64 = cells.iter().map(|cell| cell.sum[c]).sum();
                    ((s + n / 2) / n) as u8
                })
            })
            .collect();
        let palette = if palette.is_empty() {
            vec![0, 0, 0]
        } else {
            palette
        };
        let table = (0..SIDE * SIDE * SIDE)
            .into_par_iter()
            .map(|i| {
                let centre = |v: usize| ((v & (SIDE - 1)) << (8 - BITS)) as i32 + (1 << (7 - BITS));
                let rgb = [centre(i >> (2 * BITS)), centre(i >> BITS), centre(i)];
                nearest(&palette, rgb)
            })
            .collect();
        Colormap { palette, table }
    }

    /// The palette: RGB triples, at most 256.
    pub fn palette(&self) -> &[u8] {
        &self.palette
    }

    /// Index of the transparent colour, after the palette's: where a frame
    /// keeps the pixel of the frame before.
    pub fn transparent(&self) -> u8 {
        (self.palette.len() / 3) as u8
    }

    /// The palette indices of the pixels of `rect`, given as its `rows`
    /// (`Rect::rows`), dithered by position; a pixel the same as before is
    /// [`Colormap::transparent`].
    pub fn indices<'a>(
        &self,
        rect: Rect,
        rows: impl Iterator<Item = (u32, u32, &'a [u8], Option<&'a [u8]>)>,
    ) -> Vec<u8> {
        let mut out = Vec::with_capacity(rect.width as usize * rect.height as usize);
        let transparent = self.transparent();
        for (x0, y, now, before) in rows {
            // The row's offsets, repeating every 8 pixels.
            let offsets: [i32; 8] = std::array::from_fn(|i| {
                (2 * bayer(x0 + i as u32, y) as i32 + 1 - 64) * SPREAD / 128
            });
            for (i, p) in now.chunks_exact(4).enumerate() {
                if before.is_some_and(|b| b[i * 4..i * 4 + 4] == *p) {
                    out.push(transparent);
                    continue;
                }
                let offset = offsets[i % 8];
                let c = |v: u8| (i32::from(v) + offset).clamp(0, 255) as u8;
                out.push(self.table[cell(c(p[0]), c(p[1]), c(p[2]))]);
            }
        }
        out
    }
}

/// Cuts `cells` into at most [`COLOURS`] boxes (see the module's comment).
fn median_cut(cells: Vec<Cell>) -> Vec<Vec<Cell>> {
    if cells.is_empty() {
        return Vec::new();
    }
    let mut boxes = vec![cells];
    while boxes.len() < COLOURS {
        // The box with the most pixels times its longest side; the first
        // such box on ties.
        let best = boxes
            .iter()
            .enumerate()
            .filter(|(_, b)| b.len() > 1)
            .map(|(i, b)| {
                let (_, side) = longest_side(b);
                let pixels: u64 = b.iter().map(|c| c.count).sum();
                (pixels * u64::from(side), std::cmp::Reverse(i))
            })
            .max();
        let Some((_, std::cmp::Reverse(i))) = best else {
            break;
        };
        let mut cut = std::mem::take(&mut boxes[i]);
        let (axis, _) = longest_side(&cut);
        cut.sort_unstable_by_key(|c| (c.at[axis], c.at));
        let total: u64 = cut.iter().map(|c| c.count).sum();
        let mut seen = 0;
        let mut at = cut.len() - 1;
        for (k, c) in cut.iter().enumerate() {
            seen += c.count;
            if 2 * seen >= total {
                at = k + 1;
                break;
            }
        }
        let at = at.clamp(1, cut.len() - 1);
        let upper = cut.split_off(at);
        boxes[i] = cut;
        boxes.push(upper);
    }
    boxes
}

/// The channel along which `cells` spread most, and how far (the first
/// channel on ties).
fn longest_side(cells: &[Cell]) -> (usize, u8) {
    (0..3)
        .map(|c| {
            let lo = cells.iter().map(|cell| cell.at[c]).min().unwrap_or(0);
            let hi = cells.iter().map(|cell| cell.at[c]).max().unwrap_or(0);
            (c, hi - lo)
        })
        .fold(
            (0, 0),
            |best, (c, side)| {
                if side > best.1 { (c, side) } else { best }
            },
        )
}

/// Index of the palette colour nearest to `rgb` (squared distance; the
/// first on ties).
fn nearest(palette: &[u8], rgb: [i32; 3]) -> u8 {
    let mut best = (i32::MAX, 0);
    for (i, p) in palette.chunks_exact(3).enumerate() {
        let d: i32 = (0..3).map(|c| (i32::from(p[c]) - rgb[c]).pow(2)).sum();
        if d < best.0 {
            best = (d, i);
        }
    }
    best.1 as u8
}

/// The 8×8 Bayer threshold of a position, 0 to 63.
fn bayer(x: u32, y: u32) -> u32 {
    let xy = x ^ y;
    let mut v = 0;
    for bit in 0..3 {
        v = (v << 2) | ((xy >> bit) & 1) << 1 | ((y >> bit) & 1);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bayer_matrix_holds_every_threshold_once() {
        let mut seen = [false; 64];
        for y in 0..8 {
            for x in 0..8 {
                seen[bayer(x, y) as usize] = true;
                assert_eq!(bayer(x, y), bayer(x + 8, y + 16));
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let mut image = RgbaImage::from_pixel(16, 16, image::Rgba([20, 20, 24, 255]));
        for x in 0..8 {
            image.put_pixel(x, 3, image::Rgba([236, 226, 204, 255]));
        }
        let map = Colormap::from_frames(&[&image]);
        assert_eq!(map.palette().len(), 6);
        let indices = map.indices(Rect::whole(&image), Rect::whole(&image).rows(&image, None));
        for (i, p) in image.pixels().enumerate() {
            let k = indices[i] as usize * 3;
            assert_eq!(&map.palette()[k..k + 3], &p.0[..3]);
        }
    }

    #[test]
    fn a_gradient_gets_at_most_256_colours_near_its_pixels() {
        let image = RgbaImage::from_fn(256, 64, |x, y| {
            image::Rgba([x as u8, (y * 4) as u8, 255 - x as u8, 255])
        });
        let map = Colormap::from_frames(&[&image]);
        assert_eq!(map.palette().len(), 3 * 255);
        let indices = map.indices(Rect::whole(&image), Rect::whole(&image).rows(&image, None));
        let mut error = 0u64;
        for (i, p) in image.pixels().enumerate() {
            let k = indices[i] as usize * 3;
            for c in 0..3 {
                error += u64::from(map.palette()[k + c].abs_diff(p.0[c]));
            }
        }
        let mean = error as f64 / (256.0 * 64.0 * 3.0);
        assert!(mean < 8.0, "mean error {mean}");
    }
}
