//! Time of day: the sky's colours and the light every layer is lit by.

use serde::{Deserialize, Serialize};

use crate::base::color::{Linear, Rgb, mix, scale};
use crate::base::math;

/// The time of day: the hour of a desert day, on which the sun rises at 6
/// and sets at 18. It sets the sky colours, the sun's height and the
/// light. Named times are points on that scale ([`TimeOfDay::hour`]); any
/// other hour is [`TimeOfDay::Hour`], lit between the named times around
/// it. In RON a named time is its name (`time: Dawn`), any other hour
/// `time: Hour(7.5)`.
///
/// Default: [`TimeOfDay::Noon`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum TimeOfDay {
    /// High sun, deep blue sky, pale ground (12:00).
    #[default]
    Noon,
    /// Low warm sun just above the ranges, long shadows (17:12).
    GoldenHour,
    /// The sun just set: indigo above, an orange band at the horizon
    /// (18:18).
    Dusk,
    /// Dark blue sky, the moon and seeded stars (21:00).
    Night,
    /// The sun just risen: a pink and peach sky, long cool shadows (6:00).
    Dawn,
    /// Mid-morning: a clear sky, the sun well up, crisp shadows (8:30).
    Morning,
    /// After dusk: the sky deep blue to its horizon, the first stars, no
    /// shadows (18:48).
    BlueHour,
    /// Midnight under a high moon: the floor dim but its forms readable
    /// in the moon's blue light and shadows (0:00).
    Moonlight,
    /// Any other hour, 0 to 24 (precision 0.1, since share-code format
    /// 4): lit between the named times around it.
    Hour(f32),
}

impl TimeOfDay {
    /// The times of day share codes of the first three formats know, in
    /// their order (later formats write the hour).
    pub const ALL: [TimeOfDay; 4] = [
        TimeOfDay::Noon,
        TimeOfDay::GoldenHour,
        TimeOfDay::Dusk,
        TimeOfDay::Night,
    ];

    /// Every named time, in the order of the day from dawn.
    pub const NAMED: [TimeOfDay; 8] = [
        TimeOfDay::Dawn,
        TimeOfDay::Morning,
        TimeOfDay::Noon,
        TimeOfDay::GoldenHour,
        TimeOfDay::Dusk,
        TimeOfDay::BlueHour,
        TimeOfDay::Night,
        TimeOfDay::Moonlight,
    ];

    /// The last hour of the scale (24: midnight again).
    pub const LAST_HOUR: f32 = 24.0;

    /// The hour of the day, 0 to 24.
    pub fn hour(self) -> f32 {
        match self {
            TimeOfDay::Moonlight => 0.0,
            TimeOfDay::Dawn => 6.0,
            TimeOfDay::Morning => 8.5,
            TimeOfDay::Noon => 12.0,
            TimeOfDay::GoldenHour => 17.2,
            TimeOfDay::Dusk => 18.3,
            TimeOfDay::BlueHour => 18.8,
            TimeOfDay::Night => 21.0,
            TimeOfDay::Hour(h) => h,
        }
    }

    /// The time at `hour`: the named time there, if there is one, else
    /// [`TimeOfDay::Hour`].
    pub fn at(hour: f32) -> TimeOfDay {
        TimeOfDay::NAMED
            .into_iter()
            .find(|t| t.hour() == hour)
            .unwrap_or(TimeOfDay::Hour(hour))
    }

    /// The time at its hour rounded to 0.1, and named if it falls on a
    /// named time.
    pub fn quantized(self) -> TimeOfDay {
        match self {
            TimeOfDay::Hour(h) if h.is_finite() => TimeOfDay::at((h * 10.0).round() / 10.0),
            t => t,
        }
    }

    /// The named time, if the time is one.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            TimeOfDay::Noon => "noon",
            TimeOfDay::GoldenHour => "golden hour",
            TimeOfDay::Dusk => "dusk",
            TimeOfDay::Night => "night",
            TimeOfDay::Dawn => "dawn",
            TimeOfDay::Morning => "morning",
            TimeOfDay::BlueHour => "blue hour",
            TimeOfDay::Moonlight => "moonlight",
            TimeOfDay::Hour(_) => return None,
        })
    }

    /// The time's name in RON and on the command line (`"GoldenHour"`),
    /// if it is a named time.
    pub fn ron_name(self) -> Option<&'static str> {
        Some(match self {
            TimeOfDay::Noon => "Noon",
            TimeOfDay::GoldenHour => "GoldenHour",
            TimeOfDay::Dusk => "Dusk",
            TimeOfDay::Night => "Night",
            TimeOfDay::Dawn => "Dawn",
            TimeOfDay::Morning => "Morning",
            TimeOfDay::BlueHour => "BlueHour",
            TimeOfDay::Moonlight => "Moonlight",
            TimeOfDay::Hour(_) => return None,
        })
    }

    /// Whether the sky is dark: after the blue hour and before dawn's.
    pub fn is_dark(self) -> bool {
        let h = self.hour();
        !(5.4..=18.8).contains(&h)
    }

    /// The named times whose light the time's light lies between, and how
    /// far from the first to the second (0 to 1): a named time is its own
    /// light, at 0.
    pub(crate) fn between(self) -> (TimeOfDay, TimeOfDay, f32) {
        let h = self.hour();
        let mut keys = KEYS.windows(2);
        let found = keys.find(|w| h >= w[0].0 && h <= w[1].0);
        match (self, found) {
            (TimeOfDay::Hour(_), Some(w)) if h != w[0].0 => {
                ((w[0].1), (w[1].1), (h - w[0].0) / (w[1].0 - w[0].0))
            }
            (TimeOfDay::Hour(_), Some(w)) => (w[0].1, w[0].1, 0.0),
            (TimeOfDay::Hour(_), None) => (TimeOfDay::Moonlight, TimeOfDay::Moonlight, 0.0),
            (named, _) => (named, named, 0.0),
        }
    }
}

/// The lights of the day, by hour: the named times, with the night and
/// the blue hour again before dawn, and midnight at both ends.
const KEYS: [(f32, TimeOfDay); 11] = [
    (0.0, TimeOfDay::Moonlight),
    (4.6, TimeOfDay::Night),
    (5.4, TimeOfDay::BlueHour),
    (6.0, TimeOfDay::Dawn),
    (8.5, TimeOfDay::Morning),
    (12.0, TimeOfDay::Noon),
    (17.2, TimeOfDay::GoldenHour),
    (18.3, TimeOfDay::Dusk),
    (18.8, TimeOfDay::BlueHour),
    (21.0, TimeOfDay::Night),
    (24.0, TimeOfDay::Moonlight),
];

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
    /// The look it is of ([`crate::Scene::look`]): the layers whose light
    /// changed with a look read it here.
    pub look: u32,
}

/// The first look: every scene made before looks existed.
pub const LOOK_FIRST: u32 = 1;
/// The second look (December 2026): nights whose ground reads, sand lit as
/// sand.
pub const LOOK_SAND: u32 = 2;
/// The newest look, which New scene draws in.
pub const LOOK_NEWEST: u32 = LOOK_SAND;

impl Palette {
    /// The sky's colour at `t`, 0 at the top of the picture to 1 at the
    /// horizon: zenith to the middle colour, then to the horizon's.
    pub fn sky(&self, t: f32) -> Linear {
        if t < self.mid_at {
            let u = t / self.mid_at;
            mix(self.zenith, self.mid, u * u * (3.0 - 2.0 * u))
        } else {
            let u = (t - self.mid_at) / (1.0 - self.mid_at);
            mix(self.mid, self.horizon, math::powf(u, self.sky_curve))
        }
    }

    /// The colour `albedo` shows in this light, before the light itself:
    /// from the second look, greyer as the stars come out, as the eye sees
    /// at night (the ground's forms, not its colour: red earth is not black
    /// under the moon).
    pub fn albedo(&self, albedo: Linear) -> Linear {
        if self.look < LOOK_SAND || self.stars <= 0.0 {
            return albedo;
        }
        let grey = (albedo[0] + albedo[1] + albedo[2]) / 3.0;
        let cool = [0.85 * grey, 0.95 * grey, 1.2 * grey];
        mix(albedo, cool, 0.6 * self.stars.clamp(0.0, 1.0))
    }

    /// The palette of `time` with the sun at horizontal position `sun_x`
    /// (fraction of the width) over a horizon at `horizon` (fraction of the
    /// height from the top).
    #[cfg(test)]
    pub fn new(time: TimeOfDay, sun_x: f32, horizon: f32) -> Palette {
        Palette::in_look(LOOK_FIRST, time, sun_x, horizon)
    }

    /// The palette of `time`, as [`Palette::new`], in the look `look`.
    pub fn in_look(look: u32, time: TimeOfDay, sun_x: f32, horizon: f32) -> Palette {
        let (a, b, t) = time.between();
        let first = Palette::named(a, sun_x, horizon).looked(a, look);
        if t == 0.0 {
            return first;
        }
        first.toward(&Palette::named(b, sun_x, horizon).looked(b, look), t)
    }

    /// The named time's palette as the look `look` lights it: from the
    /// second look the night's ground is lit enough to read (the sky's
    /// afterglow and the stars' light), and the blue hour's with it.
    fn looked(mut self, time: TimeOfDay, look: u32) -> Palette {
        self.look = look;
        if look < LOOK_SAND {
            return self;
        }
        // The eye adapts: the darker the hour, the more its light is
        // raised, so that the ground reads and the sky stays dark; after
        // sunset the afterglow on the sun's side lights the forms.
        let (ground, direct, ambient) = match time {
            TimeOfDay::Night => (2.0, 3.5, 2.5),
            TimeOfDay::Moonlight => (1.4, 1.4, 1.6),
            TimeOfDay::BlueHour => (1.35, 4.0, 1.35),
            TimeOfDay::Dusk => (1.15, 1.6, 1.2),
            _ => (1.0, 1.0, 1.0),
        };
        self.ground = scale(self.ground, ground);
        self.direct = scale(self.direct, direct);
        self.ambient = scale(self.ambient, ambient);
        self
    }

    /// `self` moved `t` (0 to 1) of the way to `other`.
    fn toward(&self, other: &Palette, t: f32) -> Palette {
        let f = |a: f32, b: f32| a + (b - a) * t;
        let c = |a: Linear, b: Linear| [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2])];
        let light = c(self.light, other.light);
        let n = (light[0] * light[0] + light[1] * light[1] + light[2] * light[2]).sqrt();
        Palette {
            zenith: c(self.zenith, other.zenith),
            mid: c(self.mid, other.mid),
            mid_at: f(self.mid_at, other.mid_at),
            horizon: c(self.horizon, other.horizon),
            sky_curve: f(self.sky_curve, other.sky_curve),
            sun_y: f(self.sun_y, other.sun_y),
            disc: c(self.disc, other.disc),
            glow: c(self.glow, other.glow),
            glow_radius: f(self.glow_radius, other.glow_radius),
            ground: c(self.ground, other.ground),
            direct: c(self.direct, other.direct),
            ambient: c(self.ambient, other.ambient),
            light: [light[0] / n, light[1] / n, light[2] / n],
            stars: f(self.stars, other.stars),
            moon: if t < 0.5 { self.moon } else { other.moon },
            shadow: f(self.shadow, other.shadow),
            look: self.look,
        }
    }

    /// The palette of a named time ([`TimeOfDay::Hour`] is lit as the
    /// night).
    fn named(time: TimeOfDay, sun_x: f32, horizon: f32) -> Palette {
        // Light comes from the sun's side, from behind the scene (the sun is
        // in view), so stones are lit on top and on the sun's flank.
        let side = ((sun_x - 0.5) * 2.0).clamp(-1.0, 1.0);
        let (mut palette, elevation_deg) = Palette::table(time, horizon);
        let e = f32::to_radians(elevation_deg);
        let (x, y, z) = (
            side * 0.8 * math::cos(e),
            math::sin(e),
            -0.45 * math::cos(e),
        );
        let n = (x * x + y * y + z * z).sqrt();
        palette.light = [x / n, y / n, z / n];
        palette
    }

    /// The named times' palettes, as the table writes them (the light's
    /// direction left to [`Palette::named`]), and the light's elevation in
    /// degrees.
    /// The named times' palettes, as the table writes them (the light's
    /// direction left to [`Palette::named`]), and the light's elevation in
    /// degrees: the day's, then the dark's.
    fn table(time: TimeOfDay, horizon: f32) -> (Palette, f32) {
        match time {
            TimeOfDay::Noon | TimeOfDay::GoldenHour | TimeOfDay::Dawn | TimeOfDay::Morning => {
                Palette::day_table(time, horizon)
            }
            _ => Palette::dark_table(time, horizon),
        }
    }

    /// The day's palettes: noon, the golden hour, dawn and the morning (`_`).
    fn day_table(time: TimeOfDay, horizon: f32) -> (Palette, f32) {
        let rgb = |r, g, b| Rgb(r, g, b).linear();
        match time {
            TimeOfDay::Noon => (
                Palette {
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
                    light: [0.0; 3],
                    stars: 0.0,
                    moon: false,
                    shadow: 0.55,
                    look: LOOK_FIRST,
                },
                58.0,
            ),
            TimeOfDay::GoldenHour => (
                Palette {
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
                    light: [0.0; 3],
                    stars: 0.0,
                    moon: false,
                    shadow: 0.65,
                    look: LOOK_FIRST,
                },
                12.0,
            ),
            TimeOfDay::Dawn => (
                Palette {
                    zenith: rgb(58, 84, 148),
                    mid: rgb(186, 168, 196),
                    mid_at: 0.64,
                    horizon: rgb(255, 184, 150),
                    sky_curve: 1.7,
                    sun_y: horizon - 0.05,
                    disc: [6.0, 4.4, 3.2],
                    glow: rgb(250, 160, 130),
                    glow_radius: 0.5,
                    ground: scale(rgb(236, 196, 186), 0.8),
                    direct: [1.2, 0.86, 0.72],
                    ambient: scale(rgb(140, 146, 206), 0.45),
                    light: [0.0; 3],
                    stars: 0.05,
                    moon: false,
                    shadow: 0.62,
                    look: LOOK_FIRST,
                },
                5.0,
            ),
            // The morning.
            _ => (
                Palette {
                    zenith: rgb(38, 88, 170),
                    mid: rgb(112, 160, 214),
                    mid_at: 0.6,
                    horizon: rgb(196, 214, 228),
                    sky_curve: 1.45,
                    sun_y: (horizon - 0.32).max(0.08),
                    disc: [6.0, 5.6, 4.8],
                    glow: rgb(150, 140, 118),
                    glow_radius: 0.4,
                    ground: [0.98, 0.94, 0.88],
                    direct: [1.15, 1.02, 0.86],
                    ambient: scale(rgb(150, 175, 215), 0.5),
                    light: [0.0; 3],
                    stars: 0.0,
                    moon: false,
                    shadow: 0.6,
                    look: LOOK_FIRST,
                },
                30.0,
            ),
        }
    }

    /// The dark's palettes: dusk, night, the blue hour, and moonlight with any other hour (`_`; an hour between named times is lit between them before it comes here).
    fn dark_table(time: TimeOfDay, horizon: f32) -> (Palette, f32) {
        let rgb = |r, g, b| Rgb(r, g, b).linear();
        match time {
            TimeOfDay::Dusk => (
                Palette {
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
                    light: [0.0; 3],
                    stars: 0.25,
                    moon: false,
                    shadow: 0.35,
                    look: LOOK_FIRST,
                },
                3.0,
            ),
            TimeOfDay::Night => (
                Palette {
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
                    light: [0.0; 3],
                    stars: 1.0,
                    moon: true,
                    shadow: 0.5,
                    look: LOOK_FIRST,
                },
                40.0,
            ),
            TimeOfDay::BlueHour => (
                Palette {
                    zenith: rgb(14, 26, 72),
                    mid: rgb(46, 66, 128),
                    mid_at: 0.6,
                    horizon: rgb(118, 120, 170),
                    sky_curve: 1.3,
                    sun_y: horizon + 0.1,
                    disc: [0.0, 0.0, 0.0],
                    glow: rgb(92, 80, 132),
                    glow_radius: 0.5,
                    ground: scale(rgb(120, 130, 182), 0.36),
                    direct: [0.06, 0.06, 0.1],
                    ambient: scale(rgb(110, 130, 190), 0.36),
                    light: [0.0; 3],
                    stars: 0.45,
                    moon: false,
                    shadow: 0.25,
                    look: LOOK_FIRST,
                },
                4.0,
            ),
            // Moonlight, and any hour between named times.
            _ => (
                Palette {
                    zenith: rgb(8, 14, 38),
                    mid: rgb(18, 30, 64),
                    mid_at: 0.6,
                    horizon: rgb(50, 64, 100),
                    sky_curve: 1.2,
                    sun_y: 0.14,
                    disc: rgb(246, 243, 232),
                    glow: rgb(54, 64, 96),
                    glow_radius: 0.3,
                    ground: scale(rgb(120, 140, 190), 0.4),
                    direct: [0.32, 0.36, 0.46],
                    ambient: scale(rgb(80, 100, 150), 0.22),
                    light: [0.0; 3],
                    stars: 0.8,
                    moon: true,
                    shadow: 0.55,
                    look: LOOK_FIRST,
                },
                45.0,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A named time is lit as its own light; an hour between two is lit
    /// between them, and the scale's names sit on tenths of an hour.
    #[test]
    fn hours_between_named_times_are_lit_between_them() {
        for t in TimeOfDay::NAMED {
            assert_eq!(TimeOfDay::at(t.hour()), t);
            assert_eq!(TimeOfDay::Hour(t.hour()).quantized(), t);
            assert_eq!(t.between(), (t, t, 0.0));
        }
        let (a, b, t) = TimeOfDay::Hour(14.6).between();
        assert_eq!((a, b), (TimeOfDay::Noon, TimeOfDay::GoldenHour));
        assert!((t - 0.5).abs() < 1e-5);
        let noon = Palette::new(TimeOfDay::Noon, 0.7, 0.5);
        let golden = Palette::new(TimeOfDay::GoldenHour, 0.7, 0.5);
        let mid = Palette::new(TimeOfDay::Hour(14.6), 0.7, 0.5);
        for i in 0..3 {
            let (lo, hi) = (
                noon.zenith[i].min(golden.zenith[i]),
                noon.zenith[i].max(golden.zenith[i]),
            );
            assert!((lo..=hi).contains(&mid.zenith[i]));
        }
        assert!(mid.light[1] < noon.light[1] && mid.light[1] > golden.light[1]);
        // Midnight's moonlight lights the floor far more than the night.
        let night = Palette::new(TimeOfDay::Night, 0.7, 0.5);
        let moon = Palette::new(TimeOfDay::Moonlight, 0.7, 0.5);
        assert!(moon.ground[1] > 2.0 * night.ground[1]);
        assert!(moon.direct[1] > 2.0 * night.direct[1]);
    }
}
