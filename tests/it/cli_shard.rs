//! Sharded batches end to end: shards run as a scheduler would run them
//! make exactly the unsharded batch's files, a killed shard resumes, and
//! `playa manifest check` finds what is missing, duplicated or corrupt.

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::cli::{
    assert_stderr_has, assert_stdout_has, command, pictures, playa, playa_ok, text, words,
};

fn manifests(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("playa-manifest"))
        .collect();
    names.sort();
    names
}

const BATCH: [&str; 6] = [
    "death-valley",
    "salt-flat",
    "--seeds",
    "0..7",
    "--size",
    "48x27",
];

/// `playa manifest check dir`, run in `d`.
fn check(d: &Path, dir: &str) -> Output {
    playa(d, &["manifest", "check", dir])
}

/// The environment each scheduler gives task `i` (0-based) of 4.
fn scheduler_env(scheduler: &str, i: usize) -> Vec<(&'static str, String)> {
    match scheduler {
        "kubernetes" => vec![
            ("JOB_COMPLETION_INDEX", i.to_string()),
            ("PLAYA_SHARDS", "4".into()),
        ],
        // `sbatch --array=1-4`: ids from 1.
        "slurm" => vec![
            ("SLURM_ARRAY_TASK_ID", (i + 1).to_string()),
            ("SLURM_ARRAY_TASK_MIN", "1".into()),
            ("SLURM_ARRAY_TASK_MAX", "4".into()),
            ("SLURM_ARRAY_TASK_COUNT", "4".into()),
        ],
        "aws-batch" => vec![
            ("AWS_BATCH_JOB_ARRAY_INDEX", i.to_string()),
            ("PLAYA_SHARDS", "4".into()),
        ],
        _ => unreachable!(),
    }
}

#[test]
fn four_shards_make_the_unsharded_batch_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut args = BATCH.to_vec();
    args.extend(["--out", "whole"]);
    playa_ok(d, &[&["render"], &args[..]].concat());
    let whole = pictures(&d.join("whole"));
    assert_eq!(whole.len(), 14);
    assert_eq!(manifests(&d.join("whole")), ["playa-manifest.jsonl"]);

    for scheduler in ["kubernetes", "slurm", "aws-batch"] {
        let out = format!("sharded-{scheduler}");
        let mut args = vec!["render"];
        args.extend(BATCH);
        args.extend(["--out", &out, "--shard", "auto"]);
        // Four processes at once, as a job array runs them.
        let children: Vec<_> = (0..4)
            .map(|i| {
                command(d)
                    .args(&args)
                    .envs(scheduler_env(scheduler, i))
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let o = child.wait_with_output().unwrap();
            assert!(o.status.success(), "{scheduler}: {}", text(&o.stderr));
            assert_stdout_has(&o, "of 14 jobs");
        }
        let dir = d.join(&out);
        assert!(
            pictures(&dir) == whole,
            "{scheduler}: not the unsharded files"
        );
        assert_eq!(
            manifests(&dir),
            (1..=4)
                .map(|i| format!("playa-manifest-{i}-of-4.jsonl"))
                .collect::<Vec<_>>()
        );
        let o = check(d, &out);
        assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
        assert_stdout_has(&o, "14 jobs in 4 manifests");
    }
}

#[test]
fn a_killed_shard_resumes_without_redoing_finished_images() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = words(
        "render night-under-stars --seeds 0..16 --size 800x450 --jobs 1 --shard 1/2 --out out",
    );
    let mut child = command(d)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let manifest = d.join("out/playa-manifest-1-of-2.jsonl");
    let lines = || {
        std::fs::read_to_string(&manifest)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let start = Instant::now();
    while lines() < 3 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no progress in 2 minutes"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before the kill"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // What the killed run recorded, with each file's modification time.
    let recorded: Vec<(String, std::time::SystemTime)> = std::fs::read_to_string(&manifest)
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| {
            let file = v["file"].as_str().unwrap().to_string();
            let mtime = std::fs::metadata(d.join("out").join(&file))
                .unwrap()
                .modified()
                .unwrap();
            (file, mtime)
        })
        .collect();
    assert!(recorded.len() >= 2, "{recorded:?}");

    let o = playa_ok(d, &args);
    let summary = text(&o.stdout);
    let number = |after: &str| -> usize {
        let at = summary
            .find(after)
            .unwrap_or_else(|| panic!("{after} in {summary}"));
        summary[..at]
            .rsplit(|c: char| !c.is_ascii_digit())
            .find(|s| !s.is_empty())
            .unwrap()
            .parse()
            .unwrap()
    };
    let jobs = number(" of 16 jobs");
    let made = number(" image");
    let done = number(" already done");
    assert!(done >= recorded.len(), "{summary}");
    assert_eq!(made + done, jobs, "{summary}");
    for (file, mtime) in &recorded {
        let now = std::fs::metadata(d.join("out").join(file))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(now, *mtime, "{file} was made again");
    }
    // The shard is complete: each of its jobs recorded once, every file as
    // recorded; no temporary file of the killed run is left.
    let text_of = std::fs::read_to_string(&manifest).unwrap();
    assert_eq!(text_of.lines().count(), 1 + jobs, "{text_of}");
    for name in std::fs::read_dir(d.join("out")).unwrap() {
        let name = name.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "{name} left");
    }
    // A third run has nothing to do.
    let o = playa(d, &args);
    let summary = text(&o.stdout);
    assert!(summary.starts_with("0 images in"), "{summary}");
}

#[test]
fn manifest_check_finds_missing_duplicated_and_corrupt_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    playa_ok(d, &words("render --seeds 1..5 --size 40x22 --out b"));
    let o = check(d, "b");
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert_stdout_has(&o, "4 jobs in 1 manifest: all present once");

    std::fs::remove_file(d.join("b/death-valley-2.png")).unwrap();
    let path = d.join("b/death-valley-3.png");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    let o = check(d, "b");
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(
        out.contains("corrupt: death-valley-2.png (the file is gone)"),
        "{out}"
    );
    assert!(
        out.contains("corrupt: death-valley-3.png (its SHA-256 differs"),
        "{out}"
    );
    assert!(!out.contains("death-valley-1.png"), "{out}");

    // Shard 2 of 2 rendered into the same directory records its jobs again.
    playa_ok(
        d,
        &words("render --seeds 1..5 --size 40x22 --out b --shard 2/2"),
    );
    let o = check(d, "b");
    assert_eq!(o.status.code(), Some(1));
    assert_stdout_has(&o, "duplicated: death-valley-");

    // A shard that never ran leaves its jobs missing.
    playa_ok(
        d,
        &words("render --seeds 1..9 --size 40x22 --out c --shard 1/3"),
    );
    let o = check(d, "c");
    assert_eq!(o.status.code(), Some(1));
    assert_stdout_has(&o, "missing: death-valley-");

    let o = check(d, ".");
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(&o, "no playa manifest");
}

#[test]
fn bad_shards_are_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Arguments, environment, and what the one line of error says.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, String)], &'a str);
    let cases: [Case; 5] = [
        (&["--shard", "5/4"], &[], "1 to 4"),
        (&["--shard", "auto"], &[], "no scheduler's index"),
        (
            &["--shard", "auto"],
            &[("JOB_COMPLETION_INDEX", "1".to_string())],
            "--shards N or set PLAYA_SHARDS",
        ),
        (
            &["--shard", "auto", "--shards", "3"],
            &[
                ("SLURM_ARRAY_TASK_ID", "1".to_string()),
                ("SLURM_ARRAY_TASK_MIN", "0".to_string()),
                ("SLURM_ARRAY_TASK_COUNT", "4".to_string()),
            ],
            "--shards says 3 shards but SLURM_ARRAY_TASK_COUNT says 4",
        ),
        (
            &["--shard", "2/2", "--out", "one.png"],
            &[],
            "needs a directory",
        ),
    ];
    for (args, env, expected) in cases {
        let o = command(d)
            .args([&["render", "--size", "16x9"], args].concat())
            .envs(env.iter().cloned())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 0, "nothing written");
    // Another batch as the same shard, into a directory holding its
    // manifest: tasks of one array started with different arguments.
    let shard = |seed: &'static str| {
        [
            "render", "--seed", seed, "--size", "16x9", "--out", "x", "--shard", "1/2",
        ]
    };
    assert!(playa(d, &shard("1")).status.success());
    let o = playa(d, &shard("2"));
    assert_eq!(o.status.code(), Some(1));
    assert_stderr_has(&o, "records another batch");
    playa_ok(d, &[&shard("2")[..], &["--force"]].concat());
}

#[test]
fn one_whole_batch_after_another_replaces_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for seed in ["1", "2"] {
        playa_ok(d, &["render", "--seed", seed, "--size", "16x9"]);
        let o = check(d, ".");
        assert!(o.status.success(), "{}", text(&o.stdout));
        let out = text(&o.stdout);
        assert!(out.starts_with("1 jobs in 1 manifest"), "{out}");
    }
    let manifest = std::fs::read_to_string(d.join("playa-manifest.jsonl")).unwrap();
    assert!(manifest.contains("death-valley-2.png") && !manifest.contains("death-valley-1.png"));
}
