//! Rocks: the automaton's survivors as stones on the ground.
//!
//! The grid lies on the ground plane in perspective: its columns span the
//! picture's width, its rows run from just below the horizon to the bottom,
//! evenly spaced in depth, so far rows crowd toward the horizon. Each live
//! cell becomes a stone that grows toward the viewer (the original sketch:
//! 30 px far, 50 px near on a 1000 px canvas), jittered in place, size and
//! shape, lit from the sun's side, with a soft contact shadow.
//!
//! Stones are drawn far to near (the grid's row-major order). For the bands,
//! each stone is filed under every band its box meets, in that order, so a
//! band draws exactly the stones that touch it, in the global order.

use rayon::prelude::*;
use serde::Serialize;

use super::tent::Clearing;
use super::{BAND_ROWS, Band, Draw, Frame, Kind, Prepare, Reprepared, prepared_afresh};
use crate::color::{Linear, Rgb, mix, mul, scale};
use crate::error::Result;
use crate::noise::{Dice, hash2, signed, sub_seed, unit};
use crate::setting::{Roll, Setting, float, other, uint};
use crate::simd::Build;

/// Settings of the rocks layer. The grid itself comes from the scene's
/// [`crate::scene::Automaton`]. Ranges and precisions: [`Rocks::SETTINGS`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rocks {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// Stone diameter on the nearest row, fraction of the height. Range
    /// 0.0005 to 0.3. Default: 0.042.
    pub near_size: f32,
    /// Stone diameter on the farthest row, fraction of the height; the
    /// ratio near / far sets the perspective. Range 0.0005 to 0.3.
    /// Default: 0.022.
    pub far_size: f32,
    /// Gap between the horizon and the farthest row, fraction of the height.
    /// Range 0 to 0.5. Default: 0.02.
    pub top: f32,
    /// Height of the nearest row, fraction of the height from the top (above
    /// 1 is below the picture). Range 0 to 1.5. Default: 0.98.
    pub bottom: f32,
    /// Random displacement of each stone, in stone diameters. Range 0 to 2.
    /// Default: 0.5.
    pub jitter: f32,
    /// Colour of most stones. Default: (116, 116, 108).
    pub primary: Rgb,
    /// Opacity of the primary stones. Range 0 to 1. Default: 0.7.
    pub primary_alpha: f32,
    /// Colour of the other stones. Default: (87, 93, 55), olive.
    pub secondary: Rgb,
    /// Opacity of the secondary stones. Range 0 to 1. Default: 0.9.
    pub secondary_alpha: f32,
    /// Share of stones in the secondary colour. Range 0 to 1. Default: 1/15.
    pub secondary_share: f32,
    /// Strength of the contact shadows. Range 0 to 2. Default: 1.
    pub shadow: f32,
    /// Clumps of at least this many cells are outcrops (larger stones of
    /// one rock, heaped, some merged into boulders); smaller clumps of 2 or
    /// more are split rocks and pairs, lone cells pebbles. Range 2 to 64.
    /// Default: 5.
    pub outcrop: u32,
    /// How far the stones of a clump stand apart, in stone sizes per cell
    /// of the clump. Range 0 to 1. Default: 0.3.
    pub spread: f32,
    /// Share of an outcrop's blocks of 2×2 cells that make one boulder.
    /// Range 0 to 1. Default: 0.5.
    pub merge: f32,
    /// How irregular the stones' outlines are. Range 0 to 1. Default: 0.5.
    pub roughness: f32,
    /// Gravel scattered around clumps. Range 0 to 1. Default: 0.3.
    pub gravel: f32,
    /// How deep the stones sit in the sand. Range 0 to 1. Default: 0.4.
    pub sink: f32,
}

impl Default for Rocks {
    fn default() -> Self {
        Rocks {
            visible: true,
            opacity: 1.0,
            near_size: 0.042,
            far_size: 0.022,
            top: 0.02,
            bottom: 0.98,
            jitter: 0.5,
            primary: Rgb(116, 116, 108),
            primary_alpha: 0.7,
            secondary: Rgb(87, 93, 55),
            secondary_alpha: 0.9,
            secondary_share: 1.0 / 15.0,
            shadow: 1.0,
            outcrop: 5,
            spread: 0.3,
            merge: 0.5,
            roughness: 0.5,
            gravel: 0.3,
            sink: 0.4,
        }
    }
}

impl Kind for Rocks {
    const NAME: &'static str = "rocks";
    const TITLE: &'static str = "Stones";
    const SETTINGS: &'static [Setting<Rocks>] = &[
        super::visible(),
        super::opacity(),
        // Sizes to 1/20000 of the height: a stone of 0.0005 still has 10 steps.
        float!(log "near_size", near_size, 0.0005, 0.3, 20_000, "Near size",
            "Stone size on the nearest row", Roll::Range(0.035, 0.065)),
        float!(log "far_size", far_size, 0.0005, 0.3, 20_000, "Far size",
            "Stone size on the farthest row", Roll::Range(0.018, 0.034)),
        float!(
            "top",
            top,
            0.0,
            0.5,
            1000,
            "Top gap",
            "Gap between the horizon and the farthest stones",
            Roll::Keep
        ),
        float!(
            "bottom",
            bottom,
            0.0,
            1.5,
            1000,
            "Nearest row",
            "Where the nearest row sits",
            Roll::Keep
        ),
        float!(
            "jitter",
            jitter,
            0.0,
            2.0,
            1000,
            "Jitter",
            "Random offset of each stone",
            Roll::Range(0.25, 0.7)
        ),
        other!(
            Rgb,
            "primary",
            primary,
            "Stone colour",
            "Colour of most stones",
            Roll::Keep
        ),
        float!(
            "primary_alpha",
            primary_alpha,
            0.0,
            1.0,
            1000,
            "Stone alpha",
            "Opacity of the common stones",
            Roll::Keep
        ),
        other!(
            Rgb,
            "secondary",
            secondary,
            "Second colour",
            "Colour of the other stones",
            Roll::Keep
        ),
        float!(
            "secondary_alpha",
            secondary_alpha,
            0.0,
            1.0,
            1000,
            "Second alpha",
            "Opacity of the other stones",
            Roll::Keep
        ),
        // 1/3000, so that the default 1/15 is exact.
        float!(
            "secondary_share",
            secondary_share,
            0.0,
            1.0,
            3000,
            "Second share",
            "Share of stones in the second colour",
            Roll::Range(0.03, 0.15)
        ),
        float!(
            "shadow",
            shadow,
            0.0,
            2.0,
            1000,
            "Shadow",
            "Contact shadows under the stones",
            Roll::Keep
        ),
        // Written by share codes since format 2.
        uint!(
            "outcrop",
            outcrop,
            2,
            64,
            "Outcrop from",
            "Clumps of this many cells or more become outcrops and boulder piles",
            Roll::Range(3, 9),
            since 2
        ),
        float!(
            "spread",
            spread,
            0.0,
            1.0,
            1000,
            "Spread",
            "How far the stones of a clump stand apart",
            Roll::Range(0.15, 0.5),
            since 2
        ),
        float!(
            "merge",
            merge,
            0.0,
            1.0,
            1000,
            "Boulders",
            "Share of an outcrop's stones merged into boulders",
            Roll::Range(0.2, 0.8),
            since 2
        ),
        float!(
            "roughness",
            roughness,
            0.0,
            1.0,
            1000,
            "Roughness",
            "How irregular the stones' outlines are",
            Roll::Range(0.25, 0.8),
            since 2
        ),
        float!(
            "gravel",
            gravel,
            0.0,
            1.0,
            1000,
            "Gravel",
            "Gravel scattered around the clumps",
            Roll::Range(0.0, 0.6),
            since 2
        ),
        float!(
            "sink",
            sink,
            0.0,
            1.0,
            1000,
            "Sink",
            "How deep the stones sit in the sand",
            Roll::Range(0.2, 0.7),
            since 2
        ),
    ];

    fn common(&self) -> (bool, f32) {
        (self.visible, self.opacity)
    }

    fn common_mut(&mut self) -> (&mut bool, &mut f32) {
        (&mut self.visible, &mut self.opacity)
    }
}

impl Prepare for Rocks {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_stones(frame)?))
    }

    fn prepare_reclear(&self, frame: &Frame, old: Box<dyn Draw>) -> Result<Reprepared> {
        match old.into_any().downcast::<RocksDraw>() {
            Ok(old) => {
                let (draw, rows) = self.reclear(frame, *old);
                Ok((Box::new(draw), rows))
            }
            Err(old) => {
                drop(old);
                prepared_afresh(self, frame)
            }
        }
    }
}

impl Rocks {
    fn prepare_stones(&self, f: &Frame) -> Result<RocksDraw> {
        let placer = Placer::new(self, f);
        // Stones row by row (far to near). Only their outlines are worked
        // out here; how a stone looks (its lit faces) is worked out when it
        // is drawn, since in a packed field most stones are hidden.
        let rows: Vec<StoneRow> = (0..f.grid.height())
            .into_par_iter()
            .map(|r| placer.row(r, None, &mut Vec::new()))
            .collect();
        Ok(placer.finish(rows))
    }

    /// The rocks `old` (prepared from these settings for a frame that
    /// differs from `f` only in the tents' clearings) prepared for `f`,
    /// as [`Rocks::prepare_stones`] would: only the grid rows with a stone
    /// or grain near an old or a new clearing are placed again. Also gives
    /// the pixel rows (`y0..y1` ranges) of the stones and grains that were
    /// cleared or uncovered: only there may the rocks now draw differently.
    fn reclear(&self, f: &Frame, old: RocksDraw) -> (RocksDraw, Vec<(i32, i32)>) {
        let placer = Placer::new(self, f);
        let mut rows = old.rows;
        let mut changed = Vec::new();
        let again: Vec<_> = rows
            .par_iter()
            .enumerate()
            .filter(|(r, row)| {
                placer.near_clearings(*r, row, &old.clearings)
                    || placer.near_clearings(*r, row, &f.clearings)
            })
            .map(|(r, _)| {
                let mut changed = Vec::new();
                let row = placer.row(r, Some(&old.clearings), &mut changed);
                (r, row, changed)
            })
            .collect();
        for (r, row, moved) in again {
            changed.extend(moved);
            rows[r] = row;
        }
        (placer.finish(rows), changed)
    }

    /// Number of stones the layer draws in `frame`: a stone per live cell
    /// (an outcrop's boulder for four), less those on ground cleared for a
    /// tent, and the grains of gravel.
    pub(crate) fn stone_count(&self, frame: &Frame) -> Result<usize> {
        Ok(self
            .prepare_stones(frame)?
            .rows
            .iter()
            .map(|r| r.stones.len())
            .sum())
    }
}

/// What placing the stones of one picture's grid rows shares: the rocks'
/// settings, the frame, and each clump's rock.
struct Placer<'a> {
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
    outline: Outline,
    /// Each clump's rock, by clump.
    rocks: Vec<Rock>,
}

impl<'a> Placer<'a> {
    fn new(settings: &'a Rocks, f: &'a Frame<'a>) -> Placer<'a> {
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
        // The stone colours are the original sketch's translucent colours
        // laid over the sand, made opaque: the same flat colour, but solid
        // stones that shade and overlap cleanly.
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
    /// normalized so the far row sits at y_far.
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
            self.settings.near_size * s * f.h,
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

    /// Whether one of `clearings` may clear a stone of grid row `r`, as
    /// placed in `row`: whether one reaches where its stones and grains
    /// (cleared or not) were placed.
    fn near_clearings(&self, r: usize, row: &StoneRow, clearings: &[Clearing]) -> bool {
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
    fn row(
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
        let mut row = StoneRow::with_capacity(count + count / 2);
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
            let stone = outline.rough(x, y, size, tall, rock.blocky, albedo, shape, true);
            if was.is_some_and(|was| was != open) {
                changed.push((stone.0[1], stone.0[3]));
            }
            if open {
                row.push(stone);
            }
            // Gravel: a few grains in front of the clumps' stones.
            let grain = hash2(c as u32, r32, seed ^ 0x67a7);
            if role != Role::Pebble && crate::noise::unit(grain) < gravel {
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
                let now = if open {
                    gravel.grains(outline, cleared, |gx, gy| row.near(self.block(gx), gy))
                } else {
                    [None, None]
                };
                if let Some(was) = was {
                    let then = match &before {
                        Some(before) if was => gravel.grains(outline, before, |_, _| {}),
                        _ => [None, None],
                    };
                    // The same grains lie where the same ones are cleared.
                    if now.each_ref().map(Option::is_some) != then.each_ref().map(Option::is_some) {
                        changed.extend(now.iter().chain(&then).flatten().map(|g| (g.0[1], g.0[3])));
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
    fn finish(self, mut rows: Vec<StoneRow>) -> RocksDraw {
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
            cull: true,
            width: f.width,
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

/// The gravel in front of one stone: its place, size and colour, and the
/// dice the grains are rolled with.
struct Gravel {
    x: f32,
    y: f32,
    size: f32,
    /// The row's stone size.
    d: f32,
    /// Which way the grains lean: the stone's side of its clump.
    side: f32,
    albedo: Linear,
    dice: Dice,
    /// Below this roll, two grains rather than one.
    many: f32,
}

impl Gravel {
    /// The grains (one or two) that lie outside where `cleared`, calling
    /// `near` with the centre of each, cleared or not.
    #[inline]
    fn grains(
        &self,
        outline: &Outline,
        cleared: impl Fn(f32, f32) -> bool,
        mut near: impl FnMut(f32, f32),
    ) -> [Option<([i32; 4], Rough)>; 2] {
        let mut g = self.dice;
        let n = 1 + usize::from(g.unit() < self.many);
        let mut grains = [None, None];
        for grain in grains.iter_mut().take(n) {
            let gx = self.x + self.size * (0.35 * self.side + 0.7 * g.signed());
            let gy = self.y + self.size * (0.12 + 0.22 * g.unit());
            near(gx, gy);
            if cleared(gx, gy) {
                continue;
            }
            let gs = self.d * (0.09 + 0.1 * g.unit());
            let shade = 0.9 + 0.4 * g.unit();
            let albedo = scale(self.albedo, shade);
            // (A second grain's place rolls on from `g` as it was.)
            *grain = Some(outline.rough(gx, gy, gs, 1.0, 0.0, albedo, g.ahead(), false));
        }
        grains
    }
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

/// Rolls of its dice a stone's shape takes ([`Outline::rough`]).
const SHAPE_ROLLS: usize = 5;

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

/// The light falling on the stones.
struct Lighting {
    direct: Linear,
    ambient: Linear,
    /// Light bounced up from the sand.
    bounce: Linear,
    light: [f32; 3],
    /// The lit sand banked against the stones' feet.
    sand: Linear,
}

impl Lighting {
    /// Colour of a flat facet of `albedo` facing `n` (unit: x right, y up,
    /// z toward the viewer).
    fn facet(&self, albedo: Linear, n: [f32; 3]) -> Linear {
        let l = self.light;
        let lambert = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]).max(0.0);
        let up = 0.5 + 0.5 * n[1];
        let mut c = [0.0; 3];
        for i in 0..3 {
            c[i] = albedo[i]
                * (self.direct[i] * lambert + self.ambient[i] * up + self.bounce[i] * (1.0 - up));
        }
        c
    }
}

/// A stone's three flat faces (top, left, right), lit once per stone, and
/// where they meet, in the stone's unit coordinates.
struct Facets {
    top: Linear,
    left: Linear,
    right: Linear,
    /// The top face ends at `nv = ridge + tilt * nu`.
    ridge: f32,
    tilt: f32,
    /// Left and right faces meet at `nu = split + lean * nv`.
    split: f32,
    lean: f32,
}

impl Facets {
    fn new(lighting: &Lighting, albedo: Linear, dice: &mut Dice) -> Facets {
        let norm = |v: [f32; 3]| {
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            [v[0] / n, v[1] / n, v[2] / n]
        };
        let top = norm([0.35 * dice.signed(), 1.0, 0.35 + 0.4 * dice.unit()]);
        let left = norm([-0.85 - 0.3 * dice.unit(), 0.25 + 0.3 * dice.unit(), 0.55]);
        let right = norm([0.85 + 0.3 * dice.unit(), 0.25 + 0.3 * dice.unit(), 0.55]);
        Facets {
            top: lighting.facet(albedo, top),
            left: lighting.facet(albedo, left),
            right: lighting.facet(albedo, right),
            ridge: -0.15 + 0.15 * dice.signed(),
            tilt: 0.35 * dice.signed(),
            split: 0.25 * dice.signed(),
            lean: 0.4 * dice.signed(),
        }
    }
}

/// What a stone looks like, worked out only when it is drawn: its colour,
/// and the dice (where its outline's draws left them) for its faces and
/// grain.
#[derive(Clone, Copy)]
struct Look {
    albedo: Linear,
    dice: Dice,
}

/// A stone's lit faces and grain, for drawing.
struct Shading {
    facets: Facets,
    texture: u32,
}

impl Look {
    fn shading(self, lighting: &Lighting) -> Shading {
        let mut dice = self.dice;
        let texture = dice.bits();
        let facets = Facets::new(lighting, self.albedo, &mut dice);
        Shading { facets, texture }
    }
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

/// Knots of a stone's outline profile per side, evenly spaced from its top
/// (`nv = -1`) to `nv = KNOT_END`; the foot, mostly buried, goes as the
/// last knot.
const KNOTS: usize = 6;
const KNOT_END: f32 = 0.4;
/// `|nv|` of each knot: -1 + 1.4 i / 5.
const KNOT_NV_ABS: [f32; KNOTS] = [1.0, 0.72, 0.44, 0.16, 0.12, 0.4];
/// A profile's width factors run from `PROFILE_MIN` in steps of
/// `PROFILE_STEP` (one byte a knot).
const PROFILE_MIN: f32 = 0.45;
const PROFILE_STEP: f32 = 1.1 / 255.0;

/// What every stone's outline shares.
struct Outline {
    /// How irregular outlines are ([`Rocks::roughness`]).
    roughness: f32,
    /// How deep stones sit in the sand ([`Rocks::sink`]).
    sink: f32,
    /// Shadow direction on screen times its length, in stone radii.
    shadow: (f32, f32),
}

impl Outline {
    /// A stone `size` pixels wide at (`x`, `y`), `tall` times its usual
    /// height, `blocky` (0 to 1) how square its shoulders are, of colour
    /// `albedo`, its shape and look rolled with `dice`: only what places
    /// it and bounds it; the rest is rolled by [`Rough::stone`] for the
    /// stones that show (in a packed field, a few in ten). A grain of
    /// gravel (`casts` false) casts no contact shadow: a few pixels wide,
    /// its shadow would not show.
    #[allow(clippy::too_many_arguments)]
    fn rough(
        &self,
        x: f32,
        y: f32,
        size: f32,
        tall: f32,
        blocky: f32,
        albedo: Linear,
        rolls: [u32; SHAPE_ROLLS],
        casts: bool,
    ) -> ([i32; 4], Rough) {
        let rx = 0.5 * size;
        let ry = rx * (0.6 + 0.3 * unit(rolls[0])) * tall;
        let rx_left = rx * (0.8 + 0.4 * unit(rolls[1]));
        let rx_right = rx * (0.8 + 0.4 * unit(rolls[2]));
        let ry_top = ry * (1.0 + 0.5 * unit(rolls[3]));
        let shear = 0.35 * signed(rolls[4]);
        // Sunk in the sand: lower, with less of its underside showing.
        let ry_bottom = ry * 0.4 * (1.0 - 0.5 * self.sink);
        let shape = StoneShape {
            x,
            y: y + self.sink * ry * 0.2,
            rx_left,
            rx_right,
            ry_top,
            ry_bottom,
            shear,
            shadow: self.shadow,
            casts,
        };
        // The box holds the widest outline the roughness allows (the
        // outline itself is rolled later): a box only decides what is
        // looked at, never a pixel.
        let widest = PROFILE_MIN + self.widest(blocky) * PROFILE_STEP;
        let bbox = shape.bounds(widest);
        (
            bbox,
            Rough {
                shape,
                blocky,
                albedo,
                dice: Dice::after(rolls[SHAPE_ROLLS - 1]),
            },
        )
    }

    /// The profile's knots in profile steps, plus 0.5 (to round): `base +
    /// random * r + square * |nv|` for a random `r` in -1..1.
    fn knot_terms(&self, blocky: f32) -> [f32; 3] {
        let step = 1.0 / PROFILE_STEP;
        [
            (1.0 - PROFILE_MIN) * step + 0.5,
            self.roughness * 0.7 * step,
            self.roughness * 0.7 * blocky * step,
        ]
    }

    /// The largest knot (in profile steps) a stone of `blocky` can roll.
    fn widest(&self, blocky: f32) -> f32 {
        let [base, random, square] = self.knot_terms(blocky);
        // The "no waist" rule only raises a knot toward one above it.
        // (+ 1: `r` may round a hair above 1.)
        f32::from(((base + random + square) as i32 + 1).clamp(0, 255) as u8)
    }
}

/// A stone placed and bounded, the rest of its outline and its look still
/// to roll ([`Outline::rough`]).
#[derive(Clone, Copy)]
struct Rough {
    shape: StoneShape,
    blocky: f32,
    albedo: Linear,
    /// Where the placing draws left the stone's dice.
    dice: Dice,
}

impl Rough {
    /// The whole stone: its outline's profile rolled, then its look.
    fn stone(&self, outline: &Outline) -> Stone {
        let mut dice = self.dice;
        // Seeded irregular outlines: each side's width is scaled row by row
        // by a profile through a few random knots (straight between them,
        // so the outline has corners and flats, like broken rock).
        let mut profile = [0u8; 2 * KNOTS];
        // Five random bits a knot, from two draws. The factor of a knot at
        // `nv` is `1 + roughness * (0.7 * r + 0.7 * blocky * |nv|)`, `r`
        // random in -1..1; worked out in profile steps, with plain
        // comparisons, no NaN-aware min/max.
        let [base, random, square] = outline.knot_terms(self.blocky);
        let slack = 0.1 / PROFILE_STEP;
        let mut bits = u64::from(dice.bits()) << 32 | u64::from(dice.bits());
        for side in profile.chunks_mut(KNOTS) {
            let mut above = 0.0f32;
            for (q, nv) in side.iter_mut().zip(KNOT_NV_ABS) {
                let r = (bits & 31) as u32 as f32 * (2.0 / 31.0) - 1.0;
                bits >>= 5;
                let mut v = base + random * r + square * nv;
                // No waist: a rock narrows little below a wider part.
                if v < above - slack {
                    v = above - slack;
                }
                above = v;
                *q = (v as i32).clamp(0, 255) as u8;
            }
        }
        Stone::new(
            &self.shape,
            profile,
            Look {
                albedo: self.albedo,
                dice,
            },
        )
    }
}

/// Where and how big a stone is, in pixels.
#[derive(Clone, Copy)]
struct StoneShape {
    x: f32,
    y: f32,
    rx_left: f32,
    rx_right: f32,
    ry_top: f32,
    ry_bottom: f32,
    shear: f32,
    /// Shadow direction on screen times its length, in stone radii.
    shadow: (f32, f32),
    /// Whether it casts a contact shadow.
    casts: bool,
}

impl StoneShape {
    /// Its contact shadow's centre and radii.
    fn shadow(&self) -> (f32, f32, f32, f32) {
        let rx = 0.5 * (self.rx_left + self.rx_right);
        let ry = self.ry_top.max(self.ry_bottom);
        let sx = self.x + self.shadow.0 * rx * 0.55;
        let sy = self.y + self.ry_bottom * 0.4 + self.shadow.1.abs() * ry * 0.25;
        let srx = rx * (1.05 + 0.45 * self.shadow.0.abs());
        let sry = ry * 0.55 + self.ry_bottom * 0.5;
        (sx, sy, srx, sry)
    }

    /// The box (x0, y0, x1, y1; x1, y1 excluded) of the stone and its
    /// shadow (if it casts one) with sides at most `widest` times their
    /// radii.
    fn bounds(&self, widest: f32) -> [i32; 4] {
        let ry = self.ry_top.max(self.ry_bottom);
        let reach_x = self.rx_left.max(self.rx_right) * widest + self.shear.abs() * ry + 1.5;
        let (mut x0, mut x1) = (self.x - reach_x, self.x + reach_x);
        let y0 = self.y - self.ry_top - 1.5;
        let mut y1 = self.y + self.ry_bottom + 1.5;
        if self.casts {
            let (sx, sy, srx, sry) = self.shadow();
            x0 = x0.min(sx - srx * widest);
            x1 = x1.max(sx + srx * widest);
            y1 = y1.max(sy + sry + 1.0);
        }
        [floor(x0 - 1.0), floor(y0), -floor(-(x1 + 1.0)), -floor(-y1)]
    }
}

/// A stone ready to rasterize: an egg-shaped outline made of four quarter
/// ellipses (so it can be lopsided and flat-bottomed), sheared, each side's
/// width scaled row by row by its profile (an irregular outline), with
/// three lit faces, plus its contact shadow: the same outline, squashed
/// onto the ground.
#[derive(Clone, Copy)]
struct Stone {
    x: f32,
    y: f32,
    /// 1 / radius: left, right, top, bottom.
    inv: [f32; 4],
    /// Radius: left, right (= 1 / `inv`).
    radius: [f32; 2],
    shear: f32,
    /// Faces' blend across the row and down the column: stone units to
    /// blend fractions (pixels over a slightly rounded edge).
    side_k: f32,
    top_k: f32,
    /// Outline anti-aliasing: coverage is `0.5 - (f - 1) * aa` where `f` is
    /// the squared normalized radius (first-order distance in pixels), so
    /// it is 1 inside `f < inner2` and 0 outside `f > outer2`.
    aa: f32,
    inner2: f32,
    outer2: f32,
    /// Shadow centre, 1 / radii and its horizontal radius.
    sx: f32,
    sy: f32,
    sinv: [f32; 2],
    sradius: f32,
    /// Whether it casts its contact shadow ([`StoneShape::casts`]).
    casts: bool,
    /// The profile's width factors, knot by knot.
    knots: [f32; 2 * KNOTS],
    look: Look,
}

/// A stone's outline on one pixel row: the row's place in the stone (`nv`,
/// -1 at the top to 1 at the foot, and its square), its centre and its
/// left and right radii (and their inverses). The body's columns, its
/// inside and every pixel drawn are worked out from these same numbers.
struct RowFit {
    nv: f32,
    nv2: f32,
    cx: f32,
    inv: [f32; 2],
    radius: [f32; 2],
}

/// The stones of one grid row, west to east, and their boxes in pixels
/// (x0, y0, x1, y1; x1, y1 excluded; maybe partly outside the picture),
/// kept apart: most stones of a packed field are only ever looked at by
/// their box, and never rolled whole.
struct StoneRow {
    boxes: Vec<[i32; 4]>,
    stones: Vec<Rough>,
    /// Number of the row's first stone, counting from the far row's.
    first: u32,
    /// The pixel rows its boxes span, top to bottom (excluded); `None`
    /// for a row without stones.
    extent: Option<(i32, i32)>,
    /// The highest and lowest centre of its stones and grains, counting
    /// those a tent cleared, in each of [`CENTRE_BLOCKS`] blocks of
    /// columns ([`Placer::block`]): where a clearing can touch the row.
    /// (Empty blocks hold (∞, -∞).)
    centres: [(f32, f32); CENTRE_BLOCKS],
}

/// Blocks of columns a row notes its stones' centres in.
const CENTRE_BLOCKS: usize = 16;

impl StoneRow {
    fn with_capacity(n: usize) -> StoneRow {
        StoneRow {
            boxes: Vec::with_capacity(n),
            stones: Vec::with_capacity(n),
            first: 0,
            extent: None,
            centres: [(f32::INFINITY, f32::NEG_INFINITY); CENTRE_BLOCKS],
        }
    }

    /// Notes a stone or grain centred on pixel row `y` in block `block`
    /// of columns, cleared or not.
    #[inline]
    fn near(&mut self, block: usize, y: f32) {
        let (top, bottom) = &mut self.centres[block];
        *top = top.min(y);
        *bottom = bottom.max(y);
    }

    fn push(&mut self, (bbox, stone): ([i32; 4], Rough)) {
        let (top, bottom) = self.extent.unwrap_or((bbox[1], bbox[3]));
        self.extent = Some((top.min(bbox[1]), bottom.max(bbox[3])));
        self.boxes.push(bbox);
        self.stones.push(stone);
    }
}

impl Stone {
    /// The stone of shape `s`, outline `profile` and `look`.
    fn new(s: &StoneShape, profile: [u8; 2 * KNOTS], look: Look) -> Stone {
        let rx = 0.5 * (s.rx_left + s.rx_right);
        let ry = s.ry_top.max(s.ry_bottom);
        let (sx, sy, srx, sry) = s.shadow();
        let soft = (0.12 * ry).max(0.7);
        let r_eff = (rx * 0.5 * (s.ry_top + s.ry_bottom)).sqrt();
        let aa = 0.5 * r_eff.max(0.25);
        let inv = [
            1.0 / s.rx_left.max(0.05),
            1.0 / s.rx_right.max(0.05),
            1.0 / s.ry_top.max(0.05),
            1.0 / s.ry_bottom.max(0.05),
        ];
        let sinv = [1.0 / srx.max(0.05), 1.0 / sry.max(0.05)];
        Stone {
            x: s.x,
            y: s.y,
            inv,
            radius: [1.0 / inv[0], 1.0 / inv[1]],
            shear: s.shear,
            side_k: 0.5 * (s.rx_left + s.rx_right) / soft,
            top_k: s.ry_top / soft,
            aa,
            inner2: (1.0 - 0.5 / aa).max(0.0),
            outer2: 1.0 + 0.5 / aa,
            sx,
            sy,
            sinv,
            sradius: 1.0 / sinv[0],
            casts: s.casts,
            knots: profile.map(|q| PROFILE_MIN + f32::from(q) * PROFILE_STEP),
            look,
        }
    }

    /// The outline's width factors, left and right, at `nv` (-1 at the
    /// top, 1 at the foot; beyond the knots, as at the nearest).
    #[inline]
    fn widths(&self, nv: f32) -> [f32; 2] {
        const LAST: f32 = (KNOTS - 1) as f32 - 1e-3;
        let t = (nv + 1.0) * ((KNOTS - 1) as f32 / (1.0 + KNOT_END));
        // Plain comparisons (on every row of every stone drawn).
        let t = if t > 0.0 { t } else { 0.0 };
        let t = if t < LAST { t } else { LAST };
        let i = t as i32 as usize;
        let frac = t - i as f32;
        let knot = |j: usize| self.knots[j];
        let side = |j: usize| knot(j) + (knot(j + 1) - knot(j)) * frac;
        [side(i), side(KNOTS + i)]
    }

    /// The outline on row `y`; `None` if the body misses the row.
    #[inline]
    fn fit(&self, y: u32) -> Option<RowFit> {
        let dy = y as f32 + 0.5 - self.y;
        let nv = dy * if dy < 0.0 { self.inv[2] } else { self.inv[3] };
        let nv2 = nv * nv;
        if nv2 >= self.outer2 {
            return None;
        }
        let [left, right] = self.widths(nv);
        Some(RowFit {
            nv,
            nv2,
            cx: self.x - self.shear * dy,
            inv: [self.inv[0] / left, self.inv[1] / right],
            radius: [self.radius[0] * left, self.radius[1] * right],
        })
    }
}

/// For each band, the grid rows whose stones may touch it: a stone's box
/// follows its row's place (far rows higher up) give or take its jitter
/// and size, so the stones touching a band come from a run of rows. A band
/// checks each stone of the run against its box.
struct BandRows {
    /// `rows[b]`: grid rows `first..last` for band `b` (empty if none).
    rows: Vec<(u32, u32)>,
    /// `reach[r]`: the lowest pixel row (excluded) the boxes of grid rows
    /// `0..=r` reach: far rows lie higher up, so once a band is covered
    /// down to it, the rows from `r` farther are hidden.
    reach: Vec<i32>,
}

impl BandRows {
    fn new(stones: &[StoneRow], bands: usize) -> BandRows {
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
    fn band(&self, b: usize) -> std::ops::Range<u32> {
        match self.rows.get(b) {
            Some(&(first, last)) if first < last => first..last,
            _ => 0..0,
        }
    }
}

/// The rocks prepared for one picture.
pub(crate) struct RocksDraw {
    /// Which preparation this is (each has its own), for the threads'
    /// caches of rolled stones ([`Work::rolled`]).
    id: u64,
    opacity: f32,
    rows: Vec<StoneRow>,
    index: BandRows,
    lighting: Lighting,
    shadow: f32,
    /// How deep the stones sit in the sand ([`Rocks::sink`]).
    sink: f32,
    outline: Outline,
    /// The tents' clearings it was placed around.
    clearings: Vec<Clearing>,
    /// Whether hidden pixels are left undrawn: always, but in the test
    /// that checks this against drawing every stone whole.
    cull: bool,
    width: u32,
}

/// A run of pixels of one stone's row to draw: of its contact shadow or
/// of its body, columns `a..b` of row `y`.
#[derive(Clone, Copy)]
struct Run {
    /// The stone, in [`Work::stones`].
    stone: u32,
    y: u32,
    a: u32,
    b: u32,
    part: Part,
}

/// What a [`Run`] draws, with its row's outline as worked out when the
/// run was found (not again for each run, nor when drawn).
#[derive(Clone, Copy)]
enum Part {
    /// The body.
    Body(BodyRow),
    /// The contact shadow, with the row's outline: its inverse radii,
    /// left and right, and the square of its place (`sdy`) in the shadow.
    Shadow(ShadowRow),
}

/// What the body shader needs of a row's outline ([`RowFit`]): the row's
/// place in the stone, its centre and its inverse radii, left and right.
#[derive(Clone, Copy)]
struct BodyRow {
    nv: f32,
    cx: f32,
    inv: [f32; 2],
}

/// What the shadow shader needs of a row of the shadow's outline.
#[derive(Clone, Copy)]
struct ShadowRow {
    sinv: [f32; 2],
    sdy2: f32,
}

/// Per-thread buffers of the occlusion pass, kept between bands.
#[derive(Default)]
struct Work {
    /// One bit per pixel of the band, row after row (`words` per row): set
    /// where a nearer stone already covers the pixel opaquely.
    mask: Vec<u64>,
    /// What is left to draw, nearest stone first (for each row of a stone,
    /// the runs of its body, then of its shadow).
    runs: Vec<Run>,
    /// The stones that show in the band, rolled whole.
    stones: Vec<Stone>,
    /// Per 64 columns, the bits set in every row of `mask`: columns the
    /// band has covered from top to bottom.
    full: Vec<u64>,
    /// Stones rolled in earlier bands of the preparation `rolled_for`, by
    /// number ([`StoneRow::first`]) modulo [`ROLLED`]: a stone is looked
    /// at by every band it spans, mostly on the same thread in turn.
    rolled: Vec<Option<(u32, Stone)>>,
    rolled_for: Option<u64>,
}

/// Preparations of the rocks so far: each [`RocksDraw`] takes the next
/// number as its `id`.
static PREPARED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Slots of a thread's cache of rolled stones ([`Work::rolled`]).
const ROLLED: usize = 2048;

thread_local! {
    static WORK: std::cell::RefCell<Work> = std::cell::RefCell::new(Work::default());
}

impl Draw for RocksDraw {
    fn touches(&self, y0: u32, y1: u32) -> bool {
        debug_assert_eq!(y0 % BAND_ROWS, 0);
        let band = (y0 / BAND_ROWS) as usize;
        self.index.band(band).any(|r| {
            let boxes = &self.rows[r as usize].boxes;
            boxes.iter().any(|b| b[1] < y1 as i32 && (y0 as i32) < b[3])
        })
    }

    fn draw(&self, band: &mut Band) {
        self.draw_with(band, Build::best());
    }
}

impl RocksDraw {
    /// Draws the stones on `band` with the `build` of the occlusion pass
    /// and the shaders (chosen once per band, not per run).
    fn draw_with(&self, band: &mut Band, build: Build) {
        WORK.with(|work| {
            let work = &mut *work.borrow_mut();
            match build {
                // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
                #[cfg(target_arch = "x86_64")]
                Build::Avx2 => unsafe { self.visible_runs_avx2(band, work, self.cull) },
                Build::Portable => self.visible_runs(band, work, self.cull),
            }
            // Far to near: each stone over the ones behind it, its shadow
            // under its body. A stone's runs come together: its shading is
            // worked out once.
            let mut shaded: Option<(u32, Shading)> = None;
            for run in work.runs.iter().rev() {
                let stone = &work.stones[run.stone as usize];
                match &run.part {
                    Part::Body(row) => {
                        let shading = match &shaded {
                            Some((id, shading)) if *id == run.stone => shading,
                            _ => {
                                &shaded
                                    .insert((run.stone, stone.look.shading(&self.lighting)))
                                    .1
                            }
                        };
                        self.draw_body(build, stone, shading, run, row, band);
                    }
                    Part::Shadow(row) => self.draw_shadow(build, stone, run, row, band),
                }
            }
        });
    }
}

impl RocksDraw {
    /// Lists in `work.runs` the pixels of `band` the stones paint, nearest
    /// stone first. With `cull`, a pixel that a nearer stone covers
    /// opaquely is left out (a stone hidden whole is skipped whole): it
    /// would be painted over exactly, so leaving it out changes no pixel,
    /// and a packed field costs its visible pixels, not its stones' area.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn visible_runs_avx2(&self, band: &Band, work: &mut Work, cull: bool) {
        self.visible_runs(band, work, cull);
    }

    #[inline(always)]
    fn visible_runs(&self, band: &Band, work: &mut Work, cull: bool) {
        let width = self.width;
        let words = width.div_ceil(64) as usize;
        let rows = band.rows as usize;
        let (by0, by1) = (band.y0 as i32, band.y1() as i32);
        work.runs.clear();
        work.stones.clear();
        work.mask.clear();
        work.mask.resize(words * rows, 0);
        work.full.clear();
        work.full.resize(words, 0);
        if work.rolled_for != Some(self.id) {
            work.rolled.clear();
            work.rolled.resize(ROLLED, None);
            work.rolled_for = Some(self.id);
        }
        // Opaque stones hide what is behind them; translucent ones do not.
        let cull = cull && self.opacity >= 1.0;
        let mut open = rows as u64 * u64::from(width);
        // Open pixels per row of the band.
        let mut row_open = [width; BAND_ROWS as usize];
        'rows: for r in self.index.band(band.index).rev() {
            // Covered down to where this row and the farther ones reach:
            // they are hidden.
            let reach = (self.index.reach[r as usize] - by0).clamp(0, rows as i32) as usize;
            if cull && row_open[..reach].iter().all(|&n| n == 0) {
                break;
            }
            let row = &self.rows[r as usize];
            for (i, bbox) in row.boxes.iter().enumerate().rev() {
                if bbox[1] >= by1 || bbox[3] <= by0 {
                    continue;
                }
                let y0 = bbox[1].max(by0) as u32;
                let y1 = bbox[3].min(by1) as u32;
                let x0 = bbox[0].clamp(0, width as i32) as u32;
                let x1 = bbox[2].clamp(0, width as i32) as u32;
                let mask_of = |y: u32| (y - band.y0) as usize * words;
                if cull
                    && (covered(&work.full, x0, x1)
                        || (y0..y1).all(|y| covered(&work.mask[mask_of(y)..][..words], x0, x1)))
                {
                    continue;
                }
                let number = row.first + i as u32;
                let s = match &mut work.rolled[number as usize % ROLLED] {
                    Some((n, s)) if *n == number => *s,
                    slot => slot.insert((number, row.stones[i].stone(&self.outline))).1,
                };
                let stone = work.stones.len() as u32;
                let mut filled = false;
                for y in y0..y1 {
                    let m = &mut work.mask[mask_of(y)..][..words];
                    if cull && covered(m, x0, x1) {
                        continue;
                    }
                    let runs = &mut work.runs;
                    let push = |runs: &mut Vec<Run>, part: Part, a: u32, b: u32| {
                        runs.push(Run {
                            stone,
                            y,
                            a,
                            b,
                            part,
                        })
                    };
                    if let Some(fit) = s.fit(y) {
                        let body = s.body(&fit, width);
                        let part = Part::Body(BodyRow {
                            nv: fit.nv,
                            cx: fit.cx,
                            inv: fit.inv,
                        });
                        if !cull {
                            push(runs, part, body[0], body[1]);
                        } else {
                            let before = runs.len();
                            open_runs(m, body, |a, b| push(runs, part, a, b));
                            // Where the body shows and is whole, it hides
                            // what is behind, its own shadow too.
                            if runs.len() > before {
                                let inside = s.inside(&fit, width);
                                if inside[0] < inside[1] {
                                    let added = fill(m, inside);
                                    open -= added;
                                    row_open[(y - band.y0) as usize] -= added as u32;
                                    filled = true;
                                }
                            }
                        }
                    }
                    if let Some((shadow, row)) = s.shadow(y, width) {
                        let part = Part::Shadow(row);
                        if !cull {
                            push(runs, part, shadow[0], shadow[1]);
                        } else {
                            open_runs(m, shadow, |a, b| push(runs, part, a, b));
                        }
                    }
                }
                if work.runs.last().is_some_and(|run| run.stone == stone) {
                    work.stones.push(s);
                }
                if filled {
                    if open == 0 {
                        // The band is covered: every stone farther away is
                        // hidden.
                        break 'rows;
                    }
                    // The columns covered top to bottom, where this stone
                    // filled.
                    let (w0, w1) = ((x0 / 64) as usize, (x1.max(1) - 1) as usize / 64);
                    for w in w0..=w1.min(words - 1) {
                        work.full[w] =
                            (0..rows).fold(u64::MAX, |all, k| all & work.mask[k * words + w]);
                    }
                }
            }
        }
    }

    /// Draws a run of a stone's contact shadow: its outline squashed onto
    /// the ground, soft, darkest at its centre.
    fn draw_shadow(&self, build: Build, s: &Stone, run: &Run, row: &ShadowRow, band: &mut Band) {
        match build {
            // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Build::Avx2 => unsafe { self.draw_shadow_avx2(s, run, row, band) },
            Build::Portable => self.draw_shadow_any(s, run, row, band),
        }
    }

    /// [`RocksDraw::draw_shadow`] compiled for AVX2: twice the lanes of
    /// the baseline, the same operations (no fused multiply-add), so the
    /// same pixels.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn draw_shadow_avx2(&self, s: &Stone, run: &Run, row: &ShadowRow, band: &mut Band) {
        self.draw_shadow_any(s, run, row, band);
    }

    #[inline(always)]
    fn draw_shadow_any(
        &self,
        s: &Stone,
        run: &Run,
        &ShadowRow { sinv, sdy2 }: &ShadowRow,
        band: &mut Band,
    ) {
        let shadow = self.shadow * self.opacity;
        let row = band.row(run.y);
        let px = &mut row[run.a as usize..run.b as usize];
        for (k, chunk) in px.chunks_mut(LANES).enumerate() {
            let x0 = run.a as usize + k * LANES;
            // Darkening of red and green, and of blue, lane by lane.
            let (mut m, mut mb) = ([0.0; LANES], [0.0; LANES]);
            let lanes = lanes(x0);
            for l in 0..LANES {
                let dx = lanes[l] as f32 + 0.5 - s.sx;
                let sdx = dx * if dx < 0.0 { sinv[0] } else { sinv[1] };
                let g = sdx * sdx + sdy2;
                let g = if g < 1.0 { g } else { 1.0 };
                let k = (1.0 - g) * shadow;
                m[l] = 1.0 - k * (0.3 + 0.45 * (1.0 - g) * (1.0 - g));
                // Shade a little bluer (skylight), none outside the outline.
                mb[l] = m[l] * (1.0 + 0.03 * k);
            }
            for (l, c) in chunk.iter_mut().enumerate() {
                c[0] *= m[l];
                c[1] *= m[l];
                c[2] *= mb[l];
            }
        }
    }

    /// Draws a run of a stone's body, on a row of outline `row`.
    fn draw_body(
        &self,
        build: Build,
        s: &Stone,
        shading: &Shading,
        run: &Run,
        row: &BodyRow,
        band: &mut Band,
    ) {
        match build {
            // SAFETY: `Build::Avx2` is only made where the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Build::Avx2 => unsafe { self.draw_body_avx2(s, shading, run, row, band) },
            Build::Portable => self.draw_body_any(s, shading, run, row, band),
        }
    }

    /// [`RocksDraw::draw_body`] compiled for AVX2 (see
    /// [`RocksDraw::draw_shadow_avx2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn draw_body_avx2(
        &self,
        s: &Stone,
        shading: &Shading,
        run: &Run,
        row: &BodyRow,
        band: &mut Band,
    ) {
        self.draw_body_any(s, shading, run, row, band);
    }

    /// The body shader, [`LANES`] pixels at a time: each lane's colour is
    /// worked out as one pixel's would be, then written where the lane
    /// lies inside the outline.
    #[inline(always)]
    fn draw_body_any(
        &self,
        s: &Stone,
        shading: &Shading,
        run: &Run,
        &BodyRow { nv, cx, inv }: &BodyRow,
        band: &mut Band,
    ) {
        let y = run.y;
        let op = self.opacity;
        let fc = &shading.facets;
        let texture = shading.texture;
        let row = band.row(y);
        let (a, b) = (run.a, run.b);
        let nv2 = nv * nv;
        // Terms of the row: darker toward the ground; where the faces
        // meet along it (blend = row term + per-pixel slope × nu).
        let ao = 1.0 - 0.45 * crate::noise::smoothstep(-0.1, 1.0, nv);
        let side0 = 0.5 - (fc.split + fc.lean * nv) * s.side_k;
        let top0 = 0.5 + (fc.ridge - nv) * s.top_k;
        let top_nu = fc.tilt * s.top_k;
        // The foot is buried: sand banked against it, up to a line that
        // rises with how deep the stone sits.
        let line = 1.0 - 1.2 * self.sink;
        let buried = if self.sink > 0.0 {
            0.85 * crate::noise::smoothstep(line - 0.3, line + 0.3, nv)
        } else {
            0.0
        };
        let sand = self.lighting.sand;
        let tile = crate::noise::noise_tile();
        const SIDE: usize = crate::noise::TILE_SIDE;
        let grain_row: &[f32; SIDE] = tile
            [((y as usize).wrapping_add(texture as usize) & (SIDE - 1)) * SIDE..][..SIDE]
            .try_into()
            .expect("a tile row");
        let grain_shift = (texture >> 8) as usize;
        let px = &mut row[a as usize..b as usize];
        for (k, chunk) in px.chunks_mut(LANES).enumerate() {
            let x0 = a as usize + k * LANES;
            // Columns as i32 (exact below 2^24, as the picture is), which
            // convert to floats lane by lane.
            let lanes = lanes(x0);
            let grain: [f32; LANES] =
                std::array::from_fn(|l| grain_row[(x0 + l + grain_shift) & (SIDE - 1)]);
            let mut f = [0.0; LANES];
            let mut alpha = [0.0; LANES];
            let mut v = [[0.0; LANES]; 3];
            for l in 0..LANES {
                let dx = lanes[l] as f32 + 0.5 - cx;
                let nu = dx * if dx < 0.0 { inv[0] } else { inv[1] };
                f[l] = nu * nu + nv2;
                let cov = if f[l] <= s.inner2 {
                    1.0
                } else {
                    (0.5 - (f[l] - 1.0) * s.aa).clamp(0.0, 1.0)
                };
                let side = (side0 + nu * s.side_k).clamp(0.0, 1.0);
                let top = (top0 + nu * top_nu).clamp(0.0, 1.0);
                // Rounded off toward the outline, and a little grit.
                let round = 1.0 - 0.2 * if f[l] < 1.0 { f[l] } else { 1.0 };
                let grit = 1.0 + 0.08 * grain[l];
                let shade = ao * grit * round;
                alpha[l] = cov * op;
                for (i, vi) in v.iter_mut().enumerate() {
                    let sides = fc.left[i] + (fc.right[i] - fc.left[i]) * side;
                    let rock = (sides + (fc.top[i] - sides) * top) * shade;
                    vi[l] = rock + (sand[i] * grit - rock) * buried;
                }
            }
            for (l, c) in chunk.iter_mut().enumerate() {
                if f[l] >= s.outer2 {
                    continue;
                }
                let a = alpha[l];
                for (i, ci) in c.iter_mut().enumerate() {
                    // Exactly the stone where it is opaque, whatever was
                    // under.
                    *ci = if a >= 1.0 {
                        v[i][l]
                    } else {
                        *ci + (v[i][l] - *ci) * a
                    };
                }
            }
        }
    }
}

/// Pixels the stone shaders work on at once, the lanes of an AVX2
/// register: their loops over lanes compile to SIMD.
const LANES: usize = 8;

/// The columns of the lanes from column `x0`, as `i32`: exact (pictures are
/// far narrower than 2^24), and they convert to floats lane by lane.
#[inline(always)]
fn lanes(x0: usize) -> [i32; LANES] {
    std::array::from_fn(|l| (x0 + l) as i32)
}

impl Stone {
    /// The columns of the stone's body on the row of `fit` (clipped to the
    /// picture, possibly empty).
    fn body(&self, fit: &RowFit, width: u32) -> [u32; 2] {
        let reach = (self.outer2 - fit.nv2).sqrt();
        columns(
            fit.cx - reach * fit.radius[0],
            fit.cx + reach * fit.radius[1],
            width,
        )
    }

    /// The columns of the row of `fit` the body covers whole (coverage 1):
    /// estimated, then checked pixel by pixel at both ends with the very
    /// test the drawing makes (`f` falls toward the centre on each side, so
    /// the run between two passing ends passes).
    fn inside(&self, fit: &RowFit, width: u32) -> [u32; 2] {
        if fit.nv2 >= self.inner2 {
            return [0, 0];
        }
        let whole = |x: u32| {
            let dx = x as f32 + 0.5 - fit.cx;
            let nu = dx * if dx < 0.0 { fit.inv[0] } else { fit.inv[1] };
            nu * nu + fit.nv2 <= self.inner2
        };
        let reach = (self.inner2 - fit.nv2).sqrt();
        let [mut a, mut b] = columns(
            fit.cx - reach * fit.radius[0],
            fit.cx + reach * fit.radius[1],
            width,
        );
        while a < b && !whole(a) {
            a += 1;
        }
        while a < b && !whole(b - 1) {
            b -= 1;
        }
        [a, b]
    }

    /// The columns of the stone's shadow on row `y` (possibly empty) and
    /// its outline there; `None` if the shadow misses the row.
    fn shadow(&self, y: u32, width: u32) -> Option<([u32; 2], ShadowRow)> {
        let sdy = (y as f32 + 0.5 - self.sy) * self.sinv[1];
        let sdy2 = sdy * sdy;
        if !self.casts || sdy2 >= 1.0 {
            return None;
        }
        let half = (1.0 - sdy2).sqrt() * self.sradius;
        let [left, right] = self.widths(sdy);
        let sinv = [self.sinv[0] / left, self.sinv[0] / right];
        Some((
            columns(self.sx - half * left, self.sx + half * right, width),
            ShadowRow { sinv, sdy2 },
        ))
    }
}

/// The columns `[a, b)` of a picture `width` pixels wide whose centres lie
/// in `lo..hi` (pixel units), and some margin: the drawing tests each
/// pixel. (Truncation on values clamped to 0 or more, not `ceil`/`floor`,
/// which are library calls on baseline x86-64.)
#[inline]
fn columns(lo: f32, hi: f32, width: u32) -> [u32; 2] {
    let w = width as f32;
    let lo = (lo - 0.5).clamp(0.0, w);
    let a = lo as u32 + u32::from((lo as u32 as f32) < lo);
    let b = ((hi + 0.5).clamp(0.0, w) as u32).min(width);
    [a, b.max(a)]
}

/// `x` rounded down, without a library call (see [`columns`]).
#[inline]
fn floor(x: f32) -> i32 {
    let t = x as i32;
    t - i32::from(t as f32 > x)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compose::Plan;
    use crate::scene::Scene;

    /// A stone's place, size, shape and colour come from its own cell (and
    /// the scene's seed) alone: clearing ground for a tent removes the
    /// stones on it and leaves every other stone exactly as it was. (A
    /// stone next to a tent that is removed may look different only because
    /// a stone that comes back in front of it covers part of it.)
    #[test]
    fn a_stones_traits_depend_on_its_cell_alone() {
        let scene = Scene::default();
        let rocks = Rocks::default();
        let plan = Plan::new(&scene).unwrap();
        let cleared = plan.frame(640, 360);
        assert!(!cleared.clearings.is_empty(), "the default tent clears");
        let mut open = plan.frame(640, 360);
        open.clearings.clear();
        let traits = |frame: &Frame| -> Vec<([u32; 12], [u32; 2 * KNOTS])> {
            let draw = rocks.prepare_stones(frame).unwrap();
            draw.rows
                .iter()
                .flat_map(|row| &row.stones)
                .map(|rough| {
                    let s = rough.stone(&draw.outline);
                    let a = s.look.albedo;
                    let numbers = [
                        s.x, s.y, s.inv[0], s.inv[1], s.inv[2], s.inv[3], s.shear, s.sx, s.sy,
                        a[0], a[1], a[2],
                    ];
                    (numbers.map(f32::to_bits), s.knots.map(f32::to_bits))
                })
                .collect()
        };
        let (kept, all) = (traits(&cleared), traits(&open));
        assert!(kept.len() < all.len(), "the tent clears some stones");
        let all: std::collections::HashSet<_> = all.into_iter().collect();
        for stone in &kept {
            assert!(
                all.contains(stone),
                "a stone changed when ground was cleared"
            );
        }
    }

    /// Moving the clearings and placing again only the rows near them gives
    /// the stones a fresh placing gives, and every stone or grain that came
    /// or went lies in the pixel rows said to have changed.
    #[test]
    fn reclearing_places_what_a_fresh_placing_does() {
        let mut scene = Scene::default();
        scene.automaton.columns = 200;
        scene.automaton.density = 0.4;
        let rocks = Rocks {
            gravel: 1.0,
            near_size: 0.12,
            ..Rocks::default()
        };
        let plan = Plan::new(&scene).unwrap();
        let frame = plan.frame(480, 270);
        let tent = frame.clearings[0];
        let stones = |draw: &RocksDraw| -> Vec<Vec<([i32; 4], [u32; 3])>> {
            let bits = |r: &Rough| [r.shape.x, r.shape.y, r.albedo[0]].map(f32::to_bits);
            let rows = draw.rows.iter();
            rows.map(|row| {
                row.boxes
                    .iter()
                    .copied()
                    .zip(row.stones.iter().map(bits))
                    .collect()
            })
            .collect()
        };
        let mut old = rocks.prepare_stones(&frame).unwrap();
        let moves = [
            (0.05, 0.0),
            (0.0, 0.04),
            (-0.3, -0.02),
            (0.6, 0.1),
            (0.011, 0.0),
        ];
        let mut at = frame;
        for (k, (dx, dy)) in moves.into_iter().enumerate() {
            let mut now = plan.frame(480, 270);
            now.clearings = vec![Clearing {
                x: at.clearings[0].x + dx,
                y: at.clearings[0].y + dy,
                ..tent
            }];
            if k == 3 {
                // And a second tent.
                now.clearings.push(Clearing { x: 0.3, ..tent });
            }
            let before = stones(&old);
            let (draw, changed) = rocks.reclear(&now, old);
            let fresh = rocks.prepare_stones(&now).unwrap();
            let after = stones(&draw);
            assert!(after == stones(&fresh), "move {k}: not as placed afresh");
            let said = |bbox: &[i32; 4]| {
                changed
                    .iter()
                    .any(|&(y0, y1)| y0 <= bbox[1] && bbox[3] <= y1)
            };
            let mut came_or_went = 0;
            for (then, now) in before.iter().zip(&after) {
                for (bbox, _) in then.iter().filter(|s| !now.contains(s)) {
                    assert!(said(bbox), "move {k}: a stone went unsaid");
                    came_or_went += 1;
                }
                for (bbox, _) in now.iter().filter(|s| !then.contains(s)) {
                    assert!(said(bbox), "move {k}: a stone came unsaid");
                    came_or_went += 1;
                }
            }
            assert!(came_or_went > 0, "move {k} moved no stone");
            (old, at) = (draw, now);
        }
    }

    /// The bits `draw` paints on a `w × h` picture, band by band, over a
    /// background that varies.
    fn paint(w: u32, h: u32, draw: impl Fn(&mut Band)) -> Vec<u32> {
        let mut bits = Vec::new();
        for index in 0..h.div_ceil(BAND_ROWS) as usize {
            let y0 = index as u32 * BAND_ROWS;
            let rows = BAND_ROWS.min(h - y0);
            let mut px: Vec<Linear> = (0..rows * w)
                .map(|i| [(i % 7) as f32 * 0.1, 0.3, (i % 5) as f32 * 0.2])
                .collect();
            draw(&mut Band {
                y0,
                rows,
                width: w,
                index,
                px: &mut px,
            });
            bits.extend(px.iter().flatten().map(|v| v.to_bits()));
        }
        bits
    }

    /// The shaders compiled for AVX2 (where the CPU has it) paint the same
    /// bits as the ones for any CPU, on stones of every size, opaque and
    /// translucent, over a background that varies.
    #[test]
    fn the_avx2_shaders_paint_the_same_bits_as_the_portable_ones() {
        for (density, columns, opacity, near) in [
            (0.4, 560, 1.0, 0.042),
            (0.5, 968, 0.7, 0.006),
            (0.3, 160, 1.0, 0.3),
        ] {
            let mut scene = Scene::default();
            scene.automaton.density = density;
            scene.automaton.columns = columns;
            let rocks = Rocks {
                opacity,
                near_size: near,
                ..Rocks::default()
            };
            let plan = Plan::new(&scene).unwrap();
            let (w, h) = (517, 291);
            let draw = rocks.prepare_stones(&plan.frame(w, h)).unwrap();
            let pictures = [Build::best(), Build::Portable]
                .map(|build| paint(w, h, |band| draw.draw_with(band, build)));
            assert!(
                pictures[0] == pictures[1],
                "density {density}, {columns} columns, opacity {opacity}: the shaders differ"
            );
        }
    }

    /// The reference for culling: drawing every stone whole, far to near,
    /// gives the same bits, on packed fields, sparse ones, translucent
    /// stones and odd sizes, over a background that varies.
    #[test]
    fn culling_hidden_stones_changes_no_pixel() {
        let cases = [
            (0.4, 560, 1.0),
            (0.5, 968, 1.0),
            (0.8, 560, 1.0),
            (0.4, 300, 0.6),
        ];
        for (density, columns, opacity) in cases {
            let mut scene = Scene::default();
            scene.automaton.density = density;
            scene.automaton.columns = columns;
            for layer in &mut scene.layers {
                if let crate::layers::Layer::Rocks(r) = layer {
                    r.opacity = opacity;
                }
            }
            let rocks = scene
                .layers
                .iter()
                .find_map(|l| match l {
                    crate::layers::Layer::Rocks(r) => Some(r.clone()),
                    _ => None,
                })
                .unwrap();
            let plan = Plan::new(&scene).unwrap();
            for (w, h) in [(640, 360), (333, 187)] {
                let frame = plan.frame(w, h);
                let mut draw = rocks.prepare_stones(&frame).unwrap();
                let pictures = [true, false].map(|cull| {
                    draw.cull = cull;
                    paint(w, h, |band| draw.draw(band))
                });
                assert!(
                    pictures[0] == pictures[1],
                    "density {density}, {columns} columns, opacity {opacity}, {w}x{h}: culling changes pixels"
                );
            }
        }
    }
}
