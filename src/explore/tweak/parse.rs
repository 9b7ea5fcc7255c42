//! Reading a `--set` value by its setting's shape: one value, a list or
//! a range swept ([`parse_sweep`], [`parse_value`]).

use super::*;

/// The items of a list value: split at commas, except a colour's own
/// (`170,136,68` is one colour; `(170,136,68),(1,2,3)` two). Whole
/// numbers between commas are one colour, read as such (`1,2` has too few
/// parts, not two colours `1` and `2`), unless each is a colour of its own
/// (`112233,445566`, two colours written without their `#`).
pub(super) fn split_list(shape: Shape, value: &str) -> Vec<String> {
    if shape == Shape::Rgb
        && (parse_rgb(value).is_some()
            || rgb_parts(value).is_some_and(|parts| !parts.iter().all(|p| parse_rgb(p).is_some())))
    {
        return vec![value.to_string()];
    }
    let mut items = Vec::new();
    let mut depth = 0;
    let mut item = String::new();
    for c in value.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items.push(item);
    items
}

/// A range sweep of a number setting or the time of day (its ends hours
/// or named times), or `None` if `value` is no range:
/// `A..B:N`, N values from A in steps of (B−A)/N, B left out, or `A..=B:N`,
/// N values evenly from A to B, both included (N of 2 or more: one value
/// cannot hold both ends). Ranges follow [`crate::base::range`]'s rule; an empty
/// or reversed one is refused.
pub(super) fn parse_sweep(key: &str, shape: Shape, value: &str) -> Result<Option<Vec<Val>>> {
    if !value.contains("..") {
        return Ok(None);
    }
    let rule = crate::base::range::RULE;
    let syntax = || {
        fail(
            key,
            format!(
                "the sweep {} must be A..B:N (N values from A, B left out) or A..=B:N \
                 (N values from A to B, both included)",
                quote(value)
            ),
        )
    };
    if !matches!(
        shape,
        Shape::Seed | Shape::Float { .. } | Shape::Uint { .. } | Shape::Time
    ) {
        return Err(fail(
            key,
            format!(
                "{} is a range, but {key} is not a number: list its values, v1,v2,…",
                quote(value)
            ),
        ));
    }
    let (range, count) = value.rsplit_once(':').ok_or_else(syntax)?;
    let ends = crate::base::range::split(range)
        .map_err(|problem| fail(key, problem.message("the sweep", value)))?;
    let n: usize = count.trim().parse().map_err(|_| syntax())?;
    let least = if ends.inclusive { 2 } else { 1 };
    if n < least {
        let why = match ends.inclusive {
            true => "N of 2 or more, to hold both A and B",
            false => "N of 1 or more",
        };
        return Err(fail(
            key,
            format!("the sweep {} needs {why} ({rule})", quote(value)),
        ));
    }
    if n > MAX_SWEEP {
        return Err(fail(
            key,
            format!("a sweep of {n} values is more than the limit of {MAX_SWEEP}"),
        ));
    }
    let (a, b) = (
        parse_value(key, shape, ends.start)?,
        parse_value(key, shape, ends.end)?,
    );
    let order = match (a, b) {
        (Val::Seed(a), Val::Seed(b)) => ends.check_order(a, b),
        (Val::Float(a), Val::Float(b)) => ends.check_order(a, b),
        (Val::Uint(a), Val::Uint(b)) => ends.check_order(a, b),
        (Val::Time(a), Val::Time(b)) => ends.check_order(a.hour(), b.hour()),
        _ => unreachable!("both ends are read for the setting's shape"),
    };
    order.map_err(|problem| fail(key, problem.message("the sweep", value)))?;
    // Value i is A + (B − A)·i/steps: B is value N−1 of `A..=B:N`, and would
    // be value N of `A..B:N`.
    let steps = if ends.inclusive { n - 1 } else { n };
    let values = (0..n)
        .map(|i| {
            let t = i as f64 / steps as f64;
            match (a, b, shape) {
                (Val::Seed(a), Val::Seed(b), _) => {
                    let step = (b - a) as u128 * i as u128;
                    let d = steps as u128;
                    // Rounded to the nearest whole number, halves up.
                    let q = (2 * step + d) / (2 * d);
                    Val::Seed(a + q as u64)
                }
                (Val::Float(a), Val::Float(b), Shape::Float { per_unit, .. }) => {
                    let v = f64::from(a) + (f64::from(b) - f64::from(a)) * t;
                    Val::Float(setting::round_to(v as f32, per_unit))
                }
                (Val::Uint(a), Val::Uint(b), _) => {
                    let v = f64::from(a) + (f64::from(b) - f64::from(a)) * t;
                    Val::Uint(v.round() as u32)
                }
                // Hours, kept to the time's precision (0.1), named where
                // they fall on a named time.
                (Val::Time(a), Val::Time(b), _) => {
                    let (a, b) = (f64::from(a.hour()), f64::from(b.hour()));
                    Val::Time(TimeOfDay::Hour((a + (b - a) * t) as f32).quantized())
                }
                _ => unreachable!("both ends are read for the setting's shape"),
            }
        })
        .collect::<Vec<Val>>();
    // Rounded to the setting's precision, the last value of a short
    // `A..B:N` can reach B (`seed=0..1:2`: 0, then 0.5 rounds up to 1).
    if !ends.inclusive && values.last().is_some_and(|&last| !ascending(last, b)) {
        return Err(fail(
            key,
            format!(
                "the sweep {} reaches {} at the setting's precision, which A..B leaves \
                 out: ask for fewer values, or write A..=B",
                quote(value),
                b.text()
            ),
        ));
    }
    Ok(Some(values))
}

/// Whether `a` comes before `b`: both of one shape, a number.
fn ascending(a: Val, b: Val) -> bool {
    match (a, b) {
        (Val::Seed(a), Val::Seed(b)) => a < b,
        (Val::Float(a), Val::Float(b)) => a < b,
        (Val::Uint(a), Val::Uint(b)) => a < b,
        (Val::Time(a), Val::Time(b)) => a.hour() < b.hour(),
        _ => false,
    }
}

/// One value of a setting of shape `shape`, checked against its range.
pub(super) fn parse_value(key: &str, shape: Shape, text: &str) -> Result<Val> {
    let text = text.trim();
    let bad = |expected: &str| fail(key, format!("{} is not {expected}", quote(text)));
    match shape {
        Shape::Seed => match text.parse::<u64>() {
            Ok(seed) => Ok(Val::Seed(seed)),
            // As RON says it of a seed out of range.
            Err(_) if is_whole(text) => Err(Error::out_of_range(
                key,
                text,
                "must be a whole number from 0 to 18446744073709551615",
            )),
            Err(_) => Err(bad("a seed, a whole number from 0 to 18446744073709551615")),
        },
        Shape::Float { min, max, per_unit } => {
            // Read as an f32, the settings' type, as RON reads it: `0.3`
            // then passes a limit of 0.3.
            let v: f32 = text.parse().map_err(|_| bad("a number"))?;
            crate::setting::limit::Limit::new(key, min.into(), max.into()).check(v.into(), text)?;
            Ok(Val::Float(setting::round_to(v, per_unit)))
        }
        Shape::Uint { min, max } => {
            if !is_whole(text) {
                return Err(bad("a whole number"));
            }
            // Any whole number, however long, is held against the range:
            // as an f64, exact within it.
            let v: f64 = text.parse().map_err(|_| bad("a whole number"))?;
            crate::setting::limit::Limit::new(key, min.into(), max.into()).check(v, text)?;
            Ok(Val::Uint(v as u32))
        }
        Shape::Bool => match text {
            "true" => Ok(Val::Bool(true)),
            "false" => Ok(Val::Bool(false)),
            _ => Err(bad("true or false")),
        },
        Shape::Rgb => parse_rgb(text).map(Val::Rgb).ok_or_else(|| {
            let parts = rgb_parts(text).map_or(3, |parts| parts.len());
            if parts == 3 {
                bad("a colour: #rrggbb, or R,G,B with each 0 to 255")
            } else {
                fail(
                    key,
                    format!(
                        "{} has {parts} {}, but a colour has three: R,G,B with each 0 to \
                         255 (or #rrggbb)",
                        quote(text),
                        if parts == 1 { "part" } else { "parts" }
                    ),
                )
            }
        }),
        Shape::Time => {
            let plain = |s: &str| s.replace(['-', '_', ' '], "").to_ascii_lowercase();
            if let Ok(hour) = text.parse::<f32>() {
                crate::setting::limit::Limit::new(key, 0.0, TimeOfDay::LAST_HOUR.into())
                    .check(hour.into(), text)?;
                return Ok(Val::Time(TimeOfDay::Hour(hour).quantized()));
            }
            TimeOfDay::NAMED
                .into_iter()
                .find(|&t| plain(&time_name(t)) == plain(text))
                .map(Val::Time)
                .ok_or_else(|| {
                    let names: Vec<String> = TimeOfDay::NAMED.into_iter().map(time_name).collect();
                    bad(&format!(
                        "a time of day: {}, or an hour from 0 to 24",
                        names.join(", ")
                    ))
                })
        }
        Shape::Rule => text
            .parse::<Rule>()
            .map(Val::Rule)
            .map_err(|e| fail(key, e.to_string())),
        Shape::Topology => match text.to_ascii_lowercase().as_str() {
            "torus" => Ok(Val::Topology(Topology::Torus)),
            "bounded" => Ok(Val::Topology(Topology::Bounded)),
            _ => Err(bad("Torus or Bounded")),
        },
    }
}

/// Whether `text` is a whole number: digits, a sign before them or not
/// (of any length: `18446744073709551616` is one, too large for most
/// settings).
fn is_whole(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A colour: `#rrggbb` (or `rrggbb`), `R,G,B` or `(R,G,B)`.
fn parse_rgb(text: &str) -> Option<Rgb> {
    let text = text.trim();
    let hex = text.strip_prefix('#').unwrap_or(text);
    if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        let n = u32::from_str_radix(hex, 16).ok()?;
        return Some(Rgb((n >> 16) as u8, (n >> 8) as u8, n as u8));
    }
    let parts: Vec<u8> = rgb_parts(text)?
        .iter()
        .map(|p| p.parse::<u8>().ok())
        .collect::<Option<_>>()?;
    match parts[..] {
        [r, g, b] => Some(Rgb(r, g, b)),
        _ => None,
    }
}

/// The parts of `text` written as a colour's `R,G,B` or `(R,G,B)`, of
/// any count: whole numbers between commas. `None` for anything else
/// (`#rrggbb`, a list of colours).
fn rgb_parts(text: &str) -> Option<Vec<&str>> {
    let text = text.trim();
    let inner = text
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(text);
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    parts.iter().all(|p| is_whole(p)).then_some(parts)
}
