//! Correcting a result of an earlier round (更正成绩): an appeal upheld, an
//! override after the round was over. The hall plays a later round, so
//! nothing of the hall changes: the command is stored and audited (the
//! earlier result stays in the record before it), and the export, the
//! standings and the next pairing read the corrected result from the
//! record (`export::corrections`). Chief only (`Action::CorrectResult`);
//! the reason is required. The server checks, before storing it, that the
//! table was a board of that round (the hall keeps only the round it
//! plays); a result of the round being played is `SetResult`'s.

use proto::roles::Action;
use proto::{GameResult, Message};

use super::round::MAX_REASON;
use super::Refusal;
use crate::audit::{self, nested};
use crate::hall::Hall;

/// Who may: the chief.
pub(super) fn action() -> Action {
    Action::CorrectResult
}

/// In words, for the audit trail.
pub(super) fn describe(round: u32, table: u16, result: GameResult, reason: &str) -> String {
    format!("round {round} table {table}: result corrected to {result:?} because {reason}")
}

/// Typed ([`super::typed`]).
pub(super) fn typed(round: u32, table: u16, result: GameResult, reason: &str) -> Message {
    let m = Message::new("audit-correct-result")
        .int("round", round)
        .int("table", table);
    nested(m, "result", audit::result(result)).verbatim("reason", reason)
}

/// An earlier round, a table number, a reason of bounded size.
pub(super) fn check(hall: &Hall, round: u32, table: u16, reason: &str) -> Result<(), Refusal> {
    let bad = |why: Message| Refusal::BadCorrection { round, table, why };
    if round == 0 || round >= hall.info.round {
        return Err(bad(
            Message::new("why-correct-earlier").int("playing", hall.info.round)
        ));
    }
    if table == 0 {
        return Err(bad(Message::new("why-no-table-zero")));
    }
    if reason.trim().is_empty() {
        return Err(bad(Message::new("why-reason-required")));
    }
    if reason.len() > MAX_REASON {
        return Err(bad(
            Message::new("why-reason-too-long").int("max", MAX_REASON as i64)
        ));
    }
    Ok(())
}
