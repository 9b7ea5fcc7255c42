//! Settings changed by name, as the command line's `--set KEY=VALUE` does:
//! `seed=7`, `time=Dusk`, `automaton.density=0.6`, `rocks.roughness=0.8`
//! (every rocks layer), `tent#2.x=0.3` (the second tent).
//!
//! A key is looked up in the settings tables ([`Scene::SETTINGS`] and each
//! layer kind's [`Kind::SETTINGS`]), so every setting of every kind can be
//! set, and a value is read by the setting's type and checked against its
//! range, with the messages RON gives. A value may also be a sweep, several
//! values of one setting: `A..=B:N` (N values evenly from A to B, both
//! included), `A..B:N` (N values from A in steps of (B−A)/N, B left out: the
//! rule of every range, [`crate::base::range`]) or a list `v1,v2,v3`;
//! [`Tweaks::variants`] gives one scene per value.

use crate::base::color::Rgb;
use crate::base::palette::TimeOfDay;
use crate::error::{Error, Result, quote};
use crate::layers::{Kind, Layer, match_kind};
use crate::life::{Rule, Topology};
use crate::scene::Scene;
use crate::scene::layer_names;
use crate::setting::{self, Roll, Setting, Value};

mod parse;
use self::parse::{parse_sweep, parse_value, split_list};

/// Most values in one sweep.
pub const MAX_SWEEP: usize = 1000;

/// What a key names.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    /// The scene's seed.
    Seed,
    /// A setting of [`Scene::SETTINGS`], by its index.
    Scene(usize),
    /// A setting of a layer kind: the kind's index (as
    /// [`Layer::kind_index`]), the 1-based place among the layers of that
    /// kind (`None`: every one) and the setting's index in its table.
    Layer {
        kind: usize,
        nth: Option<usize>,
        setting: usize,
    },
}

impl Target {
    /// Whether `self` and `other` reach one setting of one layer (or the
    /// seed, or one setting of the scene): `rocks.x` reaches every rocks
    /// layer's `x`, `rocks#2.x` the second's.
    fn meets(self, other: Target) -> bool {
        match (self, other) {
            (
                Target::Layer { kind, nth, setting },
                Target::Layer {
                    kind: other_kind,
                    nth: other_nth,
                    setting: other_setting,
                },
            ) => {
                kind == other_kind
                    && setting == other_setting
                    && (nth.is_none() || other_nth.is_none() || nth == other_nth)
            }
            (a, b) => a == b,
        }
    }
}

/// The type and range of a setting, apart from what it belongs to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Seed,
    Float { min: f32, max: f32, per_unit: u32 },
    Uint { min: u32, max: u32 },
    Bool,
    Rgb,
    Time,
    Rule,
    Topology,
}

/// A value read for a setting.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Seed(u64),
    Float(f32),
    Uint(u32),
    Bool(bool),
    Rgb(Rgb),
    Time(TimeOfDay),
    Rule(Rule),
    Topology(Topology),
}

impl Val {
    /// The value as a label shows it: `0.25`, `GoldenHour`, `#aa8844`,
    /// `B3/S23`.
    fn text(&self) -> String {
        match *self {
            Val::Seed(v) => v.to_string(),
            Val::Float(v) => v.to_string(),
            Val::Uint(v) => v.to_string(),
            Val::Bool(v) => v.to_string(),
            Val::Rgb(Rgb(r, g, b)) => format!("#{r:02x}{g:02x}{b:02x}"),
            Val::Time(t) => time_name(t),
            Val::Rule(r) => r.to_string(),
            Val::Topology(t) => format!("{t:?}"),
        }
    }
}

/// A time of day as `--set` takes it: its RON name, or the hour.
fn time_name(t: TimeOfDay) -> String {
    t.ron_name()
        .map_or_else(|| t.hour().to_string(), str::to_string)
}

/// The shape of a setting.
fn shape<T>(s: &Setting<T>) -> Shape {
    match s.value {
        Value::Float {
            min, max, per_unit, ..
        } => Shape::Float { min, max, per_unit },
        Value::Uint { min, max, .. } => Shape::Uint { min, max },
        Value::Bool { .. } => Shape::Bool,
        Value::Rgb { .. } => Shape::Rgb,
        Value::Time { .. } => Shape::Time,
        Value::Rule { .. } => Shape::Rule,
        Value::Topology { .. } => Shape::Topology,
    }
}

/// Writes `v` into the setting `s` of `t` (`v` was read for its shape).
fn put<T>(s: &Setting<T>, t: &mut T, v: Val) {
    match (&s.value, v) {
        (Value::Float { put, .. }, Val::Float(v)) => put(t, v),
        (Value::Uint { put, .. }, Val::Uint(v)) => put(t, v),
        (Value::Bool { put, .. }, Val::Bool(v)) => put(t, v),
        (Value::Rgb { put, .. }, Val::Rgb(v)) => put(t, v),
        (Value::Time { put, .. }, Val::Time(v)) => put(t, v),
        (Value::Rule { put, .. }, Val::Rule(v)) => put(t, v),
        (Value::Topology { put, .. }, Val::Topology(v)) => put(t, v),
        _ => unreachable!("a value is read for its setting's shape"),
    }
}

/// A layer kind's name and its settings' names and shapes.
struct KindInfo {
    name: &'static str,
    settings: Vec<(&'static str, Shape)>,
}

/// Every layer kind, in kind order.
fn kinds() -> Vec<KindInfo> {
    fn info<K: Kind>(_: &K) -> KindInfo {
        KindInfo {
            name: K::NAME,
            settings: K::SETTINGS.iter().map(|s| (s.name, shape(s))).collect(),
        }
    }
    Layer::every_kind()
        .iter()
        .map(|l| match_kind!(l, l => info(l)))
        .collect()
}

/// The names of the layer kinds, in kind order.
pub fn kind_names() -> Vec<&'static str> {
    kinds().into_iter().map(|k| k.name).collect()
}

/// Every key of the scene's own: `seed` and [`Scene::SETTINGS`]' names.
pub fn scene_keys() -> Vec<&'static str> {
    std::iter::once("seed")
        .chain(Scene::SETTINGS.iter().map(|s| s.name))
        .collect()
}

/// An error about `key`.
fn fail(key: &str, reason: impl Into<String>) -> Error {
    Error::Setting {
        key: key.to_string(),
        reason: reason.into(),
    }
}

/// One `KEY=VALUE`: a setting and one value, or several (a sweep).
#[derive(Clone, Debug, PartialEq)]
pub struct Tweak {
    /// The key as written (`rocks#2.roughness`).
    key: String,
    target: Target,
    /// The value as written (`0..=1:5`), trimmed.
    text: String,
    values: Vec<Val>,
    /// Whether the values were written as a sweep (a range or a list).
    sweep: bool,
}

impl Tweak {
    /// Reads `KEY=VALUE`. The key is `seed`, a setting of the scene
    /// (`time`, `automaton.density`, …), `KIND.SETTING` (every layer of
    /// that kind) or `KIND#N.SETTING` (the Nth, from 1). The value is read
    /// by the setting's type: a number, `true`/`false`, a colour (`#aa8844`
    /// or `170,136,68`), a time of day (`Noon`, `GoldenHour`, `Dusk`,
    /// `Night`), a rule (`B3/S23`) or `Torus`/`Bounded`; or several, as a
    /// sweep (numbers and times of day, whose ends are hours or named
    /// times): `A..=B:N`, N values evenly from A to B, both
    /// included; `A..B:N`, N values from A in steps of (B−A)/N, B left out;
    /// or `v1,v2,…`. Every value is checked against the setting's range.
    pub fn parse(text: &str) -> Result<Tweak> {
        let Some((key, value)) = text.split_once('=') else {
            return Err(fail(
                text,
                "expected KEY=VALUE, e.g. rocks.roughness=0.8".to_string(),
            ));
        };
        let key = key.trim();
        let (target, shape) = target(key)?;
        let value = value.trim();
        if value.is_empty() {
            return Err(fail(key, "has no value (KEY=VALUE)"));
        }
        let (values, sweep) = if let Some(range) = parse_sweep(key, shape, value)? {
            (range, true)
        } else {
            let items = split_list(shape, value);
            let values = items
                .iter()
                .map(|item| parse_value(key, shape, item))
                .collect::<Result<Vec<_>>>()?;
            let sweep = values.len() > 1;
            (values, sweep)
        };
        if values.len() > MAX_SWEEP {
            return Err(fail(
                key,
                format!(
                    "a sweep of {} values is more than the limit of {MAX_SWEEP}",
                    values.len()
                ),
            ));
        }
        for (i, v) in values.iter().enumerate() {
            if values[..i].contains(v) {
                return Err(fail(
                    key,
                    format!(
                        "the sweep {} gives {} twice (values are kept to the setting's \
                         precision)",
                        quote(value),
                        v.text()
                    ),
                ));
            }
        }
        Ok(Tweak {
            key: key.to_string(),
            target,
            text: value.to_string(),
            values,
            sweep,
        })
    }

    /// The key as written.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The value as written (`0..=1:5`, `Dusk`), trimmed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether it gives several values (a range or a list).
    pub fn is_sweep(&self) -> bool {
        self.sweep
    }

    /// Whether it sets the seed.
    pub fn sets_seed(&self) -> bool {
        self.target == Target::Seed
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether it has no value (never: a tweak has at least one).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Value `i` as a label shows it: `0.25`, `GoldenHour`, `#aa8844`.
    pub fn value_text(&self, i: usize) -> String {
        self.values[i].text()
    }

    /// Sets value `i` in `scene`. An error if the scene has no layer the
    /// key names.
    pub fn apply(&self, scene: &mut Scene, i: usize) -> Result<()> {
        let v = self.values[i];
        match self.target {
            Target::Seed => {
                if let Val::Seed(seed) = v {
                    scene.seed = seed;
                }
            }
            Target::Scene(k) => put(&Scene::SETTINGS[k], scene, v),
            Target::Layer { kind, nth, setting } => {
                let mut found = 0;
                for layer in &mut scene.layers {
                    if layer.kind_index() != kind {
                        continue;
                    }
                    found += 1;
                    if nth.is_some_and(|n| n != found) {
                        continue;
                    }
                    fn set<K: Kind>(l: &mut K, setting: usize, v: Val) {
                        put(&K::SETTINGS[setting], l, v);
                    }
                    match_kind!(layer, l => set(l, setting, v));
                }
                let name = kinds()[kind].name;
                match nth {
                    _ if found == 0 => {
                        return Err(fail(&self.key, format!("the scene has no {name} layer")));
                    }
                    Some(n) if n > found => {
                        let layers = if found == 1 { "layer" } else { "layers" };
                        return Err(fail(
                            &self.key,
                            format!("the scene has {found} {name} {layers}, not {n}"),
                        ));
                    }
                    _ => {}
                }
            }
        }
        scene.quantize();
        Ok(())
    }
}

/// The target of `key` and its setting's shape; an unknown key says what
/// the keys are.
fn target(key: &str) -> Result<(Target, Shape)> {
    if key == "seed" {
        return Ok((Target::Seed, Shape::Seed));
    }
    if let Some(i) = Scene::SETTINGS.iter().position(|s| s.name == key) {
        return Ok((Target::Scene(i), shape(&Scene::SETTINGS[i])));
    }
    let kinds = kinds();
    let unknown = || {
        fail(
            key,
            format!(
                "no such setting; the scene's are {}, and a layer's are KIND.SETTING \
                 (every layer of the kind) or KIND#N.SETTING (the Nth), KIND one of {}",
                scene_keys().join(", "),
                kind_names().join(", ")
            ),
        )
    };
    let Some((head, name)) = key.split_once('.') else {
        return Err(unknown());
    };
    let (kind_name, nth) = match head.split_once('#') {
        Some((kind, n)) => {
            let n = n.parse::<usize>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                fail(
                    key,
                    format!(
                        "{} is not a layer's place: KIND#N counts the layers of a kind \
                         from 1",
                        quote(n)
                    ),
                )
            })?;
            (kind, Some(n))
        }
        None => (head, None),
    };
    let Some(kind) = kinds.iter().position(|k| k.name == kind_name) else {
        return Err(unknown());
    };
    let info = &kinds[kind];
    let Some(setting) = info.settings.iter().position(|(n, _)| *n == name) else {
        let names: Vec<&str> = info.settings.iter().map(|(n, _)| *n).collect();
        return Err(fail(
            key,
            format!(
                "{kind_name} has no setting {}; its settings are {}",
                quote(name),
                names.join(", ")
            ),
        ));
    };
    Ok((
        Target::Layer { kind, nth, setting },
        info.settings[setting].1,
    ))
}

/// Every `--set` of a command: fixed values and at most one sweep.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tweaks {
    tweaks: Vec<Tweak>,
}

/// One scene a set of [`Tweaks`] makes of a scene: with the fixed values,
/// and the sweep's value, if there is a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// The scene.
    pub scene: Scene,
    /// The sweep's key and this scene's value of it, as text.
    pub swept: Option<(String, String)>,
}

impl Variant {
    /// The label of the sweep's value, `rocks.roughness=0.25`; `None`
    /// without a sweep.
    pub fn label(&self) -> Option<String> {
        self.swept.as_ref().map(|(k, v)| format!("{k}={v}"))
    }

    /// What a file name says of the sweep's value,
    /// `rocks.roughness-0.25` (a colour without its `#`, a rule's `/` as
    /// `_`); `None` without a sweep, or for a sweep of the seed (the seed
    /// is in the name already).
    pub fn file_suffix(&self) -> Option<String> {
        let (k, v) = self.swept.as_ref()?;
        if k == "seed" {
            return None;
        }
        let v: String = v
            .chars()
            .filter(|&c| c != '#')
            .map(|c| if c == '/' { '_' } else { c })
            .collect();
        Some(format!("{k}-{v}"))
    }
}

impl Tweaks {
    /// Reads every `KEY=VALUE` ([`Tweak::parse`]); refuses a second sweep
    /// and a setting set twice: by one key given twice, or by two keys
    /// that reach one setting of one layer (`dunes.height`, every dunes
    /// layer's, and `dunes#1.height`), whose values would depend on their
    /// order.
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Tweaks> {
        let mut tweaks: Vec<Tweak> = Vec::new();
        for arg in args {
            let tweak = Tweak::parse(arg.as_ref())?;
            if let Some(first) = tweaks.iter().find(|t| t.target.meets(tweak.target)) {
                return Err(set_twice(first, &tweak));
            }
            if let Some(first) = tweaks.iter().find(|t| t.sweep).filter(|_| tweak.sweep) {
                return Err(fail(
                    &tweak.key,
                    format!(
                        "a second sweep: {} is swept already, and one sweep a command is \
                         the limit",
                        first.key
                    ),
                ));
            }
            tweaks.push(tweak);
        }
        Ok(Tweaks { tweaks })
    }

    /// Whether there is nothing to set.
    pub fn is_empty(&self) -> bool {
        self.tweaks.is_empty()
    }

    /// Each `KEY=VALUE`, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = &Tweak> {
        self.tweaks.iter()
    }

    /// The sweep, if there is one.
    pub fn sweep(&self) -> Option<&Tweak> {
        self.tweaks.iter().find(|t| t.sweep)
    }

    /// Whether one of them sets the seed.
    pub fn sets_seed(&self) -> bool {
        self.tweaks.iter().any(Tweak::sets_seed)
    }

    /// `scene` with every value set, in the order given, then checked
    /// ([`Scene::validate`]: the automaton's grid, say, may grow too big).
    /// A sweep gives one scene per value, in order; without one, one scene.
    pub fn variants(&self, scene: &Scene) -> Result<Vec<Variant>> {
        let mut base = scene.clone();
        for t in self.tweaks.iter().filter(|t| !t.sweep) {
            t.apply(&mut base, 0)?;
        }
        let Some(sweep) = self.sweep() else {
            base.validate()?;
            return Ok(vec![Variant {
                scene: base,
                swept: None,
            }]);
        };
        (0..sweep.len())
            .map(|i| {
                let mut scene = base.clone();
                sweep.apply(&mut scene, i)?;
                for t in self.tweaks.iter().filter(|t| !t.sweep) {
                    t.apply(&mut scene, 0)?;
                }
                scene.validate()?;
                Ok(Variant {
                    scene,
                    swept: Some((sweep.key.clone(), sweep.value_text(i))),
                })
            })
            .collect()
    }

    /// `scene` with the fixed values set, in the order given, and not the
    /// sweep's (see [`Tweaks::sweep`]), then checked.
    pub fn apply_fixed(&self, scene: &Scene) -> Result<Scene> {
        let mut scene = scene.clone();
        for t in self.tweaks.iter().filter(|t| !t.sweep) {
            t.apply(&mut scene, 0)?;
        }
        scene.validate()?;
        Ok(scene)
    }

    /// `scene` with every value set: [`Tweaks::variants`] when there is no
    /// sweep. A sweep is an error naming it.
    pub fn apply(&self, scene: &Scene) -> Result<Scene> {
        if let Some(sweep) = self.sweep() {
            return Err(fail(
                &sweep.key,
                "is a sweep of several values, but this makes one scene",
            ));
        }
        Ok(self.variants(scene)?.remove(0).scene)
    }
}

/// The error for `second`, which reaches a setting `first` sets already:
/// naming both keys, and the setting when the keys differ.
fn set_twice(first: &Tweak, second: &Tweak) -> Error {
    if first.key == second.key {
        return fail(&second.key, "is set twice");
    }
    let what = match (first.target, second.target) {
        (Target::Layer { kind, nth, setting }, Target::Layer { nth: other, .. }) => {
            let info = &kinds()[kind];
            let layer = match nth.or(other) {
                Some(n) => format!("{} layer {n}", info.name),
                None => format!("every {} layer", info.name),
            };
            format!(" (the {} of {layer})", info.settings[setting].0)
        }
        _ => String::new(),
    };
    fail(
        &second.key,
        format!("is set twice: {} sets it too{what}", first.key),
    )
}

/// A setting of a scene that a range sweep can change (a number or the
/// time of day), as the app's Export animation… offers them.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweepable {
    /// Its key, as `--set` takes it: `time`, `clouds.drift`, `tent#2.x`.
    pub key: String,
    /// Its label: `Time of day`, or the layer's name and the setting's,
    /// `Clouds: Drift`.
    pub label: String,
    /// Its value in the scene (the time of day in hours).
    pub value: f64,
    /// Its smallest value.
    pub min: f64,
    /// Its largest value.
    pub max: f64,
    /// The range New scene rolls it in, if it rolls one.
    pub roll: Option<(f64, f64)>,
    /// Decimals of its precision: 0 for a whole number.
    pub decimals: usize,
}

impl Sweepable {
    /// A range sweep from `from` to `to`, both included, of `count` values:
    /// the value text `--set` takes (`5..=20:60`).
    pub fn sweep_text(&self, from: f64, to: f64, count: usize) -> String {
        let d = self.decimals;
        format!("{from:.d$}..={to:.d$}:{count}")
    }
}

/// The settings of `scene` a range sweep can change, in the order the app
/// shows them: the scene's own (not its aspect: an animation's frames have
/// one size), then each layer's, numbered as `KIND#N` counts them.
pub fn sweepable(scene: &Scene) -> Vec<Sweepable> {
    fn of<T>(s: &Setting<T>, t: &T, key: String, label: String) -> Option<Sweepable> {
        let places = |per_unit: u32| (f64::from(per_unit).log10().ceil().max(0.0)) as usize;
        let (value, min, max, roll, decimals) = match &s.value {
            Value::Float {
                get,
                min,
                max,
                per_unit,
                roll,
                ..
            } => (
                f64::from(get(t)),
                f64::from(*min),
                f64::from(*max),
                match roll {
                    Roll::Range(lo, hi) => Some((f64::from(*lo), f64::from(*hi))),
                    _ => None,
                },
                places(*per_unit),
            ),
            Value::Uint {
                get,
                min,
                max,
                roll,
                ..
            } => (
                f64::from(get(t)),
                f64::from(*min),
                f64::from(*max),
                match roll {
                    Roll::Range(lo, hi) => Some((f64::from(*lo), f64::from(*hi))),
                    _ => None,
                },
                0,
            ),
            Value::Time { get, .. } => (
                f64::from(get(t).hour()),
                0.0,
                f64::from(TimeOfDay::LAST_HOUR),
                None,
                1,
            ),
            _ => return None,
        };
        Some(Sweepable {
            key,
            label,
            value,
            min,
            max,
            roll,
            decimals,
        })
    }
    fn layer<K: Kind>(l: &K, head: &str, title: &str, out: &mut Vec<Sweepable>) {
        out.extend(K::SETTINGS.iter().filter_map(|s| {
            of(
                s,
                l,
                format!("{head}.{}", s.name),
                format!("{title}: {}", s.label),
            )
        }));
    }
    let mut out: Vec<Sweepable> = Scene::SETTINGS
        .iter()
        .filter(|s| s.name != "aspect")
        .filter_map(|s| of(s, scene, s.name.to_string(), s.label.to_string()))
        .collect();
    for (l, name) in scene.layers.iter().zip(layer_names(&scene.layers)) {
        let head = match name.nth {
            Some(n) => format!("{}#{n}", name.key),
            None => name.key.to_string(),
        };
        match_kind!(l, l => layer(l, &head, &name.to_string(), &mut out));
    }
    out
}

#[cfg(test)]
mod tests;
