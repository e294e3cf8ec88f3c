//! Moves (着法) reported by the terminal, with a clock press or alone (a
//! board sensor, the correction of an illegal move), checked with
//! crates/xiangqi. A legal move is played: the counters, the rulebook's
//! natural-limit and repetition checks, and a standing order at a
//! repetition follow it. An illegal move is not played: the alert and the
//! recommended ruling follow the rules (a move that ignores a check or
//! exposes the kings proposes a loss, AXF-G6; any other a correction and a
//! technical foul, AXF-PLAY-4A), and the board waits for the correction.

use i18n::texts;
use proto::{AlertKind, ClaimKind, IccsMove, Ruling, Side, Verdict};
use rulebook::limit::{limit_reached, PlyFact};
use rulebook::{Lapse, OrderState, RuleId, RuleParams};
use xiangqi::IllegalReason;

use super::claims::{order_ruling, repetition_ruling};
use super::{clock, declared_limit, ids, TableState};
use crate::alerts::NewAlert;
use crate::book::Book;
use crate::claims::{Ends, NewClaim};
use crate::table::board::{illegal_move_loses, MoveOutcome};
use crate::table::convert::{game_move, side};
use crate::table::{PendingIllegal, Raised};

/// `Move`: the game is under way; the move is played or found illegal.
pub(super) fn reported(
    t: &mut TableState,
    by: Side,
    mv: IccsMove,
    now: u64,
    params: &RuleParams,
    book: &mut Book,
) {
    clock::start(t, now);
    t.play_move(by, mv, now, params, book);
}

impl TableState {
    /// Plays a reported move, or raises the illegal-move alert and claim.
    pub fn play_move(
        &mut self,
        by: Side,
        mv: IccsMove,
        now: u64,
        params: &RuleParams,
        book: &mut Book,
    ) {
        let t = self.table;
        let turn = side(self.board.turn());
        let outcome = match game_move(mv) {
            None => Err((texts::illegal_not_a_move(&mv.to_string()), false)),
            Some(_) if by != turn => Err((texts::illegal_wrong_turn(by, turn), false)),
            Some(m) => {
                let before = self
                    .order
                    .as_ref()
                    .is_some_and(|o| o.standing())
                    .then(|| self.board.position.clone());
                match self.board.play(m) {
                    MoveOutcome::Played {
                        mover,
                        capture,
                        check,
                    } => {
                        self.after_ply(m, mover, capture, check, before, now, params, book);
                        Ok(())
                    }
                    MoveOutcome::Illegal(e) => {
                        let loses = illegal_move_loses(&e.reason);
                        Err((texts::illegal_reason(illegal_words(&e.reason)), loses))
                    }
                }
            }
        };
        let Err((why, loses)) = outcome else {
            return;
        };
        let rules: &[RuleId] = if loses {
            &[RuleId::AXF_G6]
        } else {
            &[RuleId::AXF_PLAY_4A]
        };
        book.alert(
            NewAlert::new(
                t,
                AlertKind::IllegalMove,
                texts::illegal_move(t, by, &mv.to_string(), why),
                rules,
            ),
            now,
        );
        let verdict = if loses {
            Verdict::Loss { side: by }
        } else {
            Verdict::CorrectMove { side: by }
        };
        let ruling = Ruling {
            verdict,
            must_change: None,
            rule_ids: ids(rules),
            explanation: texts::illegal_ruling(loses, by, &mv.to_string()),
        };
        let claim = book.claim(NewClaim::new(t, ClaimKind::IllegalMove, ruling), now);
        self.pending_illegal = Some(PendingIllegal {
            mv,
            by,
            claim_id: claim,
        });
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "the ply's facts as the move event computed them; a struct would only be built to be taken apart here"
    )]
    fn after_ply(
        &mut self,
        m: xiangqi::Move,
        mover: xiangqi::Color,
        capture: bool,
        check: bool,
        before: Option<xiangqi::Position>,
        now: u64,
        params: &RuleParams,
        book: &mut Book,
    ) {
        let t = self.table;
        self.pending_illegal = None;
        if capture {
            self.forget_stretch();
        }
        if let Some(before) = before {
            self.follow_order(&before, m, now, book);
        }
        // While an order stands or awaits its second ruling, the cycle's
        // later occurrences are the order's business, not new claims.
        let order_open = self.order.as_ref().is_some_and(|o| !o.lapsed());
        let fact = PlyFact {
            by: mover,
            capture,
            check,
        };
        self.limit.record(fact);
        self.count_move_limit(fact, now, book);
        if let Some(rep) = self.repetition.push(m, &self.board.position) {
            let key = self.board.position.zobrist();
            let same_cycle = self
                .repetition_last_ply
                .is_some_and(|last| rep.ply.saturating_sub(last) <= rep.ruling.cycle.len());
            self.repetition_last_ply = Some(rep.ply);
            let new_position = self.repetition_alerted.insert(key);
            if new_position && !same_cycle && !order_open {
                let r = &rep.ruling;
                let rule_ids = ids(&r.rules);
                book.alert(
                    NewAlert {
                        table: t,
                        kind: AlertKind::Repetition,
                        text: texts::repetition(
                            t,
                            r.cycle.occurrences as u32,
                            texts::ruling(&r.explanation),
                        ),
                        rule_ids: rule_ids.clone(),
                    },
                    now,
                );
                let ruling = order_ruling(r, self.cycles_after_order);
                let id = book.claim(NewClaim::new(t, ClaimKind::Repetition, ruling), now);
                book.claims.set_ends(id, Ends::repetition(r));
            }
        }
        // Under a rule set that counts the limit from the arbiter's
        // declaration (ROC), the count since the last capture is not the
        // limit's count: the declared limit alerts (`move_limit.rs`).
        let declared_only = declared_limit(params);
        // Once raised for this capture-free stretch, the limit is not judged
        // again at every ply (its texts cost more than the move itself).
        let stretch = self.board.stretch_start;
        let raised = self.raised.contains(&Raised::Limit(stretch));
        if let Some(la) = (!declared_only && !raised)
            .then(|| limit_reached(&self.limit, params, false))
            .flatten()
        {
            if self.raised.insert(Raised::Limit(stretch)) {
                book.alert(
                    NewAlert {
                        table: t,
                        kind: AlertKind::NaturalLimit,
                        text: texts::at_table(t, texts::ruling(&la.explanation)),
                        rule_ids: ids(&la.rule_ids),
                    },
                    now,
                );
            }
        }
    }

    /// A capture opened a new capture-free stretch: what was kept only to
    /// raise an alert once per stretch goes. No position before a capture
    /// occurs again (it has a piece more), so its repetition marks are
    /// never looked up again, nor is the natural-limit mark of a stretch
    /// that ended. This keeps both bounded by one stretch, not by the game.
    fn forget_stretch(&mut self) {
        self.repetition_alerted.clear();
        self.raised.retain(|r| !matches!(r, Raised::Limit(_)));
    }

    /// Feeds the move just played (from `before`) to the standing order:
    /// a lapse is alerted, the cycle repeated raises the second claim.
    fn follow_order(
        &mut self,
        before: &xiangqi::Position,
        m: xiangqi::Move,
        now: u64,
        book: &mut Book,
    ) {
        let t = self.table;
        let Some(o) = self.order.as_mut() else {
            return;
        };
        let claim = o.claim_id;
        match o.watch.push(before, m, &self.board.position).cloned() {
            Some(OrderState::Lapsed(l)) => {
                let why = match l {
                    Lapse::Capture { ply, by } => texts::order_lapse(true, side(by), ply as u64),
                    Lapse::LeftCycle { ply, by } => texts::order_lapse(false, side(by), ply as u64),
                };
                book.alert(
                    NewAlert::new(
                        t,
                        AlertKind::Repetition,
                        texts::order_lapsed(t, why, claim),
                        &[],
                    ),
                    now,
                );
            }
            Some(OrderState::Repeated { ruling, .. }) => {
                let r = repetition_ruling(&ruling);
                book.alert(
                    NewAlert {
                        table: t,
                        kind: AlertKind::Repetition,
                        text: texts::order_repeated(t, r.explanation.clone()),
                        rule_ids: r.rule_ids.clone(),
                    },
                    now,
                );
                let id = book.claim(NewClaim::new(t, ClaimKind::Repetition, r), now);
                book.claims.set_ends(id, Ends::repetition(&ruling));
            }
            _ => {}
        }
    }
}

/// The message id of why a move is illegal (`i18n::texts::ILLEGAL_REASONS`).
fn illegal_words(reason: &IllegalReason) -> &'static str {
    match reason {
        IllegalReason::EmptySquare => "illegal-empty-square",
        IllegalReason::NotYourPiece => "illegal-not-your-piece",
        IllegalReason::OwnPieceOnTarget => "illegal-own-piece",
        IllegalReason::PieceCannotMoveThere => "illegal-cannot-move-there",
        IllegalReason::LeavesKingInCheck => "illegal-leaves-check",
        IllegalReason::KingsFacing => "illegal-kings-facing",
        #[allow(
            unreachable_patterns,
            reason = "a reason xiangqi adds later reads as a plain illegal move until it is worded here"
        )]
        _ => "illegal-generic",
    }
}
