//! The text of a share code: `playa`, the format number, `-`, and the
//! checksum and payload bits in base64url; encoding a scene to it (the
//! shortest of every base and the oldest format that holds the scene) and
//! decoding it back, with every way a code can be wrong named.

use super::bases::bases;
use super::bits::{Bits, Reader};
use super::payload::{Damage, cut_off, payload, read_payload};
use super::{FORMAT, MAX_CODE_CHARS, PREFIX};
use crate::error::{Error, Result, clip, quote};
use crate::scene::Scene;

/// Characters of the checksum.
pub(super) const CRC_CHARS: usize = 4;

/// The base64url alphabet.
pub(super) const ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The share code of `scene`: quantized, diffed against the base that gives
/// the shortest code. Values outside their limits are written clamped to
/// them (an invalid scene never comes out of [`decode`](super::decode)).
pub fn encode(scene: &Scene) -> String {
    let scene = scene.quantized();
    // The oldest format that holds the scene: a scene whose later settings
    // keep their base values keeps the code older playas wrote for it.
    (1..FORMAT)
        .filter(|&format| holds_kinds(&scene, format))
        .map(|format| encode_in(&scene, format))
        .find(|code| read(code).is_ok_and(|s| s == scene))
        .unwrap_or_else(|| encode_in(&scene, FORMAT))
}

/// Whether codes of `format` know every kind of layer of `scene`.
fn holds_kinds(scene: &Scene, format: u32) -> bool {
    let known = crate::layers::kinds_in_format(format);
    scene.layers.iter().all(|l| l.kind_index() < known)
}

/// The code of a quantized `scene` in `format`, which leaves out the
/// settings of later formats.
pub(super) fn encode_in(scene: &Scene, format: u32) -> String {
    let payload = bases()
        .iter()
        .enumerate()
        .map(|(i, base)| payload(scene, i, base, format))
        .min_by_key(Bits::len)
        .expect("there is at least one base");
    seal(&payload, format)
}

/// The scene of a bare share code (see [`decode`](super::decode), which
/// also takes a link holding one).
pub(super) fn decode_bare(code: &str) -> Result<Scene> {
    let fail = |reason: String| Error::ShareCode(reason);
    let code = code.trim();
    if code.is_empty() {
        return Err(fail(format!("empty (a share code looks like {PREFIX}1-…)")));
    }
    if code.len() > MAX_CODE_CHARS {
        return Err(fail(format!(
            "{} characters, more than the limit of {MAX_CODE_CHARS}",
            code.chars().count()
        )));
    }
    let (format, body) = strip_prefix(code)?;
    // The prefix is ASCII: its length in bytes is its length in characters.
    let prefix_chars = code.len() - body.len();
    let mut bits = Bits::default();
    for (i, c) in body.chars().enumerate() {
        let value = u8::try_from(c)
            .ok()
            .and_then(|b| ALPHABET.iter().position(|&a| a == b))
            .ok_or_else(|| {
                fail(format!(
                    "{c:?} (character {}) is not part of a share code",
                    prefix_chars + i + 1
                ))
            })?;
        bits.push(value as u64, 6);
    }
    let chars = bits.len() / 6;
    if chars <= CRC_CHARS {
        return Err(fail("too short: it was cut off".into()));
    }
    let mut reader = Reader::new(&bits);
    let crc = reader.read(24).expect("the code has 4 characters") as u32;
    if crc != checksum(&bits.bits[24..], format) {
        return Err(fail(
            "the checksum does not match: a character is mistyped, missing or extra".into(),
        ));
    }
    let scene = read_payload(&mut reader, format).map_err(|e| fail(format!("damaged: {e}")))?;
    let rest = reader.remaining();
    if rest >= 6 || reader.read(rest as u32).is_some_and(|v| v != 0) {
        return Err(fail("damaged: data after the scene".into()));
    }
    scene.validate().map_err(|e| fail(e.to_string()))?;
    Ok(scene)
}

/// The scene of a code that [`encode_in`] wrote, unchecked against the
/// scene's limits (as [`encode`] takes any scene).
pub(super) fn read(code: &str) -> Result<Scene, Damage> {
    let (format, body) = strip_prefix(code).map_err(|e| e.to_string())?;
    let mut bits = Bits::default();
    for b in body.bytes() {
        let value = ALPHABET
            .iter()
            .position(|&a| a == b)
            .ok_or("not base64url")?;
        bits.push(value as u64, 6);
    }
    let mut reader = Reader::new(&bits);
    reader.read(24).ok_or_else(cut_off)?;
    read_payload(&mut reader, format)
}

/// Whether `text` has the shape of a share code of any format.
pub(super) fn is_code_shaped(text: &str) -> bool {
    text.trim()
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.split_once('-'))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The format of a code and the part after `playa1-` (or `playa2-`…), or
/// why there is none.
pub(super) fn strip_prefix(code: &str) -> Result<(u32, &str)> {
    let not_a_code = || {
        Error::ShareCode(format!(
            "{} is not a playa share code (they start with {})",
            quote(code),
            prefixes()
        ))
    };
    let rest = code.strip_prefix(PREFIX).ok_or_else(not_a_code)?;
    let (number, body) = rest.split_once('-').ok_or_else(not_a_code)?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(not_a_code());
    }
    let format = number.parse::<u64>().unwrap_or(u64::MAX);
    if format > u64::from(FORMAT) {
        return Err(Error::ShareCode(format!(
            "made by a newer playa (format {}); this one reads formats 1 to {FORMAT}",
            clip(number)
        )));
    }
    if format == 0 || number != format.to_string() {
        return Err(Error::ShareCode(format!(
            "unknown format {}; this playa reads formats 1 to {FORMAT}",
            clip(number)
        )));
    }
    Ok((format as u32, body))
}

/// How codes start, for messages: `playa1-, playa2- or playa3-`.
pub(super) fn prefixes() -> String {
    let all: Vec<String> = (1..=FORMAT).map(|f| format!("{PREFIX}{f}-")).collect();
    match all.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// CRC-24/OpenPGP of the format, the character count and the bits (packed
/// most significant first, zero-filled to whole bytes).
pub(super) fn checksum(bits: &[bool], format: u32) -> u32 {
    let chars = (bits.len() / 6) as u16;
    let bytes = bits.chunks(8).map(|byte| {
        byte.iter()
            .enumerate()
            .fold(0u8, |v, (i, &b)| v | u8::from(b) << (7 - i))
    });
    crc24(
        [format as u8]
            .into_iter()
            .chain(chars.to_be_bytes())
            .chain(bytes),
    )
}

/// CRC-24/OpenPGP (RFC 4880): polynomial 0x864CFB, start 0xB704CE.
pub(super) fn crc24(bytes: impl IntoIterator<Item = u8>) -> u32 {
    let mut crc: u32 = 0xB7_04CE;
    for byte in bytes {
        crc ^= u32::from(byte) << 16;
        for _ in 0..8 {
            crc <<= 1;
            if crc & 0x100_0000 != 0 {
                crc ^= 0x186_4CFB;
            }
        }
    }
    crc & 0xFF_FFFF
}

/// The code for a payload of `format`: prefix, checksum, payload, zero
/// padding.
pub(super) fn seal(payload: &Bits, format: u32) -> String {
    let mut body = payload.clone();
    while !body.len().is_multiple_of(6) {
        body.bit(false);
    }
    let mut all = Bits::default();
    all.push(u64::from(checksum(&body.bits, format)), 24);
    all.append(&body);
    let mut code = format!("{PREFIX}{format}-");
    for six in all.bits.chunks(6) {
        let v = six.iter().fold(0usize, |v, &b| v << 1 | usize::from(b));
        code.push(char::from(ALPHABET[v]));
    }
    code
}

/// A code holding `bytes` as its payload (most significant bit first, the
/// last `drop_bits` bits left out), with a good checksum: lets the fuzzer
/// reach the payload parser. Not a way to make codes.
#[doc(hidden)]
pub fn seal_bytes(bytes: &[u8], drop_bits: usize) -> String {
    let mut bits = Bits::default();
    for &b in bytes {
        bits.push(u64::from(b), 8);
    }
    bits.bits.truncate(bits.len().saturating_sub(drop_bits));
    seal(&bits, FORMAT)
}
