//! One PGN per game (棋谱) in the xqbase convention: `[Game "Chinese Chess"]`,
//! Event, Site, Date, Round `"r.t"` (round.table), Red, Black (RedTeam,
//! BlackTeam in team events), Result, Format "ICCS", FEN when the game did
//! not start from the initial position, TimeControl; after each move a
//! comment `{[%clk h:mm:ss]}` with the mover's remaining time after the
//! clock press, followed by the arbiter actions, alerts and rulings that
//! came after that move. Written with crates/xiangqi's PGN writer.
//!
//! A game both players lost (both absent) has no PGN result token: it is
//! written `*` with the end in the last comment.
//!
//! [`to_public_pgn`] writes the broadcast's game (issue 32) with the same
//! tags from the hall's public projection: per move only the `[%clk]`
//! comment, `[RedClock]`/`[BlackClock]` with the clocks now, and nothing
//! private (no notes, no end words); a game in progress is `*`.

use proto::GameResult;
use xiangqi::pgn::{write_pgn, Format, Game};

use super::game::PlayedGame;
use config::{HallConfig, Pairing, TimeControl};
use hall::public::{PublicGame, PublicStatus};
use rulebook::{clock_text, ClockForm};

/// The file name of a game's record, e.g. `r1-t03.pgn`.
pub fn file_name(g: &PlayedGame) -> String {
    format!("r{}-t{:02}.pgn", g.round, g.pairing.table)
}

/// The PGN `TimeControl` value: `base+increment` in seconds for Fischer
/// clocks; for traditional controls `moves/seconds` per period, then the
/// repeating block (`10/300`).
pub fn time_control_tag(tc: &TimeControl) -> String {
    match tc {
        TimeControl::Fischer {
            base_ms,
            increment_ms,
        } => format!("{}+{}", base_ms / 1000, increment_ms / 1000),
        TimeControl::Traditional(t) => {
            let mut parts = Vec::new();
            let (mut moves_before, mut ms_before) = (0u32, 0u64);
            for p in &t.periods {
                let moves = p.moves.saturating_sub(moves_before);
                let ms = p.by_ms.saturating_sub(ms_before);
                parts.push(format!("{}/{}", moves, ms / 1000));
                moves_before = p.moves;
                ms_before = p.by_ms;
            }
            if let Some(b) = t.block {
                parts.push(format!("{}/{}", b.moves, b.ms / 1000));
            }
            parts.join(":")
        }
    }
}

/// PGN date `YYYY.MM.DD` from `YYYY-MM-DD` (`????.??.??` when unknown).
fn pgn_date(date: &str) -> String {
    if date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-' {
        date.replace('-', ".")
    } else {
        "????.??.??".into()
    }
}

/// A game with the tags of `pairing` in `round` and its result token.
fn tagged(
    config: &HallConfig,
    round: u32,
    p: &Pairing,
    start: xiangqi::Position,
    result: Option<GameResult>,
) -> Game {
    let mut game = Game::new(start);
    let date = config
        .round(round)
        .and_then(|r| r.date.clone())
        .unwrap_or_else(|| config.tournament.date.clone());
    game.set_tag("Game", "Chinese Chess");
    game.set_tag("Event", &config.tournament.name);
    game.set_tag("Site", &config.tournament.site);
    game.set_tag("Date", &pgn_date(&date));
    game.set_tag("Round", &format!("{}.{}", round, p.table));
    game.set_tag("Red", &p.red);
    if let Some(t) = &p.red_team {
        game.set_tag("RedTeam", t);
    }
    game.set_tag("Black", &p.black);
    if let Some(t) = &p.black_team {
        game.set_tag("BlackTeam", t);
    }
    game.set_tag("TimeControl", &time_control_tag(&config.time_control));
    game.result = Some(
        match result {
            Some(GameResult::RedWins) => "1-0",
            Some(GameResult::BlackWins) => "0-1",
            Some(GameResult::Draw) => "1/2-1/2",
            Some(GameResult::BothLose) | None => "*",
        }
        .to_string(),
    );
    game
}

/// The `[%clk]` comment of a ply's clock.
fn clk(ms: u64) -> String {
    format!("[%clk {}]", clock_text(ms, ClockForm::Long))
}

/// The game as a crates/xiangqi [`Game`] with tags and comments.
pub fn to_game(config: &HallConfig, g: &PlayedGame) -> Game {
    let mut game = tagged(
        config,
        g.round,
        &g.pairing,
        g.start.clone(),
        g.end.as_ref().map(|e| e.result),
    );
    game.moves = g.moves.clone();
    game.comments = (0..g.moves.len())
        .map(|i| {
            let mut parts = Vec::new();
            if let Some(Some(ms)) = g.clocks.get(i) {
                parts.push(clk(*ms));
            }
            if let Some(notes) = g.notes.get(i) {
                parts.extend(notes.iter().cloned());
            }
            (!parts.is_empty()).then(|| parts.join("; "))
        })
        .collect();
    let mut initial = g.initial_notes.clone();
    if let Some(e) = &g.end {
        let end_note = format!(
            "end: {} ({}): {}",
            e.reason.as_str(),
            e.reason.as_zh(),
            e.detail
        );
        match game.comments.last_mut() {
            Some(Some(c)) => {
                c.push_str("; ");
                c.push_str(&end_note);
            }
            Some(slot @ None) => *slot = Some(end_note),
            None => initial.push(end_note),
        }
    }
    game.initial_comment = (!initial.is_empty()).then(|| initial.join("; "));
    game
}

/// The PGN text of a game.
pub fn to_pgn(config: &HallConfig, g: &PlayedGame) -> String {
    write_pgn(&to_game(config, g), Format::Iccs)
}

/// Why a public game cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublicPgnError {
    /// The start position or a move does not fit the board.
    #[error("table {table}: {why}")]
    Board {
        /// The table.
        table: u16,
        /// What does not fit.
        why: String,
    },
}

/// The broadcast's PGN of one game of `round` from the hall's public
/// projection: the export's tags (names and teams from the config's
/// pairing, else the projection's names), `[RedClock]`/`[BlackClock]`,
/// per move only its `[%clk]`, no notes; `*` while the game goes on.
pub fn to_public_pgn(
    config: &HallConfig,
    round: u32,
    g: &PublicGame,
) -> Result<String, PublicPgnError> {
    let board = |why: String| PublicPgnError::Board {
        table: g.table,
        why,
    };
    let start = xiangqi::Position::from_fen(&g.start_fen).map_err(|e| board(e.to_string()))?;
    let pairing = config
        .pairing(u32::from(g.table))
        .cloned()
        .unwrap_or_else(|| Pairing {
            table: u32::from(g.table),
            red: g.red.clone(),
            black: g.black.clone(),
            red_team: None,
            black_team: None,
            red_id: None,
            black_id: None,
        });
    let result = match g.status {
        PublicStatus::Finished { result, .. } => Some(result),
        _ => None,
    };
    let mut game = tagged(config, round, &pairing, start, result);
    game.set_tag("RedClock", &clock_text(g.clock.red_ms, ClockForm::Long));
    game.set_tag("BlackClock", &clock_text(g.clock.black_ms, ClockForm::Long));
    game.moves = g
        .moves
        .iter()
        .map(|m| {
            hall::table::convert::game_move(*m)
                .ok_or_else(|| board(format!("move {m} is off the board")))
        })
        .collect::<Result<_, _>>()?;
    game.comments = (0..g.moves.len())
        .map(|i| g.ply_clocks.get(i).map(clk))
        .collect();
    Ok(write_pgn(&game, Format::Iccs))
}
