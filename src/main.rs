//! The `playa` command: the window with no arguments, subcommands otherwise.

mod cli;

fn main() {
    remove_unfinished_files_when_stopped();
    std::process::exit(cli::main());
}

/// Stopped by SIGINT (Ctrl-C), SIGTERM or SIGHUP, playa removes the files
/// it had half written and exits as the signal would have it (128 + its
/// number): no temporary file is left behind. Where these signals do not
/// exist, the next run writing the same file removes what was left.
fn remove_unfinished_files_when_stopped() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                playa::base::atomic::exit_removing_unfinished(128 + signal);
            }
        });
    }
}
