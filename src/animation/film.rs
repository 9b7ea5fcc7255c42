//! An animation ready to be made: a checked scene, options and size, and
//! its frames drawn from the automaton's generations.

use image::RgbaImage;

use super::Options;
use super::cells::{cells_size, draw_cells};
use crate::compose::{self, Generations, Plan};
use crate::error::{Error, Result};
use crate::scene::Scene;

/// An animation ready to be made: a checked scene, options and size.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// The scene, quantized, its automaton at the last frame's generation.
    pub(super) scene: Scene,
    /// The options, quantized and checked.
    pub(super) options: Options,
    /// Width of the frames, in pixels.
    pub(super) width: u32,
    /// Height of the frames, in pixels.
    pub(super) height: u32,
}

impl Animation {
    /// Checks `options` ([`Options::validate`]), the size (as for a
    /// picture) and the scene. `size` is the frames' size: for a bare
    /// automaton ([`Options::cells`]) it must be [`cells_size`].
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
        scene.automaton.generations = options.last;
        scene.validate()?;
        Ok(Animation {
            scene,
            options,
            width,
            height,
        })
    }

    /// The scene, its automaton at the last frame's generation (as the
    /// APNG's recipe records it).
    pub fn scene(&self) -> &Scene {
        &self.scene
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
        self.options.frame_count()
    }

    /// The plans of the frames, in order.
    pub fn generations(&self) -> Result<Generations> {
        Plan::generations(&self.scene, self.options.first, self.options.last)
    }

    /// Draws the frame of `plan` (one of [`Animation::generations`]) into
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

    /// The frame of generation `g` alone.
    pub(super) fn single_frame(&self, g: u32) -> Result<RgbaImage> {
        let plan = Plan::generations(&self.scene, g, g)?
            .next()
            .expect("one generation");
        self.frame(&plan)
    }
}
