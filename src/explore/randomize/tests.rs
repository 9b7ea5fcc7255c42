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
    for g in GROWTHS {
        g.rule.parse::<crate::Rule>().unwrap();
    }
}

/// The unlocked ornaments of a scene as its time of day has them.
fn dressed_for_the_time(s: &Scene) -> bool {
    s.layers.iter().all(|l| match l {
        Layer::Tent(t) => match s.time {
            TimeOfDay::Night | TimeOfDay::Moonlight => t.lantern > 0.0,
            TimeOfDay::Dusk | TimeOfDay::BlueHour => true,
            time => (t.lantern > 0.0) == time.is_dark(),
        },
        Layer::Spiral(sp) => !sp.visible || s.time.is_dark(),
        _ => true,
    })
}

#[test]
fn a_new_scene_dresses_for_its_time_of_day() {
    let night = crate::scene::presets::load("night-under-stars").unwrap();
    let mut unlocked = Locks::default();
    unlocked.set(crate::layers::Spiral::NAME, false);
    let mut times = std::collections::BTreeSet::new();
    for roll in 0..90 {
        let s = new_scene(&night, &unlocked, roll);
        assert!(dressed_for_the_time(&s), "roll {roll}: {s:?}");
        times.insert(format!("{:?}", s.time));
        // Locked, the night's constellation keeps the night.
        let kept = new_scene(&night, &Locks::default(), roll);
        assert!(
            matches!(kept.time, TimeOfDay::Night | TimeOfDay::Moonlight),
            "roll {roll}"
        );
        assert!(
            kept.layers
                .iter()
                .any(|l| matches!(l, Layer::Spiral(s) if s.visible))
        );
    }
    assert_eq!(
        times.len(),
        TimeOfDay::NAMED.len(),
        "every time of day comes up: {times:?}"
    );
    // A locked, lit tent keeps it after sunset.
    let mut tent = Locks::default();
    tent.set(crate::layers::Tent::NAME, true);
    for roll in 0..30 {
        let s = new_scene(&night, &tent, roll);
        assert!(
            matches!(
                s.time,
                TimeOfDay::Dusk | TimeOfDay::BlueHour | TimeOfDay::Night | TimeOfDay::Moonlight
            ),
            "roll {roll}"
        );
    }
}

#[test]
fn the_same_roll_from_another_scene_is_another_scene() {
    let locks = Locks::default();
    let a = new_scene(&Scene::default(), &locks, 5);
    let b = new_scene(&crate::scene::presets::load("badlands").unwrap(), &locks, 5);
    assert_ne!(a.seed, b.seed);
    assert_eq!(a, new_scene(&Scene::default(), &locks, 5));
    assert_eq!(a, a.quantized(), "a new scene is kept to its precisions");
}

#[test]
fn vary_at_strength_zero_changes_only_the_seed() {
    let locks = Locks::default();
    for p in crate::scene::presets::PRESETS {
        let name = p.name;
        let scene = crate::scene::presets::load(name).unwrap();
        for roll in 0..20 {
            let v = vary(&scene, &locks, roll, 0.0);
            assert_ne!(v.seed, scene.seed);
            assert_eq!(
                Scene {
                    seed: scene.seed,
                    ..v.clone()
                },
                scene
            );
            let far = vary(&scene, &locks, roll, 1.0);
            far.validate().unwrap();
            assert_eq!(far, far.quantized());
            assert!(dressed_for_the_time(&far) || far.time == scene.time);
        }
    }
    let mut seed = Locks::default();
    seed.set(SEED, true);
    assert_eq!(vary(&Scene::default(), &seed, 3, 0.0), Scene::default());
}

#[test]
fn vary_is_pure_and_keeps_locked_groups() {
    let scene = Scene::default();
    let mut locks = Locks::default();
    locks.set(AUTOMATON, true);
    locks.set(LIGHT, true);
    for roll in 0..20 {
        let v = vary(&scene, &locks, roll, 0.8);
        assert_eq!(v, vary(&scene, &locks, roll, 0.8));
        assert_eq!(v.automaton, scene.automaton);
        assert_eq!(
            (v.time, v.sun_x, v.horizon),
            (scene.time, scene.sun_x, scene.horizon)
        );
    }
}

#[test]
fn seeds_are_small_and_vary() {
    let seeds: std::collections::HashSet<u64> = (0..1000).map(new_seed).collect();
    assert!(seeds.len() > 990);
    assert!(seeds.iter().all(|&s| (1..=999_999).contains(&s)));
}

#[test]
fn vary_at_full_strength_picks_the_time_as_new_scene_does() {
    let scene = crate::scene::presets::load("death-valley").unwrap();
    let locks = Locks::default();
    let rolls = 400;
    let noon = |f: &dyn Fn(u64) -> Scene| {
        (0..rolls).filter(|&r| f(r).time == TimeOfDay::Noon).count() as f64 / rolls as f64
    };
    let varied = noon(&|r| vary(&scene, &locks, r, 1.0));
    let rolled = noon(&|r| new_scene(&scene, &locks, r));
    // Both pick noon 4 times in 20: within sampling error of that.
    for share in [varied, rolled] {
        assert!(
            (share - 0.2).abs() < 0.06,
            "noon {varied} (Vary), {rolled} (New scene)"
        );
    }
}

#[test]
fn vary_draws_inside_new_scenes_ranges() {
    // Each rolled number ends between where it was and its rolling range:
    // never out to the setting's outer limits.
    let locks = Locks::default();
    for p in crate::scene::presets::PRESETS {
        let scene = p.scene().unwrap();
        for strength in [0.25, 0.5, 1.0] {
            for roll in 0..40 {
                let v = vary(&scene, &locks, roll, strength);
                for (old, new) in scene.layers.iter().zip(&v.layers) {
                    fn check<K: Kind>(old: &K, new: &K, what: &str) {
                        for s in K::SETTINGS {
                            if let Value::Float {
                                get,
                                roll: Roll::Range(lo, hi),
                                ..
                            } = &s.value
                            {
                                let (a, b) = (get(old), get(new));
                                let (lo, hi) = (lo.min(a) - 1e-3, hi.max(a) + 1e-3);
                                assert!((lo..=hi).contains(&b), "{what} {}: {a} → {b}", s.name);
                            }
                        }
                    }
                    let what = format!("{} {strength} roll {roll}", p.name);
                    match (old, new) {
                        (Layer::Tent(a), Layer::Tent(b)) => check(a, b, &what),
                        (Layer::Ranges(a), Layer::Ranges(b)) => check(a, b, &what),
                        (Layer::Sky(a), Layer::Sky(b)) => check(a, b, &what),
                        (Layer::Floor(a), Layer::Floor(b)) => check(a, b, &what),
                        _ => {}
                    }
                }
                let (lo, hi) = (0.12f32.min(scene.sun_x), 0.88f32.max(scene.sun_x));
                assert!(
                    (lo - 1e-3..=hi + 1e-3).contains(&v.sun_x),
                    "{} sun {}",
                    p.name,
                    v.sun_x
                );
            }
        }
    }
}
