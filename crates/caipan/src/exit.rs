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
//! A subcommand that only prints (`perft`, `verify`, `check`, ...) whose
//! stdout is closed early (`| head -1`) ends by SIGPIPE, as Unix tools do;
//! the others ignore a closed stdout. No subcommand panics on it (101).
//!
//! `verify`'s own codes are 3 and 4 so that a script can tell "the archive
//! has a bad game" from "caipan failed" (1) and "wrong arguments" (2).

use std::process::ExitCode;

/// A runtime error reached `main`.
pub const RUNTIME: u8 = 1;
/// A usage error: clap's own, or a screen command without a terminal.
pub const USAGE: u8 = 2;
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

/// Restores the default action of SIGPIPE (Rust ignores it, so a print to
/// a closed pipe fails and `println!` panics): the process then ends
/// quietly when its reader goes away. Only for subcommands holding no
/// socket (a socket's peer closing must never end the process).
pub fn die_on_closed_stdout() {
    // SAFETY: setting a signal's disposition to its default at the start of
    // `main`, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
