//! Colours: sRGB triples for scene files, linear light for composing, and the
//! final linear → sRGB conversion with deterministic dithering.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::base::math::{self, at_least, at_most};
use crate::base::noise::hash32;

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
        math::powf((c + 0.055) / 1.055, 2.4)
    }
}

/// The sRGB value (0..=1) of a linear-light component (clamped to 0..=1).
pub fn linear_to_srgb(v: f32) -> f32 {
    let v = v.clamp(0.0, 1.0);
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * math::powf(v, 1.0 / 2.4) - 0.055
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

/// Side of the tiled dither threshold table.
const DITHER_SIDE: usize = 128;

/// sRGB (0..1) of linear light `v` in 0.0031308..=1, as a polynomial in
/// `sqrt(v)`: a least-squares fit of `1.055 v^(1/2.4) - 0.055`, within 0.07
/// of a level. No table lookups and no `powf`, so the encoding loop
/// vectorizes.
#[inline]
fn srgb_curve(s: f32) -> f32 {
    let mut p = SRGB_CURVE[7];
    for &c in SRGB_CURVE[..7].iter().rev() {
        p = p * s + c;
    }
    p
}

/// The coefficients of [`srgb_curve`], lowest power first.
const SRGB_CURVE: [f32; 8] = [
    -0.042_522_22,
    1.591_628_4,
    -2.132_962,
    5.261_663,
    -8.895_932,
    9.178_812,
    -5.187_918,
    1.227_309_6,
];

/// Dither thresholds in [0, 1), one per channel of each pixel of a 128×128
/// tile (the three channels of a pixel share theirs).
fn dither_tile() -> &'static [f32] {
    static TILE: OnceLock<Vec<f32>> = OnceLock::new();
    TILE.get_or_init(|| {
        (0..DITHER_SIDE * DITHER_SIDE)
            .flat_map(|i| {
                let t = ((hash32(i as u32 ^ 0x9e37_79b9) >> 24) as f32 + 0.5) / 256.0;
                [t; 3]
            })
            .collect()
    })
}

/// Converts pixels `x0..` of row `y` from linear light to 8-bit sRGB RGBA
/// (opaque).
///
/// Each value goes through the sRGB curve and is rounded down after adding
/// a per-pixel threshold in [0, 1) from a fixed hashed tile: the mean is
/// kept, so smooth gradients show no bands, and the threshold depends only
/// on the pixel position, so the bytes do not depend on threads, bands or
/// windows.
#[doc(hidden)]
pub fn encode_row(src: &[Linear], dst: &mut [u8], x0: u32, y: u32) {
    // In the browser: wasm's vectors, written out.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    encode_row_with(src, dst, x0, y, encode_simd128);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    match crate::base::simd::Build::best() {
        // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
        #[cfg(target_arch = "x86_64")]
        crate::base::simd::Build::Avx2 => unsafe { encode_row_avx2(src, dst, x0, y) },
        crate::base::simd::Build::Portable => encode_row_portable(src, dst, x0, y),
    }
}

/// [`encode_row`] with the portable loop, on any machine: what the
/// browser's build is tested against (`web/tests/simd.rs`).
#[doc(hidden)]
pub fn encode_row_portable(src: &[Linear], dst: &mut [u8], x0: u32, y: u32) {
    encode_row_with(src, dst, x0, y, encode_any);
}

/// [`encode_row`] compiled for AVX2: twice the lanes of the baseline, the
/// same operations (no fused multiply-add), so the same bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn encode_row_avx2(src: &[Linear], dst: &mut [u8], x0: u32, y: u32) {
    encode_row_with(src, dst, x0, y, encode_any);
}

/// Cuts the row where the dither tile repeats and encodes each piece with
/// `encode(src, dither, dst)` (channels, their thresholds, RGBA bytes).
#[inline(always)]
fn encode_row_with(
    src: &[Linear],
    dst: &mut [u8],
    x0: u32,
    y: u32,
    encode: impl Fn(&[f32], &[f32], &mut [u8]),
) {
    let tile = dither_tile();
    let row = (y as usize % DITHER_SIDE) * DITHER_SIDE * 3;
    let dither = &tile[row..row + DITHER_SIDE * 3];
    // Up to the tile's next edge, then a tile's width of pixels at a time:
    // the dither row lines up with each piece.
    let lead = ((DITHER_SIDE - x0 as usize % DITHER_SIDE) % DITHER_SIDE).min(src.len());
    let (src_lead, src) = src.as_flattened().split_at(lead * 3);
    let (dst_lead, dst) = dst.split_at_mut(lead * 4);
    let from = x0 as usize % DITHER_SIDE * 3;
    encode(src_lead, &dither[from..], dst_lead);
    for (src, dst) in src
        .chunks(DITHER_SIDE * 3)
        .zip(dst.chunks_mut(DITHER_SIDE * 4))
    {
        encode(src, dither, dst);
    }
}

/// One channel: linear light `v` and its threshold `d` to the sRGB byte
/// (in the low 8 bits).
#[inline(always)]
fn encode_channel(v: f32, d: f32) -> u32 {
    // Bounded below first: NaN becomes 0 (`clamp` would keep it).
    let v = at_most(at_least(v, 0.0), 1.0);
    let curve = srgb_curve(v.sqrt());
    let e = if v <= 0.003_130_8 { v * 12.92 } else { curve };
    // Round `e * 255 + d - 0.5` (= floor of `e * 255 + d`, ties aside) by
    // adding 1.5 × 2^23: the integer lands in the low mantissa bits. A bit
    // cast, not a float-to-int conversion, so the loop vectorizes.
    let x = at_most(e * 255.0 + (d - 0.5), 255.0);
    (x + 12_582_912.0).to_bits()
}

/// A piece of a row, portably: channels `src` (RGB), their thresholds
/// `dither`, into RGBA `dst`; written so that LLVM vectorizes the channels.
#[inline(always)]
fn encode_any(src: &[f32], dither: &[f32], dst: &mut [u8]) {
    let mut rgb = [0u8; DITHER_SIDE * 3];
    for ((o, &v), &d) in rgb.iter_mut().zip(src).zip(dither) {
        *o = (encode_channel(v, d) & 0xff) as u8;
    }
    for (o, p) in dst.chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
        o.copy_from_slice(&[p[0], p[1], p[2], 255]);
    }
}

/// [`encode_any`] with wasm's 128-bit vectors: four pixels (twelve
/// channels, three vectors) at a time, packed to RGBA with two byte
/// shuffles; the rest portably. The same operations in the same order
/// (`pmin`/`pmax` are [`at_most`]/[`at_least`]'s compare-and-select), so
/// the same bytes.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn encode_simd128(src: &[f32], dither: &[f32], dst: &mut [u8]) {
    use std::arch::wasm32::*;
    const C: [f32; 8] = SRGB_CURVE;
    let channel = |v: v128, d: v128| -> v128 {
        let v = f32x4_pmin(f32x4_splat(1.0), f32x4_pmax(f32x4_splat(0.0), v));
        let s = f32x4_sqrt(v);
        let mut p = f32x4_splat(C[7]);
        for &c in C[..7].iter().rev() {
            p = f32x4_add(f32x4_mul(p, s), f32x4_splat(c));
        }
        let low = f32x4_le(v, f32x4_splat(0.003_130_8));
        let e = v128_bitselect(f32x4_mul(v, f32x4_splat(12.92)), p, low);
        let x = f32x4_add(
            f32x4_mul(e, f32x4_splat(255.0)),
            f32x4_sub(d, f32x4_splat(0.5)),
        );
        f32x4_add(f32x4_pmin(f32x4_splat(255.0), x), f32x4_splat(12_582_912.0))
    };
    let pixels = (src.len() / 3).min(dst.len() / 4);
    let quads = pixels / 4;
    /// Floats `4k..4k + 4` of `v` as a vector, read as one (wasm's loads
    /// need no alignment).
    fn lanes(v: &[f32], k: usize) -> v128 {
        let four: &[f32; 4] = v[k * 4..k * 4 + 4].try_into().expect("four floats");
        // SAFETY: `four` is 16 readable bytes.
        unsafe { v128_load(four.as_ptr().cast()) }
    }
    for q in 0..quads {
        let (s, d) = (&src[q * 12..q * 12 + 12], &dither[q * 12..q * 12 + 12]);
        let a = channel(lanes(s, 0), lanes(d, 0));
        let b = channel(lanes(s, 1), lanes(d, 1));
        let c = channel(lanes(s, 2), lanes(d, 2));
        // The low byte of each lane: channels 0-7 from `a` and `b`, then
        // 8-11 from `c`, then an opaque alpha after every third.
        let ab = i8x16_shuffle::<0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0>(a, b);
        let abc = i8x16_shuffle::<0, 1, 2, 3, 4, 5, 6, 7, 16, 20, 24, 28, 0, 0, 0, 0>(ab, c);
        let rgba = i8x16_shuffle::<0, 1, 2, 16, 3, 4, 5, 16, 6, 7, 8, 16, 9, 10, 11, 16>(
            abc,
            u8x16_splat(255),
        );
        let out: &mut [u8; 16] = (&mut dst[q * 16..q * 16 + 16])
            .try_into()
            .expect("sixteen bytes");
        // SAFETY: `out` is 16 writable bytes.
        unsafe { v128_store(out.as_mut_ptr().cast(), rgba) };
    }
    let done = quads * 4;
    encode_any(&src[done * 3..], &dither[done * 3..], &mut dst[done * 4..]);
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
            encode_row(&src, &mut dst, 0, 3);
            let mean = dst.chunks(4).map(|p| f64::from(p[0])).sum::<f64>() / 512.0;
            assert!((mean - f64::from(v)).abs() < 0.6, "{v} -> {mean}");
        }
    }

    #[test]
    fn the_curve_fits_the_formula() {
        for i in 0..=10_000 {
            let v = 0.003_130_8 + (1.0 - 0.003_130_8) * i as f32 / 10_000.0;
            let err = (srgb_curve(v.sqrt()) - linear_to_srgb(v)).abs() * 255.0;
            assert!(err < 0.08, "{v}: {err}");
        }
    }

    #[test]
    fn every_code_path_gives_the_same_bytes() {
        let src: Vec<Linear> = (0..1000)
            .map(|i| {
                let h = hash32(i);
                [
                    (h & 0xfff) as f32 / 4000.0,
                    (h >> 12 & 0xff) as f32 / 255.0,
                    i as f32 / 999.0,
                ]
            })
            .collect();
        let (mut a, mut b) = (vec![0u8; 4000], vec![0u8; 4000]);
        encode_row(&src, &mut a, 0, 5);
        encode_row_portable(&src, &mut b, 0, 5);
        assert_eq!(a, b);
    }

    #[test]
    fn out_of_range_values_clamp_and_nan_is_black() {
        // NaN encodes as 0 whatever the dither (with `clamp` instead of
        // `max` first it would come out as 255): every dither threshold of a
        // tile's row, on two rows, through both code paths.
        let width = DITHER_SIDE * 2;
        let src = vec![[-1.0, 2.0, f32::NAN]; width];
        for y in [0, 77] {
            let (mut fast, mut plain) = (vec![1u8; width * 4], vec![1u8; width * 4]);
            encode_row(&src, &mut fast, 0, y);
            encode_row_portable(&src, &mut plain, 0, y);
            for (x, (p, q)) in fast.chunks(4).zip(plain.chunks(4)).enumerate() {
                assert_eq!(p, [0, 255, 0, 255], "pixel {x} of row {y}");
                assert_eq!(q, [0, 255, 0, 255], "pixel {x} of row {y}, plain");
            }
        }
        let mut dst = [1u8; 4];
        encode_row(&[[f32::NAN, f32::NAN, 0.5]], &mut dst, 0, 3);
        assert_eq!(dst[..2], [0, 0]);
    }

    /// A pixel encodes to the same bytes whatever column its piece of row
    /// starts at: the dither follows the pixel, not the piece.
    #[test]
    fn a_piece_of_a_row_encodes_as_the_row_does_there() {
        let width = 700;
        let src: Vec<Linear> = (0..width)
            .map(|i| {
                let v = (hash32(i) & 0xffff) as f32 / 65_535.0;
                [v, 0.5 * v, 0.02]
            })
            .collect();
        for y in [0, 9, 130] {
            let mut whole = vec![0u8; width as usize * 4];
            encode_row(&src, &mut whole, 0, y);
            for (x0, n) in [
                (0, 1),
                (1, 1),
                (127, 1),
                (127, 2),
                (128, 128),
                (5, 300),
                (200, 500),
                (699, 1),
            ] {
                let (a, b) = (x0 as usize, x0 as usize + n);
                for build in [true, false] {
                    let mut part = vec![0u8; n * 4];
                    if build {
                        encode_row(&src[a..b], &mut part, x0, y);
                    } else {
                        encode_row_portable(&src[a..b], &mut part, x0, y);
                    }
                    assert_eq!(part, whole[a * 4..b * 4], "{n} pixels from {x0} on row {y}");
                }
            }
        }
    }
}
