//! The `playa` binary as the command-line tests run it: in a directory of
//! the test's own, with no scheduler's variables from the machine running
//! the tests, and what it printed read back as text.

use std::path::Path;
use std::process::{Command, Output};

/// Every variable a scheduler sets, removed from the tests' commands so
/// that only what a test gives counts (a test run inside a job array must
/// not shard its batches).
pub const SCHEDULER_VARS: [&str; 8] = [
    "JOB_COMPLETION_INDEX",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_STEP",
    "AWS_BATCH_JOB_ARRAY_INDEX",
    "PLAYA_SHARDS",
];

/// The `playa` binary, to be run in `dir` without any scheduler's variables,
/// its own files (the user's presets) in `dir/.playa-config`, which it
/// never makes: a test sees no presets of the person running it.
pub fn command(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_playa"));
    c.current_dir(dir);
    c.env(
        playa::source::user_presets::CONFIG_DIR_VAR,
        dir.join(".playa-config"),
    );
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    c
}

/// Runs `playa args…` in `dir`: its exit status and what it printed.
pub fn playa(dir: &Path, args: &[&str]) -> Output {
    command(dir)
        .args(args)
        .output()
        .expect("the playa binary runs")
}

/// Runs `playa args…` in `dir` and asserts that it succeeded; if not, the
/// failure shows the arguments and what playa said on standard error.
pub fn playa_ok(dir: &Path, args: &[&str]) -> Output {
    let o = playa(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

/// The words of a command line written out as one string, split at blanks
/// (no quoting: for arguments without blanks in them).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Bytes a run printed, as text (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a run printed on standard error.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// Asserts that a run printed `needle` on standard output; the failure
/// shows all it printed there.
pub fn assert_stdout_has(o: &Output, needle: &str) {
    let out = text(&o.stdout);
    assert!(out.contains(needle), "no {needle:?} in:\n{out}");
}

/// Asserts that a run printed `needle` on standard error; the failure
/// shows all it printed there.
pub fn assert_stderr_has(o: &Output, needle: &str) {
    let err = stderr(o);
    assert!(err.contains(needle), "no {needle:?} in:\n{err}");
}

/// Names of the files in `dir`, sorted, but the batch's manifests (see
/// `tests/it/cli_shard.rs`).
pub fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !playa::batch::manifest::is_manifest_name(n))
        .collect();
    names.sort();
    names
}

/// The pictures in `dir` (not its manifests), by name, with their bytes.
pub fn pictures(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".png"))
        .map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap()))
        .collect()
}
