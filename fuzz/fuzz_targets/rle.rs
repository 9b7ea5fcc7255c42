//! RLE patterns: any bytes are refused or read to a pattern that writes and
//! reads back to the same cells.
#![no_main]

use libfuzzer_sys::fuzz_target;
use playa::Rule;
use playa::life::rle;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = rle::read(data) {
        let text = rle::to_string(&p.grid, p.rule.unwrap_or(Rule::CONWAY), &[]);
        let back = rle::parse(&text).expect("written RLE reads");
        assert_eq!(back.grid, p.grid);
    }
});
