//! Windows of a picture: `Plan::render_window` draws only the window, and
//! its pixels are the same rectangle of the whole picture, byte for byte,
//! for every preset and for packed fields, over random windows (down to
//! 1×1, crossing stones, the tent and the horizon), at picture sizes whose
//! last band of rows is short.

use image::RgbaImage;
use playa::compose::Plan;
use playa::layers::{Layer, Rocks};
use playa::{Scene, render, scene::presets};

/// A seeded stream of numbers (xorshift64*): the same windows every run.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) % u64::from(n)) as u32
    }
}

/// A window `[x, y, w, h]` of a `width × height` picture around the point
/// (`cx`, `cy`), `w × h` at most, moved inside the picture.
fn around(width: u32, height: u32, (cx, cy): (f32, f32), w: u32, h: u32) -> [u32; 4] {
    let (w, h) = (w.min(width), h.min(height));
    let x = ((cx - w as f32 / 2.0).max(0.0) as u32).min(width - w);
    let y = ((cy - h as f32 / 2.0).max(0.0) as u32).min(height - h);
    [x, y, w, h]
}

/// Checks each of `windows` of `scene`'s picture at `width × height`
/// against the whole picture cut there.
fn check(name: &str, scene: &Scene, width: u32, height: u32, windows: &[[u32; 4]]) {
    let whole = render(scene, width, height).unwrap();
    let plan = Plan::new(scene).unwrap();
    for &window in windows {
        let [x, y, w, h] = window;
        let part = plan.render_window(width, height, window).unwrap();
        let cut: RgbaImage = image::imageops::crop_imm(&whole, x, y, w, h).to_image();
        if part != cut {
            let (px, py) = part
                .enumerate_pixels()
                .find(|(i, j, p)| cut.get_pixel(*i, *j) != *p)
                .map(|(i, j, _)| (x + i, y + j))
                .unwrap();
            panic!("{name} at {width}x{height}, window {window:?}: differs first at ({px}, {py})");
        }
    }
}

/// Random windows of a `width × height` picture, from 1×1 up, with some
/// thin ones (a row, a column) and the whole picture; and windows around
/// the horizon and each tent of `scene`.
fn windows(scene: &Scene, width: u32, height: u32, dice: &mut Dice) -> Vec<[u32; 4]> {
    let mut out = vec![
        [0, 0, width, height],
        [0, 0, 1, 1],
        [width - 1, height - 1, 1, 1],
    ];
    for k in 0..14 {
        let (w, h) = match k % 4 {
            0 => (1 + dice.below(4), 1 + dice.below(4)),
            1 => (1 + dice.below(width), 1),
            2 => (1, 1 + dice.below(height)),
            _ => (1 + dice.below(width), 1 + dice.below(height)),
        };
        out.push([dice.below(width - w + 1), dice.below(height - h + 1), w, h]);
    }
    let horizon = scene.horizon * height as f32;
    for (w, h) in [(37, 11), (150, 3), (5, 40)] {
        let cx = dice.below(width) as f32;
        out.push(around(width, height, (cx, horizon), w, h));
    }
    for layer in &scene.layers {
        if let Layer::Tent(t) = layer
            && t.visible
        {
            let c = (t.x * width as f32, t.y * height as f32);
            let size = (t.size * height as f32) as u32;
            out.push(around(width, height, c, size.max(3), size.max(3)));
            out.push(around(width, height, c, size / 3 + 1, size / 2 + 1));
            // Its left edge: the shadow, a guy line and the dome's side.
            let left = (c.0 - 0.5 * size as f32, c.1);
            out.push(around(width, height, left, 9, size / 2 + 1));
        }
    }
    out
}

#[test]
fn every_preset_s_windows_are_the_picture_there() {
    let mut dice = Dice(0x5eed_1234_abcd_0001);
    for p in presets::PRESETS {
        let scene = p.scene().unwrap();
        // 225 and 187 rows: the last band of rows is short.
        for (width, height) in [(400, 225), (333, 187)] {
            let windows = windows(&scene, width, height, &mut dice);
            check(p.name, &scene, width, height, &windows);
        }
    }
}

/// Dunes of every form, barchans rising over the horizon among them: a
/// window is the picture there, crests and slip faces and all.
#[test]
fn dunes_windows_are_the_picture_there() {
    let mut dice = Dice(0x5eed_d0e5_0000_0005);
    for (form, cover, wind) in [(0, 0.25, 80.0), (1, 0.6, 250.0), (2, 0.9, 10.0)] {
        let scene = Scene::from_ron(
            &format!(
                "(time: Dawn, sun_x: 0.2, wind: {wind}, layers: [Sky(()), Ranges(()), Floor(()), \
                 Dunes((form: {form}, cover: {cover}, height: 10.0, spacing: 140.0)), Rocks(())])"
            ),
            "dunes",
        )
        .unwrap();
        let windows = windows(&scene, 400, 225, &mut dice);
        check(&format!("dunes {form}"), &scene, 400, 225, &windows);
    }
}

/// death-valley with its automaton at `density` on `columns` columns, its
/// stones `near` (fraction of the height) on the nearest row.
fn packed(density: f32, columns: u32, near: f32, opacity: f32) -> Scene {
    let mut scene = Scene::default();
    scene.automaton.density = density;
    scene.automaton.columns = columns;
    for layer in &mut scene.layers {
        if let Layer::Rocks(r) = layer {
            *r = Rocks {
                near_size: near,
                far_size: near * 0.5,
                opacity,
                ..r.clone()
            };
        }
    }
    scene
}

#[test]
fn packed_fields_windows_are_the_picture_there() {
    let mut dice = Dice(0x0dd_ba11);
    for (density, columns, near, opacity) in [
        (0.4, 560, 0.042, 1.0),
        (0.5, 968, 0.006, 1.0),
        (0.8, 560, 0.042, 1.0),
        (0.4, 300, 0.1, 0.6),
    ] {
        let scene = packed(density, columns, near, opacity);
        let name = format!("density {density} on {columns} columns, opacity {opacity}");
        for (width, height) in [(640, 361), (517, 291)] {
            let mut windows = windows(&scene, width, height, &mut dice);
            // Windows in the field of stones, most edges cutting through some.
            for _ in 0..10 {
                let (w, h) = (1 + dice.below(120), 1 + dice.below(60));
                let y = height / 2 + dice.below(height / 2 - h + 1);
                windows.push([dice.below(width - w + 1), y, w, h]);
            }
            check(&name, &scene, width, height, &windows);
        }
    }
}

/// A window of a picture zoomed 6× (as the app's live zoom asks) is the
/// same as the zoomed picture there; the window costs its own pixels.
#[test]
fn a_window_of_a_zoomed_picture_is_the_zoomed_picture_there() {
    let scene = presets::load("night-under-stars").unwrap();
    let (width, height) = (1280, 721);
    let mut dice = Dice(77);
    let mut windows = windows(&scene, width, height, &mut dice);
    windows.push([600, 300, 320, 180]);
    check("night-under-stars zoomed", &scene, width, height, &windows);
}

#[test]
fn a_window_outside_the_picture_or_empty_is_refused() {
    let plan = Plan::new(&Scene::default()).unwrap();
    for window in [
        [300, 0, 41, 10],
        [0, 180, 10, 8],
        [0, 0, 0, 10],
        [0, 0, 10, 0],
    ] {
        assert!(plan.render_window(340, 187, window).is_err(), "{window:?}");
    }
    let err = plan
        .render_window(340, 187, [u32::MAX, 0, 2, 2])
        .unwrap_err();
    assert!(err.to_string().contains("window"), "{err}");
}
