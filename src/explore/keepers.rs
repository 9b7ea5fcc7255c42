//! Whether a picture is worth keeping, by the few ways weak rolls fail
//! (issue 59): a **black** ground (its mean sRGB luminance under 30), a
//! **dim** one (under 40, with its detail under 8), an **empty** one (its
//! detail under 3, in any light), or a **murky** picture (its whole
//! luminance spread, the 95th minus the 5th percentile, under 30).
//!
//! The ground is the rows below the scene's horizon. Its detail is the
//! deviation of its luminance once each row's mean is taken away: the
//! floor's light falling off toward the horizon is no detail, the forms
//! on it are. Measured at [`SIZE`], where these bounds were set.

use image::RgbaImage;

use crate::error::Result;
use crate::scene::Scene;

/// The size the measure is taken at: the pictures the bounds were set on.
pub const SIZE: (u32, u32) = (320, 180);

/// A ground darker than this (mean sRGB luminance, 0..255) is black.
pub const BLACK: f64 = 30.0;
/// A ground darker than this, with less detail than [`DIM_DETAIL`], is dim.
pub const DIM: f64 = 40.0;
/// See [`DIM`].
pub const DIM_DETAIL: f64 = 8.0;
/// A ground with less detail than this is empty.
pub const EMPTY_DETAIL: f64 = 3.0;
/// A picture whose luminance spreads less than this is murky.
pub const MURKY_SPREAD: f64 = 30.0;

/// A picture's figures: its ground's mean luminance and detail, and the
/// whole picture's luminance spread (all on sRGB's 0..255).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Looks {
    /// The ground's mean luminance.
    pub mean: f64,
    /// The ground's deviation from its rows' means.
    pub detail: f64,
    /// The whole picture's 95th minus 5th percentile of luminance.
    pub spread: f64,
}

/// The way a picture fails, the first that holds in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Weakness {
    /// The ground is too dark to read.
    Black,
    /// The ground is dark and shows too little.
    Dim,
    /// The ground shows nothing, in any light.
    Empty,
    /// The whole picture is one middling tone.
    Murky,
}

impl Weakness {
    /// The word for it, as a report prints it.
    pub fn name(self) -> &'static str {
        match self {
            Weakness::Black => "black",
            Weakness::Dim => "dim",
            Weakness::Empty => "empty",
            Weakness::Murky => "murky",
        }
    }
}

impl Looks {
    /// The figures of `picture`, whose horizon is `horizon` (a fraction of
    /// its height from the top).
    pub fn of(picture: &RgbaImage, horizon: f32) -> Looks {
        let (w, h) = picture.dimensions();
        let luma = |x: u32, y: u32| {
            let p = picture.get_pixel(x, y);
            0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2])
        };
        let first = ((f64::from(horizon) * f64::from(h)).ceil().max(0.0) as u32).min(h);
        let (mut sum, mut squares, mut n) = (0.0, 0.0, 0.0);
        for y in first..h {
            let row: Vec<f64> = (0..w).map(|x| luma(x, y)).collect();
            let mean = row.iter().sum::<f64>() / f64::from(w);
            sum += row.iter().sum::<f64>();
            squares += row.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
            n += f64::from(w);
        }
        let (mean, detail) = if n > 0.0 {
            (sum / n, (squares / n).sqrt())
        } else {
            (0.0, 0.0)
        };
        let mut all: Vec<f64> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| luma(x, y))
            .collect();
        all.sort_by(f64::total_cmp);
        let at = |q: f64| all[((q * (all.len() - 1) as f64).round() as usize).min(all.len() - 1)];
        let spread = if all.is_empty() {
            0.0
        } else {
            at(0.95) - at(0.05)
        };
        Looks {
            mean,
            detail,
            spread,
        }
    }

    /// How the picture fails, if it does.
    pub fn weakness(&self) -> Option<Weakness> {
        if self.mean < BLACK {
            Some(Weakness::Black)
        } else if self.mean < DIM && self.detail < DIM_DETAIL {
            Some(Weakness::Dim)
        } else if self.detail < EMPTY_DETAIL {
            Some(Weakness::Empty)
        } else if self.spread < MURKY_SPREAD {
            Some(Weakness::Murky)
        } else {
            None
        }
    }
}

/// The figures of `scene`'s picture at [`SIZE`].
pub fn looks(scene: &Scene) -> Result<Looks> {
    let picture = crate::render(scene, SIZE.0, SIZE.1)?;
    Ok(Looks::of(&picture, scene.horizon))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture of `w`×`h` whose pixel at (x, y) is grey `f(x, y)`.
    fn grey(w: u32, h: u32, f: impl Fn(u32, u32) -> u8) -> RgbaImage {
        RgbaImage::from_fn(w, h, |x, y| {
            let v = f(x, y);
            image::Rgba([v, v, v, 255])
        })
    }

    #[test]
    fn each_weakness_is_found_and_a_readable_picture_passes() {
        // Sky 200 over a ground of `ground`, with a checker of ±`texture`.
        let picture = |ground: i32, texture: i32| {
            grey(64, 36, |x, y| {
                if y < 18 {
                    200
                } else {
                    let sign = if (x / 2 + y / 2) % 2 == 0 { 1 } else { -1 };
                    (ground + sign * texture).clamp(0, 255) as u8
                }
            })
        };
        let of = |g, t| Looks::of(&picture(g, t), 0.5).weakness();
        assert_eq!(of(20, 10), Some(Weakness::Black));
        assert_eq!(of(35, 4), Some(Weakness::Dim));
        assert_eq!(of(35, 12), None, "dim but with forms");
        assert_eq!(of(150, 1), Some(Weakness::Empty));
        assert_eq!(of(150, 20), None);
        let flat = grey(64, 36, |x, y| if (x + y) % 2 == 0 { 100 } else { 110 });
        assert_eq!(Looks::of(&flat, 0.5).weakness(), Some(Weakness::Murky));
    }

    /// New scene's rolls are worth keeping: on rolls no setting was tuned
    /// on, at most one in ten has a black, dim or empty ground or is murky
    /// (before the second look, one in five did).
    #[test]
    fn new_scene_rolls_are_keepers() {
        use crate::explore::randomize::{Locks, new_scene};
        use rayon::prelude::*;
        let base = Scene::default();
        let flagged: Vec<(u64, Weakness)> = (31_000..31_060)
            .into_par_iter()
            .filter_map(|roll| {
                let scene = new_scene(&base, &Locks::default(), roll);
                looks(&scene).unwrap().weakness().map(|w| (roll, w))
            })
            .collect();
        assert!(
            flagged.len() <= 6,
            "{} of 60 flagged: {flagged:?}",
            flagged.len()
        );
    }

    /// The second look lights a night's ground so that it reads, where the
    /// first left it dim.
    #[test]
    fn the_second_look_lights_the_night() {
        let night = Scene {
            time: crate::TimeOfDay::Night,
            ..Scene::default()
        };
        let first = looks(&night).unwrap();
        assert!(first.weakness().is_some(), "{first:?}");
        let second = looks(&Scene {
            look: crate::scene::LOOK_SAND,
            ..night
        })
        .unwrap();
        assert_eq!(second.weakness(), None, "{second:?}");
        assert!(second.mean > 1.3 * first.mean, "{first:?} {second:?}");
    }

    #[test]
    fn light_falling_off_toward_the_horizon_is_no_detail() {
        let ramp = grey(64, 36, |_, y| (100 + 3 * y) as u8);
        let looks = Looks::of(&ramp, 0.5);
        assert!(looks.detail < 1e-9, "{looks:?}");
    }
}
