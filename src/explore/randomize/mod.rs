//! Finding a scene: "New scene" rolls a whole new look whose parts agree,
//! "Vary" a scene near the current one; locked groups stay as they are.
//!
//! Both are pure functions of the scene, the locks and a roll number (and
//! Vary's strength), so the same roll always gives the same scene, in the
//! app, on the command line (`playa random`) and in the browser.

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

mod describe;

pub use self::describe::describe;
use crate::base::palette::TimeOfDay;
use crate::layers::rocks::cover::StoneField;
use crate::layers::{Ground, Kind, Layer, Rocks, match_kind};
use crate::scene::Scene;
use crate::setting::{Roll, Setting, Value};

/// The lock group of the scene's seed.
pub const SEED: &str = "seed";
/// The lock group of the light: time of day, sun position, horizon.
pub const LIGHT: &str = "light";
/// The lock group of the rock automaton: density, generations, rule,
/// columns.
pub const AUTOMATON: &str = "automaton";

/// The lock group of a setting of [`Scene::SETTINGS`]: the automaton's
/// (`automaton.…`) or the light's (the rest).
pub fn scene_group(setting_name: &str) -> &'static str {
    if setting_name.starts_with("automaton.") {
        AUTOMATON
    } else {
        LIGHT
    }
}

/// Which groups New scene and Vary leave alone: [`SEED`], [`LIGHT`],
/// [`AUTOMATON`], or a layer kind's name (which locks every layer of that
/// kind). Default: only the spiral (an ornament that is off by default
/// should stay as the user left it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Locks {
    /// The locked groups.
    pub locked: BTreeSet<String>,
}

impl Default for Locks {
    fn default() -> Self {
        Locks {
            locked: BTreeSet::from([crate::layers::Spiral::NAME.to_string()]),
        }
    }
}

impl Locks {
    /// Whether `group` is locked.
    pub fn is_locked(&self, group: &str) -> bool {
        self.locked.contains(group)
    }

    /// Locks or unlocks `group`.
    pub fn set(&mut self, group: &str, locked: bool) {
        if locked {
            self.locked.insert(group.to_string());
        } else {
            self.locked.remove(group);
        }
    }
}

/// A new seed from a roll: small numbers (1 to 999 999) that are easy to
/// read, say and type.
pub fn new_seed(roll: u64) -> u64 {
    1 + splitmix64(roll) % 999_999
}

/// One step of SplitMix64: a well-mixed 64-bit function of `x`.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Uniform numbers for one re-roll.
struct Dice(ChaCha8Rng);

impl Dice {
    /// A float in `lo..=hi`, rounded to 3 decimals so presets stay tidy.
    fn float(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.0.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        ((lo + (hi - lo) * unit) * 1000.0).round() / 1000.0
    }

    /// A float in `0..1`.
    fn unit(&mut self) -> f32 {
        (self.0.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }

    /// An integer in `lo..=hi`.
    fn int(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.0.next_u64() % u64::from(hi - lo + 1)) as u32
    }

    /// One item of `items`.
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.0.next_u64() as usize % items.len()]
    }

    /// A value by `roll`; `None` for [`Roll::Keep`].
    fn roll<V: Copy>(
        &mut self,
        roll: &Roll<V>,
        range: impl FnOnce(&mut Self, V, V) -> V,
    ) -> Option<V> {
        match *roll {
            Roll::Keep => None,
            Roll::Range(lo, hi) => Some(range(self, lo, hi)),
            Roll::Pick(items) => Some(*self.pick(items)),
        }
    }

    /// A value nudged by `roll`, or `None` to keep it: a range by
    /// `range(self, lo, hi)`, a pick picked again with chance `chance`.
    fn nudge<V: Copy>(
        &mut self,
        roll: &Roll<V>,
        chance: f32,
        range: impl FnOnce(&mut Self, V, V) -> Option<V>,
    ) -> Option<V> {
        match *roll {
            Roll::Keep => None,
            Roll::Range(lo, hi) => range(self, lo, hi),
            Roll::Pick(items) => (self.unit() < chance).then(|| *self.pick(items)),
        }
    }
}

/// Re-rolls every setting of `settings` (in `t`) that has a [`Roll`], in
/// table order.
fn roll<T>(settings: &[Setting<T>], t: &mut T, dice: &mut Dice) {
    for s in settings {
        match &s.value {
            Value::Float { put, roll, .. } => {
                if let Some(v) = dice.roll(roll, Dice::float) {
                    put(t, v);
                }
            }
            Value::Uint { put, roll, .. } => {
                if let Some(v) = dice.roll(roll, Dice::int) {
                    put(t, v);
                }
            }
            Value::Rgb { put, roll, .. } => {
                if let Some(v) = dice.roll(roll, |_, lo, _| lo) {
                    put(t, v);
                }
            }
            Value::Time { put, roll, .. } => {
                if let Some(v) = dice.roll(roll, |_, lo, _| lo) {
                    put(t, v);
                }
            }
            Value::Rule { put, roll, .. } => {
                if let Some(text) = dice.roll(roll, |_, lo, _| lo) {
                    put(t, text.parse().expect("the rules to roll parse (tested)"));
                }
            }
            Value::Bool { .. } | Value::Topology { .. } => {}
        }
    }
}

/// Times of day New scene picks from: the sunlit ones more often, as
/// among the presets, and every named time of the day.
const TIMES: &[TimeOfDay] = &[
    TimeOfDay::Dawn,
    TimeOfDay::Dawn,
    TimeOfDay::Morning,
    TimeOfDay::Morning,
    TimeOfDay::Noon,
    TimeOfDay::Noon,
    TimeOfDay::Noon,
    TimeOfDay::Noon,
    TimeOfDay::GoldenHour,
    TimeOfDay::GoldenHour,
    TimeOfDay::GoldenHour,
    TimeOfDay::GoldenHour,
    TimeOfDay::Dusk,
    TimeOfDay::Dusk,
    TimeOfDay::BlueHour,
    TimeOfDay::Night,
    TimeOfDay::Night,
    TimeOfDay::Moonlight,
    TimeOfDay::Moonlight,
    TimeOfDay::Moonlight,
];

/// How a rule grows clumps from a soup: the rule, the soup densities and
/// the generations that leave a field of clumps (neither a bare plain nor
/// a carpet). Below about half, the blobby rules' soups die back to
/// clumps; above it they fill the grid. Life thins a dense soup down.
struct Growth {
    rule: &'static str,
    density: (f32, f32),
    generations: &'static [u32],
}

/// A [`Growth`], as one row of [`GROWTHS`].
const fn growth(rule: &'static str, density: (f32, f32), generations: &'static [u32]) -> Growth {
    Growth {
        rule,
        density,
        generations,
    }
}

/// Life, the classic look.
const LIFE: Growth = growth("B3/S23", (0.55, 0.85), &[2, 4, 6, 8, 8, 10, 12, 16]);

/// The growths New scene picks from (Life twice: the classic look is the
/// most likely).
const GROWTHS: &[Growth] = &[
    LIFE,
    LIFE,
    growth("B36/S23", (0.6, 0.9), &[4, 6, 8, 12]),
    growth("B4678/S35678", (0.3, 0.45), &[4, 6, 8, 12, 16]),
    growth("B3/S45678", (0.35, 0.5), &[4, 6, 8, 12, 16]),
    growth("B35678/S5678", (0.4, 0.48), &[4, 6, 8, 12]),
    growth("B3678/S34678", (0.2, 0.3), &[2, 4, 8, 12, 16]),
    growth("B5678/S45678", (0.35, 0.45), &[2, 4, 8, 12, 16]),
];

/// Rolls New scene makes of the automaton and the stones before it takes
/// the last one as it is.
const ATTEMPTS: u64 = 12;

/// The share of the floor New scene aims its stones at, rolled evenly: the
/// presets cover from 2% (salt flat) to 53% (boulder field).
const TARGET_COVER: (f32, f32) = (0.05, 0.36);

/// The share of the floor a New scene's stones may be estimated to cover
/// and still be kept.
const KEPT_COVER: (f32, f32) = (0.025, 0.52);

/// Stone sizes (fraction of the height) New scene keeps within, near and
/// far: smaller ones are sand, larger ones boulders for giants.
const NEAR_SIZE: (f32, f32) = (0.016, 0.1);
const FAR_SIZE: (f32, f32) = (0.006, 0.05);

/// The largest gap New scene leaves between the horizon and the farthest
/// stones: wider, the floor shows a bare band under the ranges.
const MAX_TOP: f32 = 0.08;

/// Clearance (fraction of the height) New scene keeps between the horizon
/// and the highest reach of its stones.
const SKY_MARGIN: f32 = 0.004;

/// The automaton's field of `scene` (a valid scene), as the rocks layer
/// turns it into stones, or `None` when its grid cannot be made.
pub(super) fn stones_of(scene: &Scene) -> Option<StoneField> {
    let grid = crate::compose::rock_grid(&scene.quantized()).ok()?;
    Some(StoneField::of(&grid, scene.automaton.topology))
}

/// The floor of `scene` with `stones` on it, as the layers answer how
/// much of it they cover.
pub(super) fn ground<'a>(scene: &Scene, stones: &'a StoneField) -> Ground<'a> {
    Ground {
        aspect: scene.aspect,
        horizon: scene.horizon,
        time: scene.time,
        stones,
    }
}

/// A stable hash of a scene (of its share code), so that the same roll
/// from different scenes makes different scenes.
pub fn scene_hash(scene: &Scene) -> u64 {
    // FNV-1a: stable across versions and platforms, unlike std's hasher.
    crate::share::encode(scene)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// The dice of one stream of a roll: each group (and each attempt at one)
/// draws from its own, so locking one group does not change what the
/// others roll.
fn stream(roll: u64, stream: u64) -> Dice {
    Dice(ChaCha8Rng::seed_from_u64(splitmix64(
        roll ^ splitmix64(stream ^ 0x5354_5245_414d),
    )))
}

/// "New scene": a new look rolled from `scene`, its unlocked groups chosen
/// to agree: the light and the ornaments (a lantern only after sunset, no
/// constellation by day, and no day sky behind a locked night ornament),
/// a rule and soup that leave clumps, and stones sized to cover between
/// about a twentieth and two fifths of the floor, kept below the horizon.
/// Locked groups stay as they are. Visibility (but for the night's
/// ornaments), opacity, colours the tables keep, the order of the layers
/// and the aspect never change.
///
/// Pure: the same scene, locks and roll give the same scene; the same roll
/// from another scene gives another.
pub fn new_scene(scene: &Scene, locks: &Locks, roll_number: u64) -> Scene {
    let roll_number = splitmix64(roll_number ^ scene_hash(scene));
    let dice = |group: u64| stream(roll_number, group);
    let mut s = scene.clone();
    if !locks.is_locked(SEED) {
        s.seed = new_seed(dice(1).0.next_u64());
    }
    if !locks.is_locked(LIGHT) {
        let mut d = dice(2);
        for setting in Scene::SETTINGS
            .iter()
            .filter(|x| scene_group(x.name) == LIGHT && x.name != "time")
        {
            roll(std::slice::from_ref(setting), &mut s, &mut d);
        }
        s.time = *d.pick(times_for(&s, locks));
    }
    for (i, layer) in s.layers.iter_mut().enumerate() {
        if locks.is_locked(layer.name()) {
            continue;
        }
        let mut d = dice(16 + i as u64);
        fn roll_layer<K: Kind>(l: &mut K, d: &mut Dice) {
            roll(K::SETTINGS, l, d);
        }
        match_kind!(layer, l => roll_layer(l, &mut d));
    }
    dress_for_the_time(&mut s, locks, &mut dice(4));
    s.quantize();
    // The automaton and the stones, rolled until they make a field of
    // clumps that covers the floor as the presets do.
    let free_automaton = !locks.is_locked(AUTOMATON);
    let free_rocks = !locks.is_locked(Rocks::NAME);
    let mut last = s.clone();
    for attempt in 0..ATTEMPTS {
        let mut candidate = s.clone();
        if free_automaton {
            roll_growth(&mut candidate, &mut dice(3 + 16 * attempt));
            candidate.quantize();
        }
        let Some(field) = stones_of(&candidate) else {
            break;
        };
        if free_rocks {
            fit_rocks(&mut candidate, &field, &mut dice(5 + 16 * attempt));
        }
        if fits(&candidate, &field) || !(free_automaton || free_rocks) {
            return candidate;
        }
        last = candidate;
    }
    last
}

/// The times of day that agree with `scene`'s locked layers: only night
/// behind a locked, visible spiral (a constellation); after sunset under
/// a locked tent with its lantern lit; any other time.
fn times_for(scene: &Scene, locks: &Locks) -> &'static [TimeOfDay] {
    let locked = |l: &Layer| locks.is_locked(l.name()) && l.visible();
    if scene
        .layers
        .iter()
        .any(|l| locked(l) && matches!(l, Layer::Spiral(_)))
    {
        &[TimeOfDay::Night, TimeOfDay::Moonlight]
    } else if scene
        .layers
        .iter()
        .any(|l| locked(l) && matches!(l, Layer::Tent(t) if t.lantern > 0.0))
    {
        &[
            TimeOfDay::Dusk,
            TimeOfDay::BlueHour,
            TimeOfDay::Night,
            TimeOfDay::Moonlight,
        ]
    } else {
        TIMES
    }
}

/// The night's ornaments of the unlocked layers, as `scene`'s time of day
/// has them: a tent's lantern lit at night (sometimes at dusk), out by
/// day; the spiral, a constellation, hidden but at night.
fn dress_for_the_time(scene: &mut Scene, locks: &Locks, d: &mut Dice) {
    let time = scene.time;
    for layer in &mut scene.layers {
        if locks.is_locked(layer.name()) {
            continue;
        }
        match layer {
            Layer::Tent(t) => {
                let lit = d.float(0.0, 1.0);
                t.lantern = match time {
                    TimeOfDay::Night | TimeOfDay::Moonlight => d.float(0.6, 1.2),
                    TimeOfDay::Dusk | TimeOfDay::BlueHour if lit < 0.5 => d.float(0.3, 0.8),
                    t if t.is_dark() => d.float(0.6, 1.2),
                    _ => 0.0,
                };
            }
            Layer::Spiral(s) if !time.is_dark() => s.visible = false,
            _ => {}
        }
    }
}

/// Rolls the automaton's rule, soup and generations from [`GROWTHS`],
/// and its columns from its table.
fn roll_growth(scene: &mut Scene, d: &mut Dice) {
    let growth = d.pick(GROWTHS);
    let a = &mut scene.automaton;
    a.rule = growth
        .rule
        .parse()
        .expect("the growths' rules parse (tested)");
    a.density = d.float(growth.density.0, growth.density.1);
    a.generations = *d.pick(growth.generations);
    if let Some(columns) = crate::setting::find(Scene::SETTINGS, "automaton.columns") {
        roll(std::slice::from_ref(columns), scene, d);
    }
}

/// Sizes the stones of every rocks layer of `scene` to cover a rolled
/// share of the floor ([`TARGET_COVER`]) of `field`, and sets their gap
/// below the horizon so that none reaches into the sky.
fn fit_rocks(scene: &mut Scene, field: &StoneField, d: &mut Dice) {
    let target = d.float(TARGET_COVER.0, TARGET_COVER.1);
    let view = scene.clone();
    for layer in &mut scene.layers {
        let Layer::Rocks(rocks) = layer else { continue };
        size_stones(field, &view, rocks, target);
        clear_the_horizon(field, &view, rocks);
        layer.quantize();
    }
}

/// Scales the stones of `rocks` (near and far alike, within [`NEAR_SIZE`]
/// and [`FAR_SIZE`]) to cover about `target` of the floor of `field` in
/// `scene`.
fn size_stones(field: &StoneField, scene: &Scene, rocks: &mut Rocks, target: f32) {
    // Within the bounds each, any scale between `lo` and `hi` keeps both.
    rocks.near_size = rocks.near_size.clamp(NEAR_SIZE.0, NEAR_SIZE.1);
    rocks.far_size = rocks.far_size.clamp(FAR_SIZE.0, FAR_SIZE.1);
    // Cover is about 1 − e^(−k·area), and the area goes as the size
    // squared: a few rounds of that settle the size.
    for _ in 0..3 {
        let now = rocks.cover(&ground(scene, field)).floor.clamp(1e-4, 0.99);
        let scale = ((1.0 - target).ln() / (1.0 - now).ln()).sqrt();
        let lo = (NEAR_SIZE.0 / rocks.near_size).max(FAR_SIZE.0 / rocks.far_size);
        let hi = (NEAR_SIZE.1 / rocks.near_size).min(FAR_SIZE.1 / rocks.far_size);
        let scale = scale.clamp(lo, hi);
        rocks.near_size *= scale;
        rocks.far_size *= scale;
    }
}

/// Lowers the farthest row of `rocks` until, on `field` in `scene`, its
/// stones clear the horizon (the rows squeeze together as the gap grows:
/// a few rounds settle it).
fn clear_the_horizon(field: &StoneField, scene: &Scene, rocks: &mut Rocks) {
    for _ in 0..4 {
        let reach = rocks.cover(&ground(scene, field)).reach + SKY_MARGIN;
        if reach <= 0.0 {
            break;
        }
        rocks.top = (rocks.top + reach).min(0.5);
    }
}

/// Whether `scene`'s stones, on `field`, stay inside the presets'
/// envelope: clumps, a share of the floor in [`KEPT_COVER`], and below the
/// horizon with a gap of at most [`MAX_TOP`].
fn fits(scene: &Scene, field: &StoneField) -> bool {
    misfit(scene, field) == 0.0
}

/// "Vary": a scene near `scene`, `strength` (0 to 1, clamped) away,
/// drawn inside the ranges New scene rolls (never out to a setting's outer
/// limits). The seed moves to a nearby one (unless locked). Each unlocked
/// number that New scene rolls moves `strength` of the way toward a value
/// New scene could roll; a discrete one (a pick from a list, the time of
/// day, the rule's growth) is picked again, as New scene picks it, with
/// chance `strength`. At strength 1 Vary goes as far as New scene.
///
/// What New scene keeps in agreement stays so: a changed time of day
/// lights or puts out the lantern; the automaton must leave clumps (a
/// nudge that does not is tried again, each try a little bolder); the
/// stones cover a share of the floor between what they covered and a
/// share New scene would roll, and stay below the horizon. At strength 0
/// only the seed changes.
///
/// Pure: the same scene, locks, roll and strength give the same scene.
pub fn vary(scene: &Scene, locks: &Locks, roll_number: u64, strength: f32) -> Scene {
    let strength = if strength.is_finite() {
        strength.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let roll_number = splitmix64(roll_number ^ scene_hash(scene));
    let dice = |group: u64| stream(roll_number, 0x100 + group);
    let mut s = scene.clone();
    if !locks.is_locked(SEED) {
        s.seed = scene.seed.wrapping_add(1 + dice(1).0.next_u64() % 999);
    }
    if strength == 0.0 {
        return s;
    }
    if !locks.is_locked(LIGHT) {
        let mut d = dice(2);
        for setting in Scene::SETTINGS
            .iter()
            .filter(|x| scene_group(x.name) == LIGHT && x.name != "time")
        {
            toward(std::slice::from_ref(setting), &mut s, &mut d, strength);
        }
        if d.unit() < strength {
            s.time = *d.pick(times_for(&s, locks));
        }
    }
    for (i, layer) in s.layers.iter_mut().enumerate() {
        if locks.is_locked(layer.name()) {
            continue;
        }
        let mut d = dice(16 + i as u64);
        fn toward_layer<K: Kind>(l: &mut K, d: &mut Dice, strength: f32) {
            toward(K::SETTINGS, l, d, strength);
        }
        match_kind!(layer, l => toward_layer(l, &mut d, strength));
    }
    if s.time != scene.time {
        dress_for_the_time(&mut s, locks, &mut dice(4));
    }
    s.quantize();
    // The automaton and the stones, tried until they make a field of
    // clumps that covers the floor as New scene's do; else the try that
    // came nearest.
    let free_automaton = !locks.is_locked(AUTOMATON);
    let free_rocks = !locks.is_locked(Rocks::NAME);
    // The share of the floor each rocks layer covered, where the scene's
    // field was one of clumps (else the estimate means nothing).
    let had: Vec<Option<f32>> = match stones_of(scene) {
        Some(before) if before.is_clumpy() => scene
            .layers
            .iter()
            .map(|l| match l {
                Layer::Rocks(r) => Some(r.cover(&ground(scene, &before)).floor),
                _ => None,
            })
            .collect(),
        _ => vec![None; scene.layers.len()],
    };
    let mut nearest: Option<(f32, Scene)> = None;
    for attempt in 0..ATTEMPTS {
        let mut candidate = s.clone();
        if free_automaton {
            // Each try after the first a little bolder, the last as bold
            // as New scene: a dense field a gentle nudge cannot thin still
            // finds clumps.
            let bolder = attempt as f32 / (ATTEMPTS - 1) as f32;
            let strength = strength + (1.0 - strength) * bolder;
            vary_growth(&mut candidate, &mut dice(3 + 16 * attempt), strength);
            candidate.quantize();
        }
        let Some(field) = stones_of(&candidate) else {
            break;
        };
        if free_rocks && field.is_clumpy() {
            let mut d = dice(5 + 16 * attempt);
            let view = candidate.clone();
            for (layer, had) in candidate.layers.iter_mut().zip(&had) {
                let Layer::Rocks(rocks) = layer else { continue };
                let rolled = d.float(TARGET_COVER.0, TARGET_COVER.1);
                let target = match *had {
                    Some(had) if (KEPT_COVER.0..=KEPT_COVER.1).contains(&had) => {
                        had + strength * (rolled - had)
                    }
                    _ => rolled,
                };
                size_stones(&field, &view, rocks, target);
                clear_the_horizon(&field, &view, rocks);
                layer.quantize();
            }
        }
        let misfit = misfit(&candidate, &field);
        if misfit == 0.0 || !(free_automaton || free_rocks) {
            return candidate;
        }
        if nearest.as_ref().is_none_or(|(m, _)| misfit < *m) {
            nearest = Some((misfit, candidate));
        }
    }
    nearest.map_or(s, |(_, scene)| scene)
}

/// Varies `scene`'s automaton `strength` of the way: with chance
/// `strength` a growth New scene would roll; else the soup's density moves
/// toward one its rule's growth rolls (where the rule is one of
/// [`GROWTHS`]), the generations are picked again from that growth's with
/// chance `strength`, and so are the columns from their table.
fn vary_growth(scene: &mut Scene, d: &mut Dice, strength: f32) {
    if d.unit() < strength {
        roll_growth(scene, d);
        return;
    }
    let a = &mut scene.automaton;
    if let Some(growth) = GROWTHS
        .iter()
        .find(|g| g.rule.parse::<crate::Rule>().is_ok_and(|r| r == a.rule))
    {
        let rolled = d.float(growth.density.0, growth.density.1);
        a.density += strength * (rolled - a.density);
        if d.unit() < strength {
            a.generations = *d.pick(growth.generations);
        }
    } else if let Some(density) = crate::setting::find(Scene::SETTINGS, "automaton.density") {
        toward(std::slice::from_ref(density), scene, d, strength);
    }
    if let Some(columns) = crate::setting::find(Scene::SETTINGS, "automaton.columns") {
        toward(std::slice::from_ref(columns), scene, d, strength);
    }
}

/// How far `scene`'s stones, on `field`, are outside the envelope that
/// [`fits`] checks: 0 inside, more the farther out.
fn misfit(scene: &Scene, field: &StoneField) -> f32 {
    if !field.is_clumpy() {
        return 10.0;
    }
    scene
        .layers
        .iter()
        .map(|layer| match layer {
            Layer::Rocks(r) if r.visible => {
                let crate::layers::Cover {
                    floor: cover,
                    reach,
                    ..
                } = r.cover(&ground(scene, field));
                (KEPT_COVER.0 - cover).max(0.0)
                    + (cover - KEPT_COVER.1).max(0.0)
                    + reach.max(0.0)
                    + (r.top - MAX_TOP).max(0.0)
            }
            _ => 0.0,
        })
        .sum()
}

/// Moves every setting of `settings` (in `t`) that has a [`Roll`]
/// `strength` of the way toward a value New scene could roll: a number
/// toward one drawn from its rolling range (so it stays between where it
/// was and that range), a discrete value picked again with chance
/// `strength`.
fn toward<T>(settings: &[Setting<T>], t: &mut T, dice: &mut Dice, strength: f32) {
    for s in settings {
        match &s.value {
            Value::Float { get, put, roll, .. } => {
                let range = |d: &mut Dice, lo: f32, hi: f32| {
                    let v = get(t);
                    Some(v + strength * (d.float(lo, hi) - v))
                };
                if let Some(v) = dice.nudge(roll, strength, range) {
                    put(t, v);
                }
            }
            Value::Uint { get, put, roll, .. } => {
                let range = |d: &mut Dice, lo: u32, hi: u32| {
                    let v = get(t) as f32;
                    let v = v + strength * (d.int(lo, hi) as f32 - v);
                    Some(v.round().max(0.0) as u32)
                };
                if let Some(v) = dice.nudge(roll, strength, range) {
                    put(t, v);
                }
            }
            Value::Rgb { put, roll, .. } => {
                if let Some(v) = dice.nudge(roll, strength, |_, _, _| None) {
                    put(t, v);
                }
            }
            Value::Time { put, roll, .. } => {
                if let Some(v) = dice.nudge(roll, strength, |_, _, _| None) {
                    put(t, v);
                }
            }
            Value::Rule { put, roll, .. } => {
                if let Some(text) = dice.nudge(roll, strength, |_, _, _| None) {
                    put(t, text.parse().expect("the rules to roll parse (tested)"));
                }
            }
            Value::Bool { .. } | Value::Topology { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests;
