//! Plants stand on the ground, cast their shadows away from the sun, keep
//! off the tents' clearings, and grow more with their settings; the
//! shaders of every build paint the bits of the per-pixel reference.

use super::Plants;
use super::draw::PlantsDraw;
use super::parts::{Part, Plant};
use super::place::Placer;
use crate::Scene;
use crate::base::simd::Build;
use crate::layers::Layer;

/// The plants of `plants` placed in `scene` at 640 × 360.
fn placed(scene: &Scene, plants: &Plants) -> Vec<Plant> {
    let plan = crate::compose::Plan::new(scene).unwrap();
    let frame = plan.frame(640, 360);
    Placer::new(plants, &frame).plants()
}

fn scene(time: crate::TimeOfDay, sun_x: f32) -> Scene {
    let mut scene = crate::scene::presets::load("death-valley").unwrap();
    scene.time = time;
    scene.sun_x = sun_x;
    scene
}

fn trees(plants: &[Plant]) -> impl Iterator<Item = &Plant> {
    plants.iter().filter(|p| {
        p.parts
            .iter()
            .any(|(_, part)| matches!(part, Part::Limb(_)))
    })
}

#[test]
fn plants_stand_on_the_ground_and_only_trees_reach_the_sky() {
    let s = scene(crate::TimeOfDay::Noon, 0.7);
    let horizon = s.horizon * 360.0;
    let plants = placed(&s, &Plants::default());
    assert!(plants.len() > 20, "{}", plants.len());
    assert_eq!(trees(&plants).count(), 5);
    for p in &plants {
        assert!(p.foot > horizon, "a plant on the sky at {}", p.foot);
        // Its body rests on its foot's row, a pixel of edge below at most.
        assert!(
            p.body[3] <= p.foot.ceil() as i32 + 1,
            "{:?} at {}",
            p.body,
            p.foot
        );
        let tree = p
            .parts
            .iter()
            .any(|(_, part)| matches!(part, Part::Limb(_)));
        if !tree {
            assert!(p.body[1] as f32 > horizon - 2.0, "a bush above the horizon");
        }
    }
    // Far to near.
    assert!(plants.windows(2).all(|w| w[0].foot <= w[1].foot));
}

#[test]
fn shadows_fall_away_from_the_sun_and_lengthen_as_it_sinks() {
    let length = |time, sun_x| {
        let s = scene(time, sun_x);
        let plants = placed(&s, &Plants::default());
        let (mut across, mut n) = (0.0, 0.0);
        for p in trees(&plants) {
            let foot_x = 0.5 * (p.body[0] + p.body[2]) as f32;
            across += 0.5 * (p.shade[0] + p.shade[2]) as f32 - foot_x;
            n += 1.0;
        }
        across / n
    };
    let (left, right) = (
        length(crate::TimeOfDay::Noon, 0.1),
        length(crate::TimeOfDay::Noon, 0.9),
    );
    assert!(
        left > 0.0 && right < 0.0,
        "sun left: {left}, right: {right}"
    );
    let low = length(crate::TimeOfDay::GoldenHour, 0.9);
    assert!(low < 1.5 * right, "golden hour {low} against noon {right}");
}

#[test]
fn more_creosote_more_bushes_and_none_on_a_tents_clearing() {
    let s = scene(crate::TimeOfDay::Noon, 0.7);
    let count = |creosote, clumped| {
        placed(
            &s,
            &Plants {
                creosote,
                clumped,
                joshua: 0,
                ..Plants::default()
            },
        )
        .len()
    };
    assert_eq!(count(0.0, 0.0), 0);
    let (few, many) = (count(0.2, 0.0), count(0.8, 0.0));
    assert!(few > 0 && many > 2 * few, "{few} {many}");
    assert!(count(0.0, 1.0) > 0, "small bushes by the clumps");
    let tent = s
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::Tent(t) => Some(t.clearing(640.0, 360.0, 1.0)),
            _ => None,
        })
        .expect("death-valley has a tent");
    let dense = placed(
        &s,
        &Plants {
            creosote: 1.0,
            clumped: 1.0,
            joshua: 30,
            ..Plants::default()
        },
    );
    for p in &dense {
        let x = 0.5 * (p.body[0] + p.body[2]) as f32 / 360.0;
        let (u, v) = ((x - tent.x) / tent.rx, (p.foot / 360.0 - tent.y) / tent.ry);
        assert!(u * u + v * v >= 1.0, "a plant on the tent's clearing");
    }
}

#[test]
fn the_cover_grows_with_the_plants_and_the_nearest_tree_reaches_the_sky() {
    let s = scene(crate::TimeOfDay::Noon, 0.7);
    let grid = crate::compose::rock_grid(&s).unwrap();
    let stones = crate::layers::rocks::cover::StoneField::of(&grid, s.automaton.topology);
    let ground = crate::layers::Ground {
        aspect: s.aspect,
        horizon: s.horizon,
        time: s.time,
        stones: &stones,
        scale: 1.0,
    };
    let some = Plants::default().cover(&ground);
    let more = Plants {
        creosote: 1.0,
        ..Plants::default()
    }
    .cover(&ground);
    assert!((0.02..0.6).contains(&some.floor), "{some:?}");
    assert!(more.floor > some.floor);
    // Trees of 6 bush heights on the nearest ground reach into the sky.
    let tall = Plants {
        height: 6.0,
        ..Plants::default()
    }
    .cover(&ground);
    assert!(tall.reach > 0.0 && tall.reach > some.reach, "{tall:?}");
    let bushes = Plants {
        joshua: 0,
        ..Plants::default()
    }
    .cover(&ground);
    assert!(
        bushes.reach < 0.0 && bushes.reach < some.reach,
        "{bushes:?}"
    );
    // And the picture agrees: no tree's top rises higher than the model
    // says.
    let plants = placed(
        &s,
        &Plants {
            height: 6.0,
            ..Plants::default()
        },
    );
    let top = trees(&plants).map(|p| p.body[1]).min().unwrap() as f32 / 360.0;
    assert!(s.horizon - top <= tall.reach + 0.01, "{top} {tall:?}");
}

/// The bits of the plants of `plants` in `scene` drawn at `w` × `h` over
/// a background that varies, band by band, by the shaders of `build`
/// (`None`: pixel by pixel).
fn painted(scene: &Scene, plants: &Plants, (w, h): (u32, u32), build: Option<Build>) -> Vec<u32> {
    let plan = crate::compose::Plan::new(scene).unwrap();
    let frame = plan.frame(w, h);
    let draw = PlantsDraw::new(plants, &frame);
    crate::layers::paint_bands(w, h, |band| draw.draw_with(band, build))
}

/// Every build of the shaders paints the bits of the per-pixel reference:
/// bushes large and small, leaning, lit at every time of day, opaque and
/// translucent.
#[test]
fn every_build_paints_the_bits_of_the_reference() {
    let cases = [
        (crate::TimeOfDay::GoldenHour, Plants::default(), (517, 291)),
        (
            crate::TimeOfDay::Noon,
            Plants {
                creosote: 1.0,
                clumped: 1.0,
                joshua: 12,
                lean: 0.9,
                near_size: 0.25,
                opacity: 0.6,
                ..Plants::default()
            },
            (640, 360),
        ),
        (
            crate::TimeOfDay::Dusk,
            Plants {
                creosote: 0.7,
                far_size: 0.002,
                ..Plants::default()
            },
            (1280, 720),
        ),
    ];
    for (time, plants, size) in cases {
        let s = scene(time, 0.3);
        let reference = painted(&s, &plants, size, None);
        for build in Build::all() {
            assert!(
                painted(&s, &plants, size, Some(build)) == reference,
                "{time:?}, {size:?}: {build:?} differs"
            );
        }
    }
}

/// `scene` drawn at `w × h` as the compositor draws it in one ground,
/// band by band from black, its layers in their drawing order, with the
/// bands' depths: its colours, and per pixel the key of the ground and of
/// the nearest thing drawn ([`crate::layers::world`]).
pub(crate) fn drawn_with_depths(
    scene: &Scene,
    (w, h): (u32, u32),
) -> (Vec<crate::base::color::Linear>, Vec<f32>, Vec<f32>) {
    use crate::layers::world::{Depth, FAR};
    use crate::layers::{BAND_ROWS, Band};
    let plan = crate::compose::Plan::new(scene).unwrap();
    let frame = plan.frame(w, h);
    let layers: Vec<_> = plan
        .drawn()
        .layers
        .iter()
        .filter(|l| l.visible() && l.opacity() > 0.0)
        .map(|l| l.prepare(&frame).unwrap())
        .collect();
    let (mut px, mut ground, mut things) = (Vec::new(), Vec::new(), Vec::new());
    for index in 0..h.div_ceil(BAND_ROWS) {
        let y0 = index * BAND_ROWS;
        let rows = BAND_ROWS.min(h - y0);
        let n = (rows * w) as usize;
        let (mut p, mut g, mut t) = (vec![[0.0; 3]; n], vec![FAR; n], vec![FAR; n]);
        let mut band = Band::rows(y0, rows, w, index as usize, &mut p);
        band.depth = Some(Depth {
            ground: &mut g,
            things: &mut t,
        });
        for layer in &layers {
            layer.draw(&mut band);
        }
        px.extend(p);
        ground.extend(g);
        things.extend(t);
    }
    (px, ground, things)
}

/// A camp in one ground: death-valley's, with Joshua trees about the
/// tent, the plants after the tent or before it.
fn camp(one_ground: bool, plants_last: bool) -> Scene {
    let mut s = scene(crate::TimeOfDay::Noon, 0.74);
    s.one_ground = one_ground;
    let plants = Layer::Plants(Plants {
        joshua: 20,
        creosote: 0.6,
        ..Plants::default()
    });
    let tent = s
        .layers
        .iter()
        .position(|l| matches!(l, Layer::Tent(_)))
        .unwrap();
    s.layers
        .insert(if plants_last { tent + 1 } else { tent }, plants);
    s
}

/// How many pixels of two pictures differ, and the share of all.
fn differ(a: &image::RgbaImage, b: &image::RgbaImage) -> (usize, f32) {
    let n = a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count();
    (n, n as f32 / (a.width() * a.height()) as f32)
}

/// In one ground the nearer of the plants and the tent is drawn over the
/// farther whatever the layers' order: swapping them changes only a few
/// pixels at the edges of thin leaves (where a leaf covers less than half
/// a pixel, what is drawn later shows through it). Drawn in layer order,
/// the swap moves trees from in front of the tent to behind it.
#[test]
fn the_nearer_of_the_plants_and_the_tent_is_drawn_over_whatever_their_order() {
    let size = (640, 360);
    let swap = |one_ground| {
        let (a, b) = (camp(one_ground, true), camp(one_ground, false));
        let (a, b) = (
            crate::render(&a, size.0, size.1).unwrap(),
            crate::render(&b, size.0, size.1).unwrap(),
        );
        differ(&a, &b)
    };
    let (one, apart) = (swap(true), swap(false));
    assert!(apart.1 > 0.005, "in layer order the swap changes {apart:?}");
    assert!(one.1 < 0.003, "in one ground the swap changes {one:?}");
    assert!(one.0 * 4 < apart.0, "{one:?} against {apart:?}");
}

/// A sea of dunes with a camp and Joshua trees on it, in one ground.
pub(crate) fn sea() -> Scene {
    Scene::from_ron(
        r#"(
            seed: 5,
            time: GoldenHour,
            sun_x: 0.78,
            horizon: 0.45,
            wind: 200.0,
            one_ground: true,
            layers: [
                Sky(()),
                Floor(()),
                Dunes((form: 0, height: 12.0, spacing: 150.0, cover: 0.95)),
                Tent((x: 0.45, y: 0.8, size: 0.8)),
                Plants((joshua: 30, creosote: 0.3, clumped: 0.0, near_size: 0.25, far_size: 0.06)),
            ],
        )"#,
        "sea",
    )
    .unwrap()
}

/// The plants of `sea()` as placed at 640 × 360: on the sand, and as on
/// flat ground.
fn on_the_sand() -> (Vec<Plant>, Vec<Plant>, Vec<(f32, f32)>) {
    let s = sea();
    let plants = match s.layers.last() {
        Some(Layer::Plants(p)) => p.clone(),
        _ => unreachable!(),
    };
    let plan = crate::compose::Plan::new(&s).unwrap();
    let frame = plan.frame(640, 360);
    let mut flat = plan.frame(640, 360);
    flat.world.terrain = None;
    let lifted = Placer::new(&plants, &frame).plants();
    let flat = Placer::new(&plants, &flat).plants();
    let lifts = flat
        .iter()
        .map(|p| match &p.parts[0].1 {
            Part::Bush(b) => (b.foot[0], frame.world.lift(b.foot[0], p.key)),
            Part::Limb(l) => (l.a[0], frame.world.lift(l.a[0], p.key)),
            Part::Rosette(_) => unreachable!(),
        })
        .collect();
    (lifted, flat, lifts)
}

/// In one ground with dunes each plant stands on the sand at its depth:
/// drawn as high above its place on flat ground as the sand lifts it
/// there, its shadow and every part with it.
#[test]
fn plants_stand_on_the_sand_at_their_depth() {
    let (lifted, flat, lifts) = on_the_sand();
    assert_eq!(lifted.len(), flat.len());
    let mut high = 0;
    for ((p, q), (_, lift)) in lifted.iter().zip(&flat).zip(&lifts) {
        assert_eq!((p.row, p.key), (q.row, q.key));
        let tree = matches!(p.parts[0].1, Part::Limb(_));
        let moved = q.foot - p.foot;
        // (A tree's trunk leans a hair off its foot.)
        let close = if tree { 0.05 } else { 1e-3 };
        assert!((moved - lift).abs() < close, "moved {moved}, lift {lift}");
        assert!(p.body[1] <= (q.body[1] as f32 - moved).floor() as i32 + 1);
        assert!(p.body[3] >= (q.body[3] as f32 - moved).ceil() as i32 - 1);
        assert!(p.shade[3] >= (q.shade[3] as f32 - moved).ceil() as i32 - 1);
        high += usize::from(moved > 3.0);
    }
    assert!(
        high > 20,
        "{high} plants stand 3 px or more over flat ground"
    );
}

/// `draw` painted over `under` (a `w`-wide picture's colours) band by
/// band, with the ground's keys `ground` (and nothing else standing), or
/// without depths.
pub(crate) fn over(
    under: &[crate::base::color::Linear],
    ground: Option<&[f32]>,
    w: u32,
    draw: &dyn crate::layers::Draw,
) -> Vec<crate::base::color::Linear> {
    use crate::layers::world::{Depth, FAR};
    use crate::layers::{BAND_ROWS, Band};
    let mut px = under.to_vec();
    let band_px = (BAND_ROWS * w) as usize;
    for (index, p) in px.chunks_mut(band_px).enumerate() {
        let n = p.len();
        let mut g = ground.map_or(Vec::new(), |g| g[index * band_px..][..n].to_vec());
        let mut t = vec![FAR; n];
        let y0 = index as u32 * BAND_ROWS;
        let mut band = Band::rows(y0, n as u32 / w, w, index, p);
        if ground.is_some() {
            band.depth = Some(Depth {
                ground: &mut g,
                things: &mut t,
            });
        }
        draw.draw(&mut band);
    }
    px
}

/// A plant behind a dune's crest is hidden by the sand, as far as the
/// crest hides it: no plant paints where the sand drawn is nearer than
/// where it stands (by more than its reach under its foot); some are
/// hidden whole or in part, and those in front of every crest are drawn
/// whole.
#[test]
fn the_sand_hides_plants_behind_its_crests() {
    let mut s = sea();
    let (w, h) = (640, 360);
    let Some(Layer::Plants(plants)) = s.layers.pop() else {
        unreachable!()
    };
    s.layers.pop();
    // The sand alone, and its keys.
    let (sand, ground, _) = drawn_with_depths(&s, (w, h));
    let plan = crate::compose::Plan::new(&sea()).unwrap();
    let frame = plan.frame(w, h);
    let (mut hidden, mut part, mut whole) = (0, 0, 0);
    for plant in Placer::new(&plants, &frame).plants() {
        let (key, foot) = (plant.key, plant.foot);
        let one = PlantsDraw::of(vec![plant], 1.0, &frame);
        let (seen, all) = (
            over(&sand, Some(&ground), w, &one),
            over(&sand, None, w, &one),
        );
        let (mut shown, mut drawn) = (0, 0);
        for (i, (a, b)) in seen.iter().zip(&all).enumerate() {
            let y = (i as u32 / w) as f32 + 0.5;
            // (Its shadow lies on the ground as deep as its row.)
            let reach = key + (y - foot).max(0.0) + 2.0;
            if a != &sand[i] {
                assert!(ground[i] <= reach, "a plant shows through the sand");
                shown += 1;
            }
            drawn += usize::from(b != &sand[i]);
        }
        match shown {
            0 if drawn > 0 => hidden += 1,
            n if n < drawn => part += 1,
            _ => whole += 1,
        }
    }
    assert!(
        hidden >= 2 && part >= 5 && whole >= 20,
        "{hidden} hidden, {part} in part, {whole} whole"
    );
}

/// The eye's height scales the plants at a row: from a stone's eye
/// (0.3 m) they are larger than from a person's (1.6 m), from 100 m
/// smaller.
#[test]
fn a_lower_eye_sees_larger_plants() {
    let height = |eye: f32| {
        let mut s = scene(crate::TimeOfDay::Noon, 0.7);
        s.eye = eye;
        let plants = placed(&s, &Plants::default());
        // A bush's height over its row's depth under the horizon.
        let bushes: Vec<f32> = plants
            .iter()
            .filter_map(|p| match &p.parts[0].1 {
                Part::Bush(b) => Some(b.ht / p.key),
                _ => None,
            })
            .collect();
        let tree = trees(&plants).map(|p| p.body[3] - p.body[1]).max();
        (bushes.iter().sum::<f32>() / bushes.len() as f32, tree)
    };
    let (low, standing, high) = (height(0.3), height(1.6), height(100.0));
    assert!(low.0 > 2.5 * standing.0, "{low:?} {standing:?}");
    assert!(high.0 < 0.1 * standing.0, "{high:?} {standing:?}");
    assert!(low.1 > standing.1 && standing.1 > high.1);
}
