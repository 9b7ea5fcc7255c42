//! The automaton, animated: a generation scrubber with play, pause and
//! step, as in the original CA tool. The chosen generation is the scene's
//! `automaton.generations`, so what you stop on is what you export, and the
//! scrubber is that setting drawn wide: its range and scale are the
//! setting's own (its table entry), the same as the side panel's slider.

use serde::{Deserialize, Serialize};

use crate::scene::Scene;
use crate::setting::{self, Value};

/// Speed of the scrubber, remembered between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnimateSettings {
    /// Generations per second while playing. Default: 12.
    pub fps: f32,
}

impl Default for AnimateSettings {
    fn default() -> Self {
        AnimateSettings { fps: 12.0 }
    }
}

/// The generations setting's range and whether its slider is logarithmic.
fn range() -> (u32, u32, bool) {
    match setting::find(Scene::SETTINGS, "automaton.generations").map(|s| &s.value) {
        Some(&Value::Uint { min, max, log, .. }) => (min, max, log),
        _ => unreachable!("automaton.generations is a whole-number setting"),
    }
}

/// Whether the automaton is playing, and when it last stepped.
#[derive(Debug, Default)]
pub struct Playback {
    playing: bool,
    /// `ui.input().time` of the last step.
    last_step: Option<f64>,
}

impl Playback {
    /// Whether it is playing.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Stops playing.
    pub fn stop(&mut self) {
        self.playing = false;
        self.last_step = None;
    }

    /// Play or pause. Play goes on from the generation shown; from the
    /// very last one there is nowhere to go, so it starts again at the first.
    pub fn toggle(&mut self, generation: &mut u32) {
        if self.playing {
            self.stop();
        } else {
            let (first, last, _) = range();
            if *generation >= last {
                *generation = first;
            }
            self.playing = true;
            self.last_step = None;
        }
    }

    /// Advances one generation when it is time and the previous generation
    /// is on screen (`ready`), so every generation is seen even when
    /// rendering is slower than the frame rate.
    fn tick(
        &mut self,
        ui: &egui::Ui,
        generation: &mut u32,
        settings: &AnimateSettings,
        ready: bool,
    ) {
        if !self.playing {
            return;
        }
        let now = ui.input(|i| i.time);
        let period = 1.0 / f64::from(settings.fps.max(0.5));
        let due = self.last_step.is_none_or(|t| now - t >= period);
        if due && ready {
            if *generation >= range().1 {
                self.stop();
                return;
            }
            *generation += 1;
            self.last_step = Some(now);
        }
        let wait = self.last_step.map_or(0.0, |t| (t + period - now).max(0.0));
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs_f64(wait));
    }

    /// The timeline bar: play/pause, step, the scrubber and its end.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        generation: &mut u32,
        settings: &AnimateSettings,
        ready: bool,
    ) {
        self.tick(ui, generation, settings, ready);
        // Below this width the scrubber would be too short to aim with (or
        // its end cut off): it goes on a row of its own under the buttons.
        if ui.available_width() >= ONE_ROW_WIDTH {
            ui.horizontal(|ui| {
                self.buttons_ui(ui, generation);
                ui.separator();
                self.scrubber_ui(ui, generation);
            });
        } else {
            ui.horizontal(|ui| self.buttons_ui(ui, generation));
            ui.horizontal(|ui| self.scrubber_ui(ui, generation));
        }
    }

    /// Play/pause and the steps.
    fn buttons_ui(&mut self, ui: &mut egui::Ui, generation: &mut u32) {
        let (first, last, _) = range();
        let play_text = if self.playing {
            "⏸ Pause"
        } else {
            "▶ Play"
        };
        if ui
            .add(egui::Button::new(play_text).min_size(egui::vec2(78.0, 0.0)))
            .on_hover_text("Run the automaton generation by generation (Space)")
            .clicked()
        {
            self.toggle(generation);
        }
        if ui
            .add_enabled(*generation > first, egui::Button::new("⏮"))
            .on_hover_text("Back to the soup (generation 0)")
            .clicked()
        {
            self.stop();
            *generation = first;
        }
        if ui
            .add_enabled(*generation > first, egui::Button::new("⏴"))
            .on_hover_text("One generation back")
            .clicked()
        {
            self.stop();
            *generation -= 1;
        }
        if ui
            .add_enabled(*generation < last, egui::Button::new("⏵"))
            .on_hover_text("One generation forward")
            .clicked()
        {
            self.stop();
            *generation += 1;
        }
    }

    /// The scrubber, its value and its end.
    fn scrubber_ui(&mut self, ui: &mut egui::Ui, generation: &mut u32) {
        let (first, last, log) = range();
        let label = ui.label("Generation");
        // The scrubber takes the room left after its value and end.
        let end_width = 130.0;
        let slider_width = (ui.available_width() - end_width).max(80.0);
        ui.spacing_mut().slider_width = slider_width;
        let before = *generation;
        let scrub = ui
            .add(
                egui::Slider::new(generation, first..=last)
                    .logarithmic(log)
                    .smallest_positive(1.0)
                    .clamping(egui::SliderClamping::Always)
                    .update_while_editing(false),
            )
            .labelled_by(label.id)
            .on_hover_text("The generation shown: the Generations setting, drawn wide");
        crate::app::window::form::escape_cancels(ui, &scrub, generation, before);
        let number_box = crate::app::window::form::number_box_area(ui, &scrub);
        crate::app::window::form::click_never_drags(ui, label.id, number_box, generation, before);
        if scrub.drag_started() || scrub.gained_focus() {
            self.stop();
        }
        ui.weak(format!("of {last}"));
    }
}

/// The timeline's width below which the scrubber goes under the buttons.
const ONE_ROW_WIDTH: f32 = 560.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_goes_on_from_the_generation_shown_and_from_the_end_restarts() {
        let (first, last, _) = range();
        assert_eq!((first, last), (0, crate::scene::MAX_GENERATIONS));
        let mut a = Playback::default();
        let mut g = 250;
        a.toggle(&mut g);
        assert!(a.playing());
        assert_eq!(g, 250);
        a.toggle(&mut g);
        assert!(!a.playing());
        let mut g = last;
        a.toggle(&mut g);
        assert!(a.playing());
        assert_eq!(g, first);
    }
}
