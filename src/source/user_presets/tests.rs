use super::*;

fn scene(seed: u64) -> Scene {
    Scene {
        seed,
        ..presets::load("golden-hour").unwrap()
    }
}

fn error<T: std::fmt::Debug>(result: Result<T>) -> String {
    let e = result.unwrap_err().to_string();
    assert_eq!(e.lines().count(), 1, "{e}");
    e
}

fn stores(dir: &Path) -> [Store; 2] {
    [
        Store::in_folder(dir.join("presets")),
        Store::in_memory(BTreeMap::new()),
    ]
}

#[test]
fn names_are_checked_and_builtins_refused() {
    for good in ["dunes", "Evening dunes 2", "é-clair_3", "7 stones"] {
        assert_eq!(check_name(good).unwrap(), good);
    }
    assert_eq!(check_name("  padded  ").unwrap(), "padded");
    let cases = [
        ("", "a preset needs a name"),
        ("   ", "a preset needs a name"),
        (
            "death-valley",
            "death-valley is a built-in preset; choose another name",
        ),
        ("Golden-Hour", "golden-hour is a built-in preset"),
        ("a/b", "'/' is not allowed"),
        ("a.ron", "'.' is not allowed"),
        ("..", "'.' is not allowed"),
        ("-rf", "starts with a letter or a digit"),
        ("tab\there", "'\\t' is not allowed"),
        ("playa1-abc", "looks like a share code"),
        ("NUL", "kept for a device"),
    ];
    for (name, needle) in cases {
        let e = error(check_name(name));
        assert!(e.contains(needle), "{name:?}: {e}");
    }
    let long = "x".repeat(MAX_NAME_CHARS + 1);
    assert!(error(check_name(&long)).contains("longer than 64"));
    assert!(check_name(&"x".repeat(MAX_NAME_CHARS)).is_ok());
    assert_eq!(
        error(check_name("death-valley")),
        "preset \"death-valley\": death-valley is a built-in preset; choose another name"
    );
}

#[test]
fn saved_presets_list_load_rename_and_delete() {
    let dir = tempfile::tempdir().unwrap();
    for mut store in stores(dir.path()) {
        assert_eq!(store.list().unwrap(), Listing::default());
        let saved = store
            .save("evening", &scene(9), "Low sun,\n long  shadows.", false)
            .unwrap();
        assert_eq!(saved.scene, scene(9).quantized());
        assert_eq!(saved.description, "Low sun, long shadows.");
        store.save("Beta", &scene(2), "", false).unwrap();
        store.save("alpha", &scene(1), "", false).unwrap();
        let names = |store: &Store| -> Vec<String> {
            store
                .list()
                .unwrap()
                .presets
                .into_iter()
                .map(|p| p.name)
                .collect()
        };
        assert_eq!(names(&store), ["alpha", "Beta", "evening"]);
        assert_eq!(store.get("evening").unwrap(), saved);
        assert_eq!(store.get("EVENING").unwrap(), saved, "any letter case");

        // No overwrite unless asked, in any letter case.
        let e = error(store.save("Evening", &scene(5), "", false));
        assert!(e.contains("you have a preset of this name already"), "{e}");
        assert_eq!(store.get("evening").unwrap().scene, scene(9));
        store.save("Evening", &scene(5), "", true).unwrap();
        assert_eq!(names(&store), ["alpha", "Beta", "Evening"]);
        assert_eq!(store.get("evening").unwrap().scene, scene(5));

        // Rename: not onto another, not to a built-in.
        let e = error(store.rename("alpha", "beta"));
        assert!(e.contains("you have a preset called Beta already"), "{e}");
        let e = error(store.rename("alpha", "badlands"));
        assert!(e.contains("built-in"), "{e}");
        assert_eq!(store.rename("alpha", "Alpha dunes").unwrap(), "Alpha dunes");
        assert_eq!(store.rename("beta", "BETA").unwrap(), "BETA");
        assert_eq!(names(&store), ["Alpha dunes", "BETA", "Evening"]);
        assert_eq!(store.get("alpha dunes").unwrap().scene, scene(1));
        assert!(store.find("alpha").unwrap().is_none());
        assert!(error(store.rename("nope", "x")).contains("no preset of this name"));

        store.delete("beta").unwrap();
        assert_eq!(names(&store), ["Alpha dunes", "Evening"]);
        assert!(error(store.delete("beta")).contains("no preset of this name"));
        assert!(error(store.get("beta")).contains("no preset of this name"));
    }
}

#[test]
fn a_preset_file_is_the_scene_with_its_description_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::in_folder(dir.path().join("deep").join("presets"));
    store.save("mine", &scene(3), "Mine.", false).unwrap();
    let folder = store.folder().unwrap();
    let files: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["mine.ron"]);
    let text = std::fs::read_to_string(folder.join("mine.ron")).unwrap();
    assert!(text.starts_with("// Mine.\n("), "{text}");
    // The file is a scene file as any other: `playa render` reads it.
    assert_eq!(
        Scene::from_ron_file(&folder.join("mine.ron")).unwrap(),
        scene(3)
    );
}

#[test]
fn bad_files_are_skipped_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("presets");
    let mut store = Store::in_folder(&folder);
    store.save("good", &scene(1), "", false).unwrap();
    std::fs::write(folder.join("broken.ron"), "(seed: -1)").unwrap();
    std::fs::write(folder.join("badlands.ron"), "(seed: 1)").unwrap();
    std::fs::write(folder.join("bad name!.ron"), "(seed: 1)").unwrap();
    std::fs::write(folder.join("binary.ron"), [0xff, 0xfe, 0]).unwrap();
    std::fs::write(folder.join("notes.txt"), "not a preset").unwrap();
    std::fs::write(folder.join(".good.ron.123.tmp"), "(").unwrap();
    std::fs::create_dir(folder.join("folder.ron")).unwrap();
    // Listed under a name nothing could load it by (found by fuzzing).
    std::fs::write(folder.join("shouting.RON"), "()").unwrap();
    std::fs::write(folder.join(" padded.ron"), "()").unwrap();
    let listing = store.list().unwrap();
    let names: Vec<&str> = listing.presets.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["good"]);
    let mut skipped = listing.skipped.clone();
    skipped.sort();
    assert_eq!(skipped.len(), 7, "{skipped:#?}");
    for (note, needle) in skipped.iter().zip([
        " padded.ron: not a preset: preset \" padded\": blanks around the name",
        "bad name!.ron: not a preset: preset \"bad name!\": '!' is not allowed",
        "badlands.ron: not a preset: preset \"badlands\": badlands is a built-in",
        "binary.ron: stream did not contain valid UTF-8",
        "broken.ron: line 1",
        "folder.ron: a folder, not a file",
        "shouting.RON: not a preset: a preset's file ends in .ron, in small letters",
    ]) {
        assert!(note.contains(needle), "{note}");
        assert_eq!(note.lines().count(), 1);
    }
    assert!(error(store.get("broken")).contains("broken.ron: line 1"));
}

/// A file named with a line break (`"\n.rOn"`, found by fuzzing) is
/// skipped with a note of one line, the break written `\n`, as errors
/// name files.
#[test]
#[cfg(unix)]
fn a_note_names_a_file_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("p");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("\n.rOn"), "").unwrap();
    std::fs::write(folder.join("line\nbreak.RON"), "()").unwrap();
    let listing = Store::in_folder(&folder).list().unwrap();
    assert!(listing.presets.is_empty());
    let mut notes = listing.skipped;
    notes.sort();
    let end = ": not a preset: a preset's file ends in .ron, in small letters";
    let folder = folder.display();
    assert_eq!(
        notes,
        [
            format!("{folder}/\\n.rOn{end}"),
            format!("{folder}/line\\nbreak.RON{end}"),
        ]
    );
}

/// A preset file that starts with a byte-order mark, as some editors
/// write UTF-8, loads with its description (issue 57).
#[test]
fn a_byte_order_mark_is_no_part_of_a_preset() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("presets");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("marked.ron"), "\u{feff}// Marked.\n(seed: 5)\n").unwrap();
    let texts = BTreeMap::from([("marked".to_string(), "\u{feff}(seed: 5)".to_string())]);
    for store in [Store::in_folder(&folder), Store::in_memory(texts)] {
        let listing = store.list().unwrap();
        assert_eq!(listing.skipped, Vec::<String>::new());
        let preset = store.get("marked").unwrap();
        assert_eq!(preset.scene.seed, 5);
        if store.folder().is_some() {
            assert_eq!(preset.description, "Marked.");
        }
    }
}

#[test]
fn a_failed_save_leaves_nothing_and_the_old_preset_whole() {
    let dir = tempfile::tempdir().unwrap();
    // The folder is a file: nothing can be saved in it.
    let blocked = dir.path().join("blocked");
    std::fs::write(&blocked, "x").unwrap();
    let mut store = Store::in_folder(&blocked);
    assert!(error(store.save("mine", &scene(1), "", false)).contains("blocked"));

    let mut invalid = scene(1);
    invalid.automaton.columns = 0;
    let mut store = Store::in_folder(dir.path().join("presets"));
    store.save("mine", &scene(1), "", false).unwrap();
    assert!(store.save("mine", &invalid, "", true).is_err());
    assert_eq!(store.get("mine").unwrap().scene, scene(1));
    assert_eq!(
        std::fs::read_dir(store.folder().unwrap()).unwrap().count(),
        1
    );
}

#[test]
fn a_store_in_memory_comes_back_from_its_texts() {
    let mut store = Store::in_memory(BTreeMap::new());
    store.save("kept", &scene(4), "Kept.", false).unwrap();
    let again = Store::in_memory(store.texts().unwrap().clone());
    assert_eq!(again.list().unwrap(), store.list().unwrap());
    assert_eq!(again.place(), "this browser's storage");
    assert!(again.folder().is_none());
}

#[test]
fn the_folder_is_the_config_variables_or_eframes() {
    // Read only: the variable is set by the command-line tests, in
    // their own processes.
    match std::env::var_os(CONFIG_DIR_VAR).filter(|d| !d.is_empty()) {
        Some(dir) => assert_eq!(default_folder(), Some(PathBuf::from(dir).join("presets"))),
        None => {
            #[cfg(all(feature = "app", not(target_arch = "wasm32")))]
            assert_eq!(
                default_folder(),
                eframe::storage_dir(APP_ID).map(|d| d.join("presets"))
            );
        }
    }
}
