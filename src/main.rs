//! The `playa` command: the window with no arguments, subcommands otherwise.

mod cli;

fn main() {
    // Interrupted (SIGINT, SIGTERM, SIGHUP), playa removes the files it had
    // half written before it exits: no temporary file is left behind.
    let _ = ctrlc::set_handler(|| playa::base::atomic::exit_removing_unfinished(130));
    std::process::exit(cli::main());
}
