//! The window and its panels: the side panel of controls ([`controls`]),
//! the forms drawn from the settings tables ([`form`], [`layers`]), the
//! phone layout of a narrow browser ([`phone`]), the faces the text is
//! drawn in ([`fonts`]) and the icons no face has ([`icons`]).
//!
//! Architecture invariant: a panel edits the scene in place and sends what
//! needs the app up as [`crate::app::event::Event`]s; no panel uses another
//! panel's events.

pub mod controls;
pub mod fonts;
pub mod form;
pub mod icons;
pub mod input;
pub mod layers;
pub mod phone;
pub mod status;

#[cfg(not(target_arch = "wasm32"))]
use crate::app::PlayaApp;

/// Opens the playa window on the last scene (or the default preset) and
/// runs until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run() -> crate::Result<()> {
    // The preview renders again at every change: its buffers are reused
    // rather than faulted in afresh each time.
    crate::base::allocator::keep_freed_memory();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("playa")
            .with_app_id("playa")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([720.0, 480.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "playa",
        options,
        Box::new(|cc| {
            setup_style(&cc.egui_ctx);
            Ok(Box::new(PlayaApp::from_storage(cc.storage)))
        }),
    )
    .map_err(|e| crate::Error::Io {
        path: "display".into(),
        error: std::io::Error::other(format!(
            "cannot open the playa window ({e}); `playa render` makes pictures without one"
        )),
    })
}

/// Look and feel: the dark theme with slightly roomier controls.
pub(crate) fn setup_style(ctx: &egui::Context) {
    ctx.set_theme(egui::Theme::Dark);
    ctx.global_style_mut(|style| {
        style.spacing.item_spacing = egui::vec2(8.0, 6.0);
        style.spacing.slider_width = 170.0;
    });
}
