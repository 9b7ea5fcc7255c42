//! "Randomize": re-roll every unlocked parameter group within ranges that
//! keep the picture a plausible desert.
//!
//! A re-roll is a pure function of the scene, the locks and a roll number,
//! so the same roll always gives the same scene.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::layers::Layer;
use crate::palette::TimeOfDay;
use crate::rule::Rule;
use crate::scene::Scene;

/// Parameter groups that can be locked against "Randomize".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// The scene's seed.
    Seed,
    /// Time of day, sun position, horizon.
    Light,
    /// Density, generations, rule and columns of the rock automaton.
    Automaton,
    /// The sky layer's settings.
    Sky,
    /// The mountain ranges' settings.
    Ranges,
    /// The desert floor's settings.
    Floor,
    /// The stones' look.
    Rocks,
    /// Tent position and size.
    Tent,
    /// The spiral ornament.
    Spiral,
}

impl Group {
    /// The group a layer's own settings belong to.
    pub fn of_layer(layer: &Layer) -> Group {
        match layer {
            Layer::Sky(_) => Group::Sky,
            Layer::Ranges(_) => Group::Ranges,
            Layer::Floor(_) => Group::Floor,
            Layer::Rocks(_) => Group::Rocks,
            Layer::Tent(_) => Group::Tent,
            Layer::Spiral(_) => Group::Spiral,
        }
    }
}

/// Which groups are locked. Default: none, except the spiral (an ornament
/// that is off by default should stay as the user left it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Locks {
    /// Seed locked. Default: false.
    pub seed: bool,
    /// Light locked. Default: false.
    pub light: bool,
    /// Automaton locked. Default: false.
    pub automaton: bool,
    /// Sky locked. Default: false.
    pub sky: bool,
    /// Ranges locked. Default: false.
    pub ranges: bool,
    /// Floor locked. Default: false.
    pub floor: bool,
    /// Stones' look locked. Default: false.
    pub rocks: bool,
    /// Tent locked. Default: false.
    pub tent: bool,
    /// Spiral locked. Default: true.
    pub spiral: bool,
}

impl Default for Locks {
    fn default() -> Self {
        Locks {
            seed: false,
            light: false,
            automaton: false,
            sky: false,
            ranges: false,
            floor: false,
            rocks: false,
            tent: false,
            spiral: true,
        }
    }
}

impl Locks {
    /// The lock flag of `group`.
    pub fn get_mut(&mut self, group: Group) -> &mut bool {
        match group {
            Group::Seed => &mut self.seed,
            Group::Light => &mut self.light,
            Group::Automaton => &mut self.automaton,
            Group::Sky => &mut self.sky,
            Group::Ranges => &mut self.ranges,
            Group::Floor => &mut self.floor,
            Group::Rocks => &mut self.rocks,
            Group::Tent => &mut self.tent,
            Group::Spiral => &mut self.spiral,
        }
    }

    /// Whether `group` is locked.
    pub fn is_locked(&self, group: Group) -> bool {
        *self.clone().get_mut(group)
    }
}

/// Rules that grow stone-like clumps from a soup (Life and its blobby
/// relatives); the automaton group picks among them.
pub const RULES: &[&str] = &[
    "B3/S23",       // Life: scattered clumps and debris
    "B3/S23",       // (twice: the classic look is the most likely)
    "B4678/S35678", // Anneal: smooth boulder fields
    "B3/S45678",    // Coral: dense, crusty patches
    "B35678/S5678", // Diamoeba: large blobs
    "B36/S23",      // HighLife
    "B3678/S34678", // Day & Night: solid masses
    "B5678/S45678", // Vote-like: compact clumps
];

/// Sand colours the floor group picks from (sRGB).
const SANDS: &[[u8; 3]] = &[
    [218, 198, 160],
    [226, 206, 170],
    [210, 184, 146],
    [200, 176, 140],
    [230, 214, 186],
    [214, 190, 156],
];

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

    /// An integer in `lo..=hi`.
    fn int(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.0.next_u64() % u64::from(hi - lo + 1)) as u32
    }

    /// One item of `items`.
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.0.next_u64() as usize % items.len()]
    }
}

/// `scene` with every unlocked group re-rolled from `roll`. Visibility,
/// opacity and the order of the layers are never changed, nor the aspect.
pub fn randomize(scene: &Scene, locks: &Locks, roll: u64) -> Scene {
    let mut s = scene.clone();
    // Each group draws from its own stream, so locking one group does not
    // change what the others roll.
    let dice = |group: u64| Dice(ChaCha8Rng::seed_from_u64(splitmix64(roll ^ (group << 56))));
    if !locks.seed {
        s.seed = new_seed(dice(1).0.next_u64());
    }
    if !locks.light {
        let mut d = dice(2);
        s.time = *d.pick(&TimeOfDay::ALL);
        s.sun_x = d.float(0.12, 0.88);
        s.horizon = d.float(0.46, 0.64);
    }
    if !locks.automaton {
        let mut d = dice(3);
        let a = &mut s.automaton;
        let rule: Rule = d.pick(RULES).parse().expect("the curated rules parse");
        a.rule = rule;
        a.density = d.float(0.35, 0.85);
        a.generations = *d.pick(&[0, 2, 4, 6, 8, 8, 10, 12, 16, 24]);
        a.columns = *d.pick(&[160, 200, 240, 300, 360, 400, 480, 560]);
    }
    for (i, layer) in s.layers.iter_mut().enumerate() {
        if locks.is_locked(Group::of_layer(layer)) {
            continue;
        }
        let mut d = dice(16 + i as u64);
        match layer {
            Layer::Sky(l) => {
                l.sun_size = d.float(0.016, 0.04);
                l.glow = d.float(0.6, 1.6);
                l.stars = d.int(600, 4000);
                l.milky_way = d.float(0.4, 1.4);
            }
            Layer::Ranges(l) => {
                l.count = d.int(1, 4);
                l.height = d.float(0.06, 0.24);
                l.roughness = d.float(0.3, 0.7);
                l.width = d.float(0.6, 2.0);
                l.haze = d.float(0.3, 0.8);
                l.terraces = *d.pick(&[0, 0, 0, 0, 2, 3, 5]);
            }
            Layer::Floor(l) => {
                let [r, g, b] = *d.pick(SANDS);
                l.color = crate::color::Rgb(r, g, b);
                l.warmth = d.float(0.2, 0.8);
                l.grain = d.float(0.02, 0.08);
                l.patches = d.float(0.1, 0.5);
                l.cracks = *d.pick(&[0.0, 0.0, 0.0, 0.3, 0.6]);
            }
            Layer::Rocks(l) => {
                l.near_size = d.float(0.035, 0.065);
                l.far_size = d.float(0.018, 0.034);
                l.jitter = d.float(0.25, 0.7);
                l.secondary_share = d.float(0.03, 0.15);
            }
            Layer::Tent(l) => {
                l.x = d.float(0.15, 0.85);
                l.y = d.float(0.74, 0.9);
                l.size = d.float(0.13, 0.26);
            }
            Layer::Spiral(_) => {}
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roll_is_reproducible_and_valid() {
        let scene = Scene::default();
        let locks = Locks::default();
        for roll in 0..200 {
            let a = randomize(&scene, &locks, roll);
            assert_eq!(a, randomize(&scene, &locks, roll));
            a.validate().unwrap_or_else(|e| panic!("roll {roll}: {e}"));
        }
        assert_ne!(randomize(&scene, &locks, 1), randomize(&scene, &locks, 2));
    }

    #[test]
    fn locked_groups_survive() {
        let scene = Scene::default();
        let locks = Locks {
            seed: true,
            automaton: true,
            tent: true,
            ..Locks::default()
        };
        for roll in 0..50 {
            let r = randomize(&scene, &locks, roll);
            assert_eq!(r.seed, scene.seed);
            assert_eq!(r.automaton, scene.automaton);
            let tents = |s: &Scene| {
                s.layers
                    .iter()
                    .filter(|l| matches!(l, Layer::Tent(_)))
                    .cloned()
                    .collect::<Vec<_>>()
            };
            assert_eq!(tents(&r), tents(&scene));
        }
    }

    #[test]
    fn locking_one_group_does_not_change_the_others() {
        let scene = Scene::default();
        let free = randomize(&scene, &Locks::default(), 7);
        let locked = randomize(
            &scene,
            &Locks {
                light: true,
                ..Locks::default()
            },
            7,
        );
        assert_eq!(free.seed, locked.seed);
        assert_eq!(free.automaton, locked.automaton);
        assert_eq!(locked.time, scene.time);
    }

    #[test]
    fn curated_rules_parse() {
        for r in RULES {
            r.parse::<Rule>().unwrap();
        }
    }

    #[test]
    fn seeds_are_small_and_vary() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(new_seed).collect();
        assert!(seeds.len() > 990);
        assert!(seeds.iter().all(|&s| (1..=999_999).contains(&s)));
    }
}
