//! The layer list in the side panel, back to front: each layer's
//! visibility, lock, order and its own settings, "+ Add layer" and
//! "Reset layers".
//!
//! Layers of one kind are numbered ("Tent 1", "Tent 2",
//! [`crate::scene::layer_names`]) as `--set tent#2.…` counts them; their
//! lock is the kind's, and says so.

use egui::{RichText, Ui};

use crate::app::AppState;
use crate::app::event::Event;
use crate::app::window::form::{form, layer_rows, lock_button};
use crate::layers::Layer;
use crate::scene::{Scene, layer_names};

/// A change to the layer list, applied after the list is drawn.
enum ListEdit {
    Up(usize),
    Down(usize),
    Remove(usize),
    Add(Layer),
}

/// The layer list of `state`'s scene, back to front: each layer's
/// visibility, lock, order and its own settings; "Reset layers" brings
/// back the layers of the scene as loaded, saying how to undo it.
pub fn layers_ui(ui: &mut Ui, state: &mut AppState, events: &mut Vec<Event>) {
    let loaded = loaded_layers(ui, &state.loaded);
    let origin = match state.preset.as_str() {
        "" => "the pasted scene".to_string(),
        name => name.to_string(),
    };
    let AppState { scene, locks, .. } = state;
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new("Layers").strong());
        ui.weak("back to front");
    });
    let mut edit = None;
    let count = scene.layers.len();
    let names = layer_names(&scene.layers);
    // The scene as the forms found it: each open form's sliders end where
    // the scene's cost would pass its limit.
    let before = scene.clone();
    for (i, (layer, name)) in scene.layers.iter_mut().zip(&names).enumerate() {
        let title = name.to_string();
        let group = layer.name();
        // The lock is the kind's: with several of a kind, it says so.
        let kind = layer.title().to_lowercase();
        let lock_what = match name.nth {
            Some(_) => format!("{kind} (every {kind} layer)"),
            None => kind,
        };
        let id = ui.make_persistent_id(("layer", i, layer.title()));
        egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, false)
            .show_header(ui, |ui| {
                let (visible, _) = layer.common_mut();
                ui.checkbox(visible, &title)
                    .on_hover_text(format!("Show {title}"));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.spacing_mut().item_spacing.x = 2.0;
                    if ui
                        .small_button("🗑")
                        .accessible_name(format!("Remove {title}"))
                        .on_hover_text("Remove the layer (undo brings it back)")
                        .clicked()
                    {
                        edit = Some(ListEdit::Remove(i));
                    }
                    if ui
                        .add_enabled(i + 1 < count, egui::Button::new("⏷").small())
                        .accessible_name(format!("Move {title} forward"))
                        .on_hover_text("Draw later (in front)")
                        .clicked()
                    {
                        edit = Some(ListEdit::Down(i));
                    }
                    if ui
                        .add_enabled(i > 0, egui::Button::new("⏶").small())
                        .accessible_name(format!("Move {title} back"))
                        .on_hover_text("Draw earlier (behind)")
                        .clicked()
                    {
                        edit = Some(ListEdit::Up(i));
                    }
                    ui.add_space(4.0);
                    lock_button(ui, group, locks, &lock_what);
                });
            })
            .body(|ui| {
                form(ui, id.with("form").value().to_string().as_str(), |ui| {
                    layer_rows(ui, layer, &before.affordable(i));
                });
            });
    }
    ui.horizontal(|ui| {
        ui.menu_button("+ Add layer", |ui| {
            for mut layer in Layer::every_kind() {
                // A layer is added to be seen (the spiral is hidden by default).
                *layer.common_mut().0 = true;
                if ui.button(layer.title()).clicked() {
                    edit = Some(ListEdit::Add(layer));
                    ui.close();
                }
            }
        });
        let reset = ui
            .add_enabled(scene.layers != loaded, egui::Button::new("Reset layers"))
            .on_hover_text(format!(
                "Back to the layers of {origin}, as loaded (undo brings these back)"
            ))
            .on_disabled_hover_text(format!("The layers are {origin}'s, as loaded"));
        if reset.clicked() {
            scene.layers = loaded;
            let undo = ui.ctx().format_shortcut(&egui::KeyboardShortcut::new(
                egui::Modifiers::COMMAND,
                egui::Key::Z,
            ));
            events.push(Event::Message(
                format!("Layers reset to {origin}'s — Undo ({undo}) brings them back"),
                false,
            ));
        }
    });
    match edit {
        Some(ListEdit::Up(i)) => scene.layers.swap(i, i - 1),
        Some(ListEdit::Down(i)) => scene.layers.swap(i, i + 1),
        Some(ListEdit::Remove(i)) => {
            scene.layers.remove(i);
        }
        Some(ListEdit::Add(layer)) => {
            scene.add_layer(layer);
        }
        _ => {}
    }
}

/// The layers of the scene as loaded (its share code `loaded`, see
/// [`AppState::loaded`]), what "Reset layers" brings back; the default
/// list when the code does not read. Decoded once per code, not per frame.
fn loaded_layers(ui: &Ui, loaded: &str) -> Vec<Layer> {
    let id = ui.make_persistent_id(("loaded layers", loaded));
    if let Some(layers) = ui.data(|d| d.get_temp::<Vec<Layer>>(id)) {
        return layers;
    }
    let layers = crate::share::decode(loaded)
        .map(|scene| scene.layers)
        .unwrap_or_else(|_| Scene::default_layers());
    ui.data_mut(|d| d.insert_temp(id, layers.clone()));
    layers
}
