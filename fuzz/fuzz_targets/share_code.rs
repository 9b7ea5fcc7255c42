//! Share codes: any text is refused or decodes to a valid scene whose code
//! decodes to it again. The first byte picks the input: 0 the text as it
//! is; else the rest as payload bits sealed with a good checksum, so the
//! parser behind the checksum is reached.
#![no_main]

use libfuzzer_sys::fuzz_target;
use playa::share;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let code = if mode == 0 {
        match std::str::from_utf8(rest) {
            Ok(text) => text.to_string(),
            Err(_) => return,
        }
    } else {
        share::seal_bytes(rest, (mode % 8) as usize)
    };
    if let Ok(scene) = share::decode(&code) {
        scene.validate().expect("a decoded scene is valid");
        let again = share::encode(&scene);
        assert_eq!(share::decode(&again).expect("its code decodes"), scene);
        assert_eq!(share::encode(&share::decode(&again).unwrap()), again);
    }
});
