//! A table's compact delta (一步, protocol 12): what changed in a table's
//! view since the view a console already holds, instead of the whole view
//! (names, board and every move from the start) each time a clock is
//! pressed.
//!
//! A [`TableStep`] names its base by the number of moves of the view it
//! extends ([`TableStep::base`]); it carries only the moves played since,
//! and every small field of the view as it is now (clocks, counts, status,
//! presence, the last move, and the board only when it changed). The
//! names, the declared move limit and the standing order are not in it: a
//! change to any of them, or moves that do not extend the base (a move
//! taken back), is sent as the whole view ([`TableStep::between`] says
//! `None`). The server sends a step only to a console it knows holds the
//! base (`server::publish`); a receiver whose view does not match the base
//! gets an error from [`TableStep::apply`] (its view left as it was) and
//! must get a fresh picture (the console subscribes again), never guess.

use bincode::{Decode, Encode};

use super::common::{ClockState, FoulCount, IccsMove, Side};
use super::view::{TableStatus, TableView};

/// Moves a table's view may hold once a step is applied (a game of
/// Xiangqi is a few hundred plies; a peer's step that would make a view
/// longer is refused, not applied).
pub const MAX_VIEW_MOVES: usize = 20_000;

/// A table's view as a step from a base view the receiver holds
/// (protocol 12, [`super::Delta::TableStep`]).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq)]
pub struct TableStep {
    pub table: u16,
    /// Moves of the view it extends (the base view's `moves.len()`).
    pub base: u32,
    /// The moves played since the base, in order.
    pub moves: Vec<IccsMove>,
    pub clock: ClockState,
    pub clock_at_ms: u64,
    pub to_move: Side,
    pub flag: Option<Side>,
    pub plies: u32,
    pub plies_since_capture: u32,
    pub natural_limit_plies: u32,
    pub checks_red: u32,
    pub checks_black: u32,
    pub fouls_red: FoulCount,
    pub fouls_black: FoulCount,
    pub pending_claims: u32,
    pub status: TableStatus,
    pub last_heard_ms: u64,
    pub online: bool,
    pub last_move: Option<IccsMove>,
    /// The board (FEN) when the receiver cannot make it; `None`: the
    /// base's board with the step's moves played ([`played_board`]: the base's
    /// board itself for a press without a move). The server leaves it out
    /// only when [`played_board`] makes exactly the board it sends otherwise.
    pub fen: Option<String>,
}

/// `fen` with `moves` played, as FEN (`None` when the board does not
/// read or a move is not legal on it): how a receiver makes a step's
/// board, and how the server checks that it will.
pub fn played_board(fen: &str, moves: &[IccsMove]) -> Option<String> {
    if moves.is_empty() {
        return Some(fen.to_string());
    }
    let mut pos = xiangqi::Position::from_fen(fen).ok()?;
    for &m in moves {
        pos.play(crate::convert::game_move(m)?).ok()?;
    }
    Some(pos.to_fen())
}

/// Why a step could not be applied to the view a receiver holds (the
/// view is left as it was; the receiver needs a fresh picture).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The receiver holds no view of the table.
    #[error("table {table}: a step without a view of the table to apply it to")]
    NoView { table: u16 },
    /// The step is for another table than the view.
    #[error("a step of table {step} applied to the view of table {held}")]
    WrongTable { held: u16, step: u16 },
    /// The view holds another number of moves than the step's base.
    #[error("table {table}: a step from {base} moves, but the view holds {held}")]
    BaseMismatch { table: u16, base: u32, held: usize },
    /// The view would hold more moves than [`MAX_VIEW_MOVES`].
    #[error("table {table}: a step to {moves} moves (limit {MAX_VIEW_MOVES})")]
    TooLong { table: u16, moves: usize },
    /// The step's moves cannot be played on the view's board (the step
    /// left the board out).
    #[error("table {table}: the step's moves do not play on the view's board")]
    Board { table: u16 },
}

impl TableStep {
    /// The step from `base` to `next` (two views of one table), or `None`
    /// when only the whole view will do: another table, the names, the
    /// move limit or the order changed, or `next`'s moves do not extend
    /// `base`'s.
    pub fn between(base: &TableView, next: &TableView) -> Option<TableStep> {
        let same_rare = base.table == next.table
            && base.red == next.red
            && base.black == next.black
            && base.move_limit == next.move_limit
            && base.order == next.order;
        if !same_rare || !next.moves.starts_with(&base.moves) {
            return None;
        }
        Some(TableStep {
            table: next.table,
            base: u32::try_from(base.moves.len()).ok()?,
            moves: next.moves[base.moves.len()..].to_vec(),
            clock: next.clock,
            clock_at_ms: next.clock_at_ms,
            to_move: next.to_move,
            flag: next.flag,
            plies: next.plies,
            plies_since_capture: next.plies_since_capture,
            natural_limit_plies: next.natural_limit_plies,
            checks_red: next.checks_red,
            checks_black: next.checks_black,
            fouls_red: next.fouls_red,
            fouls_black: next.fouls_black,
            pending_claims: next.pending_claims,
            status: next.status.clone(),
            last_heard_ms: next.last_heard_ms,
            online: next.online,
            last_move: next.last_move,
            fen: match played_board(&base.fen, &next.moves[base.moves.len()..]) {
                Some(fen) if fen == next.fen => None,
                _ => Some(next.fen.clone()),
            },
        })
    }

    /// Applies the step to `view`, the receiver's view of the table: all
    /// of it or, on an error, nothing.
    pub fn apply(&self, view: &mut TableView) -> Result<(), StepError> {
        if view.table != self.table {
            return Err(StepError::WrongTable {
                held: view.table,
                step: self.table,
            });
        }
        if usize::try_from(self.base).ok() != Some(view.moves.len()) {
            return Err(StepError::BaseMismatch {
                table: self.table,
                base: self.base,
                held: view.moves.len(),
            });
        }
        let moves = view.moves.len().saturating_add(self.moves.len());
        if moves > MAX_VIEW_MOVES {
            return Err(StepError::TooLong {
                table: self.table,
                moves,
            });
        }
        let fen = match &self.fen {
            Some(fen) => fen.clone(),
            None => played_board(&view.fen, &self.moves)
                .ok_or(StepError::Board { table: self.table })?,
        };
        view.moves.extend_from_slice(&self.moves);
        view.clock = self.clock;
        view.clock_at_ms = self.clock_at_ms;
        view.to_move = self.to_move;
        view.flag = self.flag;
        view.plies = self.plies;
        view.plies_since_capture = self.plies_since_capture;
        view.natural_limit_plies = self.natural_limit_plies;
        view.checks_red = self.checks_red;
        view.checks_black = self.checks_black;
        view.fouls_red = self.fouls_red;
        view.fouls_black = self.fouls_black;
        view.pending_claims = self.pending_claims;
        view.status = self.status.clone();
        view.last_heard_ms = self.last_heard_ms;
        view.online = self.online;
        view.last_move = self.last_move;
        view.fen = fen;
        Ok(())
    }

    /// Applies the step to the view of its table among `tables` (found by
    /// halving when they are in number order, as the server sends them,
    /// else by a scan).
    pub fn apply_to(&self, tables: &mut [TableView]) -> Result<(), StepError> {
        let at = match tables.binary_search_by_key(&self.table, |t| t.table) {
            Ok(i) => Some(i),
            Err(_) => tables.iter().position(|t| t.table == self.table),
        };
        match at {
            Some(i) => self.apply(&mut tables[i]),
            None => Err(StepError::NoView { table: self.table }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::encoded_len;
    use crate::message::{MoveLimit, MoveLimitView, StandingOrder};

    fn mv(i: u8) -> IccsMove {
        IccsMove { from: i, to: i + 1 }
    }

    fn view(table: u16, moves: u8) -> TableView {
        TableView {
            table,
            red: "王一".into(),
            black: "李二".into(),
            clock: ClockState {
                red_ms: 600_000,
                black_ms: 600_000,
                running: Some(Side::Red),
            },
            clock_at_ms: 1_700_000_000_000,
            to_move: Side::Red,
            flag: None,
            plies: u32::from(moves),
            plies_since_capture: 0,
            natural_limit_plies: 120,
            checks_red: 0,
            checks_black: 0,
            fouls_red: FoulCount::default(),
            fouls_black: FoulCount::default(),
            pending_claims: 0,
            status: TableStatus::Playing,
            last_heard_ms: 1_700_000_000_000,
            online: true,
            last_move: moves.checked_sub(1).map(mv),
            fen: format!(
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 {moves}"
            ),
            moves: (0..moves).map(mv).collect(),
            move_limit: None,
            order: None,
        }
    }

    /// `v` after one more move and a press.
    fn played(v: &TableView) -> TableView {
        let mut n = v.clone();
        let m = mv(u8::try_from(n.moves.len()).expect("a short game"));
        n.moves.push(m);
        n.plies += 1;
        n.last_move = Some(m);
        n.to_move = n.to_move.other();
        n.clock.red_ms -= 1_234;
        n.clock_at_ms += 1_234;
        n.fen = format!("{} {}", v.fen, n.plies);
        n
    }

    #[test]
    fn a_step_applied_to_its_base_is_the_next_view_and_smaller() {
        let base = view(7, 30);
        let mut next = played(&played(&base));
        next.fouls_black.technical = 1;
        next.pending_claims = 2;
        let step = TableStep::between(&base, &next).expect("a step");
        assert_eq!((step.base, step.moves.len()), (30, 2));
        let mut held = base.clone();
        step.apply(&mut held).expect("applies");
        assert_eq!(held, next);
        // The board is most of it (132 bytes against 206 here, 30 moves).
        assert!(encoded_len(&step) * 3 < encoded_len(&next) * 2);
        // A press without a move: the board is the base's, not sent.
        let mut pressed = next.clone();
        pressed.clock.black_ms -= 500;
        let step = TableStep::between(&next, &pressed).expect("a step");
        assert!(step.moves.is_empty() && step.fen.is_none());
        assert!(encoded_len(&step) * 3 < encoded_len(&pressed));
        step.apply(&mut held).expect("applies");
        assert_eq!(held, pressed);
    }

    #[test]
    fn a_step_whose_base_is_not_held_changes_nothing() {
        let base = view(7, 10);
        let step = TableStep::between(&base, &played(&base)).expect("a step");
        // One move behind, one move ahead, another table, no view at all.
        for mut held in [view(7, 9), played(&played(&base))] {
            let before = held.clone();
            assert!(matches!(
                step.apply(&mut held),
                Err(StepError::BaseMismatch {
                    table: 7,
                    base: 10,
                    ..
                })
            ));
            assert_eq!(held, before);
        }
        let mut other = view(8, 10);
        assert_eq!(
            step.apply(&mut other),
            Err(StepError::WrongTable { held: 8, step: 7 })
        );
        let mut tables = vec![view(1, 10), view(9, 10)];
        assert_eq!(
            step.apply_to(&mut tables),
            Err(StepError::NoView { table: 7 })
        );
        tables.push(base);
        step.apply_to(&mut tables).expect("found by the scan");
        assert_eq!(tables[2].moves.len(), 11);
    }

    #[test]
    fn a_hostile_step_is_refused_not_applied() {
        let base = view(3, 2);
        let mut step = TableStep::between(&base, &played(&base)).expect("a step");
        step.moves = vec![mv(1); MAX_VIEW_MOVES];
        let mut held = base.clone();
        assert!(matches!(
            step.apply(&mut held),
            Err(StepError::TooLong { table: 3, .. })
        ));
        assert_eq!(held, base);
        step.base = u32::MAX;
        assert!(matches!(
            step.apply(&mut held),
            Err(StepError::BaseMismatch { .. })
        ));
    }

    #[test]
    fn names_limits_orders_and_taken_back_moves_need_the_whole_view() {
        let base = view(5, 6);
        let mut renamed = played(&base);
        renamed.red = "张三".into();
        let mut limited = played(&base);
        limited.move_limit = Some(MoveLimitView {
            limit: MoveLimit {
                at_ply: 7,
                requested_by: None,
                limited: Side::Red,
                book_draw: false,
                moves_each: 40,
                reply_cap: 0,
            },
            remaining_red: 40,
            remaining_black: 40,
            struck: 0,
            capture_at_ply: None,
        });
        let mut ordered = played(&base);
        ordered.order = Some(StandingOrder {
            must_change: Some(Side::Black),
            at_ply: 7,
            claim_id: 1,
            text: crate::Message::new("order-change"),
        });
        // Taken back and another move played: as many moves, not the base's.
        let mut taken_back = base.clone();
        taken_back.moves[5] = mv(40);
        for next in [renamed, limited, ordered, taken_back, view(6, 7)] {
            assert_eq!(TableStep::between(&base, &next), None, "{next:?}");
        }
        // A sealed game: the sealed move is in no view; the step carries
        // the status, the moves stay the base's.
        let mut sealed = base.clone();
        sealed.status = TableStatus::Sealed {
            by: "chief".into(),
            at_ms: 5,
        };
        sealed.clock.running = None;
        let step = TableStep::between(&base, &sealed).expect("a step");
        assert!(step.moves.is_empty());
        let mut held = base.clone();
        step.apply(&mut held).expect("applies");
        assert_eq!(held, sealed);
    }

    #[test]
    fn a_real_board_is_made_by_the_receiver_not_sent() {
        let start = xiangqi::Position::new().to_fen();
        let mut base = view(1, 0);
        base.fen.clone_from(&start);
        let moves: Vec<IccsMove> = ["h2e2", "h9g7"]
            .iter()
            .map(|m| IccsMove::parse(m).expect("iccs"))
            .collect();
        let mut next = base.clone();
        next.moves.clone_from(&moves);
        next.plies = 2;
        next.last_move = moves.last().copied();
        next.fen = played_board(&start, &moves).expect("legal");
        assert_ne!(next.fen, start);
        let step = TableStep::between(&base, &next).expect("a step");
        assert_eq!(step.fen, None);
        let mut held = base.clone();
        step.apply(&mut held).expect("applies");
        assert_eq!(held, next);
        // A board the moves do not make: sent.
        let mut odd = next.clone();
        odd.fen.clone_from(&start);
        let sent = TableStep::between(&base, &odd).expect("a step");
        assert_eq!(sent.fen.as_deref(), Some(start.as_str()));
        // A receiver whose board is not the base's: an error, nothing changed.
        let mut wrong = base.clone();
        wrong.fen = "9/9/9/9/9/9/9/9/9/9 w - - 0 1".into();
        let before = wrong.clone();
        assert_eq!(step.apply(&mut wrong), Err(StepError::Board { table: 1 }));
        assert_eq!(wrong, before);
    }
}
