//! Folders a hostile or unlucky user shares with playa: links planted where
//! playa writes, two runs in one folder, a run interrupted or killed. Nothing
//! is written or read outside the folder, no run spoils another's files, and
//! no temporary file outlives its run (docs/HOSTILE.md lists the cases).
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::cli::{files, playa, playa_ok, stderr};

/// Starts `playa args…` in `dir`, its output kept to read.
fn start(dir: &Path, args: &[&str]) -> Child {
    crate::common::cli::command(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `ready` holds, for at most a minute (a debug build renders
/// slowly on a busy machine).
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(60), "no {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The temporary files in `dir` (`.NAME.XXXXXX.tmp`).
fn temporaries(dir: &Path) -> Vec<String> {
    files(dir)
        .into_iter()
        .filter(|n| n.starts_with('.') && n.ends_with(".tmp"))
        .collect()
}

fn signal(child: &Child, name: &str) {
    let status = std::process::Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Plants a link to `victim` at each name a temporary file of `names` in
/// `dir` once had, for the process `pid`: `.NAME.PID.tmp`.
fn plant_temporary_links(dir: &Path, names: &[String], pid: u32, victim: &Path) {
    for name in names {
        symlink(victim, &dir.join(format!(".{name}.{pid}.tmp")));
    }
}

#[test]
fn a_planted_temporary_link_is_not_written_through() {
    // Temporary names were `.NAME.PID.tmp`, opened without O_EXCL: a link
    // planted for the next pid got the picture written to its target.
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "the victim's own bytes").unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();

    // One file.
    let child = start(
        &out,
        &[
            "render",
            "death-valley",
            "--out",
            "poster.png",
            "--size",
            "800x450",
        ],
    );
    plant_temporary_links(&out, &["poster.png".into()], child.id(), &victim);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!is_link(&out.join("poster.png")), "the picture is a link");
    assert!(
        std::fs::read(out.join("poster.png"))
            .unwrap()
            .starts_with(b"\x89PNG")
    );

    // A batch: its pictures' names, learnt from a first run.
    let batch = out.join("batch");
    let args = [
        "render",
        "death-valley",
        "--seeds",
        "1..=3",
        "--size",
        "320x180",
        "--out",
        "batch",
    ];
    playa_ok(&out, &args);
    let names: Vec<String> = files(&batch)
        .into_iter()
        .filter(|n| n.ends_with(".png"))
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    std::fs::remove_dir_all(&batch).unwrap();
    std::fs::create_dir(&batch).unwrap();
    let child = start(&out, &args);
    plant_temporary_links(&batch, &names, child.id(), &victim);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    for name in &names {
        assert!(!is_link(&batch.join(name)), "{name} is a link");
    }
    playa_ok(&out, &["manifest", "check", "batch"]);
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the victim's own bytes"
    );
}

#[test]
fn a_pyramid_writes_and_reads_nothing_through_a_planted_folder_link() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let tiles = [
        "render",
        "death-valley",
        "--tiles",
        "zoom",
        "--size",
        "600x340",
    ];

    // The viewer's folder, a link to another folder: refused, nothing
    // written there.
    std::fs::create_dir(dir.path().join("zoom")).unwrap();
    symlink(&elsewhere, &dir.path().join("zoom/openseadragon"));
    let o = playa(dir.path(), &tiles);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("openseadragon: a symbolic link"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(files(&elsewhere).is_empty(), "{:?}", files(&elsewhere));

    // A whole pyramid whose tiles' folder is then moved away and linked
    // back: `manifest check` hashes nothing through the link, and a rerun
    // writes nothing through it.
    std::fs::remove_file(dir.path().join("zoom/openseadragon")).unwrap();
    playa_ok(dir.path(), &tiles);
    playa_ok(dir.path(), &["manifest", "check", "zoom"]);
    let moved = elsewhere.join("death-valley-1_files");
    std::fs::rename(dir.path().join("zoom/death-valley-1_files"), &moved).unwrap();
    symlink(&moved, &dir.path().join("zoom/death-valley-1_files"));
    let o = playa(dir.path(), &["manifest", "check", "zoom"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report = crate::common::cli::text(&o.stdout);
    assert!(report.contains("(not followed)"), "{report}");
    assert!(!report.contains("all present once"), "{report}");
    let before = listing(&moved);
    let o = playa(dir.path(), &tiles);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("death-valley-1_files: a symbolic link"),
        "{}",
        stderr(&o)
    );
    assert_eq!(listing(&moved), before, "written through the link");
}

/// Every file under `dir` with its bytes.
fn listing(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            match path.is_dir() {
                true => todo.push(path),
                false => all.push((path.clone(), std::fs::read(&path).unwrap())),
            }
        }
    }
    all.sort();
    all
}

#[test]
fn a_second_batch_in_the_folder_is_refused_naming_the_first() {
    // Two batches at once in one folder deleted each other's temporary
    // files ("No such file or directory"), and once a picture was left
    // unrecorded.
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "render",
        "death-valley",
        "--seeds",
        "1..=8",
        "--size",
        "1920x1080",
        "--out",
        "d",
    ];
    let first = start(dir.path(), &args);
    let manifest = dir.path().join("d/playa-manifest.jsonl");
    wait_for("manifest", || {
        std::fs::metadata(&manifest).is_ok_and(|m| m.len() > 0)
    });
    let second = playa(dir.path(), &args);
    let first_pid = first.id();
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    let err = stderr(&second);
    if second.status.success() {
        // The first had finished already (a machine far faster than this
        // test's guess): the second found every picture done.
        eprintln!("the first batch ended before the second started");
        assert!(crate::common::cli::text(&second.stdout).contains("already done"));
    } else {
        assert_eq!(second.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "another playa (pid {first_pid}) is writing this batch here"
            )),
            "{err}"
        );
    }
    playa_ok(dir.path(), &["manifest", "check", "d"]);
}

#[test]
fn batches_started_together_never_spoil_each_other() {
    // However two runs of one batch overlap, each either renders or is
    // refused in one line, and the folder ends whole.
    let dir = tempfile::tempdir().unwrap();
    for trial in 0..6 {
        let out = format!("d{trial}");
        let args = [
            "render",
            "death-valley",
            "--seeds",
            "1..=4",
            "--size",
            "240x135",
            "--out",
            &out,
        ];
        let a = start(dir.path(), &args);
        let b = start(dir.path(), &args);
        let outputs: Vec<Output> = [a, b]
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let mut rendered = 0;
        for o in &outputs {
            match o.status.success() {
                true => rendered += 1,
                false => {
                    let err = stderr(o);
                    assert!(err.contains("is writing this batch here"), "{err}");
                    assert_eq!(err.lines().count(), 1, "{err}");
                }
            }
        }
        assert!(rendered >= 1, "trial {trial}: both refused");
        playa_ok(dir.path(), &["manifest", "check", &out]);
        assert!(temporaries(&dir.path().join(&out)).is_empty());
    }
    // Two shards of one batch share the folder, at once.
    let shard = |s: &'static str| {
        start(
            dir.path(),
            &[
                "render",
                "death-valley",
                "--seeds",
                "1..=8",
                "--size",
                "240x135",
                "--out",
                "s",
                "--shard",
                s,
            ],
        )
    };
    let (a, b) = (shard("1/2"), shard("2/2"));
    for o in [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()] {
        assert!(o.status.success(), "{}", stderr(&o));
    }
    playa_ok(dir.path(), &["manifest", "check", "s"]);
}

/// Starts `args` in `dir`, waits until its temporary file for `target` is
/// there, and sends it `signal`; returns how it ended.
fn interrupt(dir: &Path, args: &[&str], target: &str, name: &str) -> Output {
    let child = start(dir, args);
    let prefix = format!(".{target}.");
    wait_for("temporary file", || {
        temporaries(dir).iter().any(|t| t.starts_with(&prefix))
    });
    signal(&child, name);
    child.wait_with_output().unwrap()
}

#[test]
fn an_interrupted_render_leaves_no_temporary_file() {
    // SIGINT of `render --out poster.png` left a 67 MB temporary file that
    // no rerun removed.
    let dir = tempfile::tempdir().unwrap();
    let poster = [
        "render",
        "death-valley",
        "--out",
        "poster.png",
        "--size",
        "3840x2160",
    ];
    let animation = [
        "animate",
        "death-valley",
        "--out",
        "anim.gif",
        "--size",
        "640x360",
    ];
    for (args, target) in [(&poster[..], "poster.png"), (&animation[..], "anim.gif")] {
        for (name, code) in [("INT", 130), ("TERM", 143)] {
            let o = interrupt(dir.path(), args, target, name);
            assert_eq!(o.status.code(), Some(code), "{name}: {}", stderr(&o));
            assert!(
                files(dir.path()).is_empty(),
                "{name}: {:?}",
                files(dir.path())
            );
        }
    }
    // A kill leaves it; the next run for the same file removes it.
    let o = interrupt(dir.path(), &poster, "poster.png", "KILL");
    assert!(!o.status.success());
    assert_eq!(temporaries(dir.path()).len(), 1, "{:?}", files(dir.path()));
    playa_ok(
        dir.path(),
        &[
            "render",
            "death-valley",
            "--out",
            "poster.png",
            "--size",
            "64x36",
        ],
    );
    assert_eq!(files(dir.path()), ["poster.png"]);
}

/// Runs `playa args…` in `dir` as a user who is not root: this one if it
/// is not root, else `nobody` (65534), for whom `dir` is opened to read.
fn playa_not_root(dir: &Path, args: &[&str]) -> Output {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let mut command = crate::common::cli::command(dir);
    // SAFETY: geteuid only reads this process's user id.
    if unsafe { libc::geteuid() } == 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        command.uid(65534).gid(65534);
    }
    command.args(args).output().expect("the playa binary runs")
}

#[test]
fn a_folder_that_cannot_be_made_fails_once_before_any_picture() {
    // A read-only parent was reported as the manifest's "No such file or
    // directory", and the batch counted "2 failed" for one picture.
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("ro")).unwrap();
    std::fs::set_permissions(d.join("ro"), std::fs::Permissions::from_mode(0o555)).unwrap();
    // A parent that is a file bars root as well.
    std::fs::write(d.join("file"), "x").unwrap();
    fn render(out: &str) -> [&str; 6] {
        ["render", "death-valley", "--size", "8x8", "--out", out]
    }
    for (o, folder, reason) in [
        (
            playa_not_root(d, &render("ro/out")),
            "ro/out",
            "Permission denied",
        ),
        (playa(d, &render("file/out")), "file/out", "Not a directory"),
    ] {
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "not one line:\n{err}");
        assert!(
            err.contains(&format!(
                "--out {folder}: the folder cannot be made: {reason}"
            )),
            "{err}"
        );
        assert!(
            o.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    assert_eq!(files(&d.join("ro")), Vec::<String>::new());
    assert_eq!(std::fs::read(d.join("file")).unwrap(), b"x");
}

#[test]
fn a_killed_render_s_temporary_file_of_a_long_name_is_removed_by_the_next() {
    // A name too long for `.NAME.PID-XXXXXX.tmp` has its NAME shortened;
    // the next run still finds what a killed one left.
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.png", "p".repeat(246));
    let args = |size| ["render", "death-valley", "--out", &name, "--size", size];
    let child = start(dir.path(), &args("3840x2160"));
    wait_for("temporary file", || !temporaries(dir.path()).is_empty());
    signal(&child, "KILL");
    assert!(!child.wait_with_output().unwrap().status.success());
    assert_eq!(temporaries(dir.path()).len(), 1, "{:?}", files(dir.path()));
    playa_ok(dir.path(), &args("64x36"));
    assert_eq!(files(dir.path()), [name]);
}
