//! Exploring by looking: the variations grid ([`variations`]) and the
//! small pictures of scenes that the preset picker shows ([`thumbnails`]),
//! each rendered on a worker of its own.

pub mod thumbnails;
pub mod variations;
