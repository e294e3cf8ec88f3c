//! `caipan perft` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan perft`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan perft`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan perft` is not available in this build yet")
}
