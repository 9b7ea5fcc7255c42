//! `playa render --list`: the shipped presets and the user's, a line
//! each, wrapped to the terminal.

use std::path::Path;

use crate::cli::CliError;
use playa::scene::presets;

/// The lines of `--list`: each preset's name and its whole description,
/// wrapped at spaces to `width` columns when there is a width (a terminal),
/// continued under the description's first column.
pub(super) fn preset_list(width: Option<usize>) -> String {
    let mut out = String::new();
    for preset in presets::PRESETS {
        push_entry(&mut out, preset.name, &preset.description(), width);
    }
    out
}

/// The lines of `--list` after the shipped presets: where the user's are
/// kept, then each as [`preset_list`] lists them. Files there that are no
/// presets are named on stderr, one line each.
pub(super) fn user_preset_list(width: Option<usize>) -> Result<String, CliError> {
    let Some(folder) = playa::source::user_presets::default_folder() else {
        return Ok(format!(
            "\nYours: none (no home folder to keep them in; set {})\n",
            playa::source::user_presets::CONFIG_DIR_VAR
        ));
    };
    let listing = playa::source::user_presets::Store::in_folder(&folder).list()?;
    for note in &listing.skipped {
        errln!("playa: skipped {note}");
    }
    Ok(user_entries(&folder, &listing.presets, width))
}

/// The user's presets in `folder` as `--list` shows them.
pub(super) fn user_entries(
    folder: &Path,
    presets: &[playa::source::user_presets::UserPreset],
    width: Option<usize>,
) -> String {
    let folder = folder.display();
    if presets.is_empty() {
        return format!(
            "\nYours, in {folder}: none yet (the app's \"Save as preset…\" keeps a scene there)\n"
        );
    }
    let mut out = format!("\nYours, in {folder}:\n");
    for preset in presets {
        push_entry(&mut out, &preset.name, &preset.description, width);
    }
    out
}

/// Appends a preset's line to `out`: its name, then its description
/// wrapped at spaces to `width` columns when there is a width.
pub(super) fn push_entry(out: &mut String, name: &str, description: &str, width: Option<usize>) {
    let mut line = format!("{name:<20}");
    for (i, word) in description.split_whitespace().enumerate() {
        let columns = line.chars().count() + 1 + word.chars().count();
        if i > 0 && width.is_some_and(|w| columns > w) {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(20);
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
}
