//! The README's and the guide's examples, run as a reader runs them.
//!
//! Every ```` ```console ```` block of README.md and of docs/GUIDE.md is an
//! example: a line `$ COMMAND` (continued on the next line after a trailing
//! `\`) is run by bash, and the lines under it, up to the next `$`, are its
//! documented output (stdout and stderr as a terminal shows them), matched
//! with snapbox's wildcards: `[..]` for part of a line, `...` on a line of its
//! own for any lines. A command with no lines under it has its output
//! unchecked. Every command must succeed, unless the next one is `echo $?`,
//! whose documented output is then the command's exit status.
//!
//! Each file is a test of its own. Its blocks run in order in one folder
//! holding only a copy of `assets/`'s pictures (as a clone of the repository
//! does), with the built `playa` first on the PATH, no display, and a home and
//! config folder of their own, so one example may use a file an earlier one
//! of the same file made (`ls` shows what an example wrote). A few commands
//! cannot run here (a file's `skipped`: they build, serve or need a cluster)
//! and a few run smaller than written (its `smaller`); every entry of both
//! must be used, so neither list outlives the text. Any other fenced shell
//! block (`sh`, `bash`, `shell`) is an error: an example a file shows is an
//! example this test runs. A file must run at least its `at_least` commands,
//! so that a file whose examples are gone, or no longer found, fails.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// A file of examples, and what its run needs to know.
struct Doc {
    /// The file, from the repository's root.
    path: &'static str,
    /// Commands that cannot run in a test, by how they begin, with where they
    /// are tested instead. A block with one of them is not run at all.
    skipped: &'static [(&'static str, &'static str)],
    /// Sizes and counts written for a reader's machine, and what this test
    /// runs instead: the same command, smaller.
    smaller: &'static [(&'static str, &'static str)],
    /// The fewest commands a run of the file may count.
    at_least: usize,
}

const README: Doc = Doc {
    path: "README.md",
    skipped: &[
        ("cargo ", "CI runs `cargo test --release` itself"),
        ("web/build.sh", "tests/it/web.rs builds and opens the site"),
        ("python3 -m http.server", "serves until stopped"),
    ],
    smaller: &[],
    at_least: 5,
};

const GUIDE: Doc = Doc {
    path: "docs/GUIDE.md",
    skipped: &[
        (
            "docker ",
            "images cannot be pulled here; tests/it/deploy.rs checks the files",
        ),
        (
            "kubectl ",
            "no cluster; tests/it/deploy.rs checks the Job's shape",
        ),
        (
            "jobid=$(sbatch",
            "tests/it/slurm.rs runs the script on a one-node Slurm",
        ),
    ],
    smaller: &[
        ("--size 32768x18432", "--size 1024x576"),
        ("--size 65536x36864", "--size 2048x1152"),
        ("--seeds 0..10000", "--seeds 0..3"),
        ("/shared/batch", "shared/batch"),
        (
            "--frames 0..240 --size 3840x2160",
            "--frames 0..12 --size 320x180",
        ),
    ],
    at_least: 30,
};

/// An example: a command, where it is, and what its file says it prints.
struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// A file's console blocks, each a list of examples; `path` names the file
/// in messages.
fn console_blocks(path: &str, text: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    while let Some((at, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let language = info.split([' ', ',', '{']).next().unwrap_or("");
        assert!(
            !matches!(language, "sh" | "bash" | "shell" | "zsh"),
            "{path}:{at}: a ```{language} block; write examples as ```console \
             (`$ command` and its output) so that this test runs them, or as ```text"
        );
        let body: Vec<(usize, &str)> = lines
            .by_ref()
            .take_while(|(_, l)| !l.trim_start().starts_with("```"))
            .collect();
        if language != "console" {
            continue;
        }
        let mut block: Vec<Example> = Vec::new();
        let mut continued = false;
        for (n, text) in body {
            if continued {
                let example = block.last_mut().expect("a continued command");
                example.command.push('\n');
                example.command.push_str(text);
                continued = text.ends_with('\\');
            } else if let Some(command) = text.strip_prefix("$ ") {
                block.push(Example {
                    line: n,
                    command: command.to_string(),
                    expected: Vec::new(),
                });
                continued = command.ends_with('\\');
            } else {
                let example = block.last_mut().unwrap_or_else(|| {
                    panic!("{path}:{n}: output before any `$ command` in a console block")
                });
                example.expected.push(text.to_string());
            }
        }
        blocks.push(block);
    }
    blocks
}

/// Runs `command` with bash in `dir`, returning its exit status and what it
/// printed (stderr merged into stdout, as a terminal shows them).
fn run(command: &str, dir: &Path, bin: &Path) -> (i32, String) {
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut shell = Command::new("bash");
    shell
        .args(["-c", &format!("set -o pipefail; exec 2>&1\n{command}")])
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .env("PATH", path)
        .env("HOME", dir.join(".home"))
        .env("PLAYA_CONFIG_DIR", dir.join(".config"))
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C")
        // A Kubernetes Indexed Job's first task, for the examples of
        // `--shard auto` (`--shards N` gives the count, else PLAYA_SHARDS).
        .env("JOB_COMPLETION_INDEX", "0")
        .env("PLAYA_SHARDS", "1");
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key == "DISPLAY"
            || key == "WAYLAND_DISPLAY"
            || key.starts_with("PLAYA_WEB")
            || key.starts_with("SLURM_")
            || key.starts_with("AWS_BATCH_")
        {
            shell.env_remove(&*key);
        }
    }
    let out = shell.output().expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

/// A preset the guide's "Keeping scenes" example renders by name, as if
/// the reader had saved it with the app's "Save as preset…".
fn save_user_preset(config: &Path) {
    let presets = config.join("presets");
    std::fs::create_dir_all(&presets).unwrap();
    std::fs::write(
        presets.join("evening dunes.ron"),
        "(seed: 3, time: Dusk, automaton: (density: 0.7))\n",
    )
    .unwrap();
}

#[test]
fn every_example_in_the_readme_does_what_it_says() {
    check_examples(&README);
}

#[test]
fn every_example_in_the_guide_does_what_it_says() {
    check_examples(&GUIDE);
}

/// Runs every example of `doc` in a folder of its own and panics with each
/// that does not hold, named by file and line.
fn check_examples(doc: &Doc) {
    let path = doc.path;
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let bin = Path::new(env!("CARGO_BIN_EXE_playa"))
        .parent()
        .unwrap()
        .to_path_buf();
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path();
    std::fs::create_dir_all(dir.join(".home")).unwrap();
    save_user_preset(&dir.join(".config"));
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    for entry in std::fs::read_dir(&assets).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "png") {
            std::fs::copy(&path, dir.join("assets").join(path.file_name().unwrap())).unwrap();
        }
    }

    let mut skipped_used: HashMap<&str, usize> = HashMap::new();
    let mut smaller_used: HashMap<&str, usize> = HashMap::new();
    let mut failures = Vec::new();
    let mut ran = 0;
    for block in console_blocks(path, &text) {
        let mut skip = false;
        for example in &block {
            for (start, _) in doc.skipped {
                if example.command.trim_start().starts_with(start) {
                    *skipped_used.entry(start).or_default() += 1;
                    skip = true;
                }
            }
        }
        if skip {
            continue;
        }
        let mut last_status = 0;
        for (i, example) in block.iter().enumerate() {
            let mut command = example.command.clone();
            for (from, to) in doc.smaller {
                if command.contains(from) {
                    command = command.replace(from, to);
                    *smaller_used.entry(from).or_default() += 1;
                }
            }
            let (status, output) = if command == "echo $?" {
                (0, format!("{last_status}\n"))
            } else {
                ran += 1;
                run(&command, dir, &bin)
            };
            let checked = block
                .get(i + 1)
                .is_some_and(|next| next.command == "echo $?");
            if status != 0 && !checked {
                failures.push(format!(
                    "{path}:{}: `{}` exited {status} (an example that fails is followed \
                     by `echo $?` and its status):\n{output}",
                    example.line, example.command
                ));
            }
            last_status = status;
            if !example.expected.is_empty() {
                let expected = example.expected.join("\n") + "\n";
                let name = format!("{path}:{}: `{}`", example.line, example.command);
                if let Err(e) = snapbox::Assert::new().try_eq(
                    Some(&name),
                    snapbox::Data::text(output),
                    snapbox::Data::text(expected),
                ) {
                    failures.push(format!("{e}"));
                }
            }
        }
    }
    for (start, why) in doc.skipped {
        if !skipped_used.contains_key(start) {
            failures.push(format!(
                "{path}: skipped's `{start}` ({why}) matches no example: remove it"
            ));
        }
    }
    for (from, _) in doc.smaller {
        if !smaller_used.contains_key(from) {
            failures.push(format!(
                "{path}: smaller's `{from}` matches no example: remove it"
            ));
        }
    }
    if ran < doc.at_least {
        failures.push(format!(
            "only {ran} of {path}'s commands ran, fewer than its {}: are its ```console \
             blocks gone?",
            doc.at_least
        ));
    }
    assert!(
        failures.is_empty(),
        "{} example(s) of {path} do not hold:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
