//! What a player (or the replayer acting for one) does at the terminal.

use proto::{EndReason, GameResult, IccsMove, Side};

/// One action at the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A player is at the board.
    Arrived {
        side: Side,
    },
    /// Black starts Red's clock (AXF-CLOCK-3).
    StartClock,
    /// Type a move (ICCS `h2e2`, WXF `C2.5` or Chinese `炮二平五`); it is
    /// checked for legality and waits for the press.
    EnterMove(String),
    /// Forget the entered move.
    ClearMove,
    /// Press the clock with the entered move.
    Press,
    /// Enter a move and press at once (replayer, tests).
    Play(String),
    ClaimNaturalLimit {
        by: Side,
    },
    ClaimRepetition {
        by: Side,
    },
    OfferDraw {
        by: Side,
    },
    AcceptDraw {
        by: Side,
    },
    DeclineDraw {
        by: Side,
    },
    Resign {
        by: Side,
        reason: String,
    },
    CallArbiter {
        by: Side,
        reason: String,
    },
    /// A result the terminal knows (e.g. the players' agreement recorded).
    ReportResult {
        result: GameResult,
        /// Why, typed (the server checks mate and stalemate on its board).
        why: EndReason,
        reason: String,
    },
    /// A move reported as a board sensor saw it, WITHOUT the legality check
    /// (the server judges it; an illegal one raises its alert). The
    /// replayer injects illegal moves this way.
    SensorMove {
        mv: IccsMove,
    },
}
