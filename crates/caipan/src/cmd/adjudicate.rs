//! `caipan adjudicate` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan adjudicate`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan adjudicate`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan adjudicate` is not available in this build yet")
}
