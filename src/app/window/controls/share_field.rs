//! The share field: the scene's code or link, to copy, or to paste a
//! code, link or scene into.

use egui::{RichText, Ui};

use super::{Controls, one_line};
use crate::app::event::Event;
use crate::app::files;
use crate::app::{AppState, WEB_URL_VAR};
use crate::scene::Scene;
use crate::share;

impl Controls {
    /// Makes the share field's text from `scene`: the scene's link with the
    /// web address, else its code. Notes why the address is no web
    /// address, if it is not.
    pub(super) fn show_share(&mut self, scene: &Scene) {
        let link = self
            .share_address
            .as_deref()
            .map(|address| share::link(address, scene));
        self.address_error = match &link {
            Some(Err(e)) => Some(e.to_string()),
            _ => None,
        };
        self.share_text = match link {
            Some(Ok(link)) => link,
            _ => self.scene_code.clone(),
        };
    }

    /// Makes the share text with the web address `state` gives, when it
    /// changed.
    pub(super) fn follow_address(&mut self, state: &AppState) {
        let address = state.link_address(self.web_url_env.as_deref());
        if address != self.share_address.as_deref() {
            self.share_address = address.map(str::to_owned);
            self.show_share(&state.scene);
        }
    }

    /// Copies the scene's share text, as the Share field shows it (its link
    /// when `state` gives a web address, else its code), to the clipboard;
    /// the message saying so. The field's Copy and the narrow layout's
    /// Share do this.
    pub fn copy_share(&mut self, ctx: &egui::Context, state: &AppState) -> Event {
        self.follow_address(state);
        ctx.copy_text(self.share_text.clone());
        Event::Message("Copied the scene to the clipboard".into(), false)
    }

    /// What the Preset box shows: where the scene came from, "(edited)"
    /// once changed (see [`AppState::origin_label`]).
    pub fn origin(&self, state: &AppState) -> String {
        state.origin_label(&self.scene_code)
    }

    /// The share field: the scene's code, or its link when a web address is
    /// set (under 🔗, or by [`WEB_URL_VAR`]); a code, link or scene pasted
    /// into it, or typed and entered, loads. Whenever it is not being typed
    /// in, it shows the scene's text; Escape or clicking away drops what
    /// was typed.
    pub(super) fn share_ui(&mut self, ui: &mut Ui, state: &mut AppState, events: &mut Vec<Event>) {
        self.follow_address(state);
        ui.horizontal(|ui| {
            let label = ui.strong("Share");
            let mut text = self
                .share_edit
                .clone()
                .unwrap_or_else(|| self.share_text.clone());
            let mut edit = egui::TextEdit::singleline(&mut text)
                .desired_width(ui.available_width() - 92.0)
                .font(egui::TextStyle::Monospace);
            if self.share_error.is_some() {
                edit = edit.text_color(ui.visuals().error_fg_color);
            }
            let response = ui.add(edit).labelled_by(label.id).on_hover_text(
                "This scene as text (a link when a web address is set under 🔗): \
                     copy it to share, paste a code, link or scene to load it",
            );
            self.share_focused = response.has_focus();
            if response.changed() {
                self.share_edit = Some(text);
                self.share_error = None;
            }
            let pasted = ui.input(|i| {
                i.events.iter().find_map(|e| match e {
                    egui::Event::Paste(text) => Some(text.clone()),
                    _ => None,
                })
            });
            let pasted = pasted.filter(|_| response.has_focus());
            // Leaving the field loads what was typed, as Enter does;
            // Escape drops it.
            let escaped = ui.input(|i| i.key_pressed(egui::Key::Escape));
            let committed = response.lost_focus() && !escaped;
            if let Some(typed) = self
                .share_edit
                .as_ref()
                .filter(|_| self.share_error.is_none())
                .filter(|_| pasted.is_some() || committed)
            {
                // A whole code pasted into the middle of the old one (a click
                // puts the cursor there) still loads.
                let scene = files::scene_from_text(typed).or_else(|e| {
                    pasted
                        .as_deref()
                        .and_then(|p| files::scene_from_text(p).ok())
                        .ok_or(e)
                });
                match scene {
                    Ok(scene) => {
                        let from = "pasted scene".to_string();
                        events.push(Event::Load(Ok((scene, from, String::new()))));
                        // Loaded: the field shows the scene's own text.
                        self.share_edit = None;
                        response.surrender_focus();
                    }
                    Err(e) => {
                        // The text stays, to be corrected.
                        events.push(Event::Message(e.clone(), true));
                        self.share_error = Some(e);
                    }
                }
            }
            if response.lost_focus() && escaped {
                self.share_edit = None;
                self.share_error = None;
            }
            if ui
                .button("Copy")
                .on_hover_text("Copy the scene to the clipboard")
                .clicked()
            {
                events.push(self.copy_share(ui.ctx(), state));
            }
            ui.toggle_value(&mut self.address_open, "🔗")
                .on_hover_text("The web address links are made with");
        });
        if let Some(e) = &self.share_error {
            let color = ui.visuals().error_fg_color;
            one_line(ui, RichText::new(format!("⚠ {e}")).color(color)).on_hover_text(format!(
                "{e}. Escape in the field shows the scene's code again"
            ));
        }
        let env = self.web_url_env.as_deref();
        let from_env = env.is_some_and(|env| !env.trim().is_empty());
        if self.address_open {
            ui.horizontal(|ui| {
                let label = ui.label("Web address");
                ui.add(
                    egui::TextEdit::singleline(&mut state.web_address)
                        .desired_width(ui.available_width())
                        .hint_text("https://example.org/playa/"),
                )
                .labelled_by(label.id)
                .on_hover_text(format!(
                    "The address of playa's web page: with one, the Share field gives a \
                     link to the scene (address#code) that opens it in a browser; empty, \
                     the bare code. {WEB_URL_VAR}, when set, is used instead."
                ));
            });
            if let Some(env) = env.filter(|_| from_env) {
                ui.weak(format!("{WEB_URL_VAR} is set: links use {env}"));
            }
        }
        if let Some(e) = &self.address_error {
            let from = if from_env {
                format!("{WEB_URL_VAR}: ")
            } else {
                String::new()
            };
            let color = ui.visuals().error_fg_color;
            ui.colored_label(
                color,
                format!("⚠ {from}{e}; the Share field gives the bare code"),
            );
        }
    }
}
