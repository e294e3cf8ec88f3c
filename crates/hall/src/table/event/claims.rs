//! A player's claim (申诉) at the table and a call for the arbiter: the
//! natural-limit claim (自然限着; under ROC, the declared move limit's
//! claim, `table::move_limit`), the repetition claim (棋例) judged by the
//! rulebook over the whole game, and a call (请裁判). Each opens a claim
//! with the recommended ruling and raises an alert for the arbiter.

use i18n::texts;
use proto::{AlertKind, ClaimKind, Ruling, Side, Verdict};
use rulebook::limit::judge_claim;
use rulebook::RuleParams;

use super::{declared_limit, ids, TableState};
use crate::alerts::NewAlert;
use crate::book::Book;
use crate::claims::{Ends, LimitClaimPenalty, NewClaim, Penalty};
use crate::table::convert::{color, side};

/// `ClaimNaturalLimit`: judged now (under ROC the limit is declared: a
/// claim is that it is full).
pub(super) fn natural_limit(
    t: &mut TableState,
    by: Side,
    now: u64,
    params: &RuleParams,
    book: &mut Book,
) {
    if declared_limit(params) {
        t.claim_move_limit(by, now, book)
    } else {
        t.claim_limit(by, now, params, book)
    }
}

/// `ClaimRepetition`: the rulebook judges the game.
pub(super) fn repetition(
    t: &mut TableState,
    by: Side,
    now: u64,
    params: &RuleParams,
    book: &mut Book,
) {
    t.claim_repetition(by, now, params, book)
}

/// `CallArbiter`: an alert with the player's words.
pub(super) fn call_arbiter(t: &TableState, by: Side, reason: &str, now: u64, book: &mut Book) {
    let n = t.table;
    book.alert(
        NewAlert::new(
            n,
            AlertKind::ArbiterCalled,
            texts::arbiter_called(n, by, reason),
            &[],
        ),
        now,
    );
}

impl TableState {
    fn claim_limit(&mut self, by: Side, now: u64, params: &RuleParams, book: &mut Book) {
        let t = self.table;
        let v = judge_claim(&self.limit, color(by), params, false);
        let rule_ids = ids(&v.rule_ids);
        let penalty = match v.penalty {
            Some(p) => Penalty::FalseLimitClaim(LimitClaimPenalty {
                side: by,
                technical_foul: p.technical_foul,
                deduct_ms: p.time_deduction_ms,
            }),
            None => Penalty::None,
        };
        let ruling = Ruling {
            verdict: if v.holds {
                Verdict::Draw
            } else {
                Verdict::Continue
            },
            must_change: None,
            rule_ids: rule_ids.clone(),
            explanation: texts::ruling(&v.explanation),
        };
        let ruling_text = ruling.explanation.clone();
        let claim = NewClaim::new(t, ClaimKind::NaturalLimit, ruling);
        book.claim(claim.by(by).penalty(penalty), now);
        book.alert(
            NewAlert {
                table: t,
                kind: AlertKind::ClaimPending,
                text: texts::at_table(t, ruling_text),
                rule_ids,
            },
            now,
        );
    }

    fn claim_repetition(&mut self, by: Side, now: u64, params: &RuleParams, book: &mut Book) {
        let t = self.table;
        let judged =
            rulebook::repetition::judge_game(&self.board.start, &self.board.moves, params.rule_set);
        let ends = match &judged {
            Ok(Some(r)) => Ends::repetition(r),
            _ => Ends::of_kind(ClaimKind::Repetition),
        };
        let ruling = match judged {
            Ok(Some(r)) => order_ruling(&r, self.cycles_after_order),
            _ => Ruling {
                verdict: Verdict::Continue,
                must_change: None,
                rule_ids: Vec::new(),
                explanation: texts::ruling_no_cycle(),
            },
        };
        book.alert(
            NewAlert {
                table: t,
                kind: AlertKind::ClaimPending,
                text: texts::claim_repetition(t, by, ruling.explanation.clone()),
                rule_ids: ruling.rule_ids.clone(),
            },
            now,
        );
        let id = book.claim(NewClaim::new(t, ClaimKind::Repetition, ruling).by(by), now);
        book.claims.set_ends(id, ends);
    }
}

/// The recommended ruling at a repetition's third occurrence: the order
/// (change, or one more cycle is a draw), not yet a result. The rulebook's
/// verdict (who violates) is in the explanation and the rule ids; the
/// explanation travels as data (`ruling-order`: the order, the ruling with
/// its pieces, squares and counts, the arbiter's judgement it asks for).
pub fn order_ruling(r: &rulebook::ruling::Ruling, cycles: rulebook::CyclesAfterOrder) -> Ruling {
    Ruling {
        verdict: Verdict::Order,
        must_change: r.must_change.map(side),
        explanation: texts::order_ruling(r, cycles),
        rule_ids: ids(&r.rules),
    }
}

/// The wire ruling of a rulebook repetition ruling.
pub fn repetition_ruling(r: &rulebook::ruling::Ruling) -> Ruling {
    Ruling {
        verdict: crate::table::convert::repetition_verdict(r.verdict),
        must_change: r.must_change.map(side),
        rule_ids: ids(&r.rules),
        explanation: texts::ruling(&r.full_explanation()),
    }
}
