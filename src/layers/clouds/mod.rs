//! Clouds: a deck of cloud over the ground, seen in perspective, lit by
//! the scene's light. From heaped cumulus to high cirrus streaks, from a
//! few fair-weather clouds to an overcast, with a haze of dust low over
//! the horizon.
//!
//! The deck is a level plane high over the ground: each pixel of the sky
//! looks up at it along its own ray, so clouds are large overhead and
//! flatten and crowd toward the horizon, where they fade into its haze (as
//! Quilez draws skies). Their density is fractal value noise cut at a level
//! set by the cover; thick parts are shaded by the sky's light, thin edges
//! lit through by the sun or moon, and a cloud near the disc gets its glow.
//! Every pixel is a function of its own position and the prepared numbers
//! only, so a window is drawn as the whole picture draws it.

use serde::Serialize;

use super::{Band, Draw, Frame, Kind, Prepare, blend};
use crate::base::color::{Linear, Rgb, add, mix, mul, scale};
use crate::base::math::{self, floor_i32};
use crate::base::noise::{TILE_SIDE, smoothstep, sub_seed};
use crate::base::simd::Build;
use crate::error::Result;
use crate::setting::{Roll, Setting, float, other};

mod shade;
pub(crate) mod storm;

pub(crate) use shade::CloudShade;

/// Settings of the clouds layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clouds {
    /// Whether the layer is drawn. Default: true.
    pub visible: bool,
    /// Opacity, 0 to 1. Default: 1.
    pub opacity: f32,
    /// The share of the sky the clouds cover, 0 (clear) to 1 (overcast).
    /// Default: 0.35.
    pub cover: f32,
    /// The clouds' size, 0.1 to 10 (1: a cloud overhead about a fifth of
    /// the picture wide). Default: 1.
    pub size: f32,
    /// From heaped cumulus (0) to high streaks of cirrus (1). Default: 0.
    pub streaks: f32,
    /// How soft the clouds' edges are, 0 to 1. Default: 0.35.
    pub softness: f32,
    /// How far the clouds have drifted, along the width, -10 to 10: moves
    /// the whole deck (scene units of the deck). Default: 0.
    pub drift: f32,
    /// A haze of dust low over the horizon, 0 to 1; in the second look,
    /// past 0.2, a dust storm that fills the air. Default: 0.
    pub dust: f32,
    /// The clouds' colour in full light. Default: (255, 255, 255).
    pub color: Rgb,
}

impl Default for Clouds {
    fn default() -> Self {
        Clouds {
            visible: true,
            opacity: 1.0,
            cover: 0.35,
            size: 1.0,
            streaks: 0.0,
            softness: 0.35,
            drift: 0.0,
            dust: 0.0,
            color: Rgb(255, 255, 255),
        }
    }
}

impl Kind for Clouds {
    const NAME: &'static str = "clouds";
    const TITLE: &'static str = "Clouds";
    const SETTINGS: &'static [Setting<Clouds>] = &[
        super::visible(),
        super::opacity(),
        float!(
            "cover",
            cover,
            0.0,
            1.0,
            1000,
            "Cover",
            "Share of the sky the clouds cover: 0 clear, 1 overcast",
            Roll::Range(0.15, 0.6)
        ),
        float!(log "size", size, 0.1, 10.0, 1000, "Size",
            "How large the clouds are", Roll::Range(0.6, 1.8)),
        float!(
            "streaks",
            streaks,
            0.0,
            1.0,
            1000,
            "Streaks",
            "From heaped cumulus (0) to high streaks of cirrus (1)",
            Roll::Range(0.0, 1.0)
        ),
        float!(
            "softness",
            softness,
            0.0,
            1.0,
            1000,
            "Softness",
            "How soft the clouds' edges are",
            Roll::Range(0.2, 0.6)
        ),
        float!(
            "drift",
            drift,
            -10.0,
            10.0,
            1000,
            "Drift",
            "Moves the clouds along the width, as the wind would",
            Roll::Range(-5.0, 5.0)
        ),
        float!(
            "dust",
            dust,
            0.0,
            1.0,
            1000,
            "Dust",
            "A haze of dust low over the horizon",
            Roll::Keep
        ),
        other!(
            Rgb,
            "color",
            color,
            "Colour",
            "The clouds' colour in full light",
            Roll::Keep
        ),
    ];

    super::common_settings!();
}

impl Prepare for Clouds {
    fn prepare(&self, frame: &Frame) -> Result<Box<dyn Draw>> {
        Ok(Box::new(self.prepare_draw(frame)))
    }
}

/// The deck's distance (in heights of the deck) beyond which a ray sees
/// only haze: the noise there would be finer than a pixel.
const FARTHEST: f32 = 40.0;

/// The deck's noise is worked out on every [`DECK_STEP_X`]th column and
/// every second row, and interpolated between (the same bits in any
/// window: the samples are the picture's).
const DECK_STEP_X: u32 = 3;

/// Octaves of the clouds' noise.
const OCTAVES: u32 = 4;

/// Octaves of the noise of the clouds' shade on the ground.
const SHADE_OCTAVES: u32 = 2;

impl Clouds {
    /// The deck's pattern: where on the deck there is cloud.
    fn deck(&self, seed: u64, wind: [f32; 2]) -> Deck {
        Deck {
            cover: self.cover,
            softness: 0.02 + 0.3 * self.softness,
            scale: 1.5 / self.size.max(0.01),
            streaks: self.streaks,
            drift: [self.drift * wind[0], self.drift * wind[1]],
            seed: sub_seed(seed, 300),
        }
    }

    /// The shade the clouds cast on the ground of `frame` (the picture
    /// `width × height` with its horizon row, palette, seed and wind), or `None`
    /// when they cast none (hidden, or no light to block).
    pub(crate) fn shade(
        &self,
        (seed, wind): (u64, [f32; 2]),
        p: &crate::base::palette::Palette,
        (w, h, horizon): (f32, f32, f32),
    ) -> Option<CloudShade> {
        let [lx, ly, lz] = p.light;
        // Shadows fade as the sun sinks, and are as strong as the direct
        // light's share of the light on the ground.
        let lum = |c: Linear| 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
        let direct = lum(p.direct) * ly.max(0.0);
        let share = direct / (direct + lum(p.ambient)).max(1e-6);
        let strength = self.opacity * 0.85 * share * smoothstep(0.06, 0.3, ly);
        (self.visible && strength > 0.01).then(|| CloudShade {
            deck: self.deck(seed, wind),
            strength,
            // Toward the sun, up to the deck (one deck height): across the
            // picture and away from the viewer.
            toward: (lx / ly, -lz / ly),
            half_width: 0.5 * w,
            focal: h,
            horizon,
        })
    }

    /// The share of the sky the clouds show, 0 to 1, without drawing them:
    /// their density, as much as the haze far off leaves of it, over a
    /// coarse grid of the sky of a picture `aspect` wide (the height 1)
    /// with its horizon at `horizon` (fraction of the height), through a
    /// lens `zoom` times as long as 24 mm, for a scene's seed and wind (as
    /// in [`Clouds::shade`]). Clouds as large as the sky can miss it: a
    /// view of the deck that falls between them.
    pub(crate) fn sky_shown(
        &self,
        (seed, wind): (u64, [f32; 2]),
        horizon: f32,
        aspect: f32,
        zoom: f32,
    ) -> f32 {
        // Rows of the grid, down the sky.
        const ROWS: u32 = 48;
        if !self.visible || horizon <= 0.0 {
            return 0.0;
        }
        // The grid's pixels: `h` to the picture's height.
        let h = ROWS as f32 / horizon;
        let cols = (aspect * h).ceil().max(1.0) as u32;
        let (focal, half_width) = (h * zoom, 0.5 * aspect * h);
        let deck = self.deck(seed, wind);
        let (mut across, mut away, mut noise) = (Vec::new(), Vec::new(), Vec::new());
        let mut shown = 0.0;
        for y in 0..ROWS {
            // As far as the drawing sees the deck ([`CloudsDraw::distance`]).
            let d = (focal / (ROWS as f32 - y as f32 - 0.5)).min(FARTHEST);
            let far = 1.0 - math::exp(-d * 0.09);
            across.clear();
            across.extend((0..cols).map(|x| (x as f32 + 0.5 - half_width) / focal * d));
            away.clear();
            away.resize(across.len(), d);
            deck.noises(Build::best(), (&across, &away), OCTAVES, None, &mut noise);
            let density: f32 = noise.iter().map(|&n| deck.shape(n).0).sum();
            shown += density * (1.0 - far * far);
        }
        self.opacity * shown / (ROWS * cols) as f32
    }

    fn prepare_draw(&self, f: &Frame) -> CloudsDraw {
        let p = &f.palette;
        let albedo = self.color.linear();
        // Lit from above by the sky, and by the sun or moon as high as it
        // stands (a low sun lights the clouds' undersides warm).
        let sun_up = p.light[1].max(0.0);
        let lit = mul(
            albedo,
            add(
                scale(p.direct, 0.55 + 0.35 * sun_up),
                scale(p.ambient, 1.05),
            ),
        );
        let shade = mul(albedo, add(scale(p.ambient, 0.85), scale(p.direct, 0.22)));
        CloudsDraw {
            opacity: self.opacity,
            deck: self.deck(f.seed, f.wind),
            dust: self.dust,
            horizon: f.horizon,
            half_width: 0.5 * f.w,
            // A longer lens draws the deck larger.
            focal: f.h * f.world.zoom,
            lit,
            shade,
            haze: p.horizon,
            dust_color: mix(p.horizon, mul(f.ground, p.ground), 0.45),
            // A dust storm hides the clouds most of the way.
            storm: 0.8 * f.dust,
            glow: scale(p.glow, 1.4),
            sun: (f.sun_x * f.w, p.sun_y * f.h),
            glow_radius: (p.glow_radius * f.h).max(1.0),
            antialias: p.look >= crate::base::palette::LOOK_SAND,
        }
    }
}

/// The noise tile's values: [`TILE_SIDE`] squared.
type Tile = [f32; TILE_SIDE * TILE_SIDE];

/// Smooth 2-D value noise in 0..1, lattice spacing 1, its lattice values
/// looked up in the fixed noise tile (shifted by `seed`) rather than
/// hashed: the deck's noise is most of the clouds' cost.
#[inline(always)]
fn tile_value(tile: &Tile, x: f32, y: f32, seed: u32) -> f32 {
    const SIDE: u32 = TILE_SIDE as u32;
    // `floor` without a call to the maths library (the same value for
    // the deck's coordinates, far under 2^31).
    let (ix, iy) = (floor_i32(x), floor_i32(y));
    let (fx, fy) = (ix as f32, iy as f32);
    let (tx, ty) = (x - fx, y - fy);
    let ix = (ix as u32).wrapping_add(seed);
    let iy = (iy as u32).wrapping_add(seed >> 7);
    let v = |dx: u32, dy: u32| {
        let (cx, cy) = (ix.wrapping_add(dx) % SIDE, iy.wrapping_add(dy) % SIDE);
        // (Masked, which changes nothing, so that no bounds check is
        // needed.)
        tile[(cy * SIDE + cx) as usize & (TILE_SIDE * TILE_SIDE - 1)]
    };
    let (sx, sy) = (tx * tx * (3.0 - 2.0 * tx), ty * ty * (3.0 - 2.0 * ty));
    let top = v(0, 0) + (v(1, 0) - v(0, 0)) * sx;
    let bottom = v(0, 1) + (v(1, 1) - v(0, 1)) * sx;
    0.5 + 0.5 * (top + (bottom - top) * sy)
}

/// The noise tile as an array, so that its look-ups need no bounds checks.
fn tile() -> &'static Tile {
    crate::base::noise::noise_tile()
        .try_into()
        .expect("the noise tile is TILE_SIDE squared")
}

/// Where on the deck there is cloud: its noise, cut at the cover.
#[derive(Clone, Debug, PartialEq)]
struct Deck {
    cover: f32,
    softness: f32,
    scale: f32,
    streaks: f32,
    /// How far the deck has moved, `[across, away]`: the drift along the
    /// wind.
    drift: [f32; 2],
    seed: u32,
}

impl Deck {
    /// The noise (about 0.2..0.8) at a point of the deck, `across` (right)
    /// and `away` from the viewer, in deck heights.
    fn noise(&self, across: f32, away: f32, octaves: u32) -> f32 {
        let (mut u, mut v, mut sum) = ([0.0], [0.0], [0.0]);
        self.noises_body(
            tile(),
            &[across],
            &[away],
            octaves,
            &mut u,
            &mut v,
            &mut sum,
        );
        sum[0]
    }

    /// [`Deck::noise`] at points `(across[i], away[i])`, into `out`; with
    /// `weights`, each octave's share of its own value (the rest is its
    /// mean).
    fn noises(
        &self,
        build: Build,
        (across, away): (&[f32], &[f32]),
        octaves: u32,
        weights: Option<&[f32; OCTAVES as usize]>,
        out: &mut Vec<f32>,
    ) {
        let n = across.len().min(away.len());
        out.clear();
        out.resize(n, 0.0);
        let (mut u, mut v) = (vec![0.0; n], vec![0.0; n]);
        let tile = tile();
        if let Some(w) = weights {
            return self.faded_noises(tile, (across, away), w, &mut u, &mut v, out);
        }
        match build {
            Build::Portable => self.noises_body(tile, across, away, octaves, &mut u, &mut v, out),
            // SAFETY: `Build::Avx2` is only chosen where the CPU has it.
            #[cfg(target_arch = "x86_64")]
            Build::Avx2 => unsafe {
                self.noises_avx2(tile, across, away, octaves, &mut u, &mut v, out)
            },
        }
    }

    /// The noise at many points with each octave `o` weighted by
    /// `weights[o]` against its mean, into `sum` (see
    /// [`Deck::noises_body`]).
    fn faded_noises(
        &self,
        tile: &Tile,
        (across, away): (&[f32], &[f32]),
        weights: &[f32; OCTAVES as usize],
        u: &mut [f32],
        v: &mut [f32],
        sum: &mut [f32],
    ) {
        let n = self.lattice_points((across, away), u, v, sum);
        let (mut amp, mut norm) = (1.0, 0.0);
        for (o, &w) in weights.iter().enumerate() {
            let seed = self.seed.wrapping_add((o as u32).wrapping_mul(0x9e37));
            for i in 0..n {
                let (x, y) = (u[i], v[i]);
                let value = if w > 0.0 {
                    tile_value(tile, x, y, seed)
                } else {
                    0.5
                };
                sum[i] += amp * (0.5 + w * (value - 0.5));
                (u[i], v[i]) = (x * 1.6 - y * 1.2 + 17.3, x * 1.2 + y * 1.6 + 9.1);
            }
            norm += amp;
            amp *= 0.46;
        }
        for s in &mut sum[..n] {
            *s /= norm;
        }
    }

    /// The deck's points `(across[i], away[i])` in the first octave's
    /// lattice, into `u` and `v`, and `sum` cleared: how many points.
    #[inline(always)]
    fn lattice_points(
        &self,
        (across, away): (&[f32], &[f32]),
        u: &mut [f32],
        v: &mut [f32],
        sum: &mut [f32],
    ) -> usize {
        let n = across
            .len()
            .min(away.len())
            .min(u.len())
            .min(v.len())
            .min(sum.len());
        // Streaks run along a line slanting away across the deck, so that
        // in perspective they fan out from a point on the horizon; the more
        // streaked, the longer along it and the finer across it.
        let (sx, sy) = self.stretch();
        for i in 0..n {
            let (across, away) = (across[i] + self.drift[0], away[i] + self.drift[1]);
            let (along, side) = (0.8 * across + 0.6 * away, -0.6 * across + 0.8 * away);
            (u[i], v[i]) = (along * self.scale * sx, side * self.scale * sy);
            sum[i] = 0.0;
        }
        n
    }

    /// How much the streaks stretch the lattice along and across them.
    fn stretch(&self) -> (f32, f32) {
        (1.0 - 0.8 * self.streaks, 1.0 + 1.6 * self.streaks)
    }

    /// Each octave's share of its own value where the deck is sampled
    /// `spacing` deck heights apart: an octave whose lattice the samples
    /// would skip across fades to its mean. With how much of the noise's
    /// swing is lost, 0 to 1.
    fn octave_weights(&self, spacing: f32) -> ([f32; OCTAVES as usize], f32) {
        let (sx, sy) = self.stretch();
        let mut cells = spacing * self.scale * sx.max(sy);
        let (mut amp, mut norm, mut lost) = (1.0, 0.0, 0.0);
        let weights = std::array::from_fn(|_| {
            let w = 1.0 - smoothstep(0.35, 0.9, cells);
            cells *= 2.0;
            lost += amp * (1.0 - w);
            norm += amp;
            amp *= 0.46;
            w
        });
        (weights, lost / norm)
    }

    /// [`Deck::noises_body`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn noises_avx2(
        &self,
        tile: &Tile,
        across: &[f32],
        away: &[f32],
        octaves: u32,
        u: &mut [f32],
        v: &mut [f32],
        sum: &mut [f32],
    ) {
        self.noises_body(tile, across, away, octaves, u, v, sum);
    }

    /// The noise at many points, an octave at a time over all of them (so
    /// that the loop over the points vectorizes), into `sum`; `u` and `v`
    /// are room for the points' lattice coordinates.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn noises_body(
        &self,
        tile: &Tile,
        across: &[f32],
        away: &[f32],
        octaves: u32,
        u: &mut [f32],
        v: &mut [f32],
        sum: &mut [f32],
    ) {
        let n = self.lattice_points((across, away), u, v, sum);
        let (mut amp, mut norm) = (1.0, 0.0);
        for o in 0..octaves {
            let seed = self.seed.wrapping_add(o.wrapping_mul(0x9e37));
            for i in 0..n {
                let (x, y) = (u[i], v[i]);
                sum[i] += amp * tile_value(tile, x, y, seed);
                // Rotated a little each octave, so the lattice does not
                // show.
                (u[i], v[i]) = (x * 1.6 - y * 1.2 + 17.3, x * 1.2 + y * 1.6 + 9.1);
            }
            norm += amp;
            amp *= 0.46;
        }
        for s in &mut sum[..n] {
            *s /= norm;
        }
    }

    /// The cloud's density (0..1) and thickness (0..1) of noise `n`: the
    /// cover picks the level the noise is cut at.
    fn shape(&self, n: f32) -> (f32, f32) {
        self.shape_softer(n, 0.0)
    }

    /// [`Deck::shape`] with the cloud's edge `softer` (a noise whose
    /// finer octaves faded swings less, so its cut is spread as much).
    #[inline(always)]
    fn shape_softer(&self, n: f32, softer: f32) -> (f32, f32) {
        let level = 0.78 - 0.56 * self.cover;
        let soft = self.softness + softer;
        let density = smoothstep(level - soft, level + soft, n);
        let thick = smoothstep(level, level + 0.3, n);
        (density, thick)
    }
}

/// The clouds prepared for one picture.
struct CloudsDraw {
    opacity: f32,
    deck: Deck,
    dust: f32,
    /// Horizon row, pixels from the top.
    horizon: f32,
    half_width: f32,
    /// Pixels per unit of the picture plane's tangent.
    focal: f32,
    lit: Linear,
    shade: Linear,
    haze: Linear,
    dust_color: Linear,
    /// How much of the clouds a dust storm hides, 0 to 1.
    storm: f32,
    glow: Linear,
    sun: (f32, f32),
    glow_radius: f32,
    /// Whether the noise's octaves finer than its samples fade to their
    /// mean (from the second look): far or small clouds thin to a veil
    /// rather than break into specks.
    antialias: bool,
}

impl CloudsDraw {
    /// How far apart (deck heights) the deck's samples lie where the rays
    /// meet it `d` deck heights off: the mean (geometric) of across,
    /// [`DECK_STEP_X`] columns, and away, two rows, which the deck's
    /// perspective stretches.
    fn spacing(&self, d: f32) -> f32 {
        (DECK_STEP_X as f32 * 2.0 * d * d * d).sqrt() / self.focal
    }

    /// How much softer the deck's cut is where the rays meet it `d` deck
    /// heights off: a noise whose finer octaves faded swings less (from
    /// the second look).
    fn softer(&self, d: f32) -> f32 {
        if self.antialias {
            0.3 * self.deck.octave_weights(self.spacing(d)).1
        } else {
            0.0
        }
    }

    /// How far the ray of pixel row centre `yc` meets the deck, in deck
    /// heights (rows at or under the horizon: as far as it is seen).
    fn distance(&self, yc: f32) -> f32 {
        let above = self.horizon - yc;
        if above > 0.0 {
            (self.focal / above).min(FARTHEST)
        } else {
            FARTHEST
        }
    }

    /// The deck's noise on every [`DECK_STEP_X`]th column and second row of the picture
    /// that pixels `x0..x1` of rows `y0..y1` lie between (the noise is
    /// smooth: a pixel's is interpolated from its four), row after row,
    /// and the number of columns in a row.
    fn samples(&self, (x0, x1): (u32, u32), (y0, y1): (u32, u32)) -> (Vec<f32>, usize) {
        let (i0, i1) = (x0 / DECK_STEP_X, (x1 - 1) / DECK_STEP_X + 1);
        let (j0, j1) = (y0 / 2, (y1 - 1) / 2 + 1);
        let cols = (i1 - i0 + 1) as usize;
        let mut out = Vec::with_capacity(cols * (j1 - j0 + 1) as usize);
        let build = Build::best();
        let (mut across, mut away, mut row) = (Vec::new(), Vec::new(), Vec::new());
        for j in j0..=j1 {
            let d = self.distance((2 * j) as f32 + 0.5);
            across.clear();
            across.extend(
                (i0..=i1)
                    .map(|i| ((DECK_STEP_X * i) as f32 + 0.5 - self.half_width) / self.focal * d),
            );
            away.clear();
            away.resize(cols, d);
            let weights = self
                .antialias
                .then(|| self.deck.octave_weights(self.spacing(d)).0);
            let points = (&across[..], &away[..]);
            self.deck
                .noises(build, points, OCTAVES, weights.as_ref(), &mut row);
            out.extend_from_slice(&row);
        }
        (out, cols)
    }
}

impl CloudsDraw {
    /// The deck's density and thickness (see [`Deck::shape`]) at the
    /// pixels of row `y` of a band whose first row is `y0`, from the deck's
    /// `samples` around it (`cols` a row): each pixel's noise between the
    /// four samples around it, pixel `k` at sample column `column[k]` and
    /// `tx[k]` of the way to the next (exact thirds and halves). Written
    /// to vectorize.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn shapes_body(
        &self,
        samples: &[f32],
        cols: usize,
        (y0, y, softer): (u32, u32, f32),
        column: &[u32],
        tx: &[f32],
        density: &mut [f32],
        thick: &mut [f32],
    ) {
        let n = column
            .len()
            .min(tx.len())
            .min(density.len())
            .min(thick.len());
        let j = (y / 2 - y0 / 2) as usize;
        let ty = (y % 2) as f32 * 0.5;
        let (Some(top_row), Some(bottom_row)) = (
            samples.get(j * cols..(j + 1) * cols),
            samples.get((j + 1) * cols..(j + 2) * cols),
        ) else {
            return;
        };
        if cols < 2 {
            return;
        }
        for k in 0..n {
            // (Never past the last but one: the bound only spares the
            // loop its checks.)
            let i = (column[k] as usize).min(cols - 2);
            let (a, b) = (top_row[i], top_row[i + 1]);
            let (c, d) = (bottom_row[i], bottom_row[i + 1]);
            let top = a + (b - a) * tx[k];
            let bottom = c + (d - c) * tx[k];
            (density[k], thick[k]) = self.deck.shape_softer(top + (bottom - top) * ty, softer);
        }
    }

    /// [`CloudsDraw::shapes_body`] by `build`, into `density` and `thick`.
    #[allow(clippy::too_many_arguments)]
    fn shapes(
        &self,
        build: Build,
        samples: &[f32],
        cols: usize,
        at: (u32, u32, f32),
        column: &[u32],
        tx: &[f32],
        (density, thick): (&mut [f32], &mut [f32]),
    ) {
        match build {
            Build::Portable => self.shapes_body(samples, cols, at, column, tx, density, thick),
            // SAFETY: `Build::Avx2` is only chosen where the CPU has it.
            #[cfg(target_arch = "x86_64")]
            Build::Avx2 => unsafe {
                self.shapes_avx2(samples, cols, at, column, tx, density, thick)
            },
        }
    }

    /// [`CloudsDraw::shapes_body`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn shapes_avx2(
        &self,
        samples: &[f32],
        cols: usize,
        at: (u32, u32, f32),
        column: &[u32],
        tx: &[f32],
        density: &mut [f32],
        thick: &mut [f32],
    ) {
        self.shapes_body(samples, cols, at, column, tx, density, thick);
    }
}

impl Draw for CloudsDraw {
    fn draw(&self, band: &mut Band) {
        let (x0, x1, y0) = (band.x0, band.x1(), band.y0);
        let sky = (y0 as f32 + 0.5) < self.horizon && x1 > x0;
        let (samples, cols) = if sky {
            self.samples((x0, x1), (band.y0, band.y1()))
        } else {
            (Vec::new(), 0)
        };
        // Each pixel's column among the samples, and how far it lies to
        // the next (exact thirds).
        let step = DECK_STEP_X;
        let column: Vec<u32> = (x0..x1).map(|x| x / step - x0 / step).collect();
        let tx: Vec<f32> = (x0..x1).map(|x| (x % step) as f32 / step as f32).collect();
        let width = (x1 - x0) as usize;
        let (mut density, mut thick) = (vec![0.0; width], vec![0.0; width]);
        let build = Build::best();
        for y in band.y0..band.y1() {
            let yc = y as f32 + 0.5;
            let above = self.horizon - yc;
            // The dust's haze, over the sky and the far floor alike.
            let dust = if self.dust > 0.0 {
                let h = above.abs() / self.focal;
                self.dust * math::exp(-h * h * 90.0) * 0.85
            } else {
                0.0
            };
            if above <= 0.0 && dust <= 0.0 {
                continue;
            }
            // How far the ray meets the deck, in deck heights.
            let d = self.distance(yc);
            // Far off, the deck fades into the horizon's haze (and near too
            // in a dust storm).
            let mut far = 1.0 - math::exp(-d * 0.09);
            if self.storm > 0.0 {
                far += (1.0 - far) * self.storm;
            }
            let seen = self.opacity * (1.0 - far * far);
            let deck = above > 0.0 && seen > 0.003;
            if deck {
                let softer = self.softer(d);
                self.shapes(
                    build,
                    &samples,
                    cols,
                    (y0, y, softer),
                    &column,
                    &tx,
                    (&mut density, &mut thick),
                );
            }
            let row = band.row(y);
            for (k, c) in row.iter_mut().enumerate().take(width) {
                if deck && density[k] > 0.0 {
                    let (density, thick) = (density[k], thick[k]);
                    let xc = (x0 + k as u32) as f32 + 0.5;
                    let mut color = mix(self.lit, self.shade, thick * 0.8);
                    // Thin cloud near the disc is lit through.
                    let (dx, dy) = (xc - self.sun.0, yc - self.sun.1);
                    let r2 = (dx * dx + dy * dy) / (self.glow_radius * self.glow_radius);
                    if r2 < 4.0 {
                        let through = (1.0 - thick) * math::exp(-r2 * 1.5);
                        color = add(color, scale(self.glow, through));
                    }
                    color = mix(color, self.haze, far);
                    blend(c, color, density * seen);
                }
                if dust > 0.0 {
                    blend(c, self.dust_color, dust * self.opacity);
                }
            }
        }
    }

    fn touches(&self, y0: u32, _y1: u32) -> bool {
        // Nothing below the horizon but the dust's haze.
        self.dust > 0.0 || (y0 as f32) < self.horizon
    }
}

#[cfg(test)]
mod tests;
