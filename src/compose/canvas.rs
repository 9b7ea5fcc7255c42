//! A picture kept between renders, re-rendering only what a change touches.
//!
//! A live preview re-renders the same scene over and over with one setting
//! changed. [`Canvas`] keeps, besides the picture, the automaton's grid and
//! the composite of the layers under the one being edited, in linear light:
//!
//! - a change to a layer redraws that layer and the layers above it over
//!   the kept composite, and only on the bands they draw on: a density drag
//!   redraws the stones (and the tent and spiral over them), not the sky,
//!   the ranges or the floor, and re-encodes only the ground's bands;
//! - the automaton runs again only when its inputs change;
//! - the layers over the edit are kept as they were prepared: a layer whose
//!   settings and inputs did not change is not prepared again and adds no
//!   band to redraw, and a tent move places again only the rock rows near
//!   the old and new clearings (`Prepare::prepare_reclear` in
//!   [`crate::layers`]) and redraws only the bands where stones came or
//!   went, and the tent's.
//!
//! Which layers count as "under the edit" follows the edits: at first the
//! layers under the rocks; after an edit further down, those under it.
//!
//! The bytes never depend on what was kept: every band is composed as
//! [`crate::render`] composes it (the same layers, in the same order, over
//! the same start), and a test checks re-renders after every kind of
//! change against fresh renders.

use image::RgbaImage;
use rayon::prelude::*;

use crate::base::color::{Linear, encode_row};
use crate::compose::{Plan, check_size, with_depth};
use crate::error::Result;
use crate::layers::world::{Depth, FAR};
use crate::layers::{BAND_ROWS, Band, Draw, Layer};
use crate::life::BitGrid;
use crate::scene::Scene;

/// A picture and what its next re-render can reuse. See the module docs.
#[derive(Default)]
pub struct Canvas {
    image: RgbaImage,
    kept: Option<Kept>,
}

/// What the last render left to reuse.
struct Kept {
    plan: Plan,
    /// Scene index of the lowest layer not in `under`.
    split: usize,
    /// The composite of the layers below `split`, row after row, each band
    /// started as [`crate::render`] starts it: from its topmost covering
    /// layer, or from black.
    under: Vec<Linear>,
    /// In one ground, the depths of `under` (see [`crate::layers::world`]),
    /// a band's ground depths then its things', band after band; else
    /// empty.
    depths: Vec<f32>,
    /// Per band: whether the picture holds `under` encoded, and nothing
    /// else drawn over it.
    plain: Vec<bool>,
    /// The layers from `split` up as they were prepared, with their scene
    /// indices.
    layers: Vec<(usize, Box<dyn Draw>)>,
}

/// What the layers of a scene share besides their settings: what a layer
/// is drawn from, so that a change to it redraws the layer.
#[derive(PartialEq)]
struct Shared {
    seed: u64,
    time: crate::base::palette::TimeOfDay,
    sun_x: f32,
    horizon: f32,
    /// The wind (the Racetrack's trails, the clouds' drift and the dunes follow it).
    wind: f32,
    clearings: Vec<crate::layers::tent::Clearing>,
    ground: Linear,
    /// The clouds' shade on the ground (the floor, stones and tent read it).
    shade: Option<crate::layers::clouds::CloudShade>,
    /// One ground, the eye and the lens, and in one ground the dunes that
    /// things stand on (every layer reads the eye; what stands on the
    /// ground reads the sand).
    world: (bool, f32, f32, Option<crate::layers::Dunes>),
}

impl Shared {
    fn of(plan: &Plan) -> Shared {
        let s = plan.scene();
        // Where tents clear the ground does not depend on the size.
        let frame = plan.frame(1000, 1000);
        Shared {
            seed: s.seed,
            time: s.time,
            sun_x: s.sun_x,
            horizon: s.horizon,
            wind: s.wind,
            clearings: frame.clearings,
            ground: frame.ground,
            shade: frame.shade,
            world: (
                s.one_ground,
                s.eye,
                s.lens,
                s.layers.iter().find_map(|l| match l {
                    Layer::Dunes(d) if s.one_ground && d.visible && d.opacity > 0.0 => {
                        Some(d.clone())
                    }
                    _ => None,
                }),
            ),
        }
    }
}

impl Canvas {
    /// An empty canvas: the first render draws everything.
    pub fn new() -> Canvas {
        Canvas::default()
    }

    /// The picture of the last render (empty before the first).
    pub fn image(&self) -> &RgbaImage {
        &self.image
    }

    /// The plan of the last render: the scene drawn and its automaton's
    /// grid. `None` before the first render and after a failed one.
    pub fn plan(&self) -> Option<&Plan> {
        self.kept.as_ref().map(|k| &k.plan)
    }

    /// Where a render of `scene` starts from: what the last render kept,
    /// its plan reused, when the picture keeps its size, or a new plan;
    /// whether the layers under the split are drawn again (`full`); and
    /// what changed of each layer. `None` when nothing changed: the
    /// picture stands as it is.
    fn resume(
        &mut self,
        scene: &Scene,
        same_size: bool,
    ) -> Result<Option<(Kept, bool, Vec<Change>)>> {
        match self.kept.take() {
            Some(kept) if same_size => {
                let before = (kept.plan.drawn().clone(), Shared::of(&kept.plan));
                let old_grid = kept.plan.grid().clone();
                let plan = Plan::reuse(scene, kept.plan)?;
                let changes = changes(&before.0, &before.1, &old_grid, &plan);
                Ok(match changes.iter().position(|&c| c != Change::Same) {
                    None => {
                        self.kept = Some(Kept { plan, ..kept });
                        None
                    }
                    Some(c) if c >= kept.split => Some((Kept { plan, ..kept }, false, changes)),
                    Some(c) => {
                        let split = if c == 0 { first_rocks(plan.drawn()) } else { c };
                        let kept = Kept {
                            plan,
                            split,
                            plain: Vec::new(),
                            ..kept
                        };
                        Some((kept, true, changes))
                    }
                })
            }
            _ => {
                let plan = Plan::new(scene)?;
                let split = first_rocks(plan.drawn());
                let kept = Kept {
                    plan,
                    split,
                    under: Vec::new(),
                    depths: Vec::new(),
                    plain: Vec::new(),
                    layers: Vec::new(),
                };
                Ok(Some((kept, true, Vec::new())))
            }
        }
    }

    /// Renders `scene` at `width × height`, reusing what the last render
    /// left where the scene did not change, and gives the very bytes of
    /// [`crate::render`]. Refuses what `render` refuses; the canvas then
    /// forgets what it kept.
    pub fn render(&mut self, scene: &Scene, width: u32, height: u32) -> Result<&RgbaImage> {
        check_size(width, height)?;
        let bands = height.div_ceil(BAND_ROWS) as usize;
        let same_size = self.image.dimensions() == (width, height);
        let Some((start, full, changes)) = self.resume(scene, same_size)? else {
            // Nothing changed: the picture stands.
            return Ok(&self.image);
        };
        let Kept {
            plan,
            split,
            mut under,
            mut depths,
            mut plain,
            layers: kept_layers,
        } = start;
        if !same_size {
            self.image = RgbaImage::new(width, height);
        }
        if full {
            plain.clear();
        }
        plain.resize(bands, false);
        under.resize(width as usize * height as usize, [0.0; 3]);
        // The layers the last render prepared, by scene index: those that
        // did not change are drawn as they were prepared.
        let mut before: Vec<Option<Box<dyn Draw>>> = Vec::new();
        for (i, layer) in kept_layers {
            before.resize_with(before.len().max(i + 1), || None);
            before[i] = Some(layer);
        }
        // The bands where this render may differ from the last (all, if
        // `full`): those of the layers prepared afresh, before and after,
        // and the rows a layer prepared again gives.
        let mut redraw = vec![full; bands];
        let mark = |redraw: &mut [bool], touches: &dyn Fn(u32, u32) -> bool| {
            for (b, band) in redraw.iter_mut().enumerate() {
                let y0 = b as u32 * BAND_ROWS;
                *band = *band || touches(y0, (y0 + BAND_ROWS).min(height));
            }
        };
        let mut fresh = Vec::new();
        let composer = plan.at_with(
            width,
            height,
            if full { 0 } else { split },
            |i, layer, frame| {
                let change = changes.get(i).copied().unwrap_or(Change::Redrawn);
                match (change, before.get_mut(i).and_then(Option::take)) {
                    (Change::Same, Some(old)) => Ok(old),
                    (Change::Clearings, Some(old)) => {
                        let (draw, rows) = layer.prepare_reclear(frame, old)?;
                        mark(&mut redraw, &|y0, y1| {
                            rows.iter().any(|&(a, b)| a < y1 as i32 && (y0 as i32) < b)
                        });
                        Ok(draw)
                    }
                    (_, old) => {
                        // The old one's bands, and it is let go before the
                        // new one takes its memory.
                        if let Some(old) = old {
                            mark(&mut redraw, &|y0, y1| old.touches(y0, y1));
                        }
                        fresh.push(i);
                        layer.prepare(frame)
                    }
                }
            },
        )?;
        // The bands of the layers prepared afresh, and of those the last
        // render drew and this one does not.
        for (i, layer) in composer.scene_index().iter().zip(composer.layers()) {
            if fresh.contains(i) {
                mark(&mut redraw, &|y0, y1| layer.touches(y0, y1));
            }
        }
        for old in before.into_iter().flatten() {
            mark(&mut redraw, &|y0, y1| old.touches(y0, y1));
        }
        // Layers under the split (prepared only when redrawn), and over it.
        let k = composer.scene_index().partition_point(|&i| i < split);
        let (below, above) = composer.layers().split_at(k);
        let band_px = width as usize * BAND_ROWS as usize;
        // In one ground, the depths of `under`, band after band: the
        // ground's, then the things', as the band's pixels.
        let depth_on = plan.scene().one_ground;
        if depth_on {
            depths.resize(2 * width as usize * height as usize, FAR);
        } else {
            depths = Vec::new();
        }
        let mut depth_bands: Vec<&mut [f32]> = if depth_on {
            depths.chunks_mut(2 * band_px).collect()
        } else {
            (0..bands).map(|_| &mut [][..]).collect()
        };
        self.image
            .par_chunks_mut(band_px * 4)
            .zip(under.par_chunks_mut(band_px))
            .zip(plain.par_iter_mut())
            .zip(depth_bands.par_iter_mut())
            .enumerate()
            .filter(|(index, _)| redraw[*index])
            .for_each_init(
                || vec![[0.0; 3]; band_px],
                |scratch, (index, (((out, under), plain), kept))| {
                    let passes = Passes {
                        width,
                        full,
                        depth_on,
                        below,
                        above,
                    };
                    draw_band(&passes, index, out, under, plain, kept, scratch);
                },
            );
        drop(depth_bands);
        self.kept = Some(Kept {
            plan,
            split,
            under,
            depths,
            plain,
            layers: composer
                .into_layers()
                .filter(|(i, _)| *i >= split)
                .collect(),
        });
        Ok(&self.image)
    }
}

/// What a render draws into each band ([`draw_band`]).
struct Passes<'a> {
    /// The picture's width in pixels.
    width: u32,
    /// Whether the layers under the split are drawn again.
    full: bool,
    /// Whether the bands keep depths (one ground).
    depth_on: bool,
    /// The layers under the split, drawn into `under` when `full`.
    below: &'a [Box<dyn Draw>],
    /// The layers over the split, drawn over `under` into the picture.
    above: &'a [Box<dyn Draw>],
}

/// Band `index` of a render: the layers under the split into `under`
/// (when the render is `full`), then those over it, into `out`'s bytes;
/// `plain` says whether `out` holds `under` as it is, `kept` the band's
/// depths (one ground), `scratch` room for a band's pixels.
fn draw_band(
    passes: &Passes,
    index: usize,
    out: &mut [u8],
    under: &mut [Linear],
    plain: &mut bool,
    kept: &mut &mut [f32],
    scratch: &mut [Linear],
) {
    let Passes {
        width,
        full,
        depth_on,
        below,
        above,
    } = *passes;
    let y0 = index as u32 * BAND_ROWS;
    let rows = (out.len() / (width as usize * 4)) as u32;
    let n = under.len();
    if full {
        *plain = false;
        let mut band = band_at(y0, rows, width, index, under);
        if depth_on {
            kept.fill(FAR);
            let (ground, things) = kept.split_at_mut(n);
            band.depth = Some(Depth { ground, things });
        }
        draw_from_cover(below, &mut band);
    }
    let y1 = y0 + rows;
    let drawn = if above.iter().any(|l| l.covers(y0, y1)) {
        // A layer above covers the band: nothing under shows.
        with_depth(depth_on, n, |depth| {
            let mut band = band_at(y0, rows, width, index, &mut scratch[..n]);
            band.depth = depth;
            draw_from_cover(above, &mut band);
        });
        true
    } else if above.iter().any(|l| l.touches(y0, y1)) {
        let px = &mut scratch[..n];
        px.copy_from_slice(under);
        with_depth(depth_on, n, |mut depth| {
            if let Some(d) = &mut depth {
                d.ground.copy_from_slice(&kept[..n]);
                d.things.copy_from_slice(&kept[n..]);
            }
            let mut band = band_at(y0, rows, width, index, px);
            band.depth = depth;
            for layer in above {
                layer.draw(&mut band);
            }
        });
        true
    } else {
        false
    };
    if drawn {
        encode(&scratch[..n], out, width, y0);
        *plain = false;
    } else if !*plain {
        encode(under, out, width, y0);
        *plain = true;
    }
}

/// Band `index` of a picture `width` pixels wide: `rows` rows from `y0`.
fn band_at(y0: u32, rows: u32, width: u32, index: usize, px: &mut [Linear]) -> Band<'_> {
    Band::rows(y0, rows, width, index, px)
}

/// Draws `layers` on `band` as [`crate::render`] does: from the topmost
/// one that covers the band, or over black.
fn draw_from_cover(layers: &[Box<dyn Draw>], band: &mut Band) {
    let (y0, y1) = (band.y0, band.y1());
    let first = layers
        .iter()
        .rposition(|l| l.covers(y0, y1))
        .unwrap_or_else(|| {
            band.px.fill([0.0; 3]);
            0
        });
    for layer in &layers[first..] {
        layer.draw(band);
    }
}

/// Encodes the band of linear pixels `px` starting at row `y0` into `out`.
fn encode(px: &[Linear], out: &mut [u8], width: u32, y0: u32) {
    let w = width as usize;
    for (r, (src, dst)) in px
        .chunks_exact(w)
        .zip(out.chunks_exact_mut(w * 4))
        .enumerate()
    {
        encode_row(src, dst, 0, y0 + r as u32);
    }
}

/// The scene index of the first rocks layer (or past the last layer): the
/// layers under it are kept at first.
fn first_rocks(scene: &Scene) -> usize {
    scene
        .layers
        .iter()
        .position(|l| {
            // In one ground, what stands on the ground shares the depths.
            matches!(l, Layer::Rocks(_)) || (scene.one_ground && crate::layers::world::stands(l))
        })
        .unwrap_or(scene.layers.len())
}

/// How a layer draws in a scene against how it drew before.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Change {
    /// The same: its settings and all it is drawn from are unchanged.
    Same,
    /// The rocks, where only the tents' clearings moved.
    Clearings,
    /// Differently: it is prepared afresh.
    Redrawn,
}

/// How each layer of `now` draws against the scene `before` (with its
/// shared facts and automaton grid), by scene index. A layer draws
/// differently when its settings change, when the light or seed changes
/// (every layer), and the rocks when their grid or the sand's colour
/// changes, or, in part, the tents' clearings; the plants, which stand
/// beside the grid's clumps, off the clearings and lit by the sand, when
/// any of those change.
fn changes(before: &Scene, shared: &Shared, grid: &BitGrid, now: &Plan) -> Vec<Change> {
    let after = Shared::of(now);
    let layers = &now.drawn().layers;
    let count = before.layers.len().max(layers.len());
    if (
        shared.seed,
        shared.time,
        shared.sun_x,
        shared.horizon,
        shared.wind,
    ) != (
        after.seed,
        after.time,
        after.sun_x,
        after.horizon,
        after.wind,
    ) || shared.shade != after.shade
        || shared.world != after.world
    {
        return vec![Change::Redrawn; count];
    }
    let rocks = if shared.ground != after.ground || grid != now.grid() {
        Change::Redrawn
    } else if shared.clearings != after.clearings {
        Change::Clearings
    } else {
        Change::Same
    };
    let plants = if rocks == Change::Same {
        Change::Same
    } else {
        Change::Redrawn
    };
    (0..count)
        .map(|i| match (before.layers.get(i), layers.get(i)) {
            (Some(a), Some(b)) if a == b => match b {
                Layer::Rocks(_) => rocks,
                Layer::Plants(_) => plants,
                _ => Change::Same,
            },
            _ => Change::Redrawn,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::presets::PRESETS;

    type Edit = Box<dyn Fn(&mut Scene)>;

    /// Every kind of change, one after another: each re-render gives the
    /// bytes of a fresh render of the same scene.
    #[test]
    fn re_renders_equal_fresh_renders() {
        for preset in PRESETS {
            let scene = preset.scene().unwrap();
            let mut canvas = Canvas::new();
            let (w, h) = (97, 61);
            let mut edits: Vec<Edit> = vec![
                Box::new(|_| {}),
                Box::new(|s| s.automaton.density = 0.45),
                Box::new(|s| s.automaton.columns = 300),
                Box::new(|s| s.sun_x = 0.3),
                // The wind turns: the trails, the clouds and the dunes with it.
                Box::new(|s| s.wind = 120.0),
                Box::new(|_| {}),
            ];
            for i in 0..scene.layers.len() {
                edits.push(Box::new(move |s| {
                    let opacity = s.layers[i].common_mut().1;
                    *opacity = 0.5;
                }));
                edits.push(Box::new(move |s| {
                    let visible = s.layers[i].common_mut().0;
                    *visible = !*visible;
                }));
            }
            // Plants come: then the tents' clearings and the grid move
            // them too.
            edits.push(Box::new(|s| {
                s.add_layer(Layer::Plants(crate::layers::Plants::default()));
            }));
            edits.push(Box::new(|s| {
                for l in &mut s.layers {
                    if let Layer::Tent(t) = l {
                        t.x = 0.3;
                    }
                }
            }));
            edits.push(Box::new(|s| s.layers.swap(0, 2)));
            edits.push(Box::new(|s| s.seed += 1));
            edits.push(Box::new(|s| s.automaton.density = 0.3));
            // Clouds come, thicken and go: their shade on the ground with
            // them.
            edits.push(Box::new(|s| {
                s.add_layer(Layer::Clouds(crate::layers::Clouds::default()));
            }));
            edits.push(Box::new(|s| {
                for l in &mut s.layers {
                    if let Layer::Clouds(c) = l {
                        c.cover = 0.8;
                    }
                }
            }));
            edits.push(Box::new(|s| {
                s.layers.retain(|l| !matches!(l, Layer::Clouds(_)));
            }));
            let mut now = scene.clone();
            for (k, edit) in edits.iter().enumerate() {
                edit(&mut now);
                let kept = canvas.render(&now, w, h).unwrap().clone();
                let fresh = crate::render(&now, w, h).unwrap();
                assert!(kept == fresh, "{}: edit {k} differs", preset.name);
            }
            // A new size starts over, and still agrees.
            let kept = canvas.render(&now, 64, 40).unwrap().clone();
            assert!(kept == crate::render(&now, 64, 40).unwrap());
        }
    }

    /// A tent dragged over a packed field, step by step, then other
    /// changes over the rocks: each re-render (which places again only the
    /// rows near the clearings and redraws only the bands that changed)
    /// gives the bytes of a fresh render.
    #[test]
    fn tent_drags_redraw_what_they_uncover() {
        let mut scene = Scene::default();
        scene.automaton.density = 0.4;
        scene.automaton.columns = 200;
        // Large near stones and grains, whose boxes reach well past the
        // tent's rows.
        for l in &mut scene.layers {
            if let Layer::Rocks(r) = l {
                r.near_size = 0.2;
                r.far_size = 0.02;
                r.gravel = 1.0;
            }
        }
        fn tent(s: &mut Scene) -> &mut crate::layers::Tent {
            s.layers
                .iter_mut()
                .find_map(|l| match l {
                    Layer::Tent(t) => Some(t),
                    _ => None,
                })
                .unwrap()
        }
        let mut edits: Vec<Edit> = Vec::new();
        edits.push(Box::new(|s| tent(s).y = 0.9));
        for _ in 0..4 {
            edits.push(Box::new(|s| tent(s).x += 0.07));
        }
        edits.push(Box::new(|s| tent(s).y -= 0.05));
        edits.push(Box::new(|s| tent(s).size *= 1.5));
        edits.push(Box::new(|s| {
            tent(s).color = crate::base::color::Rgb(40, 90, 200)
        }));
        edits.push(Box::new(|s| tent(s).y += 0.12));
        edits.push(Box::new(|s| tent(s).visible = false));
        edits.push(Box::new(|s| tent(s).visible = true));
        edits.push(Box::new(|s| {
            for l in &mut s.layers {
                if let Layer::Spiral(sp) = l {
                    sp.visible = true;
                    sp.x = 0.3;
                }
            }
        }));
        edits.push(Box::new(|s| tent(s).x -= 0.2));
        edits.push(Box::new(|s| {
            let t = tent(s).clone();
            s.layers
                .push(Layer::Tent(crate::layers::Tent { x: 0.8, ..t }));
        }));
        edits.push(Box::new(|s| tent(s).x += 0.03));
        edits.push(Box::new(|s| {
            s.layers.pop();
        }));
        let (w, h) = (320, 180);
        let mut canvas = Canvas::new();
        let mut now = scene.clone();
        canvas.render(&now, w, h).unwrap();
        for (k, edit) in edits.iter().enumerate() {
            edit(&mut now);
            let kept = canvas.render(&now, w, h).unwrap().clone();
            assert!(
                kept == crate::render(&now, w, h).unwrap(),
                "edit {k} differs"
            );
        }
    }

    #[test]
    fn bad_scenes_are_refused_and_forgotten() {
        let scene = Scene::default();
        let mut canvas = Canvas::new();
        canvas.render(&scene, 40, 30).unwrap();
        assert!(canvas.plan().is_some());
        let mut bad = scene.clone();
        bad.automaton.density = 7.0;
        assert!(canvas.render(&bad, 40, 30).is_err());
        assert!(canvas.plan().is_none());
        assert!(canvas.render(&scene, 0, 30).is_err());
        let again = canvas.render(&scene, 40, 30).unwrap().clone();
        assert!(again == crate::render(&scene, 40, 30).unwrap());
    }
}
