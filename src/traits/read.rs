//! Reading a scene's traits from its settings ([`super::Traits::of`]):
//! each axis by the marks ([`super::marks`]) New scene leaves when it
//! builds a value.

use super::marks::{self as build, PALETTES};
use super::{
    self as traits, ARCHETYPE, FOCAL, GROUND, PALETTE, PLANTS, RARE, STONES, TIME, Traits, VANTAGE,
    WEATHER, WIND, archetype, focal, ground, ground as floor_of, palette, plants, rare, stones,
    stones_of, vantage, weather, wind,
};
use crate::base::color::Rgb;
use crate::layers::clouds::storm;
use crate::layers::{Clouds, Layer};
use crate::scene::Scene;

/// The traits of `scene`.
pub(super) fn traits(scene: &Scene) -> Traits {
    let mut t = Traits([0; traits::AXES_COUNT]);
    t[STONES] = stones_value(scene);
    t[GROUND] = ground_value(scene);
    t[FOCAL] = focal_value(scene);
    t[ARCHETYPE] = archetype_value(scene, &t);
    t[TIME] = traits::time_value(scene.time);
    t[WEATHER] = weather_value(scene);
    t[WIND] = wind_value(scene.wind);
    t[PALETTE] = palette_value(scene);
    t[PLANTS] = plants_value(scene);
    t[RARE] = rare_value(scene);
    t[VANTAGE] = vantage_value(scene);
    t
}

/// What the eye goes to: the tents that show (one, or more), else a near
/// rise (without fans), else nothing.
fn focal_value(scene: &Scene) -> u8 {
    match traits::shown(scene, |l| matches!(l, Layer::Tent(_))).len() {
        0 if traits::has(
            scene,
            |l| matches!(l, Layer::Relief(r) if r.rise >= build::RISE && r.fans < build::BAJADA_FANS),
        ) =>
        {
            focal::RISE
        }
        0 => focal::NO_TENT,
        1 => focal::TENT,
        _ => focal::TENTS,
    }
}

/// Whether a layer of `scene` that `is` picks shows ([`traits::shown`]).
fn any_shown(scene: &Scene, is: fn(&Layer) -> bool) -> bool {
    !traits::shown(scene, is).is_empty()
}

/// The vantage: a long lens, else by the eye's height (as New scene sets
/// them, [`build::vantage_of`]).
fn vantage_value(scene: &Scene) -> u8 {
    if scene.lens >= build::LONG_LENS {
        vantage::LONG
    } else if scene.eye >= build::OVERLOOK_EYE {
        vantage::OVERLOOK
    } else if scene.eye >= build::RAISED_EYE {
        vantage::RAISED
    } else if scene.eye < build::LOW_EYE {
        vantage::LOW
    } else {
        vantage::STANDING
    }
}

/// The composition: the kind that marks it (dunes or the Racetrack that
/// show, fans, Joshua trees, terraced ranges, salt, boulders), else a
/// campsite if a tent stands, else an open playa.
fn archetype_value(scene: &Scene, t: &Traits) -> u8 {
    let has = |is: fn(&Layer) -> bool| traits::has(scene, is);
    if any_shown(scene, |l| matches!(l, Layer::Dunes(_))) {
        archetype::DUNE_SEA
    } else if any_shown(scene, |l| matches!(l, Layer::Racetrack(_))) {
        archetype::RACETRACK
    } else if has(|l| matches!(l, Layer::Relief(r) if r.fans >= build::BAJADA_FANS)) {
        archetype::BAJADA
    } else if has(|l| matches!(l, Layer::Plants(p) if p.joshua >= 2)) {
        archetype::JOSHUA_FLAT
    } else if traits::ranges(scene).any(|r| r.terraces > 0) {
        archetype::BADLANDS
    } else if t[GROUND] == ground::SALT {
        archetype::SALT_PAN
    } else if t[STONES] == stones::BOULDERS {
        archetype::BOULDER_FIELD
    } else if matches!(t[FOCAL], focal::TENT | focal::TENTS) {
        archetype::CAMPSITE
    } else {
        archetype::OPEN_PLAYA
    }
}

/// The weather: no clouds (or a trace, or none in the sky the picture
/// shows) a clear sky, a deep cover a storm, streaks cirrus, a half cover
/// broken cloud, else cumulus.
fn weather_value(scene: &Scene) -> u8 {
    let wind = crate::layers::wind_vector(scene.wind);
    let zoom = scene.lens / crate::scene::DEFAULT_LENS;
    let shown = |c: &Clouds| c.sky_shown((scene.seed, wind), scene.horizon, scene.aspect, zoom);
    let clouds = scene.layers.iter().find_map(|l| match l {
        Layer::Clouds(c)
            if c.visible && c.cover >= build::CLEAR_COVER && shown(c) >= build::CLOUDS_SHOWN =>
        {
            Some(c)
        }
        _ => None,
    });
    match clouds {
        None => weather::CLEAR,
        Some(c) if c.cover >= build::STORM_COVER => weather::STORM,
        Some(c) if c.streaks >= build::CIRRUS_STREAKS => weather::CIRRUS,
        Some(c) if c.cover >= build::BROKEN_COVER => weather::BROKEN,
        Some(_) => weather::CUMULUS,
    }
}

/// Where the wind comes from: the quarter its heading (where it blows to)
/// is nearest, turned round.
fn wind_value(heading: f32) -> u8 {
    let quarter = ((heading.rem_euclid(360.0) + 45.0) / 90.0) as u32 % 4;
    [wind::WEST, wind::SOUTH, wind::EAST, wind::NORTH][quarter as usize]
}

/// The palette whose colours are nearest the scene's ground's: the dunes'
/// sand where dunes that show cover the floor, else the floor's colour.
fn palette_value(scene: &Scene) -> u8 {
    let sand = traits::shown(scene, |l| matches!(l, Layer::Dunes(_)))
        .iter()
        .find_map(|l| match l {
            Layer::Dunes(d) => Some(d.color),
            _ => None,
        });
    let floor = scene
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Floor(f) => Some(f.color),
            _ => None,
        })
        .unwrap_or(crate::layers::Floor::default().color);
    let distance = |a: Rgb, b: Rgb| {
        let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2);
        d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)
    };
    PALETTES
        .iter()
        .min_by_key(|(_, colours)| match sand {
            Some(sand) => distance(colours.sand, sand),
            None => distance(colours.floor, floor),
        })
        .map_or(palette::PALE, |(value, _)| *value)
}

/// The ground: sand under dunes that show, the Racetrack's cracked mud,
/// salt's polygons, a wash, cracks, pavement, else smooth clay.
fn ground_value(scene: &Scene) -> u8 {
    let has = |is: fn(&Layer) -> bool| traits::has(scene, is);
    let floor = scene.layers.iter().find_map(|l| match l {
        Layer::Floor(f) if f.visible => Some(f),
        _ => None,
    });
    if any_shown(scene, |l| matches!(l, Layer::Dunes(_))) {
        ground::SAND
    } else if any_shown(scene, |l| matches!(l, Layer::Racetrack(_))) {
        ground::CRACKS
    } else if floor.is_some_and(|f| f.cracks >= build::SALT_CRACKS) {
        ground::SALT
    } else if has(|l| matches!(l, Layer::Relief(r) if r.wash >= build::WASH)) {
        ground::WASH
    } else if floor.is_some_and(|f| f.cracks >= build::MUD_CRACKS) {
        ground::CRACKS
    } else if floor.is_some_and(|f| f.patches >= build::PAVEMENT_PATCHES) {
        ground::PAVEMENT
    } else {
        ground::SMOOTH
    }
}

/// The plants: Joshua trees by their number, creosote by how much of it.
fn plants_value(scene: &Scene) -> u8 {
    let Some(p) = scene.layers.iter().find_map(|l| match l {
        Layer::Plants(p) if p.visible => Some(p),
        _ => None,
    }) else {
        return plants::NONE;
    };
    match p.joshua {
        2.. => plants::JOSHUAS,
        1 => plants::LONE_JOSHUA,
        _ if p.creosote >= build::CREOSOTE => plants::CREOSOTE,
        _ if p.creosote > 0.0 || p.clumped > 0.0 => plants::SPARSE,
        _ => plants::NONE,
    }
}

/// The stones: the Racetrack's sailing ones, boulders by their size, else
/// by the share of the floor the first visible rocks cover (as New scene
/// estimates it).
fn stones_value(scene: &Scene) -> u8 {
    if any_shown(scene, |l| matches!(l, Layer::Racetrack(_))) {
        return stones::SAILING;
    }
    let Some(rocks) = scene.layers.iter().find_map(|l| match l {
        Layer::Rocks(r) if r.visible => Some(r),
        _ => None,
    }) else {
        return stones::NONE;
    };
    // Boulders by the size the eye draws them.
    let scale = scene.eye_scale();
    if rocks.near_size * scale >= build::BOULDER_SIZE {
        return stones::BOULDERS;
    }
    let cover = stones_of(scene).map_or(0.0, |field| rocks.cover(&floor_of(scene, &field)).floor);
    build::STONE_COVERS
        .iter()
        .find(|(_, (_, hi))| cover < *hi)
        .map_or(stones::DENSE, |(value, _)| *value)
}

/// The rare event: a mirage on the floor, a dust storm in the air (only
/// the second look and later draw one: the first draws the clouds' dust as
/// a haze the ranges hide), a great moon in a dark sky.
fn rare_value(scene: &Scene) -> u8 {
    let has = |is: &dyn Fn(&Layer) -> bool| scene.layers.iter().any(|l| l.visible() && is(l));
    if has(&|l| matches!(l, Layer::Floor(f) if f.mirage >= build::MIRAGE)) {
        rare::MIRAGE
    } else if storm::strength(&scene.layers, scene.look) >= build::DUST_STORM {
        rare::DUST
    } else if scene.time.is_dark()
        && has(&|l| matches!(l, Layer::Sky(s) if s.sun_size >= build::GREAT_MOON))
    {
        rare::GREAT_MOON
    } else {
        rare::NONE
    }
}
