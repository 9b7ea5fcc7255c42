//! The side panel: a control for every scene field, grouped by layer.
//!
//! Top to bottom: file actions (presets, Open…, Export PNG…, undo/redo),
//! the seed with its dice and Randomize, the light, the rock automaton,
//! the layer list (visibility, opacity, order, and each layer's own
//! settings), and the share field. Each group has a lock that keeps
//! "Randomize" off it.
//!
//! Controls edit the scene in place; what needs the app (loading, rolling
//! dice, opening dialogs) comes back as [`Event`]s.

use std::path::PathBuf;

use egui::{Response, RichText, Ui};

use super::AppState;
use super::files::{self, FileDialog};
use super::randomize::{Group, Locks, RULES};
use crate::color::Rgb;
use crate::layers::{self, Layer};
use crate::palette::TimeOfDay;
use crate::rule::Rule;
use crate::scene::{self, Limit, Scene};

/// What the side panel asks the app to do.
#[derive(Debug)]
pub enum Event {
    /// Roll a new seed.
    Dice,
    /// Re-roll every unlocked group.
    Randomize,
    /// Replace the scene: `(scene, where it came from, preset name)`, or why
    /// it could not be read.
    Load(Result<(Scene, String, Option<String>), String>),
    /// Show a message (`true`: an error).
    Message(String, bool),
    /// Open the export dialog.
    OpenExport,
    /// Undo the last change.
    Undo,
    /// Redo the last undone change.
    Redo,
}

/// Side-panel state that is not part of the scene: text being typed,
/// errors, the preset list, an open file dialog.
pub struct Controls {
    rule_text: String,
    rule_error: Option<String>,
    rule_focused: bool,
    share_text: String,
    share_focused: bool,
    open_dialog: Option<FileDialog>,
    /// The path typed when no file dialog is available; `None`: hidden.
    open_path: Option<String>,
    /// Whether undo / redo are possible (set by the app each frame).
    pub can_undo: bool,
    /// See [`Controls::can_undo`].
    pub can_redo: bool,
}

impl Controls {
    /// Controls showing `scene`, with the presets folder listed.
    pub fn new(scene: &Scene) -> Self {
        Controls {
            rule_text: scene.automaton.rule.to_string(),
            rule_error: None,
            rule_focused: false,
            share_text: files::scene_to_text(scene),
            share_focused: false,
            open_dialog: None,
            open_path: None,
            can_undo: false,
            can_redo: false,
        }
    }

    /// Brings the text fields in line with `scene` after it changed
    /// elsewhere (undo, a preset, randomize); a field being typed in is
    /// left alone.
    pub fn sync(&mut self, scene: &Scene) {
        if !self.rule_focused {
            self.rule_text = scene.automaton.rule.to_string();
            self.rule_error = None;
        }
        if !self.share_focused {
            self.share_text = files::scene_to_text(scene);
        }
    }

    /// Whether a text field is being edited (its keystrokes are one undo
    /// step, committed when it loses focus).
    pub fn editing_text(&self) -> bool {
        self.rule_focused
    }

    /// The error of the rule being typed, if it does not parse.
    pub fn rule_error(&self) -> Option<&str> {
        self.rule_error.as_deref()
    }

    /// Draws the panel, editing `state` in place.
    pub fn ui(&mut self, ui: &mut Ui, state: &mut AppState) -> Vec<Event> {
        let mut events = Vec::new();
        self.poll_open_dialog(&mut events);
        // A scroll bar beside the controls, not over their right-hand buttons.
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.add_space(6.0);
                self.file_ui(ui, state, &mut events);
                self.open_path_ui(ui, &mut events);
                ui.add_space(4.0);
                seed_ui(ui, state, &mut events);
                ui.add_space(2.0);
                ui.separator();
                light_ui(ui, &mut state.scene, &mut state.locks);
                self.automaton_ui(ui, &mut state.scene, &mut state.locks);
                layers_ui(ui, &mut state.scene, &mut state.locks);
                ui.separator();
                self.share_ui(ui, &mut events);
                ui.add_space(8.0);
            });
        events
    }

    fn poll_open_dialog(&mut self, events: &mut Vec<Event>) {
        let Some(dialog) = &mut self.open_dialog else {
            return;
        };
        let Some(answer) = dialog.poll() else { return };
        self.open_dialog = None;
        match answer {
            Some(path) => {
                self.open_path = None;
                events.push(load_path(&path));
            }
            None => {
                // Nothing chosen, or no dialog could open (no desktop
                // portal): offer a path field instead.
                self.open_path.get_or_insert_with(String::new);
                events.push(Event::Message(
                    "No file opened. If no dialog appeared, type the path below or drop the file on the window"
                        .into(),
                    false,
                ));
            }
        }
    }

    /// The path field offered when the file dialog is unavailable.
    fn open_path_ui(&mut self, ui: &mut Ui, events: &mut Vec<Event>) {
        let Some(path) = &mut self.open_path else {
            return;
        };
        let mut close = false;
        ui.horizontal(|ui| {
            let label = ui.label("Path");
            let field = ui
                .add(
                    egui::TextEdit::singleline(path)
                        .hint_text("/path/to/scene.ron or picture.png")
                        .desired_width(ui.available_width() - 90.0),
                )
                .labelled_by(label.id);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Load").clicked() || enter {
                let event = load_path(std::path::Path::new(path.trim()));
                close = matches!(event, Event::Load(Ok(_)));
                events.push(event);
            }
            if ui
                .button("✖")
                .accessible_name("Close the path field")
                .clicked()
            {
                close = true;
            }
        });
        if close {
            self.open_path = None;
        }
    }

    /// Preset picker, Open…, Export PNG…, undo and redo.
    fn file_ui(&mut self, ui: &mut Ui, state: &mut AppState, events: &mut Vec<Event>) {
        ui.horizontal(|ui| {
            let label = ui.label("Preset");
            let shown = if state.preset.is_empty() {
                "—"
            } else {
                state.preset.as_str()
            };
            let combo = egui::ComboBox::from_id_salt("preset")
                .selected_text(shown)
                .width(ui.available_width() - 80.0)
                .show_ui(ui, |ui| {
                    for preset in crate::presets::PRESETS {
                        let item = ui
                            .selectable_label(state.preset == preset.name, preset.name)
                            .on_hover_text(preset.description());
                        if item.clicked() {
                            events.push(Event::Load(
                                preset
                                    .scene()
                                    .map(|scene| {
                                        let from = format!("preset {}", preset.name);
                                        (scene, from, Some(preset.name.to_string()))
                                    })
                                    .map_err(|e| e.to_string()),
                            ));
                        }
                    }
                });
            combo.response.labelled_by(label.id);
            let opening = self.open_dialog.is_some();
            if ui
                .add_enabled(!opening, egui::Button::new("Open…"))
                .on_hover_text(
                    "Open a .ron preset or a PNG made by playa (or drop one on the window)",
                )
                .clicked()
            {
                self.open_dialog = Some(FileDialog::open_scene(files::presets_dir().map(absolute)));
            }
        });
        ui.horizontal(|ui| {
            let export = ui
                .add(egui::Button::new(RichText::new("Export PNG…").strong()))
                .on_hover_text("Render at full size and save (Ctrl+E)");
            if export.clicked() {
                events.push(Event::OpenExport);
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .add_enabled(self.can_redo, egui::Button::new("⟳"))
                    .accessible_name("Redo")
                    .on_hover_text("Redo (Ctrl+Shift+Z or Ctrl+Y)")
                    .clicked()
                {
                    events.push(Event::Redo);
                }
                if ui
                    .add_enabled(self.can_undo, egui::Button::new("⟲"))
                    .accessible_name("Undo")
                    .on_hover_text("Undo (Ctrl+Z)")
                    .clicked()
                {
                    events.push(Event::Undo);
                }
            });
        });
    }

    fn automaton_ui(&mut self, ui: &mut Ui, scene: &mut Scene, locks: &mut Locks) {
        section(
            ui,
            "Rock automaton",
            Some((Group::Automaton, locks)),
            true,
            |ui| {
                let a = &mut scene.automaton;
                form(ui, "automaton", |ui| {
                    let density = ui.label("Density");
                    ui.add(egui::Slider::new(&mut a.density, 0.0..=1.0).fixed_decimals(3))
                        .labelled_by(density.id)
                        .on_hover_text("Share of live cells in the starting soup");
                    ui.end_row();

                    let gens = ui.label("Generations");
                    ui.add(
                        egui::Slider::new(&mut a.generations, 0..=scene::MAX_GENERATIONS)
                            .logarithmic(true)
                            .smallest_positive(1.0),
                    )
                    .labelled_by(gens.id)
                    .on_hover_text("Generations run before the survivors become stones");
                    ui.end_row();

                    // The grid may not exceed MAX_GRID_CELLS: columns × columns / aspect.
                    let cells_cap =
                        ((scene::MAX_GRID_CELLS as f64) * f64::from(scene.aspect)).sqrt() as u32;
                    let max_cols = scene::MAX_COLUMNS.min(cells_cap).max(1);
                    let cols = ui.label("Columns");
                    ui.add(egui::Slider::new(&mut a.columns, 1..=max_cols).logarithmic(true))
                        .labelled_by(cols.id)
                        .on_hover_text(
                            "Grid columns across the picture; rows follow from the aspect",
                        );
                    ui.end_row();

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
                        if response.changed() {
                            match self.rule_text.trim().parse::<Rule>() {
                                Ok(r) => {
                                    a.rule = r;
                                    self.rule_error = None;
                                }
                                Err(e) => self.rule_error = Some(e.to_string()),
                            }
                        }
                        if response.lost_focus() && self.rule_error.is_none() {
                            self.rule_text = a.rule.to_string();
                        }
                        ui.menu_button("⏷", |ui| {
                            for (name, text) in RULE_NAMES {
                                if ui.button(format!("{name}  {text}")).clicked() {
                                    a.rule = text.parse().expect("the named rules parse");
                                    self.rule_text = a.rule.to_string();
                                    self.rule_error = None;
                                    ui.close();
                                }
                            }
                        })
                        .response
                        .accessible_name("Known rules");
                    });
                    ui.end_row();
                    if let Some(err) = &self.rule_error {
                        ui.label("");
                        ui.add(
                            egui::Label::new(
                                RichText::new(format!("⚠ {err}"))
                                    .color(ui.visuals().error_fg_color),
                            )
                            .wrap(),
                        );
                        ui.end_row();
                    }

                    let topo = ui.label("Edges");
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut a.topology, crate::grid::Topology::Torus, "Wrap");
                        ui.radio_value(&mut a.topology, crate::grid::Topology::Bounded, "Bounded");
                    })
                    .response
                    .labelled_by(topo.id);
                    ui.end_row();
                });
            },
        );
    }

    fn share_ui(&mut self, ui: &mut Ui, events: &mut Vec<Event>) {
        ui.horizontal(|ui| {
            let label = ui.strong("Share");
            let response = ui
                .add(
                    egui::TextEdit::singleline(&mut self.share_text)
                        .desired_width(ui.available_width() - 64.0)
                        .font(egui::TextStyle::Monospace),
                )
                .labelled_by(label.id)
                .on_hover_text("This scene as text: copy it to share, paste one to load it");
            self.share_focused = response.has_focus();
            if response.changed() {
                match files::scene_from_text(&self.share_text) {
                    Ok(scene) => events.push(Event::Load(Ok((scene, "pasted scene".into(), None)))),
                    Err(e) => events.push(Event::Message(e, true)),
                }
            }
            if ui
                .button("Copy")
                .on_hover_text("Copy the scene to the clipboard")
                .clicked()
            {
                ui.ctx().copy_text(self.share_text.clone());
                events.push(Event::Message(
                    "Copied the scene to the clipboard".into(),
                    false,
                ));
            }
        });
    }
}

/// Rules with names, for the rule menu.
const RULE_NAMES: &[(&str, &str)] = &[
    ("Life", "B3/S23"),
    ("Anneal", "B4678/S35678"),
    ("Coral", "B3/S45678"),
    ("Diamoeba", "B35678/S5678"),
    ("HighLife", "B36/S23"),
    ("Day & Night", "B3678/S34678"),
    ("Majority", "B5678/S45678"),
];

const _: () = assert!(RULE_NAMES.len() + 1 == RULES.len());

/// An event loading the scene at `path`.
pub fn load_path(path: &std::path::Path) -> Event {
    let name = files::display_name(path);
    let preset = path
        .extension()
        .is_some_and(|x| x == "ron")
        .then(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .flatten();
    Event::Load(files::scene_from_path(path).map(|s| (s, name, preset)))
}

fn absolute(p: PathBuf) -> PathBuf {
    std::path::absolute(&p).unwrap_or(p)
}

/// Seed field with ◀ ▶ and the dice, then "Randomize".
fn seed_ui(ui: &mut Ui, state: &mut AppState, events: &mut Vec<Event>) {
    ui.horizontal(|ui| {
        let label = ui.label("Seed");
        let seed = &mut state.scene.seed;
        // A fixed width keeps the buttons in place as the seed's digits
        // change (seeds from the dice have at most six).
        let height = ui.spacing().interact_size.y;
        ui.add_sized(
            [72.0, height],
            egui::DragValue::new(seed).speed(1.0).range(0..=u64::MAX),
        )
        .labelled_by(label.id);
        if ui
            .add_enabled(*seed > 0, egui::Button::new("◀"))
            .accessible_name("Previous seed")
            .on_hover_text("Previous seed")
            .clicked()
        {
            *seed -= 1;
        }
        if ui
            .button("▶")
            .accessible_name("Next seed")
            .on_hover_text("Next seed")
            .clicked()
        {
            *seed = seed.wrapping_add(1);
        }
        let dice = ui
            .add(egui::Button::new("").min_size(egui::vec2(30.0, 0.0)))
            .accessible_name("New random seed")
            .on_hover_text("New random seed (D)");
        paint_die(ui, dice.rect, ui.style().interact(&dice).fg_stroke.color);
        if dice.clicked() {
            events.push(Event::Dice);
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            lock_button(ui, Group::Seed, &mut state.locks, "seed");
        });
    });
    let randomize = ui
        .add_sized(
            [ui.available_width(), 26.0],
            egui::Button::new(RichText::new("🔀 Randomize").strong()),
        )
        .on_hover_text("Re-roll every unlocked group (R). Locks: 🔒 next to each group.");
    if randomize.clicked() {
        events.push(Event::Randomize);
    }
}

/// A die showing five, drawn in `rect` (no font has a legible one at
/// button size).
fn paint_die(ui: &Ui, rect: egui::Rect, color: egui::Color32) {
    let side = rect.height().min(rect.width()) - 6.0;
    let die = egui::Rect::from_center_size(rect.center(), egui::vec2(side, side));
    let painter = ui.painter();
    painter.rect_stroke(
        die,
        3.0,
        egui::Stroke::new(1.4, color),
        egui::StrokeKind::Inside,
    );
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
        painter.circle_filled(c + egui::vec2(dx * off, dy * off), pip, color);
    }
}

/// The lock toggle of `group`, named "Lock {what}" for screen readers.
fn lock_button(ui: &mut Ui, group: Group, locks: &mut Locks, what: &str) -> Response {
    let locked = locks.get_mut(group);
    let icon = if *locked { "🔒" } else { "🔓" };
    let text = if *locked {
        RichText::new(icon).color(ui.visuals().warn_fg_color)
    } else {
        RichText::new(icon).weak()
    };
    let mut response = ui
        .add(egui::Button::selectable(*locked, text).frame_when_inactive(false))
        .accessible_name(format!("Lock {what}"))
        .on_hover_text(if *locked {
            format!("{what}: locked, Randomize leaves it alone")
        } else {
            format!("{what}: Randomize re-rolls it; click to lock")
        });
    if response.clicked() {
        *locked = !*locked;
        response.mark_changed();
    }
    response
}

/// A collapsible group with a title and, at its right, an optional lock.
fn section(
    ui: &mut Ui,
    title: &str,
    lock: Option<(Group, &mut Locks)>,
    open: bool,
    body: impl FnOnce(&mut Ui),
) {
    let id = ui.make_persistent_id(("section", title));
    egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, open)
        .show_header(ui, |ui| {
            ui.label(RichText::new(title).strong());
            if let Some((group, locks)) = lock {
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    lock_button(ui, group, locks, &title.to_lowercase());
                });
            }
        })
        .body(body);
}

/// A two-column form: labels on the left, controls filling the right.
fn form(ui: &mut Ui, id: &str, rows: impl FnOnce(&mut Ui)) {
    // Sliders take what is left after the label column and the value box.
    // The sum must stay inside the panel, or the panel grows to fit it, frame
    // after frame.
    ui.spacing_mut().slider_width = (ui.available_width() - 200.0).max(60.0);
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([10.0, 6.0])
        .min_col_width(84.0)
        .show(ui, rows);
}

/// A labelled slider row for a float with a documented [`Limit`].
fn slider(ui: &mut Ui, label: &str, value: &mut f32, limit: Limit, hint: &str) -> Response {
    let l = ui.label(label);
    let r = ui
        .add(egui::Slider::new(value, limit.min as f32..=limit.max as f32).max_decimals(3))
        .labelled_by(l.id)
        .on_hover_text(hint);
    ui.end_row();
    r
}

/// Like [`slider`], on a logarithmic scale (for ranges over decades).
fn log_slider(ui: &mut Ui, label: &str, value: &mut f32, limit: Limit, hint: &str) -> Response {
    let l = ui.label(label);
    let r = ui
        .add(
            egui::Slider::new(value, limit.min as f32..=limit.max as f32)
                .logarithmic(true)
                .max_decimals(4),
        )
        .labelled_by(l.id)
        .on_hover_text(hint);
    ui.end_row();
    r
}

/// A labelled slider row for a whole number with a documented [`Limit`].
fn int_slider(
    ui: &mut Ui,
    label: &str,
    value: &mut u32,
    limit: Limit,
    log: bool,
    hint: &str,
) -> Response {
    let l = ui.label(label);
    let r = ui
        .add(egui::Slider::new(value, limit.min as u32..=limit.max as u32).logarithmic(log))
        .labelled_by(l.id)
        .on_hover_text(hint);
    ui.end_row();
    r
}

/// A labelled colour button row.
fn color_row(ui: &mut Ui, label: &str, color: &mut Rgb) -> Response {
    let l = ui.label(label);
    let mut rgb = [color.0, color.1, color.2];
    let r = ui.color_edit_button_srgb(&mut rgb).labelled_by(l.id);
    *color = Rgb(rgb[0], rgb[1], rgb[2]);
    ui.end_row();
    r
}

/// Time of day, sun position, horizon and aspect.
fn light_ui(ui: &mut Ui, scene: &mut Scene, locks: &mut Locks) {
    section(ui, "Light", Some((Group::Light, locks)), true, |ui| {
        form(ui, "light", |ui| {
            let time = ui.label("Time of day");
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 2.0;
                ui.spacing_mut().button_padding.x = 5.0;
                for t in TimeOfDay::ALL {
                    ui.selectable_value(&mut scene.time, t, time_label(t));
                }
            })
            .response
            .labelled_by(time.id);
            ui.end_row();
            slider(
                ui,
                "Sun position",
                &mut scene.sun_x,
                scene::SUN_X,
                "Where the sun (or moon) stands, left to right; light comes from its side",
            );
            slider(
                ui,
                "Horizon",
                &mut scene.horizon,
                scene::HORIZON,
                "Height of the horizon, from the top",
            );
            let aspect = ui.label("Aspect");
            ui.horizontal(|ui| {
                egui::ComboBox::from_id_salt("aspect")
                    .selected_text(aspect_label(scene.aspect))
                    .width(72.0)
                    .show_ui(ui, |ui| {
                        for (name, w, h) in ASPECTS {
                            let a = w / h;
                            if ui
                                .selectable_label((scene.aspect - a).abs() < 1e-3, *name)
                                .clicked()
                            {
                                scene.aspect = a;
                            }
                        }
                    })
                    .response
                    .labelled_by(aspect.id);
                ui.add(
                    egui::DragValue::new(&mut scene.aspect)
                        .range(scene::MIN_ASPECT..=scene::MAX_ASPECT)
                        .speed(0.005)
                        .max_decimals(3),
                )
                .accessible_name("Aspect ratio")
                .on_hover_text("Width / height of the picture");
            });
            ui.end_row();
        });
    });
}

const ASPECTS: &[(&str, f32, f32)] = &[
    ("16:9", 16.0, 9.0),
    ("21:9", 21.0, 9.0),
    ("3:2", 3.0, 2.0),
    ("4:3", 4.0, 3.0),
    ("1:1", 1.0, 1.0),
    ("4:5", 4.0, 5.0),
    ("9:16", 9.0, 16.0),
];

fn aspect_label(aspect: f32) -> String {
    ASPECTS
        .iter()
        .find(|(_, w, h)| (aspect - w / h).abs() < 1e-3)
        .map_or_else(|| "custom".to_string(), |(n, _, _)| n.to_string())
}

/// The name of a time of day in the UI.
pub fn time_label(t: TimeOfDay) -> &'static str {
    match t {
        TimeOfDay::Noon => "Noon",
        TimeOfDay::GoldenHour => "Golden",
        TimeOfDay::Dusk => "Dusk",
        TimeOfDay::Night => "Night",
    }
}

/// The title of a layer in the UI.
pub fn layer_title(layer: &Layer) -> &'static str {
    match layer {
        Layer::Sky(_) => "Sky",
        Layer::Ranges(_) => "Ranges",
        Layer::Floor(_) => "Floor",
        Layer::Rocks(_) => "Stones",
        Layer::Tent(_) => "Tent",
        Layer::Spiral(_) => "Spiral",
    }
}

/// The `visible` and `opacity` every layer has.
fn common_mut(layer: &mut Layer) -> (&mut bool, &mut f32) {
    match layer {
        Layer::Sky(l) => (&mut l.visible, &mut l.opacity),
        Layer::Ranges(l) => (&mut l.visible, &mut l.opacity),
        Layer::Floor(l) => (&mut l.visible, &mut l.opacity),
        Layer::Rocks(l) => (&mut l.visible, &mut l.opacity),
        Layer::Tent(l) => (&mut l.visible, &mut l.opacity),
        Layer::Spiral(l) => (&mut l.visible, &mut l.opacity),
    }
}

/// A change to the layer list, applied after the list is drawn.
enum ListEdit {
    Up(usize),
    Down(usize),
    Remove(usize),
    Add(Layer),
}

/// The layer list, back to front: each layer's visibility, lock, order and
/// its own settings.
fn layers_ui(ui: &mut Ui, scene: &mut Scene, locks: &mut Locks) {
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new("Layers").strong());
        ui.weak("back to front");
    });
    let mut edit = None;
    let count = scene.layers.len();
    for (i, layer) in scene.layers.iter_mut().enumerate() {
        let title = layer_title(layer);
        let group = Group::of_layer(layer);
        let id = ui.make_persistent_id(("layer", i, title));
        egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, false)
            .show_header(ui, |ui| {
                let (visible, _) = common_mut(layer);
                ui.checkbox(visible, title)
                    .on_hover_text(format!("Show the {} layer", title.to_lowercase()));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.spacing_mut().item_spacing.x = 2.0;
                    if ui
                        .small_button("🗑")
                        .accessible_name(format!("Remove {title}"))
                        .on_hover_text("Remove the layer (undo brings it back)")
                        .clicked()
                    {
                        edit = Some(ListEdit::Remove(i));
                    }
                    if ui
                        .add_enabled(i + 1 < count, egui::Button::new("⏷").small())
                        .accessible_name(format!("Move {title} forward"))
                        .on_hover_text("Draw later (in front)")
                        .clicked()
                    {
                        edit = Some(ListEdit::Down(i));
                    }
                    if ui
                        .add_enabled(i > 0, egui::Button::new("⏶").small())
                        .accessible_name(format!("Move {title} back"))
                        .on_hover_text("Draw earlier (behind)")
                        .clicked()
                    {
                        edit = Some(ListEdit::Up(i));
                    }
                    ui.add_space(4.0);
                    lock_button(ui, group, locks, &title.to_lowercase());
                });
            })
            .body(|ui| {
                form(ui, id.with("form").value().to_string().as_str(), |ui| {
                    let (_, opacity) = common_mut(layer);
                    slider(
                        ui,
                        "Opacity",
                        opacity,
                        scene::OPACITY,
                        "How much of the layer shows",
                    );
                    layer_fields_ui(ui, layer);
                });
            });
    }
    ui.horizontal(|ui| {
        ui.menu_button("+ Add layer", |ui| {
            for layer in [
                Layer::Sky(Default::default()),
                Layer::Ranges(Default::default()),
                Layer::Floor(Default::default()),
                Layer::Rocks(Default::default()),
                Layer::Tent(Default::default()),
                Layer::Spiral(layers::Spiral {
                    visible: true,
                    ..Default::default()
                }),
            ] {
                if ui.button(layer_title(&layer)).clicked() {
                    edit = Some(ListEdit::Add(layer));
                    ui.close();
                }
            }
        });
        if ui
            .button("Reset layers")
            .on_hover_text("Back to the default layer list")
            .clicked()
        {
            scene.layers = Scene::default_layers();
        }
    });
    match edit {
        Some(ListEdit::Up(i)) => scene.layers.swap(i, i - 1),
        Some(ListEdit::Down(i)) => scene.layers.swap(i, i + 1),
        Some(ListEdit::Remove(i)) => {
            scene.layers.remove(i);
        }
        Some(ListEdit::Add(layer)) if scene.layers.len() < scene::MAX_LAYERS => {
            scene.layers.push(layer)
        }
        _ => {}
    }
}

/// Each layer kind's own settings, as form rows.
fn layer_fields_ui(ui: &mut Ui, layer: &mut Layer) {
    use layers::{floor, ranges, rocks, sky, spiral, tent};
    match layer {
        Layer::Sky(l) => {
            let sun = ui.label("Sun / moon");
            ui.checkbox(&mut l.sun, "disc").labelled_by(sun.id);
            ui.end_row();
            slider(
                ui,
                "Disc size",
                &mut l.sun_size,
                sky::SUN_SIZE,
                "Radius of the disc",
            );
            slider(ui, "Glow", &mut l.glow, sky::GLOW, "Glow around the disc");
            int_slider(
                ui,
                "Stars",
                &mut l.stars,
                sky::STARS,
                true,
                "Stars at night (faint at dusk)",
            );
            slider(
                ui,
                "Milky Way",
                &mut l.milky_way,
                sky::MILKY_WAY,
                "Brightness of the Milky Way at night",
            );
        }
        Layer::Ranges(l) => {
            int_slider(
                ui,
                "Count",
                &mut l.count,
                ranges::COUNT,
                false,
                "Number of mountain ranges",
            );
            slider(
                ui,
                "Height",
                &mut l.height,
                ranges::HEIGHT,
                "Height of the farthest range",
            );
            slider(
                ui,
                "Roughness",
                &mut l.roughness,
                ranges::ROUGHNESS,
                "Jaggedness of the ridgelines",
            );
            log_slider(
                ui,
                "Breadth",
                &mut l.width,
                ranges::WIDTH,
                "Horizontal scale of the mountains",
            );
            slider(
                ui,
                "Haze",
                &mut l.haze,
                ranges::HAZE,
                "Aerial perspective: far ranges fade into the sky",
            );
            int_slider(
                ui,
                "Terraces",
                &mut l.terraces,
                ranges::TERRACES,
                false,
                "Steps cut into the slopes: 0 for peaks, more for mesas and buttes",
            );
            color_row(ui, "Rock colour", &mut l.color);
        }
        Layer::Floor(l) => {
            color_row(ui, "Sand colour", &mut l.color);
            slider(
                ui,
                "Warmth",
                &mut l.warmth,
                floor::WARMTH,
                "Darker and warmer toward the viewer",
            );
            slider(
                ui,
                "Grain",
                &mut l.grain,
                floor::GRAIN,
                "Fine grain of the ground",
            );
            slider(
                ui,
                "Patches",
                &mut l.patches,
                floor::PATCHES,
                "Large patches of desert pavement",
            );
            slider(
                ui,
                "Cracks",
                &mut l.cracks,
                floor::CRACKS,
                "Polygon cracks of a dried crust (salt pans, mud flats)",
            );
        }
        Layer::Rocks(l) => {
            log_slider(
                ui,
                "Near size",
                &mut l.near_size,
                rocks::SIZE,
                "Stone size on the nearest row",
            );
            log_slider(
                ui,
                "Far size",
                &mut l.far_size,
                rocks::SIZE,
                "Stone size on the farthest row",
            );
            slider(
                ui,
                "Top gap",
                &mut l.top,
                rocks::TOP,
                "Gap between the horizon and the farthest stones",
            );
            slider(
                ui,
                "Nearest row",
                &mut l.bottom,
                rocks::BOTTOM,
                "Where the nearest row sits",
            );
            slider(
                ui,
                "Jitter",
                &mut l.jitter,
                rocks::JITTER,
                "Random offset of each stone",
            );
            color_row(ui, "Stone colour", &mut l.primary);
            slider(
                ui,
                "Stone alpha",
                &mut l.primary_alpha,
                rocks::UNIT,
                "Opacity of the common stones",
            );
            color_row(ui, "Second colour", &mut l.secondary);
            slider(
                ui,
                "Second alpha",
                &mut l.secondary_alpha,
                rocks::UNIT,
                "Opacity of the other stones",
            );
            slider(
                ui,
                "Second share",
                &mut l.secondary_share,
                rocks::UNIT,
                "Share of stones in the second colour",
            );
            slider(
                ui,
                "Shadow",
                &mut l.shadow,
                rocks::SHADOW,
                "Contact shadows under the stones",
            );
        }
        Layer::Tent(l) => {
            slider(
                ui,
                "Position",
                &mut l.x,
                tent::X,
                "Left to right (or drag the tent on the preview)",
            );
            slider(
                ui,
                "Ground",
                &mut l.y,
                tent::Y,
                "Where the tent stands, from the top",
            );
            slider(ui, "Size", &mut l.size, tent::SIZE, "Width of the tent");
            color_row(ui, "Fly colour", &mut l.color);
            slider(
                ui,
                "Lantern",
                &mut l.lantern,
                tent::LANTERN,
                "A lantern glowing inside, for night scenes",
            );
        }
        Layer::Spiral(l) => {
            slider(
                ui,
                "Start x",
                &mut l.x,
                spiral::POSITION,
                "Start of the first segment, left to right",
            );
            slider(
                ui,
                "Start y",
                &mut l.y,
                spiral::POSITION,
                "Start of the first segment, top to bottom",
            );
            log_slider(
                ui,
                "Length",
                &mut l.length,
                spiral::LENGTH,
                "Length of the first segment",
            );
            log_slider(
                ui,
                "Step",
                &mut l.step,
                spiral::LENGTH,
                "Growth of each segment",
            );
            slider(
                ui,
                "Turn",
                &mut l.turn,
                spiral::TURN,
                "Turn between segments, degrees",
            );
            int_slider(
                ui,
                "Segments",
                &mut l.segments,
                spiral::SEGMENTS,
                true,
                "Number of segments",
            );
            log_slider(
                ui,
                "Line width",
                &mut l.width,
                spiral::WIDTH,
                "Width of the line",
            );
            color_row(ui, "Colour", &mut l.color);
        }
    }
}
