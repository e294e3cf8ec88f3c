//! `caipan serve` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan serve`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan serve`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan serve` is not available in this build yet")
}
