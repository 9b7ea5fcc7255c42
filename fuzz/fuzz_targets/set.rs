//! `--set KEY=VALUE`: any texts are refused with a one-line error, or give
//! scenes (one, or one per value of a sweep) that are valid, quantized,
//! and survive RON and their share code unchanged; a sweep's label, given
//! back as `--set`, makes its scene again. The first byte picks the shipped
//! preset the texts are applied to; the rest is the texts, a line each (a
//! command's `--set` arguments).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use playa::explore::tweak::{Tweak, Tweaks};
use playa::{Scene, scene::presets, share};

/// Most `--set` arguments read from one input.
const MAX_ARGS: usize = 8;

fn scenes() -> &'static [Scene] {
    static SCENES: OnceLock<Vec<Scene>> = OnceLock::new();
    SCENES.get_or_init(|| {
        presets::PRESETS
            .iter()
            .map(|p| p.scene().expect("a shipped preset loads"))
            .collect()
    })
}

fn one_line(e: &playa::Error) -> String {
    let text = e.to_string();
    assert!(
        !text.contains(['\n', '\r']),
        "an error of more than one line: {text:?}"
    );
    assert!(!text.trim().is_empty(), "an empty error");
    text
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let args: Vec<&str> = text.split('\n').collect();
    if args.len() > MAX_ARGS {
        return;
    }
    let scene = &scenes()[pick as usize % scenes().len()];
    let tweaks = match Tweaks::parse(&args) {
        Ok(t) => t,
        Err(e) => {
            one_line(&e);
            return;
        }
    };
    let variants = match tweaks.variants(scene) {
        Ok(v) => v,
        Err(e) => {
            one_line(&e);
            return;
        }
    };
    let sweep = tweaks.sweep();
    assert_eq!(variants.len(), sweep.map_or(1, Tweak::len));
    match sweep {
        None => assert_eq!(
            tweaks.apply(scene).expect("a set without a sweep applies"),
            variants[0].scene
        ),
        Some(_) => {
            one_line(&tweaks.apply(scene).expect_err("a sweep makes no one scene"));
        }
    }
    // The argument that is the sweep, to give its labels back in its place.
    let swept_arg = args
        .iter()
        .position(|a| Tweak::parse(a).is_ok_and(|t| t.is_sweep()));
    assert_eq!(swept_arg.is_some(), sweep.is_some());
    let mut suffixes = Vec::new();
    // The round trips of a sweep of up to 1000 values take about a second:
    // they are made for its first and last values and 14 between.
    let n = variants.len();
    let step = n.div_ceil(15).max(1);
    for (k, v) in variants.iter().enumerate() {
        let s = &v.scene;
        s.validate().expect("a scene of --set is valid");
        assert_eq!(&s.quantized(), s, "a scene of --set is quantized");
        assert_eq!(v.label().is_some(), sweep.is_some());
        if let Some(suffix) = v.file_suffix() {
            assert!(
                !suffix.contains(['/', '\\', '\0']),
                "{suffix:?} is no file name"
            );
            suffixes.push(suffix);
        }
        if k % step != 0 && k != n - 1 {
            continue;
        }
        let back = Scene::from_ron(&s.to_ron(), "again").expect("its RON reads");
        assert_eq!(&back, s, "its RON reads back the same");
        assert_eq!(
            &share::decode(&share::encode(s)).expect("its code decodes"),
            s
        );
        let (Some(label), Some(i)) = (v.label(), swept_arg) else {
            continue;
        };
        // `KEY=VALUE` as the label says it, in the sweep's place: the same
        // scene (a label is what a sheet shows and a person types again).
        let mut again: Vec<&str> = args.clone();
        again[i] = &label;
        let t = Tweaks::parse(&again)
            .unwrap_or_else(|e| panic!("the label {label:?} does not read: {e}"));
        assert!(t.sweep().is_none(), "the label {label:?} is a sweep");
        let made = t
            .apply(scene)
            .unwrap_or_else(|e| panic!("the label {label:?} does not apply: {e}"));
        assert_eq!(&made, s, "the label {label:?} makes another scene");
    }
    // Each variant's file is named after its value: no two may collide.
    let named = suffixes.len();
    suffixes.sort();
    suffixes.dedup();
    assert_eq!(
        suffixes.len(),
        named,
        "two values of the sweep name the same file"
    );
});
