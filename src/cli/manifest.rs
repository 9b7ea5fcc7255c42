//! `playa manifest check DIR`: is a batch complete and intact?

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::CliError;

/// Arguments of `playa manifest`.
#[derive(Debug, Args)]
pub struct ManifestArgs {
    #[command(subcommand)]
    command: ManifestCommand,
}

#[derive(Debug, Subcommand)]
enum ManifestCommand {
    /// Check that every job of the batch recorded in DIR's manifests is
    /// there exactly once, each file with its recorded SHA-256; print what
    /// is missing, duplicated or corrupt, and exit 1 if anything is.
    Check {
        /// The directory the batch (all its shards) rendered into.
        dir: PathBuf,
    },
}

/// Runs `playa manifest check`: prints the report on a batch's manifests
/// and fails unless the batch is complete.
pub fn run(args: ManifestArgs) -> Result<(), CliError> {
    match args.command {
        ManifestCommand::Check { dir } => {
            let report = playa::batch::manifest::check(&dir)?;
            // An incomplete batch fails even when no one reads the report.
            let printed = outln!("{report}");
            if report.is_complete() {
                printed
            } else {
                Err(CliError::Failed(anyhow::anyhow!(
                    "{}: the batch is not complete",
                    dir.display()
                )))
            }
        }
    }
}
