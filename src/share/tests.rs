//! Tests of share codes: round trips, sizes, the frozen bases, every
//! damaged code refused with its reason, and links.

use super::bases::{BASES_RON, Base, bases};
use super::bits::Bits;
use super::codec::{ALPHABET, crc24, seal};
use super::payload::BASE_BITS;
use super::*;
use crate::error::Error;
use crate::layers::{KINDS, Kind, Layer, match_kind};
use crate::scene::{MAX_LAYERS, Scene};
use crate::setting::Setting;

#[test]
fn crc24_is_openpgp() {
    assert_eq!(crc24(*b"123456789"), 0x21_CF02);
}

/// The hash of `bases.ron`: the file is part of format 1.
const BASES_CRC32: u32 = 0x07d4_cd9d;

fn with_seed(mut scene: Scene, seed: u64) -> Scene {
    scene.seed = seed;
    scene
}

/// The most a seed can cost.
const SEEDS: [u64; 5] = [0, 2, 4321, 1 << 40, u64::MAX];

#[test]
fn the_default_scene_with_any_seed_fits_24_characters() {
    for seed in SEEDS {
        let scene = with_seed(Scene::default(), seed);
        let code = encode(&scene);
        assert!(code.len() <= 24, "{code} ({} characters)", code.len());
        assert_eq!(decode(&code).unwrap(), scene);
    }
}

/// Every preset's code is short: 64 characters at most, and 80 for the
/// presets of one ground, whose eye, lens and kinds of layers the frozen
/// bases (all standing on the flat floor) do not hold.
#[test]
fn every_preset_round_trips_within_64_characters() {
    for p in crate::scene::presets::PRESETS {
        let scene = p.scene().unwrap();
        let most = if scene.one_ground { 80 } else { 64 };
        for seed in std::iter::once(scene.seed).chain(SEEDS) {
            let scene = with_seed(scene.clone(), seed);
            let code = encode(&scene);
            assert!(
                code.len() <= most,
                "{} seed {seed}: {code} ({} characters). If the preset drifted from \
                 src/share/bases.ron, see bases_are_frozen.",
                p.name,
                code.len()
            );
            let decoded = decode(&code).unwrap();
            assert_eq!(decoded, scene, "{}", p.name);
            assert_eq!(encode(&decoded), code);
        }
        let code = encode(&scene);
        let (a, b) = (
            crate::render(&scene, 64, 36).unwrap(),
            crate::render(&decode(&code).unwrap(), 64, 36).unwrap(),
        );
        assert!(a.as_raw() == b.as_raw(), "{}: the pictures differ", p.name);
    }
}

/// Every setting changed, the layers reordered, one dropped, one added.
pub(crate) fn heavy_edit() -> Scene {
    let text = include_str!("../../tests/data/heavy-edit.ron");
    Scene::from_ron(text, "heavy-edit.ron").unwrap()
}

#[test]
fn a_heavy_edit_fits_200_characters() {
    let scene = heavy_edit();
    scene.validate().unwrap();
    let code = encode(&scene);
    assert!(code.len() <= 200, "{code} ({} characters)", code.len());
    assert_eq!(decode(&code).unwrap(), scene);
    assert_eq!(encode(&decode(&code).unwrap()), code);
}

#[test]
fn the_longest_scene_fits_the_code_limit() {
    // Every setting of every layer changed.
    let mut scene = heavy_edit();
    scene.layers = (0..MAX_LAYERS)
        .map(|i| {
            let mut layer = Layer::every_kind()[i % KINDS].clone();
            change_every_setting(&mut layer);
            layer
        })
        .collect();
    scene.automaton.columns = 1000;
    scene.validate().unwrap();
    let code = encode(&scene);
    println!("the longest code: {} characters", code.len());
    assert!(code.len() <= MAX_CODE_CHARS / 2, "{}", code.len());
    assert_eq!(decode(&code).unwrap(), scene);
}

/// Moves every setting of `layer` to its next value.
fn change_every_setting(layer: &mut Layer) {
    fn all<K: Kind>(t: &mut K) {
        for f in K::SETTINGS {
            f.set_index(t, (f.index(t) + 1) % f.count()).unwrap();
        }
    }
    match_kind!(layer, l => all(l))
}

#[test]
fn every_single_character_change_is_refused() {
    let mut night = crate::scene::presets::load("night-under-stars").unwrap();
    night.seed = 99;
    let codes = [
        encode(&with_seed(Scene::default(), 7)),
        encode(&with_seed(Scene::default(), u64::MAX)),
        encode(&night),
        encode(&heavy_edit()),
    ];
    let others: Vec<char> = ALPHABET
        .iter()
        .map(|&b| char::from(b))
        .chain(['=', '+', '/', ' ', '.', 'é', '\0'])
        .collect();
    for code in &codes {
        let chars: Vec<char> = code.chars().collect();
        for at in 0..chars.len() {
            for &c in &others {
                if c == chars[at] {
                    continue;
                }
                let mut changed = chars.clone();
                changed[at] = c;
                let changed: String = changed.into_iter().collect();
                assert!(decode(&changed).is_err(), "{code} → {changed} was accepted");
            }
        }
    }
}

#[test]
fn neighbour_swaps_deletions_and_cuts_are_refused() {
    let code = encode(&heavy_edit());
    let chars: Vec<char> = code.chars().collect();
    for at in 0..chars.len() {
        let mut cut = chars.clone();
        cut.remove(at);
        let cut: String = cut.into_iter().collect();
        assert!(decode(&cut).is_err(), "{cut}");
        assert!(decode(&code[..at]).is_err(), "{}", &code[..at]);
        if at + 1 < chars.len() && chars[at] != chars[at + 1] {
            let mut swapped = chars.clone();
            swapped.swap(at, at + 1);
            let swapped: String = swapped.into_iter().collect();
            assert!(decode(&swapped).is_err(), "{swapped}");
        }
    }
}

#[test]
fn equal_scenes_get_one_code() {
    let texts = [
        "(seed: 5, automaton: (rule: \"B36/S23\", density: 0.5), sun_x: 0.3)",
        "(sun_x: 0.3, automaton: (density: 0.5, rule: \"23/36\"), seed: 5)",
        "(sun_x: 0.30000004, seed: 5, automaton: (density: 0.50031, rule: \"s23/b63\"))",
    ];
    let codes: Vec<String> = texts
        .iter()
        .map(|t| encode(&Scene::from_ron(t, "t").unwrap()))
        .collect();
    assert!(codes.iter().all(|c| *c == codes[0]), "{codes:?}");
    // Noise below the precision is rounded away in the scene itself.
    let mut noisy = Scene::default();
    noisy.horizon += 0.000_2;
    noisy.layers[4] = Layer::Tent(crate::layers::Tent {
        x: 0.300_4,
        ..Default::default()
    });
    assert_eq!(encode(&noisy), encode(&Scene::default()));
    assert_eq!(decode(&encode(&noisy)).unwrap(), noisy.quantized());
}

#[test]
fn codes_of_format_1_are_pinned() {
    // Regenerating these breaks every code already shared.
    let cases = [
        (with_seed(Scene::default(), 7), "playa1-XRGtELg"),
        (
            with_seed(crate::scene::presets::load("salt-flat").unwrap(), 12345),
            "playa1-tkbHk3A5ZA5AA",
        ),
    ];
    for (scene, code) in cases {
        assert_eq!(encode(&scene), code);
        assert_eq!(decode(code).unwrap(), scene);
    }
}

/// The rocks layer of `scene`.
fn rocks(scene: &mut Scene) -> &mut crate::layers::Rocks {
    scene
        .layers
        .iter_mut()
        .find_map(|l| match l {
            Layer::Rocks(r) => Some(r),
            _ => None,
        })
        .unwrap()
}

#[test]
fn codes_of_format_2_are_pinned() {
    // Regenerating these breaks every code already shared; they also
    // freeze the defaults of the settings format 2 added, which format 1
    // codes and the bases mean.
    let mut gravel = with_seed(Scene::default(), 7);
    rocks(&mut gravel).gravel = 0.8;
    let mut every = crate::scene::presets::load("boulder-field").unwrap();
    *rocks(&mut every) = crate::layers::Rocks {
        outcrop: 9,
        spread: 0.9,
        merge: 0.1,
        roughness: 1.0,
        gravel: 0.0,
        sink: 0.0,
        ..rocks(&mut every).clone()
    };
    let cases = [
        (gravel, "playa2-FYC8ELsQAAWQA"),
        (every, "playa2-qrgXpiAA_H4QZPoAAAA"),
    ];
    for (scene, code) in cases {
        assert_eq!(encode(&scene), code);
        assert_eq!(decode(code).unwrap(), scene);
    }
    // In a format 1 code, the later settings are at those defaults.
    let mut old = decode("playa1-XRGtELg").unwrap();
    let r = rocks(&mut old);
    assert_eq!(
        (r.outcrop, r.spread, r.merge, r.roughness, r.gravel, r.sink),
        (5, 0.3, 0.5, 0.5, 0.3, 0.4)
    );
}

#[test]
fn later_settings_come_last_in_their_tables() {
    fn check<T>(table: &[Setting<T>], name: &str) {
        let since: Vec<u32> = table.iter().map(|s| s.since).collect();
        assert!(
            since.windows(2).all(|w| w[0] <= w[1])
                && since.iter().all(|&f| (1..=FORMAT).contains(&f)),
            "{name}: {since:?}"
        );
    }
    fn kind<K: Kind>(_: &K) {
        check(K::SETTINGS, K::NAME);
    }
    check(Scene::SETTINGS, "scene");
    for layer in Layer::every_kind() {
        match_kind!(&layer, l => kind(l));
    }
}

#[test]
fn a_newer_format_says_so() {
    let newer = FORMAT + 1;
    let code = encode(&Scene::default()).replacen("playa1", &format!("playa{newer}"), 1);
    let err = decode(&code).unwrap_err().to_string();
    assert!(
        err.contains(&format!("made by a newer playa (format {newer})")),
        "{err}"
    );
    let err = decode("playa12345678901234567890123-AAAA")
        .unwrap_err()
        .to_string();
    assert!(err.contains("newer playa"), "{err}");
    let err = decode("playa0-AAAAAA").unwrap_err().to_string();
    assert!(err.contains("unknown format 0"), "{err}");
}

#[test]
fn bad_codes_say_what_is_wrong() {
    let good = encode(&Scene::default());
    let cases = [
        ("", "empty"),
        ("   \n", "empty"),
        ("hello", "not a playa share code"),
        ("playa-AAAA", "not a playa share code"),
        ("playa1", "not a playa share code"),
        ("playa1-", "too short"),
        ("playa1-AAAA", "too short"),
        ("playa1-AAAA!AA", "'!' (character 12)"),
        ("playa1-AAAAAAAA", "checksum"),
    ];
    for (code, needle) in cases {
        let err = decode(code).unwrap_err().to_string();
        assert!(err.starts_with("share code: "), "{err}");
        assert!(err.contains(needle), "{code:?}: {err}");
    }
    let long = format!("{good}{}", "A".repeat(MAX_CODE_CHARS));
    let err = decode(&long).unwrap_err().to_string();
    assert!(err.contains(&MAX_CODE_CHARS.to_string()), "{err}");
    // Pasted with surrounding blanks is fine.
    assert!(decode(&format!("  {good}\n")).is_ok());
}

/// Links to `code` in every shape accepted: with a path, a query, a
/// port, an old fragment's place, blanks around, or a bare fragment.
fn links_to(code: &str) -> Vec<String> {
    vec![
        format!("https://example.org/playa/index.html#{code}"),
        format!("http://127.0.0.1:8000/#{code}"),
        format!("https://example.org/playa/?from=mail#{code}"),
        format!("  https://example.org/playa/#{code}\n"),
        format!("#{code}"),
        format!(" #{code} "),
    ]
}

#[test]
fn links_decode_to_the_scene_of_their_code() {
    let mut scenes = vec![with_seed(Scene::default(), 7), heavy_edit()];
    scenes.extend(
        crate::scene::presets::PRESETS
            .iter()
            .map(|p| p.scene().unwrap()),
    );
    for scene in scenes {
        let code = encode(&scene);
        for link in links_to(&code) {
            assert!(looks_like_code(&link), "{link}");
            let decoded = decode(&link).unwrap_or_else(|e| panic!("{link}: {e}"));
            assert_eq!(decoded, scene, "{link}");
            assert_eq!(encode(&decoded), code, "{link}");
        }
    }
}

#[test]
fn link_puts_the_code_after_the_address() {
    let scene = with_seed(Scene::default(), 7);
    let code = "playa1-XRGtELg";
    for base in [
        "https://example.org/playa/index.html",
        "https://example.org/playa/index.html#",
        "https://example.org/playa/index.html#playa1-oTJbEWo",
        "https://example.org/playa/index.html#somewhere#else",
        "  https://example.org/playa/index.html\n",
    ] {
        assert_eq!(
            link(base, &scene).unwrap(),
            format!("https://example.org/playa/index.html#{code}"),
            "{base:?}"
        );
    }
    assert_eq!(
        link("http://127.0.0.1:8000/?a=b", &scene).unwrap(),
        format!("http://127.0.0.1:8000/?a=b#{code}")
    );
    // A link to a link's scene is that link.
    let made = link("https://example.org/p/", &heavy_edit()).unwrap();
    assert_eq!(link(&made, &decode(&made).unwrap()).unwrap(), made);
}

#[test]
fn link_refuses_what_is_not_a_web_address() {
    let scene = Scene::default();
    for (base, needle) in [
        ("", "it is empty"),
        ("   ", "it is empty"),
        ("#playa1-XRGtELg", "it is empty"),
        ("example.org/playa/", "expected one like https://"),
        ("https://", "expected one like https://"),
        ("://example.org/", "expected one like https://"),
        ("1http://example.org/", "expected one like https://"),
        ("https://example org/", "a blank or a control character"),
        (
            "https://example.org/\u{7}",
            "a blank or a control character",
        ),
    ] {
        let err = link(base, &scene).unwrap_err();
        assert!(matches!(err, Error::WebAddress { .. }), "{base:?}: {err:?}");
        let err = err.to_string();
        assert!(
            err.contains("is not a web address: ") && err.contains(needle),
            "{base:?}: {err}"
        );
    }
}

#[test]
fn bad_links_say_what_is_wrong() {
    let good = encode(&Scene::default());
    let mut typo = good.clone();
    typo.push('A');
    let cases = [
        (
            "https://example.org/playa/",
            "the link has no share code after #",
        ),
        (
            "https://example.org/playa/#",
            "the link has no share code after #",
        ),
        ("#", "the link has no share code after #"),
        (" # ", "the link has no share code after #"),
        (
            "https://example.org/#scene",
            "the link's fragment \"scene\" is not a share code (they start with playa1-, playa2-, playa3-, playa4-, playa5-, playa6-, playa7- or playa8-)",
        ),
        (
            "#hello",
            "the link's fragment \"hello\" is not a share code",
        ),
        (
            &format!("https://example.org/##{good}"),
            "fragment \"#playa1-",
        ),
        (&format!("https://example.org/#{typo}"), "checksum"),
        ("https://example.org/#playa1-AAAA", "too short"),
        (
            "https://example.org/#playa9-AAAAAAA",
            "newer playa (format 9)",
        ),
    ];
    for (link, needle) in cases {
        assert!(looks_like_code(link), "{link:?}");
        let err = decode(link).unwrap_err();
        assert!(matches!(err, Error::ShareCode(_)), "{link:?}: {err:?}");
        let err = err.to_string();
        assert!(err.starts_with("share code: "), "{err}");
        assert!(err.contains(needle), "{link:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Text that is no link is read as a code (and refused as one).
    for (text, needle) in [
        ("example.org/#hello", "not a playa share code".to_string()),
        (
            &format!("{good}#x"),
            format!("'#' (character {})", good.len() + 1),
        ),
    ] {
        let err = decode(text).unwrap_err().to_string();
        assert!(err.contains(&needle), "{text:?}: {err}");
    }
    for name in [
        "death-valley",
        "scene.ron",
        "notes#1.ron",
        "dir/x#y",
        "example.org/#hello",
        "",
    ] {
        assert!(!looks_like_code(name), "{name:?}");
    }
}

#[test]
fn sealed_values_outside_the_limits_are_refused() {
    // A well-sealed payload asking for 2047 columns at aspect 0.25:
    // a grid above MAX_GRID_CELLS.
    let scene = Scene {
        aspect: 0.25,
        automaton: crate::scene::Automaton {
            columns: 2047,
            ..Default::default()
        },
        ..Default::default()
    };
    let code = encode(&scene);
    let err = decode(&code).unwrap_err().to_string();
    assert!(err.contains("cells"), "{err}");
    // Base 7 does not exist.
    let mut w = Bits::default();
    w.push(7, BASE_BITS);
    w.push(0, 3);
    let err = decode(&seal(&w, 1)).unwrap_err().to_string();
    assert!(err.contains("no base scene 7"), "{err}");
}

mod props {
    use super::*;
    use crate::layers::{Floor, Ranges, Rocks, Sky, Spiral, Tent};
    use proptest::prelude::*;

    /// Values for every setting of a `T`, as indices into their ranges.
    fn indices<T>(fields: &'static [Setting<T>]) -> impl Strategy<Value = Vec<u64>> {
        fields.iter().map(|f| 0..f.count()).collect::<Vec<_>>()
    }

    fn apply<T>(fields: &[Setting<T>], t: &mut T, values: &[u64]) {
        for (f, &v) in fields.iter().zip(values) {
            f.set_index(t, v).unwrap();
        }
    }

    /// A layer of any kind with any settings (or its defaults, often,
    /// so that codes also meet unchanged layers).
    fn layer() -> impl Strategy<Value = Layer> {
        let kind = 0..KINDS;
        (
            kind,
            any::<bool>(),
            proptest::collection::vec(any::<u64>(), 16),
        )
            .prop_map(|(kind, keep, raw)| {
                let mut layer = Layer::every_kind()[kind].clone();
                if keep {
                    return layer;
                }
                fn set<K: Kind>(t: &mut K, raw: &[u64]) {
                    // Each setting changes with probability 1/2.
                    for (f, &r) in K::SETTINGS.iter().zip(raw) {
                        if r & 1 == 1 {
                            f.set_index(t, (r >> 1) % f.count()).unwrap();
                        }
                    }
                }
                match_kind!(&mut layer, l => set(l, &raw));
                layer
            })
    }

    /// Any valid scene: every setting anywhere in its range, at its
    /// precision; the layers a preset's, edited, or any list.
    pub(crate) fn scene() -> impl Strategy<Value = Scene> {
        let preset = 0..crate::scene::presets::PRESETS.len();
        let layers = prop_oneof![
            Just(None),
            proptest::collection::vec(layer(), 0..=MAX_LAYERS).prop_map(Some),
        ];
        (
            preset,
            any::<u64>(),
            any::<bool>(),
            indices(Scene::SETTINGS),
            layers,
        )
            .prop_map(|(preset, seed, edit, values, layers)| {
                let mut scene = crate::scene::presets::PRESETS[preset].scene().unwrap();
                scene.seed = seed;
                if edit {
                    apply(Scene::SETTINGS, &mut scene, &values);
                }
                if let Some(layers) = layers {
                    scene.layers = layers;
                }
                scene
            })
            .prop_filter("grid within MAX_GRID_CELLS", |s| s.validate().is_ok())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn decode_inverts_encode(scene in scene()) {
            let code = encode(&scene);
            let decoded = decode(&code).unwrap();
            prop_assert_eq!(&decoded, &scene);
            prop_assert_eq!(&encode(&decoded), &code);
            let linked = link("https://example.org/playa/", &scene).unwrap();
            prop_assert_eq!(linked, format!("https://example.org/playa/#{code}"));
        }

        #[test]
        fn random_text_is_refused_without_panic(text in ".{0,80}") {
            prop_assert!(decode(&text).is_err());
            let code = format!("playa1-{text}");
            let _ = decode(&code);
        }

        #[test]
        fn random_sealed_payloads_never_break_decode(
            bits in proptest::collection::vec(any::<bool>(), 0..400),
            format in 1..=FORMAT,
        ) {
            // Sealed, so the checksum passes and the parser is reached.
            let code = seal(&Bits { bits }, format);
            if let Ok(scene) = decode(&code) {
                scene.validate().unwrap();
                prop_assert_eq!(decode(&encode(&scene)).unwrap(), scene);
            }
        }
    }

    #[test]
    fn layer_kinds_are_in_order() {
        let kinds: Vec<usize> = [
            Layer::Sky(Sky::default()),
            Layer::Ranges(Ranges::default()),
            Layer::Floor(Floor::default()),
            Layer::Rocks(Rocks::default()),
            Layer::Tent(Tent::default()),
            Layer::Spiral(Spiral::default()),
            Layer::Clouds(crate::layers::Clouds::default()),
            Layer::Racetrack(crate::layers::Racetrack::default()),
            Layer::Plants(crate::layers::Plants::default()),
            Layer::Relief(crate::layers::Relief::default()),
            Layer::Dunes(crate::layers::Dunes::default()),
        ]
        .iter()
        .map(Layer::kind_index)
        .collect();
        assert_eq!(kinds, (0..KINDS).collect::<Vec<_>>());
    }
}

/// `PLAYA_REFRESH_SHARE_BASES=1 cargo test --release share::` writes
/// the shipped presets into `bases.ron`. Only before playa's first
/// release: after it, codes in the wild depend on the file.
#[test]
fn bases_are_frozen() {
    if std::env::var_os("PLAYA_REFRESH_SHARE_BASES").is_some() {
        let bases: Vec<Base> = crate::scene::presets::PRESETS
            .iter()
            .map(|p| Base {
                name: p.name.to_string(),
                scene: p.scene().unwrap(),
            })
            .collect();
        let config = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .depth_limit(4)
            .indentor("    ");
        let text = ron::ser::to_string_pretty(&bases, config).unwrap();
        let header = "// The base scenes of share-code format 1 (see src/share.rs): frozen.\n";
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/share/bases.ron");
        std::fs::write(&path, format!("{header}{text}\n")).unwrap();
        panic!(
            "wrote {}: rebuild, then pin its hash in BASES_CRC32",
            path.display()
        );
    }
    assert!(!bases().is_empty() && bases().len() <= 1 << BASE_BITS);
    // The bases hold the kinds of format 1; later kinds start fresh.
    let first = crate::layers::kinds_in_format(2);
    assert!(first == Scene::default_layers().len());
    for kind in 0..first {
        assert!(bases()[0].layers.iter().any(|l| l.kind_index() == kind));
    }
    assert_eq!(
        crc32fast::hash(BASES_RON.as_bytes()),
        BASES_CRC32,
        "src/share/bases.ron is part of share-code format 1: changing it changes what \
         codes mean. Before playa's first release, refresh it from the presets with \
         PLAYA_REFRESH_SHARE_BASES=1 and pin the new hash; after it, add a format."
    );
}

#[test]
fn a_layer_of_a_later_kind_is_written_in_format_3_and_older_codes_stay() {
    let mut scene = Scene::default();
    scene.add_layer(Layer::Clouds(crate::layers::Clouds {
        cover: 0.8,
        ..Default::default()
    }));
    let code = encode(&scene);
    assert!(code.starts_with("playa3-"), "{code}");
    assert_eq!(decode(&code).unwrap(), scene.quantized());
    assert_eq!(encode(&decode(&code).unwrap()), code);
    // Without it, the scene keeps the code it always had.
    assert!(encode(&Scene::default()).starts_with("playa1-"));
    // The format is part of the checksum: no older playa misreads it.
    assert!(decode(&code.replacen("playa3", "playa2", 1)).is_err());
}

/// The wind came with format 4: a scene with a wind is written in it and
/// reads back the same, and the wind at 0 leaves the scene's older code
/// as it was.
#[test]
fn the_wind_is_written_since_format_4() {
    let still = Scene::default();
    assert!(encode(&still).starts_with("playa1-"));
    let windy = Scene {
        wind: 237.5,
        ..Scene::default()
    };
    let code = encode(&windy);
    assert!(code.starts_with("playa4-"), "{code}");
    assert_eq!(decode(&code).unwrap(), windy);
}

/// Times of day after the first four, and any hour, are written since
/// format 4 and read back; the first four keep their older codes.
#[test]
fn any_hour_is_written_since_format_4() {
    use crate::base::palette::TimeOfDay;
    let at = |time| Scene {
        time,
        ..Scene::default()
    };
    assert!(encode(&at(TimeOfDay::Night)).starts_with("playa1-"));
    for time in [
        TimeOfDay::Dawn,
        TimeOfDay::Moonlight,
        TimeOfDay::Hour(7.3),
        TimeOfDay::Hour(23.9),
    ] {
        let code = encode(&at(time));
        assert!(code.starts_with("playa4-"), "{time:?}: {code}");
        assert_eq!(decode(&code).unwrap().time, time, "{code}");
    }
}

/// Dunes came with format 6: a scene with them is written in it and reads
/// back the same; the same scene without them keeps its older code.
#[test]
fn dunes_are_written_in_format_6_and_older_codes_stay() {
    let windy = Scene {
        wind: 200.0,
        ..Scene::default()
    };
    let old = encode(&windy);
    assert!(old.starts_with("playa4-"), "{old}");
    let mut sandy = windy.clone();
    sandy.add_layer(Layer::Dunes(crate::layers::Dunes {
        form: 2,
        height: 35.5,
        cover: 0.42,
        ..Default::default()
    }));
    let code = encode(&sandy);
    assert!(code.starts_with("playa6-"), "{code}");
    assert_eq!(decode(&code).unwrap(), sandy.quantized());
    assert_eq!(encode(&decode(&code).unwrap()), code);
    assert_eq!(encode(&windy), old);
    // A format 5 code cannot name the kind: the format is in the checksum.
    assert!(decode(&code.replacen("playa6", "playa5", 1)).is_err());
}

/// One ground, the eye and the lens came with format 7: a scene that
/// sets any of them is written in it and reads back the same; at their
/// defaults the scene keeps its older code, and an older code means them
/// at their defaults (the scene as it was drawn before).
#[test]
fn one_ground_eye_and_lens_are_written_in_format_7_and_older_codes_stay() {
    let old_scene = crate::scene::presets::load("dune-sea").unwrap();
    let old = encode(&old_scene);
    assert!(old.starts_with("playa6-"), "{old}");
    let decoded = decode(&old).unwrap();
    assert!(!decoded.one_ground);
    assert_eq!((decoded.eye, decoded.lens), (1.6, 24.0));
    for (one_ground, eye, lens) in [(true, 1.6, 24.0), (false, 0.3, 24.0), (false, 1.6, 400.0)] {
        let scene = Scene {
            one_ground,
            eye,
            lens,
            ..old_scene.clone()
        };
        let code = encode(&scene);
        assert!(code.starts_with("playa7-"), "{code}");
        assert_eq!(decode(&code).unwrap(), scene.quantized());
        assert_eq!(encode(&decode(&code).unwrap()), code);
        // A format 6 code cannot hold them: the format is in the checksum.
        assert!(decode(&code.replacen("playa7", "playa6", 1)).is_err());
    }
    let far = Scene {
        eye: 1750.0,
        lens: 35.0,
        one_ground: true,
        ..old_scene.clone()
    };
    assert_eq!(decode(&encode(&far)).unwrap(), far.quantized());
    assert_eq!(encode(&old_scene), old);
}

/// The look came with format 8: a scene in a later look is written in it
/// and reads back the same; a scene in the first look keeps its older
/// code, and an older code means the first look (its pixels as before).
#[test]
fn the_look_is_written_in_format_8_and_older_codes_mean_the_first() {
    let old_scene = Scene {
        one_ground: true,
        ..crate::scene::presets::load("dune-sea").unwrap()
    };
    let old = encode(&old_scene);
    assert!(old.starts_with("playa7-"), "{old}");
    assert_eq!(decode(&old).unwrap().look, crate::scene::LOOK_FIRST);
    let scene = Scene {
        look: crate::scene::LOOK_NEWEST,
        ..old_scene.clone()
    };
    let code = encode(&scene);
    assert!(code.starts_with("playa8-"), "{code}");
    assert_eq!(decode(&code).unwrap(), scene.quantized());
    assert_eq!(encode(&decode(&code).unwrap()), code);
    assert!(decode(&code.replacen("playa8", "playa7", 1)).is_err());
    assert_eq!(encode(&old_scene), old);
}

/// The newest format knows every kind: a kind added later needs a new
/// format, since a format's count of kinds is part of its codes.
#[test]
fn the_newest_format_knows_every_kind() {
    assert_eq!(crate::layers::kinds_in_format(FORMAT), KINDS);
}

/// The relief and the floor's mirage came with format 5: a scene with
/// either is written in it and reads back the same; a floor without a
/// mirage keeps its older code.
#[test]
fn the_relief_and_the_mirage_are_written_since_format_5() {
    let plain = Scene::default();
    assert!(encode(&plain).starts_with("playa1-"));
    let mut relief = Scene::default();
    assert!(relief.add_layer(Layer::Relief(crate::layers::Relief::default())));
    let mut mirage = Scene::default();
    let Layer::Floor(floor) = &mut mirage.layers[2] else {
        panic!("the default scene's third layer is its floor");
    };
    floor.mirage = 0.4;
    for scene in [relief, mirage] {
        let code = encode(&scene);
        assert!(code.starts_with("playa5-"), "{code}");
        assert_eq!(decode(&code).unwrap(), scene);
    }
}

/// The wind wraps (issue 57): 360° is the wind of 0°, one picture, so it
/// has one code, one RON and one value, 0; a code written with 360 before
/// still reads, as 0. The same of the hour 24, midnight as the hour 0.
#[test]
fn the_ends_of_a_setting_that_wraps_are_one_value() {
    let at = |wind| Scene {
        wind,
        ..Scene::default()
    };
    let still = encode(&at(0.0));
    for wind in [360.0, 359.96] {
        assert_eq!(encode(&at(wind)), still, "{wind}");
        assert_eq!(at(wind).quantized(), at(0.0), "{wind}");
    }
    // A code holding 360, as playa wrote it before.
    let old = super::codec::encode_in(&at(360.0), FORMAT);
    assert_ne!(old, still);
    assert_eq!(decode(&old).unwrap(), at(0.0));
    assert_eq!(encode(&decode(&old).unwrap()), still);
    // Every other wind keeps its own code.
    assert_eq!(decode(&encode(&at(359.9))).unwrap(), at(359.9));
    let scene = Scene::from_ron("(wind: 360.0)", "windy.ron").unwrap();
    assert_eq!(scene, at(0.0));
    assert!(!scene.to_ron().contains("wind"));

    use crate::base::palette::TimeOfDay;
    let at = |time| Scene {
        time,
        ..Scene::default()
    };
    let midnight = encode(&at(TimeOfDay::Moonlight));
    assert_eq!(encode(&at(TimeOfDay::Hour(24.0))), midnight);
    assert_eq!(encode(&at(TimeOfDay::Hour(23.96))), midnight);
    let old = super::codec::encode_in(&at(TimeOfDay::Hour(24.0)), FORMAT);
    assert_ne!(old, midnight);
    assert_eq!(decode(&old).unwrap(), at(TimeOfDay::Moonlight));
    let scene = Scene::from_ron("(time: Hour(24.0))", "late.ron").unwrap();
    assert_eq!(scene.time, TimeOfDay::Moonlight);
}
