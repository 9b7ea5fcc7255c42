//! Writing files so that a failure never leaves half of one behind.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

/// Writes `bytes` to `path` atomically: into a temporary file in the same
/// directory, flushed to disk, then renamed over `path`. A failure or a kill
/// leaves either the old file or none, never a partial one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, |file| file.write_all(bytes))
}

/// Like [`write_atomically`], with `write` producing the contents.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| Error::io(path, std::io::Error::other("not a file name")))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        write(&mut file)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// Removes the temporary files that other processes, since killed, left
/// in `dir` while writing one of `names` (those files' owner is the caller:
/// a rerun of a killed shard clears what the killed run left). Best
/// effort: what cannot be listed or removed is left.
pub fn remove_stale(dir: &Path, names: &std::collections::HashSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let own = std::process::id().to_string();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some((name, pid)) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix('.'))
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|n| n.rsplit_once('.'))
        else {
            continue;
        };
        if pid != own && pid.parse::<u32>().is_ok() && names.contains(name) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_file_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomically(&path, b"hello").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn failed_write_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.txt");
        let err = write_atomically_with(&path, |_| Err(std::io::Error::other("boom")));
        assert!(err.unwrap_err().to_string().contains("boom"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn stale_temporary_files_of_given_names_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        for name in [".a.png.12.tmp", ".b.png.12.tmp", "a.png", ".a.png.x.tmp"] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let names = ["a.png".to_string()].into_iter().collect();
        remove_stale(dir.path(), &names);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [".a.png.x.tmp", ".b.png.12.tmp", "a.png"]);
    }

    #[test]
    fn unwritable_directory_is_an_error_naming_the_path() {
        let err = write_atomically(Path::new("/nonexistent-dir/x.png"), b"x").unwrap_err();
        assert!(err.to_string().contains("/nonexistent-dir/x.png"), "{err}");
    }
}
