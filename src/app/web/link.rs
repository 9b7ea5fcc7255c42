//! The scene in the page's address: in the browser the fragment
//! (`index.html#playa1-…`) holds the scene's share code. A link opens its
//! scene (over any restored state); another link pasted into the address bar
//! loads its scene; edits write the new code back once they are committed
//! (a slider released, not every frame of a drag).
//!
//! This is the logic only, with no page in it, so it is tested natively;
//! `crate::app::web` (the browser build) reads and writes the real address.

use crate::scene::Scene;

/// What the app should do about the address this frame.
#[derive(Debug, PartialEq)]
pub enum LinkAction {
    /// Nothing.
    None,
    /// Load the scene of this share code (or show why it cannot be read).
    Load(String),
    /// Write this fragment (the scene's share code) into the address.
    Write(String),
}

/// What the address and the scene were at the last sync.
#[derive(Debug, Default)]
pub struct Link {
    /// The fragment last read from or written to the address.
    last: Option<String>,
    /// The scene and its code when last synced; `None` at the start and
    /// right after a link asked for a load (its outcome is seen next
    /// frame). Kept so an unchanged scene is not encoded every frame.
    scene_code: Option<(Scene, String)>,
}

impl Link {
    /// Compares the address's fragment (`hash`, with or without its `#`)
    /// with what was last seen or written, given the scene and whether an
    /// edit is still in progress.
    pub fn on_frame(&mut self, hash: &str, scene: &Scene, editing: bool) -> LinkAction {
        let fragment = hash.strip_prefix('#').unwrap_or(hash).trim();
        if !fragment.is_empty() && self.last.as_deref() != Some(fragment) {
            // The first frame's link, or a new one pasted into the address
            // bar: its scene wins over whatever is shown.
            self.last = Some(fragment.to_string());
            self.scene_code = None;
            return LinkAction::Load(fragment.to_string());
        }
        if editing || self.scene_code.as_ref().is_some_and(|(s, _)| s == scene) {
            return LinkAction::None;
        }
        let code = crate::share::encode(scene);
        match &self.scene_code {
            // After a load, good or bad, the address stays as it was (a bad
            // link stays for the person to see) until the next edit.
            None => {
                self.scene_code = Some((scene.clone(), code.clone()));
                if fragment.is_empty() {
                    self.last = Some(code.clone());
                    return LinkAction::Write(code);
                }
                LinkAction::None
            }
            Some((_, synced)) if *synced == code => {
                self.scene_code = Some((scene.clone(), code));
                LinkAction::None
            }
            Some(_) => {
                self.scene_code = Some((scene.clone(), code.clone()));
                if self.last.as_deref() == Some(code.as_str()) {
                    return LinkAction::None;
                }
                self.last = Some(code.clone());
                LinkAction::Write(code)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(seed: u64) -> Scene {
        Scene {
            seed,
            ..Scene::default()
        }
    }

    /// Plays `frames` through one [`Link`]: each the address (its
    /// fragment), the scene shown, whether an edit is in progress, and what
    /// the link must answer.
    fn play(frames: &[(String, Scene, bool, LinkAction)]) {
        let mut link = Link::default();
        for (k, (hash, scene, editing, want)) in frames.iter().enumerate() {
            assert_eq!(&link.on_frame(hash, scene, *editing), want, "frame {k}");
        }
    }

    /// The address holding `code`.
    fn at(code: &str) -> String {
        format!("#{code}")
    }

    #[test]
    fn a_link_opens_its_scene_then_edits_are_written_back() {
        let code = crate::share::encode(&scene(7));
        let edited = crate::share::encode(&scene(8));
        play(&[
            // The first frame: the link names a scene; the restored one loses.
            (at(&code), scene(1), false, LinkAction::Load(code.clone())),
            // Its scene loaded: nothing to write.
            (at(&code), scene(7), false, LinkAction::None),
            // Dragging: nothing until the edit is committed.
            (at(&code), scene(8), true, LinkAction::None),
            (
                at(&code),
                scene(8),
                false,
                LinkAction::Write(edited.clone()),
            ),
            // The address now holds the edit.
            (at(&edited), scene(8), false, LinkAction::None),
        ]);
    }

    #[test]
    fn a_pasted_link_loads_and_an_empty_address_gets_the_code() {
        let default = crate::share::encode(&Scene::default());
        let other = crate::share::encode(&scene(99));
        play(&[
            (
                String::new(),
                Scene::default(),
                false,
                LinkAction::Write(default.clone()),
            ),
            (at(&default), Scene::default(), false, LinkAction::None),
            (
                at(&other),
                Scene::default(),
                false,
                LinkAction::Load(other.clone()),
            ),
        ]);
    }

    #[test]
    fn a_bad_link_is_loaded_once_and_kept_until_an_edit() {
        let bad = at("playa1-garbage");
        let edited = crate::share::encode(&scene(3));
        play(&[
            (
                bad.clone(),
                Scene::default(),
                false,
                LinkAction::Load("playa1-garbage".into()),
            ),
            // The app showed the error; the bad fragment is not retried.
            (bad.clone(), Scene::default(), false, LinkAction::None),
            (bad, scene(3), false, LinkAction::Write(edited)),
        ]);
    }
}
