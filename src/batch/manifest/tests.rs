use super::*;

#[test]
fn names() {
    assert!(is_manifest_name("playa-manifest.jsonl"));
    assert!(is_manifest_name("playa-manifest-2-of-4.jsonl"));
    assert!(!is_manifest_name("playa-manifest-x-of-4.jsonl"));
    assert!(!is_manifest_name("playa-manifest.jsonl.tmp"));
}

#[test]
fn a_partial_last_line_is_skipped() {
    let header = Header {
        batch: BatchRecord {
            playa: "0".into(),
            inputs: vec![],
            seeds: None,
            size: None,
            compression: "fast".into(),
            crop: false,
        },
        shard: "1/1".into(),
        window: None,
        tiles: None,
        frames: None,
    };
    let entry = Entry {
        key: "a-1".into(),
        code: "c".into(),
        input: "a".into(),
        seed: 1,
        file: "a-1.png".into(),
        sha256: "00".into(),
        bytes: 3,
        ms: 4,
    };
    let mut text = serde_json::to_string(&header).unwrap() + "\n";
    text += &(serde_json::to_string(&entry).unwrap() + "\n");
    text += "{\"key\":\"a-2\",\"co";
    let m = Manifest::from_reader(text.as_bytes(), Path::new("m")).unwrap();
    assert_eq!(m.header, header);
    assert_eq!(m.entries, [entry]);
    let err = Manifest::from_reader("{}\n".as_bytes(), Path::new("m"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("m: line 1"), "{err}");
}

#[test]
fn a_recorded_file_must_be_a_plain_name_in_the_folder() {
    for ok in ["a-1.png", "death-valley-7.png", "..a.png", "a..png"] {
        assert_eq!(check_file(ok, false), Ok(()), "{ok}");
    }
    for bad in [
        "../victim.png",
        "..",
        ".",
        "",
        "/etc/passwd",
        "a/b.png",
        "a\\b.png",
        "C:x.png",
        "a\0.png",
    ] {
        let err = check_file(bad, false).unwrap_err();
        assert!(err.contains("not a plain name"), "{bad}: {err}");
    }
    assert_eq!(check_file("dv_files/12/3_4.jpeg", true), Ok(()));
    for bad in [
        "a-1.png",
        "dv_files/../../x",
        "/dv_files/1/0_0.png",
        "dv_files/1/0_0.png/x",
        "x/1/0_0.png",
    ] {
        assert!(check_file(bad, true).is_err(), "{bad}");
    }
    // The reader refuses such a line, naming the manifest and the line.
    let header = r#"{"batch":{"playa":"0","inputs":[],"seeds":null,"size":null,"compression":"fast"},"shard":"1/1"}"#;
    let entry = |file: &str| {
        format!(
            r#"{{"key":"a-1","code":"c","input":"a","seed":1,"file":"{file}","sha256":"00","bytes":3,"ms":4}}"#
        )
    };
    let text = format!(
        "{header}\n{}\n{}\n",
        entry("a-1.png"),
        entry("../victim.png")
    );
    let err = Manifest::from_bytes(text.as_bytes(), Path::new("dir/m.jsonl"))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("dir/m.jsonl: line 3: "), "{err}");
    assert!(err.contains("\"../victim.png\""), "{err}");
}

fn batch() -> BatchRecord {
    BatchRecord {
        playa: "0".into(),
        inputs: vec![crate::batch::InputRecord {
            input: "a".into(),
            name: "a".into(),
            seed: 1,
            code: "c".into(),
            size: None,
            compression: None,
        }],
        seeds: Some([1, 2]),
        size: None,
        compression: "fast".into(),
        crop: false,
    }
}

/// The header of `batch` rendered whole, pictures only.
fn whole(batch: BatchRecord) -> Header {
    Header {
        batch,
        shard: "1/1".into(),
        window: None,
        tiles: None,
        frames: None,
    }
}

/// Writes `bytes` as `dir/file` and records it under `key`.
fn put(writer: &Writer, dir: &Path, key: &str, bytes: &[u8]) {
    let file = format!("{key}.png");
    std::fs::write(dir.join(&file), bytes).unwrap();
    let (sha256, len) = hash_file(&dir.join(&file)).unwrap();
    writer
        .record(&Entry {
            key: key.into(),
            code: "c".into(),
            input: "a".into(),
            seed: 1,
            file,
            sha256,
            bytes: len,
            ms: 0,
        })
        .unwrap();
}

#[test]
fn a_rerun_finds_stale_records_and_the_last_record_wins() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let header = whole(batch());
    let open = || Writer::open(d, Shard::WHOLE, &header, false, OtherBatch::Refuse).unwrap();
    let (writer, _) = open();
    put(&writer, d, "a-1", b"one");
    put(&writer, d, "a-2", b"two");
    drop(writer);
    let (writer, done) = open();
    assert_eq!(Found::of(d, "a-1.png", done.get("a-1")), Found::Done);
    assert_eq!(Found::of(d, "b.png", done.get("a-1")), Found::Unrecorded);
    assert_eq!(Found::of(d, "a-3.png", done.get("a-3")), Found::Unrecorded);
    // Changed, then gone: stale; check says so.
    std::fs::write(d.join("a-1.png"), b"One").unwrap();
    std::fs::remove_file(d.join("a-2.png")).unwrap();
    assert_eq!(Found::of(d, "a-1.png", done.get("a-1")), Found::Stale);
    assert_eq!(Found::of(d, "a-2.png", done.get("a-2")), Found::Stale);
    let report = check(d).unwrap();
    assert_eq!(report.corrupt.len(), 2, "{report}");
    // Made again and recorded again: the later line supersedes.
    put(&writer, d, "a-1", b"uno");
    put(&writer, d, "a-2", b"dos");
    drop(writer);
    let report = check(d).unwrap();
    assert!(report.is_complete(), "{report}");
    let (_, done) = open();
    assert_eq!(Found::of(d, "a-1.png", done.get("a-1")), Found::Done);
    assert_eq!(
        Manifest::read(&d.join("playa-manifest.jsonl"))
            .unwrap()
            .entries
            .len(),
        4
    );
    // A flipped byte is still caught, and so is a key that another
    // manifest records too (nothing supersedes across manifests).
    std::fs::write(d.join("a-2.png"), b"dot").unwrap();
    assert_eq!(check(d).unwrap().corrupt.len(), 1);
    std::fs::write(d.join("a-2.png"), b"dos").unwrap();
    let shard = Shard::new(2, 2).unwrap();
    let other = Header {
        shard: "2/2".into(),
        ..header.clone()
    };
    let (writer, _) = Writer::open(d, shard, &other, false, OtherBatch::Refuse).unwrap();
    put(&writer, d, "a-1", b"uno");
    let report = check(d).unwrap();
    assert_eq!(report.duplicated.len(), 1, "{report}");
}

#[test]
fn a_batch_of_no_inputs_leaves_the_manifest_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let header = whole(batch());
    let (writer, _) = Writer::open(d, Shard::WHOLE, &header, false, OtherBatch::Replace).unwrap();
    put(&writer, d, "a-1", b"one");
    drop(writer);
    let path = d.join("playa-manifest.jsonl");
    let before = std::fs::read(&path).unwrap();
    let mut empty = header.clone();
    empty.batch.inputs.clear();
    for fresh in [false, true] {
        let err = Writer::open(d, Shard::WHOLE, &empty, fresh, OtherBatch::Replace)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("no inputs"), "{err}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn hashes_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("abc");
    std::fs::write(&path, b"abc").unwrap();
    assert_eq!(
        hash_file(&path).unwrap(),
        (
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".into(),
            3
        )
    );
}

#[test]
fn a_manifest_too_long_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("playa-manifest.jsonl");
    // Sparse: no disk taken, and no byte of it is read.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(MAX_MANIFEST_BYTES + 1).unwrap();
    let e = Manifest::read(&path).unwrap_err().to_string();
    assert!(e.contains("longer than a manifest grows (256 MiB)"), "{e}");
    let e = check(dir.path()).unwrap_err().to_string();
    assert!(e.contains("longer than a manifest grows"), "{e}");
}
