//! `playa animate --frames-dir` and `--from-frames`: an animation made on a
//! job array, frame by frame in shards, then assembled, is the file one
//! machine makes, byte for byte (APNG and GIF); the frames are recorded as a
//! batch's pictures are, so `playa manifest check` checks them and a shard
//! run again keeps them, or repairs a lost or changed one; a folder with a
//! frame missing or from another animation is refused with one line,
//! naming the frame, and no file.

use std::path::Path;

use crate::common::cli::{assert_stderr_has, command, playa, playa_ok, stderr, words};

/// The animation of these tests: 13 frames of death-valley, small.
const SCENE: &str = "death-valley --size 160x90 --frames 0..=12";

fn frames_in_shards(dir: &Path, folder: &str, shards: u32) {
    for i in 1..=shards {
        let args = format!("animate {SCENE} --frames-dir {folder} --shard {i}/{shards}");
        let o = playa_ok(dir, &words(&args));
        let line = crate::common::cli::text(&o.stdout);
        if shards > 1 {
            assert!(line.starts_with(&format!("shard {i}/{shards}: ")), "{line}");
        }
    }
}

#[test]
fn frames_made_in_shards_assemble_into_the_one_machine_file() {
    let d = tempfile::tempdir().unwrap();
    frames_in_shards(d.path(), "frames", 3);
    // Recorded as a batch is: the check sees every frame once, and a lost
    // one.
    let o = playa_ok(d.path(), &words("manifest check frames"));
    assert!(
        crate::common::cli::text(&o.stdout).contains("13 jobs in 3 manifests: all present once"),
        "{}",
        crate::common::cli::text(&o.stdout)
    );
    let names: Vec<String> = crate::common::cli::files(&d.path().join("frames"));
    let expected: Vec<String> = (0..=12)
        .map(playa::batch::manifest::frame_file_name)
        .collect();
    assert_eq!(names, expected);
    for ext in ["png", "gif"] {
        playa_ok(
            d.path(),
            &words(&format!("animate {SCENE} --out one.{ext}")),
        );
        let o = playa_ok(
            d.path(),
            &words(&format!("animate --from-frames frames --out two.{ext}")),
        );
        assert!(
            crate::common::cli::text(&o.stdout).starts_with("13 frames from frames at 160x90"),
            "{}",
            crate::common::cli::text(&o.stdout)
        );
        assert_eq!(
            std::fs::read(d.path().join(format!("one.{ext}"))).unwrap(),
            std::fs::read(d.path().join(format!("two.{ext}"))).unwrap(),
            "the .{ext} from frames differs from one machine's"
        );
    }
    // A frame is a picture with its recipe: `playa render` makes its
    // pixels again.
    playa_ok(
        d.path(),
        &words("render frames/frame-0007.png --out again.png"),
    );
    let pixels = |name: &str| image::open(d.path().join(name)).unwrap().into_rgba8();
    assert!(pixels("again.png") == pixels("frames/frame-0007.png"));
}

#[test]
fn a_shard_run_again_keeps_its_frames_and_auto_reads_the_array() {
    let d = tempfile::tempdir().unwrap();
    let run = |index: &str| {
        let o = command(d.path())
            .args(words(&format!(
                "animate {SCENE} --frames-dir frames --shard auto"
            )))
            .env("SLURM_ARRAY_TASK_ID", index)
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        crate::common::cli::text(&o.stdout)
    };
    let first = run("1");
    assert!(first.starts_with("shard 1/2: "), "{first}");
    assert!(first.contains(", 0 there already"), "{first}");
    let again = run("1");
    assert!(again.contains(": 0 of "), "made frames again: {again}");
    run("2");
    playa_ok(d.path(), &words("animate --from-frames frames --out a.png"));
    playa_ok(d.path(), &words(&format!("animate {SCENE} --out b.png")));
    assert_eq!(
        std::fs::read(d.path().join("a.png")).unwrap(),
        std::fs::read(d.path().join("b.png")).unwrap()
    );
}

#[test]
fn a_folder_with_a_frame_missing_or_foreign_is_refused() {
    let d = tempfile::tempdir().unwrap();
    frames_in_shards(d.path(), "frames", 1);

    // A frame missing.
    let gone = d.path().join("frames/frame-0005.png");
    let kept = std::fs::read(&gone).unwrap();
    std::fs::remove_file(&gone).unwrap();
    let o = playa(d.path(), &words("manifest check frames"));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = playa(d.path(), &words("animate --from-frames frames --out a.png"));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_stderr_has(&o, "frame-0005.png: missing");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(!d.path().join("a.png").exists());
    std::fs::write(&gone, kept).unwrap();

    // A frame of another seed, under the right name.
    playa_ok(
        d.path(),
        &words(&format!(
            "animate {SCENE} --seed 99 --frames-dir other --shard 1/1"
        )),
    );
    std::fs::copy(
        d.path().join("other/frame-0003.png"),
        d.path().join("frames/frame-0003.png"),
    )
    .unwrap();
    let o = playa(d.path(), &words("animate --from-frames frames --out a.png"));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_stderr_has(&o, "frame-0003.png: a frame of another animation");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(!d.path().join("a.png").exists());

    // The shard run again repairs the folder: the foreign frame is not
    // the one recorded, so it is made again.
    let o = playa_ok(
        d.path(),
        &words(&format!("animate {SCENE} --frames-dir frames --shard 1/1")),
    );
    let line = crate::common::cli::text(&o.stdout);
    assert!(
        line.starts_with("1 of 13 frames made (1 repaired"),
        "{line}"
    );
    playa_ok(d.path(), &words("animate --from-frames frames --out a.png"));
    playa_ok(d.path(), &words("manifest check frames"));

    // Another animation into the same folder is refused, naming the
    // manifest, and writes nothing.
    let before = crate::common::cli::files(&d.path().join("frames"));
    let o = playa(
        d.path(),
        &words(&format!(
            "animate {SCENE} --seed 99 --frames-dir frames --shard 1/1"
        )),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_stderr_has(&o, "playa-manifest.jsonl: records another batch");
    assert_eq!(crate::common::cli::files(&d.path().join("frames")), before);

    // No frames at all; and the options that belong to the frames.
    std::fs::create_dir(d.path().join("empty")).unwrap();
    let o = playa(d.path(), &words("animate --from-frames empty"));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_stderr_has(&o, "no frames");
    let o = playa(
        d.path(),
        &words("animate death-valley --from-frames frames --out a.png"),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = playa(d.path(), &words("animate --shard 1/2 --out a.png"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
