//! The rocks prepared for one picture ([`RocksDraw`]): the stones placed,
//! grid row by grid row ([`StoneRow`]), and which rows each band of the
//! picture looks at ([`BandRows`]). Placing makes it ([`super::place`]);
//! culling, the shaders and drawing read it.

use super::outline::{Outline, Rough};
use super::shade::Lighting;
use crate::layers::BAND_ROWS;
use crate::layers::tent::Clearing;

/// For each band, the grid rows whose stones may touch it: a stone's box
/// follows its row's place (far rows higher up) give or take its jitter
/// and size, so the stones touching a band come from a run of rows. A band
/// checks each stone of the run against its box.
pub(super) struct BandRows {
    /// `rows[b]`: grid rows `first..last` for band `b` (empty if none).
    rows: Vec<(u32, u32)>,
    /// `reach[r]`: the lowest pixel row (excluded) the boxes of grid rows
    /// `0..=r` reach: far rows lie higher up, so once a band is covered
    /// down to it, the rows from `r` farther are hidden.
    pub(super) reach: Vec<i32>,
}

impl BandRows {
    /// The grid rows each of `bands` bands looks at, and how far down the
    /// rows reach, from the grid rows' `stones`.
    pub(super) fn new(stones: &[StoneRow], bands: usize) -> BandRows {
        let mut rows = vec![(u32::MAX, 0u32); bands];
        let mut reach = Vec::with_capacity(stones.len());
        let mut lowest = i32::MIN;
        for (r, row) in stones.iter().enumerate() {
            let Some((top, bottom)) = row.extent else {
                reach.push(lowest);
                continue;
            };
            lowest = lowest.max(bottom);
            reach.push(lowest);
            let b0 = (top.max(0) as u32 / BAND_ROWS) as usize;
            let b1 = ((bottom.max(0) as u32).saturating_sub(1) / BAND_ROWS) as usize;
            for band in rows.iter_mut().take(b1.saturating_add(1)).skip(b0) {
                band.0 = band.0.min(r as u32);
                band.1 = band.1.max(r as u32 + 1);
            }
        }
        BandRows { rows, reach }
    }

    /// The grid rows whose stones may touch band `b`.
    pub(super) fn band(&self, b: usize) -> std::ops::Range<u32> {
        match self.rows.get(b) {
            Some(&(first, last)) if first < last => first..last,
            _ => 0..0,
        }
    }
}

/// The rocks prepared for one picture.
pub(super) struct RocksDraw {
    /// Which preparation this is (each has its own), for the threads'
    /// caches of rolled stones ([`BandScratch::rolled`]).
    pub(super) id: u64,
    /// The layer's opacity, 0 to 1 ([`Rocks::opacity`]).
    ///
    /// [`Rocks::opacity`]: super::Rocks::opacity
    pub(super) opacity: f32,
    /// The stones, grid row by grid row, far to near.
    pub(super) rows: Vec<StoneRow>,
    /// Which grid rows each band looks at.
    pub(super) index: BandRows,
    /// The light the stones' faces are lit by.
    pub(super) lighting: Lighting,
    /// The clouds' shade on the ground, if any: a stone in it gets less of
    /// the sun's light.
    pub(super) shade: Option<crate::layers::clouds::CloudShade>,
    /// Strength of the contact shadows: the palette's times the layer's.
    pub(super) shadow: f32,
    /// How deep the stones sit in the sand ([`Rocks::sink`]).
    ///
    /// [`Rocks::sink`]: super::Rocks::sink
    pub(super) sink: f32,
    /// What every stone's outline shares, to roll a stone whole.
    pub(super) outline: Outline,
    /// The tents' clearings it was placed around.
    pub(super) clearings: Vec<Clearing>,
    /// Whether hidden pixels are left undrawn: always, but in the test
    /// that checks this against drawing every stone whole.
    pub(super) cull: bool,
}

/// Preparations of the rocks so far: each [`RocksDraw`] takes the next
/// number as its `id`.
pub(super) static PREPARED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The stones of one grid row, west to east, and their boxes in pixels
/// (x0, y0, x1, y1; x1, y1 excluded; maybe partly outside the picture),
/// kept apart: most stones of a packed field are only ever looked at by
/// their box, and never rolled whole.
pub(super) struct StoneRow {
    /// Each stone's box, as `stones`.
    pub(super) boxes: Vec<[i32; 4]>,
    /// Each stone, placed and bounded, to roll whole when it shows.
    pub(super) stones: Vec<Rough>,
    /// In one ground, each stone's foot ([`Placed::foot`]), as `stones`;
    /// empty elsewhere.
    pub(super) feet: Vec<[f32; 2]>,
    /// Number of the row's first stone, counting from the far row's.
    pub(super) first: u32,
    /// The pixel rows its boxes span, top to bottom (excluded); `None`
    /// for a row without stones.
    pub(super) extent: Option<(i32, i32)>,
    /// The highest and lowest centre of its stones and grains, counting
    /// those a tent cleared, in each of [`CENTRE_BLOCKS`] blocks of
    /// columns ([`Placer::block`]): where a clearing can touch the row.
    /// (Empty blocks hold (∞, -∞).)
    pub(super) centres: [(f32, f32); CENTRE_BLOCKS],
}

/// Blocks of columns a row notes its stones' centres in.
pub(super) const CENTRE_BLOCKS: usize = 16;

/// A stone (or grain) placed: its box and itself, and in one ground its
/// foot.
pub(super) struct Placed {
    /// Its box in pixels (x0, y0, x1, y1; x1, y1 excluded).
    pub(super) bbox: [i32; 4],
    /// The stone, placed and bounded.
    pub(super) rough: Rough,
    /// In one ground: its foot's key (pixels under the horizon of its
    /// place on flat ground, see [`crate::layers::world`]) and how many
    /// pixels its box reaches below its foot as the ground lifts it (the
    /// margin of [`crate::layers::world::Depth::shows`]).
    pub(super) foot: Option<[f32; 2]>,
}

impl StoneRow {
    /// A row with room for `n` stones, and their feet in one ground
    /// (`feet`).
    pub(super) fn with_capacity(n: usize, feet: bool) -> StoneRow {
        StoneRow {
            boxes: Vec::with_capacity(n),
            stones: Vec::with_capacity(n),
            feet: Vec::with_capacity(if feet { n } else { 0 }),
            first: 0,
            extent: None,
            centres: [(f32::INFINITY, f32::NEG_INFINITY); CENTRE_BLOCKS],
        }
    }

    /// Notes a stone or grain centred on pixel row `y` in block `block`
    /// of columns, cleared or not.
    #[inline]
    pub(super) fn near(&mut self, block: usize, y: f32) {
        let (top, bottom) = &mut self.centres[block];
        *top = top.min(y);
        *bottom = bottom.max(y);
    }

    /// Adds a stone placed, east of the row's others (or a grain in front).
    pub(super) fn push(&mut self, placed: Placed) {
        let Placed { bbox, rough, foot } = placed;
        let (top, bottom) = self.extent.unwrap_or((bbox[1], bbox[3]));
        self.extent = Some((top.min(bbox[1]), bottom.max(bbox[3])));
        self.boxes.push(bbox);
        self.stones.push(rough);
        if let Some(foot) = foot {
            self.feet.push(foot);
        }
    }
}
