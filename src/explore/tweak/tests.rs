use super::*;

fn set(scene: &Scene, args: &[&str]) -> Result<Scene> {
    Tweaks::parse(args)?.apply(scene)
}

fn err(args: &[&str]) -> String {
    match Tweaks::parse(args).and_then(|t| t.apply(&Scene::default())) {
        Ok(_) => panic!("{args:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

fn rocks(scene: &Scene) -> Vec<&crate::layers::Rocks> {
    scene
        .layers
        .iter()
        .filter_map(|l| match l {
            Layer::Rocks(r) => Some(r),
            _ => None,
        })
        .collect()
}

#[test]
fn every_kind_of_value_is_set() {
    let s = set(
        &Scene::default(),
        &[
            "seed=18446744073709551615",
            "time=golden-hour",
            "sun_x=-0.25",
            "horizon = 0.5",
            "automaton.density=0.6",
            "automaton.generations=12",
            "automaton.rule=B36/S23",
            "automaton.topology=Bounded",
            "rocks.roughness=0.8",
            "rocks.visible=false",
            "tent.color=#aa8844",
            "spiral.color=170,136,68",
        ],
    )
    .unwrap();
    assert_eq!(s.seed, u64::MAX);
    assert_eq!(s.time, TimeOfDay::GoldenHour);
    assert_eq!((s.sun_x, s.horizon), (-0.25, 0.5));
    assert_eq!(s.automaton.density, 0.6);
    assert_eq!(s.automaton.generations, 12);
    assert_eq!(s.automaton.rule, "B36/S23".parse().unwrap());
    assert_eq!(s.automaton.topology, Topology::Bounded);
    assert_eq!(rocks(&s)[0].roughness, 0.8);
    assert!(!rocks(&s)[0].visible);
    for l in &s.layers {
        match l {
            Layer::Tent(t) => assert_eq!(t.color, Rgb(0xaa, 0x88, 0x44)),
            Layer::Spiral(p) => assert_eq!(p.color, Rgb(170, 136, 68)),
            _ => {}
        }
    }
    // Everything else is as it was.
    let mut back = s.clone();
    back.seed = 1;
    assert_ne!(back, Scene::default());
}

#[test]
fn every_setting_of_every_kind_has_a_key() {
    let mut scene = Scene {
        layers: crate::Layer::every_kind(),
        ..Scene::default()
    };
    for kind in kinds() {
        for (name, shape) in &kind.settings {
            let value = match shape {
                Shape::Float { min, .. } => min.to_string(),
                Shape::Uint { min, .. } => min.to_string(),
                Shape::Bool => "true".into(),
                Shape::Rgb => "#010203".into(),
                _ => unreachable!("layers have numbers, switches and colours"),
            };
            scene = set(&scene, &[&format!("{}.{name}={value}", kind.name)])
                .unwrap_or_else(|e| panic!("{}.{name}: {e}", kind.name));
        }
    }
}

#[test]
fn the_nth_layer_of_a_kind() {
    let mut scene = Scene::default();
    scene.layers.push(Layer::Rocks(Default::default()));
    let s = set(&scene, &["rocks#2.roughness=0.9"]).unwrap();
    let before = rocks(&scene)[0].roughness;
    assert_eq!(
        rocks(&s).iter().map(|r| r.roughness).collect::<Vec<_>>(),
        [before, 0.9]
    );
    let s = set(&scene, &["rocks.roughness=0.1"]).unwrap();
    assert!(rocks(&s).iter().all(|r| r.roughness == 0.1));
    let e = set(&scene, &["rocks#3.roughness=0.1"])
        .unwrap_err()
        .to_string();
    assert_eq!(e, "rocks#3.roughness: the scene has 2 rocks layers, not 3");
    let e = err(&["rocks#0.roughness=0.1"]);
    assert!(e.contains("from 1"), "{e}");
}

#[test]
fn a_missing_layer_says_so() {
    let scene = Scene {
        layers: vec![Layer::Sky(Default::default())],
        ..Scene::default()
    };
    let e = set(&scene, &["rocks.roughness=0.5"])
        .unwrap_err()
        .to_string();
    assert_eq!(e, "rocks.roughness: the scene has no rocks layer");
}

#[test]
fn unknown_keys_list_what_is_valid() {
    let e = err(&["colour=1"]);
    assert!(e.starts_with("colour: no such setting"), "{e}");
    for name in ["seed", "sun_x", "automaton.density", "rocks", "spiral"] {
        assert!(e.contains(name), "{name}: {e}");
    }
    let e = err(&["rocks.rough=1"]);
    assert!(e.contains("rocks has no setting \"rough\""), "{e}");
    assert!(e.contains("roughness") && e.contains("jitter"), "{e}");
    let e = err(&["rocks"]);
    assert!(e.contains("KEY=VALUE"), "{e}");
    let e = err(&["rocks.roughness="]);
    assert!(e.contains("no value"), "{e}");
}

/// Every number setting's out-of-range message, below and above its
/// range, quotes the range as a person writes it: no `f64` digits of an
/// `f32` end (`0.10000000149011612`, `0.29999999`).
#[test]
fn ranges_are_quoted_without_float_noise() {
    let scene = Scene::SETTINGS
        .iter()
        .map(|s| (s.name.to_string(), shape(s)));
    let layers = kinds().into_iter().flat_map(|k| {
        k.settings
            .into_iter()
            .map(move |(name, shape)| (format!("{}.{name}", k.name), shape))
    });
    let mut checked = 0;
    for (key, shape) in scene.chain(layers) {
        let (below, above) = match shape {
            Shape::Float { min, max, .. } => ((min - 1.0).to_string(), (max + 1.0).to_string()),
            Shape::Uint { min, max } => (
                (i64::from(min) - 1).to_string(),
                (i64::from(max) + 1).to_string(),
            ),
            _ => continue,
        };
        for value in [below, above] {
            let e = err(&[&format!("{key}={value}")]);
            assert!(e.contains("out of range"), "{key}={value}: {e}");
            assert!(!e.contains("0000000") && !e.contains("99999"), "{e}");
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked} messages");
}

#[test]
fn bad_values_name_the_range_or_the_type() {
    assert_eq!(
        err(&["rocks.roughness=1.5"]),
        "rocks.roughness 1.5 is out of range: must be a number from 0 to 1"
    );
    assert_eq!(
        err(&["automaton.columns=0"]),
        "automaton.columns 0 is out of range: must be a number from 1 to 2048"
    );
    assert!(err(&["automaton.columns=-3"]).contains("out of range"));
    assert!(err(&["horizon=NaN"]).contains("out of range"));
    assert!(err(&["rocks.roughness=abc"]).contains("\"abc\" is not a number"));
    assert_eq!(
        err(&["seed=-1"]),
        "seed -1 is out of range: must be a whole number from 0 to 18446744073709551615"
    );
    assert!(err(&["rocks.visible=yes"]).contains("true or false"));
    assert!(err(&["tent.color=#12345"]).contains("colour"));
    assert!(err(&["tent.color=1,2,300"]).contains("colour"));
    let e = err(&["time=teatime"]);
    assert!(e.contains("Noon, GoldenHour, Dusk, BlueHour, Night"), "{e}");
    assert!(e.contains("an hour from 0 to 24"), "{e}");
    assert!(err(&["time=24.5"]).contains("out of range"));
    assert!(err(&["automaton.rule=B0/S1"]).contains("B0"));
    assert!(err(&["automaton.topology=sphere"]).contains("Torus or Bounded"));
    // The grid the scene's settings make is checked too.
    let e = err(&["aspect=0.25", "automaton.columns=2048"]);
    assert!(e.contains("cells"), "{e}");
}

#[test]
fn sweeps_give_one_scene_per_value() {
    let t = Tweaks::parse(&["rocks.roughness=0..=1:5", "time=Dusk"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    let got: Vec<f32> = v.iter().map(|v| rocks(&v.scene)[0].roughness).collect();
    assert_eq!(got, [0.0, 0.25, 0.5, 0.75, 1.0]);
    assert!(v.iter().all(|v| v.scene.time == TimeOfDay::Dusk));
    assert_eq!(v[1].label().unwrap(), "rocks.roughness=0.25");
    assert_eq!(v[1].file_suffix().unwrap(), "rocks.roughness-0.25");
    // A..B:N leaves B out: N steps of (B − A)/N from A.
    let t = Tweaks::parse(&["rocks.roughness=0..1:4"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    let got: Vec<f32> = v.iter().map(|v| rocks(&v.scene)[0].roughness).collect();
    assert_eq!(got, [0.0, 0.25, 0.5, 0.75]);
    let t = Tweaks::parse(&["rocks.roughness=0.5..1:1"]).unwrap();
    assert_eq!(t.sweep().unwrap().len(), 1);

    let t = Tweaks::parse(&["time=Noon,Night"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    assert_eq!(v[1].scene.time, TimeOfDay::Night);
    assert_eq!(v[1].file_suffix().unwrap(), "time-Night");

    // The time of day sweeps by hours, to its precision (0.1), named where
    // it falls on a named time; its ends may be named times.
    let t = Tweaks::parse(&["time=5..=20:4"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    let hours: Vec<f32> = v.iter().map(|v| v.scene.time.hour()).collect();
    assert_eq!(hours, [5.0, 10.0, 15.0, 20.0]);
    let t = Tweaks::parse(&["time=Dawn..Noon:4"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    let times: Vec<TimeOfDay> = v.iter().map(|v| v.scene.time).collect();
    assert_eq!(
        times,
        [
            TimeOfDay::Dawn,
            TimeOfDay::Hour(7.5),
            TimeOfDay::Hour(9.0),
            TimeOfDay::Hour(10.5)
        ]
    );
    assert_eq!(t.sweep().unwrap().text(), "Dawn..Noon:4");
    let t = Tweaks::parse(&["time=6..7:3"]).unwrap();
    assert_eq!(t.sweep().unwrap().value_text(1), "6.3");

    let t = Tweaks::parse(&["tent.color=#ff0000,(0,0,255)"]).unwrap();
    assert_eq!(t.sweep().unwrap().len(), 2);
    let t = Tweaks::parse(&["automaton.rule=B3/S23,B36/S23"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    assert_eq!(v[0].file_suffix().unwrap(), "automaton.rule-B3_S23");

    // Whole numbers and seeds are rounded, halves up.
    let t = Tweaks::parse(&["automaton.generations=0..=8:5"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    let g: Vec<u32> = v.iter().map(|v| v.scene.automaton.generations).collect();
    assert_eq!(g, [0, 2, 4, 6, 8]);
    let t = Tweaks::parse(&["automaton.generations=0..8:4"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    let g: Vec<u32> = v.iter().map(|v| v.scene.automaton.generations).collect();
    assert_eq!(g, [0, 2, 4, 6]);
    let t = Tweaks::parse(&["seed=0..=10:3"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    let s: Vec<u64> = v.iter().map(|v| v.scene.seed).collect();
    assert_eq!(s, [0, 5, 10]);
    assert_eq!(v[2].file_suffix(), None);
    assert_eq!(v[2].label().unwrap(), "seed=10");
    let t = Tweaks::parse(&["seed=0..5:2"]).unwrap();
    let v = t.variants(&Scene::default()).unwrap();
    let s: Vec<u64> = v.iter().map(|v| v.scene.seed).collect();
    assert_eq!(s, [0, 3]);
    let t = Tweaks::parse(&["seed=0..=18446744073709551615:2"]).unwrap();
    assert_eq!(t.sweep().unwrap().value_text(1), "18446744073709551615");
    let t = Tweaks::parse(&["seed=1..18446744073709551615:2"]).unwrap();
    assert_eq!(t.sweep().unwrap().value_text(1), "9223372036854775808");
}

#[test]
fn bad_sweeps_are_refused() {
    let e = err(&["rocks.roughness=0..1:5", "sun_x=0,1"]);
    assert!(e.contains("second sweep"), "{e}");
    assert!(err(&["rocks.roughness=0..=1:1"]).contains("2 or more"));
    assert!(err(&["rocks.roughness=0..1:0"]).contains("1 or more"));
    assert!(err(&["rocks.roughness=0..1"]).contains("A..B:N"));
    assert!(err(&["rocks.roughness=0..1:x"]).contains("A..=B:N"));
    assert!(err(&["rocks.roughness=0..=2:3"]).contains("out of range"));
    // The rule of every range: empty, reversed and half ranges refused.
    for (bad, says) in [
        ("rocks.roughness=1..0:5", "is reversed"),
        ("rocks.roughness=1..=0:5", "is reversed"),
        ("automaton.generations=8..0:5", "is reversed"),
        ("seed=10..0:3", "is reversed"),
        ("rocks.roughness=0.5..0.5:3", "is empty"),
        ("rocks.roughness=0.5..:3", "has no end"),
        ("rocks.roughness=..0.5:3", "has no start"),
        ("rocks.roughness=0..1:0", "1 or more"),
    ] {
        let e = err(&[bad]);
        let value = bad.split_once('=').unwrap().1;
        assert!(
            e.contains(&format!("the sweep \"{value}\" "))
                && e.contains(says)
                && e.contains(crate::base::range::RULE),
            "{bad}: {e}"
        );
    }
    assert!(err(&["rocks.roughness=0..=0.001:5"]).contains("twice"));
    // B left out stays out when the values are rounded (found by fuzzing).
    for bad in [
        "seed=0..1:2",
        "automaton.generations=0..1:2",
        "automaton.density=0..0.001:2",
    ] {
        let e = err(&[bad]);
        assert!(e.contains("A..B leaves out"), "{bad}: {e}");
    }
    assert_eq!(
        Tweaks::parse(&["seed=0..2:2"])
            .unwrap()
            .variants(&Scene::default())
            .unwrap()
            .len(),
        2
    );
    assert!(err(&["rocks.visible=false..true:2"]).contains("not a number"));
    assert!(err(&["time=Night..Noon:2"]).contains("is reversed"));
    assert!(err(&["time=5..30:2"]).contains("out of range"));
    assert!(err(&["time=5..=5.1:3"]).contains("twice"));
    assert!(err(&["rocks.roughness=0..1:100000"]).contains("limit"));
    assert!(err(&["horizon=0.5", "horizon=0.6"]).contains("set twice"));
    let t = Tweaks::parse(&["horizon=0.5,0.6"]).unwrap();
    assert!(
        t.apply(&Scene::default())
            .unwrap_err()
            .to_string()
            .contains("sweep")
    );
}

proptest::proptest! {
    /// Any text after any key is a value or one clear error, never a
    /// panic, and whatever is accepted makes a valid scene.
    #[test]
    fn any_value_is_set_or_refused(
        key in proptest::sample::select(vec![
            "seed", "aspect", "time", "sun_x", "automaton.columns", "automaton.rule",
            "automaton.topology", "rocks.roughness", "rocks#2.outcrop", "tent.color",
            "sky.sun", "spiral#1.segments", "nope", "rocks.nope", "rocks#x.top",
        ]),
        value in "[-0-9a-zA-Z.,:#()/ ]{0,24}",
    ) {
        let mut scene = Scene::default();
        scene.layers.push(Layer::Rocks(Default::default()));
        if let Ok(t) = Tweaks::parse(&[format!("{key}={value}")])
            && let Ok(variants) = t.variants(&scene)
        {
            for v in variants {
                v.scene.validate().unwrap();
                proptest::prop_assert_eq!(&v.scene, &v.scene.quantized());
            }
        }
    }
}

#[test]
fn values_keep_their_setting_s_precision() {
    let s = set(&Scene::default(), &["rocks.roughness=0.12345"]).unwrap();
    assert_eq!(rocks(&s)[0].roughness, 0.123);
    assert_eq!(s, s.quantized());
}

#[test]
fn the_settings_a_sweep_can_change_are_listed_with_their_keys() {
    let mut scene = Scene::default();
    scene.add_layer(crate::layers::Layer::Tent(Default::default()));
    let all = sweepable(&scene);
    let time = all.iter().find(|s| s.key == "time").unwrap();
    assert_eq!(
        (time.label.as_str(), time.value, time.max),
        ("Time of day", 12.0, 24.0)
    );
    assert!(all.iter().all(|s| s.key != "aspect" && s.key != "seed"));
    // Each key is one `--set` takes, and its range sweep reads.
    for s in &all {
        let text = s.sweep_text(s.min, s.max, 2);
        Tweak::parse(&format!("{}={text}", s.key)).unwrap_or_else(|e| panic!("{}: {e}", s.key));
        assert!(s.min <= s.value && s.value <= s.max, "{s:?}");
    }
    // Two tents are numbered, as KIND#N counts them.
    assert!(
        all.iter()
            .any(|s| s.key.starts_with("tent#2.") && s.label.starts_with("Tent 2: "))
    );
    let drift = all.iter().find(|s| s.key == "clouds.drift");
    assert!(drift.is_none() || drift.unwrap().label.ends_with("Drift"));
}

/// Two keys that reach one setting of one layer set it twice, whatever
/// their order: `dunes.height` is every dunes layer's height, the first's
/// too (issue 57).
#[test]
fn two_keys_that_reach_one_setting_are_refused_naming_both() {
    for (args, message) in [
        (
            ["dunes#1.height=10", "dunes.height=5"],
            "dunes.height: is set twice: dunes#1.height sets it too (the height of dunes \
             layer 1)",
        ),
        (
            ["dunes.height=5", "dunes#2.height=10"],
            "dunes#2.height: is set twice: dunes.height sets it too (the height of dunes \
             layer 2)",
        ),
        (
            ["rocks#2.roughness=0.5", "rocks#02.roughness=0.6"],
            "rocks#02.roughness: is set twice: rocks#2.roughness sets it too (the \
             roughness of rocks layer 2)",
        ),
        // A sweep and a fixed value reach one setting too.
        (
            ["rocks.roughness=0..1:3", "rocks#2.roughness=0.5"],
            "rocks#2.roughness: is set twice: rocks.roughness sets it too (the roughness \
             of rocks layer 2)",
        ),
        (["horizon=0.5", "horizon=0.6"], "horizon: is set twice"),
    ] {
        assert_eq!(Tweaks::parse(&args).unwrap_err().to_string(), message);
    }
    // Other layers, or other settings, are set once each.
    let mut scene = Scene::default();
    scene.layers.push(Layer::Rocks(Default::default()));
    for args in [
        ["rocks#1.roughness=0.1", "rocks#2.roughness=0.2"],
        ["rocks.roughness=0.1", "rocks#2.jitter=0.2"],
        ["rocks.roughness=0.3", "ranges.roughness=0.2"],
    ] {
        set(&scene, &args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    }
}

/// Messages that misled (issue 57): a whole number too large is out of
/// range, not "not a whole number"; a colour of two parts is said to need
/// three, not to be "1".
#[test]
fn too_large_numbers_and_short_colours_say_so() {
    assert_eq!(
        err(&["plants.joshua=18446744073709551616"]),
        "plants.joshua 18446744073709551616 is out of range: must be a number from 0 to 64"
    );
    assert!(err(&["automaton.generations=-99999999999999999999999"]).contains("is out of range"),);
    assert_eq!(
        err(&["seed=18446744073709551616"]),
        "seed 18446744073709551616 is out of range: must be a whole number from 0 to \
         18446744073709551615"
    );
    assert!(err(&["automaton.generations=1.5"]).contains("\"1.5\" is not a whole number"));
    assert!(err(&["seed=1.5"]).contains("\"1.5\" is not a seed"));
    assert_eq!(
        err(&["dunes.color=1,2"]),
        "dunes.color: \"1,2\" has 2 parts, but a colour has three: R,G,B with each 0 to 255 \
         (or #rrggbb)"
    );
    for (value, parts) in [
        ("7", "1 part"),
        ("1,2,3,4", "4 parts"),
        ("(1,2)", "2 parts"),
    ] {
        let e = err(&[&format!("tent.color={value}")]);
        assert!(
            e.contains(&format!("has {parts}, but a colour has three")),
            "{e}"
        );
    }
    assert!(err(&["tent.color=1,2,300"]).contains("\"1,2,300\" is not a colour"));
    // Colours written without their `#` are still a list of colours.
    let t = Tweaks::parse(&["tent.color=112233,445566"]).unwrap();
    assert_eq!(t.sweep().unwrap().len(), 2);
}
