//! The integration tests, as one crate (one build, one link) with a
//! module per part: the app under egui_kittest (`app*`), the `playa`
//! binary end to end (`cli_*`), hostile input, the pinned pictures and
//! share codes, the docs' examples, and the tests that need a tool
//! installed (`web`, `slurm`, `tiles`, `window_smoke`: ignored, each
//! saying what it needs). Run one part with `cargo test --release --test
//! it -- render::`.

mod common;

mod app;
mod app_controls;
mod app_export;
mod app_export_dialog;
mod app_fields;
mod app_phone;
mod app_presets;
mod app_scene;
mod app_variations;
mod app_view;
mod architecture;
mod bad_input;
mod cli_animate;
mod cli_animate_frames;
mod cli_animate_sweep;
mod cli_life;
mod cli_manifest;
mod cli_pipe;
mod cli_presets;
mod cli_random;
mod cli_render;
mod cli_set;
mod cli_shard;
mod cli_share;
mod cli_sheet;
mod deploy;
mod hostile;
mod hostile_folders;
mod life;
mod new_scene;
mod readme;
mod render;
mod scene_ron;
mod share_pins;
mod slurm;
mod tiles;
mod traits;
mod traits_show;
mod web;
mod window;
mod window_smoke;
