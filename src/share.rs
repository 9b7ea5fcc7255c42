//! Share codes: a short text that reproduces a scene exactly.
//!
//! ```
//! use playa::{Scene, share};
//!
//! let scene = Scene { seed: 7, ..Scene::default() };
//! let code = share::encode(&scene);
//! assert_eq!(code, "playa1-XRGtELg");
//! assert_eq!(share::decode(&code)?, scene);
//! # Ok::<(), playa::Error>(())
//! ```
//!
//! A code is `playa`, the format number, `-`, then base64url characters
//! (`A-Z a-z 0-9 - _`, 6 bits each, most significant first): a 24-bit
//! checksum, then the payload, then zero bits up to the last character.
//!
//! The payload records only what differs from a *base* scene, with every
//! setting as a whole number of as many bits as its range needs (floats at
//! their documented precision), in the order of the settings tables
//! ([`Scene::SETTINGS`], each layer kind's [`crate::layers::Kind::SETTINGS`]):
//!
//! ```text
//! base      3 bits   which base: 0 the default scene, 1.. the shipped presets
//! seed?     1 bit    then: bit count − 1 (6 bits), the seed (that many bits)
//! settings? 1 bit    then: a mask of the scene's 9 settings that differ, and
//!                    their values
//! layers?   1 bit    then: 1 bit "same kinds as the base's layers, in order",
//!                    else the number of layers (6 bits) and for each the
//!                    layer it starts from (a base layer, or a fresh layer of
//!                    one of the 6 kinds); then for each layer 1 bit
//!                    "changed", and if so a mask of its settings that differ
//!                    and their values
//! ```
//!
//! The checksum is CRC-24 (OpenPGP's) of the format number, the number of
//! payload characters and the payload. A CRC of degree 24 catches every
//! error within 24 consecutive bits, so every mistyped character, and every
//! swap of two neighbouring ones, is refused.
//!
//! The encoder tries every base and keeps the shortest code (the first base
//! of equal length), so equal scenes always get the same code: scenes are
//! quantized first, so neither RON field order, `23/3` against `B3/S23`, nor
//! float noise below the precision changes it, and decoding then encoding
//! gives back the same code.
//!
//! A *link* is a web address whose fragment is a code,
//! `https://example.org/playa/#playa1-…` ([`link`] makes one): the address
//! of playa's web page, which opens the scene. [`decode`] accepts a link,
//! or a bare `#playa1-…`, wherever it accepts a code, and reads the code in
//! its fragment; the address itself is not part of the format.
//!
//! The bases (`src/share/bases.ron`, every setting written out) are part of
//! format 1, frozen: a code means the same scene in every playa that reads
//! format 1, whatever later happens to the defaults and presets. Change them,
//! the field tables or this layout only with a new format number.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, clip, quote};
use crate::layers::{KINDS, Kind, Layer, match_kind, match_kinds};
use crate::scene::{MAX_LAYERS, Scene};
use crate::setting::Setting;

/// What every share code starts with, before the format number.
pub const PREFIX: &str = "playa";
/// The format this playa writes and reads.
pub const FORMAT: u32 = 1;
/// Longest share code accepted, in characters (a scene with every setting
/// of 32 layers changed needs about 600).
pub const MAX_CODE_CHARS: usize = 2048;

/// Characters of the checksum.
const CRC_CHARS: usize = 4;
/// Bits of the base's number.
const BASE_BITS: u32 = 3;
/// Bits of the seed's bit count − 1.
const SEED_LEN_BITS: u32 = 6;
/// Bits of a layer count.
const LAYER_COUNT_BITS: u32 = 6;
const _: () = assert!(MAX_LAYERS < 1 << LAYER_COUNT_BITS);

/// The base64url alphabet.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The share code of `scene`: quantized, diffed against the base that gives
/// the shortest code. Values outside their limits are written clamped to
/// them (an invalid scene never comes out of [`decode`]).
pub fn encode(scene: &Scene) -> String {
    let scene = scene.quantized();
    let payload = bases()
        .iter()
        .enumerate()
        .map(|(i, base)| payload(&scene, i, base))
        .min_by_key(Bits::len)
        .expect("there is at least one base");
    seal(&payload)
}

/// A link to `scene`: the web address `base` (of playa's web page, e.g.
/// `https://example.org/playa/`), its fragment if it has one replaced by
/// `#` and the scene's share code: `https://example.org/playa/#playa1-…`.
/// [`decode`] reads the scene back from it. A `base` that is not a web
/// address (`scheme://…`, without blanks) is an [`Error::WebAddress`].
///
/// ```
/// use playa::{Scene, share};
///
/// let scene = Scene { seed: 7, ..Scene::default() };
/// let link = share::link("https://example.org/playa/#old", &scene)?;
/// assert_eq!(link, "https://example.org/playa/#playa1-XRGtELg");
/// assert_eq!(share::decode(&link)?, scene);
/// # Ok::<(), playa::Error>(())
/// ```
pub fn link(base: &str, scene: &Scene) -> Result<String> {
    let address = link_address(base)?;
    Ok(format!("{address}#{}", encode(scene)))
}

/// `base` without blanks around it or its fragment, if it is a web address:
/// a scheme (a letter, then letters, digits, `+`, `-` or `.`), `://`, and
/// more, without blanks or control characters. Else an
/// [`Error::WebAddress`] saying why not.
fn link_address(base: &str) -> Result<&str> {
    let trimmed = base.trim();
    let address = trimmed.split_once('#').map_or(trimmed, |(a, _)| a);
    let fail = |reason: &str| {
        Err(Error::WebAddress {
            address: trimmed.to_string(),
            reason: reason.into(),
        })
    };
    if address.is_empty() {
        return fail("it is empty");
    }
    if address.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return fail("it has a blank or a control character in it");
    }
    if !is_web_address(address) {
        return fail("expected one like https://example.org/playa/");
    }
    Ok(address)
}

/// Whether `text` is a scheme, `://` and at least one character more.
fn is_web_address(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, rest)| {
        let mut chars = scheme.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && !rest.is_empty()
    })
}

/// The share code in `text` if it is a link: the fragment of a web address
/// (`https://…#playa1-…`) or a bare fragment (`#playa1-…`). `Ok(None)`:
/// `text` is no link. A link whose fragment has no share code's shape is
/// an error saying so; one with a damaged code is left to [`decode`].
fn code_in_link(text: &str) -> Result<Option<&str>> {
    let text = text.trim();
    let (address, fragment) = match text.split_once('#') {
        Some((address, fragment)) => (address, Some(fragment)),
        None => (text, None),
    };
    let bare_fragment = address.is_empty() && fragment.is_some();
    if !bare_fragment && !is_web_address(address) {
        return Ok(None);
    }
    match fragment {
        Some(code) if is_code_shaped(code) => Ok(Some(code)),
        Some(fragment) if !fragment.is_empty() => Err(Error::ShareCode(format!(
            "the link's fragment {} is not a share code (they start with {PREFIX}{FORMAT}-)",
            quote(fragment)
        ))),
        _ => Err(Error::ShareCode(
            "the link has no share code after #".into(),
        )),
    }
}

/// The scene of a share code, or of a link holding one (see [`link`]).
/// Surrounding whitespace is ignored. Any other input — empty, cut off,
/// mistyped, from a newer playa, holding values outside the scene's
/// limits, or a link without a share code after its `#` — is an
/// [`Error::ShareCode`] saying what is wrong.
pub fn decode(code: &str) -> Result<Scene> {
    let fail = |reason: String| Error::ShareCode(reason);
    let code = code_in_link(code)?.unwrap_or(code).trim();
    if code.is_empty() {
        return Err(fail(format!(
            "empty (a share code looks like {PREFIX}{FORMAT}-…)"
        )));
    }
    if code.len() > MAX_CODE_CHARS {
        return Err(fail(format!(
            "{} characters, more than the limit of {MAX_CODE_CHARS}",
            code.chars().count()
        )));
    }
    let body = strip_prefix(code)?;
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
    if crc != checksum(&bits.bits[24..]) {
        return Err(fail(
            "the checksum does not match: a character is mistyped, missing or extra".into(),
        ));
    }
    let scene = read_payload(&mut reader).map_err(|e| fail(format!("damaged: {e}")))?;
    let rest = reader.remaining();
    if rest >= 6 || reader.read(rest as u32).is_some_and(|v| v != 0) {
        return Err(fail("damaged: data after the scene".into()));
    }
    scene.validate().map_err(|e| fail(e.to_string()))?;
    Ok(scene)
}

/// Whether `text` has the shape of a share code of any format (`playa`,
/// digits, `-`), valid or not, or is a link meant to hold one (a web
/// address, or a bare `#…`): tells a code from a file or preset name. A
/// link then decodes to its scene, or says what is wrong with it.
pub fn looks_like_code(text: &str) -> bool {
    is_code_shaped(text) || !matches!(code_in_link(text), Ok(None))
}

/// Whether `text` has the shape of a share code of any format.
fn is_code_shaped(text: &str) -> bool {
    text.trim()
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.split_once('-'))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The part after `playa1-`, or why there is none.
fn strip_prefix(code: &str) -> Result<&str> {
    let not_a_code = || {
        Error::ShareCode(format!(
            "{} is not a playa share code (they start with {PREFIX}{FORMAT}-)",
            quote(code)
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
            "made by a newer playa (format {}); this one reads format {FORMAT}",
            clip(number)
        )));
    }
    if number != FORMAT.to_string() {
        return Err(Error::ShareCode(format!(
            "unknown format {}; this playa reads format {FORMAT}",
            clip(number)
        )));
    }
    Ok(body)
}

/// A base scene of the format, with the name it had as a preset.
#[derive(Deserialize, Serialize)]
struct Base {
    /// The preset's name, for the reader of `bases.ron`.
    name: String,
    scene: Scene,
}

/// The RON of the bases, frozen with the format.
const BASES_RON: &str = include_str!("share/bases.ron");

/// The base scenes, read once.
fn bases() -> &'static [Scene] {
    static BASES: OnceLock<Vec<Scene>> = OnceLock::new();
    BASES.get_or_init(|| {
        let bases: Vec<Base> = ron::from_str(BASES_RON).expect("the share bases parse (tested)");
        bases.into_iter().map(|b| b.scene).collect()
    })
}

/// The layer a fresh layer of kind `kind` starts from: the first of that
/// kind in base 0, the default scene.
fn fresh_layer(kind: usize) -> Layer {
    bases()[0]
        .layers
        .iter()
        .find(|l| l.kind_index() == kind)
        .cloned()
        .unwrap_or_else(|| Layer::every_kind().swap_remove(kind))
}

/// Bits needed to write a number below `count`.
fn bits_for(count: u64) -> u32 {
    if count <= 1 {
        0
    } else {
        64 - (count - 1).leading_zeros()
    }
}

/// A string of bits.
#[derive(Clone, Debug, Default)]
struct Bits {
    bits: Vec<bool>,
}

impl Bits {
    fn len(&self) -> usize {
        self.bits.len()
    }

    /// Appends the low `n` bits of `value`, most significant first.
    fn push(&mut self, value: u64, n: u32) {
        for i in (0..n).rev() {
            self.bits.push(value >> i & 1 == 1);
        }
    }

    fn bit(&mut self, b: bool) {
        self.bits.push(b);
    }

    fn append(&mut self, other: &Bits) {
        self.bits.extend_from_slice(&other.bits);
    }
}

/// Reads a [`Bits`] from the front; `None` past its end.
struct Reader<'a> {
    bits: &'a [bool],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(bits: &'a Bits) -> Reader<'a> {
        Reader {
            bits: &bits.bits,
            at: 0,
        }
    }

    fn remaining(&self) -> usize {
        self.bits.len() - self.at
    }

    fn read(&mut self, n: u32) -> Option<u64> {
        let end = self.at.checked_add(n as usize)?;
        let bits = self.bits.get(self.at..end)?;
        self.at = end;
        Some(bits.iter().fold(0, |v, &b| v << 1 | u64::from(b)))
    }

    fn bit(&mut self) -> Option<bool> {
        self.read(1).map(|v| v == 1)
    }
}

/// A reason a payload cannot be read.
type Damage = String;

fn cut_off() -> Damage {
    "the code ends too early".into()
}

/// CRC-24/OpenPGP of the format, the character count and the bits (packed
/// most significant first, zero-filled to whole bytes).
fn checksum(bits: &[bool]) -> u32 {
    let chars = (bits.len() / 6) as u16;
    let bytes = bits.chunks(8).map(|byte| {
        byte.iter()
            .enumerate()
            .fold(0u8, |v, (i, &b)| v | u8::from(b) << (7 - i))
    });
    crc24(
        [FORMAT as u8]
            .into_iter()
            .chain(chars.to_be_bytes())
            .chain(bytes),
    )
}

/// CRC-24/OpenPGP (RFC 4880): polynomial 0x864CFB, start 0xB704CE.
fn crc24(bytes: impl IntoIterator<Item = u8>) -> u32 {
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

/// The code for a payload: prefix, checksum, payload, zero padding.
fn seal(payload: &Bits) -> String {
    let mut body = payload.clone();
    while !body.len().is_multiple_of(6) {
        body.bit(false);
    }
    let mut all = Bits::default();
    all.push(u64::from(checksum(&body.bits)), 24);
    all.append(&body);
    let mut code = format!("{PREFIX}{FORMAT}-");
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
    seal(&bits)
}

/// The payload of `scene` against base number `index`.
fn payload(scene: &Scene, index: usize, base: &Scene) -> Bits {
    let mut w = Bits::default();
    w.push(index as u64, BASE_BITS);
    if scene.seed == base.seed {
        w.bit(false);
    } else {
        w.bit(true);
        let len = (64 - scene.seed.leading_zeros()).max(1);
        w.push(u64::from(len - 1), SEED_LEN_BITS);
        w.push(scene.seed, len);
    }
    w.append(&diff(Scene::SETTINGS, scene, base));
    if same_layers(&scene.layers, &base.layers) {
        w.bit(false);
    } else {
        w.bit(true);
        w.append(&layers(&scene.layers, &base.layers));
    }
    w
}

/// 0 if every field of `t` is as in `reference`; else 1, the mask of the
/// fields that differ, and their values.
fn diff<T>(fields: &[Setting<T>], t: &T, reference: &T) -> Bits {
    let mut w = Bits::default();
    let values: Vec<(usize, u64)> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| (i, f.index(t)))
        .filter(|&(i, v)| v != fields[i].index(reference))
        .collect();
    if values.is_empty() {
        w.bit(false);
        return w;
    }
    w.bit(true);
    for i in 0..fields.len() {
        w.bit(values.iter().any(|&(j, _)| j == i));
    }
    for (i, v) in values {
        w.push(v, bits_for(fields[i].count()));
    }
    w
}

/// Reads what [`diff`] wrote into a copy of `reference`.
fn undiff<T: Clone>(fields: &[Setting<T>], reference: &T, r: &mut Reader) -> Result<T, Damage> {
    let mut t = reference.clone();
    if !r.bit().ok_or_else(cut_off)? {
        return Ok(t);
    }
    let mut mask = Vec::with_capacity(fields.len());
    for _ in fields {
        mask.push(r.bit().ok_or_else(cut_off)?);
    }
    for (f, _) in fields.iter().zip(mask).filter(|(_, m)| *m) {
        let v = r.read(bits_for(f.count())).ok_or_else(cut_off)?;
        f.set_index(&mut t, v)
            .ok_or_else(|| format!("{} has no value number {v}", f.name))?;
    }
    Ok(t)
}

/// The diff of `layer` against `reference`, `None` if they are of different
/// kinds.
fn layer_diff(layer: &Layer, reference: &Layer) -> Option<Bits> {
    fn of<K: Kind>(a: &K, b: &K) -> Bits {
        diff(K::SETTINGS, a, b)
    }
    Some(match_kinds!(layer, reference, (a, b) => of(a, b), _ => return None))
}

/// Reads a layer written against `reference`.
fn layer_undiff(reference: &Layer, r: &mut Reader) -> Result<Layer, Damage> {
    let mut layer = reference.clone();
    fn read<K: Kind>(l: &mut K, r: &mut Reader) -> Result<(), Damage> {
        *l = undiff(K::SETTINGS, l, r)?;
        Ok(())
    }
    match_kind!(&mut layer, l => read(l, r))?;
    Ok(layer)
}

/// Whether two layer lists are the same, setting by setting.
fn same_layers(a: &[Layer], b: &[Layer]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| layer_diff(x, y).is_some_and(|d| d.len() == 1))
}

/// The layer list against the base's: the shorter of "same kinds in the
/// same order" (when it applies) and "each layer from its nearest start".
fn layers(list: &[Layer], base: &[Layer]) -> Bits {
    let same_shape = (list.len() == base.len()).then(|| {
        let mut w = Bits::default();
        w.bit(true);
        for (layer, reference) in list.iter().zip(base) {
            w.append(&layer_diff(layer, reference)?);
        }
        Some(w)
    });
    let ref_bits = bits_for((base.len() + KINDS) as u64);
    let mut refs = Bits::default();
    let mut diffs = Bits::default();
    refs.bit(false);
    refs.push(list.len().min(MAX_LAYERS) as u64, LAYER_COUNT_BITS);
    for layer in list.iter().take(MAX_LAYERS) {
        let fresh = fresh_layer(layer.kind_index());
        let (r, d) = base
            .iter()
            .chain(std::iter::once(&fresh))
            .enumerate()
            .filter_map(|(r, reference)| Some((r, layer_diff(layer, reference)?)))
            .min_by_key(|(_, d)| d.len())
            .expect("a layer always matches its fresh kind");
        // A fresh layer of kind k is reference `base.len() + k`.
        let r = if r == base.len() {
            base.len() + layer.kind_index()
        } else {
            r
        };
        refs.push(r as u64, ref_bits);
        diffs.append(&d);
    }
    refs.append(&diffs);
    match same_shape.flatten() {
        Some(w) if w.len() <= refs.len() => w,
        _ => refs,
    }
}

/// Reads a payload written by [`payload`].
fn read_payload(r: &mut Reader) -> Result<Scene, Damage> {
    let index = r.read(BASE_BITS).ok_or_else(cut_off)? as usize;
    let base = bases()
        .get(index)
        .ok_or_else(|| format!("there is no base scene {index}"))?;
    let mut scene = base.clone();
    if r.bit().ok_or_else(cut_off)? {
        let len = r.read(SEED_LEN_BITS).ok_or_else(cut_off)? as u32 + 1;
        scene.seed = r.read(len).ok_or_else(cut_off)?;
    }
    scene = undiff(Scene::SETTINGS, &scene, r)?;
    if r.bit().ok_or_else(cut_off)? {
        scene.layers = read_layers(&base.layers, r)?;
    }
    Ok(scene)
}

/// Reads a layer list written by [`layers`].
fn read_layers(base: &[Layer], r: &mut Reader) -> Result<Vec<Layer>, Damage> {
    let references: Vec<Layer> = if r.bit().ok_or_else(cut_off)? {
        base.to_vec()
    } else {
        let n = r.read(LAYER_COUNT_BITS).ok_or_else(cut_off)? as usize;
        if n > MAX_LAYERS {
            return Err(format!("{n} layers, more than the limit of {MAX_LAYERS}"));
        }
        let ref_bits = bits_for((base.len() + KINDS) as u64);
        let mut references = Vec::with_capacity(n);
        for _ in 0..n {
            let k = r.read(ref_bits).ok_or_else(cut_off)? as usize;
            references.push(match base.get(k) {
                Some(layer) => layer.clone(),
                None if k - base.len() < KINDS => fresh_layer(k - base.len()),
                None => return Err(format!("there is no layer kind {}", k - base.len())),
            });
        }
        references
    };
    references
        .iter()
        .map(|reference| layer_undiff(reference, r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc24_is_openpgp() {
        assert_eq!(crc24(*b"123456789"), 0x21_CF02);
    }

    /// The hash of `bases.ron`: the file is part of format 1.
    const BASES_CRC32: u32 = 0x07d4_cd9d;

    fn with_seed(mut scene: Scene, seed: u64) -> Scene {
        scene.seed = seed;
        scene
    }

    /// The most a seed can cost.
    const SEEDS: [u64; 5] = [0, 2, 4321, 1 << 40, u64::MAX];

    #[test]
    fn the_default_scene_with_any_seed_fits_24_characters() {
        for seed in SEEDS {
            let scene = with_seed(Scene::default(), seed);
            let code = encode(&scene);
            assert!(code.len() <= 24, "{code} ({} characters)", code.len());
            assert_eq!(decode(&code).unwrap(), scene);
        }
    }

    #[test]
    fn every_preset_round_trips_within_64_characters() {
        for p in crate::presets::PRESETS {
            let scene = p.scene().unwrap();
            for seed in std::iter::once(scene.seed).chain(SEEDS) {
                let scene = with_seed(scene.clone(), seed);
                let code = encode(&scene);
                assert!(
                    code.len() <= 64,
                    "{} seed {seed}: {code} ({} characters). If the preset drifted from \
                     src/share/bases.ron, see bases_are_frozen.",
                    p.name,
                    code.len()
                );
                let decoded = decode(&code).unwrap();
                assert_eq!(decoded, scene, "{}", p.name);
                assert_eq!(encode(&decoded), code);
            }
            let code = encode(&scene);
            let (a, b) = (
                crate::render(&scene, 64, 36).unwrap(),
                crate::render(&decode(&code).unwrap(), 64, 36).unwrap(),
            );
            assert!(a.as_raw() == b.as_raw(), "{}: the pictures differ", p.name);
        }
    }

    /// Every setting changed, the layers reordered, one dropped, one added.
    pub(crate) fn heavy_edit() -> Scene {
        let text = include_str!("../tests/data/heavy-edit.ron");
        Scene::from_ron(text, "heavy-edit.ron").unwrap()
    }

    #[test]
    fn a_heavy_edit_fits_200_characters() {
        let scene = heavy_edit();
        scene.validate().unwrap();
        let code = encode(&scene);
        assert!(code.len() <= 200, "{code} ({} characters)", code.len());
        assert_eq!(decode(&code).unwrap(), scene);
        assert_eq!(encode(&decode(&code).unwrap()), code);
    }

    #[test]
    fn the_longest_scene_fits_the_code_limit() {
        // Every setting of every layer changed.
        let mut scene = heavy_edit();
        scene.layers = (0..MAX_LAYERS)
            .map(|i| {
                let mut layer = Scene::default_layers()[i % KINDS].clone();
                change_every_setting(&mut layer);
                layer
            })
            .collect();
        scene.automaton.columns = 1000;
        scene.validate().unwrap();
        let code = encode(&scene);
        println!("the longest code: {} characters", code.len());
        assert!(code.len() <= MAX_CODE_CHARS / 2, "{}", code.len());
        assert_eq!(decode(&code).unwrap(), scene);
    }

    /// Moves every setting of `layer` to its next value.
    fn change_every_setting(layer: &mut Layer) {
        fn all<K: Kind>(t: &mut K) {
            for f in K::SETTINGS {
                f.set_index(t, (f.index(t) + 1) % f.count()).unwrap();
            }
        }
        match_kind!(layer, l => all(l))
    }

    #[test]
    fn every_single_character_change_is_refused() {
        let mut night = crate::presets::load("night-under-stars").unwrap();
        night.seed = 99;
        let codes = [
            encode(&with_seed(Scene::default(), 7)),
            encode(&with_seed(Scene::default(), u64::MAX)),
            encode(&night),
            encode(&heavy_edit()),
        ];
        let others: Vec<char> = ALPHABET
            .iter()
            .map(|&b| char::from(b))
            .chain(['=', '+', '/', ' ', '.', 'é', '\0'])
            .collect();
        for code in &codes {
            let chars: Vec<char> = code.chars().collect();
            for at in 0..chars.len() {
                for &c in &others {
                    if c == chars[at] {
                        continue;
                    }
                    let mut changed = chars.clone();
                    changed[at] = c;
                    let changed: String = changed.into_iter().collect();
                    assert!(decode(&changed).is_err(), "{code} → {changed} was accepted");
                }
            }
        }
    }

    #[test]
    fn neighbour_swaps_deletions_and_cuts_are_refused() {
        let code = encode(&heavy_edit());
        let chars: Vec<char> = code.chars().collect();
        for at in 0..chars.len() {
            let mut cut = chars.clone();
            cut.remove(at);
            let cut: String = cut.into_iter().collect();
            assert!(decode(&cut).is_err(), "{cut}");
            assert!(decode(&code[..at]).is_err(), "{}", &code[..at]);
            if at + 1 < chars.len() && chars[at] != chars[at + 1] {
                let mut swapped = chars.clone();
                swapped.swap(at, at + 1);
                let swapped: String = swapped.into_iter().collect();
                assert!(decode(&swapped).is_err(), "{swapped}");
            }
        }
    }

    #[test]
    fn equal_scenes_get_one_code() {
        let texts = [
            "(seed: 5, automaton: (rule: \"B36/S23\", density: 0.5), sun_x: 0.3)",
            "(sun_x: 0.3, automaton: (density: 0.5, rule: \"23/36\"), seed: 5)",
            "(sun_x: 0.30000004, seed: 5, automaton: (density: 0.50031, rule: \"s23/b63\"))",
        ];
        let codes: Vec<String> = texts
            .iter()
            .map(|t| encode(&Scene::from_ron(t, "t").unwrap()))
            .collect();
        assert!(codes.iter().all(|c| *c == codes[0]), "{codes:?}");
        // Noise below the precision is rounded away in the scene itself.
        let mut noisy = Scene::default();
        noisy.horizon += 0.000_2;
        noisy.layers[4] = Layer::Tent(crate::layers::Tent {
            x: 0.300_4,
            ..Default::default()
        });
        assert_eq!(encode(&noisy), encode(&Scene::default()));
        assert_eq!(decode(&encode(&noisy)).unwrap(), noisy.quantized());
    }

    #[test]
    fn codes_of_format_1_are_pinned() {
        // Regenerating these breaks every code already shared.
        let cases = [
            (with_seed(Scene::default(), 7), "playa1-XRGtELg"),
            (
                with_seed(crate::presets::load("salt-flat").unwrap(), 12345),
                "playa1-tkbHk3A5ZA5AA",
            ),
        ];
        for (scene, code) in cases {
            assert_eq!(encode(&scene), code);
            assert_eq!(decode(code).unwrap(), scene);
        }
    }

    #[test]
    fn a_newer_format_says_so() {
        let code = encode(&Scene::default()).replacen("playa1", "playa2", 1);
        let err = decode(&code).unwrap_err().to_string();
        assert!(err.contains("made by a newer playa (format 2)"), "{err}");
        let err = decode("playa12345678901234567890123-AAAA")
            .unwrap_err()
            .to_string();
        assert!(err.contains("newer playa"), "{err}");
        let err = decode("playa0-AAAAAA").unwrap_err().to_string();
        assert!(err.contains("unknown format 0"), "{err}");
    }

    #[test]
    fn bad_codes_say_what_is_wrong() {
        let good = encode(&Scene::default());
        let cases = [
            ("", "empty"),
            ("   \n", "empty"),
            ("hello", "not a playa share code"),
            ("playa-AAAA", "not a playa share code"),
            ("playa1", "not a playa share code"),
            ("playa1-", "too short"),
            ("playa1-AAAA", "too short"),
            ("playa1-AAAA!AA", "'!' (character 12)"),
            ("playa1-AAAAAAAA", "checksum"),
        ];
        for (code, needle) in cases {
            let err = decode(code).unwrap_err().to_string();
            assert!(err.starts_with("share code: "), "{err}");
            assert!(err.contains(needle), "{code:?}: {err}");
        }
        let long = format!("{good}{}", "A".repeat(MAX_CODE_CHARS));
        let err = decode(&long).unwrap_err().to_string();
        assert!(err.contains(&MAX_CODE_CHARS.to_string()), "{err}");
        // Pasted with surrounding blanks is fine.
        assert!(decode(&format!("  {good}\n")).is_ok());
    }

    /// Links to `code` in every shape accepted: with a path, a query, a
    /// port, an old fragment's place, blanks around, or a bare fragment.
    fn links_to(code: &str) -> Vec<String> {
        vec![
            format!("https://example.org/playa/index.html#{code}"),
            format!("http://127.0.0.1:8000/#{code}"),
            format!("https://example.org/playa/?from=mail#{code}"),
            format!("  https://example.org/playa/#{code}\n"),
            format!("#{code}"),
            format!(" #{code} "),
        ]
    }

    #[test]
    fn links_decode_to_the_scene_of_their_code() {
        let mut scenes = vec![with_seed(Scene::default(), 7), heavy_edit()];
        scenes.extend(crate::presets::PRESETS.iter().map(|p| p.scene().unwrap()));
        for scene in scenes {
            let code = encode(&scene);
            for link in links_to(&code) {
                assert!(looks_like_code(&link), "{link}");
                let decoded = decode(&link).unwrap_or_else(|e| panic!("{link}: {e}"));
                assert_eq!(decoded, scene, "{link}");
                assert_eq!(encode(&decoded), code, "{link}");
            }
        }
    }

    #[test]
    fn link_puts_the_code_after_the_address() {
        let scene = with_seed(Scene::default(), 7);
        let code = "playa1-XRGtELg";
        for base in [
            "https://example.org/playa/index.html",
            "https://example.org/playa/index.html#",
            "https://example.org/playa/index.html#playa1-oTJbEWo",
            "https://example.org/playa/index.html#somewhere#else",
            "  https://example.org/playa/index.html\n",
        ] {
            assert_eq!(
                link(base, &scene).unwrap(),
                format!("https://example.org/playa/index.html#{code}"),
                "{base:?}"
            );
        }
        assert_eq!(
            link("http://127.0.0.1:8000/?a=b", &scene).unwrap(),
            format!("http://127.0.0.1:8000/?a=b#{code}")
        );
        // A link to a link's scene is that link.
        let made = link("https://example.org/p/", &heavy_edit()).unwrap();
        assert_eq!(link(&made, &decode(&made).unwrap()).unwrap(), made);
    }

    #[test]
    fn link_refuses_what_is_not_a_web_address() {
        let scene = Scene::default();
        for (base, needle) in [
            ("", "it is empty"),
            ("   ", "it is empty"),
            ("#playa1-XRGtELg", "it is empty"),
            ("example.org/playa/", "expected one like https://"),
            ("https://", "expected one like https://"),
            ("://example.org/", "expected one like https://"),
            ("1http://example.org/", "expected one like https://"),
            ("https://example org/", "a blank or a control character"),
            (
                "https://example.org/\u{7}",
                "a blank or a control character",
            ),
        ] {
            let err = link(base, &scene).unwrap_err();
            assert!(matches!(err, Error::WebAddress { .. }), "{base:?}: {err:?}");
            let err = err.to_string();
            assert!(
                err.contains("is not a web address: ") && err.contains(needle),
                "{base:?}: {err}"
            );
        }
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        let good = encode(&Scene::default());
        let mut typo = good.clone();
        typo.push('A');
        let cases = [
            (
                "https://example.org/playa/",
                "the link has no share code after #",
            ),
            (
                "https://example.org/playa/#",
                "the link has no share code after #",
            ),
            ("#", "the link has no share code after #"),
            (" # ", "the link has no share code after #"),
            (
                "https://example.org/#scene",
                "the link's fragment \"scene\" is not a share code (they start with playa1-)",
            ),
            (
                "#hello",
                "the link's fragment \"hello\" is not a share code",
            ),
            (
                &format!("https://example.org/##{good}"),
                "fragment \"#playa1-",
            ),
            (&format!("https://example.org/#{typo}"), "checksum"),
            ("https://example.org/#playa1-AAAA", "too short"),
            (
                "https://example.org/#playa9-AAAAAAA",
                "newer playa (format 9)",
            ),
        ];
        for (link, needle) in cases {
            assert!(looks_like_code(link), "{link:?}");
            let err = decode(link).unwrap_err();
            assert!(matches!(err, Error::ShareCode(_)), "{link:?}: {err:?}");
            let err = err.to_string();
            assert!(err.starts_with("share code: "), "{err}");
            assert!(err.contains(needle), "{link:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
        // Text that is no link is read as a code, as before links.
        for (text, needle) in [
            ("example.org/#hello", "not a playa share code".to_string()),
            (
                &format!("{good}#x"),
                format!("'#' (character {})", good.len() + 1),
            ),
        ] {
            let err = decode(text).unwrap_err().to_string();
            assert!(err.contains(&needle), "{text:?}: {err}");
        }
        for name in [
            "death-valley",
            "scene.ron",
            "notes#1.ron",
            "dir/x#y",
            "example.org/#hello",
            "",
        ] {
            assert!(!looks_like_code(name), "{name:?}");
        }
    }

    #[test]
    fn sealed_values_outside_the_limits_are_refused() {
        // A well-sealed payload asking for 2047 columns at aspect 0.25:
        // a grid above MAX_GRID_CELLS.
        let scene = Scene {
            aspect: 0.25,
            automaton: crate::scene::Automaton {
                columns: 2047,
                ..Default::default()
            },
            ..Default::default()
        };
        let code = encode(&scene);
        let err = decode(&code).unwrap_err().to_string();
        assert!(err.contains("cells"), "{err}");
        // Base 7 does not exist.
        let mut w = Bits::default();
        w.push(7, BASE_BITS);
        w.push(0, 3);
        let err = decode(&seal(&w)).unwrap_err().to_string();
        assert!(err.contains("no base scene 7"), "{err}");
    }

    mod props {
        use super::super::*;
        use crate::layers::{Floor, Ranges, Rocks, Sky, Spiral, Tent};
        use proptest::prelude::*;

        /// Values for every setting of a `T`, as indices into their ranges.
        fn indices<T>(fields: &'static [Setting<T>]) -> impl Strategy<Value = Vec<u64>> {
            fields.iter().map(|f| 0..f.count()).collect::<Vec<_>>()
        }

        fn apply<T>(fields: &[Setting<T>], t: &mut T, values: &[u64]) {
            for (f, &v) in fields.iter().zip(values) {
                f.set_index(t, v).unwrap();
            }
        }

        /// A layer of any kind with any settings (or its defaults, often,
        /// so that codes also meet unchanged layers).
        fn layer() -> impl Strategy<Value = Layer> {
            let kind = 0..KINDS;
            (
                kind,
                any::<bool>(),
                proptest::collection::vec(any::<u64>(), 16),
            )
                .prop_map(|(kind, keep, raw)| {
                    let mut layer = Scene::default_layers()[kind].clone();
                    if keep {
                        return layer;
                    }
                    fn set<K: Kind>(t: &mut K, raw: &[u64]) {
                        // Each setting changes with probability 1/2.
                        for (f, &r) in K::SETTINGS.iter().zip(raw) {
                            if r & 1 == 1 {
                                f.set_index(t, (r >> 1) % f.count()).unwrap();
                            }
                        }
                    }
                    match_kind!(&mut layer, l => set(l, &raw));
                    layer
                })
        }

        /// Any valid scene: every setting anywhere in its range, at its
        /// precision; the layers a preset's, edited, or any list.
        pub(crate) fn scene() -> impl Strategy<Value = Scene> {
            let preset = 0..crate::presets::PRESETS.len();
            let layers = prop_oneof![
                Just(None),
                proptest::collection::vec(layer(), 0..=MAX_LAYERS).prop_map(Some),
            ];
            (
                preset,
                any::<u64>(),
                any::<bool>(),
                indices(Scene::SETTINGS),
                layers,
            )
                .prop_map(|(preset, seed, edit, values, layers)| {
                    let mut scene = crate::presets::PRESETS[preset].scene().unwrap();
                    scene.seed = seed;
                    if edit {
                        apply(Scene::SETTINGS, &mut scene, &values);
                    }
                    if let Some(layers) = layers {
                        scene.layers = layers;
                    }
                    scene
                })
                .prop_filter("grid within MAX_GRID_CELLS", |s| s.validate().is_ok())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]

            #[test]
            fn decode_inverts_encode(scene in scene()) {
                let code = encode(&scene);
                let decoded = decode(&code).unwrap();
                prop_assert_eq!(&decoded, &scene);
                prop_assert_eq!(&encode(&decoded), &code);
                let linked = link("https://example.org/playa/", &scene).unwrap();
                prop_assert_eq!(linked, format!("https://example.org/playa/#{code}"));
            }

            #[test]
            fn random_text_is_refused_without_panic(text in ".{0,80}") {
                prop_assert!(decode(&text).is_err());
                let code = format!("playa1-{text}");
                let _ = decode(&code);
            }

            #[test]
            fn random_sealed_payloads_never_break_decode(
                bits in proptest::collection::vec(any::<bool>(), 0..400)
            ) {
                // Sealed, so the checksum passes and the parser is reached.
                let code = seal(&Bits { bits });
                if let Ok(scene) = decode(&code) {
                    scene.validate().unwrap();
                    prop_assert_eq!(decode(&encode(&scene)).unwrap(), scene);
                }
            }
        }

        #[test]
        fn layer_kinds_are_in_order() {
            let kinds: Vec<usize> = [
                Layer::Sky(Sky::default()),
                Layer::Ranges(Ranges::default()),
                Layer::Floor(Floor::default()),
                Layer::Rocks(Rocks::default()),
                Layer::Tent(Tent::default()),
                Layer::Spiral(Spiral::default()),
            ]
            .iter()
            .map(Layer::kind_index)
            .collect();
            assert_eq!(kinds, (0..KINDS).collect::<Vec<_>>());
        }
    }

    /// `PLAYA_REFRESH_SHARE_BASES=1 cargo test --release share::` writes
    /// the shipped presets into `bases.ron`. Only before playa's first
    /// release: after it, codes in the wild depend on the file.
    #[test]
    fn bases_are_frozen() {
        if std::env::var_os("PLAYA_REFRESH_SHARE_BASES").is_some() {
            let bases: Vec<Base> = crate::presets::PRESETS
                .iter()
                .map(|p| Base {
                    name: p.name.to_string(),
                    scene: p.scene().unwrap(),
                })
                .collect();
            let config = ron::ser::PrettyConfig::new()
                .struct_names(false)
                .depth_limit(4)
                .indentor("    ");
            let text = ron::ser::to_string_pretty(&bases, config).unwrap();
            let header = "// The base scenes of share-code format 1 (see src/share.rs): frozen.\n";
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/share/bases.ron");
            std::fs::write(&path, format!("{header}{text}\n")).unwrap();
            panic!(
                "wrote {}: rebuild, then pin its hash in BASES_CRC32",
                path.display()
            );
        }
        assert!(!bases().is_empty() && bases().len() <= 1 << BASE_BITS);
        assert!(KINDS == Scene::default_layers().len());
        for kind in 0..KINDS {
            assert!(bases()[0].layers.iter().any(|l| l.kind_index() == kind));
        }
        assert_eq!(
            crc32fast::hash(BASES_RON.as_bytes()),
            BASES_CRC32,
            "src/share/bases.ron is part of share-code format 1: changing it changes what \
             codes mean. Before playa's first release, refresh it from the presets with \
             PLAYA_REFRESH_SHARE_BASES=1 and pin the new hash; after it, add a format."
        );
    }
}
