//! A table's public projection and its public events (`crate::public`):
//! built field by field from the table's state, and the changes since the
//! last published mark, counted.

use crate::public::{PublicChange, PublicGame, PublicMark, PublicStatus};
use crate::table::convert::wire_move;
use crate::table::TableState;

/// The public projection of `t`.
pub fn game(t: &TableState) -> PublicGame {
    PublicGame {
        table: t.table,
        red: t.red.clone(),
        black: t.black.clone(),
        start_fen: t.board.start.to_fen(),
        moves: t.board.moves.iter().copied().map(wire_move).collect(),
        ply_clocks: t.ply_clocks.clone(),
        clock: t.clock_state(),
        clock_at_ms: t.clock.reported_at_ms,
        status: PublicStatus::of(&t.status),
    }
}

/// The mark of a table's current state after `version` events.
pub fn mark(t: &TableState, version: u64) -> PublicMark {
    PublicMark {
        version,
        plies: t.board.plies(),
        clock: t.clock_state(),
        status: PublicStatus::of(&t.status),
    }
}

/// The public changes of `t` since its mark, handed to `emit` in order (no
/// vector per record), updating the mark.
pub fn step(t: &mut TableState, mut emit: impl FnMut(PublicChange)) {
    let now = mark(t, t.public.version);
    let was = &t.public;
    let mut emitted = 0u64;
    let mut out = |c: PublicChange| {
        emitted += 1;
        emit(c);
    };
    let withdrawn = was.status.finished() && !now.status.finished();
    if now.plies < was.plies || withdrawn {
        out(PublicChange::Game(Box::new(game(t))));
    } else {
        for ply in was.plies..now.plies {
            let Some(&mv) = t.board.moves.get(ply) else {
                break;
            };
            out(PublicChange::Move {
                ply: ply as u32 + 1,
                mv: wire_move(mv),
                clock_ms: t.ply_clocks.get(ply),
                clock: now.clock,
            });
        }
        let moved = now.plies > was.plies;
        match now.status {
            PublicStatus::Finished { result, why } if was.status != now.status => {
                out(PublicChange::Result { result, why })
            }
            PublicStatus::Finished { .. } => {}
            status => {
                if status != was.status || (!moved && now.clock != was.clock) {
                    out(PublicChange::Clock {
                        clock: now.clock,
                        status,
                    });
                }
            }
        }
    }
    t.public = PublicMark {
        version: was.version + emitted,
        ..now
    };
}
