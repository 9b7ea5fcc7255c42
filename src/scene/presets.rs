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
    /// What the preset shows: its leading `//` comment, whole, its lines
    /// joined into one.
    pub fn description(&self) -> String {
        description_of(self.ron)
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
            $(Preset { name: $name, ron: include_str!(concat!("../../presets/", $name, ".ron")) },)*
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
    "storm-over-the-ranges",
    "racetrack",
    "joshua-tree-flat",
    "alluvial-fan",
    "moonlit-playa",
    "dune-sea",
    "mesquite-flat",
    "dantes-view",
    "dune-field-from-above",
    "racetrack-stone",
);

/// What a preset's RON `text` says it shows: its leading `//` comment,
/// whole, its lines joined into one (empty when it has none).
pub fn description_of(text: &str) -> String {
    text.lines()
        .map_while(|l| l.trim_start().strip_prefix("//"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

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
    fn descriptions_are_the_whole_comment() {
        let description = |name: &str| find(name).unwrap().description();
        assert_eq!(
            description("death-valley"),
            "Death Valley campsite: deep blue noon sky, distant ranges, a pale playa \
             scattered with clumps of stones, a red dome tent. The default scene."
        );
        for p in PRESETS {
            let d = p.description();
            assert!(d.ends_with('.') && !d.contains("  "), "{}: {d}", p.name);
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
