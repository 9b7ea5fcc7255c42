//! The one error type of the library.

use std::path::PathBuf;

/// Everything that can go wrong in playa, one variant per source.
///
/// Messages are written to be shown to a person as they are: each names the
/// input that was wrong and, where there is one, the limit it broke.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    // The io error is part of the message rather than a `#[source]`, so that
    // printing the error chain does not say it twice.
    #[error("{}: {error}", clip(&path.display().to_string()))]
    Io {
        /// The file involved.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// A Life-like rule string could not be parsed.
    #[error("invalid rule {}: {reason}", quote(rule))]
    Rule {
        /// The whole rule as given.
        rule: String,
        /// What is wrong with it, naming the offending part.
        reason: String,
    },
    /// A run-length-encoded pattern could not be read.
    #[error("RLE line {line}: {reason}")]
    Rle {
        /// 1-based line number of the problem.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A size, count or other number outside what playa accepts.
    #[error("{what} {value} is out of range: {limit}")]
    OutOfRange {
        /// Which quantity (e.g. "grid width", "rocks.top").
        what: String,
        /// The value given, as text.
        value: String,
        /// The accepted range, in words.
        limit: String,
    },
    /// A scene description (RON) could not be read.
    #[error("{}: {reason}", clip(source_name))]
    Scene {
        /// Where the scene came from (a file name, "share code", ...).
        source_name: String,
        /// What is wrong, with line:column where known.
        reason: String,
    },
    /// A PNG could not be read or written.
    #[error("{}: {reason}", clip(source_name))]
    Png {
        /// The file or stream involved.
        source_name: String,
        /// What is wrong.
        reason: String,
    },
    /// An input that is none of the things a scene is loaded from (see
    /// [`crate::source`]).
    #[error("{input} is not a playa scene: {reason}")]
    NotAScene {
        /// The input as the person gave it: a file, an argument, pasted text.
        input: String,
        /// Why not, or what would have been accepted.
        reason: String,
    },
    /// A setting named by a key (`rocks.roughness=0.8`, see
    /// [`crate::explore::tweak`]) that cannot be set: an unknown key, a value of the
    /// wrong type, a layer the scene does not have.
    #[error("{}: {reason}", clip(key))]
    Setting {
        /// The key as given.
        key: String,
        /// What is wrong, and what would have been accepted.
        reason: String,
    },
    /// A scene that would take longer to draw than playa allows
    /// ([`crate::scene::cost`]): how much longer than death-valley, the
    /// limit, and what to lower.
    #[error(
        "the scene would take about {ratio} as long as death-valley to draw, more than the limit of {limit}: {advice}"
    )]
    TooCostly {
        /// Its cost, in death-valleys ("52×").
        ratio: String,
        /// The limit, in death-valleys ("10×").
        limit: String,
        /// What costs most, and what to lower.
        advice: String,
    },
    /// A share code could not be decoded.
    #[error("share code: {0}")]
    ShareCode(String),
    /// A batch that cannot be rendered as given (two scenes for one file).
    #[error("{0}")]
    Batch(String),
    /// A picture size playa does not draw (too thin: see
    /// [`crate::compose::window::check_aspect`]), or a crop it cannot make.
    #[error("{0}")]
    InvalidSize(String),
    /// A shard of a batch that cannot be worked out (see [`crate::batch::shard`]).
    #[error("{0}")]
    Shard(String),
    /// A batch's manifest that cannot be read or does not fit the batch
    /// (see [`crate::batch::manifest`]).
    #[error("{}: {reason}", clip(&path.display().to_string()))]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// What is wrong, with the line where there is one.
        reason: String,
    },
    /// A name a user preset cannot have, or a user preset that is not
    /// there or cannot be kept (see [`crate::source::user_presets`]).
    #[error("preset {}: {reason}", quote(name))]
    UserPreset {
        /// The preset's name as given.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A web address to make links to scenes with (see
    /// [`crate::share::link`]) that is not one.
    #[error("{} is not a web address: {reason}", quote(address))]
    WebAddress {
        /// The address as given.
        address: String,
        /// Why not.
        reason: String,
    },
}

impl Error {
    /// An [`Error::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            error,
        }
    }

    /// An [`Error::OutOfRange`] for a quantity, its value and its documented limit.
    pub fn out_of_range(
        what: impl Into<String>,
        value: impl ToString,
        limit: impl Into<String>,
    ) -> Self {
        Error::OutOfRange {
            what: clip(&what.into()),
            value: clip(&value.to_string()),
            limit: limit.into(),
        }
    }
}

/// How long a piece of input an error message shows whole, in characters
/// (escapes counted): a longer one is cut to [`EXCERPT_CHARS`].
pub const QUOTE_LIMIT: usize = 80;

/// How many characters of a longer input an error message shows, before
/// "…" and the input's whole length.
pub const EXCERPT_CHARS: usize = 60;

/// `text` as an error message quotes it: between double quotes, escaped as
/// Rust's `{:?}` does (so a message stays one line), and cut when longer
/// than [`QUOTE_LIMIT`]: `"B3/S99999…" (600004 characters)`. A 600 KB rule
/// in a scene file shows its first [`EXCERPT_CHARS`] characters, not 600 KB.
pub fn quote(text: &str) -> String {
    in_quotes(excerpt(text, true))
}

/// An excerpt between double quotes, with the whole length if it was cut.
fn in_quotes((shown, total): (String, Option<usize>)) -> String {
    match total {
        None => format!("\"{shown}\""),
        Some(total) => format!("\"{shown}…\" ({total} characters)"),
    }
}

/// `text` as an error message names it (a file, a preset's name, a share
/// code before its message): as it is, control characters escaped (so a
/// message stays one line), and cut as [`quote`] cuts:
/// `/tmp/very/long…(312 characters)`.
pub fn clip(text: &str) -> String {
    match excerpt(text, false) {
        (shown, None) => shown,
        (shown, Some(total)) => format!("{shown}… ({total} characters)"),
    }
}

/// The escaped text and, when it had to be cut, its whole length in
/// characters. `quoted` escapes `"` and `\\` too, as `{:?}` does.
fn excerpt(text: &str, quoted: bool) -> (String, Option<usize>) {
    let escape = |c: char| -> String {
        let debug = c.is_control() || (quoted && c != '\'');
        if debug && c.escape_debug().len() > 1 {
            c.escape_debug().collect()
        } else {
            c.to_string()
        }
    };
    let mut shown = String::new();
    let mut length = 0;
    let mut cut_at = None;
    for c in text.chars() {
        let escaped = escape(c);
        length += escaped.chars().count();
        if length > QUOTE_LIMIT {
            break;
        }
        if length <= EXCERPT_CHARS {
            cut_at = Some(shown.len() + escaped.len());
        }
        shown.push_str(&escaped);
    }
    if length <= QUOTE_LIMIT {
        return (shown, None);
    }
    shown.truncate(cut_at.unwrap_or(0));
    (shown, Some(text.chars().count()))
}

/// Reads a `T` from RON `text` nested at most `recursion_limit` deep; the
/// error, for a message naming the text's source, is "line L, column C:"
/// and what is wrong there ([`ron_message`]).
pub(crate) fn from_ron<T: serde::de::DeserializeOwned>(
    text: &str,
    recursion_limit: usize,
) -> std::result::Result<T, String> {
    ron::Options::default()
        .with_recursion_limit(recursion_limit)
        .from_str(text)
        .map_err(|e| {
            format!(
                "line {}, column {}: {}",
                e.span.start.line,
                e.span.start.col,
                ron_message(&e.code)
            )
        })
}

/// The message of a RON error, with any input it quotes (an unknown field's
/// or variant's name, a value) cut as [`quote`] cuts. Custom messages are
/// playa's own, which cut what they quote themselves.
pub(crate) fn ron_message(code: &ron::Error) -> String {
    use ron::Error as E;
    let mut code = code.clone();
    // RON writes a name as `name`, or as "name"_[invalid identifier] when it
    // is none (a cut one never is): the cut name is put back, quoted.
    let mut name = None;
    match &mut code {
        E::NoSuchEnumVariant { found: text, .. }
        | E::NoSuchStructField { found: text, .. }
        | E::ExpectedDifferentStructName { found: text, .. }
        | E::NoSuchExtension(text)
        | E::InvalidIdentifier(text)
        | E::SuggestRawIdentifier(text)
            if clip(text) != *text =>
        {
            name = Some(quote(text));
            *text = PLACEHOLDER.into();
        }
        E::InvalidValueForType { found, .. } if clip(found) != *found => {
            // serde wrote `the string "…"` with the string escaped already.
            *found = match found
                .strip_prefix("the string \"")
                .and_then(|rest| rest.strip_suffix('"'))
            {
                Some(escaped) => format!("the string {}", in_quotes(excerpt(escaped, false))),
                None => clip(found),
            }
        }
        _ => {}
    }
    let message = code.to_string();
    match name {
        Some(name) => message
            .replace(&format!("`r#{PLACEHOLDER}`"), "a raw identifier")
            .replace(&format!("`{PLACEHOLDER}`"), &name)
            .replace(PLACEHOLDER, &name),
        None => message,
    }
}

/// Stands in for a name in a RON message until the message is written.
const PLACEHOLDER: &str = "playa_cut_name";

/// `Result` with playa's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_input_is_quoted_whole() {
        assert_eq!(quote("B3/S23"), "\"B3/S23\"");
        assert_eq!(quote("a\"b\nc"), "\"a\\\"b\\nc\"");
        assert_eq!(clip("/tmp/a b.ron"), "/tmp/a b.ron");
        assert_eq!(clip("line\nbreak"), "line\\nbreak");
        let eighty = "x".repeat(QUOTE_LIMIT);
        assert_eq!(clip(&eighty), eighty);
    }

    #[test]
    fn long_input_is_cut_with_its_length() {
        let long = format!("B3/S{}", "9".repeat(600_000));
        let quoted = quote(&long);
        assert_eq!(
            quoted,
            format!("\"B3/S{}…\" (600004 characters)", "9".repeat(56))
        );
        assert_eq!(
            clip(&"é".repeat(81)),
            format!("{}… (81 characters)", "é".repeat(60))
        );
        // Escapes count: a line of newlines is cut before 80 characters show.
        let breaks = quote(&"\n".repeat(50));
        assert_eq!(breaks, format!("\"{}…\" (50 characters)", "\\n".repeat(30)));
    }
}
