use super::*;

fn scene(ron: &str) -> Scene {
    Scene::from_ron(ron, "test").unwrap()
}

fn count(scene: &Scene, is: fn(&Layer) -> bool) -> usize {
    shown(scene, is).len()
}

#[test]
fn an_opaque_floor_drawn_over_the_dunes_hides_them() {
    let dunes = |l: &Layer| matches!(l, Layer::Dunes(_));
    for one_ground in [false, true] {
        let s = |layers: &str| {
            scene(&format!(
                "(one_ground: {one_ground}, layers: [Sky(()), {layers}])"
            ))
        };
        assert_eq!(count(&s("Floor(()), Dunes(())"), dunes), 1);
        assert_eq!(count(&s("Dunes(()), Floor(())"), dunes), 0);
        assert_eq!(count(&s("Dunes(()), Floor((opacity: 0.5))"), dunes), 1);
        assert_eq!(count(&s("Dunes(()), Floor((visible: false))"), dunes), 1);
        assert_eq!(count(&s("Dunes((opacity: 0.0)), Floor(())"), dunes), 0);
        // A tent in front of them changes nothing.
        assert_eq!(count(&s("Dunes(()), Tent(()), Floor(())"), dunes), 0);
        let covered = Traits::of(&s("Dunes(()), Floor(())"));
        assert_ne!(covered[ARCHETYPE], a::DUNE_SEA);
        assert_ne!(covered[GROUND], g::SAND);
    }
    // An opaque sky over everything hides the dunes too.
    assert_eq!(
        count(&scene("(layers: [Floor(()), Dunes(()), Sky(())])"), dunes),
        0
    );
}

#[test]
fn tents_are_counted_as_they_show() {
    let focal = |layers: &str| Traits::of(&scene(&format!("(layers: [Sky(()), {layers}])")))[FOCAL];
    assert_eq!(focal("Floor(())"), focal::NO_TENT);
    assert_eq!(focal("Floor(()), Tent(())"), focal::TENT);
    assert_eq!(focal("Floor(()), Tent(()), Tent((x: 0.7))"), focal::TENTS);
    assert_eq!(
        focal("Floor(()), Tent(()), Tent((x: 0.7, visible: false))"),
        focal::TENT
    );
    // One behind the floor, whole.
    assert_eq!(focal("Tent((x: 0.7)), Floor(()), Tent(())"), focal::TENT);
    let tents = Traits::of(&scene(
        "(layers: [Sky(()), Floor(()), Tent(()), Tent((x: 0.7))])",
    ));
    assert_eq!(tents[ARCHETYPE], a::CAMPSITE);
    assert!(
        tents.sentence().ends_with(", tents"),
        "{}",
        tents.sentence()
    );
    // New scene draws no pair of tents: a kept "tents" is drawn as a
    // tent.
    assert_eq!(rolled_as(FOCAL, focal::TENTS), focal::TENT);
    assert_eq!(rolled_as(FOCAL, focal::RISE), focal::RISE);
    assert_eq!(rolled_as(STONES, focal::TENTS), focal::TENTS);
}

#[test]
fn the_stones_read_the_same_at_every_hour() {
    for name in ["death-valley", "night-under-stars", "golden-hour"] {
        let start = crate::scene::presets::load(name).unwrap();
        let stones = Traits::of(&start)[STONES];
        let hours = (0..48).map(|h| TimeOfDay::Hour(h as f32 / 2.0));
        for time in TimeOfDay::NAMED.into_iter().chain(hours) {
            let s = Scene {
                time,
                ..start.clone()
            };
            assert_eq!(Traits::of(&s)[STONES], stones, "{name} at {time:?}");
        }
    }
}

#[test]
fn clouds_read_only_where_they_show_in_the_sky() {
    // Cirrus as large as the sky, from a seed whose view of the deck
    // falls between them; and as large as they are drawn most often.
    let cirrus = |size: f32| {
        scene(&format!(
            "(seed: 86, time: Morning, horizon: 0.56, layers: [Sky(()), \
             Clouds((cover: 0.2, streaks: 0.9, size: {size})), Floor(())])"
        ))
    };
    assert_eq!(Traits::of(&cirrus(1.0))[WEATHER], weather::CIRRUS);
    assert_eq!(Traits::of(&cirrus(10.0))[WEATHER], weather::CLEAR);
}

#[test]
fn only_a_look_that_draws_a_dust_storm_reads_one() {
    let dust = |look: u32, dust: f32| {
        let s = scene(&format!(
            "(look: {look}, time: Dusk, layers: [Sky(()), Clouds((dust: {dust})), Floor(())])"
        ));
        Traits::of(&s)[RARE]
    };
    assert_eq!(dust(2, 0.7), rare::DUST);
    assert_eq!(dust(2, 0.45), rare::DUST);
    assert_eq!(dust(2, 0.2), rare::NONE);
    assert_eq!(dust(1, 0.7), rare::NONE);
}
