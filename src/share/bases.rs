//! The base scenes a share code's payload is written against: frozen with
//! format 1 in `bases.ron`, so a code means the same scene whatever later
//! happens to the defaults and presets.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::layers::Layer;
use crate::scene::Scene;

/// A base scene of the format, with the name it had as a preset.
#[derive(Deserialize, Serialize)]
pub(super) struct Base {
    /// The preset's name, for the reader of `bases.ron`.
    pub(super) name: String,
    /// The scene, every setting written out.
    pub(super) scene: Scene,
}

/// The RON of the bases, frozen with the format.
pub(super) const BASES_RON: &str = include_str!("bases.ron");

/// The base scenes, read once.
pub(super) fn bases() -> &'static [Scene] {
    static BASES: OnceLock<Vec<Scene>> = OnceLock::new();
    BASES.get_or_init(|| {
        let bases: Vec<Base> = ron::from_str(BASES_RON).expect("the share bases parse (tested)");
        bases.into_iter().map(|b| b.scene).collect()
    })
}

/// The layer a fresh layer of kind `kind` starts from: the first of that
/// kind in base 0, the default scene.
pub(super) fn fresh_layer(kind: usize) -> Layer {
    bases()[0]
        .layers
        .iter()
        .find(|l| l.kind_index() == kind)
        .cloned()
        .unwrap_or_else(|| Layer::every_kind().swap_remove(kind))
}
