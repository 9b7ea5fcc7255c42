//! Deep Zoom pyramids: a picture too big for one screen as tiles a browser
//! pans and zooms (OpenSeadragon, vendored in `assets/openseadragon/`).
//!
//! A pyramid of a `W × H` picture has levels `0..=L`, `L = ⌈log2 max(W, H)⌉`:
//! level `L` is the picture, each level below it half the one above
//! (rounded up), down to 1 × 1 at level 0. Each level is cut into tiles of
//! [`TILE_SIZE`] pixels with [`OVERLAP`] pixel of overlap on each inner
//! edge, written as `{name}_files/{level}/{column}_{row}.{jpeg|png}` beside
//! a `{name}.dzi` descriptor. A level is halved as libvips' `dzsave` does
//! (tested against it where `vips` is installed): an odd last column or row
//! is repeated, and each pixel is the rounded mean of a 2 × 2 block of
//! sRGB values.
//!
//! The picture is drawn in strips, as a streamed PNG is, and its rows flow
//! through the levels: each level keeps only the rows of its current row of
//! tiles (`TILE_SIZE + 2` rows), so memory is bounded by about
//! `2 × 256 × W × 3` bytes whatever the height.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use rayon::prelude::*;

use crate::compose::Composer;
use crate::encoder::STRIP_ROWS;
use crate::error::{Error, Result, quote};
use crate::scene::Scene;

/// Pixels of a tile's side, without its overlap.
pub const TILE_SIZE: u32 = 254;
/// Pixels each tile overlaps its neighbours by.
pub const OVERLAP: u32 = 1;
/// JPEG tiles' quality (0–100).
pub const JPEG_QUALITY: u8 = 85;

/// The tiles' image format. Default: [`TileFormat::Jpeg`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TileFormat {
    /// JPEG at [`JPEG_QUALITY`]: small tiles, lossy.
    #[default]
    Jpeg,
    /// PNG (fast compression): exact pixels.
    Png,
}

impl TileFormat {
    /// The format's name, also the tiles' file extension.
    pub fn name(self) -> &'static str {
        match self {
            TileFormat::Jpeg => "jpeg",
            TileFormat::Png => "png",
        }
    }
}

impl FromStr for TileFormat {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "jpeg" | "jpg" => Ok(TileFormat::Jpeg),
            "png" => Ok(TileFormat::Png),
            _ => Err(format!("tile format {} must be jpeg or png", quote(s))),
        }
    }
}

/// What [`write_pyramid`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pyramid {
    /// Number of levels (the picture's is the last).
    pub levels: u32,
    /// Number of tiles, all levels together.
    pub tiles: u64,
}

/// Number of levels of a pyramid of a `width × height` picture.
pub fn level_count(width: u32, height: u32) -> u32 {
    let side = width.max(height).max(1);
    // ⌈log2 side⌉ + 1
    (u32::BITS - (side - 1).leading_zeros()) + 1
}

/// The `.dzi` descriptor of a pyramid.
pub fn descriptor(width: u32, height: u32, format: TileFormat) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <Image xmlns=\"http://schemas.microsoft.com/deepzoom/2008\" Format=\"{}\" \
         Overlap=\"{OVERLAP}\" TileSize=\"{TILE_SIZE}\">\n  \
         <Size Width=\"{width}\" Height=\"{height}\"/>\n</Image>\n",
        format.name()
    )
}

/// Renders `scene` at `width × height` (up to the streamed limits, see
/// [`crate::compose::check_streamed_size`]) as a Deep Zoom pyramid in
/// `dir`: `{name}.dzi`, `{name}_files/` and an `index.html` viewer with
/// OpenSeadragon in `dir/openseadragon/`. The tiles are written into a
/// hidden folder renamed into place when whole, then the descriptor, so a
/// failure leaves no partial pyramid; one already there is replaced.
pub fn write_pyramid(
    dir: &Path,
    name: &str,
    scene: &Scene,
    width: u32,
    height: u32,
    format: TileFormat,
) -> Result<Pyramid> {
    let composer = Composer::streamed(scene, width, height)?;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let partial = dir.join(format!(".{name}_files.{}.partial", std::process::id()));
    let files = dir.join(format!("{name}_files"));
    let result = (|| {
        let mut tiler = Tiler::new(&partial, width, height, format)?;
        let window = crate::picture::window_strips(width, 8, 3);
        let strip_bytes = width as usize * 4 * STRIP_ROWS as usize;
        let count = height.div_ceil(STRIP_ROWS) as usize;
        let mut rgb = vec![0u8; width as usize * 3];
        for start in (0..count).step_by(window) {
            let strips: Vec<Vec<u8>> = (start..(start + window).min(count))
                .into_par_iter()
                .map_init(
                    || composer.scratch(),
                    |scratch, i| {
                        let y0 = i as u32 * STRIP_ROWS;
                        let rows = STRIP_ROWS.min(height - y0) as usize;
                        let mut rgba = vec![0u8; rows * strip_bytes / STRIP_ROWS as usize];
                        composer.render_rows(y0, &mut rgba, scratch);
                        rgba
                    },
                )
                .collect();
            for strip in strips {
                for row in strip.chunks_exact(width as usize * 4) {
                    for (o, p) in rgb.chunks_exact_mut(3).zip(row.chunks_exact(4)) {
                        o.copy_from_slice(&p[..3]);
                    }
                    tiler.push_row(&rgb)?;
                }
            }
        }
        tiler.finish()
    })();
    let pyramid = match result {
        Ok(p) => p,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&partial);
            return Err(e);
        }
    };
    if files.exists() {
        std::fs::remove_dir_all(&files).map_err(|e| Error::io(&files, e))?;
    }
    std::fs::rename(&partial, &files).map_err(|e| Error::io(&files, e))?;
    let dzi = dir.join(format!("{name}.dzi"));
    crate::atomic::write_atomically(&dzi, descriptor(width, height, format).as_bytes())?;
    write_viewer(dir, name, width, height, format)?;
    Ok(pyramid)
}

/// OpenSeadragon's files (from its npm package, BSD-3-Clause licence):
/// the script, the navigation buttons the viewer shows, and the licence.
const VIEWER_FILES: &[(&str, &[u8])] = {
    macro_rules! files {
        ($($path:literal),* $(,)?) => {
            &[$(($path, include_bytes!(concat!("../assets/", $path)))),*]
        };
    }
    files!(
        "openseadragon/openseadragon.min.js",
        "openseadragon/LICENSE.txt",
        "openseadragon/images/home_rest.png",
        "openseadragon/images/home_grouphover.png",
        "openseadragon/images/home_hover.png",
        "openseadragon/images/home_pressed.png",
        "openseadragon/images/zoomin_rest.png",
        "openseadragon/images/zoomin_grouphover.png",
        "openseadragon/images/zoomin_hover.png",
        "openseadragon/images/zoomin_pressed.png",
        "openseadragon/images/zoomout_rest.png",
        "openseadragon/images/zoomout_grouphover.png",
        "openseadragon/images/zoomout_hover.png",
        "openseadragon/images/zoomout_pressed.png",
        "openseadragon/images/fullpage_rest.png",
        "openseadragon/images/fullpage_grouphover.png",
        "openseadragon/images/fullpage_hover.png",
        "openseadragon/images/fullpage_pressed.png",
    )
};

/// The page that shows the pyramid `name`: the tile source is inline (not
/// fetched from the `.dzi`), so the page works from `file://` as well as
/// from a web server.
pub fn viewer_html(name: &str, width: u32, height: u32, format: TileFormat) -> String {
    let source = serde_json::json!({
        "Image": {
            "xmlns": "http://schemas.microsoft.com/deepzoom/2008",
            "Url": format!("{name}_files/"),
            "Format": format.name(),
            "Overlap": OVERLAP.to_string(),
            "TileSize": TILE_SIZE.to_string(),
            "Size": { "Width": width.to_string(), "Height": height.to_string() },
        }
    });
    let title = html_escape(name);
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — playa</title>
<style>
  html, body {{ margin: 0; height: 100%; background: #111; color: #ddd; font: 14px sans-serif; }}
  #viewer {{ position: absolute; inset: 0; }}
  #caption {{ position: absolute; right: 8px; bottom: 6px; opacity: 0.7; }}
</style>
</head>
<body>
<div id="viewer"></div>
<div id="caption">{title} · {width} × {height} px · playa</div>
<script src="openseadragon/openseadragon.min.js"></script>
<script>
  OpenSeadragon({{
    id: "viewer",
    prefixUrl: "openseadragon/images/",
    tileSources: {source},
    showNavigator: true,
    maxZoomPixelRatio: 4,
    visibilityRatio: 0.5
  }});
</script>
</body>
</html>
"#
    )
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Writes `index.html` for the pyramid `name` and OpenSeadragon's files
/// into `dir`.
fn write_viewer(dir: &Path, name: &str, width: u32, height: u32, format: TileFormat) -> Result<()> {
    for (path, bytes) in VIEWER_FILES {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        crate::atomic::write_atomically(&path, bytes)?;
    }
    crate::atomic::write_atomically(
        &dir.join("index.html"),
        viewer_html(name, width, height, format).as_bytes(),
    )
}

/// One level of the pyramid being cut: the rows of its current row of
/// tiles, and the even row waiting for its pair to make the level below.
struct Level {
    /// The level's number (0: 1 × 1).
    number: u32,
    width: u32,
    height: u32,
    /// RGB rows `first ..` (`rows × width × 3` bytes).
    held: Vec<u8>,
    first: u32,
    /// Rows received so far.
    received: u32,
    /// The next row of tiles to write.
    tile_row: u32,
    /// An even row waiting for the odd one under it.
    pending: Option<Vec<u8>>,
}

/// Cuts a picture, pushed row by row, into a Deep Zoom pyramid in a
/// folder (the layout of `{name}_files/`).
pub struct Tiler {
    files: PathBuf,
    format: TileFormat,
    /// Levels from the picture's (first) down to 1 × 1.
    levels: Vec<Level>,
    tiles: u64,
}

impl Tiler {
    /// A tiler writing a `width × height` picture's tiles into `files`
    /// (created, with a folder per level).
    pub fn new(files: &Path, width: u32, height: u32, format: TileFormat) -> Result<Tiler> {
        let count = level_count(width, height);
        let mut levels = Vec::with_capacity(count as usize);
        let (mut w, mut h) = (width, height);
        for number in (0..count).rev() {
            let path = files.join(number.to_string());
            std::fs::create_dir_all(&path).map_err(|e| Error::io(&path, e))?;
            levels.push(Level {
                number,
                width: w,
                height: h,
                held: Vec::new(),
                first: 0,
                received: 0,
                tile_row: 0,
                pending: None,
            });
            (w, h) = (w.div_ceil(2), h.div_ceil(2));
        }
        Ok(Tiler {
            files: files.to_path_buf(),
            format,
            levels,
            tiles: 0,
        })
    }

    /// Takes the picture's next row (RGB, `width × 3` bytes): writes every
    /// row of tiles, on every level, that it completes.
    pub fn push_row(&mut self, rgb: &[u8]) -> Result<()> {
        let mut row = rgb.to_vec();
        for index in 0..self.levels.len() {
            let level = &mut self.levels[index];
            assert_eq!(row.len(), level.width as usize * 3, "a whole row");
            assert!(level.received < level.height, "no rows past the last");
            let y = level.received;
            level.held.extend_from_slice(&row);
            level.received += 1;
            // The level below: rows 2k and 2k+1 make its row k; an odd last
            // row is paired with itself.
            let below = if y.is_multiple_of(2) && y + 1 < level.height {
                level.pending = Some(std::mem::take(&mut row));
                None
            } else {
                let upper = level.pending.take();
                Some(halve(upper.as_deref().unwrap_or(&row), &row, level.width))
            };
            self.write_ready(index)?;
            match below {
                Some(next) if index + 1 < self.levels.len() => row = next,
                _ => break,
            }
        }
        Ok(())
    }

    /// Writes level `index`'s rows of tiles whose rows have all arrived,
    /// and lets go of the rows no later tile needs.
    fn write_ready(&mut self, index: usize) -> Result<()> {
        loop {
            let level = &self.levels[index];
            let t = level.tile_row;
            if t >= level.height.div_ceil(TILE_SIZE) {
                return Ok(());
            }
            let y0 = (t * TILE_SIZE).saturating_sub(OVERLAP);
            let y1 = ((t + 1) * TILE_SIZE + OVERLAP).min(level.height);
            if level.received < y1 {
                return Ok(());
            }
            self.tiles += write_tile_row(&self.files, self.format, level, t, y0, y1)?;
            let level = &mut self.levels[index];
            level.tile_row += 1;
            let keep_from = ((t + 1) * TILE_SIZE - OVERLAP).min(level.received);
            let drop = (keep_from - level.first) as usize * level.width as usize * 3;
            level.held.drain(..drop);
            level.first = keep_from;
        }
    }

    /// Checks that every row arrived and returns what was written.
    pub fn finish(self) -> Result<Pyramid> {
        for level in &self.levels {
            if level.received != level.height {
                return Err(Error::out_of_range(
                    "rows given to the tiler",
                    level.received,
                    format!("level {} needs {}", level.number, level.height),
                ));
            }
        }
        Ok(Pyramid {
            levels: self.levels.len() as u32,
            tiles: self.tiles,
        })
    }
}

/// Row `k` of the level below from rows `2k` and `2k + 1` (`a`, `b`) of a
/// level `width` pixels wide: rounded means of 2 × 2 blocks, the last
/// column repeated when `width` is odd.
fn halve(a: &[u8], b: &[u8], width: u32) -> Vec<u8> {
    let w = width as usize;
    let half = w.div_ceil(2);
    let mut out = vec![0u8; half * 3];
    for (x, o) in out.chunks_exact_mut(3).enumerate() {
        let (l, r) = (2 * x * 3, (2 * x + 1).min(w - 1) * 3);
        for c in 0..3 {
            let sum = u32::from(a[l + c])
                + u32::from(a[r + c])
                + u32::from(b[l + c])
                + u32::from(b[r + c]);
            o[c] = ((sum + 2) >> 2) as u8;
        }
    }
    out
}

/// Writes tile row `t` (rows `y0..y1`) of `level`, its tiles encoded in
/// parallel; returns how many.
fn write_tile_row(
    files: &Path,
    format: TileFormat,
    level: &Level,
    t: u32,
    y0: u32,
    y1: u32,
) -> Result<u64> {
    let columns = level.width.div_ceil(TILE_SIZE);
    let dir = files.join(level.number.to_string());
    let stride = level.width as usize * 3;
    let rows =
        &level.held[(y0 - level.first) as usize * stride..(y1 - level.first) as usize * stride];
    (0..columns).into_par_iter().try_for_each(|c| {
        let x0 = (c * TILE_SIZE).saturating_sub(OVERLAP);
        let x1 = ((c + 1) * TILE_SIZE + OVERLAP).min(level.width);
        let mut tile = Vec::with_capacity((x1 - x0) as usize * (y1 - y0) as usize * 3);
        for row in rows.chunks_exact(stride) {
            tile.extend_from_slice(&row[x0 as usize * 3..x1 as usize * 3]);
        }
        let path = dir.join(format!("{c}_{t}.{}", format.name()));
        encode_tile(&path, &tile, x1 - x0, y1 - y0, format)
    })?;
    Ok(u64::from(columns))
}

fn encode_tile(path: &Path, rgb: &[u8], width: u32, height: u32, format: TileFormat) -> Result<()> {
    use image::ImageEncoder;
    let file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    let mut out = std::io::BufWriter::new(file);
    let result = match format {
        TileFormat::Jpeg => image::codecs::jpeg::JpegEncoder::new_with_quality(
            &mut out,
            JPEG_QUALITY,
        )
        .write_image(rgb, width, height, image::ExtendedColorType::Rgb8),
        TileFormat::Png => image::codecs::png::PngEncoder::new_with_quality(
            &mut out,
            image::codecs::png::CompressionType::Fast,
            image::codecs::png::FilterType::Adaptive,
        )
        .write_image(rgb, width, height, image::ExtendedColorType::Rgb8),
    };
    result.map_err(|e| Error::Png {
        source_name: path.display().to_string(),
        reason: e.to_string(),
    })?;
    std::io::Write::flush(&mut out).map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain reference: every level held whole, halved as described,
    /// tiles cut from it.
    fn reference_levels(rgb: &[u8], width: u32, height: u32) -> Vec<(u32, u32, Vec<u8>)> {
        let mut levels = vec![(width, height, rgb.to_vec())];
        while levels.len() < level_count(width, height) as usize {
            let (w, h, px) = levels.last().unwrap();
            let (w, h) = (*w as usize, *h as usize);
            let (hw, hh) = (w.div_ceil(2), h.div_ceil(2));
            let mut out = vec![0u8; hw * hh * 3];
            for y in 0..hh {
                for x in 0..hw {
                    for c in 0..3 {
                        let at = |xx: usize, yy: usize| {
                            u32::from(px[(yy.min(h - 1) * w + xx.min(w - 1)) * 3 + c])
                        };
                        let s = at(2 * x, 2 * y)
                            + at(2 * x + 1, 2 * y)
                            + at(2 * x, 2 * y + 1)
                            + at(2 * x + 1, 2 * y + 1);
                        out[(y * hw + x) * 3 + c] = ((s + 2) / 4) as u8;
                    }
                }
            }
            levels.push((hw as u32, hh as u32, out));
        }
        levels
    }

    #[test]
    fn levels_and_descriptor() {
        assert_eq!(level_count(1, 1), 1);
        assert_eq!(level_count(2, 1), 2);
        assert_eq!(level_count(5, 3), 4);
        assert_eq!(level_count(256, 100), 9);
        assert_eq!(level_count(257, 100), 10);
        assert_eq!(level_count(32_768, 18_432), 16);
        let d = descriptor(5, 3, TileFormat::Png);
        assert!(
            d.contains("Format=\"png\" Overlap=\"1\" TileSize=\"254\""),
            "{d}"
        );
        assert!(d.contains("<Size Width=\"5\" Height=\"3\"/>"), "{d}");
    }

    #[test]
    fn streamed_tiles_match_the_reference_at_odd_sizes() {
        for (w, h) in [(1, 1), (5, 3), (254, 255), (600, 257), (509, 1031)] {
            let rgb: Vec<u8> = (0..w * h * 3)
                .map(|i| (crate::noise::hash32(i) >> 7) as u8)
                .collect();
            let dir = tempfile::tempdir().unwrap();
            let mut tiler = Tiler::new(dir.path(), w, h, TileFormat::Png).unwrap();
            for row in rgb.chunks_exact(w as usize * 3) {
                tiler.push_row(row).unwrap();
            }
            let pyramid = tiler.finish().unwrap();
            let levels = reference_levels(&rgb, w, h);
            assert_eq!(pyramid.levels as usize, levels.len());
            let mut count = 0;
            for (i, (lw, lh, px)) in levels.iter().enumerate() {
                let number = levels.len() - 1 - i;
                for t in 0..lh.div_ceil(TILE_SIZE) {
                    for c in 0..lw.div_ceil(TILE_SIZE) {
                        count += 1;
                        let path = dir.path().join(format!("{number}/{c}_{t}.png"));
                        let tile = image::open(&path).unwrap().to_rgb8();
                        let x0 = (c * TILE_SIZE).saturating_sub(1);
                        let y0 = (t * TILE_SIZE).saturating_sub(1);
                        let x1 = ((c + 1) * TILE_SIZE + 1).min(*lw);
                        let y1 = ((t + 1) * TILE_SIZE + 1).min(*lh);
                        assert_eq!(tile.dimensions(), (x1 - x0, y1 - y0), "{path:?}");
                        for (x, y, p) in tile.enumerate_pixels() {
                            let at = (((y0 + y) * lw + x0 + x) * 3) as usize;
                            assert_eq!(p.0, px[at..at + 3], "{path:?} at {x},{y}");
                        }
                    }
                }
            }
            assert_eq!(pyramid.tiles, count, "{w}x{h}");
            let on_disk = walk(dir.path());
            assert_eq!(on_disk, count as usize, "{w}x{h}: no other files");
        }
    }

    fn walk(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                if e.file_type().unwrap().is_dir() {
                    walk(&e.path())
                } else {
                    1
                }
            })
            .sum()
    }

    #[test]
    fn a_pyramid_and_its_viewer_are_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let scene = Scene::default();
        let p = write_pyramid(dir.path(), "dv", &scene, 600, 338, TileFormat::Jpeg).unwrap();
        assert_eq!(p.levels, 11);
        let dzi = std::fs::read_to_string(dir.path().join("dv.dzi")).unwrap();
        assert_eq!(dzi, descriptor(600, 338, TileFormat::Jpeg));
        let top = image::open(dir.path().join("dv_files/10/2_1.jpeg")).unwrap();
        assert_eq!((top.width(), top.height()), (600 - 507, 338 - 253));
        let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
        assert!(html.contains("\"Url\":\"dv_files/\""), "{html}");
        for (path, _) in VIEWER_FILES {
            assert!(dir.path().join(path).exists(), "{path}");
        }
        // Only the pyramid, the descriptor and the viewer: no partial folder.
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["dv.dzi", "dv_files", "index.html", "openseadragon"]);
    }
}
