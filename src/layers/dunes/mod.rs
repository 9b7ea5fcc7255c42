//! Dunes: a sand sea on the floor, or instead of it. Barchans (crescents,
//! their horns downwind), transverse ridges across the wind, or star dunes
//! with arms in several directions, each with its slip face at the angle of
//! repose on the lee; ripples run across the wind on the gentle slopes.
//!
//! The relief is a heightfield on the ground (the `relief` module), turned to the
//! scene's wind, in scene units (the eye 0.22 over the ground is 1.6 m), so
//! the picture is the same at any resolution. Where there is sand to stand
//! on, the viewer stands on a great dune, looking down over the
//! sea; on a bare floor, on the floor among the barchans. It is drawn as a
//! "voxel space" terrain: `prepare` marches each column of the picture
//! from near to far, in steps of a few pixels on the screen, keeping the
//! highest row drawn so far (what is behind a crest stays hidden, and the
//! march skips on to where sand could rise over it), and lights every
//! visible step once: the sun on the slope's true normal (lee faces dark
//! away from the sun), the sky from above, a bounce from the sand, and the
//! haze of distance. A crest's top is searched for between two steps and
//! a sharp change of light (a brink, a slip face's foot) bisected, so
//! both fall where they are, not where a step happened to land; `draw`
//! smooths each over its pixel. Far off, where a dune spans a few rows,
//! the relief and its light fade to the field's means (no streaks of
//! crests stepped over). `draw` interpolates between a column's steps,
//! perspective-correct, and adds the ripples and the clouds' shade per
//! pixel. A pixel depends only on its column's march, so every window and
//! band comes out the same.

mod relief;

use rayon::prelude::*;
use serde::Serialize;

use super::{Band, Draw, Frame, Ground, Kind, Prepare, blend};
use crate::base::color::{Linear, Rgb, mix, mul, scale};
use crate::base::math;
use crate::base::noise::{smoothstep, sub_seed};
use crate::error::Result;
use crate::layers::racetrack::{floor, lattice};
use crate::setting::{Roll, Setting, float, other, uint};
use relief::{Form, Relief};

/// Settings of the dunes layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dunes {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// The dunes' form: 0 barchans, 1 transverse ridges, 2 star dunes.
    /// Default: 1.
    pub form: u32,
    /// The tallest dunes' height, metres (1 to 150). A dune is at most an
    /// eighth of its spacing high. Default: 20.
    pub height: f32,
    /// How far apart the dunes are, metres (20 to 2000). Default: 240.
    pub spacing: f32,
    /// How much sand there is, 0 to 1: a few barchans on the floor to a
    /// sand sea to the horizon. Default: 0.9.
    pub cover: f32,
    /// How plain the ripples are, 0 to 1. Default: 0.6.
    pub ripples: f32,
    /// Colour of the sand in full light. Default: (224, 174, 120).
    pub color: Rgb,
}

impl Default for Dunes {
    fn default() -> Self {
        Dunes {
            visible: true,
            opacity: 1.0,
            form: 1,
            height: 20.0,
            spacing: 240.0,
            cover: 0.9,
            ripples: 0.6,
            color: Rgb(224, 174, 120),
        }
    }
}

/// Sand colours New scene picks from (sRGB): Saharan, Namib red, pale
/// gypsum-tinged, Arabian gold.
const SANDS: &[Rgb] = &[
    Rgb(224, 174, 120),
    Rgb(214, 146, 98),
    Rgb(232, 206, 168),
    Rgb(226, 184, 128),
    Rgb(206, 160, 112),
];

impl Kind for Dunes {
    const NAME: &'static str = "dunes";
    const TITLE: &'static str = "Dunes";
    const SETTINGS: &'static [Setting<Dunes>] = &[
        super::visible(),
        super::opacity(),
        uint!(
            "form",
            form,
            0,
            2,
            "Form",
            "0 barchans (crescents), 1 transverse ridges, 2 star dunes",
            Roll::Pick(&[0, 1, 1, 2])
        ),
        float!(log "height", height, 1.0, 150.0, 10, "Height",
            "The tallest dunes' height, metres", Roll::Range(6.0, 40.0)),
        float!(log "spacing", spacing, 20.0, 2000.0, 1, "Spacing",
            "How far apart the dunes are, metres", Roll::Range(120.0, 500.0)),
        float!(
            "cover",
            cover,
            0.0,
            1.0,
            1000,
            "Sand",
            "A few barchans on the floor to a sand sea to the horizon",
            Roll::Range(0.3, 1.0)
        ),
        float!(
            "ripples",
            ripples,
            0.0,
            1.0,
            1000,
            "Ripples",
            "How plain the ripples across the wind are",
            Roll::Range(0.3, 0.9)
        ),
        other!(
            Rgb,
            "color",
            color,
            "Sand colour",
            "Colour of the sand",
            Roll::Pick(SANDS)
        ),
    ];

    super::common_settings!();
}

/// The eye's height over the ground, scene units (as the floor's).
const EYE: f32 = 0.22;
/// A metre in scene units: the eye is 1.6 m over the ground.
const METRE: f32 = EYE / 1.6;
/// A ripple's wavelength, scene units (15 cm).
const RIPPLE: f32 = 0.15 * METRE;
/// How far the haze thickens per scene unit of distance (nine tenths of
/// the way at about 5 km).
const HAZE: f32 = 0.0033;
/// The most the haze hides.
const HAZE_MOST: f32 = 0.92;
/// The march's step on flat ground, pixels on the screen.
const STEP_PX: f32 = 8.0;
/// The march's step on a slope facing the viewer, pixels.
const SLOPE_PX: f32 = 8.0;
/// The march's step on the viewer's own dune (smooth, its ripples drawn
/// per pixel), pixels.
const NEAR_PX: f32 = 20.0;
/// How much the sun's cosine may change between two steps before the
/// crease between them is looked for.
const CREASE: f32 = 0.12;

impl Dunes {
    /// The field of these settings blown along `wind`, seeded by `seed`.
    fn relief(&self, wind: [f32; 2], seed: u32) -> Relief {
        Relief::new(
            Form::of(self.form),
            self.height * METRE,
            self.spacing * METRE,
            self.cover,
            wind,
            seed,
        )
    }

    /// How much of the ground is sand between the dunes: none with little
    /// sand, all of it in a sand sea.
    fn sheet(&self) -> f32 {
        smoothstep(0.45, 0.8, self.cover)
    }

    /// Where the viewer stands: its height over the base of the dunes (on
    /// a great dune, the others' height and more, where there is sand to
    /// stand on: the sea is seen from above), and
    /// the distances from it where its dune gives way to the field.
    fn stand(&self, relief: &Relief) -> (f32, f32, f32) {
        let lift = 2.5 * relief.tallest * smoothstep(0.35, 0.85, self.cover);
        let r0 = 5.0 * METRE * smoothstep(0.0, 0.2, lift);
        // Among barchans, the nearest stand half a spacing off at least.
        let clear = 0.5 - 0.4 * smoothstep(0.0, 0.2, lift);
        (lift, r0, r0 + lift / 0.6 + clear * self.spacing * METRE)
    }

    /// How much of the floor of `ground` the dunes cover, and how far
    /// above the horizon the nearest crests may rise (when the viewer
    /// stands below them, among barchans).
    pub(crate) fn cover(&self, _ground: &Ground) -> super::Cover {
        let relief = self.relief([1.0, 0.0], 0);
        let sheet = self.sheet();
        let dunes = match relief.form {
            // A crescent's footprint in its cell, in cells that have one.
            Form::Barchan => {
                let rb = 0.36 * (relief.tallest / (0.072 * self.spacing * METRE)).min(1.0);
                (0.3 + 0.65 * self.cover) * 2.2 * rb * rb * 0.8
            }
            Form::Transverse => smoothstep(0.2, 0.6, self.cover),
            Form::Star => (0.35 + 0.65 * self.cover) * 0.6,
        };
        let (lift, _, r1) = self.stand(&relief);
        let rise = (relief.tallest - lift - EYE).max(0.0) / r1;
        super::Cover {
            floor: (self.opacity * (sheet + (1.0 - sheet) * dunes)).min(1.0),
            sky: 0.0,
            reach: if rise > 0.0 { rise } else { -0.01 },
        }
    }
}

impl Prepare for Dunes {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

/// One visible step of a column's march: where it lands on the screen and
/// how it is lit.
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    /// Its row on the screen (fractional, down from the top).
    y: f32,
    /// One over its depth on the ground (interpolated along the screen,
    /// perspective-correct).
    inv_z: f32,
    /// The cosine of the sun on its slope (negative facing away).
    sun: f32,
    /// How much of the sky it sees, 0.5 to 1.
    sky: f32,
    /// How plain its ripples are (0 on slip faces and far off).
    ripples: f32,
    /// The ripples' phase offset there, in wavelengths.
    warp: f32,
    /// How much of the haze is over it.
    haze: f32,
    /// How much of it is sand.
    sand: f32,
    /// Whether it is the far side of an edge: the ground coming out from
    /// behind a nearer crest, on the crest's row (the step before it is the
    /// crest's own, on the same row).
    edge: bool,
}

/// Rows in a group of the steps' index (see `DunesDraw::starts`).
const GROUP: u32 = 8;
/// How many columns ahead `draw` fetches the steps.
const AHEAD: usize = 6;

/// Asks for the memory at `p` to be fetched into the cache, where the
/// processor can (a hint: nothing is read, nothing can fault).
#[inline]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints at an address: it reads nothing the
    // program sees and never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The haze's table: entries over the distances up to [`HAZE_SPAN`] haze
/// lengths.
const HAZE_TABLE: usize = 256;
/// How far the haze's table reaches, in haze lengths (`1 / HAZE`).
const HAZE_SPAN: f32 = 4.0;

/// The field's look far off, where its dunes are smaller than the rows
/// of the screen: the mean of the sand's height, of the sun's cosine, of
/// the sky seen and of the sand's share, over the slopes a low eye sees
/// (those facing it count more).
#[derive(Clone, Copy, Debug)]
struct Far {
    h: f32,
    sun: f32,
    sky: f32,
    sand: f32,
}

impl Far {
    /// The means over a patch of the field six spacings wide, far off
    /// (the field looks the same everywhere), seen at `grazing` (the
    /// eye's height over the distance), lit from `light`.
    fn of(relief: &Relief, spacing: f32, grazing: f32, light: [f32; 3], sheet: f32) -> Far {
        const N: u32 = 48;
        let [lx, lz, lu] = light;
        let (mut w_sum, mut h, mut sun, mut sky, mut sand) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for j in 0..N {
            for i in 0..N {
                let x = ((i as f32 + 0.5) / N as f32 - 0.5) * 6.0 * spacing;
                let z = (500.0 + 6.0 * (j as f32 + 0.5) / N as f32) * spacing;
                let at = relief.at(x, z);
                let w = (grazing + at.dz).max(0.0) + 1e-3;
                let len = (1.0 + at.dx * at.dx + at.dz * at.dz).sqrt();
                w_sum += w;
                h += w * at.h;
                sun += w * (lu - at.dx * lx - at.dz * lz) / len;
                sky += w * (0.5 + 0.5 / len);
                sand += w * sheet.max(smoothstep(0.0, 0.05 * relief.tallest.max(1e-3), at.h));
            }
        }
        Far {
            h: h / w_sum,
            sun: sun / w_sum,
            sky: sky / w_sum,
            sand: sand / w_sum,
        }
    }
}

/// What a column's march needs to know.
struct March<'a> {
    relief: &'a Relief,
    /// The viewer's eye over the base, and its own dune (see
    /// [`Dunes::stand`]).
    eye: f32,
    lift: f32,
    r0: f32,
    r1: f32,
    focal: f32,
    half_width: f32,
    horizon: f32,
    bottom: f32,
    /// Toward the light on the ground: across, away, up.
    light: [f32; 3],
    wind: [f32; 2],
    ripples: f32,
    sheet: f32,
    far: f32,
    /// The dunes' spacing, scene units, and the longest step while they
    /// show.
    spacing: f32,
    step_cap: f32,
    /// The field far off, and how hazy the ground is at each entry of the
    /// haze's table.
    far_look: Far,
    haze: Vec<f32>,
    seed: u32,
}

impl March<'_> {
    /// The sand's height and slope at ground `(x, z)`, the viewer's own
    /// dune blended in near it.
    #[inline]
    fn height(&self, x: f32, z: f32) -> relief::Height {
        let at = self.relief.at(x, z);
        let d2 = x * x + z * z;
        if d2 >= self.r1 * self.r1 {
            return at;
        }
        let d = d2.sqrt().max(1e-6);
        let t = ((d - self.r0) / (self.r1 - self.r0)).clamp(0.0, 1.0);
        let s = t * t * (3.0 - 2.0 * t);
        let ds = 6.0 * t * (1.0 - t) / (self.r1 - self.r0) / d;
        let rise = at.h - self.lift;
        relief::Height {
            h: self.lift + rise * s,
            dx: at.dx * s + rise * ds * x,
            dz: at.dz * s + rise * ds * z,
        }
    }

    /// How much of the relief shows at distance `z`: all of it while a
    /// spacing spans several rows of the screen, none where it spans
    /// under two (the field there lies at its mean height, lit as on
    /// average, rather than in streaks of crests stepped over).
    #[inline]
    fn detail(&self, z: f32) -> f32 {
        let rows = self.spacing * self.eye * self.focal / (z * z);
        smoothstep(2.0, 6.0, rows)
    }

    /// How much of the relief's light shows at distance `z`: it fades
    /// sooner than the relief, while a spacing still spans a dozen rows,
    /// where the march's steps would pick a slip face or a stoss slope
    /// by chance.
    #[inline]
    fn shading(&self, z: f32) -> f32 {
        let rows = self.spacing * self.eye * self.focal / (z * z);
        smoothstep(5.0, 14.0, rows)
    }

    /// The sand at ground `(x, z)`: its height, faded to the mean far off,
    /// its true slope, and how much of the relief shows there.
    #[inline]
    fn ground(&self, x: f32, z: f32) -> (relief::Height, f32) {
        let d = self.detail(z);
        if d <= 0.0 {
            let h = self.far_look.h;
            return (
                relief::Height {
                    h,
                    dx: 0.0,
                    dz: 0.0,
                },
                0.0,
            );
        }
        let at = self.height(x, z);
        let h = self.far_look.h + d * (at.h - self.far_look.h);
        (relief::Height { h, ..at }, d)
    }

    /// The row on the screen of ground `h` high at distance `z`.
    #[inline]
    fn row(&self, h: f32, z: f32) -> f32 {
        self.horizon + (self.eye - h) * self.focal / z
    }

    /// The highest row (the least) the ground rises to on column `across`
    /// between distances `a` and `b`, and where: a crest passed between
    /// two points of the march, found by a golden-section search.
    fn crest(&self, across: f32, mut a: f32, mut b: f32) -> (f32, f32) {
        const G: f32 = 0.618_034;
        let y = |z: f32| self.row(self.ground(across * z, z).0.h, z);
        let (mut c, mut d) = (b - G * (b - a), a + G * (b - a));
        let (mut yc, mut yd) = (y(c), y(d));
        for _ in 0..5 {
            if yc < yd {
                b = d;
                (d, yd) = (c, yc);
                c = b - G * (b - a);
                yc = y(c);
            } else {
                a = c;
                (c, yc) = (d, yd);
                d = a + G * (b - a);
                yd = y(d);
            }
        }
        if yc < yd { (c, yc) } else { (d, yd) }
    }

    /// The most the sand can rise at distance `z` or beyond: the viewer's
    /// own dune as it falls to the field, the tallest crest, the mean far
    /// off where the relief fades (it never grows with `z`).
    #[inline]
    fn h_most(&self, z: f32) -> f32 {
        let tallest = self.relief.tallest.max(self.far_look.h);
        let raw = if tallest >= self.lift || z >= self.r1 {
            tallest
        } else {
            let t = ((z - self.r0) / (self.r1 - self.r0)).clamp(0.0, 1.0);
            self.lift + (tallest - self.lift) * t * t * (3.0 - 2.0 * t)
        };
        self.far_look.h + self.detail(z) * (raw - self.far_look.h)
    }

    /// The cosine of the sun on the sand of slope `at`, as on the field
    /// far off as its light fades (`shading`).
    #[inline]
    fn sun(&self, at: &relief::Height, shading: f32) -> f32 {
        let [lx, lz, lu] = self.light;
        let len = (1.0 + at.dx * at.dx + at.dz * at.dz).sqrt();
        let near = (lu - at.dx * lx - at.dz * lz) / len;
        self.far_look.sun + (near - self.far_look.sun) * shading
    }

    /// The visible steps of column `x`, from the bottom of the picture up:
    /// a step hidden behind a nearer crest is left out. Where the ground
    /// passes behind a crest, a step is added on the crest's top (found
    /// between the march's points), and where it comes out again, one on
    /// the same row with the far ground's light: a sharp edge, which
    /// `draw` smooths over its pixel. Where the light changes sharply
    /// between two steps (at a brink or the foot of a slip face), the
    /// crease is found between them and made such an edge too.
    fn column(&self, x: u32) -> Vec<Step> {
        let across = (x as f32 + 0.5 - self.half_width) / self.focal;
        let mut steps: Vec<Step> = Vec::with_capacity(160);
        let mut top = f32::INFINITY;
        let mut z = 0.8 * EYE * self.focal / (self.bottom - self.horizon).max(1.0);
        let (mut hidden, mut seen) = (false, false);
        // The point marched before the last, and the last.
        let (mut before, mut last_z) = (z, z);
        while z < self.far {
            let gx = across * z;
            let (at, d) = self.ground(gx, z);
            let y = self.row(at.h, z);
            if y < top {
                let step = self.light_at(gx, z, y, &at);
                if hidden {
                    steps.push(Step {
                        y: top,
                        edge: true,
                        ..step
                    });
                    hidden = false;
                } else if let Some(&prev) = steps.last()
                    && (step.sun - prev.sun).abs() > CREASE
                    && prev.y - y > 1.0
                {
                    self.crease(across, (prev, 1.0 / prev.inv_z), (step, z), &mut steps);
                }
                steps.push(step);
                top = y;
                seen = true;
            } else {
                if seen {
                    let (zc, yc) = self.crest(across, before, z);
                    if yc < top
                        && let Some(&last) = steps.last()
                    {
                        // Lit as the slope up to it, just short of it.
                        let zn = zc * (1.0 - 1e-4);
                        let (at, _) = self.ground(across * zn, zn);
                        let crest = self.light_at(across * zn, zn, yc, &at);
                        if (crest.sun - last.sun).abs() > CREASE && last.y - yc > 1.0 {
                            self.crease(across, (last, 1.0 / last.inv_z), (crest, zn), &mut steps);
                        }
                        steps.push(crest);
                        top = yc;
                    }
                }
                hidden = true;
                seen = false;
            }
            if top <= self.horizon {
                return steps;
            }
            // A few pixels on the screen (more on the viewer's own dune,
            // smooth), fewer on a slope facing the viewer; never so far as
            // to step over a dune while they show.
            let over = self.eye - at.h;
            let flat = over.max(0.3 * EYE) * self.focal / (z * z);
            let rising = ((at.dx * across + at.dz) * d).max(0.0) * self.focal / z;
            let px = if z < 0.5 * (self.r0 + self.r1) {
                NEAR_PX
            } else {
                STEP_PX
            };
            let mut dz = (px / flat).min(SLOPE_PX / rising.max(1e-6));
            if d > 0.0 {
                dz = dz.min(self.step_cap.max(0.02 * z));
            }
            let mut next = z + dz.max(0.004 * z);
            // Behind a crest, on to where the sand could first rise over
            // it; past the last, nothing further shows.
            let over_top = (top - self.horizon) / self.focal;
            let mut most = self.h_most(next);
            if over_top > 0.0 {
                for _ in 0..4 {
                    let lowest = (self.eye - most) / over_top;
                    if lowest <= next {
                        break;
                    }
                    next = lowest;
                    most = self.h_most(next);
                }
                if self.eye > most && self.row(most, self.far) >= top {
                    break;
                }
            }
            // Where the crests rise over the horizon, those further off
            // stand lower on the screen: past them, nothing shows.
            if self.eye <= most && top <= self.row(most, next) {
                return steps;
            }
            before = last_z;
            last_z = z;
            z = next;
        }
        // The ground beyond, to the horizon, as hazy as the last.
        if let Some(&last) = steps.last()
            && last.y > self.horizon
        {
            steps.push(Step {
                y: self.horizon,
                inv_z: 0.0,
                edge: false,
                ..last
            });
        }
        steps
    }

    /// Finds the crease between visible steps `a` and `b` (each with its
    /// distance), where the light changes sharply, and pushes a step on
    /// each side of it: the far one marked an edge.
    fn crease(
        &self,
        across: f32,
        (a, za): (Step, f32),
        (b, zb): (Step, f32),
        steps: &mut Vec<Step>,
    ) {
        let (mut z0, mut z1) = (za, zb);
        for _ in 0..5 {
            let zm = 0.5 * (z0 + z1);
            let (at, _) = self.ground(across * zm, zm);
            let sun = self.sun(&at, self.shading(zm));
            if (sun - a.sun).abs() < (sun - b.sun).abs() {
                z0 = zm;
            } else {
                z1 = zm;
            }
        }
        let (at0, _) = self.ground(across * z0, z0);
        let (at1, _) = self.ground(across * z1, z1);
        let y0 = self.row(at0.h, z0).min(a.y);
        let y1 = self.row(at1.h, z1).min(y0);
        if y1 <= b.y {
            return;
        }
        steps.push(self.light_at(across * z0, z0, y0, &at0));
        steps.push(Step {
            y: y0,
            edge: true,
            ..self.light_at(across * z1, z1, y1, &at1)
        });
    }

    /// How hazy ground `dist` away is, from the haze's table.
    #[inline]
    fn haze_at(&self, dist: f32) -> f32 {
        let t = (dist * HAZE / HAZE_SPAN * HAZE_TABLE as f32).min(HAZE_TABLE as f32 - 1e-3);
        let i = t as usize;
        self.haze[i] + (self.haze[i + 1] - self.haze[i]) * (t - i as f32)
    }

    /// How the ground at `(x, z)`, seen on row `y`, is lit: on its true
    /// slope as much as its light shows (see `shading`), else as the
    /// field far off.
    #[inline]
    fn light_at(&self, x: f32, z: f32, y: f32, at: &relief::Height) -> Step {
        let far = &self.far_look;
        let dist = (x * x + z * z).sqrt();
        let haze = self.haze_at(dist);
        let shading = self.shading(z);
        if shading <= 0.0 {
            return Step {
                y,
                inv_z: 1.0 / z,
                sun: far.sun,
                sky: far.sky,
                haze,
                sand: far.sand,
                ..Step::default()
            };
        }
        let s2 = at.dx * at.dx + at.dz * at.dz;
        let len = (1.0 + s2).sqrt();
        let slope = s2.sqrt();
        // The ripples' wavelength on the screen, pixels, along the wind.
        let [wa, wz] = self.wind;
        let over = (self.eye - at.h).max(0.3 * EYE);
        let sx = (wa - x / z * wz) / z;
        let sy = over * wz / (z * z);
        let px = RIPPLE * self.focal * (sx * sx + sy * sy).sqrt();
        let mut ripples =
            self.ripples * smoothstep(4.0, 14.0, px) * (1.0 - smoothstep(0.2, 0.42, slope));
        let mut warp = 0.0;
        if ripples > 0.0 {
            // Across the wind and along it, in wavelengths.
            let a = (z * wa - x * wz) / RIPPLE;
            let b = (x * wa + z * wz) / RIPPLE;
            // Fainter in patches, where the wind scoured or sand settled.
            let patch = smooth(a / 90.0, b / 70.0, self.seed ^ 0x3c);
            ripples *= 0.35 + 0.65 * smoothstep(-0.6, 0.5, patch);
            // Ripples fork, bend and change wavelength: their phase
            // drifts across the wind and along it.
            warp = 2.4 * smooth(a / 14.0, b / 20.0, self.seed)
                + 0.9 * smooth(a / 5.0 + 7.3, b / 6.0, self.seed ^ 0x51);
        }
        let sand = self
            .sheet
            .max(smoothstep(0.0, 0.05 * self.relief.tallest.max(1e-3), at.h));
        let f = |far: f32, near: f32| far + (near - far) * shading;
        Step {
            y,
            inv_z: 1.0 / z,
            sun: self.sun(at, shading),
            sky: f(far.sky, 0.5 + 0.5 / len),
            ripples: ripples * shading,
            warp,
            haze,
            sand: f(far.sand, sand),
            edge: false,
        }
    }
}

/// Smooth value noise in -1..1, lattice spacing 1, from the noise tile.
#[inline]
fn smooth(x: f32, y: f32, seed: u32) -> f32 {
    let (ix, iy) = (floor(x), floor(y));
    let (tx, ty) = (x - ix as f32, y - iy as f32);
    let v = |dx: i32, dy: i32| lattice(ix + dx, iy + dy, seed);
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let top = v(0, 0) + (v(1, 0) - v(0, 0)) * sx;
    let bottom = v(0, 1) + (v(1, 1) - v(0, 1)) * sx;
    top + (bottom - top) * sy
}

/// The luminance of a linear colour.
fn lum(c: Linear) -> f32 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

/// A step as `draw` takes it: its light worked out but for the ripples
/// and the clouds' shade.
#[derive(Clone, Copy, Debug, Default)]
struct Lit {
    /// Its row on the screen, and one over its depth (see [`Step`]).
    y: f32,
    inv_z: f32,
    /// The cosine of the sun on its slope.
    sun: f32,
    /// How much of it shows through the haze.
    keep: f32,
    /// How much a ripple's slope turns the sun's cosine there, and its
    /// height the sky's light.
    ripple_sun: f32,
    ripple_sky: f32,
    /// The ripples' phase offset there, in wavelengths.
    warp: f32,
    /// How much of it is sand.
    sand: f32,
    /// Its light from the sky and the bounce, through the haze, and the
    /// haze's own.
    base: Linear,
    /// Whether it is the far side of an edge (see [`Step`]).
    edge: bool,
}

impl Lit {
    /// `self` moved `t` of the way to `o`.
    #[inline]
    fn lerp(&self, o: &Lit, t: f32) -> Lit {
        let f = |a: f32, b: f32| a + (b - a) * t;
        Lit {
            y: f(self.y, o.y),
            inv_z: f(self.inv_z, o.inv_z),
            sun: f(self.sun, o.sun),
            keep: f(self.keep, o.keep),
            ripple_sun: f(self.ripple_sun, o.ripple_sun),
            ripple_sky: f(self.ripple_sky, o.ripple_sky),
            warp: f(self.warp, o.warp),
            sand: f(self.sand, o.sand),
            base: mix(self.base, o.base, t),
            edge: false,
        }
    }
}

/// The colours of the sand's light: the sun's (per unit of its cosine),
/// the sky's, the bounce from below, the haze's.
struct Colours {
    sun: Linear,
    sky: Linear,
    bounce: Linear,
    haze: Linear,
    /// How much a ripple's slope turns the sun's cosine.
    tilt: f32,
}

impl Colours {
    /// Step `s` as `draw` takes it.
    fn lit(&self, s: &Step) -> Lit {
        let keep = 1.0 - s.haze;
        let mut base = [0.0; 3];
        for (ch, c) in base.iter_mut().enumerate() {
            let lit = self.sky[ch] * s.sky + self.bounce[ch] * (1.0 - s.sky);
            *c = lit * keep + self.haze[ch] * s.haze;
        }
        Lit {
            y: s.y,
            inv_z: s.inv_z,
            sun: s.sun,
            keep,
            ripple_sun: s.ripples * self.tilt,
            ripple_sky: 0.12 * s.ripples * s.sky * keep,
            warp: s.warp,
            sand: s.sand,
            base,
            edge: s.edge,
        }
    }
}

/// The dunes prepared for one picture.
struct DunesDraw {
    opacity: f32,
    /// The first column marched, and each column's visible steps from the
    /// bottom up.
    x0: u32,
    columns: Vec<Vec<Lit>>,
    /// Where each group of [`GROUP`] rows starts among each column's
    /// steps, group after group (so a band finds its own without
    /// searching them all).
    starts: Vec<u32>,
    /// The highest row any column reaches (partly), and the row from which
    /// every column is wholly sand.
    top: u32,
    full: u32,
    half_width: f32,
    focal: f32,
    wind: [f32; 2],
    /// The sun's light on the sand per unit of its cosine, and the sky's
    /// less the bounce's (what a ripple's height turns).
    sun: Linear,
    sky_less_bounce: Linear,
    shade: Option<super::clouds::CloudShade>,
}

impl Dunes {
    fn prepare_draw(&self, f: &Frame) -> DunesDraw {
        let p = &f.palette;
        let seed = sub_seed(f.seed, 800);
        let relief = self.relief(f.wind, seed);
        let (lift, r0, r1) = self.stand(&relief);
        let light = [p.light[0], -p.light[2], p.light[1]];
        let albedo = self.color.linear();
        // The light on a fair slope toward the sun matches the floor's on
        // flat ground.
        let reference = lum(p.direct) * light[2].max(0.4) + lum(p.ambient);
        let g = lum(p.ground) / reference.max(1e-4);
        let lit = mul(albedo, p.ground);
        let spacing = self.spacing * METRE;
        let eye = lift + EYE;
        // The field far off is seen at the angle where its light fades
        // (a spacing over nine rows: see `March::shading`).
        let fade = (spacing * eye * f.h / 9.0).sqrt();
        let far_look = Far::of(&relief, spacing, eye / fade, light, self.sheet());
        let haze = (0..=HAZE_TABLE)
            .map(|i| {
                let dist = i as f32 / HAZE_TABLE as f32 * HAZE_SPAN / HAZE;
                HAZE_MOST * (1.0 - math::exp(-HAZE * dist))
            })
            .collect();
        let march = March {
            relief: &relief,
            eye,
            lift,
            r0,
            r1,
            focal: f.h,
            half_width: 0.5 * f.w,
            horizon: f.horizon,
            bottom: f.h,
            light,
            wind: f.wind,
            ripples: self.ripples,
            sheet: self.sheet(),
            far: 2.6 / HAZE,
            spacing,
            step_cap: spacing / 10.0,
            far_look,
            haze,
            seed: sub_seed(f.seed, 801),
        };
        let colours = Colours {
            sun: scale(mul(albedo, p.direct), g),
            sky: scale(mul(albedo, p.ambient), g),
            bounce: scale(mul(albedo, lit), 0.3 * g * light[2].max(0.15)),
            haze: mix(p.horizon, lit, 0.3),
            tilt: -0.045 * (f.wind[0] * light[0] + f.wind[1] * light[1]) - 0.012,
        };
        let groups = f.height.div_ceil(GROUP) as usize;
        let (columns, by_column): (Vec<Vec<Lit>>, Vec<Vec<u32>>) = f
            .cols
            .clone()
            .into_par_iter()
            .map(|x| {
                let steps: Vec<Lit> = march.column(x).iter().map(|s| colours.lit(s)).collect();
                // Where each group of rows starts among the steps (the
                // first step above its last row's centre).
                let mut starts = vec![0; groups];
                let mut k = 0;
                for g in (0..groups).rev() {
                    let py = ((g as u32 + 1) * GROUP) as f32 - 0.5;
                    while k < steps.len() && steps[k].y > py {
                        k += 1;
                    }
                    starts[g] = k as u32;
                }
                (steps, starts)
            })
            .unzip();
        // Group by group, so that a band reads its columns' in a row.
        let mut starts = vec![0; groups * columns.len()];
        for (c, column) in by_column.iter().enumerate() {
            for (g, &k) in column.iter().enumerate() {
                starts[g * columns.len() + c] = k;
            }
        }
        let highest = columns
            .iter()
            .filter_map(|c| c.last())
            .map(|s| s.y)
            .fold(f32::INFINITY, f32::min);
        let lowest = columns
            .iter()
            .filter_map(|c| c.last())
            .map(|s| s.y)
            .fold(f32::NEG_INFINITY, f32::max);
        let sheet = self.sheet();
        DunesDraw {
            opacity: self.opacity,
            x0: f.cols.start,
            top: highest.floor().clamp(0.0, f.height as f32) as u32,
            full: if sheet >= 1.0 {
                lowest.ceil().clamp(0.0, f.height as f32) as u32
            } else {
                f.height
            },
            columns,
            starts,
            half_width: 0.5 * f.w,
            focal: f.h,
            wind: f.wind,
            sun: colours.sun,
            sky_less_bounce: [
                colours.sky[0] - colours.bounce[0],
                colours.sky[1] - colours.bounce[1],
                colours.sky[2] - colours.bounce[2],
            ],
            shade: f.shade.clone(),
        }
    }
}

/// A ripple's slope at `f` (0..1 along its wavelength from a trough): a
/// long gentle stoss up, a short steep lee down; and its height.
#[inline]
fn ripple(f: f32) -> (f32, f32) {
    let down = ((f - 0.62) * (1.0 / 0.16)).clamp(0.0, 1.0);
    let up = ((f - 0.9) * 10.0).clamp(0.0, 1.0);
    let slope = 1.0 - 3.3 * down * down * (3.0 - 2.0 * down) + 3.3 * up * up * (3.0 - 2.0 * up);
    let height = if f < 0.7 { f / 0.7 } else { (1.0 - f) / 0.3 };
    (slope, height)
}

impl DunesDraw {
    /// The colour of step `s` of a column whose ripples' phase grows by
    /// `rate` per unit of depth, the sun on it `light` (less under a
    /// cloud).
    #[inline]
    fn color(&self, s: &Lit, rate: f32, light: f32) -> Linear {
        let mut sun = s.sun;
        let mut c = s.base;
        if s.ripple_sky > 0.0 && s.inv_z > 0.0 {
            let phase = rate / s.inv_z + s.warp;
            let (slope, height) = ripple(phase - floor(phase) as f32);
            sun += s.ripple_sun * slope;
            let k = s.ripple_sky * (height - 0.5);
            for (c, d) in c.iter_mut().zip(self.sky_less_bounce) {
                *c += d * k;
            }
        }
        let sun = sun.max(0.0) * light * s.keep;
        for (c, d) in c.iter_mut().zip(self.sun) {
            *c += d * sun;
        }
        c
    }
}

impl Draw for DunesDraw {
    fn covers(&self, y0: u32, _y1: u32) -> bool {
        self.opacity >= 1.0 && y0 >= self.full
    }

    fn touches(&self, y0: u32, y1: u32) -> bool {
        y1 > self.top && y0 < y1
    }

    fn draw(&self, band: &mut Band) {
        let (x0, x1) = (band.x0, band.x1());
        let (y0, y1) = (band.y0.max(self.top), band.y1());
        if y0 >= y1 || x0 >= x1 {
            return;
        }
        let shade = self.shade.as_ref().map(|s| s.samples((x0, x1), (y0, y1)));
        let width = band.width as usize;
        let count = self.columns.len();
        let starts = &self.starts[((y1 - 1) / GROUP) as usize * count..][..count];
        for x in x0..x1 {
            let c = (x - self.x0) as usize;
            // The steps a few columns on, fetched while this one is drawn
            // (each column's steps lie apart from the others').
            if let Some(ahead) = self.columns.get(c + AHEAD) {
                let k = starts[c + AHEAD] as usize;
                prefetch(ahead.as_ptr().wrapping_add(k.saturating_sub(1)));
                prefetch(ahead.as_ptr().wrapping_add(k + 1));
            }
            let steps = &self.columns[c];
            let Some(last) = steps.last() else {
                continue;
            };
            let across = (x as f32 + 0.5 - self.half_width) / self.focal;
            let rate = (across * self.wind[0] + self.wind[1]) * (1.0 / RIPPLE);
            // The steps below the band's last row, then up row by row.
            let mut k = (starts[c] as usize).max(1);
            for y in (y0..y1).rev() {
                let py = y as f32 + 0.5;
                while k < steps.len() && steps[k].y > py {
                    k += 1;
                }
                let light = shade.as_ref().map_or(1.0, |s| s.at(x, y));
                let (step, cover) = if k < steps.len() {
                    let (a, b) = (&steps[k - 1], &steps[k]);
                    let t = (a.y - py) / (a.y - b.y).max(1e-6);
                    (a.lerp(b, t), 1.0)
                } else {
                    (*last, (y as f32 + 1.0 - last.y).clamp(0.0, 1.0))
                };
                // An edge across the pixel: the near side below it, the
                // far side above, each over its share of the pixel.
                let mut over = self.color(&step, rate, light);
                let mut sand = step.sand;
                if k >= 2 && steps[k - 1].edge && steps[k - 2].y < y as f32 + 1.0 {
                    let near = &steps[k - 2];
                    let share = y as f32 + 1.0 - near.y;
                    over = mix(over, self.color(near, rate, light), share);
                    sand += (near.sand - sand) * share;
                } else if k + 1 < steps.len() && steps[k + 1].edge && steps[k].y > y as f32 {
                    let far = &steps[k + 1];
                    let share = steps[k].y - y as f32;
                    over = mix(over, self.color(far, rate, light), share);
                    sand += (far.sand - sand) * share;
                }
                if cover <= 0.0 {
                    break;
                }
                let a = sand * cover * self.opacity;
                let px = &mut band.px[(y - band.y0) as usize * width + (x - x0) as usize];
                if a >= 1.0 {
                    *px = over;
                } else {
                    blend(px, over, a);
                }
            }
        }
    }
}
