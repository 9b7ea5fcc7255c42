//! The occlusion pass: for a band, the runs of pixels each stone paints,
//! nearest stone first, leaving out what a nearer opaque stone covers (one
//! bit per pixel of the band), so a packed field costs its visible pixels.

use super::outline::Stone;
use super::prepared::RocksDraw;
use super::runs::{BodyRow, Part, Run};
use crate::layers::world::Depth;
use crate::layers::{BAND_ROWS, Band};

/// A thread's scratch for drawing a band, kept between bands: the occlusion
/// pass's bit mask and the runs it finds, the stones that show, and a cache
/// of stones rolled whole.
#[derive(Default)]
pub(super) struct BandScratch {
    /// One bit per pixel of the band, row after row (`words` per row): set
    /// where a nearer stone already covers the pixel opaquely.
    mask: Vec<u64>,
    /// What is left to draw, nearest stone first (for each row of a stone,
    /// the runs of its body, then of its shadow).
    pub(super) runs: Vec<Run>,
    /// The stones that show in the band, rolled whole.
    pub(super) stones: Vec<Stone>,
    /// Per 64 columns, the bits set in every row of `mask`: columns the
    /// band has covered from top to bottom.
    full: Vec<u64>,
    /// Stones rolled in earlier bands of the preparation `rolled_for`, by
    /// number ([`StoneRow::first`]) modulo [`ROLLED`]: a stone is looked
    /// at by every band it spans, mostly on the same thread in turn.
    ///
    /// [`StoneRow::first`]: super::place::StoneRow::first
    rolled: Vec<Option<(u32, Stone)>>,
    rolled_for: Option<u64>,
    /// In one ground, the stones that meet the band, nearest foot first:
    /// key, grid row and place in the row.
    order: Vec<(f32, u32, u32)>,
}

/// Slots of a thread's cache of rolled stones ([`BandScratch::rolled`]).
const ROLLED: usize = 2048;

impl RocksDraw {
    /// Lists in `scratch.runs` the pixels of `band` the stones paint, nearest
    /// stone first. With `cull`, a pixel that a nearer stone covers
    /// opaquely is left out (a stone hidden whole is skipped whole): it
    /// would be painted over exactly, so leaving it out changes no pixel,
    /// and a packed field costs its visible pixels, not its stones' area.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    pub(super) unsafe fn visible_runs_avx2(
        &self,
        band: &Band,
        scratch: &mut BandScratch,
        cull: bool,
    ) {
        self.visible_runs(band, scratch, cull);
    }

    /// What [`RocksDraw::visible_runs_avx2`] does, for any build: inlined
    /// into the build that calls it. In one ground (the band keeps
    /// depths), the stones are looked at nearest first by their feet's
    /// keys, and a stone's runs are only the pixels where it shows
    /// ([`Depth::shows`]): drawn far to near, each over what is behind it
    /// whatever its grid row, and what a stone hides is what it paints.
    #[inline(always)]
    pub(super) fn visible_runs(&self, band: &Band, scratch: &mut BandScratch, cull: bool) {
        let words = band.width.div_ceil(64) as usize;
        let rows = band.rows as usize;
        let by0 = band.y0 as i32;
        scratch.runs.clear();
        scratch.stones.clear();
        scratch.mask.clear();
        scratch.mask.resize(words * rows, 0);
        scratch.full.clear();
        scratch.full.resize(words, 0);
        if scratch.rolled_for != Some(self.id) {
            scratch.rolled.clear();
            scratch.rolled.resize(ROLLED, None);
            scratch.rolled_for = Some(self.id);
        }
        // Opaque stones hide what is behind them; translucent ones do not.
        let cull = cull && self.opacity >= 1.0;
        let mut open = Open {
            all: rows as u64 * u64::from(band.width),
            rows: [band.width; BAND_ROWS as usize],
        };
        if band.depth.is_some() {
            self.nearest_first(band, scratch, cull, &mut open);
            return;
        }
        'rows: for r in self.index.band(band.index).rev() {
            // Covered down to where this row and the farther ones reach:
            // they are hidden.
            let reach = (self.index.reach[r as usize] - by0).clamp(0, rows as i32) as usize;
            if cull && open.rows[..reach].iter().all(|&n| n == 0) {
                break;
            }
            for i in (0..self.rows[r as usize].boxes.len()).rev() {
                if self.stone_runs(band, scratch, cull, &mut open, (r, i), None) {
                    // The band is covered: every stone farther away is
                    // hidden.
                    break 'rows;
                }
            }
        }
    }

    /// [`RocksDraw::visible_runs`] in one ground: the stones whose boxes
    /// meet `band`, nearest foot first (of two at one depth, the one the
    /// grid draws later: it is drawn over the other).
    #[inline(always)]
    fn nearest_first(&self, band: &Band, scratch: &mut BandScratch, cull: bool, open: &mut Open) {
        let mut order = std::mem::take(&mut scratch.order);
        order.clear();
        for r in self.index.band(band.index) {
            let row = &self.rows[r as usize];
            for (i, bbox) in row.boxes.iter().enumerate() {
                if meets(band, bbox) {
                    order.push((row.feet[i][0], r, i as u32));
                }
            }
        }
        order.sort_unstable_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then_with(|| (b.1, b.2).cmp(&(a.1, a.2)))
        });
        for &(_, r, i) in &order {
            let foot = self.rows[r as usize].feet[i as usize];
            if self.stone_runs(band, scratch, cull, open, (r, i as usize), Some(foot)) {
                break;
            }
        }
        scratch.order = order;
    }

    /// Lists in `scratch.runs` the runs of stone `i` of grid row `r` on
    /// `band`, if its box meets the band, leaving out with `cull` what
    /// nearer stones cover (see [`RocksDraw::visible_runs`]), and with
    /// the stone's `foot` (in one ground) what does not show. Returns
    /// whether the band is now covered whole.
    #[inline(always)]
    fn stone_runs(
        &self,
        band: &Band,
        scratch: &mut BandScratch,
        cull: bool,
        open: &mut Open,
        (r, i): (u32, usize),
        foot: Option<[f32; 2]>,
    ) -> bool {
        // The band's columns: the mask's bit `x - bx0` is column `x`.
        let (bx0, bx1) = (band.x0, band.x1());
        let cols = [bx0, bx1];
        let words = band.width.div_ceil(64) as usize;
        let rows = band.rows as usize;
        let (by0, by1) = (band.y0 as i32, band.y1() as i32);
        let row = &self.rows[r as usize];
        let bbox = &row.boxes[i];
        if !meets(band, bbox) {
            return false;
        }
        let y0 = bbox[1].max(by0) as u32;
        let y1 = bbox[3].min(by1) as u32;
        // Columns in the mask.
        let x0 = bbox[0].clamp(bx0 as i32, bx1 as i32) as u32 - bx0;
        let x1 = bbox[2].clamp(bx0 as i32, bx1 as i32) as u32 - bx0;
        let mask_of = |y: u32| (y - band.y0) as usize * words;
        if cull
            && (covered(&scratch.full, x0, x1)
                || (y0..y1).all(|y| covered(&scratch.mask[mask_of(y)..][..words], x0, x1)))
        {
            return false;
        }
        let number = row.first + i as u32;
        let mut s = match &mut scratch.rolled[number as usize % ROLLED] {
            Some((n, s)) if *n == number => *s,
            slot => slot.insert((number, row.stones[i].stone(&self.outline))).1,
        };
        // In one ground, the band's depths and the stone's foot.
        let depth = foot.and_then(|foot| band.depth.as_ref().map(|d| (d, foot)));
        if let Some((_, [key, _])) = depth {
            s.key = key;
        }
        let stone = scratch.stones.len() as u32;
        let mut filled = false;
        for y in y0..y1 {
            let m = &mut scratch.mask[mask_of(y)..][..words];
            if cull && covered(m, x0, x1) {
                continue;
            }
            let runs = &mut scratch.runs;
            // Runs in the picture's columns.
            let push = |runs: &mut Vec<Run>, part: Part, a: u32, b: u32| {
                runs.push(Run {
                    stone,
                    y,
                    a,
                    b,
                    part,
                })
            };
            // Columns `[a, b)` in the mask's bits.
            let bits = |[a, b]: [u32; 2]| [a - bx0, b - bx0];
            if let Some(fit) = s.fit(y) {
                let body = s.body(&fit, cols);
                let part = Part::Body(BodyRow {
                    nv: fit.nv,
                    cx: fit.cx,
                    inv: fit.inv,
                });
                if !cull {
                    shown(depth, band, y, body, |a, b| push(runs, part, a, b));
                } else {
                    let before = runs.len();
                    shown(depth, band, y, body, |a, b| {
                        open_runs(m, bits([a, b]), |a, b| push(runs, part, a + bx0, b + bx0))
                    });
                    // Where the body shows and is whole, it hides
                    // what is behind, its own shadow too.
                    if runs.len() > before {
                        let inside = s.inside(&fit, cols);
                        if inside[0] < inside[1] {
                            let mut added = 0;
                            shown(depth, band, y, inside, |a, b| {
                                added += fill(m, bits([a, b]))
                            });
                            open.all -= added;
                            open.rows[(y - band.y0) as usize] -= added as u32;
                            filled = true;
                        }
                    }
                }
            }
            if let Some((shadow, row)) = s.shadow(y, cols) {
                let part = Part::Shadow(row);
                if !cull {
                    shown(depth, band, y, shadow, |a, b| push(runs, part, a, b));
                } else {
                    shown(depth, band, y, shadow, |a, b| {
                        open_runs(m, bits([a, b]), |a, b| push(runs, part, a + bx0, b + bx0))
                    });
                }
            }
        }
        if scratch.runs.last().is_some_and(|run| run.stone == stone) {
            scratch.stones.push(s);
        }
        if filled {
            if open.all == 0 {
                return true;
            }
            // The columns covered top to bottom, where this stone
            // filled.
            let (w0, w1) = ((x0 / 64) as usize, (x1.max(1) - 1) as usize / 64);
            for w in w0..=w1.min(words - 1) {
                scratch.full[w] =
                    (0..rows).fold(u64::MAX, |all, k| all & scratch.mask[k * words + w]);
            }
        }
        false
    }
}

/// What the occlusion pass has left open of a band.
struct Open {
    /// Open pixels of the band.
    all: u64,
    /// Open pixels per row of the band.
    rows: [u32; BAND_ROWS as usize],
}

/// Whether the box `bbox` (x0, y0, x1, y1; x1, y1 excluded) meets `band`.
#[inline(always)]
fn meets(band: &Band, bbox: &[i32; 4]) -> bool {
    !(bbox[1] >= band.y1() as i32
        || bbox[3] <= band.y0 as i32
        || bbox[0] >= band.x1() as i32
        || bbox[2] <= band.x0 as i32)
}

/// Calls `run(a, b)` for each run of columns of `[a, b)` on row `y` of
/// `band` where a stone whose foot is `(key, margin)` shows, with the
/// band's depths ([`Depth::shows`]); for `[a, b)` itself without.
#[inline(always)]
fn shown(
    depth: Option<(&Depth, [f32; 2])>,
    band: &Band,
    y: u32,
    [a, b]: [u32; 2],
    mut run: impl FnMut(u32, u32),
) {
    let Some((depth, [key, margin])) = depth else {
        run(a, b);
        return;
    };
    if a >= b {
        return;
    }
    let at = band.at(a, y);
    let shows = |x: u32| depth.shows(at + (x - a) as usize, key, margin);
    let mut x = a;
    while x < b {
        while x < b && !shows(x) {
            x += 1;
        }
        let start = x;
        while x < b && shows(x) {
            x += 1;
        }
        if start < x {
            run(start, x);
        }
    }
}

/// Whether every bit of columns `x0..x1` is set in the row `mask`.
fn covered(mask: &[u64], x0: u32, x1: u32) -> bool {
    if x0 >= x1 {
        return true;
    }
    let (w0, w1) = ((x0 / 64) as usize, ((x1 - 1) / 64) as usize);
    let (first, last) = (u64::MAX << (x0 % 64), u64::MAX >> (63 - (x1 - 1) % 64));
    if w0 == w1 {
        let bits = first & last;
        return mask[w0] & bits == bits;
    }
    // (Plain slices and ranges: an inclusive range costs more per step.)
    mask[w0] & first == first
        && mask[w0 + 1..w1].iter().all(|&w| w == u64::MAX)
        && mask[w1] & last == last
}

/// Calls `run(a, b)` for each run of columns of `[a, b)` whose bits are
/// clear in the row `mask`, west to east.
fn open_runs(mask: &[u64], [a, b]: [u32; 2], mut run: impl FnMut(u32, u32)) {
    let mut x = a;
    while x < b {
        // Skip set bits, then take clear ones, a word at a time.
        let w = mask[(x / 64) as usize] >> (x % 64);
        let set = w.trailing_ones().min(64 - x % 64);
        if set > 0 {
            x += set;
            continue;
        }
        let mut end = x + w.trailing_zeros().min(64 - x % 64);
        while end < b && end.is_multiple_of(64) {
            let w = mask[(end / 64) as usize];
            end += w.trailing_zeros();
            if w != 0 {
                break;
            }
        }
        let end = end.min(b);
        run(x, end);
        x = end;
    }
}

/// Sets the bits of columns `a..b` in the row `mask`; returns how many were
/// not set before.
fn fill(mask: &mut [u64], [a, b]: [u32; 2]) -> u64 {
    let (w0, w1) = ((a / 64) as usize, ((b - 1) / 64) as usize);
    let mut added = 0;
    for (w, word) in (w0..w1 + 1).zip(&mut mask[w0..w1 + 1]) {
        let lo = if w == w0 { a % 64 } else { 0 };
        let hi = if w == w1 { (b - 1) % 64 } else { 63 };
        let bits = (u64::MAX >> (63 - hi)) & (u64::MAX << lo);
        added += u64::from((bits & !*word).count_ones());
        *word |= bits;
    }
    added
}
