//! What the terminal shows (a plain value): the TUI renders it, the tests
//! and the replayer read it.

use super::Engine;
use proto::convert::increment_ms;
use proto::convert::side;
use proto::{GameResult, Side};
use xiangqi::{Move, Position};

/// The game's state at the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The clock has not been started.
    Waiting,
    Running,
    /// Stopped by an arbiter (or the terminal's restart), with why.
    Paused {
        by: String,
        reason: String,
    },
    /// Adjourned with a sealed move (封棋).
    Sealed {
        by: String,
    },
    /// The game is over: the result and why, typed, with the words that
    /// came with it (a resignation's, the arbiter's, the server's; empty
    /// for the terminal's own: a mate, a draw agreed) and the arbiter who
    /// set it. The screen words it in its languages (`game-end*`).
    Finished {
        result: GameResult,
        why: proto::EndReason,
        reason: String,
        by: Option<String>,
    },
    /// A flag fell; the arbiter rules.
    Flagged {
        side: Side,
    },
}

impl Status {
    /// How the game ended, as a catalogue message (`None` while it is not
    /// finished).
    pub fn end(&self) -> Option<proto::Message> {
        match self {
            Status::Finished {
                result,
                why,
                reason,
                by,
            } => Some(i18n::texts::game_end(*result, *why, reason, by.as_deref())),
            _ => None,
        }
    }

    /// How the game ended in English (errors, logs, the replay's report).
    pub fn end_english(&self) -> String {
        self.end()
            .map(|m| i18n::texts::english(&m))
            .unwrap_or_default()
    }
}

/// The words the terminal itself writes as the reason of a result it
/// reports (a mate on its board): the typed end reason says it all, so
/// they are not shown again beside it.
pub(crate) fn own_words(why: proto::EndReason) -> Option<&'static str> {
    match why {
        proto::EndReason::Checkmate => Some("checkmate"),
        proto::EndReason::Stalemate => Some("stalemate"),
        _ => None,
    }
}

/// Everything on the terminal's screen at one instant.
#[derive(Debug, Clone)]
pub struct Screen {
    /// The hall's round this game belongs to.
    pub round: u32,
    pub table: u16,
    pub red: String,
    pub black: String,
    pub red_ms: u64,
    pub black_ms: u64,
    /// Whose clock runs.
    pub running: Option<Side>,
    pub to_move: Side,
    pub increment_ms: u64,
    /// Traditional controls: moves due by the next control (Red, Black).
    pub moves_to_go: [Option<u32>; 2],
    /// Plies played.
    pub plies: usize,
    pub position: Position,
    pub last_move: Option<Move>,
    /// The last move in Chinese notation (as the mover writes it).
    pub last_move_text: Option<String>,
    /// The move entered and waiting for the press.
    pub entered: Option<Move>,
    pub status: Status,
    pub online: bool,
    /// Events stored and not yet acknowledged by the server.
    pub waiting: u64,
    pub draw_offer: Option<Side>,
    /// The note of the status line (a control, a refusal, the link).
    pub message: super::Note,
    /// The declared move limit 限著 (ROC) and each player's remaining moves.
    pub move_limit: Option<proto::MoveLimitView>,
    /// The arbiter's order at a repetition (变着令), until the next move
    /// (`order-change` / `order-draw`, rendered in the screen's languages).
    pub order: Option<proto::Message>,
    /// A move reported by the board sensor awaits the arbiter (it is not
    /// on this board; the correction or the take-back clears it).
    pub sensor_pending: bool,
    /// The terminal stopped connecting, and why: a permanent refusal (the
    /// token, the certificate), or another terminal took the table over.
    pub link_stopped: Option<String>,
}

pub(super) fn build(e: &Engine, now: u64) -> Screen {
    let v = e.clock.view_at(now.max(e.clock.last_ms()));
    let last_move_text = e.board.last_move().map(|m| {
        let mut before = e.board.start().clone();
        let n = e.board.moves().len();
        for &mv in &e.board.moves()[..n - 1] {
            before.play_unchecked(mv);
        }
        e.board.notation().text(&before, m)
    });
    Screen {
        round: e.info.round,
        table: e.info.table,
        red: e.info.red.clone(),
        black: e.info.black.clone(),
        red_ms: v.sides[0].remaining_ms,
        black_ms: v.sides[1].remaining_ms,
        running: v.running.map(side),
        to_move: side(e.board.turn()),
        increment_ms: increment_ms(e.clock.control()),
        moves_to_go: [v.sides[0].moves_to_go, v.sides[1].moves_to_go],
        plies: e.board.moves().len(),
        position: e.board.position().clone(),
        last_move: e.board.last_move(),
        last_move_text,
        entered: e.entered.as_ref().map(|(m, _)| *m),
        status: e.status.clone(),
        online: e.online,
        waiting: e.outbox.waiting(),
        draw_offer: e.draw_offer,
        message: e.message.clone(),
        move_limit: e
            .move_limit
            .as_ref()
            .map(|l| crate::move_limit::count(&e.board, l)),
        order: e.order.clone(),
        sensor_pending: e.sensor_pending,
        link_stopped: e.link_stopped.clone(),
    }
}
