//! Run-length-encoded Life patterns (Golly, LifeViewer). WORK IN PROGRESS.

use std::io::BufRead;
use std::path::Path;

use crate::error::Result;
use crate::grid::BitGrid;
use crate::rule::Rule;

/// A pattern read from RLE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The cells, sized by the header's `x` and `y`.
    pub grid: BitGrid,
    /// The header's rule, if it names one.
    pub rule: Option<Rule>,
    /// The `#` comment lines, without the leading `#`.
    pub comments: Vec<String>,
}

/// Reads a pattern from RLE text.
pub fn read(_reader: impl BufRead) -> Result<Pattern> {
    todo!()
}

/// Reads a pattern from a string.
pub fn parse(text: &str) -> Result<Pattern> {
    read(text.as_bytes())
}

/// Reads a pattern from a file.
pub fn read_file(_path: &Path) -> Result<Pattern> {
    todo!()
}

/// The grid as RLE with `rule` in the header and `comments` as `#C` lines.
pub fn to_string(_grid: &BitGrid, _rule: Rule, _comments: &[String]) -> String {
    todo!()
}
