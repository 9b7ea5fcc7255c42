//! The rock automaton's group: its rule (named or typed), density,
//! generations, columns and edges.

use egui::{RichText, Ui};

use super::{Controls, one_line};
use crate::Rule;
use crate::app::event::Event;
use crate::app::window::form::{float_row, form, section, setting_row, uint_row};
use crate::explore::randomize::{self, Locks};
use crate::scene::{self, RULE_NAMES, Scene};
use crate::setting;

impl Controls {
    pub(super) fn automaton_ui(
        &mut self,
        ui: &mut Ui,
        scene: &mut Scene,
        locks: &mut Locks,
        events: &mut Vec<Event>,
    ) {
        section(
            ui,
            "Rock automaton",
            Some((randomize::AUTOMATON, locks)),
            true,
            |ui| {
                let find = |name| setting::find(Scene::SETTINGS, name).expect("a scene setting");
                form(ui, "automaton", |ui| {
                    density_row(ui, find("automaton.density"), scene);
                    setting_row(ui, find("automaton.generations"), scene);
                    // The grid may not exceed MAX_GRID_CELLS: columns × columns / aspect.
                    let cells_cap =
                        ((scene::MAX_GRID_CELLS as f64) * f64::from(scene.aspect)).sqrt() as u32;
                    let max_cols = scene::MAX_COLUMNS.min(cells_cap).max(1);
                    // A narrower aspect leaves room for fewer columns.
                    scene.automaton.columns = scene.automaton.columns.min(max_cols);
                    // The stones follow the columns, as the density's
                    // travel follows the rule: any count gives clumps.
                    let mut columns = scene.clone();
                    let before = columns.automaton.columns;
                    uint_row(ui, find("automaton.columns"), &mut columns, max_cols);
                    if columns.automaton.columns != before {
                        scene.set_columns_with_stones(columns.automaton.columns);
                    }
                    let a = &mut scene.automaton;

                    let rule = ui.label("Rule");
                    ui.horizontal(|ui| {
                        let error = self.rule_error.is_some();
                        let mut edit = egui::TextEdit::singleline(&mut self.rule_text)
                            .hint_text("B3/S23")
                            .desired_width(ui.available_width() - 40.0)
                            .font(egui::TextStyle::Monospace);
                        if error {
                            edit = edit.text_color(ui.visuals().error_fg_color);
                        }
                        let response = ui.add(edit).labelled_by(rule.id);
                        self.rule_focused = response.has_focus();
                        if response.has_focus() && self.rule_before.is_none() {
                            self.rule_before = Some(a.rule);
                        }
                        if response.changed() {
                            match self.rule_text.trim().parse::<Rule>() {
                                Ok(r) => {
                                    a.rule = r;
                                    self.rule_error = None;
                                }
                                Err(e) => {
                                    let reason = match &e {
                                        crate::Error::Rule { reason, .. } => {
                                            format!("invalid rule: {reason}")
                                        }
                                        e => e.to_string(),
                                    };
                                    self.rule_error = Some((e.to_string(), reason));
                                }
                            }
                        }
                        if response.lost_focus() {
                            let before = self.rule_before.take();
                            if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                                // Cancelled: the rule from before the edit.
                                a.rule = before.unwrap_or(a.rule);
                            } else if let Some((err, _)) = self.rule_error.take() {
                                // The error names the text typed.
                                let text = format!("{err}; the rule stays {}", a.rule);
                                events.push(Event::Message(text, true));
                            }
                            self.rule_error = None;
                            self.rule_text = a.rule.to_string();
                        }
                        ui.menu_button("⏷", |ui| {
                            for (name, text) in RULE_NAMES {
                                if ui.button(format!("{name}  {text}")).clicked() {
                                    a.rule = text.parse().expect("the named rules parse");
                                    self.rule_text = a.rule.to_string();
                                    self.rule_error = None;
                                    // Into the densities that leave this
                                    // rule clumps.
                                    if let Some((range, _)) = scene::density_range(a.rule) {
                                        a.density = a.density.clamp(*range.start(), *range.end());
                                    }
                                    ui.close();
                                }
                            }
                        })
                        .response
                        .accessible_name("Known rules");
                    });
                    ui.end_row();
                    // Always one line under the field, so the panel stays put
                    // while a rule is typed: the error, else the rule's name.
                    ui.label("");
                    let line = match &self.rule_error {
                        Some((err, short)) => {
                            let color = ui.visuals().error_fg_color;
                            // One tooltip, the whole error: not the cut
                            // line's own as well.
                            let text = RichText::new(format!("⚠ {short}")).color(color);
                            ui.add(
                                egui::Label::new(text)
                                    .truncate()
                                    .show_tooltip_when_elided(false),
                            )
                            .on_hover_text(err)
                        }
                        None => one_line(ui, RichText::new(rule_name(a.rule)).weak()),
                    };
                    line.labelled_by(rule.id);
                    ui.end_row();

                    let topo = ui.label("Edges");
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut a.topology, crate::life::grid::Topology::Torus, "Wrap");
                        ui.radio_value(
                            &mut a.topology,
                            crate::life::grid::Topology::Bounded,
                            "Bounded",
                        );
                    })
                    .response
                    .labelled_by(topo.id);
                    ui.end_row();
                });
            },
        );
    }
}

/// The name of `rule` in the rule menu, or "Rule of your own".
pub(super) fn rule_name(rule: Rule) -> &'static str {
    let text = rule.to_string();
    RULE_NAMES
        .iter()
        .find(|(_, r)| *r == text)
        .map_or("Rule of your own", |(name, _)| name)
}

/// The density row: its slider travels the densities that leave the
/// scene's named rule a field of clumps ([`scene::density_range`]), the
/// whole range for a rule with no name; its hover text says why it ends
/// where it does.
pub(super) fn density_row(ui: &mut Ui, setting: &setting::Setting<Scene>, scene: &mut Scene) {
    let rule = scene.automaton.rule;
    let (range, hint) = match scene::density_range(rule) {
        Some((range, above)) => {
            let hint = format!(
                "{}. For {} ({rule}) the slider runs from {} to {}: below, too few cells \
                 live through the generations to make stones; above, {above}. A number \
                 typed into the box may go from 0 to 1.",
                setting.hint,
                rule_name(rule),
                range.start(),
                range.end()
            );
            (range, hint)
        }
        None => (0.0..=1.0, format!("{}, from 0 to 1", setting.hint)),
    };
    float_row(ui, setting, scene, range, &hint);
}
