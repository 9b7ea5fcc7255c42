//! PNG recipes: any bytes are refused or give a valid scene.
#![no_main]

use libfuzzer_sys::fuzz_target;
use playa::picture;

fuzz_target!(|data: &[u8]| {
    if let Ok(scene) = picture::decode_recipe(data, "fuzz.png") {
        scene.validate().expect("a recipe read is valid");
    }
});
