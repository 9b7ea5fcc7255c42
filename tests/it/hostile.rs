//! Input a hostile or unlucky user hands playa: each case is refused in one
//! clear line with a non-zero exit, and nothing is written where it should
//! not be (docs/HOSTILE.md lists the cases and the tests that hold them).

use crate::common::cli::{files, playa, stderr};

/// The widest line playa may print about a bad argument: quoted input is cut
/// to an excerpt (of 80 characters or so), however long the argument; a
/// line may quote it twice and list what is allowed.
const LONGEST_LINE: usize = 600;

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
        vec!["sheet", "--seeds", every, "--out", "s.png"],
        vec!["sheet", "--rolls", every, "--out", "s.png"],
        // A census of them panicked, allocating a vector of 2⁶⁴ traits.
        vec!["random", "--rolls", every, "--census"],
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
fn a_name_near_the_file_system_s_limit_is_written() {
    // A name of 239 to 255 bytes could not be written: its temporary
    // file's name, some 20 bytes longer, was too long for the file system.
    let dir = tempfile::tempdir().unwrap();
    let name = |stem: &str| format!("{}-{stem}.png", "é".repeat(121));
    let (picture, sheet) = (name("pic"), name("sht"));
    assert_eq!((picture.len(), sheet.len()), (250, 250));
    let o = playa(
        dir.path(),
        &["render", "death-valley", "--size", "8x8", "--out", &picture],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = playa(
        dir.path(),
        &[
            "sheet", "--seeds", "1..=2", "--size", "32x18", "--out", &sheet,
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(dir.path()), [picture, sheet]);
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
                "--out".into(),
                "s.png".into(),
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
                "{}: a line of {} characters: {}…",
                args[0],
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

/// Runs `playa args…` in `dir`, failing the test if it has not ended within
/// 30 s (a named pipe opened to read waits for a writer forever).
#[cfg(unix)]
fn playa_in_time(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    use std::time::{Duration, Instant};
    let child = crate::common::cli::command(dir)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let start = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()).ok());
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            std::process::Command::new("kill")
                .arg(id.to_string())
                .status()
                .ok();
            panic!("{args:?} hung (killed after {:?})", start.elapsed());
        }
    }
}

#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn a_named_pipe_among_the_presets_is_skipped_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let presets = dir.path().join(".playa-config/presets");
    std::fs::create_dir_all(&presets).unwrap();
    std::fs::write(presets.join("mine.ron"), "(seed: 3)").unwrap();
    mkfifo(&presets.join("fifo.ron"));
    let o = playa_in_time(dir.path(), &["render", "--list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("mine"), "{out}");
    assert!(
        stderr(&o).contains("fifo.ron: not a regular file"),
        "{}",
        stderr(&o)
    );
    let o = playa_in_time(dir.path(), &["render", "fifo", "--size", "8x8"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let o = playa_in_time(dir.path(), &["share", "mine"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn a_named_pipe_or_a_device_given_as_a_file_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("scene.ron"));
    for args in [
        vec!["render", "scene.ron", "--size", "8x8"],
        vec!["share", "scene.ron"],
        vec!["animate", "scene.ron", "--out", "a.gif"],
        vec!["render", "/dev/zero", "--size", "8x8"],
    ] {
        let o = playa_in_time(dir.path(), &args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
        assert!(err.lines().count() <= 2, "{args:?}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn a_manifest_that_is_a_named_pipe_or_a_device_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let manifest = out.join("playa-manifest.jsonl");
    mkfifo(&manifest);
    let o = playa_in_time(dir.path(), &["manifest", "check", "out"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let o = playa_in_time(dir.path(), &["render", "--size", "8x8", "--out", "out"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    // A manifest linked to /dev/zero: an endless line, once 4 GiB asked for.
    std::fs::remove_file(&manifest).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &manifest).unwrap();
    let o = playa_in_time(dir.path(), &["manifest", "check", "out"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

/// Replaces `from` by `to` in the first line (the header) of `dir`'s
/// manifest.
fn forge_header(dir: &std::path::Path, from: &str, to: &str) {
    let path = dir.join("playa-manifest.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    assert!(header.contains(from), "{header}");
    std::fs::write(&path, format!("{}\n{rest}", header.replacen(from, to, 1))).unwrap();
}

#[cfg(unix)]
#[test]
fn a_forged_manifest_header_is_refused_before_anything_is_allocated_from_it() {
    // Each grew without bound, or aborted asking for many GiB.
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| assert!(playa(dir.path(), args).status.success(), "{args:?}");
    run(&[
        "render",
        "death-valley",
        "--size",
        "8x8",
        "--seeds",
        "1..=2",
        "--out",
        "seeds",
    ]);
    forge_header(
        &dir.path().join("seeds"),
        "\"seeds\":[1,2]",
        "\"seeds\":[0,18446744073709551615]",
    );
    run(&[
        "animate",
        "death-valley",
        "--size",
        "8x8",
        "--frames-dir",
        "frames",
    ]);
    forge_header(
        &dir.path().join("frames"),
        "\"generations\":[0,8]",
        "\"generations\":[0,4294967295]",
    );
    run(&[
        "render",
        "death-valley",
        "--size",
        "64x64",
        "--tiles",
        "tiles",
    ]);
    forge_header(
        &dir.path().join("tiles"),
        "\"size\":[64,64]",
        "\"size\":[4294967295,4294967295]",
    );
    for (folder, says) in [
        ("seeds", "more than a batch makes"),
        ("frames", "more than a batch makes"),
        ("tiles", "4294967295"),
    ] {
        let o = playa_in_time(dir.path(), &["manifest", "check", folder]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{folder}: {err}");
        assert!(err.contains(says), "{folder}: {err}");
        assert_eq!(err.lines().count(), 1, "{folder}: {err}");
    }
}

#[test]
fn a_torn_manifest_line_is_repaired_by_the_next_run() {
    // A write cut short by a full disk, then a whole one, left
    // `…"by{"key":…`: every rerun and `manifest check` refused the folder.
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "render",
        "death-valley",
        "--size",
        "8x8",
        "--seeds",
        "1..=3",
        "--out",
        "out",
    ];
    assert!(playa(dir.path(), &args).status.success());
    let path = dir.path().join("out/playa-manifest.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    // The second entry's line cut in half, and the third spliced onto it.
    let torn = format!(
        "{}\n{}\n{}{}\n",
        lines[0],
        lines[1],
        &lines[2][..lines[2].len() / 2],
        lines[3]
    );
    std::fs::write(&path, torn).unwrap();
    assert!(
        !playa(dir.path(), &["manifest", "check", "out"])
            .status
            .success()
    );

    let o = playa(dir.path(), &args);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning:") && err.contains("line 3 did not read"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let o = playa(dir.path(), &["manifest", "check", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Repaired once: the next run has nothing to say.
    let o = playa(dir.path(), &args);
    assert!(
        o.status.success() && stderr(&o).is_empty(),
        "{}",
        stderr(&o)
    );
}

/// A tmpfs of `kib` KiB mounted on `at`, unmounted when dropped.
#[cfg(target_os = "linux")]
struct SmallDisk(std::path::PathBuf);

#[cfg(target_os = "linux")]
impl SmallDisk {
    fn mount(at: &std::path::Path, kib: u32) -> SmallDisk {
        std::fs::create_dir_all(at).unwrap();
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(at)
            .status()
            .expect("mount runs");
        assert!(status.success(), "cannot mount a tmpfs (run as root)");
        SmallDisk(at.to_path_buf())
    }
}

#[cfg(target_os = "linux")]
impl Drop for SmallDisk {
    fn drop(&mut self) {
        std::process::Command::new("umount")
            .arg(&self.0)
            .status()
            .ok();
    }
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs root, to mount a small tmpfs as a full disk; .ci/run runs it"]
fn a_manifest_append_cut_short_by_a_full_disk_leaves_whole_lines() {
    let uid = std::process::Command::new("id").arg("-u").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&uid.stdout).trim(),
        "0",
        "not running as root"
    );
    let dir = tempfile::tempdir().unwrap();
    let disk = SmallDisk::mount(&dir.path().join("disk"), 1024);
    let args = [
        "render",
        "death-valley",
        "--size",
        "8x8",
        "--seeds",
        "1..=40",
        "--out",
        "disk/out",
    ];
    assert!(playa(dir.path(), &args).status.success());
    // The pictures stay, unrecorded: a rerun only appends to the manifest.
    let manifest = disk.0.join("out/playa-manifest.jsonl");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let header = text.lines().next().unwrap().to_string();
    std::fs::write(&manifest, format!("{header}\n")).unwrap();
    // Fill the disk, then free one page: room for a few lines, not 40.
    let filler = disk.0.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let block = vec![7u8; 4096];
    while std::io::Write::write_all(&mut f, &block).is_ok() {}
    drop(f);
    let len = std::fs::metadata(&filler).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&filler)
        .unwrap()
        .set_len(len - 4096)
        .unwrap();
    let o = playa(dir.path(), &args);
    assert!(!o.status.success(), "the disk was not full");
    assert!(stderr(&o).contains("No space left"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(text.ends_with('\n'), "a line cut short: {text}");
    for line in text.lines() {
        assert!(
            serde_json::from_str::<serde_json::Value>(line).is_ok(),
            "{line}"
        );
    }
    // With room again, the run completes the manifest.
    std::fs::remove_file(&filler).unwrap();
    let o = playa(dir.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = playa(dir.path(), &["manifest", "check", "disk/out"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `data` as the PNG chunk `kind`, with its length and checksum.
fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    let mut bytes = (data.len() as u32).to_be_bytes().to_vec();
    bytes.extend_from_slice(kind);
    bytes.extend_from_slice(data);
    bytes.extend_from_slice(&crc.finalize().to_be_bytes());
    bytes
}

/// A tEXt chunk.
fn text_chunk(keyword: &str, text: &str) -> Vec<u8> {
    png_chunk(b"tEXt", format!("{keyword}\0{text}").as_bytes())
}

/// The PNG `png` with `chunks` after its header (the signature and the
/// 25 bytes of IHDR), and its header saying `size` when given.
fn edited_png(png: &[u8], size: Option<(u32, u32)>, chunks: &[Vec<u8>]) -> Vec<u8> {
    let (head, rest) = png.split_at(8 + 25);
    let mut ihdr = head[16..29].to_vec();
    if let Some((w, h)) = size {
        ihdr[..4].copy_from_slice(&w.to_be_bytes());
        ihdr[4..8].copy_from_slice(&h.to_be_bytes());
    }
    [
        &head[..8],
        &png_chunk(b"IHDR", &ihdr),
        &chunks.concat(),
        rest,
    ]
    .concat()
}

/// A picture of death-valley at 64 × 36 made by `playa render` in `dir`.
fn picture(dir: &std::path::Path) -> Vec<u8> {
    let o = playa(
        dir,
        &[
            "render",
            "death-valley",
            "--size",
            "64x36",
            "--out",
            "p.png",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read(dir.join("p.png")).unwrap()
}

/// Renders `input` in `dir` into the folder `out`: the run's output.
fn render_into_out(dir: &std::path::Path, input: &str) -> std::process::Output {
    playa(dir, &["render", input, "--out", "out"])
}

/// The pictures [`render_into_out`] made.
fn made_in_out(dir: &std::path::Path) -> Vec<String> {
    let out = dir.join("out");
    match out.exists() {
        true => files(&out),
        false => Vec::new(),
    }
}

#[test]
fn a_picture_s_own_size_is_refused_as_size_would_be() {
    // A header edited to 1×16384 rendered that size, though --size
    // 1x16384 is refused.
    let dir = tempfile::tempdir().unwrap();
    let png = picture(dir.path());
    for (w, h) in [(1, 16384), (16384, 2), (65536, 8), (70000, 70000)] {
        std::fs::write(
            dir.path().join("e.png"),
            edited_png(&png, Some((w, h)), &[]),
        )
        .unwrap();
        let o = render_into_out(dir.path(), "e.png");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        let said = "e.png: the picture's size is not one playa makes: ";
        let line = err
            .lines()
            .find(|l| l.contains(said))
            .unwrap_or_else(|| panic!("{err}"));
        // In the words --size is refused in.
        let size = format!("{w}x{h}");
        let o = playa(dir.path(), &["render", "--size", &size, "--out", "x.png"]);
        let why = stderr(&o).trim().replace("playa: --size: ", "");
        assert!(line.ends_with(&why), "{line} / {why}");
        assert_eq!(made_in_out(dir.path()), Vec::<String>::new());
    }
}

#[test]
fn a_picture_s_text_chunks_are_read_whole_once_or_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let png = picture(dir.path());
    let write = |name: &str, chunks: &[Vec<u8>]| {
        std::fs::write(dir.path().join(name), edited_png(&png, None, chunks)).unwrap();
    };
    let other = playa::Scene {
        seed: 8,
        ..playa::Scene::default()
    };
    // A second recipe that says another scene.
    write("two.png", &[text_chunk("playa:scene", &other.to_ron())]);
    // 16 MiB of recipe, packed into a few kilobytes (the png crate's
    // "Out of decompression space. Try with a larger limit." once).
    let mut bomb = png::text_metadata::ITXtChunk::new("playa:scene", " ".repeat(16 << 20));
    bomb.compressed = true;
    let mut packed = Vec::new();
    png::text_metadata::EncodableTextChunk::encode(&bomb, &mut packed).unwrap();
    write("bomb.png", &[packed]);
    for (name, says) in [
        (
            "two.png",
            "two.png: it holds two playa:scene chunks that differ",
        ),
        (
            "bomb.png",
            "bomb.png: its playa:scene chunk unpacks to more than 1048576 bytes",
        ),
    ] {
        let o = render_into_out(dir.path(), name);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.lines().any(|l| l.contains(says)), "{err}");
        assert_eq!(made_in_out(dir.path()), Vec::<String>::new());
    }
    // 30 MB of traits, which playa never reads back, are skipped: the
    // picture is made again, the same bytes.
    let traits = "Composition: dune sea\n".repeat((30 << 20) / 22 + 1);
    write("traits.png", &[text_chunk("playa:traits", &traits)]);
    let o = render_into_out(dir.path(), "traits.png");
    assert!(o.status.success(), "{}", stderr(&o));
    let made = made_in_out(dir.path());
    assert_eq!(made.len(), 1, "{made:?}");
    assert!(std::fs::read(dir.path().join("out").join(&made[0])).unwrap() == png);
}

#[test]
fn a_still_carries_only_animation_options_playa_checked() {
    // A garbage animation chunk in a still was copied into the picture
    // made from it.
    let dir = tempfile::tempdir().unwrap();
    let png = picture(dir.path());
    let garbage = text_chunk("playa:animation", "(fps: \"lots\", payload: [1, 2, 3])");
    std::fs::write(dir.path().join("g.png"), edited_png(&png, None, &[garbage])).unwrap();
    let o = render_into_out(dir.path(), "g.png");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("playa: g.png (playa:animation): ")),
        "{err}"
    );
    assert_eq!(made_in_out(dir.path()), Vec::<String>::new());
}

/// A scene whose drawing would cost more than ten death-valleys, from a
/// file or a share code (the issue's: a Racetrack of 300 two-metre
/// stones, 16× death-valley; 29 of them half opaque in a wind of 250°,
/// 445×; 29 layers of tall plants, 34×), is refused in one line that
/// names the layers that cost most and what to lower; nothing is drawn.
#[test]
fn a_scene_that_costs_too_much_is_refused_naming_what_to_lower() {
    let dir = tempfile::tempdir().unwrap();
    let base = "Sky(()), Ranges(()), Floor(())";
    let racetrack = "Racetrack((stones: 300, size: 2.0))";
    let half = "Racetrack((opacity: 0.5, stones: 300, size: 2.0))";
    let plants = "Plants((creosote: 1.0, clumped: 1.0, joshua: 64, height: 10.0, \
                  near_size: 0.3, far_size: 0.3))";
    let many = |layer: &str| [layer; 29].join(", ");
    for (file, wind, layers, says) in [
        (
            "one.ron",
            0,
            racetrack.to_string(),
            "its racetrack layer costs most",
        ),
        (
            "many.ron",
            250,
            many(half),
            "its 29 racetrack layers cost most",
        ),
        (
            "plants.ron",
            0,
            many(plants),
            "its 29 plants layers cost most",
        ),
    ] {
        let text = format!("(wind: {wind}.0, layers: [{base}, {layers}])");
        std::fs::write(dir.path().join(file), text).unwrap();
        let o = playa(
            dir.path(),
            &["render", file, "--size", "64x36", "--out", "x.png"],
        );
        let err = stderr(&o);
        assert_ne!(o.status.code(), Some(0), "{err}");
        let line = err.lines().next().unwrap_or_default();
        for part in [
            "as long as death-valley to draw",
            "limit of 10×",
            says,
            "lower",
        ] {
            assert!(line.contains(part), "{file}: no {part:?} in {err}");
        }
        // The same scene as a share code.
        let o = playa(dir.path(), &["share", file]);
        assert_ne!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
    }
    let mut scene = playa::Scene::default();
    scene.layers.extend(std::iter::repeat_n(
        playa::layers::Layer::Racetrack(playa::layers::Racetrack {
            opacity: 0.5,
            stones: 300,
            size: 2.0,
            ..Default::default()
        }),
        26,
    ));
    scene.wind = 250.0;
    let code = playa::share::encode(&scene);
    let o = playa(
        dir.path(),
        &["render", &code, "--size", "64x36", "--out", "x.png"],
    );
    let err = stderr(&o);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("its 26 racetrack layers cost most"), "{err}");
    assert!(!dir.path().join("x.png").exists());
}

/// New scene with a kind locked keeps that kind's layers, and makes a
/// scene within a scene's limits around them: 29 locked Racetracks once
/// made 33 layers, refused as a "--set" no one gave. When the locked
/// layers leave no room for a sky and a ground, it says so.
#[test]
fn new_scene_keeps_a_scene_s_limits_or_says_why_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let scene = |n: usize| {
        let mut layers = vec!["Sky(())", "Ranges(())", "Floor(())"];
        layers.extend(std::iter::repeat_n("Racetrack(())", n));
        format!("(layers: [{}])", layers.join(", "))
    };
    std::fs::write(dir.path().join("t.ron"), scene(29)).unwrap();
    for roll in 0..10 {
        let roll = roll.to_string();
        let args = ["random", "t.ron", "--roll", &roll, "--lock", "racetrack"];
        let o = playa(dir.path(), &args);
        assert_eq!(o.status.code(), Some(0), "roll {roll}: {}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        let rolled = playa::Scene::from_ron(&text, "rolled").unwrap();
        let racetracks = rolled
            .layers
            .iter()
            .filter(|l| matches!(l, playa::layers::Layer::Racetrack(_)))
            .count();
        assert_eq!(racetracks, 29, "roll {roll}: the locked layers are kept");
        assert!(rolled.layers.len() <= playa::scene::MAX_LAYERS);
    }
    let o = playa(
        dir.path(),
        &[
            "sheet",
            "t.ron",
            "--rolls",
            "0..2",
            "--lock",
            "racetrack",
            "--out",
            "s.png",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // 32 locked layers and no sky: no room for one.
    let full = format!(
        "(layers: [{}])",
        ["Racetrack(())"; playa::scene::MAX_LAYERS].join(", ")
    );
    std::fs::write(dir.path().join("full.ron"), full).unwrap();
    let o = playa(
        dir.path(),
        &["random", "full.ron", "--roll", "0", "--lock", "racetrack"],
    );
    refused(&o, 2, "New scene keeps the 32 locked layers (racetrack)");
    assert!(!stderr(&o).contains("--set"), "{}", stderr(&o));
}
