//! The layers' tests: the kinds' settings, frames and bands.

use super::*;

/// Every kind's table names exactly the serde fields of its settings
/// struct, once each: a field missing from the table would never be
/// read, checked, rounded, shared or shown.
#[test]
fn tables_match_their_structs() {
    fn check<K: Kind>(_: &K) {
        // A field left out of RON at its default is written at its
        // largest value.
        let mut largest = K::default();
        for s in K::SETTINGS {
            if let setting::Value::Float { put, max, .. } = s.value {
                put(&mut largest, max);
            }
        }
        let mut fields = setting::serde_fields(&K::default());
        fields.extend(setting::serde_fields(&largest));
        fields.sort();
        fields.dedup();
        let mut names: Vec<String> = K::SETTINGS.iter().map(|s| s.name.to_string()).collect();
        assert_eq!(&names[..2], ["visible", "opacity"], "{}", K::NAME);
        fields.sort();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(
            names.len(),
            before,
            "{}: a setting is listed twice",
            K::NAME
        );
        assert_eq!(names, fields, "{}: table and struct differ", K::NAME);
    }
    for layer in Layer::every_kind() {
        match_kind!(&layer, l => check(l));
    }
}

/// Defaults lie within their ranges, at their precision, and every
/// setting reads back what it writes.
#[test]
fn defaults_are_valid_and_settings_round_trip() {
    fn check<K: Kind>(_: &K) {
        let default = K::default();
        setting::validate(K::SETTINGS, &default, K::NAME).unwrap();
        let mut rounded = default.clone();
        setting::quantize(K::SETTINGS, &mut rounded);
        assert!(
            rounded == default,
            "{}: a default is off its precision",
            K::NAME
        );
        for s in K::SETTINGS {
            let mut t = K::default();
            for k in [0, s.count() / 3, s.count() - 1] {
                s.set_index(&mut t, k).unwrap();
                assert_eq!(s.index(&t), k, "{}.{}", K::NAME, s.name);
                s.check(&t, K::NAME).unwrap();
            }
        }
    }
    for layer in Layer::every_kind() {
        match_kind!(&layer, l => check(l));
    }
}

#[test]
fn out_of_range_values_name_their_setting_and_place() {
    let err = ron::from_str::<Layer>("Rocks((\n  top: 0.1,\n  jitter: 9.0,\n))")
        .unwrap_err()
        .to_string();
    assert!(err.contains("3:"), "{err}");
    assert!(err.contains("rocks.jitter 9 is out of range"), "{err}");
    let err = ron::from_str::<Layer>("Sky((stars: -4))")
        .unwrap_err()
        .to_string();
    assert!(err.contains("sky.stars -4 is out of range"), "{err}");
    let err = ron::from_str::<Layer>("Tent((colour: (1, 2, 3)))")
        .unwrap_err()
        .to_string();
    assert!(err.contains("colour") && err.contains("lantern"), "{err}");
    let err = ron::from_str::<Layer>("Tent((x: 0.1, x: 0.2))")
        .unwrap_err()
        .to_string();
    assert!(err.contains("duplicate") && err.contains('x'), "{err}");
}

#[test]
fn each_kind_answers_how_much_of_the_floor_it_covers() {
    let scene = crate::scene::presets::load("death-valley").unwrap();
    let grid = crate::compose::rock_grid(&scene).unwrap();
    let stones = rocks::cover::StoneField::of(&grid, scene.automaton.topology);
    assert!(stones.is_clumpy());
    let mut scene = scene;
    scene.add_layer(Layer::Plants(Plants::default()));
    let ground = Ground {
        aspect: scene.aspect,
        horizon: scene.horizon,
        time: scene.time,
        stones: &stones,
        scale: 1.0,
    };
    for layer in &scene.layers {
        let cover = layer.cover(&ground);
        match layer {
            Layer::Rocks(_) => {
                assert!((0.02..0.6).contains(&cover.floor), "{cover:?}");
                // (The model is cautious: a hair over the horizon.)
                assert!(cover.reach < 0.01, "stones off the sky: {cover:?}");
            }
            Layer::Plants(p) => {
                assert!((0.01..0.6).contains(&cover.floor), "{cover:?}");
                // Trees reach higher than bushes, taller ones higher.
                let mut bushes = p.clone();
                bushes.joshua = 0;
                let low = Layer::Plants(bushes).cover(&ground).reach;
                assert!(low < 0.0 && low < cover.reach, "{low} {cover:?}");
                let mut tall = p.clone();
                tall.height *= 1.5;
                assert!(Layer::Plants(tall).cover(&ground).reach > cover.reach);
            }
            Layer::Tent(t) => {
                assert!((0.001..0.1).contains(&cover.floor), "{cover:?}");
                let mut twice = t.clone();
                twice.size *= 2.0;
                let larger = Layer::Tent(twice).cover(&ground);
                assert!((larger.floor / cover.floor - 4.0).abs() < 0.01);
                assert!(larger.reach > cover.reach);
            }
            _ => assert_eq!(cover, Cover::NONE, "{}", layer.name()),
        }
    }
    // The Racetrack: its stones and trails, more with more stones and
    // longer trails, never over the horizon.
    let track = Racetrack::default();
    let cover = Layer::Racetrack(track.clone()).cover(&ground);
    assert!((0.005..0.3).contains(&cover.floor), "{cover:?}");
    assert!(cover.reach <= 0.0 && cover.sky == 0.0, "{cover:?}");
    let more = Layer::Racetrack(Racetrack {
        stones: 3 * track.stones,
        ..track.clone()
    })
    .cover(&ground);
    assert!((more.floor / cover.floor - 3.0).abs() < 0.01, "{more:?}");
    let bare = Layer::Racetrack(Racetrack {
        trail: 0.0,
        ..track.clone()
    })
    .cover(&ground);
    assert!(
        bare.floor > 0.0 && bare.floor < 0.5 * cover.floor,
        "{bare:?}"
    );
    let none = Layer::Racetrack(Racetrack { stones: 0, ..track }).cover(&ground);
    assert_eq!(none.floor, 0.0);
    // Dunes: a sand sea covers the floor; barchans apart on it cover a
    // little, more with more sand; nothing rises over the horizon (the
    // viewer stands as high as the tallest dune).
    let sea = Layer::Dunes(Dunes::default()).cover(&ground);
    assert!(sea.floor > 0.95 && sea.reach < 0.0, "{sea:?}");
    let barchans = |cover| Dunes {
        form: 0,
        cover,
        ..Dunes::default()
    };
    let (few, more) = (
        Layer::Dunes(barchans(0.1)).cover(&ground),
        Layer::Dunes(barchans(0.4)).cover(&ground),
    );
    assert!((0.01..0.5).contains(&few.floor), "{few:?}");
    assert!(more.floor > few.floor, "{more:?}");
    assert!(few.reach < 0.0, "{few:?}");
}

#[test]
fn kinds_are_listed_once_in_order() {
    let names: Vec<&str> = Layer::every_kind().iter().map(Layer::name).collect();
    assert_eq!(
        names,
        [
            "sky",
            "ranges",
            "floor",
            "rocks",
            "tent",
            "spiral",
            "clouds",
            "racetrack",
            "plants",
            "relief",
            "dunes"
        ]
    );
    assert_eq!(KINDS, names.len());
    for (i, layer) in Layer::every_kind().iter().enumerate() {
        assert_eq!(layer.kind_index(), i);
    }
}

/// Every layer, prepared for a window's columns and rows, paints a band
/// of the window's columns with the very bits it paints on those
/// columns of the whole rows, over a background that varies: every
/// layer of every preset and of a packed field, on windows down to one
/// pixel, crossing stones, the tent and the horizon.
#[test]
fn every_layer_paints_a_window_as_the_whole_rows_there() {
    let mut scenes: Vec<(String, crate::Scene)> = crate::scene::presets::PRESETS
        .iter()
        .map(|p| (p.name.to_string(), p.scene().unwrap()))
        .collect();
    let mut packed = crate::Scene::default();
    packed.automaton.density = 0.5;
    packed.automaton.columns = 968;
    scenes.push(("packed".into(), packed));
    let mut cloudy = crate::scene::presets::load("golden-hour").unwrap();
    cloudy.layers.insert(
        1,
        Layer::Clouds(Clouds {
            cover: 0.6,
            streaks: 0.4,
            dust: 0.5,
            ..Clouds::default()
        }),
    );
    scenes.push(("cloudy".into(), cloudy));
    // The Racetrack under a low sun and clouds, its trails running
    // toward the viewer and across, big stones near.
    for (wind, time) in [(250.0, TimeOfDay::GoldenHour), (30.0, TimeOfDay::Noon)] {
        let mut track = crate::Scene {
            wind,
            time,
            ..crate::Scene::default()
        };
        track.add_layer(Layer::Racetrack(Racetrack {
            stones: 60,
            size: 0.8,
            trail: 120.0,
            age: 0.3,
            ..Racetrack::default()
        }));
        track.add_layer(Layer::Clouds(Clouds {
            cover: 0.5,
            ..Clouds::default()
        }));
        scenes.push((format!("racetrack {wind}"), track));
    }
    let mut planted = crate::scene::presets::load("golden-hour").unwrap();
    planted.add_layer(Layer::Plants(Plants {
        creosote: 0.8,
        clumped: 0.9,
        joshua: 14,
        lean: 0.6,
        ..Plants::default()
    }));
    scenes.push(("planted".into(), planted));
    // Dunes of each form, in a sand sea and apart on the floor, under
    // clouds, the wind every way.
    for (form, cover, wind) in [(1, 0.95, 205.0), (0, 0.3, 90.0), (2, 0.7, 330.0)] {
        let mut sandy = crate::Scene {
            wind,
            time: TimeOfDay::Dawn,
            ..crate::Scene::default()
        };
        sandy.add_layer(Layer::Dunes(Dunes {
            form,
            cover,
            height: 12.0,
            spacing: 150.0,
            ..Dunes::default()
        }));
        sandy.add_layer(Layer::Clouds(Clouds {
            cover: 0.5,
            ..Clouds::default()
        }));
        scenes.push((format!("dunes {form}"), sandy));
    }
    let (w, h) = (333u32, 187u32);
    let background = |x: u32, y: u32| [(x % 7) as f32 * 0.1, 0.3, ((x + y) % 5) as f32 * 0.2];
    for (name, scene) in &scenes {
        let plan = crate::compose::Plan::new(scene).unwrap();
        let whole = plan.frame(w, h);
        let horizon = (scene.horizon * h as f32) as u32;
        for [x, y, cw, ch] in [
            [0, 0, 1, 1],
            [332, 186, 1, 1],
            [5, horizon.saturating_sub(3), 200, 9],
            [130, 120, 70, 40],
            [301, 60, 32, 127],
            [64, 0, 64, 187],
        ] {
            let mut window = plan.frame(w, h);
            window.cols = x..x + cw;
            window.rows = y..y + ch;
            for layer in scene.layers.iter().filter(|l| l.visible()) {
                let (full, part) = (
                    layer.prepare(&whole).unwrap(),
                    layer.prepare(&window).unwrap(),
                );
                let mut y0 = y;
                while y0 < y + ch {
                    // To the end of the picture's band, or the window's.
                    let rows = (BAND_ROWS - y0 % BAND_ROWS).min(y + ch - y0);
                    let index = (y0 / BAND_ROWS) as usize;
                    let mut row_px: Vec<Linear> = (0..rows * w)
                        .map(|i| background(i % w, y0 + i / w))
                        .collect();
                    full.draw(&mut Band {
                        y0,
                        rows,
                        x0: 0,
                        width: w,
                        index,
                        px: &mut row_px,
                        depth: None,
                    });
                    let mut px: Vec<Linear> = (0..rows * cw)
                        .map(|i| background(x + i % cw, y0 + i / cw))
                        .collect();
                    part.draw(&mut Band {
                        y0,
                        rows,
                        x0: x,
                        width: cw,
                        index,
                        px: &mut px,
                        depth: None,
                    });
                    for r in 0..rows as usize {
                        let a = r * w as usize + x as usize;
                        let (got, want) = (
                            &px[r * cw as usize..][..cw as usize],
                            &row_px[a..a + cw as usize],
                        );
                        assert!(
                            got.iter()
                                .flatten()
                                .map(|v| v.to_bits())
                                .eq(want.iter().flatten().map(|v| v.to_bits())),
                            "{name}: {} in window {:?} differs on row {}",
                            layer.name(),
                            [x, y, cw, ch],
                            y0 + r as u32
                        );
                    }
                    y0 += rows;
                }
            }
        }
    }
}
