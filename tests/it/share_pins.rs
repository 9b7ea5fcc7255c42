//! Share codes are a public format: the codes in `tests/share_pins.ron`
//! were written by playa before the settings were reorganised, each with the
//! scene it stands for. Every one must keep decoding to that scene and
//! re-encode to itself, whatever the code inside playa looks like.
//!
//! The file is never regenerated: codes already shared depend on it. (It was
//! written once with `PLAYA_WRITE_SHARE_PINS=1`, which refuses to overwrite
//! it.)

use std::path::PathBuf;

use playa::{Scene, scene::presets, share};
use serde::{Deserialize, Serialize};

/// One pinned code and the scene it decodes to.
#[derive(Serialize, Deserialize)]
struct Pin {
    code: String,
    scene: Scene,
}

fn pins_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/share_pins.ron")
}

/// Heavily edited scenes, as a user could make them in the app.
const EDITS: &[&str] = &[
    "(seed: 3, time: Night, sun_x: 0.2, horizon: 0.45, automaton: (density: 0.41, generations: 30, rule: \"B3678/S34678\", topology: Bounded, columns: 900))",
    "(aspect: 1.0, layers: [Sky((stars: 4000, milky_way: 1.4, sun: false)), Spiral((visible: true, x: 0.3, y: 0.2, turn: 137.5, segments: 300, color: (250, 240, 200)))])",
    "(seed: 77, time: Dusk, layers: [Floor((color: (200, 170, 120), cracks: 0.6, grain: 0.07)), Rocks((near_size: 0.06, far_size: 0.01, jitter: 1.5, primary: (90, 60, 40), secondary_share: 0.5, shadow: 2.0)), Tent((x: 0.1, y: 0.9, size: 0.3, color: (20, 90, 200), lantern: 1.0))])",
    "(aspect: 0.5625, time: GoldenHour, automaton: (columns: 120), layers: [Sky(()), Ranges((count: 4, height: 0.3, roughness: 0.9, width: 3.0, haze: 0.1, terraces: 5, color: (120, 80, 60))), Floor(()), Rocks((visible: false)), Tent((opacity: 0.5))])",
    "(seed: 18446744073709551615, layers: [Tent(()), Tent((x: 0.2)), Rocks((top: 0.1, bottom: 1.3, primary_alpha: 0.2, secondary_alpha: 0.3)), Sky((opacity: 0.25, glow: 0.1, sun_size: 0.08))])",
    "(aspect: 2.3333, sun_x: -0.4, horizon: 0.85, automaton: (density: 0.999, rule: \"B2/S\", generations: 0), layers: [])",
    "(seed: 12, layers: [Ranges(()), Ranges((count: 1, height: 0.05)), Floor((warmth: 0.0, patches: 1.0)), Spiral((visible: true, length: 0.002, step: 0.0015, width: 0.004))])",
];

/// Every preset with several seeds, and the edits.
fn scenes() -> Vec<Scene> {
    let mut scenes = Vec::new();
    // The presets the codes were pinned with (those shipped since have
    // codes of later formats).
    for p in &presets::PRESETS[..6] {
        let preset = p.scene().unwrap();
        scenes.push(preset.clone());
        for seed in [0, 1, 2, 7, 42, 999_999, 1 << 40, u64::MAX] {
            scenes.push(Scene {
                seed,
                ..preset.clone()
            });
        }
    }
    for (i, text) in EDITS.iter().enumerate() {
        scenes.push(Scene::from_ron(text, &format!("edit {i}")).unwrap());
    }
    scenes
}

#[test]
fn pinned_codes_keep_their_scenes() {
    if std::env::var_os("PLAYA_WRITE_SHARE_PINS").is_some() {
        assert!(
            !pins_file().exists(),
            "tests/share_pins.ron exists: pinned codes are never regenerated"
        );
        let pins: Vec<Pin> = scenes()
            .into_iter()
            .map(|scene| Pin {
                code: share::encode(&scene),
                scene,
            })
            .collect();
        let config = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .depth_limit(3)
            .indentor("  ");
        let text = ron::ser::to_string_pretty(&pins, config).unwrap();
        std::fs::write(
            pins_file(),
            format!("// Share codes of format 1 and their scenes: never regenerate.\n{text}\n"),
        )
        .unwrap();
        return;
    }
    let text = std::fs::read_to_string(pins_file()).expect("tests/share_pins.ron");
    let pins: Vec<Pin> = ron::from_str(&text).unwrap();
    assert_eq!(pins.len(), scenes().len());
    for pin in &pins {
        let decoded = share::decode(&pin.code).unwrap_or_else(|e| panic!("{}: {e}", pin.code));
        assert_eq!(decoded, pin.scene, "{} decodes to another scene", pin.code);
        assert_eq!(share::encode(&decoded), pin.code);
    }
    // The scenes built today still get the same codes.
    for (pin, scene) in pins.iter().zip(scenes()) {
        assert_eq!(share::encode(&scene), pin.code);
    }
}
