//! The browser build, end to end: `web/build.sh` builds the site, a page is
//! served on 127.0.0.1 and opened in headless Chromium with a share code in
//! its address, and the wasm build's pixels are checked against the native
//! pinned hashes (in Node, by wasm-bindgen-test).
//!
//! These need the wasm32 target, wasm-bindgen-cli, Chromium and (for the
//! wasm tests) Node, so they are `#[ignore]`d: a plain `cargo test` lists
//! them as ignored with what they need. `.ci/run` installs the tools and
//! runs them with `-- --ignored`; run that way without a tool, a test fails
//! naming it. The site is built into the target folder's `web/`
//! (`CARGO_TARGET_DIR`, `target/` by default); screenshots are kept in its
//! `web-shots/`, and the page at a phone's and a desktop's size, for people
//! to look at, in its `screenshots/`.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The target folder these tests were built in (`CARGO_TARGET_DIR`,
/// `target/` by default): the parent of the `tmp/` cargo gives them.
fn target_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).to_path_buf()
}

/// The tools the tests need; [`require`] checks a test's.
#[derive(Clone, Copy, PartialEq)]
enum Tool {
    /// The wasm32-unknown-unknown target, wasm-bindgen-cli and Chromium:
    /// the site, built and opened.
    Browser,
    /// The wasm32 target, wasm-bindgen-cli (its test runner) and Node: the
    /// wasm tests.
    Node,
}

/// Fails the test, naming what is missing, unless `tool`'s tools are
/// installed: an ignored test run on purpose (`-- --ignored`) must run.
fn require(tool: Tool) {
    let has = |cmd: &str| {
        Command::new(cmd)
            .arg("--version")
            .stdin(std::process::Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let target = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"));
    let mut missing = Vec::new();
    if !target {
        missing.push("the wasm32-unknown-unknown target (rustup target add)");
    }
    if !has("wasm-bindgen") {
        missing.push("wasm-bindgen-cli (cargo install, at Cargo.lock's version)");
    }
    if tool == Tool::Browser && !has("chromium") {
        missing.push("chromium (apt install chromium)");
    }
    if tool == Tool::Node && !has("node") {
        missing.push("node (Node.js)");
    }
    assert!(
        missing.is_empty(),
        "tests/it/web.rs cannot run: missing {} (.ci/run installs them)",
        missing.join(", ")
    );
}

/// Builds the site once per test run (both tests may ask).
fn build_site() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let status = Command::new("bash")
                .arg(root().join("web/build.sh"))
                // Into this build's target folder, wherever it is.
                .env("CARGO_TARGET_DIR", target_dir())
                // Nothing may read the test's own input (a background run's
                // stdin is not ours to give to rustc or Chromium).
                .stdin(std::process::Stdio::null())
                .status()
                .expect("web/build.sh runs");
            assert!(status.success(), "web/build.sh failed");
            target_dir().join("web")
        })
        .clone()
}

/// Serves the files of `dir` on 127.0.0.1 (a port of the system's
/// choosing) from a background thread; returns the address.
fn serve(dir: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let mut stream = stream;
                let mut line = String::new();
                let mut reader = BufReader::new(&stream);
                if reader.read_line(&mut line).is_err() {
                    return;
                }
                // The rest of the request head.
                let mut header = String::new();
                while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                    header.clear();
                }
                let path = line.split_whitespace().nth(1).unwrap_or("/");
                let path = path.split(['?', '#']).next().unwrap_or("/");
                let name = match path.trim_start_matches('/') {
                    "" => "index.html",
                    other => other,
                };
                let file = dir.join(name);
                let response = match (name.contains(".."), std::fs::read(&file)) {
                    (false, Ok(body)) => {
                        let kind = match file.extension().and_then(|x| x.to_str()) {
                            Some("html") => "text/html; charset=utf-8",
                            Some("js") => "text/javascript",
                            Some("wasm") => "application/wasm",
                            _ => "application/octet-stream",
                        };
                        let mut r = format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            body.len()
                        )
                        .into_bytes();
                        r.extend_from_slice(&body);
                        r
                    }
                    _ => {
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                            .to_vec()
                    }
                };
                let _ = stream.write_all(&response);
            });
        }
    });
    format!("http://{addr}")
}

/// Headless Chromium with a fresh profile in `profile`, quiet: no
/// first-run pages, no network of its own, no input or output.
fn chromium(profile: &Path) -> Command {
    let mut command = Command::new("chromium");
    command
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        // Nothing may read the test's own input.
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null());
    command
}

/// A screenshot of `url` in headless Chromium in a window of `[width,
/// height]` pixels.
fn screenshot(url: &str, [width, height]: [u32; 2], out: &Path) -> image::RgbImage {
    let profile = tempfile::tempdir().unwrap();
    let _ = std::fs::remove_file(out);
    let mut child = chromium(profile.path())
        .args([
            "--enable-unsafe-swiftshader",
            "--use-angle=swiftshader",
            "--virtual-time-budget=20000",
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", out.display()))
        .arg(url)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("chromium starts");
    let deadline = std::time::Instant::now() + Duration::from_secs(180);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "chromium did not finish"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    image::open(out)
        .unwrap_or_else(|e| panic!("no screenshot of {url}: {e}"))
        .to_rgb8()
}

/// A desktop's window, in pixels.
const DESKTOP: [u32; 2] = [1280, 800];

/// A phone's window, in pixels (CSS pixels, one per point).
const PHONE: [u32; 2] = [390, 844];

/// The mean colour of the preview's sky: a block above the horizon, right
/// of the side panel.
fn sky(shot: &image::RgbImage) -> [f64; 3] {
    let mut sum = [0.0; 3];
    let mut n = 0.0;
    for y in 180..240 {
        for x in 600..700 {
            let p = shot.get_pixel(x, y);
            for c in 0..3 {
                sum[c] += f64::from(p[c]);
            }
            n += 1.0;
        }
    }
    sum.map(|s| s / n)
}

#[test]
#[ignore = "needs Chromium, the wasm32 target and wasm-bindgen-cli; .ci/run runs it"]
fn the_page_opens_the_scene_in_its_link() {
    require(Tool::Browser);
    let site = build_site();
    let base = serve(site);
    let shots = target_dir().join("web-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let code = |preset: &str| playa::share::encode(&playa::scene::presets::load(preset).unwrap());

    let shot = shots.join("night-under-stars.png");
    let night = screenshot(
        &format!("{base}/index.html#{}", code("night-under-stars")),
        DESKTOP,
        &shot,
    );
    let [r, g, b] = sky(&night);
    assert!(
        r < 60.0 && g < 60.0 && b < 90.0,
        "the night link shows no night sky: mean {r:.0},{g:.0},{b:.0} ({})",
        shot.display()
    );

    let shot = shots.join("death-valley.png");
    let day = screenshot(
        &format!("{base}/index.html#{}", code("death-valley")),
        DESKTOP,
        &shot,
    );
    let [r, g, b] = sky(&day);
    assert!(
        b > 150.0 && b > r + 60.0,
        "the default link shows no blue sky: mean {r:.0},{g:.0},{b:.0} ({})",
        shot.display()
    );
}

/// Whether `p` is a blue sky's colour, as [`sky`]'s mean of the default
/// scene is.
fn is_sky(p: &image::Rgb<u8>) -> bool {
    let [r, _, b] = p.0.map(i32::from);
    b > 120 && b > r + 40
}

/// Whether `p` is grey, as the side panel and its widgets are.
fn is_grey(p: &image::Rgb<u8>) -> bool {
    let [r, g, b] = p.0.map(i32::from);
    r.max(g).max(b) - r.min(g).min(b) < 10
}

/// The share of the pixels of `shot` in `xs` × `ys` for which `test`
/// holds.
fn share_of(
    shot: &image::RgbImage,
    xs: std::ops::Range<u32>,
    ys: std::ops::Range<u32>,
    test: fn(&image::Rgb<u8>) -> bool,
) -> f64 {
    let (mut yes, mut all) = (0.0, 0.0);
    for y in ys {
        for x in xs.clone() {
            yes += f64::from(u8::from(test(shot.get_pixel(x, y))));
            all += 1.0;
        }
    }
    yes / all
}

#[test]
#[ignore = "needs Chromium, the wasm32 target and wasm-bindgen-cli; .ci/run runs it"]
fn the_page_fits_a_phone_and_a_desktop() {
    require(Tool::Browser);
    let site = build_site();
    let base = serve(site);
    let shots = target_dir().join("screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let url = format!(
        "{base}/index.html#{}",
        playa::share::encode(&playa::scene::presets::load("death-valley").unwrap())
    );

    // A phone: the picture fills the width, the sky across all of it,
    // where a desktop has its side panel.
    let phone_png = shots.join("phone-390x844.png");
    let phone = screenshot(&url, PHONE, &phone_png);
    assert_eq!(phone.dimensions(), (PHONE[0], PHONE[1]));
    let middle = PHONE[0] / 2;
    let top = (0..PHONE[1] - 40)
        .find(|&y| (y..y + 40).all(|y| is_sky(phone.get_pixel(middle, y))))
        .unwrap_or_else(|| {
            panic!(
                "no sky in the middle of the phone's page ({})",
                phone_png.display()
            )
        });
    let band = top + 4..top + 36;
    let across = share_of(&phone, 0..PHONE[0], band.clone(), is_sky);
    assert!(
        across > 0.97,
        "the sky covers {:.0}% of the phone's width at rows {band:?} ({})",
        across * 100.0,
        phone_png.display()
    );
    // (The sun is white, and there.)
    let grey = share_of(&phone, 0..300, band.clone(), is_grey);
    assert!(
        grey < 0.05,
        "{:.0}% grey where a desktop's side panel is, at rows {band:?} ({})",
        grey * 100.0,
        phone_png.display()
    );

    // A desktop: the side panel on the left, the sky right of it.
    let desktop_png = shots.join("desktop-1280x800.png");
    let desktop = screenshot(&url, DESKTOP, &desktop_png);
    let panel = share_of(&desktop, 0..300, 100..700, is_grey);
    assert!(
        panel > 0.95,
        "the left 300 pixels are {:.0}% grey, not the side panel ({})",
        panel * 100.0,
        desktop_png.display()
    );
    let [r, g, b] = sky(&desktop);
    assert!(
        b > 150.0 && b > r + 60.0,
        "no blue sky right of the panel: mean {r:.0},{g:.0},{b:.0} ({})",
        desktop_png.display()
    );
}

#[test]
#[ignore = "needs Node, the wasm32 target and wasm-bindgen-cli; .ci/run runs it"]
fn the_browser_renders_the_native_bytes() {
    require(Tool::Node);
    // In Node, through wasm-bindgen-test-runner (.cargo/config.toml).
    let status = Command::new(env!("CARGO"))
        .args([
            "test",
            "--profile",
            "web",
            "-p",
            "playa-web",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .current_dir(root())
        // build.sh's wasm folder: the dependencies built once for both.
        .env("CARGO_TARGET_DIR", target_dir().join("wasm"))
        .stdin(std::process::Stdio::null())
        .status()
        .expect("cargo runs");
    assert!(
        status.success(),
        "the wasm tests failed (web/tests/pixels.rs)"
    );
}

/// The console line `RESULT …` that the page at `url` logs, read from
/// headless Chromium in real time (a worker's work does not advance in
/// virtual time); bounded.
fn console_result(url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = chromium(profile.path())
        .args(["--enable-logging=stderr", "--v=0"])
        .arg(url)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(at) = line.find("\"RESULT ") {
                let rest = &line[at + 8..];
                let _ = tx.send(rest[..rest.find('"').unwrap_or(rest.len())].to_string());
            }
        }
    });
    let result = rx.recv_timeout(Duration::from_secs(180));
    let _ = child.kill();
    let _ = child.wait();
    result.expect("the page logged its result within 180 s")
}

#[test]
#[ignore = "needs Chromium, the wasm32 target and wasm-bindgen-cli; .ci/run runs it"]
fn exports_run_in_a_worker_and_make_the_native_bytes() {
    use playa::app::export::job::ExportJob;
    use sha2::Digest;
    require(Tool::Browser);
    let site = build_site();
    // The site and a page that runs the export worker on jobs, as the app
    // does, and logs the length and SHA-256 of each file it gets.
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&site).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let scene = playa::scene::presets::load("golden-hour").unwrap();
    let window = playa::compose::window::Window::crop(scene.aspect, 200, 200).unwrap();
    let options = playa::animation::Options {
        last: 3,
        format: playa::animation::Format::Gif,
        ..playa::animation::Options::default()
    };
    let animation = playa::animation::Animation::new(&scene, &options, (96, 54)).unwrap();
    let jobs = [
        ExportJob::png(&scene, (320, 180), None),
        ExportJob::png(&scene, (200, 200), Some(&window)),
        ExportJob::animation(&animation),
    ];
    let texts: Vec<String> = jobs.iter().map(ExportJob::to_text).collect();
    let page = format!(
        r#"<!doctype html><script type="module">
const jobs = {jobs};
const results = [];
for (const job of jobs) {{
  results.push(await new Promise((done) => {{
    const worker = new Worker("export-worker.js", {{ type: "module" }});
    let progress = 0;
    worker.onmessage = async (e) => {{
      if (e.data.progress !== undefined) {{ progress += 1; return; }}
      if (e.data.error) {{ done("error " + e.data.error); return; }}
      const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", e.data.bytes));
      done(e.data.bytes.length + ":" + [...hash].map((x) => x.toString(16).padStart(2, "0")).join(""));
      worker.terminate();
    }};
    worker.onerror = (e) => done("worker error " + e.message);
    worker.postMessage({{ module: new URL("playa_web_bg.wasm", location.href).href, job }});
  }}));
}}
console.log("RESULT " + results.join(" "));
</script>"#,
        jobs = serde_json::to_string(&texts).unwrap()
    );
    std::fs::write(dir.path().join("worker-test.html"), page).unwrap();
    let url = format!("{}/worker-test.html", serve(dir.path().to_path_buf()));
    let got = console_result(&url);
    let want: Vec<String> = jobs
        .iter()
        .map(|job| {
            let bytes = job.run(|_| {}).unwrap();
            format!("{}:{:x}", bytes.len(), sha2::Sha256::digest(&bytes))
        })
        .collect();
    assert_eq!(got, want.join(" "));
}
