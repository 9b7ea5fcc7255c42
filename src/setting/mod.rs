//! A setting described once. Each layer kind lists its settings in a table
//! of [`Setting`]s in its own module (and the scene lists its own in
//! [`crate::scene`]); everything that walks settings is driven by those
//! tables:
//!
//! - reading: [`read`] deserializes a settings struct field by field,
//!   refusing unknown fields and values outside their range with the line
//!   and column of the value;
//! - checking and rounding: [`validate`] and [`quantize`];
//! - share codes ([`crate::share`]): [`Setting::count`], [`Setting::index`]
//!   and [`Setting::set_index`] write each setting as a whole number;
//! - the app's forms (label, hover hint, slider scale) and
//!   [`crate::explore::randomize`] ([`Roll`]).
//!
//! The order of a table is part of the share-code format: settings are
//! written in table order, so a table is only ever changed with a new
//! format. A setting added later goes at the end of its table and says
//! since which format it is written ([`Setting::since`]): codes of older
//! formats leave it out and mean its base value.

pub mod limit;

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::base::color::Rgb;
use crate::base::palette::TimeOfDay;
use crate::error::Result;
use crate::life::{Rule, Topology};
use crate::setting::limit::Limit;

/// One setting of a `T` (a layer's settings, or the scene).
pub struct Setting<T> {
    /// Its name, as in the RON (`"top"`; the scene's automaton settings
    /// are `"automaton.density"` and so on).
    pub name: &'static str,
    /// Its label in the app.
    pub label: &'static str,
    /// What it does, shown when hovering its control.
    pub hint: &'static str,
    /// Its type, range, precision, and how New scene and Vary roll it.
    pub value: Value<T>,
    /// The first share-code format that writes it (1 for the settings
    /// format 1 was made with); codes of earlier formats leave it out.
    pub since: u32,
}

/// How "New scene" rolls a setting, and "Vary" nudges it.
#[derive(Clone, Copy, Debug)]
pub enum Roll<V: 'static> {
    /// Never: the user's value stays.
    Keep,
    /// Uniformly from `lo` to `hi`, both included (floats rounded to 0.001).
    Range(V, V),
    /// One of these values, each equally likely (repeat one to favour it).
    Pick(&'static [V]),
}

/// The type of a setting, with typed access to it in a `T`.
pub enum Value<T> {
    /// A float from `min` to `max`, kept to a precision of `1 / per_unit`
    /// (the grid anchored at 0, so `0.74` and the range ends are exact).
    Float {
        /// Reads it.
        get: fn(&T) -> f32,
        /// Writes it.
        put: fn(&mut T, f32),
        /// Smallest value.
        min: f32,
        /// Largest value.
        max: f32,
        /// Steps per unit of the precision.
        per_unit: u32,
        /// Whether its slider is logarithmic (ranges over decades).
        log: bool,
        /// Whether its ends are one value, as 360° is 0° of an angle: the
        /// value `max` is kept as `min` ([`Setting::quantize`],
        /// [`Setting::set_index`]), so that one picture has one value, one
        /// RON and one share code. Codes holding `max` still read, as `min`.
        wraps: bool,
        /// How New scene and Vary roll it.
        roll: Roll<f32>,
    },
    /// A whole number from `min` to `max`.
    Uint {
        /// Reads it.
        get: fn(&T) -> u32,
        /// Writes it.
        put: fn(&mut T, u32),
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
        /// Whether its slider is logarithmic.
        log: bool,
        /// How New scene and Vary roll it.
        roll: Roll<u32>,
    },
    /// A switch (never rolled).
    Bool {
        /// Reads it.
        get: fn(&T) -> bool,
        /// Writes it.
        put: fn(&mut T, bool),
    },
    /// An sRGB colour.
    Rgb {
        /// Reads it.
        get: fn(&T) -> Rgb,
        /// Writes it.
        put: fn(&mut T, Rgb),
        /// How New scene and Vary roll it.
        roll: Roll<Rgb>,
    },
    /// The time of day.
    Time {
        /// Reads it.
        get: fn(&T) -> TimeOfDay,
        /// Writes it.
        put: fn(&mut T, TimeOfDay),
        /// How New scene and Vary roll it.
        roll: Roll<TimeOfDay>,
    },
    /// A Life-like rule.
    Rule {
        /// Reads it.
        get: fn(&T) -> Rule,
        /// Writes it.
        put: fn(&mut T, Rule),
        /// How New scene and Vary roll it (rules as text, e.g. `"B3/S23"`).
        roll: Roll<&'static str>,
    },
    /// The grid's topology (never rolled).
    Topology {
        /// Reads it.
        get: fn(&T) -> Topology,
        /// Writes it.
        put: fn(&mut T, Topology),
    },
}

/// `v` rounded to the nearest multiple of `1 / per_unit`. Non-finite values
/// are left alone, for validation to reject.
pub fn round_to(v: f32, per_unit: u32) -> f32 {
    if !v.is_finite() {
        return v;
    }
    let n = f64::from(per_unit);
    ((f64::from(v) * n).round() / n) as f32
}

/// `v`, or `min` for `max` when the setting `wraps` (its ends are one
/// value).
fn wrap(v: f32, min: f32, max: f32, wraps: bool) -> f32 {
    if wraps && v == max { min } else { v }
}

/// `time`, or midnight at its start for the hour 24, midnight at the
/// day's end ([`TimeOfDay::LAST_HOUR`]): lit alike, one picture, so kept as
/// one value, with one share code, as a float setting that [wraps](Value::Float).
fn day_time(time: TimeOfDay) -> TimeOfDay {
    if time.hour() == TimeOfDay::LAST_HOUR {
        TimeOfDay::at(0.0)
    } else {
        time
    }
}

/// `x` on the grid of `1 / per_unit`, as a whole number (rounded).
fn steps(x: f64, per_unit: u32) -> i64 {
    (x * f64::from(per_unit)).round() as i64
}

impl<T> Setting<T> {
    /// The range of a number setting, named `what` in messages.
    pub fn limit<'a>(&self, what: &'a str) -> Option<Limit<'a>> {
        match self.value {
            Value::Float { min, max, .. } => Some(Limit::new(what, min.into(), max.into())),
            Value::Uint { min, max, .. } => Some(Limit::new(what, min.into(), max.into())),
            _ => None,
        }
    }

    /// Checks a number setting of `t` against its range; `prefix` (a layer
    /// kind's name, or empty) starts its name in the message.
    pub fn check(&self, t: &T, prefix: &str) -> Result<()> {
        let what = qualified(prefix, self.name);
        match self.value {
            Value::Float { get, .. } => {
                let v = get(t);
                self.limit(&what).map_or(Ok(()), |l| l.check(v.into(), v))
            }
            Value::Uint { get, .. } => {
                let v = get(t);
                self.limit(&what).map_or(Ok(()), |l| l.check(v.into(), v))
            }
            Value::Time { get, .. } => {
                let v = get(t).hour();
                Limit::new(&what, 0.0, TimeOfDay::LAST_HOUR.into()).check(v.into(), v)
            }
            _ => Ok(()),
        }
    }

    /// Number of distinct values of the setting (as the newest share-code
    /// format writes it).
    pub fn count(&self) -> u64 {
        self.count_in(u32::MAX)
    }

    /// Number of distinct values of the setting in share codes of
    /// `format`: a time of day is one of the four first named times until
    /// format 3, any hour at 0.1 since format 4.
    pub fn count_in(&self, format: u32) -> u64 {
        match self.value {
            Value::Float {
                min, max, per_unit, ..
            } => (steps(max.into(), per_unit) - steps(min.into(), per_unit)) as u64 + 1,
            Value::Uint { min, max, .. } => u64::from(max - min) + 1,
            Value::Bool { .. } | Value::Topology { .. } => 2,
            Value::Rgb { .. } => 1 << 24,
            Value::Time { .. } if format <= 3 => TimeOfDay::ALL.len() as u64,
            Value::Time { .. } => (TimeOfDay::LAST_HOUR * 10.0) as u64 + 1,
            // B0 is refused, so birth has 8 bits and survival 9.
            Value::Rule { .. } => 1 << 17,
        }
    }

    /// The setting as a whole number in `0..count()`. Values outside the
    /// range (and NaN) are clamped to it.
    pub fn index(&self, t: &T) -> u64 {
        self.index_in(t, u32::MAX)
    }

    /// The setting as a whole number in `0..count_in(format)`: a time that
    /// `format` cannot write gives 0.
    pub fn index_in(&self, t: &T, format: u32) -> u64 {
        let last = self.count_in(format) - 1;
        match self.value {
            Value::Float {
                get,
                min,
                max,
                per_unit,
                ..
            } => {
                let (lo, hi) = (f64::from(min), f64::from(max));
                let v = f64::from(get(t));
                let v = if v.is_nan() { lo } else { v };
                let k = steps(v.clamp(lo, hi), per_unit) - steps(lo, per_unit);
                (k.max(0) as u64).min(last)
            }
            Value::Uint { get, min, max, .. } => u64::from(get(t).clamp(min, max) - min),
            Value::Bool { get, .. } => u64::from(get(t)),
            Value::Rgb { get, .. } => {
                let Rgb(r, g, b) = get(t);
                u64::from(r) << 16 | u64::from(g) << 8 | u64::from(b)
            }
            Value::Time { get, .. } if format <= 3 => {
                let time = get(t);
                TimeOfDay::ALL.iter().position(|&x| x == time).unwrap_or(0) as u64
            }
            Value::Time { get, .. } => {
                let hour = get(t).hour();
                let hour = if hour.is_nan() { 0.0 } else { hour };
                ((hour * 10.0).round().max(0.0) as u64).min(last)
            }
            Value::Rule { get, .. } => {
                let rule = get(t);
                u64::from(rule.birth() >> 1) << 9 | u64::from(rule.survive())
            }
            Value::Topology { get, .. } => u64::from(get(t) == Topology::Bounded),
        }
    }

    /// Sets the setting from a whole number; `None` if `k` is not one of
    /// its values.
    pub fn set_index(&self, t: &mut T, k: u64) -> Option<()> {
        self.set_index_in(t, k, u32::MAX)
    }

    /// Sets the setting from a whole number of `format`
    /// ([`Setting::index_in`]).
    pub fn set_index_in(&self, t: &mut T, k: u64, format: u32) -> Option<()> {
        if k >= self.count_in(format) {
            return None;
        }
        match self.value {
            Value::Float {
                put,
                min,
                max,
                per_unit,
                wraps,
                ..
            } => {
                let n = steps(min.into(), per_unit) + k as i64;
                put(
                    t,
                    wrap((n as f64 / f64::from(per_unit)) as f32, min, max, wraps),
                );
            }
            Value::Uint { put, min, .. } => put(t, min + k as u32),
            Value::Bool { put, .. } => put(t, k == 1),
            Value::Rgb { put, .. } => put(t, Rgb((k >> 16) as u8, (k >> 8) as u8, k as u8)),
            Value::Time { put, .. } if format <= 3 => put(t, TimeOfDay::ALL[k as usize]),
            Value::Time { put, .. } => put(t, day_time(TimeOfDay::at(k as f32 / 10.0))),
            Value::Rule { put, .. } => {
                let rule = Rule::from_masks(((k >> 9) as u16) << 1, (k & 0x1ff) as u16).ok()?;
                put(t, rule);
            }
            Value::Topology { put, .. } => put(
                t,
                if k == 1 {
                    Topology::Bounded
                } else {
                    Topology::Torus
                },
            ),
        }
        Some(())
    }

    /// Rounds a float setting to its precision (a setting that wraps from
    /// its `max` to its `min`), and a time of day to its tenth of an hour
    /// (named when it falls on a named time, hour 24 as midnight, 0); other
    /// settings are exact.
    pub fn quantize(&self, t: &mut T) {
        match self.value {
            Value::Float {
                get,
                put,
                min,
                max,
                per_unit,
                wraps,
                ..
            } => put(t, wrap(round_to(get(t), per_unit), min, max, wraps)),
            Value::Time { get, put, .. } => put(t, day_time(get(t).quantized())),
            _ => {}
        }
    }

    /// Reads the setting's value from `map` into `t`, checking its range.
    fn read_value<'de, A: MapAccess<'de>>(
        &self,
        map: &mut A,
        t: &mut T,
        prefix: &str,
    ) -> std::result::Result<(), A::Error> {
        let what = qualified(prefix, self.name);
        let limit = || self.limit(&what).expect("a number setting has a range");
        match self.value {
            Value::Float { put, .. } => put(t, map.next_value_seed(FloatIn(limit()))?),
            Value::Uint { put, .. } => put(t, map.next_value_seed(WholeIn(limit()))?),
            Value::Bool { put, .. } => put(t, map.next_value()?),
            Value::Rgb { put, .. } => put(t, map.next_value()?),
            Value::Time { put, .. } => put(t, map.next_value()?),
            Value::Rule { put, .. } => put(t, map.next_value()?),
            Value::Topology { put, .. } => put(t, map.next_value()?),
        }
        Ok(())
    }
}

/// A float setting's value read from RON (or any format that says what
/// its values are), checked against its [`Limit`].
pub(crate) struct FloatIn<'a>(pub Limit<'a>);

impl<'de> DeserializeSeed<'de> for FloatIn<'_> {
    type Value = f32;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<f32, D::Error> {
        // Read as an f64, so that a number beyond an f32's range (`1e39`)
        // is named as written, not as the f32 it would be (`inf`); held
        // against the limit as the f32 it is kept as.
        let wide = f64::deserialize(d)?;
        let v = wide as f32;
        self.0
            .check(f64::from(v), written(wide))
            .map_err(de::Error::custom)?;
        Ok(v)
    }
}

/// A whole-number setting's value read from RON (or any format that says
/// what its values are), checked against its [`Limit`]: a negative or
/// huge number is named against the range (not as a bare "out of
/// bounds"), a number with a point or an exponent (`2.0`) as no whole
/// number (not as a syntax error after its `2`).
pub(crate) struct WholeIn<'a>(pub Limit<'a>);

impl<'de> DeserializeSeed<'de> for WholeIn<'_> {
    type Value = u32;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<u32, D::Error> {
        struct Whole<'a>(Limit<'a>);
        impl Whole<'_> {
            /// `v` (shown as `shown`) if it is within the range.
            fn of<E: de::Error>(
                &self,
                v: i128,
                shown: impl fmt::Display,
            ) -> std::result::Result<u32, E> {
                self.0.check(v as f64, shown).map_err(E::custom)?;
                u32::try_from(v).map_err(E::custom)
            }
        }
        impl Visitor<'_> for Whole<'_> {
            type Value = u32;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(
                    f,
                    "a whole number from {} to {}",
                    limit::number_text(self.0.min),
                    limit::number_text(self.0.max)
                )
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<u32, E> {
                self.of(v.into(), v)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<u32, E> {
                self.of(v.into(), v)
            }
            // RON reads a whole number beyond 64 bits as 128 bits.
            fn visit_u128<E: de::Error>(self, v: u128) -> std::result::Result<u32, E> {
                self.of(i128::try_from(v).unwrap_or(i128::MAX), v)
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> std::result::Result<u32, E> {
                self.of(v, v)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<u32, E> {
                // A whole number too long for an integer comes as a float.
                if v.fract() == 0.0 {
                    self.0.check(v, written(v)).map_err(E::custom)?;
                }
                Err(E::custom(format!(
                    "{} is a whole number from {} to {}, not {v:?}",
                    self.0.what,
                    limit::number_text(self.0.min),
                    limit::number_text(self.0.max)
                )))
            }
        }
        d.deserialize_any(Whole(self.0))
    }
}

/// A number read as a person writes it: `7.5`, and `1e39` or `1e-50`
/// rather than forty digits.
pub(crate) fn written(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-6..1e16).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// `prefix.name`, or `name` without a prefix.
fn qualified(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// Checks every number of `t` against its range.
pub fn validate<T>(table: &[Setting<T>], t: &T, prefix: &str) -> Result<()> {
    table.iter().try_for_each(|s| s.check(t, prefix))
}

/// Rounds every float of `t` to its precision.
pub fn quantize<T>(table: &[Setting<T>], t: &mut T) {
    for s in table {
        s.quantize(t);
    }
}

/// Brings every number of `t` into its range (NaN to the smallest value).
pub fn clamp<T>(table: &[Setting<T>], t: &mut T) {
    for s in table {
        match s.value {
            Value::Float {
                get, put, min, max, ..
            } => {
                let v = get(t);
                put(t, if v.is_nan() { min } else { v.clamp(min, max) });
            }
            Value::Uint {
                get, put, min, max, ..
            } => put(t, get(t).clamp(min, max)),
            _ => {}
        }
    }
}

/// The setting of `table` called `name`.
pub fn find<'a, T>(table: &'a [Setting<T>], name: &str) -> Option<&'a Setting<T>> {
    table.iter().find(|s| s.name == name)
}

/// Deserializes a settings struct through its table: starts from
/// `T::default()`, reads each named field with its type and range, and
/// refuses unknown or repeated fields, naming them. Serde reports the
/// position of the offending value (RON: its line and column).
pub fn read<'de, T, D>(
    d: D,
    struct_name: &'static str,
    prefix: &'static str,
    table: &'static [Setting<T>],
    names: &'static [&'static str],
) -> std::result::Result<T, D::Error>
where
    T: Default,
    D: Deserializer<'de>,
{
    struct Fields<T: 'static> {
        prefix: &'static str,
        table: &'static [Setting<T>],
        names: &'static [&'static str],
    }
    impl<'de, T: Default> Visitor<'de> for Fields<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "the {} settings, as (name: value, ...)", self.prefix)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<T, A::Error> {
            let mut t = T::default();
            let mut seen = vec![false; self.table.len()];
            while let Some(key) = map.next_key::<FieldName>()? {
                let Some(i) = self.table.iter().position(|s| s.name == key.0) else {
                    return Err(de::Error::unknown_field(&key.0, self.names));
                };
                if std::mem::replace(&mut seen[i], true) {
                    return Err(de::Error::duplicate_field(self.table[i].name));
                }
                self.table[i].read_value(&mut map, &mut t, self.prefix)?;
            }
            Ok(t)
        }
    }
    d.deserialize_struct(
        struct_name,
        names,
        Fields {
            prefix,
            table,
            names,
        },
    )
}

/// A field name read as an identifier.
struct FieldName(String);

impl<'de> Deserialize<'de> for FieldName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = FieldName;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<FieldName, E> {
                Ok(FieldName(v.to_string()))
            }
        }
        d.deserialize_identifier(Name)
    }
}

/// The names of the serde fields of `T`, in order, as its derived
/// `Serialize` writes them: lets a test hold a table against its struct.
pub fn serde_fields<T: serde::Serialize>(t: &T) -> Vec<String> {
    let ron = ron::to_string(t).expect("settings serialize");
    let value: ron::Value = ron::from_str(&ron).expect("settings read back");
    match value {
        ron::Value::Map(map) => map
            .iter()
            .filter_map(|(k, _)| match k {
                ron::Value::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        other => panic!("settings are a struct, got {other:?}"),
    }
}

/// Whether a float is 0: a setting added in a later format whose base is
/// 0 is left out of RON there, so older scenes' RON stays as it was.
pub(crate) fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

/// The format a setting is written since: `since!()` is 1, `since!(n)` is
/// `n`.
macro_rules! since {
    () => {
        1
    };
    ($n:literal) => {
        $n
    };
}
pub(crate) use since;

/// A [`Setting`] whose value is the [`Value`] variant named, with the
/// fields given: `setting!(name, label, hint, since, Variant { get: ...,
/// put: ..., ... })`; with `field.path` after the variant,
/// `setting!(name, label, hint, since, Variant, field.path { ... })`, its
/// `get` and `put` reach that field of the settings. What [`float!`],
/// [`uint!`] and [`other!`] write.
macro_rules! setting {
    ($name:literal, $label:literal, $hint:literal, $since:expr,
     $variant:ident { $($field:ident: $value:expr),* $(,)? }) => {
        $crate::setting::Setting {
            name: $name,
            label: $label,
            hint: $hint,
            since: $since,
            value: $crate::setting::Value::$variant { $($field: $value),* },
        }
    };
    ($name:literal, $label:literal, $hint:literal, $since:expr,
     $variant:ident, $($path:ident).+ { $($field:ident: $value:expr),* $(,)? }) => {
        $crate::setting::setting!($name, $label, $hint, $since, $variant {
            get: |t| t.$($path).+,
            put: |t, v| t.$($path).+ = v,
            $($field: $value),*
        })
    };
}
pub(crate) use setting;

/// A float [`Setting`]: `float!(name, field.path, min, max, per_unit,
/// label, hint, roll)`; `float!(log ...)` for a logarithmic slider,
/// `float!(wraps ...)` for one whose ends are one value (an angle, see
/// [`Value::Float`]); `..., roll, since 2)` for a setting added with
/// share-code format 2.
macro_rules! float {
    (log $($rest:tt)*) => { $crate::setting::float!(@ true, false, $($rest)*) };
    (wraps $($rest:tt)*) => { $crate::setting::float!(@ false, true, $($rest)*) };
    (@ $log:expr, $wraps:expr, $name:literal, $($path:ident).+, $min:expr, $max:expr,
     $per_unit:expr, $label:literal, $hint:literal, $roll:expr $(, since $since:literal)?) => {
        $crate::setting::setting!(
            $name, $label, $hint, $crate::setting::since!($($since)?), Float, $($path).+ {
                min: $min, max: $max, per_unit: $per_unit, log: $log, wraps: $wraps,
                roll: $roll,
            }
        )
    };
    ($($rest:tt)*) => { $crate::setting::float!(@ false, false, $($rest)*) };
}
pub(crate) use float;

/// A whole-number [`Setting`]: `uint!(name, field.path, min, max, label,
/// hint, roll)`; `uint!(log ...)` for a logarithmic slider; `..., roll,
/// since 2)` as for [`float!`].
macro_rules! uint {
    (log $($rest:tt)*) => { $crate::setting::uint!(@ true, $($rest)*) };
    (@ $log:expr, $name:literal, $($path:ident).+, $min:expr, $max:expr,
     $label:literal, $hint:literal, $roll:expr $(, since $since:literal)?) => {
        $crate::setting::setting!(
            $name, $label, $hint, $crate::setting::since!($($since)?), Uint, $($path).+ {
                min: $min, max: $max, log: $log, roll: $roll,
            }
        )
    };
    ($($rest:tt)*) => { $crate::setting::uint!(@ false, $($rest)*) };
}
pub(crate) use uint;

/// A [`Setting`] of another type: `other!(Variant, name, field.path,
/// label, hint $(, roll)?)`, the variant one of `Bool`, `Rgb`, `Time`,
/// `Rule`, `Topology` (those without a roll never roll).
macro_rules! other {
    ($variant:ident, $name:literal, $($path:ident).+, $label:literal, $hint:literal $(, $roll:expr)?) => {
        $crate::setting::setting!($name, $label, $hint, 1, $variant, $($path).+ { $(roll: $roll)? })
    };
}
pub(crate) use other;
