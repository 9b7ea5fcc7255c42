//! Every command that prints stops quietly when its reader has gone away
//! (`playa … | head -1`, `playa … 2>&1 | head -1`): no panic, no message,
//! exit 0, and a batch that failed still fails.

use std::path::Path;
use std::process::{Output, Stdio};

use crate::common::cli::{command, playa_ok, stderr, words};

/// Runs `playa args…` in `dir` with standard output a pipe whose read end
/// is closed before playa starts, so its first write meets `EPIPE`.
fn into_closed_pipe(dir: &Path, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    command(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .output()
        .expect("the playa binary runs")
}

/// Runs `playa args…` in `dir` with standard output and standard error
/// both the closed pipe (`2>&1 | …`); its exit status.
fn both_into_closed_pipe(dir: &Path, args: &[&str]) -> Option<i32> {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    command(dir)
        .args(args)
        .stdin(Stdio::null())
        .stderr(writer.try_clone().unwrap())
        .stdout(writer)
        .status()
        .expect("the playa binary runs")
        .code()
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(d, &words("render --size 32x18 --out batch"));
    let code = String::from_utf8(playa_ok(d, &["share"]).stdout).unwrap();
    let lines = [
        "render --list".to_string(),
        "render --size 32x18 --seeds 0..2 --out pictures".into(),
        "render --size 256x256 --tiles tiles".into(),
        format!("share --decode {}", code.trim()),
        "share".into(),
        "random --roll 3".into(),
        "life --size 512x512 --gens 2".into(),
        "life --size 64x64 --gens 2 --out glider.rle".into(),
        "manifest check batch".into(),
        "sheet --seeds 0..2 --size 32x18 --out sheet.png".into(),
        "animate --size 32x18 --frames 0..2 --out film.png".into(),
        "animate --size 32x18 --frames 0..2 --frames-dir frames".into(),
    ];
    for line in &lines {
        let o = into_closed_pipe(d, &words(line));
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{line}: {err}");
        assert_eq!(o.status.code(), Some(0), "{line}: {err}");
        assert_eq!(err, "", "{line}");
    }
}

#[test]
fn a_batch_that_failed_still_fails_into_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bad.ron"), "(seed: oops)").unwrap();
    let o = into_closed_pipe(d, &words("render --size 32x18 bad.ron --out out"));
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(1), "{err}");

    playa_ok(d, &words("render --size 32x18 --seeds 0..2 --out batch"));
    std::fs::remove_file(
        d.join("batch")
            .join(&crate::common::cli::files(&d.join("batch"))[0]),
    )
    .ok();
    let o = into_closed_pipe(d, &words("manifest check batch"));
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("not complete"), "{err}");
}

#[test]
fn a_closed_pipe_on_standard_error_panics_nothing_either() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bad.ron"), "(seed: oops)").unwrap();
    // A panic exits 101; the exit status is all that is left to read.
    for (line, code) in [
        ("life --size 64x64 --gens 2 --stats", 0),
        ("share", 0),
        ("render --size 32x18 bad.ron --out out", 1),
        ("render --size 0x0", 2),
        ("render --bogus", 2),
    ] {
        assert_eq!(both_into_closed_pipe(d, &words(line)), Some(code), "{line}");
    }
}
