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

mod build;
mod describe;
mod flaws;
mod vary;

pub use self::describe::describe;
pub use self::flaws::flaws;
pub use self::vary::vary;
use crate::base::palette::TimeOfDay;
use crate::layers::rocks::cover::StoneField;
use crate::layers::{Kind, Layer, Rocks, match_kinds};
use crate::scene::{MAX_LAYERS, Scene};
use crate::setting::{Roll, Setting, Value};
pub use crate::traits::{self, Traits};
pub(crate) use crate::traits::{ground, stones_of};

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

/// The largest gap New scene leaves between the horizon and the farthest
/// stones: wider, the floor shows a bare band under the ranges.
const MAX_TOP: f32 = 0.08;

/// Clearance (fraction of the height) New scene keeps between the horizon
/// and the highest reach of its stones.
const SKY_MARGIN: f32 = 0.004;

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

/// "New scene": a new picture rolled from `scene`. First its traits are
/// drawn from their tables ([`traits`]): the composition (which kinds of
/// layer, and roughly where), the time, the weather, the wind, the
/// palette, the ground, the plants, the stones, the focal feature and a
/// rare event. Then the scene is built from them: the composition's
/// layers, each rolled from its table, the traits written into their
/// settings, a rule and soup that leave clumps, and stones sized to cover
/// the share of the floor their trait says, below the horizon. A roll that
/// is not showable ([`flaws`]) is rolled again, up to a dozen times.
///
/// Locks keep what they name as it is: the seed, the light, the
/// automaton, a kind's layers (which keeps the traits they show: locked
/// dunes keep a dune sea), or a trait (its value; the details are rolled).
/// The aspect never changes.
///
/// Pure: the same scene, locks and roll give the same scene; the same roll
/// from another scene gives another.
pub fn new_scene(scene: &Scene, locks: &Locks, roll_number: u64) -> Scene {
    let roll_number = splitmix64(roll_number ^ scene_hash(scene));
    let dice = |group: u64| stream(roll_number, group);
    let fixed = fixed_traits(scene, locks);
    let mut d = dice(7);
    let traits = traits::roll(&fixed, allowed(scene, locks, &fixed), |_| d.unit());
    let mut base = scene.clone();
    if !locks.is_locked(SEED) {
        base.seed = new_seed(dice(1).0.next_u64());
    }
    made(&base, locks, &traits, roll_number, 0)
}

/// A showable scene with `traits` from `base` (its seed, aspect and what
/// `locks` keep), its details rolled from stream `salt` of `roll_number`:
/// the first of a dozen tries that is showable and reads back as
/// `traits`, else the one with the fewest flaws.
fn made(base: &Scene, locks: &Locks, traits: &Traits, roll_number: u64, salt: u64) -> Scene {
    let mut best: Option<(usize, Scene)> = None;
    for attempt in 0..ATTEMPTS {
        let dice = |group: u64| stream(roll_number, salt + group + 0x1_0000 * attempt);
        let mut s = build::scene(traits, base, locks, &dice);
        dress_for_the_time(&mut s, locks, &mut dice(4));
        s.quantize();
        let target = crate::traits::marks::stone_target(traits[traits::STONES]);
        let mut s = fit_stones(&s, locks, &dice, target);
        within_limits(&mut s, locks);
        let flaws = flaws(&s);
        let wrong = usize::from(Traits::of(&s) != *traits);
        if flaws.is_empty() && wrong == 0 {
            return s;
        }
        let score = flaws.len() * 2 + wrong;
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            best = Some((score, s));
        }
    }
    best.map(|(_, s)| s).unwrap_or_else(|| base.clone())
}

/// `s` brought within the limits every scene keeps ([`Scene::validate`]):
/// its number of layers and its cost. New scene's own layers are dropped,
/// the costliest first, but never its last sky or ground, nor the layers
/// of a locked kind. What is still over (locked layers that leave no
/// room, see [`cannot_roll`]) stays, and [`flaws`] says so.
fn within_limits(s: &mut Scene, locks: &Locks) {
    loop {
        // (The check first: it runs the automaton only when it must.)
        if s.layers.len() <= MAX_LAYERS && s.check_cost().is_ok() {
            return;
        }
        let cost = s.cost();
        let droppable = |i: &usize| !locks.is_locked(s.layers[*i].name()) && !needed(s, *i);
        let costliest = (0..s.layers.len())
            .filter(droppable)
            .max_by(|&a, &b| cost.layers[a].total_cmp(&cost.layers[b]).then(a.cmp(&b)));
        match costliest {
            Some(i) => {
                s.layers.remove(i);
            }
            None => return,
        }
    }
}

/// Whether layer `i` of `s` is its last visible sky or ground, which a
/// picture needs ([`flaws`]).
fn needed(s: &Scene, i: usize) -> bool {
    let sky = |l: &Layer| l.visible() && matches!(l, Layer::Sky(_));
    let ground = |l: &Layer| {
        l.visible() && matches!(l, Layer::Floor(_) | Layer::Dunes(_) | Layer::Racetrack(_))
    };
    let only = |is: &dyn Fn(&Layer) -> bool| {
        is(&s.layers[i]) && s.layers.iter().filter(|l| is(l)).count() == 1
    };
    only(&sky) || only(&ground)
}

/// Why New scene and Vary cannot make a scene from `scene` with `locks`,
/// in words; `None` when they can. They keep the locked kinds' layers as
/// they are, and need a sky and a ground of their own beside them: when
/// those cannot fit within a scene's limits (its number of layers, its
/// cost), no roll can.
pub fn cannot_roll(scene: &Scene, locks: &Locks) -> Option<String> {
    let locked: Vec<&Layer> = scene
        .layers
        .iter()
        .filter(|l| locks.is_locked(l.name()))
        .collect();
    let mut least = Scene {
        layers: locked.iter().map(|l| (*l).clone()).collect(),
        ..scene.clone()
    };
    if !locked.iter().any(|l| matches!(l, Layer::Sky(_))) {
        least.layers.insert(0, Layer::Sky(Default::default()));
    }
    if !locked
        .iter()
        .any(|l| matches!(l, Layer::Floor(_) | Layer::Dunes(_) | Layer::Racetrack(_)))
    {
        least.layers.insert(1, Layer::Floor(Default::default()));
    }
    let mut kinds: Vec<&str> = locked.iter().map(|l| l.name()).collect();
    kinds.dedup();
    let kinds = kinds.join(", ");
    if least.layers.len() > MAX_LAYERS {
        return Some(format!(
            "New scene keeps the {} locked layers ({kinds}) and needs a sky and a ground \
             beside them, more than a scene's {MAX_LAYERS} layers: unlock {kinds}, or remove \
             some of those layers",
            locked.len()
        ));
    }
    if let Err(e) = least.check_cost() {
        return Some(format!(
            "New scene keeps the {} locked layers ({kinds}), and with a sky and a ground \
             beside them {e}; or unlock {kinds}",
            locked.len()
        ));
    }
    None
}

/// `s` with its automaton and stones rolled until they make a field of
/// clumps whose stones cover a share of the floor in `target`'s range
/// (aimed at its inner range), below the horizon; else the nearest try.
/// Locked, the automaton and the stones stay as they are.
fn fit_stones(
    s: &Scene,
    locks: &Locks,
    dice: &dyn Fn(u64) -> Dice,
    target: Option<((f32, f32), (f32, f32))>,
) -> Scene {
    let free_automaton = !locks.is_locked(AUTOMATON);
    let free_rocks = !locks.is_locked(Rocks::NAME);
    let kept = target.map_or(KEPT_COVER, |(_, range)| range);
    let mut nearest: Option<(f32, Scene)> = None;
    for attempt in 0..ATTEMPTS {
        let mut candidate = s.clone();
        if free_automaton {
            roll_growth(&mut candidate, &mut dice(3 + 16 * attempt));
            candidate.quantize();
        }
        let Some(field) = stones_of(&candidate) else {
            break;
        };
        if free_rocks && field.is_clumpy() {
            let mut d = dice(5 + 16 * attempt);
            let aim = target.map_or(TARGET_COVER, |(aim, _)| aim);
            fit_rocks(&mut candidate, &field, d.float(aim.0, aim.1));
        }
        let misfit = misfit(&candidate, &field, kept);
        if misfit == 0.0 || !(free_automaton || free_rocks) {
            return candidate;
        }
        if nearest.as_ref().is_none_or(|(m, _)| misfit < *m) {
            nearest = Some((misfit, candidate));
        }
    }
    nearest.map_or_else(|| s.clone(), |(_, scene)| scene)
}

/// The traits `locks` keep from `scene`: a locked trait's, and those a
/// locked kind's layers show (locked dunes keep the dune sea, a locked
/// tent the tent, locked clouds the weather); the light keeps the time
/// and the wind.
fn fixed_traits(scene: &Scene, locks: &Locks) -> [Option<u8>; traits::AXES_COUNT] {
    let mut fixed = [None; traits::AXES_COUNT];
    let mut axes: Vec<usize> = (0..traits::AXES_COUNT)
        .filter(|&i| locks.is_locked(traits::AXES[i].key))
        .collect();
    if locks.is_locked(LIGHT) {
        axes.extend([traits::TIME, traits::WIND]);
    }
    // The axes whose layers are kept as they are: those read back as
    // they were, the others as New scene draws them.
    let mut kept = Vec::new();
    for layer in &scene.layers {
        if !locks.is_locked(layer.name()) {
            continue;
        }
        kept.extend_from_slice(match layer {
            Layer::Dunes(_) | Layer::Racetrack(_) | Layer::Relief(_) => {
                &[traits::ARCHETYPE, traits::GROUND]
            }
            Layer::Rocks(_) => &[traits::STONES],
            Layer::Plants(_) => &[traits::PLANTS],
            Layer::Clouds(_) => &[traits::WEATHER],
            Layer::Floor(_) => &[traits::GROUND, traits::PALETTE],
            Layer::Tent(_) => &[traits::FOCAL],
            Layer::Sky(_) | Layer::Ranges(_) | Layer::Spiral(_) => &[],
        });
    }
    if axes.is_empty() && kept.is_empty() {
        return fixed;
    }
    let had = Traits::of(scene);
    for axis in axes {
        fixed[axis] = Some(traits::rolled_as(axis, had[axis]));
    }
    for axis in kept {
        fixed[axis] = Some(had[axis]);
    }
    fixed
}

/// Which values New scene may draw, given what `locks` keep of `scene`:
/// a composition must allow the kept traits (a kept tent rules out the
/// dune sea), and the time must suit the kept ornaments ([`times_for`]).
fn allowed<'a>(
    scene: &'a Scene,
    locks: &'a Locks,
    fixed: &'a [Option<u8>; traits::AXES_COUNT],
) -> impl Fn(&Traits, usize, u8) -> bool + 'a {
    let times: Vec<u8> = times_for(scene, locks)
        .iter()
        .map(|t| traits::time_value(*t))
        .collect();
    move |drawn: &Traits, axis: usize, value: u8| {
        if axis == traits::TIME && !times.contains(&value) {
            return false;
        }
        // The kept values of later axes must still have a weight.
        let mut t = *drawn;
        t[axis] = value;
        for (j, v) in fixed.iter().enumerate().skip(axis + 1) {
            if let Some(v) = v {
                t[j] = *v;
            }
        }
        fixed.iter().enumerate().skip(axis + 1).all(|(j, v)| {
            v.is_none_or(|v| traits::AXES[j].weights(&t)[usize::from(traits::rolled_as(j, v))] > 0)
        })
    }
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
    let sand_look = scene.look >= crate::base::palette::LOOK_SAND;
    let scale = crate::layers::world::scale_of(scene.one_ground, scene.eye, &scene.layers);
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
                // After dark the lit tent is what the eye finds: near and
                // large, from the second look.
                // (Seen from over the dunes things on the ground are drawn
                // smaller: the tent is made as much larger, within its
                // range.)
                if sand_look && time.is_dark() {
                    t.size = (t.size.max(0.3) / scale).min(1.0);
                    t.y = t.y.max(0.93);
                }
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

/// Sizes the stones of every rocks layer of `scene` to cover `target` of
/// the floor of `field`, and sets their gap below the horizon so that
/// none reaches into the sky.
fn fit_rocks(scene: &mut Scene, field: &StoneField, target: f32) {
    let view = scene.clone();
    for layer in &mut scene.layers {
        let Layer::Rocks(rocks) = layer else { continue };
        size_stones(field, &view, rocks, target);
        clear_the_horizon(field, &view, rocks);
        layer.quantize();
    }
}

/// Scales the stones of `rocks` (near and far alike, within the bounds of
/// their kind, boulders or not) to cover about `target` of the floor of
/// `field` in `scene`.
fn size_stones(field: &StoneField, scene: &Scene, rocks: &mut Rocks, target: f32) {
    // The bounds are a standing eye's: another eye draws the stones
    // `scale` times as large, so they are sized by its inverse (within
    // what a rocks layer may hold).
    let scale = scene.eye_scale();
    let boulders = rocks.near_size * scale >= crate::traits::marks::BOULDER_SIZE;
    let (near, far) = crate::traits::marks::stone_sizes(if boulders {
        traits::stones::BOULDERS
    } else {
        traits::stones::CLUMPS
    });
    let (lo, hi) = Rocks::SIZE_LIMITS;
    let bound = |(a, b): (f32, f32)| ((a / scale).clamp(lo, hi), (b / scale).clamp(lo, hi));
    let (near, far) = (bound(near), bound(far));
    // Within the bounds each, any scale between `lo` and `hi` keeps both.
    rocks.near_size = rocks.near_size.clamp(near.0, near.1);
    rocks.far_size = rocks.far_size.clamp(far.0, far.1);
    // Cover is about 1 − e^(−k·area), and the area goes as the size
    // squared: a few rounds of that settle the size.
    for _ in 0..3 {
        let now = rocks.cover(&ground(scene, field)).floor.clamp(1e-4, 0.99);
        let scale = ((1.0 - target).ln() / (1.0 - now).ln()).sqrt();
        let lo = (near.0 / rocks.near_size).max(far.0 / rocks.far_size);
        let hi = (near.1 / rocks.near_size).min(far.1 / rocks.far_size);
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

/// How far `scene`'s stones, on `field`, are outside the envelope: clumps,
/// a share of the floor in `kept`, below the horizon with a gap of at most
/// [`MAX_TOP`]. 0 inside, more the farther out.
fn misfit(scene: &Scene, field: &StoneField, kept: (f32, f32)) -> f32 {
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
                (kept.0 - cover).max(0.0)
                    + (cover - kept.1).max(0.0)
                    + reach.max(0.0)
                    + (r.top - MAX_TOP).max(0.0)
            }
            _ => 0.0,
        })
        .sum()
}

#[cfg(test)]
mod tests;
