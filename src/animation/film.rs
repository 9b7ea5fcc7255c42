//! An animation ready to be made: a checked scene, options and size, and
//! its frames drawn from the automaton's generations or from the values of
//! one setting's sweep.

use image::RgbaImage;

use super::Options;
use super::cells::{cells_size, draw_cells};
use crate::compose::{self, Generations, Plan};
use crate::error::{Error, Result};
use crate::explore::tweak::Tweak;
use crate::scene::Scene;

/// Most frames of a sweep a GIF's palette is cut from.
const PALETTE_SAMPLES: usize = 7;

/// An animation ready to be made: a checked scene, options and size.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// The scene of the last frame, quantized: its automaton at the last
    /// frame's generation, or its swept setting at the sweep's last value.
    /// The frames are drawn from it.
    pub(super) last: Scene,
    /// A sweep's: the scene it started from, which the file records
    /// ([`Animation::scene`]); the generations' file records `last`.
    start: Option<Scene>,
    /// The options, quantized and checked.
    pub(super) options: Options,
    /// The options' sweep, read ([`Options::sweep`]).
    sweep: Option<Tweak>,
    /// Width of the frames, in pixels.
    pub(super) width: u32,
    /// Height of the frames, in pixels.
    pub(super) height: u32,
}

impl Animation {
    /// Checks `options` ([`Options::validate`]), the size (as for a
    /// picture) and the scene (of every frame, with a sweep). `size` is
    /// the frames' size: for a bare automaton ([`Options::cells`]) it must
    /// be [`cells_size`].
    pub fn new(scene: &Scene, options: &Options, (width, height): (u32, u32)) -> Result<Animation> {
        let options = options.quantized();
        options.validate()?;
        compose::check_size(width, height)?;
        if let Some(scale) = options.cells {
            let (w, h) = cells_size(scene, scale);
            if (w, h) != (width, height) {
                return Err(Error::out_of_range(
                    "picture size",
                    format!("{width}x{height}"),
                    format!("the grid's cells at {scale} pixels each make {w}x{h}"),
                ));
            }
        }
        let mut scene = scene.quantized();
        let start = scene.clone();
        let sweep = options.sweep.as_ref().map(|s| s.tweak()).transpose()?;
        match &sweep {
            // Every frame is checked, so that drawing them cannot fail on
            // a value; the scene kept is the last frame's.
            Some(tweak) => {
                for k in 0..tweak.len() {
                    tweak.apply(&mut scene, k)?;
                    scene.validate()?;
                }
            }
            None => {
                scene.automaton.generations = options.last;
                scene.validate()?;
            }
        }
        Ok(Animation {
            start: sweep.is_some().then_some(start),
            last: scene,
            options,
            sweep,
            width,
            height,
        })
    }

    /// The scene the animation is made of, as its file records it: for
    /// the generations, the last frame's (its automaton at the last
    /// generation); for a sweep, the scene the sweep started from, so that
    /// the file, its sweep applied again, makes itself again. Either way
    /// `Animation::new` of it and the options makes the same frames.
    pub fn scene(&self) -> &Scene {
        self.start.as_ref().unwrap_or(&self.last)
    }

    /// The options (quantized).
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Width and height of the frames.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Number of frames.
    pub fn frame_count(&self) -> usize {
        match &self.sweep {
            Some(tweak) => tweak.len(),
            None => self.options.frame_count(),
        }
    }

    /// What frame `k` shows, as a label: `generation 4`, `time=17.5`.
    pub fn frame_label(&self, k: usize) -> String {
        match &self.sweep {
            Some(tweak) => format!("{}={}", tweak.key(), tweak.value_text(k)),
            None => format!("generation {}", self.options.first as usize + k),
        }
    }

    /// The scene of frame `k`: with its automaton stopped at the frame's
    /// generation, or its swept setting at the sweep's value `k`.
    pub fn frame_scene(&self, k: usize) -> Scene {
        let mut scene = self.last.clone();
        match &self.sweep {
            Some(tweak) => {
                // Checked for every value in `new`.
                let _ = tweak.apply(&mut scene, k);
            }
            None => scene.automaton.generations = self.options.first + k as u32,
        }
        scene
    }

    /// The plans of the frames, in order.
    pub fn plans(&self) -> Result<Plans> {
        Ok(match &self.sweep {
            None => Plans::Generations(Plan::generations(
                &self.last,
                self.options.first,
                self.options.last,
            )?),
            Some(_) => Plans::Sweep {
                animation: Box::new(self.clone()),
                next: 0,
                before: None,
            },
        })
    }

    /// Draws the frame of `plan` (one of [`Animation::plans`]) into
    /// `image`, which must have the animation's size.
    pub fn draw(&self, plan: &Plan, image: &mut RgbaImage) -> Result<()> {
        match self.options.cells {
            None => plan.render_into(image),
            Some(scale) => {
                draw_cells(plan.grid(), scale, image);
                Ok(())
            }
        }
    }

    /// A new frame of the animation's size.
    pub(super) fn frame(&self, plan: &Plan) -> Result<RgbaImage> {
        let mut image = RgbaImage::new(self.width, self.height);
        self.draw(plan, &mut image)?;
        Ok(image)
    }

    /// The frames a GIF's palette is cut from, the first first: the first
    /// and the last; of a sweep, whose colours may change all the way (a
    /// day's light), also frames evenly between, [`PALETTE_SAMPLES`] in all
    /// at most.
    pub(super) fn palette_frames(&self) -> Vec<usize> {
        let last = self.frame_count().saturating_sub(1);
        let samples = match self.sweep {
            Some(_) => PALETTE_SAMPLES.min(last + 1),
            None => 2,
        };
        // Distinct for a sweep (2 frames or more, samples at most its
        // frames); a generations' one of one frame samples it twice, as
        // its GIFs always have.
        (0..samples)
            .map(|i| (i * last + (samples - 1) / 2) / (samples - 1))
            .collect()
    }

    /// Frame `k` alone.
    pub(super) fn single_frame(&self, k: usize) -> Result<RgbaImage> {
        let plan = match &self.sweep {
            Some(_) => Plan::new(&self.frame_scene(k))?,
            None => {
                let g = self.options.first + k as u32;
                Plan::generations(&self.last, g, g)?
                    .next()
                    .expect("one generation")
            }
        };
        self.frame(&plan)
    }
}

/// The plans of an animation's frames, in order ([`Animation::plans`]).
pub enum Plans {
    /// The automaton's generations, run once, a generation at a time.
    Generations(Generations),
    /// A sweep's scenes, each planned on its own; the automaton runs again
    /// only when the swept setting changes it ([`Plan::new_after`]).
    Sweep {
        /// The animation, for its frames' scenes.
        animation: Box<Animation>,
        /// The next frame.
        next: usize,
        /// The plan of the frame before, whose grid the next may take.
        before: Option<Plan>,
    },
}

impl Iterator for Plans {
    type Item = Result<Plan>;

    fn next(&mut self) -> Option<Result<Plan>> {
        match self {
            Plans::Generations(generations) => generations.next().map(Ok),
            Plans::Sweep {
                animation,
                next,
                before,
            } => {
                if *next >= animation.frame_count() {
                    return None;
                }
                let scene = animation.frame_scene(*next);
                *next += 1;
                let plan = match before.as_ref() {
                    Some(before) => Plan::new_after(&scene, before),
                    None => Plan::new(&scene),
                };
                if let Ok(plan) = &plan {
                    *before = Some(plan.clone());
                }
                Some(plan)
            }
        }
    }
}
