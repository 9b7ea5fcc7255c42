//! The payload of a share code: the scene as its differences from a base
//! scene, seed, scene settings and layers, each setting a whole number of
//! as many bits as its range needs, in the order of the settings tables.

use super::bases::{bases, fresh_layer};
use super::bits::{Bits, Reader, bits_for};
use crate::layers::{Kind, Layer, kinds_in_format, match_kind, match_kinds};
use crate::scene::{MAX_LAYERS, Scene};
use crate::setting::Setting;

/// Bits of the base's number.
pub(super) const BASE_BITS: u32 = 3;
/// Bits of the seed's bit count − 1.
const SEED_LEN_BITS: u32 = 6;
/// Bits of a layer count.
const LAYER_COUNT_BITS: u32 = 6;
const _: () = assert!(MAX_LAYERS < 1 << LAYER_COUNT_BITS);

/// A reason a payload cannot be read.
pub(super) type Damage = String;

/// The damage of a payload that ends before its last field.
pub(super) fn cut_off() -> Damage {
    "the code ends too early".into()
}

/// The payload of `scene` against base number `index`, in `format`.
pub(super) fn payload(scene: &Scene, index: usize, base: &Scene, format: u32) -> Bits {
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
    w.append(&diff(Scene::SETTINGS, scene, base, format));
    if same_layers(&scene.layers, &base.layers, format) {
        w.bit(false);
    } else {
        w.bit(true);
        w.append(&layers(&scene.layers, &base.layers, format));
    }
    w
}

/// The settings of `table` that codes of `format` write, in order.
fn written<T>(table: &[Setting<T>], format: u32) -> impl Iterator<Item = &Setting<T>> {
    table.iter().filter(move |s| s.since <= format)
}

/// 0 if every field of `t` that `format` writes is as in `reference`;
/// else 1, the mask of those fields that differ, and their values.
fn diff<T>(table: &[Setting<T>], t: &T, reference: &T, format: u32) -> Bits {
    let fields: Vec<&Setting<T>> = written(table, format).collect();
    let mut w = Bits::default();
    let values: Vec<(usize, u64)> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| (i, f.index_in(t, format)))
        .filter(|&(i, v)| v != fields[i].index_in(reference, format))
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
        w.push(v, bits_for(fields[i].count_in(format)));
    }
    w
}

/// Reads what [`diff`] wrote into a copy of `reference`.
fn undiff<T: Clone>(
    table: &[Setting<T>],
    reference: &T,
    r: &mut Reader,
    format: u32,
) -> Result<T, Damage> {
    let fields: Vec<&Setting<T>> = written(table, format).collect();
    let mut t = reference.clone();
    if !r.bit().ok_or_else(cut_off)? {
        return Ok(t);
    }
    let mut mask = Vec::with_capacity(fields.len());
    for _ in &fields {
        mask.push(r.bit().ok_or_else(cut_off)?);
    }
    for (f, _) in fields.iter().zip(mask).filter(|(_, m)| *m) {
        let v = r.read(bits_for(f.count_in(format))).ok_or_else(cut_off)?;
        f.set_index_in(&mut t, v, format)
            .ok_or_else(|| format!("{} has no value number {v}", f.name))?;
    }
    Ok(t)
}

/// The diff of `layer` against `reference` in `format`, `None` if they are
/// of different kinds.
fn layer_diff(layer: &Layer, reference: &Layer, format: u32) -> Option<Bits> {
    fn of<K: Kind>(a: &K, b: &K, format: u32) -> Bits {
        diff(K::SETTINGS, a, b, format)
    }
    Some(match_kinds!(layer, reference, (a, b) => of(a, b, format), _ => return None))
}

/// Reads a layer written against `reference` in `format`.
fn layer_undiff(reference: &Layer, r: &mut Reader, format: u32) -> Result<Layer, Damage> {
    let mut layer = reference.clone();
    fn read<K: Kind>(l: &mut K, r: &mut Reader, format: u32) -> Result<(), Damage> {
        *l = undiff(K::SETTINGS, l, r, format)?;
        Ok(())
    }
    match_kind!(&mut layer, l => read(l, r, format))?;
    Ok(layer)
}

/// Whether two layer lists are the same, setting by setting, as far as
/// `format` writes them.
fn same_layers(a: &[Layer], b: &[Layer], format: u32) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| layer_diff(x, y, format).is_some_and(|d| d.len() == 1))
}

/// The layer list against the base's: the shorter of "same kinds in the
/// same order" (when it applies) and "each layer from its nearest start".
fn layers(list: &[Layer], base: &[Layer], format: u32) -> Bits {
    let same_shape = (list.len() == base.len()).then(|| {
        let mut w = Bits::default();
        w.bit(true);
        for (layer, reference) in list.iter().zip(base) {
            w.append(&layer_diff(layer, reference, format)?);
        }
        Some(w)
    });
    let ref_bits = bits_for((base.len() + kinds_in_format(format)) as u64);
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
            .filter_map(|(r, reference)| Some((r, layer_diff(layer, reference, format)?)))
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

/// Reads a payload written by [`payload`] in `format`.
pub(super) fn read_payload(r: &mut Reader, format: u32) -> Result<Scene, Damage> {
    let index = r.read(BASE_BITS).ok_or_else(cut_off)? as usize;
    let base = bases()
        .get(index)
        .ok_or_else(|| format!("there is no base scene {index}"))?;
    let mut scene = base.clone();
    if r.bit().ok_or_else(cut_off)? {
        let len = r.read(SEED_LEN_BITS).ok_or_else(cut_off)? as u32 + 1;
        scene.seed = r.read(len).ok_or_else(cut_off)?;
    }
    scene = undiff(Scene::SETTINGS, &scene, r, format)?;
    if r.bit().ok_or_else(cut_off)? {
        scene.layers = read_layers(&base.layers, r, format)?;
    }
    Ok(scene)
}

/// Reads a layer list written by [`layers`].
fn read_layers(base: &[Layer], r: &mut Reader, format: u32) -> Result<Vec<Layer>, Damage> {
    let references: Vec<Layer> = if r.bit().ok_or_else(cut_off)? {
        base.to_vec()
    } else {
        let n = r.read(LAYER_COUNT_BITS).ok_or_else(cut_off)? as usize;
        if n > MAX_LAYERS {
            return Err(format!("{n} layers, more than the limit of {MAX_LAYERS}"));
        }
        let ref_bits = bits_for((base.len() + kinds_in_format(format)) as u64);
        let mut references = Vec::with_capacity(n);
        for _ in 0..n {
            let k = r.read(ref_bits).ok_or_else(cut_off)? as usize;
            references.push(match base.get(k) {
                Some(layer) => layer.clone(),
                None if k - base.len() < kinds_in_format(format) => fresh_layer(k - base.len()),
                None => return Err(format!("there is no layer kind {}", k - base.len())),
            });
        }
        references
    };
    references
        .iter()
        .map(|reference| layer_undiff(reference, r, format))
        .collect()
}
