//! Icons drawn with the painter, where no font has a legible glyph at
//! button size: the die of "New random seed" and the clipboard of the
//! copy buttons.

use egui::{Color32, Rect, Stroke, StrokeKind, Ui, pos2, vec2};

/// A die showing five, drawn in `rect` (no font has a legible one at
/// button size).
pub(crate) fn paint_die(ui: &Ui, rect: Rect, color: Color32) {
    let side = rect.height().min(rect.width()) - 6.0;
    let die = Rect::from_center_size(rect.center(), vec2(side, side));
    let painter = ui.painter();
    painter.rect_stroke(die, 3.0, Stroke::new(1.4, color), StrokeKind::Inside);
    let pip = side * 0.09;
    let off = side * 0.27;
    let c = die.center();
    for (dx, dy) in [
        (-1.0, -1.0),
        (1.0, -1.0),
        (0.0, 0.0),
        (-1.0, 1.0),
        (1.0, 1.0),
    ] {
        painter.circle_filled(c + vec2(dx * off, dy * off), pip, color);
    }
}

/// A clipboard, drawn in `rect`: a board with a clip at its top and two
/// lines of writing, as egui's and most desktops' copy buttons show (the
/// emoji font's 📋 reads as a tag at this size).
pub(crate) fn paint_clipboard(ui: &Ui, rect: Rect, color: Color32) {
    let h = (rect.height() - 4.0).max(8.0);
    let w = h * 0.74;
    let board = Rect::from_center_size(rect.center() + vec2(0.0, 0.5), vec2(w, h));
    let painter = ui.painter();
    let stroke = Stroke::new(1.2, color);
    painter.rect_stroke(board, 1.5, stroke, StrokeKind::Inside);
    // The clip, astride the board's top edge.
    let clip = Rect::from_center_size(
        pos2(board.center().x, board.top() + 0.5),
        vec2(w * 0.42, h * 0.18),
    );
    painter.rect_filled(clip, 1.0, color);
    for k in 0..2 {
        let y = board.top() + h * (0.48 + 0.22 * k as f32);
        painter.line_segment(
            [
                pos2(board.left() + w * 0.25, y),
                pos2(board.right() - w * 0.25, y),
            ],
            Stroke::new(1.0, color),
        );
    }
}
