//! Ranges as the command line writes them, with one rule everywhere, Rust's:
//! `A..B` is A to B−1 (B left out), `A..=B` is A to B (B included). Every
//! range playa reads goes through [`split`]: `--seeds` and `--rolls`
//! ([`whole`]), `--frames`, and the `A..B:N` sweeps of `--set`
//! ([`crate::explore::tweak`]). A range must count up and hold something: an empty
//! one (`5..5`, `5..=4`), a reversed one (`8..2`) or one without an end
//! (`3..`, `..3`) is refused, and every message ends with [`RULE`].

use crate::error::quote;

/// The rule, as every message about a range says it.
pub const RULE: &str = "A..B leaves B out; A..=B includes it";

/// The two ends of a range as written, not yet read as numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends<'a> {
    /// The text before `..` (trimmed).
    pub start: &'a str,
    /// The text after `..` or `..=` (trimmed).
    pub end: &'a str,
    /// Whether it was `..=`: the end is included.
    pub inclusive: bool,
}

/// What is wrong with a range; [`Problem::message`] says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// No `..` in it.
    NotARange,
    /// Nothing before `..`.
    NoStart,
    /// Nothing after `..` or `..=`.
    NoEnd,
    /// An end that is not a whole number: the end as written.
    NotANumber(String),
    /// Nothing in it: `5..5`, `5..=4`.
    Empty,
    /// Its end comes before its start: `8..2`.
    Reversed,
}

impl Problem {
    /// One line naming `what` (the flag: `--seeds`) and the range `text`
    /// as written, saying what is wrong and the rule:
    /// `--seeds "8..2" is reversed: …`, `--seeds "x..3": "x" is not a whole
    /// number (…)`.
    pub fn message(&self, what: &str, text: &str) -> String {
        let problem = match self {
            Problem::NotARange => " must be a range, A..B or A..=B".to_string(),
            Problem::NoStart => " has no start".to_string(),
            Problem::NoEnd => " has no end".to_string(),
            Problem::NotANumber(part) => format!(": {} is not a whole number", quote(part)),
            Problem::Empty => " is empty".to_string(),
            Problem::Reversed => " is reversed: its end comes before its start".to_string(),
        };
        format!("{what} {}{problem} ({RULE})", quote(text))
    }
}

/// The ends of `A..B` or `A..=B` as written (each trimmed).
pub fn split(text: &str) -> Result<Ends<'_>, Problem> {
    let (start, end, inclusive) = match text.split_once("..") {
        Some((start, end)) => match end.strip_prefix('=') {
            Some(end) => (start, end, true),
            None => (start, end, false),
        },
        None => return Err(Problem::NotARange),
    };
    let (start, end) = (start.trim(), end.trim());
    if start.is_empty() {
        return Err(Problem::NoStart);
    }
    if end.is_empty() {
        return Err(Problem::NoEnd);
    }
    Ok(Ends {
        start,
        end,
        inclusive,
    })
}

impl Ends<'_> {
    /// Checks that the range from `start` to `end` (its ends read as
    /// numbers) holds something and counts up: `A..A` is empty, `A..B` or
    /// `A..=B` with B before A reversed. (`A..=A` holds A.)
    pub fn check_order<T: PartialOrd>(&self, start: T, end: T) -> Result<(), Problem> {
        if end < start {
            Err(Problem::Reversed)
        } else if end == start && !self.inclusive {
            Err(Problem::Empty)
        } else {
            Ok(())
        }
    }
}

/// A range of whole numbers, `A..B` or `A..=B`, as its first and last
/// number (both included). `5..=4`, whose end is just before its start, is
/// empty rather than reversed.
pub fn whole<T>(text: &str) -> Result<(T, T), Problem>
where
    T: std::str::FromStr + Copy + Into<u64> + TryFrom<u64>,
{
    let ends = split(text)?;
    let number = |s: &str| {
        s.parse::<T>()
            .map_err(|_| Problem::NotANumber(s.to_string()))
    };
    let (start, end) = (number(ends.start)?, number(ends.end)?);
    let (a, b): (u64, u64) = (start.into(), end.into());
    if ends.inclusive && b.checked_add(1) == Some(a) {
        return Err(Problem::Empty);
    }
    ends.check_order(a, b)?;
    if ends.inclusive {
        return Ok((start, end));
    }
    // `a < b`, so `b - 1` is at least `a`, and of T.
    let last = T::try_from(b - 1).unwrap_or(end);
    Ok((start, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dot_dot_b_leaves_b_out_and_dot_dot_equals_includes_it() {
        assert_eq!(whole::<u64>("3..6"), Ok((3, 5)));
        assert_eq!(whole::<u64>("3..=6"), Ok((3, 6)));
        assert_eq!(whole::<u64>("4..=4"), Ok((4, 4)));
        assert_eq!(whole::<u32>(" 0 .. 24 "), Ok((0, 23)));
        assert_eq!(whole::<u64>("0..=18446744073709551615"), Ok((0, u64::MAX)));
        assert_eq!(
            whole::<u64>("0..18446744073709551615"),
            Ok((0, u64::MAX - 1))
        );
    }

    #[test]
    fn empty_reversed_and_half_ranges_are_refused() {
        use Problem::*;
        for (text, problem) in [
            ("5..5", Empty),
            ("0..0", Empty),
            ("5..=4", Empty),
            ("8..2", Reversed),
            ("8..=2", Reversed),
            ("3..", NoEnd),
            ("3..=", NoEnd),
            ("..3", NoStart),
            ("..", NoStart),
            ("7", NotARange),
            ("", NotARange),
            ("x..3", NotANumber("x".into())),
            ("-1..3", NotANumber("-1".into())),
            ("1...3", NotANumber(".3".into())),
            ("0..5000000000", NotANumber("5000000000".into())),
        ] {
            let got = if text.contains("5000000000") {
                whole::<u32>(text).map(|_| ())
            } else {
                whole::<u64>(text).map(|_| ())
            };
            assert_eq!(got, Err(problem), "{text}");
        }
    }

    #[test]
    fn messages_name_the_flag_the_text_and_the_rule() {
        assert_eq!(
            Problem::Reversed.message("--seeds", "8..2"),
            "--seeds \"8..2\" is reversed: its end comes before its start \
             (A..B leaves B out; A..=B includes it)"
        );
        assert_eq!(
            Problem::Empty.message("--frames", "5..5"),
            "--frames \"5..5\" is empty (A..B leaves B out; A..=B includes it)"
        );
    }
}
