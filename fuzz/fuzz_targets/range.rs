//! Ranges, `A..B` and `A..=B` (`--seeds`, `--rolls`, `--frames`) and the
//! sweeps of `--set`, `A..B:N` and `A..=B:N`: any text is refused with a
//! one-line message ending in the rule, or read as the rule says. A range
//! of whole numbers holds its start and counts up, B left out by `..` and
//! kept by `..=`, the same for every integer type it fits; a sweep has N
//! values, counting up from A, none past B, and B only with `..=`. The
//! first byte picks the sweep's setting: the seed, a whole number, two
//! fractional ones.
#![no_main]


use libfuzzer_sys::fuzz_target;
use playa::base::range::{self, Ends, Problem, RULE};
use playa::setting::round_to;
use playa::explore::tweak::Tweak;

/// The settings swept: key, whole number or not, and a fraction's
/// precision (steps per unit), as `Scene::SETTINGS` declares them.
const SWEPT: [(&str, Option<u32>); 4] = [
    ("seed", None),
    ("automaton.generations", None),
    ("automaton.density", Some(1000)),
    ("aspect", Some(2520)),
];

/// What `range::whole` must give, worked out on its own in u64.
fn model<T: std::str::FromStr + Into<u64>>(text: &str) -> Result<(u64, u64), Problem> {
    let ends = range::split(text)?;
    let number = |s: &str| {
        s.parse::<T>()
            .map(Into::into)
            .map_err(|_| Problem::NotANumber(s.to_string()))
    };
    let (s, e) = (number(ends.start)?, number(ends.end)?);
    match (ends.inclusive, e.cmp(&s)) {
        (true, std::cmp::Ordering::Less) if e + 1 == s => Err(Problem::Empty),
        (_, std::cmp::Ordering::Less) => Err(Problem::Reversed),
        (false, std::cmp::Ordering::Equal) => Err(Problem::Empty),
        (true, _) => Ok((s, e)),
        (false, _) => Ok((s, e - 1)),
    }
}

fn whole<T>(text: &str) -> Result<(u64, u64), Problem>
where
    T: std::str::FromStr + Copy + Into<u64> + TryFrom<u64>,
{
    let got = range::whole::<T>(text).map(|(a, b)| (a.into(), b.into()));
    assert_eq!(
        got,
        model::<T>(text),
        "{text:?} as {}",
        std::any::type_name::<T>()
    );
    if let Ok((a, b)) = got {
        assert!(a <= b, "{text:?} reads as {a}..={b}");
    }
    got
}

fn check_message(problem: &Problem, text: &str) {
    let m = problem.message("--seeds", text);
    assert!(
        !m.contains(['\n', '\r']),
        "a message of more than one line: {m:?}"
    );
    assert!(m.starts_with("--seeds "), "{m:?}");
    assert!(m.ends_with(&format!("({RULE})")), "{m:?}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };

    match range::split(text) {
        Ok(ends) => {
            let Ends {
                start,
                end,
                inclusive,
            } = ends;
            assert!(text.contains(".."));
            assert!(!start.is_empty() && !end.is_empty(), "{ends:?}");
            assert_eq!((start.trim(), end.trim()), (start, end));
            assert!(!start.contains(".."), "{ends:?}");
            // Written again (a blank after `..` or `..=`, so that an end
            // starting with `=` stays one), it splits the same.
            let eq = if inclusive { "=" } else { "" };
            let again = format!("{start} ..{eq} {end}");
            assert_eq!(range::split(&again), Ok(ends), "{again:?}");
        }
        Err(problem) => check_message(&problem, text),
    }

    // The same range read as a smaller type reads the same as a larger one.
    let widths = [
        whole::<u8>(text),
        whole::<u16>(text),
        whole::<u32>(text),
        whole::<u64>(text),
    ];
    for pair in widths.windows(2) {
        if let Ok(narrow) = &pair[0] {
            assert_eq!(pair[1].as_ref(), Ok(narrow), "{text:?}");
        }
    }
    if let Err(problem) = &widths[3] {
        check_message(problem, text);
    }

    // The same text as a sweep, `--set KEY=A..B:N`.
    let (key, per_unit) = SWEPT[pick as usize % SWEPT.len()];
    let set = format!("{key}={text}");
    let tweak = match Tweak::parse(&set) {
        Ok(t) => t,
        Err(e) => {
            let m = e.to_string();
            assert!(
                !m.contains(['\n', '\r']),
                "a message of more than one line: {m:?}"
            );
            return;
        }
    };
    let value = text.trim();
    if !value.contains("..") {
        return;
    }
    assert!(tweak.is_sweep(), "{set:?} is no sweep");
    let (range_text, count) = value.rsplit_once(':').expect("a sweep has :N");
    let n: usize = count.trim().parse().expect("N is a number");
    assert_eq!(tweak.len(), n, "{set:?}");
    let ends = range::split(range_text).expect("a sweep's range splits");
    // Its ends and values as f64: exact for every whole number up to 2^53,
    // and past that only compared when they differ by more than rounding.
    let read = |s: &str| -> f64 {
        match per_unit {
            None => s.parse::<i128>().expect("a whole number") as f64,
            Some(p) => f64::from(round_to(s.parse::<f32>().expect("a number"), p)),
        }
    };
    let (a, b) = (read(ends.start), read(ends.end));
    let values: Vec<f64> = (0..n).map(|i| read(&tweak.value_text(i))).collect();
    let exact = per_unit.is_some() || b < 9.0e15;
    if exact {
        assert_eq!(values[0], a, "{set:?}: the first value is not A");
    }
    for w in values.windows(2) {
        assert!(
            w[0] < w[1] || !exact,
            "{set:?}: {values:?} does not count up"
        );
    }
    let last = values[n - 1];
    if ends.inclusive {
        if exact {
            assert_eq!(last, b, "{set:?}: the last value is not B");
        }
    } else {
        // A value rounded to a whole number, or to the setting's precision,
        // never lands on B (`seed=0..1:2` is refused).
        assert!(
            last < b || !exact,
            "{set:?}: {values:?} holds B, which A..B leaves out"
        );
    }
    assert!(last <= b, "{set:?}: {values:?} goes past B");
});
