//! Reading a picture's recipe back: the scene a playa PNG was made from.
//!
//! [`crate::output::picture`] writes the scene's RON in a compressed iTXt chunk,
//! keyword [`SCENE_KEY`], and its share code in a tEXt chunk, keyword
//! [`CODE_KEY`], both before the image data. Reading stops at the first
//! image data chunk: a picture's pixels are never read to get its recipe,
//! and a file above [`MAX_PNG_BYTES`] is refused before anything is read.
//! Either chunk is enough; when both are there they must agree. The
//! [`COMPRESSION_KEY`] chunk names the compression the picture was encoded
//! with, so that rendering it again makes the same bytes.

use std::io::{BufRead, BufReader, Seek};
use std::path::Path;
use std::str::FromStr;

use crate::compose::window::Window;
use crate::error::{Error, Result, quote};
use crate::scene::{MAX_RON_BYTES, Scene};
use crate::share;

/// Keyword of the text chunk holding the scene's RON.
pub const SCENE_KEY: &str = "playa:scene";
/// Keyword of the text chunk holding the scene's share code.
pub const CODE_KEY: &str = "playa:code";
/// Keyword of the text chunk naming the scene's traits, one per line
/// ("Composition: dune sea"), in plain text for any PNG tool to show (see
/// [`crate::explore::randomize::Traits`]). Written, never read back: the
/// scene's settings say them.
pub const TRAITS_KEY: &str = "playa:traits";
/// Keyword of the text chunk of a picture cut from a larger one of the
/// scene's aspect: its [`Window`] (`1080x1080+420+0 of 1920x1080`).
pub const WINDOW_KEY: &str = "playa:window";
/// How hard the PNG encoder works.
///
/// Default: [`Compression::Fast`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compression {
    /// playa's own parallel encoder (see `encoder.rs`): strips of 32 rows,
    /// each filtered and coded on its own core as one deflate block of
    /// Huffman-coded literals, without LZ77 matching. The fastest by far, for
    /// somewhat bigger files.
    #[default]
    Fast,
    /// zlib's balanced level.
    Default,
    /// Smallest files, slowest.
    Best,
}

impl Compression {
    /// All levels, fastest first.
    pub const ALL: [Compression; 3] = [Compression::Fast, Compression::Default, Compression::Best];

    /// The level's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Fast => "fast",
            Compression::Default => "default",
            Compression::Best => "best",
        }
    }
}

impl FromStr for Compression {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        Compression::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("compression {} must be fast, default or best", quote(s)))
    }
}

/// Keyword of the text chunk naming the [`Compression`] a picture was
/// encoded with (`fast`, `default` or `best`): with the scene, its size and
/// its window, all that decides a picture's bytes. Pictures of playa before
/// it have none, and were made again with fast compression.
pub const COMPRESSION_KEY: &str = "playa:compression";
/// Keyword of the text chunk of a contact sheet ([`crate::explore::sheet`]): the
/// share code and label of each of its thumbnails, a line each. A sheet has
/// no scene of its own.
pub const SHEET_KEY: &str = "playa:sheet";
/// Keyword of the APNG text chunk holding an animation's options
/// ([`crate::animation::Options`]) as RON, beside the scene's recipe
/// chunks; a frame of `--frames-dir` carries it too.
pub const ANIMATION_KEY: &str = "playa:animation";
/// Largest PNG file whose recipe is read (512 MiB); bigger files are refused
/// before reading.
pub const MAX_PNG_BYTES: u64 = 512 << 20;
/// Largest text chunk accepted when reading a recipe, decompressed.
pub const MAX_TEXT_BYTES: usize = MAX_RON_BYTES;
/// The 8-byte signature every PNG file starts with.
pub const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// What a playa picture was made from: its scene, and its size in pixels
/// (from the PNG header), at which the scene renders to the same pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    /// The scene.
    pub scene: Scene,
    /// The picture's width in pixels.
    pub width: u32,
    /// The picture's height in pixels.
    pub height: u32,
    /// The part of the scene's picture it shows, when it was cut from a
    /// larger one of the scene's aspect (its [`WINDOW_KEY`] chunk).
    pub window: Option<Window>,
    /// The compression it was encoded with (its [`COMPRESSION_KEY`]
    /// chunk); `None` for a picture of a playa from before that chunk.
    pub compression: Option<Compression>,
    /// The animation a still picture is a frame of (`playa animate
    /// --frames-dir` writes its options in the [`ANIMATION_KEY`] chunk of
    /// each frame): made again as it is, the picture keeps the chunk, and
    /// so its bytes. `None` for any other picture, and for an APNG, whose
    /// still is not the animation.
    pub frame_of: Option<String>,
}

/// The text of the chunk `keyword` of the PNG read from `reader`, looking
/// only at the chunks before the image data. `Ok(None)` if the PNG has no
/// such chunk there. `source_name` names the input in errors.
pub fn read_text<R: BufRead + Seek>(
    reader: R,
    source_name: &str,
    keyword: &str,
) -> Result<Option<String>> {
    let [text] = read_texts(reader, source_name, [keyword])?;
    Ok(text)
}

/// The texts of the chunks `keywords`, as [`read_text`], in one pass.
pub fn read_texts<R: BufRead + Seek, const N: usize>(
    reader: R,
    source_name: &str,
    keywords: [&str; N],
) -> Result<[Option<String>; N]> {
    read_head(reader, source_name, keywords).map(|head| head.texts)
}

/// What a PNG says before its image data: the texts of some chunks, the
/// picture's size from its header, and whether it is an animation (APNG).
struct Head<const N: usize> {
    texts: [Option<String>; N],
    width: u32,
    height: u32,
    animated: bool,
}

/// [`read_texts`], and the picture's size.
fn read_head<R: BufRead + Seek, const N: usize>(
    mut reader: R,
    source_name: &str,
    keywords: [&str; N],
) -> Result<Head<N>> {
    let fail = |reason: String| Error::Png {
        source_name: source_name.to_string(),
        reason,
    };
    let mut signature = [0u8; 8];
    let got =
        read_up_to(&mut reader, &mut signature).map_err(|e| fail(format!("cannot read: {e}")))?;
    if got < 8 || signature != PNG_SIGNATURE {
        return Err(fail("not a PNG file".into()));
    }
    reader
        .seek(std::io::SeekFrom::Start(0))
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    let mut decoder = png::Decoder::new_with_limits(
        reader,
        png::Limits {
            bytes: 4 * MAX_TEXT_BYTES,
        },
    );
    decoder.set_ignore_text_chunk(false);
    let info = decoder
        .read_info()
        .map_err(|e| fail(format!("damaged PNG: {e}")))?;
    let info = info.info();
    // iTXt and zTXt chunks have no common trait: one loop, written for each.
    macro_rules! compressed {
        ($chunks:expr, $keyword:expr) => {
            if let Some(chunk) = $chunks.iter().find(|c| c.keyword == $keyword) {
                let mut chunk = chunk.clone();
                chunk
                    .decompress_text_with_limit(MAX_TEXT_BYTES)
                    .map_err(|e| fail(format!("{} chunk: {e}", $keyword)))?;
                return chunk
                    .get_text()
                    .map(Some)
                    .map_err(|e| fail(format!("{} chunk: {e}", $keyword)));
            }
        };
    }
    let find = |keyword: &str| -> Result<Option<String>> {
        compressed!(info.utf8_text, keyword);
        compressed!(info.compressed_latin1_text, keyword);
        Ok(info
            .uncompressed_latin1_text
            .iter()
            .find(|c| c.keyword == keyword)
            .map(|c| c.text.clone()))
    };
    let mut texts = [const { None }; N];
    for (text, keyword) in texts.iter_mut().zip(keywords) {
        *text = find(keyword)?;
    }
    Ok(Head {
        texts,
        width: info.width,
        height: info.height,
        animated: info.animation_control.is_some(),
    })
}

fn read_up_to<R: std::io::Read>(r: &mut R, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The recipe embedded in PNG bytes. Errors say whether the bytes are not a
/// PNG, a PNG without a recipe, or a PNG with a bad recipe.
pub fn decode_recipe(bytes: &[u8], source_name: &str) -> Result<Recipe> {
    if bytes.len() as u64 > MAX_PNG_BYTES {
        return Err(Error::Png {
            source_name: source_name.to_string(),
            reason: format!("file is larger than the limit of {MAX_PNG_BYTES} bytes"),
        });
    }
    recipe_from(std::io::Cursor::new(bytes), source_name)
}

/// The recipe of the PNG file at `path`. The file's size is checked against
/// [`MAX_PNG_BYTES`] first, and only its chunks before the image data are
/// read.
pub fn read_recipe(path: &Path) -> Result<Recipe> {
    let name = path.display().to_string();
    let file = crate::base::file::open_regular(path)?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if len > MAX_PNG_BYTES {
        return Err(Error::Png {
            source_name: name,
            reason: format!("file is {len} bytes, larger than the limit of {MAX_PNG_BYTES}"),
        });
    }
    recipe_from(BufReader::with_capacity(64 << 10, file), &name)
}

/// The recipe: the [`SCENE_KEY`] chunk, checked against the [`CODE_KEY`]
/// chunk when there is one; else the code alone.
fn recipe_from<R: BufRead + Seek>(reader: R, source_name: &str) -> Result<Recipe> {
    let fail = |reason: String| Error::Png {
        source_name: source_name.to_string(),
        reason,
    };
    let Head {
        texts: [text, code, sheet, window, compression, animation],
        width,
        height,
        animated,
    } = read_head(
        reader,
        source_name,
        [
            SCENE_KEY,
            CODE_KEY,
            SHEET_KEY,
            WINDOW_KEY,
            COMPRESSION_KEY,
            ANIMATION_KEY,
        ],
    )?;
    let compression = compression
        .map(|text| {
            text.parse::<Compression>()
                .map_err(|e| fail(format!("{COMPRESSION_KEY} chunk: {e}")))
        })
        .transpose()?;
    let window = window
        .map(|text| {
            let window: Window = text
                .parse()
                .map_err(|e| fail(format!("{WINDOW_KEY} chunk: {e}")))?;
            if (window.w, window.h) != (width, height) {
                return Err(fail(format!(
                    "its {WINDOW_KEY} chunk is {}x{}, the picture {width}x{height} \
                     (was the file edited?)",
                    window.w, window.h
                )));
            }
            Ok(window)
        })
        .transpose()?;
    let coded = code
        .map(|code| share::decode(&code).map_err(|e| fail(format!("{CODE_KEY} chunk: {e}"))))
        .transpose()?;
    let scene = match (text, coded) {
        (Some(text), coded) => {
            let scene = Scene::from_ron(&text, &format!("{source_name} ({SCENE_KEY})"))?;
            match coded {
                Some(coded) if coded != scene => {
                    return Err(fail(format!(
                        "its {SCENE_KEY} and {CODE_KEY} chunks describe different scenes \
                         (was the file edited?)"
                    )));
                }
                _ => scene,
            }
        }
        (None, Some(coded)) => coded,
        (None, None) if sheet.is_some() => {
            let n = parse_entries(sheet.as_deref().unwrap_or_default()).len();
            return Err(fail(format!(
                "a contact sheet of {n} scenes (made by playa sheet), not one scene's \
                 picture: `playa share` on it lists their share codes"
            )));
        }
        (None, None) => {
            return Err(fail(format!(
                "PNG has no {SCENE_KEY} recipe (not made by playa?)"
            )));
        }
    };
    Ok(Recipe {
        scene,
        width,
        height,
        window,
        compression,
        frame_of: animation.filter(|_| !animated),
    })
}

/// The lines of a [`SHEET_KEY`] chunk as (code, label) pairs.
pub fn parse_entries(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (code, label) = l.split_once('\t').unwrap_or((l, ""));
            (code.to_string(), label.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::picture::tests::small;
    use crate::output::picture::{Compression, encode_png_to_vec};

    #[test]
    fn recipe_round_trips() {
        let (scene, image) = small();
        for c in Compression::ALL {
            let bytes =
                encode_png_to_vec(&image, &scene, &[("playa:note", "x1".into())], c).unwrap();
            let recipe = decode_recipe(&bytes, "mem").unwrap();
            assert_eq!(
                (
                    recipe.scene,
                    recipe.width,
                    recipe.height,
                    recipe.window,
                    recipe.compression
                ),
                (scene.clone(), 48, 27, None, Some(c))
            );
            let note = read_text(std::io::Cursor::new(&bytes), "mem", "playa:note").unwrap();
            assert_eq!(note.as_deref(), Some("x1"));
            let code = read_text(std::io::Cursor::new(&bytes), "mem", CODE_KEY).unwrap();
            assert_eq!(code, Some(share::encode(&scene)));
            let decoded = image::load_from_memory(&bytes).unwrap().to_rgba8();
            assert_eq!(decoded, image);
        }
    }

    #[test]
    fn the_size_is_the_picture_s_own() {
        let scene = Scene::default();
        for (w, h) in [(1, 1), (300, 169), (97, 55)] {
            let image = crate::render(&scene, w, h).unwrap();
            let bytes = encode_png_to_vec(&image, &scene, &[], Compression::Fast).unwrap();
            let recipe = decode_recipe(&bytes, "mem").unwrap();
            assert_eq!((recipe.width, recipe.height), (w, h));
        }
        let recipe = decode_recipe(&png_with(&[(CODE_KEY, &share::encode(&scene))]), "x").unwrap();
        assert_eq!((recipe.width, recipe.height), (2, 2));
    }

    #[test]
    fn a_cropped_picture_s_window_is_read_back_and_checked() {
        let scene = Scene::default();
        let window = Window::crop(scene.aspect, 30, 30).unwrap();
        let mut bytes = Vec::new();
        crate::output::picture::render_png_window(
            &mut bytes,
            &scene,
            &window,
            &[],
            Compression::Fast,
        )
        .unwrap();
        let recipe = decode_recipe(&bytes, "c.png").unwrap();
        assert_eq!(recipe.window, Some(window));
        assert_eq!((recipe.width, recipe.height), (30, 30));

        let code = share::encode(&scene);
        let err = decode_recipe(
            &png_with(&[(CODE_KEY, &code), (WINDOW_KEY, &window.to_string())]),
            "e.png",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("e.png") && err.contains("was the file edited"),
            "{err}"
        );
        let err = decode_recipe(&png_with(&[(CODE_KEY, &code), (WINDOW_KEY, "x")]), "b.png")
            .unwrap_err()
            .to_string();
        assert!(err.contains("playa:window chunk: window"), "{err}");
    }

    /// A small PNG with the text chunks `texts` (keyword, text).
    fn png_with(texts: &[(&str, &str)]) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut enc = png::Encoder::new(&mut bytes, 2, 2);
        enc.set_color(png::ColorType::Rgb);
        for (k, t) in texts {
            enc.add_text_chunk(k.to_string(), t.to_string()).unwrap();
        }
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&[0; 12]).unwrap();
        w.finish().unwrap();
        bytes
    }

    #[test]
    fn either_chunk_is_a_recipe_and_both_must_agree() {
        let scene = Scene {
            seed: 77,
            ..Scene::default()
        };
        let code = share::encode(&scene);
        let ron = scene.to_ron();
        let decode =
            |texts: &[(&str, &str)]| decode_recipe(&png_with(texts), "x.png").map(|r| r.scene);
        assert_eq!(decode(&[(CODE_KEY, &code)]).unwrap(), scene);
        assert_eq!(decode(&[(SCENE_KEY, &ron)]).unwrap(), scene);
        assert_eq!(
            decode(&[(SCENE_KEY, &ron), (CODE_KEY, &code)]).unwrap(),
            scene
        );

        let other = share::encode(&Scene::default());
        let err = decode(&[(SCENE_KEY, &ron), (CODE_KEY, &other)])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("x.png") && err.contains("different scenes"),
            "{err}"
        );
        let err = decode_recipe(
            &png_with(&[(CODE_KEY, &code), (COMPRESSION_KEY, "max")]),
            "z.png",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("z.png") && err.contains("playa:compression chunk: compression \"max\""),
            "{err}"
        );
        // A picture of an older playa names no compression.
        let recipe = decode_recipe(&png_with(&[(CODE_KEY, &code)]), "o.png").unwrap();
        assert_eq!(recipe.compression, None);
        let err = decode(&[(CODE_KEY, "playa1-AAAAAAA")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("playa:code chunk: share code"), "{err}");
    }

    #[test]
    fn bad_inputs_say_what_is_wrong() {
        let err = decode_recipe(b"hello world", "a.png")
            .unwrap_err()
            .to_string();
        assert!(err.contains("a.png") && err.contains("not a PNG"), "{err}");
        let err = decode_recipe(b"", "e.png").unwrap_err().to_string();
        assert!(err.contains("not a PNG"), "{err}");

        let mut plain = Vec::new();
        image::DynamicImage::ImageRgba8(image::RgbaImage::new(4, 4))
            .write_to(
                &mut std::io::Cursor::new(&mut plain),
                image::ImageFormat::Png,
            )
            .unwrap();
        let err = decode_recipe(&plain, "p.png").unwrap_err().to_string();
        assert!(err.contains("no playa:scene recipe"), "{err}");

        let (_, image) = small();
        let mut bad = Vec::new();
        let mut enc = png::Encoder::new(&mut bad, 48, 27);
        enc.set_color(png::ColorType::Rgba);
        enc.add_itxt_chunk(SCENE_KEY.into(), "(seed: \"x\")".into())
            .unwrap();
        let mut w = enc.write_header().unwrap();
        w.write_image_data(image.as_raw()).unwrap();
        w.finish().unwrap();
        let err = decode_recipe(&bad, "b.png").unwrap_err().to_string();
        assert!(err.contains("b.png (playa:scene): line 1, column"), "{err}");

        let (scene, image) = small();
        let bytes = encode_png_to_vec(&image, &scene, &[], Compression::Fast).unwrap();
        let err = decode_recipe(&bytes[..40], "t.png")
            .unwrap_err()
            .to_string();
        assert!(err.contains("t.png"), "{err}");
    }
}
