//! The contact sheet's `playa:sheet` chunk: any text reads as lines of a
//! code and a label (`sheet::parse_entries`), each code decodes or is
//! refused, and entries written again (`sheet::entries_text`) read back the
//! same. Carried in a PNG, the chunk reads back as it was written, whatever
//! the kind of text chunk, `sheet::read` lists the same entries, and
//! reading the PNG as one picture's recipe says it is a sheet of that many
//! scenes. The first byte picks how the text travels: 0 alone; 1 in a
//! compressed iTXt chunk (as `playa sheet` writes it); 2 an uncompressed
//! iTXt; 3 a zTXt and 4 a tEXt (Latin-1: the rest is read a byte a
//! character).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use playa::explore::sheet::{self, Cell, SHEET_KEY};
use playa::{output::recipe, share};
use png::text_metadata::{EncodableTextChunk, ITXtChunk, TEXtChunk, ZTXtChunk};

/// A PNG of one pixel with no text, cut before its image data: the
/// signature and header, then the image data and end. Made once: the
/// image's compressor is no part of what is fuzzed, and slow.
fn png_parts() -> &'static (Vec<u8>, Vec<u8>) {
    static PARTS: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    PARTS.get_or_init(|| {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, 1, 1);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("a header");
        writer.write_image_data(&[0, 0, 0]).expect("a pixel");
        writer.finish().expect("a PNG");
        // The chunk's type, after its 4-byte length.
        let idat = out
            .windows(4)
            .position(|w| w == b"IDAT")
            .expect("image data")
            - 4;
        let tail = out.split_off(idat);
        (out, tail)
    })
}

/// A PNG of one pixel carrying `text` in the chunk kind `mode` picks,
/// before its image data as playa writes it, or `None` when the encoder
/// refuses it.
fn png_with(mode: u8, text: &str) -> Option<Vec<u8>> {
    let (head, tail) = png_parts();
    let mut out = head.clone();
    let key = SHEET_KEY.to_string();
    let written = match mode {
        1 | 2 => {
            let mut chunk = ITXtChunk::new(key, text);
            if mode == 1 {
                chunk.compress_text().ok()?;
            }
            chunk.encode(&mut out)
        }
        3 => ZTXtChunk::new(key, text).encode(&mut out),
        _ => TEXtChunk::new(key, text).encode(&mut out),
    };
    written.ok()?;
    out.extend_from_slice(tail);
    Some(out)
}

/// A folder for scratch files: in memory where there is one (`/dev/shm`).
fn scratch_dir() -> PathBuf {
    let shm = PathBuf::from("/dev/shm");
    if shm.is_dir() {
        shm
    } else {
        std::env::temp_dir()
    }
}

/// A file of this process's own to write the PNG to, for `sheet::read`.
fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| scratch_dir().join(format!("playa-fuzz-sheet-{}.png", std::process::id())))
}

fn one_line(message: &str) {
    assert!(
        !message.contains(['\n', '\r']),
        "a message of more than one line: {message:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mode = mode % 5;
    let text: String = if mode >= 3 {
        rest.iter().map(|&b| char::from(b)).collect()
    } else {
        match std::str::from_utf8(rest) {
            Ok(t) => t.to_string(),
            Err(_) => return,
        }
    };

    let entries = sheet::parse_entries(&text);
    let mut cells = Vec::new();
    for (code, label) in &entries {
        assert!(!code.contains(['\n', '\t']), "{code:?}");
        assert!(!label.contains('\n'), "{label:?}");
        assert!(!(code.trim().is_empty() && label.trim().is_empty()));
        match share::decode(code) {
            Ok(scene) => {
                scene.validate().expect("a decoded scene is valid");
                // A label playa writes is one line of its own.
                if !label.contains('\r') {
                    cells.push(Cell {
                        scene,
                        label: label.clone(),
                    });
                }
            }
            Err(e) => one_line(&e.to_string()),
        }
    }
    let written = sheet::parse_entries(&sheet::entries_text(&cells));
    let expected: Vec<(String, String)> = cells
        .iter()
        .map(|c| (share::encode(&c.scene), c.label.clone()))
        .collect();
    assert_eq!(written, expected, "a sheet's entries do not read back");

    if mode == 0 {
        return;
    }
    let Some(png) = png_with(mode, &text) else {
        return;
    };
    let read = recipe::read_text(std::io::Cursor::new(&png), "fuzz.png", SHEET_KEY)
        .unwrap_or_else(|e| panic!("the chunk does not read: {e}"));
    assert_eq!(
        read.as_deref(),
        Some(text.as_str()),
        "the chunk reads back changed"
    );
    let path = scratch();
    std::fs::write(path, &png).expect("the scratch file is written");
    let listed = sheet::read(path).unwrap_or_else(|e| panic!("the sheet does not read: {e}"));
    assert_eq!(
        listed.as_ref(),
        Some(&entries),
        "sheet::read lists other entries"
    );
    let e = recipe::decode_recipe(&png, "fuzz.png").expect_err("a sheet is no recipe");
    let message = e.to_string();
    one_line(&message);
    let says = format!("a contact sheet of {} scenes", entries.len());
    assert!(message.contains(&says), "{message:?} does not say {says:?}");
});
