//! The compositor: a scene's layers, back to front, into an RGBA picture.
//!
//! The pipeline is straight: a [`Scene`] becomes a [`Plan`] (quantized,
//! checked, its rock automaton run once), the plan at a picture size becomes
//! a `Composer` (each visible layer prepared for that size, see
//! [`crate::layers`]), and the composer draws bands of rows into the
//! picture ([`crate::output::picture`] streams them into a PNG).
//!
//! The picture is composed in bands of [`BAND_ROWS`] rows, in parallel with
//! rayon. Each band is composed in linear light in a small `f32` scratch
//! buffer, then converted to 8-bit sRGB with dithering straight into the
//! output image: no full-size float buffer is ever held, so a picture costs
//! little more memory than its RGBA bytes.
//!
//! Every pixel depends only on the scene, the picture size and its own
//! position (no sums across bands, no hash-map order), so the bytes are the
//! same for any number of threads and on every run.

pub mod canvas;
pub mod window;

use std::sync::OnceLock;

use image::RgbaImage;
use rayon::prelude::*;

use crate::base::color::{Linear, encode_row};
use crate::error::{Error, Result};
use crate::layers::world::{Depth, FAR};
use crate::layers::{BAND_ROWS, Band, Draw, Frame, Layer, Light};
use crate::life::{BitGrid, Life, clumps};
use crate::scene::Scene;

/// Largest width or height of a picture, in pixels.
pub const MAX_SIDE: u32 = 16_384;
/// Most pixels in a picture (2^28: a 1 GiB RGBA buffer).
pub const MAX_PIXELS: u64 = 1 << 28;

/// Checks a picture size against [`MAX_SIDE`] and [`MAX_PIXELS`].
pub fn check_size(width: u32, height: u32) -> Result<()> {
    check_size_within(width, height, MAX_SIDE, MAX_PIXELS)
}

/// Largest width or height of a picture streamed into a file (band by band,
/// never held whole: see [`crate::output::picture::render_png`]).
pub const MAX_STREAMED_SIDE: u32 = 65_536;
/// Most pixels in a picture streamed into a file (2^32).
pub const MAX_STREAMED_PIXELS: u64 = 1 << 32;

/// Checks the size of a picture streamed into a file against
/// [`MAX_STREAMED_SIDE`] and [`MAX_STREAMED_PIXELS`]; pictures held in
/// memory keep [`check_size`]'s limits.
pub fn check_streamed_size(width: u32, height: u32) -> Result<()> {
    check_size_within(width, height, MAX_STREAMED_SIDE, MAX_STREAMED_PIXELS)
}

/// Checks a size a picture is asked for or made at, as playa draws them:
/// within [`check_streamed_size`]'s limits when the picture is `streamed`
/// into a file, else [`check_size`]'s, and of an aspect
/// [`window::check_aspect`] allows. The one rule for `--size` and for the
/// size a picture input gives ([`crate::output::recipe`]).
pub fn check_picture_size(width: u32, height: u32, streamed: bool) -> Result<()> {
    match streamed {
        true => check_streamed_size(width, height),
        false => check_size(width, height),
    }?;
    window::check_aspect(width, height)
}

/// Checks that each side is 1 to `max_side` pixels and the picture has at
/// most `max_pixels`: the one rule behind [`check_size`] and
/// [`check_streamed_size`], which differ only in their limits.
fn check_size_within(width: u32, height: u32, max_side: u32, max_pixels: u64) -> Result<()> {
    for (what, v) in [("picture width", width), ("picture height", height)] {
        if v == 0 || v > max_side {
            return Err(Error::out_of_range(
                what,
                v,
                format!("must be 1 to {max_side} pixels"),
            ));
        }
    }
    let pixels = u64::from(width) * u64::from(height);
    if pixels > max_pixels {
        return Err(Error::out_of_range(
            "picture size",
            format!("{width}x{height}"),
            format!("at most {max_pixels} pixels"),
        ));
    }
    Ok(())
}

/// The default picture size for `scene` at `width` pixels wide: the height
/// follows the scene's aspect ratio.
pub fn size_for_width(scene: &Scene, width: u32) -> (u32, u32) {
    let height = (width as f32 / scene.aspect).round().max(1.0) as u32;
    (width, height)
}

/// Renders `scene` at `width × height` pixels.
///
/// Rejects a size above the limits and a scene outside its limits
/// ([`Scene::validate`]). Runs on the current rayon pool.
pub fn render(scene: &Scene, width: u32, height: u32) -> Result<RgbaImage> {
    check_size(width, height)?;
    scene.validate()?;
    let mut image = RgbaImage::new(width, height);
    render_into(scene, &mut image)?;
    Ok(image)
}

/// Renders `scene` into `image`, at the image's size. The scene is drawn
/// quantized ([`Scene::quantize`]), as its share code records it.
pub fn render_into(scene: &Scene, image: &mut RgbaImage) -> Result<()> {
    Plan::new(scene)?.render_into(image)
}

/// A scene ready to be drawn at any size: quantized, checked, and its rock
/// automaton run (once, however many sizes are drawn).
#[derive(Clone)]
pub struct Plan {
    scene: Scene,
    /// The scene with its layers in the order they are drawn, where that
    /// differs: in one ground, the ground's surfaces under what stands on
    /// them ([`crate::layers::world::drawing_order`]).
    drawn: Option<Scene>,
    grid: BitGrid,
    /// The grid's clumps and a label per cell ([`clumps::label`]): a clump
    /// decides what its stones are. Labelled the first time a frame is
    /// taken (a plan that is only stepped or counted never needs them).
    clumps: OnceLock<(Vec<u32>, Vec<clumps::Clump>)>,
}

impl Plan {
    /// Quantizes and checks `scene`, and runs its automaton.
    pub fn new(scene: &Scene) -> Result<Plan> {
        let scene = scene.quantized();
        scene.validate()?;
        let grid = rock_grid(&scene)?;
        Ok(Plan::of(scene, grid, OnceLock::new()))
    }

    /// The plan of a quantized, checked `scene` whose automaton left
    /// `grid` (with its `clumps`, if labelled).
    fn of(scene: Scene, grid: BitGrid, clumps: OnceLock<(Vec<u32>, Vec<clumps::Clump>)>) -> Plan {
        let drawn = scene
            .one_ground
            .then(|| crate::layers::world::drawing_order(&scene.layers))
            .flatten()
            .map(|order| Scene {
                layers: order.iter().map(|&i| scene.layers[i].clone()).collect(),
                ..scene.clone()
            });
        Plan {
            scene,
            drawn,
            grid,
            clumps,
        }
    }

    /// [`Plan::new`] of `scene`, taking `before`'s grid instead of running
    /// the automaton again when it would give the same: the same seed,
    /// grid size and automaton settings. For frames that change only
    /// other settings, as an animation's sweep of the light does.
    pub fn new_after(scene: &Scene, before: &Plan) -> Result<Plan> {
        let scene = scene.quantized();
        scene.validate()?;
        let (a, b) = (&scene, &before.scene);
        let grid = if (a.seed, a.grid_size(), &a.automaton) == (b.seed, b.grid_size(), &b.automaton)
        {
            before.grid.clone()
        } else {
            rock_grid(&scene)?
        };
        Ok(Plan::of(scene, grid, OnceLock::new()))
    }

    /// The scene drawn (quantized).
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The scene with its layers in the order they are drawn: the scene's
    /// own order, but in one ground (see [`Plan::drawn`]'s field).
    pub(crate) fn drawn(&self) -> &Scene {
        self.drawn.as_ref().unwrap_or(&self.scene)
    }

    /// The rock automaton's grid after its generations: each live cell is
    /// a stone.
    pub fn grid(&self) -> &BitGrid {
        &self.grid
    }

    /// Number of stones the first visible rocks layer draws: its live cells,
    /// less those on ground cleared for a tent (counted at 1000 pixels
    /// high; a stone's place does not depend on the size).
    pub fn stone_count(&self) -> Result<usize> {
        let rocks = self.scene.layers.iter().find_map(|l| match l {
            Layer::Rocks(r) if r.visible => Some(r),
            _ => None,
        });
        let Some(rocks) = rocks else { return Ok(0) };
        let (width, height) = size_for_height(&self.scene, 1000);
        rocks.stone_count(&self.frame(width, height))
    }

    /// Renders into `image`, at the image's size.
    pub fn render_into(&self, image: &mut RgbaImage) -> Result<()> {
        let (width, height) = image.dimensions();
        check_size(width, height)?;
        let composer = self.at(width, height)?;
        let band_bytes = width as usize * 4 * BAND_ROWS as usize;
        image.par_chunks_mut(band_bytes).enumerate().for_each_init(
            || composer.scratch(),
            |scratch, (index, out)| composer.render_band(index, out, scratch),
        );
        Ok(())
    }

    /// The part `[x, y, w, h]` (in pixels, inside the picture) of the
    /// picture at `width × height`, pixel for pixel as [`render`] draws it
    /// there. Only the window is drawn: the layers prepare and draw its
    /// columns on its rows, in bands of up to [`BAND_ROWS`] rows in
    /// parallel, so a view zoomed into a picture far larger than the screen
    /// (up to the streamed limits, [`check_streamed_size`]) costs about what
    /// a picture of the window's size does. A window outside the picture,
    /// or empty, is an error.
    pub fn render_window(&self, width: u32, height: u32, window: [u32; 4]) -> Result<RgbaImage> {
        self.region(width, height, window)?.render_window(window)
    }

    /// The plan at `width × height` prepared for the part `area` (`[x, y,
    /// w, h]` in pixels, inside the picture): any window inside it is then
    /// drawn without preparing the layers again ([`Region::render_window`]),
    /// as a zoomed view that pans is. An area outside the picture, or
    /// empty, is an error.
    pub fn region(&self, width: u32, height: u32, area: [u32; 4]) -> Result<Region> {
        let [x, y, w, h] = area;
        check_size(w, h)?;
        if x.checked_add(w).is_none_or(|r| r > width) || y.checked_add(h).is_none_or(|b| b > height)
        {
            return Err(Error::out_of_range(
                "window",
                format!("{w}x{h} at {x},{y}"),
                format!("inside the {width}x{height} picture"),
            ));
        }
        Ok(Region {
            size: [width, height],
            area,
            composer: self.at_window(width, height, x..x + w, y..y + h)?,
        })
    }

    /// The plan at `width × height`: its visible layers prepared (for
    /// drawing band by band: up to the streamed limits).
    pub(crate) fn at(&self, width: u32, height: u32) -> Result<Composer> {
        self.at_from(width, height, 0)
    }

    /// The plan at `width × height` with only its visible layers from
    /// `first` up prepared (the rest is drawn already). Checks the size
    /// against the streamed limits ([`check_streamed_size`]).
    pub(crate) fn at_from(&self, width: u32, height: u32, first: usize) -> Result<Composer> {
        self.at_with(width, height, first, |_, layer, frame| layer.prepare(frame))
    }

    /// Like [`Plan::at_from`], each layer prepared by `prepare(scene
    /// index, layer, frame)`, which may hand back one prepared before.
    pub(crate) fn at_with(
        &self,
        width: u32,
        height: u32,
        first: usize,
        prepare: impl FnMut(usize, &Layer, &Frame) -> Result<Box<dyn Draw>>,
    ) -> Result<Composer> {
        self.at_columns_with(width, height, 0..width, 0..height, first, prepare)
    }

    /// The plan at `width × height` for drawing only the columns `cols` of
    /// the rows `rows` (inside the picture, not empty): the layers prepare
    /// those alone.
    pub(crate) fn at_window(
        &self,
        width: u32,
        height: u32,
        cols: std::ops::Range<u32>,
        rows: std::ops::Range<u32>,
    ) -> Result<Composer> {
        self.at_columns_with(width, height, cols, rows, 0, |_, layer, frame| {
            layer.prepare(frame)
        })
    }

    fn at_columns_with(
        &self,
        width: u32,
        height: u32,
        cols: std::ops::Range<u32>,
        rows: std::ops::Range<u32>,
        first: usize,
        mut prepare: impl FnMut(usize, &Layer, &Frame) -> Result<Box<dyn Draw>>,
    ) -> Result<Composer> {
        check_streamed_size(width, height)?;
        debug_assert!(cols.start < cols.end && cols.end <= width);
        let mut frame = self.frame(width, height);
        frame.cols = cols.clone();
        frame.rows = rows;
        let mut layers = Vec::new();
        let mut index = Vec::new();
        for (i, l) in self.drawn().layers.iter().enumerate().skip(first) {
            if l.visible() && l.opacity() > 0.0 {
                layers.push(prepare(i, l, &frame)?);
                index.push(i);
            }
        }
        Ok(Composer {
            height,
            x0: cols.start,
            cols: cols.end - cols.start,
            layers,
            index,
            skip_covered: true,
            depth: self.scene.one_ground,
        })
    }

    /// Reuses `old`'s automaton run when `scene` runs the same automaton
    /// (only the rocks' grid depends on it); otherwise as [`Plan::new`].
    pub(crate) fn reuse(scene: &Scene, old: Plan) -> Result<Plan> {
        let scene = scene.quantized();
        scene.validate()?;
        let (grid, clumps) = if grid_inputs(&scene) == grid_inputs(&old.scene) {
            (old.grid, old.clumps)
        } else {
            (rock_grid(&scene)?, OnceLock::new())
        };
        Ok(Plan::of(scene, grid, clumps))
    }

    pub(crate) fn frame(&self, width: u32, height: u32) -> Frame<'_> {
        let s = self.drawn();
        let light = Light {
            seed: s.seed,
            time: s.time,
            sun_x: s.sun_x,
            horizon: s.horizon,
            wind: s.wind,
            one_ground: s.one_ground,
            eye: s.eye,
            lens: s.lens,
            look: s.look,
        };
        let (labels, clumps) = self
            .clumps
            .get_or_init(|| clumps::label(&self.grid, s.automaton.topology));
        Frame::new(
            &light,
            &s.layers,
            (&self.grid, labels, clumps),
            width,
            height,
        )
    }
}

/// The plans of one scene with its automaton stopped at each generation
/// from `first` to `last`, in order (see [`Plan::generations`]): the
/// automaton runs once, a generation at a time, instead of from the soup
/// for every plan.
pub struct Generations {
    /// The scene, quantized and checked; its `generations` is set per plan.
    scene: Scene,
    life: Life,
    /// The grid at generation `next`.
    grid: BitGrid,
    next: u32,
    last: u32,
}

impl Plan {
    /// The plans of `scene` with its automaton stopped at generation
    /// `first`, `first + 1`, … `last`: each the same as
    /// [`Plan::new`] of the scene with `automaton.generations` set to that
    /// generation. Refuses `first > last` and `last` above
    /// [`MAX_GENERATIONS`](crate::scene::MAX_GENERATIONS).
    pub fn generations(scene: &Scene, first: u32, last: u32) -> Result<Generations> {
        let max = crate::scene::MAX_GENERATIONS;
        if last > max {
            return Err(Error::out_of_range(
                "last generation",
                last,
                format!("must be 0 to {max}"),
            ));
        }
        if first > last {
            return Err(Error::out_of_range(
                "generations",
                format!("{first}..={last}"),
                "the first must not come after the last",
            ));
        }
        let mut scene = scene.quantized();
        scene.automaton.generations = first;
        scene.validate()?;
        let grid = rock_grid(&scene)?;
        let a = &scene.automaton;
        Ok(Generations {
            life: Life::new(a.rule, a.topology),
            scene,
            grid,
            next: first,
            last,
        })
    }
}

impl Iterator for Generations {
    type Item = Plan;

    fn next(&mut self) -> Option<Plan> {
        if self.next > self.last {
            return None;
        }
        let mut scene = self.scene.clone();
        scene.automaton.generations = self.next;
        let grid = if self.next < self.last {
            let next = self.life.step(&self.grid);
            std::mem::replace(&mut self.grid, next)
        } else {
            self.grid.clone()
        };
        self.next += 1;
        Some(Plan::of(scene, grid, OnceLock::new()))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.last + 1).saturating_sub(self.next) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Generations {}

/// The rock automaton's grid of a checked, quantized scene: the soup of
/// `(columns, rows, density, seed)` run with the rule on the topology.
pub(crate) fn rock_grid(scene: &Scene) -> Result<BitGrid> {
    scene.rock_grid()
}

/// What the rock automaton's grid depends on.
fn grid_inputs(scene: &Scene) -> impl PartialEq + '_ {
    (scene.grid_size(), &scene.automaton, scene.seed)
}

/// The picture size of `scene` at `height` pixels high.
fn size_for_height(scene: &Scene, height: u32) -> (u32, u32) {
    ((height as f32 * scene.aspect).round() as u32, height)
}

/// A plan prepared at one picture size for a part of it ([`Plan::region`]).
pub struct Region {
    size: [u32; 2],
    area: [u32; 4],
    composer: Composer,
}

impl Region {
    /// Whether `window` of the `width × height` picture lies inside the
    /// part prepared (of a picture of that size).
    pub fn holds(&self, width: u32, height: u32, window: [u32; 4]) -> bool {
        let ([x, y, w, h], [ax, ay, aw, ah]) = (window, self.area);
        self.size == [width, height]
            && x >= ax
            && y >= ay
            && x.saturating_add(w) <= ax + aw
            && y.saturating_add(h) <= ay + ah
    }

    /// The part `[x, y, w, h]` of the picture, inside the part prepared,
    /// pixel for pixel as [`Plan::render_window`] draws it: bands of up to
    /// [`BAND_ROWS`] rows of the window's columns, in parallel. A window
    /// outside the part prepared, or empty, is an error.
    pub fn render_window(&self, window: [u32; 4]) -> Result<RgbaImage> {
        let [x, y, w, h] = window;
        check_size(w, h)?;
        let [width, height] = self.size;
        if !self.holds(width, height, window) {
            let [ax, ay, aw, ah] = self.area;
            return Err(Error::out_of_range(
                "window",
                format!("{w}x{h} at {x},{y}"),
                format!("inside the {aw}x{ah} at {ax},{ay} prepared"),
            ));
        }
        let composer = &self.composer;
        let mut image = RgbaImage::new(w, h);
        let row_bytes = w as usize * 4;
        // Bands of the picture's bands of rows, cut to the window: the
        // first runs to the picture's next band.
        let head = (BAND_ROWS - y % BAND_ROWS).min(h);
        let (first, rest) = image.split_at_mut(head as usize * row_bytes);
        let bands: Vec<(u32, &mut [u8])> = std::iter::once((y, first))
            .chain(
                (y + head..)
                    .step_by(BAND_ROWS as usize)
                    .zip(rest.chunks_mut(BAND_ROWS as usize * row_bytes)),
            )
            .collect();
        bands.into_par_iter().for_each_init(
            || composer.scratch(),
            |scratch, (y0, out)| composer.draw_columns(x..x + w, y0, out, scratch),
        );
        Ok(image)
    }
}

/// A scene prepared for drawing at one size: its visible layers with their
/// precomputed data. Bands can then be drawn in any order, on any thread.
pub(crate) struct Composer {
    height: u32,
    /// The first column drawn: 0, or a window's left edge.
    x0: u32,
    /// The number of columns drawn: the width, or a window's.
    cols: u32,
    layers: Vec<Box<dyn Draw>>,
    /// The scene's index of each of `layers`.
    index: Vec<usize>,
    /// Whether layers under one that covers a band are left undrawn: always,
    /// but in the test that checks this shortcut against drawing them all.
    skip_covered: bool,
    /// Whether the bands keep depths (one ground).
    depth: bool,
}

thread_local! {
    /// Each thread's room for a band's depths.
    static DEPTHS: std::cell::RefCell<(Vec<f32>, Vec<f32>)> = Default::default();
}

/// Runs `f` with the depths of a band of `n` pixels, all far, where `on`
/// (one ground, see [`crate::layers::world`]); with `None` elsewhere.
pub(crate) fn with_depth<R>(on: bool, n: usize, f: impl FnOnce(Option<Depth>) -> R) -> R {
    if !on {
        return f(None);
    }
    DEPTHS.with(|room| {
        let (ground, things) = &mut *room.borrow_mut();
        for v in [&mut *ground, &mut *things] {
            v.clear();
            v.resize(n, FAR);
        }
        f(Some(Depth {
            ground: &mut ground[..n],
            things: &mut things[..n],
        }))
    })
}

impl Composer {
    /// Checks the size and the scene, and prepares the layers.
    #[cfg(test)]
    pub fn new(scene: &Scene, width: u32, height: u32) -> Result<Composer> {
        // The size first: a bad size is refused before the automaton runs.
        check_size(width, height)?;
        Plan::new(scene)?.at(width, height)
    }

    /// Like [`Composer::new`], for a picture that is streamed band by band
    /// and never held whole: up to [`MAX_STREAMED_SIDE`] and
    /// [`MAX_STREAMED_PIXELS`].
    pub fn streamed(scene: &Scene, width: u32, height: u32) -> Result<Composer> {
        check_streamed_size(width, height)?;
        Plan::new(scene)?.at(width, height)
    }

    /// A scratch buffer for [`Composer::render_band`].
    pub fn scratch(&self) -> Vec<Linear> {
        vec![[0.0; 3]; self.cols as usize * BAND_ROWS as usize]
    }

    /// Draws band `index` (rows `index * BAND_ROWS ..`, as many as `out`
    /// holds) as 8-bit sRGB RGBA into `out`.
    pub fn render_band(&self, index: usize, out: &mut [u8], scratch: &mut [Linear]) {
        self.draw_rows(index as u32 * BAND_ROWS, out, scratch);
    }

    /// Draws rows from `y0`, as many as `out` holds (all in one of the
    /// picture's bands of [`BAND_ROWS`]), of the columns prepared, as
    /// 8-bit sRGB RGBA into `out`.
    fn draw_rows(&self, y0: u32, out: &mut [u8], scratch: &mut [Linear]) {
        self.draw_columns(self.x0..self.x0 + self.cols, y0, out, scratch);
    }

    /// Like [`Composer::draw_rows`], of the columns `columns` (inside
    /// those prepared).
    fn draw_columns(
        &self,
        columns: std::ops::Range<u32>,
        y0: u32,
        out: &mut [u8],
        scratch: &mut [Linear],
    ) {
        debug_assert!(self.x0 <= columns.start && columns.end <= self.x0 + self.cols);
        let (x0, width) = (columns.start, columns.end - columns.start);
        let cols = width as usize;
        let rows = ((out.len() / (cols * 4)) as u32).min(self.height.saturating_sub(y0));
        debug_assert_eq!(y0 / BAND_ROWS, (y0 + rows.max(1) - 1) / BAND_ROWS);
        let px = &mut scratch[..rows as usize * cols];
        let first = self.first_drawn(y0, y0 + rows).unwrap_or_else(|| {
            px.fill([0.0; 3]);
            0
        });
        with_depth(self.depth, px.len(), |depth| {
            let mut band = Band {
                y0,
                rows,
                x0,
                width,
                index: (y0 / BAND_ROWS) as usize,
                px: &mut *px,
                depth,
            };
            for layer in &self.layers[first..] {
                layer.draw(&mut band);
            }
        });
        for (r, dst) in out
            .chunks_exact_mut(cols * 4)
            .enumerate()
            .take(rows as usize)
        {
            encode_row(&px[r * cols..(r + 1) * cols], dst, x0, y0 + r as u32);
        }
    }

    /// The first layer to draw on rows `y0..y1`: the topmost one that paints
    /// them whole and opaquely, since nothing under it shows. `None` if no
    /// layer does: the band then starts black and every layer is drawn.
    fn first_drawn(&self, y0: u32, y1: u32) -> Option<usize> {
        if !self.skip_covered {
            return None;
        }
        self.layers.iter().rposition(|l| l.covers(y0, y1))
    }

    /// The scene's index of each layer prepared.
    pub fn scene_index(&self) -> &[usize] {
        &self.index
    }

    /// The layers prepared, bottom to top.
    pub fn layers(&self) -> &[Box<dyn Draw>] {
        &self.layers
    }

    /// The layers prepared, bottom to top, each with its scene index.
    pub fn into_layers(self) -> impl Iterator<Item = (usize, Box<dyn Draw>)> {
        self.index.into_iter().zip(self.layers)
    }

    /// Draws rows `y0 .. y0 + out.len() / (width * 4)` into `out` (RGBA),
    /// band after band; `y0` must start a band.
    pub fn render_rows(&self, y0: u32, out: &mut [u8], scratch: &mut [Linear]) {
        debug_assert_eq!(y0 % BAND_ROWS, 0);
        let band_bytes = self.cols as usize * 4 * BAND_ROWS as usize;
        for (i, chunk) in out.chunks_mut(band_bytes).enumerate() {
            self.render_band((y0 / BAND_ROWS) as usize + i, chunk, scratch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_is_the_same_pixels_as_the_whole_picture_there() {
        let scene = crate::scene::presets::load("night-under-stars").unwrap();
        let plan = Plan::new(&scene).unwrap();
        let (w, h) = (333, 187);
        let whole = render(&scene, w, h).unwrap();
        for window in [
            [0, 0, w, h],
            [10, 3, 50, 20],
            [200, 100, 133, 87],
            [5, 180, 1, 7],
        ] {
            let [x, y, ww, wh] = window;
            let part = plan.render_window(w, h, window).unwrap();
            let crop = image::imageops::crop_imm(&whole, x, y, ww, wh).to_image();
            assert!(part == crop, "{window:?}");
        }
        assert!(plan.render_window(w, h, [300, 0, 40, 10]).is_err());
        assert!(plan.render_window(w, h, [0, 0, 0, 10]).is_err());
    }

    #[test]
    fn windows_of_a_prepared_region_are_the_windows_drawn_alone() {
        let scene = crate::scene::presets::load("golden-hour").unwrap();
        let plan = Plan::new(&scene).unwrap();
        let (w, h) = (1999, 1111);
        let region = plan.region(w, h, [300, 200, 900, 700]).unwrap();
        for window in [
            [300, 200, 900, 700],
            [301, 217, 1, 1],
            [650, 555, 300, 311],
            [1199, 899, 1, 1],
        ] {
            assert!(region.holds(w, h, window), "{window:?}");
            let alone = plan.render_window(w, h, window).unwrap();
            assert!(region.render_window(window).unwrap() == alone, "{window:?}");
        }
        for outside in [[299, 200, 10, 10], [1000, 800, 201, 10], [300, 200, 0, 5]] {
            assert!(!region.holds(w, h, outside) || outside[2] == 0);
            assert!(region.render_window(outside).is_err(), "{outside:?}");
        }
        assert!(!region.holds(w + 1, h, [300, 200, 10, 10]));
    }

    #[test]
    fn sizes_are_checked() {
        assert!(check_size(0, 10).is_err());
        assert!(check_size(10, 0).is_err());
        assert!(check_size(MAX_SIDE + 1, 1).is_err());
        assert!(check_size(MAX_SIDE, MAX_SIDE).is_ok());
        assert!(render(&Scene::default(), 0, 5).is_err());
        assert!(check_streamed_size(MAX_STREAMED_SIDE, MAX_STREAMED_SIDE).is_ok());
        assert!(check_streamed_size(MAX_STREAMED_SIDE + 1, 1).is_err());
        assert!(check_streamed_size(0, 1).is_err());
        // Above the limits of a picture in memory, refused by `render`.
        assert!(Composer::streamed(&Scene::default(), 32_768, 18_432).is_ok());
        assert!(Composer::new(&Scene::default(), 32_768, 18_432).is_err());
    }

    /// The reference for the covered-layers shortcut: drawing every layer
    /// of every band gives the same bytes, for every preset, at a small size
    /// and at odd sizes whose last band is short.
    #[test]
    fn skipping_covered_layers_changes_no_pixel() {
        let draw = |composer: &Composer, width: u32, height: u32| {
            let mut out = vec![0u8; width as usize * height as usize * 4];
            // One scratch for all bands, as in rendering: a skipped band
            // starts from the last band's pixels, not from black.
            composer.render_rows(0, &mut out, &mut composer.scratch());
            out
        };
        for preset in crate::scene::presets::PRESETS {
            let scene = preset.scene().unwrap();
            let mut skipping = 0;
            for (w, h) in [(64, 36), (97, 55), (33, 71)] {
                let shortcut = Composer::new(&scene, w, h).unwrap();
                let every_layer = Composer {
                    skip_covered: false,
                    ..Composer::new(&scene, w, h).unwrap()
                };
                assert!(
                    draw(&shortcut, w, h) == draw(&every_layer, w, h),
                    "{} at {w}x{h}: the shortcut changes pixels",
                    preset.name
                );
                skipping += (0..h.div_ceil(BAND_ROWS))
                    .map(|i| (i * BAND_ROWS, ((i + 1) * BAND_ROWS).min(h)))
                    .filter(|&(y0, y1)| shortcut.first_drawn(y0, y1).is_some_and(|f| f > 0))
                    .count();
            }
            assert!(skipping > 0, "{}: no band skips a layer", preset.name);
        }
    }

    #[test]
    fn generations_are_the_plans_of_each_generation() {
        let mut scene = crate::scene::presets::load("badlands").unwrap();
        scene.automaton.columns = 90;
        let plans: Vec<Plan> = Plan::generations(&scene, 3, 7).unwrap().collect();
        assert_eq!(plans.len(), 5);
        for (plan, g) in plans.iter().zip(3..) {
            let mut at = scene.clone();
            at.automaton.generations = g;
            let one = Plan::new(&at).unwrap();
            assert_eq!(plan.scene(), one.scene(), "generation {g}");
            assert!(plan.grid() == one.grid(), "generation {g}");
        }
        assert_eq!(Plan::generations(&scene, 4, 4).unwrap().len(), 1);
        assert!(Plan::generations(&scene, 5, 4).is_err());
        let max = crate::scene::MAX_GENERATIONS;
        assert!(Plan::generations(&scene, 0, max + 1).is_err());
    }

    #[test]
    fn tiny_pictures_render() {
        for (w, h) in [(1, 1), (1, 7), (7, 1), (3, 2), (17, 9)] {
            let img = render(&Scene::default(), w, h).unwrap();
            assert_eq!(img.dimensions(), (w, h));
        }
    }
}
