//! A batch: every input × every seed, as the jobs that render it.
//!
//! A job is known by its key, the stem of the file it writes
//! (`death-valley-7`): the key names the job in the manifests
//! ([`crate::batch::manifest`]) and decides its shard ([`crate::batch::shard`]). The
//! batch's [`BatchRecord`] is what a manifest's first line holds, and from it
//! alone the keys of every job can be listed again, without the inputs.

pub mod frames;
pub mod manifest;
pub mod shard;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::compose;
use crate::compose::window::Window;
use crate::error::{Error, Result, clip};
use crate::output::picture::Compression;
use crate::scene::Scene;

/// Most jobs a batch may have: `playa render` refuses more, and a
/// manifest whose header records more is refused before its jobs are
/// listed.
pub const MAX_JOBS: u64 = 100_000;

/// Default picture width; the height follows the scene's aspect ratio.
pub const DEFAULT_WIDTH: u32 = 1920;

/// One loaded input of a batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// The input as given, for messages and the manifest.
    pub input: String,
    /// The name its pictures are filed under (`{name}-{seed}.png`).
    pub name: String,
    /// Its scene, with the scene's own seed.
    pub scene: Scene,
    /// A picture input's own size; `None` for the other kinds.
    pub size: Option<(u32, u32)>,
    /// The part of the scene's picture a picture input shows, when it was
    /// cut from a larger one ([`crate::compose::window`]).
    pub window: Option<Window>,
    /// The compression a picture input records: its pictures are made with
    /// it when the batch names none. `None` for the other kinds (and a
    /// picture of an older playa).
    pub compression: Option<Compression>,
    /// The animation a picture input is a frame of, when its scene is the
    /// picture's own (no `--set` changed it): its own picture keeps the
    /// frame's chunk ([`Job::frame_of`]).
    pub frame_of: Option<String>,
}

/// Every input × every seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// The inputs, in the order given.
    pub inputs: Vec<Input>,
    /// The seeds, first and last included; `None`: each scene's own seed.
    pub seeds: Option<(u64, u64)>,
    /// The picture size; `None`: a picture input's own size, else
    /// [`DEFAULT_WIDTH`] wide at the scene's aspect.
    pub size: Option<(u32, u32)>,
    /// The PNG compression asked for; `None` (the default): each picture
    /// input's own ([`Input::compression`]), so that it is made again to the
    /// same bytes, else [`Compression::Fast`].
    pub compression: Option<Compression>,
    /// Whether a size of another aspect than the scene's is the centred
    /// crop of the scene's picture ([`Window::crop`]) rather than the scene
    /// laid out again at that aspect. A cropped picture input is cropped
    /// again whatever this says. Default: false.
    pub crop: bool,
}

/// One picture to make.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// The job's key, the stem of its file: `{name}-{seed}`.
    pub key: String,
    /// The input as given.
    pub input: String,
    /// The scene, with the job's seed.
    pub scene: Scene,
    /// The picture size.
    pub size: (u32, u32),
    /// The part of the scene's picture at a size of its aspect that the
    /// picture is, when it is cropped.
    pub window: Option<Window>,
    /// The PNG compression.
    pub compression: Compression,
    /// The animation options the picture records as a frame of an
    /// animation ([`crate::animation::ANIMATION_KEY`]): a frame made again
    /// as it is (its seed, size, window and compression) is the same file.
    pub frame_of: Option<String>,
}

impl Job {
    /// The file the job writes, in the batch's directory: `{key}.png`.
    pub fn file_name(&self) -> String {
        format!("{}.png", self.key)
    }
}

impl Batch {
    /// Number of jobs before duplicates are merged: inputs × seeds.
    pub fn count(&self) -> u64 {
        // Counted without wrapping: `0..=18446744073709551615` is 2⁶⁴
        // seeds, more than any limit, not 0.
        self.seeds
            .map_or(1, |(a, b)| (b - a).saturating_add(1))
            .saturating_mul(self.inputs.len() as u64)
    }

    /// The jobs, in input then seed order. The same scene given twice is
    /// one job; two different scenes with one key (two share codes with the
    /// same seed, say) are an error naming both, since they would write one
    /// file.
    pub fn jobs(&self) -> Result<Vec<Job>> {
        let mut jobs: Vec<Job> = Vec::new();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        for input in &self.inputs {
            let seeds = match self.seeds {
                Some((a, b)) => a..=b,
                None => input.scene.seed..=input.scene.seed,
            };
            for seed in seeds {
                let mut scene = input.scene.clone();
                scene.seed = seed;
                let size = self
                    .size
                    .or(input.size)
                    .unwrap_or_else(|| compose::size_for_width(&scene, DEFAULT_WIDTH));
                // A cropped picture's own size keeps its own window; at
                // another size it is cropped the same way.
                let window = match (input.window, self.size) {
                    (Some(window), None) => Some(window),
                    (Some(_), Some((w, h))) => Window::crop(scene.aspect, w, h),
                    (None, _) if self.crop => Window::crop(scene.aspect, size.0, size.1),
                    (None, _) => None,
                };
                let compression = self.compression_of(input);
                let key = Scene::file_stem(&input.name, seed);
                if let Some(&first) = by_key.get(&key) {
                    let first: &Job = &jobs[first];
                    if first.scene == scene
                        && first.size == size
                        && first.window == window
                        && first.compression == compression
                    {
                        continue;
                    }
                    return Err(Error::Batch(format!(
                        "{} and {} would both be written to {key}.png: render them \
                         separately, with their own --out",
                        clip(&first.input),
                        clip(&input.input)
                    )));
                }
                by_key.insert(key.clone(), jobs.len());
                let as_it_is = seed == input.scene.seed
                    && input.size == Some(size)
                    && input.window == window
                    && input.compression == Some(compression);
                jobs.push(Job {
                    key,
                    input: input.input.clone(),
                    scene,
                    size,
                    window,
                    compression,
                    frame_of: input.frame_of.clone().filter(|_| as_it_is),
                });
            }
        }
        Ok(jobs)
    }

    /// The compression `input`'s pictures are made with: the batch's, else
    /// the input's own, else [`Compression::Fast`].
    pub fn compression_of(&self, input: &Input) -> Compression {
        self.compression.or(input.compression).unwrap_or_default()
    }

    /// What a manifest records of the batch.
    pub fn record(&self) -> BatchRecord {
        BatchRecord {
            playa: env!("CARGO_PKG_VERSION").to_string(),
            inputs: self
                .inputs
                .iter()
                .map(|i| InputRecord {
                    input: i.input.clone(),
                    name: i.name.clone(),
                    seed: i.scene.seed,
                    code: crate::share::encode(&i.scene),
                    size: i.size.map(|(w, h)| [w, h]),
                    compression: Some(self.compression_of(i))
                        .filter(|&c| c != self.compression.unwrap_or_default())
                        .map(|c| c.name().to_string()),
                })
                .collect(),
            seeds: self.seeds.map(|(a, b)| [a, b]),
            size: self.size.map(|(w, h)| [w, h]),
            compression: self.compression.unwrap_or_default().name().to_string(),
            crop: self.crop,
        }
    }
}

/// A batch as its manifests record it (their first line): enough to list
/// its jobs' keys again ([`BatchRecord::keys`]) and to tell one batch from
/// another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchRecord {
    /// The version of playa that rendered it.
    pub playa: String,
    /// The inputs, in order.
    pub inputs: Vec<InputRecord>,
    /// First and last seed, or `None` for each scene's own.
    pub seeds: Option<[u64; 2]>,
    /// The size asked for, if one was.
    pub size: Option<[u32; 2]>,
    /// The PNG compression's name (`fast`, `default`, `best`): the one asked
    /// for, else `fast`, the pictures' compression but for an input that
    /// records its own ([`InputRecord::compression`]).
    pub compression: String,
    /// Whether a size of another aspect is cropped (`--crop`); written
    /// only when it is, so a batch without it records what it always did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub crop: bool,
}

impl BatchRecord {
    /// How many jobs the record names (inputs × seeds), counted without
    /// wrapping: a forged `[0, 18446744073709551615]` is more than any
    /// batch, not 0.
    pub fn count(&self) -> u64 {
        self.seeds
            .map_or(1, |[a, b]| {
                b.checked_sub(a).map_or(0, |d| d.saturating_add(1))
            })
            .saturating_mul(self.inputs.len() as u64)
    }
}

/// One input as a manifest records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputRecord {
    /// The input as given.
    pub input: String,
    /// The name its pictures are filed under.
    pub name: String,
    /// The scene's own seed.
    pub seed: u64,
    /// The scene's share code (with its own seed).
    pub code: String,
    /// A picture input's own size.
    pub size: Option<[u32; 2]>,
    /// A picture input's own compression, when its pictures are made with
    /// it (no compression asked for) and it is not the batch's; written
    /// only then, so a manifest without it means what it always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compression: Option<String>,
}

impl BatchRecord {
    /// The keys of every job of the batch, once each, in job order.
    pub fn keys(&self) -> Vec<String> {
        debug_assert!(self.count() <= MAX_JOBS, "a batch of {} jobs", self.count());
        let mut seen = std::collections::HashSet::new();
        let mut keys = Vec::new();
        for input in &self.inputs {
            let (a, b) = self.seeds.map_or((input.seed, input.seed), |[a, b]| (a, b));
            for seed in a..=b {
                let key = Scene::file_stem(&input.name, seed);
                if seen.insert(key.clone()) {
                    keys.push(key);
                }
            }
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str, seed: u64) -> Input {
        let mut scene = crate::scene::presets::load(name).unwrap();
        scene.seed = seed;
        Input {
            input: name.to_string(),
            name: name.to_string(),
            scene,
            size: None,
            window: None,
            compression: None,
            frame_of: None,
        }
    }

    #[test]
    fn jobs_are_inputs_times_seeds_and_the_record_lists_their_keys() {
        let batch = Batch {
            inputs: vec![input("salt-flat", 1), input("badlands", 9)],
            seeds: Some((3, 5)),
            size: Some((64, 36)),
            compression: None,
            crop: false,
        };
        let jobs = batch.jobs().unwrap();
        let keys: Vec<&str> = jobs.iter().map(|j| j.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "salt-flat-3",
                "salt-flat-4",
                "salt-flat-5",
                "badlands-3",
                "badlands-4",
                "badlands-5"
            ]
        );
        assert_eq!(batch.record().keys(), keys);
        assert_eq!(jobs[4].scene.seed, 4);
        assert_eq!(jobs[4].file_name(), "badlands-4.png");
        // Round trip through JSON.
        let json = serde_json::to_string(&batch.record()).unwrap();
        let back: BatchRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, batch.record());
    }

    #[test]
    fn own_seeds_duplicates_and_conflicts() {
        let batch = Batch {
            inputs: vec![input("salt-flat", 1), input("salt-flat", 1)],
            seeds: None,
            size: None,
            compression: None,
            crop: false,
        };
        assert_eq!(batch.jobs().unwrap().len(), 1);
        assert_eq!(batch.record().keys(), ["salt-flat-1"]);
        let mut other = input("salt-flat", 1);
        other.scene.horizon = 0.61;
        other.input = "edited.ron".into();
        let batch = Batch {
            inputs: vec![input("salt-flat", 1), other],
            ..batch
        };
        let err = batch.jobs().unwrap_err().to_string();
        assert!(err.contains("salt-flat and edited.ron"), "{err}");
    }

    #[test]
    fn a_picture_input_keeps_its_compression_unless_one_is_asked_for() {
        let mut best = input("salt-flat", 1);
        best.compression = Some(Compression::Best);
        let mut fast = input("badlands", 2);
        fast.compression = Some(Compression::Fast);
        let batch = Batch {
            inputs: vec![best, fast, input("golden-hour", 3)],
            seeds: None,
            size: None,
            compression: None,
            crop: false,
        };
        let made = |batch: &Batch| -> Vec<Compression> {
            batch
                .jobs()
                .unwrap()
                .iter()
                .map(|j| j.compression)
                .collect()
        };
        let recorded = |batch: &Batch| -> Vec<Option<String>> {
            batch
                .record()
                .inputs
                .into_iter()
                .map(|i| i.compression)
                .collect()
        };
        use Compression::{Best, Fast};
        assert_eq!(made(&batch), [Best, Fast, Fast]);
        assert_eq!(recorded(&batch), [Some("best".into()), None, None]);
        assert_eq!(batch.record().compression, "fast");
        // A manifest of before: no input's compression, read as none.
        let json = serde_json::to_string(&batch.record()).unwrap();
        assert!(json.contains(r#""compression":"best""#), "{json}");
        let old = json.replace(r#","compression":"best""#, "");
        let back: BatchRecord = serde_json::from_str(&old).unwrap();
        assert!(back.inputs.iter().all(|i| i.compression.is_none()));

        let asked = Batch {
            compression: Some(Compression::Default),
            ..batch
        };
        assert_eq!(made(&asked), [Compression::Default; 3]);
        assert_eq!(recorded(&asked), [None, None, None]);
        assert_eq!(asked.record().compression, "default");
    }

    #[test]
    fn crops_follow_the_size_and_a_cropped_input_s_window() {
        let square = Window::crop(16.0 / 9.0, 36, 36).unwrap();
        let mut cropped = input("salt-flat", 1);
        cropped.size = Some((36, 36));
        cropped.window = Some(square);
        let batch = Batch {
            inputs: vec![cropped, input("badlands", 2)],
            seeds: None,
            size: None,
            compression: None,
            crop: false,
        };
        let jobs = batch.jobs().unwrap();
        assert_eq!((jobs[0].size, jobs[0].window), ((36, 36), Some(square)));
        assert_eq!(jobs[1].window, None);
        let batch = Batch {
            size: Some((20, 40)),
            crop: true,
            ..batch
        };
        for job in batch.jobs().unwrap() {
            assert_eq!(
                job.window,
                Window::crop(job.scene.aspect, 20, 40),
                "{}",
                job.key
            );
            assert!(job.window.is_some());
        }
    }
}
