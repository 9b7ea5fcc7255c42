//! The bare automaton as pictures: one cell a square of pixels, live cells
//! light on dark, and the picture sizes that follow from a scale.

use image::RgbaImage;
use rayon::prelude::*;

use super::MAX_CELL_SCALE;
use crate::scene::Scene;

/// Colour of a dead cell in a bare-automaton animation (sRGB).
pub const DEAD_CELL: [u8; 3] = [20, 20, 24];
/// Colour of a live cell in a bare-automaton animation (sRGB).
pub const LIVE_CELL: [u8; 3] = [236, 226, 204];

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

/// Draws `grid` with each cell a `scale`-pixel square: [`LIVE_CELL`] on
/// [`DEAD_CELL`].
pub(super) fn draw_cells(grid: &crate::life::BitGrid, scale: u32, image: &mut RgbaImage) {
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
