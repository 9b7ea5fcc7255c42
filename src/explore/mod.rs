//! Exploring: new scenes and variations of one, settings set by name, and
//! many scenes side by side.
//!
//! New scene and Vary ([`randomize`], driven by each setting's `Roll`), the
//! variations grid's candidates ([`variations`]), settings set by name and
//! swept over a range ([`tweak`]: `rocks.roughness=0.8`,
//! `tent.x=0.2..0.8:5`), and contact sheets ([`sheet`]).
//!
//! Architecture invariant: explore uses the scene, compose, share and
//! output (and what they use); nothing below it uses explore. The front
//! ends use it.

pub mod keepers;
pub mod randomize;
pub mod sheet;
pub mod tweak;
pub mod variations;
