//! The side panel's building blocks: collapsible sections with locks,
//! two-column forms, and a form row for any [`Setting`], made from its
//! table entry (label, hover hint, range, slider scale). A layer's whole
//! form is [`layer_rows`]: adding a setting to a layer's table adds its row.
//!
//! A number typed into a row's box applies on Enter or when the box loses
//! focus, and Escape restores the value; dragging applies as it moves, and
//! a click that only opens the box for typing never changes the value
//! ([`click_never_drags`]).

use egui::{Response, RichText, Ui};

use crate::base::color::Rgb;
use crate::explore::randomize::Locks;
use crate::layers::{Kind, Layer, match_kind};
use crate::scene::cost::Affordable;
use crate::setting::limit::number_text;
use crate::setting::{Setting, Value, round_to};

/// The 🔒 button of a lock group (`what`: its name in hover texts).
pub fn lock_button(ui: &mut Ui, group: &str, locks: &mut Locks, what: &str) -> Response {
    let locked = locks.is_locked(group);
    let icon = if locked { "🔒" } else { "🔓" };
    let text = if locked {
        RichText::new(icon).color(ui.visuals().warn_fg_color)
    } else {
        RichText::new(icon).weak()
    };
    let mut response = ui
        .add(egui::Button::selectable(locked, text).frame_when_inactive(false))
        .accessible_name(format!("Lock {what}"))
        .on_hover_text(if locked {
            format!("{what}: locked, New scene and Vary leave it alone")
        } else {
            format!("{what}: New scene and Vary re-roll it; click to lock")
        });
    if response.clicked() {
        locks.set(group, !locked);
        response.mark_changed();
    }
    response
}

/// Keeps Escape in a number box a cancel: `before` is the value before
/// the box was drawn this frame. egui applies the text typed in a box when
/// it loses focus unless Escape is down that frame, but a box counts as
/// having just lost focus for two frames, and on the second one it applies
/// the cancelled text after all (egui 0.37). So the frame Escape closes the
/// box is noted, and what the box writes in the two frames after is undone.
pub fn escape_cancels<N: Copy>(ui: &Ui, response: &Response, value: &mut N, before: N) {
    let key = response.id.with("escaped");
    let pass = ui.ctx().cumulative_pass_nr();
    if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        ui.data_mut(|d| d.insert_temp(key, pass));
    } else if let Some(at) = ui.data(|d| d.get_temp::<u64>(key)) {
        if pass <= at + 2 {
            *value = before;
        } else {
            ui.data_mut(|d| d.remove::<u64>(key));
        }
    }
}

/// Where a press on a number box began, and the value before it.
#[derive(Clone, Copy)]
struct Press {
    before: f64,
    origin: egui::Pos2,
    /// Whether the pointer went further than a click may: a deliberate drag.
    deliberate: bool,
}

/// Keeps a click on a number box from changing its value. egui decides
/// between a click (which opens the box for typing) and a drag (which
/// changes the value) when the pointer has moved a few points or has been
/// held for 0.8 s, so a slow click with a twitch of the hand nudged the
/// value and never opened the box. Here a press in `area` (the box) that
/// ends within egui's click distance of where it began restores the value
/// it had before the press; a drag further than that keeps what it did.
/// `id` names the box across frames; `before` is the value before the box
/// was drawn this frame. Returns whether it restored the value.
pub fn click_never_drags<N: egui::emath::Numeric>(
    ui: &Ui,
    id: egui::Id,
    area: egui::Rect,
    value: &mut N,
    before: N,
) -> bool {
    let key = id.with("click_never_drags");
    let slop = ui.ctx().options(|o| o.input_options.max_click_dist);
    let (pressed, released, origin, pos) = ui.input(|i| {
        (
            i.pointer.primary_pressed(),
            i.pointer.primary_released(),
            i.pointer.press_origin(),
            i.pointer.latest_pos(),
        )
    });
    if pressed {
        match origin.filter(|o| area.contains(*o)) {
            Some(origin) => ui.data_mut(|d| {
                d.insert_temp(
                    key,
                    Press {
                        before: before.to_f64(),
                        origin,
                        deliberate: false,
                    },
                );
            }),
            None => ui.data_mut(|d| d.remove::<Press>(key)),
        }
        return false;
    }
    let Some(mut press) = ui.data(|d| d.get_temp::<Press>(key)) else {
        return false;
    };
    if pos.is_some_and(|p| p.distance(press.origin) > slop) {
        press.deliberate = true;
        ui.data_mut(|d| d.insert_temp(key, press));
    }
    if !released {
        return false;
    }
    ui.data_mut(|d| d.remove::<Press>(key));
    let restore = !press.deliberate && press.before != value.to_f64();
    if restore {
        *value = N::from_f64(press.before);
    }
    restore
}

/// The part of a slider's response that is its number box: right of
/// the slider's rail (`slider_width` wide).
pub fn number_box_area(ui: &Ui, response: &Response) -> egui::Rect {
    let rect = response.rect;
    rect.with_min_x((rect.left() + ui.spacing().slider_width).min(rect.right()))
}

/// A collapsible group with a title and, at its right, an optional lock.
pub fn section(
    ui: &mut Ui,
    title: &str,
    lock: Option<(&str, &mut Locks)>,
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
pub fn form(ui: &mut Ui, id: &str, rows: impl FnOnce(&mut Ui)) {
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

/// A form row for `setting` of `t`: a slider for numbers (logarithmic where
/// the table says so), a checkbox, or a colour button. `None` for the types
/// that need a widget of their own (time of day, rule, topology), which
/// their caller draws.
pub fn setting_row<T>(ui: &mut Ui, setting: &Setting<T>, t: &mut T) -> Option<Response> {
    match setting.value {
        Value::Uint { max, .. } => uint_row(ui, setting, t, max),
        _ => row(ui, setting, t),
    }
}

/// Like [`setting_row`] for a whole number, its slider ending at `max`
/// (below the setting's own maximum when another setting caps it).
pub fn uint_row<T>(ui: &mut Ui, setting: &Setting<T>, t: &mut T, max: u32) -> Option<Response> {
    uint_row_hinted(ui, setting, t, max, None)
}

/// [`uint_row`] with `hint` as its hover text instead of the setting's.
fn uint_row_hinted<T>(
    ui: &mut Ui,
    setting: &Setting<T>,
    t: &mut T,
    max: u32,
    hint: Option<&str>,
) -> Option<Response> {
    let Value::Uint {
        get, put, min, log, ..
    } = setting.value
    else {
        return row(ui, setting, t);
    };
    let before = get(t);
    let (r, v) = slider_row(ui, setting, before, min..=max.max(min), log, hint, |s| {
        s.smallest_positive(1.0)
    });
    if r.changed() && v != before {
        put(t, v);
    }
    ui.end_row();
    Some(r)
}

/// The label and slider of a number `setting` now at `before`, within
/// `range` (logarithmic when `log`; `style` sets the rest), its hover
/// text `hint` or else the setting's. The value a
/// typed number applies only on Enter or when the box loses focus, and
/// Escape restores `before`. Returns the slider's response and its value.
fn slider_row<T, N: egui::emath::Numeric>(
    ui: &mut Ui,
    setting: &Setting<T>,
    before: N,
    range: std::ops::RangeInclusive<N>,
    log: bool,
    hint: Option<&str>,
    style: impl FnOnce(egui::Slider<'_>) -> egui::Slider<'_>,
) -> (Response, N) {
    let label = ui.label(setting.label);
    let mut v = before;
    let slider = style(
        egui::Slider::new(&mut v, range)
            .logarithmic(log)
            .clamping(egui::SliderClamping::Edits)
            .update_while_editing(false),
    );
    let mut r = ui
        .add(slider)
        .labelled_by(label.id)
        .on_hover_text(hint.unwrap_or(setting.hint));
    escape_cancels(ui, &r, &mut v, before);
    if click_never_drags(ui, label.id, number_box_area(ui, &r), &mut v, before) {
        // Back to the value before the press, which the frames of the
        // press had already applied.
        r.mark_changed();
    }
    (r, v)
}

/// Like [`setting_row`] for a fractional number whose slider travels
/// `soft` only (the part of the setting's range worth sliding through),
/// with `hint` as its hover text. As in Blender, a number typed into the
/// box may go anywhere in the setting's own range, and a value outside
/// `soft` (from an older scene) is shown as it is, never moved.
pub fn float_row<T>(
    ui: &mut Ui,
    setting: &Setting<T>,
    t: &mut T,
    soft: std::ops::RangeInclusive<f32>,
    hint: &str,
) -> Option<Response> {
    let Value::Float {
        get,
        put,
        min,
        max,
        per_unit,
        ..
    } = setting.value
    else {
        return row(ui, setting, t);
    };
    let before = get(t);
    let (r, v) = slider_row(ui, setting, before, soft, false, Some(hint), |s| {
        s.max_decimals(3).clamping(egui::SliderClamping::Never)
    });
    if r.changed() && v != before {
        put(t, round_to(v.clamp(min, max), per_unit));
    }
    ui.end_row();
    Some(r)
}

fn row<T>(ui: &mut Ui, setting: &Setting<T>, t: &mut T) -> Option<Response> {
    row_within(ui, setting, t, None)
}

/// [`row`], its slider within `within` (the values the scene's cost
/// allows, [`Affordable`]) when given.
fn row_within<T>(
    ui: &mut Ui,
    setting: &Setting<T>,
    t: &mut T,
    within: Option<&Affordable>,
) -> Option<Response> {
    let hint = within.map(affordable_hint);
    let r = match setting.value {
        Value::Float {
            get,
            put,
            min,
            max,
            per_unit,
            log,
            ..
        } => {
            let before = get(t);
            let range = match within {
                Some(a) => (a.min as f32).max(min)..=(a.max as f32).min(max),
                None => min..=max,
            };
            let (r, v) = slider_row(ui, setting, before, range, log, hint.as_deref(), |s| {
                s.max_decimals(if log { 4 } else { 3 })
            });
            // The slider shows a rounded value (1/15 as 0.067): clamping
            // only edits keeps it from writing that back when merely shown,
            // and a change by hand lands on the setting's own grid.
            if r.changed() && v != before {
                put(t, round_to(v, per_unit));
            }
            r
        }
        Value::Bool { get, put } => {
            let label = ui.label(setting.label);
            let mut v = get(t);
            let r = ui
                .checkbox(&mut v, "")
                .labelled_by(label.id)
                .on_hover_text(setting.hint);
            if r.changed() {
                put(t, v);
            }
            r
        }
        Value::Rgb { get, put, .. } => {
            let label = ui.label(setting.label);
            let Rgb(r, g, b) = get(t);
            let mut rgb = [r, g, b];
            let r = ui
                .color_edit_button_srgb(&mut rgb)
                .labelled_by(label.id)
                .on_hover_text(setting.hint);
            if r.changed() {
                put(t, Rgb(rgb[0], rgb[1], rgb[2]));
            }
            r
        }
        Value::Uint { max, .. } => {
            let max = within.map_or(max, |a| (a.max as u32).min(max));
            return uint_row_hinted(ui, setting, t, max, hint.as_deref());
        }
        Value::Time { .. } | Value::Rule { .. } | Value::Topology { .. } => return None,
    };
    ui.end_row();
    Some(r)
}

/// Every row of a layer's form: its whole table but `visible` (the
/// checkbox in the layer's header).
/// The sliders of the settings in `affordable` end where the scene's cost
/// would pass its limit ([`crate::scene::Scene::affordable`]).
pub fn layer_rows(ui: &mut Ui, layer: &mut Layer, affordable: &[Affordable]) {
    fn rows<K: Kind>(ui: &mut Ui, l: &mut K, affordable: &[Affordable]) {
        for setting in K::SETTINGS.iter().filter(|s| s.name != "visible") {
            match affordable.iter().find(|a| a.name == setting.name) {
                Some(a) => row_within(ui, setting, l, Some(a)),
                None => setting_row(ui, setting, l),
            };
        }
    }
    match_kind!(layer, l => rows(ui, l, affordable))
}

/// The hover text of a slider that the scene's cost cuts short.
fn affordable_hint(a: &Affordable) -> String {
    format!(
        "From {} to {} here: past that the scene would take more than {}× as long as \
         death-valley to draw (lower a costlier setting or layer to go further)",
        number_text(a.min),
        number_text(a.max),
        crate::scene::cost::LIMIT
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drawing a form, untouched, never changes what it shows (a slider
    /// that rounded or clamped on display would make a phantom undo step).
    #[test]
    fn showing_a_form_changes_nothing() {
        let ctx = egui::Context::default();
        let mut presets: Vec<crate::Scene> = crate::scene::presets::PRESETS
            .iter()
            .map(|p| p.scene().unwrap())
            .collect();
        presets.push(crate::Scene::default());
        for scene in presets {
            let mut shown = scene.clone();
            for _ in 0..2 {
                // No painter here: the font atlas's upload is dropped.
                ctx.run_ui(egui::RawInput::default(), |ui| {
                    form(ui, "scene", |ui| {
                        for s in crate::Scene::SETTINGS {
                            setting_row(ui, s, &mut shown);
                        }
                        for layer in &mut shown.layers {
                            layer_rows(ui, layer, &[]);
                        }
                    });
                })
                .textures_delta
                .clear();
            }
            for (a, b) in shown.layers.iter().zip(&scene.layers) {
                assert_eq!(a, b);
            }
            assert_eq!(shown, scene);
        }
    }
}
