//! Life-like rules in B/S notation.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// A Life-like (outer-totalistic, two-state, Moore neighbourhood) rule.
///
/// Bit `k` of `birth` is set when a dead cell with `k` live neighbours is born;
/// bit `k` of `survive` when a live cell with `k` live neighbours stays alive.
/// Rules with birth on 0 neighbours (`B0…`) are refused: on an infinite plane
/// they flash the whole background, which no rock field wants.
///
/// Default: Conway's Life, `B3/S23`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    birth: u16,
    survive: u16,
}

impl Default for Rule {
    fn default() -> Self {
        Rule::CONWAY
    }
}

impl Rule {
    /// Conway's Game of Life, `B3/S23`.
    pub const CONWAY: Rule = Rule {
        birth: 1 << 3,
        survive: (1 << 2) | (1 << 3),
    };

    /// A rule from neighbour-count masks (bit `k` = `k` neighbours, `k` in 0..=8).
    pub fn from_masks(birth: u16, survive: u16) -> Result<Rule> {
        let rule = Rule { birth, survive };
        if (birth | survive) >> 9 != 0 {
            return Err(Error::Rule {
                rule: rule.to_string(),
                reason: "neighbour counts go from 0 to 8".into(),
            });
        }
        if birth & 1 != 0 {
            return Err(Error::Rule {
                rule: rule.to_string(),
                reason: "rules with birth on 0 neighbours (B0) are not supported".into(),
            });
        }
        Ok(rule)
    }

    /// Birth mask: bit `k` set when `k` neighbours give birth.
    pub fn birth(&self) -> u16 {
        self.birth
    }

    /// Survival mask: bit `k` set when a live cell with `k` neighbours survives.
    pub fn survive(&self) -> u16 {
        self.survive
    }

    /// Whether a cell in state `alive` with `neighbours` live neighbours is alive next.
    pub fn next_state(&self, alive: bool, neighbours: u32) -> bool {
        let mask = if alive { self.survive } else { self.birth };
        neighbours <= 8 && (mask >> neighbours) & 1 == 1
    }
}

/// Parses the digits of one half of a rule into a count mask.
fn digits(rule: &str, part: &str, letter: &str) -> Result<u16> {
    let mut mask = 0u16;
    for c in part.chars() {
        let k = match c.to_digit(10) {
            Some(k) if k <= 8 => k,
            _ => {
                return Err(Error::Rule {
                    rule: rule.into(),
                    reason: format!("{letter}: {c:?} is not a neighbour count (0-8)"),
                });
            }
        };
        if mask & (1 << k) != 0 {
            return Err(Error::Rule {
                rule: rule.into(),
                reason: format!("{letter}: {k} is given twice"),
            });
        }
        mask |= 1 << k;
    }
    Ok(mask)
}

impl FromStr for Rule {
    type Err = Error;

    /// Accepts `B3/S23` (any case, either order), and Golly's `S/B` form `23/3`.
    fn from_str(text: &str) -> Result<Rule> {
        let trimmed = text.trim();
        let bad = |reason: String| Error::Rule {
            rule: text.into(),
            reason,
        };
        let halves: Vec<&str> = trimmed.split('/').collect();
        if halves.len() != 2 {
            return Err(bad(
                "expected two parts separated by '/', as in B3/S23 or 23/3".into(),
            ));
        }
        let (mut birth, mut survive) = (None, None);
        let lettered = halves
            .iter()
            .any(|h| h.starts_with(|c: char| c.is_ascii_alphabetic()));
        if lettered {
            for half in &halves {
                let mut chars = half.chars();
                let (slot, letter) = match chars.next().map(|c| c.to_ascii_uppercase()) {
                    Some('B') => (&mut birth, "B"),
                    Some('S') => (&mut survive, "S"),
                    _ => {
                        // The whole rule is quoted before the reason: the
                        // part's first character says which part.
                        let found = match half.chars().next() {
                            Some(c) => format!("a part starts with {c:?}"),
                            None => "a part is empty".into(),
                        };
                        return Err(bad(format!(
                            "{found}: each must start with B (birth) or S (survival)"
                        )));
                    }
                };
                if slot.is_some() {
                    return Err(bad(format!("{letter} is given twice")));
                }
                *slot = Some(digits(text, chars.as_str(), letter)?);
            }
        } else {
            survive = Some(digits(text, halves[0], "S")?);
            birth = Some(digits(text, halves[1], "B")?);
        }
        let (birth, survive) = (birth.unwrap_or(0), survive.unwrap_or(0));
        if birth & 1 != 0 {
            return Err(bad(
                "B0 (birth with no neighbours) is not supported: it flashes the whole background"
                    .into(),
            ));
        }
        Ok(Rule { birth, survive })
    }
}

impl fmt::Display for Rule {
    /// The canonical form, `B3/S23`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("B")?;
        for k in 0..=8 {
            if self.birth >> k & 1 == 1 {
                write!(f, "{k}")?;
            }
        }
        f.write_str("/S")?;
        for k in 0..=8 {
            if self.survive >> k & 1 == 1 {
                write!(f, "{k}")?;
            }
        }
        Ok(())
    }
}

impl serde::Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Rule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Rule, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_of_conway_agree() {
        for text in ["B3/S23", "b3/s23", "23/3", "S23/B3", " B3/S32 "] {
            assert_eq!(text.parse::<Rule>().unwrap(), Rule::CONWAY, "{text}");
        }
        assert_eq!(Rule::CONWAY.to_string(), "B3/S23");
    }

    #[test]
    fn other_rules_round_trip() {
        for text in ["B36/S23", "B3678/S34678", "B2/S", "B/S012345678"] {
            let rule: Rule = text.parse().unwrap();
            assert_eq!(rule.to_string(), text);
        }
        let seeds: Rule = "B2/S".parse().unwrap();
        assert_eq!((seeds.birth(), seeds.survive()), (0b100, 0));
    }

    #[test]
    fn bad_rules_name_the_part() {
        let cases = [
            ("B39/S23", "'9'"),
            ("B3/X23", "'X'"),
            ("B3", "two parts"),
            ("B3/S2/S3", "two parts"),
            ("B03/S23", "B0"),
            ("B33/S23", "twice"),
            ("B3/B3", "twice"),
            ("", "two parts"),
        ];
        for (text, needle) in cases {
            let err = text.parse::<Rule>().unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
