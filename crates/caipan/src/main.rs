//! `caipan` (裁判): the one binary of the referee console.
//!
//! Each subcommand lives in its own module under `cmd/`, owns its clap
//! arguments and returns `anyhow::Result`; this file only dispatches and maps
//! errors to exit codes (the table is in `exit.rs`). Libraries (crates/*) never print or exit.

/// `println!` that ignores a closed stdout (`caipan serve | head -1`):
/// used by the subcommands that keep sockets open, where a broken pipe must
/// neither panic (exit 101) nor end the process by SIGPIPE.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod cmd;
mod exit;
mod logs;
mod malloc;
mod memstats;
mod tty;

/// Counts live heap bytes when `CAIPAN_MEMSTATS` is set ([`memstats`]).
#[global_allocator]
static ALLOC: memstats::Counting = memstats::Counting;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// caipan — referee console for Xiangqi tournaments.
#[derive(Debug, Parser)]
#[command(name = "caipan", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree (node count on stdout, time on stderr).
    Perft(cmd::perft::Args),
    /// Replay every game of a PGN file and report illegal moves.
    Verify(cmd::verify::Args),
    /// Rule on positions and move sequences given as JSON lines (AXF repetition, natural limit).
    Adjudicate(cmd::adjudicate::Args),
    /// Run the hall server.
    Serve(cmd::serve::Args),
    /// The arbiter console (chief or deputy).
    Console(cmd::console::Args),
    /// The table terminal (clock of record), or `table replay` to replay real games.
    Table(Box<cmd::table::Args>),
    /// A whole demo hall: server, replayed tables and the chief's console.
    Demo(cmd::demo::Args),
    /// Export a round: results, game records, standings.
    Export(cmd::export::Args),
    /// Copy a data dir consistently, also while the server runs.
    Backup(cmd::backup::Args),
    /// Pairings: import a round's pairings from CSV.
    Pairings(cmd::pairings::Args),
    /// Pair a round from a TRF (xiangqi Swiss, FIDE Dutch, round robin).
    Pair(cmd::pair::Args),
    /// Standings of a TRF's rounds with FIDE or AXF tie-breaks.
    Standings(cmd::standings::Args),
    /// Benchmarks and long-running resilience checks that print figures.
    Bench(cmd::bench::Args),
    /// Validate a hall config and print what `serve` would serve from it.
    Check(cmd::check::Args),
    /// Print the shell completion script (bash, zsh, fish, ...).
    Completions(cmd::completions::CompletionsArgs),
    /// Print the manual page (or write every page with --out DIR).
    Man(cmd::completions::ManArgs),
    /// Where the terminals keep their outboxes and logs on this machine.
    Paths(cmd::paths::Args),
    /// Print each table's token (or write one file per table with --out).
    Token(cmd::tokens::Args),
}

impl Command {
    /// Subcommands that hold no socket and only print: a closed stdout
    /// (`| head -1`) ends them quietly by SIGPIPE, like other Unix tools.
    /// The others (servers, terminals, exports that may read PostgreSQL)
    /// print through `outln!`, which ignores it.
    fn only_prints(&self) -> bool {
        matches!(
            self,
            Command::Perft(_)
                | Command::Verify(_)
                | Command::Adjudicate(_)
                | Command::Pairings(_)
                | Command::Check(_)
                | Command::Completions(_)
                | Command::Man(_)
                | Command::Paths(_)
                | Command::Token(_)
                | Command::Pair(_)
                | Command::Standings(_)
        )
    }
}

fn main() -> ExitCode {
    memstats::init_from_env();
    // The benches' heap figures: glibc's malloc holds only the C code's.
    table::load::procstat::set_heap_reader(memstats::rust_heap);
    let cli = Cli::parse();
    if cli.command.only_prints() {
        exit::die_on_closed_stdout();
    }
    let result = match cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Adjudicate(a) => cmd::adjudicate::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Console(a) => cmd::console::run(a),
        Command::Table(a) => cmd::table::run(*a),
        Command::Demo(a) => cmd::demo::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Backup(a) => cmd::backup::run(a),
        Command::Pairings(a) => cmd::pairings::run(a),
        Command::Pair(a) => cmd::pair::run(a),
        Command::Standings(a) => cmd::standings::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Completions(a) => cmd::completions::completions(a, Cli::command()),
        Command::Man(a) => cmd::completions::man(a, Cli::command()),
        Command::Paths(a) => cmd::paths::run(a),
        Command::Token(a) => cmd::tokens::run(a),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("caipan: {err:#}");
            if err.downcast_ref::<tty::Usage>().is_some() {
                exit::code(exit::USAGE)
            } else {
                exit::code(exit::RUNTIME)
            }
        }
    }
}
