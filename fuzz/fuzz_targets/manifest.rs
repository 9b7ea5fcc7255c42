//! Manifests: any bytes are refused or read to a manifest whose every
//! recorded file is a name inside the folder, and which reads back the same
//! once written out again.
#![no_main]

use std::path::{Component, Path};

use libfuzzer_sys::fuzz_target;
use playa::batch::manifest::Manifest;

fuzz_target!(|data: &[u8]| {
    let Ok(m) = Manifest::from_bytes(data, Path::new("fuzz.jsonl")) else {
        return;
    };
    for entry in &m.entries {
        let inside = Path::new(&entry.file)
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
        assert!(inside, "{:?} leads out of the folder", entry.file);
    }
    let mut text = serde_json::to_string(&m.header).expect("a header serializes") + "\n";
    for entry in &m.entries {
        text += &(serde_json::to_string(entry).expect("an entry serializes") + "\n");
    }
    let back = Manifest::from_bytes(text.as_bytes(), Path::new("again.jsonl"))
        .expect("a manifest written out reads");
    assert_eq!(back, m);
});
