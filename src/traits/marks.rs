//! The marks each trait value leaves in a scene's settings: the
//! thresholds [`super::Traits::of`] reads a scene by, and the colours and
//! covers New scene writes inside them.

use super::{palette, stones};
use crate::base::color::Rgb;

/// Fans at least this large make a bajada.
pub const BAJADA_FANS: f32 = 0.5;
/// Clouds covering less than this leave a clear sky.
pub const CLEAR_COVER: f32 = 0.08;
/// Clouds covering this much or more are a storm's.
pub const STORM_COVER: f32 = 0.68;
/// Clouds that show less than this share of the sky (as they are drawn:
/// their deck's density over the sky, fading far off) leave a clear sky:
/// clouds far larger than the picture can leave its sky between them.
pub const CLOUDS_SHOWN: f32 = 0.01;
/// Clouds this streaked or more are high cirrus.
pub const CIRRUS_STREAKS: f32 = 0.65;
/// Clouds covering this much or more are broken cloud.
pub const BROKEN_COVER: f32 = 0.44;
/// A floor cracked this much or more is a salt pan's polygons.
pub const SALT_CRACKS: f32 = 0.5;
/// A rise this high or higher (without fans) is a near rise.
pub const RISE: f32 = 0.15;
/// A wash this wide or wider shows.
pub const WASH: f32 = 0.2;
/// A floor cracked this much or more (below [`SALT_CRACKS`]) is mud.
pub const MUD_CRACKS: f32 = 0.2;
/// A floor with this much pavement or more is desert pavement.
pub const PAVEMENT_PATCHES: f32 = 0.4;
/// This much creosote or more is creosote, less is sparse.
pub const CREOSOTE: f32 = 0.4;
/// Stones this large on the nearest row, or larger, are boulders.
pub const BOULDER_SIZE: f32 = 0.066;
/// A mirage this strong or stronger shows.
pub const MIRAGE: f32 = 0.3;
/// A dust storm this thick or thicker (0 to 1, as the clouds' dust draws
/// it: `layers::clouds::storm`) shows as one: dust of about 0.41 or more in
/// the second look (New scene rolls a storm's from 0.55, the thickest).
pub const DUST_STORM: f32 = 0.6;
/// A moon this large or larger is a great moon.
pub const GREAT_MOON: f32 = 0.06;
/// A lens this long or longer (mm) is a long lens.
pub const LONG_LENS: f32 = 100.0;
/// An eye this high or higher (m) stands on an overlook.
pub const OVERLOOK_EYE: f32 = 150.0;
/// An eye this high or higher (m), below an overlook's, stands on a rise.
pub const RAISED_EYE: f32 = 4.0;
/// An eye lower than this (m) is close to the ground.
pub const LOW_EYE: f32 = 1.0;

/// The eye's height (m), the lens (mm) and the horizon of a
/// [`VANTAGE`](super::VANTAGE) value, for a composition whose horizon is
/// `horizon`, from three numbers in 0..1: each value's ranges lie inside
/// its marks.
pub fn vantage_of(value: u8, horizon: f32, [a, b, c]: [f32; 3]) -> (f32, f32, f32) {
    let lerp = |lo: f32, hi: f32, t: f32| lo + (hi - lo) * t;
    // Log-even between the ends, for an eye's height.
    let log = |lo: f32, hi: f32, t: f32| lo * (hi / lo).powf(t);
    match value {
        super::vantage::LOW => (
            lerp(0.6, 0.9, a),
            lerp(16.0, 24.0, b).round(),
            (horizon + lerp(0.06, 0.14, c)).min(0.8),
        ),
        super::vantage::RAISED => (
            log(RAISED_EYE * 2.0, 60.0, a),
            lerp(24.0, 40.0, b).round(),
            (horizon - lerp(0.06, 0.14, c)).max(0.2),
        ),
        super::vantage::OVERLOOK => (
            log(OVERLOOK_EYE * 2.0, 1800.0, a),
            lerp(28.0, 50.0, b).round(),
            lerp(0.18, 0.32, c),
        ),
        super::vantage::LONG => (log(1.6, 6.0, a), lerp(135.0, 300.0, b).round(), horizon),
        _ => (
            crate::scene::DEFAULT_EYE,
            lerp(24.0, 35.0, b).round(),
            horizon,
        ),
    }
}

/// The share of the floor each [`STONES`](super::STONES) value's stones cover: the range
/// a roll must land in, in order (the last range's top is open).
pub const STONE_COVERS: &[(u8, (f32, f32))] = &[
    (stones::SCATTERED, (0.03, 0.12)),
    (stones::CLUMPS, (0.12, 0.25)),
    (stones::DENSE, (0.25, 0.45)),
];

/// The share boulders cover.
pub const BOULDER_COVER: (f32, f32) = (0.14, 0.45);

/// The cover New scene aims a [`STONES`](super::STONES) value's stones at, inside its
/// range, and the range a roll must land in; `None` without rocks.
pub fn stone_target(value: u8) -> Option<((f32, f32), (f32, f32))> {
    let range = match value {
        stones::BOULDERS => BOULDER_COVER,
        v => STONE_COVERS.iter().find(|(s, _)| *s == v)?.1,
    };
    let margin = (range.1 - range.0) * 0.2;
    Some(((range.0 + margin, range.1 - margin), range))
}

/// Stone sizes (fraction of the height) near and far, by whether they are
/// boulders: smaller ones are sand, larger ones boulders for giants.
pub fn stone_sizes(value: u8) -> ((f32, f32), (f32, f32)) {
    if value == stones::BOULDERS {
        ((BOULDER_SIZE + 0.004, 0.1), (0.02, 0.05))
    } else {
        ((0.016, BOULDER_SIZE - 0.004), (0.006, 0.05))
    }
}

/// A palette's colours.
pub struct Colours {
    /// The floor's (and the Racetrack's playa's).
    pub floor: Rgb,
    /// The mountain ranges'.
    pub ranges: Rgb,
    /// The common stones' and the second colour's.
    pub stones: (Rgb, Rgb),
    /// The dunes' sand.
    pub sand: Rgb,
}

/// Each [`PALETTE`](super::PALETTE) value's colours.
pub const PALETTES: &[(u8, Colours)] = &[
    (
        palette::PALE,
        Colours {
            floor: Rgb(218, 198, 160),
            ranges: Rgb(132, 104, 88),
            stones: (Rgb(116, 116, 108), Rgb(87, 93, 55)),
            sand: Rgb(226, 196, 150),
        },
    ),
    (
        palette::GOLDEN,
        Colours {
            floor: Rgb(224, 188, 138),
            ranges: Rgb(150, 116, 100),
            stones: (Rgb(124, 100, 80), Rgb(98, 90, 60)),
            sand: Rgb(224, 174, 120),
        },
    ),
    (
        palette::RED,
        Colours {
            floor: Rgb(200, 124, 86),
            ranges: Rgb(156, 76, 50),
            stones: (Rgb(132, 92, 70), Rgb(96, 92, 60)),
            sand: Rgb(210, 132, 88),
        },
    ),
    (
        palette::GREY,
        Colours {
            floor: Rgb(178, 170, 158),
            ranges: Rgb(96, 92, 104),
            stones: (Rgb(70, 68, 72), Rgb(62, 64, 52)),
            sand: Rgb(200, 186, 164),
        },
    ),
    (
        palette::WHITE,
        Colours {
            floor: Rgb(238, 236, 228),
            ranges: Rgb(120, 110, 120),
            stones: (Rgb(116, 116, 108), Rgb(87, 93, 55)),
            sand: Rgb(236, 230, 216),
        },
    ),
];
