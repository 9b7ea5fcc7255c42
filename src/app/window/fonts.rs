//! The app's fonts: egui's default faces (Ubuntu Light, Hack, Noto Emoji,
//! emoji-icon-font, egui's icons), with egui's own sizes and fallbacks, cut
//! to the characters playa shows: Latin, Greek and Cyrillic text, the
//! punctuation and symbols around it, and the pictographs on its buttons.
//! The whole faces are 1.4 MB of every download of the browser build; these
//! are 0.3 MB. `assets/fonts/subset.sh` makes them from egui's, and a test
//! checks every character the app's code writes has a glyph.

use std::sync::Arc;

use egui::{FontData, FontDefinitions, FontFamily, FontTweak};

/// The faces, by name: (name, file, tweak as egui's defaults have it).
const FACES: [(&str, &[u8], f32); 5] = [
    (
        "Ubuntu-Light",
        include_bytes!("../../../assets/fonts/Ubuntu-Light-playa.ttf"),
        1.0,
    ),
    (
        "Hack",
        include_bytes!("../../../assets/fonts/Hack-playa.ttf"),
        1.0,
    ),
    (
        "egui-icons",
        include_bytes!("../../../assets/fonts/egui-icons.ttf"),
        0.90,
    ),
    (
        "NotoEmoji-Regular",
        include_bytes!("../../../assets/fonts/NotoEmoji-playa.ttf"),
        0.81,
    ),
    (
        "emoji-icon-font",
        include_bytes!("../../../assets/fonts/emoji-icon-font-playa.ttf"),
        0.90,
    ),
];

/// The fonts to install (`Context::set_fonts`): egui's default families
/// (its `default_fonts` and `monochrome_emoji_fonts`) over these faces.
pub fn definitions() -> FontDefinitions {
    let mut fonts = FontDefinitions::empty();
    for (name, bytes, scale) in FACES {
        let data = FontData::from_static(bytes).tweak(FontTweak {
            scale,
            ..Default::default()
        });
        fonts.font_data.insert(name.to_owned(), Arc::new(data));
    }
    let fallbacks = ["egui-icons", "NotoEmoji-Regular", "emoji-icon-font"];
    let family = |first: &[&str]| {
        first
            .iter()
            .chain(&fallbacks)
            .map(|name| (*name).to_owned())
            .collect()
    };
    fonts
        .families
        .insert(FontFamily::Proportional, family(&["Ubuntu-Light"]));
    fonts
        .families
        .insert(FontFamily::Monospace, family(&["Hack", "Ubuntu-Light"]));
    fonts
}

/// Installs [`definitions`] in `ctx`, once: before any text is laid out in
/// a pass, they take effect at once.
pub fn install(ctx: &egui::Context) {
    let (_, ours, _) = FACES[0];
    let installed = ctx.fonts(|f| {
        f.definitions()
            .font_data
            .get("Ubuntu-Light")
            .is_some_and(|d| (*d.font).as_ref().len() == ours.len())
    });
    if !installed {
        ctx.set_fonts(definitions());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character outside ASCII in the app's code (its labels,
    /// buttons and messages; lines of comments aside) has a glyph in these
    /// fonts, in both families: a new symbol on a button fails here, not as
    /// a box on screen. `assets/fonts/subset.sh` adds it.
    #[test]
    fn every_character_the_app_writes_has_a_glyph() {
        let ctx = egui::Context::default();
        ctx.set_fonts(definitions());
        // No painter here: the font atlas's upload is dropped on purpose.
        ctx.run_ui(egui::RawInput::default(), |_| {})
            .textures_delta
            .clear();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/app");
        let mut missing = Vec::new();
        let mut checked = 0;
        for path in rust_files(std::path::Path::new(dir)) {
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
            for c in code.flat_map(str::chars).filter(|c| !c.is_ascii()) {
                checked += 1;
                for family in [FontFamily::Proportional, FontFamily::Monospace] {
                    let font = egui::FontId::new(14.0, family);
                    if !ctx.fonts_mut(|f| f.has_glyph(&font, c)) {
                        missing.push(format!("{c:?} (U+{:04X}) in {}", c as u32, path.display()));
                    }
                }
            }
        }
        assert!(
            checked > 50,
            "only {checked} characters outside ASCII found"
        );
        missing.dedup();
        assert!(missing.is_empty(), "no glyph for {missing:#?}");
    }

    #[test]
    fn a_character_outside_the_subset_has_no_glyph() {
        // The check above can fail: a CJK character is not in the fonts.
        let ctx = egui::Context::default();
        ctx.set_fonts(definitions());
        // No painter here: the font atlas's upload is dropped on purpose.
        ctx.run_ui(egui::RawInput::default(), |_| {})
            .textures_delta
            .clear();
        let font = egui::FontId::proportional(14.0);
        assert!(ctx.fonts_mut(|f| f.has_glyph(&font, 'é')));
        assert!(!ctx.fonts_mut(|f| f.has_glyph(&font, '\u{6f22}')));
    }

    fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.extend(rust_files(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
        files
    }
}
