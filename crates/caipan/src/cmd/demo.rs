//! `caipan demo` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan demo`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan demo`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan demo` is not available in this build yet")
}
