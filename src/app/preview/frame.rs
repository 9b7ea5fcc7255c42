//! The export's frame over the preview: where a picture of another aspect
//! is cut from the scene's, with the rest dimmed and the size written on it.

use egui::{Color32, Rect, pos2, vec2};

/// Which export's frame the preview shows: the open dialog's (Export
/// PNG…'s when none is open).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framed {
    /// Export PNG…'s picture.
    Png,
    /// Export animation…'s frames.
    Animation,
}

/// The export's frame over the preview's `image_rect`: with a `crop`, the
/// part outside it dimmed and its edge drawn; and a tag in its lower left
/// corner, "Export frame: W × H" (or "Animation frame: W × H"), saying
/// what the export `framed` writes.
pub(super) fn frame_ui(
    ui: &mut egui::Ui,
    panel: Rect,
    image_rect: Rect,
    crop: Option<crate::compose::window::Window>,
    (w, h): (u32, u32),
    framed: Framed,
) {
    let painter = ui.painter_at(panel);
    let frame = match crop {
        Some(window) => {
            let [x, y, fw, fh] = window.fractions();
            let frame = Rect::from_min_size(
                image_rect.min + vec2(x, y) * image_rect.size(),
                vec2(fw, fh) * image_rect.size(),
            );
            let dim = Color32::from_black_alpha(150);
            for outside in [
                Rect::from_min_max(image_rect.min, pos2(image_rect.max.x, frame.min.y)),
                Rect::from_min_max(pos2(image_rect.min.x, frame.max.y), image_rect.max),
                Rect::from_min_max(pos2(image_rect.min.x, frame.min.y), frame.left_bottom()),
                Rect::from_min_max(frame.right_top(), pos2(image_rect.max.x, frame.max.y)),
            ] {
                painter.rect_filled(outside, 0.0, dim);
            }
            painter.rect_stroke(
                frame,
                0.0,
                egui::Stroke::new(1.0, Color32::from_white_alpha(200)),
                egui::StrokeKind::Outside,
            );
            frame
        }
        None => image_rect,
    };
    // Kept inside the panel when the frame is panned off it (as far as a
    // panel narrower or lower than the tag allows).
    let lowest = panel.left_top() + vec2(0.0, 30.0);
    let highest = (panel.left_bottom() + vec2(panel.width() - 170.0, 0.0)).max(lowest);
    let corner = frame.left_bottom().clamp(lowest, highest);
    let tag = Rect::from_min_size(corner + vec2(6.0, -26.0), vec2(200.0, 20.0));
    ui.scope_builder(egui::UiBuilder::new().max_rect(tag), |ui| {
        egui::Frame::new()
            .fill(Color32::from_black_alpha(150))
            .corner_radius(4.0)
            .inner_margin(egui::Margin::symmetric(6, 1))
            .show(ui, |ui| {
                // Not selectable: a drag that starts on it pans the view.
                ui.add(
                    egui::Label::new(
                        egui::RichText::new(match framed {
                            Framed::Png => format!("Export frame: {w} × {h}"),
                            Framed::Animation => format!("Animation frame: {w} × {h}"),
                        })
                        .color(Color32::from_gray(220))
                        .small(),
                    )
                    .selectable(false),
                )
                .on_hover_text(match (framed, crop) {
                    (Framed::Png, Some(_)) => "Export PNG… writes the part inside the frame",
                    (Framed::Png, None) => "Export PNG… writes the whole picture at this size",
                    (Framed::Animation, Some(_)) => {
                        "Export animation… needs the scene's aspect: match it in the dialog"
                    }
                    (Framed::Animation, None) => "Export animation… writes frames of this size",
                });
            });
    });
}
