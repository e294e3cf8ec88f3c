//! `caipan bench powercut --terminal-cuts`: the table terminals lose power
//! (their outbox files on the power-cut disk model). Not yet built.

use super::{Args, PowerCutReport};

/// Runs the terminal-cut form.
pub async fn run(_args: &Args) -> anyhow::Result<PowerCutReport> {
    anyhow::bail!("--terminal-cuts is not built yet")
}
