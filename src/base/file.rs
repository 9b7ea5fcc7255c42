//! Opening a file a user named, to read it: only a regular file is read.
//!
//! A named pipe would make the open itself wait for a writer, forever, and
//! a device (`/dev/zero`, `/dev/urandom`) never ends: both are refused, in
//! one line naming the path, before a byte is read. The file is opened
//! without waiting (`O_NONBLOCK`, which a regular file's reads ignore) and
//! then asked what it is, so nothing can be swapped in between.

use std::fs::File;
use std::path::Path;

use crate::error::{Error, Result};

/// `path` opened for reading, if it is a regular file (or a symbolic link
/// to one); else an [`Error::Io`] saying what it is.
pub fn open_regular(path: &Path) -> Result<File> {
    let io = |e| Error::io(path, e);
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let kind = file.metadata().map_err(io)?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_dir() {
        "a folder, not a file"
    } else {
        "not a regular file (a named pipe, a socket or a device)"
    };
    Err(io(std::io::Error::other(what)))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_is_opened() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("scene.ron");
        std::fs::write(&file, "()").unwrap();
        assert!(open_regular(&file).is_ok());
        let e = open_regular(dir.path()).unwrap_err().to_string();
        assert!(e.ends_with("a folder, not a file"), "{e}");
        // A named pipe without a writer: opening it to read would wait.
        let fifo = dir.path().join("fifo.ron");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = open_regular(&fifo).unwrap_err().to_string();
        assert!(e.contains("fifo.ron: not a regular file"), "{e}");
        let e = open_regular(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a regular file"), "{e}");
    }
}
