//! RON scenes: any bytes are refused or read to a valid scene that survives
//! RON and its share code unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use playa::{Scene, share};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(scene) = Scene::from_ron(text, "fuzz") {
        scene.validate().expect("a scene read is valid");
        let back = Scene::from_ron(&scene.to_ron(), "again").expect("its RON reads");
        assert_eq!(back, scene);
        assert_eq!(share::decode(&share::encode(&scene)).unwrap(), scene);
    }
});
