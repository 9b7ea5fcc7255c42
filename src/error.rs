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
    #[error("{}: {error}", path.display())]
    Io {
        /// The file involved.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// A Life-like rule string could not be parsed.
    #[error("invalid rule {rule:?}: {reason}")]
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
    #[error("{source_name}: {reason}")]
    Scene {
        /// Where the scene came from (a file name, "share code", ...).
        source_name: String,
        /// What is wrong, with line:column where known.
        reason: String,
    },
    /// A PNG could not be read or written.
    #[error("{source_name}: {reason}")]
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
    /// A share code could not be decoded.
    #[error("share code: {0}")]
    ShareCode(String),
    /// A batch that cannot be rendered as given (two scenes for one file).
    #[error("{0}")]
    Batch(String),
    /// A shard of a batch that cannot be worked out (see [`crate::shard`]).
    #[error("{0}")]
    Shard(String),
    /// A batch's manifest that cannot be read or does not fit the batch
    /// (see [`crate::manifest`]).
    #[error("{}: {reason}", path.display())]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// What is wrong, with the line where there is one.
        reason: String,
    },
    /// A web address to make links to scenes with (see
    /// [`crate::share::link`]) that is not one.
    #[error("{address:?} is not a web address: {reason}")]
    WebAddress {
        /// The address as given, cut short if long.
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
            what: what.into(),
            value: value.to_string(),
            limit: limit.into(),
        }
    }
}

/// `Result` with playa's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
