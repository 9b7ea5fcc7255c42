//! Writing files so that a failure never leaves half of one behind, and no
//! write goes through a link someone planted.
//!
//! A file is written into a temporary file beside it, then renamed over
//! it. The temporary file is made by the [`tempfile`] crate: created
//! exclusively (`O_EXCL`, which no planted symbolic link survives), under
//! a name no one can guess (`.NAME.PID-XXXXXX.tmp`; a NAME too long for
//! that to fit the file system's limit is shortened, see `stem`). While
//! it is written, this process holds an advisory lock on it:
//! [`remove_stale`] removes only the temporary files no one holds, those a
//! killed run left. A file being
//! written is also listed here, so that an interrupt (SIGINT, SIGTERM: see
//! [`exit_removing_unfinished`]) removes it before the process exits.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::error::{Error, Result};

/// The temporary files this process is writing.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes `bytes` to `path` atomically: into a temporary file in the same
/// directory, flushed to disk, then renamed over `path`. A failure or a kill
/// leaves either the old file or none, never a partial one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, |file| file.write_all(bytes))
}

/// Like [`write_atomically`], with `write` producing the contents.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<()> {
    replace(path, write).map(drop)
}

/// Like [`write_atomically_with`], and returns the file now at `path`,
/// open to read and write, with this process's lock on it held (as the
/// temporary file's was, from before the rename): a manifest is replaced
/// so, without a moment in which another writer could take it.
pub fn replace(path: &Path, write: impl FnOnce(&mut File) -> std::io::Result<()>) -> Result<File> {
    let io = |e| Error::io(path, e);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io(std::io::Error::other("not a file name")))?;
    let mut builder = tempfile::Builder::new();
    // `.NAME.PID-XXXXXX.tmp`: the pid tells a later run whether the
    // writer is gone; the random part keeps the name from being guessed.
    let prefix = format!(".{}.{}-", stem(&name.to_string_lossy()), std::process::id());
    builder
        .prefix(&prefix)
        .rand_bytes(RANDOM_CHARS)
        .suffix(TMP_SUFFIX);
    // A picture is as readable as any file the user makes (the umask
    // applies), not private as a temporary file is by default.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(dir).map_err(io)?;
    // Held until this process closes the file (or dies): `remove_stale`
    // leaves a locked temporary file alone. Where locks are not supported,
    // a rerun is told not to run two batches at once in the manifest's lock.
    let _ = tmp.as_file().try_lock();
    let listed = Listed::new(tmp.path());
    write(tmp.as_file_mut())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(io)?;
    // Renamed while the list is held: an interrupt either finds the
    // temporary file listed, and removes it, or the file in its place.
    let mut list = unfinished();
    let file = tmp.persist(path).map_err(|e| io(e.error));
    list.retain(|p| p != &listed.0);
    drop(list);
    file
}

/// The longest file name most file systems take, in bytes (Linux's and
/// macOS's `NAME_MAX`).
const NAME_MAX: usize = 255;
/// The random characters of a temporary file's name.
const RANDOM_CHARS: usize = 6;
/// How a temporary file's name ends.
const TMP_SUFFIX: &str = ".tmp";
/// The longest NAME a temporary file's name `.NAME.PID-XXXXXX.tmp` holds
/// as it is: what is left of [`NAME_MAX`] for the longest pid (a `u32`, 10
/// digits), so that the stem is the same whichever process writes.
const MAX_STEM: usize =
    NAME_MAX - ".".len() - ".".len() - 10 - "-".len() - RANDOM_CHARS - TMP_SUFFIX.len();

/// The NAME part of the temporary file written for the file `name`: the
/// name itself, or, when that is longer than [`MAX_STEM`] bytes, its start
/// (cut between characters) and `~` and the CRC-32 of the whole name in
/// hex, so that two long names with the same start still have stems of
/// their own and [`remove_stale`] can tell whose a temporary file is.
fn stem(name: &str) -> Cow<'_, str> {
    if name.len() <= MAX_STEM {
        return Cow::Borrowed(name);
    }
    let tag = format!("~{:08x}", crc32fast::hash(name.as_bytes()));
    let mut end = MAX_STEM - tag.len();
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}{tag}", &name[..end]))
}

/// A temporary file on the list of unfinished ones, until dropped.
struct Listed(PathBuf);

impl Listed {
    fn new(path: &Path) -> Listed {
        unfinished().push(path.to_path_buf());
        Listed(path.to_path_buf())
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        unfinished().retain(|p| p != &self.0);
    }
}

/// Removes every temporary file this process is writing, and exits with
/// `code`, holding the list so that none is renamed into place meanwhile:
/// for a handler of SIGINT and SIGTERM (the command line's `main`).
pub fn exit_removing_unfinished(code: i32) -> ! {
    let list = unfinished();
    for path in list.iter() {
        let _ = std::fs::remove_file(path);
    }
    std::process::exit(code)
}

/// How young an empty temporary file may be and still be a writer's that
/// has not yet taken its lock.
const JUST_MADE: std::time::Duration = std::time::Duration::from_secs(10);

/// Removes the temporary files that runs since killed left in `dir` while
/// writing one of `names` (those files' owner is the caller: a rerun of a
/// killed shard clears what the killed run left). A temporary file that a
/// live process holds (its lock) is left, as is anything that is not a
/// regular file. Best effort: what cannot be listed or removed is left.
pub fn remove_stale(dir: &Path, names: &HashSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let stems: HashSet<Cow<str>> = names.iter().map(|n| stem(n)).collect();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some((name, tag)) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix('.'))
            .and_then(|n| n.strip_suffix(TMP_SUFFIX))
            .and_then(|n| n.rsplit_once('.'))
        else {
            continue;
        };
        if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            continue;
        }
        let pid = tag.split_once('-').and_then(|(pid, _)| pid.parse().ok());
        if stems.contains(name) && is_stale(&entry.path(), pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Removes the temporary files that runs since killed left while writing
/// `path` (a one-file render's, an animation's): see [`remove_stale`].
pub fn remove_stale_of(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        remove_stale(dir, &HashSet::from([name.to_string()]));
    }
}

/// Whether the temporary file at `path`, written by the process `pid` if
/// its name says, is a regular file that no live process holds.
fn is_stale(path: &Path, pid: Option<u32>) -> bool {
    let Ok(file) = super::file::open_regular_no_follow(path) else {
        return false;
    };
    let Ok(meta) = file.metadata() else {
        return false;
    };
    let just_made = meta.len() == 0
        && pid.is_none_or(is_alive)
        && meta
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_none_or(|age| age < JUST_MADE);
    !just_made && file.try_lock().is_ok()
}

/// Whether the process `pid` runs on this machine (where the system can
/// tell; elsewhere it might).
fn is_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 sends nothing; it only asks whether `pid` exists.
        let sent = unsafe { libc::kill(pid, 0) };
        sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_whole_file_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomically(&path, b"hello").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
        assert_eq!(names_in(dir.path()), ["a.txt"]);
        assert!(unfinished().is_empty());
    }

    #[test]
    fn failed_write_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.txt");
        let err = write_atomically_with(&path, |_| Err(std::io::Error::other("boom")));
        assert!(err.unwrap_err().to_string().contains("boom"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert!(!unfinished().iter().any(|p| p.starts_with(dir.path())));
    }

    #[cfg(unix)]
    #[test]
    fn a_written_file_is_readable_as_the_umask_allows() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.png");
        write_atomically(&path, b"x").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        // SAFETY: umask only swaps the process's mask; set back at once.
        let mask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        assert_eq!(mode, 0o666 & !(mask as u32), "{mode:o}");
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        // The names a temporary file once had, for the next pids.
        let pid = std::process::id();
        for p in pid..pid + 64 {
            std::os::unix::fs::symlink(&victim, out.join(format!(".a.png.{p}.tmp"))).unwrap();
        }
        std::os::unix::fs::symlink(&victim, out.join("a.png")).unwrap();
        write_atomically(&out.join("a.png"), b"picture").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        let meta = std::fs::symlink_metadata(out.join("a.png")).unwrap();
        assert!(meta.is_file(), "the link is replaced by the picture");
        assert_eq!(std::fs::read(out.join("a.png")).unwrap(), b"picture");
    }

    #[test]
    fn only_temporary_files_no_one_holds_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            ".a.png.12.tmp",
            ".a.png.Xy3kQz.tmp",
            ".a.png.held01.tmp",
            ".b.png.12.tmp",
            "a.png",
            ".a.png.x_y.tmp",
        ] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        // An empty one just made: its writer (alive) has yet to take the
        // lock. One of a writer gone is not waited for.
        let own = std::process::id();
        std::fs::write(dir.path().join(format!(".a.png.{own}-fresh1.tmp")), "").unwrap();
        std::fs::write(dir.path().join(".a.png.999999999-gone01.tmp"), "").unwrap();
        // A live writer's, held (a lock is per open file, even in one
        // process).
        let held = File::open(dir.path().join(".a.png.held01.tmp")).unwrap();
        held.lock().unwrap();
        let names = ["a.png".to_string()].into_iter().collect();
        remove_stale(dir.path(), &names);
        assert_eq!(
            names_in(dir.path()),
            [
                format!(".a.png.{own}-fresh1.tmp").as_str(),
                ".a.png.held01.tmp",
                ".a.png.x_y.tmp",
                ".b.png.12.tmp",
                "a.png"
            ]
        );
        drop(held);
        remove_stale(dir.path(), &names);
        assert!(!dir.path().join(".a.png.held01.tmp").exists());
    }

    #[test]
    fn a_name_near_the_file_system_s_limit_is_written() {
        let dir = tempfile::tempdir().unwrap();
        // 250 bytes: the temporary file's name, some 20 bytes longer,
        // would be too long with the name whole.
        let name = format!("{}.png", "é".repeat(123));
        assert_eq!(name.len(), 250);
        write_atomically(&dir.path().join(&name), b"x").unwrap();
        assert_eq!(names_in(dir.path()), [name]);
    }

    #[test]
    fn a_long_name_s_stem_is_cut_between_characters_and_its_own() {
        assert_eq!(stem("a.png"), "a.png");
        let at_most = "x".repeat(MAX_STEM);
        assert_eq!(stem(&at_most), at_most);
        let one = format!("{}1.png", "é".repeat(120));
        let two = format!("{}2.png", "é".repeat(120));
        for name in [&one, &two] {
            let s = stem(name);
            assert!(s.len() <= MAX_STEM, "{} bytes", s.len());
            assert!(s.starts_with("éééé") && s.contains('~'), "{s}");
        }
        assert_ne!(stem(&one), stem(&two));
        // The longest temporary name fits.
        let longest = format!(
            ".{}.{}-{}{TMP_SUFFIX}",
            stem(&one),
            u32::MAX,
            "x".repeat(RANDOM_CHARS)
        );
        assert!(longest.len() <= NAME_MAX, "{}", longest.len());
    }

    #[test]
    fn a_long_name_s_leftovers_are_removed_and_no_one_else_s() {
        let dir = tempfile::tempdir().unwrap();
        let ours = format!("{}-1.png", "a".repeat(240));
        let theirs = format!("{}-2.png", "a".repeat(240));
        let left = |name: &str| format!(".{}.999999999-gone01.tmp", stem(name));
        for name in [&ours, &theirs] {
            std::fs::write(dir.path().join(left(name)), "x").unwrap();
        }
        remove_stale(dir.path(), &HashSet::from([ours.clone()]));
        assert_eq!(names_in(dir.path()), [left(&theirs)]);
    }

    #[test]
    fn replace_hands_back_the_file_locked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let file = replace(&path, |f| f.write_all(b"line\n")).unwrap();
        let other = File::open(&path).unwrap();
        assert!(other.try_lock().is_err(), "held by the file handed back");
        drop(file);
        assert!(other.try_lock().is_ok());
    }

    #[test]
    fn unwritable_directory_is_an_error_naming_the_path() {
        let err = write_atomically(Path::new("/nonexistent-dir/x.png"), b"x").unwrap_err();
        assert!(err.to_string().contains("/nonexistent-dir/x.png"), "{err}");
    }
}
