//! The status bar: the last message (errors in red, a roll's number on
//! hover) and what the app is busy with.

use crate::app::PlayaApp;

impl PlayaApp {
    pub(crate) fn status_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 14.0;
            match self.preview.last_render() {
                Some(r) => {
                    ui.label(format!(
                        "Rendered {}×{} in {:.1} ms",
                        r.width, r.height, r.ms
                    ));
                }
                None => {
                    ui.label("Rendering…");
                }
            }
            if let Some(cells) = self.preview.cells() {
                ui.label(format!("{} live cells", thousands(cells)));
            }
            if let Some(err) = self.preview.error() {
                ui.colored_label(ui.visuals().error_fg_color, err);
            }
            if let Some(line) = self.export.status_line() {
                ui.label(line);
            }
            if let Some(line) = self.animation_export.status_line() {
                ui.label(line);
            }
            if let Some(msg) = &self.message {
                let color = if msg.error {
                    ui.visuals().error_fg_color
                } else {
                    ui.visuals().weak_text_color()
                };
                let label = ui
                    .add(egui::Label::new(egui::RichText::new(&msg.text).color(color)).truncate());
                if let Some((_, hover)) = self.message_hover.as_ref().filter(|(m, _)| m == msg) {
                    label.on_hover_text(hover);
                }
            }
        });
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
