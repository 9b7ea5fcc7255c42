//! Each plant grown from its parts where it stands: a creosote bush's
//! crown on its stems, a Joshua tree from a trunk that forks in pairs,
//! each lit and hazed where it stands, its shadow cast away from the sun.

use super::parts::{Bush, Limb, Look, Part, Plant, Rosette, Spike, Umbra, disc_box, union};
use super::place::{Placer, Spot, TALLEST};
use crate::base::color::{Linear, mix, mul, scale};
use crate::base::math;
use crate::base::noise::{Dice, smoothstep};

impl Placer<'_> {
    /// The light and haze of a plant standing at `p`.
    fn look(&self, p: [f32; 2]) -> (Look, f32) {
        let f = self.f;
        let pal = &f.palette;
        let sun = f.shade.as_ref().map_or(1.0, |s| s.light(p[0], p[1]));
        // Aerial perspective: the farther (the nearer the horizon), the
        // more of the horizon's haze in front.
        let dist = f.h / (p[1] - f.horizon).max(0.5);
        let look = Look {
            direct: scale(pal.direct, sun),
            ambient: pal.ambient,
            bounce: scale(mul(f.ground, pal.ground), 0.3),
            light: pal.light,
            fog: pal.horizon,
            haze: 1.0 - math::exp(-0.006 * dist),
        };
        (look, sun)
    }

    /// How dark a plant's shadow is, in light `sun` (less under a cloud).
    fn darkness(&self, sun: f32) -> f32 {
        (self.f.palette.shadow * self.plants.shadow * sun * 0.95).min(0.92)
    }

    /// A creosote bush standing at `p`, `u` pixels high.
    pub(super) fn bush(&self, p: [f32; 2], u: f32, mut dice: Dice) -> Plant {
        let (ht, hw) = (u, u * (0.7 + 0.2 * dice.unit()));
        let (look, sun) = self.look(p);
        let tone = 0.8 + 0.35 * dice.unit();
        let albedo = scale(self.plants.creosote_color.linear(), tone);
        let lean = self.lean[0] * ht;
        let stems = std::array::from_fn(|k| {
            let across = (k as f32 - 2.0) * 0.32 + 0.12 * dice.signed();
            [across, 0.5 + 0.1 * dice.unit()]
        });
        let across = stems.map(|s: [f32; 2]| {
            // As the stem's tip is drawn.
            let tip = [s[0] * hw / ht, s[1]];
            let len = (tip[0] * tip[0] + tip[1] * tip[1]).sqrt();
            [-tip[1] / len, tip[0] / len]
        });
        let bush = Bush {
            foot: p,
            hw,
            ht,
            lean,
            leaf: 1.0 / (0.06 * ht).max(0.7),
            grain: smoothstep(4.0, 18.0, ht),
            albedo,
            stem: scale([0.045, 0.037, 0.03], 1.0),
            stems,
            across,
            seed: dice.bits(),
        };
        let body = [
            (p[0] - 1.3 * hw - lean.abs() - 1.0).floor() as i32,
            (p[1] - 1.1 * ht - 1.0).floor() as i32,
            (p[0] + 1.3 * hw + lean.abs() + 1.0).ceil() as i32,
            (p[1] + 1.0).ceil() as i32,
        ];
        // Its shadow: from its foot to under its crown's middle.
        let c = 0.55 * ht;
        let umbra = Umbra {
            a: [p[0], 0.0],
            b: [p[0] + lean * 0.5 + c * self.cast[0], c * self.cast[1]],
            r: 0.85 * hw,
            soft: 0.35 * hw + 0.6,
        };
        let flat = self.ground.flat(p[1]);
        let shadow = self.darkness(sun);
        self.plant(
            p,
            flat,
            vec![(body, Part::Bush(bush))],
            vec![umbra],
            look,
            shadow,
        )
    }

    /// A plant from its parts, its umbrae boxed on the ground.
    fn plant(
        &self,
        p: [f32; 2],
        flat: f32,
        parts: Vec<([i32; 4], Part)>,
        umbrae: Vec<Umbra>,
        look: Look,
        shadow: f32,
    ) -> Plant {
        let umbrae: Vec<([i32; 4], Umbra)> = umbrae
            .into_iter()
            .map(|u| {
                let e = u.r + u.soft;
                let b = [
                    (u.a[0].min(u.b[0]) - e - 1.0).floor() as i32,
                    (p[1] + flat * (u.a[1].min(u.b[1]) - e) - 1.0).floor() as i32,
                    (u.a[0].max(u.b[0]) + e + 1.0).ceil() as i32,
                    (p[1] + flat * (u.a[1].max(u.b[1]) + e) + 1.0).ceil() as i32,
                ];
                (b, u)
            })
            .collect();
        let boxes =
            |list: &mut dyn Iterator<Item = [i32; 4]>| list.reduce(union).unwrap_or([0, 0, 0, 0]);
        let body = boxes(&mut parts.iter().map(|(b, _)| *b));
        let shade = boxes(&mut umbrae.iter().map(|(b, _)| *b));
        let f = self.f;
        let plant = Plant {
            foot: p[1],
            row: p[1],
            key: p[1] - f.horizon,
            flat,
            parts,
            umbrae,
            shadow,
            look,
            body,
            shade,
        };
        // In one ground, on the sand at its depth.
        let lift = if f.world.on {
            f.world.lift(p[0], plant.key)
        } else {
            0.0
        };
        if lift != 0.0 {
            plant.lifted(lift)
        } else {
            plant
        }
    }

    /// A Joshua tree standing at spot `s`: a trunk unbranched to its first
    /// fork (0.9 to 3 m of 5 to 10), then branches forking in pairs every
    /// 0.6 to 0.9 m, bending up, each tip a spiky cluster of leaves.
    pub(super) fn joshua(&self, s: Spot, mut dice: Dice) -> Plant {
        let foot = self.at(s);
        let g = &self.ground;
        let meters = 5.0 + 5.0 * dice.unit();
        let tall = g.unit(s.q) * self.plants.height * (0.8 + (TALLEST - 0.8) * dice.unit());
        let m = tall / meters;
        let (look, sun) = self.look(foot);
        let lean = self.lean;
        // A point of the tree (meters: across, up, toward the viewer),
        // bent downwind, on the picture and its shadow on the ground.
        let bend = |p: [f32; 3]| {
            let k = p[1] * p[1] / meters;
            [p[0] + lean[0] * k, p[1], p[2] + lean[1] * k]
        };
        let screen = |p: [f32; 3]| {
            let p = bend(p);
            [foot[0] + p[0] * m, foot[1] - p[1] * m]
        };
        let ground = |p: [f32; 3]| {
            let p = bend(p);
            [
                foot[0] + (p[0] + p[1] * self.cast[0]) * m,
                (p[2] + p[1] * self.cast[1]) * m,
            ]
        };
        let leaves = self.plants.joshua_color.linear();
        let mut limbs: Vec<([i32; 4], Part)> = Vec::new();
        let mut rosettes: Vec<([i32; 4], Part)> = Vec::new();
        let mut umbrae = Vec::new();
        let limb = |a: [f32; 3], b: [f32; 3], ra: f32, rb: f32, thatch: f32, seed: u32| {
            let (pa, pb) = (screen(a), screen(b));
            let r = ra.max(rb) * m * 1.25 + 1.0;
            let bbox = [
                (pa[0].min(pb[0]) - r).floor() as i32,
                (pa[1].min(pb[1]) - r).floor() as i32,
                (pa[0].max(pb[0]) + r).ceil() as i32,
                ((pa[1].max(pb[1]) + r).ceil() as i32).min(foot[1].ceil() as i32 + 1),
            ];
            let part = Limb {
                a: pa,
                b: pb,
                ra: ra * m,
                rb: rb * m,
                thatch,
                ground: foot[1] + 0.5,
                seed,
            };
            let umbra = Umbra {
                a: ground(a),
                b: ground(b),
                r: 0.5 * (ra + rb) * m,
                soft: 0.5 + 0.02 * b[1] * m,
            };
            (bbox, part, umbra)
        };
        // The trunk.
        let trunk_r = 0.24 + 0.12 * dice.unit();
        let first = 0.9 + 2.1 * dice.unit();
        let top = [0.08 * dice.signed(), first, 0.08 * dice.signed()];
        let (b, p, u) = limb(
            [0.0, -0.05, 0.0],
            top,
            trunk_r * 1.15,
            trunk_r,
            0.35,
            dice.bits(),
        );
        limbs.push((b, Part::Limb(p)));
        umbrae.push(u);
        // Branches: (start, tilt from upright, azimuth, radius, forks so far).
        let mut open = vec![(
            top,
            0.12 * dice.signed(),
            std::f32::consts::TAU * dice.unit(),
            trunk_r * 0.85,
            0u32,
        )];
        let mut tips = Vec::new();
        let reach = meters * (0.8 + 0.15 * dice.unit());
        let mut segments = 0;
        while let Some((p, tilt, azimuth, r, forks)) = open.pop() {
            let grown = p[1] >= reach || forks >= 6 || segments >= 90;
            if grown || (forks >= 2 && dice.unit() < 0.1) {
                tips.push((p, tilt, azimuth));
                continue;
            }
            // The first flowering always forks; later ones, often.
            let fork = forks == 0 || (dice.unit() < 0.6 && tips.len() + open.len() < 28);
            let ways: &[f32] = if fork { &[-1.0, 1.0] } else { &[0.0] };
            let spread = if forks == 0 {
                0.45 + 0.3 * dice.unit()
            } else {
                0.3 + 0.3 * dice.unit()
            };
            for &way in ways {
                let tilt = ((tilt + way * spread) * 0.72 + 0.12 * dice.signed()).clamp(-1.2, 1.2);
                let azimuth = azimuth + 0.35 * dice.signed();
                let len = (0.6 + 0.3 * dice.unit()) * if forks == 0 { 1.2 } else { 1.0 };
                let (st, ct) = (math::sin(tilt), math::cos(tilt));
                let dir = [st * math::cos(azimuth), ct, st * math::sin(azimuth)];
                let end = [
                    p[0] + dir[0] * len,
                    p[1] + dir[1] * len,
                    p[2] + dir[2] * len,
                ];
                let rb = (r * 0.9).max(0.12);
                let thatch = 0.45 + 0.12 * forks as f32;
                let (b, part, u) = limb(p, end, r, rb, thatch, dice.bits());
                limbs.push((b, Part::Limb(part)));
                umbrae.push(u);
                segments += 1;
                let forks = forks + u32::from(fork);
                open.push((end, tilt, azimuth, if fork { rb * 0.9 } else { rb }, forks));
            }
        }
        // A cluster of leaves at each tip.
        for (p, tilt, azimuth) in tips {
            let r = 0.45 + 0.15 * dice.unit();
            let dir = [math::sin(tilt) * math::cos(azimuth), math::cos(tilt)];
            let c3 = [p[0] + dir[0] * 0.5 * r, p[1] + dir[1] * 0.5 * r, p[2]];
            let c = screen(c3);
            let rosette = self.rosette(c, r * m, [dir[0], dir[1]], leaves, &look, &mut dice);
            rosettes.push((disc_box(c, r * m * 1.05), Part::Rosette(rosette)));
            umbrae.push(Umbra {
                a: ground(c3),
                b: ground(c3),
                r: 0.75 * r * m,
                soft: 0.5 + 0.02 * c3[1] * m + 0.2 * r * m,
            });
        }
        // Limbs first, leaves over them; nearer leaves (lower) last.
        rosettes.sort_by(|a, b| a.0[3].cmp(&b.0[3]));
        limbs.extend(rosettes);
        let flat = g.flat(foot[1]);
        let shadow = self.darkness(sun);
        self.plant(foot, flat, limbs, umbrae, look, shadow)
    }

    /// A cluster of stiff, spiky leaves around `c` (px), `r` pixels long,
    /// pointing mostly along the branch's direction `dir` (y up), the
    /// lowest ones dead and drooping.
    fn rosette(
        &self,
        c: [f32; 2],
        r: f32,
        dir: [f32; 2],
        leaves: Linear,
        look: &Look,
        dice: &mut Dice,
    ) -> Rosette {
        let dead = [0.3, 0.24, 0.14];
        // (At most 32: the shaders keep a set of spikes in a `u32`.)
        let count = 26;
        let turn = std::f32::consts::TAU / count as f32;
        let spikes: Vec<Spike> = (0..count)
            .map(|k| {
                let a = (k as f32 + 0.8 * dice.signed()) * turn;
                let (mut ex, mut ey) = (math::cos(a), math::sin(a));
                // Leaves lean toward where the branch points.
                ex += 0.45 * dir[0];
                ey += 0.45 * dir[1];
                let n = (ex * ex + ey * ey).sqrt().max(1e-3);
                let (ex, ey) = (ex / n, ey / n);
                let down = smoothstep(0.0, -0.7, ey);
                let len = r * (0.7 + 0.3 * dice.unit()) * (1.0 - 0.35 * down);
                let tone = 0.75 + 0.5 * dice.unit();
                let albedo = scale(mix(leaves, dead, down * 0.85), tone);
                // A leaf faces out along its length, a little toward us.
                let normal = [ex * 0.75, ey * 0.75, 0.66];
                Spike {
                    e: [ex, -ey],
                    len,
                    inv_len: 1.0 / len.max(1e-6),
                    w: (0.09 * r).max(0.3),
                    color: look.shade(albedo, normal, 1.0),
                }
            })
            .collect();
        let inner = 0.35 * r + 1.0;
        let sectors = Rosette::sectors(&spikes, inner);
        let near = Rosette::sectors(&spikes, 0.5 * inner);
        Rosette {
            c,
            r,
            core: look.shade(scale(leaves, 0.55), [0.0, 0.3, 0.95], 0.8),
            sector_bits: Rosette::bits(&sectors),
            near_bits: Rosette::bits(&near),
            sectors,
            near,
            inner,
            spikes,
        }
    }
}
