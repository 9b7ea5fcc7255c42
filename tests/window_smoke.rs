#![cfg(feature = "app")]
//! The real window under Xvfb: it opens, shows the sky, and the dice (click
//! and key) changes the picture. See `.ci/window-smoke.sh`; screenshots are
//! kept in `target/smoke/`.
//!
//! Without `xvfb-run` the test is skipped with a note, unless `CI` is set
//! (then it fails: CI must run it).

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
fn window_opens_shows_the_scene_and_the_dice_changes_it() {
    let missing: Vec<&str> = ["xvfb-run", "xdotool", "/usr/bin/import", "/usr/bin/compare"]
        .into_iter()
        .filter(|t| !have(t))
        .collect();
    if !missing.is_empty() {
        let note = format!("window smoke test needs {}", missing.join(", "));
        assert!(std::env::var_os("CI").is_none(), "{note} (CI is set)");
        eprintln!("skipped: {note}; run .ci/run to install them");
        return;
    }
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
