//! Exporting: the one dialog state machine ([`dialog`]: a path, a question
//! before replacing, progress and Cancel, the result) and what differs for
//! each kind of file: a PNG ([`png`]), an animation ([`animation`]) and a
//! scene file ([`scene_file`]); an export as text for the browser's export
//! worker ([`job`]).

pub mod animation;
pub mod dialog;
pub mod job;
pub mod png;
pub mod scene_file;

use crate::app::PlayaApp;

/// Opening the export dialogs.
impl PlayaApp {
    /// Exports the scene as a PNG of the dialog's size named `size` to
    /// `playa-bench.png`, as the dialog's Export button would: what a
    /// browser driver asks through [`web::request_export`].
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn export_for_bench(&mut self, size: &str) {
        let Some(preset) = png::SizePreset::ALL.into_iter().find(|p| p.label() == size) else {
            self.set_message(format!("no export size named {size:?}"), true);
            return;
        };
        self.state.export.size = preset;
        self.export
            .open_with(None, |_| "playa-bench.png".to_string());
        if let Err(e) = self
            .export
            .start(&mut self.state.export, &self.state.scene, true)
        {
            self.set_message(e, true);
        }
    }

    /// Opens Export PNG…; a run of Play on view ends, so that the preview
    /// shows the scene it writes.
    pub(crate) fn open_export(&mut self) {
        self.playback.stop();
        self.export
            .open(&self.state.export, &self.state.preset, &self.state.scene);
    }

    /// Opens Save scene…; a run of Play on view ends, as for Export PNG….
    pub(crate) fn open_save_scene(&mut self) {
        self.playback.stop();
        self.save_scene.open(
            &self.state.scene_file,
            &self.state.preset,
            &self.state.scene,
        );
    }

    /// Opens Export animation…, its frames up to the generation on view
    /// (a paused run's, else the scene's).
    pub(crate) fn open_animation_export(&mut self) {
        let on_view = self.on_view().into_owned();
        self.playback.stop();
        self.animation_export.open(
            &self.state.animation_export,
            &self.state.animate,
            &self.state.preset,
            &on_view,
        );
    }
}
