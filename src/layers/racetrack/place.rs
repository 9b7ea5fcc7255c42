//! Placing the sailing stones and their trails on the ground, and the
//! Racetrack prepared for one picture: each screen row's mud, the trails
//! cut into segments and the stones as drawn, filed under the bands they
//! reach into.
//!
//! Rows map to depths through the world's eye: a lower eye draws the
//! stones, their trails and the mud's cells larger at a row, a higher one
//! smaller. In one ground the stones and their trails lie on the sand:
//! each point lifted as the sand lifts it ([`crate::layers::world`]).

use super::draw::{Drawn, RacetrackDraw, Segment, line_rows};
use super::mud::{Crust, Row, smooth};
use super::{METRE, Racetrack, STONES_FAR, TRAILS_FAR, lum};
use crate::base::color::{Linear, mix, mul, scale};
use crate::base::math;
use crate::base::noise::{Dice, fbm1, hash32, smoothstep, sub_seed};
use crate::layers::Frame;

/// One stone and its trail, on the ground.
pub(super) struct Stone {
    /// Centre of its foot on the ground.
    pub(super) x: f32,
    pub(super) z: f32,
    /// Half its width across, half its depth, its height (scene units).
    pub(super) rx: f32,
    pub(super) rz: f32,
    pub(super) c: f32,
    /// The wobble of its outline: second and third harmonics.
    pub(super) wobble: [f32; 3],
    pub(super) albedo: Linear,
    /// Where its grain lies in the noise.
    pub(super) grain: u32,
    /// How rough its underside is, 0 smooth .. 1 rough.
    pub(super) rough: f32,
}

impl Racetrack {
    /// The stones of the picture, far to near, and their trails' points
    /// (from the stone upwind to the trail's start).
    fn place(&self, f: &Frame) -> Vec<(Stone, Vec<[f32; 2]>)> {
        let seed = sub_seed(f.seed, 700);
        let floor = ((f.h - f.horizon) / f.h).max(0.02);
        let near = f.world.eye / floor;
        let aspect = f.w / f.h;
        let wind = f.wind;
        let albedo = self.stone_color.linear();
        let mut out: Vec<(Stone, Vec<[f32; 2]>)> = (0..self.stones)
            .map(|i| {
                let mut dice = Dice::new(hash32(seed ^ i.wrapping_mul(0x2c1b_3c6d)));
                let z = near * 1.05 * math::powf(STONES_FAR / (near * 1.05), dice.unit());
                let x = dice.signed() * 0.55 * aspect * z;
                // Sizes spread as a log-normal would, most near the typical.
                let g = dice.signed() + dice.signed() + dice.signed();
                let r = 0.5 * self.size * METRE * math::exp(0.22 * g);
                let rough = if dice.unit() < 0.4 {
                    1.0
                } else {
                    0.6 * dice.unit()
                };
                let tint = 0.75 + 0.5 * dice.unit();
                let warm = 0.06 * dice.signed();
                let stone = Stone {
                    x,
                    z,
                    rx: r * (0.85 + 0.3 * dice.unit()),
                    rz: r * (0.8 + 0.4 * dice.unit()),
                    c: r * (0.55 + 0.35 * dice.unit()),
                    wobble: [
                        0.12 * dice.signed(),
                        0.12 * dice.signed(),
                        0.08 * dice.signed(),
                    ],
                    albedo: [
                        albedo[0] * tint * (1.0 + warm),
                        albedo[1] * tint,
                        albedo[2] * tint * (1.0 - warm),
                    ],
                    grain: dice.bits(),
                    rough,
                };
                // The trail, forward from its start: the ice sheet's
                // heading, shared by neighbours, turned a little as the
                // trail goes on, more toward its end, and wandering for a
                // smooth stone.
                let length = self.trail * METRE * (0.35 + 0.9 * dice.unit());
                let sheet = 0.35 * smooth(x * 0.08, z * 0.08, seed ^ 0x5ee7);
                let fan = self.divergence * 0.9 * dice.signed();
                let wander = self.wander * (1.0 - rough) * 0.6;
                let curl = self.wander * 0.5 * dice.signed() * (1.0 - 0.7 * rough);
                let phase = f64::from(dice.unit()) * 100.0;
                let steps = ((length / 0.12).ceil() as usize).clamp(4, 160);
                let ds = length / steps as f32;
                let mut path = Vec::with_capacity(steps + 1);
                let mut p = [0.0f32, 0.0];
                path.push(p);
                let wave_len = 2.0 + 10.0 * METRE * self.trail.max(1.0) / 60.0;
                for n in 0..steps {
                    let t = (n as f32 + 0.5) / steps as f32;
                    let s = t * length;
                    let turn = sheet
                        + fan * t * t
                        + curl * t
                        + wander * fbm1(f64::from(s / wave_len) + phase, seed ^ i, 3, 0.5);
                    let (c, sn) = (math::cos(turn), math::sin(turn));
                    let d = [wind[0] * c - wind[1] * sn, wind[0] * sn + wind[1] * c];
                    p = [p[0] + d[0] * ds, p[1] + d[1] * ds];
                    path.push(p);
                }
                // Shifted so that it ends at the stone, and listed from it.
                let end = p;
                let trail = path
                    .iter()
                    .rev()
                    .map(|q| [q[0] - end[0] + x, q[1] - end[1] + z])
                    .collect();
                (stone, trail)
            })
            .collect();
        out.sort_by(|a, b| b.0.z.total_cmp(&a.0.z));
        out
    }

    pub(super) fn prepare_draw(&self, f: &Frame) -> RacetrackDraw {
        let p = &f.palette;
        let lit = mul(self.color.linear(), p.ground);
        let haze = mix(p.horizon, lit, 0.3);
        let warm = mix([1.0; 3], [0.86, 0.76, 0.66], 0.35);
        let first = f.horizon.floor().max(0.0) as u32;
        let depth = (f.h - f.horizon).max(1.0);
        let crust = Crust::new(self, sub_seed(f.seed, 701));
        let hazed = |dy: f32| 0.45 * (1.0 - smoothstep(0.0, 0.1, dy));
        let eye = f.world.eye;
        let rows: Vec<Row> = (first..f.height)
            .map(|y| {
                let py = y as f32 + 0.5;
                let dy = ((py - f.horizon) / f.h).max(1e-4);
                let t = ((py - f.horizon) / depth).clamp(0.0, 1.0);
                let hz = hazed(dy);
                let mut color = mix(lit, haze, hz);
                color = mul(color, mix([1.0; 3], warm, math::powf(t, 1.6)));
                let z = eye / dy;
                let (k_across, k_depth) = (f.h / z, eye * f.h / (z * z));
                // The smallest side of a cell on the screen, pixels.
                let cell_px = k_depth.min(k_across) / crust.inv_cell;
                let (c, s) = crust.rot;
                let px = |nx: f32, nz: f32| {
                    ((nx * k_across) * (nx * k_across) + (nz * k_depth) * (nz * k_depth)).sqrt()
                        / crust.inv_cell
                };
                Row {
                    per_edge: px(-s, c),
                    per_split: px(c, s),
                    patches: smoothstep(0.01, 0.07, dy),
                    color,
                    cover: (y as f32 + 1.0 - f.horizon).clamp(0.0, 1.0),
                    z,
                    contrast: 1.0 - hz,
                    k_across,
                    k_depth,
                    detail: smoothstep(3.0, 5.0, cell_px),
                }
            })
            .collect();
        let light = [p.light[0], -p.light[2], p.light[1]];
        let (sun, sky) = (lum(p.direct), lum(p.ambient));
        let project = |q: [f32; 2]| [0.5 * f.w + q[0] * f.h / q[1], f.horizon + eye * f.h / q[1]];
        let clip_near = eye * f.h / (f.h - f.horizon + 2.0).max(1.0);
        // How far the ground lifts a point on the screen (0 but on sand in
        // one ground).
        let world = &f.world;
        let lift = |q: [f32; 2]| {
            if world.on {
                world.lift(q[0], q[1] - f.horizon)
            } else {
                0.0
            }
        };
        let bands = f.height.div_ceil(crate::layers::BAND_ROWS) as usize;
        let (band_of, last_band) = (
            |y: i32| (y.max(0) as u32 / crate::layers::BAND_ROWS) as usize,
            (f.rows.end.max(1) - 1) / crate::layers::BAND_ROWS,
        );
        let first_band = f.rows.start / crate::layers::BAND_ROWS;
        // The bands of the rows to draw that rows `lo..hi` (not empty) lie in.
        let bands_of = |lo: i32, hi: i32| {
            let (a, b) = (
                band_of(lo).max(first_band as usize),
                (band_of(hi - 1) + 1).min(last_band as usize + 1),
            );
            a.min(b)..b
        };
        let mut band_segments = vec![Vec::new(); bands];
        let mut band_stones = vec![Vec::new(); bands];
        let mut segments = Vec::new();
        let mut stones = Vec::new();
        // The sun's shadow on the ground: away from it, as long as the
        // light is low.
        let ground_len = (light[0] * light[0] + light[1] * light[1]).sqrt().max(1e-4);
        let away = [-light[0] / ground_len, -light[1] / ground_len];
        let cast = (ground_len / light[2].max(0.05)).min(12.0);
        let shadow = if light[2] > 0.02 {
            p.shadow * smoothstep(0.02, 0.15, light[2])
        } else {
            0.0
        };
        let bounce = scale(lit, 0.35);
        for (stone, trail) in self.place(f) {
            let hw = 0.6 * stone.rx;
            // The trail's segments, cut to the ground in view.
            let n = trail.len() - 1;
            for (k, pair) in trail.windows(2).enumerate() {
                let (mut a, mut b) = (pair[0], pair[1]);
                if a[1].max(b[1]) < clip_near || a[1].min(b[1]) > TRAILS_FAR {
                    continue;
                }
                for (lo, hi) in [(clip_near, true), (TRAILS_FAR, false)] {
                    let out = |q: [f32; 2]| if hi { q[1] < lo } else { q[1] > lo };
                    if out(a) || out(b) {
                        let t = (lo - a[1]) / (b[1] - a[1]);
                        let m = [a[0] + (b[0] - a[0]) * t, lo];
                        if out(a) {
                            a = m;
                        } else {
                            b = m;
                        }
                    }
                }
                let d = [b[0] - a[0], b[1] - a[1]];
                let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
                if len < 1e-6 {
                    continue;
                }
                let (pa, pb) = (project(a), project(b));
                let ends = [lift(pa), lift(pb)];
                let line = [pa[0], pa[1] - ends[0], pb[0], pb[1] - ends[1]];
                let reach = 2.0 * hw * f.h / a[1].min(b[1]) + 1.5;
                let along = (k as f32 + 0.5) / n as f32;
                let seg = Segment {
                    a,
                    dir: [d[0] / len, d[1] / len],
                    len,
                    hw,
                    strength: (0.55 + 0.45 * stone.rough) * (1.0 - 0.35 * along),
                    rows: line_rows(line, reach, f.height),
                    line,
                    reach,
                    lift: ends,
                };
                let id = segments.len() as u32;
                if seg.rows.1 > seg.rows.0 {
                    for list in &mut band_segments[bands_of(seg.rows.0, seg.rows.1)] {
                        list.push(id);
                    }
                }
                segments.push(seg);
            }
            // The stone on the screen.
            let (z, x) = (stone.z, stone.x);
            let ground = project([x, z]);
            let (c_px, foot_px) = (stone.c * f.h / z, stone.rz * eye * f.h / (z * z));
            let rx = stone.rx * f.h / z;
            let ry = 0.5 * (c_px + foot_px);
            let lifted = lift(ground);
            let cy = ground[1] - 0.5 * (c_px - foot_px) - lifted;
            let grow = 1.3;
            let rows = (
                ((cy - ry * grow).floor().max(0.0)) as i32,
                ((cy + ry * grow).ceil() + 1.0).min(f.height as f32) as i32,
            );
            let light_here = f
                .shade
                .as_ref()
                .map_or(1.0, |s| s.light(ground[0], ground[1]));
            let dy = ((ground[1] - f.horizon) / f.h).max(1e-4);
            let r = stone.rx.max(stone.rz);
            let to = [away[0] * cast * stone.c, away[1] * cast * stone.c];
            let tip = [x + to[0], (z + to[1]).max(clip_near)];
            let (s0, s1) = (project([x, z]), project(tip));
            let shadow_line = [s0[0], s0[1] - lifted, s1[0], s1[1] - lifted];
            let shadow_reach = 1.6 * r * f.h / z.min(tip[1]) + 1.5;
            let mut drawn = Drawn {
                cx: ground[0],
                cy,
                rx: rx.max(0.3),
                ry: ry.max(0.3),
                rows,
                wobble: stone.wobble,
                albedo: stone.albedo,
                direct: scale(p.direct, light_here),
                ambient: p.ambient,
                bounce,
                haze,
                hazed: hazed(dy),
                grain: stone.grain,
                foot: [x, z],
                to,
                r,
                shadow: shadow * light_here,
                shadow_rows: line_rows(shadow_line, shadow_reach, f.height),
                shadow_line,
                shadow_reach,
                lift: lifted,
                key: ground[1] - f.horizon,
                margin: 0.0,
            };
            // Below its foot, the stone reaches to its rows' end (its
            // shadow lies on the ground, tested point by point).
            drawn.margin = (drawn.rows.1 as f32 - (ground[1] - lifted)).max(0.0);
            let lo = drawn.rows.0.min(drawn.shadow_rows.0);
            let hi = drawn.rows.1.max(drawn.shadow_rows.1);
            let id = stones.len() as u32;
            if hi > lo {
                for list in &mut band_stones[bands_of(lo, hi)] {
                    list.push(id);
                }
            }
            stones.push(drawn);
        }
        RacetrackDraw {
            opacity: self.opacity,
            rows,
            first,
            half_width: 0.5 * f.w,
            focal: f.h,
            crust,
            cracks: self.cracks,
            patch_seed: sub_seed(f.seed, 702),
            segments,
            stones,
            band_segments,
            band_stones,
            light,
            sun,
            sky,
            shade: f.shade.clone(),
            eye,
            horizon: f.horizon,
            lifted: world.on && world.terrain.is_some(),
            under: world.on && world.terrain.is_some(),
        }
    }
}
