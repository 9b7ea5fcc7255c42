//! Building a scene from traits: the composition's layers (from the preset
//! it starts from), their settings rolled from their tables, then each
//! trait written into the settings that show it. The thresholds here are
//! the ones `classify.rs` reads a scene back with.

use super::{Dice, Locks, roll};
use crate::base::color::Rgb;
use crate::layers::{
    Clouds, Dunes, Floor, Kind, Layer, Plants, Racetrack, Ranges, Relief, Rocks, Sky, Spiral, Tent,
    match_kind,
};
use crate::scene::Scene;
use crate::traits::marks::{
    BAJADA_FANS, BROKEN_COVER, CIRRUS_STREAKS, CREOSOTE, Colours, GREAT_MOON, MUD_CRACKS, PALETTES,
    PAVEMENT_PATCHES, RISE, SALT_CRACKS, STORM_COVER, WASH, stone_sizes, stone_target,
};
use crate::traits::{
    self, ARCHETYPE, FOCAL, GROUND, PALETTE, PLANTS, RARE, STONES, TIME, Traits, VANTAGE, WEATHER,
    WIND, archetype, focal, ground, plants, rare, weather, wind,
};

/// What a composition decides: the preset whose layers it starts from, the
/// horizon, and the ranges behind.
struct Composition {
    preset: &'static str,
    horizon: (f32, f32),
    ranges: (u32, u32),
    height: (f32, f32),
}

/// The [`Composition`] of an [`ARCHETYPE`] value.
fn composition(value: u8) -> Composition {
    let c = |preset, horizon, ranges, height| Composition {
        preset,
        horizon,
        ranges,
        height,
    };
    match value {
        archetype::CAMPSITE => c("death-valley", (0.4, 0.68), (1, 3), (0.06, 0.24)),
        archetype::OPEN_PLAYA => c("moonlit-playa", (0.56, 0.8), (0, 2), (0.04, 0.12)),
        archetype::DUNE_SEA => c("dune-sea", (0.24, 0.52), (0, 2), (0.03, 0.12)),
        archetype::RACETRACK => c("racetrack", (0.34, 0.58), (2, 3), (0.1, 0.26)),
        archetype::JOSHUA_FLAT => c("joshua-tree-flat", (0.44, 0.68), (1, 3), (0.08, 0.22)),
        archetype::BADLANDS => c("badlands", (0.32, 0.56), (2, 4), (0.16, 0.34)),
        archetype::SALT_PAN => c("salt-flat", (0.4, 0.7), (0, 2), (0.04, 0.12)),
        archetype::BAJADA => c("alluvial-fan", (0.34, 0.54), (1, 2), (0.2, 0.38)),
        _ => c("boulder-field", (0.36, 0.62), (1, 3), (0.08, 0.24)),
    }
}

/// Where each kind of layer goes in a built scene, from the sky down to
/// the tent and the night's ornament.
fn kind_order(layer: &Layer) -> usize {
    match layer {
        Layer::Sky(_) => 0,
        Layer::Clouds(_) => 1,
        Layer::Ranges(_) => 2,
        Layer::Floor(_) => 3,
        // A near rise alone stands in front of what lies on the floor.
        Layer::Relief(r) if r.fans == 0.0 && r.wash == 0.0 => 9,
        Layer::Relief(_) => 4,
        Layer::Dunes(_) => 5,
        Layer::Racetrack(_) => 6,
        Layer::Rocks(_) => 7,
        Layer::Plants(_) => 8,
        Layer::Tent(_) => 10,
        Layer::Spiral(_) => 11,
    }
}

/// A scene with `traits`, its details rolled with `dice` (one stream per
/// group, as New scene's), from `base`: its aspect, and what `locks` keep
/// (the seed, the light, the automaton and the locked kinds' layers, as
/// they are). The automaton and the stones' sizes are New scene's to fit
/// afterwards.
pub(super) fn scene(
    traits: &Traits,
    base: &Scene,
    locks: &Locks,
    dice: &dyn Fn(u64) -> Dice,
) -> Scene {
    let plan = composition(traits[ARCHETYPE]);
    let template = crate::scene::presets::load(plan.preset).expect("the presets load (tested)");
    let mut layers: Vec<Layer> = template
        .layers
        .into_iter()
        .filter(|l| match l {
            Layer::Rocks(_) => stone_target(traits[STONES]).is_some(),
            Layer::Plants(_) => traits[PLANTS] != plants::NONE,
            Layer::Relief(_) => traits[ARCHETYPE] == archetype::BAJADA,
            Layer::Tent(_) | Layer::Spiral(_) | Layer::Clouds(_) => false,
            _ => true,
        })
        .collect();
    let mut add = |layer: Layer| {
        if !layers.iter().any(|l| l.kind_index() == layer.kind_index()) {
            layers.push(layer);
        }
    };
    if traits[WEATHER] != weather::CLEAR || traits[RARE] == rare::DUST {
        add(Layer::Clouds(Clouds::default()));
    }
    if traits[PLANTS] != plants::NONE {
        add(Layer::Plants(Plants::default()));
    }
    if stone_target(traits[STONES]).is_some() {
        add(Layer::Rocks(Rocks::default()));
    }
    if traits[GROUND] == ground::WASH {
        add(Layer::Relief(Relief::default()));
    }
    if traits[FOCAL] == focal::TENT {
        add(Layer::Tent(Tent::default()));
    }
    if traits[FOCAL] == focal::RISE {
        // A layer of its own, in front of the stones and the plants.
        layers.push(Layer::Relief(Relief {
            fans: 0.0,
            wash: 0.0,
            ..Relief::default()
        }));
    }
    layers.sort_by_key(kind_order);
    let mut s = Scene {
        layers,
        aspect: base.aspect,
        seed: base.seed,
        automaton: base.automaton.clone(),
        ..template
    };
    // The light, rolled from the scene's tables, then the composition's
    // horizon and the traits' time and wind.
    let mut d = dice(2);
    for setting in Scene::SETTINGS
        .iter()
        .filter(|x| super::scene_group(x.name) == super::LIGHT && x.name != "time")
    {
        roll(std::slice::from_ref(setting), &mut s, &mut d);
    }
    s.horizon = d.float(plan.horizon.0, plan.horizon.1);
    // One ground, seen from the vantage: its eye, lens and framing.
    s.one_ground = true;
    s.look = crate::scene::LOOK_NEWEST;
    let mut v = dice(9);
    let (eye, lens, horizon) =
        traits::marks::vantage_of(traits[VANTAGE], s.horizon, [v.unit(), v.unit(), v.unit()]);
    (s.eye, s.lens, s.horizon) = (eye, lens, horizon);
    s.time = traits::time_of(traits[TIME]);
    s.wind = wind_heading(traits[WIND], &mut d);
    // Each layer rolled from its own table, on its kind's stream (so a
    // kind's dice do not depend on which others the composition has).
    for layer in &mut s.layers {
        let mut d = dice(16 + layer.kind_index() as u64);
        fn roll_layer<K: Kind>(l: &mut K, d: &mut Dice) {
            roll(K::SETTINGS, l, d);
        }
        match_kind!(layer, l => roll_layer(l, &mut d));
    }
    let mut d = dice(6);
    let colours = &PALETTES
        .iter()
        .find(|(v, _)| *v == traits[PALETTE])
        .expect("every palette has colours (tested)")
        .1;
    for layer in &mut s.layers {
        dress(layer, traits, &plan, colours, &mut d);
    }
    // The stones' sizes are a standing eye's: sized for the vantage's eye,
    // they look as large and cover as much as their trait says.
    let scale = s.eye_scale();
    let (lo, hi) = Rocks::SIZE_LIMITS;
    for layer in &mut s.layers {
        if let Layer::Rocks(r) = layer {
            r.near_size = (r.near_size / scale).clamp(lo, hi);
            r.far_size = (r.far_size / scale).clamp(lo, hi);
        }
    }
    if traits[FOCAL] == focal::RISE {
        // The near rise's own layer, the last relief.
        if let Some(Layer::Relief(r)) = s
            .layers
            .iter_mut()
            .rev()
            .find(|l| matches!(l, Layer::Relief(_)))
        {
            (r.fans, r.wash) = (0.0, 0.0);
            r.rise = d.float(RISE + 0.1, 0.55);
            r.tilt = d.float(-0.8, 0.8);
        }
    }
    keep_locked(&mut s, base, locks);
    if locks.is_locked(super::LIGHT) {
        (s.time, s.sun_x, s.horizon, s.wind) = (base.time, base.sun_x, base.horizon, base.wind);
        (s.eye, s.lens, s.look) = (base.eye, base.lens, base.look);
    }
    s
}

/// A wind heading (where it blows to, degrees) from a [`WIND`] value (where
/// it comes from): the quarter's middle, give or take 35°.
fn wind_heading(value: u8, d: &mut Dice) -> f32 {
    let middle = match value {
        wind::WEST => 0.0,
        wind::SOUTH => 90.0,
        wind::EAST => 180.0,
        _ => 270.0,
    };
    (middle + d.float(-35.0, 35.0)).rem_euclid(360.0)
}

/// Writes `traits` and the composition into `layer`'s settings.
fn dress(layer: &mut Layer, traits: &Traits, plan: &Composition, colours: &Colours, d: &mut Dice) {
    match layer {
        Layer::Sky(sky) => dress_sky(sky, traits, d),
        Layer::Clouds(c) => dress_clouds(c, traits, d),
        Layer::Ranges(r) => dress_ranges(r, traits, plan, colours, d),
        Layer::Floor(f) => dress_floor(f, traits, colours, d),
        Layer::Relief(r) => dress_relief(r, traits, colours, d),
        Layer::Dunes(dunes) => dress_dunes(dunes, colours, d),
        Layer::Racetrack(r) => dress_racetrack(r, colours),
        Layer::Rocks(r) => dress_rocks(r, traits, colours),
        Layer::Plants(p) => dress_plants(p, traits, d),
        Layer::Tent(t) => dress_tent(t, d),
        Layer::Spiral(s) => dress_spiral(s),
    }
}

/// The sky: a great moon, or the disc its table rolled.
fn dress_sky(sky: &mut Sky, traits: &Traits, d: &mut Dice) {
    if traits[RARE] == rare::GREAT_MOON {
        sky.sun_size = d.float(0.07, 0.1);
    } else {
        sky.sun_size = sky.sun_size.min(GREAT_MOON - 0.01);
    }
}

/// The clouds of the weather, and a dust storm's dust.
fn dress_clouds(c: &mut Clouds, traits: &Traits, d: &mut Dice) {
    let (cover, streaks) = match traits[WEATHER] {
        weather::CLEAR => ((0.0, 0.0), (0.0, 0.3)),
        weather::CUMULUS => ((0.18, 0.4), (0.0, 0.35)),
        weather::CIRRUS => ((0.15, 0.4), (CIRRUS_STREAKS + 0.05, 1.0)),
        weather::BROKEN => ((BROKEN_COVER + 0.03, 0.64), (0.1, 0.55)),
        _ => ((STORM_COVER + 0.04, 0.88), (0.0, 0.35)),
    };
    c.cover = d.float(cover.0, cover.1);
    c.streaks = d.float(streaks.0, streaks.1);
    c.color = if traits[WEATHER] == weather::STORM {
        Rgb(120, 118, 128)
    } else {
        Rgb(255, 255, 255)
    };
    c.dust = if traits[RARE] == rare::DUST {
        d.float(0.55, 0.85)
    } else {
        d.float(0.0, 0.2)
    };
}

/// The ranges: as many and as high as the composition has them (some
/// compositions may have none), terraced only in badlands.
fn dress_ranges(
    r: &mut Ranges,
    traits: &Traits,
    plan: &Composition,
    colours: &Colours,
    d: &mut Dice,
) {
    r.count = d.int(plan.ranges.0, plan.ranges.1);
    // None: the flat runs to the sky (the layer is kept, hidden, for the
    // user to show again).
    r.visible = r.count > 0;
    r.count = r.count.max(1);
    r.height = d.float(plan.height.0, plan.height.1);
    r.terraces = if traits[ARCHETYPE] == archetype::BADLANDS {
        *d.pick(&[2, 3, 4, 5])
    } else {
        0
    };
    r.color = colours.ranges;
}

/// The floor's colour, surface and mirage.
fn dress_floor(f: &mut Floor, traits: &Traits, colours: &Colours, d: &mut Dice) {
    f.color = colours.floor;
    let (patches, cracks) = match traits[GROUND] {
        ground::PAVEMENT => ((PAVEMENT_PATCHES + 0.04, 0.6), (0.0, 0.0)),
        ground::CRACKS => ((0.08, 0.3), (MUD_CRACKS + 0.05, 0.4)),
        ground::SALT => ((0.08, 0.2), (SALT_CRACKS + 0.1, 0.9)),
        _ => ((0.06, PAVEMENT_PATCHES - 0.06), (0.0, 0.0)),
    };
    f.patches = d.float(patches.0, patches.1);
    f.cracks = d.float(cracks.0, cracks.1);
    f.mirage = if traits[RARE] == rare::MIRAGE {
        d.float(0.45, 0.75)
    } else {
        0.0
    };
}

/// The fans of a bajada, or a dry wash across a flat.
fn dress_relief(r: &mut Relief, traits: &Traits, colours: &Colours, d: &mut Dice) {
    let bajada = traits[ARCHETYPE] == archetype::BAJADA;
    r.fans = if bajada {
        d.float(BAJADA_FANS + 0.2, 1.0)
    } else {
        0.0
    };
    r.wash = if traits[GROUND] == ground::WASH {
        d.float(WASH + 0.15, 0.8)
    } else {
        0.0
    };
    // Only a bajada's slopes rise: elsewhere the tent, the stones and the
    // plants stand on the flat.
    r.rise = if bajada {
        *d.pick(&[0.0, 0.2, 0.35])
    } else {
        0.0
    };
    r.fan_color = Rgb(
        colours.floor.0.saturating_sub(18),
        colours.floor.1.saturating_sub(14),
        colours.floor.2.saturating_sub(2),
    );
}

/// The dunes' sand, and a field that reads as a sea of dunes from the
/// viewer's height: dunes close enough together that several stand
/// between the viewer and the horizon, barchans apart on bare ground
/// (where sand is scarce), ridges and stars on a sea of it.
fn dress_dunes(dunes: &mut Dunes, colours: &Colours, d: &mut Dice) {
    dunes.color = colours.sand;
    dunes.height = d.float(10.0, 28.0);
    dunes.spacing = d.float(130.0, 280.0);
    dunes.cover = if dunes.form == 0 {
        d.float(0.45, 0.7)
    } else {
        d.float(0.8, 1.0)
    };
}

/// The Racetrack's playa.
fn dress_racetrack(r: &mut Racetrack, colours: &Colours) {
    r.color = Rgb(
        colours.floor.0.saturating_sub(8),
        colours.floor.1,
        colours.floor.2.saturating_add(18),
    );
}

/// The stones' colours and sizes (New scene then fits them to their
/// cover).
fn dress_rocks(r: &mut Rocks, traits: &Traits, colours: &Colours) {
    (r.primary, r.secondary) = colours.stones;
    let (near, far) = stone_sizes(traits[STONES]);
    r.near_size = r.near_size.clamp(near.0, near.1);
    r.far_size = r.far_size.clamp(far.0, far.1);
}

/// The plants of the [`PLANTS`] value.
fn dress_plants(p: &mut Plants, traits: &Traits, d: &mut Dice) {
    match traits[PLANTS] {
        plants::SPARSE => {
            p.creosote = d.float(0.12, CREOSOTE - 0.08);
            p.clumped = d.float(0.1, 0.4);
            p.joshua = 0;
        }
        plants::CREOSOTE => {
            p.creosote = d.float(CREOSOTE + 0.05, 0.75);
            p.clumped = d.float(0.4, 0.8);
            p.joshua = 0;
        }
        plants::LONE_JOSHUA => {
            p.creosote = d.float(0.08, 0.25);
            p.joshua = 1;
            p.height = d.float(4.5, 6.5);
        }
        _ => {
            p.creosote = d.float(0.15, 0.45);
            p.joshua = d.int(3, 12);
        }
    }
}

/// The tent on a third of the width, where the eye goes: now and then
/// close, large and low in the frame.
fn dress_tent(t: &mut Tent, d: &mut Dice) {
    let third = if d.unit() < 0.5 { 1.0 / 3.0 } else { 2.0 / 3.0 };
    t.x = third + d.float(-0.08, 0.08);
    if d.unit() < 0.3 {
        t.size = d.float(0.26, 0.36);
        t.y = d.float(0.9, 0.96);
    }
}

/// The spiral (a constellation) is not a trait: a built scene leaves it
/// to the time's dressing.
fn dress_spiral(_s: &mut Spiral) {}

/// Replaces the layers of each locked kind in `s` with `base`'s, as they
/// are (none, if `base` has none), each where its kind goes.
fn keep_locked(s: &mut Scene, base: &Scene, locks: &Locks) {
    let locked = |l: &Layer| locks.is_locked(l.name());
    s.layers.retain(|l| !locked(l));
    for layer in base.layers.iter().filter(|l| locked(l)) {
        let at = s
            .layers
            .iter()
            .position(|l| kind_order(l) > kind_order(layer))
            .unwrap_or(s.layers.len());
        s.layers.insert(at, layer.clone());
    }
}
