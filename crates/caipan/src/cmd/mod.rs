//! One module per subcommand. Each exposes `Args` (clap) and
//! `run(Args) -> anyhow::Result<ExitCode>`.

pub mod adjudicate;
pub mod backup;
pub mod bench;
pub mod check;
pub mod completions;
pub mod console;
pub mod demo;
pub mod export;
pub mod input;
pub mod pair;
pub mod pairings;
pub mod paths;
pub mod perft;
pub mod serve;
pub mod standings;
pub mod table;
pub mod token;
pub mod tokens;
pub mod verify;
