//! Contact sheets: many scenes as thumbnails on one picture, each with a
//! label under it (what it is: a seed, a roll, a setting's value) and its
//! share code, so a person can pick one and render it.
//!
//! The sheet's PNG carries every thumbnail's code in a compressed iTXt
//! chunk, keyword [`SHEET_KEY`], one line per thumbnail: the code, a tab,
//! its label. A sheet has no scene of its own (no `playa:scene` chunk):
//! reading it as a picture's recipe says it is a sheet
//! ([`crate::output::recipe`]), and [`read`] lists its codes.

use std::path::Path;

use image::{Rgba, RgbaImage};
use rayon::prelude::*;

use crate::base::font;
use crate::compose;
use crate::error::{Error, Result};
use crate::output::recipe;
use crate::scene::Scene;
use crate::share;

pub use crate::output::recipe::{SHEET_KEY, parse_entries};

/// Most thumbnails on one sheet.
pub const MAX_CELLS: usize = 1024;
/// Largest thumbnail side.
pub const MAX_THUMB_SIDE: u32 = 4096;
/// Default thumbnail size.
pub const DEFAULT_THUMB: (u32, u32) = (320, 180);
/// Default number of columns.
pub const DEFAULT_COLS: u32 = 4;

/// Room around the sheet and between thumbnails, at font scale 1.
const GAP: u32 = 12;
/// The sheet's background.
const BACKGROUND: [u8; 3] = [28, 28, 30];
/// A label's first line.
const LABEL_COLOR: [u8; 3] = [236, 236, 236];
/// A share code.
const CODE_COLOR: [u8; 3] = [150, 190, 250];

/// One thumbnail: a scene and what to call it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The scene.
    pub scene: Scene,
    /// Its label, e.g. `seed 7` or `rocks.roughness=0.25` (ASCII; other
    /// characters are drawn as `?`).
    pub label: String,
}

/// How a sheet is laid out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Thumbnails per row. Default: [`DEFAULT_COLS`].
    pub cols: u32,
    /// Each thumbnail's width and height. Default: [`DEFAULT_THUMB`].
    pub thumb: (u32, u32),
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            cols: DEFAULT_COLS,
            thumb: DEFAULT_THUMB,
        }
    }
}

/// The label lines of a cell under a thumbnail `chars` characters wide:
/// the label (cut with `...` if too long), then the code, wrapped.
fn lines(cell: &Cell, code: &str, chars: usize) -> Vec<(String, [u8; 3])> {
    let chars = chars.max(1);
    let label: String = if cell.label.chars().count() > chars {
        let keep = chars.saturating_sub(3);
        cell.label.chars().take(keep).chain("...".chars()).collect()
    } else {
        cell.label.clone()
    };
    let code: Vec<char> = code.chars().collect();
    std::iter::once((label, LABEL_COLOR))
        .chain(
            code.chunks(chars)
                .map(|c| (c.iter().collect::<String>(), CODE_COLOR)),
        )
        .collect()
}

impl Layout {
    /// The font's scale for the thumbnails' width: 1 up to 639 pixels, then
    /// one more per 640.
    fn scale(&self) -> u32 {
        1 + self.thumb.0 / 640
    }

    /// The size of a sheet of `cells` whose labels take `label_lines` lines.
    fn size(&self, cells: usize, label_lines: usize) -> (u64, u64) {
        let s = u64::from(self.scale());
        let gap = u64::from(GAP) * s;
        let cols = u64::from(self.cols).min(cells as u64).max(1);
        let rows = (cells as u64).div_ceil(cols).max(1);
        let (w, h) = (u64::from(self.thumb.0), u64::from(self.thumb.1));
        let strip = label_lines as u64 * u64::from(font::LINE_HEIGHT) * s + gap / 2;
        (gap + cols * (w + gap), gap + rows * (h + strip + gap))
    }
}

/// Renders the sheet: every cell's scene at the thumbnail size, in
/// parallel on the current rayon pool (the same bytes on any number of
/// threads), laid out `layout.cols` to a row in the order given, each with
/// its label and code under it.
pub fn render(cells: &[Cell], layout: &Layout) -> Result<RgbaImage> {
    check(cells.len(), layout)?;
    let scale = layout.scale();
    let (tw, th) = layout.thumb;
    let chars = font::chars_fitting(tw, scale);
    let codes: Vec<String> = cells.iter().map(|c| share::encode(&c.scene)).collect();
    let texts: Vec<_> = cells
        .iter()
        .zip(&codes)
        .map(|(c, code)| lines(c, code, chars))
        .collect();
    let label_lines = texts.iter().map(Vec::len).max().unwrap_or(1);
    let (w, h) = check_size("contact sheet", layout.size(cells.len(), label_lines))?;
    let thumbs = cells
        .par_iter()
        .map(|c| crate::render(&c.scene, tw, th))
        .collect::<Result<Vec<_>>>()?;
    let [r, g, b] = BACKGROUND;
    let mut sheet = RgbaImage::from_pixel(w, h, Rgba([r, g, b, 255]));
    let gap = GAP * scale;
    let line = font::LINE_HEIGHT * scale;
    let strip = label_lines as u32 * line + gap / 2;
    for (i, (thumb, text)) in thumbs.iter().zip(&texts).enumerate() {
        let (col, row) = (i as u32 % layout.cols, i as u32 / layout.cols);
        let x = gap + col * (tw + gap);
        let y = gap + row * (th + strip + gap);
        image::imageops::replace(&mut sheet, thumb, i64::from(x), i64::from(y));
        for (k, (text, color)) in text.iter().enumerate() {
            let ty = y + th + gap / 2 + k as u32 * line;
            font::draw(&mut sheet, x, ty, text, *color, scale);
        }
    }
    Ok(sheet)
}

/// The fewest lines a thumbnail's label takes: its own and at least one of
/// its code's.
const FEWEST_LABEL_LINES: usize = 2;

/// Refuses a sheet of `cells` thumbnails laid out so before any scene is
/// made: no cells or too many, no columns, a thumbnail of a size or an
/// aspect playa does not draw ([`compose::window::check_aspect`]), or a
/// sheet too large even with the shortest labels. [`render`] checks the
/// sheet's size again with the labels it has, before the first thumbnail.
pub fn check(cells: usize, layout: &Layout) -> Result<()> {
    if cells == 0 {
        return Err(Error::out_of_range(
            "contact sheet",
            "0 thumbnails",
            "needs at least one scene",
        ));
    }
    if cells > MAX_CELLS {
        return Err(Error::out_of_range(
            "contact sheet",
            format!("{cells} thumbnails"),
            format!("at most {MAX_CELLS}"),
        ));
    }
    if layout.cols == 0 {
        return Err(Error::out_of_range(
            "columns",
            0,
            "must be a whole number of 1 or more",
        ));
    }
    let (w, h) = layout.thumb;
    if w == 0 || h == 0 || w > MAX_THUMB_SIDE || h > MAX_THUMB_SIDE {
        return Err(Error::out_of_range(
            "thumbnail size",
            format!("{w}x{h}"),
            format!("each side from 1 to {MAX_THUMB_SIDE}"),
        ));
    }
    compose::window::check_aspect(w, h)
        .map_err(|e| Error::InvalidSize(format!("thumbnail {e}")))?;
    check_size(
        "contact sheet of at least",
        layout.size(cells, FEWEST_LABEL_LINES),
    )
    .map(drop)
}

/// The sheet's size `(w, h)` if playa can make a picture of it
/// ([`compose::check_size`]); `what` the message calls it.
fn check_size(what: &str, (w, h): (u64, u64)) -> Result<(u32, u32)> {
    let (w, h) = (
        u32::try_from(w).unwrap_or(u32::MAX),
        u32::try_from(h).unwrap_or(u32::MAX),
    );
    compose::check_size(w, h).map_err(|e| {
        Error::out_of_range(
            what,
            format!("{w}x{h}"),
            format!("{e}; use fewer or smaller thumbnails"),
        )
    })?;
    Ok((w, h))
}

/// The text of the sheet's [`SHEET_KEY`] chunk: a line per cell, its share
/// code, a tab, its label.
pub fn entries_text(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|c| format!("{}\t{}\n", share::encode(&c.scene), c.label))
        .collect()
}

/// Encodes a rendered sheet as a PNG with the cells' codes in its
/// [`SHEET_KEY`] chunk.
pub fn encode<W: std::io::Write>(out: W, sheet: &RgbaImage, cells: &[Cell]) -> Result<()> {
    let fail = |e: png::EncodingError| Error::Png {
        source_name: "PNG encoder".into(),
        reason: e.to_string(),
    };
    let (w, h) = sheet.dimensions();
    let mut encoder = png::Encoder::new(out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    encoder.set_compression(png::Compression::Balanced);
    let mut chunk = png::text_metadata::ITXtChunk::new(SHEET_KEY.to_string(), entries_text(cells));
    chunk.compress_text().map_err(fail)?;
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_text_chunk(&chunk).map_err(fail)?;
    let rgb: Vec<u8> = sheet
        .as_raw()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    writer.write_image_data(&rgb).map_err(fail)?;
    writer.finish().map_err(fail)
}

/// Renders the sheet and writes it to `path`, whole or not at all.
pub fn write_file(path: &Path, cells: &[Cell], layout: &Layout) -> Result<()> {
    let sheet = render(cells, layout)?;
    crate::output::picture::write_file(path, |out| encode(out, &sheet, cells))
}

/// The (code, label) of every thumbnail of the sheet at `path`; `None` if
/// the PNG is no sheet.
pub fn read(path: &Path) -> Result<Option<Vec<(String, String)>>> {
    let name = path.display().to_string();
    let file = crate::base::file::open_regular(path)?;
    let text = recipe::read_text(std::io::BufReader::new(file), &name, SHEET_KEY)?;
    Ok(text.map(|t| parse_entries(&t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(n: u64) -> Vec<Cell> {
        (0..n)
            .map(|i| Cell {
                scene: Scene {
                    seed: i,
                    ..Scene::default()
                },
                label: format!("seed {i}"),
            })
            .collect()
    }

    #[test]
    fn the_sheet_holds_each_thumbnail_at_its_place() {
        let cells = cells(3);
        let layout = Layout {
            cols: 2,
            thumb: (48, 27),
        };
        let sheet = render(&cells, &layout).unwrap();
        let gap = GAP;
        // Two columns; two rows of thumbnails and their labels.
        assert_eq!(sheet.width(), gap + 2 * (48 + gap));
        for (i, cell) in cells.iter().enumerate() {
            let thumb = crate::render(&cell.scene, 48, 27).unwrap();
            let (col, row) = (i as u32 % 2, i as u32 / 2);
            let x = gap + col * (48 + gap);
            let strip = (sheet.height() - gap) / 2 - 27 - gap;
            let y = gap + row * (27 + strip + gap);
            let view = image::imageops::crop_imm(&sheet, x, y, 48, 27).to_image();
            assert!(view == thumb, "thumbnail {i}");
        }
        // The empty fourth place is background.
        let x = gap + 48 + gap + 10;
        let y = sheet.height() - gap - 5;
        assert_eq!(sheet.get_pixel(x, y).0[..3], BACKGROUND);
    }

    #[test]
    fn the_same_bytes_on_any_number_of_threads() {
        let cells = cells(5);
        let layout = Layout {
            cols: 3,
            thumb: (64, 36),
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| render(&cells, &layout).unwrap());
        let four = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap()
            .install(|| render(&cells, &layout).unwrap());
        assert!(one == four);
    }

    #[test]
    fn labels_wrap_the_code_and_cut_the_label() {
        let cell = &cells(1)[0];
        let long = Cell {
            label: "x".repeat(40),
            ..cell.clone()
        };
        let got = lines(&long, "playa1-abcdefghij", 10);
        let texts: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["xxxxxxx...", "playa1-abc", "defghij"]);
    }

    #[test]
    fn the_codes_round_trip_through_the_png() {
        let cells = cells(3);
        let layout = Layout {
            cols: 4,
            thumb: (32, 18),
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sheet.png");
        write_file(&path, &cells, &layout).unwrap();
        let entries = read(&path).unwrap().unwrap();
        assert_eq!(entries.len(), 3);
        for ((code, label), cell) in entries.iter().zip(&cells) {
            assert_eq!(share::decode(code).unwrap(), cell.scene);
            assert_eq!(label, &cell.label);
        }
        let err = recipe::read_recipe(&path).unwrap_err().to_string();
        assert!(err.contains("contact sheet of 3 scenes"), "{err}");
    }

    #[test]
    fn bad_layouts_are_refused() {
        let one = cells(1);
        let layout = |cols, thumb| Layout { cols, thumb };
        assert!(render(&[], &Layout::default()).is_err());
        assert!(render(&one, &layout(0, (32, 18))).is_err());
        assert!(render(&one, &layout(1, (0, 18))).is_err());
        assert!(render(&one, &layout(1, (5000, 18))).is_err());
        let err = render(&cells(64), &layout(64, (4000, 2250)))
            .unwrap_err()
            .to_string();
        assert!(err.contains("contact sheet"), "{err}");
    }

    #[test]
    fn a_layout_is_checked_before_any_scene() {
        let layout = |cols, thumb| Layout { cols, thumb };
        assert!(check(MAX_CELLS, &layout(32, (32, 18))).is_ok());
        // An aspect render's --size refuses.
        let err = check(4, &layout(4, (1, 4096))).unwrap_err().to_string();
        assert!(err.contains("thumbnail 1×4096 is 1:4096"), "{err}");
        assert!(check(4, &layout(4, (8, 64))).is_ok());
        // Too tall with the shortest labels: 256 rows of default thumbnails.
        let err = check(MAX_CELLS, &Layout::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("contact sheet"), "{err}");
        // The shortest labels are the fewest a cell has.
        let cell = &cells(1)[0];
        assert_eq!(lines(cell, "c", 1).len(), FEWEST_LABEL_LINES);
    }
}
