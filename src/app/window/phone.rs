//! The narrow layout, a phone's (in the browser only: a desktop window
//! keeps its side panel): below [`NARROW_WIDTH`] points the side
//! panel would leave no room for the picture, so the picture takes the
//! whole width under a top bar (☰, the scene's name, Share and Export),
//! and the controls, the same as the side panel's, open in a drawer over
//! the picture from the left.

use egui::{Align, Layout, Rect, vec2};

use crate::app::PlayaApp;

/// The window's width, in points, below which the layout is the narrow
/// one.
pub const NARROW_WIDTH: f32 = 600.0;

/// The drawer's width: this share of the window's, at most
/// [`DRAWER_MAX_WIDTH`] points. At a phone's 390 points, the layer rows'
/// buttons fit, and a strip of the picture shows beside it, to tap.
const DRAWER_SHARE: f32 = 0.9;

/// See [`DRAWER_SHARE`].
const DRAWER_MAX_WIDTH: f32 = 360.0;

/// The space, in points, around the picture in the narrow layout: the
/// picture fills the width.
pub const NARROW_MARGIN: f32 = 0.0;

/// Whether the window `ctx` draws in is narrow (see [`NARROW_WIDTH`]).
pub fn is_narrow(ctx: &egui::Context) -> bool {
    ctx.content_rect().width() < NARROW_WIDTH
}

impl PlayaApp {
    /// The narrow layout's top bar: ☰ opens and closes the drawer, then
    /// the scene's name (as the Preset box shows it), Share (copies what
    /// the Share field shows) and Export (the Export PNG… dialog).
    pub(crate) fn top_bar_ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("top bar")
            .frame(
                egui::Frame::side_top_panel(ui.style()).inner_margin(egui::Margin::symmetric(8, 4)),
            )
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let menu = ui
                        .selectable_label(self.drawer_open, "☰")
                        .on_hover_text("The controls");
                    if menu.clicked() {
                        self.drawer_open = !self.drawer_open;
                    }
                    ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                        let export = ui
                            .button("Export")
                            .on_hover_text("Export the picture as a PNG (Ctrl+E)");
                        if export.clicked() {
                            self.drawer_open = false;
                            self.open_export();
                        }
                        let share = ui
                            .button("Share")
                            .on_hover_text("Copy the scene's link (or code) to the clipboard");
                        if share.clicked() {
                            let event = self.controls.copy_share(ui.ctx(), &self.state);
                            self.handle(vec![event]);
                        }
                        ui.with_layout(Layout::left_to_right(Align::Center), |ui| {
                            let name = self.controls.origin(&self.state);
                            ui.add(egui::Label::new(egui::RichText::new(name).strong()).truncate());
                        });
                    });
                });
            });
    }

    /// The drawer over `picture` (the preview's part of the window), when
    /// open: the controls, scrolled, from the top of `picture` to the
    /// bottom of the window. ✖ in it, ☰ again or a tap on the picture
    /// beside it closes it.
    pub(crate) fn drawer_ui(&mut self, ctx: &egui::Context, picture: Rect) {
        if !self.drawer_open {
            return;
        }
        let screen = ctx.content_rect();
        let width = (screen.width() * DRAWER_SHARE).min(DRAWER_MAX_WIDTH);
        let rect = Rect::from_min_max(
            picture.left_top(),
            egui::pos2(picture.left() + width, screen.bottom()),
        );
        let tapped_beside = ctx.input(|i| {
            i.pointer.any_click()
                && i.pointer
                    .interact_pos()
                    .is_some_and(|p| picture.contains(p) && !rect.contains(p))
        });
        if tapped_beside {
            self.drawer_open = false;
            return;
        }
        egui::Area::new(egui::Id::unique("drawer"))
            .fixed_pos(rect.min)
            .constrain(false)
            .show(ctx, |ui| {
                // The area takes the pointer over all of the drawer, not
                // only over its widgets: nothing under it reacts.
                ui.allocate_rect(rect, egui::Sense::click_and_drag());
                let frame = egui::Frame::side_top_panel(ui.style());
                ui.painter().rect_filled(rect, 0.0, frame.fill);
                ui.painter().vline(
                    rect.right(),
                    rect.y_range(),
                    ui.visuals().widgets.noninteractive.bg_stroke,
                );
                let inner = rect.shrink2(vec2(8.0, 2.0));
                let mut content = ui.new_child(egui::UiBuilder::new().max_rect(inner));
                content.shrink_clip_rect(rect);
                content.horizontal(|ui| {
                    ui.strong("Controls");
                    ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                        if ui.button("✖").on_hover_text("Close the controls").clicked() {
                            self.drawer_open = false;
                        }
                    });
                });
                self.controls_ui(&mut content);
            });
    }
}
