//! Scenes survive RON: any valid scene written and read back is the same.

use playa::base::color::Rgb;
use playa::layers::{Floor, Layer, Ranges, Rocks, Sky, Spiral, Tent};
use playa::scene::Automaton;
use playa::{Rule, Scene, TimeOfDay, Topology};
use proptest::prelude::*;

fn rgb() -> impl Strategy<Value = Rgb> {
    any::<(u8, u8, u8)>().prop_map(|(r, g, b)| Rgb(r, g, b))
}

fn layer() -> impl Strategy<Value = Layer> {
    let common = (any::<bool>(), 0.0f32..=1.0);
    prop_oneof![
        (
            common.clone(),
            any::<bool>(),
            0.0f32..0.2,
            0.0f32..4.0,
            0u32..20_000,
            0.0f32..2.0
        )
            .prop_map(
                |((visible, opacity), sun, sun_size, glow, stars, milky_way)| Layer::Sky(Sky {
                    visible,
                    opacity,
                    sun,
                    sun_size,
                    glow,
                    stars,
                    milky_way,
                })
            ),
        (
            common.clone(),
            1u32..=4,
            0.0f32..0.5,
            0.0f32..1.0,
            0.1f32..10.0,
            rgb(),
            0.0f32..1.0
        )
            .prop_map(
                |((visible, opacity), count, height, roughness, width, color, haze)| {
                    Layer::Ranges(Ranges {
                        visible,
                        opacity,
                        count,
                        height,
                        roughness,
                        width,
                        color,
                        haze,
                        terraces: count * 2,
                    })
                }
            ),
        (common.clone(), rgb(), 0.0f32..1.0, 0.0f32..0.5, 0.0f32..1.0).prop_map(
            |((visible, opacity), color, warmth, grain, patches)| {
                Layer::Floor(Floor {
                    visible,
                    opacity,
                    color,
                    warmth,
                    grain,
                    patches,
                    cracks: warmth / 2.0,
                    mirage: patches / 2.0,
                })
            }
        ),
        (
            common.clone(),
            (0.0005f32..0.3, 0.0005f32..0.3),
            (0.0f32..0.5, 0.0f32..1.5),
            0.0f32..2.0,
            (rgb(), rgb(), 0.0f32..1.0)
        )
            .prop_map(
                |(
                    (visible, opacity),
                    (near_size, far_size),
                    (top, bottom),
                    jitter,
                    (primary, secondary, secondary_share),
                )| {
                    Layer::Rocks(Rocks {
                        visible,
                        opacity,
                        near_size,
                        far_size,
                        top,
                        bottom,
                        jitter,
                        primary,
                        secondary,
                        secondary_share,
                        ..Rocks::default()
                    })
                }
            ),
        (
            common.clone(),
            -0.5f32..1.5,
            0.0f32..1.5,
            0.0f32..1.0,
            rgb(),
            0.0f32..2.0
        )
            .prop_map(|((visible, opacity), x, y, size, color, lantern)| {
                Layer::Tent(Tent {
                    visible,
                    opacity,
                    x,
                    y,
                    size,
                    color,
                    lantern,
                })
            }),
        (
            common,
            -1.0f32..2.0,
            0.0f32..1.0,
            -360.0f32..360.0,
            0u32..200,
            0.0f32..0.05,
            rgb()
        )
            .prop_map(
                |((visible, opacity), x, length, turn, segments, width, color)| {
                    Layer::Spiral(Spiral {
                        visible,
                        opacity,
                        x,
                        length,
                        turn,
                        segments,
                        width,
                        color,
                        ..Spiral::default()
                    })
                }
            ),
    ]
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        any::<u64>(),
        0.25f32..4.0,
        0usize..4,
        (
            -0.5f32..1.5,
            0.1f32..0.9,
            prop_oneof![Just(0.0f32), 0.0f32..360.0],
            // One ground, the eye and the lens: their defaults (left out
            // of RON) or any value.
            any::<bool>(),
            prop_oneof![Just(1.6f32), 0.3f32..2000.0],
            prop_oneof![Just(24.0f32), 14.0f32..400.0],
        ),
        (
            0.0f32..=1.0,
            0u32..=1000,
            0u16..512,
            0u16..512,
            any::<bool>(),
            1u32..=400,
        ),
        prop::collection::vec(layer(), 0..8),
    )
        .prop_map(
            |(
                seed,
                aspect,
                time,
                (sun_x, horizon, wind, one_ground, eye, lens),
                (density, generations, b, s, torus, columns),
                layers,
            )| {
                Scene {
                    seed,
                    aspect,
                    time: TimeOfDay::ALL[time],
                    sun_x,
                    horizon,
                    automaton: Automaton {
                        density,
                        generations,
                        rule: Rule::from_masks(b & !1, s).unwrap(),
                        topology: if torus {
                            Topology::Torus
                        } else {
                            Topology::Bounded
                        },
                        columns,
                    },
                    wind,
                    one_ground,
                    eye,
                    lens,
                    look: playa::scene::LOOK_FIRST,
                    layers,
                }
            },
        )
        // A valid scene keeps the cost limit too (a few rocks layers on a
        // tall grid pass it).
        .prop_filter("within the cost limit", |s| s.check_cost().is_ok())
}

/// Any valid scene at its documented precision: the form every scene read
/// from RON has.
fn quantized_scene() -> impl Strategy<Value = Scene> {
    scene().prop_map(|s| s.quantized())
}

proptest! {
    #[test]
    fn ron_round_trip(scene in quantized_scene()) {
        scene.validate().unwrap();
        let text = scene.to_ron();
        let back = Scene::from_ron(&text, "round trip").unwrap();
        prop_assert_eq!(&back, &scene);
        prop_assert_eq!(back.to_ron(), text);
    }
}

proptest! {
    #[test]
    fn reading_quantizes(scene in scene()) {
        let back = Scene::from_ron(&scene.to_ron(), "any").unwrap();
        prop_assert_eq!(back, scene.quantized());
    }
}

#[test]
fn every_preset_round_trips() {
    for p in playa::scene::presets::PRESETS {
        let scene = p.scene().unwrap();
        assert_eq!(Scene::from_ron(&scene.to_ron(), p.name).unwrap(), scene);
    }
}

/// A scene that starts with a UTF-8 byte-order mark, as some editors write
/// it, reads as the same scene without one, from a file or pasted (issue
/// 57: "Expected opening `(`").
#[test]
fn a_byte_order_mark_is_no_part_of_a_scene() {
    let text = "// Marked.\n(seed: 9, time: Dusk)\n";
    let marked = format!("\u{feff}{text}");
    let plain = Scene::from_ron(text, "plain.ron").unwrap();
    assert_eq!(Scene::from_ron(&marked, "marked.ron").unwrap(), plain);
    let dir = tempfile::tempdir().unwrap();
    for name in ["marked.ron", "marked.txt"] {
        let path = dir.path().join(name);
        std::fs::write(&path, &marked).unwrap();
        let source = playa::Source::from_path(&path).unwrap();
        assert_eq!(source.load().unwrap().scene, plain, "{name}");
    }
    let pasted = playa::Source::from_text(&marked, "pasted text").unwrap();
    assert_eq!(pasted.load().unwrap().scene, plain);
    // A mark anywhere else is no blank: the error names its place.
    let err = Scene::from_ron("(seed: 9,\u{feff} time: Dusk)", "inner.ron")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("inner.ron: line 1, column "), "{err}");
}
