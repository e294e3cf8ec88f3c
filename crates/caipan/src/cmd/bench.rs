//! `caipan bench` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan bench`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan bench`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan bench` is not available in this build yet")
}
