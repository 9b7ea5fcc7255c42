//! "Vary" ([`vary`]): a scene near another, of the same composition,
//! every setting moved part of the way toward a New scene of traits drawn
//! again now and then.

use super::*;

/// "Vary": a scene near `scene`, `strength` (0 to 1, clamped) away, of the
/// same composition. The seed moves to a nearby one (unless locked). Each
/// other unlocked trait is drawn again with chance `strength` (what the
/// eye goes to, the tent or a near rise, not below half strength, and the
/// stones and plants there are do not all go); a New
/// scene with those traits is the target, and every setting moves
/// `strength` of the way toward it: a number toward the target's, a
/// discrete value (a pick from a list, the time of day, the rule's growth)
/// becomes the target's with chance `strength`. Layers the new traits add
/// or remove (clouds for a changed weather) come and go whole. So Vary
/// draws toward values New scene could roll, never out to a setting's
/// outer limits, and at strength 1 it goes as far as New scene (keeping
/// the composition).
///
/// What New scene keeps in agreement stays so: a changed time of day
/// lights or puts out the lantern; the automaton must leave clumps; the
/// stones cover a share of the floor between what they covered and the
/// target's, and stay below the horizon. A varied scene that is not
/// showable ([`flaws`]) is tried again bolder, and at last is the target
/// itself. At strength 0 only the seed changes.
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
    // The traits: the composition kept, the others drawn again now and
    // then.
    let had = Traits::of(scene);
    let mut fixed = fixed_traits(scene, locks);
    let mut d = dice(7);
    for (axis, kept) in fixed.iter_mut().enumerate() {
        if axis == traits::ARCHETYPE || d.unit() >= redraw_chance(axis, strength) {
            // (A locked kind's layers keep what they show.)
            *kept = Some(kept.unwrap_or(traits::rolled_as(axis, had[axis])));
        }
    }
    let open = allowed(scene, locks, &fixed);
    let traits = traits::roll(
        &fixed,
        |t: &Traits, axis: usize, value: u8| {
            open(t, axis, value) && !(strength < HALF && empties(&had, axis, value))
        },
        |_| d.unit(),
    );
    let target = made(&s, locks, &traits, roll_number, 0x200);
    // Bolder each try, the target itself at last.
    let tries = [strength, (1.0 + strength) / 2.0];
    for (i, &strength) in tries.iter().enumerate() {
        let dice = |group: u64| stream(roll_number, 0x300 + group + 0x1_0000 * i as u64);
        let varied = toward_scene(&s, &target, &had, &traits, strength, &dice);
        let varied = refit_stones(scene, varied, &target, locks, strength, &dice);
        if flaws(&varied).is_empty() {
            return varied;
        }
    }
    target
}

/// The strength below which Vary keeps what the eye goes to and what
/// stands on the ground ([`redraw_chance`], [`empties`]).
const HALF: f32 = 0.5;

/// The chance that Vary at `strength` draws `axis` again: `strength`, but
/// what the eye goes to (a tent, a near rise) stays below [`HALF`] and is
/// drawn again more and more often above it, as often as the others at
/// full strength.
fn redraw_chance(axis: usize, strength: f32) -> f32 {
    if axis == traits::FOCAL {
        (strength - HALF) / (1.0 - HALF)
    } else {
        strength
    }
}

/// Whether `value` of `axis` would leave the ground without the stones or
/// the plants that `had` has.
fn empties(had: &Traits, axis: usize, value: u8) -> bool {
    (axis == traits::STONES && value == traits::stones::NONE && had[axis] != traits::stones::NONE)
        || (axis == traits::PLANTS
            && value == traits::plants::NONE
            && had[axis] != traits::plants::NONE)
}

/// `scene` moved `strength` of the way toward `target` (whose traits are
/// `traits`; `scene`'s were `had`): the light, the automaton and every
/// setting of the layers both have (the first of a kind with the first,
/// and so on, but relief from the last, where a near rise is); layers
/// only `target` has come whole, those only `scene` has go.
fn toward_scene(
    scene: &Scene,
    target: &Scene,
    had: &Traits,
    traits: &Traits,
    strength: f32,
    dice: &dyn Fn(u64) -> Dice,
) -> Scene {
    let mut s = scene.clone();
    let mut d = dice(2);
    for setting in Scene::SETTINGS
        .iter()
        .filter(|x| scene_group(x.name) == LIGHT && !matches!(x.name, "time" | "wind" | "look"))
    {
        toward(
            std::slice::from_ref(setting),
            &mut s,
            target,
            &mut d,
            strength,
        );
    }
    if traits[traits::TIME] != had[traits::TIME] {
        s.time = target.time;
    }
    // A variation is a new picture: drawn in the target's look (the
    // newest, unless the light is locked), but for a change of seed alone.
    if strength > 0.0 {
        s.look = target.look;
    }
    // The wind turns the short way round.
    let turn = (target.wind - s.wind + 180.0).rem_euclid(360.0) - 180.0;
    s.wind = (s.wind + strength * turn).rem_euclid(360.0);
    let mut layers = Vec::with_capacity(target.layers.len());
    for (i, goal) in target.layers.iter().enumerate() {
        let same = |l: &&Layer| l.kind_index() == goal.kind_index();
        // Relief is matched from the last: a near rise is the last relief
        // (over a wash's), and stays a rise when the wash comes or goes.
        let from = if matches!(goal, Layer::Relief(_)) {
            let nth = target.layers[i + 1..].iter().filter(same).count();
            scene.layers.iter().rev().filter(same).nth(nth)
        } else {
            let nth = target.layers[..i].iter().filter(same).count();
            scene.layers.iter().filter(same).nth(nth)
        };
        let mut d = dice(16 + i as u64);
        layers.push(match from {
            Some(from) => {
                let mut layer = from.clone();
                fn toward_layer<K: Kind>(l: &mut K, goal: &K, d: &mut Dice, strength: f32) {
                    toward(K::SETTINGS, l, goal, d, strength);
                }
                match_kinds!(&mut layer, goal, (l, g) => toward_layer(l, g, &mut d, strength), _ => {});
                layer
            }
            None => goal.clone(),
        });
    }
    s.layers = layers;
    if s.time != scene.time {
        s.time = target.time;
        // The target's ornaments were dressed for its time.
        for (layer, goal) in s.layers.iter_mut().zip(&target.layers) {
            match (layer, goal) {
                (Layer::Tent(t), Layer::Tent(g)) => t.lantern = g.lantern,
                (Layer::Spiral(sp), Layer::Spiral(g)) => sp.visible = g.visible,
                _ => {}
            }
        }
    }
    s.quantize();
    s
}

/// `varied`'s automaton and stones, tried until they make a field of
/// clumps that covers the floor as `target`'s do (each stone layer between
/// what `scene`'s covered and what the target's cover, `strength` of the
/// way); else the try that came nearest.
fn refit_stones(
    scene: &Scene,
    varied: Scene,
    target: &Scene,
    locks: &Locks,
    strength: f32,
    dice: &dyn Fn(u64) -> Dice,
) -> Scene {
    let free_automaton = !locks.is_locked(AUTOMATON);
    let free_rocks = !locks.is_locked(Rocks::NAME);
    let covers = |s: &Scene| -> Vec<f32> {
        match stones_of(s) {
            Some(field) if field.is_clumpy() => s
                .layers
                .iter()
                .filter_map(|l| match l {
                    Layer::Rocks(r) => Some(r.cover(&ground(s, &field)).floor),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    let (had, goal) = (covers(scene), covers(target));
    let range = crate::traits::marks::stone_target(Traits::of(target)[traits::STONES])
        .map_or(KEPT_COVER, |(_, range)| range);
    let mut nearest: Option<(f32, Scene)> = None;
    for attempt in 0..ATTEMPTS {
        let mut candidate = varied.clone();
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
            let mut nth = 0;
            for layer in &mut candidate.layers {
                let Layer::Rocks(rocks) = layer else { continue };
                let aim = goal
                    .get(nth)
                    .copied()
                    .unwrap_or_else(|| d.float(range.0, range.1));
                let target = match had.get(nth) {
                    Some(&had) if (range.0..=range.1).contains(&had) => {
                        had + strength * (aim - had)
                    }
                    _ => aim,
                };
                nth += 1;
                size_stones(&field, &view, rocks, target);
                clear_the_horizon(&field, &view, rocks);
                layer.quantize();
            }
        }
        let misfit = misfit(&candidate, &field, KEPT_COVER);
        if misfit == 0.0 || !(free_automaton || free_rocks) {
            return candidate;
        }
        if nearest.as_ref().is_none_or(|(m, _)| misfit < *m) {
            nearest = Some((misfit, candidate));
        }
    }
    nearest.map_or(varied, |(_, scene)| scene)
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
        toward_rolled(density, scene, d, strength);
    }
    if let Some(columns) = crate::setting::find(Scene::SETTINGS, "automaton.columns") {
        toward_rolled(columns, scene, d, strength);
    }
}

/// Moves `setting` of `scene` `strength` of the way toward a value New
/// scene could roll for it.
fn toward_rolled(setting: &Setting<Scene>, scene: &mut Scene, d: &mut Dice, strength: f32) {
    let mut goal = scene.clone();
    roll(std::slice::from_ref(setting), &mut goal, d);
    toward(std::slice::from_ref(setting), scene, &goal, d, strength);
}

/// Moves every setting of `settings` (in `t`) `strength` of the way
/// toward its value in `goal`: a number (but a pick from a list) part of
/// the way, anything else (a pick, a colour, a time, a rule) all the way
/// with chance `strength`. Switches (visibility) and the topology stay.
fn toward<T>(settings: &[Setting<T>], t: &mut T, goal: &T, dice: &mut Dice, strength: f32) {
    let jump = |d: &mut Dice| d.unit() < strength;
    for s in settings {
        match &s.value {
            Value::Float { get, put, roll, .. } => {
                let (from, to) = (get(t), get(goal));
                if matches!(roll, Roll::Pick(_)) {
                    if jump(dice) {
                        put(t, to);
                    }
                } else if from != to {
                    put(t, from + strength * (to - from));
                }
            }
            Value::Uint { get, put, roll, .. } => {
                let (from, to) = (get(t), get(goal));
                if matches!(roll, Roll::Pick(_)) {
                    if jump(dice) {
                        put(t, to);
                    }
                } else if from != to {
                    let v = from as f32 + strength * (to as f32 - from as f32);
                    put(t, v.round().max(0.0) as u32);
                }
            }
            Value::Rgb { get, put, .. } => {
                if get(t) != get(goal) && jump(dice) {
                    put(t, get(goal));
                }
            }
            Value::Time { get, put, .. } => {
                if get(t) != get(goal) && jump(dice) {
                    put(t, get(goal));
                }
            }
            Value::Rule { get, put, .. } => {
                if get(t) != get(goal) && jump(dice) {
                    put(t, get(goal));
                }
            }
            Value::Bool { .. } | Value::Topology { .. } => {}
        }
    }
}
