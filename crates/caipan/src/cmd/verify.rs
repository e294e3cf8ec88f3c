//! `caipan verify FILE.pgn` — replays every game of a PGN file with the rules of
//! crates/xiangqi and reports the first illegal move of each bad game.
//!
//! Exit codes (see `exit.rs`): 0 when every move of every game is legal (stdout:
//! `N games, M moves, 0 illegal`, M counting plies); 3 when some game has an
//! illegal or unreadable move (each such game is named on stderr by its 1-based
//! index and tags, with the move number, text, line and reason; stdout still
//! gets the summary); 4 when the file cannot be read or parsed as PGN (stderr
//! names the line). The file may be UTF-8 (with or without a byte-order mark) or
//! GB18030/GBK. What the reader tolerates (a tag with unescaped inner quotes,
//! a stray bracket, a missing result token) is printed on stderr as
//! `game N: warning: line L: ...` and does not change the exit code.
//!
//! `--dump-wxf` (hidden; used by tests/oracle/wxf_pyffish.py) prints one line per
//! ply of every game, tab-separated: game index, ply, FEN before the move, ICCS,
//! WXF, Chinese.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::exit;
use xiangqi::pgn::{read_pgn, ReplayError};
use xiangqi::{to_chinese, to_iccs, to_wxf, RawGame};

/// Arguments of `caipan verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PGN file to check.
    pub file: PathBuf,
    /// Print every move as `game<TAB>ply<TAB>fen<TAB>iccs<TAB>wxf<TAB>chinese`
    /// (for cross-checking notation writers) instead of the summary.
    #[arg(long, hide = true)]
    pub dump_wxf: bool,
}

/// `[Event "..."] [Red "..."] ...` for messages.
fn tags_text(game: &RawGame) -> String {
    game.tags
        .iter()
        .map(|(n, v)| format!("[{n} {v:?}]"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `caipan verify`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = args.file.display();
    let bytes = match std::fs::read(&args.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("caipan verify: cannot read {name}: {e}");
            return Ok(exit::code(exit::VERIFY_UNREADABLE));
        }
    };
    let decoded = match xiangqi::encoding::decode(&bytes) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("caipan verify: {name}: {e}");
            return Ok(exit::code(exit::VERIFY_UNREADABLE));
        }
    };
    tracing::debug!(encoding = decoded.encoding, bom = decoded.bom, "decoded");
    let games = match read_pgn(&decoded.text) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("caipan verify: {name}: {e}");
            return Ok(exit::code(exit::VERIFY_UNREADABLE));
        }
    };
    tracing::debug!(games = games.len(), "read PGN");
    for (i, raw) in games.iter().enumerate() {
        for w in &raw.warnings {
            eprintln!("caipan verify: {name}: game {}: warning: {w}", i + 1);
        }
    }

    if args.dump_wxf {
        return dump(&games);
    }

    let mut plies = 0usize;
    let mut bad = 0usize;
    for (i, raw) in games.iter().enumerate() {
        match raw.replay() {
            Ok(game) => plies += game.moves.len(),
            Err(ReplayError::Move {
                ply,
                number,
                side,
                text,
                line,
                error,
            }) => {
                plies += ply;
                bad += 1;
                let dots = if side == xiangqi::Color::Red {
                    "."
                } else {
                    "..."
                };
                eprintln!(
                    "caipan verify: {name}: game {} {}: move {number}{dots} {text} (line {line}, {side} to move) is not legal: {}",
                    i + 1,
                    tags_text(raw),
                    error.reason()
                );
            }
            Err(e @ ReplayError::Fen { .. }) => {
                bad += 1;
                eprintln!(
                    "caipan verify: {name}: game {} {}: {e}",
                    i + 1,
                    tags_text(raw)
                );
            }
        }
    }
    println!("{} games, {plies} moves, {bad} illegal", games.len());
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        exit::code(exit::VERIFY_ILLEGAL)
    })
}

/// `--dump-wxf`: every ply of every legal game, one per line.
fn dump(games: &[RawGame]) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut bad = false;
    for (i, raw) in games.iter().enumerate() {
        let game = match raw.replay() {
            Ok(g) => g,
            Err(e) => {
                eprintln!("caipan verify: game {}: {e}", i + 1);
                bad = true;
                continue;
            }
        };
        let mut pos = game.start.clone();
        for (ply, &m) in game.moves.iter().enumerate() {
            writeln!(
                out,
                "{}\t{}\t{}\t{}\t{}\t{}",
                i + 1,
                ply + 1,
                pos.to_fen(),
                to_iccs(m),
                to_wxf(&pos, m),
                to_chinese(&pos, m)
            )?;
            pos.play(m)?;
        }
    }
    out.flush()?;
    Ok(if bad {
        exit::code(exit::VERIFY_ILLEGAL)
    } else {
        ExitCode::SUCCESS
    })
}
