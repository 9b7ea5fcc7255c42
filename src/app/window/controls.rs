//! The side panel: a control for every scene field, grouped by layer.
//!
//! Top to bottom: file actions (presets, Open…, Export PNG…, Export
//! animation…, undo/redo), the seed with its dice, New scene and the
//! Variations toggle, the light,
//! the rock automaton, the layer list ([`crate::app::window::layers`]), and the share
//! field. Each group has a lock that keeps
//! New scene and Vary off it.
//!
//! Controls edit the scene in place; what needs the app (loading, rolling
//! dice, opening dialogs) comes back as [`Event`]s.

use std::path::PathBuf;

use egui::{RichText, Ui};

use crate::Rule;
use crate::app::event::Event;
use crate::app::files::presets::Presets;
use crate::app::files::{self, FileDialog};
use crate::app::window::form::{
    click_never_drags, escape_cancels, form, lock_button, section, setting_row,
};
use crate::app::{AppState, WEB_URL_VAR};
use crate::base::palette::TimeOfDay;
use crate::explore::randomize::{self, Locks};
use crate::scene::{self, Scene};
use crate::setting;

mod automaton;
mod share_field;

/// The room undo and redo take at the end of the export row.
const UNDO_REDO_WIDTH: f32 = 60.0;

/// Side-panel state that is not part of the scene: text being typed,
/// errors, the preset list, an open file dialog.
pub struct Controls {
    rule_text: String,
    /// Why the rule typed does not parse: the whole message, and its reason
    /// alone (the line under the field).
    rule_error: Option<(String, String)>,
    rule_focused: bool,
    /// The scene's rule when typing in the rule field began: Escape brings
    /// it back (valid rules apply as they are typed).
    rule_before: Option<Rule>,
    /// The scene's share text (its link, or its code): what the Share field
    /// shows whenever it is not being typed in, and what Copy copies.
    share_text: String,
    /// Text typed into the Share field, checked on Enter, a paste or
    /// leaving the field; `None` when the field shows the scene's text. A
    /// text that is no scene stays, with `share_error`, to be corrected.
    share_edit: Option<String>,
    /// Why `share_edit` is no scene, once it was checked.
    share_error: Option<String>,
    /// Whether the Share field has the keyboard.
    share_focused: bool,
    /// The seed as typed: applied on Enter or leaving the field, when it is
    /// a whole number that fits (`seed_error` says why it is not).
    seed_text: String,
    seed_error: Option<String>,
    /// Whether the seed field has the keyboard.
    seed_focused: bool,
    /// Whether the seed field was typed in since it took the keyboard (a
    /// field merely visited leaves the seed alone, even if the scene
    /// changed meanwhile).
    seed_typed: bool,
    /// The scene's share code, to tell whether the scene is still the one
    /// loaded (see [`AppState::loaded`]).
    scene_code: String,
    /// The value of [`WEB_URL_VAR`] at start-up.
    web_url_env: Option<String>,
    /// The web address the share text is made with (see
    /// [`AppState::link_address`]).
    share_address: Option<String>,
    /// Why `share_address` is no web address, if it is not.
    address_error: Option<String>,
    /// Whether the web address row under the Share field is shown.
    address_open: bool,
    open_dialog: Option<FileDialog>,
    /// The scene's traits and the scene they were read from (read again
    /// when it changes), for the Traits section.
    traits: Option<(Scene, crate::traits::Traits)>,
    /// The path typed when no file dialog is available; `None`: hidden.
    open_path: Option<String>,
    /// Whether undo / redo are possible (set by the app each frame).
    pub can_undo: bool,
    /// See [`Controls::can_undo`].
    pub can_redo: bool,
    /// The preset picker and the user's presets.
    pub presets: Presets,
}

impl Controls {
    /// Controls showing `scene`, the user's presets in `store`.
    pub fn new(scene: &Scene, store: crate::source::user_presets::Store) -> Self {
        Controls {
            rule_text: scene.automaton.rule.to_string(),
            rule_error: None,
            rule_focused: false,
            rule_before: None,
            share_text: files::scene_to_text(scene),
            share_edit: None,
            share_error: None,
            share_focused: false,
            seed_text: scene.seed.to_string(),
            seed_error: None,
            seed_focused: false,
            seed_typed: false,
            scene_code: files::scene_to_text(scene),
            web_url_env: std::env::var(WEB_URL_VAR).ok(),
            share_address: None,
            address_error: None,
            address_open: false,
            open_dialog: None,
            open_path: None,
            traits: None,
            can_undo: false,
            can_redo: false,
            presets: Presets::new(store),
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
        if !self.seed_focused {
            self.seed_text = scene.seed.to_string();
            self.seed_error = None;
        }
        if !self.share_focused {
            // A text that was no scene gives way to the new scene's.
            self.share_edit = None;
            self.share_error = None;
        }
        self.scene_code = files::scene_to_text(scene);
        self.show_share(scene);
    }

    /// Whether a text field is being edited (its keystrokes are one undo
    /// step, committed when it loses focus).
    pub fn editing_text(&self) -> bool {
        self.rule_focused
    }

    /// The error of the rule being typed, if it does not parse.
    pub fn rule_error(&self) -> Option<&str> {
        self.rule_error.as_ref().map(|(full, _)| full.as_str())
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
                self.seed_ui(ui, state, &mut events);
                ui.add_space(2.0);
                ui.separator();
                light_ui(ui, &mut state.scene, &mut state.locks);
                camera_ui(ui, &mut state.scene);
                self.automaton_ui(ui, &mut state.scene, &mut state.locks, &mut events);
                crate::app::window::layers::layers_ui(ui, state, &mut events);
                ui.separator();
                self.share_ui(ui, state, &mut events);
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
            Some(picked) => {
                self.open_path = None;
                events.push(load_picked(picked));
            }
            None => {
                // Nothing chosen, or no dialog could open (no desktop
                // portal): offer a path field instead.
                self.open_path.get_or_insert_with(String::new);
                events.push(Event::Message(
                    "No file opened. If no dialog appeared, type the path in the Path field above, or drop the file on the window"
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

    /// Preset picker, Open…, Save scene…, Save as preset…, Export PNG…,
    /// Export animation…, undo and redo.
    fn file_ui(&mut self, ui: &mut Ui, state: &mut AppState, events: &mut Vec<Event>) {
        self.presets.begin_frame(ui.ctx());
        ui.horizontal(|ui| {
            let label = ui.label("Preset");
            let shown = state.origin_label(&self.scene_code);
            let combo = egui::ComboBox::from_id_salt("preset")
                .selected_text(shown)
                .width(ui.available_width() - 80.0)
                // As tall as the window allows: every preset in sight.
                .height((ui.ctx().content_rect().height() - 96.0).max(560.0))
                .show_ui(ui, |ui| self.presets.menu_ui(ui, state, events));
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
            if ui
                .button("Save scene…")
                .on_hover_text("Save the scene as a .ron file (Ctrl+S)")
                .clicked()
            {
                events.push(Event::OpenSaveScene);
            }
            if ui
                .button("Save as preset…")
                .on_hover_text("Keep the scene among your presets, in the picker above")
                .clicked()
            {
                self.presets.open_save(state);
            }
        });
        self.presets.windows_ui(ui.ctx(), state, events);
        let mut wrap = false;
        ui.horizontal(|ui| {
            let export = ui
                .add(egui::Button::new(RichText::new("Export PNG…").strong()))
                .on_hover_text("Render at full size and save (Ctrl+E)");
            if export.clicked() {
                events.push(Event::OpenExport);
            }
            if ui
                .button("Export animation…")
                .on_hover_text("The automaton's generations as an APNG or a GIF")
                .clicked()
            {
                events.push(Event::OpenAnimationExport);
            }
            // Undo and redo at the row's right end, or on a row of their
            // own in a narrow panel.
            if ui.available_width() >= UNDO_REDO_WIDTH {
                self.undo_redo_ui(ui, events);
            } else {
                wrap = true;
            }
        });
        if wrap {
            ui.horizontal(|ui| self.undo_redo_ui(ui, events));
        }
    }

    /// Undo and redo, at the right of the row.
    fn undo_redo_ui(&self, ui: &mut Ui, events: &mut Vec<Event>) {
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
    }
}

/// An event loading the scene at `path`.
pub fn load_path(path: &std::path::Path) -> Event {
    let name = files::display_name(path);
    let stem = files::stem(&name).to_string();
    Event::Load(files::scene_from_path(path).map(|s| (s, name, stem)))
}

/// An event loading the scene of a file chosen with Open….
fn load_picked(picked: files::Picked) -> Event {
    let (name, scene) = files::scene_from_picked(picked);
    let stem = files::stem(&name).to_string();
    Event::Load(scene.map(|s| (s, name, stem)))
}

fn absolute(p: PathBuf) -> PathBuf {
    std::path::absolute(&p).unwrap_or(p)
}

/// `text` on one line as wide as what is left, cut short with "…" when
/// longer (the caller puts the whole on hover).
fn one_line(ui: &mut Ui, text: RichText) -> egui::Response {
    ui.add(egui::Label::new(text).truncate())
}

/// The room the seed row's label and buttons take beside the field.
const SEED_ROW_BUTTONS: f32 = 136.0;

/// A seed typed into the seed field: a whole number from 0 to 2^64 − 1,
/// or why it is not one.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|e| match e.kind() {
        // Short, to fit one line of the narrowest panel.
        std::num::IntErrorKind::PosOverflow => "too large: seeds end at 2^64 − 1".into(),
        std::num::IntErrorKind::Empty => "type a whole number".into(),
        _ => "seeds are whole numbers from 0 to 2^64 − 1".into(),
    })
}

impl Controls {
    /// Seed field with ◀ ▶ and the dice, then "New scene" and the toggle of
    /// the variations grid. A seed typed applies on Enter or leaving the
    /// field; one that is no seed says why under the field, and the scene
    /// keeps its seed.
    fn seed_ui(&mut self, ui: &mut Ui, state: &mut AppState, events: &mut Vec<Event>) {
        ui.horizontal(|ui| {
            let label = ui.label("Seed");
            let seed = &mut state.scene.seed;
            // Wide enough for the largest seed's 20 digits, unless the
            // panel is too narrow for that and the buttons after it.
            let font = egui::TextStyle::Monospace.resolve(ui.style());
            let largest = u64::MAX.to_string();
            let digits = ui
                .painter()
                .layout_no_wrap(largest, font, egui::Color32::WHITE)
                .size()
                .x
                + 16.0; // the margins, and room for the cursor after it
            let mut edit = egui::TextEdit::singleline(&mut self.seed_text)
                .desired_width(digits.min(ui.available_width() - SEED_ROW_BUTTONS))
                .font(egui::TextStyle::Monospace);
            if self.seed_error.is_some() {
                edit = edit.text_color(ui.visuals().error_fg_color);
            }
            let field = ui.add(edit).labelled_by(label.id).on_hover_text(format!(
                "The seed of everything random: a whole number from 0 to {}",
                u64::MAX
            ));
            self.seed_focused = field.has_focus();
            if field.changed() {
                self.seed_typed = true;
                // Half-typed is no error; anything else that is no seed is.
                self.seed_error = match self.seed_text.trim() {
                    "" => None,
                    text => parse_seed(text).err(),
                };
            }
            if field.lost_focus() {
                let typed = std::mem::take(&mut self.seed_typed);
                if typed && !ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    match parse_seed(&self.seed_text) {
                        Ok(typed) => *seed = typed,
                        Err(_) if self.seed_text.trim().is_empty() => {}
                        Err(e) => {
                            let text = format!("Seed: {e}; the seed stays {seed}");
                            events.push(Event::Message(text, true));
                        }
                    }
                }
                self.seed_error = None;
                self.seed_text = seed.to_string();
            }
            if ui
                .add_enabled(*seed > 0, egui::Button::new("◀"))
                .accessible_name("Previous seed")
                .on_hover_text("Previous seed")
                .clicked()
            {
                *seed -= 1;
            }
            if ui
                .add_enabled(*seed < u64::MAX, egui::Button::new("▶"))
                .accessible_name("Next seed")
                .on_hover_text("Next seed")
                .clicked()
            {
                *seed += 1;
            }
            let dice = ui
                .add(egui::Button::new("").min_size(egui::vec2(30.0, 0.0)))
                .accessible_name("New random seed")
                .on_hover_text("New random seed (D)");
            crate::app::window::icons::paint_die(
                ui,
                dice.rect,
                ui.style().interact(&dice).fg_stroke.color,
            );
            if dice.clicked() {
                events.push(Event::Dice);
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                lock_button(ui, randomize::SEED, &mut state.locks, "seed");
            });
        });
        // Always one line under the field, so the panel stays put while a
        // seed is typed (as under the rule): the error, a hint while the
        // field has the keyboard, else nothing.
        match &self.seed_error {
            Some(e) => {
                let color = ui.visuals().error_fg_color;
                one_line(ui, RichText::new(format!("⚠ {e}")).color(color));
            }
            None if self.seed_focused => {
                one_line(ui, RichText::new("Enter applies, Esc puts it back").weak());
            }
            None => {
                one_line(ui, RichText::new(" "));
            }
        }
        new_scene_ui(ui, state, events);
        self.traits_ui(ui, state);
    }

    /// The scene's traits, one per line with its lock: a locked trait
    /// keeps its value through New scene and Vary (its details are rolled).
    fn traits_ui(&mut self, ui: &mut Ui, state: &mut AppState) {
        let (scene, locks) = (&state.scene, &mut state.locks);
        let cache = &mut self.traits;
        // Closed at first (the line under the preview says them); its
        // title opens it. The traits are read only while it is open.
        egui::CollapsingHeader::new(RichText::new("Traits").strong())
            .default_open(false)
            .show(ui, |ui| {
                if cache.as_ref().is_none_or(|(of, _)| of != scene) {
                    *cache = Some((scene.clone(), crate::traits::Traits::of(scene)));
                }
                let Some((_, traits)) = cache else {
                    return;
                };
                form(ui, "traits", |ui| {
                    for (axis, value) in traits.names() {
                        ui.label(axis.title);
                        ui.horizontal(|ui| {
                            ui.add(egui::Label::new(value).truncate());
                            ui.with_layout(
                                egui::Layout::right_to_left(egui::Align::Center),
                                |ui| {
                                    lock_button(ui, axis.key, locks, &axis.title.to_lowercase());
                                },
                            );
                        });
                        ui.end_row();
                    }
                });
            });
    }
}

/// "New scene" and the toggle of the variations grid.
fn new_scene_ui(ui: &mut Ui, state: &mut AppState, events: &mut Vec<Event>) {
    ui.horizontal(|ui| {
        let toggle_width = 110.0;
        let new_scene = ui
            .add_sized(
                [ui.available_width() - toggle_width - 8.0, 26.0],
                egui::Button::new(RichText::new("🔀 New scene").strong()),
            )
            .on_hover_text("Re-roll every unlocked group (R). Locks: 🔒 next to each group.");
        if new_scene.clicked() {
            events.push(Event::NewScene);
        }
        let variations = ui
            .add_sized(
                [toggle_width, 26.0],
                egui::Button::selectable(state.variations.open, "⊞ Variations"),
            )
            .on_hover_text("A grid of scenes around this one to pick from (V)");
        if variations.clicked() {
            state.variations.open = !state.variations.open;
        }
    });
}

/// The lock toggle of `group`, named "Lock {what}" for screen readers.
/// Time of day, sun position, horizon and aspect.
fn light_ui(ui: &mut Ui, scene: &mut Scene, locks: &mut Locks) {
    let row = |ui: &mut Ui, name: &str, scene: &mut Scene| {
        let s = setting::find(Scene::SETTINGS, name).expect("a scene setting");
        setting_row(ui, s, scene);
    };
    section(ui, "Light", Some((randomize::LIGHT, locks)), true, |ui| {
        form(ui, "light", |ui| {
            let time = ui.label("Time of day");
            // Tight, to fit the narrowest panel; wrapping below that. The
            // other named times are on the hour's field.
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                ui.spacing_mut().button_padding.x = 3.0;
                for t in TimeOfDay::ALL {
                    ui.selectable_value(&mut scene.time, t, time_label(t));
                }
            })
            .response
            .labelled_by(time.id);
            ui.end_row();
            // Any hour between them (lit between the named times), showing
            // the name on a named one: on a row of its own, so that a long
            // name ("golden hour", "moonlight") never wraps onto the next.
            let hour_label = ui.label("Hour");
            ui.horizontal(|ui| {
                let mut hour = scene.time.hour();
                let field = ui
                    .add(
                        egui::DragValue::new(&mut hour)
                            .range(0.0..=TimeOfDay::LAST_HOUR)
                            .speed(0.05)
                            .custom_formatter(|h, _| {
                                let t = TimeOfDay::at(h as f32);
                                t.name().map_or_else(|| format!("{h:.1} h"), str::to_string)
                            })
                            .update_while_editing(false),
                    )
                    .accessible_name("Hour")
                    .on_hover_text(
                        "Any hour of the day (drag or type 0 to 24), lit between the named \
                         times: dawn 6, morning 8.5, noon 12, golden hour 17.2, dusk 18.3, \
                         blue hour 18.8, night 21, moonlight 0",
                    );
                if field.changed() {
                    scene.time = TimeOfDay::at((hour * 10.0).round() / 10.0);
                }
            })
            .response
            .labelled_by(hour_label.id);
            ui.end_row();
            row(ui, "sun_x", scene);
            row(ui, "horizon", scene);
            row(ui, "wind", scene);
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
                let before = scene.aspect;
                let field = ui
                    .add(
                        egui::DragValue::new(&mut scene.aspect)
                            .range(scene::MIN_ASPECT..=scene::MAX_ASPECT)
                            .speed(0.005)
                            .max_decimals(3)
                            .update_while_editing(false),
                    )
                    .accessible_name("Aspect ratio")
                    .on_hover_text("Width / height of the picture");
                escape_cancels(ui, &field, &mut scene.aspect, before);
                click_never_drags(ui, aspect.id, field.rect, &mut scene.aspect, before);
            });
            ui.end_row();
        });
    });
}

/// The camera: where the eye stands, what it looks through, whether the
/// ground's kinds share one ground, and the look it is drawn in (closed at first: most scenes are
/// seen by a person standing; New scene's vantage sets it).
fn camera_ui(ui: &mut Ui, scene: &mut Scene) {
    section(ui, "Camera", None, false, |ui| {
        form(ui, "camera", |ui| {
            for name in ["eye", "lens", "one_ground", "look"] {
                let s = setting::find(Scene::SETTINGS, name).expect("a scene setting");
                setting_row(ui, s, scene);
            }
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

/// The name of a named time of day on its button.
pub fn time_label(t: TimeOfDay) -> &'static str {
    match t {
        TimeOfDay::Noon => "Noon",
        TimeOfDay::GoldenHour => "Golden",
        TimeOfDay::Dusk => "Dusk",
        TimeOfDay::Night => "Night",
        TimeOfDay::Dawn => "Dawn",
        TimeOfDay::Morning => "Morning",
        TimeOfDay::BlueHour => "Blue",
        TimeOfDay::Moonlight => "Moon",
        TimeOfDay::Hour(_) => "Hour",
    }
}
