//! Colours: sRGB triples for scene files, linear light for composing, and the
//! final linear → sRGB conversion with deterministic dithering.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::noise::hash32;

/// A colour as written in scene files: 8-bit sRGB, `(r, g, b)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// A colour in linear light, red, green, blue; 1.0 is full white.
pub type Linear = [f32; 3];

impl Rgb {
    /// This colour in linear light.
    pub fn linear(self) -> Linear {
        [
            srgb_to_linear(self.0),
            srgb_to_linear(self.1),
            srgb_to_linear(self.2),
        ]
    }
}

/// The linear-light value of an 8-bit sRGB component.
pub fn srgb_to_linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The sRGB value (0..=1) of a linear-light component (clamped to 0..=1).
pub fn linear_to_srgb(v: f32) -> f32 {
    let v = v.clamp(0.0, 1.0);
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}

/// `a + (b - a) * t`, per channel.
#[inline]
pub fn mix(a: Linear, b: Linear, t: f32) -> Linear {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// `a * k`, per channel.
#[inline]
pub fn scale(a: Linear, k: f32) -> Linear {
    [a[0] * k, a[1] * k, a[2] * k]
}

/// `a * b`, per channel.
#[inline]
pub fn mul(a: Linear, b: Linear) -> Linear {
    [a[0] * b[0], a[1] * b[1], a[2] * b[2]]
}

/// `a + b`, per channel.
#[inline]
pub fn add(a: Linear, b: Linear) -> Linear {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Mantissa bits of a linear value that index the encoding table.
const LUT_MANTISSA: u32 = 10;
/// Smallest linear value the table resolves (2^-16); darker values encode as
/// it, 0.05 of an sRGB level.
const LUT_MIN: f32 = 1.0 / 65536.0;
/// Side of the tiled dither threshold table.
const DITHER_SIDE: usize = 128;

/// The encoding table is indexed by the bits of the `f32` itself: its
/// exponent and top mantissa bits, a piecewise-logarithmic scale that spends
/// the entries where sRGB is steep (the darks). 16 octaves × 1024 entries,
/// each within 0.1 of a level, 32 KiB: it stays in the L1 cache.
#[inline]
#[allow(clippy::manual_clamp)] // max/min maps NaN into range; clamp would keep it
fn lut_index(v: f32) -> usize {
    let v = v.max(LUT_MIN).min(1.0);
    ((v.to_bits() - LUT_MIN.to_bits()) >> (23 - LUT_MANTISSA)) as usize
}

struct Tables {
    /// sRGB value × 256 (0..=65280) at the centre of each table cell.
    encode: Vec<u16>,
    /// Dither thresholds in 0..=255, one per pixel of a 128×128 tile.
    dither: Vec<u8>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let len = lut_index(1.0) + 1;
        let encode = (0..len)
            .map(|i| {
                // The middle of the cell's range of linear values.
                let lo = f32::from_bits(LUT_MIN.to_bits() + ((i as u32) << (23 - LUT_MANTISSA)));
                let hi =
                    f32::from_bits(LUT_MIN.to_bits() + ((i as u32 + 1) << (23 - LUT_MANTISSA)));
                let mid = if i + 1 == len { 1.0 } else { 0.5 * (lo + hi) };
                (linear_to_srgb(mid) * 255.0 * 256.0).round() as u16
            })
            .collect();
        let dither = (0..DITHER_SIDE * DITHER_SIDE)
            .map(|i| (hash32(i as u32 ^ 0x9e37_79b9) >> 24) as u8)
            .collect();
        Tables { encode, dither }
    })
}

/// Converts one row of linear-light pixels to 8-bit sRGB RGBA (opaque).
///
/// Each value is looked up in the encoding table (sRGB in 1/256 of a level)
/// and rounded down after adding a per-pixel threshold (0..255 of those
/// 1/256ths) from a fixed hashed tile: the mean is kept, so smooth gradients
/// show no bands, and the threshold depends only on the pixel position, so
/// the bytes do not depend on threads or bands.
pub(crate) fn encode_row(src: &[Linear], dst: &mut [u8], y: u32) {
    let t = tables();
    let row = (y as usize % DITHER_SIDE) * DITHER_SIDE;
    let dither = &t.dither[row..row + DITHER_SIDE];
    let lut = &t.encode[..];
    let last = lut.len() - 1;
    for (x, (p, out)) in src.iter().zip(dst.chunks_exact_mut(4)).enumerate() {
        let d = u32::from(dither[x % DITHER_SIDE]);
        let enc = |v: f32| ((u32::from(lut[lut_index(v).min(last)]) + d) >> 8).min(255) as u8;
        out.copy_from_slice(&[enc(p[0]), enc(p[1]), enc(p[2]), 255]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_round_trips_every_level() {
        for v in 0..=255u8 {
            let back = (linear_to_srgb(srgb_to_linear(v)) * 255.0).round() as u8;
            assert_eq!(back, v);
        }
    }

    #[test]
    fn encoding_keeps_levels_and_means() {
        // A flat level encodes to itself on average, within dithering.
        for v in [0u8, 1, 7, 60, 128, 200, 254, 255] {
            let lin = srgb_to_linear(v);
            let src = vec![[lin; 3]; 512];
            let mut dst = vec![0u8; 512 * 4];
            encode_row(&src, &mut dst, 3);
            let mean = dst.chunks(4).map(|p| f64::from(p[0])).sum::<f64>() / 512.0;
            assert!((mean - f64::from(v)).abs() < 0.6, "{v} -> {mean}");
        }
    }

    #[test]
    fn out_of_range_values_clamp() {
        let src = [[-1.0, 2.0, f32::NAN]];
        let mut dst = [0u8; 4];
        encode_row(&src, &mut dst, 0);
        assert_eq!(dst[..2], [0, 255]);
        assert_eq!(dst[3], 255);
    }
}
