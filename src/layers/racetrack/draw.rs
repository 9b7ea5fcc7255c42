//! Drawing the Racetrack on a band: each row's furrows and the stones'
//! shadows, the mud under them, then the stones, far to near. In one
//! ground the furrows, shadows and stones show only where nothing nearer
//! is drawn ([`crate::layers::world::Depth`]), and each stone marks what
//! it covers; on sand, a pixel's furrow or shadow is that of the ground
//! point lifted to it.

use super::mud::{Crust, Memo, Row, coverage, lattice, smooth};
use crate::base::color::{Linear, mix, scale};
use crate::base::noise::smoothstep;
use crate::layers::world::FAR;
use crate::layers::{Band, Draw, blend};

/// A straight piece of a trail on the ground.
pub(super) struct Segment {
    pub(super) a: [f32; 2],
    /// Unit direction from `a`, and the length.
    pub(super) dir: [f32; 2],
    pub(super) len: f32,
    /// Half the furrow's width.
    pub(super) hw: f32,
    /// How deep and plain it is (fading toward the trail's start).
    pub(super) strength: f32,
    /// The screen rows it may touch, and the line it projects to with its
    /// reach in pixels.
    pub(super) rows: (i32, i32),
    pub(super) line: [f32; 4],
    pub(super) reach: f32,
    /// How many pixels the ground lifts its ends (0 but on sand in one
    /// ground): `line` is lifted, the furrow's points in between by as
    /// much as their place along it.
    pub(super) lift: [f32; 2],
}

/// A stone as drawn: its outline on the screen, its lit colours.
pub(super) struct Drawn {
    /// Centre and radii of its outline, pixels.
    pub(super) cx: f32,
    pub(super) cy: f32,
    pub(super) rx: f32,
    pub(super) ry: f32,
    pub(super) rows: (i32, i32),
    pub(super) wobble: [f32; 3],
    pub(super) albedo: Linear,
    /// The light on it (cloud shade and all).
    pub(super) direct: Linear,
    pub(super) ambient: Linear,
    pub(super) bounce: Linear,
    pub(super) haze: Linear,
    pub(super) hazed: f32,
    pub(super) grain: u32,
    /// Its shadow on the ground: from the foot's centre along `to`, radius
    /// `r`, strength; and the rows it may touch.
    pub(super) foot: [f32; 2],
    pub(super) to: [f32; 2],
    pub(super) r: f32,
    pub(super) shadow: f32,
    pub(super) shadow_rows: (i32, i32),
    pub(super) shadow_line: [f32; 4],
    pub(super) shadow_reach: f32,
    /// How many pixels the ground lifts it and its shadow (0 but on sand
    /// in one ground).
    pub(super) lift: f32,
    /// Its foot's key (pixels under the horizon of its foot on flat
    /// ground), and how many pixels it and its shadow reach below its
    /// foot: what [`crate::layers::world::Depth::shows`] tests.
    pub(super) key: f32,
    pub(super) margin: f32,
}

/// Screen rows `y0..y1` (clipped to the picture) a line `line` with reach
/// `r` may touch.
pub(super) fn line_rows(line: [f32; 4], r: f32, height: u32) -> (i32, i32) {
    let lo = (line[1].min(line[3]) - r).floor().max(0.0);
    let hi = (line[1].max(line[3]) + r).ceil().min(height as f32);
    (lo as i32, hi as i32)
}

/// The Racetrack prepared for one picture.
pub(super) struct RacetrackDraw {
    pub(super) opacity: f32,
    pub(super) rows: Vec<Row>,
    pub(super) first: u32,
    pub(super) half_width: f32,
    pub(super) focal: f32,
    pub(super) crust: Crust,
    pub(super) cracks: f32,
    pub(super) patch_seed: u32,
    pub(super) segments: Vec<Segment>,
    pub(super) stones: Vec<Drawn>,
    /// Per band of the picture: the segments, and the stones (far to near)
    /// that reach into it.
    pub(super) band_segments: Vec<Vec<u32>>,
    pub(super) band_stones: Vec<Vec<u32>>,
    /// Toward the light on the ground: across, away, up.
    pub(super) light: [f32; 3],
    /// The direct and sky light's luminance on the ground.
    pub(super) sun: f32,
    pub(super) sky: f32,
    pub(super) shade: Option<crate::layers::clouds::CloudShade>,
    /// The eye's height over the ground, scene units: rows map to depths
    /// through it.
    pub(super) eye: f32,
    /// The horizon's row, pixels.
    pub(super) horizon: f32,
    /// Whether the ground lifts the stones and trails (one ground on sand).
    pub(super) lifted: bool,
    /// Whether the mud lies under the sand drawn before it (one ground
    /// with dunes): it then covers no band whole.
    pub(super) under: bool,
}

/// How far under the key of the terrain drawn at a pixel a furrow or a
/// shadow there may lie and still show, pixels: they lie on that ground.
const ON_GROUND: f32 = 2.0;

impl RacetrackDraw {
    /// The ground point (across, depth) under pixel (`x`, `y`) where the
    /// ground there is lifted `lift` pixels: the flat ground's `lift`
    /// rows lower. `None` at or over the horizon.
    #[inline]
    fn ground_at(&self, x: u32, y: u32, lift: f32) -> Option<(f32, f32)> {
        let dy = (y as f32 + 0.5 + lift - self.horizon) / self.focal;
        if dy <= 1e-4 {
            return None;
        }
        let z = self.eye / dy;
        Some(((x as f32 + 0.5 - self.half_width) / self.focal * z, z))
    }
}

/// How many pixels the ground lifts the point of segment `s` drawn
/// nearest pixel (`x`, `y`): between its ends', by its place along the
/// lifted line.
#[inline]
fn lift_at(s: &Segment, x: u32, y: u32) -> f32 {
    let [x0, y0, x1, y1] = s.line;
    let (dx, dy) = (x1 - x0, y1 - y0);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 1e-9 {
        (((x as f32 + 0.5 - x0) * dx + (y as f32 + 0.5 - y0) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    s.lift[0] + (s.lift[1] - s.lift[0]) * t
}

/// The columns `a..b` of row `y` within `r` pixels of the screen line
/// `line` (whole pixels, before clipping to a band).
#[inline]
fn line_span(line: [f32; 4], r: f32, y: u32) -> (i32, i32) {
    let [x0, y0, x1, y1] = line;
    let (top, bottom) = (y as f32 - r, y as f32 + 1.0 + r);
    let (t0, t1) = if (y1 - y0).abs() < 1e-6 {
        (0.0, 1.0)
    } else {
        let (a, b) = ((top - y0) / (y1 - y0), (bottom - y0) / (y1 - y0));
        (a.min(b).clamp(0.0, 1.0), a.max(b).clamp(0.0, 1.0))
    };
    let (xa, xb) = (x0 + (x1 - x0) * t0, x0 + (x1 - x0) * t1);
    (
        (xa.min(xb) - r).floor() as i32,
        (xa.max(xb) + r).ceil() as i32 + 1,
    )
}

impl Draw for RacetrackDraw {
    fn covers(&self, y0: u32, y1: u32) -> bool {
        !self.under
            && self.opacity >= 1.0
            && y0 >= self.first
            && (y0..y1).all(|y| {
                self.rows
                    .get((y - self.first) as usize)
                    .is_some_and(|r| r.cover >= 1.0)
            })
    }

    fn touches(&self, y0: u32, y1: u32) -> bool {
        y1 > self.first && y0 < y1
    }

    fn draw(&self, band: &mut Band) {
        let (x0, x1) = (band.x0, band.x1());
        let first = band.y0.max(self.first);
        if first >= band.y1() || x0 >= x1 {
            return;
        }
        let w = (x1 - x0) as usize;
        let shade = self
            .shade
            .as_ref()
            .map(|s| s.samples((x0, x1), (first, band.y1())));
        let segs = self
            .band_segments
            .get(band.index)
            .map_or(&[][..], |v| &v[..]);
        let stones = self.band_stones.get(band.index).map_or(&[][..], |v| &v[..]);
        // Per pixel of a row: the nearest furrow (its distance in widths,
        // and its light), and the stones' shadow.
        let mut nearest = vec![f32::INFINITY; w];
        let mut furrow = vec![1.0f32; w];
        let mut groove = vec![0.0f32; w];
        let mut dark = vec![0.0f32; w];
        let flat = self.sun * self.light[2].max(0.0) + self.sky;
        let mut samples: Vec<[f32; 3]> = Vec::new();
        let mut memo = Memo::new(&self.crust);
        let mut covered: Vec<bool> = Vec::with_capacity(w);
        for y in first..band.y1() {
            let r = &self.rows[(y - self.first) as usize];
            nearest.fill(f32::INFINITY);
            // The band's depths from this row on, in one ground.
            let at = ((y - band.y0) * band.width) as usize;
            let depth = band.depth.as_ref();
            // Whether the ground at depth `z` shows at the row's `j`th pixel.
            let on_ground = |j: usize, z: f32| {
                depth.is_none_or(|d| d.shows(at + j, self.eye * self.focal / z, ON_GROUND))
            };
            furrow.fill(1.0);
            groove.fill(0.0);
            dark.fill(0.0);
            let zx = r.z / self.focal;
            let (foot_x, foot_z) = (1.0 / r.k_across, 1.0 / r.k_depth);
            for &i in segs {
                let s = &self.segments[i as usize];
                if (y as i32) < s.rows.0 || (y as i32) >= s.rows.1 {
                    continue;
                }
                let (a, b) = line_span(s.line, s.reach, y);
                let (a, b) = (a.max(x0 as i32), b.min(x1 as i32));
                // The pixel's footprint across the furrow, ground units.
                let fp = s.dir[1].abs() * foot_x + s.dir[0].abs() * foot_z;
                let hw = s.hw.max(0.75 * fp);
                let amp = s.hw / hw * s.strength;
                // Pixels farther than this squared (a little over 1.9
                // widths, above any rounding) are out of the furrow's
                // reach: no square root for them.
                let beyond = (1.92 * hw) * (1.92 * hw);
                for x in a.max(0)..b.max(0) {
                    // The ground point the pixel shows, and the furrow's
                    // width and depth there.
                    let (gx, gz, hw, amp, beyond) = if self.lifted {
                        let Some((gx, gz)) = self.ground_at(x as u32, y, lift_at(s, x as u32, y))
                        else {
                            continue;
                        };
                        let (foot_x, foot_z) = (gz / self.focal, gz * gz / (self.eye * self.focal));
                        let fp = s.dir[1].abs() * foot_x + s.dir[0].abs() * foot_z;
                        let hw = s.hw.max(0.75 * fp);
                        (
                            gx,
                            gz,
                            hw,
                            s.hw / hw * s.strength,
                            (1.92 * hw) * (1.92 * hw),
                        )
                    } else {
                        let gx = (x as f32 + 0.5 - self.half_width) * zx;
                        (gx, r.z, hw, amp, beyond)
                    };
                    let (px, pz) = (gx - s.a[0], gz - s.a[1]);
                    let t = (px * s.dir[0] + pz * s.dir[1]).clamp(0.0, s.len);
                    let (dx, dz) = (px - s.dir[0] * t, pz - s.dir[1] * t);
                    let d2 = dx * dx + dz * dz;
                    if d2 > beyond {
                        continue;
                    }
                    let q = d2.sqrt() / hw;
                    let j = (x as u32 - x0) as usize;
                    if q >= 1.9 || q >= nearest[j] || !on_ground(j, gz) {
                        continue;
                    }
                    nearest[j] = q;
                    // The furrow's cross-section: a groove, a low rim; its
                    // slope tilts the ground toward or away from the light.
                    let side = if s.dir[0] * dz - s.dir[1] * dx >= 0.0 {
                        1.0
                    } else {
                        -1.0
                    };
                    let (slope, deep) = if q < 1.0 {
                        (2.0 * q, 1.0 - q * q)
                    } else {
                        let e = (q - 1.45) / 0.45;
                        let slope = if e.abs() < 1.0 { -0.6 * e / 0.45 } else { 0.0 };
                        (slope, 0.0)
                    };
                    let tilt = 0.22 * slope * side * amp;
                    // Normal: up, tipped across the furrow.
                    let (nx, nz) = (s.dir[1] * tilt, -s.dir[0] * tilt);
                    let n = (1.0 + tilt * tilt).sqrt();
                    let dot = ((nx * self.light[0] + nz * self.light[1]) + self.light[2]) / n;
                    let lit = (self.sun * dot.max(0.0) + self.sky * (0.8 + 0.2 / n)) / flat;
                    furrow[j] = lit * (1.0 - 0.08 * deep * amp);
                    groove[j] = deep * amp;
                }
            }
            for &i in stones {
                let st = &self.stones[i as usize];
                if st.shadow <= 0.0
                    || (y as i32) < st.shadow_rows.0
                    || (y as i32) >= st.shadow_rows.1
                {
                    continue;
                }
                let (a, b) = line_span(st.shadow_line, st.shadow_reach, y);
                let (a, b) = (a.max(x0 as i32), b.min(x1 as i32));
                let len2 = st.to[0] * st.to[0] + st.to[1] * st.to[1];
                for x in a.max(0)..b.max(0) {
                    let (gx, gz) = if self.lifted {
                        match self.ground_at(x as u32, y, st.lift) {
                            Some(g) => g,
                            None => continue,
                        }
                    } else {
                        ((x as f32 + 0.5 - self.half_width) * zx, r.z)
                    };
                    let (px, pz) = (gx - st.foot[0], gz - st.foot[1]);
                    let t = ((px * st.to[0] + pz * st.to[1]) / len2.max(1e-12)).clamp(0.0, 1.0);
                    let (dx, dz) = (px - st.to[0] * t, pz - st.to[1] * t);
                    // Narrowing toward the tip, softening as it goes.
                    let radius = st.r * (1.0 - 0.45 * t);
                    let d = (dx * dx + dz * dz).sqrt() / radius;
                    let s = st.shadow * (1.0 - smoothstep(0.55 - 0.2 * t, 1.1 + 0.3 * t, d));
                    let j = (x as u32 - x0) as usize;
                    if on_ground(j, gz) {
                        dark[j] = dark[j].max(s);
                    }
                }
            }
            let op = r.cover * self.opacity;
            // In one ground the mud lies under the sand and the near rise
            // (where they mark the ground's depth): there only the trails
            // and the stones' shadows fall on them.
            covered.clear();
            if let Some(d) = band.depth.as_ref() {
                covered.extend(d.ground[at..at + w].iter().map(|&k| k > FAR));
            }
            let row = &mut band.px[at..at + w];
            let mut depth = band.depth.as_mut();
            // The patches and the cracks' bending are smooth: worked out
            // on every `STEP`th column of the picture and interpolated
            // (exact quarters: the same bits in any window).
            const STEP: u32 = 4;
            samples.clear();
            for i in x0 / STEP..=(x1 - 1) / STEP + 1 {
                let gx = ((i * STEP) as f32 + 0.5 - self.half_width) * zx;
                let patch = 0.06 * r.patches * smooth(gx * 0.3, r.z * 0.3, self.patch_seed);
                let [du, dv] = if r.detail > 0.0 {
                    self.crust.warp(gx, r.z)
                } else {
                    [0.0; 2]
                };
                samples.push([patch, du, dv]);
            }
            for (j, c) in row.iter_mut().enumerate() {
                let x = x0 + j as u32;
                let i = (x / STEP - x0 / STEP) as usize;
                let t = (x % STEP) as f32 * (1.0 / STEP as f32);
                let (a, b) = (samples[i], samples[i + 1]);
                let smooth = [
                    a[0] + (b[0] - a[0]) * t,
                    a[1] + (b[1] - a[1]) * t,
                    a[2] + (b[2] - a[2]) * t,
                ];
                if covered.get(j) == Some(&true) {
                    let gain = furrow[j] * (1.0 - dark[j]);
                    blend(c, scale(*c, gain), self.opacity);
                    continue;
                }
                let (k, crack) = self.mud(&mut memo, r, x, y, smooth);
                let crack = crack * self.cracks * 0.85 * (1.0 - 0.5 * groove[j]);
                let mut gain = k * (1.0 - crack) * furrow[j] * (1.0 - dark[j]);
                gain = 1.0 + (gain - 1.0) * r.contrast;
                if let Some(s) = &shade {
                    gain *= s.at(x, y);
                }
                let over = scale(r.color, gain);
                if op >= 1.0 {
                    *c = over;
                } else {
                    blend(c, over, op);
                }
            }
            // The stones, far to near.
            for &i in stones {
                let st = &self.stones[i as usize];
                if (y as i32) < st.rows.0 || (y as i32) >= st.rows.1 {
                    continue;
                }
                let nv = (y as f32 + 0.5 - st.cy) / st.ry;
                let a = ((st.cx - 1.3 * st.rx).floor() as i32).max(x0 as i32);
                let b = ((st.cx + 1.3 * st.rx).ceil() as i32 + 1).min(x1 as i32);
                for x in a.max(0)..b.max(0) {
                    let nu = (x as f32 + 0.5 - st.cx) / st.rx;
                    let r2 = nu * nu + nv * nv;
                    if r2 > 1.9 {
                        continue;
                    }
                    let rr = r2.sqrt().max(1e-6);
                    let (ca, sa) = (nu / rr, nv / rr);
                    let outline = 1.0
                        + st.wobble[0] * (ca * ca - sa * sa)
                        + st.wobble[1] * 2.0 * ca * sa
                        + st.wobble[2] * (4.0 * ca * ca * ca - 3.0 * ca);
                    let edge = (outline - rr) * st.rx.min(st.ry);
                    let alpha = (edge + 0.5).clamp(0.0, 1.0);
                    let j = (x as u32 - x0) as usize;
                    if alpha <= 0.0
                        || depth
                            .as_ref()
                            .is_some_and(|d| !d.shows(at + j, st.key, st.margin))
                    {
                        continue;
                    }
                    // A dome: its top turned up, its front to the viewer.
                    let (u, v) = (nu / outline, nv / outline);
                    let nz = (1.0 - u * u - v * v).max(0.0).sqrt();
                    let (mut n0, mut n1, mut n2) = (u, 0.35 - 0.8 * v, nz + 0.15);
                    let norm = (n0 * n0 + n1 * n1 + n2 * n2).sqrt();
                    (n0, n1, n2) = (n0 / norm, n1 / norm, n2 / norm);
                    let l = [self.light[0], self.light[2], -self.light[1]];
                    let lambert = (n0 * l[0] + n1 * l[1] + n2 * l[2]).max(0.0);
                    let up = 0.5 + 0.5 * n1;
                    let grain = 1.0
                        + 0.12 * smooth(u * 5.0, v * 5.0, st.grain)
                        + 0.06 * smooth(u * 13.0, v * 13.0, st.grain >> 3);
                    // Darker where it meets the mud.
                    let foot = 1.0 - 0.4 * smoothstep(0.35, 1.0, v);
                    // The sun catches the rim on its side.
                    let rim = 0.6 * smoothstep(0.75, 1.0, rr / outline) * lambert;
                    let mut color = [0.0; 3];
                    for (ch, color) in color.iter_mut().enumerate() {
                        *color = st.albedo[ch]
                            * grain
                            * foot
                            * (st.direct[ch] * (lambert + rim)
                                + st.ambient[ch] * up
                                + st.bounce[ch] * (1.0 - up));
                    }
                    let color = mix(color, st.haze, st.hazed);
                    blend(&mut row[j], color, alpha * self.opacity);
                    if let Some(d) = depth.as_mut()
                        && alpha * self.opacity >= 0.5
                    {
                        d.cover(at + j, st.key);
                    }
                }
            }
        }
    }
}

impl RacetrackDraw {
    /// The mud's brightness at pixel `x` of row `r`: its patches and
    /// cracks (and how much of a crack there is, 0..1).
    #[inline]
    pub(super) fn mud(
        &self,
        memo: &mut Memo,
        r: &Row,
        x: u32,
        y: u32,
        [patch, du, dv]: [f32; 3],
    ) -> (f32, f32) {
        let gx = (x as f32 + 0.5 - self.half_width) / self.focal * r.z;
        let grain = 0.025 * lattice(x as i32, y as i32, self.patch_seed);
        let mut crack = self.crust.mean;
        let mut k = 1.0 + patch + grain;
        if r.detail > 0.0 {
            let (edge, split, cell) = self.crust.at(memo, gx, r.z, [du, dv]);
            let (width, tone) = memo.look(cell);
            // Pixels per cell width across each kind of crack.
            let (pe, ps) = (r.per_edge, r.per_split);
            let cov = coverage(edge * pe, self.crust.half_edge * pe * width)
                .max(coverage(split * ps, self.crust.half_split * ps * width));
            // The crust's edges curl up and catch the light; each cell has
            // its own tone.
            let near = edge.min(split);
            // (Past the curl's end the step is exactly 1: no division.)
            let step = if near >= 0.12 {
                1.0
            } else {
                smoothstep(0.03, 0.12, near)
            };
            let curl = 0.05 * (1.0 - step);
            k *= 1.0 + r.detail * (curl + tone);
            crack += (cov - crack) * r.detail;
        }
        (k, crack)
    }
}
