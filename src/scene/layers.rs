//! The scene's layer list: where a layer added goes, so that it is seen
//! ([`Scene::add_layer`]), and the layers' names in the list, in messages
//! and in commented RON ([`layer_names`]).

use super::{MAX_LAYERS, Scene};
use crate::layers::{Layer, Tent};

impl Scene {
    /// Adds `layer` on top of the others, placed to be seen: a tent is
    /// moved along the ground clear of the tents already there (see
    /// [`Tent::placed_apart`]); clouds go into the sky, just over the last
    /// sky (or clouds) layer, under the ranges; a Racetrack or dunes go just
    /// over the last floor layer, under the stones and the tent; plants go on the
    /// ground, under the first tent or spiral (a tent stays in front of the
    /// trees behind it, the ornament over all). False, and nothing added,
    /// when the scene has [`MAX_LAYERS`] already.
    pub fn add_layer(&mut self, mut layer: Layer) -> bool {
        if self.layers.len() >= MAX_LAYERS {
            return false;
        }
        if let Layer::Tent(tent) = &mut layer {
            let others: Vec<&Tent> = self
                .layers
                .iter()
                .filter_map(|l| match l {
                    Layer::Tent(t) => Some(t),
                    _ => None,
                })
                .collect();
            *tent = tent.placed_apart(&others, self.aspect);
        }
        if let Layer::Clouds(_) = layer {
            // In the sky: over the last sky, under the ranges and the rest.
            let at = self
                .layers
                .iter()
                .rposition(|l| matches!(l, Layer::Sky(_) | Layer::Clouds(_)))
                .map_or(0, |i| i + 1);
            self.layers.insert(at, layer);
            return true;
        }
        if let Layer::Racetrack(_) | Layer::Dunes(_) = layer {
            // On the floor: over the last floor, under what stands on it.
            if let Some(i) = self
                .layers
                .iter()
                .rposition(|l| matches!(l, Layer::Floor(_)))
            {
                self.layers.insert(i + 1, layer);
                return true;
            }
        }
        if let Layer::Relief(_) = layer {
            // Over the floor, the mud and the dunes, under the stones and
            // what stands on the ground.
            if let Some(i) = self.layers.iter().rposition(|l| {
                matches!(
                    l,
                    Layer::Floor(_) | Layer::Racetrack(_) | Layer::Relief(_) | Layer::Dunes(_)
                )
            }) {
                self.layers.insert(i + 1, layer);
                return true;
            }
        }
        if let Layer::Plants(_) = layer {
            // Over the ground, under the first tent or spiral after it.
            let ground = self
                .layers
                .iter()
                .rposition(|l| {
                    matches!(
                        l,
                        Layer::Floor(_)
                            | Layer::Racetrack(_)
                            | Layer::Relief(_)
                            | Layer::Dunes(_)
                            | Layer::Rocks(_)
                            | Layer::Plants(_)
                    )
                })
                .map_or(0, |i| i + 1);
            let at = self.layers[ground..]
                .iter()
                .position(|l| matches!(l, Layer::Tent(_) | Layer::Spiral(_)))
                .map_or(self.layers.len(), |i| ground + i);
            self.layers.insert(at, layer);
            return true;
        }
        self.layers.push(layer);
        true
    }
}

/// A layer's name in the layer list, in messages and in commented RON:
/// its kind's title, numbered among the layers of its kind when there is
/// more than one ("Tent 2"), as `--set tent#2.x=…` counts them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerName {
    /// The kind's title in the app, e.g. `"Stones"`.
    pub title: &'static str,
    /// The kind's name in RON and `--set`, e.g. `"rocks"`.
    pub key: &'static str,
    /// Its place among the layers of its kind, from 1; `None` when it is
    /// the only one.
    pub nth: Option<usize>,
}

impl std::fmt::Display for LayerName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.nth {
            Some(n) => write!(f, "{} {n}", self.title),
            None => f.write_str(self.title),
        }
    }
}

/// The names of `layers`, in order: kinds that occur more than once are
/// numbered from 1 ("Tent 1", "Tent 2"), the others go by their title.
pub fn layer_names(layers: &[Layer]) -> Vec<LayerName> {
    let count = |kind: usize| layers.iter().filter(|l| l.kind_index() == kind).count();
    let mut seen = Vec::new();
    layers
        .iter()
        .map(|layer| {
            let kind = layer.kind_index();
            seen.push(kind);
            let nth = seen.iter().filter(|&&k| k == kind).count();
            LayerName {
                title: layer.title(),
                key: layer.name(),
                nth: (count(kind) > 1).then_some(nth),
            }
        })
        .collect()
}
