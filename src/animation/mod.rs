//! Animations: a scene's rock automaton generation by generation, as an
//! APNG or a GIF.
//!
//! Frame `k` of an animation is its scene with the automaton stopped at
//! generation `first + k`, up to `last` included: the landscape with the
//! soup's noise turning into clumps of stones (or, with
//! [`Options::cells`], the bare automaton, one cell a square of pixels).
//!
//! [`Animation::write`] streams: a window of a few frames is rendered in
//! parallel while the window before it is encoded and written, in order, so
//! memory holds a few frames, never the whole animation. The automaton runs
//! once, a generation at a time ([`Plan::generations`]).
//!
//! - **APNG** ([`apng`], through the `png` crate): 8-bit RGB, and every
//!   frame decodes to exactly the pixels `playa render` gives for its
//!   generation. After the first, a frame is stored as the rectangle that
//!   changed since the frame before (the sky and the ranges never do),
//!   drawn over it, so any decoder composes the whole frame again. The file
//!   carries its recipe as a still picture does ([`SCENE_KEY`] and
//!   [`CODE_KEY`], holding the scene at its last generation), and its
//!   options in [`ANIMATION_KEY`], so `playa animate anim.png` makes it
//!   again, byte for byte; `playa render anim.png` renders its last frame.
//! - **GIF** ([`gif`], through the `gif` crate): one global palette of 256
//!   colours, cut from the first and last frames ([`colormap`]), and
//!   ordered dithering with a fixed 8×8 pattern: the same file on every
//!   run, and what stands still in the picture stands still in the GIF.
//!   Frames after the first are the changed rectangle too. Delays count
//!   in hundredths of a second ([`Options::gif_delay`]).
//!
//! The bytes depend only on the scene, the options and the size, never on
//! the number of threads.
//!
//! [`SCENE_KEY`]: crate::recipe::SCENE_KEY
//! [`CODE_KEY`]: crate::recipe::CODE_KEY

mod apng;
mod colormap;
mod gif;

use std::io::{BufReader, Cursor, Write};
use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use image::RgbaImage;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::compose::{self, Generations, Plan};
use crate::error::{Error, Result, quote};
use crate::limit::Limit;
use crate::scene::{MAX_GENERATIONS, Scene};
use crate::setting::round_to;
use crate::source::Source;

/// Keyword of the APNG text chunk holding the animation's [`Options`] as
/// RON (beside the scene's recipe chunks).
pub const ANIMATION_KEY: &str = "playa:animation";
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
/// Colour of a dead cell in a bare-automaton animation (sRGB).
pub const DEAD_CELL: [u8; 3] = [20, 20, 24];
/// Colour of a live cell in a bare-automaton animation (sRGB).
pub const LIVE_CELL: [u8; 3] = [236, 226, 204];

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

/// What an animation shows and how it plays, besides its scene and size.
///
/// Stored as RON in an APNG's [`ANIMATION_KEY`] chunk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Generation of the first frame. Default: 0.
    pub first: u32,
    /// Generation of the last frame, included; at most
    /// [`MAX_GENERATIONS`]. Default: 8, the default scene's generations
    /// ([`Options::for_scene`] takes the scene's).
    pub last: u32,
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

    /// Number of frames: `last - first + 1` (when `first <= last`).
    pub fn frame_count(&self) -> usize {
        (self.last + 1).saturating_sub(self.first) as usize
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
                format!("{}..{}", self.first, self.last),
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
        if text.len() > crate::recipe::MAX_TEXT_BYTES {
            return Err(fail("animation options are too long".into()));
        }
        let options: Options = ron::Options::default()
            .with_recursion_limit(8)
            .from_str(text)
            .map_err(|e| {
                fail(format!(
                    "line {}, column {}: {}",
                    e.span.start.line,
                    e.span.start.col,
                    crate::error::ron_message(&e.code)
                ))
            })?;
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

/// The picture size of a bare-automaton animation of `scene`: its grid's
/// columns and rows times `scale`.
pub fn cells_size(scene: &Scene, scale: u32) -> (u32, u32) {
    let (cols, rows) = scene.grid_size();
    let side = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).saturating_mul(scale);
    (side(cols), side(rows))
}

/// The largest cell scale (at least 1) at which `scene`'s grid fits in
/// `width × height` pixels.
pub fn cells_scale_to_fit(scene: &Scene, (width, height): (u32, u32)) -> u32 {
    let (cols, rows) = scene.grid_size();
    let fit = |room: u32, n: usize| room as usize / n.max(1);
    (fit(width, cols).min(fit(height, rows)) as u32).clamp(1, MAX_CELL_SCALE)
}

/// The [`Options`] stored in a picture made by `playa animate` (its
/// [`ANIMATION_KEY`] chunk); `None` for any other input, a still picture
/// among them.
pub fn read_options(source: &Source) -> Result<Option<Options>> {
    let (text, name) = match source {
        Source::Picture(path) => {
            let name = path.display().to_string();
            let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
            let text = crate::recipe::read_text(BufReader::new(file), &name, ANIMATION_KEY)?;
            (text, name)
        }
        Source::PictureBytes { bytes, name } => (
            crate::recipe::read_text(Cursor::new(bytes), name, ANIMATION_KEY)?,
            name.clone(),
        ),
        _ => return Ok(None),
    };
    text.map(|text| Options::from_ron(&text, &format!("{name} ({ANIMATION_KEY})")))
        .transpose()
}

/// Progress of an animation being written, and its Cancel: shared between
/// the writer and whoever watches it.
#[derive(Debug, Default)]
pub struct Progress {
    frames: AtomicUsize,
    cancel: AtomicBool,
}

impl Progress {
    /// Frames written so far.
    pub fn frames_written(&self) -> usize {
        self.frames.load(Ordering::Relaxed)
    }

    /// Asks the writer to stop; it stops before its next frame.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether Cancel was asked for.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// An animation ready to be made: a checked scene, options and size.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// The scene, quantized, its automaton at the last frame's generation.
    scene: Scene,
    options: Options,
    width: u32,
    height: u32,
}

impl Animation {
    /// Checks `options` ([`Options::validate`]), the size (as for a
    /// picture) and the scene. `size` is the frames' size: for a bare
    /// automaton ([`Options::cells`]) it must be [`cells_size`].
    pub fn new(scene: &Scene, options: &Options, (width, height): (u32, u32)) -> Result<Animation> {
        let options = options.quantized();
        options.validate()?;
        compose::check_size(width, height)?;
        if let Some(scale) = options.cells {
            let (w, h) = cells_size(scene, scale);
            if (w, h) != (width, height) {
                return Err(Error::out_of_range(
                    "picture size",
                    format!("{width}x{height}"),
                    format!("the grid's cells at {scale} pixels each make {w}x{h}"),
                ));
            }
        }
        let mut scene = scene.quantized();
        scene.automaton.generations = options.last;
        scene.validate()?;
        Ok(Animation {
            scene,
            options,
            width,
            height,
        })
    }

    /// The scene, its automaton at the last frame's generation (as the
    /// APNG's recipe records it).
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The options (quantized).
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Width and height of the frames.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Number of frames.
    pub fn frame_count(&self) -> usize {
        self.options.frame_count()
    }

    /// The plans of the frames, in order.
    pub fn generations(&self) -> Result<Generations> {
        Plan::generations(&self.scene, self.options.first, self.options.last)
    }

    /// Draws the frame of `plan` (one of [`Animation::generations`]) into
    /// `image`, which must have the animation's size.
    pub fn draw(&self, plan: &Plan, image: &mut RgbaImage) -> Result<()> {
        match self.options.cells {
            None => plan.render_into(image),
            Some(scale) => {
                draw_cells(plan.grid(), scale, image);
                Ok(())
            }
        }
    }

    /// A new frame of the animation's size.
    fn frame(&self, plan: &Plan) -> Result<RgbaImage> {
        let mut image = RgbaImage::new(self.width, self.height);
        self.draw(plan, &mut image)?;
        Ok(image)
    }

    /// An encoder writing the animation's header into `out`; frames are
    /// then pushed in order ([`Encoder::push`]). A GIF's palette is made
    /// here, from the first and last frames (rendered for it).
    pub fn encoder<W: Write>(&self, out: W) -> Result<Encoder<W>> {
        let count = self.frame_count();
        let (w, h) = (self.width, self.height);
        let mut first_frame = None;
        let (framer, sink) = match self.options.format {
            Format::Apng => {
                let texts =
                    crate::picture::texts(&self.scene, &[(ANIMATION_KEY, self.options.to_ron())])?;
                let sink = apng::Sink::new(out, w, h, count as u32, self.options.loops, &texts)?;
                (Framer::Apng, Sink::Apng(sink))
            }
            Format::Gif => {
                let first = self.single_frame(self.options.first)?;
                let last = self.single_frame(self.options.last)?;
                let colormap = colormap::Colormap::from_frames(&[&first, &last]);
                first_frame = Some(first);
                let sink = gif::Sink::new(
                    out,
                    (w, h),
                    colormap.palette(),
                    colormap.transparent(),
                    self.options.loops,
                )?;
                (Framer::Gif(colormap), Sink::Gif(sink))
            }
        };
        Ok(Encoder {
            framer,
            sink,
            options: self.options.clone(),
            count,
            next: 0,
            first_frame,
        })
    }

    /// The frame of generation `g` alone.
    fn single_frame(&self, g: u32) -> Result<RgbaImage> {
        let plan = Plan::generations(&self.scene, g, g)?
            .next()
            .expect("one generation");
        self.frame(&plan)
    }

    /// Makes the animation into `out`, streaming: windows of a few frames
    /// are rendered and prepared in parallel while the window before is
    /// written. Returns `Ok(false)` if `progress` was cancelled (part of
    /// the animation may have been written to `out`).
    pub fn write<W: Write + Send>(&self, out: W, progress: &Progress) -> Result<bool> {
        let mut encoder = self.encoder(out)?;
        let mut plans = self.generations()?;
        // Enough frames to keep every core busy while one encodes; the
        // memory is two windows and one frame.
        let window = rayon::current_num_threads().clamp(2, 4);
        let mut previous = None;
        let first = encoder.first_frame.take();
        let mut ready =
            self.prepare_window(&mut plans, window, &encoder.framer, &mut previous, first)?;
        while !ready.is_empty() {
            let Encoder {
                framer,
                sink,
                options,
                count,
                next,
                ..
            } = &mut encoder;
            let (written, prepared) = rayon::join(
                || -> Result<bool> {
                    for frame in ready.drain(..) {
                        if progress.cancelled() {
                            return Ok(false);
                        }
                        sink.write(frame, options, *next, *count)?;
                        *next += 1;
                        progress.frames.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(true)
                },
                || {
                    if progress.cancelled() {
                        return Ok(Vec::new());
                    }
                    self.prepare_window(&mut plans, window, framer, &mut previous, None)
                },
            );
            if !written? {
                return Ok(false);
            }
            ready = prepared?;
        }
        if progress.cancelled() {
            return Ok(false);
        }
        encoder.finish()?;
        Ok(true)
    }

    /// Renders the next `window` frames in parallel and prepares them for
    /// writing, each against the one before (`previous`: the last frame of
    /// the window before, replaced by this window's last). `first`, when
    /// given, is the window's first frame, rendered already.
    fn prepare_window(
        &self,
        plans: &mut Generations,
        window: usize,
        framer: &Framer,
        previous: &mut Option<RgbaImage>,
        first: Option<RgbaImage>,
    ) -> Result<Vec<Prepared>> {
        let plans: Vec<Plan> = plans.take(window).collect();
        let mut frames: Vec<Option<RgbaImage>> = plans.iter().map(|_| None).collect();
        if let Some(slot) = frames.first_mut() {
            *slot = first;
        }
        frames
            .par_iter_mut()
            .zip(&plans)
            .try_for_each(|(frame, plan)| -> Result<()> {
                if frame.is_none() {
                    *frame = Some(self.frame(plan)?);
                }
                Ok(())
            })?;
        let frames: Vec<RgbaImage> = frames.into_iter().flatten().collect();
        let prepared = (0..frames.len())
            .into_par_iter()
            .map(|i| {
                let before = if i == 0 {
                    previous.as_ref()
                } else {
                    Some(&frames[i - 1])
                };
                framer.prepare(before, &frames[i])
            })
            .collect();
        if let Some(last) = frames.into_iter().next_back() {
            *previous = Some(last);
        }
        Ok(prepared)
    }

    /// [`Animation::write`] into a file, atomically: a failure or Cancel
    /// leaves no file (and an existing one untouched). `Ok(false)`:
    /// cancelled.
    pub fn write_file(&self, path: &Path, progress: &Progress) -> Result<bool> {
        let mut failure = None;
        let result = crate::atomic::write_atomically_with(path, |file| {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
            match self.write(&mut out, progress) {
                Ok(true) => out.flush(),
                Ok(false) => Err(std::io::Error::other("cancelled")),
                Err(e) => {
                    let message = e.to_string();
                    failure = Some(e);
                    Err(std::io::Error::other(message))
                }
            }
        });
        match (result, failure) {
            (Ok(()), _) => Ok(true),
            (Err(_), None) if progress.cancelled() => Ok(false),
            (Err(_), Some(e)) | (Err(e), None) => Err(e),
        }
    }

    /// The animation's bytes, made frame by frame, one frame a call to
    /// [`Steps::step`]: for a caller that cannot wait for the whole, such
    /// as the browser, which renders on its page's one thread between UI
    /// frames. The bytes are those of [`Animation::write`].
    pub fn steps(&self) -> Result<Steps> {
        let bytes = SharedBytes::default();
        Ok(Steps {
            encoder: Some(self.encoder(bytes.clone())?),
            plans: self.generations()?,
            animation: self.clone(),
            previous: None,
            bytes,
        })
    }
}

/// An animation being made one frame at a time (see [`Animation::steps`]).
pub struct Steps {
    animation: Animation,
    plans: Generations,
    encoder: Option<Encoder<SharedBytes>>,
    previous: Option<RgbaImage>,
    bytes: SharedBytes,
}

impl Steps {
    /// Renders and writes the next frame; after the last, finishes the file
    /// and returns its bytes.
    pub fn step(&mut self) -> Result<Option<Vec<u8>>> {
        let Some(encoder) = &mut self.encoder else {
            return Ok(None);
        };
        if let Some(plan) = self.plans.next() {
            let frame = match encoder.first_frame.take() {
                Some(first) => first,
                None => self.animation.frame(&plan)?,
            };
            encoder.push(self.previous.as_ref(), &frame)?;
            self.previous = Some(frame);
            return Ok(None);
        }
        if let Some(encoder) = self.encoder.take() {
            encoder.finish()?;
        }
        let bytes = std::mem::take(&mut *self.bytes.0.lock().expect("no panics while held"));
        Ok(Some(bytes))
    }

    /// Frames written so far.
    pub fn frames_written(&self) -> usize {
        self.encoder
            .as_ref()
            .map_or_else(|| self.animation.frame_count(), |encoder| encoder.next)
    }
}

/// A byte buffer that a [`Steps`] and its encoder share.
#[derive(Clone, Default)]
struct SharedBytes(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBytes {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .expect("no panics while held")
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The frames of an animation into its file: each frame is prepared
/// (cropped to what changed, converted, compressed where the format lets
/// it) on any thread, then written in order.
pub struct Encoder<W: Write> {
    framer: Framer,
    sink: Sink<W>,
    options: Options,
    count: usize,
    /// Index of the next frame to write.
    next: usize,
    /// The first frame, when making the encoder rendered it (a GIF's
    /// palette is cut from it): used rather than rendered again.
    first_frame: Option<RgbaImage>,
}

impl<W: Write> Encoder<W> {
    /// Writes the next frame, `frame`; `previous` must be the frame pushed
    /// before it (`None` for the first).
    pub fn push(&mut self, previous: Option<&RgbaImage>, frame: &RgbaImage) -> Result<()> {
        let prepared = self.framer.prepare(previous, frame);
        self.sink
            .write(prepared, &self.options, self.next, self.count)?;
        self.next += 1;
        Ok(())
    }

    /// Ends the file once every frame was pushed.
    pub fn finish(self) -> Result<()> {
        if self.next != self.count {
            return Err(Error::Png {
                source_name: "animation encoder".into(),
                reason: format!("{} frames written of {}", self.next, self.count),
            });
        }
        match self.sink {
            Sink::Apng(sink) => sink.finish(),
            Sink::Gif(sink) => sink.finish(),
        }
    }
}

/// The per-format work on a frame that needs no file: thread-safe.
enum Framer {
    Apng,
    Gif(colormap::Colormap),
}

/// A frame ready to be written: the rectangle that changed and its data
/// in the format's form.
struct Prepared {
    rect: Rect,
    data: Vec<u8>,
}

impl Framer {
    /// Prepares a frame, against the frame before it: the rectangle that
    /// changed, its pixels that did not left transparent.
    fn prepare(&self, previous: Option<&RgbaImage>, frame: &RgbaImage) -> Prepared {
        let rect = match previous {
            Some(previous) => Rect::changed(previous, frame),
            None => Rect::whole(frame),
        };
        let rows = rect.rows(frame, previous);
        let data = match self {
            Framer::Apng => {
                let mut data = Vec::with_capacity(rect.width as usize * rect.height as usize * 4);
                for (_, _, now, before) in rows {
                    match before {
                        None => {
                            data.extend(now.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2], 255]))
                        }
                        Some(before) => {
                            data.extend(now.chunks_exact(4).zip(before.chunks_exact(4)).flat_map(
                                |(p, b)| {
                                    if p == b {
                                        [0; 4]
                                    } else {
                                        [p[0], p[1], p[2], 255]
                                    }
                                },
                            ))
                        }
                    }
                }
                data
            }
            Framer::Gif(colormap) => gif::compress(&colormap.indices(rect, rows)),
        };
        Prepared { rect, data }
    }
}

/// Where frames are written.
enum Sink<W: Write> {
    Apng(apng::Sink<W>),
    Gif(gif::Sink<W>),
}

impl<W: Write> Sink<W> {
    /// Writes frame `index` of `count`.
    fn write(
        &mut self,
        frame: Prepared,
        options: &Options,
        index: usize,
        count: usize,
    ) -> Result<()> {
        match self {
            Sink::Apng(sink) => sink.write(
                frame.rect,
                options.apng_delay(index, count),
                index == 0,
                &frame.data,
            ),
            Sink::Gif(sink) => sink.write(
                frame.rect,
                options.gif_delay(index, count),
                index == 0,
                frame.data,
            ),
        }
    }
}

/// A rectangle of a frame, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

impl Rect {
    /// The whole of `frame`.
    fn whole(frame: &RgbaImage) -> Rect {
        Rect {
            x: 0,
            y: 0,
            width: frame.width(),
            height: frame.height(),
        }
    }

    /// The smallest rectangle holding every pixel that differs between
    /// `before` and `after` (the same size); one pixel at the top left if
    /// none does (a frame has at least one pixel).
    fn changed(before: &RgbaImage, after: &RgbaImage) -> Rect {
        let width = after.width() as usize;
        let stride = width * 4;
        let a: Vec<&[u8]> = before.as_raw().chunks_exact(stride).collect();
        let b: Vec<&[u8]> = after.as_raw().chunks_exact(stride).collect();
        let differs = |y: &usize| a[*y] != b[*y];
        let Some(top) = (0..b.len()).find(differs) else {
            return Rect {
                x: 0,
                y: 0,
                width: 1,
                height: 1,
            };
        };
        let bottom = (top..b.len()).rev().find(differs).unwrap_or(top);
        let (mut left, mut right) = (width, 0);
        for y in top..=bottom {
            let (ra, rb) = (a[y], b[y]);
            let differs = |x: &usize| ra[x * 4..x * 4 + 4] != rb[x * 4..x * 4 + 4];
            if let Some(l) = (0..width).find(differs) {
                left = left.min(l);
                right = right.max((l..width).rev().find(differs).unwrap_or(l));
            }
        }
        Rect {
            x: left as u32,
            y: top as u32,
            width: (right + 1 - left) as u32,
            height: (bottom + 1 - top) as u32,
        }
    }

    /// The rectangle's rows of `frame`: `(x, y, rgba, before)`, the row's
    /// first pixel, its RGBA bytes and the same pixels of `previous`.
    fn rows<'a>(
        self,
        frame: &'a RgbaImage,
        previous: Option<&'a RgbaImage>,
    ) -> impl Iterator<Item = (u32, u32, &'a [u8], Option<&'a [u8]>)> + 'a {
        let (x0, w) = (self.x as usize, self.width as usize);
        let stride = frame.width() as usize * 4;
        let row = move |img: &'a RgbaImage, y: u32| {
            &img.as_raw()[y as usize * stride..][x0 * 4..(x0 + w) * 4]
        };
        let x = self.x;
        (self.y..self.y + self.height)
            .map(move |y| (x, y, row(frame, y), previous.map(|p| row(p, y))))
    }
}

/// Draws `grid` with each cell a `scale`-pixel square: [`LIVE_CELL`] on
/// [`DEAD_CELL`].
fn draw_cells(grid: &crate::life::BitGrid, scale: u32, image: &mut RgbaImage) {
    let scale = scale as usize;
    let width = image.width() as usize;
    let pixel = |alive: bool| {
        let [r, g, b] = if alive { LIVE_CELL } else { DEAD_CELL };
        [r, g, b, 255]
    };
    image
        .par_chunks_mut(width * 4)
        .enumerate()
        .for_each(|(y, row)| {
            let cy = y / scale;
            for (x, p) in row.chunks_exact_mut(4).enumerate() {
                let cx = x / scale;
                let alive = cx < grid.width() && cy < grid.height() && grid.get(cx, cy);
                p.copy_from_slice(&pixel(alive));
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(format: Format) -> Animation {
        let mut scene = Scene::default();
        scene.automaton.columns = 64;
        let options = Options {
            first: 2,
            last: 6,
            format,
            ..Options::default()
        };
        Animation::new(&scene, &options, (48, 27)).unwrap()
    }

    #[test]
    fn apng_delays_are_exact_fractions() {
        let o = Options {
            fps: 12.0,
            hold: 1.5,
            ..Options::default()
        };
        assert_eq!(o.apng_delay(0, 3), (1, 12));
        // 1/12 + 3/2 = 19/12.
        assert_eq!(o.apng_delay(2, 3), (19, 12));
        let o = Options {
            fps: 12.5,
            ..Options::default()
        };
        assert_eq!(o.apng_delay(0, 3), (2, 25));
        let o = Options {
            fps: 0.1,
            hold: 60.0,
            ..Options::default()
        };
        assert_eq!(o.apng_delay(0, 2), (10, 1));
        assert_eq!(o.apng_delay(1, 2), (70, 1));
        // 1/12.37 + 0.01 = 11237/123700 does not fit 16 bits: milliseconds.
        let o = Options {
            fps: 12.37,
            hold: 0.01,
            ..Options::default()
        };
        assert_eq!(o.apng_delay(1, 2), (91, 1000));
    }

    #[test]
    fn gif_delays_keep_time_in_hundredths() {
        let o = Options {
            fps: 12.0,
            hold: 2.0,
            ..Options::default()
        };
        let delays: Vec<u16> = (0..12).map(|k| o.gif_delay(k, 12)).collect();
        assert_eq!(delays[..11], [8, 9, 8, 8, 9, 8, 8, 9, 8, 8, 9]);
        // 12 frames last one second, plus the hold.
        assert_eq!(delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 300);
        let o = Options {
            fps: 50.0,
            ..Options::default()
        };
        assert!((0..100).all(|k| o.gif_delay(k, 100) == 2));
    }

    #[test]
    fn options_are_checked() {
        let bad = [
            Options {
                fps: 0.0,
                ..Options::default()
            },
            Options {
                fps: f32::NAN,
                ..Options::default()
            },
            Options {
                fps: 60.0,
                format: Format::Gif,
                ..Options::default()
            },
            Options {
                first: 5,
                last: 3,
                ..Options::default()
            },
            Options {
                last: MAX_GENERATIONS + 1,
                ..Options::default()
            },
            Options {
                hold: -1.0,
                ..Options::default()
            },
            Options {
                cells: Some(0),
                ..Options::default()
            },
        ];
        for o in bad {
            assert!(o.validate().is_err(), "{o:?}");
        }
        let gif = Options {
            fps: 60.0,
            format: Format::Gif,
            ..Options::default()
        };
        let err = gif.validate().unwrap_err().to_string();
        assert!(err.contains("at most 50"), "{err}");
        assert!(
            Options {
                fps: 60.0,
                ..Options::default()
            }
            .validate()
            .is_ok()
        );
    }

    #[test]
    fn options_round_trip_through_ron() {
        let o = Options {
            first: 3,
            last: 30,
            fps: 7.5,
            hold: 1.25,
            loops: 2,
            cells: Some(4),
            format: Format::Gif,
        };
        assert_eq!(Options::from_ron(&o.to_ron(), "t").unwrap(), o);
        assert!(Options::from_ron("(fps: 0)", "t").is_err());
        assert!(Options::from_ron("(speed: 3)", "t").is_err());
    }

    proptest::proptest! {
        #[test]
        fn options_round_trip_and_any_text_is_valid_or_refused(
            first in 0u32..=MAX_GENERATIONS,
            span in 0u32..=MAX_GENERATIONS,
            fps in 10u32..=10_000,
            hold in 0u32..=6000,
            loops in 0u32..=MAX_LOOPS,
            cells in proptest::option::of(1u32..=MAX_CELL_SCALE),
            gif in proptest::bool::ANY,
            text in ".{0,80}",
        ) {
            let o = Options {
                first,
                last: (first + span).min(MAX_GENERATIONS),
                fps: fps as f32 / 100.0,
                hold: hold as f32 / 100.0,
                loops,
                cells,
                format: if gif && fps <= 5000 { Format::Gif } else { Format::Apng },
            };
            let o = Options { first: o.first.min(o.last), ..o.quantized() };
            proptest::prop_assert!(o.validate().is_ok(), "{:?}", o);
            proptest::prop_assert_eq!(Options::from_ron(&o.to_ron(), "t").unwrap(), o);
            let wrapped = format!("({text})");
            for t in [text.as_str(), wrapped.as_str()] {
                if let Ok(read) = Options::from_ron(t, "t") {
                    proptest::prop_assert!(read.validate().is_ok());
                }
            }
        }
    }

    #[test]
    fn changed_rectangles_hold_every_change() {
        let a = RgbaImage::from_pixel(9, 7, image::Rgba([1, 2, 3, 255]));
        assert_eq!(
            Rect::changed(&a, &a),
            Rect {
                x: 0,
                y: 0,
                width: 1,
                height: 1
            }
        );
        for points in [
            vec![(4, 3)],
            vec![(0, 0)],
            vec![(8, 6)],
            vec![(2, 1), (6, 5)],
            vec![(6, 1), (2, 5)],
            vec![(8, 0), (0, 6)],
        ] {
            let mut b = a.clone();
            for &(x, y) in &points {
                b.put_pixel(x, y, image::Rgba([9, 9, 9, 255]));
            }
            let r = Rect::changed(&a, &b);
            let xs = points.iter().map(|p| p.0);
            let ys = points.iter().map(|p| p.1);
            let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
            let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
            assert_eq!(
                r,
                Rect {
                    x: x0,
                    y: y0,
                    width: x1 - x0 + 1,
                    height: y1 - y0 + 1
                },
                "{points:?}"
            );
        }
    }

    #[test]
    fn steps_make_the_same_bytes_as_write() {
        for format in Format::ALL {
            let animation = small(format);
            let mut streamed = Vec::new();
            assert!(
                animation
                    .write(&mut streamed, &Progress::default())
                    .unwrap()
            );
            let mut steps = animation.steps().unwrap();
            let bytes = loop {
                if let Some(bytes) = steps.step().unwrap() {
                    break bytes;
                }
            };
            assert_eq!(steps.frames_written(), 5);
            assert!(bytes == streamed, "{format:?}");
        }
    }

    #[test]
    fn the_same_on_any_number_of_threads() {
        for format in Format::ALL {
            let animation = small(format);
            let bytes = |threads| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut out = Vec::new();
                pool.install(|| animation.write(&mut out, &Progress::default()))
                    .unwrap();
                out
            };
            assert!(bytes(1) == bytes(3), "{format:?}");
        }
    }

    #[test]
    fn cancel_stops_before_the_end() {
        let animation = small(Format::Apng);
        let progress = Progress::default();
        progress.cancel();
        let mut out = Vec::new();
        assert!(!animation.write(&mut out, &progress).unwrap());
        assert_eq!(progress.frames_written(), 0);
    }

    #[test]
    fn cells_are_squares_of_the_scale() {
        let mut scene = Scene::default();
        scene.automaton.columns = 20;
        let (cols, rows) = scene.grid_size();
        let options = Options {
            cells: Some(3),
            first: 0,
            last: 1,
            ..Options::default()
        };
        assert_eq!(cells_size(&scene, 3), (cols as u32 * 3, rows as u32 * 3));
        assert!(Animation::new(&scene, &options, (100, 100)).is_err());
        let animation = Animation::new(&scene, &options, cells_size(&scene, 3)).unwrap();
        let plan = animation.generations().unwrap().next().unwrap();
        let mut image = RgbaImage::new(cols as u32 * 3, rows as u32 * 3);
        animation.draw(&plan, &mut image).unwrap();
        for (x, y, p) in image.enumerate_pixels() {
            let alive = plan.grid().get(x as usize / 3, y as usize / 3);
            let want = if alive { LIVE_CELL } else { DEAD_CELL };
            assert_eq!(p.0[..3], want, "{x},{y}");
        }
        assert_eq!(cells_scale_to_fit(&scene, (cols as u32 * 3 + 2, 10_000)), 3);
        assert_eq!(cells_scale_to_fit(&scene, (1, 1)), 1);
    }
}
