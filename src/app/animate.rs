//! The automaton, animated: a generation scrubber from 0 to N with play,
//! pause and step, as in the original CA tool. The chosen generation is the
//! scene's `automaton.generations`, so what you stop on is what you export.

use serde::{Deserialize, Serialize};

use crate::scene::MAX_GENERATIONS;

/// Range and speed of the scrubber, remembered between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnimateSettings {
    /// Last generation of the scrubber (N). Default: 64.
    pub last: u32,
    /// Generations per second while playing. Default: 12.
    pub fps: f32,
}

impl Default for AnimateSettings {
    fn default() -> Self {
        AnimateSettings {
            last: 64,
            fps: 12.0,
        }
    }
}

/// Whether the automaton is playing, and when it last stepped.
#[derive(Debug, Default)]
pub struct Animation {
    playing: bool,
    /// `ui.input().time` of the last step.
    last_step: Option<f64>,
}

impl Animation {
    /// Whether it is playing.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Stops playing.
    pub fn stop(&mut self) {
        self.playing = false;
        self.last_step = None;
    }

    /// Play or pause; playing from the last generation starts again at 0.
    pub fn toggle(&mut self, generation: &mut u32, settings: &AnimateSettings) {
        if self.playing {
            self.stop();
        } else {
            if *generation >= settings.last {
                *generation = 0;
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
            if *generation >= settings.last {
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

    /// The timeline bar: play/pause, step, the scrubber and its range.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        generation: &mut u32,
        settings: &mut AnimateSettings,
        ready: bool,
    ) {
        self.tick(ui, generation, settings, ready);
        ui.horizontal(|ui| {
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
                self.toggle(generation, settings);
            }
            if ui
                .add_enabled(*generation > 0, egui::Button::new("⏮"))
                .on_hover_text("Back to the soup (generation 0)")
                .clicked()
            {
                self.stop();
                *generation = 0;
            }
            if ui
                .add_enabled(*generation > 0, egui::Button::new("⏴"))
                .on_hover_text("One generation back")
                .clicked()
            {
                self.stop();
                *generation -= 1;
            }
            if ui
                .add_enabled(*generation < MAX_GENERATIONS, egui::Button::new("⏵"))
                .on_hover_text("One generation forward")
                .clicked()
            {
                self.stop();
                *generation += 1;
                settings.last = settings.last.max(*generation);
            }
            ui.separator();
            let label = ui.label("Generation");
            // The scrubber takes the room left after the range field.
            let range_width = 120.0;
            let slider_width = (ui.available_width() - range_width).max(80.0);
            ui.spacing_mut().slider_width = slider_width;
            let last = settings.last.max(*generation);
            let scrub = ui
                .add(egui::Slider::new(generation, 0..=last).clamping(egui::SliderClamping::Always))
                .labelled_by(label.id);
            if scrub.drag_started() {
                self.stop();
            }
            let of = ui.label("of");
            ui.add(
                egui::DragValue::new(&mut settings.last)
                    .range(1..=MAX_GENERATIONS)
                    .speed(1.0),
            )
            .labelled_by(of.id)
            .on_hover_text("Last generation of the scrubber");
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_from_the_end_restarts() {
        let mut a = Animation::default();
        let s = AnimateSettings::default();
        let mut g = s.last;
        a.toggle(&mut g, &s);
        assert!(a.playing());
        assert_eq!(g, 0);
        a.toggle(&mut g, &s);
        assert!(!a.playing());
    }
}
