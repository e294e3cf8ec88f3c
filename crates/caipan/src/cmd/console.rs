//! `caipan console` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan console`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan console`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan console` is not available in this build yet")
}
