#![cfg(feature = "app")]
//! The real window under Xvfb: it opens, shows the sky, and the dice (click
//! and key) changes the picture. See `.ci/window-smoke.sh`; screenshots are
//! kept in the target folder's `smoke/` (`target/smoke/` by default).
//!
//! It needs Xvfb, xdotool and ImageMagick, so it is `#[ignore]`d: a plain
//! `cargo test` lists it as ignored with what it needs. `.ci/run` installs
//! them and runs it with `-- --ignored`; run that way without them, it fails
//! naming what is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `target/smoke`, next to the test binaries' temporary folder.
fn smoke_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("smoke")
}

#[test]
#[ignore = "needs Xvfb, xdotool and ImageMagick; .ci/run runs it"]
fn window_opens_shows_the_scene_and_the_dice_changes_it() {
    let missing: Vec<&str> = ["xvfb-run", "xdotool", "/usr/bin/import", "/usr/bin/compare"]
        .into_iter()
        .filter(|t| !have(t))
        .collect();
    assert!(
        missing.is_empty(),
        "the window smoke test cannot run: missing {} (.ci/run installs \
         xvfb, xdotool and imagemagick)",
        missing.join(", ")
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/window-smoke.sh");
    let out = smoke_dir();
    let mut child = Command::new("bash")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_playa"))
        .arg(&out)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("DISPLAY")
        .spawn()
        .expect("bash runs the smoke script");
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the window smoke test did not finish within 180 s");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(
        status.success(),
        "window smoke test failed ({status}); screenshots and app log in {}",
        out.display()
    );
}
