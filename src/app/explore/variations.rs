//! The variations grid: a window of [`PAGE`] thumbnails around the scene,
//! to find a good one by looking rather than by sliders.
//!
//! The candidates are [`crate::explore::variations`]'s: the next seeds, Vary at a
//! strength, or New scene, a page at a time ("More", "Back"). A click on
//! a thumbnail makes it the scene (one undo step); the grid then shows the
//! candidates around it, so a person walks from picture to picture. Each
//! thumbnail has its share code to copy.
//!
//! The thumbnails are rendered in the background, in grid order, each on
//! all cores ([`variations::render_thumbnails`]), and each shows as soon
//! as it is ready. What the grid shows is keyed by the scene, the locks, the
//! mode and the page: when any of them changes the thumbnails on screen
//! are dropped, and the work for the old key stops (the newest request
//! wins, see [`crate::app::preview::worker`]). During an edit (a drag) nothing new is
//! rendered; the grid follows once the edit is over. In the browser there
//! are no threads: one thumbnail is rendered per frame, filling the grid
//! progressively.

use egui::{Color32, Rect, Sense, TextureHandle, TextureOptions, Ui, vec2};
use serde::{Deserialize, Serialize};
use web_time::Instant;

#[cfg(not(target_arch = "wasm32"))]
use crate::app::preview::worker::{Outbox, Worker};
use crate::explore::randomize::Locks;
use crate::explore::variations::{self, Mode, PAGE, THUMBNAIL};
use crate::scene::Scene;

/// Thumbnails in a row of the grid.
pub const COLUMNS: usize = 4;

/// The largest a thumbnail is drawn, in points: its rendered size, so a
/// big window does not blow it up blurred.
const MAX_CELL: f32 = THUMBNAIL[0] as f32;

/// Space between thumbnails, in points.
const GAP: f32 = 8.0;

/// Which candidates the grid shows (the strength of Vary is kept apart in
/// [`GridSettings`], so it survives a switch to another mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GridMode {
    /// The same scene with the next seeds.
    Seeds,
    /// The scene varied at [`GridSettings::strength`].
    #[default]
    Vary,
    /// New scenes, the locked groups kept.
    NewScene,
}

impl GridMode {
    /// Every mode, in the order of the mode selector.
    pub const ALL: [GridMode; 3] = [GridMode::Seeds, GridMode::Vary, GridMode::NewScene];

    /// The mode selector's label.
    pub fn label(self) -> &'static str {
        match self {
            GridMode::Seeds => "Seeds",
            GridMode::Vary => "Vary",
            GridMode::NewScene => "New scene",
        }
    }

    /// What the mode's candidates are, for its hover text.
    fn hint(self) -> &'static str {
        match self {
            GridMode::Seeds => "The same scene with the next seeds",
            GridMode::Vary => "Scenes near this one, as far as the strength says",
            GridMode::NewScene => "New looks; the locked groups (🔒) stay",
        }
    }
}

/// The grid's settings, kept between runs (in [`crate::app::AppState`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GridSettings {
    /// Whether the grid's window is open. Default: closed.
    pub open: bool,
    /// Which candidates it shows. Default: Vary.
    pub mode: GridMode,
    /// How far Vary goes from the scene, 0 to 1 (0: only the seed
    /// changes). Default: 0.3.
    pub strength: f32,
}

impl Default for GridSettings {
    fn default() -> Self {
        GridSettings {
            open: false,
            mode: GridMode::default(),
            strength: 0.3,
        }
    }
}

impl GridSettings {
    /// The candidates' [`Mode`], with the strength clamped to 0..1.
    pub fn mode(&self) -> Mode {
        match self.mode {
            GridMode::Seeds => Mode::Seeds,
            GridMode::Vary => Mode::Vary {
                strength: if self.strength.is_finite() {
                    self.strength.clamp(0.0, 1.0)
                } else {
                    0.0
                },
            },
            GridMode::NewScene => Mode::NewScene,
        }
    }
}

/// What the grid's candidates are made from: when it changes, the page
/// is made again.
#[derive(Clone, Debug, PartialEq)]
struct Key {
    scene: Scene,
    locks: Locks,
    mode: Mode,
    page: u32,
}

/// One thumbnail's place in the grid.
enum Cell {
    /// Not rendered yet.
    Waiting,
    /// On the GPU, with the fingerprint of its pixels
    /// ([`crate::app::preview::job::fingerprint`]).
    Shown(TextureHandle, u64),
    /// The candidate could not be rendered: why.
    Failed(String),
}

/// A page to render, sent to the worker.
#[cfg(not(target_arch = "wasm32"))]
struct PageJob {
    id: u64,
    scenes: Vec<Scene>,
}

/// A rendered thumbnail, sent back.
#[cfg(not(target_arch = "wasm32"))]
struct Thumb {
    id: u64,
    index: usize,
    image: Result<(egui::ColorImage, u64), String>,
}

/// The grid's page on screen and its background work.
pub struct Grid {
    #[cfg(not(target_arch = "wasm32"))]
    worker: Worker<PageJob, Thumb>,
    /// The page shown: 0 first.
    page: u32,
    /// What the candidates on screen were made from; `None`: nothing yet.
    key: Option<Key>,
    /// The number of the current page's request (thumbnails of another
    /// are stale).
    id: u64,
    /// Whether the current page has been asked for (not during an edit).
    requested: bool,
    candidates: Vec<Scene>,
    codes: Vec<String>,
    /// Each candidate's traits in a sentence, for its tooltip.
    traits: Vec<String>,
    cells: Vec<Cell>,
    /// When the current page was asked for, and how long until its last
    /// thumbnail was on screen (ms).
    sent: Option<Instant>,
    filled_ms: Option<f64>,
    /// Whether the app is in the narrow layout (a phone's): the header
    /// takes a row per part.
    pub(crate) narrow: bool,
}

impl Default for Grid {
    fn default() -> Self {
        Grid::new()
    }
}

/// What a person did in the grid that the app carries out.
#[derive(Debug, PartialEq)]
pub enum GridEvent {
    /// Make this candidate the scene: `(scene, its place in the grid, 1-based)`.
    Adopt(Scene, usize),
    /// A share code was copied: this one.
    Copied(String),
}

impl Grid {
    /// A grid showing nothing yet, with its worker started (natively).
    pub fn new() -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        let worker = Worker::spawn(
            "playa-variations",
            |job: PageJob, out: &Outbox<'_, PageJob, Thumb>| {
                variations::render_thumbnails(
                    &job.scenes,
                    THUMBNAIL,
                    || out.superseded(),
                    |index, picture| {
                        out.send(Thumb {
                            id: job.id,
                            index,
                            image: picture
                                .map(|p| {
                                    (
                                        to_color_image(&p),
                                        crate::app::preview::job::fingerprint(p.as_raw()),
                                    )
                                })
                                .map_err(|e| e.to_string()),
                        })
                    },
                );
            },
        );
        Grid {
            #[cfg(not(target_arch = "wasm32"))]
            worker,
            page: 0,
            key: None,
            id: 0,
            requested: false,
            candidates: Vec::new(),
            codes: Vec::new(),
            traits: Vec::new(),
            cells: Vec::new(),
            sent: None,
            filled_ms: None,
            narrow: false,
        }
    }

    /// The page shown (0 first).
    pub fn page(&self) -> u32 {
        self.page
    }

    /// The candidates of the page, in grid order (empty before the grid
    /// was first opened).
    pub fn candidates(&self) -> &[Scene] {
        &self.candidates
    }

    /// How many thumbnails of the page are on screen.
    pub fn shown(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c, Cell::Shown(..)))
            .count()
    }

    /// The fingerprint of each thumbnail's pixels on screen
    /// ([`crate::app::preview::job::fingerprint`]), in grid order; `None`: not shown.
    pub fn fingerprints(&self) -> Vec<Option<u64>> {
        self.cells
            .iter()
            .map(|c| match c {
                Cell::Shown(_, fingerprint) => Some(*fingerprint),
                _ => None,
            })
            .collect()
    }

    /// Whether every thumbnail of the page has arrived (rendered or
    /// failed) for the candidates around `scene`.
    pub fn is_filled(&self, scene: &Scene) -> bool {
        self.key.as_ref().is_some_and(|k| k.scene == *scene)
            && self.requested
            && self.cells.iter().all(|c| !matches!(c, Cell::Waiting))
    }

    /// Whether thumbnails of the page are still to come.
    pub fn in_flight(&self) -> bool {
        self.requested && self.cells.iter().any(|c| matches!(c, Cell::Waiting))
    }

    /// Time from the page's request to its last thumbnail on screen, in ms.
    pub fn filled_ms(&self) -> Option<f64> {
        self.filled_ms
    }

    /// Follows the scene: when the scene, the locks, the mode or the page
    /// changed, the thumbnails on screen are dropped and, unless `editing`,
    /// the new page is asked for. Does nothing while the grid is closed.
    pub fn update(
        &mut self,
        ctx: &egui::Context,
        settings: &GridSettings,
        scene: &Scene,
        locks: &Locks,
        editing: bool,
    ) {
        if !settings.open {
            return;
        }
        let mode = settings.mode();
        let same = |k: &Key| k.scene == *scene && k.locks == *locks && k.mode == mode;
        if let Some(key) = &self.key
            && !same(key)
        {
            // A new scene (or mode) starts from its first page.
            self.page = 0;
        }
        let key = Key {
            scene: scene.clone(),
            locks: locks.clone(),
            mode,
            page: self.page,
        };
        if self.key.as_ref() != Some(&key) {
            self.candidates = variations::page(scene, locks, mode, self.page);
            self.codes = self.candidates.iter().map(crate::share::encode).collect();
            self.traits = self
                .candidates
                .iter()
                .map(|s| crate::traits::Traits::of(s).sentence())
                .collect();
            self.cells = (0..PAGE).map(|_| Cell::Waiting).collect();
            self.key = Some(key);
            self.id += 1;
            self.requested = false;
            self.filled_ms = None;
        }
        if !self.requested && !editing {
            self.requested = true;
            self.sent = Some(Instant::now());
            #[cfg(not(target_arch = "wasm32"))]
            {
                self.worker.set_repaint(ctx);
                self.worker.request(PageJob {
                    id: self.id,
                    scenes: self.candidates.clone(),
                });
            }
            #[cfg(target_arch = "wasm32")]
            ctx.request_repaint();
        }
    }

    /// Puts the thumbnails that arrived on the GPU (in the browser:
    /// renders the next one first). Stale ones are dropped.
    pub fn receive(&mut self, ctx: &egui::Context) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.worker.set_repaint(ctx);
            let thumbs: Vec<Thumb> = self.worker.results().collect();
            for thumb in thumbs {
                if thumb.id == self.id {
                    self.put(ctx, thumb.index, thumb.image);
                }
            }
        }
        #[cfg(target_arch = "wasm32")]
        if self.requested {
            let next = self.cells.iter().position(|c| matches!(c, Cell::Waiting));
            if let Some(index) = next {
                let image = variations::thumbnail(&self.candidates[index], THUMBNAIL)
                    .map(|p| {
                        (
                            to_color_image(&p),
                            crate::app::preview::job::fingerprint(p.as_raw()),
                        )
                    })
                    .map_err(|e| e.to_string());
                self.put(ctx, index, image);
                ctx.request_repaint();
            }
        }
        if self.filled_ms.is_none()
            && self.requested
            && !self.cells.is_empty()
            && self.cells.iter().all(|c| !matches!(c, Cell::Waiting))
        {
            self.filled_ms = self.sent.map(|t| t.elapsed().as_secs_f64() * 1e3);
        }
    }

    fn put(
        &mut self,
        ctx: &egui::Context,
        index: usize,
        image: Result<(egui::ColorImage, u64), String>,
    ) {
        let Some(cell) = self.cells.get_mut(index) else {
            return;
        };
        *cell = match image {
            Ok((image, fingerprint)) => Cell::Shown(
                ctx.load_texture(format!("variation-{index}"), image, TextureOptions::LINEAR),
                fingerprint,
            ),
            Err(e) => Cell::Failed(e),
        };
    }

    /// Draws the grid's window over `area` (the preview's part of the
    /// screen) when it is open; what was clicked comes back.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        area: Rect,
        settings: &mut GridSettings,
    ) -> Vec<GridEvent> {
        let mut events = Vec::new();
        if !settings.open {
            return events;
        }
        let mut open = true;
        egui::Window::new("Variations")
            .id(egui::Id::unique("variations"))
            .open(&mut open)
            .default_rect(area.shrink(8.0))
            .resizable(true)
            .collapsible(true)
            // In a phone's window, as wide as it leaves room for.
            .min_size(vec2(360.0_f32.min(area.width() - 16.0).max(0.0), 240.0))
            .show(ctx, |ui| {
                self.header_ui(ui, settings);
                ui.add_space(4.0);
                self.cells_ui(ui, settings.mode, &mut events);
            });
        if !open {
            settings.open = false;
        }
        events
    }

    /// The mode selector, the strength, the page and its buttons.
    fn header_ui(&mut self, ui: &mut Ui, settings: &mut GridSettings) {
        // A window measuring its content wraps nothing: in a phone's
        // window, the modes, the strength and the page take a row each.
        let narrow = self.narrow;
        let break_row = |ui: &mut Ui| {
            if narrow {
                ui.end_row();
            } else {
                ui.separator();
            }
        };
        ui.horizontal_wrapped(|ui| {
            for mode in GridMode::ALL {
                ui.selectable_value(&mut settings.mode, mode, mode.label())
                    .on_hover_text(mode.hint());
            }
            break_row(ui);
            let label = ui.label("Strength");
            ui.add_enabled(
                settings.mode == GridMode::Vary,
                egui::Slider::new(&mut settings.strength, 0.0..=1.0)
                    .fixed_decimals(2)
                    .step_by(0.01),
            )
            .labelled_by(label.id)
            .on_hover_text("How far Vary goes: 0 changes only the seed, 1 as far as New scene");
            break_row(ui);
            if ui
                .add_enabled(self.page > 0, egui::Button::new("◀ Back"))
                .on_hover_text("The previous page")
                .clicked()
            {
                self.page -= 1;
            }
            ui.label(format!("Page {}", self.page + 1));
            if ui
                .button("More ▶")
                .on_hover_text("The next page of candidates")
                .clicked()
            {
                self.page = self.page.saturating_add(1);
            }
        });
    }

    /// The thumbnails, [`COLUMNS`] to a row, as large as the window allows
    /// (up to their rendered size), each with its label and copy button.
    fn cells_ui(&mut self, ui: &mut Ui, mode: GridMode, events: &mut Vec<GridEvent>) {
        let aspect = self
            .candidates
            .first()
            .map_or(16.0 / 9.0, |s| s.aspect)
            .clamp(0.25, 4.0);
        let label_h = ui.spacing().interact_size.y + 2.0;
        let rows = (self.cells.len().div_ceil(COLUMNS)).max(1) as f32;
        let columns = COLUMNS as f32;
        let room = ui.available_size();
        let by_width = (room.x - GAP * (columns - 1.0)) / columns;
        let by_height = ((room.y - GAP * (rows - 1.0)) / rows - label_h) * aspect;
        let width = by_width.min(by_height).clamp(64.0, MAX_CELL);
        let size = vec2(width, width / aspect);
        let status = match (self.shown(), self.filled_ms) {
            (_, Some(ms)) => format!("{PAGE} thumbnails in {ms:.0} ms"),
            (n, None) if self.requested => format!("{n} of {PAGE}…"),
            _ => String::new(),
        };
        egui::Grid::new("variation-cells")
            .spacing(vec2(GAP, GAP))
            .show(ui, |ui| {
                for index in 0..self.cells.len() {
                    ui.vertical(|ui| {
                        ui.spacing_mut().item_spacing.y = 2.0;
                        self.cell_ui(ui, index, size, mode, events);
                    });
                    if (index + 1) % COLUMNS == 0 {
                        ui.end_row();
                    }
                }
            });
        ui.label(egui::RichText::new(status).weak().small());
    }

    /// One thumbnail: click to adopt, hover for what it is, its label and
    /// copy button underneath, the same in its context menu.
    fn cell_ui(
        &self,
        ui: &mut Ui,
        index: usize,
        size: egui::Vec2,
        mode: GridMode,
        events: &mut Vec<GridEvent>,
    ) {
        let number = index + 1;
        let scene = &self.candidates[index];
        let code = &self.codes[index];
        let name = format!("Variation {number}");
        let (rect, response) = ui.allocate_exact_size(size, Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
        let painter = ui.painter_at(rect);
        let visuals = ui.visuals();
        painter.rect_filled(rect, 3.0, visuals.extreme_bg_color);
        match &self.cells[index] {
            Cell::Shown(texture, _) => {
                let uv = Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
                painter.image(texture.id(), rect, uv, Color32::WHITE);
            }
            Cell::Waiting => {
                if self.requested {
                    let spinner = Rect::from_center_size(rect.center(), vec2(20.0, 20.0));
                    egui::Spinner::new().paint_at(ui, spinner);
                }
            }
            Cell::Failed(_) => {
                painter.text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    "⚠",
                    egui::FontId::proportional(18.0),
                    visuals.error_fg_color,
                );
            }
        }
        if response.hovered() {
            painter.rect_stroke(
                rect,
                3.0,
                visuals.selection.stroke,
                egui::StrokeKind::Inside,
            );
        }
        let what = match mode {
            GridMode::Seeds => format!("seed {}", scene.seed),
            GridMode::Vary | GridMode::NewScene => format!("#{number}"),
        };
        let response = response.on_hover_ui(|ui| {
            ui.label(format!("{name}: seed {}", scene.seed));
            if let Some(traits) = self.traits.get(index) {
                ui.label(traits);
            }
            ui.label(egui::RichText::new(code).monospace().small());
            if let Cell::Failed(e) = &self.cells[index] {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            ui.label("Click to make it the scene (Ctrl+Z undoes)");
        });
        let mut copy = false;
        response.context_menu(|ui| {
            if ui.button("Use this scene").clicked() {
                events.push(GridEvent::Adopt(scene.clone(), number));
            }
            if ui.button("Copy share code").clicked() {
                copy = true;
            }
        });
        if response.clicked() {
            events.push(GridEvent::Adopt(scene.clone(), number));
        }
        ui.horizontal(|ui| {
            ui.set_width(size.x);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let button = ui
                    .add(
                        egui::Button::new("")
                            .small()
                            .min_size(egui::vec2(18.0, 16.0)),
                    )
                    .accessible_name(format!("Copy the code of variation {number}"))
                    .on_hover_text("Copy its share code");
                let color = ui.style().interact(&button).fg_stroke.color;
                crate::app::window::icons::paint_clipboard(ui, button.rect, color);
                if button.clicked() {
                    copy = true;
                }
                // Cut short in a cell too small for it (a phone's), rather
                // than widening the grid past the screen; the cell's hover
                // gives the seed whole.
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    ui.add(egui::Label::new(egui::RichText::new(what).small()).truncate());
                });
            });
        });
        if copy {
            ui.ctx().copy_text(code.clone());
            events.push(GridEvent::Copied(code.clone()));
        }
    }
}

/// The RGBA picture as an egui image.
fn to_color_image(img: &image::RgbaImage) -> egui::ColorImage {
    let size = [img.width() as usize, img.height() as usize];
    egui::ColorImage::from_rgba_unmultiplied(size, img.as_raw())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_default_missing_fields() {
        let settings = GridSettings {
            open: true,
            mode: GridMode::NewScene,
            strength: 0.75,
        };
        let text = ron::to_string(&settings).unwrap();
        assert_eq!(ron::from_str::<GridSettings>(&text).unwrap(), settings);
        let partial: GridSettings = ron::from_str("(open: true)").unwrap();
        assert_eq!(partial.strength, GridSettings::default().strength);
        assert_eq!(partial.mode, GridMode::Vary);
    }

    #[test]
    fn the_mode_carries_the_strength_clamped() {
        let mut s = GridSettings {
            strength: 1.5,
            ..GridSettings::default()
        };
        assert_eq!(s.mode(), Mode::Vary { strength: 1.0 });
        s.strength = f32::NAN;
        assert_eq!(s.mode(), Mode::Vary { strength: 0.0 });
        s.mode = GridMode::Seeds;
        assert_eq!(s.mode(), Mode::Seeds);
    }
}
