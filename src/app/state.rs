//! What the app remembers between runs ([`AppState`], plain data that
//! eframe persists) and the status bar's [`Message`]: the types every
//! panel and dialog of the app reads, kept below them all.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::app::explore::variations;
use crate::app::export::animation::AnimationExportSettings;
use crate::app::export::png::ExportSettings;
use crate::app::export::scene_file::SceneFileSettings;
use crate::app::files;
use crate::app::preview::animate::AnimateSettings;
use crate::explore::randomize::{self, Locks};
use crate::scene::Scene;

/// The environment variable that, set and not blank, gives the web address
/// of the Share field's links in place of [`AppState::web_address`].
pub const WEB_URL_VAR: &str = "PLAYA_WEB_URL";

/// Everything the app remembers between runs, as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AppState {
    /// The scene being edited. Default: the default scene (death valley).
    pub scene: Scene,
    /// The name of what the scene was loaded from: a shipped preset's name,
    /// a file's name without its extension, or empty for a pasted scene or
    /// a link. Shown in the Preset box and naming exports.
    /// Default: "death-valley".
    pub preset: String,
    /// The share code of the scene as it was loaded: when the scene's own
    /// code differs, the Preset box adds "(edited)". Default: the default
    /// scene's code (empty in a state stored before it existed, and then
    /// taken from [`AppState::preset`] at start-up).
    #[serde(default)]
    pub loaded: String,
    /// Parameter groups that New scene and Vary leave alone. Default:
    /// the spiral.
    pub locks: Locks,
    /// Size and path of the last export.
    pub export: ExportSettings,
    /// Size, format and path of the last animation export.
    pub animation_export: AnimationExportSettings,
    /// Speed of the generation scrubber (its range is the generations
    /// setting's).
    pub animate: AnimateSettings,
    /// State of the dice: each roll advances it. Default: 0 (then seeded from
    /// the clock at start-up).
    pub dice: u64,
    /// The variations grid: open or not, its mode and Vary's strength.
    pub variations: variations::GridSettings,
    /// The address of playa's web page (e.g. `https://example.org/playa/`):
    /// with one, the Share field gives a link to the scene,
    /// `address#playa1-…` (see [`crate::share::link`]), instead of the bare
    /// code. [`WEB_URL_VAR`] wins when set. Default: empty (bare codes).
    pub web_address: String,
    /// The folder of the last "Save scene…".
    pub scene_file: SceneFileSettings,
}

impl AppState {
    /// What the Preset box shows for a scene whose share code is
    /// `scene_code`: where the scene came from, and "(edited)" once it
    /// differs from what was loaded.
    pub fn origin_label(&self, scene_code: &str) -> String {
        let origin = if self.preset.is_empty() {
            "pasted scene"
        } else {
            &self.preset
        };
        if scene_code == self.loaded {
            origin.to_string()
        } else {
            format!("{origin} (edited)")
        }
    }

    /// The web address the Share field makes links with: `env`, the value
    /// of [`WEB_URL_VAR`], when set and not blank, else
    /// [`AppState::web_address`] when not blank; `None`: bare codes.
    pub fn link_address<'a>(&'a self, env: Option<&'a str>) -> Option<&'a str> {
        [env, Some(&self.web_address)]
            .into_iter()
            .flatten()
            .map(str::trim)
            .find(|address| !address.is_empty())
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            scene: Scene::default(),
            preset: files::DEFAULT_PRESET.to_string(),
            loaded: crate::share::encode(&Scene::default()),
            locks: Locks::default(),
            export: ExportSettings::default(),
            animation_export: AnimationExportSettings::default(),
            animate: AnimateSettings::default(),
            dice: 0,
            variations: variations::GridSettings::default(),
            web_address: String::new(),
            scene_file: SceneFileSettings::default(),
        }
    }
}

/// A one-line message in the status bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The text, written to be read as it is.
    pub text: String,
    /// Whether it reports a failure (shown in red).
    pub error: bool,
}

/// The store of the user's presets: their folder natively (in memory,
/// with a line saying why, when there is none); in the browser, empty
/// until [`PlayaApp::from_storage`] reads it.
pub(crate) fn default_store() -> crate::source::user_presets::Store {
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::source::user_presets::Store::from_env().unwrap_or_else(|e| {
            log_line(&format!("{e}; your presets are kept until playa closes"));
            crate::source::user_presets::Store::in_memory(Default::default())
        })
    }
    #[cfg(target_arch = "wasm32")]
    crate::source::user_presets::Store::in_memory(Default::default())
}

/// A seed for the dice from the clock: a different sequence every start.
pub(crate) fn clock_seed() -> u64 {
    let nanos = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_nanos();
    #[cfg(not(target_arch = "wasm32"))]
    let nanos = nanos ^ u128::from(std::process::id());
    randomize::splitmix64(nanos as u64).max(1)
}

/// Writes a line to stderr (the app has no console of its own; this is
/// for whoever started it from a terminal).
pub(crate) fn log_line(text: &str) {
    eprintln!("playa: {text}");
}
