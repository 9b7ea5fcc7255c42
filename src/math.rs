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
