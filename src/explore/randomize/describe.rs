//! What a roll changed, in the words a person uses for a landscape: the
//! time of day, the rule by its name, how many ranges, how much of the
//! floor the stones cover. New scene, Vary and the variations grid say it
//! in the status bar, where a roll number would tell nothing.

use super::{ground, stones_of};
use crate::base::palette::TimeOfDay;
use crate::layers::Layer;
use crate::scene::{RULE_NAMES, Scene, layer_names};

/// A time of day as it is said: its name, or the hour ("7.5 h").
fn time_words(time: TimeOfDay) -> String {
    time.name()
        .map_or_else(|| format!("{} h", time.hour()), str::to_string)
}

/// The rule of `scene` by its name ("HighLife rule"), or its text when it
/// has none ("rule B36/S125").
fn rule_words(scene: &Scene) -> String {
    let rule = scene.automaton.rule.to_string();
    match RULE_NAMES.iter().find(|(_, text)| *text == rule) {
        Some((name, _)) => format!("{name} rule"),
        None => format!("rule {rule}"),
    }
}

/// The mountain ranges drawn in `scene` (every visible ranges layer's).
fn ranges(scene: &Scene) -> u32 {
    scene
        .layers
        .iter()
        .map(|l| match l {
            Layer::Ranges(r) if r.visible => r.count,
            _ => 0,
        })
        .sum()
}

/// Whether a tent's lantern is lit in `scene`.
fn lantern_lit(scene: &Scene) -> bool {
    scene
        .layers
        .iter()
        .any(|l| matches!(l, Layer::Tent(t) if t.visible && t.lantern > 0.0))
}

/// The share of the floor the first visible stones of `scene` cover, in
/// whole percent, as New scene estimates it (no picture drawn).
fn stone_cover(scene: &Scene) -> Option<u32> {
    let rocks = scene.layers.iter().find_map(|l| match l {
        Layer::Rocks(r) if r.visible => Some(r),
        _ => None,
    })?;
    let stones = stones_of(scene)?;
    let cover = rocks.cover(&ground(scene, &stones)).floor;
    Some((cover * 100.0).round() as u32)
}

/// Whether layer `new` differs from `old` in more than what [`describe`]
/// says of it on its own (the ranges' count, the lantern).
fn changed_beyond_said(new: &Layer, old: &Layer) -> bool {
    let mut new = new.clone();
    match (&mut new, old) {
        (Layer::Ranges(n), Layer::Ranges(o)) => n.count = o.count,
        (Layer::Tent(n), Layer::Tent(o)) => n.lantern = o.lantern,
        _ => {}
    }
    new != *old
}

/// `items` as a list in words: "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What changed from `old` to `new`, in words, most telling first:
/// "golden hour, HighLife rule, 3 ranges, stones cover 23% of the floor,
/// seed 48213, new sky and floor". Says the new value of what changed (the
/// time of day, the rule, the ranges, the stones' cover, the lantern, the
/// sun and horizon, the seed), then names the layers changed otherwise;
/// "no change" when the scenes are the same.
pub fn describe(old: &Scene, new: &Scene) -> String {
    let mut said = Vec::new();
    if new.time != old.time {
        said.push(time_words(new.time).to_string());
    }
    if new.automaton.rule != old.automaton.rule {
        said.push(rule_words(new));
    }
    let count = ranges(new);
    if count != ranges(old) {
        said.push(match count {
            0 => "no ranges".to_string(),
            1 => "1 range".to_string(),
            n => format!("{n} ranges"),
        });
    }
    let stones_changed = new.automaton != old.automaton
        || new.aspect != old.aspect
        || new.horizon != old.horizon
        || new
            .layers
            .iter()
            .zip(&old.layers)
            .any(|(n, o)| matches!((n, o), (Layer::Rocks(a), Layer::Rocks(b)) if a != b));
    let cover = stones_changed.then(|| stone_cover(new)).flatten();
    if let Some(cover) = cover {
        said.push(format!("stones cover {cover}% of the floor"));
    }
    if lantern_lit(new) != lantern_lit(old) {
        said.push(
            if lantern_lit(new) {
                "lantern lit"
            } else {
                "lantern out"
            }
            .to_string(),
        );
    }
    if (new.sun_x < 0.5) != (old.sun_x < 0.5) {
        said.push(
            if new.sun_x < 0.5 {
                "sun on the left"
            } else {
                "sun on the right"
            }
            .to_string(),
        );
    }
    // A hundredth of the height is about where a horizon's move shows.
    if (new.horizon - old.horizon).abs() >= 0.01 {
        said.push(
            if new.horizon < old.horizon {
                "horizon higher"
            } else {
                "horizon lower"
            }
            .to_string(),
        );
    }
    if new.seed != old.seed {
        said.push(format!("seed {}", new.seed));
    }
    let same_kinds = new.layers.len() == old.layers.len()
        && new
            .layers
            .iter()
            .zip(&old.layers)
            .all(|(n, o)| n.kind_index() == o.kind_index());
    if same_kinds {
        // Layers changed beyond what was said: named, as the layer list
        // names them.
        let names = layer_names(&new.layers);
        let changed: Vec<_> = new
            .layers
            .iter()
            .zip(&old.layers)
            .zip(&names)
            .filter(|((n, o), _)| {
                changed_beyond_said(n, o) && !(matches!(n, Layer::Rocks(_)) && cover.is_some())
            })
            .map(|(_, name)| name)
            .collect();
        // Several of a kind are counted, not listed: "3 tent layers".
        let mut others: Vec<String> = Vec::new();
        for name in &changed {
            let of_kind = changed.iter().filter(|n| n.key == name.key).count();
            let words = match (name.nth, of_kind) {
                (Some(_), 2..) => format!("{of_kind} {} layers", name.title.to_lowercase()),
                _ => name.to_string().to_lowercase(),
            };
            if !others.contains(&words) {
                others.push(words);
            }
        }
        if !others.is_empty() {
            said.push(format!("new {}", and_list(&others)));
        }
    } else {
        said.push(format!("{} layers", new.layers.len()));
    }
    if said.is_empty() {
        "no change".to_string()
    } else {
        said.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::randomize::{Locks, new_scene, vary};
    use crate::scene::presets;

    #[test]
    fn a_change_is_said_in_words() {
        let old = Scene::default();
        let mut new = old.clone();
        new.time = TimeOfDay::GoldenHour;
        new.automaton.rule = "B36/S23".parse().unwrap();
        new.seed = 48213;
        let Layer::Ranges(r) = &mut new.layers[1] else {
            panic!("the second layer is the ranges")
        };
        r.count = 2;
        let Layer::Tent(t) = &mut new.layers[4] else {
            panic!("the fifth layer is the tent")
        };
        t.lantern = 0.8;
        let said = describe(&old, &new);
        assert!(
            said.starts_with("golden hour, HighLife rule, 2 ranges, stones cover "),
            "{said}"
        );
        assert!(
            said.ends_with("% of the floor, lantern lit, seed 48213"),
            "{said}"
        );
        assert_eq!(describe(&old, &old), "no change");
    }

    #[test]
    fn an_unnamed_rule_and_other_layers_are_said_too() {
        let old = Scene::default();
        let mut new = old.clone();
        new.automaton.rule = "B36/S125".parse().unwrap();
        let Layer::Floor(f) = &mut new.layers[2] else {
            panic!("the third layer is the floor")
        };
        f.grain = 0.2;
        let Layer::Sky(s) = &mut new.layers[0] else {
            panic!("the first layer is the sky")
        };
        s.glow = 0.5;
        let said = describe(&old, &new);
        assert!(said.starts_with("rule B36/S125, stones cover "), "{said}");
        assert!(said.ends_with(", new sky and floor"), "{said}");
    }

    #[test]
    fn several_layers_of_a_kind_are_counted() {
        let mut old = Scene::default();
        old.add_layer(Layer::Tent(Default::default()));
        old.add_layer(Layer::Tent(Default::default()));
        let mut new = old.clone();
        for layer in &mut new.layers {
            if let Layer::Tent(t) = layer {
                t.size = 0.3;
            }
        }
        assert_eq!(describe(&old, &new), "new 3 tent layers");
        let Layer::Tent(t) = &mut new.layers[4] else {
            panic!("the fifth layer is a tent")
        };
        t.size = 0.2;
        assert_eq!(describe(&old, &new), "new 2 tent layers");
        new.layers[4] = old.layers[4].clone();
        new.layers[6] = old.layers[6].clone();
        assert_eq!(describe(&old, &new), "new tent 3");
    }

    #[test]
    fn rolls_are_described_without_numbers_of_rolls() {
        let old = presets::load("golden-hour").unwrap();
        for roll in 1..6 {
            let new = new_scene(&old, &Locks::default(), roll);
            let said = describe(&old, &new);
            assert!(said.contains(&format!("seed {}", new.seed)), "{said}");
            assert!(!said.contains("roll") && said != "no change", "{said}");
            let near = vary(&old, &Locks::default(), roll, 0.3);
            assert_ne!(describe(&old, &near), "no change");
        }
    }

    #[test]
    fn lists_read_as_words() {
        let words = |w: &[&str]| and_list(&w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(words(&["sky"]), "sky");
        assert_eq!(words(&["sky", "floor"]), "sky and floor");
        assert_eq!(words(&["sky", "floor", "tent"]), "sky, floor and tent");
    }
}
