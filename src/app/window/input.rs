//! What reaches the window besides its widgets: keyboard shortcuts, text
//! pasted anywhere, and files dropped on it.

use crate::app::PlayaApp;
use crate::app::event;
use crate::app::files;

impl PlayaApp {
    pub(crate) fn shortcuts(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let redo_shift = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        let export = KeyboardShortcut::new(Modifiers::COMMAND, Key::E);
        let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        // A text field keeps its own undo and its own letters.
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        // While a dialog is open its keys are its own: a letter typed
        // into it after a click that missed its field must not roll a new
        // scene. Shortcuts with Ctrl still work.
        let single_keys = !self.dialog_open();
        let save = ctx.input_mut(|i| i.consume_shortcut(&save));
        let (redo, undo, export, dice, new_scene, play, fit, grid) = ctx.input_mut(|i| {
            // Ctrl+Shift+Z also matches Ctrl+Z logically: consume it first.
            let redo = i.consume_shortcut(&redo_shift) | i.consume_shortcut(&redo_y);
            let mut key = |k| single_keys && i.consume_key(Modifiers::NONE, k);
            let keys = [Key::D, Key::R, Key::Space, Key::F, Key::V].map(&mut key);
            let [dice, new_scene, play, fit, grid] = keys;
            (
                redo,
                i.consume_shortcut(&undo),
                i.consume_shortcut(&export),
                dice,
                new_scene,
                play,
                fit,
                grid,
            )
        });
        if redo {
            self.redo();
        }
        if undo {
            self.undo();
        }
        if export {
            self.open_export();
        }
        if save {
            self.open_save_scene();
        }
        if dice {
            self.roll_dice();
        }
        if new_scene {
            self.handle(vec![event::Event::NewScene]);
        }
        if grid {
            self.state.variations.open = !self.state.variations.open;
        }
        if play {
            self.playback.toggle(self.state.scene.automaton.generations);
        }
        if fit {
            self.preview.fit();
        }
    }

    /// Whether a dialog (an export's or Save scene…) is open.
    fn dialog_open(&self) -> bool {
        self.export.is_open() || self.animation_export.is_open() || self.save_scene.is_open()
    }

    /// Loads text pasted while no text field has focus.
    pub(crate) fn pasted(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let pasted = ctx.input(|i| {
            i.events.iter().find_map(|e| match e {
                egui::Event::Paste(text) => Some(text.clone()),
                _ => None,
            })
        });
        if let Some(text) = pasted {
            self.paste(&text);
        }
    }

    /// Loads a `.ron` preset or a playa `.png` dropped on the window.
    pub(crate) fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        let Some(file) = dropped.first() else {
            return;
        };
        // In the browser a dropped file is read asynchronously, then loaded
        // like a file chosen with Open….
        #[cfg(target_arch = "wasm32")]
        {
            self.dropped = Some(files::FileDialog::read_dropped(file.clone()));
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.load_dropped(file.path());
    }

    /// Loads a file read after a drop (in the browser).
    pub(crate) fn poll_dropped(&mut self) {
        let Some(reader) = &mut self.dropped else {
            return;
        };
        let Some(answer) = reader.poll() else { return };
        self.dropped = None;
        match answer.map(files::scene_from_picked) {
            Some((name, Ok(scene))) => self.load_scene(scene, &name, files::stem(&name)),
            Some((_, Err(e))) => self.set_message(e, true),
            None => self.set_message("the dropped file could not be read", true),
        }
    }

    /// Loads the `.ron` preset or playa `.png` at `path`, dropped on the
    /// window.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn load_dropped(&mut self, path: &std::path::Path) {
        let result = if path.as_os_str().is_empty() {
            Err("the dropped item is not a file".to_string())
        } else {
            files::scene_from_path(path).map(|s| (s, files::display_name(path)))
        };
        match result {
            Ok((scene, name)) => self.load_scene(scene, &name, files::stem(&name)),
            Err(e) => self.set_message(e, true),
        }
    }

    /// Loads a pasted share code or RON scene; a bad paste changes nothing
    /// and says why.
    pub fn paste(&mut self, text: &str) {
        match files::scene_from_text(text) {
            Ok(scene) => self.load_scene(scene, "pasted scene", ""),
            Err(e) => self.set_message(e, true),
        }
    }
}
