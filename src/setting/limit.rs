//! Documented ranges of numbers, and the checks that enforce them: every
//! number read from a scene (RON, share code, PNG recipe) or built in code is
//! held against its [`Limit`], and a value outside it is one clear error
//! naming the setting, the value and the range.

use crate::error::{Error, Result};

/// A documented range for a number in a scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit<'a> {
    /// The name of the quantity, as in the RON (`"automaton.density"`).
    pub what: &'a str,
    /// Smallest accepted value.
    pub min: f64,
    /// Largest accepted value.
    pub max: f64,
}

impl<'a> Limit<'a> {
    /// A limit named `what` from `min` to `max`, both included.
    pub const fn new(what: &'a str, min: f64, max: f64) -> Limit<'a> {
        Limit { what, min, max }
    }

    /// Checks `value` (shown as `shown`); NaN is always out of range. The
    /// ends are compared as `f32`, the type of the settings, so that `0.3`
    /// written in a scene passes a limit of 0.3 (as an `f32` it is a hair
    /// above the `f64` 0.3).
    pub fn check(&self, value: f64, shown: impl ToString) -> Result<()> {
        let (min, max) = (f64::from(self.min as f32), f64::from(self.max as f32));
        if value.is_nan() || value < min || value > max {
            Err(Error::out_of_range(
                self.what,
                shown,
                format!(
                    "must be a number from {} to {}",
                    number_text(self.min),
                    number_text(self.max)
                ),
            ))
        } else {
            Ok(())
        }
    }
}

/// A limit's end as a person writes it. Most ends are `f32` settings
/// widened to `f64`, whose own digits are noise (`0.1f32` is
/// 0.10000000149011612 as an `f64`): such an end is written as the `f32`'s
/// shortest text (`0.1`). An end that is no `f32`, or whose `f32` text is
/// no shorter (2⁶⁴), keeps its `f64` text.
pub fn number_text(x: f64) -> String {
    let wide = x.to_string();
    let narrow = x as f32;
    if f64::from(narrow) == x && narrow.to_string().len() < wide.len() {
        narrow.to_string()
    } else {
        wide
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_are_written_as_a_person_writes_them() {
        let l = Limit::new("fps", f64::from(0.1f32), f64::from(100.0f32));
        let err = l.check(0.0, 0).unwrap_err().to_string();
        assert_eq!(
            err,
            "fps 0 is out of range: must be a number from 0.1 to 100"
        );
        for (x, text) in [
            (f64::from(0.0005f32), "0.0005"),
            (f64::from(0.3f32), "0.3"),
            (0.3, "0.3"),
            (-2.5, "-2.5"),
            (2048.0, "2048"),
            (u64::MAX as f64, "18446744073709552000"),
            (1e-7, "0.0000001"),
        ] {
            assert_eq!(number_text(x), text);
        }
    }

    #[test]
    fn ends_are_included_and_nan_is_refused() {
        let l = Limit::new("x", 0.0, 0.3);
        assert!(l.check(0.0, 0).is_ok());
        assert!(l.check(f64::from(0.3f32), 0.3).is_ok());
        assert!(l.check(-0.001, -0.001).is_err());
        let err = l.check(f64::NAN, "NaN").unwrap_err().to_string();
        assert!(err.contains("x NaN is out of range"), "{err}");
        assert!(err.contains("from 0 to 0.3"), "{err}");
    }
}
