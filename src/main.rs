//! The `playa` command: the window with no arguments, subcommands otherwise.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
