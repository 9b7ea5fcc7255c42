//! Deterministic hashing and noise: the only randomness of the pictures.
//!
//! Integer hashes of positions and seeds, not a random stream, so every
//! pixel, star or stone can be computed on its own, in any order, on any
//! thread, and come out the same.

/// A 32-bit integer hash with good avalanche (Chris Wellons' "lowbias32").
#[inline]
pub fn hash32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// Hash of two integers under a seed.
#[inline]
pub fn hash2(x: u32, y: u32, seed: u32) -> u32 {
    hash32(x ^ hash32(y.wrapping_add(hash32(seed))))
}

/// A 32-bit seed for one purpose (`salt`) derived from the scene's seed.
pub fn sub_seed(seed: u64, salt: u32) -> u32 {
    hash32((seed as u32) ^ hash32(((seed >> 32) as u32) ^ hash32(salt.wrapping_mul(0x9e37_79b9))))
}

/// The top 24 bits of a hash as a number in [0, 1).
#[inline]
pub fn unit(h: u32) -> f32 {
    (h >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// The top 24 bits of a hash as a number in [-1, 1).
#[inline]
pub fn signed(h: u32) -> f32 {
    unit(h) * 2.0 - 1.0
}

/// Smooth 1-D gradient noise, about -1..1, lattice spacing 1.
pub fn gradient1(x: f64, seed: u32) -> f32 {
    let i = x.floor();
    let f = (x - i) as f32;
    let i = i as i64 as u32;
    let g0 = signed(hash2(i, 0x51ed, seed));
    let g1 = signed(hash2(i.wrapping_add(1), 0x51ed, seed));
    let s = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    let a = g0 * f;
    let b = g1 * (f - 1.0);
    2.0 * (a + (b - a) * s)
}

/// Fractal (fBm) 1-D noise: `octaves` layers of [`gradient1`], each at twice
/// the frequency and `gain` times the amplitude of the last, normalized to
/// about -1..1.
pub fn fbm1(x: f64, seed: u32, octaves: u32, gain: f32) -> f32 {
    let (mut sum, mut amp, mut norm, mut freq) = (0.0f32, 1.0f32, 0.0f32, 1.0f64);
    for o in 0..octaves {
        sum += amp * gradient1(x * freq + f64::from(o) * 17.31, seed.wrapping_add(o));
        norm += amp;
        amp *= gain;
        freq *= 2.03;
    }
    sum / norm
}

/// Smooth 2-D value noise in 0..1, lattice spacing 1.
#[inline]
pub fn value2(x: f32, y: f32, seed: u32) -> f32 {
    let (fx, fy) = (x.floor(), y.floor());
    let (tx, ty) = (x - fx, y - fy);
    let (ix, iy) = (fx as i32 as u32, fy as i32 as u32);
    let v = |dx: u32, dy: u32| unit(hash2(ix.wrapping_add(dx), iy.wrapping_add(dy), seed));
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let top = v(0, 0) + (v(1, 0) - v(0, 0)) * sx;
    let bottom = v(0, 1) + (v(1, 1) - v(0, 1)) * sx;
    top + (bottom - top) * sy
}

/// Side of [`noise_tile`].
pub const TILE_SIDE: usize = 128;

/// A fixed 128×128 tile of white noise in -1..1, row after row: grain by
/// lookup, not by hashing every pixel.
pub fn noise_tile() -> &'static [f32] {
    static TILE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    TILE.get_or_init(|| {
        (0..TILE_SIDE * TILE_SIDE)
            .map(|i| signed(hash32(i as u32 ^ 0x6a09_e667)))
            .collect()
    })
}

/// A stream of random numbers from one hash: each draw costs one
/// [`hash32`], so objects with many random traits stay cheap.
#[derive(Clone, Copy, Debug)]
pub struct Dice(u32);

impl Dice {
    /// Dice seeded by a hash.
    pub fn new(seed: u32) -> Dice {
        Dice(seed)
    }

    /// The next 32 random bits.
    #[inline]
    pub fn bits(&mut self) -> u32 {
        self.0 = hash32(self.0.wrapping_add(0x9e37_79b9));
        self.0
    }

    /// The next `N` draws of [`Dice::bits`], worked out on a copy: these
    /// dice do not move.
    #[inline]
    pub fn ahead<const N: usize>(self) -> [u32; N] {
        let mut dice = self;
        std::array::from_fn(|_| dice.bits())
    }

    /// The dice whose last draw of [`Dice::bits`] was `last`: they go on
    /// drawing as those dice would (a draw is the dice's whole state).
    pub fn after(last: u32) -> Dice {
        Dice(last)
    }

    /// A number in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f32 {
        unit(self.bits())
    }

    /// A number in [-1, 1).
    #[inline]
    pub fn signed(&mut self) -> f32 {
        signed(self.bits())
    }
}

/// `t` eased with the smoothstep curve between `a` and `b`.
#[inline(always)]
pub fn smoothstep(a: f32, b: f32, t: f32) -> f32 {
    let x = ((t - a) / (b - a)).clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every picture depends on these exact values: a change to a constant
    /// or a shift of the hashes fails here, not only in the pixel hashes.
    #[test]
    fn hashes_are_pinned() {
        let hashes = [
            (0, 0x0000_0000),
            (1, 0x6889_90c0),
            (2, 0xd113_2181),
            (12_345, 0x912e_fcf7),
            (0x9e37_79b9, 0x01fc_e552),
            (u32::MAX, 0x6768_824a),
        ];
        for (x, h) in hashes {
            assert_eq!(hash32(x), h, "hash32({x:#x})");
        }
        assert_eq!(hash2(0, 0, 0), 0);
        assert_eq!(hash2(1, 2, 3), 0xacfd_7e59);
        assert_eq!(hash2(u32::MAX, 7, 42), 0xe50e_bb60);
        let seeds = [
            (0, 0, 0x0000_0000),
            (1, 2, 0x034f_ac76),
            (1, 3, 0x71a0_b2e0),
            (2, 2, 0x2c73_e150),
            (0x1_0000_0001, 5, 0x2d56_a269),
            (0xdead_beef_0000_0007, 11, 0x54a1_5389),
        ];
        for (seed, salt, s) in seeds {
            assert_eq!(sub_seed(seed, salt), s, "sub_seed({seed:#x}, {salt})");
        }
    }

    #[test]
    fn noise_stays_in_range_and_is_continuous() {
        let mut last = fbm1(0.0, 7, 6, 0.5);
        for i in 1..10_000 {
            let x = f64::from(i) * 0.001;
            let v = fbm1(x, 7, 6, 0.5);
            assert!((-1.5..=1.5).contains(&v));
            assert!((v - last).abs() < 0.2, "jump at {x}");
            last = v;
            let w = value2(x as f32 * 3.0, x as f32 * 7.0, 3);
            assert!((0.0..=1.0).contains(&w));
        }
    }
}
