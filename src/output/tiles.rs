//! Deep Zoom pyramids: a picture too big for one screen as tiles a browser
//! pans and zooms (OpenSeadragon, vendored in `assets/openseadragon/`).
//!
//! A pyramid of a `W × H` picture has levels `0..=L`, `L = ⌈log2 max(W, H)⌉`:
//! level `L` is the picture, each level below it half the one above
//! (rounded up), down to 1 × 1 at level 0, as libvips' `dzsave` sizes them
//! (tested against it where `vips` is installed). Each level is cut into
//! tiles of [`TILE_SIZE`] pixels with [`OVERLAP`] pixel of overlap on each
//! inner edge, written as `{name}_files/{level}/{column}_{row}.{jpeg|png}`
//! beside a `{name}.dzi` descriptor.
//!
//! Every level is the scene drawn at that level's size (not the level
//! above halved, so lower levels are as sharp as the picture), and every
//! tile is drawn on its own as a window of its level
//! ([`Plan::render_window`]): a pyramid takes the memory of a few tiles
//! whatever its size, and its tiles can be shared out over a job array by
//! their [`Tile::key`] (`playa render --tiles --shard`), each tile the same
//! bytes whoever draws it.

use std::path::Path;
use std::str::FromStr;
use std::time::Instant;

use rayon::prelude::*;

use crate::compose::Plan;
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

/// The size of each level of a `width × height` picture's pyramid, from
/// level 0 (1 × 1) up to the picture's own.
pub fn level_sizes(width: u32, height: u32) -> Vec<(u32, u32)> {
    let count = level_count(width, height) as usize;
    let mut sizes = Vec::with_capacity(count);
    let (mut w, mut h) = (width, height);
    for _ in 0..count {
        sizes.push((w, h));
        (w, h) = (w.div_ceil(2), h.div_ceil(2));
    }
    sizes.reverse();
    sizes
}

/// One tile of a pyramid: its level and its place in the level's grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    /// The level (0: 1 × 1).
    pub level: u32,
    /// The column, from the left.
    pub column: u32,
    /// The row, from the top.
    pub row: u32,
}

impl Tile {
    /// The tile's stable name, `{level}/{column}_{row}`: what shards deal
    /// tiles by and manifests record them under.
    pub fn key(&self) -> String {
        format!("{}/{}_{}", self.level, self.column, self.row)
    }

    /// The tile's file in the pyramid's folder:
    /// `{name}_files/{level}/{column}_{row}.{format}`.
    pub fn file(&self, name: &str, format: TileFormat) -> String {
        format!("{name}_files/{}.{}", self.key(), format.name())
    }

    /// The rectangle `[x, y, w, h]` the tile shows of its level, `width ×
    /// height`: its cell of the grid and [`OVERLAP`] more on each side
    /// that has a neighbour.
    pub fn window(&self, width: u32, height: u32) -> [u32; 4] {
        let x0 = (self.column * TILE_SIZE).saturating_sub(OVERLAP);
        let y0 = (self.row * TILE_SIZE).saturating_sub(OVERLAP);
        let x1 = ((self.column + 1) * TILE_SIZE + OVERLAP).min(width);
        let y1 = ((self.row + 1) * TILE_SIZE + OVERLAP).min(height);
        [x0, y0, x1 - x0, y1 - y0]
    }
}

/// Every tile of a `width × height` picture's pyramid, level by level from
/// the smallest (so a pyramid being made shows whole from afar first),
/// row by row.
pub fn all_tiles(width: u32, height: u32) -> Vec<Tile> {
    let mut tiles = Vec::new();
    for (level, (w, h)) in level_sizes(width, height).into_iter().enumerate() {
        for row in 0..h.div_ceil(TILE_SIZE) {
            for column in 0..w.div_ceil(TILE_SIZE) {
                tiles.push(Tile {
                    level: level as u32,
                    column,
                    row,
                });
            }
        }
    }
    tiles
}

/// A tile written by [`write_tiles`]: its file, relative to the pyramid's
/// folder, and how long it took in milliseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The tile.
    pub tile: Tile,
    /// Its file, relative to the pyramid's folder ([`Tile::file`]).
    pub file: String,
    /// Milliseconds it took to draw, encode and write.
    pub ms: u64,
}

/// Tiles drawn at once before [`write_tiles`] reports them: enough to keep
/// every core busy, few enough that memory is a few tiles' worth.
const TILES_AT_ONCE: usize = 16;

/// Draws `tiles` of the pyramid `name` of `plan`'s scene at `width ×
/// height` into `dir` (each level at its own size, each tile a window of
/// it) and writes each atomically to its [`Tile::file`], in parallel a few
/// at a time; `written` is told of each group of tiles once their files are
/// in place (a manifest records them there). Stops at the first error.
pub fn write_tiles(
    dir: &Path,
    name: &str,
    plan: &Plan,
    (width, height): (u32, u32),
    format: TileFormat,
    tiles: &[Tile],
    mut written: impl FnMut(&[Written]) -> Result<()>,
) -> Result<()> {
    crate::compose::check_streamed_size(width, height)?;
    let sizes = level_sizes(width, height);
    for level in 0..sizes.len() {
        // No folder of the pyramid's is a link someone planted to lead its
        // tiles out of `dir`.
        let path = crate::base::file::make_folders_inside(
            dir,
            Path::new(&format!("{name}_files/{level}")),
        )?;
        // Temporary files that a killed run left, writing these tiles.
        let names: std::collections::HashSet<String> = tiles
            .iter()
            .filter(|tile| tile.level as usize == level)
            .filter_map(|tile| {
                let file = tile.file(name, format);
                Some(file.rsplit_once('/')?.1.to_string())
            })
            .collect();
        crate::base::atomic::remove_stale(&path, &names);
    }
    for group in tiles.chunks(TILES_AT_ONCE) {
        let done = group
            .par_iter()
            .map(|tile| {
                let start = Instant::now();
                let (w, h) = *sizes.get(tile.level as usize).ok_or_else(|| {
                    Error::out_of_range("tile level", tile.level, "a level of the pyramid")
                })?;
                let bytes = render_tile(plan, (w, h), tile.window(w, h), format)?;
                let file = tile.file(name, format);
                crate::base::atomic::write_atomically(&dir.join(&file), &bytes)?;
                Ok(Written {
                    tile: *tile,
                    file,
                    ms: start.elapsed().as_millis() as u64,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        written(&done)?;
    }
    Ok(())
}

/// The rectangle `window` of `plan`'s picture at `size`, encoded as a tile.
fn render_tile(
    plan: &Plan,
    size: (u32, u32),
    window: [u32; 4],
    format: TileFormat,
) -> Result<Vec<u8>> {
    let rgba = plan.render_window(size.0, size.1, window)?;
    let rgb: Vec<u8> = rgba
        .as_raw()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mut out = Vec::new();
    encode_tile(&mut out, &rgb, window[2], window[3], format)?;
    Ok(out)
}

/// Writes the pyramid's `{name}.dzi` and its viewer (`index.html` and
/// OpenSeadragon's files) into `dir`, each atomically: the same bytes
/// whichever shard writes them.
pub fn write_descriptor(
    dir: &Path,
    name: &str,
    width: u32,
    height: u32,
    format: TileFormat,
) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    write_viewer(dir, name, width, height, format)?;
    let dzi = dir.join(format!("{name}.dzi"));
    crate::base::atomic::write_atomically(&dzi, descriptor(width, height, format).as_bytes())
}

/// Renders `scene` at `width × height` (up to the streamed limits, see
/// [`crate::compose::check_streamed_size`]) as a Deep Zoom pyramid in
/// `dir`: `{name}.dzi`, `{name}_files/` and an `index.html` viewer with
/// OpenSeadragon in `dir/openseadragon/`. Each tile is written atomically
/// and the descriptor last, so a pyramid with its `.dzi` is whole; a
/// pyramid of that name already there is replaced.
pub fn write_pyramid(
    dir: &Path,
    name: &str,
    scene: &Scene,
    width: u32,
    height: u32,
    format: TileFormat,
) -> Result<Pyramid> {
    let plan = Plan::new(scene)?;
    crate::compose::check_streamed_size(width, height)?;
    let files = dir.join(format!("{name}_files"));
    if files.exists() {
        std::fs::remove_dir_all(&files).map_err(|e| Error::io(&files, e))?;
    }
    let tiles = all_tiles(width, height);
    write_tiles(
        dir,
        name,
        &plan,
        (width, height),
        format,
        &tiles,
        |_| Ok(()),
    )?;
    write_descriptor(dir, name, width, height, format)?;
    Ok(Pyramid {
        levels: level_count(width, height),
        tiles: tiles.len() as u64,
    })
}

/// OpenSeadragon's files (from its npm package, BSD-3-Clause licence):
/// the script, the navigation buttons the viewer shows, and the licence.
const VIEWER_FILES: &[(&str, &[u8])] = {
    macro_rules! files {
        ($($path:literal),* $(,)?) => {
            &[$(($path, include_bytes!(concat!("../../assets/", $path)))),*]
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
        // `openseadragon/` and its `images/`: no link leads them out.
        if let Some(parent) = Path::new(path).parent() {
            crate::base::file::make_folders_inside(dir, parent)?;
        }
        crate::base::atomic::write_atomically(&dir.join(path), bytes)?;
    }
    crate::base::atomic::write_atomically(
        &dir.join("index.html"),
        viewer_html(name, width, height, format).as_bytes(),
    )
}

/// Encodes an RGB tile into `out`.
fn encode_tile(
    out: &mut Vec<u8>,
    rgb: &[u8],
    width: u32,
    height: u32,
    format: TileFormat,
) -> Result<()> {
    use image::ImageEncoder;
    let result = match format {
        TileFormat::Jpeg => image::codecs::jpeg::JpegEncoder::new_with_quality(out, JPEG_QUALITY)
            .write_image(rgb, width, height, image::ExtendedColorType::Rgb8),
        TileFormat::Png => image::codecs::png::PngEncoder::new_with_quality(
            out,
            image::codecs::png::CompressionType::Fast,
            image::codecs::png::FilterType::Adaptive,
        )
        .write_image(rgb, width, height, image::ExtendedColorType::Rgb8),
    };
    result.map_err(|e| Error::Png {
        source_name: format!("{} tile", format.name()),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tile is its rectangle of the scene drawn whole at its level's
    /// size (lower levels drawn, not halved), at odd sizes, and nothing
    /// else is written.
    #[test]
    fn each_tile_is_its_window_of_the_level_drawn_whole() {
        let scene = Scene::default();
        for (w, h) in [(1, 1), (5, 3), (254, 255), (600, 257)] {
            let dir = tempfile::tempdir().unwrap();
            let p = write_pyramid(dir.path(), "t", &scene, w, h, TileFormat::Png).unwrap();
            let sizes = level_sizes(w, h);
            assert_eq!(p.levels as usize, sizes.len());
            let mut count = 0;
            for (level, &(lw, lh)) in sizes.iter().enumerate() {
                let whole = crate::render(&scene, lw, lh).unwrap();
                for row in 0..lh.div_ceil(TILE_SIZE) {
                    for column in 0..lw.div_ceil(TILE_SIZE) {
                        count += 1;
                        let tile = Tile {
                            level: level as u32,
                            column,
                            row,
                        };
                        let path = dir.path().join(tile.file("t", TileFormat::Png));
                        let ours = image::open(&path).unwrap().to_rgb8();
                        let [x, y, tw, th] = tile.window(lw, lh);
                        let cut = image::imageops::crop_imm(&whole, x, y, tw, th).to_image();
                        let cut = image::DynamicImage::ImageRgba8(cut).to_rgb8();
                        assert!(ours == cut, "{path:?} of {w}x{h}");
                    }
                }
            }
            assert_eq!(p.tiles, count, "{w}x{h}");
            assert_eq!(all_tiles(w, h).len() as u64, count);
            assert_eq!(walk(&dir.path().join("t_files")), count as usize, "{w}x{h}");
        }
    }

    #[test]
    fn tiles_are_the_grid_with_its_overlap() {
        let t = |level, column, row| Tile { level, column, row };
        assert_eq!(t(10, 0, 0).window(600, 338), [0, 0, 255, 255]);
        assert_eq!(t(10, 1, 1).window(600, 338), [253, 253, 256, 85]);
        assert_eq!(t(10, 2, 0).window(600, 338), [507, 0, 93, 255]);
        assert_eq!(t(0, 0, 0).window(1, 1), [0, 0, 1, 1]);
        assert_eq!(t(12, 3, 4).key(), "12/3_4");
        assert_eq!(
            t(12, 3, 4).file("dv", TileFormat::Jpeg),
            "dv_files/12/3_4.jpeg"
        );
        assert_eq!(level_sizes(5, 3), [(1, 1), (2, 1), (3, 2), (5, 3)]);
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
