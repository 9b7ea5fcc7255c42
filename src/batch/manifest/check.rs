//! Checking a batch's directory against its manifests ([`check`]): every
//! picture there, whole, as its job says; the [`Report`] of what was found.

use super::*;

/// What [`check`] found in a directory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The manifests read, by file name.
    pub manifests: Vec<String>,
    /// Jobs in the batch.
    pub jobs: usize,
    /// Keys of jobs no manifest records.
    pub missing: Vec<String>,
    /// Keys recorded more than once, with the manifests recording them.
    pub duplicated: Vec<(String, Vec<String>)>,
    /// Recorded files that are gone, or whose bytes differ: the file and
    /// what is wrong.
    pub corrupt: Vec<(String, String)>,
    /// Anything else: manifests of another batch, entries of no job.
    pub problems: Vec<String>,
}

impl Report {
    /// Whether every job is there exactly once with its recorded bytes.
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty()
            && self.duplicated.is_empty()
            && self.corrupt.is_empty()
            && self.problems.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for key in &self.missing {
            writeln!(f, "missing: {key} (no manifest records it)")?;
        }
        for (key, manifests) in &self.duplicated {
            writeln!(f, "duplicated: {key} (in {})", manifests.join(", "))?;
        }
        for (file, reason) in &self.corrupt {
            writeln!(f, "corrupt: {file} ({reason})")?;
        }
        for p in &self.problems {
            writeln!(f, "problem: {p}")?;
        }
        write!(
            f,
            "{} jobs in {} manifest{}: {}",
            self.jobs,
            self.manifests.len(),
            if self.manifests.len() == 1 { "" } else { "s" },
            if self.is_complete() {
                "all present once, every file as recorded".to_string()
            } else {
                format!(
                    "{} missing, {} duplicated, {} corrupt{}",
                    self.missing.len(),
                    self.duplicated.len(),
                    self.corrupt.len(),
                    if self.problems.is_empty() {
                        String::new()
                    } else {
                        format!(", {} other problems", self.problems.len())
                    }
                )
            }
        )
    }
}

/// The keys of every tile of the pyramid a `--tiles` batch makes (its one
/// picture at the size asked for, the input's own, or the default).
fn tile_keys(batch: &BatchRecord) -> Result<Vec<String>> {
    let [input] = &batch.inputs[..] else {
        return Ok(Vec::new());
    };
    let size = match batch.size.or(input.size) {
        Some([w, h]) => (w, h),
        None => crate::compose::size_for_width(
            &crate::share::decode(&input.code)?,
            crate::batch::DEFAULT_WIDTH,
        ),
    };
    // A forged size of 4294967295² would be a pyramid of more tiles than
    // memory holds: only a size playa draws has tiles.
    crate::compose::check_streamed_size(size.0, size.1)?;
    Ok(crate::output::tiles::all_tiles(size.0, size.1)
        .iter()
        .map(crate::output::tiles::Tile::key)
        .collect())
}

/// Checks the batch recorded in `dir`'s manifests: every job (every tile,
/// for a pyramid) recorded exactly once, every recorded file there with its length and hash (hashed
/// in parallel). An error only when there is no manifest to read, or one
/// cannot be read; what is wrong with the batch is in the [`Report`].
pub fn check(dir: &Path) -> Result<Report> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| is_manifest_name(n))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(Error::Manifest {
            path: dir.to_path_buf(),
            reason: "no playa manifest here (playa-manifest*.jsonl)".into(),
        });
    }
    let manifests: Vec<(String, Manifest)> = names
        .iter()
        .map(|n| Ok((n.clone(), Manifest::read(&dir.join(n))?)))
        .collect::<Result<_>>()?;
    let mut report = Report {
        manifests: names,
        ..Report::default()
    };
    let (first_name, first) = &manifests[0];
    let batch = &first.header.batch;
    for (name, m) in &manifests[1..] {
        if m.header.batch != *batch {
            report
                .problems
                .push(format!("{name} records another batch than {first_name}"));
        }
    }
    // A forged header could name more jobs than memory holds: counted
    // first, without wrapping, and refused above what a batch makes.
    let jobs = match (&first.header.tiles, &first.header.frames) {
        (_, Some(frames)) => {
            let [a, b] = frames.generations;
            (u64::from(b) + 1).saturating_sub(u64::from(a))
        }
        (Some(_), None) => 1,
        (None, None) => batch.count(),
    };
    if jobs > crate::batch::MAX_JOBS {
        return Err(Error::Manifest {
            path: dir.join(first_name),
            reason: format!(
                "its header names {jobs} pictures, more than a batch makes ({})",
                crate::batch::MAX_JOBS
            ),
        });
    }
    let keys = match (&first.header.tiles, &first.header.frames) {
        (_, Some(frames)) => frames.keys(),
        (Some(_), None) => tile_keys(batch)?,
        (None, None) => batch.keys(),
    };
    report.jobs = keys.len();
    let mut recorded: BTreeMap<&str, Vec<(&str, &Entry)>> = BTreeMap::new();
    for (name, m) in &manifests {
        for entry in &m.entries {
            let at = recorded.entry(entry.key.as_str()).or_default();
            // A job made again (its file lost or changed) is recorded again
            // by its shard: the later line is the file there now.
            match at.last_mut() {
                Some(last) if last.0 == name.as_str() => *last = (name.as_str(), entry),
                _ => at.push((name.as_str(), entry)),
            }
        }
    }
    for key in &keys {
        match recorded.get(key.as_str()).map(Vec::len) {
            None => report.missing.push(key.clone()),
            Some(1) => {}
            Some(_) => report.duplicated.push((
                key.clone(),
                recorded[key.as_str()]
                    .iter()
                    .map(|(n, _)| n.to_string())
                    .collect(),
            )),
        }
    }
    let known: std::collections::HashSet<&str> = keys.iter().map(String::as_str).collect();
    for (key, entries) in &recorded {
        if !known.contains(key) {
            report.problems.push(format!(
                "{key} is recorded in {} but is no job of the batch",
                entries[0].0
            ));
        }
    }
    // Each distinct recorded file once (a duplicate may record it twice).
    let mut files: BTreeMap<(&str, &str, u64), ()> = BTreeMap::new();
    for entries in recorded.values() {
        for (_, e) in entries {
            files.insert((e.file.as_str(), e.sha256.as_str(), e.bytes), ());
        }
    }
    let files: Vec<(&str, &str, u64)> = files.into_keys().collect();
    report.corrupt = files
        .par_iter()
        .filter_map(|&(file, sha, bytes)| {
            let path = dir.join(file);
            // A link, a tile's folder or the file itself, may lead out of
            // the folder: not followed.
            if crate::base::file::check_folders_inside(dir, Path::new(file))
                .is_err_and(|e| !matches!(&e, Error::Io { error, .. } if error.kind() == std::io::ErrorKind::NotFound))
            {
                return Some((file.to_string(), "a folder on its way is a symbolic link or no folder (not followed)".into()));
            }
            let meta = std::fs::symlink_metadata(&path);
            if meta.as_ref().is_ok_and(|m| !m.is_file()) {
                return Some((file.to_string(), "not a plain file (not followed)".into()));
            }
            match hash_file(&path) {
                Err(_) if meta.is_err() => Some((file.to_string(), "the file is gone".into())),
                Err(e) => Some((file.to_string(), e.to_string())),
                Ok((_, len)) if len != bytes => {
                    Some((file.to_string(), format!("{len} bytes, {bytes} recorded")))
                }
                Ok((got, _)) if got != sha => Some((
                    file.to_string(),
                    "its SHA-256 differs from the one recorded".into(),
                )),
                Ok(_) => None,
            }
        })
        .collect();
    Ok(report)
}
