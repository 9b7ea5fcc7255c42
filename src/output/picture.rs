//! Writing pictures: PNG files that carry their own recipe.
//!
//! A picture is written as an 8-bit sRGB PNG (RGB: the pictures are opaque)
//! with the scene's RON in a compressed iTXt chunk, keyword [`SCENE_KEY`],
//! and its share code in a tEXt chunk, keyword [`CODE_KEY`], both placed
//! before the image data, where [`crate::output::recipe`] reads them back;
//! its traits, in words, follow in an uncompressed chunk, keyword
//! [`TRAITS_KEY`]. The
//! [`Compression`] it was encoded with is named in a tEXt chunk, keyword
//! [`COMPRESSION_KEY`]. A picture cut from a larger one of the scene's
//! aspect ([`render_png_window`]) records its [`Window`] in a tEXt chunk,
//! keyword [`WINDOW_KEY`]. The scene, the size, the window and the
//! compression decide every byte of the file (the streamed and the held
//! encoders write the same bytes), so `playa render picture.png` makes it
//! again, byte for byte.

use std::io::Write;
use std::path::Path;

use image::RgbaImage;
use rayon::prelude::*;

use crate::compose::Composer;
use crate::compose::window::Window;
use crate::error::{Error, Result};
use crate::output::encoder::{self, STRIP_ROWS};
pub use crate::output::recipe::Compression;
use crate::output::recipe::{
    CODE_KEY, COMPRESSION_KEY, PNG_SIGNATURE, SCENE_KEY, TRAITS_KEY, WINDOW_KEY,
};
use crate::scene::Scene;
use crate::share;

/// zlib's level for each of playa's compressions.
fn png_level(compression: Compression) -> png::Compression {
    match compression {
        Compression::Fast => png::Compression::Fast,
        Compression::Default => png::Compression::Balanced,
        Compression::Best => png::Compression::High,
    }
}

/// Most strips compressed at once before they are written.
const WINDOW_STRIPS: usize = 64;
/// Memory a window of strips may take (their buffers on the threads and
/// the compressed strips waiting to be written): bounds a streamed
/// picture's memory whatever its width and the number of cores.
const WINDOW_BYTES: usize = 160 << 20;

/// How many strips of a `width`-pixel picture to draw at once, so that
/// `kept` bytes per pixel column kept per strip until it is written, and
/// `working` bytes per pixel column on each thread drawing one, stay
/// within [`WINDOW_BYTES`] on the current rayon pool. The window changes
/// only the order of work, never the bytes.
pub(crate) fn window_strips(width: u32, kept: usize, working: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    let column = width as usize * STRIP_ROWS as usize;
    (1..=WINDOW_STRIPS)
        .take_while(|&k| (k * kept + k.min(threads) * working) * column <= WINDOW_BYTES)
        .last()
        .unwrap_or(1)
}

/// Bytes per pixel column a streamed strip keeps until it is written: about
/// 3 of compressed data.
const STRIP_KEPT: usize = 3;
/// Bytes per pixel column on each thread drawing a strip: RGBA, the scratch
/// band, filtered rows, the bit buffer and the output (see
/// `encoder::Buffers`).
const STRIP_WORKING: usize = 4 + 12 / 4 + 3 + 6 + 3;

/// At most how many bytes the strips of a streamed render ([`render_png`]
/// with [`Compression::Fast`]) of a picture `width` pixels wide hold at
/// once, on the current rayon pool, whatever its height: the strips being
/// drawn and those waiting to be written. Never more than 160 MiB; an 8K
/// picture (7680 wide) on 2 cores: 54 MiB.
pub fn streamed_bytes(width: u32) -> u64 {
    let threads = rayon::current_num_threads().max(1);
    let k = window_strips(width, STRIP_KEPT, STRIP_WORKING);
    let column = width as u64 * u64::from(STRIP_ROWS);
    (k * STRIP_KEPT + k.min(threads) * STRIP_WORKING) as u64 * column
}

/// Encodes `image` as a PNG into `out`, with `scene`'s RON as the
/// [`SCENE_KEY`] text chunk, its share code as the [`CODE_KEY`] chunk,
/// `compression`'s name as the [`COMPRESSION_KEY`] chunk and each
/// `(keyword, text)` of `extra_text` as a further compressed iTXt chunk,
/// all before the image data (`extra_text` may not use playa's own
/// keywords).
///
/// [`Compression::Fast`] uses playa's own parallel encoder: strips of 32
/// rows filtered and Huffman-coded independently, on all cores, into one
/// standard zlib stream; the other levels use the `png` crate's zlib
/// encoder with adaptive filtering, row by row.
pub fn encode_png<W: Write>(
    out: W,
    image: &RgbaImage,
    scene: &Scene,
    extra_text: &[(&str, String)],
    compression: Compression,
) -> Result<()> {
    let texts = texts(scene, extra_text, Some(compression))?;
    encode_png_with(out, image, &texts, compression)
}

/// [`encode_png`] with its text chunks made.
fn encode_png_with<W: Write>(
    out: W,
    image: &RgbaImage,
    texts: &[png::text_metadata::ITXtChunk],
    compression: Compression,
) -> Result<()> {
    let (width, height) = image.dimensions();
    if compression == Compression::Fast {
        let raw = image.as_raw();
        let strip_bytes = width as usize * 4 * STRIP_ROWS as usize;
        return write_strips(out, width, height, texts, |i, buffers| {
            let rows = &raw[i * strip_bytes..((i + 1) * strip_bytes).min(raw.len())];
            encoder::compress_strip(rows, width as usize, buffers)
        });
    }
    let fail = |e: png::EncodingError| Error::Png {
        source_name: "PNG encoder".into(),
        reason: e.to_string(),
    };
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    encoder.set_compression(png_level(compression));
    let mut writer = encoder.write_header().map_err(fail)?;
    for chunk in texts {
        writer.write_text_chunk(chunk).map_err(fail)?;
    }
    let mut stream = writer.stream_writer_with_size(1 << 20).map_err(fail)?;
    // Drop the alpha channel a band of rows at a time.
    let row_px = width as usize;
    let mut rgb = Vec::with_capacity(row_px * 3 * 64);
    for rows in image.as_raw().chunks(row_px * 4 * 64) {
        rgb.clear();
        for p in rows.chunks_exact(4) {
            rgb.extend_from_slice(&p[..3]);
        }
        stream.write_all(&rgb).map_err(|e| Error::Png {
            source_name: "PNG encoder".into(),
            reason: e.to_string(),
        })?;
    }
    stream.finish().map_err(fail)?;
    Ok(())
}

/// Renders `scene` at `width × height` straight into a PNG (as
/// [`encode_png`] of [`crate::render`], byte for byte). With
/// [`Compression::Fast`] the picture is rendered strip by strip, each strip
/// compressed as soon as it is drawn, in parallel: no full-size image is
/// ever held, so memory stays small at any size, and the size may go up to
/// the streamed limits ([`crate::compose::check_streamed_size`]: 65,536 a
/// side, 2^32 pixels); the other levels hold the picture in memory and keep
/// [`crate::compose::check_size`]'s.
pub fn render_png<W: Write>(
    out: W,
    scene: &Scene,
    width: u32,
    height: u32,
    extra_text: &[(&str, String)],
    compression: Compression,
) -> Result<()> {
    if compression != Compression::Fast {
        let image = crate::render(scene, width, height)?;
        return encode_png(out, &image, scene, extra_text, compression);
    }
    let composer = Composer::streamed(scene, width, height)?;
    let texts = texts(scene, extra_text, Some(compression))?;
    write_strips(out, width, height, &texts, |i, buffers| {
        let y0 = i as u32 * STRIP_ROWS;
        let rows = STRIP_ROWS.min(height - y0) as usize;
        let mut rgba = std::mem::take(&mut buffers.rgba);
        rgba.resize(rows * width as usize * 4, 0);
        if buffers.scratch.is_empty() {
            buffers.scratch = composer.scratch();
        }
        composer.render_rows(y0, &mut rgba, &mut buffers.scratch);
        let strip = encoder::compress_strip(&rgba, width as usize, buffers);
        buffers.rgba = rgba;
        strip
    })
}

/// Most pixels of a window [`render_png_window`] draws in one piece (64 MiB
/// of RGBA); a larger one is drawn strip by strip, each strip a window.
const WINDOW_HELD: u64 = 1 << 24;

/// Renders the part `window` of `scene`'s picture at `window.full_w ×
/// window.full_h` straight into a PNG of `window.w × window.h`, pixel for
/// pixel as that picture has them there, recording the window in the
/// [`WINDOW_KEY`] chunk (after the scene's chunks and `extra_text`). This
/// is how a picture of another aspect than the scene's is made (see
/// [`crate::compose::window`]), and `playa render --window`. The whole picture may
/// be as large as a streamed one ([`crate::compose::check_streamed_size`]):
/// only the window is drawn ([`crate::compose::Plan::render_window`]), in
/// one piece when it is small, else strip by strip with
/// [`Compression::Fast`]; other compressions hold the window, so it keeps
/// [`crate::compose::check_size`]'s limits.
pub fn render_png_window<W: Write>(
    out: W,
    scene: &Scene,
    window: &Window,
    extra_text: &[(&str, String)],
    compression: Compression,
) -> Result<()> {
    render_png_window_held(out, scene, window, extra_text, compression, WINDOW_HELD)
}

/// [`render_png_window`], drawing windows of up to `held` pixels in one
/// piece.
fn render_png_window_held<W: Write>(
    out: W,
    scene: &Scene,
    window: &Window,
    extra_text: &[(&str, String)],
    compression: Compression,
    held: u64,
) -> Result<()> {
    if !window.is_inside() {
        return Err(crate::Error::InvalidSize(format!(
            "window {window} is not inside its picture"
        )));
    }
    let mut texts = texts(scene, extra_text, Some(compression))?;
    texts.push(png::text_metadata::ITXtChunk::new(
        WINDOW_KEY,
        window.to_string(),
    ));
    let &Window {
        x,
        y,
        w,
        h,
        full_w,
        full_h,
    } = window;
    crate::compose::check_streamed_size(full_w, full_h)?;
    let plan = crate::compose::Plan::new(scene)?;
    if compression != Compression::Fast || u64::from(w) * u64::from(h) <= held {
        crate::compose::check_size(w, h)?;
        let image = plan.render_window(full_w, full_h, [x, y, w, h])?;
        return encode_png_with(out, &image, &texts, compression);
    }
    let failed = std::sync::OnceLock::new();
    write_strips(out, w, h, &texts, |i, buffers| {
        let y0 = i as u32 * STRIP_ROWS;
        let rows = STRIP_ROWS.min(h - y0);
        // Inside the picture, checked above: cannot fail but for memory.
        let strip = plan
            .render_window(full_w, full_h, [x, y + y0, w, rows])
            .unwrap_or_else(|e| {
                let _ = failed.set(e);
                RgbaImage::new(w, rows)
            });
        encoder::compress_strip(strip.as_raw(), w as usize, buffers)
    })?;
    match failed.into_inner() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// [`render_png_window`] when a `window` is given, else [`render_png`] at
/// `width × height`: a picture as a job or an export describes it.
pub fn render_png_framed<W: Write>(
    out: W,
    scene: &Scene,
    (width, height): (u32, u32),
    window: Option<&Window>,
    extra_text: &[(&str, String)],
    compression: Compression,
) -> Result<()> {
    match window {
        Some(window) => render_png_window(out, scene, window, extra_text, compression),
        None => render_png(out, scene, width, height, extra_text, compression),
    }
}

/// How long something took, as playa's messages say it: milliseconds below
/// a second ("166 ms"), else seconds to a tenth ("1.4 s").
pub fn duration_text(took: std::time::Duration) -> String {
    let ms = took.as_secs_f64() * 1e3;
    if ms < 999.5 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", took.as_secs_f64())
    }
}

/// The text chunks of a picture of `scene`: its share code, the name of
/// its `compression` when given and its traits (plain, so any PNG tool
/// shows them), its RON and `extra_text` (compressed). An animation passes no compression:
/// its encoder is fixed, and its options chunk says what it is.
pub(crate) fn texts(
    scene: &Scene,
    extra_text: &[(&str, String)],
    compression: Option<Compression>,
) -> Result<Vec<png::text_metadata::ITXtChunk>> {
    if let Some((keyword, _)) = extra_text
        .iter()
        .find(|(k, _)| [SCENE_KEY, CODE_KEY, WINDOW_KEY, COMPRESSION_KEY, TRAITS_KEY].contains(k))
    {
        return Err(Error::Png {
            source_name: "PNG encoder".into(),
            reason: format!("the {keyword} chunk is written by playa itself"),
        });
    }
    let code = png::text_metadata::ITXtChunk::new(CODE_KEY, share::encode(scene));
    let level = compression.map(|c| png::text_metadata::ITXtChunk::new(COMPRESSION_KEY, c.name()));
    let traits =
        png::text_metadata::ITXtChunk::new(TRAITS_KEY, crate::traits::Traits::of(scene).lines());
    let compressed = std::iter::once((SCENE_KEY, scene.to_ron()))
        .chain(extra_text.iter().map(|(k, v)| (*k, v.clone())))
        .map(|(keyword, text)| {
            let mut chunk = png::text_metadata::ITXtChunk::new(keyword, text);
            // Compressing text held in memory cannot fail.
            let _ = chunk.compress_text();
            chunk
        });
    Ok(std::iter::once(code)
        .chain(level)
        .chain(std::iter::once(traits))
        .chain(compressed)
        .collect())
}

/// Writes a PNG whose image data are the strips `strip(0..n)`, computed in
/// parallel windows and written in order.
fn write_strips<W: Write>(
    mut out: W,
    width: u32,
    height: u32,
    texts: &[png::text_metadata::ITXtChunk],
    strip: impl Fn(usize, &mut encoder::Buffers) -> encoder::Strip + Sync,
) -> Result<()> {
    use png::text_metadata::EncodableTextChunk;
    let io = |e: std::io::Error| Error::Png {
        source_name: "PNG encoder".into(),
        reason: e.to_string(),
    };
    let chunk = |out: &mut W, kind: &[u8; 4], data: &[u8]| -> Result<()> {
        let mut crc = crc32fast::Hasher::new();
        crc.update(kind);
        crc.update(data);
        out.write_all(&(data.len() as u32).to_be_bytes())
            .map_err(io)?;
        out.write_all(kind).map_err(io)?;
        out.write_all(data).map_err(io)?;
        out.write_all(&crc.finalize().to_be_bytes()).map_err(io)
    };
    out.write_all(&PNG_SIGNATURE).map_err(io)?;
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // 8-bit RGB, deflate, adaptive filtering, not interlaced.
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr)?;
    chunk(&mut out, b"sRGB", &[0])?;
    for text in texts {
        text.encode(&mut out).map_err(|e| Error::Png {
            source_name: "PNG encoder".into(),
            reason: e.to_string(),
        })?;
    }
    chunk(&mut out, b"IDAT", &encoder::zlib_header())?;
    let count = height.div_ceil(STRIP_ROWS) as usize;
    let mut checksums = Vec::with_capacity(count);
    let window = window_strips(width, STRIP_KEPT, STRIP_WORKING);
    for start in (0..count).step_by(window) {
        let strips: Vec<encoder::Strip> = (start..(start + window).min(count))
            .into_par_iter()
            .map_init(encoder::Buffers::default, |buffers, i| strip(i, buffers))
            .collect();
        for s in strips {
            chunk(&mut out, b"IDAT", &s.deflate)?;
            checksums.push(s.checksum());
        }
    }
    chunk(&mut out, b"IDAT", &encoder::zlib_trailer(checksums))?;
    chunk(&mut out, b"IEND", &[])
}

/// [`encode_png`] into memory.
pub fn encode_png_to_vec(
    image: &RgbaImage,
    scene: &Scene,
    extra_text: &[(&str, String)],
    compression: Compression,
) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    encode_png(&mut bytes, image, scene, extra_text, compression)?;
    Ok(bytes)
}

/// Writes `image` as a PNG file with its recipe (see [`encode_png`]),
/// atomically: a failure leaves no partial file.
pub fn write_png(
    path: &Path,
    image: &RgbaImage,
    scene: &Scene,
    extra_text: &[(&str, String)],
    compression: Compression,
) -> Result<()> {
    write_file(path, |w| {
        encode_png(w, image, scene, extra_text, compression)
    })
}

/// Writes a file atomically through a 1 MiB buffer: `encode` writes the
/// bytes, and a failure (of `encode` or of the disk) leaves no file behind
/// and returns `encode`'s own error. For example, [`render_png`] into a file:
/// `write_file(path, |w| render_png(w, &scene, 1920, 1080, &[], Compression::Fast))`.
pub fn write_file(
    path: &Path,
    encode: impl FnOnce(&mut std::io::BufWriter<&mut std::fs::File>) -> Result<()>,
) -> Result<()> {
    let mut failure = None;
    let result = crate::base::atomic::write_atomically_with(path, |file| {
        let mut buffered = std::io::BufWriter::with_capacity(1 << 20, file);
        encode(&mut buffered).map_err(|e| {
            let message = e.to_string();
            failure = Some(e);
            std::io::Error::other(message)
        })?;
        buffered.flush()
    });
    match (result, failure) {
        (Err(_), Some(e)) => Err(e),
        (r, _) => r,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The default scene and its picture at 48 × 27: a picture small enough
    /// to encode in every test here and in [`crate::output::recipe`]'s.
    pub(crate) fn small() -> (Scene, RgbaImage) {
        let scene = Scene::default();
        let image = crate::render(&scene, 48, 27).unwrap();
        (scene, image)
    }

    #[test]
    fn a_window_drawn_strip_by_strip_is_the_window_drawn_whole() {
        let scene = crate::scene::presets::load("badlands").unwrap();
        let window = Window {
            x: 37,
            y: 29,
            w: 150,
            h: 75,
            full_w: 300,
            full_h: 169,
        };
        let make = |held| {
            let mut bytes = Vec::new();
            render_png_window_held(&mut bytes, &scene, &window, &[], Compression::Fast, held)
                .unwrap();
            bytes
        };
        assert!(make(0) == make(u64::MAX));
    }

    #[test]
    fn a_window_is_the_full_picture_s_pixels_there_with_its_chunk() {
        let scene = Scene::default();
        // Rows that start and end mid-band and mid-strip.
        for window in [
            Window::crop(scene.aspect, 40, 40).unwrap(),
            Window::crop(scene.aspect, 96, 20).unwrap(),
            Window {
                x: 3,
                y: 5,
                w: 50,
                h: 70,
                full_w: 160,
                full_h: 90,
            },
        ] {
            let full = crate::render(&scene, window.full_w, window.full_h).unwrap();
            let cut =
                image::imageops::crop_imm(&full, window.x, window.y, window.w, window.h).to_image();
            for c in Compression::ALL {
                let mut bytes = Vec::new();
                render_png_window(&mut bytes, &scene, &window, &[], c).unwrap();
                let decoded = image::load_from_memory(&bytes).unwrap().to_rgba8();
                assert_eq!(decoded, cut, "{window} {c:?}");
                let text =
                    crate::output::recipe::read_text(std::io::Cursor::new(&bytes), "m", WINDOW_KEY);
                assert_eq!(text.unwrap(), Some(window.to_string()));
            }
        }
        let outside = Window {
            x: 100,
            y: 0,
            w: 100,
            h: 90,
            full_w: 160,
            full_h: 90,
        };
        let err = render_png_window(Vec::new(), &scene, &outside, &[], Compression::Fast);
        assert!(err.unwrap_err().to_string().contains("not inside"));
    }

    #[test]
    fn durations_below_a_second_are_in_milliseconds() {
        use std::time::Duration;
        assert_eq!(duration_text(Duration::from_micros(166_400)), "166 ms");
        assert_eq!(duration_text(Duration::ZERO), "0 ms");
        assert_eq!(duration_text(Duration::from_millis(999)), "999 ms");
        assert_eq!(duration_text(Duration::from_millis(1000)), "1.0 s");
        assert_eq!(duration_text(Duration::from_millis(1420)), "1.4 s");
    }

    #[test]
    fn playa_s_own_chunks_are_refused_as_extra_text() {
        let (scene, image) = small();
        for key in [CODE_KEY, COMPRESSION_KEY] {
            let err = encode_png_to_vec(&image, &scene, &[(key, "x".into())], Compression::Fast)
                .unwrap_err()
                .to_string();
            assert!(err.contains("written by playa itself"), "{err}");
        }
    }

    #[test]
    fn fast_encoding_decodes_to_the_pixels_at_any_size() {
        let scene = Scene::default();
        for (w, h) in [
            (1, 1),
            (1, 40),
            (2, 33),
            (3, 31),
            (17, 64),
            (65, 97),
            (300, 7),
        ] {
            let mut image = RgbaImage::new(w, h);
            for (i, p) in image.pixels_mut().enumerate() {
                let v = crate::base::noise::hash32(i as u32);
                // Mixed content: flat runs, gradients and noise.
                *p = image::Rgba([
                    if i % 7 < 3 { 10 } else { v as u8 },
                    (i % 251) as u8,
                    (v >> 8) as u8 & 0x0f,
                    255,
                ]);
            }
            let bytes = encode_png_to_vec(&image, &scene, &[], Compression::Fast).unwrap();
            let decoded = image::load_from_memory(&bytes).unwrap().to_rgba8();
            assert_eq!(decoded, image, "{w}x{h}");
        }
    }

    /// The streamed limits' longest sides, one strip wide or high: no
    /// overflow in the sizes, and any decoder reads the PNG.
    #[test]
    fn the_longest_streamed_sides_render() {
        use crate::compose::MAX_STREAMED_SIDE;
        let scene = Scene::default();
        for (w, h) in [(MAX_STREAMED_SIDE, 40), (24, MAX_STREAMED_SIDE)] {
            let mut bytes = Vec::new();
            render_png(&mut bytes, &scene, w, h, &[], Compression::Fast).unwrap();
            let decoded = image::load_from_memory(&bytes).unwrap().to_rgb8();
            assert_eq!(decoded.dimensions(), (w, h));
            // Sky at the top, sand at the bottom.
            let (sky, sand) = (decoded.get_pixel(w / 2, 0), decoded.get_pixel(w / 2, h - 1));
            assert!(
                sky[2] > sky[0] && sand[0] > sand[2],
                "{w}x{h}: {sky:?} {sand:?}"
            );
        }
        assert!(
            render_png(
                Vec::new(),
                &scene,
                MAX_STREAMED_SIDE + 1,
                8,
                &[],
                Compression::Fast
            )
            .is_err()
        );
        // Held in memory: the in-memory limit.
        assert!(render_png(Vec::new(), &scene, 16_385, 8, &[], Compression::Default).is_err());
    }

    #[test]
    fn rendering_straight_to_png_matches_render_then_encode() {
        for name in ["death-valley", "night-under-stars"] {
            let scene = crate::scene::presets::load(name).unwrap();
            for (w, h) in [(97, 55), (320, 180)] {
                let image = crate::render(&scene, w, h).unwrap();
                for c in Compression::ALL {
                    let a = encode_png_to_vec(&image, &scene, &[], c).unwrap();
                    let mut b = Vec::new();
                    render_png(&mut b, &scene, w, h, &[], c).unwrap();
                    assert!(a == b, "{name} {w}x{h} {c:?}");
                }
            }
        }
    }
}
