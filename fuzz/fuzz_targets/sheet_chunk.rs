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
use playa::sheet::{self, Cell, SHEET_KEY};
use playa::{recipe, share};
use png::text_metadata::{ITXtChunk, TEXtChunk, ZTXtChunk};

/// A PNG of one pixel carrying `text` in the chunk kind `mode` picks, or
/// `None` when the encoder refuses it.
fn png_with(mode: u8, text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, 1, 1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().ok()?;
    let key = SHEET_KEY.to_string();
    let written = match mode {
        1 | 2 => {
            let mut chunk = ITXtChunk::new(key, text);
            if mode == 1 {
                chunk.compress_text().ok()?;
            }
            writer.write_text_chunk(&chunk)
        }
        3 => writer.write_text_chunk(&ZTXtChunk::new(key, text)),
        _ => writer.write_text_chunk(&TEXtChunk::new(key, text)),
    };
    written.ok()?;
    writer.write_image_data(&[0, 0, 0]).ok()?;
    writer.finish().ok()?;
    Some(out)
}

/// A file of this process's own to write the PNG to, for `sheet::read`.
fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("playa-fuzz-sheet-{}.png", std::process::id()))
    })
}

fn one_line(message: &str) {
    assert!(!message.contains(['\n', '\r']), "a message of more than one line: {message:?}");
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
                    cells.push(Cell { scene, label: label.clone() });
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
    assert_eq!(read.as_deref(), Some(text.as_str()), "the chunk reads back changed");
    let path = scratch();
    std::fs::write(path, &png).expect("the scratch file is written");
    let listed = sheet::read(path).unwrap_or_else(|e| panic!("the sheet does not read: {e}"));
    assert_eq!(listed.as_ref(), Some(&entries), "sheet::read lists other entries");
    let e = recipe::decode_recipe(&png, "fuzz.png").expect_err("a sheet is no recipe");
    let message = e.to_string();
    one_line(&message);
    let says = format!("a contact sheet of {} scenes", entries.len());
    assert!(message.contains(&says), "{message:?} does not say {says:?}");
});
