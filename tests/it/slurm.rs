//! `deploy/slurm-array.sbatch` on a real Slurm: a one-node cluster started in
//! a temporary folder (munged with a key of its own, slurmctld and slurmd
//! with a `slurm.conf` written for this host's name and CPU count, on free
//! ports), the array submitted with `sbatch --wait` as the script's header
//! says, and its folder compared with the unsharded batch byte for byte.
//! A task cancelled mid-run (`scancel` of one array task) leaves the folder
//! incomplete, and the same array submitted again completes it with
//! nothing lost or made twice.
//!
//! Needs Debian's `slurm-wlm` and `munge`, run as root, so it is
//! `#[ignore]`d: a plain `cargo test` lists it as ignored with what it needs.
//! `.ci/run` installs them and runs it with `-- --ignored`; run that way
//! without them, it fails saying what is missing. The daemons it starts are
//! stopped by their process ids when it ends.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::cli::{pictures, playa_ok, text};

const TOOLS: [&str; 7] = [
    "munged",
    "slurmctld",
    "slurmd",
    "sbatch",
    "squeue",
    "scancel",
    "sinfo",
];

/// Why the cluster cannot run here, if it cannot.
fn missing() -> Option<String> {
    let absent: Vec<&str> = TOOLS
        .into_iter()
        .filter(|t| {
            !["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
                .iter()
                .any(|d| Path::new(d).join(t).exists())
        })
        .collect();
    if !absent.is_empty() {
        return Some(format!(
            "{} not installed (apt install slurm-wlm munge)",
            absent.join(", ")
        ));
    }
    let uid = Command::new("id").arg("-u").output().ok()?;
    (text(&uid.stdout).trim() != "0").then(|| "not running as root".to_string())
}

/// A one-node Slurm cluster of its own: its daemons, stopped (by their
/// process ids) when it is dropped.
struct Cluster {
    dir: tempfile::TempDir,
    daemons: Vec<Child>,
}

impl Cluster {
    fn start() -> Cluster {
        let dir = tempfile::Builder::new()
            .prefix("playa-slurm")
            .tempdir()
            .unwrap();
        let d = dir.path();
        for sub in ["munge", "state", "spool", "log", "work"] {
            std::fs::create_dir(d.join(sub)).unwrap();
        }
        // munged checks its key's and folders' modes.
        use std::os::unix::fs::PermissionsExt;
        let key = d.join("munge/munge.key");
        std::fs::write(&key, random_key()).unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o400)).unwrap();
        std::fs::set_permissions(d.join("munge"), std::fs::Permissions::from_mode(0o711)).unwrap();
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        let socket = d.join("munge/munge.socket");
        let mut cluster = Cluster {
            dir,
            daemons: Vec::new(),
        };
        let d = cluster.dir.path().to_path_buf();
        cluster.spawn(
            Command::new("munged")
                .args(["--foreground", "--force"])
                .arg(format!("--key-file={}", key.display()))
                .arg(format!("--socket={}", socket.display()))
                .arg(format!(
                    "--pid-file={}",
                    d.join("munge/munged.pid").display()
                ))
                .arg(format!("--log-file={}", d.join("log/munged.log").display()))
                .arg(format!("--seed-file={}", d.join("munge/seed").display())),
            "munged",
        );
        wait_for("munged's socket", Duration::from_secs(10), || {
            socket.exists().then_some(())
        });
        std::fs::write(cluster.conf(), slurm_conf(&d, &socket)).unwrap();
        let conf = cluster.conf();
        cluster.spawn(
            Command::new("slurmctld")
                .args(["-D", "-i", "-f"])
                .arg(&conf),
            "slurmctld",
        );
        cluster.spawn(
            Command::new("slurmd").args(["-D", "-f"]).arg(&conf),
            "slurmd",
        );
        wait_for("the node to be idle", Duration::from_secs(60), || {
            let o = cluster.run("sinfo", &["-h", "-o", "%t"]);
            (text(&o.stdout).trim() == "idle").then_some(())
        });
        cluster
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    fn spawn(&mut self, command: &mut Command, name: &str) {
        let log = std::fs::File::create(self.dir.path().join(format!("log/{name}.out"))).unwrap();
        let child = command
            .env("SLURM_CONF", self.conf())
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{name} does not start: {e}"));
        self.daemons.push(child);
    }

    /// A Slurm command against this cluster, run in its work folder, with
    /// `playa` on the PATH (the script finds it there, as on a cluster).
    fn command(&self, tool: &str) -> Command {
        let mut c = Command::new(tool);
        let bin = Path::new(env!("CARGO_BIN_EXE_playa")).parent().unwrap();
        let path = std::env::var("PATH").unwrap_or_default();
        c.env("SLURM_CONF", self.conf())
            .env("PATH", format!("{}:{path}", bin.display()))
            .env_remove("PLAYA")
            .env_remove("PLAYA_OUT")
            .current_dir(self.work())
            .stdin(Stdio::null());
        for v in crate::common::cli::SCHEDULER_VARS {
            c.env_remove(v);
        }
        c
    }

    fn run(&self, tool: &str, args: &[&str]) -> Output {
        self.command(tool)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{tool} does not run: {e}"))
    }

    fn run_ok(&self, tool: &str, args: &[&str]) -> Output {
        let o = self.run(tool, args);
        assert!(
            o.status.success(),
            "{tool} {args:?}: {}{}\n{}",
            text(&o.stdout),
            text(&o.stderr),
            self.logs()
        );
        o
    }

    /// The daemons' and the tasks' logs, for a failure's message.
    fn logs(&self) -> String {
        let mut all = String::new();
        for dir in [self.dir.path().join("log"), self.work()] {
            for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "log" || x == "out") {
                    let t = std::fs::read_to_string(&p).unwrap_or_default();
                    let tail: Vec<&str> = t.lines().rev().take(15).collect();
                    all += &format!("--- {}\n", p.display());
                    for l in tail.into_iter().rev() {
                        all += l;
                        all += "\n";
                    }
                }
            }
        }
        all
    }

    /// Whether job `id` (any of its tasks) is still queued or running.
    fn queued(&self, id: &str) -> bool {
        let o = self.run("squeue", &["-h", "-j", id, "-o", "%i %t"]);
        !text(&o.stdout).trim().is_empty()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // slurmd last in, first out; each by the process id it was given.
        for child in self.daemons.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A 1 KiB munge key, from the system's random source.
fn random_key() -> Vec<u8> {
    use std::io::Read;
    let mut key = vec![0u8; 1024];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut key))
        .expect("/dev/urandom reads");
    key
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The configuration of a one-node cluster on this host, everything in `d`.
fn slurm_conf(d: &Path, socket: &Path) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .expect("the host's name")
        .trim()
        .split('.')
        .next()
        .unwrap()
        .to_string();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (ctld, slurmd) = (free_port(), free_port());
    let p = |name: &str| d.join(name).display().to_string();
    format!(
        "ClusterName=playa-test
SlurmctldHost={host}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={socket}
CredType=cred/munge
SlurmctldPort={ctld}
SlurmdPort={slurmd}
StateSaveLocation={state}
SlurmdSpoolDir={spool}
SlurmctldPidFile={ctld_pid}
SlurmdPidFile={slurmd_pid}
SlurmctldLogFile={ctld_log}
SlurmdLogFile={slurmd_log}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName={host} CPUs={cpus} RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
",
        socket = socket.display(),
        state = p("state"),
        spool = p("spool"),
        ctld_pid = p("slurmctld.pid"),
        slurmd_pid = p("slurmd.pid"),
        ctld_log = p("log/slurmctld.log"),
        slurmd_log = p("log/slurmd.log"),
    )
}

/// Polls `ready` every 50 ms until it gives a value, or panics after
/// `limit` naming `what`.
fn wait_for<T>(what: &str, limit: Duration, mut ready: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = ready() {
            return v;
        }
        assert!(start.elapsed() < limit, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Records in `dir`'s manifests.
fn records(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .filter(|l| l.contains("\"file\""))
                .count()
        })
        .sum()
}

fn script() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy/slurm-array.sbatch")
        .display()
        .to_string()
}

#[test]
#[ignore = "needs Slurm (slurm-wlm, munge) and root; .ci/run runs it"]
fn the_array_script_runs_on_slurm_and_a_cancelled_task_resumes() {
    if let Some(why) = missing() {
        panic!("tests/it/slurm.rs cannot run: {why} (.ci/run installs Slurm and runs it as root)");
    }
    let cluster = Cluster::start();
    let work = cluster.work();
    let script = script();

    // The script as its header says: the batch on the command line, the
    // folder from --out, one CPU per task.
    let batch = [
        "death-valley",
        "salt-flat",
        "--seeds",
        "0..4",
        "--size",
        "96x54",
    ];
    let mut args = vec!["--wait", "--array=1-3", script.as_str()];
    args.extend(batch);
    args.extend(["--out", "small"]);
    cluster.run_ok("sbatch", &args);
    let dir = tempfile::tempdir().unwrap();
    let mut plain = vec!["render"];
    plain.extend(batch);
    plain.extend(["--out", "plain"]);
    playa_ok(dir.path(), &plain);
    let sharded = pictures(&work.join("small"));
    assert_eq!(sharded.len(), 8, "{}", cluster.logs());
    assert_eq!(sharded, pictures(&dir.path().join("plain")));
    for task in 1..=3 {
        assert!(
            work.join(format!("small/playa-manifest-{task}-of-3.jsonl"))
                .exists(),
            "task {task} kept no manifest"
        );
    }
    playa_ok(&work, &["manifest", "check", "small"]);

    // A batch long enough to cancel task 2 once it has made a picture, and
    // before it has made them all (the best compression makes each picture
    // take about a second, however fast the rendering); its folder from
    // PLAYA_OUT.
    let big = [
        "death-valley",
        "--seeds",
        "0..18",
        "--size",
        "1920x1080",
        "--compression",
        "best",
    ];
    let mut args = vec!["--parsable", "--array=1-3", script.as_str()];
    args.extend(big);
    let submit = |args: &[&str]| {
        let o = cluster
            .command("sbatch")
            .env("PLAYA_OUT", work.join("big"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}{}", text(&o.stderr), cluster.logs());
        text(&o.stdout).trim().to_string()
    };
    let job = submit(&args);
    let manifest = work.join("big/playa-manifest-2-of-3.jsonl");
    wait_for("task 2's first picture", Duration::from_secs(120), || {
        std::fs::read_to_string(&manifest)
            .ok()
            .filter(|m| m.lines().any(|l| l.contains("\"file\"")))
    });
    cluster.run_ok("scancel", &[&format!("{job}_2")]);
    wait_for("the array to end", Duration::from_secs(300), || {
        (!cluster.queued(&job)).then_some(())
    });
    let made = records(&work.join("big"));
    assert!(made < 18, "task 2 finished before it was cancelled");
    let check = crate::common::cli::playa(&work, &["manifest", "check", "big"]);
    assert!(
        !check.status.success(),
        "the check passed a cut-short batch"
    );

    // The same array again: the cancelled task makes what it had not.
    let mut args = vec!["--wait", "--array=1-3", script.as_str()];
    args.extend(big);
    submit(&args);
    playa_ok(&work, &["manifest", "check", "big"]);
    assert_eq!(records(&work.join("big")), 18, "a picture recorded twice");
    let mut plain = vec!["render"];
    plain.extend(big);
    plain.extend(["--out", "big"]);
    playa_ok(dir.path(), &plain);
    assert_eq!(
        pictures(&work.join("big")),
        pictures(&dir.path().join("big")),
        "the resumed array's pictures differ from one machine's"
    );
}
