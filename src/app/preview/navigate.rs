//! Moving about the preview: wheel and pinch zoom about the pointer, drag
//! to pan, and the tent dragged into place with the mouse.

use egui::{Pos2, Rect, Vec2, vec2};

use super::{Drag, Preview, quantize};
use crate::layers::{Kind, Layer, Tent};
use crate::scene::Scene;
use crate::setting;

impl Preview {
    /// Sets the zoom (fitted = 1), keeping the point at `anchor` where it
    /// is on screen.
    pub(super) fn set_zoom(&mut self, zoom: f32, anchor: Pos2, fit: Rect) {
        let ratio = zoom / self.zoom;
        let center = fit.center() + self.pan;
        let new_center = anchor - (anchor - center) * ratio;
        self.pan = new_center - fit.center();
        self.zoom = zoom;
    }

    pub(super) fn zoom_and_pan(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        fit: Rect,
        zooms: &std::ops::RangeInclusive<f32>,
    ) {
        if !response.hovered() && !response.is_pointer_button_down_on() {
            return;
        }
        // Two fingers on a touch screen move the picture with them and
        // zoom it about the point between them.
        if let Some(touch) = ui.input(|i| i.multi_touch()) {
            self.pan += touch.translation_delta;
            let new_zoom = (self.zoom * touch.zoom_delta).clamp(*zooms.start(), *zooms.end());
            self.set_zoom(new_zoom, touch.center_pos, fit);
            return;
        }
        let (scroll, pinch, pointer) = ui.input(|i| {
            (
                i.smooth_scroll_delta.y,
                i.zoom_delta(),
                i.pointer.hover_pos(),
            )
        });
        let factor = pinch * (scroll * 0.0025).exp();
        if factor == 1.0 {
            return;
        }
        let new_zoom = (self.zoom * factor).clamp(*zooms.start(), *zooms.end());
        // Keep the point under the pointer where it is.
        self.set_zoom(new_zoom, pointer.unwrap_or(fit.center()), fit);
    }

    pub(super) fn drag_tent_or_pan(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        image: Rect,
        scene: &mut Scene,
    ) {
        let to_image = |p: Pos2| {
            let v = (p - image.min) / image.size();
            vec2(v.x, v.y)
        };
        let tent = tent_index(scene);
        if ui.input(|i| i.multi_touch().is_some()) {
            // A second finger: the gesture zooms and pans
            // ([`Preview::zoom_and_pan`]), the tent goes back, and the
            // finger left on the screen afterwards pans.
            if let Drag::Tent { layer, from, .. } = self.drag
                && let Some(Layer::Tent(t)) = scene.layers.get_mut(layer)
            {
                (t.x, t.y) = (from.x, from.y);
            }
            self.drag = Drag::Pan;
            return;
        }
        if let (Some(i), Some(p)) = (tent, response.hover_pos())
            && self.drag == Drag::None
            && tent_hit(scene, i, to_image(p))
        {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
        }
        if response.drag_started() {
            // Where the button went down, not where the drag was recognised
            // (a few pixels later, more for a fast hand).
            let start = ui
                .input(|i| i.pointer.press_origin())
                .or(response.interact_pointer_pos())
                .map(to_image);
            self.drag = match (tent, start) {
                (Some(i), Some(p)) if tent_hit(scene, i, p) => {
                    let Layer::Tent(t) = &scene.layers[i] else {
                        unreachable!()
                    };
                    Drag::Tent {
                        layer: i,
                        grab: p - vec2(t.x, t.y),
                        from: vec2(t.x, t.y),
                    }
                }
                _ => Drag::Pan,
            };
        }
        if response.dragged() {
            match self.drag {
                Drag::Pan => self.pan += response.drag_delta(),
                Drag::Tent { layer, grab, .. } => {
                    if let (Some(p), Some(Layer::Tent(t))) =
                        (response.interact_pointer_pos(), scene.layers.get_mut(layer))
                    {
                        let at = to_image(p) - grab;
                        // Anywhere on the ground, within the settings' ranges.
                        t.x = quantize(at.x);
                        t.y = quantize(at.y.max(scene.horizon));
                        setting::clamp(Tent::SETTINGS, t);
                    }
                    ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
                }
                Drag::None => {}
            }
        }
        if response.drag_stopped() || !ui.input(|i| i.pointer.any_down()) {
            self.drag = Drag::None;
        }
    }
}

/// The topmost visible tent layer.
pub(super) fn tent_index(scene: &Scene) -> Option<usize> {
    scene
        .layers
        .iter()
        .rposition(|l| matches!(l, Layer::Tent(t) if t.visible))
}

/// Whether image point `p` (fractions of width and height) is on the tent.
pub(super) fn tent_hit(scene: &Scene, index: usize, p: Vec2) -> bool {
    matches!(scene.layers.get(index), Some(Layer::Tent(t)) if t.contains(scene.aspect, p.x, p.y))
}
