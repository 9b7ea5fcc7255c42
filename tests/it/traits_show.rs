//! Every trait shows (issue 59, item 4): the traits say what the picture
//! shows. Each value here is rendered with and without what it names, and
//! the difference must be visible; and what the picture does not show is
//! not read: thin dust in the first look, dunes under the floor, clouds too
//! large for the sky, two tents as one, stones thinned by the night.

use image::RgbaImage;
use playa::traits::{self, Traits};
use playa::{Layer, Scene, TimeOfDay, render};

/// The size the pictures are measured at.
const SIZE: (u32, u32) = (320, 180);

/// The change in a colour channel (of 255) that counts a pixel as changed,
/// as `tests/it/new_scene.rs` counts the stones' pixels.
const VISIBLE: u8 = 8;

fn picture(scene: &Scene) -> RgbaImage {
    render(scene, SIZE.0, SIZE.1).unwrap()
}

fn scene(ron: &str) -> Scene {
    Scene::from_ron(ron, "test").unwrap()
}

/// The share of the pixels of `rows` (fractions of the height) that
/// differ visibly between `a` and `b`.
fn changed_in(a: &RgbaImage, b: &RgbaImage, rows: std::ops::Range<f32>) -> f64 {
    let h = a.height() as f32;
    let (y0, y1) = ((rows.start * h) as u32, (rows.end * h) as u32);
    let (mut changed, mut all) = (0u64, 0u64);
    for y in y0..y1.min(a.height()) {
        for x in 0..a.width() {
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            all += 1;
            if (0..3).any(|c| p[c].abs_diff(q[c]) >= VISIBLE) {
                changed += 1;
            }
        }
    }
    changed as f64 / all.max(1) as f64
}

/// The share of the pixels that differ visibly between `a` and `b`.
fn changed(a: &RgbaImage, b: &RgbaImage) -> f64 {
    changed_in(a, b, 0.0..1.0)
}

/// `scene` with the layers `is` picks hidden.
fn without(scene: &Scene, is: impl Fn(&Layer) -> bool) -> Scene {
    let mut s = scene.clone();
    for layer in s.layers.iter_mut().filter(|l| is(l)) {
        *layer.common_mut().0 = false;
    }
    s
}

/// The value of `axis` that `scene` reads as, in words.
fn read(scene: &Scene, axis: usize) -> &'static str {
    Traits::of(scene).name(axis)
}

/// The mean colour of a picture, of 255.
fn mean(p: &RgbaImage) -> [f64; 3] {
    let mut sum = [0.0; 3];
    for px in p.pixels() {
        for c in 0..3 {
            sum[c] += f64::from(px[c]);
        }
    }
    sum.map(|s| s / f64::from(p.width() * p.height()))
}

/// A campsite in the morning, the sun in the sky, ranges behind, in the
/// second look, with `dust` in the air.
fn dusty(dust: f32, look: u32) -> Scene {
    scene(&format!(
        "(look: {look}, time: Morning, sun_x: 0.7, horizon: 0.56, layers: [Sky(()), \
         Clouds((cover: 0.0, dust: {dust})), Ranges((count: 2, height: 0.2)), Floor(()), \
         Rocks(()), Tent(())])"
    ))
}

#[test]
fn a_dust_storm_hides_the_ranges_pales_the_sun_and_turns_the_picture_ochre() {
    let (storm, clear) = (dusty(0.7, 2), dusty(0.0, 2));
    assert_eq!(read(&storm, traits::RARE), "a dust storm");
    assert_eq!(read(&clear, traits::RARE), "nothing rare");
    let (stormy, fair) = (picture(&storm), picture(&clear));
    // The storm changes most of the picture.
    let share = changed(&stormy, &fair);
    eprintln!("a dust storm changes {:.1}% of the picture", share * 100.0);
    assert!(share > 0.6, "{share}");
    // Everything is ochre: red over green over blue, by far.
    let [r, g, b] = mean(&stormy);
    eprintln!("its mean colour: {r:.0}, {g:.0}, {b:.0}");
    assert!(r > g + 15.0 && g > b + 15.0, "{r} {g} {b}");
    // The ranges show on a fair day, and hardly in the storm.
    let ranges = |s: &Scene| {
        let bare = without(s, |l| matches!(l, Layer::Ranges(_)));
        changed_in(&picture(s), &picture(&bare), 0.3..0.56)
    };
    let (seen, hidden) = (ranges(&clear), ranges(&storm));
    eprintln!(
        "the ranges change {:.1}% of the sky's lower part on a fair day, {:.1}% in the storm",
        seen * 100.0,
        hidden * 100.0
    );
    assert!(seen > 0.3 && hidden < seen / 4.0, "{seen} {hidden}");
    // The sun: a pale disc, no blinding white glow around it.
    let white = |p: &RgbaImage| {
        p.pixels()
            .filter(|px| px.0[..3].iter().all(|&c| c >= 250))
            .count()
    };
    let (glare, disc) = (white(&fair), white(&stormy));
    eprintln!("white pixels: {glare} on a fair day, {disc} in the storm");
    assert!(disc * 10 < glare, "{glare} {disc}");
    let brightest = stormy
        .enumerate_pixels()
        .filter(|(_, y, _)| (*y as f32) < 0.56 * SIZE.1 as f32)
        .max_by_key(|(_, _, px)| px.0[..3].iter().map(|&c| u32::from(c)).sum::<u32>())
        .unwrap();
    let (x, _, px) = brightest;
    eprintln!("the storm's brightest sky pixel: {:?} at x {x}", px.0);
    assert!(
        (x as f32 - 0.7 * SIZE.0 as f32).abs() < 12.0,
        "the disc at x {x}"
    );
    let sky = mean(&RgbaImage::from_fn(SIZE.0, 20, |x, y| {
        *stormy.get_pixel(x, y + 60)
    }));
    assert!(
        f64::from(px[2]) > sky[2] + 30.0,
        "a pale disc {:?} over the sky {sky:?}",
        px.0
    );
}

#[test]
fn dust_the_first_look_draws_as_a_haze_is_no_storm() {
    // The first look keeps its pixels: its dust is a haze over the
    // horizon, which the ranges and the floor cover.
    let (dusty, clear) = (dusty(0.7, 1), dusty(0.0, 1));
    let share = changed(&picture(&dusty), &picture(&clear));
    eprintln!("the first look's dust changes {:.2}%", share * 100.0);
    assert!(share < 0.05, "{share}");
    assert_eq!(read(&dusty, traits::RARE), "nothing rare");
}

/// The dune sea preset, in one ground or not, its floor drawn after its
/// dunes or not.
fn dune_sea(one_ground: bool, floor_last: bool) -> Scene {
    let mut s = playa::scene::presets::load("dune-sea").unwrap();
    s.one_ground = one_ground;
    if floor_last {
        let at = s
            .layers
            .iter()
            .position(|l| matches!(l, Layer::Floor(_)))
            .unwrap();
        let floor = s.layers.remove(at);
        s.layers.push(floor);
    }
    s
}

#[test]
fn dunes_under_the_floor_are_no_dune_sea() {
    let dunes = |l: &Layer| matches!(l, Layer::Dunes(_));
    for one_ground in [false, true] {
        let open = dune_sea(one_ground, false);
        let share = changed(&picture(&open), &picture(&without(&open, dunes)));
        eprintln!(
            "dunes (one ground {one_ground}) change {:.1}%",
            share * 100.0
        );
        assert!(share > 0.2, "{share}");
        assert_eq!(read(&open, traits::ARCHETYPE), "dune sea");
        assert_eq!(read(&open, traits::GROUND), "sand");
        let covered = dune_sea(one_ground, true);
        let mut bare = without(&covered, dunes);
        if one_ground {
            // In one ground the eye stands over the tallest sand, hidden or
            // not: the dunes' 14 m raise it, and nothing else of them shows.
            bare.eye += 14.0;
        }
        let share = changed(&picture(&covered), &picture(&bare));
        eprintln!(
            "dunes under the floor (one ground {one_ground}) change {:.2}%",
            share * 100.0
        );
        assert!(share < 0.001, "{share}");
        assert_ne!(read(&covered, traits::ARCHETYPE), "dune sea");
        assert_ne!(read(&covered, traits::GROUND), "sand");
    }
}

/// High cirrus `size` large over the open playa, from a seed whose view
/// of the deck falls between clouds that large.
fn cirrus(size: f32) -> Scene {
    scene(&format!(
        "(seed: 86, time: Morning, horizon: 0.56, layers: [Sky(()), \
         Clouds((cover: 0.2, streaks: 0.9, size: {size})), Ranges(()), Floor(())])"
    ))
}

#[test]
fn clouds_too_large_for_the_sky_read_as_a_clear_sky() {
    let clouds = |l: &Layer| matches!(l, Layer::Clouds(_));
    let (seen, vanished) = (cirrus(1.0), cirrus(10.0));
    // In the sky: the floor may lie in the shade of a cloud overhead.
    let share = |s: &Scene| changed_in(&picture(s), &picture(&without(s, clouds)), 0.0..0.56);
    let (shown, gone) = (share(&seen), share(&vanished));
    eprintln!(
        "cirrus at size 1 change {:.1}% of the sky, at size 10 {:.2}%",
        shown * 100.0,
        gone * 100.0
    );
    assert!(shown > 0.1, "{shown}");
    assert_eq!(read(&seen, traits::WEATHER), "high cirrus");
    assert!(gone < 0.005, "{gone}");
    assert_eq!(read(&vanished, traits::WEATHER), "clear sky");
}

#[test]
fn two_tents_read_as_tents() {
    let one = playa::scene::presets::load("death-valley").unwrap();
    let mut two = one.clone();
    two.layers.push(Layer::Tent(playa::layers::Tent {
        x: 0.75,
        y: 0.72,
        size: 0.16,
        ..Default::default()
    }));
    let share = changed(&picture(&two), &picture(&one));
    eprintln!("the second tent changes {:.2}%", share * 100.0);
    assert!(share > 0.005, "{share}");
    assert_eq!(read(&one, traits::FOCAL), "a tent");
    assert_eq!(read(&two, traits::FOCAL), "tents");
    let t = Traits::of(&two);
    assert!(t.sentence().contains("tents"), "{}", t.sentence());
    assert!(t.lines().contains("Focal feature: tents"), "{}", t.lines());
    assert_eq!(read(&two, traits::ARCHETYPE), "campsite");
}

#[test]
fn the_stones_read_the_same_all_day_and_night() {
    let noon = playa::scene::presets::load("death-valley").unwrap();
    let stones = read(&noon, traits::STONES);
    let times = TimeOfDay::NAMED
        .iter()
        .copied()
        .chain([8.5, 13.0, 20.0, 22.5].map(TimeOfDay::Hour));
    for time in times {
        let s = Scene {
            time,
            ..noon.clone()
        };
        assert_eq!(read(&s, traits::STONES), stones, "{time:?}");
        // And they show, whatever the time.
        let share = changed(
            &picture(&s),
            &picture(&without(&s, |l| matches!(l, Layer::Rocks(_)))),
        );
        eprintln!("{time:?}: the stones change {:.1}%", share * 100.0);
        assert!(share > 0.01, "{time:?}: {share}");
    }
}

/// Death Valley with a Racetrack laid on its floor and a sheet of dunes
/// over both (issue 60, item 17), the campsite's stones standing on the
/// sand.
fn racetrack_under_dunes() -> Scene {
    let mut s = playa::scene::presets::load("death-valley").unwrap();
    let floor = s
        .layers
        .iter()
        .position(|l| matches!(l, Layer::Floor(_)))
        .unwrap();
    let dunes = Layer::Dunes(playa::layers::Dunes {
        cover: 1.0,
        ..Default::default()
    });
    s.layers.insert(floor + 1, dunes);
    s.layers
        .insert(floor + 1, Layer::Racetrack(Default::default()));
    s
}

#[test]
fn a_racetrack_under_a_sheet_of_dunes_is_not_read_and_the_stones_are() {
    let s = racetrack_under_dunes();
    let racetrack = |l: &Layer| matches!(l, Layer::Racetrack(_));
    // Below the horizon's row, where the Racetrack's pale playa still tints
    // the edge the floor shares with the ranges.
    let hidden = changed_in(&picture(&s), &picture(&without(&s, racetrack)), 0.57..1.0);
    let rocks = changed(
        &picture(&s),
        &picture(&without(&s, |l| matches!(l, Layer::Rocks(_)))),
    );
    eprintln!(
        "the Racetrack under the dunes changes {:.2}%, the stones on them {:.1}%",
        hidden * 100.0,
        rocks * 100.0
    );
    assert!(hidden < 0.001, "{hidden}");
    assert!(rocks > 0.01, "{rocks}");
    let campsite = playa::scene::presets::load("death-valley").unwrap();
    assert_eq!(read(&s, traits::STONES), read(&campsite, traits::STONES));
    assert_eq!(read(&s, traits::ARCHETYPE), "dune sea");
    assert!(
        Traits::of(&s).sentence().contains("stones"),
        "{}",
        Traits::of(&s).sentence()
    );
}
