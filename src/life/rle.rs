//! Run-length-encoded Life patterns, as Golly and LifeViewer read and write them.
//!
//! ```text
//! #N Glider
//! #C Any number of comment lines come first.
//! x = 3, y = 3, rule = B3/S23
//! bo$2bo$3o!
//! ```
//!
//! After the comments comes the header (`x` and `y` required, `rule`
//! optional, in any order), then the cells: runs of an optional count and a
//! tag, `b` or `.` dead, `o` or `A` alive, `$` end of row (a count ends that
//! many rows), `!` end of pattern. Whitespace in the body is ignored, and so
//! is everything after `!`.
//!
//! The reader goes line by line, refuses lines over [`MAX_LINE`] bytes, and
//! stops at the first cell that breaks the header's size, so a huge or
//! hostile file fails without being read whole.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use crate::error::{Error, Result, clip, quote};
use crate::life::grid::{self, BitGrid};
use crate::life::rule::Rule;

/// Longest accepted line, in bytes, not counting the line end.
pub const MAX_LINE: usize = 64 * 1024;

/// Most bytes of `#` comment text kept from one pattern.
pub const MAX_COMMENT_BYTES: usize = 1024 * 1024;

/// Longest line the writer produces (Golly's limit), in characters, comment
/// lines aside.
pub const LINE_WIDTH: usize = 70;

/// A pattern read from RLE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The cells, sized by the header's `x` and `y`.
    pub grid: BitGrid,
    /// The header's rule, if it names one.
    pub rule: Option<Rule>,
    /// The `#` comment lines, without the leading `#` but with their tag
    /// (`"C A glider"`, `"N Glider"`). Bytes that are not UTF-8 (old files
    /// often hold Latin-1 names) become U+FFFD.
    pub comments: Vec<String>,
}

/// Reads a pattern from RLE text.
pub fn read(reader: impl BufRead) -> Result<Pattern> {
    read_from(reader, None)
}

/// Reads a pattern from a string.
pub fn parse(text: &str) -> Result<Pattern> {
    read(text.as_bytes())
}

/// Reads a pattern from a file; I/O errors name the file.
pub fn read_file(path: &Path) -> Result<Pattern> {
    let file = crate::base::file::open_regular(path)?;
    read_from(BufReader::new(file), Some(path))
}

/// The grid as RLE with `rule` in the header and `comments` as `#C` lines.
pub fn to_string(grid: &BitGrid, rule: Rule, comments: &[String]) -> String {
    let mut out = Vec::new();
    write(grid, rule, comments, &mut out).expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("RLE output is UTF-8")
}

/// Writes the grid as RLE: each comment as `#C` lines (one per line of the
/// comment), the header `x = W, y = H, rule = R`, then the runs, at most
/// [`LINE_WIDTH`] characters a line, ending with `!` and a newline.
///
/// Trailing dead cells of a row are left out, runs of empty rows become one
/// counted `$`, and no `$` comes right before `!`. A comment line `text` reads
/// back through [`read`] as `"C text"`, tag included.
pub fn write(
    grid: &BitGrid,
    rule: Rule,
    comments: &[String],
    mut out: impl Write,
) -> io::Result<()> {
    for comment in comments {
        for line in comment.lines() {
            writeln!(out, "#C {line}")?;
        }
    }
    writeln!(
        out,
        "x = {}, y = {}, rule = {rule}",
        grid.width(),
        grid.height()
    )?;
    let mut body = BodyWriter::new(out);
    let width = grid.width();
    // Row ends not yet written: they only go out once a later row has cells.
    let mut row_ends = 0usize;
    for y in 0..grid.height() {
        let row = grid.row(y);
        let mut x = next_bit(row, 0, width, true);
        if x < width && row_ends > 0 {
            body.run(row_ends, '$')?;
            row_ends = 0;
        }
        // Invariant: cells from `dead` to `x` are dead, `x` is alive (or the row's end).
        let mut dead = 0;
        while x < width {
            if x > dead {
                body.run(x - dead, 'b')?;
            }
            dead = next_bit(row, x, width, false);
            body.run(dead - x, 'o')?;
            x = next_bit(row, dead, width, true);
        }
        row_ends += 1;
    }
    body.token("!")?;
    body.finish()
}

/// Fills the body lines, breaking them between runs.
struct BodyWriter<W: Write> {
    out: W,
    line: String,
}

impl<W: Write> BodyWriter<W> {
    fn new(out: W) -> Self {
        BodyWriter {
            out,
            line: String::with_capacity(LINE_WIDTH + 1),
        }
    }

    /// A run of `count` (omitted when 1) and `tag`, kept on one line.
    fn run(&mut self, count: usize, tag: char) -> io::Result<()> {
        if count == 1 {
            self.token(tag.encode_utf8(&mut [0; 4]))
        } else {
            self.token(&format!("{count}{tag}"))
        }
    }

    fn token(&mut self, token: &str) -> io::Result<()> {
        if self.line.len() + token.len() > LINE_WIDTH {
            self.line.push('\n');
            self.out.write_all(self.line.as_bytes())?;
            self.line.clear();
        }
        self.line.push_str(token);
        Ok(())
    }

    fn finish(mut self) -> io::Result<()> {
        self.line.push('\n');
        self.out.write_all(self.line.as_bytes())?;
        self.out.flush()
    }
}

/// The first `x >= from` whose cell is `alive`, or `width` if there is none.
fn next_bit(row: &[u64], from: usize, width: usize, alive: bool) -> usize {
    let word = |i: usize| if alive { row[i] } else { !row[i] };
    let mut i = from / 64;
    if i >= row.len() {
        return width;
    }
    let mut bits = word(i) & (u64::MAX << (from % 64));
    loop {
        if bits != 0 {
            // Padding bits read as dead cells are set in `!row`: clamp.
            return (i * 64 + bits.trailing_zeros() as usize).min(width);
        }
        i += 1;
        if i == row.len() {
            return width;
        }
        bits = word(i);
    }
}

/// The reader behind [`read`] and [`read_file`]; `path` names the file in I/O errors.
fn read_from(reader: impl BufRead, path: Option<&Path>) -> Result<Pattern> {
    let mut lines = LineReader {
        reader,
        path,
        line: Vec::new(),
        number: 0,
    };
    let mut comments = Vec::new();
    let mut comment_bytes = 0;
    let header = loop {
        if !lines.next()? {
            let reason = if lines.number == 0 {
                "empty input: expected a header \"x = W, y = H\""
            } else {
                "no header \"x = W, y = H\" before the end of the input"
            };
            return Err(lines.error(reason.into()));
        }
        let trimmed = lines.line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(text) = trimmed.strip_prefix(b"#") {
            comment_bytes += text.len();
            if comment_bytes > MAX_COMMENT_BYTES {
                return Err(lines.error(format!(
                    "comments are longer than {MAX_COMMENT_BYTES} bytes in all"
                )));
            }
            comments.push(String::from_utf8_lossy(text).into_owned());
            continue;
        }
        let header = match std::str::from_utf8(trimmed) {
            Ok(text) => parse_header(text),
            Err(_) => {
                Err("expected a header \"x = W, y = H\", found bytes that are not text".into())
            }
        };
        break header.map_err(|reason| lines.error(reason))?;
    };
    let grid = BitGrid::new(header.width, header.height).map_err(|e| lines.error(e.to_string()))?;
    let mut body = Body {
        grid,
        x: 0,
        y: 0,
        count: None,
    };
    loop {
        if !lines.next()? {
            let reason = match body.count {
                Some(n) => format!("run count {n} has no tag, and the pattern ends without '!'"),
                None => "the pattern ends without '!'".into(),
            };
            return Err(lines.error(reason));
        }
        match body.eat(&lines.line) {
            Ok(false) => {}
            Ok(true) => break,
            Err(reason) => return Err(lines.error(reason)),
        }
    }
    Ok(Pattern {
        grid: body.grid,
        rule: header.rule,
        comments,
    })
}

/// Lines of a reader, each at most [`MAX_LINE`] bytes.
struct LineReader<'p, R> {
    reader: R,
    path: Option<&'p Path>,
    /// The line last read, without its line end.
    line: Vec<u8>,
    /// 1-based number of the line last read; 0 before the first.
    number: usize,
}

impl<R: BufRead> LineReader<'_, R> {
    /// Reads the next line into `self.line`; `false` at the end of the input.
    fn next(&mut self) -> Result<bool> {
        self.line.clear();
        // Never more than one byte past the limit, however long the line.
        let limit = MAX_LINE as u64 + 1;
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.line);
        let n = match read {
            Ok(n) => n,
            Err(e) => {
                return Err(match self.path {
                    Some(path) => Error::io(path, e),
                    None => Error::Rle {
                        line: self.number + 1,
                        reason: format!("reading failed: {e}"),
                    },
                });
            }
        };
        if n == 0 {
            return Ok(false);
        }
        self.number += 1;
        if self.line.last() == Some(&b'\n') {
            self.line.pop();
        } else if self.line.len() > MAX_LINE {
            return Err(self.error(format!("line is longer than {MAX_LINE} bytes")));
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Ok(true)
    }

    /// An RLE error at the current line (line 1 before any was read).
    fn error(&self, reason: String) -> Error {
        Error::Rle {
            line: self.number.max(1),
            reason,
        }
    }
}

/// What the header line says.
struct Header {
    width: usize,
    height: usize,
    rule: Option<Rule>,
}

/// Parses `x = W, y = H[, rule = R]`, the pairs in any order.
fn parse_header(text: &str) -> Result<Header, String> {
    let expected = || format!("expected a header \"x = W, y = H\", found {}", quote(text));
    if !text.starts_with(['x', 'X']) {
        return Err(expected());
    }
    let (mut width, mut height, mut rule) = (None, None, None::<String>);
    let mut last_key = "";
    for part in text.split(',') {
        let Some((key, value)) = part.split_once('=') else {
            // Golly's bounded-grid suffix holds a comma: "rule = B3/S23:T40,20".
            if let ("rule", Some(rule)) = (last_key, rule.as_mut()) {
                rule.push(',');
                rule.push_str(part.trim());
                continue;
            }
            return Err(format!(
                "header part {} is not \"key = value\"",
                quote(part.trim())
            ));
        };
        let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
        let size = |slot: &mut Option<usize>| {
            if slot.is_some() {
                return Err(format!("header gives {key} twice"));
            }
            *slot = Some(value.parse().map_err(|_| {
                if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
                    format!(
                        "{key} = {} is too large (at most {})",
                        clip(value),
                        grid::MAX_SIDE
                    )
                } else {
                    format!("{key} = {} is not a whole number", quote(value))
                }
            })?);
            Ok(())
        };
        match key.as_str() {
            "x" => size(&mut width)?,
            "y" => size(&mut height)?,
            "rule" => {
                if rule.is_some() {
                    return Err("header gives rule twice".into());
                }
                rule = Some(value.to_string());
            }
            _ => {
                return Err(format!(
                    "unknown header key {} (expected x, y or rule)",
                    quote(&key)
                ));
            }
        }
        last_key = match key.as_str() {
            "rule" => "rule",
            _ => "",
        };
    }
    let (Some(width), Some(height)) = (width, height) else {
        let missing = if width.is_none() { "x = W" } else { "y = H" };
        return Err(format!("header lacks {missing}"));
    };
    grid::check_size(width, height).map_err(|e| format!("pattern size {width}x{height}: {e}"))?;
    let rule = match rule {
        Some(text) => Some(text.parse::<Rule>().map_err(|e| e.to_string())?),
        None => None,
    };
    Ok(Header {
        width,
        height,
        rule,
    })
}

/// The cells read so far.
struct Body {
    grid: BitGrid,
    /// Next cell of the current row.
    x: usize,
    /// Current row.
    y: usize,
    /// The run count read so far, if any.
    count: Option<u64>,
}

impl Body {
    /// Reads one line of the body; `Ok(true)` once `!` is seen.
    fn eat(&mut self, line: &[u8]) -> Result<bool, String> {
        for &byte in line {
            match byte {
                b'0'..=b'9' => {
                    let digit = u64::from(byte - b'0');
                    let so_far = self.count.unwrap_or(0);
                    let count = so_far.checked_mul(10).and_then(|c| c.checked_add(digit));
                    match count {
                        Some(count) => self.count = Some(count),
                        None => {
                            return Err(format!("run count {so_far}{digit}... is too large"));
                        }
                    }
                }
                b'b' | b'.' => self.cells(false)?,
                b'o' | b'A' => self.cells(true)?,
                b'$' => {
                    let n = self.take_count()?;
                    let rows = self.grid.height() as u64;
                    // One row end past the last row is allowed: some writers end with `$!`.
                    // Saturating: a count near u64::MAX must not wrap around.
                    if (self.y as u64).saturating_add(n) > rows {
                        return Err(format!("more rows than y = {rows}"));
                    }
                    self.y += n as usize;
                    self.x = 0;
                }
                b'!' => {
                    if let Some(n) = self.count {
                        return Err(format!(
                            "run count {n} before '!' is not followed by b, o or $"
                        ));
                    }
                    return Ok(true);
                }
                b' ' | b'\t' | b'\r' | b'\x0c' => {}
                _ if byte.is_ascii_graphic() => {
                    return Err(format!(
                        "unexpected character {:?} (expected b, o, $, ! or a run count)",
                        char::from(byte)
                    ));
                }
                _ => return Err(format!("unexpected byte 0x{byte:02x}: RLE cells are ASCII")),
            }
        }
        Ok(false)
    }

    /// The pending run count (1 if none), which must not be 0.
    fn take_count(&mut self) -> Result<u64, String> {
        match self.count.take() {
            Some(0) => Err("run count 0".into()),
            Some(n) => Ok(n),
            None => Ok(1),
        }
    }

    /// A run of dead or live cells at the current place.
    fn cells(&mut self, alive: bool) -> Result<(), String> {
        let n = self.take_count()?;
        let (width, height) = (self.grid.width(), self.grid.height());
        if self.y >= height {
            return Err(format!("more rows than y = {height}"));
        }
        if (self.x as u64).saturating_add(n) > width as u64 {
            return Err(format!(
                "row {} has more than x = {width} cells",
                self.y + 1
            ));
        }
        let n = n as usize;
        if alive {
            fill_run(&mut self.grid, self.x, self.y, n);
        }
        self.x += n;
        Ok(())
    }
}

/// Sets `n` cells from (`x0`, `y`) eastwards, a word at a time; they must fit the row.
fn fill_run(grid: &mut BitGrid, x0: usize, y: usize, n: usize) {
    let wpr = grid.words_per_row();
    let row = &mut grid.words_mut()[y * wpr..(y + 1) * wpr];
    let (mut x, end) = (x0, x0 + n);
    while x < end {
        let bit = x % 64;
        let len = (64 - bit).min(end - x);
        let mask = if len == 64 {
            u64::MAX
        } else {
            ((1u64 << len) - 1) << bit
        };
        row[x / 64] |= mask;
        x += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const GLIDER: &str =
        "#N Glider\n#C The smallest spaceship.\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";

    const GOSPER_GUN: &str = "#N Gosper glider gun
#C This was the first gun discovered.
#C As its name suggests, it was discovered by Bill Gosper.
x = 36, y = 9, rule = B3/S23
24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b
obo$10bo5bo7bo$11bo3bo$12b2o!
";

    fn cells(grid: &BitGrid) -> Vec<(usize, usize)> {
        grid.alive_cells().collect()
    }

    #[test]
    fn glider_parses_to_its_cells() {
        let p = parse(GLIDER).unwrap();
        assert_eq!((p.grid.width(), p.grid.height()), (3, 3));
        assert_eq!(cells(&p.grid), vec![(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)]);
        assert_eq!(p.rule, Some(Rule::CONWAY));
        assert_eq!(p.comments, vec!["N Glider", "C The smallest spaceship."]);
    }

    #[test]
    fn gosper_gun_has_36_cells() {
        let p = parse(GOSPER_GUN).unwrap();
        assert_eq!((p.grid.width(), p.grid.height()), (36, 9));
        assert_eq!(p.grid.population(), 36);
        assert_eq!(p.comments.len(), 3);
        // Same text with the trailing dead cells LifeWiki's copy spells out.
        let padded = parse(
            "x = 36, y = 9\n24bo11b$22bobo11b$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o14b$\
             2o8bo3bob2o4bobo11b$10bo5bo7bo11b$11bo3bo20b$12b2o!",
        )
        .unwrap();
        assert_eq!(padded.grid, p.grid);
    }

    #[test]
    fn rule_is_optional_and_takes_either_form() {
        assert_eq!(parse("x = 1, y = 1\no!").unwrap().rule, None);
        assert_eq!(
            parse("x=1,y=1,rule=23/3\no!").unwrap().rule,
            Some(Rule::CONWAY)
        );
        let p = parse("rule = B36/S23\n").unwrap_err().to_string();
        assert!(p.contains("expected a header"), "{p}");
        let highlife = parse("x = 2, rule = b36/s23, y = 1\n2o!").unwrap();
        assert_eq!(highlife.rule, Some("B36/S23".parse().unwrap()));
        assert_eq!(highlife.grid.population(), 2);
    }

    #[test]
    fn body_layout_is_free() {
        let spread =
            "#C x\n\n  x = 3, y = 3\r\n b o $\r\n2\nb\to\n$\n3o\n!junk after the end\n\u{0}\u{1}";
        let dots = "x = 3, y = 3\n.A$..A$AAA!";
        let glider = parse(GLIDER).unwrap().grid;
        assert_eq!(parse(spread).unwrap().grid, glider);
        assert_eq!(parse(dots).unwrap().grid, glider);
        // Counted row ends skip empty rows; one trailing `$` is tolerated.
        let p = parse("x = 2, y = 4\no3$bo$!").unwrap();
        assert_eq!(cells(&p.grid), vec![(0, 0), (1, 3)]);
        assert_eq!(parse("x = 4, y = 4\n!").unwrap().grid.population(), 0);
    }

    #[test]
    fn writer_output_is_canonical() {
        let glider = parse(GLIDER).unwrap().grid;
        let text = to_string(
            &glider,
            Rule::CONWAY,
            &["made here".into(), "two\nlines".into()],
        );
        assert_eq!(
            text,
            "#C made here\n#C two\n#C lines\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n"
        );
        let mut grid = BitGrid::new(130, 6).unwrap();
        for x in 0..130 {
            grid.set(x, 1, true);
        }
        grid.set(129, 4, true);
        assert_eq!(
            to_string(&grid, Rule::CONWAY, &[]),
            "x = 130, y = 6, rule = B3/S23\n$130o3$129bo!\n"
        );
        let empty = BitGrid::new(5, 5).unwrap();
        assert_eq!(
            to_string(&empty, Rule::CONWAY, &[]),
            "x = 5, y = 5, rule = B3/S23\n!\n"
        );
    }

    #[test]
    fn long_bodies_break_between_runs() {
        // Alternating runs of growing length: many tokens of varied width.
        let mut grid = BitGrid::new(3000, 3).unwrap();
        let (mut x, mut len, mut alive) = (0, 1, true);
        while x < 3000 {
            for i in x..(x + len).min(3000) {
                grid.set(i, 1, alive);
            }
            (x, len, alive) = (x + len, len % 7 + 1, !alive);
        }
        let text = to_string(&grid, Rule::CONWAY, &[]);
        assert!(text.lines().count() > 10);
        for (i, line) in text.lines().enumerate() {
            assert!(line.len() <= LINE_WIDTH, "{line:?}");
            let body = i > 0;
            assert!(
                !(body && line.ends_with(|c: char| c.is_ascii_digit())),
                "count split: {line:?}"
            );
        }
        assert_eq!(parse(&text).unwrap().grid, grid);
    }

    #[test]
    fn malformed_inputs_name_problem_and_line() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"", 1, "empty input"),
            (b"#C only a comment\n", 1, "no header"),
            (b"bo$2bo$3o!", 1, "expected a header"),
            (
                b"#N x\nx = 0, y = 3\n!",
                2,
                "grid width 0 is out of range: must be 1 to 65536",
            ),
            (b"x = 999999999, y = 3\n!", 1, "must be 1 to 65536"),
            (
                b"x = 99999999999999999999999, y = 3\n!",
                1,
                "too large (at most 65536)",
            ),
            (b"x = 60000, y = 60000\n!", 1, "at most 268435456 cells"),
            (b"x = 3\n!", 1, "lacks y = H"),
            (b"x = 3, y = 3, z = 1\n!", 1, "unknown header key \"z\""),
            (
                b"x = 3, y = 3, rule = B9/S23\n!",
                1,
                "invalid rule \"B9/S23\"",
            ),
            (
                b"x = 3, y = 3, rule = B3/S29\n!",
                1,
                "'9' is not a neighbour count",
            ),
            (
                b"x = 3, y = 3, rule = B3/S23:T40,40\n!",
                1,
                "invalid rule \"B3/S23:T40,40\"",
            ),
            (b"x = 3, y = 3\nbo$\n3q!", 3, "unexpected character 'q'"),
            (
                b"x = 3, y = 3\n99999999999999999999o!",
                2,
                "run count 9999999999999999999",
            ),
            (b"x = 3, y = 3\n0o!", 2, "run count 0"),
            (
                b"x = 3, y = 3\nbo$4o!",
                2,
                "row 2 has more than x = 3 cells",
            ),
            (b"x = 3, y = 3\nbo$o$o$o!", 2, "more rows than y = 3"),
            (b"x = 3, y = 3\nbo$o$o$$!", 2, "more rows than y = 3"),
            (b"x = 3, y = 2\no\n5$o!", 3, "more rows than y = 2"),
            (b"x = 3, y = 3\nbo$\n2bo$\n", 3, "ends without '!'"),
            (b"x = 3, y = 3\nbo3!", 2, "run count 3 before '!'"),
            (b"x = 3, y = 3\n\xff\xfe\x00!", 2, "unexpected byte 0xff"),
            (b"\xff\xfe\x00\x01garbage\n", 1, "not text"),
            (b"\x89PNG\r\n\x1a\n\x00\x00", 1, "expected a header"),
        ];
        for &(input, line, needle) in cases {
            let err = read(input).unwrap_err();
            let text = err.to_string();
            assert!(
                matches!(err, Error::Rle { line: l, .. } if l == line),
                "{:?}: wrong line in {text}",
                String::from_utf8_lossy(input)
            );
            assert!(
                text.contains(needle),
                "{:?}: {text}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn huge_inputs_fail_early() {
        // An endless line: refused after MAX_LINE bytes, not read whole.
        let endless = io::repeat(b'o').take(1 << 40);
        let err = read(BufReader::new(
            io::Cursor::new(b"x = 3, y = 3\n".to_vec()).chain(endless),
        ))
        .unwrap_err();
        assert!(err.to_string().contains("longer than 65536 bytes"), "{err}");
        // Many rows: refused at the first row past y, line 5.
        let rows = format!("x = 3, y = 3\n{}", "$\n".repeat(100_000));
        match parse(&rows).unwrap_err() {
            Error::Rle { line, reason } => {
                assert_eq!((line, &*reason), (5, "more rows than y = 3"))
            }
            e => panic!("{e}"),
        }
        // A line of exactly MAX_LINE bytes is fine.
        let mut text = b"x = 65536, y = 1\n".to_vec();
        text.extend(std::iter::repeat_n(b'b', MAX_LINE - 1));
        text.push(b'!');
        assert!(read(&text[..]).is_ok());
    }

    #[test]
    fn read_file_names_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.rle");
        let err = read_file(&missing).unwrap_err();
        assert!(matches!(err, Error::Io { .. }));
        assert!(err.to_string().contains("missing.rle"), "{err}");
        let path = dir.path().join("glider.rle");
        std::fs::write(&path, GLIDER).unwrap();
        assert_eq!(read_file(&path).unwrap(), parse(GLIDER).unwrap());
    }

    fn any_rule() -> impl Strategy<Value = Rule> {
        (0u16..512, 0u16..512).prop_map(|(b, s)| Rule::from_masks(b & !1, s).unwrap())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn write_then_parse_is_identity(
            width in 1usize..=150,
            height in 1usize..=150,
            density in prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0],
            seed: u64,
            rule in any_rule(),
        ) {
            let grid = crate::life::soup(width, height, density, seed).unwrap();
            let text = to_string(&grid, rule, &["a comment".into()]);
            for line in text.lines() {
                prop_assert!(line.len() <= LINE_WIDTH, "{line:?}");
            }
            prop_assert!(!text.contains("$!"));
            let back = parse(&text).unwrap();
            prop_assert_eq!(back.grid, grid);
            prop_assert_eq!(back.rule, Some(rule));
            prop_assert_eq!(back.comments, vec!["C a comment".to_string()]);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = read(&bytes[..]);
            let mut framed = b"x = 8, y = 8\n".to_vec();
            framed.extend(&bytes);
            let _ = read(&framed[..]);
        }
    }
}
