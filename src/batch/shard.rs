//! Shards: one machine's share of a batch, for the job arrays clusters
//! already run (Kubernetes Indexed Jobs, Slurm arrays, AWS Batch arrays).
//!
//! A batch of `N` shards gives each job to exactly one shard by a stable hash
//! of the job's key ([`Shard::owns`]): the key's SHA-256, then Lamping and
//! Veach's jump consistent hash onto `N` buckets. The assignment depends
//! only on the key and `N`, so adding seeds to a batch moves no job already
//! assigned, and growing `N` to `N + 1` moves only about `1/(N + 1)` of them.

use std::fmt;

use sha2::{Digest, Sha256};

use crate::error::{Error, Result, quote};

/// Most shards a batch may be split into.
pub const MAX_SHARDS: u32 = 100_000;

/// The environment variable that gives the shard count where the scheduler
/// gives none (Kubernetes, AWS Batch); `--shards` wins over it.
pub const SHARDS_VAR: &str = "PLAYA_SHARDS";

/// One shard of a batch: `index` of `count`, 1-based as written (`2/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// The whole batch as one shard, `1/1`.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` (1-based) of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard> {
        if count == 0 || count > MAX_SHARDS {
            return Err(Error::Shard(format!(
                "the shard count {count} must be 1 to {MAX_SHARDS}"
            )));
        }
        if index == 0 || index > count {
            return Err(Error::Shard(format!(
                "shard {index}/{count}: the index must be 1 to {count}"
            )));
        }
        Ok(Shard { index, count })
    }

    /// The 1-based index.
    pub fn index(self) -> u32 {
        self.index
    }

    /// The number of shards.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether this is the whole batch (`1/1`).
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// Parses `I/N` (1-based, as Playwright's `--shard`).
    pub fn parse(text: &str) -> Result<Shard> {
        let bad = || {
            Error::Shard(format!(
                "shard {} must be I/N (e.g. 2/4, 1-based) or auto",
                quote(text)
            ))
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n) = (
            i.trim().parse::<u32>().map_err(|_| bad())?,
            n.trim().parse::<u32>().map_err(|_| bad())?,
        );
        Shard::new(i, n)
    }

    /// The shard the scheduler running this process gave it, read through
    /// `var` (the process environment, or a map in tests):
    ///
    /// - Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based);
    /// - Slurm array: `SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`
    ///   (divided by `SLURM_ARRAY_TASK_STEP` when set), of
    ///   `SLURM_ARRAY_TASK_COUNT`;
    /// - AWS Batch array job: `AWS_BATCH_JOB_ARRAY_INDEX` (0-based).
    ///
    /// `count` (`--shards`), else [`SHARDS_VAR`], gives the count where the
    /// scheduler does not, and must agree with Slurm's where it does. No
    /// scheduler's variables, two schedulers', or values that contradict
    /// each other are an error saying which.
    pub fn from_env(count: Option<u32>, var: impl Fn(&str) -> Option<String>) -> Result<Shard> {
        let get = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let number = |name: &str| -> Result<Option<u64>> {
            get(name)
                .map(|v| {
                    v.trim().parse::<u64>().map_err(|_| {
                        Error::Shard(format!("{name}={} is not a whole number", quote(&v)))
                    })
                })
                .transpose()
        };
        let count = match count {
            Some(n) => Some((u64::from(n), "--shards")),
            None => number(SHARDS_VAR)?.map(|n| (n, SHARDS_VAR)),
        };
        let schedulers: Vec<&str> = [
            "JOB_COMPLETION_INDEX",
            "SLURM_ARRAY_TASK_ID",
            "AWS_BATCH_JOB_ARRAY_INDEX",
        ]
        .into_iter()
        .filter(|v| get(v).is_some())
        .collect();
        let (index, total) = match schedulers[..] {
            [] => {
                return Err(Error::Shard(
                    "--shard auto: no scheduler's index in the environment \
                     (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX)"
                        .into(),
                ));
            }
            ["SLURM_ARRAY_TASK_ID"] => {
                let id = number("SLURM_ARRAY_TASK_ID")?.expect("present");
                let need = |name: &str| {
                    number(name)?.ok_or_else(|| {
                        Error::Shard(format!(
                            "--shard auto: SLURM_ARRAY_TASK_ID is set but {name} is not"
                        ))
                    })
                };
                let min = need("SLURM_ARRAY_TASK_MIN")?;
                let slurm_count = need("SLURM_ARRAY_TASK_COUNT")?;
                let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
                let offset = id.checked_sub(min).ok_or_else(|| {
                    Error::Shard(format!(
                        "--shard auto: SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}"
                    ))
                })?;
                if offset % step != 0 {
                    return Err(Error::Shard(format!(
                        "--shard auto: SLURM_ARRAY_TASK_ID {id} is not on the array's step \
                         {step} from {min}"
                    )));
                }
                if let Some((n, from)) = count
                    && n != slurm_count
                {
                    return Err(Error::Shard(format!(
                        "--shard auto: {from} says {n} shards but SLURM_ARRAY_TASK_COUNT \
                         says {slurm_count}"
                    )));
                }
                (offset / step, (slurm_count, "SLURM_ARRAY_TASK_COUNT"))
            }
            [name] => {
                let index = number(name)?.expect("present");
                let total = count.ok_or_else(|| {
                    Error::Shard(format!(
                        "--shard auto: {name} gives the index but not the count: \
                         give --shards N or set {SHARDS_VAR}"
                    ))
                })?;
                (index, total)
            }
            _ => {
                return Err(Error::Shard(format!(
                    "--shard auto: more than one scheduler's index is set ({}): \
                     give --shard I/N",
                    schedulers.join(", ")
                )));
            }
        };
        let (total, from) = total;
        if index >= total {
            return Err(Error::Shard(format!(
                "--shard auto: index {index} (0-based) is not below the count {total} ({from})"
            )));
        }
        let total = u32::try_from(total).unwrap_or(u32::MAX);
        Shard::new(index as u32 + 1, total)
    }

    /// Whether the job with `key` is this shard's.
    pub fn owns(self, key: &str) -> bool {
        bucket(key, self.count) == self.index - 1
    }

    /// The file name of this shard's manifest: `playa-manifest-I-of-N.jsonl`,
    /// or `playa-manifest.jsonl` for the whole batch.
    pub fn manifest_name(self) -> String {
        if self.is_whole() {
            "playa-manifest.jsonl".to_string()
        } else {
            format!("playa-manifest-{}-of-{}.jsonl", self.index, self.count)
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The 0-based shard of `count` that the job `key` falls in.
pub fn bucket(key: &str, count: u32) -> u32 {
    let digest = Sha256::digest(key.as_bytes());
    let hash = u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"));
    jump(hash, count)
}

/// Lamping and Veach's jump consistent hash ("A Fast, Minimal Memory,
/// Consistent Hash Algorithm", 2014): `key` onto `0..buckets`.
fn jump(mut key: u64, buckets: u32) -> u32 {
    let (mut b, mut j) = (-1i64, 0i64);
    while j < i64::from(buckets) {
        b = j;
        key = key.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(1);
        j = ((b + 1) as f64 * ((1u64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
    }
    b as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn parses_one_based_shards() {
        assert_eq!(Shard::parse("2/4").unwrap(), Shard::new(2, 4).unwrap());
        assert_eq!(Shard::parse("1/1").unwrap(), Shard::WHOLE);
        for bad in ["0/4", "5/4", "1/0", "x/2", "2", "1/2/3", "-1/2", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Shard::new(3, 8).unwrap().to_string(), "3/8");
        assert_eq!(Shard::WHOLE.manifest_name(), "playa-manifest.jsonl");
        assert_eq!(
            Shard::new(3, 8).unwrap().manifest_name(),
            "playa-manifest-3-of-8.jsonl"
        );
    }

    #[test]
    fn every_job_has_exactly_one_shard() {
        for n in [1, 2, 3, 4, 7, 16] {
            let shards: Vec<Shard> = (1..=n).map(|i| Shard::new(i, n).unwrap()).collect();
            let mut sizes = vec![0; n as usize];
            for seed in 0..2000 {
                let key = format!("death-valley-{seed}");
                let owners: Vec<_> = shards.iter().filter(|s| s.owns(&key)).collect();
                assert_eq!(owners.len(), 1, "{key} of {n}");
                sizes[owners[0].index as usize - 1] += 1;
            }
            // Roughly even: within 25% of the mean.
            let mean = 2000 / n as i32;
            for s in sizes {
                assert!((s - mean).abs() <= mean / 4 + 5, "{n}: {s} vs {mean}");
            }
        }
    }

    #[test]
    fn assignment_is_stable() {
        // Pinned: the assignment is part of what a batch's manifests record.
        let got: Vec<u32> = (0..12)
            .map(|s| bucket(&format!("death-valley-{s}"), 4))
            .collect();
        assert_eq!(got, PINNED);
        // One more shard moves about 1/(n+1) of the jobs, and only to it.
        let moved = (0..4000)
            .map(|s| format!("k{s}"))
            .filter(|k| bucket(k, 4) != bucket(k, 5))
            .inspect(|k| assert_eq!(bucket(k, 5), 4))
            .count();
        assert!((600..1000).contains(&moved), "{moved}");
    }
    const PINNED: [u32; 12] = [0, 0, 2, 1, 1, 1, 0, 3, 2, 2, 2, 3];

    #[test]
    fn kubernetes_needs_a_count() {
        let e = env(&[("JOB_COMPLETION_INDEX", "2")]);
        let err = Shard::from_env(None, &e).unwrap_err().to_string();
        assert!(
            err.contains("--shards") && err.contains(SHARDS_VAR),
            "{err}"
        );
        assert_eq!(Shard::from_env(Some(4), &e).unwrap().to_string(), "3/4");
        let e = env(&[("JOB_COMPLETION_INDEX", "3"), (SHARDS_VAR, "4")]);
        assert_eq!(Shard::from_env(None, &e).unwrap().to_string(), "4/4");
        // --shards wins over the variable.
        assert_eq!(Shard::from_env(Some(8), &e).unwrap().to_string(), "4/8");
        let e = env(&[("JOB_COMPLETION_INDEX", "4"), (SHARDS_VAR, "4")]);
        assert!(Shard::from_env(None, &e).is_err());
    }

    #[test]
    fn slurm_arrays() {
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ]);
        assert_eq!(Shard::from_env(None, &e).unwrap().to_string(), "5/8");
        assert_eq!(Shard::from_env(Some(8), &e).unwrap().to_string(), "5/8");
        let err = Shard::from_env(Some(4), &e).unwrap_err().to_string();
        assert!(err.contains("SLURM_ARRAY_TASK_COUNT"), "{err}");
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(Shard::from_env(None, &e).unwrap().to_string(), "3/4");
        let e = env(&[("SLURM_ARRAY_TASK_ID", "3")]);
        let err = Shard::from_env(None, &e).unwrap_err().to_string();
        assert!(err.contains("SLURM_ARRAY_TASK_MIN"), "{err}");
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert!(Shard::from_env(None, &e).is_err());
    }

    #[test]
    fn aws_batch_and_contradictions() {
        let e = env(&[("AWS_BATCH_JOB_ARRAY_INDEX", "0"), (SHARDS_VAR, "3")]);
        assert_eq!(Shard::from_env(None, &e).unwrap().to_string(), "1/3");
        let err = Shard::from_env(None, env(&[])).unwrap_err().to_string();
        assert!(err.contains("JOB_COMPLETION_INDEX"), "{err}");
        let e = env(&[
            ("AWS_BATCH_JOB_ARRAY_INDEX", "0"),
            ("JOB_COMPLETION_INDEX", "0"),
        ]);
        let err = Shard::from_env(Some(2), &e).unwrap_err().to_string();
        assert!(err.contains("more than one"), "{err}");
        let e = env(&[("JOB_COMPLETION_INDEX", "two")]);
        let err = Shard::from_env(Some(2), &e).unwrap_err().to_string();
        assert!(err.contains("JOB_COMPLETION_INDEX=\"two\""), "{err}");
        // Empty variables count as absent.
        let e = env(&[("JOB_COMPLETION_INDEX", "")]);
        assert!(Shard::from_env(Some(2), &e).is_err());
    }
}
