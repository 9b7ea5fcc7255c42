//! Opening files safely: a file a user named, to read it (only a regular
//! file is read), and the files and folders inside an output folder (never
//! through a symbolic link).
//!
//! A named pipe would make the open itself wait for a writer, forever, and
//! a device (`/dev/zero`, `/dev/urandom`) never ends: both are refused, in
//! one line naming the path, before a byte is read. The file is opened
//! without waiting (`O_NONBLOCK`, which a regular file's reads ignore) and
//! then asked what it is, so nothing can be swapped in between.
//!
//! Inside a folder playa writes (a batch's, a pyramid's), a symbolic link
//! may have been planted by someone else to lead a write, or a check's
//! read, out of it: such a link is refused wherever it stands, a folder on
//! the way or the file itself (`O_NOFOLLOW`). The folder the user named is
//! theirs, and is followed.

use std::fs::File;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// What a link inside an output folder is told.
const LINK: &str = "a symbolic link: playa neither writes nor reads through one inside its folder";

/// `path` opened for reading, if it is a regular file (or a symbolic link
/// to one); else an [`Error::Io`] saying what it is.
pub fn open_regular(path: &Path) -> Result<File> {
    open(path, Follow::Yes)
}

/// `path`, a file inside an output folder, opened for reading if it is a
/// regular file itself: a symbolic link is refused (not followed), as are
/// a pipe and a device. Its folders are checked by
/// [`check_folders_inside`].
pub fn open_regular_no_follow(path: &Path) -> Result<File> {
    open(path, Follow::No)
}

#[derive(Clone, Copy, PartialEq)]
enum Follow {
    Yes,
    No,
}

fn open(path: &Path, follow: Follow) -> Result<File> {
    let io = |e| Error::io(path, e);
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let no_follow = match follow {
            Follow::Yes => 0,
            Follow::No => libc::O_NOFOLLOW,
        };
        options.custom_flags(libc::O_NONBLOCK | no_follow);
    }
    let file = options.open(path).map_err(|e| link_or(path, e, follow))?;
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

/// `e`, an open's error, as one naming the link it met when `O_NOFOLLOW`
/// refused one (`ELOOP`).
fn link_or(path: &Path, e: std::io::Error, follow: Follow) -> Error {
    #[cfg(unix)]
    if follow == Follow::No && e.raw_os_error() == Some(libc::ELOOP) {
        return Error::io(path, std::io::Error::other(LINK));
    }
    let _ = follow;
    Error::io(path, e)
}

/// The manifest-like file `path` inside an output folder, opened to read
/// and write (made, empty, if it is not there), when it is a regular file
/// itself: a symbolic link, a pipe or a device is refused.
pub fn open_writable_no_follow(path: &Path) -> Result<File> {
    let io = |e| Error::io(path, e);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = options
        .open(path)
        .map_err(|e| link_or(path, e, Follow::No))?;
    match file.metadata().map_err(io)?.is_file() {
        true => Ok(file),
        false => Err(io(std::io::Error::other(
            "not a regular file (a named pipe, a socket or a device)",
        ))),
    }
}

/// The plain names of `rel`, a path inside a folder: anything else (`..`,
/// a root) is an error naming it.
fn plain_names(root: &Path, rel: &Path) -> Result<Vec<PathBuf>> {
    rel.components()
        .map(|c| match c {
            Component::Normal(name) => Ok(PathBuf::from(name)),
            _ => Err(Error::io(
                root.join(rel),
                std::io::Error::other("not a path inside the folder"),
            )),
        })
        .collect()
}

/// Makes `root` (if it is not there), then each folder of `rel` inside it,
/// and returns `root/rel`. A folder on the way that is a symbolic link, or
/// not a folder, is an error naming it: nothing is made or written through
/// it.
pub fn make_folders_inside(root: &Path, rel: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
    let mut path = root.to_path_buf();
    for name in plain_names(root, rel)? {
        path.push(name);
        if let Err(e) = std::fs::create_dir(&path)
            && e.kind() != std::io::ErrorKind::AlreadyExists
        {
            return Err(Error::io(&path, e));
        }
        check_folder(&path)?;
    }
    Ok(path)
}

/// Checks that each folder on the way from `root` to the file `root/rel`
/// is a real folder, not a symbolic link: the file itself is for
/// [`open_regular_no_follow`] to check.
pub fn check_folders_inside(root: &Path, rel: &Path) -> Result<()> {
    let names = plain_names(root, rel)?;
    let mut path = root.to_path_buf();
    for name in names.iter().take(names.len().saturating_sub(1)) {
        path.push(name);
        check_folder(&path)?;
    }
    Ok(())
}

/// `path` is a folder, and no symbolic link.
fn check_folder(path: &Path) -> Result<()> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| Error::io(path, e))?;
    match meta.file_type() {
        t if t.is_symlink() => Err(Error::io(path, std::io::Error::other(LINK))),
        t if t.is_dir() => Ok(()),
        _ => Err(Error::io(path, std::io::Error::other("not a folder"))),
    }
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

    #[test]
    fn no_link_inside_an_output_folder_is_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("out");
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("0_0.png"), "x").unwrap();
        // Folders are made, and made again without complaint.
        let made = make_folders_inside(&root, Path::new("a_files/0")).unwrap();
        assert_eq!(made, root.join("a_files/0"));
        make_folders_inside(&root, Path::new("a_files/0")).unwrap();
        check_folders_inside(&root, Path::new("a_files/0/0_0.png")).unwrap();
        // A planted link on the way is refused, making and reading.
        std::os::unix::fs::symlink(&elsewhere, root.join("b_files")).unwrap();
        let e = make_folders_inside(&root, Path::new("b_files/0"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("b_files: a symbolic link"), "{e}");
        assert!(!elsewhere.join("0").exists());
        let e = check_folders_inside(&root, Path::new("b_files/0_0.png"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("b_files: a symbolic link"), "{e}");
        // So is a link as the file itself, which open_regular follows.
        let link = root.join("c.png");
        std::os::unix::fs::symlink(elsewhere.join("0_0.png"), &link).unwrap();
        assert!(open_regular(&link).is_ok());
        let e = open_regular_no_follow(&link).unwrap_err().to_string();
        assert!(e.contains("c.png: a symbolic link"), "{e}");
        let e = open_writable_no_follow(&link).unwrap_err().to_string();
        assert!(e.contains("c.png: a symbolic link"), "{e}");
        assert_eq!(std::fs::read(elsewhere.join("0_0.png")).unwrap(), b"x");
        // A path that leaves the folder is no path inside it.
        assert!(make_folders_inside(&root, Path::new("../x")).is_err());
    }
}
