//! Adjourning a game (封棋) with a sealed move, hidden from every console,
//! and resuming it (启封): the sealed move is played and both players must
//! be at the board within the adjournment limit (AXF-REF-L).

use proto::roles::{Action, Author};
use proto::{ControlToTable, IccsMove, Message, Side, TableStatus};
use rulebook::ruleset::SealedMoveBy;
use xiangqi::ByColor;

use super::Refusal;
use crate::audit::at;
use crate::hall::Hall;
use crate::table::convert::{game_move, side};
use crate::table::Sealed;

/// Who may seal: the table's arbiters.
pub(super) fn action_seal(table: u16) -> Action {
    Action::Seal {
        table: u32::from(table),
    }
}

/// Who may unseal: the table's arbiters.
pub(super) fn action_unseal(table: u16) -> Action {
    Action::Unseal {
        table: u32::from(table),
    }
}

/// In words (the sealed move is never written out).
pub(super) fn describe_seal(table: u16) -> String {
    format!("seal table {table} (sealed move hidden)")
}

/// In words.
pub(super) fn describe_unseal(table: u16) -> String {
    format!("unseal table {table}")
}

/// Typed ([`super::typed`]).
pub(super) fn typed_seal(table: u16) -> Message {
    at("audit-seal", table)
}

/// Typed ([`super::typed`]).
pub(super) fn typed_unseal(table: u16) -> Message {
    at("audit-unseal", table)
}

/// A game goes on, is not sealed yet, and the sealed move is legal.
pub(super) fn check_seal(hall: &Hall, table: u16, mv: IccsMove) -> Result<(), Refusal> {
    let t = super::table(hall, table)?;
    if t.finished() || t.sealed.is_some() {
        return Err(Refusal::CannotSeal { table });
    }
    match game_move(mv).is_some_and(|m| t.board.position.is_legal(m)) {
        true => Ok(()),
        false => Err(Refusal::IllegalSealedMove { table, mv }),
    }
}

/// Only a sealed game is unsealed.
pub(super) fn check_unseal(hall: &Hall, table: u16) -> Result<(), Refusal> {
    match super::table(hall, table)?.sealed {
        Some(_) => Ok(()),
        None => Err(Refusal::NotSealed { table }),
    }
}

/// Stops the clock and keeps the sealed move.
pub(super) fn seal(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    mv: IccsMove,
    now: u64,
) -> Result<(), Refusal> {
    let by = by.who();
    let sealed_move_by = hall.params.sealed_move_by;
    let t = super::table_mut(&mut hall.tables, table)?;
    let writer = match sealed_move_by {
        SealedMoveBy::Red => Side::Red,
        SealedMoveBy::SideToMove => side(t.board.turn()),
    };
    t.clock.pause(now);
    t.sealed = Some(Box::new(Sealed {
        mv,
        writer,
        by: by.clone(),
        at_ms: now,
    }));
    t.status = TableStatus::Sealed {
        by: by.clone(),
        at_ms: now,
    };
    t.pause_left();
    t.sample_clock(now);
    hall.book.control(table, ControlToTable::Seal { by });
    hall.book.touch(table);
    Ok(())
}

/// Plays the sealed move and starts the clock of the side to move.
pub(super) fn unseal(hall: &mut Hall, by: &Author, table: u16, now: u64) -> Result<(), Refusal> {
    let params = hall.params;
    let t = super::table_mut(&mut hall.tables, table)?;
    let Some(s) = t.sealed.take() else {
        return Err(Refusal::NotSealed { table });
    };
    t.status = TableStatus::Playing;
    // The resumption: both players must be at the board within the
    // adjournment limit (AXF-REF-L).
    t.resumed_at_ms = Some(now);
    t.seen_since_resume = ByColor::default();
    t.play_move(s.writer, s.mv, now, &params, &mut hall.book);
    t.clock.resume(now);
    t.clock.running = Some(t.board.turn());
    t.sample_clock(now);
    let (red_ms, black_ms) = (t.clock.red_ms, t.clock.black_ms);
    let by = by.who();
    let sealed_move = s.mv;
    hall.book.control(
        table,
        ControlToTable::Unseal {
            by,
            sealed_move,
            red_ms,
            black_ms,
        },
    );
    hall.book.touch(table);
    Ok(())
}
