//! An animation as a folder of frames, for a job array: each frame a PNG of
//! its own, `frame-{generation}.png`, carrying its recipe (the scene at that
//! frame's generation, and the animation's [`Options`]), so the frames can
//! be made in shards on many machines ([`Animation::write_frames`]) and the
//! folder assembled into the animation's file ([`Frames`]): the same bytes
//! [`Animation::write`] makes on one machine, since a frame's PNG holds
//! exactly the pixels the animation would have drawn for it.

use std::io::Write;
use std::path::{Path, PathBuf};

use image::RgbaImage;

use crate::animation::{ANIMATION_KEY, Animation, Format, Options, Progress};
use crate::batch::manifest::{
    Entry, Found, FramesRecord, Header, OtherBatch, Writer, frame_file_name,
};
use crate::batch::shard::Shard;
use crate::batch::{BatchRecord, InputRecord};
use crate::error::{Error, Result, clip};
use crate::output::picture::Compression;
use crate::scene::Scene;
use crate::source::Source;

/// The generation a frame's file name holds, if it is one.
fn frame_generation(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("frame-")?.strip_suffix(".png")?;
    (digits.len() >= 4 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// What [`Animation::write_frames`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FramesWritten {
    /// Frames this shard owns.
    pub owned: usize,
    /// Of those, the frames made now.
    pub made: usize,
    /// Of those, the frames that were there already, as recorded.
    pub kept: usize,
    /// Of the frames made, those recorded before whose file was gone or
    /// changed.
    pub repaired: usize,
}

/// A frame's file as read back: its generation, scene and options, and
/// its size.
struct FrameFile {
    path: PathBuf,
    generation: u32,
    scene: Scene,
    options: Options,
    size: (u32, u32),
}

impl FrameFile {
    /// Reads the recipe and options of the frame at `path`, named for
    /// generation `generation`.
    fn read(path: &Path, generation: u32) -> Result<FrameFile> {
        let recipe = crate::output::recipe::read_recipe(path)?;
        let not_a_frame = || Error::Png {
            source_name: path.display().to_string(),
            reason: "not a frame of `playa animate --frames-dir`: it has no animation options"
                .into(),
        };
        let options = crate::animation::read_options(&Source::Picture(path.to_path_buf()))?
            .ok_or_else(not_a_frame)?;
        if recipe.scene.automaton.generations != generation {
            return Err(Error::Png {
                source_name: path.display().to_string(),
                reason: format!(
                    "its recipe is generation {}, its name says {generation}",
                    recipe.scene.automaton.generations
                ),
            });
        }
        Ok(FrameFile {
            path: path.to_path_buf(),
            generation,
            scene: recipe.scene,
            options,
            size: (recipe.width, recipe.height),
        })
    }

    /// The animation this frame is one of (in `format`).
    fn animation(&self, format: Format) -> Result<Animation> {
        let options = Options {
            format,
            ..self.options.clone()
        };
        Animation::new(&self.scene, &options, self.size)
    }
}

impl Animation {
    /// Writes the frames that `shard` owns (each frame's file name is its
    /// key, [`Shard::owns`]) into `dir`, which must exist, each frame a PNG
    /// with its recipe ([`frame_file_name`]), written atomically, and
    /// records each in the shard's manifest there, as a batch's pictures
    /// are ([`crate::batch::manifest`]): a task run again makes only the frames it
    /// had not, or whose file is gone or changed, and `playa manifest
    /// check` checks the folder. A manifest there of another animation is
    /// an error, and nothing is written. The automaton runs through every
    /// generation (it is cheap); only the frames to make are drawn.
    pub fn write_frames(
        &self,
        dir: &Path,
        shard: Shard,
        progress: &Progress,
    ) -> Result<FramesWritten> {
        if let Some(sweep) = &self.options().sweep {
            return Err(Error::Setting {
                key: sweep.key.clone(),
                reason: "a sweep's frames are made into the animation's file at once; a \
                         folder of frames holds the automaton's generations"
                    .into(),
            });
        }
        let (first, last) = (self.options().first, self.options().last);
        let code = crate::share::encode(self.scene());
        let header = Header {
            batch: BatchRecord {
                playa: env!("CARGO_PKG_VERSION").to_string(),
                inputs: vec![InputRecord {
                    input: code.clone(),
                    name: "frame".into(),
                    seed: self.scene().seed,
                    code,
                    size: Some({
                        let (w, h) = self.size();
                        [w, h]
                    }),
                    compression: None,
                }],
                seeds: None,
                size: Some({
                    let (w, h) = self.size();
                    [w, h]
                }),
                compression: Compression::Fast.name().to_string(),
                crop: false,
            },
            shard: shard.to_string(),
            window: None,
            tiles: None,
            frames: Some(FramesRecord {
                generations: [first, last],
                options: self.options().to_ron(),
            }),
        };
        let (manifest, done) = Writer::open(dir, shard, &header, false, OtherBatch::Refuse)?;
        let owned: Vec<u32> = (first..=last)
            .filter(|&g| shard.owns(frame_file_name(g).trim_end_matches(".png")))
            .collect();
        let mut written = FramesWritten {
            owned: owned.len(),
            ..FramesWritten::default()
        };
        let mut todo = Vec::new();
        for &g in &owned {
            let file = frame_file_name(g);
            let key = file.trim_end_matches(".png");
            match Found::of(dir, &file, done.get(key)) {
                Found::Done => written.kept += 1,
                Found::Stale => {
                    written.repaired += 1;
                    todo.push(g);
                }
                Found::Unrecorded => todo.push(g),
            }
        }
        let Some(&last_todo) = todo.last() else {
            return Ok(written);
        };
        let options = [(ANIMATION_KEY, self.options().to_ron())];
        let mut image = {
            let (w, h) = self.size();
            RgbaImage::new(w, h)
        };
        let mut todo = todo.into_iter().peekable();
        for (plan, g) in self.plans()?.zip(first..=last_todo) {
            let plan = plan?;
            if todo.peek() != Some(&g) {
                continue;
            }
            todo.next();
            if progress.cancelled() {
                break;
            }
            let start = std::time::Instant::now();
            let file = frame_file_name(g);
            let path = dir.join(&file);
            let scene = self.frame_scene((g - first) as usize);
            self.draw(&plan, &mut image)?;
            crate::output::picture::write_png(&path, &image, &scene, &options, Compression::Fast)?;
            let (sha256, bytes) = crate::batch::manifest::hash_file(&path)?;
            manifest.record(&Entry {
                key: file.trim_end_matches(".png").to_string(),
                code: crate::share::encode(&scene),
                input: header.batch.inputs[0].input.clone(),
                seed: scene.seed,
                file,
                sha256,
                bytes,
                ms: start.elapsed().as_millis() as u64,
            })?;
            written.made += 1;
            progress.count_frame();
        }
        Ok(written)
    }
}

/// A folder of one animation's frames, every one there: what `playa
/// animate --from-frames` assembles.
#[derive(Debug)]
pub struct Frames {
    animation: Animation,
    /// The frames' files, first generation first.
    files: Vec<PathBuf>,
}

impl Frames {
    /// Reads the frames in `dir` (`frame-*.png`; other files are left
    /// alone) for an animation in `format` (else the format they were made
    /// for). Refused, naming the file: a frame missing between the first
    /// and last generation, a frame of another animation (another scene,
    /// options or size), a file named as a frame that is not one.
    pub fn read(dir: &Path, format: Option<Format>) -> Result<Frames> {
        let listing = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        let mut found = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|e| Error::io(dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(g) = frame_generation(&name) {
                found.push(FrameFile::read(&entry.path(), g)?);
            }
        }
        found.sort_by_key(|f| f.generation);
        let Some(reference) = found.last() else {
            return Err(Error::Png {
                source_name: dir.display().to_string(),
                reason: "no frames (frame-*.png) in it: make them with \
                         `playa animate … --frames-dir`"
                    .into(),
            });
        };
        let format = format.unwrap_or(reference.options.format);
        let animation = reference.animation(format)?;
        for frame in &found {
            if frame.animation(format)? != animation {
                return Err(Error::Png {
                    source_name: frame.path.display().to_string(),
                    reason: format!(
                        "a frame of another animation than {} (another scene, options or \
                         size): a folder holds one animation's frames",
                        clip(&reference.path.display().to_string())
                    ),
                });
            }
        }
        let (first, last) = (animation.options().first, animation.options().last);
        let mut files = Vec::with_capacity(animation.frame_count());
        let mut frames = found.into_iter().peekable();
        for g in first..=last {
            match frames.next() {
                Some(f) if f.generation == g => files.push(f.path),
                Some(f) if f.generation < first => {
                    return Err(outside(&f.path, first, last));
                }
                _ => {
                    return Err(Error::Png {
                        source_name: dir.join(frame_file_name(g)).display().to_string(),
                        reason: format!(
                            "missing: the frames are generations {first} to {last}; \
                             make it with the same `playa animate … --frames-dir` \
                             (its shard again)"
                        ),
                    });
                }
            }
        }
        if let Some(f) = frames.next() {
            return Err(outside(&f.path, first, last));
        }
        Ok(Frames { animation, files })
    }

    /// The animation the frames make.
    pub fn animation(&self) -> &Animation {
        &self.animation
    }

    /// The frames' files, first generation first.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Writes the animation into `out` from the frames' pixels: the bytes
    /// [`Animation::write`] makes. Returns `Ok(false)` if `progress` was
    /// cancelled.
    pub fn write<W: Write>(&self, out: W, progress: &Progress) -> Result<bool> {
        let first = self.frame(0)?;
        let last = self.frame(self.files.len() - 1)?;
        let mut writer = self.animation.frame_writer_from(out, &first, &last)?;
        let mut previous: Option<RgbaImage> = None;
        for k in 0..self.files.len() {
            if progress.cancelled() {
                return Ok(false);
            }
            let frame = match k {
                0 => first.clone(),
                k if k + 1 == self.files.len() => last.clone(),
                k => self.frame(k)?,
            };
            writer.push(previous.as_ref(), &frame)?;
            previous = Some(frame);
            progress.count_frame();
        }
        writer.finish()?;
        Ok(true)
    }

    /// [`Frames::write`] into the file at `path`, atomically: a failure or
    /// Cancel leaves no file. `Ok(false)`: cancelled.
    pub fn write_file(&self, path: &Path, progress: &Progress) -> Result<bool> {
        crate::animation::stream::write_file_with(path, progress, |out| self.write(out, progress))
    }

    /// Frame `k`'s pixels, decoded from its file.
    fn frame(&self, k: usize) -> Result<RgbaImage> {
        let path = &self.files[k];
        let image = image::open(path).map_err(|e| Error::Png {
            source_name: path.display().to_string(),
            reason: e.to_string(),
        })?;
        let (w, h) = self.animation.size();
        if image.width() != w || image.height() != h {
            return Err(Error::Png {
                source_name: path.display().to_string(),
                reason: format!(
                    "{}x{} pixels, its recipe says {w}x{h}",
                    image.width(),
                    image.height()
                ),
            });
        }
        Ok(image.into_rgba8())
    }
}

/// A frame whose generation is not the animation's.
fn outside(path: &Path, first: u32, last: u32) -> Error {
    Error::Png {
        source_name: path.display().to_string(),
        reason: format!("outside the animation's generations {first} to {last}"),
    }
}
