//! Drawing a band: the sand worked out exactly on every fourth column of
//! every fourth row around it; between, on every second, the mean of the
//! four (or two) around where they lie on one face and agree, else worked
//! out; and each pixel likewise from the second ones. In one ground, the
//! sand keeps the depth of the ground each pixel shows: it hides what
//! stands behind it.

use super::light::Px;
use super::march::Probe;
use super::prepared::{Depths, DunesDraw};
use crate::base::color::scale;
use crate::layers::{Band, Draw, blend};

/// Room for working out pixels exactly.
#[derive(Debug, Default)]
struct Room {
    probe: Probe,
    /// The pixels that show sand, as `(column, one over the depth)`, and
    /// their colours.
    sand: Vec<(u32, f32)>,
    lit: Vec<Px>,
}

impl DunesDraw {
    /// The sand at `pixels`, worked out exactly, into `out` (`None` where
    /// none shows).
    fn exact(
        &self,
        depths: &Depths,
        pixels: &[(u32, u32)],
        room: &mut Room,
        out: &mut Vec<Option<Px>>,
    ) {
        let Room { probe, sand, lit } = room;
        sand.clear();
        sand.extend(
            pixels
                .iter()
                .filter_map(|&(x, y)| Some((x, depths.at(x, y)?))),
        );
        lit.clear();
        self.colors(sand, probe, lit);
        let mut lit = lit.iter();
        out.clear();
        out.extend(pixels.iter().map(|&(x, y)| {
            depths
                .at(x, y)
                .map(|_| *lit.next().expect("a colour for each pixel of sand"))
        }));
    }
}

/// How far apart (linear light, or cover) the colours around a point may
/// be for it to take their mean rather than its own.
const AGREE: f32 = 0.025;

impl Draw for DunesDraw {
    fn touches(&self, _y0: u32, y1: u32) -> bool {
        y1 > self.first
    }

    fn covers(&self, y0: u32, _y1: u32) -> bool {
        // Opaque sand from the first row wholly under the horizon down.
        self.opacity >= 1.0
            && self.sheet >= 1.0
            && self.far_sand >= 1.0
            && y0 as f32 >= self.horizon.ceil() + 1.0
            && y0 >= self.first
    }

    fn draw(&self, band: &mut Band) {
        let (x0, x1) = (band.x0, band.x1());
        let (y0, y1) = (band.y0.max(self.first), band.y1());
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        // From the second look the pixels around the band are worked out
        // too, so that a brink's pixels take their neighbours' light.
        let margin = u32::from(self.antialias);
        let (ex0, ex1) = (x0.saturating_sub(margin), x1 + margin);
        let (ey0, ey1) = (y0.saturating_sub(margin), y1 + margin);
        let (width, depths, mut pixels) = self.pixels((ex0, ex1), (ey0, ey1));
        if self.antialias {
            pixels = smoothed(&pixels, width as usize);
        }
        let shade = self.shade.as_ref().map(|s| s.samples((x0, x1), (y0, y1)));
        let at = |x: u32, y: u32| pixels[((y - ey0) * width + (x - ex0)) as usize];
        let mut row_px: Vec<Option<Px>> = Vec::with_capacity((x1 - x0) as usize);
        for y in y0..y1 {
            row_px.clear();
            row_px.extend((x0..x1).map(|x| at(x, y)));
            let row = band.row(y);
            for (x, px) in (x0..x1).zip(row_px.iter()) {
                let Some(px) = *px else {
                    continue;
                };
                let mut color = px.color;
                if let Some(s) = &shade {
                    color = scale(color, s.at(x, y));
                }
                let c = &mut row[(x - x0) as usize];
                let alpha = px.alpha * self.opacity;
                if alpha >= 1.0 {
                    *c = color;
                } else {
                    blend(c, color, alpha);
                }
            }
            // In one ground, the sand hides what stands behind it.
            if let (true, Some(d)) = (self.keys, band.depth.as_mut()) {
                let start = ((y - band.y0) * band.width) as usize;
                for x in x0..x1 {
                    if let (Some(px), Some(iz)) = (at(x, y), depths.at(x, y))
                        && px.alpha * self.opacity >= 0.5
                    {
                        d.ground[start + (x - band.x0) as usize] = self.h * self.eye * iz;
                    }
                }
            }
        }
    }
}

impl DunesDraw {
    /// The sand at the pixels of columns `x0..x1` of rows `y0..y1`, row
    /// after row (`None` where none shows), with the row's length and the
    /// depths read.
    fn pixels(
        &self,
        (x0, x1): (u32, u32),
        (y0, y1): (u32, u32),
    ) -> (u32, std::sync::Arc<Depths>, Vec<Option<Px>>) {
        let mut room = Room::default();
        // The sand is worked out exactly on every fourth column of every
        // fourth row around the band; between, on every second, it is the
        // mean of the four (or two) around where they lie on one face and
        // agree, else worked out; and each pixel likewise from the second
        // ones. A brink, a shadow's edge or a nearer crest is drawn
        // exactly; smooth sand is drawn at a sixteenth of the cost. Every
        // point depends only on its position: the same in any band.
        let (gx, gy) = (x0 & !3, y0 & !3);
        let (n4x, n4y) = ((x1 - 1 - gx) / 4 + 2, (y1 - 1 - gy) / 4 + 2);
        // The depths of the pixels read: from the fourth column and row at
        // or before the band's first to the fourth after its last.
        let (x_end, y_end) = (self.x0 + self.cols, self.y0 + self.rows);
        let depths = self.depths(
            gx.clamp(self.x0, x_end)..(gx + 4 * n4x - 3).clamp(self.x0, x_end),
            gy.clamp(self.y0, y_end)..(gy + 4 * n4y - 3).clamp(self.y0, y_end),
        );
        let points: Vec<(u32, u32)> = (0..n4y)
            .flat_map(|j| (0..n4x).map(move |i| (gx + 4 * i, gy + 4 * j)))
            .collect();
        let mut fourth = Vec::new();
        self.exact(&depths, &points, &mut room, &mut fourth);
        let (n2x, n2y) = (2 * n4x - 1, 2 * n4y - 1);
        let mut second: Vec<Option<Px>> = (0..n2y)
            .flat_map(|j| (0..n2x).map(move |i| (i, j)))
            .map(|(i, j)| {
                let at = |i: u32, j: u32| fourth[(j * n4x + i) as usize];
                between([i / 2, i.div_ceil(2)], [j / 2, j.div_ceil(2)], at)
            })
            .collect();
        // The points worked out after the means, all together.
        let missing: Vec<usize> = (0..second.len()).filter(|&k| second[k].is_none()).collect();
        let points: Vec<(u32, u32)> = missing
            .iter()
            .map(|&k| (gx + 2 * (k as u32 % n2x), gy + 2 * (k as u32 / n2x)))
            .collect();
        let mut found = Vec::new();
        self.exact(&depths, &points, &mut room, &mut found);
        for (k, px) in missing.into_iter().zip(found) {
            second[k] = px;
        }
        let at = |i: u32, j: u32| second[(j * n2x + i) as usize];
        // Per cell of the second grid: whether its four corners lie on one
        // face and agree (the pixels inside are their means).
        let agreed: Vec<bool> = (0..n2y - 1)
            .flat_map(|j| (0..n2x - 1).map(move |i| (i, j)))
            .map(|(i, j)| {
                let corners = || Some([at(i, j)?, at(i + 1, j)?, at(i, j + 1)?, at(i + 1, j + 1)?]);
                corners().is_some_and(|c| agree(&c))
            })
            .collect();
        let corner = |i: u32, j: u32| at(i, j).expect("an agreed cell's corners are sand");
        let width = x1 - x0;
        let mut pixels: Vec<Option<Px>> = Vec::with_capacity((width * (y1 - y0)) as usize);
        let (mut missing, mut found) = (Vec::new(), Vec::new());
        for y in y0..y1 {
            let start = pixels.len();
            missing.clear();
            pixels.extend((x0..x1).map(|x| {
                let (i, ox) = ((x - gx) / 2, (x - gx) & 1);
                let (j, oy) = ((y - gy) / 2, (y - gy) & 1);
                if ox == 0 && oy == 0 {
                    return at(i, j);
                }
                if !agreed[(j * (n2x - 1) + i) as usize] {
                    missing.push((x, y));
                    return None;
                }
                Some(match (ox, oy) {
                    (1, 0) => mean2(corner(i, j), corner(i + 1, j)),
                    (0, _) => mean2(corner(i, j), corner(i, j + 1)),
                    _ => mean2(
                        mean2(corner(i, j), corner(i + 1, j)),
                        mean2(corner(i, j + 1), corner(i + 1, j + 1)),
                    ),
                })
            }));
            self.exact(&depths, &missing, &mut room, &mut found);
            for (&(x, _), &px) in missing.iter().zip(found.iter()) {
                pixels[start + (x - x0) as usize] = px;
            }
        }
        (width, depths, pixels)
    }
}

/// How far apart (linear light) two neighbouring pixels' colours are at
/// an edge that [`smoothed`] draws smooth: a shadow's edge.
const EDGE: f32 = 0.06;

/// The sand's `pixels` (rows `width` long) where each lies beside another
/// face (a brink, or a nearer crest over farther sand) or a shadow's
/// edge: the mean of the sand around it, weighted by a tent (the pixel 4,
/// its sides 2, its corners 1), so that the edge is drawn smooth rather
/// than in steps. Elsewhere, and on the first and last rows and columns
/// (whose neighbours are not all known), the pixels as they are.
fn smoothed(pixels: &[Option<Px>], width: usize) -> Vec<Option<Px>> {
    let differ = |a: &Option<Px>, b: &Option<Px>| match (a, b) {
        (Some(a), Some(b)) => {
            a.face != b.face || (0..3).any(|k| (a.color[k] - b.color[k]).abs() > EDGE)
        }
        _ => false,
    };
    // Which pixels lie beside an edge: each pair of neighbours, across
    // and down, compared once.
    let mut edge = vec![false; pixels.len()];
    for (i, pair) in pixels.windows(2).enumerate() {
        if (i + 1) % width != 0 && differ(&pair[0], &pair[1]) {
            (edge[i], edge[i + 1]) = (true, true);
        }
    }
    for i in 0..pixels.len().saturating_sub(width) {
        if differ(&pixels[i], &pixels[i + width]) {
            (edge[i], edge[i + width]) = (true, true);
        }
    }
    let rows = pixels.len() / width.max(1);
    let mut out = pixels.to_vec();
    for y in 1..rows.saturating_sub(1) {
        for x in 1..width - 1 {
            let i = y * width + x;
            if !edge[i] || pixels[i].is_none() {
                continue;
            }
            let (mut color, mut alpha, mut weight) = ([0.0f32; 3], 0.0, 0.0);
            for (dy, wy) in [(-1isize, 1.0), (0, 2.0), (1, 1.0)] {
                for (dx, wx) in [(-1isize, 1.0), (0, 2.0), (1, 1.0)] {
                    let j = (i as isize + dy * width as isize + dx) as usize;
                    let Some(n) = pixels[j] else {
                        continue;
                    };
                    let w: f32 = wx * wy;
                    for (c, v) in color.iter_mut().zip(n.color) {
                        *c += w * v;
                    }
                    alpha += w * n.alpha;
                    weight += w;
                }
            }
            let face = pixels[i].map_or(0, |p| p.face);
            out[i] = Some(Px {
                color: color.map(|c| c / weight),
                alpha: alpha / weight,
                face,
            });
        }
    }
    out
}

/// The mean of the points of a coarser grid at columns `xs` and rows `ys`
/// (the same twice where the point lies on the grid's line), read by
/// `at`, where all are sand on one face and agree within [`AGREE`].
#[inline]
fn between(xs: [u32; 2], ys: [u32; 2], at: impl Fn(u32, u32) -> Option<Px>) -> Option<Px> {
    let a = at(xs[0], ys[0])?;
    if xs[0] == xs[1] && ys[0] == ys[1] {
        return Some(a);
    }
    let around = [a, at(xs[1], ys[0])?, at(xs[0], ys[1])?, at(xs[1], ys[1])?];
    agree(&around).then(|| {
        let [a, b, c, d] = around;
        mean2(mean2(a, b), mean2(c, d))
    })
}

/// Whether four points lie on one face and their colours and covers
/// within [`AGREE`] of each other.
#[inline]
fn agree(around: &[Px; 4]) -> bool {
    let face = around[0].face;
    if around.iter().any(|p| p.face != face) {
        return false;
    }
    let mut lo = [f32::MAX; 4];
    let mut hi = [f32::MIN; 4];
    for p in around {
        for (k, v) in [p.color[0], p.color[1], p.color[2], p.alpha]
            .into_iter()
            .enumerate()
        {
            lo[k] = lo[k].min(v);
            hi[k] = hi[k].max(v);
        }
    }
    (0..4).all(|k| hi[k] - lo[k] <= AGREE)
}

/// The mean of two points.
#[inline]
fn mean2(a: Px, b: Px) -> Px {
    Px {
        color: std::array::from_fn(|k| 0.5 * (a.color[k] + b.color[k])),
        alpha: 0.5 * (a.alpha + b.alpha),
        face: a.face,
    }
}
