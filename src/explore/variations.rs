//! Variations: pages of candidate scenes around one scene, for the app's
//! variations grid. (`playa sheet --rolls A..B` shows rolls by their
//! numbers instead, the numbers `playa random --roll N` takes.)
//!
//! A candidate is a pure function of the scene, the locks, the mode, the
//! page and its place on the page: the grid for the same scene, mode,
//! strength and page is always the same.

use image::RgbaImage;

use crate::explore::randomize::{self, Locks, splitmix64};
use crate::scene::Scene;

/// Candidates on one page of the grid.
pub const PAGE: u32 = 16;

/// The box a thumbnail fits in, in pixels: `[width, height]`. A 16:9
/// scene fills it; another aspect keeps its shape inside it.
pub const THUMBNAIL: [u32; 2] = [240, 135];

/// What the candidates of a grid are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// The same scene with the next seeds.
    Seeds,
    /// [`randomize::vary`] at a strength from 0 to 1.
    Vary {
        /// How far from the scene, 0 to 1.
        strength: f32,
    },
    /// [`randomize::new_scene`]: new looks, locks kept.
    NewScene,
}

/// The `index`th candidate (0-based) of page `page` (0-based) around
/// `scene`.
pub fn candidate(scene: &Scene, locks: &Locks, mode: Mode, page: u32, index: u32) -> Scene {
    let n = u64::from(page) * u64::from(PAGE) + u64::from(index);
    match mode {
        Mode::Seeds => Scene {
            seed: scene.seed.wrapping_add(1 + n),
            ..scene.clone()
        },
        Mode::Vary { strength } => randomize::vary(scene, locks, roll(scene, 1, n), strength),
        Mode::NewScene => randomize::new_scene(scene, locks, roll(scene, 2, n)),
    }
}

/// Every candidate of page `page` around `scene`, in grid order.
pub fn page(scene: &Scene, locks: &Locks, mode: Mode, page: u32) -> Vec<Scene> {
    use rayon::prelude::*;
    // A New scene or Vary candidate is worked out on the field it makes
    // (milliseconds each): on all cores.
    (0..PAGE)
        .into_par_iter()
        .map(|i| candidate(scene, locks, mode, page, i))
        .collect()
}

/// The size of `scene`'s picture fitted into a `max[0] × max[1]` box
/// (each side at least 1 pixel).
pub fn thumbnail_size(scene: &Scene, max: [u32; 2]) -> [u32; 2] {
    let [bw, bh] = max.map(|v| v.max(1));
    let aspect = f64::from(scene.aspect);
    if f64::from(bw) / f64::from(bh) <= aspect {
        let h = (f64::from(bw) / aspect).round().clamp(1.0, f64::from(bh));
        [bw, h as u32]
    } else {
        let w = (f64::from(bh) * aspect).round().clamp(1.0, f64::from(bw));
        [w as u32, bh]
    }
}

/// Renders each of `scenes` fitted into a `max` box ([`thumbnail_size`]),
/// in order, each on every core of the current rayon pool, and hands each
/// picture to `done(index, picture)` as soon as it is ready. Thumbnails not
/// yet started when `stop()` turns true are skipped.
///
/// One after another rather than side by side: both keep every core busy
/// and take the same time for a page (`cargo bench --bench render --
/// variations`: `16x240x135/…` against `side-by-side/…`), but in order the
/// grid fills from its first thumbnail, the first shows after a sixteenth
/// of the page's time, and a stale page stops after the thumbnail under way.
pub fn render_thumbnails(
    scenes: &[Scene],
    max: [u32; 2],
    mut stop: impl FnMut() -> bool,
    mut done: impl FnMut(usize, crate::Result<RgbaImage>),
) {
    for (index, scene) in scenes.iter().enumerate() {
        if stop() {
            return;
        }
        done(index, thumbnail(scene, max));
    }
}

/// `scene` rendered fitted into a `max` box ([`thumbnail_size`]).
pub fn thumbnail(scene: &Scene, max: [u32; 2]) -> crate::Result<RgbaImage> {
    let [w, h] = thumbnail_size(scene, max);
    crate::render(scene, w, h)
}

/// The roll of candidate `n` of a `mode_tag` grid around `scene`: a hash
/// of the scene's share code, so equal scenes give equal grids.
fn roll(scene: &Scene, mode_tag: u64, n: u64) -> u64 {
    let hash = randomize::scene_hash(scene);
    splitmix64(hash ^ splitmix64(mode_tag) ^ splitmix64(n.wrapping_add(0x9e37)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_always_the_same_and_pages_differ() {
        let scene = Scene::default();
        let locks = Locks::default();
        for mode in [Mode::Seeds, Mode::Vary { strength: 0.3 }, Mode::NewScene] {
            let a = page(&scene, &locks, mode, 0);
            assert_eq!(a, page(&scene, &locks, mode, 0));
            assert_ne!(a, page(&scene, &locks, mode, 1));
            for s in &a {
                s.validate().unwrap();
            }
        }
    }

    #[test]
    fn thumbnails_keep_the_scene_aspect_inside_the_box() {
        let at = |aspect: f32| {
            thumbnail_size(
                &Scene {
                    aspect,
                    ..Scene::default()
                },
                THUMBNAIL,
            )
        };
        assert_eq!(at(16.0 / 9.0), [240, 135]);
        assert_eq!(at(4.0), [240, 60]);
        assert_eq!(at(1.0), [135, 135]);
        assert_eq!(at(0.25), [34, 135]);
    }

    #[test]
    fn each_thumbnail_is_its_scene_rendered_alone() {
        let scene = Scene::default();
        let scenes = page(&scene, &Locks::default(), Mode::NewScene, 0)[..4].to_vec();
        let mut got = vec![None; scenes.len()];
        render_thumbnails(
            &scenes,
            [64, 36],
            || false,
            |i, picture| got[i] = Some(picture.unwrap()),
        );
        for (scene, picture) in scenes.iter().zip(got) {
            let alone = crate::render(scene, 64, 36).unwrap();
            assert_eq!(picture.as_ref(), Some(&alone));
        }
    }

    #[test]
    fn a_stopped_page_renders_nothing_more() {
        let scenes = vec![Scene::default(); 3];
        let mut done = Vec::new();
        let mut asked = 0;
        render_thumbnails(
            &scenes,
            [32, 18],
            || {
                asked += 1;
                asked > 2
            },
            |i, _| done.push(i),
        );
        assert_eq!(done, [0, 1]);
    }
}
