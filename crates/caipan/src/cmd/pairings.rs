//! `caipan pairings` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan pairings`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan pairings`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan pairings` is not available in this build yet")
}
