//! Each plant as the parts it is drawn from, in the picture's pixels:
//! a creosote bush's crown, a Joshua tree's shaggy limbs and spiky leaf
//! clusters, the capsules of their shadows on the ground, and the light
//! they are lit by.

use crate::base::color::{Linear, add, mix, mul, scale};
use crate::base::math;
use crate::base::noise::smoothstep;

/// The light a plant is lit by, and the haze in front of it.
#[derive(Clone, Copy)]
pub(super) struct Look {
    /// The sun's light, less under a cloud.
    pub direct: Linear,
    pub ambient: Linear,
    /// Light from the sand, on faces turned down.
    pub bounce: Linear,
    /// Toward the light: x right, y up, z toward the viewer.
    pub light: [f32; 3],
    pub fog: Linear,
    /// How much of the fog lies in front of the plant, 0..1.
    pub haze: f32,
}

impl Look {
    /// The colour of `albedo` with normal `n` (y up), its ambient light
    /// scaled by `open`, seen through the haze.
    #[inline]
    pub fn shade(&self, albedo: Linear, n: [f32; 3], open: f32) -> Linear {
        let [lx, ly, lz] = self.light;
        let lambert = (n[0] * lx + n[1] * ly + n[2] * lz).max(0.0);
        // Sun behind the plant: its edges on the sun's side glow.
        let rim = (n[0] * lx).max(0.0) * (1.0 - n[2]) * (-lz).max(0.0) * 0.6;
        let light = add(
            add(
                scale(self.direct, lambert + rim),
                scale(self.ambient, open * (0.6 + 0.4 * n[1])),
            ),
            scale(self.bounce, (-n[1]).max(0.0)),
        );
        mix(mul(albedo, light), self.fog, self.haze)
    }
}

/// A shaggy limb of a Joshua tree: a tapered capsule from `a` to `b`
/// (px), its edge frayed and its bark streaked with dead leaves.
pub(super) struct Limb {
    pub a: [f32; 2],
    pub b: [f32; 2],
    pub ra: f32,
    pub rb: f32,
    /// How much of it is thatched with dead leaves, 0 (bare bark) to 1.
    pub thatch: f32,
    /// No limb below this row (px): the trunk stands on the ground.
    pub ground: f32,
    pub seed: u32,
}

/// One leaf of a cluster: a spike from the cluster's centre.
pub(super) struct Spike {
    /// Unit direction on the picture (y down).
    pub e: [f32; 2],
    pub len: f32,
    pub inv_len: f32,
    /// Half-width at its base (px).
    pub w: f32,
    /// Its colour, lit and hazed.
    pub color: Linear,
}

/// A Joshua tree's spiky cluster of leaves at a branch's tip.
pub(super) struct Rosette {
    pub c: [f32; 2],
    pub r: f32,
    pub core: Linear,
    pub spikes: Vec<Spike>,
    /// Per [`SECTORS`]th of the turn around the centre, the spikes that
    /// may cover a pixel there beyond [`Rosette::inner`] (by index, in
    /// order).
    pub sectors: Vec<Vec<u8>>,
    /// Within this radius (px) every spike is looked at.
    pub inner: f32,
    /// As [`Rosette::sectors`], from half of [`Rosette::inner`] out to
    /// it: the spikes a pixel there may lie on, fewer than all.
    pub near: Vec<Vec<u8>>,
    /// [`Rosette::sectors`] and [`Rosette::near`] as sets, bit `i` for
    /// spike `i`: what the shaders of several pixels at once look up.
    pub sector_bits: [u32; SECTORS],
    pub near_bits: [u32; SECTORS],
}

/// Sectors of a leaf cluster's turn ([`Rosette::sectors`]).
pub(super) const SECTORS: usize = 24;

/// Where the direction (`x`, `y`) lies around the turn, 0 to 4: a
/// "diamond angle", growing with the angle as it does, but worked out
/// with a division alone.
#[inline]
pub(super) fn diamond(x: f32, y: f32) -> f32 {
    let s = x.abs() + y.abs();
    if s <= 0.0 {
        return 0.0;
    }
    let (x, y) = (x / s, y / s);
    if y >= 0.0 {
        if x >= 0.0 { y } else { 1.0 - x }
    } else if x < 0.0 {
        2.0 - y
    } else {
        3.0 + x
    }
}

impl Rosette {
    /// Files each spike under the sectors a pixel it covers may lie in,
    /// beyond `inner`: within its half-angle there, `asin((w + 0.5) /
    /// inner)` of its direction, and a margin.
    /// The lists of [`Rosette::sectors`] as sets of bits.
    pub(super) fn bits(lists: &[Vec<u8>]) -> [u32; SECTORS] {
        std::array::from_fn(|k| lists[k].iter().fold(0, |set, &i| set | 1 << i))
    }

    pub(super) fn sectors(spikes: &[Spike], inner: f32) -> Vec<Vec<u8>> {
        let per = SECTORS as f32 / 4.0;
        let mut sectors = vec![Vec::new(); SECTORS];
        for (i, s) in spikes.iter().enumerate() {
            let a = math::atan2(s.e[1], s.e[0]);
            let half = math::asin(((s.w + 0.5) / inner).min(1.0)) + 0.05;
            let at = |a: f32| diamond(math::cos(a), math::sin(a));
            let (lo, hi) = ((at(a - half) * per) as i32, (at(a + half) * per) as i32);
            // The sectors from `lo` on to `hi`, round the turn if need be.
            let hi = if hi < lo { hi + SECTORS as i32 } else { hi };
            for k in lo..=hi {
                sectors[k as usize % SECTORS].push(i as u8);
            }
        }
        for list in &mut sectors {
            list.sort_unstable();
            list.dedup();
        }
        sectors
    }
}

/// A creosote bush: a rounded, open crown of small leaves on stems that
/// fan out from the ground.
pub(super) struct Bush {
    /// Centre of its foot on the ground (px).
    pub foot: [f32; 2],
    /// Half-width and height (px).
    pub hw: f32,
    pub ht: f32,
    /// How far the crown's top leans aside (px).
    pub lean: f32,
    /// Per pixel: how fine its leaves are, and how much they show.
    pub leaf: f32,
    pub grain: f32,
    pub albedo: Linear,
    pub stem: Linear,
    /// Stems' tips, in half-widths across and heights up from the foot.
    pub stems: [[f32; 2]; 5],
    /// Unit vectors across the stems, in heights: how far a point is from
    /// a stem's line, to skip the stems far from a pixel.
    pub across: [[f32; 2]; 5],
    pub seed: u32,
}

/// A part of a plant's body.
pub(super) enum Part {
    Limb(Limb),
    Rosette(Rosette),
    Bush(Bush),
}

/// A part of a plant's shadow: a capsule on the ground, in pixel columns
/// across and pixels of depth from the plant's foot (toward the viewer),
/// with a soft edge.
pub(super) struct Umbra {
    pub a: [f32; 2],
    pub b: [f32; 2],
    pub r: f32,
    pub soft: f32,
}

/// A plant as it is drawn.
pub(super) struct Plant {
    /// Its foot's row (px), where it stands: on the sand, in one ground
    /// with dunes.
    pub foot: f32,
    /// Its foot's row on flat ground (px): where it was placed, and how
    /// deep it stands.
    pub row: f32,
    /// Its depth's key ([`crate::layers::world`]): `row` under the
    /// horizon.
    pub key: f32,
    /// Screen rows per pixel of depth at its foot ([`Ground::flat`]).
    pub flat: f32,
    /// Its parts in drawing order, each with its box `[x0, y0, x1, y1]`.
    pub parts: Vec<([i32; 4], Part)>,
    /// Its shadow's parts and their boxes.
    pub umbrae: Vec<([i32; 4], Umbra)>,
    /// How dark its shadow is where it is whole, 0..1.
    pub shadow: f32,
    pub look: Look,
    /// The boxes of its body and of its shadow.
    pub body: [i32; 4],
    pub shade: [i32; 4],
}

impl Plant {
    /// The plant moved up `l` pixels, its shadow with it: standing on the
    /// sand the ground lifts it by, upright.
    pub fn lifted(mut self, l: f32) -> Plant {
        // Boxes grow to whole pixels around the moved parts.
        let up = |b: [i32; 4]| {
            [
                b[0],
                (b[1] as f32 - l).floor() as i32,
                b[2],
                (b[3] as f32 - l).ceil() as i32,
            ]
        };
        self.foot -= l;
        for (b, part) in &mut self.parts {
            *b = up(*b);
            match part {
                Part::Bush(bush) => bush.foot[1] -= l,
                Part::Limb(limb) => {
                    limb.a[1] -= l;
                    limb.b[1] -= l;
                    limb.ground -= l;
                }
                Part::Rosette(r) => r.c[1] -= l,
            }
        }
        // (The shadow's parts lie on the ground from the foot: they move
        // with it.)
        for (b, _) in &mut self.umbrae {
            *b = up(*b);
        }
        self.body = up(self.body);
        self.shade = up(self.shade);
        self
    }
}

/// The box of a circle of radius `r` around `c`, a pixel wider.
pub(super) fn disc_box(c: [f32; 2], r: f32) -> [i32; 4] {
    [
        (c[0] - r - 1.0).floor() as i32,
        (c[1] - r - 1.0).floor() as i32,
        (c[0] + r + 1.0).ceil() as i32,
        (c[1] + r + 1.0).ceil() as i32,
    ]
}

/// The union of two boxes.
pub(super) fn union(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

/// How much of a shadow's part covers the ground at column `x`, `depth`
/// pixels of depth from the plant's foot.
#[inline(always)]
pub(super) fn umbra(u: &Umbra, x: f32, depth: f32) -> f32 {
    let d = segment_distance([x, depth], u.a, u.b).0;
    smoothstep(u.r + u.soft, u.r - u.soft, d)
}

/// The distance from `p` to the segment `a`–`b`, where along it the
/// nearest point lies (0 at `a`, 1 at `b`), and `p` from that point.
#[inline(always)]
pub(super) fn segment_distance(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> (f32, f32, [f32; 2]) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let e = [p[0] - a[0] - dx * t, p[1] - a[1] - dy * t];
    ((e[0] * e[0] + e[1] * e[1]).sqrt(), t, e)
}

/// Coverage of a line `w` pixels wide at distance `d` from its middle.
#[inline(always)]
pub(super) fn thin(d: f32, w: f32) -> f32 {
    (0.5 * w + 0.5 - d).clamp(0.0, 1.0).min(w + 0.15)
}
