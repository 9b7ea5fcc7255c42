//! The `playa` command: the window with no arguments, subcommands otherwise.

mod cli;

fn main() {
    playa::allocator::keep_freed_memory();
    std::process::exit(cli::main());
}
