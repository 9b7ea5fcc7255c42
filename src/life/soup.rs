//! Seeded random soups: the starting grid of every rock field.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::life::grid::BitGrid;

/// Default share of live cells in a soup.
pub const DEFAULT_DENSITY: f64 = 0.8;

/// Rows handed to one rayon task when filling a soup.
const BAND_ROWS: usize = 32;

/// The soup's alive threshold for `density`: a cell is alive when its 16
/// random bits are below it. `density` is quantized to 1/65536.
pub fn threshold(density: f64) -> Result<u32> {
    if !(0.0..=1.0).contains(&density) {
        return Err(Error::out_of_range(
            "density",
            density,
            "must be between 0 and 1",
        ));
    }
    Ok((density * 65536.0).round() as u32)
}

/// A `width × height` grid whose cells are alive with probability `density`.
///
/// The stream is `ChaCha8Rng::seed_from_u64(seed)`, read as 32-bit words:
/// row `y` starts at word `y * ceil(width / 2)`, and each word gives two
/// cells, its low 16 bits the even `x`, its high 16 bits the odd `x`. A cell
/// is alive when its 16 bits are below [`threshold`]. The mapping is this
/// crate's own (no float sampling), so the same (seed, size, density) gives
/// the same grid on every machine, build and thread count; rows are filled in
/// parallel, each seeking to its own place in the stream.
pub fn soup(width: usize, height: usize, density: f64, seed: u64) -> Result<BitGrid> {
    let threshold = threshold(density)?;
    let mut grid = BitGrid::new(width, height)?;
    let wpr = grid.words_per_row();
    let words_per_row_in_stream = width.div_ceil(2) as u128;
    grid.words_mut()
        .par_chunks_mut(BAND_ROWS * wpr)
        .enumerate()
        .for_each(|(band, words)| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_word_pos((band * BAND_ROWS) as u128 * words_per_row_in_stream);
            for row in words.chunks_mut(wpr) {
                fill_row(row, width, threshold, &mut rng);
            }
        });
    Ok(grid)
}

/// Fills one row from the stream, consuming exactly `ceil(width / 2)` words:
/// 32 a grid word (the last maybe fewer). Each cell's bit is set from a
/// comparison, not a branch: at a density like 0.4 a branch per cell
/// mispredicts about every other cell.
fn fill_row(row: &mut [u64], width: usize, threshold: u32, rng: &mut ChaCha8Rng) {
    for (i, word) in row.iter_mut().enumerate() {
        let cells = (width - i * 64).min(64);
        let mut bits = 0u64;
        for k in (0..cells).step_by(2) {
            let r = rng.next_u32();
            bits |= u64::from(r & 0xffff < threshold) << k;
            bits |= u64::from(r >> 16 < threshold) << (k + 1);
        }
        // The odd cell past a row's end has no place (it stays padding).
        *word = bits & (u64::MAX >> (64 - cells));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn densities_land_near_their_target() {
        for density in [0.0, 0.1, 0.5, 0.8, 1.0] {
            let g = soup(300, 200, density, 7).unwrap();
            let share = g.population() as f64 / 60_000.0;
            assert!((share - density).abs() < 0.01, "{density}: {share}");
        }
    }

    #[test]
    fn same_seed_same_grid_other_seed_other_grid() {
        let a = soup(1000, 777, 0.8, 42).unwrap();
        assert_eq!(a, soup(1000, 777, 0.8, 42).unwrap());
        assert_ne!(a, soup(1000, 777, 0.8, 43).unwrap());
    }

    #[test]
    fn pinned_fingerprints() {
        // The soup stream is part of playa's file format: presets and share
        // codes name seeds, so these must never change.
        assert_eq!(soup(64, 64, 0.8, 1).unwrap().fingerprint(), PINNED_64);
        assert_eq!(soup(1000, 777, 0.8, 42).unwrap().fingerprint(), PINNED_1000);
        assert_eq!(soup(1, 1, 0.5, 0).unwrap().fingerprint(), PINNED_1);
    }

    const PINNED_64: u64 = 0x6ba0_396c_14ee_ed7e;
    const PINNED_1000: u64 = 0x1047_c933_a62d_f960;
    const PINNED_1: u64 = 0x8b2d_e55a_4af8_06c4;

    /// The stream mapping as documented, cell by cell.
    fn reference(width: usize, height: usize, density: f64, seed: u64) -> BitGrid {
        let threshold = threshold(density).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut grid = BitGrid::new(width, height).unwrap();
        for y in 0..height {
            for x in (0..width).step_by(2) {
                let r = rng.next_u32();
                grid.set(x, y, r & 0xffff < threshold);
                if x + 1 < width {
                    grid.set(x + 1, y, r >> 16 < threshold);
                }
            }
        }
        grid
    }

    #[test]
    fn soups_follow_the_documented_stream() {
        for (width, height) in [
            (1, 3),
            (2, 2),
            (63, 5),
            (64, 3),
            (65, 40),
            (129, 33),
            (200, 70),
        ] {
            for density in [0.0, 0.4, 1.0] {
                let got = soup(width, height, density, 9).unwrap();
                assert_eq!(
                    got,
                    reference(width, height, density, 9),
                    "{width}x{height}"
                );
            }
        }
    }

    #[test]
    fn thread_count_does_not_change_the_soup() {
        let on = |n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
                .install(|| soup(777, 1000, 0.8, 9).unwrap())
        };
        assert_eq!(on(1), on(3));
    }

    #[test]
    fn bad_densities_are_refused() {
        for d in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(soup(4, 4, d, 0).is_err(), "{d}");
        }
    }
}
