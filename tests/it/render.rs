//! Pictures: pinned pixel hashes of every preset, thread-count independence,
//! resolution independence and the PNG recipe round trip.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common::threads::with_threads;
use image::RgbaImage;
use playa::output::picture::{self, Compression};
use playa::output::recipe;
use playa::{Scene, render, scene::presets};

/// FNV-1a (64-bit) of the picture's size and RGBA bytes.
fn fnv64(image: &RgbaImage) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let (w, h) = image.dimensions();
    for b in w
        .to_le_bytes()
        .into_iter()
        .chain(h.to_le_bytes())
        .chain(image.as_raw().iter().copied())
    {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn hashes_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/render_hashes.txt")
}

/// Every preset at 192×108 has the pixel hash pinned in
/// `tests/render_hashes.txt`. After an intended change of the pictures,
/// `PLAYA_BLESS=1 cargo test --release --test it -- render::` rewrites the file
/// (review the new pictures before committing it).
#[test]
fn preset_pixels_are_pinned() {
    let mut got = BTreeMap::new();
    for p in presets::PRESETS {
        let scene = p.scene().unwrap();
        let image = render(&scene, 192, 108).unwrap();
        got.insert(p.name.to_string(), format!("{:016x}", fnv64(&image)));
    }
    let text: String = got.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
    if std::env::var_os("PLAYA_BLESS").is_some() {
        std::fs::write(hashes_file(), &text).unwrap();
        eprintln!("wrote {}:\n{text}", hashes_file().display());
        return;
    }
    let pinned = std::fs::read_to_string(hashes_file()).expect("tests/render_hashes.txt");
    let pinned: BTreeMap<String, String> = pinned
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(
        got, pinned,
        "pixels changed; if intended, run with PLAYA_BLESS=1"
    );
}

#[test]
fn one_thread_and_four_threads_give_the_same_bytes() {
    // The presets, and a sky of every new kind's.
    let cloudy = playa::Scene::from_ron(
        "(time: Dusk, layers: [Sky(()), Clouds((cover: 0.7, streaks: 0.5, dust: 0.4)), \
         Ranges(()), Floor(()), Rocks(()), Tent(())])",
        "cloudy",
    )
    .unwrap();
    let racetrack = playa::Scene::from_ron(
        "(time: GoldenHour, wind: 200.0, layers: [Sky(()), Clouds((cover: 0.5)), Ranges(()), \
         Floor(()), Racetrack((stones: 80, size: 0.6, trail: 150.0, age: 0.2, wander: 0.8)), \
         Tent(())])",
        "racetrack",
    )
    .unwrap();
    // Plants under clouds' shade, at golden hour, a tent among them.
    let planted = playa::Scene::from_ron(
        "(time: GoldenHour, sun_x: 0.3, wind: 30, layers: [Sky(()), \
         Clouds((cover: 0.6)), Ranges(()), Floor(()), Rocks(()), \
         Plants((creosote: 0.7, clumped: 0.8, joshua: 12, lean: 0.5)), Tent(())])",
        "planted",
    )
    .unwrap();
    // Barchans on the floor, rising over the horizon, under clouds.
    let barchans = playa::Scene::from_ron(
        "(time: Morning, wind: 60.0, layers: [Sky(()), Clouds((cover: 0.5)), Ranges(()), \
         Floor(()), Dunes((form: 0, cover: 0.3, height: 8.0, spacing: 120.0)), Rocks(())])",
        "barchans",
    )
    .unwrap();
    // The ground's relief, a mirage on the floor, clouds' shade on the rise.
    let relief = playa::Scene::from_ron(
        "(time: Morning, sun_x: 0.8, layers: [Sky(()), Clouds((cover: 0.5)), Ranges(()), \
         Floor((mirage: 0.8)), Relief((fans: 0.8, wash: 0.7, rise: 0.6, tilt: -0.5)), Rocks(())])",
        "relief",
    )
    .unwrap();
    let scenes = presets::PRESETS
        .iter()
        .map(|p| (p.name, p.scene().unwrap()))
        .chain([
            ("cloudy", cloudy),
            ("racetrack", racetrack),
            ("planted", planted),
            ("barchans", barchans),
            ("relief", relief),
        ]);
    for (name, scene) in scenes {
        let one = with_threads(1, || render(&scene, 333, 187).unwrap());
        let four = with_threads(4, || render(&scene, 333, 187).unwrap());
        assert!(one == four, "{name} differs between 1 and 4 threads");
        let again = with_threads(3, || render(&scene, 333, 187).unwrap());
        assert!(one == again, "{name} differs between runs");
    }
}

/// Mean absolute difference per channel (0..255) between `small` and
/// `large` box-downscaled by `k`.
fn downscaled_difference(small: &RgbaImage, large: &RgbaImage, k: u32) -> f64 {
    let (w, h) = small.dimensions();
    assert_eq!(large.dimensions(), (w * k, h * k));
    let mut total = 0.0f64;
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let mut sum = 0.0f64;
                for dy in 0..k {
                    for dx in 0..k {
                        sum += f64::from(large.get_pixel(x * k + dx, y * k + dy)[c]);
                    }
                }
                let mean = sum / f64::from(k * k);
                total += (mean - f64::from(small.get_pixel(x, y)[c])).abs();
            }
        }
    }
    total / f64::from(w * h * 3)
}

#[test]
fn a_larger_render_scaled_down_matches_the_small_one() {
    for p in presets::PRESETS {
        let scene = p.scene().unwrap();
        let small = render(&scene, 480, 270).unwrap();
        let large = render(&scene, 1920, 1080).unwrap();
        let diff = downscaled_difference(&small, &large, 4);
        eprintln!("{}: mean abs difference {diff:.3}", p.name);
        assert!(diff < 2.5, "{}: {diff}", p.name);
    }
}

#[test]
fn a_different_scene_is_a_different_picture() {
    let base = render(&Scene::default(), 160, 90).unwrap();
    let mut other = Scene::default();
    other.seed += 1;
    assert_ne!(base, render(&other, 160, 90).unwrap());
}

#[test]
fn recipe_round_trip_gives_identical_bytes() {
    for p in presets::PRESETS {
        let mut scene = p.scene().unwrap();
        scene.seed = 12345;
        let image = render(&scene, 240, 135).unwrap();
        let bytes = picture::encode_png_to_vec(&image, &scene, &[], Compression::Fast).unwrap();
        let back = recipe::decode_recipe(&bytes, "mem").unwrap().scene;
        assert_eq!(back, scene);
        let again = render(&back, 240, 135).unwrap();
        let bytes2 = picture::encode_png_to_vec(&again, &back, &[], Compression::Fast).unwrap();
        assert!(
            bytes == bytes2,
            "{}: PNG bytes differ after the round trip",
            p.name
        );
    }
}

#[test]
fn recipe_is_read_from_a_file_without_reading_the_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.png");
    let scene = Scene::default();
    let image = render(&scene, 64, 36).unwrap();
    picture::write_png(&path, &image, &scene, &[], Compression::Best).unwrap();
    assert_eq!(recipe::read_recipe(&path).unwrap().scene, scene);
    // Cut the file right after the recipe: the image data is gone, the
    // recipe still reads.
    let bytes = std::fs::read(&path).unwrap();
    let idat = bytes.windows(4).position(|w| w == b"IDAT").unwrap();
    std::fs::write(&path, &bytes[..idat + 4]).unwrap();
    assert_eq!(recipe::read_recipe(&path).unwrap().scene, scene);
    let err = recipe::read_recipe(&dir.path().join("missing.png")).unwrap_err();
    assert!(err.to_string().contains("missing.png"), "{err}");
}

#[test]
fn every_preset_renders_at_odd_sizes() {
    for p in presets::PRESETS {
        let scene = p.scene().unwrap();
        for (w, h) in [(1, 1), (2, 3), (101, 37), (37, 101)] {
            assert_eq!(render(&scene, w, h).unwrap().dimensions(), (w, h));
        }
    }
}

#[test]
fn a_huge_file_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.png");
    // Sparse: no disk is used, and nothing may read it.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(recipe::MAX_PNG_BYTES + 1).unwrap();
    let err = recipe::read_recipe(&path).unwrap_err().to_string();
    assert!(err.contains("huge.png") && err.contains("limit"), "{err}");
}

#[test]
fn png_bytes_are_the_same_for_any_thread_count() {
    let scene = presets::load("salt-flat").unwrap();
    let encode = || {
        let mut png = Vec::new();
        picture::render_png(&mut png, &scene, 400, 300, &[], Compression::Fast).unwrap();
        png
    };
    let one = with_threads(1, encode);
    let three = with_threads(3, encode);
    assert!(one == three);
}

/// The file `playa render night-under-stars --size 96x54` writes, pinned:
/// the browser's Export PNG must download these very bytes
/// (`web/tests/pixels.rs` pins the same hash; re-bless both together).
#[test]
fn night_png_file_is_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_playa"))
        .args(["render", "night-under-stars", "--size", "96x54", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&out).unwrap();
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    // Re-blessed when pictures gained their traits chunk (issue 48): the
    // pixels are the same.
    // Re-blessed again when the stones trait came to be read in the noon
    // sun's light (issue 59): the night's stones read "clumps", as by day.
    assert_eq!(hash, 0x1d28_8618_0f8a_6f62, "{:#x}", hash);
}

/// A tent clears the ground of stones only where it shows: behind an opaque
/// floor, hidden, or transparent, it leaves every stone where it lies (the
/// picture is the one without it); drawn, it clears them.
#[test]
fn only_a_tent_that_shows_clears_stones() {
    use playa::Layer;
    use playa::layers::{Floor, Ranges, Rocks, Sky, Tent};
    let scene = |layers: Vec<Layer>| Scene {
        layers,
        ..Scene::default()
    };
    // Sky, ranges, floor and stones: no tent.
    let plain = vec![
        Layer::Sky(Sky::default()),
        Layer::Ranges(Ranges::default()),
        Layer::Floor(Floor::default()),
        Layer::Rocks(Rocks::default()),
    ];
    // The same with a default tent, changed by `change`, put at index `at`
    // (0: under the sky, 4: over the stones).
    let with_tent_at = |at: usize, change: fn(&mut Tent)| {
        let mut tent = Tent::default();
        change(&mut tent);
        let mut layers = plain.clone();
        layers.insert(at, Layer::Tent(tent));
        layers
    };
    let without = render(&scene(plain.clone()), 640, 360).unwrap();
    // Behind the floor, behind everything, hidden, transparent.
    let unseen = [
        with_tent_at(2, |_| {}),
        with_tent_at(0, |_| {}),
        with_tent_at(4, |t| t.visible = false),
        with_tent_at(4, |t| t.opacity = 0.0),
    ];
    for layers in unseen {
        let names: Vec<&str> = layers.iter().map(|l| l.title()).collect();
        assert!(
            render(&scene(layers), 640, 360).unwrap() == without,
            "a tent that does not show cleared stones: {names:?}"
        );
    }
    // Under the stones but over the floor it shows, and clears its ground;
    // over the stones too.
    for layers in [with_tent_at(3, |_| {}), with_tent_at(4, |_| {})] {
        let with_tent = render(&scene(layers), 640, 360).unwrap();
        assert!(with_tent != without);
    }
}

/// Clouds cast their shade on the ranges too: under a late-morning sun,
/// the ranges' faces just above the horizon are darker in places with the
/// clouds shown than without them, and nowhere lighter.
#[test]
fn clouds_shade_the_ranges() {
    let scene = |visible: bool| {
        playa::Scene::from_ron(
            &format!(
                "(time: Hour(11.0), sun_x: 0.7, layers: [Sky(()), \
                 Clouds((visible: {visible}, cover: 0.45, size: 0.5)), \
                 Ranges((height: 0.25, haze: 0.4)), Floor(())])"
            ),
            "cloudy ranges",
        )
        .unwrap()
    };
    let (w, h) = (320, 180);
    let shaded = render(&scene(true), w, h).unwrap();
    let clear = render(&scene(false), w, h).unwrap();
    let horizon = (0.56 * h as f32) as u32;
    let (mut darker, mut total) = (0, 0);
    for y in horizon - 12..horizon - 2 {
        for x in 0..w {
            let (a, b) = (shaded.get_pixel(x, y), clear.get_pixel(x, y));
            let (la, lb) = (
                a.0[..3].iter().map(|&c| u32::from(c)).sum::<u32>(),
                b.0[..3].iter().map(|&c| u32::from(c)).sum::<u32>(),
            );
            assert!(la <= lb + 3, "({x}, {y}) is lighter under the clouds");
            darker += u32::from(la + 9 <= lb);
            total += 1;
        }
    }
    assert!(darker * 10 > total, "{darker} of {total} pixels shaded");
}
