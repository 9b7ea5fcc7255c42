//! The dunes' relief: the height of the sand at a point of the ground and
//! its slope there, for each form, worked out exactly (no tile, no finite
//! differences), so crests and the brinks of slip faces stay sharp.
//!
//! Everything is in scene units on the ground plane (`x` across to the
//! right, `z` away from the viewer), turned into the wind's axes: `u`
//! downwind and `v` across it, in spacings (wavelengths). Slip faces stand
//! at the angle of repose on the lee of every crest.

use crate::base::math;
use crate::base::noise::{hash2, smoothstep, unit};
use crate::layers::racetrack::{floor, lattice};

/// The tangent of the angle of repose of dry sand (about 33°): the slope
/// of a slip face.
pub(super) const REPOSE: f32 = 0.65;

/// The height of the sand and its slope: `h` over the base plane, and
/// `dh/dx`, `dh/dz`, all in scene units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Height {
    pub h: f32,
    pub dx: f32,
    pub dz: f32,
}

/// The form of a dune field (the `form` setting).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Form {
    /// Crescents, horns downwind, on a floor where sand is scarce.
    Barchan,
    /// Sinuous ridges across the wind, where sand is plentiful.
    Transverse,
    /// Pyramids with arms in several directions, where the wind turns.
    Star,
}

impl Form {
    /// The form of the setting's number (0, 1 or 2).
    pub(super) fn of(n: u32) -> Form {
        match n {
            0 => Form::Barchan,
            1 => Form::Transverse,
            _ => Form::Star,
        }
    }
}

/// Smooth value noise in -1..1 and its derivatives along `x` and `y`, from
/// the noise tile (lattice spacing 1).
#[inline]
fn noise_d(x: f32, y: f32, seed: u32) -> (f32, f32, f32) {
    let (ix, iy) = (floor(x), floor(y));
    let (tx, ty) = (x - ix as f32, y - iy as f32);
    let (a, b) = (lattice(ix, iy, seed), lattice(ix + 1, iy, seed));
    let (c, d) = (lattice(ix, iy + 1, seed), lattice(ix + 1, iy + 1, seed));
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let (dsx, dsy) = (6.0 * tx * (1.0 - tx), 6.0 * ty * (1.0 - ty));
    let k = a - b - c + d;
    (
        a + (b - a) * sx + (c - a) * sy + k * sx * sy,
        dsx * (b - a + k * sy),
        dsy * (c - a + k * sx),
    )
}

/// A dune field of one form, ready to be asked its height anywhere.
pub(super) struct Relief {
    pub form: Form,
    /// The wind, `[across, away]` (unit).
    wind: [f32; 2],
    /// The spacing, scene units, and its inverse.
    spacing: f32,
    inv: f32,
    /// The tallest dune, scene units.
    pub tallest: f32,
    /// How much sand there is, 0 to 1.
    cover: f32,
    seed: u32,
}

impl Relief {
    /// The field of `form` with dunes up to `height` high, `spacing` apart
    /// (scene units), with sand `cover` (0 to 1), blown along `wind`.
    pub(super) fn new(
        form: Form,
        height: f32,
        spacing: f32,
        cover: f32,
        wind: [f32; 2],
        seed: u32,
    ) -> Relief {
        // A dune is at most this share of its spacing high, so that its
        // slip face fits before the next.
        let tallest = match form {
            Form::Transverse => height.min(0.12 * spacing),
            // A barchan is a tenth as high as it is wide; it fits its cell.
            Form::Barchan => height.min(0.072 * spacing),
            Form::Star => height.min(0.2 * spacing),
        };
        Relief {
            form,
            wind,
            spacing,
            inv: 1.0 / spacing,
            tallest,
            cover,
            seed,
        }
    }

    /// The sand's height and slope at ground `(x, z)`.
    #[inline]
    pub(super) fn at(&self, x: f32, z: f32) -> Height {
        let [wa, wz] = self.wind;
        // Downwind and across, in spacings.
        let u = (x * wa + z * wz) * self.inv;
        let v = (z * wa - x * wz) * self.inv;
        // Slopes per spacing along u and v, turned back to x and z.
        let (h, du, dv) = match self.form {
            Form::Transverse => self.transverse(u, v),
            Form::Barchan => self.barchan(u, v),
            Form::Star => self.star(u, v),
        };
        let (du, dv) = (du * self.inv, dv * self.inv);
        Height {
            h,
            dx: du * wa - dv * wz,
            dz: du * wz + dv * wa,
        }
    }

    /// Ridges across the wind: a long gentle stoss slope up to a sharp
    /// brink, the slip face down from it at the angle of repose, a narrow
    /// trough; the crests wander and swell along their length, and break
    /// into pieces where sand is short.
    fn transverse(&self, u: f32, v: f32) -> (f32, f32, f32) {
        let s = self.seed;
        // The crest line's wander across the wind, and how it drifts.
        let (w1, w1v, w1u) = noise_d(v * 0.55, u * 0.22, s);
        let (w2, w2v, w2u) = noise_d(v * 1.4 + 17.0, u * 0.5, s ^ 0x2b);
        let warp = 0.32 * w1 + 0.1 * w2;
        let warp_u = 0.32 * 0.22 * w1u + 0.1 * 0.5 * w2u;
        let warp_v = 0.32 * 0.55 * w1v + 0.1 * 1.4 * w2v;
        let phase = u + warp;
        let crest = floor(phase);
        // The crest's height, its own along its length, and gaps where
        // sand is short.
        let swell = lattice(crest, 0x5a, s);
        let short = 3.0 * (self.cover - 0.5);
        // The noise is within -1..1: with sand enough, no gaps to look for.
        let gap = if short - 1.0 >= 0.3 {
            1.0
        } else {
            let (n, _, _) = noise_d(v * 0.7 + 3.0 * swell, crest as f32 * 0.9, s ^ 0x77);
            smoothstep(-0.25, 0.3, n + short)
        };
        let amp = self.tallest * (0.78 + 0.22 * swell) * gap;
        if amp <= 0.0 {
            return (0.0, 0.0, 0.0);
        }
        let (f, df) = ridge(phase - crest as f32, amp * self.inv / REPOSE);
        (amp * f, amp * df * (1.0 + warp_u), amp * df * warp_v)
    }

    /// Crescents, one or none in each cell of a grid of spacings (rows
    /// shifted), horns downwind.
    fn barchan(&self, u: f32, v: f32) -> (f32, f32, f32) {
        let row = floor(u);
        let v = v + 0.5 * (row & 1) as f32;
        let col = floor(v);
        let h = hash2(row as u32, col as u32, self.seed);
        let present = 0.3 + 0.65 * self.cover;
        if unit(h) >= present {
            return (0.0, 0.0, 0.0);
        }
        let size = 0.55 + 0.45 * unit(crate::base::noise::hash32(h));
        // Half its width across, in spacings; its height; its windward
        // length; how far the horns reach downwind.
        let rb = 0.36 * size * (self.tallest / (0.072 * self.spacing)).min(1.0);
        let peak0 = self.tallest * size;
        let lw = 1.2 * rb;
        let horn = 0.9 * rb;
        // Room to stand off the cell's middle, the windward foot kept
        // inside the cell (no seam where a neighbour's cell begins).
        let room = (0.5 - 1.45 * rb).max(0.0);
        let h2 = crate::base::noise::hash32(h ^ 0x9e37);
        let cu = row as f32 + 0.5 + room * (2.0 * unit(h2) - 1.0) - 0.2 * rb;
        let cv = col as f32 + 0.5 + room * (2.0 * unit(crate::base::noise::hash32(h2)) - 1.0);
        let (a, b) = (u - cu, v - cv);
        let bb = b / rb;
        let q = 1.0 - bb * bb;
        if q <= 0.0 {
            return (0.0, 0.0, 0.0);
        }
        // The crest bends downwind toward the horns.
        let peak = peak0 * q;
        let dpeak = peak0 * (-2.0 * bb / rb);
        let ap = a - horn * bb * bb;
        let dap_b = -2.0 * horn * bb / rb;
        if ap < 0.0 {
            // The windward slope: a parabola up to the brink.
            let t = ap / lw;
            if t <= -1.0 {
                return (0.0, 0.0, 0.0);
            }
            let g = 1.0 - t * t;
            let dg = -2.0 * t / lw;
            (peak * g, peak * dg, dpeak * g + peak * dg * dap_b)
        } else {
            // The slip face, straight down at the angle of repose.
            let fall = REPOSE * self.spacing;
            let h = peak - fall * ap;
            if h <= 0.0 {
                return (0.0, 0.0, 0.0);
            }
            (h, -fall, dpeak - fall * dap_b)
        }
    }

    /// Star dunes: in each cell of a grid of spacings, a pyramid whose
    /// sharp-crested arms run out in three to five directions, each arm
    /// with a slip face on one side.
    fn star(&self, u: f32, v: f32) -> (f32, f32, f32) {
        let (iu, iv) = (floor(u - 0.5), floor(v - 0.5));
        let mut best = (0.0f32, 0.0f32, 0.0f32);
        for (du, dv) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let got = self.star_in(u, v, iu + du, iv + dv);
            if got.0 > best.0 {
                best = got;
            }
        }
        best
    }

    /// The star dune of cell `(i, j)` at `(u, v)`, if it reaches there.
    fn star_in(&self, u: f32, v: f32, i: i32, j: i32) -> (f32, f32, f32) {
        let mut dice = crate::base::noise::Dice::new(hash2(i as u32, j as u32, self.seed));
        if dice.unit() >= 0.35 + 0.65 * self.cover {
            return (0.0, 0.0, 0.0);
        }
        let size = 0.6 + 0.4 * dice.unit();
        let (cu, cv) = (
            i as f32 + 0.5 + 0.2 * dice.signed(),
            j as f32 + 0.5 + 0.2 * dice.signed(),
        );
        let (a, b) = (u - cu, v - cv);
        let reach = 0.62 * size;
        if a * a + b * b >= reach * reach {
            return (0.0, 0.0, 0.0);
        }
        let top = self.tallest * size;
        // Arm slope along its crest, and the sides' (scene units per
        // spacing): the slip face steep, the other side gentler.
        let fall = top / reach;
        let (steep, gentle) = (REPOSE * self.spacing, 0.3 * self.spacing);
        let arms = 3 + (dice.bits() % 3);
        let turn0 = dice.unit() * std::f32::consts::TAU;
        let mut best = (0.0f32, 0.0f32, 0.0f32);
        for k in 0..arms {
            let angle =
                turn0 + std::f32::consts::TAU * (k as f32 + 0.3 * dice.signed()) / arms as f32;
            // The arm curls a little as it runs out.
            let curl = 0.5 * dice.signed();
            let (c, s) = (math::cos(angle), math::sin(angle));
            let along = a * c + b * s;
            let perp = -a * s + b * c - curl * along * along;
            let dperp_along = -2.0 * curl * along;
            let side = if (k & 1 == 0) == (perp >= 0.0) {
                steep
            } else {
                gentle
            };
            let sign = if perp >= 0.0 { 1.0 } else { -1.0 };
            // Behind the summit the arm falls at the angle of repose (no
            // seam where another arm takes over).
            let h = top - fall * along.max(0.0) - steep * (-along).max(0.0) - side * perp.abs();
            if h > best.0 {
                // d h / d along and d h / d perp, turned back to u and v.
                let dal = if along > 0.0 { -fall } else { steep } - side * sign * dperp_along;
                let dpe = -side * sign;
                best = (h, dal * c - dpe * s, dal * s + dpe * c);
            }
        }
        best
    }
}

/// A transverse ridge's profile over one spacing, `p` in 0..1 from the
/// trough: its height (0 to 1) and slope per spacing. `slip` is the slip
/// face's width, in spacings.
#[inline]
fn ridge(p: f32, slip: f32) -> (f32, f32) {
    let slip = slip.min(0.3);
    let trough = 0.08;
    let brink = 1.0 - slip - trough;
    if p < brink {
        // The stoss slope: rising from the trough, rounding over to the
        // brink.
        let t = p / brink;
        (t * t * (3.0 - 2.0 * t), 6.0 * t * (1.0 - t) / brink)
    } else if p < brink + slip {
        (1.0 - (p - brink) / slip, -1.0 / slip)
    } else {
        (0.0, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slopes worked out agree with the heights' differences, for
    /// every form, away from the creases.
    #[test]
    fn slopes_are_the_heights_derivatives() {
        for form in [Form::Transverse, Form::Barchan, Form::Star] {
            let relief = Relief::new(form, 3.0, 30.0, 0.8, [0.6, -0.8], 9);
            let (mut checked, eps) = (0, 1e-3);
            for i in 0..1600 {
                let (x, z) = (-40.0 + 2.13 * (i % 40) as f32, 5.0 + 2.71 * (i / 40) as f32);
                let at = relief.at(x, z);
                let (px, pz) = (relief.at(x + eps, z), relief.at(x, z + eps));
                let (mx, mz) = (relief.at(x - eps, z), relief.at(x, z - eps));
                let (nx, nz) = ((px.h - mx.h) / (2.0 * eps), (pz.h - mz.h) / (2.0 * eps));
                // Only where both sides are on the same piece (a ridge's
                // slow swell along its crest is left out of its slope).
                let smooth = (px.dx - mx.dx).abs() < 0.05 && (pz.dz - mz.dz).abs() < 0.05;
                if at.h > 0.0 && smooth {
                    assert!(
                        (nx - at.dx).abs() < 0.04,
                        "{form:?} {x} {z}: {nx} {}",
                        at.dx
                    );
                    assert!(
                        (nz - at.dz).abs() < 0.04,
                        "{form:?} {x} {z}: {nz} {}",
                        at.dz
                    );
                    checked += 1;
                }
            }
            assert!(checked > 100, "{form:?}: {checked}");
        }
    }

    /// Slip faces stand at the angle of repose, on the lee of the crests:
    /// the steepest slope met along the wind goes down downwind.
    #[test]
    fn slip_faces_fall_downwind_at_the_angle_of_repose() {
        for form in [Form::Transverse, Form::Barchan] {
            let wind = [0.8, 0.6];
            let relief = Relief::new(form, 2.0, 30.0, 1.0, wind, 4);
            let mut steepest = (0.0f32, 0.0f32);
            for i in 0..20000 {
                let (x, z) = (-60.0 + 0.011 * i as f32, 20.0 + 0.0043 * i as f32);
                let at = relief.at(x, z);
                let along = at.dx * wind[0] + at.dz * wind[1];
                let slope = (at.dx * at.dx + at.dz * at.dz).sqrt();
                if slope > steepest.0 {
                    steepest = (slope, along);
                }
            }
            assert!((steepest.0 - REPOSE).abs() < 0.15, "{form:?} {steepest:?}");
            assert!(steepest.1 < -0.4, "{form:?} {steepest:?}");
        }
    }
}
