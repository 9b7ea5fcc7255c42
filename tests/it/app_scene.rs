#![cfg(feature = "app")]
//! The scene as the app names and changes it, driven with egui_kittest: a
//! preset's exact code goes by the preset's name however it arrives,
//! layers of one kind are numbered, Reset layers says how to undo it, and
//! New scene and the variations grid say what changed in words.

use crate::common::app::{harness, harness_with, message, preset_box, settle};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use playa::app::{AppState, PlayaApp};
use playa::layers::Layer;
use playa::scene::Scene;
use playa::{explore::randomize, scene::presets, share};

#[test]
fn a_preset_s_exact_code_is_named_after_the_preset() {
    let golden = presets::load("golden-hour").unwrap();
    let code = share::encode(&golden);

    // Pasted.
    let mut h = harness();
    h.event(egui::Event::Paste(code.clone()));
    settle(&mut h);
    assert_eq!(h.state().scene(), &golden);
    assert_eq!(preset_box(&h), "golden-hour");
    assert_eq!(
        message(&h).as_deref(),
        Some("Loaded pasted scene: preset golden-hour")
    );
    // Edited, it is the preset edited; anything else is still a paste.
    h.get_by_label("Next seed").click();
    settle(&mut h);
    assert_eq!(preset_box(&h), "golden-hour (edited)");
    let other = Scene {
        seed: 31,
        ..golden.clone()
    };
    h.event(egui::Event::Paste(share::encode(&other)));
    settle(&mut h);
    assert_eq!(preset_box(&h), "pasted scene");

    // In a link, as the browser loads it.
    let link = format!("#{}", share::encode(&presets::load("badlands").unwrap()));
    h.state_mut().sync_link(&link);
    settle(&mut h);
    assert_eq!(preset_box(&h), "badlands");
    assert_eq!(h.state().state.preset, "badlands");

    // Restored from a session that stored it as a paste.
    let state = AppState {
        scene: golden.clone(),
        preset: String::new(),
        loaded: code,
        ..AppState::default()
    };
    let h = harness_with(state);
    assert_eq!(preset_box(&h), "golden-hour");
}

/// The scene with one more tent, added as "+ Add layer" does.
fn add_tent(h: &mut Harness<'_, PlayaApp>) {
    add_layer(h, "Tent");
}

/// The scene with one more layer of `kind`, added as "+ Add layer" does.
fn add_layer(h: &mut Harness<'_, PlayaApp>, kind: &str) {
    h.get_by_label("+ Add layer").scroll_to_me();
    h.run();
    h.get_by_label("+ Add layer").click();
    h.run();
    h.get_by_role_and_label(Role::Button, kind).click();
    settle(h);
}

#[test]
fn the_traits_line_reads_the_stones_not_a_racetrack_the_dunes_hide() {
    use playa::traits::Traits;
    let mut h = harness();
    add_layer(&mut h, "Dunes");
    let stones = Traits::of(h.state().scene()).sentence();
    assert!(stones.contains("clumps of stones"), "{stones}");
    // A Racetrack goes on the floor, under the sheet of sand: hidden, its
    // sailing stones are not read; the clumps standing on the sand are.
    add_layer(&mut h, "Racetrack");
    assert!(
        h.state()
            .scene()
            .layers
            .iter()
            .any(|l| matches!(l, Layer::Racetrack(_)))
    );
    let line = Traits::of(h.state().scene()).sentence();
    assert_eq!(line, stones);
    h.get_by_label(&line);
}

#[test]
fn layers_of_one_kind_are_numbered() {
    let mut h = harness();
    h.get_by_role_and_label(Role::CheckBox, "Tent");
    add_tent(&mut h);
    let tents = |h: &Harness<'_, PlayaApp>| {
        h.state()
            .scene()
            .layers
            .iter()
            .filter(|l| matches!(l, Layer::Tent(_)))
            .count()
    };
    assert_eq!(tents(&h), 2);
    assert!(h.query_by_role_and_label(Role::CheckBox, "Tent").is_none());
    h.get_by_role_and_label(Role::CheckBox, "Tent 1");
    h.get_by_role_and_label(Role::CheckBox, "Tent 2");
    // Each is addressed by its number; the lock says it is the kind's.
    assert_eq!(
        h.query_all_by_label("Lock tent (every tent layer)").count(),
        2
    );
    h.get_by_label("Remove Tent 1").click();
    settle(&mut h);
    assert_eq!(tents(&h), 1);
    h.get_by_role_and_label(Role::CheckBox, "Tent");
    h.get_by_label("Lock tent");

    // Saved for a person to read, the repeated layers are named.
    add_tent(&mut h);
    let text = playa::app::export::scene_file::scene_text(h.state().scene());
    assert!(text.contains("// Tent 2, --set tent#2.…"), "{text}");
    assert_eq!(Scene::from_ron(&text, "saved").unwrap(), *h.state().scene());
}

#[test]
fn reset_layers_is_one_undo_step_and_says_so() {
    let mut h = harness();
    let reset = |h: &Harness<'_, PlayaApp>| {
        !h.get_by_label("Reset layers")
            .accesskit_node()
            .is_disabled()
    };
    assert!(!reset(&h), "the layers are the preset's already");
    h.get_by_label("Remove Tent").click();
    settle(&mut h);
    let edited = h.state().scene().layers.clone();
    assert!(reset(&h));

    h.get_by_label("Reset layers").click();
    settle(&mut h);
    assert_eq!(h.state().scene().layers, Scene::default_layers());
    assert_eq!(
        message(&h).as_deref(),
        Some("Layers reset to death-valley's — Undo (Ctrl+Z) brings them back")
    );
    assert!(!reset(&h));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    settle(&mut h);
    assert_eq!(h.state().scene().layers, edited);

    // A preset's own layers are what it resets to.
    h.state_mut()
        .paste(&share::encode(&presets::load("night-under-stars").unwrap()));
    settle(&mut h);
    let night = h.state().scene().layers.clone();
    assert_ne!(night, Scene::default_layers());
    h.get_by_label("Remove Tent").click();
    settle(&mut h);
    h.get_by_label("Reset layers").click();
    settle(&mut h);
    assert_eq!(h.state().scene().layers, night);
}

#[test]
fn new_scene_says_what_changed_in_words() {
    let mut h = harness();
    let before = h.state().scene().clone();
    h.get_by_label("🔀 New scene").click();
    settle(&mut h);
    let after = h.state().scene().clone();
    let said = message(&h).expect("New scene says what it did");
    assert_eq!(
        said,
        format!("New scene: {}", randomize::describe(&before, &after))
    );
    assert!(!said.contains("roll"), "{said}");
    assert!(said.contains(&format!("seed {}", after.seed)), "{said}");

    // The roll, for whoever wants to make it again, is in the hover (a
    // tooltip shows after a short delay: on a busy machine, a few frames).
    h.get_by_label(&said).hover();
    crate::common::app::await_label(&mut h, "Roll 0x");
}

/// A rolled scene is a new picture: the Preset box names it for its
/// composition and roll, not "death-valley (edited)" (issue 60, item 14);
/// an edit after it is an edit of that.
#[test]
fn new_scene_is_named_for_its_composition_and_roll() {
    let mut h = harness();
    h.get_by_label("🔀 New scene").click();
    settle(&mut h);
    let name = preset_box(&h);
    let traits = playa::traits::Traits::of(h.state().scene());
    let composition = traits.name(playa::traits::ARCHETYPE).to_lowercase();
    let (stem, roll) = name.rsplit_once('-').expect("a name and a roll");
    assert_eq!(stem, composition.replace(' ', "-"), "{name}");
    assert!(
        roll.len() == 4 && roll.chars().all(|c| c.is_ascii_hexdigit()),
        "{name}"
    );
    h.get_by_label("New random seed").click();
    settle(&mut h);
    assert_eq!(preset_box(&h), format!("{name} (edited)"));
}

#[test]
fn clouds_are_added_into_the_sky_edited_and_shared_in_format_3() {
    let mut h = harness();
    let before = share::encode(h.state().scene());
    assert!(before.starts_with("playa1-") || before.starts_with("playa2-"));
    h.get_by_label("+ Add layer").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Clouds").click();
    settle(&mut h);
    let names: Vec<&str> = h.state().scene().layers.iter().map(Layer::name).collect();
    assert_eq!(&names[..3], ["sky", "clouds", "ranges"]);
    assert!(share::encode(h.state().scene()).starts_with("playa3-"));
    // Its form: the arrow left of its checkbox opens it; set the cover.
    open_form(&mut h, "Clouds");
    retype(&mut h, "Cover", "0.9");
    let clouds = h
        .state()
        .scene()
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Clouds(c) => Some(c.cover),
            _ => None,
        })
        .unwrap();
    assert_eq!(clouds, 0.9);
}

#[test]
fn a_racetrack_is_added_over_the_floor_edited_and_shared_in_format_4() {
    let mut h = harness();
    h.get_by_label("+ Add layer").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Racetrack").click();
    settle(&mut h);
    let names: Vec<&str> = h.state().scene().layers.iter().map(Layer::name).collect();
    assert_eq!(&names[2..5], ["floor", "racetrack", "rocks"]);
    assert!(share::encode(h.state().scene()).starts_with("playa4-"));
    // Its form: the arrow left of its checkbox opens it; set the stones.
    open_form(&mut h, "Racetrack");
    retype(&mut h, "Stones", "90");
    let scene = h.state().scene().clone();
    let stones = scene
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Racetrack(r) => Some(r.stones),
            _ => None,
        })
        .unwrap();
    assert_eq!(stones, 90);
    let code = share::encode(&scene);
    assert_eq!(share::decode(&code).unwrap(), scene.quantized());
}

#[test]
fn plants_are_added_on_the_ground_under_the_tent_and_shared_in_format_4() {
    let mut h = harness();
    h.get_by_label("+ Add layer").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Plants").click();
    settle(&mut h);
    let names: Vec<&str> = h.state().scene().layers.iter().map(Layer::name).collect();
    let (plants, tent) = (
        names.iter().position(|&n| n == "plants").unwrap(),
        names.iter().position(|&n| n == "tent").unwrap(),
    );
    let rocks = names.iter().position(|&n| n == "rocks").unwrap();
    assert!(rocks < plants && plants < tent, "{names:?}");
    let code = share::encode(h.state().scene());
    assert!(code.starts_with("playa4-"), "{code}");
    assert_eq!(share::decode(&code).unwrap(), h.state().scene().quantized());
}

#[test]
fn relief_is_added_over_the_floor_edited_and_shared_in_format_5() {
    let mut h = harness();
    h.get_by_label("+ Add layer").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Relief").click();
    settle(&mut h);
    let names: Vec<&str> = h.state().scene().layers.iter().map(Layer::name).collect();
    assert_eq!(&names[2..5], ["floor", "relief", "rocks"]);
    assert!(share::encode(h.state().scene()).starts_with("playa5-"));
    // Its form: the arrow left of its checkbox opens it; widen the wash.
    open_form(&mut h, "Relief");
    retype(&mut h, "Wash", "0.85");
    let scene = h.state().scene().clone();
    let wash = scene
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Relief(r) => Some(r.wash),
            _ => None,
        })
        .unwrap();
    assert_eq!(wash, 0.85);
    let code = share::encode(&scene);
    assert_eq!(share::decode(&code).unwrap(), scene.quantized());
}

#[test]
fn the_hour_field_sets_any_hour_and_names_the_named_ones() {
    let mut h = harness();
    for (typed, time) in [
        ("6", playa::base::palette::TimeOfDay::Dawn),
        ("7.5", playa::base::palette::TimeOfDay::Hour(7.5)),
        ("0", playa::base::palette::TimeOfDay::Moonlight),
    ] {
        retype(&mut h, "Hour", typed);
        assert_eq!(h.state().scene().time, time, "typed {typed}");
    }
    // On a named hour the field shows the name.
    let shown = h.get_by_role_and_label(Role::SpinButton, "Hour").value();
    assert_eq!(shown.as_deref(), Some("moonlight"), "{shown:?}");
}

/// Opens the form of the layer titled `title`: the arrow left of its
/// checkbox.
fn open_form(h: &mut Harness<'_, PlayaApp>, title: &str) {
    let header = h.get_by_role_and_label(Role::CheckBox, title).rect();
    let arrow = egui::pos2(header.left() - 9.0, header.center().y);
    for pressed in [true, false] {
        h.event(egui::Event::PointerMoved(arrow));
        h.event(egui::Event::PointerButton {
            pos: arrow,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    settle(h);
}

/// Types `text` over the number field `label` and presses Enter.
fn retype(h: &mut Harness<'_, PlayaApp>, label: &str, text: &str) {
    // Into view first: a form low in the panel may lie below its fold.
    h.get_by_role_and_label(Role::SpinButton, label)
        .scroll_to_me();
    settle(h);
    h.get_by_role_and_label(Role::SpinButton, label).click();
    settle(h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.event(egui::Event::Text(text.into()));
    h.key_press(egui::Key::Enter);
    settle(h);
}

#[test]
fn dunes_are_added_over_the_floor_edited_and_shared_in_format_6() {
    let mut h = harness();
    h.get_by_label("+ Add layer").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Dunes").click();
    settle(&mut h);
    let names: Vec<&str> = h.state().scene().layers.iter().map(Layer::name).collect();
    assert_eq!(&names[2..5], ["floor", "dunes", "rocks"]);
    assert!(share::encode(h.state().scene()).starts_with("playa6-"));
    // Its form: the arrow left of its checkbox opens it; set the height.
    open_form(&mut h, "Dunes");
    retype(&mut h, "Height", "42.5");
    let scene = h.state().scene().clone();
    let height = scene
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Dunes(d) => Some(d.height),
            _ => None,
        })
        .unwrap();
    assert_eq!(height, 42.5);
    let code = share::encode(&scene);
    assert_eq!(share::decode(&code).unwrap(), scene.quantized());
}

/// A layer's sliders end where the scene's cost would pass its limit (a
/// number typed past it lands at the end), and an edit that would take
/// the scene past it (a layer added) is not applied, saying why.
#[test]
fn no_edit_takes_the_scene_past_its_cost_limit() {
    let mut scene = Scene::default();
    scene.add_layer(Layer::Racetrack(playa::layers::Racetrack {
        stones: 300,
        ..Default::default()
    }));
    let index = scene
        .layers
        .iter()
        .position(|l| matches!(l, Layer::Racetrack(_)))
        .unwrap();
    let cap = scene
        .affordable(index)
        .into_iter()
        .find(|a| a.name == "size")
        .expect("the stones' size is narrowed")
        .max;
    assert!(cap < 2.0, "{cap}");
    let mut h = harness_with(AppState {
        scene,
        ..AppState::default()
    });
    settle(&mut h);
    open_form(&mut h, "Racetrack");
    retype(&mut h, "Stone size", "2");
    let size = |h: &Harness<'_, PlayaApp>| {
        h.state()
            .scene()
            .layers
            .iter()
            .find_map(|l| match l {
                Layer::Racetrack(r) => Some(f64::from(r.size)),
                _ => None,
            })
            .unwrap()
    };
    assert!(
        (size(&h) - cap).abs() < 1e-3,
        "{} for a cap of {cap}",
        size(&h)
    );
    assert!(h.state().scene().check_cost().is_ok());
    // Dunes on top: past the limit, so not added.
    let before = h.state().scene().clone();
    h.get_by_label("+ Add layer").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Dunes").click();
    settle(&mut h);
    assert_eq!(h.state().scene(), &before);
    let said = message(&h).unwrap_or_default();
    assert!(
        said.starts_with("Not applied: the scene would take about"),
        "{said}"
    );
}

/// A link (as the browser's page opens it) to a scene past the cost limit
/// is refused in words, and the scene on view stays.
#[test]
fn a_link_to_a_scene_past_the_cost_limit_is_refused() {
    let mut costly = Scene::default();
    costly.layers.extend(std::iter::repeat_n(
        Layer::Racetrack(playa::layers::Racetrack {
            opacity: 0.5,
            stones: 300,
            size: 2.0,
            ..Default::default()
        }),
        20,
    ));
    let mut h = harness();
    settle(&mut h);
    let before = h.state().scene().clone();
    h.state_mut()
        .sync_link(&format!("#{}", share::encode(&costly)));
    settle(&mut h);
    assert_eq!(h.state().scene(), &before);
    let said = message(&h).unwrap_or_default();
    assert!(
        said.contains("as long as death-valley to draw")
            && said.contains("its 20 racetrack layers cost most"),
        "{said}"
    );
}
