//! A scene's traits: about ten axes (the composition, the time, the
//! weather, the wind, the palette, the ground, the plants, the stones, the
//! focal feature, a rare event, the vantage), each a table of named values with weights,
//! as long-form generative series name their outputs.
//!
//! The tables below are the one place the values, their words and their
//! weights are written: New scene draws from them, a scene is
//! read back into them from its settings ([`Traits::of`], as Art Blocks'
//! `calculateFeatures` reads an output's features), the words of a
//! description come from them, and so do the census's expected shares
//! ([`expected_shares`]). A few axes weigh their values differently for
//! some compositions or times ([`Rule`]): a dune sea has no stones, a
//! mirage needs the day's heat.

pub mod marks;
mod read;
mod rules;

use std::borrow::Cow;

use crate::base::palette::TimeOfDay;
use crate::layers::Ground;
use crate::layers::rocks::cover::StoneField;
use crate::layers::{Layer, Ranges};
use crate::scene::Scene;

/// One value of an axis: its words and its weight among the axis's values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The value in a viewer's words ("dune sea", "high cirrus").
    pub name: &'static str,
    /// Its weight in the axis's table, where no [`Rule`] applies.
    pub weight: u32,
}

/// Weights that replace an axis's own where every condition holds: a
/// condition is an earlier axis and the values it may have.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The conditions: (axis, values), all of which must hold.
    pub when: &'static [(usize, &'static [u8])],
    /// The values drawn then, with their weights; the others are not.
    pub weights: &'static [(u8, u32)],
}

/// A trait axis: its key, its title and its table.
#[derive(Clone, Copy, Debug)]
pub struct Axis {
    /// Lower-case key: census rows, `--traits` lines, the locks.
    pub key: &'static str,
    /// Title in the app and in a picture's traits chunk.
    pub title: &'static str,
    /// The values, in table order, with their weights.
    pub choices: &'static [Choice],
    /// Weights that replace `choices`' where their conditions hold; the
    /// first that holds applies.
    pub rules: &'static [Rule],
}

/// Writes the axes from one table each: a module per axis with a constant
/// per value (its index), the axis's index constant, and [`AXES`].
macro_rules! axes {
    ($($(#[$doc:meta])* $index:ident = $module:ident $key:literal $title:literal
        rules $rules:expr;
        { $($value:ident $name:literal $weight:literal),* $(,)? })*) => {
        #[allow(clippy::upper_case_acronyms, non_camel_case_types)]
        #[repr(usize)]
        enum AxisIndex { $($index),* }
        $(
            $(#[$doc])*
            pub const $index: usize = AxisIndex::$index as usize;
            $(#[$doc])*
            pub mod $module {
                #[allow(clippy::upper_case_acronyms, non_camel_case_types)]
                #[repr(u8)]
                enum ValueIndex { $($value),* }
                $(
                    #[doc = concat!("\"", $name, "\"")]
                    pub const $value: u8 = ValueIndex::$value as u8;
                )*
                /// The values with their weights, in table order.
                pub(super) const CHOICES: &[super::Choice] =
                    &[$(super::Choice { name: $name, weight: $weight }),*];
            }
        )*
        /// Every axis, in the order New scene draws them.
        pub const AXES: &[Axis] = &[$(Axis {
            key: $key,
            title: $title,
            choices: $module::CHOICES,
            rules: $rules,
        }),*];
    };
}

axes! {
    /// The composition: which kinds of layer appear and roughly where.
    ARCHETYPE = archetype "archetype" "Composition" rules &[]; {
        CAMPSITE "campsite" 18,
        OPEN_PLAYA "open playa" 9,
        DUNE_SEA "dune sea" 12,
        RACETRACK "Racetrack" 10,
        JOSHUA_FLAT "Joshua-tree flat" 11,
        BADLANDS "badlands" 10,
        SALT_PAN "salt pan" 10,
        BAJADA "bajada" 11,
        BOULDER_FIELD "boulder field" 9,
    }
    /// The time of day (the named times, in [`TimeOfDay::NAMED`]'s order).
    TIME = time "time" "Time" rules &[]; {
        DAWN "dawn" 10,
        MORNING "morning" 14,
        NOON "noon" 16,
        GOLDEN_HOUR "golden hour" 14,
        DUSK "dusk" 11,
        BLUE_HOUR "blue hour" 6,
        NIGHT "night" 12,
        MOONLIGHT "moonlight" 17,
    }
    /// The sky's weather.
    WEATHER = weather "weather" "Weather" rules WEATHER_RULES; {
        CLEAR "clear sky" 28,
        CUMULUS "fair-weather cumulus" 26,
        CIRRUS "high cirrus" 20,
        BROKEN "broken cloud" 12,
        STORM "storm clouds" 14,
    }
    /// Where the wind comes from, the viewer facing north: the dunes, the
    /// plants' lean, the sailing stones' trails and the clouds follow it.
    WIND = wind "wind" "Wind" rules &[]; {
        WEST "from the west" 30,
        EAST "from the east" 30,
        SOUTH "from the south" 20,
        NORTH "from the north" 20,
    }
    /// The colours of the ground, the stones and the ranges.
    PALETTE = palette "palette" "Palette" rules PALETTE_RULES; {
        PALE "pale clay" 35,
        GOLDEN "golden sand" 27,
        RED "red earth" 20,
        GREY "grey basalt" 18,
        WHITE "white salt" 0,
    }
    /// The floor's surface.
    GROUND = ground "ground" "Ground" rules GROUND_RULES; {
        SMOOTH "smooth clay" 40,
        PAVEMENT "desert pavement" 30,
        CRACKS "mud cracks" 18,
        WASH "a dry wash" 12,
        SAND "sand" 0,
        SALT "salt polygons" 0,
    }
    /// The plants.
    PLANTS = plants "vegetation" "Plants" rules PLANTS_RULES; {
        NONE "no plants" 56,
        SPARSE "sparse creosote" 24,
        CREOSOTE "creosote" 16,
        LONE_JOSHUA "a lone Joshua tree" 4,
        JOSHUAS "Joshua trees" 0,
    }
    /// The stones: how much of the floor they cover, or the Racetrack's.
    STONES = stones "stones" "Stones" rules STONES_RULES; {
        NONE "no stones" 8,
        SCATTERED "scattered stones" 36,
        CLUMPS "clumps of stones" 40,
        DENSE "stony ground" 16,
        BOULDERS "boulders" 0,
        SAILING "sailing stones" 0,
    }
    /// What the eye goes to.
    FOCAL = focal "focal" "Focal feature" rules FOCAL_RULES; {
        TENT "a tent" 25,
        RISE "a near rise" 15,
        NO_TENT "no tent" 60,
        TENTS "tents" 0,
    }
    /// Something seldom seen.
    RARE = rare "rare" "Rare event" rules RARE_RULES; {
        NONE "nothing rare" 88,
        MIRAGE "a mirage" 7,
        DUST "a dust storm" 5,
        GREAT_MOON "a great moon" 0,
    }
    /// Where the eye stands and the lens it looks through (since share-code
    /// format 7, with one ground): the scene's `eye`, `lens` and horizon.
    VANTAGE = vantage "vantage" "Vantage" rules VANTAGE_RULES; {
        STANDING "standing" 32,
        LOW "close to the ground" 20,
        RAISED "from a rise" 22,
        OVERLOOK "from an overlook" 14,
        LONG "through a long lens" 12,
    }
}

use self::rules::{
    FOCAL_RULES, GROUND_RULES, PALETTE_RULES, PLANTS_RULES, RARE_RULES, STONES_RULES,
    VANTAGE_RULES, WEATHER_RULES,
};
use self::{archetype as a, ground as g, plants as pl, stones as st};

/// A scene's traits: one value (its index in the axis's table) per axis of
/// [`AXES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Traits(pub [u8; AXES_COUNT]);

/// The number of axes.
pub const AXES_COUNT: usize = 11;
const _: () = assert!(AXES.len() == AXES_COUNT);

impl std::ops::Index<usize> for Traits {
    type Output = u8;

    fn index(&self, axis: usize) -> &u8 {
        &self.0[axis]
    }
}

impl std::ops::IndexMut<usize> for Traits {
    fn index_mut(&mut self, axis: usize) -> &mut u8 {
        &mut self.0[axis]
    }
}

impl Axis {
    /// The index of the axis called `key`.
    pub fn find(key: &str) -> Option<usize> {
        AXES.iter().position(|a| a.key == key)
    }

    /// The weights of the axis's values given `traits` (their earlier
    /// axes): a rule's that holds, else the table's; one per value.
    pub fn weights(&self, traits: &Traits) -> Vec<u32> {
        match self.rules.iter().find(|r| {
            r.when
                .iter()
                .all(|(axis, values)| values.contains(&traits[*axis]))
        }) {
            Some(rule) => {
                let mut w = vec![0; self.choices.len()];
                for &(value, weight) in rule.weights {
                    w[usize::from(value)] = weight;
                }
                w
            }
            None => self.choices.iter().map(|c| c.weight).collect(),
        }
    }
}

impl Traits {
    /// Each axis's value in words, in axis order.
    pub fn names(&self) -> impl Iterator<Item = (&'static Axis, &'static str)> + '_ {
        AXES.iter()
            .zip(self.0)
            .map(|(axis, v)| (axis, axis.choices[usize::from(v)].name))
    }

    /// The value of `axis` in words.
    pub fn name(&self, axis: usize) -> &'static str {
        AXES[axis].choices[usize::from(self[axis])].name
    }

    /// The traits as lines, "Title: value", as `playa random --traits`
    /// prints them and a picture's traits chunk holds them. A standing
    /// eye goes without saying, as in the sentence: so the pictures made
    /// before the vantage keep their bytes.
    pub fn lines(&self) -> String {
        AXES.iter()
            .enumerate()
            .filter(|&(i, _)| i != VANTAGE || self[VANTAGE] != vantage::STANDING)
            .map(|(i, axis)| format!("{}: {}\n", axis.title, self.name(i)))
            .collect()
    }

    /// The traits in a sentence, most telling first, leaving out what is
    /// not there unless its absence tells: "Dune sea at dawn, wind from
    /// the west, high cirrus, golden sand, no tent".
    pub fn sentence(&self) -> String {
        let mut words = vec![format!(
            "{} at {}",
            capitalized(self.name(ARCHETYPE)),
            self.name(TIME)
        )];
        words.push(format!("wind {}", self.name(WIND)));
        words.push(self.name(WEATHER).to_string());
        words.push(self.name(PALETTE).to_string());
        if !matches!(self[GROUND], g::SAND | g::SALT) || self[ARCHETYPE] != a::DUNE_SEA {
            words.push(self.name(GROUND).to_string());
        }
        if self[PLANTS] != pl::NONE || self[ARCHETYPE] == a::BAJADA {
            words.push(self.name(PLANTS).to_string());
        }
        if !matches!(self[STONES], st::NONE | st::BOULDERS | st::SAILING) {
            words.push(self.name(STONES).to_string());
        }
        words.push(self.name(FOCAL).to_string());
        if self[RARE] != rare::NONE {
            words.push(self.name(RARE).to_string());
        }
        if self[VANTAGE] != vantage::STANDING {
            words.push(self.name(VANTAGE).to_string());
        }
        // A trait said twice (a salt pan's white salt) is said once.
        words.dedup();
        words.join(", ")
    }

    /// The traits `scene` has, read from its settings as New scene sets
    /// them: the composition from its kinds of layer and their marks, the
    /// time from its hour, the weather from its clouds, and so on. A scene
    /// made by New scene reads back as the traits it was drawn with (the
    /// tests hold it); any other is read as the nearest.
    pub fn of(scene: &Scene) -> Traits {
        read::traits(scene)
    }
}

/// `text` with its first letter in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The value of `weights` (one per value) that `unit` (0 to 1) falls on,
/// the values laid end to end by weight.
pub(crate) fn pick(weights: &[u32], unit: f32) -> u8 {
    let total: u32 = weights.iter().sum();
    let mut at = (unit * total as f32) as u32;
    for (i, &w) in weights.iter().enumerate() {
        if at < w {
            return i as u8;
        }
        at -= w;
    }
    // Rounding at the very top: the last value with a weight.
    weights.iter().rposition(|&w| w > 0).unwrap_or(0) as u8
}

/// Draws traits axis by axis, each from its table given the earlier ones
/// (`unit` gives a number in 0..1 per axis). `fixed` holds values that
/// are kept (locked); `allowed` may rule values out (the kept layers'
/// needs): a value it refuses is not drawn unless none is left.
pub(crate) fn roll(
    fixed: &[Option<u8>; AXES_COUNT],
    allowed: impl Fn(&Traits, usize, u8) -> bool,
    mut unit: impl FnMut(usize) -> f32,
) -> Traits {
    let mut traits = Traits([0; AXES_COUNT]);
    for (i, axis) in AXES.iter().enumerate() {
        let u = unit(i);
        if let Some(v) = fixed[i] {
            traits[i] = v;
            continue;
        }
        let mut weights = axis.weights(&traits);
        let open: Vec<u32> = weights
            .iter()
            .enumerate()
            .map(|(v, &w)| if allowed(&traits, i, v as u8) { w } else { 0 })
            .collect();
        if open.iter().any(|&w| w > 0) {
            weights = open;
        }
        traits[i] = pick(&weights, u);
    }
    traits
}

/// Each axis's values' expected shares of New scene's rolls (nothing
/// locked): the tables' weights carried through their rules, worked out
/// exactly over the axes the rules depend on.
pub fn expected_shares() -> Vec<Vec<f64>> {
    let mut shares: Vec<Vec<f64>> = AXES.iter().map(|a| vec![0.0; a.choices.len()]).collect();
    // The axes some rule depends on, each before the axes whose rules
    // name it.
    let conditions: Vec<usize> = (0..AXES_COUNT)
        .filter(|&i| {
            AXES.iter()
                .any(|a| a.rules.iter().any(|r| r.when.iter().any(|(c, _)| *c == i)))
        })
        .collect();
    fn walk(
        conditions: &[usize],
        traits: &mut Traits,
        p: f64,
        shares: &mut [Vec<f64>],
        all: &[usize],
    ) {
        let Some((&axis, rest)) = conditions.split_first() else {
            // Every condition set: the other axes' shares given them.
            for (i, a) in AXES.iter().enumerate() {
                if all.contains(&i) {
                    continue;
                }
                let w = a.weights(traits);
                let total: u32 = w.iter().sum();
                for (v, &w) in w.iter().enumerate() {
                    shares[i][v] += p * f64::from(w) / f64::from(total);
                }
            }
            return;
        };
        let w = AXES[axis].weights(traits);
        let total: u32 = w.iter().sum();
        for (v, &w) in w.iter().enumerate() {
            if w == 0 {
                continue;
            }
            let q = p * f64::from(w) / f64::from(total);
            shares[axis][v] += q;
            traits[axis] = v as u8;
            walk(rest, traits, q, shares, all);
        }
    }
    let mut traits = Traits([0; AXES_COUNT]);
    walk(&conditions, &mut traits, 1.0, &mut shares, &conditions);
    shares
}

/// The value New scene draws for `value` of `axis`: the value itself, but
/// for one it only reads from a scene made by hand, never draws (it
/// pitches no second tent: "tents" are drawn as "a tent").
pub(crate) fn rolled_as(axis: usize, value: u8) -> u8 {
    if axis == FOCAL && value == focal::TENTS {
        focal::TENT
    } else {
        value
    }
}

/// The time of day of a [`TIME`] value.
pub fn time_of(value: u8) -> TimeOfDay {
    TimeOfDay::NAMED[usize::from(value)]
}

/// The [`TIME`] value nearest `time` (an hour between named times goes to
/// the nearest named one, around the clock).
pub(crate) fn time_value(time: TimeOfDay) -> u8 {
    if let Some(i) = TimeOfDay::NAMED.iter().position(|t| *t == time) {
        return i as u8;
    }
    let h = time.hour();
    let gap = |t: &TimeOfDay| {
        let d = (t.hour() - h).abs() % 24.0;
        d.min(24.0 - d)
    };
    TimeOfDay::NAMED
        .iter()
        .enumerate()
        .min_by(|x, y| gap(x.1).total_cmp(&gap(y.1)))
        .map_or(0, |(i, _)| i as u8)
}

/// The time of day whose light the stones' cover is read in: the high
/// sun's, the stones with their short shadows. The cover a picture shows
/// changes with the light (long shadows cover more at the day's ends, and
/// dark stones change the night's dark floor less), but the stones do
/// not: a sweep of the day keeps its Stones trait.
pub const STONES_SEEN_AT: TimeOfDay = TimeOfDay::Noon;

/// Whether `scene` has a visible layer that `is` picks.
pub(crate) fn has(scene: &Scene, is: impl Fn(&Layer) -> bool) -> bool {
    scene.layers.iter().any(|l| l.visible() && is(l))
}

/// The layers of `scene` in the order they are drawn: the scene's own,
/// but in one ground, where the ground's surfaces go under what stands on
/// them ([`drawing_order`](crate::layers::world::drawing_order)).
pub(crate) fn drawn(scene: &Scene) -> Cow<'_, [Layer]> {
    match scene
        .one_ground
        .then(|| crate::layers::world::drawing_order(&scene.layers))
        .flatten()
    {
        Some(order) => order.iter().map(|&i| scene.layers[i].clone()).collect(),
        None => Cow::Borrowed(&scene.layers),
    }
}

/// The layers of `scene` that `is` picks and that show, in the order they
/// are drawn ([`shows`]).
pub(crate) fn shown(scene: &Scene, is: impl Fn(&Layer) -> bool) -> Vec<Layer> {
    let layers = drawn(scene);
    let scale = scene.eye_scale();
    (0..layers.len())
        .filter(|&i| is(&layers[i]) && shows(&layers[i], &layers[i + 1..], scene.horizon, scale))
        .map(|i| layers[i].clone())
        .collect()
}

/// Whether `layer`, drawn under the layers `above` it in a scene whose
/// horizon is at `horizon` (fraction of the height) and whose eye draws
/// what stands on the ground `scale` times as large, shows: it is
/// visible, not transparent, and not hidden whole by an opaque layer
/// drawn over it. The sky hides everything; the floor, and dunes whose
/// sand covers all of it, hide what lies flat on the ground below the
/// horizon (the dunes, whose crests never rise over it, and the
/// Racetrack's playa); a tent shows as
/// [`Tent::is_drawn`](crate::layers::Tent::is_drawn) says.
fn shows(layer: &Layer, above: &[Layer], horizon: f32, scale: f32) -> bool {
    if let Layer::Tent(t) = layer {
        return t.is_drawn(above, horizon, scale);
    }
    let flat = matches!(layer, Layer::Dunes(_) | Layer::Racetrack(_));
    let hides = |l: &Layer| {
        l.visible()
            && l.opacity() >= 1.0
            && match l {
                Layer::Sky(_) => true,
                Layer::Floor(_) => flat,
                Layer::Dunes(d) => flat && d.sheet_is_whole(),
                _ => false,
            }
    };
    layer.visible() && layer.opacity() > 0.0 && !above.iter().any(hides)
}

/// The visible ranges layers of `scene`.
pub(crate) fn ranges(scene: &Scene) -> impl Iterator<Item = &Ranges> {
    scene.layers.iter().filter_map(|l| match l {
        Layer::Ranges(r) if r.visible => Some(r),
        _ => None,
    })
}

/// The automaton's field of `scene` (a valid scene), as the rocks layer
/// turns it into stones, or `None` when its grid cannot be made.
pub fn stones_of(scene: &Scene) -> Option<StoneField> {
    let grid = crate::compose::rock_grid(&scene.quantized()).ok()?;
    Some(StoneField::of(&grid, scene.automaton.topology))
}

/// The floor of `scene` with `stones` on it, as the layers answer how
/// much of it they cover: under [`STONES_SEEN_AT`]'s light whatever the
/// scene's time, so that the same stones read (and New scene sizes them)
/// the same all day and night.
pub fn ground<'a>(scene: &Scene, stones: &'a StoneField) -> Ground<'a> {
    Ground {
        aspect: scene.aspect,
        horizon: scene.horizon,
        time: STONES_SEEN_AT,
        stones,
        scale: scene.eye_scale(),
    }
}

#[cfg(test)]
mod tests;
