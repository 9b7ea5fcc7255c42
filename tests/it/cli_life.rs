//! `playa life` end to end, through the real binary.

use crate::common::cli::{playa, playa_ok, stderr, words};

#[test]
fn soup_to_rle_on_stdout_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let args = words("life --size 100x70 --seed 4 --gens 8");
    let a = playa_ok(dir.path(), &args);
    let text = String::from_utf8(a.stdout.clone()).unwrap();
    assert!(text.contains("x = 100, y = 70, rule = B3/S23"), "{text}");
    assert!(text.lines().all(|l| l.len() <= 70));
    assert!(text.trim_end().ends_with('!'));
    assert_eq!(playa(dir.path(), &args).stdout, a.stdout);
    let pattern = playa::life::rle::parse(&text).unwrap();
    let expected = playa::Life::default().run(&playa::life::soup(100, 70, 0.8, 4).unwrap(), 8);
    assert_eq!(pattern.grid, expected);
}

#[test]
fn stats_list_every_generation() {
    let dir = tempfile::tempdir().unwrap();
    let out = playa(dir.path(), &words("life --size 64x64 --gens 5 --stats"));
    assert!(out.status.success());
    let err = stderr(&out);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("generation"))
        .collect();
    assert_eq!(lines.len(), 6, "{err}");
    assert!(lines[0].contains("population") && lines[0].contains("clumps"));
}

#[test]
fn pattern_in_and_out_through_files() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("glider.rle");
    let output = dir.path().join("after.rle");
    std::fs::write(
        &input,
        "#N Glider\nx = 3, y = 3, rule = 23/3\nbob$2bo$3o!\n",
    )
    .unwrap();
    let out = playa(
        dir.path(),
        &words("life --in glider.rle --size 10x10 --gens 4 --out after.rle"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let moved = playa::life::rle::read_file(&output).unwrap();
    let cells: Vec<_> = moved.grid.alive_cells().collect();
    assert_eq!(cells, vec![(2, 1), (3, 2), (1, 3), (2, 3), (3, 3)]);
    assert_eq!(moved.rule, Some(playa::Rule::CONWAY));
}

#[test]
fn bad_arguments_give_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["life", "--size", "0x10"], "at least 1"),
        (&["life", "--size", "banana"], "WIDTHxHEIGHT"),
        (&["life", "--density", "1.5"], "between 0 and 1"),
        (&["life", "--rule", "B9/S23"], "'9'"),
        (&["life", "--size", "100000x100000"], "out of range"),
        (&["life", "--gens", "99999999"], "limit"),
    ];
    for (args, needle) in cases {
        let out = playa(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn malformed_pattern_fails_with_its_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.rle");
    let output = dir.path().join("out.rle");
    std::fs::write(&input, "x = 3, y = 3\nbo$2bo$3q!\n").unwrap();
    let out = playa(dir.path(), &words("life --in bad.rle --out out.rle"));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("line 2"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!output.exists());
    let missing = playa(dir.path(), &["life", "--in", "/no/such/file.rle"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("/no/such/file.rle"));
}
