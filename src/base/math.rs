//! Transcendental functions with the same results on every platform.
//!
//! `f32::powf`, `exp`, `sin` and `cos` call the platform's maths library
//! (glibc natively, a port of musl's in the browser), whose last bits may
//! differ; a picture must not. Everything that decides pixels calls these
//! instead: the `libm` crate's portable implementations, the same code on
//! every target. (Square roots, `floor` and friends are exact everywhere.)

/// `x` to the power `y`.
#[inline]
pub fn powf(x: f32, y: f32) -> f32 {
    libm::powf(x, y)
}

/// e to the power `x`.
#[inline]
pub fn exp(x: f32) -> f32 {
    libm::expf(x)
}

/// The natural logarithm of `x`.
#[inline]
pub fn ln(x: f32) -> f32 {
    libm::logf(x)
}

/// The angle of the point (`x`, `y`) from the x axis, -π to π.
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    libm::atan2f(y, x)
}

/// The angle whose sine is `x`, -π/2 to π/2.
#[inline]
pub fn asin(x: f32) -> f32 {
    libm::asinf(x)
}

/// The sine of `x` (radians).
#[inline]
pub fn sin(x: f32) -> f32 {
    libm::sinf(x)
}

/// The cosine of `x` (radians).
#[inline]
pub fn cos(x: f32) -> f32 {
    libm::cosf(x)
}

/// `x.floor()` as an integer, without a call to the maths library (the
/// baseline x86-64 has no rounding instruction); exact for `|x| < 2^31`.
#[inline(always)]
pub fn floor_i32(x: f32) -> i32 {
    let i = x as i32;
    i - i32::from((i as f32) > x)
}

/// `v.max(lo)`, for a `lo` that is not NaN (a NaN `v` gives `lo`, as
/// `max` does), written as a comparison and a select. The same value, but
/// where `max` in wasm is a call to `fmaxf` (wasm's own `f32.max` keeps a
/// NaN, Rust's does not), this is one instruction, and a loop of it
/// vectorizes: `max` and `min` in the sRGB encoder took a sixth of a render
/// in the browser.
#[inline(always)]
pub fn at_least(v: f32, lo: f32) -> f32 {
    if v > lo { v } else { lo }
}

/// `v.min(hi)`, for a `hi` that is not NaN (a NaN `v` gives `hi`, as
/// `min` does), as a comparison and a select: see [`at_least`].
#[inline(always)]
pub fn at_most(v: f32, hi: f32) -> f32 {
    if v < hi { v } else { hi }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned bit patterns: these must be the same on every target (the
    /// wasm build runs this test too).
    #[test]
    fn results_are_pinned() {
        assert_eq!(powf(0.5, 2.4).to_bits(), 0x3e42_02ff);
        assert_eq!(exp(-1.25).to_bits(), 0x3e92_b0c2);
        assert_eq!(sin(1.0).to_bits(), 0x3f57_6aa4);
        assert_eq!(cos(1.0).to_bits(), 0x3f0a_5140);
    }
}
