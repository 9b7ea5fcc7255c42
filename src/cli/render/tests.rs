use super::*;

#[test]
fn the_list_is_whole_and_wraps_at_spaces() {
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let whole = preset_list(None);
    assert_eq!(whole.lines().count(), presets::PRESETS.len());
    for p in presets::PRESETS {
        assert!(whole.contains(&format!("{:<20} {}\n", p.name, p.description())));
    }
    for width in [40, 61, 80, 100] {
        let wrapped = preset_list(Some(width));
        for line in wrapped.lines() {
            assert!(line.chars().count() <= width, "{width}: {line:?}");
        }
        // The same words in the same order, none cut.
        assert_eq!(words(&wrapped), words(&whole), "{width}");
        assert!(wrapped.lines().count() > presets::PRESETS.len(), "{width}");
    }
    // Narrower than a word: one word a line, never cut.
    let narrow = preset_list(Some(22));
    assert_eq!(words(&narrow), words(&whole));
    for line in narrow.lines() {
        let named = presets::PRESETS.iter().any(|p| line.starts_with(p.name));
        assert_eq!(
            line.split_whitespace().count(),
            1 + usize::from(named),
            "{line:?}"
        );
    }
}

#[test]
fn seed_ranges() {
    assert_eq!(parse_seeds("3..6"), Ok((3, 5)));
    assert_eq!(parse_seeds("3..=6"), Ok((3, 6)));
    for bad in ["6..6", "0..0", "6..=5", "8..2", "3..", "..3", "x..3", "7"] {
        let err = parse_seeds(bad).unwrap_err();
        assert!(
            err.starts_with(&format!("--seeds \"{bad}\""))
                && err.ends_with(&format!("({})", playa::base::range::RULE)),
            "{bad}: {err}"
        );
    }
}
