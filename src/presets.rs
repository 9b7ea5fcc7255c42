//! The shipped presets, embedded in the library so `playa render` works
//! from any directory.

use crate::error::{Error, Result};
use crate::scene::Scene;

/// A shipped preset: its name (the file stem in `presets/`) and its RON.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Name, e.g. `"death-valley"`.
    pub name: &'static str,
    /// The RON text, as in `presets/{name}.ron`.
    pub ron: &'static str,
}

impl Preset {
    /// The first line of the preset's leading comment: what it shows.
    pub fn description(&self) -> &'static str {
        self.ron
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("//"))
            .map(str::trim)
            .unwrap_or("")
    }

    /// The preset's scene.
    pub fn scene(&self) -> Result<Scene> {
        Scene::from_ron(self.ron, &format!("preset {}", self.name))
    }
}

macro_rules! presets {
    ($($name:literal),* $(,)?) => {
        /// Every shipped preset, the default first.
        pub const PRESETS: &[Preset] = &[
            $(Preset { name: $name, ron: include_str!(concat!("../presets/", $name, ".ron")) },)*
        ];
    };
}

presets!(
    "death-valley",
    "golden-hour",
    "night-under-stars",
    "badlands",
    "salt-flat",
    "boulder-field",
);

/// Name of the default preset (its scene is [`Scene::default`]).
pub const DEFAULT: &str = "death-valley";

/// The preset called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The preset called `name`, or an error naming it and listing the presets.
pub fn get(name: &str) -> Result<&'static Preset> {
    find(name).ok_or_else(|| Error::Scene {
        source_name: name.to_string(),
        reason: format!(
            "no such preset (the presets are: {})",
            PRESETS
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// The scene of the preset called `name`.
pub fn load(name: &str) -> Result<Scene> {
    get(name)?.scene()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_has_a_description() {
        for p in PRESETS {
            p.scene().unwrap_or_else(|e| panic!("{e}"));
            assert!(!p.description().is_empty(), "{}", p.name);
        }
    }

    #[test]
    fn the_default_preset_is_the_default_scene() {
        assert_eq!(load(DEFAULT).unwrap(), Scene::default());
        assert_eq!(PRESETS[0].name, DEFAULT);
        assert!(
            load("nope")
                .unwrap_err()
                .to_string()
                .contains("death-valley")
        );
    }

    #[test]
    fn embedded_presets_match_the_files() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("presets");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".ron"))
            .collect();
        names.sort();
        let mut embedded: Vec<String> = PRESETS.iter().map(|p| format!("{}.ron", p.name)).collect();
        embedded.sort();
        assert_eq!(names, embedded);
    }
}
