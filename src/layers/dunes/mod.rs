//! Dunes: a sand sea on the floor, or instead of it. Transverse ridges
//! across the wind, barchans (crescents whose horns point downwind) or
//! star dunes (arms in several directions, where the wind turns), each
//! slip face at sand's angle of repose, ripples across the wind.
//!
//! The layer in files, each using only those before it:
//!
//! - `field`: the sand as a height field on the ground, turned to the
//!   scene's wind: its height, slope, shade and ripples at many points
//!   together, for each form (the ridges also built for AVX2).
//! - `sand`: where the dunes rise from flat near the eye and fade far
//!   off, how high the eye stands over them, and the sand as the terrain
//!   things stand on in one ground.
//! - `prepared`: the dunes prepared for one picture, and the depths of the
//!   ground each pixel of a rectangle shows.
//! - `march`: each column marched from near to far into the depth of the
//!   ground each of its rows shows; where the marches start for each chunk
//!   of rows, and the chunks marched again as the bands are drawn.
//! - `light`: the sand's colour and cover at the pixels that show it, lit
//!   by the height field's own slope (also built for AVX2).
//! - `draw`: a band drawn from every fourth pixel, every second and every
//!   one, each the mean of those around it where they agree.
//! - `tests`: chunks, windows, threads and builds paint the bits of the
//!   whole march's; the memory the dunes hold; no cliffs in the sand.
//!
//! Here: the settings, how much of the floor the sand covers, and the
//! dunes prepared for a picture.

mod draw;
mod field;
mod light;
mod march;
mod prepared;
mod sand;
#[cfg(test)]
mod tests;

use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde::Serialize;

use self::field::Field;
use self::march::CHUNK;
use self::prepared::{Depths, DunesDraw, LANES};
use self::sand::Reach;
pub(crate) use self::sand::Sand;
use super::{Draw, Frame, Ground, Kind, Prepare};
use crate::base::color::{Linear, Rgb, mix, mul};
use crate::base::noise::{smoothstep, sub_seed};
use crate::base::palette::{LOOK_SAND, Palette};
use crate::base::simd::Build;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other, uint};

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
    /// The tallest dunes' height, metres (2 to 150). A dune is at most a
    /// tenth of its spacing high. Default: 20.
    pub height: f32,
    /// How far apart the dunes are, metres (40 to 2000). Default: 240.
    pub spacing: f32,
    /// How much sand there is, 0 to 1: barchans apart on the floor, or
    /// ridges with bare hollows between, to a sand sea. Default: 0.9.
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

/// Sand colours New scene picks from (sRGB): golden, Namib red, pale,
/// Arabian gold, Mesquite Flat's.
const SANDS: &[Rgb] = &[
    Rgb(224, 174, 120),
    Rgb(214, 146, 98),
    Rgb(232, 206, 168),
    Rgb(226, 184, 128),
    Rgb(206, 168, 124),
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
        float!(log "height", height, 2.0, 150.0, 10, "Height",
            "The tallest dunes' height, metres", Roll::Range(8.0, 40.0)),
        float!(log "spacing", spacing, 40.0, 2000.0, 1, "Spacing",
            "How far apart the dunes are, metres", Roll::Range(150.0, 450.0)),
        float!(
            "cover",
            cover,
            0.0,
            1.0,
            1000,
            "Sand",
            "Dunes apart on the floor to a sand sea",
            Roll::Range(0.4, 1.0)
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

/// The most bytes the depths of every pixel take where they are kept
/// whole, marched once when the layer is prepared (a 1280×720 picture's
/// take 3.5 MiB).
const WHOLE: usize = 4 << 20;
/// How much plainer the dunes' forms are drawn under the stars (see
/// [`DunesDraw::relief_gain`]).
const RELIEF_GAIN: f32 = 1.5;
/// How much plainer the sun draws the dunes' forms, from the second look.
const SUN_RELIEF: f32 = 0.6;

impl Dunes {
    /// How much of the ground between the dunes is sand, 0 (the floor
    /// shows) to 1.
    fn sheet(&self) -> f32 {
        match self.form {
            1 => smoothstep(0.3, 0.75, self.cover),
            _ => smoothstep(0.55, 0.9, self.cover),
        }
    }

    /// Whether the sand lies over all the ground between the dunes, so
    /// that nothing flat drawn under them shows.
    pub(crate) fn sheet_is_whole(&self) -> bool {
        self.sheet() >= 1.0
    }

    /// How much of the floor of `ground` the dunes cover; nothing of them
    /// rises over the horizon (the viewer stands as high as the tallest).
    pub(crate) fn cover(&self, _ground: &Ground) -> super::Cover {
        super::Cover {
            floor: self.opacity * self.share(),
            sky: 0.0,
            reach: -0.01,
        }
    }

    /// The share of the floor that is sand, at full opacity.
    fn share(&self) -> f32 {
        let sheet = self.sheet();
        let dunes = match self.form {
            // A crescent's footprint in its cell, in cells that have one.
            0 => {
                let r = (self.height * 5.0).min(0.34 * self.spacing) * 0.85 / self.spacing;
                (0.35 + 0.65 * self.cover) * 1.9 * r * r / 1.3
            }
            1 => 1.0 - 0.45 * (1.0 - self.cover),
            _ => 0.45 + 0.3 * self.cover,
        };
        (sheet + (1.0 - sheet) * dunes).min(1.0)
    }
}

impl Prepare for Dunes {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

/// The sand as the sky's light colours it: greyer in the first look; from
/// the second, tinted by the sky itself, so that the shade is blue.
fn sky_sand(lit: Linear, p: &Palette) -> Linear {
    let grey = (lit[0] + lit[1] + lit[2]) / 3.0;
    if p.look < LOOK_SAND {
        return mix(lit, [grey; 3], 0.4);
    }
    let sky = p.mid;
    let y = (sky[0] + sky[1] + sky[2]) / 3.0;
    let tint: Linear = std::array::from_fn(|c| sky[c] / y.max(1e-4));
    std::array::from_fn(|c| grey * mix(tint, [1.0; 3], 0.7)[c])
}

impl Dunes {
    fn prepare_draw(&self, f: &Frame) -> DunesDraw {
        self.prepare_with(f, Build::best(), WHOLE)
    }

    /// [`Dunes::prepare_draw`] with the sand sampled by `build`, the depths
    /// of every pixel kept where they take at most `whole_bytes`.
    fn prepare_with(&self, f: &Frame, build: Build, whole_bytes: usize) -> DunesDraw {
        let p = &f.palette;
        let field = Field::new(
            self,
            f.wind,
            p.light,
            sub_seed(f.seed, 0xd0e5),
            p.look >= LOOK_SAND,
        );
        let eye = self.eye(&field, &f.world);
        let tallest = field.tallest;
        let Reach {
            near,
            far,
            farthest,
        } = Reach::new(&field, eye, f.h, f.horizon);
        let lit = mul(p.albedo(self.color.linear()), p.ground);
        let flat = std::array::from_fn(|c| {
            1.0 / (p.ambient[c] + p.direct[c] * p.light[1].max(0.0)).max(1e-4)
        });
        let sand_look = p.look >= LOOK_SAND;
        // The rows and columns to draw, from the fourth one at or before
        // the first to four past the last: a pixel takes its colour from
        // the fourth ones around it (see `draw`); from the second look,
        // from one more before, whose light smooths the edges.
        let before = if sand_look { 1 } else { 0 };
        let (cols, rows) = (
            (f.cols.start.saturating_sub(before) & !3)..(f.cols.end + 4).min(f.width),
            (f.rows.start.saturating_sub(before) & !3)..(f.rows.end + 4).min(f.height),
        );
        // How much the light is the moon's.
        let moonlit = if p.moon { p.stars.clamp(0.0, 1.0) } else { 0.0 };
        let mut draw = DunesDraw {
            build,
            opacity: self.opacity,
            horizon: f.horizon,
            h: f.h,
            middle: 0.5 * f.w,
            eye,
            keys: f.world.on,
            field,
            near,
            far,
            farthest,
            x0: cols.start,
            y0: rows.start,
            rows: rows.len() as u32,
            picture: f.h,
            cols: cols.len() as u32,
            whole: None,
            starts: Vec::new(),
            chunks: 0,
            kept: Mutex::new(Vec::new()),
            first: u32::MAX,
            sand: lit,
            haze: mix(p.horizon, lit, 0.3),
            ambient: p.ambient,
            direct: p.direct,
            light: p.light,
            flat,
            night: 1.0 + 0.8 * p.stars.clamp(0.0, 1.0),
            // From the second look the sun's light on a slope is drawn a
            // little plainer too, as a painter draws a form: the sand's
            // gentle windward slopes then read as rising to their crests.
            relief_gain: 1.0 + RELIEF_GAIN * moonlit + if sand_look { SUN_RELIEF } else { 0.0 },
            moonlit_shade: 0.3 * moonlit,
            sheet: self.sheet(),
            far_sand: self.share(),
            ripples: self.ripples,
            sky_sand: sky_sand(lit, p),
            inv_tallest: 1.0 / tallest.max(1e-6),
            occlusion: if sand_look { 0.5 } else { 0.0 },
            rim: if sand_look { 0.35 } else { 0.0 },
            swell: if sand_look { 0.05 } else { 0.0 },
            ripple_gain: if sand_look {
                1.0 + 3.0 * (1.0 - p.light[1].max(0.0))
            } else {
                1.0
            },
            shade: f.shade.clone(),
            antialias: sand_look,
        };
        if cols.is_empty() || rows.is_empty() {
            return draw;
        }
        // The depths of every pixel, if they are few; else where each
        // chunk's marches start.
        let mut whole = (cols.len() * rows.len() * 4 <= whole_bytes)
            .then(|| Depths::new(cols.clone(), rows.clone()));
        if whole.is_none() {
            draw.chunks = (rows.len() as u32).saturating_sub(2) / CHUNK;
        }
        let chunks = draw.chunks as usize;
        let blocks = cols.len().div_ceil(LANES);
        let mut starts = vec![0; blocks * chunks];
        let firsts: Vec<u32> = match &mut whole {
            Some(whole) => whole
                .iz
                .par_chunks_mut(LANES * rows.len())
                .enumerate()
                .map(|(b, depth)| draw.prepare_block(b, Some(depth), &mut []))
                .collect(),
            None => starts
                .par_chunks_mut(chunks.max(1))
                .enumerate()
                .map(|(b, starts)| draw.prepare_block(b, None, starts))
                .collect(),
        };
        draw.first = firsts.into_iter().min().unwrap_or(u32::MAX);
        draw.whole = whole.map(Arc::new);
        draw.starts = starts;
        draw
    }
}
