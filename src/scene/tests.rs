use super::*;

#[test]
fn default_round_trips_through_ron() {
    let scene = Scene::default();
    let text = scene.to_ron();
    assert_eq!(Scene::from_ron(&text, "test").unwrap(), scene, "{text}");
}

/// Each named rule has its densities, and at both ends of them the
/// default scene is left a field of clumps, as the `density_ranges`
/// example measures it over all the presets.
#[test]
fn every_named_rule_has_densities_that_leave_clumps() {
    assert_eq!(RULE_DENSITIES.len(), RULE_NAMES.len());
    for (name, text) in RULE_NAMES {
        let rule: Rule = text.parse().unwrap();
        let (range, _) = density_range(rule).unwrap_or_else(|| panic!("{name}"));
        for density in [*range.start(), *range.end()] {
            let mut scene = Scene::default();
            scene.automaton.rule = rule;
            scene.automaton.density = density;
            let plan = crate::compose::Plan::new(&scene).unwrap();
            let grid = plan.grid();
            let cells = (grid.width() * grid.height()) as u64;
            let live = grid.population();
            let clumps = crate::life::clumps::find(grid, scene.automaton.topology);
            let largest = clumps.iter().map(|c| u64::from(c.cells)).max();
            assert!(
                live * 1000 >= cells && clumps.len() >= 10 && largest <= Some(cells / 10),
                "{name} at {density}: {live} of {cells} alive, {} clumps, {largest:?}",
                clumps.len()
            );
        }
    }
    assert_eq!(density_range("B2/S".parse().unwrap()), None);
}

#[test]
fn empty_scene_is_the_default() {
    assert_eq!(Scene::from_ron("()", "x").unwrap(), Scene::default());
}

#[test]
fn a_preset_names_only_what_it_changes() {
    let s = Scene::from_ron(
        "(seed: 9, automaton: (rule: \"23/3\"), layers: [Sky(()), Tent((x: 0.2))])",
        "p",
    )
    .unwrap();
    assert_eq!(s.seed, 9);
    assert_eq!(s.automaton.rule, Rule::CONWAY);
    assert_eq!(s.automaton.density, 0.8);
    assert_eq!(s.layers.len(), 2);
    let Layer::Tent(t) = &s.layers[1] else {
        panic!()
    };
    assert_eq!(t.x, 0.2);
    assert_eq!(t.size, crate::layers::Tent::default().size);
}

#[test]
fn errors_name_line_and_column() {
    let err = Scene::from_ron("(\n  seed: 1,\n  colour: 3,\n)", "bad.ron")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("bad.ron: line 3, column "), "{err}");
    assert!(err.contains("colour"), "{err}");

    let err = Scene::from_ron("(\n  automaton: (density: 7.5),\n)", "d.ron")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("d.ron: line 2, column "), "{err}");
    assert!(
        err.contains("automaton.density 7.5 is out of range"),
        "{err}"
    );

    let err = Scene::from_ron("(automaton: (columns: 1000000000))", "c")
        .unwrap_err()
        .to_string();
    assert!(err.contains("2048"), "{err}");
    let err = Scene::from_ron("(automaton: (generations: 1000000))", "g")
        .unwrap_err()
        .to_string();
    assert!(err.contains("1000"), "{err}");
    let err = Scene::from_ron("(horizon: NaN)", "n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("horizon"), "{err}");
    let err = Scene::from_ron("(automaton: (columns: -5))", "neg");
    assert!(err.is_err());
    let err = Scene::from_ron("(automaton: (rule: \"B0/S1\"))", "r")
        .unwrap_err()
        .to_string();
    assert!(err.contains("B0"), "{err}");
}

#[test]
fn validate_rejects_what_code_builds() {
    let mut s = Scene::default();
    s.automaton.columns = MAX_COLUMNS;
    s.aspect = MIN_ASPECT;
    assert!(s.validate().unwrap_err().to_string().contains("cells"));
    let s = Scene {
        layers: vec![Layer::Sky(Default::default()); MAX_LAYERS + 1],
        ..Scene::default()
    };
    assert!(s.validate().is_err());
    let s = Scene {
        aspect: f32::NAN,
        ..Scene::default()
    };
    assert!(s.validate().is_err());
}

/// The scene's table names its own settings and the automaton's, each
/// once: a field missing would never be checked, rounded or shared.
#[test]
fn the_table_matches_the_scene() {
    // (A wind of 0, one ground off, the default eye and lens and the
    // first look are left out of RON: give ones that are written.)
    let windy = Scene {
        wind: 90.0,
        one_ground: true,
        eye: 30.0,
        lens: 50.0,
        look: LOOK_NEWEST,
        ..Scene::default()
    };
    let mut fields: Vec<String> = setting::serde_fields(&windy)
        .into_iter()
        .filter(|f| !["seed", "automaton", "layers"].contains(&f.as_str()))
        .collect();
    fields.extend(
        setting::serde_fields(&Automaton::default())
            .into_iter()
            .map(|f| format!("automaton.{f}")),
    );
    let mut names: Vec<String> = Scene::SETTINGS.iter().map(|s| s.name.to_string()).collect();
    fields.sort();
    names.sort();
    assert_eq!(names, fields);
}

fn with_tents() -> Scene {
    let mut scene = Scene::default();
    scene.add_layer(Layer::Tent(Default::default()));
    scene.add_layer(Layer::Tent(Default::default()));
    scene
}

#[test]
fn a_racetrack_is_added_over_the_floor_under_the_stones() {
    let mut scene = Scene::default();
    assert!(scene.add_layer(Layer::Racetrack(Default::default())));
    let names: Vec<&str> = scene.layers.iter().map(Layer::name).collect();
    assert_eq!(
        names,
        [
            "sky",
            "ranges",
            "floor",
            "racetrack",
            "rocks",
            "tent",
            "spiral"
        ]
    );
    // Over the last floor of several.
    scene.layers.insert(4, Layer::Floor(Default::default()));
    assert!(scene.add_layer(Layer::Racetrack(Default::default())));
    assert_eq!(scene.layers[4].name(), "floor");
    assert_eq!(scene.layers[5].name(), "racetrack");
    let mut bare = Scene {
        layers: vec![Layer::Sky(Default::default())],
        ..Scene::default()
    };
    assert!(bare.add_layer(Layer::Racetrack(Default::default())));
    assert_eq!(bare.layers[1].name(), "racetrack");
}

#[test]
fn plants_are_added_on_the_ground_under_the_tent() {
    let mut scene = Scene::default();
    assert!(scene.add_layer(Layer::Plants(Default::default())));
    let names: Vec<&str> = scene.layers.iter().map(Layer::name).collect();
    assert_eq!(
        names,
        [
            "sky", "ranges", "floor", "rocks", "plants", "tent", "spiral"
        ]
    );
    // A second one over the first, still under the tent.
    assert!(scene.add_layer(Layer::Plants(Default::default())));
    assert_eq!(scene.layers[5].name(), "plants");
    assert_eq!(scene.layers[6].name(), "tent");
    // Without a tent or spiral: on top.
    let mut open = Scene::default();
    open.layers
        .retain(|l| !matches!(l, Layer::Tent(_) | Layer::Spiral(_)));
    assert!(open.add_layer(Layer::Plants(Default::default())));
    assert_eq!(open.layers.last().map(Layer::name), Some("plants"));
    let mut bare = Scene {
        layers: Vec::new(),
        ..Scene::default()
    };
    assert!(bare.add_layer(Layer::Plants(Default::default())));
    assert_eq!(bare.layers.len(), 1);
}

#[test]
fn dunes_are_added_over_the_floor_under_the_stones_and_plants() {
    let mut scene = Scene::default();
    assert!(scene.add_layer(Layer::Dunes(Default::default())));
    assert!(scene.add_layer(Layer::Plants(Default::default())));
    let names: Vec<&str> = scene.layers.iter().map(Layer::name).collect();
    assert_eq!(
        names,
        [
            "sky", "ranges", "floor", "dunes", "rocks", "plants", "tent", "spiral"
        ]
    );
    let mut bare = Scene {
        layers: vec![Layer::Sky(Default::default())],
        ..Scene::default()
    };
    assert!(bare.add_layer(Layer::Dunes(Default::default())));
    assert_eq!(bare.layers[1].name(), "dunes");
}

#[test]
fn clouds_are_added_into_the_sky_under_the_ranges() {
    let mut scene = Scene::default();
    assert!(scene.add_layer(Layer::Clouds(Default::default())));
    let names: Vec<&str> = scene.layers.iter().map(Layer::name).collect();
    assert_eq!(
        names,
        [
            "sky", "clouds", "ranges", "floor", "rocks", "tent", "spiral"
        ]
    );
    assert!(scene.add_layer(Layer::Clouds(Default::default())));
    assert_eq!(scene.layers[2].name(), "clouds");
    assert_eq!(scene.layers[3].name(), "ranges");
    let mut bare = Scene {
        layers: Vec::new(),
        ..Scene::default()
    };
    assert!(bare.add_layer(Layer::Clouds(Default::default())));
    assert_eq!(bare.layers.len(), 1);
}

#[test]
fn layers_of_one_kind_are_numbered_and_the_others_are_not() {
    let names: Vec<String> = layer_names(&with_tents().layers)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        names,
        [
            "Sky", "Ranges", "Floor", "Stones", "Tent 1", "Spiral", "Tent 2", "Tent 3"
        ]
    );
    let names = layer_names(&Scene::default().layers);
    assert!(names.iter().all(|n| n.nth.is_none()), "{names:?}");
}

#[test]
fn commented_ron_names_repeated_layers_and_reads_back() {
    let scene = with_tents();
    let text = scene.to_commented_ron();
    assert_eq!(Scene::from_ron(&text, "t").unwrap(), scene);
    let comments: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("//"))
        .map(str::trim)
        .collect();
    assert_eq!(
        comments,
        [
            "// Tent 1, --set tent#1.…",
            "// Tent 2, --set tent#2.…",
            "// Tent 3, --set tent#3.…"
        ]
    );
    let tent2 = text.find("// Tent 2").unwrap();
    assert!(text[tent2..].lines().nth(1).unwrap().trim() == "Tent((");
    // Nothing repeated: the bare RON.
    assert_eq!(
        Scene::default().to_commented_ron(),
        Scene::default().to_ron()
    );
}

#[test]
fn huge_text_is_refused() {
    let text = " ".repeat(MAX_RON_BYTES + 1);
    assert!(
        Scene::from_ron(&text, "big")
            .unwrap_err()
            .to_string()
            .contains("limit")
    );
}
