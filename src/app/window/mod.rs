//! The window and its panels: the side panel of controls ([`controls`]),
//! the forms drawn from the settings tables ([`form`], [`layers`]), the
//! phone layout of a narrow browser ([`phone`]) and the faces the text is
//! drawn in ([`fonts`]).
//!
//! Architecture invariant: a panel edits the scene in place and sends what
//! needs the app up as [`crate::app::event::Event`]s; no panel uses another
//! panel's events.

pub mod controls;
pub mod fonts;
pub mod form;
pub mod layers;
pub mod phone;
