//! Where the binary's `tracing` logs go, set up once per command: to stderr
//! for the server and the replayer, or to a file for the full-screen
//! programs (console, table terminal, demo) whose screen is stdout.
//!
//! `RUST_LOG` overrides the default level. Logs carry ANSI colour escapes
//! only when they go to a terminal and `NO_COLOR` is unset; a file or a
//! pipe (systemd, `2> server.log`) gets plain text.

use std::io::IsTerminal;

fn filter(default: &str) -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default))
}

/// Whether stderr logs may be coloured: a terminal and no `NO_COLOR`.
pub fn stderr_ansi() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Logs to stderr at `default` level.
pub fn to_stderr(default: &str) {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter(default))
        .with_ansi(stderr_ansi())
        .with_writer(std::io::stderr)
        .try_init();
}

/// Logs to `file` (appended; never coloured) at `default` level.
pub fn to_file(file: std::fs::File, default: &str) {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter(default))
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
}
