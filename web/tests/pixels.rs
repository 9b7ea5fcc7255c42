//! The browser draws the same bytes as the desktop: every preset rendered in
//! wasm (run in Node by wasm-bindgen-test) has the pixel hash pinned from the
//! native build in `tests/render_hashes.txt`, and the exported PNG and
//! animations have the native files' hashes.
//!
//! `cargo test -p playa-web --target wasm32-unknown-unknown --profile web` with
//! `wasm-bindgen-test-runner` as the target's runner (`tests/it/web.rs` runs it).

#![cfg(target_arch = "wasm32")]

use playa::{render, scene::presets};
use wasm_bindgen_test::wasm_bindgen_test;

/// FNV-1a (64-bit) of the picture's size and RGBA bytes, as in
/// `tests/it/render.rs`.
fn fnv64(width: u32, height: u32, bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in width
        .to_le_bytes()
        .into_iter()
        .chain(height.to_le_bytes())
        .chain(bytes.iter().copied())
    {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[wasm_bindgen_test]
fn presets_match_the_native_pixels() {
    let pinned = include_str!("../../tests/render_hashes.txt");
    let mut checked = 0;
    for p in presets::PRESETS {
        let image = render(&p.scene().unwrap(), 192, 108).unwrap();
        let got = format!("{:016x}", fnv64(192, 108, image.as_raw()));
        let want = pinned
            .lines()
            .find_map(|l| l.strip_prefix(p.name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no pinned hash for {}", p.name));
        assert_eq!(got, want, "{} renders other bytes in the browser", p.name);
        checked += 1;
    }
    assert_eq!(checked, presets::PRESETS.len());
}

#[wasm_bindgen_test]
fn share_codes_and_png_recipes_are_the_same() {
    let scene = presets::load("night-under-stars").unwrap();
    let code = playa::share::encode(&scene);
    assert_eq!(playa::share::decode(&code).unwrap(), scene);
    // The exported file: the same bytes as `playa render` writes (the
    // native test pins the same scene's PNG hash).
    let mut png = Vec::new();
    playa::output::picture::render_png(
        &mut png,
        &scene,
        96,
        54,
        &[],
        playa::output::picture::Compression::default(),
    )
    .unwrap();
    let recipe = playa::output::recipe::decode_recipe(&png, "export.png").unwrap();
    assert_eq!(recipe.scene, scene);
    assert_eq!((recipe.width, recipe.height), (96, 54));
    // FNV-1a of the file written by `playa render night-under-stars --size
    // 96x54` natively (pinned there too: tests/it/render.rs).
    let hash = png.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    assert_eq!(
        hash, PNG_FNV,
        "the exported file differs from playa render's"
    );
}

/// The browser's Export animation… makes an animation a frame per UI
/// frame ([`playa::animation::Animation::steps`]): the same bytes as `playa
/// animate night-under-stars --frames 0..=3 --size 64x36` natively (pinned
/// there too: `tests/it/cli_animate.rs`, `animation_files_are_pinned`).
#[wasm_bindgen_test]
fn animations_are_the_same_bytes() {
    use playa::animation::{Animation, Format, Options};
    let scene = presets::load("night-under-stars").unwrap();
    for (format, want) in [
        (Format::Apng, 0x69e1_691c_f8d0_a165u64),
        (Format::Gif, 0x49a6_7793_67ee_5113),
    ] {
        let options = Options {
            first: 0,
            last: 3,
            format,
            ..Options::for_scene(&scene)
        };
        let mut steps = Animation::new(&scene, &options, (64, 36))
            .unwrap()
            .steps()
            .unwrap();
        let bytes = loop {
            if let Some(bytes) = steps.step().unwrap() {
                break bytes;
            }
        };
        let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        assert_eq!(
            hash, want,
            "the browser's {format:?} differs from playa animate's"
        );
    }
}

/// See `tests/it/render.rs`: `night_png_file_is_pinned`.
const PNG_FNV: u64 = 0x1d28_8618_0f8a_6f62;
