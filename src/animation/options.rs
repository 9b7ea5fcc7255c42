//! What an animation shows and how it plays: its [`Options`] (frames: the
//! automaton's generations or one setting's [`Sweep`]; speed, hold, loops,
//! format), their limits, the frame delays each format
//! stores, and the options read back from an APNG that `playa animate` made.

use std::io::{BufReader, Cursor};
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, quote};
use crate::explore::tweak::Tweak;
use crate::scene::{MAX_GENERATIONS, Scene};
use crate::setting::limit::Limit;
use crate::setting::round_to;
use crate::source::Source;

pub use crate::output::recipe::ANIMATION_KEY;
/// Fewest frames per second.
pub const MIN_FPS: f32 = 0.1;
/// Most frames per second of an APNG.
pub const MAX_FPS: f32 = 100.0;
/// Most frames per second of a GIF: GIF delays count in hundredths of a
/// second, and browsers slow delays under 2/100 s down to 1/10 s.
pub const MAX_GIF_FPS: f32 = 50.0;
/// Longest hold of the last frame, in seconds.
pub const MAX_HOLD: f32 = 60.0;
/// Most plays of a looping animation (a GIF's loop count is 16 bits).
pub const MAX_LOOPS: u32 = u16::MAX as u32;
/// Most pixels per cell of a bare-automaton animation.
pub const MAX_CELL_SCALE: u32 = 64;

/// The file format of an animation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Format {
    /// Animated PNG: exact pixels, carries its recipe.
    #[default]
    Apng,
    /// GIF: 256 colours, plays everywhere.
    Gif,
}

impl Format {
    /// Both formats.
    pub const ALL: [Format; 2] = [Format::Apng, Format::Gif];

    /// Its name on the command line: `apng` or `gif`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Apng => "apng",
            Format::Gif => "gif",
        }
    }

    /// The extension of its files, without the dot: `png` or `gif`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Apng => "png",
            Format::Gif => "gif",
        }
    }

    /// Its media type.
    pub fn mime(self) -> &'static str {
        match self {
            Format::Apng => "image/apng",
            Format::Gif => "image/gif",
        }
    }

    /// The format a file name's extension says: `.png` or `.apng` is APNG,
    /// `.gif` GIF (any case); `None` for anything else.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
        match ext.as_str() {
            "png" | "apng" => Some(Format::Apng),
            "gif" => Some(Format::Gif),
            _ => None,
        }
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| format!("format {} must be apng or gif", quote(s)))
    }
}

/// One setting swept over an animation's frames: frame `k` is the scene
/// with the setting at the sweep's value `k`, its automaton at the scene's
/// own generations.
///
/// The key and values are those of `playa render --set KEY=VALUES`
/// ([`Tweak::parse`]): `time` and `5..=20:60` is the light of a day from
/// 5:00 to 20:00 in 60 frames.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// The setting's key: `time`, `wind`, `clouds.drift`, `tent#2.x`.
    pub key: String,
    /// Its values as written: `A..=B:N` (N values from A to B, both
    /// included), `A..B:N` (B left out) or a list `v1,v2,…`.
    pub values: String,
}

impl Sweep {
    /// The sweep of `key` over `values` (as [`Sweep::values`] holds them).
    pub fn new(key: impl Into<String>, values: impl Into<String>) -> Sweep {
        Sweep {
            key: key.into(),
            values: values.into(),
        }
    }

    /// The sweep read and checked: a setting that can be swept (not the
    /// aspect: the frames have one size), values in its range, 2 to
    /// [`MAX_SWEEP`](crate::explore::tweak::MAX_SWEEP) of them.
    pub fn tweak(&self) -> Result<Tweak> {
        let tweak = Tweak::parse(&format!("{}={}", self.key, self.values))?;
        let fail = |reason: String| Error::Setting {
            key: self.key.clone(),
            reason,
        };
        if tweak.key() == "aspect" {
            return Err(fail(
                "an animation's frames have one size, so its aspect is not swept".into(),
            ));
        }
        if tweak.len() < 2 {
            return Err(fail(format!(
                "the sweep {} is {} value: an animation's sweep needs 2 or more, one a frame",
                quote(&self.values),
                tweak.len()
            )));
        }
        Ok(tweak)
    }

    /// The sweep as the summary of `playa animate` and the app name it:
    /// `time 5..=20:60`.
    pub fn label(&self) -> String {
        format!("{} {}", self.key, self.values)
    }
}

/// What an animation shows and how it plays, besides its scene and size.
///
/// Stored as RON in an APNG's [`ANIMATION_KEY`] chunk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Generation of the first frame (without a [`Options::sweep`]).
    /// Default: 0.
    pub first: u32,
    /// Generation of the last frame, included (without a
    /// [`Options::sweep`]); at most [`MAX_GENERATIONS`]. Default: 8, the
    /// default scene's generations ([`Options::for_scene`] takes the
    /// scene's).
    pub last: u32,
    /// A setting swept over the frames, instead of the automaton's
    /// generations: frame `k` is the scene at the sweep's value `k`.
    /// Default: `None` (the generations). Left out of the RON when `None`,
    /// so the options of a generations' animation read as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<Sweep>,
    /// Frames per second, precision 0.01, from [`MIN_FPS`] to [`MAX_FPS`]
    /// ([`MAX_GIF_FPS`] for a GIF). Default: 12.
    pub fps: f32,
    /// Seconds the last frame stays beyond its frame time, precision 0.01,
    /// from 0 to [`MAX_HOLD`]. Default: 0.
    pub hold: f32,
    /// Times the animation plays; 0 loops forever. At most [`MAX_LOOPS`].
    /// Default: 0.
    pub loops: u32,
    /// The bare automaton, one cell a square of this many pixels a side
    /// (1 to [`MAX_CELL_SCALE`]), instead of the landscape. Default: `None`
    /// (the landscape).
    pub cells: Option<u32>,
    /// APNG or GIF. Default: APNG.
    pub format: Format,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            first: 0,
            last: crate::scene::Automaton::default().generations,
            sweep: None,
            fps: 12.0,
            hold: 0.0,
            loops: 0,
            cells: None,
            format: Format::Apng,
        }
    }
}

impl Options {
    /// The default options for `scene`: generations 0 to the scene's own.
    pub fn for_scene(scene: &Scene) -> Options {
        Options {
            last: scene.automaton.generations,
            ..Options::default()
        }
    }

    /// Number of frames: the sweep's values, else `last - first + 1`
    /// (when `first <= last`). A sweep that does not read has none.
    pub fn frame_count(&self) -> usize {
        match &self.sweep {
            Some(sweep) => sweep.tweak().map_or(0, |t| t.len()),
            None => (self.last + 1).saturating_sub(self.first) as usize,
        }
    }

    /// A copy with `fps` and `hold` rounded to their precision (0.01).
    pub fn quantized(&self) -> Options {
        Options {
            fps: round_to(self.fps, 100),
            hold: round_to(self.hold, 100),
            ..self.clone()
        }
    }

    /// Checks every option against its range; the error names the option,
    /// its value and the range.
    pub fn validate(&self) -> Result<()> {
        if let Some(sweep) = &self.sweep {
            sweep.tweak()?;
            if self.cells.is_some() {
                return Err(Error::Setting {
                    key: sweep.key.clone(),
                    reason: "a sweep draws the landscape, not the bare automaton's cells".into(),
                });
            }
        }
        if self.last > MAX_GENERATIONS {
            return Err(Error::out_of_range(
                "last generation",
                self.last,
                format!("must be 0 to {MAX_GENERATIONS}"),
            ));
        }
        if self.first > self.last {
            return Err(Error::out_of_range(
                "frames",
                format!("{}..={}", self.first, self.last),
                "the first generation must not come after the last",
            ));
        }
        Limit::new("fps", f64::from(MIN_FPS), f64::from(MAX_FPS))
            .check(f64::from(self.fps), self.fps)?;
        if self.format == Format::Gif && self.fps > MAX_GIF_FPS {
            return Err(Error::out_of_range(
                "fps",
                self.fps,
                format!(
                    "a GIF plays at most {MAX_GIF_FPS} frames per second (its delays count \
                     in 1/100 s, and browsers slow shorter ones down); APNG goes to {MAX_FPS}"
                ),
            ));
        }
        Limit::new("hold", 0.0, f64::from(MAX_HOLD)).check(f64::from(self.hold), self.hold)?;
        if self.loops > MAX_LOOPS {
            return Err(Error::out_of_range(
                "loops",
                self.loops,
                format!("must be 0 (forever) to {MAX_LOOPS}"),
            ));
        }
        if let Some(scale) = self.cells
            && !(1..=MAX_CELL_SCALE).contains(&scale)
        {
            return Err(Error::out_of_range(
                "cell scale",
                scale,
                format!("must be 1 to {MAX_CELL_SCALE} pixels per cell"),
            ));
        }
        Ok(())
    }

    /// The options as RON, as stored in [`ANIMATION_KEY`].
    pub fn to_ron(&self) -> String {
        // Plain data with finite floats always serializes.
        ron::to_string(self).expect("options always serialize")
    }

    /// Reads options from RON, checked; `source_name` starts the error.
    pub fn from_ron(text: &str, source_name: &str) -> Result<Options> {
        let fail = |reason: String| Error::Scene {
            source_name: source_name.to_string(),
            reason,
        };
        if text.len() > crate::output::recipe::MAX_TEXT_BYTES {
            return Err(fail("animation options are too long".into()));
        }
        let options: Options = crate::error::from_ron(text, 8).map_err(fail)?;
        let options = options.quantized();
        options.validate().map_err(|e| fail(e.to_string()))?;
        Ok(options)
    }

    /// Frames per second in hundredths (the options' precision).
    fn fps_centis(&self) -> u64 {
        (f64::from(self.fps) * 100.0).round().max(1.0) as u64
    }

    /// Hold in hundredths of a second.
    fn hold_centis(&self) -> u64 {
        (f64::from(self.hold) * 100.0).round().max(0.0) as u64
    }

    /// The APNG delay of frame `k` of `count`, as a fraction of a second
    /// (numerator, denominator): exactly `1 / fps`, and the last frame
    /// `1 / fps + hold`, reduced; a fraction too big for 16 bits is
    /// rounded to milliseconds (then hundredths).
    pub fn apng_delay(&self, k: usize, count: usize) -> (u16, u16) {
        let p = self.fps_centis();
        // A frame lasts 100 / p seconds; the hold h / 100 more.
        let (num, den) = if k + 1 == count {
            (10_000 + self.hold_centis() * p, 100 * p)
        } else {
            (100, p)
        };
        fraction(num, den)
    }

    /// The GIF delay of frame `k` of `count`, in hundredths of a second:
    /// each frame ends at its exact time rounded to 1/100 s, so delays
    /// alternate (12 fps: 8, 9, 8, 8, 9, …) and the whole keeps time; the
    /// last frame adds the hold.
    pub fn gif_delay(&self, k: usize, count: usize) -> u16 {
        let p = self.fps_centis();
        // Frame k ends at (k + 1) · 10000 / p hundredths, rounded.
        let end = |k: u64| (2 * k * 10_000 + p) / (2 * p);
        let mut delay = end(k as u64 + 1) - end(k as u64);
        if k + 1 == count {
            delay += self.hold_centis();
        }
        delay.min(u64::from(u16::MAX)) as u16
    }
}

/// `num / den` in 16-bit parts: reduced if that fits, else rounded to
/// thousandths, else hundredths of a second.
fn fraction(num: u64, den: u64) -> (u16, u16) {
    let g = gcd(num, den).max(1);
    let (n, d) = (num / g, den / g);
    if let (Ok(n), Ok(d)) = (u16::try_from(n), u16::try_from(d)) {
        return (n, d);
    }
    for unit in [1000u64, 100] {
        let n = (num * unit + den / 2) / den;
        if let Ok(n) = u16::try_from(n) {
            return (n, unit as u16);
        }
    }
    (u16::MAX, 100)
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The [`Options`] stored in a picture made by `playa animate` (its
/// [`ANIMATION_KEY`] chunk); `None` for any other input, a still picture
/// among them.
pub fn read_options(source: &Source) -> Result<Option<Options>> {
    let (text, name) = match source {
        Source::Picture(path) => {
            let name = path.display().to_string();
            let file = crate::base::file::open_regular(path)?;
            let text =
                crate::output::recipe::read_text(BufReader::new(file), &name, ANIMATION_KEY)?;
            (text, name)
        }
        Source::PictureBytes { bytes, name } => (
            crate::output::recipe::read_text(Cursor::new(bytes), name, ANIMATION_KEY)?,
            name.clone(),
        ),
        _ => return Ok(None),
    };
    text.map(|text| Options::from_ron(&text, &format!("{name} ({ANIMATION_KEY})")))
        .transpose()
}
