//! `deploy/`: the Kubernetes manifest is valid YAML for an Indexed Job whose
//! pods each render a shard, the Slurm script runs an array of shards, and
//! the Dockerfile builds the headless command line into a non-root image.

use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn the_kubernetes_job_is_indexed_and_shards_by_its_index() {
    let job: serde_norway::Value = serde_norway::from_str(&read("deploy/kubernetes-job.yaml"))
        .expect("deploy/kubernetes-job.yaml parses");
    assert_eq!(job["apiVersion"].as_str(), Some("batch/v1"));
    assert_eq!(job["kind"].as_str(), Some("Job"));
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let completions = spec["completions"].as_u64().expect("completions");
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["securityContext"]["runAsNonRoot"].as_bool(), Some(true));
    let container = &pod["containers"][0];
    let args: Vec<&str> = container["args"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|a| a.as_str().expect("string arguments"))
        .collect();
    assert_eq!(args[0], "render");
    assert!(
        args.windows(2).any(|w| w == ["--shard", "auto"]),
        "{args:?}"
    );
    // Kubernetes gives the index only: the count must be the completions.
    let shards = container["env"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|e| e["name"].as_str() == Some("PLAYA_SHARDS"))
        .and_then(|e| e["value"].as_str())
        .expect("PLAYA_SHARDS");
    assert_eq!(shards.parse::<u64>().unwrap(), completions);
}

/// The script runs on a real scheduler in `tests/it/slurm.rs`; here, what a
/// user reads: the batch and the array size come from the command line.
#[test]
fn the_slurm_script_takes_its_batch_from_the_command_line() {
    let script = read("deploy/slurm-array.sbatch");
    assert!(script.starts_with("#!/bin/bash\n"));
    assert!(!script.contains("#SBATCH --array"), "{script}");
    assert!(!script.contains("#SBATCH --cpus-per-task"), "{script}");
    assert!(script.contains("sbatch --array=1-N"), "{script}");
    assert!(script.contains("--shard auto"), "{script}");
}

#[test]
fn the_image_is_multi_stage_headless_and_not_root() {
    let dockerfile = read("deploy/Dockerfile");
    let stages = dockerfile
        .lines()
        .filter(|l| l.starts_with("FROM "))
        .count();
    assert_eq!(stages, 2, "{dockerfile}");
    assert!(dockerfile.contains("--no-default-features"), "{dockerfile}");
    let user = dockerfile
        .lines()
        .rfind(|l| l.starts_with("USER "))
        .expect("a USER line");
    assert!(!user.contains("root") && !user.contains(" 0"), "{user}");
}
