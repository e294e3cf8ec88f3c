//! The hall's next round at this table (下一轮): when the hall publishes a
//! new round, the server disconnects every terminal and greets it again
//! with the new round's number and the table's new pairing. The terminal
//! then becomes a fresh one for that pairing ([`Engine::next_round`]): the
//! new players' names and colours, the initial position, a full clock of
//! the hall's time control, waiting for the start — with its own outbox
//! for the round, in a new epoch (the server keeps the table's numbering
//! across rounds, so a new epoch is how it knows the new game's events).
//! The old round's outbox stays on disk as it was: what it still holds
//! unacknowledged belongs to a finished game and is never sent into the
//! new one (the status line says how many events that is, and where).
//!
//! When the chief withdraws the round before it started, the hall goes
//! back to the round before and the terminal follows
//! ([`Engine::back_to_round`]): a fresh engine for that round (its game,
//! finished, comes from the server's record in the hello), a fresh outbox
//! beside the others, the withdrawn round's outbox set aside.

use super::{Engine, EngineError, TableInfo};
use proto::TableSession;
use rulebook::TimeControl;

impl Engine {
    /// The round this terminal plays.
    pub fn round(&self) -> u32 {
        self.info.round
    }

    /// A fresh engine for round `round` with `session`'s pairing (the
    /// hello of the new round) and `control`, keeping this one's notation
    /// and terminal time; its outbox is the round's own, beside this one's
    /// ([`crate::Outbox::next_round`]).
    pub fn next_round(
        &self,
        round: u32,
        session: &TableSession,
        control: TimeControl,
        now: u64,
    ) -> Result<Engine, EngineError> {
        let (outbox, recovery) = self.outbox.next_round(round, session.epoch + 1)?;
        Ok(self.fresh(round, session, control, now, outbox, recovery))
    }

    /// A fresh engine for round `round`, the round before this one's, to
    /// which the hall went back when the chief withdrew this one; its
    /// outbox is a fresh one ([`crate::Outbox::back_to_round`]).
    pub fn back_to_round(
        &self,
        round: u32,
        session: &TableSession,
        control: TimeControl,
        now: u64,
    ) -> Result<Engine, EngineError> {
        let (outbox, recovery) =
            self.outbox
                .back_to_round(round, self.info.round, session.epoch + 1)?;
        let mut e = self.fresh(round, session, control, now, outbox, recovery);
        e.message = format!(
            "round {} was withdrawn; the hall is back in round {round}: waiting for the pairing",
            self.info.round
        )
        .into();
        Ok(e)
    }

    /// The engine of `round` on `outbox` (see [`Engine::next_round`]).
    fn fresh(
        &self,
        round: u32,
        session: &TableSession,
        control: TimeControl,
        now: u64,
        outbox: crate::Outbox,
        recovery: crate::outbox::Recovery,
    ) -> Engine {
        tracing::info!(
            round,
            table = session.table,
            ?recovery,
            path = ?outbox.path(),
            "terminal: the next round's outbox opened"
        );
        let info = TableInfo {
            table: session.table,
            red: session.red.clone(),
            black: session.black.clone(),
            control,
            round,
        };
        let mut e = Engine::new(info, outbox);
        e.set_notation(self.board.notation());
        e.last_mono = e.last_mono.max(self.last_mono).max(now);
        let mut message = format!(
            "round {round}: table {}, 红 {} v 黑 {}; waiting for the start",
            session.table, session.red, session.black
        );
        let left = self.outbox.waiting();
        if left > 0 {
            let at = self
                .outbox
                .path()
                .map_or_else(|| "memory".to_string(), |p| p.display().to_string());
            tracing::warn!(
                left,
                round = self.info.round,
                at,
                "terminal: events of the finished round were never acknowledged; kept, not sent"
            );
            message.push_str(&format!(
                " ({left} events of round {} were never acknowledged: kept in {at})",
                self.info.round
            ));
        }
        e.message = message.into();
        e
    }
}
