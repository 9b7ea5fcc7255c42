//! PNG recipes: any bytes are refused or give a valid scene.
#![no_main]

use libfuzzer_sys::fuzz_target;
use playa::output::recipe;

fuzz_target!(|data: &[u8]| {
    if let Ok(recipe) = recipe::decode_recipe(data, "fuzz.png") {
        recipe.scene.validate().expect("a recipe read is valid");
    }
});
