//! The bit-packed cell grid.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Largest accepted width or height of a grid, in cells.
pub const MAX_SIDE: usize = 1 << 16;
/// Largest accepted number of cells in a grid (256 Mi cells: 32 MiB per buffer).
pub const MAX_CELLS: usize = 1 << 28;

/// How the edges of a grid behave.
///
/// Default: [`Topology::Torus`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Topology {
    /// Both pairs of edges wrap around: the grid is a torus.
    #[default]
    Torus,
    /// A bounded plane: every cell outside the grid is dead, forever.
    Bounded,
}

/// A rectangular grid of cells, one bit per cell.
///
/// Rows are stored top to bottom, each as `words_per_row = ceil(width / 64)`
/// `u64` words. Cell `x` of a row lives in word `x / 64`, bit `x % 64`
/// (least significant bit first), so a left shift moves cells east:
///
/// ```text
///  word 0                      word 1
///  bit  0  1  2 ... 63          bit 0  1 ... (width-64-1) | padding (always 0)
///  x =  0  1  2 ... 63          x = 64 65 ... width-1     |
/// ```
///
/// Padding bits past `width` in the last word of each row are always zero;
/// every operation keeps them so, which lets population counts and
/// comparisons work word by word.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BitGrid {
    width: usize,
    height: usize,
    words_per_row: usize,
    words: Vec<u64>,
}

impl std::fmt::Debug for BitGrid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "BitGrid {}x{} ({} alive)",
            self.width,
            self.height,
            self.population()
        )?;
        if self.width <= 64 && self.height <= 64 {
            for y in 0..self.height {
                f.write_str("\n")?;
                for x in 0..self.width {
                    f.write_str(if self.get(x, y) { "o" } else { "." })?;
                }
            }
        }
        Ok(())
    }
}

impl BitGrid {
    /// An all-dead grid. Rejects a zero side, a side above [`MAX_SIDE`] and
    /// more than [`MAX_CELLS`] cells.
    pub fn new(width: usize, height: usize) -> Result<BitGrid> {
        check_size(width, height)?;
        let words_per_row = width.div_ceil(64);
        Ok(BitGrid {
            width,
            height,
            words_per_row,
            words: vec![0; words_per_row * height],
        })
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of `u64` words in each row.
    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// Mask of the valid bits in the last word of a row.
    pub fn last_word_mask(&self) -> u64 {
        match self.width % 64 {
            0 => u64::MAX,
            r => (1u64 << r) - 1,
        }
    }

    /// Whether cell (`x`, `y`) is alive. Panics if it is outside the grid.
    pub fn get(&self, x: usize, y: usize) -> bool {
        assert!(
            x < self.width && y < self.height,
            "cell ({x}, {y}) outside grid"
        );
        self.words[y * self.words_per_row + x / 64] >> (x % 64) & 1 == 1
    }

    /// Sets cell (`x`, `y`). Panics if it is outside the grid.
    pub fn set(&mut self, x: usize, y: usize, alive: bool) {
        assert!(
            x < self.width && y < self.height,
            "cell ({x}, {y}) outside grid"
        );
        let word = &mut self.words[y * self.words_per_row + x / 64];
        let bit = 1u64 << (x % 64);
        if alive {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    /// The words of row `y`.
    pub fn row(&self, y: usize) -> &[u64] {
        &self.words[y * self.words_per_row..(y + 1) * self.words_per_row]
    }

    /// All words, row after row.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// All words, mutably. Callers must leave the padding bits zero.
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// Number of live cells.
    pub fn population(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// Live cells in row-major order (top row first, west to east).
    pub fn alive_cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let wpr = self.words_per_row;
        self.words.iter().enumerate().flat_map(move |(i, &word)| {
            let (y, base) = (i / wpr, (i % wpr) * 64);
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    (base + b, y)
                })
            })
        })
    }

    /// A stable 64-bit fingerprint of size and contents (FNV-1a over the
    /// little-endian words), the same on every machine and build.
    pub fn fingerprint(&self) -> u64 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                hash ^= u64::from(b);
                hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        eat(&(self.width as u64).to_le_bytes());
        eat(&(self.height as u64).to_le_bytes());
        for w in &self.words {
            eat(&w.to_le_bytes());
        }
        hash
    }

    /// Copies `pattern` into this grid with its top-left corner at (`x0`, `y0`);
    /// cells falling outside are dropped.
    pub fn paste(&mut self, pattern: &BitGrid, x0: usize, y0: usize) {
        for (x, y) in pattern.alive_cells() {
            let (x, y) = (x + x0, y + y0);
            if x < self.width && y < self.height {
                self.set(x, y, true);
            }
        }
    }
}

/// Checks a grid size against the documented limits.
pub fn check_size(width: usize, height: usize) -> Result<()> {
    let side = |what, v: usize| {
        if v == 0 || v > MAX_SIDE {
            Err(Error::out_of_range(
                what,
                v,
                format!("must be 1 to {MAX_SIDE}"),
            ))
        } else {
            Ok(())
        }
    };
    side("grid width", width)?;
    side("grid height", height)?;
    if width * height > MAX_CELLS {
        return Err(Error::out_of_range(
            "grid size",
            format!("{width}x{height}"),
            format!("at most {MAX_CELLS} cells"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_population() {
        let mut g = BitGrid::new(65, 3).unwrap();
        assert_eq!(g.words_per_row(), 2);
        g.set(0, 0, true);
        g.set(64, 2, true);
        g.set(63, 1, true);
        assert!(g.get(64, 2) && g.get(0, 0) && !g.get(1, 0));
        assert_eq!(g.population(), 3);
        assert_eq!(
            g.alive_cells().collect::<Vec<_>>(),
            vec![(0, 0), (63, 1), (64, 2)]
        );
        g.set(0, 0, false);
        assert_eq!(g.population(), 2);
    }

    #[test]
    fn sizes_are_checked() {
        assert!(BitGrid::new(0, 5).is_err());
        assert!(BitGrid::new(5, 0).is_err());
        assert!(BitGrid::new(MAX_SIDE + 1, 1).is_err());
        assert!(BitGrid::new(MAX_SIDE, MAX_SIDE).is_err());
        assert!(BitGrid::new(1, 1).is_ok());
    }
}
