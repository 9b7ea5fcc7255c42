//! Small pictures of scenes for the preset picker, rendered on a worker
//! thread ([`Worker`]) and kept as textures, one per scene.
//!
//! A scene is known by its share code, so the same scene (a preset saved
//! twice, a preset and its copy) is rendered once, and a preset whose
//! scene changes gets a new picture.

use std::collections::{HashMap, HashSet};

use crate::app::preview::worker::Worker;
use crate::scene::Scene;

/// The box a thumbnail fits in, in pixels.
pub const SIZE: (u32, u32) = (128, 72);

/// A rendered thumbnail: the scene's code and its pixels (or why not).
type Rendered = (String, Result<egui::ColorImage, String>);

/// The picker's thumbnails: the worker rendering them and the textures
/// made of them.
pub struct Thumbnails {
    worker: Worker<Vec<(String, Scene)>, Rendered>,
    textures: HashMap<String, egui::TextureHandle>,
    /// Codes asked of the worker and not back yet.
    asked: HashSet<String>,
    /// Codes whose render failed (not asked again).
    failed: HashSet<String>,
}

impl Default for Thumbnails {
    fn default() -> Self {
        Thumbnails::new()
    }
}

impl Thumbnails {
    /// No thumbnails yet, and the worker started.
    pub fn new() -> Self {
        let worker = Worker::spawn("playa-thumbnails", |batch: Vec<(String, Scene)>, out| {
            for (code, scene) in batch {
                // A newer batch holds whatever of this one is still missing.
                if out.superseded() {
                    return;
                }
                out.send((code, render(&scene)));
            }
        });
        Thumbnails {
            worker,
            textures: HashMap::new(),
            asked: HashSet::new(),
            failed: HashSet::new(),
        }
    }

    /// Collects what the worker rendered into textures.
    pub fn receive(&mut self, ctx: &egui::Context) {
        self.worker.set_repaint(ctx);
        for (code, image) in self.worker.results() {
            self.asked.remove(&code);
            match image {
                Ok(image) => {
                    let texture = ctx.load_texture(
                        format!("thumbnail-{code}"),
                        image,
                        egui::TextureOptions::LINEAR,
                    );
                    self.textures.insert(code, texture);
                }
                Err(_) => {
                    self.failed.insert(code);
                }
            }
        }
    }

    /// The texture of the scene whose share code is `code`, if rendered.
    pub fn get(&self, code: &str) -> Option<&egui::TextureHandle> {
        self.textures.get(code)
    }

    /// Whether the scene whose code is `code` is being rendered.
    pub fn pending(&self, code: &str) -> bool {
        self.asked.contains(code)
    }

    /// Whether any thumbnail is being rendered.
    pub fn rendering(&self) -> bool {
        !self.asked.is_empty()
    }

    /// Asks for the thumbnails of `scenes` (code and scene) not rendered
    /// or asked for yet, with those still on their way, in one batch.
    pub fn want(&mut self, scenes: impl IntoIterator<Item = (String, Scene)>) {
        let mut missing: Vec<(String, Scene)> = scenes
            .into_iter()
            .filter(|(code, _)| !self.textures.contains_key(code) && !self.failed.contains(code))
            .collect();
        if missing.iter().all(|(code, _)| self.asked.contains(code)) {
            return;
        }
        let mut seen = HashSet::new();
        missing.retain(|(code, _)| seen.insert(code.clone()));
        self.asked = seen;
        self.worker.request(missing);
    }
}

/// The picture of `scene` fitted in [`SIZE`] at its aspect.
fn render(scene: &Scene) -> Result<egui::ColorImage, String> {
    let (w, h) = fit(scene.aspect);
    let image = crate::render(scene, w, h).map_err(|e| e.to_string())?;
    Ok(egui::ColorImage::from_rgba_unmultiplied(
        [w as usize, h as usize],
        image.as_raw(),
    ))
}

/// The size of a picture at `aspect` (width / height) fitted in [`SIZE`].
pub fn fit(aspect: f32) -> (u32, u32) {
    let (bw, bh) = SIZE;
    if aspect >= bw as f32 / bh as f32 {
        (bw, ((bw as f32 / aspect).round() as u32).max(1))
    } else {
        (((bh as f32 * aspect).round() as u32).max(1), bh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_fit_the_box_at_their_aspect() {
        assert_eq!(fit(16.0 / 9.0), (128, 72));
        assert_eq!(fit(21.0 / 9.0), (128, 55));
        assert_eq!(fit(1.0), (72, 72));
        assert_eq!(fit(9.0 / 16.0), (41, 72));
        assert_eq!(fit(0.25), (18, 72));
    }

    #[test]
    fn a_thumbnail_is_the_scene_rendered_small() {
        let scene = crate::scene::presets::load("salt-flat").unwrap();
        let image = render(&scene).unwrap();
        let direct = crate::render(&scene, 128, 72).unwrap();
        assert_eq!(image.size, [128, 72]);
        assert_eq!(
            image.as_raw(),
            direct.as_raw().as_slice(),
            "opaque: unmultiplied is the bytes as rendered"
        );
    }
}
