//! Input a hostile or unlucky user hands playa: each case is refused in one
//! clear line with a non-zero exit, and nothing is written where it should
//! not be (docs/HOSTILE.md lists the cases and the tests that hold them).

mod common;

use common::cli::{files, playa, stderr};

/// The widest line playa may print about a bad argument: quoted input is cut
/// to an excerpt, however long the argument.
const LONGEST_LINE: usize = 300;

/// Asserts that a run failed with `code`, saying `says` on one short line.
fn refused(o: &std::process::Output, code: i32, says: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert_eq!(err.lines().count(), 1, "not one line:\n{err}");
    assert!(err.len() <= LONGEST_LINE, "{} characters: {err}", err.len());
    assert!(err.contains(says), "no {says:?} in: {err}");
}

#[test]
fn a_range_of_every_seed_is_counted_not_wrapped_to_nothing() {
    // 2⁶⁴ seeds counted as 0 passed the limit, and then took all memory
    // (render, sheet --seeds) or spun forever (sheet --rolls).
    let dir = tempfile::tempdir().unwrap();
    let every = "0..=18446744073709551615";
    for args in [
        vec!["render", "--seeds", every, "--size", "8x8"],
        vec!["sheet", "--seeds", every],
        vec!["sheet", "--rolls", every],
    ] {
        let o = playa(dir.path(), &args);
        refused(&o, 2, "more than the limit");
        assert!(
            stderr(&o).contains("18446744073709551615"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    assert!(files(dir.path()).is_empty(), "{:?}", files(dir.path()));
}

#[test]
fn a_folder_where_the_picture_goes_is_an_error_not_skipped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d.png")).unwrap();
    let o = playa(
        dir.path(),
        &["render", "death-valley", "--size", "8x8", "--out", "d.png"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("d.png: a folder is there, not a picture"),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&o.stdout).contains("skipped"));
    // --force cannot write a picture over a folder either.
    let o = playa(
        dir.path(),
        &[
            "render",
            "death-valley",
            "--size",
            "8x8",
            "--out",
            "d.png",
            "--force",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(dir.path().join("d.png").is_dir());

    let o = playa(dir.path(), &["sheet", "--seeds", "1..=2", "--out", "d.png"]);
    refused(&o, 2, "--out d.png: a folder is there, not a picture");
}

#[test]
fn a_huge_argument_is_quoted_as_an_excerpt() {
    // One error line was 130,075 characters.
    let dir = tempfile::tempdir().unwrap();
    let nines = "9".repeat(130_000);
    let key = "k".repeat(130_000);
    let cases = [
        (
            vec![
                "render".to_string(),
                "--set".into(),
                format!("rocks.roughness={nines}"),
            ],
            "out of range",
        ),
        (
            vec!["render".into(), "--set".into(), format!("rocks.{key}=1")],
            "rocks.",
        ),
        (
            vec!["render".into(), "--size".into(), format!("{nines}x1")],
            "--size",
        ),
        (
            vec!["render".into(), "--seeds".into(), format!("0..{nines}")],
            "--seeds",
        ),
        (
            vec![
                "sheet".into(),
                "--set".into(),
                format!("rocks.roughness=0..=1:{nines}"),
            ],
            "--set",
        ),
        (vec!["share".into(), format!("playa1-{nines}")], "playa1-"),
    ];
    for (args, says) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = playa(dir.path(), &args);
        let err = stderr(&o);
        assert!(!o.status.success(), "{}", &err[..err.len().min(200)]);
        for line in err.lines() {
            assert!(
                line.len() <= LONGEST_LINE,
                "{} {}: a line of {} characters: {}…",
                args[0],
                args[1],
                line.len(),
                &line[..200]
            );
        }
        assert!(
            err.contains(says),
            "{} {}: no {says:?} in: {err}",
            args[0],
            args[1]
        );
    }
}
