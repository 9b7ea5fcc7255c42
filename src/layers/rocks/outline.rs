//! A stone's outline: four quarter ellipses, sheared, each side's width
//! scaled row by row by a profile through a few knots. A stone is placed
//! and bounded first ([`Rough`]); its profile and look are rolled only
//! when it shows ([`Stone`]). Also where its body and contact shadow lie
//! on a pixel row.

use super::runs::ShadowRow;
use super::shade::Look;
use crate::base::color::Linear;
use crate::base::noise::{Dice, signed, unit};

/// Rolls of its dice a stone's shape takes ([`Outline::rough`]).
pub(super) const SHAPE_ROLLS: usize = 5;

/// Knots of a stone's outline profile per side, evenly spaced from its top
/// (`nv = -1`) to `nv = KNOT_END`; the foot, mostly buried, goes as the
/// last knot.
pub(super) const KNOTS: usize = 6;
const KNOT_END: f32 = 0.4;
/// `|nv|` of each knot: -1 + 1.4 i / 5.
const KNOT_NV_ABS: [f32; KNOTS] = [1.0, 0.72, 0.44, 0.16, 0.12, 0.4];
/// A profile's width factors run from `PROFILE_MIN` in steps of
/// `PROFILE_STEP` (one byte a knot).
const PROFILE_MIN: f32 = 0.45;
const PROFILE_STEP: f32 = 1.1 / 255.0;

/// What every stone's outline shares.
pub(super) struct Outline {
    /// How irregular outlines are ([`Rocks::roughness`]).
    ///
    /// [`Rocks::roughness`]: super::Rocks::roughness
    pub(super) roughness: f32,
    /// How deep stones sit in the sand ([`Rocks::sink`]).
    ///
    /// [`Rocks::sink`]: super::Rocks::sink
    pub(super) sink: f32,
    /// Shadow direction on screen times its length, in stone radii.
    pub(super) shadow: (f32, f32),
}

impl Outline {
    /// A stone `size` pixels wide at (`x`, `y`), `tall` times its usual
    /// height, `blocky` (0 to 1) how square its shoulders are, of colour
    /// `albedo`, its shape and look rolled with `dice`: only what places
    /// it and bounds it; the rest is rolled by [`Rough::stone`] for the
    /// stones that show (in a packed field, a few in ten). A grain of
    /// gravel (`casts` false) casts no contact shadow: a few pixels wide,
    /// its shadow would not show.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rough(
        &self,
        x: f32,
        y: f32,
        size: f32,
        tall: f32,
        blocky: f32,
        albedo: Linear,
        rolls: [u32; SHAPE_ROLLS],
        casts: bool,
    ) -> ([i32; 4], Rough) {
        let rx = 0.5 * size;
        let ry = rx * (0.6 + 0.3 * unit(rolls[0])) * tall;
        let rx_left = rx * (0.8 + 0.4 * unit(rolls[1]));
        let rx_right = rx * (0.8 + 0.4 * unit(rolls[2]));
        let ry_top = ry * (1.0 + 0.5 * unit(rolls[3]));
        let shear = 0.35 * signed(rolls[4]);
        // Sunk in the sand: lower, with less of its underside showing.
        let ry_bottom = ry * 0.4 * (1.0 - 0.5 * self.sink);
        let shape = StoneShape {
            x,
            y: y + self.sink * ry * 0.2,
            rx_left,
            rx_right,
            ry_top,
            ry_bottom,
            shear,
            shadow: self.shadow,
            casts,
        };
        // The box holds the widest outline the roughness allows (the
        // outline itself is rolled later): a box only decides what is
        // looked at, never a pixel.
        let widest = PROFILE_MIN + self.widest(blocky) * PROFILE_STEP;
        let bbox = shape.bounds(widest);
        (
            bbox,
            Rough {
                shape,
                blocky,
                albedo,
                dice: Dice::after(rolls[SHAPE_ROLLS - 1]),
            },
        )
    }

    /// The profile's knots in profile steps, plus 0.5 (to round): `base +
    /// random * r + square * |nv|` for a random `r` in -1..1.
    fn knot_terms(&self, blocky: f32) -> [f32; 3] {
        let step = 1.0 / PROFILE_STEP;
        [
            (1.0 - PROFILE_MIN) * step + 0.5,
            self.roughness * 0.7 * step,
            self.roughness * 0.7 * blocky * step,
        ]
    }

    /// The largest knot (in profile steps) a stone of `blocky` can roll.
    fn widest(&self, blocky: f32) -> f32 {
        let [base, random, square] = self.knot_terms(blocky);
        // The "no waist" rule only raises a knot toward one above it.
        // (+ 1: `r` may round a hair above 1.)
        f32::from(((base + random + square) as i32 + 1).clamp(0, 255) as u8)
    }
}

/// A stone placed and bounded, the rest of its outline and its look still
/// to roll ([`Outline::rough`]).
#[derive(Clone, Copy)]
pub(super) struct Rough {
    /// Where and how big it is.
    pub(super) shape: StoneShape,
    blocky: f32,
    /// Its colour.
    pub(super) albedo: Linear,
    /// Where the placing draws left the stone's dice.
    dice: Dice,
}

impl Rough {
    /// The whole stone: its outline's profile rolled, then its look.
    pub(super) fn stone(&self, outline: &Outline) -> Stone {
        let mut dice = self.dice;
        // Seeded irregular outlines: each side's width is scaled row by row
        // by a profile through a few random knots (straight between them,
        // so the outline has corners and flats, like broken rock).
        let mut profile = [0u8; 2 * KNOTS];
        // Five random bits a knot, from two draws. The factor of a knot at
        // `nv` is `1 + roughness * (0.7 * r + 0.7 * blocky * |nv|)`, `r`
        // random in -1..1; worked out in profile steps, with plain
        // comparisons, no NaN-aware min/max.
        let [base, random, square] = outline.knot_terms(self.blocky);
        let slack = 0.1 / PROFILE_STEP;
        let mut bits = u64::from(dice.bits()) << 32 | u64::from(dice.bits());
        for side in profile.chunks_mut(KNOTS) {
            let mut above = 0.0f32;
            for (q, nv) in side.iter_mut().zip(KNOT_NV_ABS) {
                let r = (bits & 31) as u32 as f32 * (2.0 / 31.0) - 1.0;
                bits >>= 5;
                let mut v = base + random * r + square * nv;
                // No waist: a rock narrows little below a wider part.
                if v < above - slack {
                    v = above - slack;
                }
                above = v;
                *q = (v as i32).clamp(0, 255) as u8;
            }
        }
        Stone::new(
            &self.shape,
            profile,
            Look {
                albedo: self.albedo,
                dice,
            },
        )
    }
}

/// Where and how big a stone is, in pixels.
#[derive(Clone, Copy)]
pub(super) struct StoneShape {
    /// Centre column, in pixels.
    pub(super) x: f32,
    /// Centre row, in pixels (lowered as it sinks in the sand).
    pub(super) y: f32,
    rx_left: f32,
    rx_right: f32,
    ry_top: f32,
    ry_bottom: f32,
    shear: f32,
    /// Shadow direction on screen times its length, in stone radii.
    shadow: (f32, f32),
    /// Whether it casts a contact shadow.
    casts: bool,
}

impl StoneShape {
    /// Its contact shadow's centre and radii.
    fn shadow(&self) -> (f32, f32, f32, f32) {
        let rx = 0.5 * (self.rx_left + self.rx_right);
        let ry = self.ry_top.max(self.ry_bottom);
        let sx = self.x + self.shadow.0 * rx * 0.55;
        let sy = self.y + self.ry_bottom * 0.4 + self.shadow.1.abs() * ry * 0.25;
        let srx = rx * (1.05 + 0.45 * self.shadow.0.abs());
        let sry = ry * 0.55 + self.ry_bottom * 0.5;
        (sx, sy, srx, sry)
    }

    /// The box (x0, y0, x1, y1; x1, y1 excluded) of the stone and its
    /// shadow (if it casts one) with sides at most `widest` times their
    /// radii.
    fn bounds(&self, widest: f32) -> [i32; 4] {
        let ry = self.ry_top.max(self.ry_bottom);
        let reach_x = self.rx_left.max(self.rx_right) * widest + self.shear.abs() * ry + 1.5;
        let (mut x0, mut x1) = (self.x - reach_x, self.x + reach_x);
        let y0 = self.y - self.ry_top - 1.5;
        let mut y1 = self.y + self.ry_bottom + 1.5;
        if self.casts {
            let (sx, sy, srx, sry) = self.shadow();
            x0 = x0.min(sx - srx * widest);
            x1 = x1.max(sx + srx * widest);
            y1 = y1.max(sy + sry + 1.0);
        }
        [floor(x0 - 1.0), floor(y0), -floor(-(x1 + 1.0)), -floor(-y1)]
    }
}

/// A stone ready to rasterize: an egg-shaped outline made of four quarter
/// ellipses (so it can be lopsided and flat-bottomed), sheared, each side's
/// width scaled row by row by its profile (an irregular outline), with
/// three lit faces, plus its contact shadow: the same outline, squashed
/// onto the ground.
#[derive(Clone, Copy)]
pub(super) struct Stone {
    /// Centre column, in pixels.
    pub(super) x: f32,
    /// Centre row, in pixels.
    pub(super) y: f32,
    /// 1 / radius: left, right, top, bottom.
    pub(super) inv: [f32; 4],
    /// Radius: left, right (= 1 / `inv`).
    radius: [f32; 2],
    /// How it leans: the outline's centre moves `-shear` columns per pixel
    /// row below the stone's centre.
    pub(super) shear: f32,
    /// Faces' blend across the row and down the column: stone units to
    /// blend fractions (pixels over a slightly rounded edge).
    pub(super) side_k: f32,
    /// The top face's blend down the column (see `side_k`).
    pub(super) top_k: f32,
    /// Outline anti-aliasing: coverage is `0.5 - (f - 1) * aa` where `f` is
    /// the squared normalized radius (first-order distance in pixels), so
    /// it is 1 inside `f < inner2` and 0 outside `f > outer2`.
    pub(super) aa: f32,
    /// The squared normalized radius inside which coverage is 1.
    pub(super) inner2: f32,
    /// The squared normalized radius outside which coverage is 0.
    pub(super) outer2: f32,
    /// Shadow centre, 1 / radii and its horizontal radius.
    pub(super) sx: f32,
    /// The contact shadow's centre row.
    pub(super) sy: f32,
    sinv: [f32; 2],
    sradius: f32,
    /// Whether it casts its contact shadow ([`StoneShape::casts`]).
    casts: bool,
    /// The profile's width factors, knot by knot.
    pub(super) knots: [f32; 2 * KNOTS],
    /// How it looks: colour and the dice for its faces and grain.
    pub(super) look: Look,
    /// In one ground, its foot's key ([`super::prepared::Placed::foot`]),
    /// which it marks the pixels it covers with; 0 elsewhere.
    pub(super) key: f32,
}

/// A stone's outline on one pixel row: the row's place in the stone (`nv`,
/// -1 at the top to 1 at the foot, and its square), its centre and its
/// left and right radii (and their inverses). The body's columns, its
/// inside and every pixel drawn are worked out from these same numbers.
pub(super) struct RowFit {
    /// The row's place in the stone: -1 at the top, 1 at the foot.
    pub(super) nv: f32,
    nv2: f32,
    /// The outline's centre column on the row (sheared).
    pub(super) cx: f32,
    /// 1 / the outline's radius on the row, left and right.
    pub(super) inv: [f32; 2],
    radius: [f32; 2],
}

impl Stone {
    /// The stone of shape `s`, outline `profile` and `look`.
    fn new(s: &StoneShape, profile: [u8; 2 * KNOTS], look: Look) -> Stone {
        let rx = 0.5 * (s.rx_left + s.rx_right);
        let ry = s.ry_top.max(s.ry_bottom);
        let (sx, sy, srx, sry) = s.shadow();
        let soft = (0.12 * ry).max(0.7);
        let r_eff = (rx * 0.5 * (s.ry_top + s.ry_bottom)).sqrt();
        let aa = 0.5 * r_eff.max(0.25);
        let inv = [
            1.0 / s.rx_left.max(0.05),
            1.0 / s.rx_right.max(0.05),
            1.0 / s.ry_top.max(0.05),
            1.0 / s.ry_bottom.max(0.05),
        ];
        let sinv = [1.0 / srx.max(0.05), 1.0 / sry.max(0.05)];
        Stone {
            x: s.x,
            y: s.y,
            inv,
            radius: [1.0 / inv[0], 1.0 / inv[1]],
            shear: s.shear,
            side_k: 0.5 * (s.rx_left + s.rx_right) / soft,
            top_k: s.ry_top / soft,
            aa,
            inner2: (1.0 - 0.5 / aa).max(0.0),
            outer2: 1.0 + 0.5 / aa,
            sx,
            sy,
            sinv,
            sradius: 1.0 / sinv[0],
            casts: s.casts,
            knots: profile.map(|q| PROFILE_MIN + f32::from(q) * PROFILE_STEP),
            look,
            key: 0.0,
        }
    }

    /// The outline's width factors, left and right, at `nv` (-1 at the
    /// top, 1 at the foot; beyond the knots, as at the nearest).
    #[inline]
    fn widths(&self, nv: f32) -> [f32; 2] {
        const LAST: f32 = (KNOTS - 1) as f32 - 1e-3;
        let t = (nv + 1.0) * ((KNOTS - 1) as f32 / (1.0 + KNOT_END));
        // Plain comparisons (on every row of every stone drawn).
        let t = if t > 0.0 { t } else { 0.0 };
        let t = if t < LAST { t } else { LAST };
        let i = t as i32 as usize;
        let frac = t - i as f32;
        let knot = |j: usize| self.knots[j];
        let side = |j: usize| knot(j) + (knot(j + 1) - knot(j)) * frac;
        [side(i), side(KNOTS + i)]
    }

    /// The outline on row `y`; `None` if the body misses the row.
    #[inline]
    pub(super) fn fit(&self, y: u32) -> Option<RowFit> {
        let dy = y as f32 + 0.5 - self.y;
        let nv = dy * if dy < 0.0 { self.inv[2] } else { self.inv[3] };
        let nv2 = nv * nv;
        if nv2 >= self.outer2 {
            return None;
        }
        let [left, right] = self.widths(nv);
        Some(RowFit {
            nv,
            nv2,
            cx: self.x - self.shear * dy,
            inv: [self.inv[0] / left, self.inv[1] / right],
            radius: [self.radius[0] * left, self.radius[1] * right],
        })
    }
}

impl Stone {
    /// The columns of the stone's body on the row of `fit` (clipped to the
    /// columns `cols` drawn, possibly empty).
    pub(super) fn body(&self, fit: &RowFit, cols: [u32; 2]) -> [u32; 2] {
        let reach = (self.outer2 - fit.nv2).sqrt();
        columns(
            fit.cx - reach * fit.radius[0],
            fit.cx + reach * fit.radius[1],
            cols,
        )
    }

    /// The columns of the row of `fit` the body covers whole (coverage 1):
    /// estimated, then checked pixel by pixel at both ends with the very
    /// test the drawing makes (`f` falls toward the centre on each side, so
    /// the run between two passing ends passes).
    pub(super) fn inside(&self, fit: &RowFit, cols: [u32; 2]) -> [u32; 2] {
        if fit.nv2 >= self.inner2 {
            return [0, 0];
        }
        let whole = |x: u32| {
            let dx = x as f32 + 0.5 - fit.cx;
            let nu = dx * if dx < 0.0 { fit.inv[0] } else { fit.inv[1] };
            nu * nu + fit.nv2 <= self.inner2
        };
        let reach = (self.inner2 - fit.nv2).sqrt();
        let [mut a, mut b] = columns(
            fit.cx - reach * fit.radius[0],
            fit.cx + reach * fit.radius[1],
            cols,
        );
        while a < b && !whole(a) {
            a += 1;
        }
        while a < b && !whole(b - 1) {
            b -= 1;
        }
        [a, b]
    }

    /// The columns of the stone's shadow on row `y` (possibly empty) and
    /// its outline there; `None` if the shadow misses the row.
    pub(super) fn shadow(&self, y: u32, cols: [u32; 2]) -> Option<([u32; 2], ShadowRow)> {
        let sdy = (y as f32 + 0.5 - self.sy) * self.sinv[1];
        let sdy2 = sdy * sdy;
        if !self.casts || sdy2 >= 1.0 {
            return None;
        }
        let half = (1.0 - sdy2).sqrt() * self.sradius;
        let [left, right] = self.widths(sdy);
        let sinv = [self.sinv[0] / left, self.sinv[0] / right];
        Some((
            columns(self.sx - half * left, self.sx + half * right, cols),
            ShadowRow { sinv, sdy2 },
        ))
    }
}

/// The columns `[a, b)` of columns `x0..x1` (of the picture, or of a
/// window of it) whose centres lie in `lo..hi` (pixel units), and some
/// margin: the drawing tests each pixel. The same as the picture's columns
/// cut to `x0..x1`, since both ends are whole numbers. (Truncation on values
/// clamped to 0 or more, not `ceil`/`floor`, which are library calls on
/// baseline x86-64.)
#[inline]
fn columns(lo: f32, hi: f32, [x0, x1]: [u32; 2]) -> [u32; 2] {
    let (l, r) = (x0 as f32, x1 as f32);
    let lo = (lo - 0.5).clamp(l, r);
    let a = lo as u32 + u32::from((lo as u32 as f32) < lo);
    let b = ((hi + 0.5).clamp(l, r) as u32).min(x1);
    [a, b.max(a)]
}

/// `x` rounded down, without a library call (see [`columns`]).
#[inline]
fn floor(x: f32) -> i32 {
    let t = x as i32;
    t - i32::from(t as f32 > x)
}
