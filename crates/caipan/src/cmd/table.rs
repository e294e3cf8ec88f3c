//! `caipan table` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan table`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan table`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan table` is not available in this build yet")
}
