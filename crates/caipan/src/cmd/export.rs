//! `caipan export` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan export`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan export`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan export` is not available in this build yet")
}
