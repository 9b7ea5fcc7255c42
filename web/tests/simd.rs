//! The browser's vector code gives the portable code's bytes: the sRGB
//! encoder written with wasm's 128-bit vectors (`src/base/color.rs`) against the
//! portable loop, on values in and out of range, NaN and infinities, at
//! every offset in the dither tile and every length of a row's tail.
//! Run in Node by wasm-bindgen-test, as `pixels.rs` is.

#![cfg(target_arch = "wasm32")]

use playa::base::color::{Linear, encode_row, encode_row_portable};
use wasm_bindgen_test::wasm_bindgen_test;

/// A value for channel `i`: mostly 0..1, some out of range or not finite.
fn value(i: u32) -> f32 {
    let h = i.wrapping_mul(0x9e37_79b9).rotate_left(13) ^ i;
    match h % 64 {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => f32::NEG_INFINITY,
        3 => -0.0,
        4 => 1e-40, // subnormal
        5 => -(h as f32) / u32::MAX as f32,
        6 => 1.0 + (h as f32) / u32::MAX as f32,
        7 => 0.003_130_8, // where the curve starts
        _ => (h >> 8) as f32 / (1 << 24) as f32,
    }
}

#[wasm_bindgen_test]
fn the_vector_encoder_gives_the_portable_bytes() {
    let src: Vec<Linear> = (0..700u32)
        .map(|p| [value(3 * p), value(3 * p + 1), value(3 * p + 2)])
        .collect();
    let mut compared = 0;
    for y in [0, 1, 77, 127, 128, 300] {
        for x0 in [0u32, 1, 2, 3, 5, 64, 126, 127, 128, 129, 255, 1000] {
            for len in [0usize, 1, 2, 3, 4, 5, 7, 8, 127, 128, 129, 300, 700] {
                let src = &src[..len];
                let (mut fast, mut plain) = (vec![7u8; len * 4], vec![9u8; len * 4]);
                encode_row(src, &mut fast, x0, y);
                encode_row_portable(src, &mut plain, x0, y);
                assert_eq!(fast, plain, "row {y}, from x {x0}, {len} pixels");
                compared += len;
            }
        }
    }
    assert!(compared > 100_000);
}

#[wasm_bindgen_test]
fn every_level_encodes_as_natively() {
    // Each of the 256 levels, on a tile's row of thresholds: the bytes the
    // native unit tests check (a level encodes to itself on average).
    for level in 0..=255u8 {
        let lin = playa::base::color::srgb_to_linear(level);
        let src = vec![[lin; 3]; 256];
        let (mut fast, mut plain) = (vec![0u8; 1024], vec![0u8; 1024]);
        encode_row(&src, &mut fast, 3, 11);
        encode_row_portable(&src, &mut plain, 3, 11);
        assert_eq!(fast, plain, "level {level}");
        let mean = fast.chunks(4).map(|p| f64::from(p[0])).sum::<f64>() / 256.0;
        assert!(
            (mean - f64::from(level)).abs() < 0.6,
            "level {level}: mean {mean}"
        );
    }
}
