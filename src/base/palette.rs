//! Time of day: the sky's colours and the light every layer is lit by.

use serde::{Deserialize, Serialize};

use crate::base::color::{Linear, Rgb, scale};
use crate::base::math;

/// The hour of the scene; it picks the sky colours, the sun's height and the
/// light.
///
/// Default: [`TimeOfDay::Noon`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TimeOfDay {
    /// High sun, deep blue sky, pale ground.
    #[default]
    Noon,
    /// Low warm sun just above the ranges, long shadows.
    GoldenHour,
    /// The sun just set: indigo above, an orange band at the horizon.
    Dusk,
    /// Dark blue sky, the moon and seeded stars.
    Night,
}

impl TimeOfDay {
    /// All times of day, in the order of the day.
    pub const ALL: [TimeOfDay; 4] = [
        TimeOfDay::Noon,
        TimeOfDay::GoldenHour,
        TimeOfDay::Dusk,
        TimeOfDay::Night,
    ];
}

/// The colours and light of a time of day, in linear light, derived from the
/// scene (not stored in it).
#[derive(Clone, Debug)]
pub(crate) struct Palette {
    /// Sky colour at the top of the picture.
    pub zenith: Linear,
    /// Sky colour between zenith and horizon, at [`Palette::mid_at`].
    pub mid: Linear,
    /// Where the middle colour sits, 0 (top) to 1 (horizon).
    pub mid_at: f32,
    /// Sky colour at the horizon; also the colour of aerial haze.
    pub horizon: Linear,
    /// Exponent of the zenith → horizon blend (larger: a thinner bright band).
    pub sky_curve: f32,
    /// Height of the sun or moon disc's centre, fraction of the picture height.
    pub sun_y: f32,
    /// Colour of the sun or moon disc.
    pub disc: Linear,
    /// Colour of the glow around the disc (added to the sky).
    pub glow: Linear,
    /// Radius of the glow, fraction of the picture height.
    pub glow_radius: f32,
    /// Light on flat ground (multiplies albedo).
    pub ground: Linear,
    /// Direct light on surfaces facing the sun (multiplies albedo and cosine).
    pub direct: Linear,
    /// Fill light from the sky, on every surface.
    pub ambient: Linear,
    /// Unit vector toward the light: x right, y up, z toward the viewer.
    pub light: [f32; 3],
    /// How visible the stars are, 0..1.
    pub stars: f32,
    /// Whether the disc is the moon (drawn with soft limb shading).
    pub moon: bool,
    /// Strength of contact shadows, 0..1.
    pub shadow: f32,
}

impl Palette {
    /// The palette of `time` with the sun at horizontal position `sun_x`
    /// (fraction of the width) over a horizon at `horizon` (fraction of the
    /// height from the top).
    pub fn new(time: TimeOfDay, sun_x: f32, horizon: f32) -> Palette {
        let rgb = |r, g, b| Rgb(r, g, b).linear();
        // Light comes from the sun's side, from behind the scene (the sun is
        // in view), so stones are lit on top and on the sun's flank.
        let side = ((sun_x - 0.5) * 2.0).clamp(-1.0, 1.0);
        let light = |elevation_deg: f32| {
            let e = elevation_deg.to_radians();
            let (x, y, z) = (
                side * 0.8 * math::cos(e),
                math::sin(e),
                -0.45 * math::cos(e),
            );
            let n = (x * x + y * y + z * z).sqrt();
            [x / n, y / n, z / n]
        };
        match time {
            TimeOfDay::Noon => Palette {
                zenith: rgb(30, 78, 162),
                mid: rgb(84, 140, 206),
                mid_at: 0.6,
                horizon: rgb(178, 206, 228),
                sky_curve: 1.4,
                sun_y: 0.1,
                disc: [6.0, 5.8, 5.2],
                glow: rgb(120, 120, 110),
                glow_radius: 0.35,
                ground: [1.0, 0.98, 0.94],
                direct: [1.05, 1.0, 0.92],
                ambient: scale(rgb(150, 175, 215), 0.55),
                light: light(58.0),
                stars: 0.0,
                moon: false,
                shadow: 0.55,
            },
            TimeOfDay::GoldenHour => Palette {
                zenith: rgb(52, 96, 170),
                mid: rgb(176, 194, 204),
                mid_at: 0.62,
                horizon: rgb(252, 196, 128),
                sky_curve: 1.6,
                sun_y: horizon - 0.12,
                disc: [6.0, 4.6, 2.6],
                glow: rgb(250, 170, 90),
                glow_radius: 0.45,
                ground: scale(rgb(255, 214, 170), 0.92),
                direct: [1.35, 0.98, 0.62],
                ambient: scale(rgb(130, 140, 190), 0.45),
                light: light(12.0),
                stars: 0.0,
                moon: false,
                shadow: 0.65,
            },
            TimeOfDay::Dusk => Palette {
                zenith: rgb(20, 26, 68),
                mid: rgb(112, 84, 132),
                mid_at: 0.62,
                horizon: rgb(242, 136, 84),
                sky_curve: 1.5,
                sun_y: horizon + 0.04,
                disc: [0.0, 0.0, 0.0],
                glow: rgb(220, 110, 70),
                glow_radius: 0.5,
                ground: scale(rgb(150, 120, 140), 0.5),
                direct: [0.45, 0.24, 0.16],
                ambient: scale(rgb(120, 100, 150), 0.5),
                light: light(3.0),
                stars: 0.25,
                moon: false,
                shadow: 0.35,
            },
            TimeOfDay::Night => Palette {
                zenith: rgb(3, 6, 18),
                mid: rgb(9, 16, 38),
                mid_at: 0.6,
                horizon: rgb(30, 42, 70),
                sky_curve: 1.2,
                sun_y: 0.16,
                disc: rgb(240, 236, 222),
                glow: rgb(36, 44, 66),
                glow_radius: 0.22,
                ground: scale(rgb(100, 120, 160), 0.2),
                direct: [0.1, 0.12, 0.16],
                ambient: scale(rgb(70, 90, 140), 0.1),
                light: light(40.0),
                stars: 1.0,
                moon: true,
                shadow: 0.5,
            },
        }
    }
}
