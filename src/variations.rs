//! Variations: pages of candidate scenes around one scene, for the app's
//! variations grid and `playa sheet --rolls`.
//!
//! A candidate is a pure function of the scene, the locks, the mode, the
//! page and its place on the page: the grid for the same scene, mode,
//! strength and page is always the same.

use crate::randomize::{self, Locks, splitmix64};
use crate::scene::Scene;

/// Candidates on one page of the grid.
pub const PAGE: u32 = 16;

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
    (0..PAGE)
        .map(|i| candidate(scene, locks, mode, page, i))
        .collect()
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
}
