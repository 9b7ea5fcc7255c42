//! Manifests: what a batch rendered into a directory, one JSON line at a
//! time, so that a shard can resume after preemption and the whole batch
//! can be checked once every shard is done.
//!
//! Each shard writes its own file ([`Shard::manifest_name`]), so shards on
//! different machines sharing one directory never write the same file. The
//! first line is a [`Header`] (the batch and the shard); each further line
//! an [`Entry`] for one picture, appended only once the picture is in place
//! (renamed whole, see [`crate::base::atomic`]), and flushed to disk. A kill can
//! leave at most a partial last line, which readers skip and [`Writer`]
//! cuts off before it appends.
//!
//! A rerun repairs: a job whose recorded file is gone or changed
//! ([`Found::Stale`]) is made again and recorded again, and within one
//! manifest **the last record for a key wins**. A superseding line is one
//! more append, which a kill cannot tear (at most a partial last line, as
//! above). Across manifests nothing supersedes: a key recorded by two
//! shards is a duplicate, a bug [`check`] reports.
//!
//! One process at a time writes a manifest: [`Writer`] holds its advisory
//! lock (`File::try_lock`) while the shard renders, and a second playa
//! rendering the same shard into the folder is refused, naming the first.
//! The manifest is written anew (a temporary file renamed over it) only
//! under that lock, with the lock taken on the new file before the rename.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::batch::BatchRecord;
use crate::batch::shard::Shard;
use crate::error::{Error, Result, clip};

/// The file name of the frame of generation `g`: `frame-0012.png` (four
/// digits hold every generation, [`crate::scene::MAX_GENERATIONS`]).
pub fn frame_file_name(g: u32) -> String {
    format!("frame-{g:04}.png")
}

/// The first line of a manifest: the batch and which shard of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The batch.
    pub batch: BatchRecord,
    /// The shard, as `I/N`.
    pub shard: String,
    /// `--window X,Y,W,H`: the part of each picture made, when given
    /// (written only then, so other batches record what they always did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<[u32; 4]>,
    /// The tiles' format (`jpeg`, `png`) when the batch is a Deep Zoom
    /// pyramid (`--tiles`), whose entries are its tiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles: Option<String>,
    /// When the batch is an animation's frames (`playa animate
    /// --frames-dir`), whose entries are its frames: which, and the
    /// animation's options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames: Option<FramesRecord>,
}

/// An animation's frames as a manifest records them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FramesRecord {
    /// The first and last generation, both included: the frames' keys
    /// are `frame-{generation}` ([`frame_file_name`]).
    pub generations: [u32; 2],
    /// The animation's options, as its frames carry them (RON).
    pub options: String,
}

impl FramesRecord {
    /// The keys of every frame, in order.
    pub fn keys(&self) -> Vec<String> {
        let [a, b] = self.generations;
        (a..=b)
            .map(|g| frame_file_name(g).trim_end_matches(".png").to_string())
            .collect()
    }
}

/// One picture of a batch, in place with these bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The job's key (see [`crate::batch`]).
    pub key: String,
    /// The scene's share code.
    pub code: String,
    /// The input as given.
    pub input: String,
    /// The seed.
    pub seed: u64,
    /// The file, in the manifest's directory.
    pub file: String,
    /// SHA-256 of the file, lower-case hex.
    pub sha256: String,
    /// The file's length.
    pub bytes: u64,
    /// Milliseconds it took to render and write.
    pub ms: u64,
}

/// A manifest read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    /// Its first line.
    pub header: Header,
    /// Its pictures, in the order recorded.
    pub entries: Vec<Entry>,
}

/// The most bytes a manifest is read to: many times what a batch of
/// [`crate::batch::MAX_JOBS`] pictures records, reruns and all. A file
/// longer than that is no manifest of playa's, and is refused before it is
/// read into memory.
pub const MAX_MANIFEST_BYTES: u64 = 256 << 20;

/// The whole of `file`, a manifest at `path`, from where it stands, up to
/// [`MAX_MANIFEST_BYTES`].
fn read_capped(file: &mut std::fs::File, path: &Path) -> Result<String> {
    let mut bytes = Vec::new();
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    // Its length first, so that a long one is refused unread; then at most
    // one byte more is read, should it grow meanwhile.
    if len <= MAX_MANIFEST_BYTES {
        file.take(MAX_MANIFEST_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io(path, e))?;
    }
    if len > MAX_MANIFEST_BYTES || bytes.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(Error::Manifest {
            path: path.to_path_buf(),
            reason: format!(
                "longer than a manifest grows ({} MiB): not one of playa's",
                MAX_MANIFEST_BYTES >> 20
            ),
        });
    }
    String::from_utf8(bytes).map_err(|_| Error::Manifest {
        path: path.to_path_buf(),
        reason: "not UTF-8 text: not one of playa's".into(),
    })
}

impl Manifest {
    /// Reads the manifest at `path` (a regular file, of at most
    /// [`MAX_MANIFEST_BYTES`]). A last line without its newline (cut by a
    /// kill) is skipped; any other line that is not an entry is an error
    /// naming it.
    pub fn read(path: &Path) -> Result<Manifest> {
        let text = read_capped(&mut crate::base::file::open_regular(path)?, path)?;
        Manifest::from_bytes(text.as_bytes(), path)
    }

    /// Reads a manifest from `bytes`, named `path` in errors; as
    /// [`Manifest::read`] does.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Manifest> {
        Manifest::from_reader(bytes, path)
    }

    fn from_reader(mut reader: impl BufRead, path: &Path) -> Result<Manifest> {
        let bad = |line: usize, reason: String| Error::Manifest {
            path: path.to_path_buf(),
            reason: format!("line {line}: {reason}"),
        };
        let mut header = None;
        let mut entries = Vec::new();
        let mut line = String::new();
        for number in 1.. {
            line.clear();
            let n = reader
                .read_line(&mut line)
                .map_err(|e| Error::io(path, e))?;
            if n == 0 || !line.ends_with('\n') {
                break;
            }
            match &header {
                None => {
                    header = Some(
                        serde_json::from_str::<Header>(&line)
                            .map_err(|e| bad(number, format!("not a batch header: {e}")))?,
                    );
                }
                Some(header) => {
                    let entry = serde_json::from_str::<Entry>(&line)
                        .map_err(|e| bad(number, format!("not a picture's entry: {e}")))?;
                    check_file(&entry.file, header.tiles.is_some())
                        .map_err(|reason| bad(number, reason))?;
                    entries.push(entry);
                }
            }
        }
        let header = header.ok_or_else(|| Error::Manifest {
            path: path.to_path_buf(),
            reason: "empty: no batch header".into(),
        })?;
        Ok(Manifest { header, entries })
    }
}

/// `text`, a manifest read to resume its batch, without its torn lines: an
/// entry line that does not read (torn by a write cut short, a full disk,
/// and spliced onto the next) is dropped, and a line saying so added to
/// `repaired`. Its picture is then looked at again, as one not recorded.
/// Only a line that is no entry at all is torn: one that reads but names a
/// file outside the folder is refused, by [`Manifest::from_bytes`].
fn without_torn_lines(text: &str, path: &Path, repaired: &mut Vec<String>) -> String {
    let mut kept = String::new();
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let whole = line.ends_with('\n');
        if number > 0 && whole && serde_json::from_str::<Entry>(line).is_err() {
            repaired.push(format!(
                "{}: line {} did not read (torn by a write cut short?): dropped, its \
                 picture looked at again",
                clip(&path.display().to_string()),
                number + 1
            ));
            continue;
        }
        kept.push_str(line);
    }
    kept
}

/// Checks that `file`, as a manifest records it, names a file inside the
/// manifest's folder: a plain name (no `..`, no absolute path, no
/// separator), or for a pyramid's tiles (`tiles`) the three plain names of
/// `{name}_files/{level}/{column}_{row}.{format}`. A manifest is untrusted
/// input (it may have been edited, or come from elsewhere): nothing it
/// records may lead a reader or a rerun out of the folder.
fn check_file(file: &str, tiles: bool) -> std::result::Result<(), String> {
    let plain = |name: &str| {
        !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', ':', '\0'])
    };
    let ok = match tiles {
        false => plain(file),
        true => {
            let parts: Vec<&str> = file.split('/').collect();
            parts.len() == 3 && parts[0].ends_with("_files") && parts.iter().all(|p| plain(p))
        }
    };
    match ok {
        true => Ok(()),
        false => Err(format!(
            "the recorded file {} is not a plain name inside the manifest's folder \
             (no .., no absolute path, no separator)",
            crate::error::quote(file)
        )),
    }
}

/// What a rerun finds of one job, against the record its manifest holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// Recorded, and its file is there as recorded: nothing to do.
    Done,
    /// Recorded, but its file is gone or its bytes differ from the record
    /// (damaged, edited, or replaced): to be made again, and recorded again
    /// (the new line supersedes the old one, see the module's comment).
    Stale,
    /// Not recorded (or recorded as another file): nothing is known of it.
    Unrecorded,
}

impl Found {
    /// What `recorded`, a job's last record if any, says of its `file` in
    /// `dir`.
    pub fn of(dir: &Path, file: &str, recorded: Option<&Entry>) -> Found {
        match recorded {
            Some(entry) if entry.file == file => match matches(dir, entry) {
                true => Found::Done,
                false => Found::Stale,
            },
            _ => Found::Unrecorded,
        }
    }
}

/// What [`Writer::open`] does with a manifest of another batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherBatch {
    /// Start anew over it (a directory that one batch after another is
    /// rendered into).
    Replace,
    /// Refuse it, naming it (a shard of a job array, where another batch
    /// means tasks started with different arguments).
    Refuse,
}

/// Appends a shard's entries to its manifest, from any thread. While it
/// is open, it holds the manifest's lock: no other playa writes that
/// manifest, or renders that shard into the folder, meanwhile.
pub struct Writer {
    path: PathBuf,
    file: Mutex<std::fs::File>,
    /// The manifest opened with its lock held (a lock is the open file's).
    _lock: std::fs::File,
    /// What [`Writer::open`] repaired: a line each.
    repaired: Vec<String>,
}

impl Writer {
    /// Opens the manifest of `shard` in `dir` for `header`'s batch, and
    /// returns the entries it already holds by key (a rerun resumes). With
    /// `fresh`, or when there is none, it starts anew with `header`; so it
    /// does over a manifest of another batch when `other` is
    /// [`OtherBatch::Replace`], which is an error otherwise.
    ///
    /// It takes the manifest's lock first: while another playa holds it
    /// (the same shard of a batch, rendering into the same folder), this is
    /// an error naming that playa's pid where the system tells it. A
    /// manifest that is a symbolic link, a pipe or a device is refused, as
    /// is one longer than [`MAX_MANIFEST_BYTES`]. Torn entry lines (a write
    /// cut short by a full disk) are dropped and the file written again
    /// without them; see [`Writer::repaired`].
    pub fn open(
        dir: &Path,
        shard: Shard,
        header: &Header,
        fresh: bool,
        other: OtherBatch,
    ) -> Result<(Writer, HashMap<String, Entry>)> {
        let path = dir.join(shard.manifest_name());
        if header.batch.inputs.is_empty() {
            // Every input failed: such a batch must not replace the
            // folder's manifest with an empty one.
            return Err(Error::Manifest {
                path,
                reason: "a batch of no inputs has nothing to record".into(),
            });
        }
        let io = |e| Error::io(&path, e);
        let mut lock = open_locked(&path)?;
        let text = read_capped(&mut lock, &path)?;
        let mut done = HashMap::new();
        let mut repaired = Vec::new();
        // An empty manifest is one whose header a kill kept from being
        // written: it records nothing.
        let old = match fresh || text.is_empty() {
            true => None,
            false => {
                let kept = without_torn_lines(&text, &path, &mut repaired);
                Some((Manifest::from_bytes(kept.as_bytes(), &path)?, kept))
            }
        };
        match old.filter(|(old, _)| old.header == *header || other == OtherBatch::Refuse) {
            Some((old, kept)) => {
                if old.header != *header {
                    return Err(Error::Manifest {
                        path,
                        reason: "records another batch (other inputs, seeds, size, compression \
                                 or playa version): give another --out, or --force to start anew"
                            .into(),
                    });
                }
                // Cut a partial last line left by a kill, so that appends
                // start on a line of their own; write the file again
                // without its torn lines.
                let whole = kept.rfind('\n').map_or(0, |i| i + 1);
                if !repaired.is_empty() {
                    lock = crate::base::atomic::replace(&path, |f| {
                        f.write_all(&kept.as_bytes()[..whole])
                    })?;
                } else if whole < text.len() {
                    lock.set_len(whole as u64).map_err(io)?;
                }
                // The last record of a key supersedes the earlier ones.
                for entry in old.entries {
                    done.insert(entry.key.clone(), entry);
                }
            }
            None => {
                let mut line = serde_json::to_string(header).expect("a header serializes");
                line.push('\n');
                lock = crate::base::atomic::replace(&path, |f| f.write_all(line.as_bytes()))?;
            }
        }
        let file = open_appending(&path, &lock)?;
        Ok((
            Writer {
                path,
                file: Mutex::new(file),
                _lock: lock,
                repaired,
            },
            done,
        ))
    }

    /// What opening the manifest repaired, a line each: entries torn by a
    /// write cut short (a full disk) and dropped, their pictures looked at
    /// again. Empty for a whole manifest.
    pub fn repaired(&self) -> &[String] {
        &self.repaired
    }

    /// The manifest's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `entry` as one line, written in one call and flushed to disk.
    pub fn record(&self, entry: &Entry) -> Result<()> {
        self.record_all(std::slice::from_ref(entry))
    }

    /// Appends `entries`, a line each, written in one call and flushed to
    /// disk once (a pyramid's tiles are recorded a group at a time).
    pub fn record_all(&self, entries: &[Entry]) -> Result<()> {
        let mut lines = String::new();
        for entry in entries {
            lines += &serde_json::to_string(entry).expect("an entry serializes");
            lines.push('\n');
        }
        let mut file = self.file.lock().expect("no panics while held");
        // Whole or nothing: a write cut short (a full disk) is cut off
        // again, so the next append does not splice onto half a line.
        let len = file.metadata().map(|m| m.len());
        file.write_all(lines.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| {
                if let Ok(len) = len {
                    let _ = file.set_len(len);
                }
                Error::io(&self.path, e)
            })
    }
}

/// The manifest at `path` (made, empty, if it is not there), opened with
/// its lock held; an error while another process holds it.
fn open_locked(path: &Path) -> Result<std::fs::File> {
    loop {
        let file = crate::base::file::open_writable_no_follow(path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let who = match holder(&file) {
                    Some(pid) => format!("another playa (pid {pid})"),
                    None => "another playa".into(),
                };
                return Err(Error::Manifest {
                    path: path.to_path_buf(),
                    reason: format!(
                        "{who} is writing this batch here: let it finish, or give another --out"
                    ),
                });
            }
            // A file system without locks: two batches must not be run
            // at once in one folder there.
            Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(Error::io(path, e)),
        }
        // The holder before us may have replaced the file meanwhile (a
        // manifest started anew is renamed into place): the lock is then
        // on a file gone from the folder, and taken again on the new one.
        if same_file(&file, path) {
            return Ok(file);
        }
    }
}

/// The manifest at `path` opened to append, when it is still the file
/// `locked` is.
fn open_appending(path: &Path, locked: &std::fs::File) -> Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    let file = options.open(path).map_err(|e| Error::io(path, e))?;
    match same_file(&file, path) && same_file(locked, path) {
        true => Ok(file),
        false => Err(Error::io(
            path,
            std::io::Error::other("replaced while it was being opened"),
        )),
    }
}

/// Whether `file` is the file at `path` (not a link to it).
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// The pid of the process holding `file`'s lock, where the system says
/// (Linux's `/proc/locks`).
fn holder(file: &std::fs::File) -> Option<u32> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = file.metadata().ok()?;
        let dev = meta.dev();
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
        let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
        let id = format!("{major:02x}:{minor:02x}:{}", meta.ino());
        // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"; a waiter's
        // line has "->" after the number.
        let locks = std::fs::read_to_string("/proc/locks").ok()?;
        locks.lines().find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields[..] {
                [_, "FLOCK", _, _, pid, at, ..] if at == id => pid.parse().ok(),
                _ => None,
            }
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        None
    }
}

/// The SHA-256 (lower-case hex) and length of the regular file at `path`;
/// a symbolic link there is an error (see
/// [`crate::base::file::open_regular_no_follow`]).
pub fn hash_file(path: &Path) -> Result<(String, u64)> {
    let mut file = crate::base::file::open_regular_no_follow(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut len = 0u64;
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(path, e)),
        };
        hasher.update(&buffer[..n]);
        len += n as u64;
    }
    Ok((hex(&hasher.finalize()), len))
}

/// Whether `entry`'s file is in `dir` with the recorded length and hash (a
/// symbolic link, the file or a folder on its way, is never followed, so
/// never matches).
pub fn matches(dir: &Path, entry: &Entry) -> bool {
    let path = dir.join(&entry.file);
    crate::base::file::check_folders_inside(dir, Path::new(&entry.file)).is_ok()
        && std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() == entry.bytes)
        && hash_file(&path).is_ok_and(|(sha, _)| sha == entry.sha256)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `name` is a manifest's file name.
pub fn is_manifest_name(name: &str) -> bool {
    name == "playa-manifest.jsonl"
        || name
            .strip_prefix("playa-manifest-")
            .and_then(|s| s.strip_suffix(".jsonl"))
            .and_then(|s| s.split_once("-of-"))
            .is_some_and(|(i, n)| i.parse::<u32>().is_ok() && n.parse::<u32>().is_ok())
}

mod check;
pub use self::check::{Report, check};

#[cfg(test)]
mod tests;
