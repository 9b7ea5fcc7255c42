//! The preset picker and the user's presets: the shipped presets and the
//! user's, each with a thumbnail; "Save as preset…", Rename and Delete.
//!
//! The user's presets live in a [`Store`] (natively a folder, see
//! [`crate::source::user_presets`]; in the browser the page's storage). The picker
//! reads it again each time it opens, so a preset saved by another playa
//! (or copied into the folder) shows up. Thumbnails are rendered on a
//! worker thread ([`Thumbnails`]), never while the picker is drawn.
//!
//! Names are checked as they are typed: a clash with a shipped preset, a
//! bad character or an existing preset is said in the window, in place.

use egui::{RichText, Ui};

use crate::app::AppState;
use crate::app::event::Event;
use crate::app::explore::thumbnails::Thumbnails;
use crate::scene::Scene;
use crate::scene::presets::PRESETS;
use crate::source::user_presets::{Store, UserPreset, check_name};

/// How large a thumbnail shows in the picker, in points.
const THUMB: egui::Vec2 = egui::vec2(64.0, 36.0);

/// A question the presets ask in a small window.
#[derive(Clone, Debug, PartialEq)]
enum Ask {
    /// "Save as preset…": the name and description being typed.
    Save {
        /// The name typed.
        name: String,
        /// The description typed.
        description: String,
        /// Why the last Save failed, if it did (a name's problems show as
        /// it is typed).
        error: Option<String>,
    },
    /// Renaming the preset `from`.
    Rename {
        /// The preset's name now.
        from: String,
        /// The new name typed.
        name: String,
        /// Why the last Rename failed, if it did.
        error: Option<String>,
    },
    /// Whether to delete a preset.
    Delete {
        /// The preset's name.
        name: String,
        /// Why the last Delete failed, if it did.
        error: Option<String>,
    },
}

/// A shipped preset as the picker shows it.
struct Shipped {
    name: &'static str,
    description: String,
    scene: Option<Scene>,
    code: String,
}

/// A user's preset as the picker shows it.
struct Yours {
    preset: UserPreset,
    code: String,
}

/// The picker's state: the user's presets as last read, their thumbnails
/// and the question being asked.
pub struct Presets {
    store: Store,
    shipped: Vec<Shipped>,
    yours: Vec<Yours>,
    /// Notes on files skipped in the store, or why it could not be read.
    notes: Vec<String>,
    thumbnails: Thumbnails,
    ask: Option<Ask>,
    /// Whether the Name field takes the keyboard in the next frame (a
    /// window just opened).
    focus_name: bool,
    /// Whether the picker was open in the last frame and in this one.
    was_open: bool,
    open_now: bool,
}

impl Presets {
    /// The picker over the user's presets in `store`.
    pub fn new(store: Store) -> Self {
        let shipped = PRESETS
            .iter()
            .map(|p| {
                let scene = p.scene().ok();
                Shipped {
                    name: p.name,
                    description: p.description(),
                    code: scene.as_ref().map(crate::share::encode).unwrap_or_default(),
                    scene,
                }
            })
            .collect();
        let mut presets = Presets {
            store,
            shipped,
            yours: Vec::new(),
            notes: Vec::new(),
            thumbnails: Thumbnails::new(),
            ask: None,
            focus_name: false,
            was_open: false,
            open_now: false,
        };
        presets.refresh();
        presets
    }

    /// The store of the user's presets.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The user's presets' names, as last read.
    pub fn names(&self) -> Vec<&str> {
        self.yours.iter().map(|y| y.preset.name.as_str()).collect()
    }

    /// The name of the preset, shipped or the user's (the shipped first),
    /// that is exactly `scene`, if one is: a scene pasted, linked or
    /// restored goes by it rather than as "pasted scene".
    pub fn preset_with(&self, scene: &Scene) -> Option<String> {
        self.preset_with_code(&crate::share::encode(scene))
    }

    /// [`Presets::preset_with`] for the scene whose share code is `code`
    /// (the code is exact: equal codes, equal quantized scenes).
    pub fn preset_with_code(&self, code: &str) -> Option<String> {
        let shipped = self.shipped.iter().find(|s| s.code == code);
        let yours = || self.yours.iter().find(|y| y.code == code);
        shipped
            .map(|s| s.name.to_string())
            .or_else(|| yours().map(|y| y.preset.name.clone()))
    }

    /// Whether a thumbnail of the scene whose share code is `code` is
    /// ready.
    pub fn has_thumbnail(&self, code: &str) -> bool {
        self.thumbnails.get(code).is_some()
    }

    /// Whether thumbnails are being rendered.
    pub fn rendering(&self) -> bool {
        self.thumbnails.rendering()
    }

    /// Reads the user's presets again.
    fn refresh(&mut self) {
        self.notes.clear();
        match self.store.list() {
            Ok(listing) => {
                self.yours = listing
                    .presets
                    .into_iter()
                    .map(|preset| Yours {
                        code: crate::share::encode(&preset.scene),
                        preset,
                    })
                    .collect();
                self.notes = listing
                    .skipped
                    .into_iter()
                    .map(|note| format!("skipped {note}"))
                    .collect();
            }
            Err(e) => {
                self.yours.clear();
                self.notes
                    .push(format!("your presets could not be read: {e}"));
            }
        }
    }

    /// Collects thumbnails; call once a frame, before the picker is drawn.
    pub fn begin_frame(&mut self, ctx: &egui::Context) {
        self.was_open = std::mem::take(&mut self.open_now);
        self.thumbnails.receive(ctx);
    }

    /// The picker's list, drawn inside its popup: the shipped presets, then
    /// the user's with Rename and Delete. Clicking a name or a thumbnail
    /// loads the preset.
    pub fn menu_ui(&mut self, ui: &mut Ui, state: &AppState, events: &mut Vec<Event>) {
        self.open_now = true;
        if !self.was_open {
            self.refresh();
        }
        let wanted = self
            .shipped
            .iter()
            .filter_map(|s| Some((s.code.clone(), s.scene.clone()?)))
            .chain(
                self.yours
                    .iter()
                    .map(|y| (y.code.clone(), y.preset.scene.clone())),
            );
        self.thumbnails.want(wanted.collect::<Vec<_>>());

        ui.set_min_width(320.0);
        ui.spacing_mut().item_spacing.y = 4.0;
        // Yours first, in sight above the long list of built-in ones.
        ui.weak("Yours")
            .on_hover_text(format!("Your presets are kept in {}", self.store.place()));
        if self.yours.is_empty() {
            ui.weak("None yet: \"Save as preset…\" keeps the scene here.");
        }
        let mut asked = None;
        let mut load = None;
        for (i, yours) in self.yours.iter().enumerate() {
            let name = &yours.preset.name;
            let selected = state.preset == *name;
            let (clicked, edit) = self.row(ui, name, &yours.code, selected, true);
            if clicked {
                load = Some(i);
            }
            asked = asked.or(edit);
        }
        if let Some(i) = load {
            let preset = &self.yours[i].preset;
            let from = format!("your preset {}", preset.name);
            events.push(Event::Load(Ok((
                preset.scene.clone(),
                from,
                preset.name.clone(),
            ))));
        }
        if asked.is_some() {
            self.focus_name = true;
            self.ask = asked;
        }
        for note in &self.notes {
            ui.colored_label(ui.visuals().warn_fg_color, format!("⚠ {note}"));
        }
        ui.separator();
        ui.weak("Built-in");
        for shipped in &self.shipped {
            let selected = state.preset == shipped.name;
            let (clicked, _) = self.row(ui, shipped.name, &shipped.code, selected, false);
            if clicked {
                events.push(Event::Load(
                    shipped
                        .scene
                        .clone()
                        .map(|scene| {
                            let from = format!("preset {}", shipped.name);
                            (scene, from, shipped.name.to_string())
                        })
                        .ok_or_else(|| format!("preset {} does not load", shipped.name)),
                ));
            }
        }
    }

    /// One preset's row: its thumbnail and name (and, for the user's,
    /// Rename and Delete). Returns whether it was clicked, and a question
    /// to ask.
    fn row(
        &self,
        ui: &mut Ui,
        name: &str,
        code: &str,
        selected: bool,
        yours: bool,
    ) -> (bool, Option<Ask>) {
        let description = if yours {
            self.yours
                .iter()
                .find(|y| y.preset.name == name)
                .map(|y| y.preset.description.clone())
                .unwrap_or_default()
        } else {
            self.shipped
                .iter()
                .find(|s| s.name == name)
                .map(|s| s.description.clone())
                .unwrap_or_default()
        };
        // The whole row picks the preset (its description, the room beside
        // a short name), and lights up under the pointer; the buttons in it
        // take their own clicks.
        let row = ui.scope_builder(
            egui::UiBuilder::new()
                .id_salt(("preset-row", yours, name))
                .sense(egui::Sense::click()),
            |ui| {
                let background = ui.painter().add(egui::Shape::Noop);
                let inner = self.row_contents(ui, name, code, selected, yours, &description);
                let response = ui.response();
                if response.contains_pointer() {
                    let fill = ui.visuals().widgets.hovered.weak_bg_fill;
                    let rect = ui.min_rect().expand(2.0);
                    ui.painter()
                        .set(background, egui::Shape::rect_filled(rect, 3.0, fill));
                }
                (inner, response.clicked())
            },
        );
        let ((clicked, ask), row_clicked) = row.inner;
        (clicked || row_clicked, ask)
    }

    /// A preset's row inside its clickable frame ([`Presets::row`]):
    /// as wide as the list, the thumbnail, the name (with Rename and
    /// Delete for `yours`) and the description.
    fn row_contents(
        &self,
        ui: &mut Ui,
        name: &str,
        code: &str,
        selected: bool,
        yours: bool,
        description: &str,
    ) -> (bool, Option<Ask>) {
        let mut clicked = false;
        let mut ask = None;
        ui.set_min_width(ui.available_width());
        ui.horizontal(|ui| {
            let thumb = match self.thumbnails.get(code) {
                Some(texture) => ui.add(
                    egui::Image::new(texture)
                        .fit_to_exact_size(THUMB)
                        .maintain_aspect_ratio(true)
                        .sense(egui::Sense::click())
                        .alt_text(format!("Thumbnail of {name}")),
                ),
                None => {
                    let (rect, response) = ui.allocate_exact_size(THUMB, egui::Sense::click());
                    ui.painter()
                        .rect_filled(rect, 2.0, ui.visuals().faint_bg_color);
                    // Still, not a spinner: a spinner repaints every frame,
                    // and the picture comes in a moment (with a repaint).
                    if self.thumbnails.pending(code) {
                        ui.painter().text(
                            rect.center(),
                            egui::Align2::CENTER_CENTER,
                            "…",
                            egui::FontId::proportional(14.0),
                            ui.visuals().weak_text_color(),
                        );
                    }
                    response
                }
            };
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    let mut item = ui.selectable_label(selected, name);
                    if !description.is_empty() {
                        item = item.on_hover_text(description);
                    }
                    clicked = item.clicked() || thumb.clicked();
                    if !yours {
                        return;
                    }
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        ui.spacing_mut().item_spacing.x = 2.0;
                        if ui
                            .small_button("🗑")
                            .accessible_name(format!("Delete {name}"))
                            .on_hover_text("Delete this preset (asks first)")
                            .clicked()
                        {
                            ask = Some(Ask::Delete {
                                name: name.to_string(),
                                error: None,
                            });
                        }
                        if ui
                            .small_button("✏")
                            .accessible_name(format!("Rename {name}"))
                            .on_hover_text("Rename this preset")
                            .clicked()
                        {
                            ask = Some(Ask::Rename {
                                from: name.to_string(),
                                name: name.to_string(),
                                error: None,
                            });
                        }
                    });
                });
                if !description.is_empty() {
                    ui.add(
                        egui::Label::new(RichText::new(description).weak().small())
                            .truncate()
                            .selectable(false),
                    );
                }
            });
        });
        (clicked, ask)
    }

    /// Opens "Save as preset…", the name proposed from where the scene
    /// came from when that can be a preset's name (a user's preset, a
    /// file), else empty.
    pub fn open_save(&mut self, state: &AppState) {
        let name = check_name(&state.preset).unwrap_or_default();
        let description = self
            .yours
            .iter()
            .find(|y| y.preset.name == name)
            .map(|y| y.preset.description.clone())
            .unwrap_or_default();
        self.ask = Some(Ask::Save {
            name,
            description,
            error: None,
        });
        self.focus_name = true;
    }

    /// Whether a window of the presets is open.
    pub fn asking(&self) -> bool {
        self.ask.is_some()
    }

    /// The window asking a question, when one is: "Save as preset",
    /// "Rename preset" or "Delete preset".
    pub fn windows_ui(
        &mut self,
        ctx: &egui::Context,
        state: &mut AppState,
        events: &mut Vec<Event>,
    ) {
        let Some(mut ask) = self.ask.take() else {
            return;
        };
        let mut done = false;
        let modal = egui::Modal::new(egui::Id::unique("preset-window")).show(ctx, |ui| {
            ui.set_width(380.0);
            done = match &mut ask {
                Ask::Save {
                    name,
                    description,
                    error,
                } => self.save_ui(ui, name, description, error, state, events),
                Ask::Rename { from, name, error } => {
                    self.rename_ui(ui, from, name, error, state, events)
                }
                Ask::Delete { name, error } => self.delete_ui(ui, name, error, events),
            };
        });
        if !done && !modal.should_close() {
            self.ask = Some(ask);
        }
    }

    /// What is wrong with `name` for a new preset, or a note that Save
    /// replaces one (`other`: a preset the name may keep, as a rename's
    /// own).
    fn name_problem(&self, name: &str, other: Option<&str>) -> (Option<String>, Option<String>) {
        let checked = match check_name(name) {
            Ok(checked) => checked,
            Err(e) => return (Some(said(&e)), None),
        };
        let lower = checked.to_lowercase();
        let existing = self
            .yours
            .iter()
            .map(|y| y.preset.name.as_str())
            .find(|n| n.to_lowercase() == lower && Some(*n) != other);
        (None, existing.map(str::to_string))
    }

    fn save_ui(
        &mut self,
        ui: &mut Ui,
        name: &mut String,
        description: &mut String,
        error: &mut Option<String>,
        state: &mut AppState,
        events: &mut Vec<Event>,
    ) -> bool {
        ui.heading("Save as preset");
        ui.add_space(4.0);
        let entered = name_field(ui, name, error, &mut self.focus_name);
        ui.horizontal(|ui| {
            text_field(ui, "Description", description, "what it shows (optional)");
        });
        let (problem, existing) = self.name_problem(name, None);
        // An empty name is not an error yet: Save waits for one.
        let blank = name.trim().is_empty();
        let shown = problem.clone().filter(|_| !blank).or_else(|| error.clone());
        if let Some(text) = &shown {
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {text}"));
        } else if let Some(existing) = &existing {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("You have a preset called {existing}: saving replaces it."),
            );
        } else {
            ui.weak(format!("Kept in {}", self.store.place()));
        }
        ui.add_space(4.0);
        let action = Action {
            label: if existing.is_some() {
                "Replace"
            } else {
                "Save"
            },
            ready: problem.is_none(),
            entered,
        };
        self.buttons(ui, action, error, events, |store| {
            let saved = store
                .save(name, &state.scene, description, existing.is_some())
                .map_err(|e| said(&e))?;
            state.preset = saved.name.clone();
            state.loaded = crate::share::encode(&state.scene);
            Ok(format!("Saved preset {} in {}", saved.name, store.place()))
        })
    }

    fn rename_ui(
        &mut self,
        ui: &mut Ui,
        from: &str,
        name: &mut String,
        error: &mut Option<String>,
        state: &mut AppState,
        events: &mut Vec<Event>,
    ) -> bool {
        ui.heading("Rename preset");
        ui.label(format!("Your preset {from}, renamed:"));
        ui.add_space(4.0);
        let entered = name_field(ui, name, error, &mut self.focus_name);
        let (mut problem, existing) = self.name_problem(name, Some(from));
        if let Some(existing) = existing {
            problem = Some(format!("you have a preset called {existing} already"));
        }
        let blank = name.trim().is_empty();
        if let Some(text) = problem.clone().filter(|_| !blank).or_else(|| error.clone()) {
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {text}"));
        }
        ui.add_space(4.0);
        let action = Action {
            label: "Rename",
            ready: problem.is_none(),
            entered,
        };
        self.buttons(ui, action, error, events, |store| {
            let to = store.rename(from, name).map_err(|e| said(&e))?;
            if state.preset == from {
                state.preset = to.clone();
            }
            Ok(format!("Renamed preset {from} to {to}"))
        })
    }

    fn delete_ui(
        &mut self,
        ui: &mut Ui,
        name: &str,
        error: &mut Option<String>,
        events: &mut Vec<Event>,
    ) -> bool {
        ui.heading("Delete preset");
        ui.label(format!(
            "Delete your preset {name}? It is removed from {}.",
            self.store.place()
        ));
        if let Some(text) = error.as_deref() {
            ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {text}"));
        }
        ui.add_space(4.0);
        let action = Action {
            label: "Delete",
            ready: true,
            entered: false,
        };
        self.buttons(ui, action, error, events, |store| {
            store.delete(name).map_err(|e| e.to_string())?;
            Ok(format!("Deleted preset {name}"))
        })
    }

    /// The window's buttons, `action` and Cancel; whether the window is
    /// done. The action runs `act` on the store, which says what it did
    /// (a message) or why it failed (shown in the window, in `error`).
    fn buttons(
        &mut self,
        ui: &mut Ui,
        action: Action,
        error: &mut Option<String>,
        events: &mut Vec<Event>,
        act: impl FnOnce(&mut Store) -> Result<String, String>,
    ) -> bool {
        let mut done = false;
        ui.horizontal(|ui| {
            let button = egui::Button::new(action.label).min_size(egui::vec2(80.0, 0.0));
            let pressed = ui.add_enabled(action.ready, button).clicked();
            if pressed || (action.entered && action.ready) {
                match act(&mut self.store) {
                    Ok(message) => {
                        events.push(Event::Message(message, false));
                        self.refresh();
                        done = true;
                    }
                    Err(e) => *error = Some(e),
                }
            }
            if ui.button("Cancel").clicked() {
                done = true;
            }
        });
        done
    }
}

/// A window's action button: its label, whether it may be pressed (the
/// name typed is fine), and whether Enter was pressed in the Name field,
/// which presses it too.
struct Action {
    label: &'static str,
    ready: bool,
    entered: bool,
}

/// The Name field, given the keyboard when `focus` says so (the window
/// just opened); whether Enter was pressed in it. Typing clears the last
/// failure.
fn name_field(
    ui: &mut Ui,
    name: &mut String,
    error: &mut Option<String>,
    focus: &mut bool,
) -> bool {
    let mut entered = false;
    ui.horizontal(|ui| {
        let field = text_field(ui, "Name", name, "e.g. evening dunes");
        if std::mem::take(focus) {
            field.request_focus();
        }
        if field.changed() {
            *error = None;
        }
        entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    });
    entered
}

/// A one-line text field filling the row, labelled `label`, showing
/// `hint` while empty.
fn text_field(ui: &mut Ui, label: &str, text: &mut String, hint: &str) -> egui::Response {
    let label = ui.label(label);
    let edit = egui::TextEdit::singleline(text).hint_text(hint);
    ui.add(edit.desired_width(f32::INFINITY))
        .labelled_by(label.id)
}

/// A problem as the window says it: a name's reason alone (the name is in
/// the field above), anything else (a file that cannot be written) whole.
fn said(e: &crate::Error) -> String {
    match e {
        crate::Error::UserPreset { reason, .. } => reason.clone(),
        other => other.to_string(),
    }
}
