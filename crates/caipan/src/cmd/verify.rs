//! `caipan verify` — not built yet (see the issue that adds it).

use std::process::ExitCode;

/// Arguments of `caipan verify`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `caipan verify`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`caipan verify` is not available in this build yet")
}
