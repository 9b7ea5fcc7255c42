//! Gravel: one or two grains in front of a clump's stone, rolled from the
//! stone's cell, each a tiny stone of its own that casts no shadow.

use super::outline::SHAPE_ROLLS;
use crate::base::color::{Linear, scale};
use crate::base::noise::Dice;

/// The gravel in front of one stone: its place, size and colour, and the
/// dice the grains are rolled with.
pub(super) struct Gravel {
    /// The stone's centre column, in pixels: the grains lie in front of it.
    pub(super) x: f32,
    /// The stone's centre row, in pixels.
    pub(super) y: f32,
    /// The stone's size, in pixels.
    pub(super) size: f32,
    /// The row's stone size.
    pub(super) d: f32,
    /// Which way the grains lean: the stone's side of its clump.
    pub(super) side: f32,
    /// The stone's colour, which the grains take, lighter or darker.
    pub(super) albedo: Linear,
    /// The dice the grains are rolled with, seeded by the stone's cell.
    pub(super) dice: Dice,
    /// Below this roll, two grains rather than one.
    pub(super) many: f32,
}

impl Gravel {
    /// The grains (one or two) that lie outside where `cleared`, calling
    /// `near` with the centre of each, cleared or not. A grain is made by
    /// `make` from its centre, size, colour and the rolls of its shape (a
    /// stone of its own, see [`super::outline::Outline::rough`]).
    #[inline]
    pub(super) fn grains<T>(
        &self,
        make: impl Fn(f32, f32, f32, Linear, [u32; SHAPE_ROLLS]) -> T,
        cleared: impl Fn(f32, f32) -> bool,
        mut near: impl FnMut(f32, f32),
    ) -> [Option<T>; 2] {
        let mut g = self.dice;
        let n = 1 + usize::from(g.unit() < self.many);
        let mut grains = [None, None];
        for grain in grains.iter_mut().take(n) {
            let gx = self.x + self.size * (0.35 * self.side + 0.7 * g.signed());
            let gy = self.y + self.size * (0.12 + 0.22 * g.unit());
            near(gx, gy);
            if cleared(gx, gy) {
                continue;
            }
            let gs = self.d * (0.09 + 0.1 * g.unit());
            let shade = 0.9 + 0.4 * g.unit();
            let albedo = scale(self.albedo, shade);
            // (A second grain's place rolls on from `g` as it was.)
            *grain = Some(make(gx, gy, gs, albedo, g.ahead()));
        }
        grains
    }
}
