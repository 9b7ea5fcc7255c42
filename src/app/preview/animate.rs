//! The automaton, animated: a generation scrubber with play, pause and
//! step, as in the original CA tool. The scrubber is the scene's
//! `automaton.generations` drawn wide: its range and scale are the
//! setting's own (its table entry), the same as the side panel's slider,
//! and moving it or stepping is an edit of the scene.
//!
//! Play only shows the automaton's run: the preview follows the
//! generations while the scene stays as it was (its code, its title, its
//! undo history). A paused run offers Keep, which makes the generation on
//! view the scene's (one undo step), and Back, which shows the scene's
//! own again, as a video editor's playhead does against its document.

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

/// Whether the automaton is playing, when it last stepped, and the
/// generation of the run on view.
#[derive(Debug, Default)]
pub struct Playback {
    playing: bool,
    /// `ui.input().time` of the last step.
    last_step: Option<f64>,
    /// The generation Play shows instead of the scene's, playing or
    /// paused; `None` shows the scene's.
    shown: Option<u32>,
}

impl Playback {
    /// Whether it is playing.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// The generation on view, for a scene at `scene_generation`.
    pub fn shown(&self, scene_generation: u32) -> u32 {
        self.shown.unwrap_or(scene_generation)
    }

    /// `scene` as the preview shows it while a run is on view (at the
    /// run's generation), or `None` when it shows the scene itself.
    pub fn on_view(&self, scene: &Scene) -> Option<Scene> {
        let shown = self.shown?;
        (shown != scene.automaton.generations).then(|| {
            let mut on_view = scene.clone();
            on_view.automaton.generations = shown;
            on_view
        })
    }

    /// Stops playing and shows the scene's own generation again.
    pub fn stop(&mut self) {
        self.pause();
        self.shown = None;
    }

    /// Stops playing, the run's generation still on view.
    fn pause(&mut self) {
        self.playing = false;
        self.last_step = None;
    }

    /// Play or pause, for a scene at `scene_generation`. Play goes on
    /// from the generation on view; from the very last one there is
    /// nowhere to go, so it starts again at the first. Neither changes the
    /// scene.
    pub fn toggle(&mut self, scene_generation: u32) {
        if self.playing {
            self.pause();
        } else {
            let (first, last, _) = range();
            let from = self.shown(scene_generation);
            self.shown = Some(if from >= last { first } else { from });
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
        scene_generation: u32,
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
            let generation = self.shown.get_or_insert(scene_generation);
            if *generation >= range().1 {
                self.pause();
                return;
            }
            *generation += 1;
            self.last_step = Some(now);
        }
        let wait = self.last_step.map_or(0.0, |t| (t + period - now).max(0.0));
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs_f64(wait));
    }

    /// The timeline bar: play/pause, step, the scrubber and its end, and
    /// while a run is on view, Keep and Back. `ready`: the preview shows
    /// the generation on view. Returns the scene's new generation when one
    /// was chosen (a step, the scrubber, Keep): an edit of the scene.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        scene_generation: u32,
        settings: &AnimateSettings,
        ready: bool,
    ) -> Option<u32> {
        self.tick(ui, scene_generation, settings, ready);
        let mut generation = self.shown(scene_generation);
        let before = generation;
        let mut kept = None;
        let run = generation != scene_generation;
        // Below this width the scrubber would be too short to aim with (or
        // its end cut off): it goes on a row of its own under the buttons.
        if ui.available_width() >= ONE_ROW_WIDTH {
            ui.horizontal(|ui| {
                self.buttons_ui(ui, &mut generation);
                ui.separator();
                self.scrubber_ui(ui, &mut generation, run);
                kept = self.run_ui(ui, scene_generation);
            });
        } else {
            ui.horizontal(|ui| {
                self.buttons_ui(ui, &mut generation);
                kept = self.run_ui(ui, scene_generation);
            });
            ui.horizontal(|ui| self.scrubber_ui(ui, &mut generation, false));
        }
        if generation != before {
            self.stop();
            return Some(generation);
        }
        kept
    }

    /// While a run is on view: Keep (its generation becomes the scene's,
    /// returned) and Back (the scene's own again).
    fn run_ui(&mut self, ui: &mut egui::Ui, scene_generation: u32) -> Option<u32> {
        let shown = self.shown.filter(|&g| g != scene_generation)?;
        let keep = ui
            .button("Keep")
            .on_hover_text(format!(
                "Make generation {shown} the scene's (one undo step): Play only shows the run"
            ))
            .clicked();
        if ui
            .button(format!("Back to {scene_generation}"))
            .on_hover_text("Show the scene's own generation again")
            .clicked()
        {
            self.stop();
        }
        keep.then(|| {
            self.stop();
            shown
        })
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
            self.toggle(*generation);
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

    /// The scrubber, its value and its end (and room after it for Keep
    /// and Back when `run` is on view).
    fn scrubber_ui(&mut self, ui: &mut egui::Ui, generation: &mut u32, run: bool) {
        let (first, last, log) = range();
        let label = ui.label("Generation");
        // The scrubber takes the room left after its value and end.
        let end_width = if run { 280.0 } else { 130.0 };
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
            self.pause();
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
        a.toggle(250);
        assert!(a.playing());
        assert_eq!(a.shown(250), 250);
        a.toggle(250);
        assert!(!a.playing());
        a.stop();
        a.toggle(last);
        assert!(a.playing());
        assert_eq!(a.shown(last), first);
    }

    #[test]
    fn a_run_on_view_is_the_scene_at_another_generation() {
        let mut scene = Scene::default();
        scene.automaton.generations = 16;
        let mut a = Playback::default();
        assert_eq!(a.on_view(&scene), None);
        a.toggle(16);
        assert_eq!(a.on_view(&scene), None, "still at the scene's");
        a.shown = Some(77);
        a.pause();
        let on_view = a.on_view(&scene).unwrap();
        assert_eq!(on_view.automaton.generations, 77);
        assert_eq!(scene.automaton.generations, 16);
        a.stop();
        assert_eq!(a.on_view(&scene), None);
    }
}
