//! The exit codes of `caipan` — one table, published in README "Exit codes":
//!
//! | code | meaning |
//! |------|---------|
//! | 0    | success |
//! | 1    | runtime error (the message on stderr names what failed) |
//! | 2    | usage error: bad or missing arguments (clap) |
//! | 3    | `verify`: some game has an illegal or unreadable move |
//! | 4    | `verify`: the file cannot be read or parsed as PGN |
//! | 130  | interrupted (Ctrl-C; `demo`) |
//!
//! `verify`'s own codes are 3 and 4 so that a script can tell "the archive
//! has a bad game" from "caipan failed" (1) and "wrong arguments" (2).

use std::process::ExitCode;

/// A runtime error reached `main`.
pub const RUNTIME: u8 = 1;
/// `verify`: some game has an illegal or unreadable move.
pub const VERIFY_ILLEGAL: u8 = 3;
/// `verify`: the file cannot be read or parsed as PGN.
pub const VERIFY_UNREADABLE: u8 = 4;
/// Interrupted by Ctrl-C (128 + SIGINT).
pub const INTERRUPTED: u8 = 130;

/// `code` as an [`ExitCode`].
pub fn code(code: u8) -> ExitCode {
    ExitCode::from(code)
}
