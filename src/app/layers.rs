//! The layer list in the side panel, back to front: each layer's
//! visibility, lock, order and its own settings, "+ Add layer" and
//! "Reset layers".

use egui::{RichText, Ui};

use super::form::{form, layer_rows, lock_button};
use crate::layers::Layer;
use crate::randomize::Locks;
use crate::scene::Scene;

/// A change to the layer list, applied after the list is drawn.
enum ListEdit {
    Up(usize),
    Down(usize),
    Remove(usize),
    Add(Layer),
}

/// The layer list, back to front: each layer's visibility, lock, order and
/// its own settings.
pub fn layers_ui(ui: &mut Ui, scene: &mut Scene, locks: &mut Locks) {
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new("Layers").strong());
        ui.weak("back to front");
    });
    let mut edit = None;
    let count = scene.layers.len();
    for (i, layer) in scene.layers.iter_mut().enumerate() {
        let title = layer.title();
        let group = layer.name();
        let id = ui.make_persistent_id(("layer", i, title));
        egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, false)
            .show_header(ui, |ui| {
                let (visible, _) = layer.common_mut();
                ui.checkbox(visible, title)
                    .on_hover_text(format!("Show the {} layer", title.to_lowercase()));
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
                    lock_button(ui, group, locks, &title.to_lowercase());
                });
            })
            .body(|ui| {
                form(ui, id.with("form").value().to_string().as_str(), |ui| {
                    layer_rows(ui, layer);
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
        if ui
            .button("Reset layers")
            .on_hover_text("Back to the default layer list")
            .clicked()
        {
            scene.layers = Scene::default_layers();
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
