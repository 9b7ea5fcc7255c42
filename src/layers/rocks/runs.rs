//! What the occlusion pass hands the shaders: runs of pixels of a stone's
//! row, each with what its shader needs of the row's outline.

/// What the body shader needs of a row's outline ([`RowFit`]): the row's
/// place in the stone, its centre and its inverse radii, left and right.
///
/// [`RowFit`]: super::outline::RowFit
#[derive(Clone, Copy)]
pub(super) struct BodyRow {
    /// The row's place in the stone: -1 at the top, 1 at the foot.
    pub(super) nv: f32,
    /// The outline's centre column on the row.
    pub(super) cx: f32,
    /// 1 / the outline's radius on the row, left and right.
    pub(super) inv: [f32; 2],
}

/// What the shadow shader needs of a row of the shadow's outline.
#[derive(Clone, Copy)]
pub(super) struct ShadowRow {
    /// 1 / the shadow outline's radius on the row, left and right.
    pub(super) sinv: [f32; 2],
    /// The square of the row's place in the shadow (-1 top to 1 bottom).
    pub(super) sdy2: f32,
}

/// A run of pixels of one stone's row to draw: of its contact shadow or
/// of its body, columns `a..b` of row `y`.
#[derive(Clone, Copy)]
pub(super) struct Run {
    /// The stone, in [`BandScratch::stones`].
    pub(super) stone: u32,
    /// Its pixel row.
    pub(super) y: u32,
    /// The first column of the run.
    pub(super) a: u32,
    /// The column after the run's last.
    pub(super) b: u32,
    /// Body or shadow, with the row's outline there.
    pub(super) part: Part,
}

/// What a [`Run`] draws, with its row's outline as worked out when the
/// run was found (not again for each run, nor when drawn).
#[derive(Clone, Copy)]
pub(super) enum Part {
    /// The body.
    Body(BodyRow),
    /// The contact shadow, with the row's outline: its inverse radii,
    /// left and right, and the square of its place (`sdy`) in the shadow.
    Shadow(ShadowRow),
}
