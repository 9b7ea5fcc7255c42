//! What the panels ask of the app: the events they send up, to a module
//! that the side panel, the layer list and the preset picker all use, so no
//! panel depends on another for its events.

use crate::scene::Scene;

/// What the side panel asks the app to do.
#[derive(Debug)]
pub enum Event {
    /// Roll a new seed.
    Dice,
    /// Re-roll every unlocked group ("New scene").
    NewScene,
    /// Replace the scene: `(scene, where it came from, the name it goes by)`
    /// (see [`crate::app::AppState::preset`]), or why it could not be read.
    Load(Result<(Scene, String, String), String>),
    /// Show a message (`true`: an error).
    Message(String, bool),
    /// Open the export dialog.
    OpenExport,
    /// Open the animation export dialog.
    OpenAnimationExport,
    /// Open "Save scene…".
    OpenSaveScene,
    /// Undo the last change.
    Undo,
    /// Redo the last undone change.
    Redo,
}
