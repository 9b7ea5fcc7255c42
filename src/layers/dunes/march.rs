//! The columns' marches: the depth of the ground each row of a column
//! shows.
//!
//! `prepare` marches each column of the picture from near to far in steps
//! even on the screen (even in one over the depth), keeping the highest
//! row drawn so far: what lies behind a crest stays hidden. Where three
//! steps do not lie on a line (a crest, the foot of a slip face), or two lie
//! on different faces of a dune, the step between is halved until they do
//! not, so a crest's top and a face's edge fall where they are, not where
//! a step happened to land. Each row keeps the depth of the ground it
//! shows.
//!
//! A column's march depends only on the column and the picture, and starts
//! at a depth fixed by the rows to be drawn, before any ground that could
//! reach them: every window and band comes out the same.
//!
//! The steps are the same in every march (a lattice even in one over the
//! depth), and so are their halvings: a march may start at any step before
//! which no ground comes up into the rows it draws, and stop at the first
//! that comes up above them. So a picture keeps the depths of every pixel
//! only where they are few (`WHOLE`). A larger one's `prepare` marches
//! each column once to keep where the marches of each block of columns
//! start for each chunk of rows (two strips'), and `draw` marches a band's
//! chunk again, the columns of a block together: its memory is a few
//! chunks' and a number a block a chunk, not a number a pixel.

use std::ops::Range;
use std::sync::Arc;

use super::field::Samples;
use super::prepared::{Depths, DunesDraw, LANES};
use super::sand::Reach;

/// The march's step on flat sand, pixels on the screen.
const STEP: f32 = 16.0;
/// How far off a line (pixels) the middle of three steps may lie before
/// the steps between are halved.
const BEND: f32 = 1.0;
/// Rows in a chunk of the depths marched at once as bands are drawn, where
/// the picture's are not kept whole: two of a streamed picture's strips
/// (see [`crate::output`]), so that a march's start and end (a few steps
/// each) cost little beside its middle.
pub(super) const CHUNK: u32 = 64;
/// How many times longer the steps under the picture are.
const COARSE: u32 = 4;
/// The most times a step is halved.
const HALVINGS: u32 = 4;

/// Room for the marches of a block of columns, reused from block to
/// block: the columns are marched together, a step of each at a time,
/// and their steps worked out together (a column's march alone would work
/// out too few at once where it is short).
#[derive(Default)]
struct March {
    columns: Vec<Column>,
    /// The steps to work out together: their columns, how their ground
    /// runs across per unit of depth, one over their depths and their
    /// numbers (see [`Step::lattice`]); and the steps worked out.
    column: Vec<u32>,
    across: Vec<f32>,
    iz: Vec<f32>,
    lattice: Vec<u32>,
    found: Vec<Step>,
    probe: Probe,
}

/// One column's march, in a [`March`].
#[derive(Default)]
struct Column {
    /// How its ground runs across per unit of depth.
    across: f32,
    /// The step it starts at, and the next one to take (`None` once it has
    /// stopped).
    start: u32,
    next: Option<u32>,
    /// The steps, near to far, and how many more times each segment
    /// between two is to be halved; and room for the next round's.
    points: Vec<Step>,
    halvings: Vec<u32>,
    spare_points: Vec<Step>,
    spare_halvings: Vec<u32>,
}

/// Room for the points at which the sand is sampled together: ground
/// points `(x, z)`, the lengths of a pixel there, and the samples.
#[derive(Debug, Default)]
pub(super) struct Probe {
    pub(super) x: Vec<f32>,
    pub(super) z: Vec<f32>,
    pub(super) footprint: Vec<f32>,
    pub(super) samples: Samples,
    /// The light there: colour, cover, and how much of the relief stands.
    pub(super) r: Vec<f32>,
    pub(super) g: Vec<f32>,
    pub(super) b: Vec<f32>,
    pub(super) alpha: Vec<f32>,
    pub(super) relief: Vec<f32>,
}

/// One step of a column's march: one over its depth, and its row on the
/// screen (fractional).
#[derive(Clone, Copy, Debug)]
struct Step {
    iz: f32,
    y: f32,
    /// How steeply the sand rises away along the column's ray there.
    rise: f32,
    /// The face it lies on (see [`Sample::face`](super::field::Sample::face)).
    face: u32,
    /// Its number `k` (one over its depth is `k` times a step's), counted
    /// from the horizon, for the steps every march takes; 0 for the
    /// middles of halved ones.
    lattice: u32,
}

impl Step {
    /// Whether a crest lies between `self` and the farther `b`: the sand
    /// rises at one and falls at the other.
    fn crest_before(&self, b: &Step) -> bool {
        self.rise > 0.0 && b.rise < 0.0
    }

    /// Whether a brink or a crease lies between `self` and `b`: they lie
    /// on two faces.
    fn crease_before(&self, b: &Step) -> bool {
        self.face != b.face
    }
}

impl DunesDraw {
    /// How much of the dunes' relief stands at depth `z` ([`Reach::relief`]).
    #[inline]
    fn relief(&self, z: f32) -> f32 {
        Reach {
            near: self.near,
            far: self.far,
            farthest: self.farthest,
        }
        .relief(z)
    }

    /// The steps at one over the depths `iz`, in columns whose ground runs
    /// `across` per unit of depth (one each), added to `out`.
    fn steps(&self, across: &[f32], iz: &[f32], probe: &mut Probe, out: &mut Vec<Step>) {
        let Probe { x, z, samples, .. } = probe;
        z.clear();
        z.extend(iz.iter().map(|&iz| 1.0 / iz));
        x.clear();
        x.extend(across.iter().zip(z.iter()).map(|(&across, &z)| across * z));
        self.field.samples(self.build, x, z, None, samples);
        out.extend(iz.iter().zip(z.iter()).enumerate().map(|(i, (&iz, &z))| {
            let k = self.relief(z);
            let (h, rise, face) = if k > 0.0 {
                let s = samples.get(i);
                (s.h * k, (s.gx * across[i] + s.gz) * k, s.face)
            } else {
                (0.0, 0.0, 0)
            };
            Step {
                iz,
                y: self.horizon + self.h * (self.eye - h) * iz,
                rise,
                face,
                lattice: 0,
            }
        }));
    }

    /// The step at the picture's bottom: the rows below the horizon, in
    /// steps of flat sand. Nearer, the steps are [`COARSE`] times as long.
    fn under(&self) -> u32 {
        ((self.picture - self.horizon).max(0.0) / STEP).ceil() as u32
    }

    /// The step where a march to draw rows down to `bottom` (not included)
    /// starts: where the sand rises from flat (nearer, it lies under the
    /// picture), or nearer the horizon where no dune could reach those
    /// rows from nearer. The same in every column.
    fn start(&self, bottom: u32) -> u32 {
        // One over the depth per step, even on the screen for flat sand.
        let per = STEP / (self.h * self.eye);
        let flat = (1.0 / (self.near.0 * per)).ceil();
        let reach = ((bottom as f32 - self.horizon).max(0.0) / STEP * self.eye
            / (self.eye - self.field.tallest))
            .ceil();
        // Nearer than the picture's bottom the steps are four times as
        // long (they lie under the picture, and only hide what is behind
        // them): counted from the bottom's step, so that every march takes
        // the same steps.
        let under = self.under();
        let start = flat.min(reach) as u32 + 1;
        if start > under {
            under + (start - under).div_ceil(COARSE) * COARSE
        } else {
            start
        }
    }

    /// Marches columns `xs` from near to far, column `x` from step
    /// `start(x)` (see [`Step::lattice`]) to the horizon, or to the first
    /// step after it that comes up to row `stop` or higher (farther ground
    /// shows only above it), into `march.columns[..].points`.
    ///
    /// Every march takes the same steps (and halves them alike) from where
    /// it starts: a march from a nearer step gives the same steps farther
    /// on.
    fn march(&self, xs: Range<u32>, start: impl Fn(u32) -> u32, stop: f32, march: &mut March) {
        // One over the depth per step, even on the screen for flat sand.
        let per = STEP / (self.h * self.eye);
        let under = self.under();
        let March {
            columns,
            column,
            across,
            iz,
            lattice,
            found,
            probe,
        } = march;
        columns.resize_with(xs.len(), Column::default);
        columns.truncate(xs.len());
        for (c, x) in columns.iter_mut().zip(xs) {
            c.across = (x as f32 + 0.5 - self.middle) / self.h;
            c.start = start(x);
            // From the step before the first, for the first one's test of
            // a bend: the same as where the march starts further off.
            c.next = Some(c.start + if c.start >= under { COARSE } else { 1 });
            c.points.clear();
        }
        // A step of each column at a time (two the first time: the one
        // before the first, and the first), all worked out together.
        let mut first = true;
        loop {
            column.clear();
            across.clear();
            iz.clear();
            lattice.clear();
            for (i, c) in columns.iter_mut().enumerate() {
                for _ in 0..if first { 2 } else { 1 } {
                    let Some(k) = c.next else {
                        break;
                    };
                    column.push(i as u32);
                    across.push(c.across);
                    iz.push(k as f32 * per);
                    lattice.push(k);
                    c.next = (k > 1).then(|| k - if k > under { COARSE } else { 1 });
                }
            }
            if iz.is_empty() {
                break;
            }
            first = false;
            found.clear();
            self.steps(across, iz, probe, found);
            for ((step, &i), &k) in found.iter().zip(column.iter()).zip(lattice.iter()) {
                let c = &mut columns[i as usize];
                c.points.push(Step {
                    lattice: k,
                    ..*step
                });
                if k < c.start && step.y <= stop {
                    c.next = None;
                }
            }
        }
        // Halve the steps where three do not lie on a line, or a crest or
        // a crease lies between two.
        for c in columns.iter_mut() {
            c.halvings.clear();
            c.halvings.extend(c.points.windows(3).map(|w| {
                let [before, a, b] = [w[0], w[1], w[2]];
                let bent = (before.y - 2.0 * a.y + b.y).abs() > BEND
                    || a.crest_before(&b)
                    || a.crease_before(&b);
                if bent { HALVINGS } else { 0 }
            }));
            c.points.remove(0);
        }
        self.refine(march);
    }

    /// Calls `put(row, iz)` with one over the depth of the ground each of
    /// `rows` shows, from a column's march `points` (near to far): the
    /// rows whose centres lie between each step and the next (higher),
    /// above what is drawn already. A march that starts where nothing
    /// nearer comes up into `rows` (see [`DunesDraw::start`]) gives them as
    /// the whole column's does.
    fn shown(&self, points: &[Step], rows: Range<u32>, mut put: impl FnMut(u32, f32)) {
        let bottom = rows.end as f32;
        let mut top = bottom;
        for w in points.windows(2) {
            let (a, b) = (w[0], w[1]);
            if b.y >= top || b.y >= a.y {
                continue;
            }
            let lo = a.y.min(top);
            let mut r = (b.y - 0.5).ceil().max(rows.start as f32);
            while r + 0.5 < lo && r < bottom {
                let t = (a.y - (r + 0.5)) / (a.y - b.y);
                put(r as u32, a.iz + (b.iz - a.iz) * t);
                r += 1.0;
            }
            top = b.y;
        }
        // Beyond the last step the sand is flat to the horizon.
        let mut r = (self.horizon - 0.5).ceil().max(rows.start as f32);
        while r + 0.5 < top.min(bottom) {
            let iz = ((r + 0.5 - self.horizon) / (self.h * self.eye)).max(0.0);
            if iz > 0.0 {
                put(r as u32, iz);
            }
            r += 1.0;
        }
    }

    /// The row under chunk `c`'s rows, not included (see [`CHUNK`]).
    fn chunk_end(&self, c: u32) -> u32 {
        self.y0 + (c + 1) * CHUNK + 1
    }

    /// Marches the columns of block `b` (see [`DunesDraw::starts`]) whole,
    /// giving the first row that shows sand in any of them (`u32::MAX` if
    /// none). Writes their depths into `depth` if given (row after row,
    /// a lane a column), and into `starts` where their marches for each
    /// chunk may start: the last step before the first that comes up into
    /// the chunk's rows or higher, the nearest of their columns'.
    pub(super) fn prepare_block(
        &self,
        b: usize,
        mut depth: Option<&mut [f32]>,
        starts: &mut [u32],
    ) -> u32 {
        let x0 = self.x0 + (b * LANES) as u32;
        let x1 = (x0 + LANES as u32).min(self.x0 + self.cols);
        let rows = self.y0..self.y0 + self.rows;
        let start = self.start(rows.end);
        let mut march = March::default();
        self.march(x0..x1, |_| start, rows.start as f32 + 0.5, &mut march);
        let mut first = u32::MAX;
        for (lane, c) in march.columns.iter().enumerate() {
            let points = &c.points;
            self.shown(points, rows.clone(), |r, iz| {
                if iz > 0.0 {
                    first = first.min(r);
                }
                if let Some(depth) = depth.as_deref_mut() {
                    depth[(r - rows.start) as usize * LANES + lane] = iz;
                }
            });
            // The chunks from the lowest up: each step comes up to a
            // chunk's rows no sooner than to those of the chunk under it.
            let mut chunk = starts.len();
            let mut put = |c: usize, k: u32| starts[c] = starts[c].max(k);
            let mut last = points.first().map_or(start, |p| p.lattice);
            for p in points {
                while chunk > 0 && p.y < self.chunk_end(chunk as u32 - 1) as f32 {
                    chunk -= 1;
                    put(chunk, last);
                }
                if p.lattice > 0 {
                    last = p.lattice;
                }
            }
            // The chunks no step comes up to: from the last step on, flat
            // sand to the horizon.
            for c in 0..chunk {
                put(c, last);
            }
        }
        first
    }

    /// One over the depth of the ground each pixel of columns `cols` and
    /// rows `rows` shows, each column marched from its block's start for
    /// the chunk that ends at or under `rows.end`.
    fn march_chunk(&self, cols: Range<u32>, rows: Range<u32>) -> Depths {
        let mut depths = Depths::new(cols.clone(), rows.clone());
        let c = ((rows.end - self.y0 - 1).div_ceil(CHUNK).max(1) - 1) as usize;
        let whole = self.start(self.y0 + self.rows);
        let chunks = self.chunks as usize;
        let start = |x: u32| {
            let b = (x - self.x0) as usize / LANES;
            if c < chunks {
                self.starts[b * chunks + c]
            } else {
                whole
            }
        };
        let mut march = March::default();
        let n = rows.len();
        for (i, block) in depths.iz.chunks_mut(LANES * n).enumerate() {
            let x0 = cols.start + (i * LANES) as u32;
            let x1 = (x0 + LANES as u32).min(cols.end);
            self.march(x0..x1, start, rows.start as f32 + 0.5, &mut march);
            for (lane, column) in march.columns.iter().enumerate() {
                self.shown(&column.points, rows.clone(), |r, iz| {
                    block[(r - rows.start) as usize * LANES + lane] = iz;
                });
            }
        }
        depths
    }

    /// The depths of the pixels of columns `cols` and rows `rows`: the
    /// whole picture's, a chunk marched lately, or the chunk of rows from
    /// the one `rows` starts in marched now (the row after it too: a band
    /// reads it), kept for the next bands.
    pub(super) fn depths(&self, cols: Range<u32>, rows: Range<u32>) -> Arc<Depths> {
        if let Some(whole) = &self.whole {
            return whole.clone();
        }
        if cols.is_empty() || rows.is_empty() {
            return Arc::new(Depths::new(cols, rows));
        }
        let lock = || self.kept.lock().unwrap_or_else(|e| e.into_inner());
        {
            let mut kept = lock();
            if let Some(i) = kept.iter().position(|d| d.holds(&cols, &rows)) {
                let d = kept.remove(i);
                kept.push(d.clone());
                return d;
            }
        }
        let top = self.y0 + (rows.start - self.y0) / CHUNK * CHUNK;
        let bottom = (top + CHUNK + 1).max(rows.end).min(self.y0 + self.rows);
        let depths = Arc::new(self.march_chunk(cols, top..bottom));
        let mut kept = lock();
        // A chunk for each thread drawing, and one more.
        if kept.len() > rayon::current_num_threads() {
            kept.remove(0);
        }
        kept.push(depths.clone());
        depths
    }

    /// Halves the segments between each column's steps (near to far),
    /// segment `i` up to `halvings[i]` times, while its middle lies off the
    /// line between its ends or a crest or crease lies between: all the
    /// segments of all the columns a halving at a time, so that their
    /// middles are worked out together.
    fn refine(&self, march: &mut March) {
        let one_face = |a: &Step, b: &Step| !a.crest_before(b) && !a.crease_before(b);
        let March {
            columns,
            across,
            iz,
            found,
            probe,
            ..
        } = march;
        loop {
            across.clear();
            iz.clear();
            for c in columns.iter() {
                for (w, _) in c
                    .points
                    .windows(2)
                    .zip(&c.halvings)
                    .filter(|&(_, &h)| h > 0)
                {
                    across.push(c.across);
                    iz.push(0.5 * (w[0].iz + w[1].iz));
                }
            }
            if iz.is_empty() {
                return;
            }
            found.clear();
            self.steps(across, iz, probe, found);
            let mut middle = found.iter();
            for c in columns.iter_mut() {
                if c.halvings.iter().all(|&h| h == 0) {
                    continue;
                }
                let Column {
                    points,
                    halvings,
                    spare_points,
                    spare_halvings,
                    ..
                } = c;
                spare_points.clear();
                spare_halvings.clear();
                for (w, &h) in points.windows(2).zip(halvings.iter()) {
                    let (a, b) = (w[0], w[1]);
                    spare_points.push(a);
                    if h == 0 {
                        spare_halvings.push(0);
                        continue;
                    }
                    let m = *middle.next().expect("a middle for each segment halved");
                    let straight = (m.y - 0.5 * (a.y + b.y)).abs() <= 0.5 * BEND;
                    let left = if straight && one_face(&a, &m) && one_face(&m, &b) {
                        0
                    } else {
                        h - 1
                    };
                    spare_points.push(m);
                    spare_halvings.extend([left, left]);
                }
                spare_points.extend(points.last());
                std::mem::swap(points, spare_points);
                std::mem::swap(halvings, spare_halvings);
            }
        }
    }
}
