//! Exporting: the one dialog state machine ([`dialog`]: a path, a question
//! before replacing, progress and Cancel, the result) and what differs for
//! each kind of file: a PNG ([`png`]), an animation ([`animation`]) and a
//! scene file ([`scene_file`]); an export as text for the browser's export
//! worker ([`job`]).

pub mod animation;
pub mod dialog;
pub mod job;
pub mod png;
pub mod scene_file;
