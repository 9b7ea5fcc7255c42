//! "Randomize": re-roll every unlocked parameter group within ranges that
//! keep the picture a plausible desert.
//!
//! A re-roll is a pure function of the scene, the locks and a roll number,
//! so the same roll always gives the same scene.

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::layers::{Kind, match_kind};
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

/// Which groups are locked against "Randomize": [`SEED`], [`LIGHT`],
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

/// "New scene": `scene` with every unlocked group re-rolled from `roll`.
/// Visibility, opacity and the order of the layers are never changed, nor
/// the aspect.
pub fn new_scene(scene: &Scene, locks: &Locks, roll_number: u64) -> Scene {
    let mut s = scene.clone();
    // Each group draws from its own stream, so locking one group does not
    // change what the others roll.
    let dice = |group: u64| {
        Dice(ChaCha8Rng::seed_from_u64(splitmix64(
            roll_number ^ (group << 56),
        )))
    };
    if !locks.is_locked(SEED) {
        s.seed = new_seed(dice(1).0.next_u64());
    }
    for (stream, group) in [(2, LIGHT), (3, AUTOMATON)] {
        if !locks.is_locked(group) {
            let mut d = dice(stream);
            for setting in Scene::SETTINGS
                .iter()
                .filter(|x| scene_group(x.name) == group)
            {
                roll(std::slice::from_ref(setting), &mut s, &mut d);
            }
        }
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
    s
}

/// "Vary": a scene near `scene`, `strength` (0 to 1, clamped) away. The
/// seed always changes (unless locked); each unlocked setting that New
/// scene rolls is nudged by up to `strength` of its rolling range, and a
/// discrete one (a pick from a list, the time of day, the rule) changes
/// with a chance that grows with the strength, rarely at low strengths.
/// At strength 0 only the seed changes. Pure: the same inputs give the
/// same scene.
pub fn vary(scene: &Scene, locks: &Locks, roll_number: u64, strength: f32) -> Scene {
    let strength = if strength.is_finite() {
        strength.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut s = scene.clone();
    let dice = |group: u64| {
        Dice(ChaCha8Rng::seed_from_u64(splitmix64(
            roll_number ^ (group << 56) ^ 0x5641_5259,
        )))
    };
    if !locks.is_locked(SEED) {
        s.seed = new_seed(dice(1).0.next_u64());
    }
    if strength == 0.0 {
        return s;
    }
    for (stream, group) in [(2, LIGHT), (3, AUTOMATON)] {
        if !locks.is_locked(group) {
            let mut d = dice(stream);
            for setting in Scene::SETTINGS
                .iter()
                .filter(|x| scene_group(x.name) == group)
            {
                nudge(std::slice::from_ref(setting), &mut s, &mut d, strength);
            }
        }
    }
    for (i, layer) in s.layers.iter_mut().enumerate() {
        if locks.is_locked(layer.name()) {
            continue;
        }
        let mut d = dice(16 + i as u64);
        fn nudge_layer<K: Kind>(l: &mut K, d: &mut Dice, strength: f32) {
            nudge(K::SETTINGS, l, d, strength);
        }
        match_kind!(layer, l => nudge_layer(l, &mut d, strength));
    }
    s.quantize();
    s
}

/// Nudges every setting of `settings` (in `t`) that has a [`Roll`]:
/// numbers by up to `strength` of their rolling range (kept within the
/// setting's limits), discrete values re-picked with chance
/// `strength² / 2`.
fn nudge<T>(settings: &[Setting<T>], t: &mut T, dice: &mut Dice, strength: f32) {
    let repick = |d: &mut Dice| d.unit() < strength * strength / 2.0;
    for s in settings {
        match &s.value {
            Value::Float {
                get,
                put,
                roll,
                min,
                max,
                ..
            } => match *roll {
                Roll::Keep => {}
                Roll::Range(lo, hi) => {
                    let step = (dice.unit() * 2.0 - 1.0) * strength * (hi - lo);
                    put(t, (get(t) + step).clamp(*min, *max));
                }
                Roll::Pick(items) => {
                    if repick(dice) {
                        put(t, *dice.pick(items));
                    }
                }
            },
            Value::Uint {
                get,
                put,
                roll,
                min,
                max,
                ..
            } => match *roll {
                Roll::Keep => {}
                Roll::Range(lo, hi) => {
                    let step = (dice.unit() * 2.0 - 1.0) * strength * (hi - lo) as f32;
                    let v = (get(t) as f32 + step).round();
                    put(t, (v.max(0.0) as u32).clamp(*min, *max));
                }
                Roll::Pick(items) => {
                    if repick(dice) {
                        put(t, *dice.pick(items));
                    }
                }
            },
            Value::Rgb { put, roll, .. } => {
                if let Roll::Pick(items) = *roll
                    && repick(dice)
                {
                    put(t, *dice.pick(items));
                }
            }
            Value::Time { put, roll, .. } => {
                if let Roll::Pick(items) = *roll
                    && repick(dice)
                {
                    put(t, *dice.pick(items));
                }
            }
            Value::Rule { put, roll, .. } => {
                if let Roll::Pick(items) = *roll
                    && repick(dice)
                {
                    put(
                        t,
                        dice.pick(items)
                            .parse()
                            .expect("the rules to roll parse (tested)"),
                    );
                }
            }
            Value::Bool { .. } | Value::Topology { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roll_is_reproducible_and_valid() {
        let scene = Scene::default();
        let locks = Locks::default();
        for roll in 0..200 {
            let a = new_scene(&scene, &locks, roll);
            assert_eq!(a, new_scene(&scene, &locks, roll));
            a.validate().unwrap_or_else(|e| panic!("roll {roll}: {e}"));
        }
        assert_ne!(new_scene(&scene, &locks, 1), new_scene(&scene, &locks, 2));
    }

    #[test]
    fn locked_groups_survive() {
        let scene = Scene::default();
        let mut locks = Locks::default();
        for group in [SEED, AUTOMATON, "tent"] {
            locks.set(group, true);
        }
        for roll in 0..50 {
            let r = new_scene(&scene, &locks, roll);
            assert_eq!(r.seed, scene.seed);
            assert_eq!(r.automaton, scene.automaton);
            let tents = |s: &Scene| {
                s.layers
                    .iter()
                    .filter(|l| matches!(l, crate::Layer::Tent(_)))
                    .cloned()
                    .collect::<Vec<_>>()
            };
            assert_eq!(tents(&r), tents(&scene));
        }
    }

    #[test]
    fn locking_one_group_does_not_change_the_others() {
        let scene = Scene::default();
        let free = new_scene(&scene, &Locks::default(), 7);
        let locked = new_scene(
            &scene,
            &{
                let mut locks = Locks::default();
                locks.set(LIGHT, true);
                locks
            },
            7,
        );
        assert_eq!(free.seed, locked.seed);
        assert_eq!(free.automaton, locked.automaton);
        assert_eq!(locked.time, scene.time);
    }

    #[test]
    fn rules_to_roll_parse() {
        for r in crate::scene::RULES {
            r.parse::<crate::Rule>().unwrap();
        }
    }

    #[test]
    fn seeds_are_small_and_vary() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(new_seed).collect();
        assert!(seeds.len() > 990);
        assert!(seeds.iter().all(|&s| (1..=999_999).contains(&s)));
    }
}
