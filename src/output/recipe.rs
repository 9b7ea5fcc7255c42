//! Reading a picture's recipe back: the scene a playa PNG was made from.
//!
//! [`crate::output::picture`] writes the scene's RON in a compressed iTXt chunk,
//! keyword [`SCENE_KEY`], and its share code in a tEXt chunk, keyword
//! [`CODE_KEY`], both before the image data. Reading stops at the first
//! image data chunk: a picture's pixels are never read to get its recipe,
//! and a file above [`MAX_PNG_BYTES`] is refused before anything is read.
//! Either chunk is enough; when both are there they must agree. Only the
//! text chunks playa reads are read, each up to [`MAX_TEXT_CHUNK_BYTES`]
//! and unpacked up to [`MAX_TEXT_BYTES`], and one found twice must say the
//! same twice; any other chunk is skipped unread. The picture's size, from
//! its header, must be one playa makes ([`compose::check_picture_size`]).
//! The [`COMPRESSION_KEY`] chunk names the compression the picture was
//! encoded with, so that rendering it again makes the same bytes.

use std::io::{BufRead, BufReader, Read, Seek};
use std::path::Path;
use std::str::FromStr;

use crate::compose::{self, window::Window};
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

/// Most bytes a text chunk that is read may hold, keyword, flags and
/// compressed text together: [`MAX_TEXT_BYTES`] of text, and room for the
/// rest. Text chunks of other keywords are skipped unread, whatever their
/// size.
pub const MAX_TEXT_CHUNK_BYTES: u32 = MAX_TEXT_BYTES as u32 + 4096;

/// [`read_texts`], and the picture's size: the chunks before the image data
/// walked one by one. Only the header and the text chunks named by
/// `keywords` are read (and their checksums checked); every other chunk is
/// skipped unread, so a chunk playa does not read cannot fail a picture,
/// however large. A keyword found twice is one text if the two say the
/// same, else an error: a picture holds one recipe.
fn read_head<R: BufRead + Seek, const N: usize>(
    mut reader: R,
    source_name: &str,
    keywords: [&str; N],
) -> Result<Head<N>> {
    let fail = |reason: String| Error::Png {
        source_name: source_name.to_string(),
        reason,
    };
    let damaged = |what: &str| fail(format!("damaged PNG: {what}"));
    let cannot_read = |e: std::io::Error| fail(format!("cannot read: {e}"));
    let mut signature = [0u8; 8];
    let got = read_up_to(&mut reader, &mut signature).map_err(cannot_read)?;
    if got < 8 || signature != PNG_SIGNATURE {
        return Err(fail("not a PNG file".into()));
    }
    let mut texts = [const { None }; N];
    let mut size = None;
    let mut animated = false;
    loop {
        let mut head = [0u8; 8];
        if read_up_to(&mut reader, &mut head).map_err(cannot_read)? < head.len() {
            return Err(damaged("it ends before its image data"));
        }
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]);
        let kind = [head[4], head[5], head[6], head[7]];
        if !kind.iter().all(u8::is_ascii_alphabetic) {
            return Err(damaged("a chunk's type is not four letters"));
        }
        let name = String::from_utf8_lossy(&kind).into_owned();
        if len > i32::MAX as u32 {
            return Err(damaged(&format!(
                "its {name} chunk claims {len} bytes, more than a PNG chunk may hold"
            )));
        }
        if size.is_none() && &kind != b"IHDR" {
            return Err(damaged("it does not start with its header (IHDR)"));
        }
        // The chunk's data, read whole and checked against its checksum;
        // `what` names the chunk in errors.
        let read_data = |reader: &mut R, start: Vec<u8>, what: &str| -> Result<Vec<u8>> {
            let mut data = start;
            let rest = u64::from(len) - data.len() as u64;
            (&mut *reader)
                .take(rest + 4)
                .read_to_end(&mut data)
                .map_err(cannot_read)?;
            if data.len() != len as usize + 4 {
                return Err(damaged(&format!("it ends inside its {what} chunk")));
            }
            let crc = data.split_off(len as usize);
            let mut hasher = crc32fast::Hasher::new();
            hasher.update(&kind);
            hasher.update(&data);
            if hasher.finalize().to_be_bytes()[..] != crc[..] {
                return Err(damaged(&format!("its {what} chunk fails its checksum")));
            }
            Ok(data)
        };
        match &kind {
            b"IHDR" => {
                if size.is_some() {
                    return Err(damaged("it has two headers (IHDR)"));
                }
                if len != 13 {
                    return Err(damaged(&format!(
                        "its header (IHDR) is {len} bytes, not 13"
                    )));
                }
                let ihdr = read_data(&mut reader, Vec::new(), "IHDR")?;
                let side = |at: usize| {
                    u32::from_be_bytes([ihdr[at], ihdr[at + 1], ihdr[at + 2], ihdr[at + 3]])
                };
                let (depth, colour) = (ihdr[8], ihdr[9]);
                let depths: &[u8] = match colour {
                    0 => &[1, 2, 4, 8, 16],
                    3 => &[1, 2, 4, 8],
                    2 | 4 | 6 => &[8, 16],
                    _ => &[],
                };
                if !depths.contains(&depth) || ihdr[10] != 0 || ihdr[11] != 0 || ihdr[12] > 1 {
                    return Err(damaged("its header (IHDR) names no valid PNG format"));
                }
                size = Some((side(0), side(4)));
            }
            b"IDAT" => break,
            b"IEND" => return Err(damaged("it has no image data")),
            b"acTL" => {
                animated = true;
                skip(&mut reader, len).map_err(cannot_read)?;
            }
            b"tEXt" | b"zTXt" | b"iTXt" => {
                // The keyword and its separator: at most 80 bytes.
                let mut start = Vec::with_capacity(80);
                (&mut reader)
                    .take(u64::from(len.min(80)))
                    .read_to_end(&mut start)
                    .map_err(cannot_read)?;
                let keyword = start.split(|&b| b == 0).next().unwrap_or_default();
                let Some(slot) = keywords
                    .iter()
                    .position(|k| k.as_bytes() == keyword && start.len() > keyword.len())
                else {
                    skip(&mut reader, len - start.len() as u32).map_err(cannot_read)?;
                    continue;
                };
                let keyword = keywords[slot];
                if len > MAX_TEXT_CHUNK_BYTES {
                    return Err(fail(format!(
                        "its {keyword} chunk is {len} bytes, more than the limit of \
                         {MAX_TEXT_CHUNK_BYTES}"
                    )));
                }
                let data = read_data(&mut reader, start, keyword)?;
                let text = chunk_text(&kind, &data[keyword.len() + 1..])
                    .map_err(|why| fail(format!("its {keyword} chunk {why}")))?;
                match &texts[slot] {
                    Some(first) if *first != text => {
                        return Err(fail(format!(
                            "it holds two {keyword} chunks that differ (was the file edited?)"
                        )));
                    }
                    _ => texts[slot] = Some(text),
                }
            }
            _ if kind[0].is_ascii_uppercase() && &kind != b"PLTE" => {
                return Err(damaged(&format!(
                    "it has an unknown critical chunk, {name}"
                )));
            }
            _ => skip(&mut reader, len).map_err(cannot_read)?,
        }
    }
    let (width, height) = size.unwrap_or_default();
    Ok(Head {
        texts,
        width,
        height,
        animated,
    })
}

/// Skips the rest of a chunk: `len` bytes of data and its checksum.
fn skip<R: Seek>(reader: &mut R, len: u32) -> std::io::Result<()> {
    reader.seek_relative(i64::from(len) + 4)
}

/// The text of a text chunk of `kind` whose data after its keyword and
/// separator are `data`; the error says what is wrong with it, after "its
/// playa:… chunk". A compressed text is unpacked up to [`MAX_TEXT_BYTES`]
/// and no further.
fn chunk_text(kind: &[u8; 4], data: &[u8]) -> std::result::Result<String, String> {
    let latin1 = |bytes: &[u8]| bytes.iter().map(|&b| char::from(b)).collect::<String>();
    let utf8 =
        |bytes: Vec<u8>| String::from_utf8(bytes).map_err(|_| "is not UTF-8 text".to_string());
    let unpack = |method: u8, packed: &[u8]| -> std::result::Result<Vec<u8>, String> {
        if method != 0 {
            return Err(format!("names an unknown compression ({method})"));
        }
        match fdeflate::decompress_to_vec_bounded(packed, MAX_TEXT_BYTES + 1) {
            Ok(text) if text.len() <= MAX_TEXT_BYTES => Ok(text),
            Ok(_) | Err(fdeflate::BoundedDecompressionError::OutputTooLarge { .. }) => {
                Err(format!(
                    "unpacks to more than {MAX_TEXT_BYTES} bytes, the limit of a text playa reads"
                ))
            }
            Err(_) => Err("has damaged compressed text".into()),
        }
    };
    let text = match kind {
        b"tEXt" => latin1(data),
        b"zTXt" => {
            let (&method, packed) = data.split_first().ok_or("is cut short")?;
            latin1(&unpack(method, packed)?)
        }
        _ => {
            // iTXt: compressed or not, the compression, the language, the
            // translated keyword, then the text.
            let [flag, method, rest @ ..] = data else {
                return Err("is cut short".into());
            };
            let mut fields = rest.splitn(3, |&b| b == 0);
            let (Some(_), Some(_), Some(text)) = (fields.next(), fields.next(), fields.next())
            else {
                return Err("is cut short".into());
            };
            match flag {
                0 => utf8(text.to_vec())?,
                1 => utf8(unpack(*method, text)?)?,
                _ => return Err(format!("has an unknown compression flag ({flag})")),
            }
        }
    };
    if text.len() > MAX_TEXT_BYTES {
        return Err(format!(
            "holds more than {MAX_TEXT_BYTES} bytes of text, the limit of a text playa reads"
        ));
    }
    Ok(text)
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
    check_own_size((width, height), window.as_ref(), compression).map_err(|e| {
        fail(match window {
            Some(w) => format!(
                "its {WINDOW_KEY} chunk cuts it from a {}x{} picture, not a size playa \
                 makes: {e}",
                w.full_w, w.full_h
            ),
            None => format!("the picture's size is not one playa makes: {e}"),
        })
    })?;
    Ok(Recipe {
        scene,
        width,
        height,
        window,
        compression,
        frame_of: animation.filter(|_| !animated),
    })
}

/// Checks a picture's size by the rule `--size` keeps
/// ([`compose::check_picture_size`]): playa makes no picture of another
/// size, so one that is was edited. A whole picture's own size is checked,
/// as streamed unless its compression holds pictures whole; a window's, the
/// full picture it is cut from (as streamed: only the window is drawn), and
/// the window itself when its compression holds it.
fn check_own_size(
    (width, height): (u32, u32),
    window: Option<&Window>,
    compression: Option<Compression>,
) -> Result<()> {
    let streamed = compression.is_none_or(|c| c == Compression::Fast);
    match window {
        None => compose::check_picture_size(width, height, streamed),
        Some(w) => {
            compose::check_picture_size(w.full_w, w.full_h, true).and_then(|()| match streamed {
                true => Ok(()),
                false => compose::check_size(width, height),
            })
        }
    }
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
mod tests;
