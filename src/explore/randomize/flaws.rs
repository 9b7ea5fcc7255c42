//! Whether a scene is showable: the envelope every roll of New scene and
//! Vary must stay inside, judged from the cover each kind of layer
//! estimates for itself (no picture is drawn).

use super::{KEPT_COVER, MAX_TOP, ground, stones_of};
use crate::layers::{Cover, Layer};
use crate::scene::Scene;

/// How far above the horizon stones may reach, by the estimate, fraction
/// of the height: the estimate's own slack (the presets' stones, which
/// measure clear of the sky, reach up to about this).
const SKY_SLACK: f32 = 0.01;

/// The most of the sky clouds may cover: more, and the picture is a grey
/// lid over the land.
const MOST_CLOUD: f32 = 0.92;

/// What keeps `scene` from being a showable picture, one line each in
/// words; empty when there is nothing. It checks that the scene keeps its
/// limits ([`Scene::validate`]: its layers' count, its cost); that there is a sky and
/// ground to see; that the sun stands inside the frame; that every tent
/// stands whole inside the frame, below the horizon; that nothing stands
/// on the dunes (the tent, the stones and the plants are drawn on the flat
/// floor and would float on the sand); that the stones are in clumps,
/// cover a share of the floor inside the presets' range, stay below the
/// horizon and leave no bare band under the ranges; that the Racetrack's
/// stones stay below the horizon; that plants show; and that clouds leave
/// some sky.
pub fn flaws(scene: &Scene) -> Vec<String> {
    let mut flaws = Vec::new();
    // Over a scene's limits (its number of layers, its cost).
    if let Err(e) = scene.validate() {
        flaws.push(e.to_string());
    }
    let visible = |is: fn(&Layer) -> bool| scene.layers.iter().any(|l| l.visible() && is(l));
    if !visible(|l| matches!(l, Layer::Sky(_))) {
        flaws.push("no sky".to_string());
    }
    if !visible(|l| matches!(l, Layer::Floor(_) | Layer::Dunes(_) | Layer::Racetrack(_))) {
        flaws.push("no ground".to_string());
    }
    if !(0.0..=1.0).contains(&scene.sun_x) {
        flaws.push("the sun outside the frame".to_string());
    }
    // What stands on the ground is drawn as large as the eye sees it.
    let scale = scene.eye_scale();
    for layer in scene.layers.iter().filter(|l| l.visible()) {
        if let Layer::Tent(t) = layer {
            let (cx, half) = (t.x * scene.aspect, t.size * scale / 2.0);
            if cx - half < 0.0 || cx + half > scene.aspect || t.y > 1.0 {
                flaws.push("the tent cut by the frame".to_string());
            }
            if t.y <= scene.horizon {
                flaws.push("the tent above the horizon".to_string());
            }
        }
    }
    // (In one ground they stand on the sand.)
    if !scene.one_ground && visible(|l| matches!(l, Layer::Dunes(_))) {
        for layer in scene.layers.iter().filter(|l| l.visible()) {
            let what = match layer {
                Layer::Tent(_) => "the tent",
                Layer::Rocks(_) => "stones",
                Layer::Plants(_) => "plants",
                _ => continue,
            };
            flaws.push(format!("{what} floating over the dunes"));
        }
    }
    let needs_field =
        visible(|l| matches!(l, Layer::Rocks(_) | Layer::Plants(_) | Layer::Racetrack(_)));
    let field = needs_field.then(|| stones_of(scene)).flatten();
    if needs_field && field.is_none() {
        flaws.push("the automaton's grid cannot be made".to_string());
    }
    if let Some(field) = &field {
        let floor = ground(scene, field);
        for layer in scene.layers.iter().filter(|l| l.visible()) {
            match layer {
                Layer::Rocks(r) => {
                    if !field.is_clumpy() {
                        flaws.push("the stones are not in clumps".to_string());
                        continue;
                    }
                    let Cover {
                        floor: cover,
                        reach,
                        ..
                    } = r.cover(&floor);
                    if !(KEPT_COVER.0..=KEPT_COVER.1).contains(&cover) {
                        flaws.push(format!("stones cover {:.0}% of the floor", cover * 100.0));
                    }
                    if reach > SKY_SLACK {
                        flaws.push("stones over the sky".to_string());
                    }
                    if r.top > MAX_TOP {
                        flaws.push("a bare band between the stones and the ranges".to_string());
                    }
                }
                Layer::Plants(p) if p.cover(&floor).floor <= 0.0 => {
                    flaws.push("the plants do not show".to_string());
                }
                Layer::Racetrack(r) if r.cover(&floor).reach > SKY_SLACK => {
                    flaws.push("sailing stones over the sky".to_string());
                }
                _ => {}
            }
        }
    }
    if visible(|l| matches!(l, Layer::Clouds(c) if c.cover > MOST_CLOUD)) {
        flaws.push("clouds hide the whole sky".to_string());
    }
    flaws
}
