//! What a scene costs to draw, known before it is drawn, and the limit
//! every scene keeps to: at most [`LIMIT`] times death-valley's cost.
//!
//! A share link is something a stranger hands you, and the browser draws
//! it on the page's one thread; a scene file or a picture's recipe is no
//! safer. So every scene read or made is checked ([`Scene::validate`]):
//! the automaton's run, then each visible layer's model
//! ([`crate::layers::cost`]), less what an opaque layer above hides. A
//! scene over the limit is refused in one line that names what costs most
//! and what to lower; New scene and Vary make only scenes within it, and
//! the app's sliders stop at it.
//!
//! The stones and the clumped bushes grow from the automaton's live cells.
//! Their count is bounded first by the grid's cells (no run needed); only
//! a scene that the bound puts over the limit has its automaton run (its
//! cost already checked), and the last few counts are remembered.

use std::sync::{Mutex, OnceLock};

use super::Scene;
use crate::error::{Error, Result};
use crate::layers::cost::{PER_CELL_GENERATION, PICTURE, View};
use crate::layers::{Kind, Layer, Plants, match_kind};
use crate::setting::{self, Value};

/// The most a scene may cost, in death-valleys (the default scene's cost
/// at the same size): 10.
pub const LIMIT: f64 = 10.0;

/// What a scene costs to draw at 1280×720 on one thread, by the model, in
/// milliseconds (see [`crate::layers::cost`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The automaton's run.
    pub automaton: f64,
    /// Each layer's cost, as drawn: nothing for a hidden layer, and only
    /// the part an opaque layer above leaves in view.
    pub layers: Vec<f64>,
    /// The whole: composing the picture, the automaton and the layers.
    pub total: f64,
}

impl Estimate {
    /// The cost in death-valleys: 1 for the default scene.
    pub fn ratio(&self) -> f64 {
        self.total / death_valley()
    }

    /// `ms` in death-valleys.
    fn of(ms: f64) -> f64 {
        ms / death_valley()
    }
}

impl Scene {
    /// What the scene costs to draw, by the model: its automaton is run
    /// (or its count remembered) when it has stones or clumped bushes.
    pub fn cost(&self) -> Estimate {
        estimate(self, if needs_live(self) { live(self) } else { 0.0 })
    }

    /// Refuses a scene that would cost more than [`LIMIT`] death-valleys,
    /// naming what costs most and what to lower ([`Scene::validate`]
    /// checks this too).
    pub fn check_cost(&self) -> Result<()> {
        let (cols, rows) = self.grid_size();
        let cells = (cols * rows) as f64;
        let bound = estimate(self, if needs_live(self) { cells } else { 0.0 });
        if bound.ratio() <= LIMIT {
            return Ok(());
        }
        // The automaton's own run first: it must be affordable to be run
        // for the count.
        let exact = if Estimate::of(PICTURE + bound.automaton) > LIMIT {
            bound
        } else {
            self.cost()
        };
        if exact.ratio() <= LIMIT {
            return Ok(());
        }
        Err(Error::TooCostly {
            ratio: times(exact.ratio()),
            limit: times(LIMIT),
            advice: advice(self, &exact),
        })
    }
}

/// The model's estimate of `scene` with `live` cells left by its automaton.
fn estimate(scene: &Scene, live: f64) -> Estimate {
    let view = View {
        horizon: scene.horizon,
        live,
        scale: scene.eye_scale(),
        look: scene.look,
    };
    let (cols, rows) = scene.grid_size();
    let automaton =
        (cols * rows) as f64 * f64::from(scene.automaton.generations) * PER_CELL_GENERATION;
    // From the top layer down: what an opaque layer hides is not drawn.
    let (mut sky_hidden, mut ground_hidden) = (false, false);
    let mut layers = vec![0.0; scene.layers.len()];
    for (i, layer) in scene.layers.iter().enumerate().rev() {
        let cost = layer.cost(&view);
        layers[i] =
            if sky_hidden { 0.0 } else { cost.sky } + if ground_hidden { 0.0 } else { cost.ground };
        let (sky, ground) = layer.hides();
        sky_hidden |= sky;
        ground_hidden |= ground;
    }
    let total = PICTURE + automaton + layers.iter().sum::<f64>();
    Estimate {
        automaton,
        layers,
        total,
    }
}

/// Whether the scene's cost depends on its automaton's live cells: it
/// draws stones, or bushes beside the clumps.
fn needs_live(scene: &Scene) -> bool {
    scene.layers.iter().any(|l| match l {
        Layer::Rocks(r) => r.visible,
        Layer::Plants(Plants {
            visible, clumped, ..
        }) => *visible && *clumped > 0.0,
        _ => false,
    })
}

/// The live cells the scene's automaton leaves, remembered for the last
/// few automata asked (the app asks again at each edit, New scene for
/// each candidate).
fn live(scene: &Scene) -> f64 {
    type Key = (u64, (usize, usize), super::Automaton);
    static KNOWN: Mutex<Vec<(Key, f64)>> = Mutex::new(Vec::new());
    const KEPT: usize = 8;
    let key: Key = (scene.seed, scene.grid_size(), scene.automaton.clone());
    let known = |k: &Key| {
        let list = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
        list.iter().find(|(x, _)| x == k).map(|(_, n)| *n)
    };
    if let Some(n) = known(&key) {
        return n;
    }
    // A grid that cannot be made has no stones to draw.
    let n = scene
        .rock_grid()
        .map_or(0.0, |grid| grid.population() as f64);
    let mut list = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    if list.len() >= KEPT {
        list.remove(0);
    }
    list.push((key, n));
    n
}

/// death-valley's cost by the model, ms: the unit of [`LIMIT`].
fn death_valley() -> f64 {
    static MS: OnceLock<f64> = OnceLock::new();
    if let Some(ms) = MS.get() {
        return *ms;
    }
    // Worked out before the lock is taken: the automaton's run may lend
    // this thread to rayon, which may run another task asking for it here
    // (a deadlock inside `get_or_init`). Every thread works out the same.
    let ms = Scene::default().cost().total;
    *MS.get_or_init(|| ms)
}

/// `ratio` as the messages write it: "10×", "10.4×", "52×".
fn times(ratio: f64) -> String {
    if ratio < 20.0 && (ratio * 10.0).round() % 10.0 != 0.0 {
        format!("{ratio:.1}×")
    } else {
        format!("{ratio:.0}×")
    }
}

/// What to lower in `scene`, whose cost is `estimate`: the kind of layer
/// that costs most together (or the automaton's run), and its settings.
fn advice(scene: &Scene, estimate: &Estimate) -> String {
    let mut kinds: Vec<(&Layer, usize, f64)> = Vec::new();
    for (layer, &ms) in scene.layers.iter().zip(&estimate.layers) {
        match kinds.iter_mut().find(|(l, ..)| l.name() == layer.name()) {
            Some((_, n, sum)) => {
                *n += usize::from(ms > 0.0);
                *sum += ms;
            }
            None => kinds.push((layer, usize::from(ms > 0.0), ms)),
        }
    }
    let costliest = kinds
        .into_iter()
        .filter(|(_, n, _)| *n > 0)
        .max_by(|a, b| a.2.total_cmp(&b.2));
    match costliest {
        Some((layer, n, ms)) if ms >= estimate.automaton => {
            let what = layer.costly_settings();
            let share = times(Estimate::of(ms / n as f64));
            if n == 1 {
                let kind = layer.name();
                if what.starts_with("the number") {
                    format!("its {kind} layer costs most ({share}): remove some other layers")
                } else {
                    format!("its {kind} layer costs most ({share}): lower {what}")
                }
            } else {
                let kind = layer.name();
                let what = what.replacen("its ", "their ", 1);
                if what.starts_with("the number") {
                    format!("its {n} {kind} layers cost most ({share} each): remove some")
                } else {
                    format!(
                        "its {n} {kind} layers cost most ({share} each): lower {what}, or remove some"
                    )
                }
            }
        }
        _ => format!(
            "its automaton's run costs most ({}): lower its columns or generations",
            times(Estimate::of(estimate.automaton))
        ),
    }
}

/// The values of a number setting of a layer that keep its scene within
/// [`LIMIT`], where they are fewer than the setting's own range: the app's
/// slider for it ends there.
#[derive(Clone, Debug, PartialEq)]
pub struct Affordable {
    /// The setting's name in its layer's table.
    pub name: &'static str,
    /// The smallest value that keeps the scene within the limit.
    pub min: f64,
    /// The largest value that keeps the scene within the limit.
    pub max: f64,
}

/// A number setting of a layer: its name, its range in steps of its
/// precision, the step it is at, and the size of a step.
struct Number {
    name: &'static str,
    range: (i64, i64),
    now: i64,
    step: f64,
}

/// The number settings of `layer`.
fn numbers<K: Kind>(layer: &K) -> Vec<Number> {
    K::SETTINGS
        .iter()
        .filter_map(|s| match s.value {
            Value::Float {
                get,
                min,
                max,
                per_unit,
                ..
            } => {
                let step = 1.0 / f64::from(per_unit);
                let at = |v: f32| (f64::from(v) / step).round() as i64;
                Some(Number {
                    name: s.name,
                    range: (at(min), at(max)),
                    now: at(get(layer)),
                    step,
                })
            }
            Value::Uint { get, min, max, .. } => Some(Number {
                name: s.name,
                range: (i64::from(min), i64::from(max)),
                now: i64::from(get(layer)),
                step: 1.0,
            }),
            _ => None,
        })
        .collect()
}

/// Sets the number setting `name` of `layer` to `value`.
fn put_number<K: Kind>(layer: &mut K, name: &str, value: f64) {
    match setting::find(K::SETTINGS, name).map(|s| &s.value) {
        Some(Value::Float { put, .. }) => put(layer, value as f32),
        Some(Value::Uint { put, .. }) => put(layer, value as u32),
        _ => {}
    }
}

impl Scene {
    /// The number settings of layer `index` whose values the cost limit
    /// narrows, with the values that keep the scene within it (each found
    /// with the layer's other settings as they are). Empty when the scene
    /// is over the limit already, or `index` is no layer.
    pub fn affordable(&self, index: usize) -> Vec<Affordable> {
        let Some(layer) = self.layers.get(index) else {
            return Vec::new();
        };
        if self.check_cost().is_err() {
            return Vec::new();
        }
        let settings = match_kind!(layer, l => numbers(l));
        let mut out = Vec::new();
        for number in settings {
            let fits = |at: i64| {
                let mut s = self.clone();
                set(&mut s, index, number.name, at as f64 * number.step);
                s.check_cost().is_ok()
            };
            let (lo, hi) = number.range;
            let now = number.now.clamp(lo, hi);
            let max = if fits(hi) {
                hi
            } else {
                last_true(now, hi, &fits)
            };
            let min = if fits(lo) {
                lo
            } else {
                last_true(now, lo, &fits)
            };
            if (min, max) != (lo, hi) {
                out.push(Affordable {
                    name: number.name,
                    min: min as f64 * number.step,
                    max: max as f64 * number.step,
                });
            }
        }
        out
    }
}

/// The step from `yes` toward `no` (either way) that is the last for which
/// `fits` holds, by bisection: `fits(yes)` holds and `fits(no)` does not,
/// and the cost grows from one to the other.
fn last_true(mut yes: i64, mut no: i64, fits: &dyn Fn(i64) -> bool) -> i64 {
    while (no - yes).abs() > 1 {
        let middle = yes + (no - yes) / 2;
        if fits(middle) {
            yes = middle;
        } else {
            no = middle;
        }
    }
    yes
}

/// The costliest scenes the limit allows, one for each way of spending it,
/// named: death-valley's sky, ranges and floor, with one kind of work
/// pushed as far as the limit lets it go (a Racetrack's stones at their
/// largest, Joshua trees at their tallest, the automaton's field of
/// stones, its generations, layers stacked). `cargo bench --bench cost`
/// draws them; each is within the limit, and one step further is not.
pub fn worst_scenes() -> Vec<(&'static str, Scene)> {
    use crate::layers::{Clouds, Dunes, Floor, Racetrack, Ranges, Rocks, Sky, Spiral};
    let base = Scene {
        layers: vec![
            Layer::Sky(Sky::default()),
            Layer::Ranges(Ranges::default()),
            Layer::Floor(Floor::default()),
        ],
        ..Scene::default()
    };
    let with = |layer: Layer| {
        let mut s = base.clone();
        s.layers.push(layer);
        s
    };
    let last = |s: &Scene| s.layers.len() - 1;
    let racetrack = with(Layer::Racetrack(Racetrack {
        stones: crate::layers::racetrack::MAX_STONES,
        ..Racetrack::default()
    }));
    let racetrack = at_edge(&racetrack, 0, 2000, |s, v| {
        let i = last(s);
        set(s, i, "size", v as f64 / 1000.0)
    });
    let plants = with(Layer::Plants(Plants {
        creosote: 1.0,
        clumped: 1.0,
        joshua: 0,
        height: 10.0,
        near_size: 0.3,
        far_size: 0.3,
        ..Plants::default()
    }));
    let plants = at_edge(&plants, 0, 64, |s, v| {
        let i = last(s);
        set(s, i, "joshua", v as f64)
    });
    let mut field = with(Layer::Rocks(Rocks {
        near_size: Rocks::SIZE_LIMITS.0,
        far_size: Rocks::SIZE_LIMITS.0,
        ..Rocks::default()
    }));
    (field.automaton.density, field.automaton.generations) = (0.5, 0);
    let field = at_edge(&field, 1, i64::from(super::MAX_COLUMNS), |s, v| {
        s.automaton.columns = v as u32
    });
    let mut automaton = base.clone();
    (automaton.automaton.columns, automaton.aspect) = (super::MAX_COLUMNS, 1.0);
    let automaton = at_edge(&automaton, 0, i64::from(super::MAX_GENERATIONS), |s, v| {
        s.automaton.generations = v as u32
    });
    let spiral = with(Layer::Spiral(Spiral {
        visible: true,
        width: 0.05,
        ..Spiral::default()
    }));
    let spiral = at_edge(
        &spiral,
        0,
        i64::from(crate::layers::spiral::MAX_SEGMENTS),
        |s, v| {
            let i = last(s);
            set(s, i, "segments", v as f64)
        },
    );
    // Layers stacked: as many as the limit allows (half opaque, so none
    // hides another).
    let stacked = |layer: Layer, at: usize| {
        at_edge(&base, 0, super::MAX_LAYERS as i64, |s, n| {
            for _ in 0..n {
                if s.layers.len() < super::MAX_LAYERS {
                    s.layers.insert(at, layer.clone());
                }
            }
        })
    };
    let racetracks = stacked(
        Layer::Racetrack(Racetrack {
            opacity: 0.5,
            ..Racetrack::default()
        }),
        3,
    );
    let dunes = stacked(Layer::Dunes(Dunes::default()), 3);
    let clouds = stacked(Layer::Clouds(Clouds::default()), 1);
    vec![
        ("racetrack-large-stones", racetrack),
        ("racetracks-stacked", racetracks),
        ("joshua-trees", plants),
        ("rock-field", field),
        ("automaton", automaton),
        ("spiral", spiral),
        ("dunes-stacked", dunes),
        ("clouds-stacked", clouds),
    ]
}

/// `scene` with `set` at the largest value from `lo` to `hi` that keeps it
/// within the limit (`lo` itself when none does).
fn at_edge(scene: &Scene, lo: i64, hi: i64, set: impl Fn(&mut Scene, i64)) -> Scene {
    let at = |v: i64| {
        let mut s = scene.clone();
        set(&mut s, v);
        s
    };
    let fits = |v: i64| at(v).check_cost().is_ok();
    let best = if fits(hi) {
        hi
    } else if fits(lo) {
        last_true(lo, hi, &fits)
    } else {
        lo
    };
    at(best)
}

/// Sets the number setting `name` of layer `index` of `scene`.
fn set(scene: &mut Scene, index: usize, name: &str, value: f64) {
    match_kind!(&mut scene.layers[index], l => put_number(l, name, value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::{Floor, Racetrack, Ranges, Rocks, Sky};

    /// death-valley's sky, ranges and floor, and `more` on top.
    fn scene(more: Vec<Layer>) -> Scene {
        let mut layers = vec![
            Layer::Sky(Sky::default()),
            Layer::Ranges(Ranges::default()),
            Layer::Floor(Floor::default()),
        ];
        layers.extend(more);
        Scene {
            layers,
            ..Scene::default()
        }
    }

    fn refused(scene: &Scene) -> String {
        scene
            .check_cost()
            .expect_err("the scene is over the limit")
            .to_string()
    }

    #[test]
    fn death_valley_is_the_unit_and_the_presets_are_well_within() {
        assert_eq!(Scene::default().cost().ratio(), 1.0);
        for preset in super::super::presets::PRESETS {
            let ratio = preset.scene().unwrap().cost().ratio();
            assert!(ratio < LIMIT / 2.0, "{}: {ratio}", preset.name);
        }
    }

    /// The scenes: a Racetrack of 300 large stones, 29 of them
    /// half opaque, 29 layers of tall plants. Each is refused in one line
    /// naming its layers and what to lower.
    #[test]
    fn a_costly_scene_is_refused_naming_its_layers_and_what_to_lower() {
        let big = Layer::Racetrack(Racetrack {
            stones: 300,
            size: 2.0,
            ..Racetrack::default()
        });
        let message = refused(&scene(vec![big.clone()]));
        assert!(
            message.starts_with("the scene would take about ")
                && message.contains("its racetrack layer costs most")
                && message.ends_with("lower its stones, stone size or trail"),
            "{message}"
        );
        let half = Layer::Racetrack(Racetrack {
            opacity: 0.5,
            stones: 300,
            size: 2.0,
            ..Racetrack::default()
        });
        let mut many = scene(vec![half; 29]);
        many.wind = 250.0;
        let message = refused(&many);
        assert!(
            message.contains("its 29 racetrack layers cost most")
                && message.ends_with("lower their stones, stone size or trail, or remove some"),
            "{message}"
        );
        let plants = Layer::Plants(Plants {
            creosote: 1.0,
            clumped: 1.0,
            joshua: 64,
            height: 10.0,
            near_size: 0.3,
            far_size: 0.3,
            ..Plants::default()
        });
        let message = refused(&scene(vec![plants; 29]));
        assert!(
            message.contains("its 29 plants layers cost most"),
            "{message}"
        );
        for message in [refused(&many), refused(&scene(vec![big]))] {
            assert!(!message.contains('\n'), "{message}");
        }
    }

    /// Opaque layers hide the work of those under them, as the compositor
    /// skips it: a stack of opaque floors costs one floor.
    #[test]
    fn what_an_opaque_layer_hides_costs_nothing() {
        let opaque = scene(vec![Layer::Racetrack(Racetrack::default()); 29]);
        let half = scene(vec![
            Layer::Racetrack(Racetrack {
                opacity: 0.5,
                ..Racetrack::default()
            });
            29
        ]);
        assert!(opaque.check_cost().is_ok());
        assert!(half.check_cost().is_err());
        let cost = opaque.cost();
        // The floor and every Racetrack but the top one are hidden.
        assert!(
            cost.layers[2..cost.layers.len() - 1]
                .iter()
                .all(|&ms| ms == 0.0)
        );
    }

    /// The stones' count is bounded by the grid's cells first; a scene
    /// that bound puts over the limit has its automaton run, and passes
    /// when its live cells are few. An automaton too costly to run is
    /// refused as such.
    #[test]
    fn the_automaton_is_run_only_when_its_bound_is_over_the_limit() {
        let mut wide = scene(vec![Layer::Rocks(Rocks::default())]);
        wide.automaton.columns = super::super::MAX_COLUMNS;
        let (cols, rows) = wide.grid_size();
        assert!(estimate(&wide, (cols * rows) as f64).ratio() > LIMIT);
        assert!(
            wide.check_cost().is_ok(),
            "Life thins its soup to few stones"
        );
        let mut long = scene(vec![]);
        (long.automaton.columns, long.aspect) = (super::super::MAX_COLUMNS, 1.0);
        long.automaton.generations = super::super::MAX_GENERATIONS;
        let message = refused(&long);
        assert!(
            message.contains("its automaton's run costs most")
                && message.ends_with("lower its columns or generations"),
            "{message}"
        );
    }

    /// Each of the worst scenes is within the limit, and one more step of
    /// what it pushes is not.
    #[test]
    fn the_worst_scenes_are_at_the_limit() {
        let worst = worst_scenes();
        assert_eq!(worst.len(), 8);
        for (name, scene) in &worst {
            let ratio = scene.cost().ratio();
            assert!((LIMIT * 0.8..=LIMIT).contains(&ratio), "{name}: {ratio}");
        }
        let (_, racetrack) = &worst[0];
        let Some(Layer::Racetrack(r)) = racetrack.layers.last() else {
            panic!("a racetrack last")
        };
        let mut larger = racetrack.clone();
        let i = larger.layers.len() - 1;
        set(&mut larger, i, "size", f64::from(r.size) + 0.001);
        assert!(larger.check_cost().is_err());
    }

    /// The sliders' ranges: a Racetrack of 300 stones may grow its stones
    /// only so far; within that range the scene passes, one step past it
    /// does not; settings that cost nothing keep their whole range.
    #[test]
    fn affordable_ranges_end_at_the_limit() {
        let s = scene(vec![Layer::Racetrack(Racetrack {
            stones: 300,
            ..Racetrack::default()
        })]);
        let narrowed = s.affordable(3);
        let size = narrowed
            .iter()
            .find(|a| a.name == "size")
            .expect("the stones' size is narrowed");
        assert!(size.max > 0.3 && size.max < 2.0, "{size:?}");
        assert!(narrowed.iter().all(|a| a.name != "cracks"));
        for (value, fits) in [(size.max, true), (size.max + 0.001, false)] {
            let mut t = s.clone();
            set(&mut t, 3, "size", value);
            assert_eq!(t.check_cost().is_ok(), fits, "size {value}");
        }
        // Of the sky, only its stars cost enough to narrow.
        let sky: Vec<&str> = s.affordable(0).iter().map(|a| a.name).collect();
        assert_eq!(sky, ["stars"]);
    }
}
