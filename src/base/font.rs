//! A small bitmap font for labels on pictures (the contact sheets of
//! [`crate::explore::sheet`]): printable ASCII, each glyph 5×7 pixels in a cell 6
//! wide and 10 high, with a row below the baseline for the tails of g, j, p,
//! q and y. Share codes are ASCII, so every character of a code is drawn;
//! `0` is slashed and `1`, `l` and `I` differ, so a code read off a sheet
//! is the code.

use image::RgbaImage;

/// Width of a glyph in pixels (at scale 1).
pub const GLYPH_WIDTH: u32 = 5;
/// Rows of a glyph, the row below the baseline included.
pub const GLYPH_ROWS: u32 = 8;
/// Horizontal advance from one character to the next (at scale 1).
pub const ADVANCE: u32 = 6;
/// Height of a line of text (at scale 1).
pub const LINE_HEIGHT: u32 = 10;

/// The glyphs of `' '` to `'~'`, in order: 8 rows of 5 pixels each, top
/// first, `#` drawn and `.` not.
const GLYPHS: [&str; 95] = [
    "..... ..... ..... ..... ..... ..... ..... .....", // ' '
    "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#.. .....", // !
    ".#.#. .#.#. ..... ..... ..... ..... ..... .....", // "
    ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#. .....", // #
    "..#.. .#### #.#.. .###. ..#.# ####. ..#.. .....", // $
    "##... ##..# ...#. ..#.. .#... #..## ...## .....", // %
    ".##.. #..#. #.#.. .#... #.#.# #..#. .##.# .....", // &
    "..#.. ..#.. .#... ..... ..... ..... ..... .....", // '
    "...#. ..#.. .#... .#... .#... ..#.. ...#. .....", // (
    ".#... ..#.. ...#. ...#. ...#. ..#.. .#... .....", // )
    "..... ..#.. #.#.# .###. #.#.# ..#.. ..... .....", // *
    "..... ..#.. ..#.. ##### ..#.. ..#.. ..... .....", // +
    "..... ..... ..... ..... ..... .##.. ..#.. .#...", // ,
    "..... ..... ..... ##### ..... ..... ..... .....", // -
    "..... ..... ..... ..... ..... .##.. .##.. .....", // .
    "..... ....# ...#. ..#.. .#... #.... ..... .....", // /
    ".###. #...# #..## #.#.# ##..# #...# .###. .....", // 0
    "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###. .....", // 1
    ".###. #...# ....# ...#. ..#.. .#... ##### .....", // 2
    "##### ...#. ..#.. ...#. ....# #...# .###. .....", // 3
    "...#. ..##. .#.#. #..#. ##### ...#. ...#. .....", // 4
    "##### #.... ####. ....# ....# #...# .###. .....", // 5
    "..##. .#... #.... ####. #...# #...# .###. .....", // 6
    "##### ....# ...#. ..#.. .#... .#... .#... .....", // 7
    ".###. #...# #...# .###. #...# #...# .###. .....", // 8
    ".###. #...# #...# .#### ....# ...#. .##.. .....", // 9
    "..... .##.. .##.. ..... .##.. .##.. ..... .....", // :
    "..... .##.. .##.. ..... .##.. ..#.. .#... .....", // ;
    "...#. ..#.. .#... #.... .#... ..#.. ...#. .....", // <
    "..... ..... ##### ..... ##### ..... ..... .....", // =
    ".#... ..#.. ...#. ....# ...#. ..#.. .#... .....", // >
    ".###. #...# ....# ...#. ..#.. ..... ..#.. .....", // ?
    ".###. #...# ....# .##.# #.#.# #.#.# .###. .....", // @
    ".###. #...# #...# ##### #...# #...# #...# .....", // A
    "####. #...# #...# ####. #...# #...# ####. .....", // B
    ".###. #...# #.... #.... #.... #...# .###. .....", // C
    "###.. #..#. #...# #...# #...# #..#. ###.. .....", // D
    "##### #.... #.... ####. #.... #.... ##### .....", // E
    "##### #.... #.... ####. #.... #.... #.... .....", // F
    ".###. #...# #.... #.### #...# #...# .#### .....", // G
    "#...# #...# #...# ##### #...# #...# #...# .....", // H
    "##### ..#.. ..#.. ..#.. ..#.. ..#.. ##### .....", // I
    "..### ...#. ...#. ...#. ...#. #..#. .##.. .....", // J
    "#...# #..#. #.#.. ##... #.#.. #..#. #...# .....", // K
    "#.... #.... #.... #.... #.... #.... ##### .....", // L
    "#...# ##.## #.#.# #.#.# #...# #...# #...# .....", // M
    "#...# #...# ##..# #.#.# #..## #...# #...# .....", // N
    ".###. #...# #...# #...# #...# #...# .###. .....", // O
    "####. #...# #...# ####. #.... #.... #.... .....", // P
    ".###. #...# #...# #...# #.#.# #..#. .##.# .....", // Q
    "####. #...# #...# ####. #.#.. #..#. #...# .....", // R
    ".#### #.... #.... .###. ....# ....# ####. .....", // S
    "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. .....", // T
    "#...# #...# #...# #...# #...# #...# .###. .....", // U
    "#...# #...# #...# #...# #...# .#.#. ..#.. .....", // V
    "#...# #...# #...# #.#.# #.#.# #.#.# .#.#. .....", // W
    "#...# #...# .#.#. ..#.. .#.#. #...# #...# .....", // X
    "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#.. .....", // Y
    "##### ....# ...#. ..#.. .#... #.... ##### .....", // Z
    ".###. .#... .#... .#... .#... .#... .###. .....", // [
    "..... #.... .#... ..#.. ...#. ....# ..... .....", // \
    ".###. ...#. ...#. ...#. ...#. ...#. .###. .....", // ]
    "..#.. .#.#. #...# ..... ..... ..... ..... .....", // ^
    "..... ..... ..... ..... ..... ..... ##### .....", // _
    ".#... ..#.. ...#. ..... ..... ..... ..... .....", // `
    "..... ..... .###. ....# .#### #...# .#### .....", // a
    "#.... #.... #.##. ##..# #...# #...# ####. .....", // b
    "..... ..... .###. #.... #.... #...# .###. .....", // c
    "....# ....# .##.# #..## #...# #...# .#### .....", // d
    "..... ..... .###. #...# ##### #.... .###. .....", // e
    "..##. .#..# .#... ###.. .#... .#... .#... .....", // f
    "..... ..... .#### #...# #...# .#### ....# .###.", // g
    "#.... #.... #.##. ##..# #...# #...# #...# .....", // h
    "..#.. ..... .##.. ..#.. ..#.. ..#.. .###. .....", // i
    "...#. ..... ..##. ...#. ...#. ...#. #..#. .##..", // j
    "#.... #.... #..#. #.#.. ##... #.#.. #..#. .....", // k
    ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. ...## .....", // l
    "..... ..... ##.#. #.#.# #.#.# #...# #...# .....", // m
    "..... ..... #.##. ##..# #...# #...# #...# .....", // n
    "..... ..... .###. #...# #...# #...# .###. .....", // o
    "..... ..... ####. #...# #...# ####. #.... #....", // p
    "..... ..... .#### #...# #...# .#### ....# ....#", // q
    "..... ..... #.##. ##..# #.... #.... #.... .....", // r
    "..... ..... .###. #.... .###. ....# ####. .....", // s
    ".#... .#... ###.. .#... .#... .#..# ..##. .....", // t
    "..... ..... #...# #...# #...# #..## .##.# .....", // u
    "..... ..... #...# #...# #...# .#.#. ..#.. .....", // v
    "..... ..... #...# #...# #.#.# #.#.# .#.#. .....", // w
    "..... ..... #...# .#.#. ..#.. .#.#. #...# .....", // x
    "..... ..... #...# #...# #...# .#### ....# .###.", // y
    "..... ..... ##### ...#. ..#.. .#... ##### .....", // z
    "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#. .....", // {
    "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. .....", // |
    ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#... .....", // }
    "..... ..... .#... #.#.# ...#. ..... ..... .....", // ~
];

/// The glyph of `c` as one byte per row, top first, bit 4 the leftmost
/// pixel; a character outside printable ASCII is drawn as `?`.
pub fn glyph(c: char) -> [u8; GLYPH_ROWS as usize] {
    let index = match c {
        ' '..='~' => c as usize - ' ' as usize,
        _ => '?' as usize - ' ' as usize,
    };
    let mut rows = [0u8; GLYPH_ROWS as usize];
    for (row, text) in rows.iter_mut().zip(GLYPHS[index].split(' ')) {
        *row = text
            .bytes()
            .fold(0, |bits, b| bits << 1 | u8::from(b == b'#'));
    }
    rows
}

/// Width in pixels of `text` drawn at `scale`: [`ADVANCE`] per character
/// but the last, which takes its glyph's width.
pub fn text_width(text: &str, scale: u32) -> u32 {
    let n = text.chars().count() as u32;
    if n == 0 {
        0
    } else {
        ((n - 1) * ADVANCE + GLYPH_WIDTH) * scale
    }
}

/// How many characters fit in `width` pixels at `scale`.
pub fn chars_fitting(width: u32, scale: u32) -> usize {
    let scale = scale.max(1);
    if width < GLYPH_WIDTH * scale {
        0
    } else {
        ((width - GLYPH_WIDTH * scale) / (ADVANCE * scale) + 1) as usize
    }
}

/// Draws `text` on `image` with its top-left corner at `(x, y)`, each font
/// pixel a `scale × scale` square of `color`; what falls outside the image
/// is left out.
pub fn draw(image: &mut RgbaImage, x: u32, y: u32, text: &str, color: [u8; 3], scale: u32) {
    let scale = scale.max(1);
    let (w, h) = image.dimensions();
    for (i, c) in text.chars().enumerate() {
        let x0 = x + i as u32 * ADVANCE * scale;
        for (r, bits) in glyph(c).iter().enumerate() {
            for col in 0..GLYPH_WIDTH {
                if bits >> (GLYPH_WIDTH - 1 - col) & 1 == 0 {
                    continue;
                }
                for dy in 0..scale {
                    for dx in 0..scale {
                        let (px, py) = (x0 + col * scale + dx, y + r as u32 * scale + dy);
                        if px < w && py < h {
                            image.put_pixel(
                                px,
                                py,
                                image::Rgba([color[0], color[1], color[2], 255]),
                            );
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_is_5_by_8_and_distinct() {
        let mut seen = std::collections::HashMap::new();
        for (i, text) in GLYPHS.iter().enumerate() {
            let c = char::from(b' ' + i as u8);
            let rows: Vec<&str> = text.split(' ').collect();
            assert_eq!(rows.len(), 8, "{c:?}");
            for row in rows {
                assert_eq!(row.len(), 5, "{c:?}");
                assert!(row.bytes().all(|b| b == b'#' || b == b'.'), "{c:?}");
            }
            if let Some(other) = seen.insert(glyph(c), c) {
                panic!("{c:?} and {other:?} look alike");
            }
            // Only a space is blank.
            assert_eq!(glyph(c) == [0; 8], c == ' ', "{c:?}");
        }
        assert_eq!(glyph('é'), glyph('?'));
    }

    #[test]
    fn characters_that_look_alike_differ_in_several_pixels() {
        let differ = |a: char, b: char| {
            glyph(a)
                .iter()
                .zip(glyph(b))
                .map(|(x, y)| (x ^ y).count_ones())
                .sum::<u32>()
        };
        for (a, b) in [('0', 'O'), ('1', 'l'), ('1', 'I'), ('l', 'I'), ('-', '_')] {
            assert!(differ(a, b) >= 3, "{a} {b}: {}", differ(a, b));
        }
    }

    #[test]
    fn text_is_drawn_where_asked_and_clipped() {
        let mut image = RgbaImage::new(20, 12);
        draw(&mut image, 1, 2, "-", [255, 0, 0], 1);
        // The dash is row 3 of the glyph, columns 0..5.
        for x in 0..20 {
            for y in 0..12 {
                let red = image.get_pixel(x, y)[0] == 255;
                assert_eq!(red, y == 5 && (1..6).contains(&x), "{x},{y}");
            }
        }
        // Larger than the image: no panic.
        draw(&mut image, 15, 8, "Wide text", [1, 2, 3], 3);
        assert_eq!(text_width("ab", 1), 11);
        assert_eq!(text_width("ab", 2), 22);
        assert_eq!(chars_fitting(11, 1), 2);
        assert_eq!(chars_fitting(16, 1), 2);
        assert_eq!(chars_fitting(17, 1), 3);
        assert_eq!(chars_fitting(4, 1), 0);
    }
}
