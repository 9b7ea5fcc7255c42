//! Placing the stones: each live cell of the grid becomes a stone on the
//! ground in perspective, far rows higher up and smaller. A clump of cells
//! is one rock (one colour and tone); its stones heap and spread around
//! its centre, an outcrop's 2×2 blocks may merge into boulders, and no
//! stone lies on ground a tent clears. Only each stone's box and rough
//! shape are kept, row by row. A stone is as large as the eye's height
//! draws a thing at its row, and in one ground it stands on the sand: the
//! stone and its shadow lifted as the sand lifts its foot (see
//! [`crate::layers::world`]).

use rayon::prelude::*;

use super::Rocks;
use super::gravel::Gravel;
use super::outline::{Outline, Rough, SHAPE_ROLLS};
use super::prepared::{BandRows, CENTRE_BLOCKS, PREPARED, Placed, RocksDraw, StoneRow};
use super::shade::Lighting;
use crate::base::color::{Linear, mix, mul, scale};
use crate::base::noise::{Dice, hash2, signed, sub_seed, unit};
use crate::layers::tent::Clearing;
use crate::layers::{BAND_ROWS, Frame};

/// What placing the stones of one picture's grid rows shares: the rocks'
/// settings, the frame, and each clump's rock.
pub(super) struct Placer<'a> {
    settings: &'a Rocks,
    f: &'a Frame<'a>,
    seed: u32,
    lighting: Lighting,
    /// The share of boulders among an outcrop's 2×2 blocks, of `u32::MAX`.
    merge: u64,
    /// The fewest cells of an outcrop.
    outcrop: u32,
    depth: f32,
    y_far: f32,
    span: f32,
    cell_w: f32,
    /// Blocks of columns ([`CENTRE_BLOCKS`]) per pixel.
    per_block: f32,
    /// How much larger the eye's height draws a stone at its row
    /// ([`crate::layers::world::World::scale`]).
    scale: f32,
    outline: Outline,
    /// Each clump's rock, by clump.
    rocks: Vec<Rock>,
}

impl<'a> Placer<'a> {
    /// The placer of `settings`' stones in frame `f`: its light, its
    /// perspective and each clump's rock.
    pub(super) fn new(settings: &'a Rocks, f: &'a Frame<'a>) -> Placer<'a> {
        let grid = f.grid;
        let (cols, rows) = (grid.width(), grid.height());
        let p = &f.palette;
        let seed = sub_seed(f.seed, 300);
        let clump_seed = sub_seed(f.seed, 301);
        let light = p.light;
        // Shadows fall away from the sun, longer when it is low.
        let flat = (light[0] * light[0] + light[2] * light[2]).sqrt().max(1e-3);
        let (sx, sz) = (-light[0] / flat, -light[2] / flat);
        let len = (flat / light[1].max(0.12)).clamp(0.35, 2.5);
        let depth = settings.near_size / settings.far_size;
        let y_far = f.horizon_frac + settings.top;
        let span = settings.bottom - y_far;
        // The stone colours are translucent colours laid over the sand,
        // made opaque: the same flat colour, but solid stones that shade
        // and overlap cleanly.
        let sand = f.ground;
        let colors = [
            mix(sand, settings.primary.linear(), settings.primary_alpha),
            mix(sand, settings.secondary.linear(), settings.secondary_alpha),
        ];
        let lighting = Lighting {
            direct: p.direct,
            ambient: p.ambient,
            bounce: scale(mul(sand, p.ground), 0.35),
            light,
            // The sand banked against a stone's foot: the floor's sand as
            // the floor lights it, in the stone's shade.
            sand: scale(mul(sand, p.ground), 0.62),
        };
        let secondary = (f64::from(settings.secondary_share) * f64::from(u32::MAX)) as u64;
        let merge = (f64::from(settings.merge) * f64::from(u32::MAX)) as u64;
        // A clump is one rock: one colour, tone and blockiness for its
        // stones (a pebble is its own clump), heaped around its centre.
        let rocks: Vec<Rock> = (0..f.clumps.len())
            .into_par_iter()
            .map(|k| {
                let clump = &f.clumps[k];
                let mut rock = Dice::new(hash2(k as u32, 0x5eed, clump_seed));
                let pick = u64::from(rock.bits()) < secondary;
                let tone = 0.8 + 0.4 * rock.unit();
                let warm = 0.08 * rock.signed();
                let base = colors[usize::from(pick)];
                let albedo = [
                    base[0] * tone * (1.0 + warm),
                    base[1] * tone,
                    base[2] * tone * (1.0 - warm),
                ];
                let (x0, x1, y0, y1) = (clump.min_x, clump.max_x, clump.min_y, clump.max_y);
                Rock {
                    albedo,
                    blocky: rock.unit(),
                    centre: (
                        unwrap(clump.centroid.0, x0, x1, cols),
                        unwrap(clump.centroid.1, y0, y1, rows),
                    ),
                    reach: 0.5 * ((x1 - x0) as f32).max((y1 - y0) as f32) + 1.0,
                }
            })
            .collect();
        Placer {
            settings,
            f,
            seed,
            lighting,
            merge,
            outcrop: settings.outcrop.max(2),
            depth,
            y_far,
            span,
            cell_w: f.w / cols as f32,
            per_block: CENTRE_BLOCKS as f32 / f.w,
            scale: f.world.scale,
            outline: Outline {
                roughness: settings.roughness,
                sink: settings.sink,
                shadow: (sx * len, sz * len),
            },
            rocks,
        }
    }

    /// The clump of a cell, if it is alive.
    fn clump_at(&self, c: usize, r: usize) -> Option<u32> {
        self.f.labels[r * self.f.grid.width() + c].checked_sub(1)
    }

    /// Whether the 2×2 block of cells from (`bx`, `by`) (even) is one
    /// boulder: all four alive, in an outcrop, and the dice say so.
    fn boulder(&self, bx: usize, by: usize) -> bool {
        let grid = self.f.grid;
        if bx + 1 >= grid.width() || by + 1 >= grid.height() {
            return false;
        }
        let Some(k) = self.clump_at(bx, by) else {
            return false;
        };
        self.f.clumps[k as usize].cells >= self.outcrop
            && [(bx + 1, by), (bx, by + 1), (bx + 1, by + 1)]
                .iter()
                .all(|&(c, r)| self.clump_at(c, r).is_some())
            && u64::from(hash2(bx as u32, by as u32, self.seed ^ 0x6b0u32)) < self.merge
    }

    /// Screen row and stone size of (fractional) grid row `rf`: rows
    /// evenly spaced in depth, screen height and size going as 1 / depth,
    /// normalized so the far row sits at y_far; the size as large as the
    /// eye's height makes a thing at that row (exactly the settings' at
    /// the default eye).
    fn place(&self, rf: f32) -> (f32, f32) {
        let (depth, f) = (self.depth, self.f);
        let t = (rf + 0.5) / f.grid.height() as f32;
        let (s, norm) = if (depth - 1.0).abs() < 1e-3 {
            (1.0, t)
        } else {
            let s = 1.0 / (depth + (1.0 - depth) * t);
            (s, (s - 1.0 / depth) / (1.0 - 1.0 / depth))
        };
        (
            (self.y_far + self.span * norm) * f.h,
            self.settings.near_size * s * f.h * self.scale,
        )
    }

    /// The tents' `clearings` as grid row `r` clears them, grown by its
    /// stone size: centre and inverse radii in pixels.
    fn clearings(&self, r: usize, clearings: &[Clearing]) -> Vec<[f32; 4]> {
        let h = self.f.h;
        let d = self.place(r as f32).1;
        clearings
            .iter()
            .map(|c| {
                let (rx, ry) = (c.rx * h + 0.4 * d, c.ry * h + 0.3 * d);
                [c.x * h, c.y * h, 1.0 / rx, 1.0 / ry]
            })
            .collect()
    }

    /// Which of a row's [`CENTRE_BLOCKS`] blocks of columns pixel column
    /// `x` falls in (the blocks at the ends reach on past the picture).
    #[inline]
    fn block(&self, x: f32) -> usize {
        ((x * self.per_block) as i32).clamp(0, CENTRE_BLOCKS as i32 - 1) as usize
    }

    /// The stone that `make` makes at a centre row, whose foot lies at
    /// (`x`, `y`) on flat ground: there, but in one ground lifted as the
    /// ground lifts its foot, with its foot's key and reach (see
    /// [`Placed::foot`]).
    #[inline]
    fn stand(&self, x: f32, y: f32, make: impl FnOnce(f32) -> ([i32; 4], Rough)) -> Placed {
        let world = &self.f.world;
        if !world.on {
            let (bbox, rough) = make(y);
            return Placed {
                bbox,
                rough,
                foot: None,
            };
        }
        let key = y - self.f.horizon;
        let foot = y - world.lift(x, key);
        let (bbox, rough) = make(foot);
        Placed {
            bbox,
            rough,
            foot: Some([key, bbox[3] as f32 - foot]),
        }
    }

    /// Whether one of `clearings` may clear a stone of grid row `r`, as
    /// placed in `row`: whether one reaches where its stones and grains
    /// (cleared or not) were placed.
    pub(super) fn near_clearings(&self, r: usize, row: &StoneRow, clearings: &[Clearing]) -> bool {
        self.clearings(r, clearings)
            .iter()
            .any(|&[cx, cy, irx, iry]| {
                let (rx, ry) = (1.0 / irx, 1.0 / iry);
                row.centres[self.block(cx - rx)..=self.block(cx + rx)]
                    .iter()
                    .any(|&(top, bottom)| cy - ry <= bottom && top <= cy + ry)
            })
    }

    /// The stones of grid row `r`, west to east, then its gravel. With
    /// `before`, the clearings the row was placed around before, also adds
    /// to `changed` the pixel rows (`y0..y1`) of each stone or grain that
    /// lies there now but did not then, or did then but not now.
    pub(super) fn row(
        &self,
        r: usize,
        before: Option<&[Clearing]>,
        changed: &mut Vec<(i32, i32)>,
    ) -> StoneRow {
        let (f, settings, outline) = (self.f, self.settings, &self.outline);
        let grid = f.grid;
        let (cols, rows) = (grid.width(), grid.height());
        let (seed, merge, gravel) = (self.seed, self.merge, settings.gravel);
        let (y_row, d) = self.place(r as f32);
        // Screen rows per grid row here, for spreading clumps.
        let row_h = self.place(r as f32 + 0.5).0 - self.place(r as f32 - 0.5).0;
        let r32 = r as u32;
        // The tents' clearings, grown by this row's stone size.
        let clear = self.clearings(r, &f.clearings);
        // No stones where a tent is pitched.
        let cleared = |x: f32, y: f32| inside(&clear, x, y);
        let before = before.map(|b| {
            let clear = self.clearings(r, b);
            move |x: f32, y: f32| inside(&clear, x, y)
        });
        let count: usize = grid.row(r).iter().map(|w| w.count_ones() as usize).sum();
        // Room for the gravel too: a row is never moved as it grows.
        let mut row = StoneRow::with_capacity(count + count / 2, f.world.on);
        let mut grains = Vec::new();
        // First the cells that get a stone, then their dice, rolled
        // together (see [`roll_ahead`]), then the stones.
        let mut cells = Vec::with_capacity(count);
        // The last 2×2 block looked at, and whether it is a boulder
        // (a row's cells come two to a block).
        let mut block = (usize::MAX, false);
        for c in live_in_row(grid, r) {
            let k = self.clump_at(c, r).expect("a live cell has a clump");
            let role = match f.clumps[k as usize].cells {
                1 => Role::Pebble,
                n if n < self.outcrop => Role::Group,
                _ => Role::Outcrop,
            };
            // An outcrop's 2×2 boulder is its top-left cell's stone;
            // the other three cells have none.
            let (bx, by) = (c & !1, r & !1);
            let merged = role == Role::Outcrop && merge > 0 && {
                if block.0 != bx {
                    block = (bx, self.boulder(bx, by));
                }
                block.1
            };
            if merged && (c, r) != (bx, by) {
                continue;
            }
            cells.push((c as u32, k, role, merged));
        }
        let mut rolls = Vec::with_capacity(cells.len());
        roll_ahead(
            cells.iter().map(|cell| hash2(cell.0, r32, seed)),
            &mut rolls,
        );
        for (&(c, k, role, merged), &rolled) in cells.iter().zip(&rolls) {
            let (c, k) = (c as usize, k as usize);
            let clump = &f.clumps[k];
            let [along, across, grown, toned, shape @ ..] = rolled;
            // Where the cell (or the boulder's block) lies in its
            // clump, in cells from the clump's centre (the short
            // way round on a torus).
            let half = if merged { 1.0 } else { 0.5 };
            let rock = &self.rocks[k];
            let (x0, x1, y0, y1) = (clump.min_x, clump.max_x, clump.min_y, clump.max_y);
            let ox = (unwrap(c as f64, x0, x1, cols) + half - 0.5 - rock.centre.0) as f32;
            let oy = (unwrap(r as f64, y0, y1, rows) + half - 0.5 - rock.centre.1) as f32;
            let (yc, d) = if merged {
                self.place(r as f32 + 0.5)
            } else {
                (y_row, d)
            };
            let x_cell = (c as f32 + half as f32) / cols as f32 * f.w;
            // A clump's stones stand `spread` stone sizes apart per
            // cell (rather than a cell apart, much less than a
            // stone), around the clump's centre; lone pebbles keep
            // their full jitter, clumps a little.
            let (spread, jitter) = match role {
                Role::Pebble => (0.0, settings.jitter),
                Role::Group => (settings.spread * 1.6, settings.jitter * 0.3),
                Role::Outcrop => (settings.spread, settings.jitter * 0.3),
            };
            let x = x_cell + ox * (spread * d - self.cell_w) + jitter * d * signed(along) * 0.5;
            let y = yc + oy * (spread * d * 0.4 - row_h) + jitter * d * signed(across) * 0.18;
            row.near(self.block(x), y);
            // Whether it lies on open ground, and whether it did before.
            let open = !cleared(x, y);
            let was = before.as_ref().map(|b| !b(x, y));
            if !open && was != Some(true) {
                continue;
            }
            // Outcrops heap up toward their middle.
            let heap = (1.0 - (ox * ox + oy * oy).sqrt() / rock.reach).clamp(0.0, 1.0);
            let (size, tall) = match role {
                Role::Pebble => (0.45 + 0.3 * unit(grown), 1.0),
                Role::Group => (0.75 + 0.35 * unit(grown), 1.0),
                Role::Outcrop => (
                    (0.85 + 0.35 * unit(grown)) * (1.0 + 0.3 * heap),
                    1.0 + 0.35 * heap,
                ),
            };
            let size = d * size * if merged { 1.55 } else { 1.0 };
            let albedo = scale(rock.albedo, 0.92 + 0.16 * unit(toned));
            let stone = self.stand(x, y, |y| {
                outline.rough(x, y, size, tall, rock.blocky, albedo, shape, true)
            });
            if was.is_some_and(|was| was != open) {
                changed.push((stone.bbox[1], stone.bbox[3]));
            }
            if open {
                row.push(stone);
            }
            // Gravel: a few grains in front of the clumps' stones.
            let grain = hash2(c as u32, r32, seed ^ 0x67a7);
            if role != Role::Pebble && crate::base::noise::unit(grain) < gravel {
                let gravel = Gravel {
                    x,
                    y,
                    size,
                    d,
                    side: ox.signum(),
                    albedo,
                    dice: Dice::new(grain),
                    many: gravel * 0.5,
                };
                // A grain is a tiny stone that casts no shadow.
                let make = |gx: f32, gy: f32, gs: f32, albedo, rolls| {
                    self.stand(gx, gy, |gy| {
                        outline.rough(gx, gy, gs, 1.0, 0.0, albedo, rolls, false)
                    })
                };
                let now = if open {
                    gravel.grains(make, cleared, |gx, gy| row.near(self.block(gx), gy))
                } else {
                    [None, None]
                };
                if let Some(was) = was {
                    let then = match &before {
                        Some(before) if was => gravel.grains(make, before, |_, _| {}),
                        _ => [None, None],
                    };
                    // The same grains lie where the same ones are cleared.
                    if now.each_ref().map(Option::is_some) != then.each_ref().map(Option::is_some) {
                        changed.extend(
                            now.iter()
                                .chain(&then)
                                .flatten()
                                .map(|g| (g.bbox[1], g.bbox[3])),
                        );
                    }
                }
                grains.extend(now.into_iter().flatten());
            }
        }
        // Grains lie in front of the row's stones.
        for grain in grains {
            row.push(grain);
        }
        row
    }

    /// The rocks drawn from `rows`, placed by this placer.
    pub(super) fn finish(self, mut rows: Vec<StoneRow>) -> RocksDraw {
        // Stones numbered far to near, for the threads' caches.
        let mut first = 0;
        for row in &mut rows {
            row.first = first;
            first += row.stones.len() as u32;
        }
        let f = self.f;
        let bands = (f.height as usize).div_ceil(BAND_ROWS as usize);
        let index = BandRows::new(&rows, bands);
        RocksDraw {
            id: PREPARED.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            opacity: self.settings.opacity,
            rows,
            index,
            lighting: self.lighting,
            shadow: f.palette.shadow * self.settings.shadow,
            sink: self.settings.sink,
            outline: self.outline,
            clearings: f.clearings.clone(),
            shade: f.shade.clone(),
            cull: true,
        }
    }
}

/// Whether (`x`, `y`) lies in one of the ellipses `clear` (centre and
/// inverse radii, [`Placer::clearings`]).
#[inline]
fn inside(clear: &[[f32; 4]], x: f32, y: f32) -> bool {
    clear.iter().any(|&[cx, cy, irx, iry]| {
        let (u, v) = ((x - cx) * irx, (y - cy) * iry);
        u * u + v * v < 1.0
    })
}

/// `v` brought into `lo..=hi` by a whole turn of a torus `side` cells
/// round, if it lies outside: a clump's box is unwrapped, its centroid and
/// cells wrapped into the grid.
fn unwrap(v: f64, lo: i64, hi: i64, side: usize) -> f64 {
    if v < lo as f64 {
        v + side as f64
    } else if v > hi as f64 {
        v - side as f64
    } else {
        v
    }
}

/// The live columns of row `r`, west to east.
fn live_in_row(grid: &crate::life::BitGrid, r: usize) -> impl Iterator<Item = usize> + '_ {
    grid.row(r).iter().enumerate().flat_map(|(i, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                i * 64 + b
            })
        })
    })
}

/// Rolls of its dice a stone's placing takes: its place (2), size and
/// tone, then its shape ([`SHAPE_ROLLS`]).
const PLACING_ROLLS: usize = 4 + SHAPE_ROLLS;

/// The first [`PLACING_ROLLS`] rolls of the dice seeded with each of
/// `seeds`, in order, added to `rolls`: the very rolls of [`Dice`]. A
/// stone's rolls are a chain, each hashed from the one before, so rolled
/// as it is placed a stone waits on each; rolled here, in a loop of
/// nothing else, the chains of several stones run side by side.
fn roll_ahead(seeds: impl Iterator<Item = u32>, rolls: &mut Vec<[u32; PLACING_ROLLS]>) {
    rolls.extend(seeds.map(|seed| Dice::new(seed).ahead()));
}

/// What a clump's stones share: a clump is one rock.
struct Rock {
    albedo: Linear,
    /// How square its stones' shoulders are (0 to 1).
    blocky: f32,
    /// Its centroid in its box's unwrapped cells.
    centre: (f64, f64),
    /// Half its box's longer side plus one, in cells: how far its heap
    /// reaches from the centre.
    reach: f32,
}

/// What a clump makes of a cell's stone.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// A lone cell: a small pebble of its own.
    Pebble,
    /// A clump of 2 cells up to [`Rocks::outcrop`]: a pair, or a split rock.
    Group,
    /// A larger clump: an outcrop of larger stones of one rock, heaped,
    /// some merged into boulders.
    Outcrop,
}
