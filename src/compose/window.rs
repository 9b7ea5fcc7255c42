//! The part of a scene's picture a picture of another aspect shows.
//!
//! A scene is drawn for its own aspect ([`Scene::aspect`]): the rock grid's
//! rows and the layers' shapes follow it. A picture asked for at another
//! aspect (1080×1080 of a 16:9 scene) is the scene's picture at a size of
//! the scene's aspect that covers it, cut to the centred [`Window`] of the
//! size asked for, so it shows the same arrangement as the preview.
//! [`check_aspect`] refuses sizes too thin to be a picture (beyond 8:1).
//!
//! [`Scene::aspect`]: crate::scene::Scene::aspect

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// Widest (or tallest) aspect of a picture playa draws, as long side per
/// short side: 8:1.
pub const MAX_PICTURE_ASPECT: u32 = 8;

/// A rectangle `w × h` at `x, y` (pixels) of a picture `full_w × full_h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    /// Left edge, in pixels of the full picture.
    pub x: u32,
    /// Top edge, in pixels of the full picture.
    pub y: u32,
    /// Width of the window: the picture made.
    pub w: u32,
    /// Height of the window: the picture made.
    pub h: u32,
    /// Width of the full picture the window is cut from.
    pub full_w: u32,
    /// Height of the full picture the window is cut from.
    pub full_h: u32,
}

impl Window {
    /// The centred window `w × h` of the picture of a scene of `aspect`
    /// (width / height) covering it; `None` when `w × h` is the scene's
    /// aspect to within a pixel (or the aspect's precision), so the picture
    /// is drawn whole, as it always was. The full picture is as wide as the window when the
    /// window is the wider of the two, else as high.
    pub fn crop(aspect: f32, w: u32, h: u32) -> Option<Window> {
        let aspect = f64::from(aspect);
        let (wf, hf) = (f64::from(w), f64::from(h));
        // A scene's aspect is kept to 1/2520 (its share code's precision):
        // a size at the aspect it was set to is that aspect too.
        if (hf * aspect - wf).abs() < 1.0
            || (wf / aspect - hf).abs() < 1.0
            || (wf / hf - aspect).abs() < 0.5 / 2520.0
        {
            return None;
        }
        let (full_w, full_h) = if wf / hf > aspect {
            (w, ((wf / aspect).round() as u32).max(h))
        } else {
            (((hf * aspect).round() as u32).max(w), h)
        };
        Some(Window {
            x: (full_w - w) / 2,
            y: (full_h - h) / 2,
            w,
            h,
            full_w,
            full_h,
        })
    }

    /// The window as fractions of the full picture: `[x, y, w, h]`.
    pub fn fractions(&self) -> [f32; 4] {
        let (fw, fh) = (self.full_w as f32, self.full_h as f32);
        [
            self.x as f32 / fw,
            self.y as f32 / fh,
            self.w as f32 / fw,
            self.h as f32 / fh,
        ]
    }

    /// Whether the window lies inside its full picture and is not empty.
    pub fn is_inside(&self) -> bool {
        self.w > 0
            && self.h > 0
            && self.x.checked_add(self.w).is_some_and(|r| r <= self.full_w)
            && self.y.checked_add(self.h).is_some_and(|b| b <= self.full_h)
    }
}

/// Written as `1080x1080+420+0 of 1920x1080` (ImageMagick's geometry, and
/// the full picture's size), as in a PNG's `playa:window` chunk.
impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{}+{}+{} of {}x{}",
            self.w, self.h, self.x, self.y, self.full_w, self.full_h
        )
    }
}

impl FromStr for Window {
    type Err = String;

    /// Reads what [`Window`]'s `Display` writes, refusing a window outside
    /// its picture.
    fn from_str(s: &str) -> std::result::Result<Window, String> {
        let bad = || format!("window {s:?} is not WxH+X+Y of WxH");
        let (window, full) = s.trim().split_once(" of ").ok_or_else(bad)?;
        let size = |t: &str| -> Option<(u32, u32)> {
            let (a, b) = t.split_once('x')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        };
        let mut parts = window.split('+');
        let (w, h) = parts.next().and_then(size).ok_or_else(bad)?;
        let mut next = || parts.next().and_then(|t| t.parse::<u32>().ok());
        let (x, y) = (next().ok_or_else(bad)?, next().ok_or_else(bad)?);
        let (full_w, full_h) = size(full).ok_or_else(bad)?;
        let window = Window {
            x,
            y,
            w,
            h,
            full_w,
            full_h,
        };
        if parts.next().is_some() || !window.is_inside() {
            return Err(format!("window {s:?} is not inside its picture"));
        }
        Ok(window)
    }
}

/// An aspect as people write it: `16:9`, `1:1`, `2.35:1`, `1:1.5`; the
/// long side per short side rounded when it is large (`5461:1`).
pub fn aspect_text(w: u32, h: u32) -> String {
    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let g = gcd(w, h).max(1);
    if w / g <= 32 && h / g <= 32 {
        return format!("{}:{}", w / g, h / g);
    }
    let (long, short) = (w.max(h) as f64, w.min(h).max(1) as f64);
    let ratio = long / short;
    let text = if ratio >= 100.0 {
        format!("{ratio:.0}")
    } else {
        let t = format!("{ratio:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if w >= h {
        format!("{text}:1")
    } else {
        format!("1:{text}")
    }
}

/// Refuses a picture size beyond [`MAX_PICTURE_ASPECT`] either way, with
/// one line: "16384×3 is 5461:1; playa draws aspects up to 8:1".
pub fn check_aspect(w: u32, h: u32) -> Result<()> {
    let (long, short) = (u64::from(w.max(h)), u64::from(w.min(h)));
    if short == 0 || long <= short * u64::from(MAX_PICTURE_ASPECT) {
        return Ok(());
    }
    let limit = if w >= h {
        format!("{MAX_PICTURE_ASPECT}:1")
    } else {
        format!("1:{MAX_PICTURE_ASPECT}")
    };
    Err(Error::InvalidSize(format!(
        "{w}×{h} is {}; playa draws aspects up to {limit}",
        aspect_text(w, h)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_of_a_landscape_is_its_middle() {
        let w = Window::crop(16.0 / 9.0, 1080, 1080).unwrap();
        assert_eq!((w.full_w, w.full_h), (1920, 1080));
        assert_eq!((w.x, w.y, w.w, w.h), (420, 0, 1080, 1080));
        let tall = Window::crop(16.0 / 9.0, 1920, 400).unwrap();
        assert_eq!((tall.full_w, tall.full_h), (1920, 1080));
        assert_eq!((tall.x, tall.y), (0, 340));
        assert!(w.is_inside() && tall.is_inside());
    }

    #[test]
    fn the_scene_s_own_aspect_is_not_cropped() {
        for (w, h) in [
            (1920, 1080),
            (1000, 563),
            (1000, 562),
            (16, 9),
            (7680, 4320),
        ] {
            assert_eq!(Window::crop(16.0 / 9.0, w, h), None, "{w}x{h}");
        }
        assert!(Window::crop(16.0 / 9.0, 1000, 570).is_some());
    }

    #[test]
    fn windows_round_trip_as_text() {
        for (w, h) in [(1080, 1080), (30, 2), (1920, 300), (100, 1000)] {
            let window = Window::crop(16.0 / 9.0, w, h).unwrap();
            assert_eq!(window.to_string().parse::<Window>(), Ok(window));
        }
        assert_eq!(
            Window::crop(16.0 / 9.0, 1080, 1080).unwrap().to_string(),
            "1080x1080+420+0 of 1920x1080"
        );
        for bad in [
            "",
            "1x1",
            "1x1+0+0 of 0x0",
            "5x5+1+1 of 5x5",
            "1x1+0+0+0 of 2x2",
        ] {
            assert!(bad.parse::<Window>().is_err(), "{bad}");
        }
    }

    #[test]
    fn aspects_beyond_8_to_1_are_refused_in_one_line() {
        assert!(check_aspect(1920, 1080).is_ok());
        assert!(check_aspect(800, 100).is_ok());
        assert!(check_aspect(100, 800).is_ok());
        let err = check_aspect(16384, 3).unwrap_err().to_string();
        assert_eq!(err, "16384×3 is 5461:1; playa draws aspects up to 8:1");
        let err = check_aspect(3, 16384).unwrap_err().to_string();
        assert!(
            err.ends_with("is 1:5461; playa draws aspects up to 1:8"),
            "{err}"
        );
        assert!(check_aspect(801, 100).is_err());
    }

    #[test]
    fn aspects_read_as_people_write_them() {
        assert_eq!(aspect_text(1920, 1080), "16:9");
        assert_eq!(aspect_text(1080, 1080), "1:1");
        assert_eq!(aspect_text(2100, 900), "7:3");
        assert_eq!(aspect_text(1000, 425), "2.35:1");
        assert_eq!(aspect_text(2350, 1001), "2.35:1");
        assert_eq!(aspect_text(1000, 1501), "1:1.5");
    }
}
