//! The move limit 限著 of the ROC rules at one table (docs/rules.md, ROC-6
//! to ROC-8): declared by an arbiter's command, counted per player from the
//! declaration by the rulebook's [`RocLimitCounter`], shown in the table's
//! view, and judged when a player claims it is full.
//!
//! - A declaration replaces any earlier one (a reset, ROC-7); a cancel
//!   removes it. Both go to the terminal as `ControlToTable::MoveLimit`.
//! - After every ply the count goes on; when it becomes full, or a capture
//!   after the declaration stops it (a new development: the arbiter
//!   cancels, resets or keeps it), an alert says so, once.
//! - A claim (the terminal's `ClaimNaturalLimit` under ROC) is a
//!   `ClaimKind::MoveLimit` claim: full → draw; not full → play on, with no
//!   penalty (the ROC text has none); stopped by a capture → play on, and
//!   the arbiter is asked to reset; no limit declared → play on (ROC-6: the
//!   arbiter may declare one).

use i18n::texts;
use proto::{AlertKind, ClaimKind, MoveLimit, MoveLimitView, Ruling, Side, Verdict};
use rulebook::limit::PlyFact;
use rulebook::roc_limit::{roc_params, Declarer, RocDeclaration, RocLimitCounter, RocLimitState};
use rulebook::{RuleId, RuleParams};

use super::convert::color;
use super::TableState;
use crate::alerts::NewAlert;
use crate::book::Book;
use crate::claims::NewClaim;

/// A declared limit: what was declared (as the wire has it) and its count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeclaredLimit {
    /// The declaration, with the sizes of the hall's rule parameters.
    pub wire: MoveLimit,
    /// The count since the declaration.
    pub counter: RocLimitCounter,
}

impl DeclaredLimit {
    /// The rule parameters the count uses (the declaration's sizes).
    pub fn params(&self) -> RuleParams {
        roc_params(self.wire.moves_each, self.wire.reply_cap)
    }

    /// Where the limit stands.
    pub fn state(&self) -> RocLimitState {
        self.counter.state(&self.params())
    }

    /// The console's view of it.
    pub fn view(&self) -> MoveLimitView {
        let p = self.params();
        MoveLimitView {
            limit: self.wire,
            remaining_red: self.counter.remaining(xiangqi::Color::Red, &p),
            remaining_black: self.counter.remaining(xiangqi::Color::Black, &p),
            struck: self.counter.struck(&p),
            capture_at_ply: match self.counter.state(&p) {
                RocLimitState::Reset { at_ply } => Some(at_ply),
                _ => None,
            },
        }
    }
}

/// The rulebook's declaration of a wire declaration.
pub fn declaration(w: &MoveLimit) -> RocDeclaration {
    RocDeclaration {
        at_ply: w.at_ply,
        by: match w.requested_by {
            Some(s) => Declarer::Player(color(s)),
            None => Declarer::Arbiter,
        },
        limited: color(w.limited),
        book_draw: w.book_draw,
    }
}

/// The wire declaration made now, `at_ply` plies into the game, with the
/// sizes of `params`.
pub fn wire_declaration(
    at_ply: u32,
    requested_by: Option<Side>,
    limited: Side,
    book_draw: bool,
    params: &RuleParams,
) -> MoveLimit {
    let d = RocDeclaration {
        at_ply,
        by: Declarer::Arbiter,
        limited: color(limited),
        book_draw,
    };
    MoveLimit {
        at_ply,
        requested_by,
        limited,
        book_draw,
        moves_each: d.moves_each(params),
        reply_cap: params.limit.check_cap,
    }
}

fn ids(rules: &[RuleId]) -> Vec<String> {
    rules.iter().map(|r| r.as_str().to_string()).collect()
}

impl TableState {
    /// Declares the limit now (replacing any earlier one); returns what the
    /// terminal is told.
    pub fn declare_move_limit(
        &mut self,
        requested_by: Option<Side>,
        limited: Side,
        book_draw: bool,
        params: &RuleParams,
    ) -> MoveLimit {
        let at = u32::try_from(self.board.plies()).unwrap_or(u32::MAX);
        let wire = wire_declaration(at, requested_by, limited, book_draw, params);
        // The side to move in check: the last ply gave check, so the next
        // one (the first counted) is a reply to check.
        let check_by = self
            .board
            .position
            .is_check()
            .then(|| self.board.turn().other());
        self.move_limit = Some(Box::new(DeclaredLimit {
            wire,
            counter: RocLimitCounter::declared_now(declaration(&wire), check_by),
        }));
        wire
    }

    /// Counts one ply played; alerts when the limit becomes full or a
    /// capture stops the count.
    pub(super) fn count_move_limit(&mut self, fact: PlyFact, now: u64, book: &mut Book) {
        let Some(d) = self.move_limit.as_mut() else {
            return;
        };
        let before = d.state();
        d.counter.record(fact);
        let after = d.state();
        if before == after {
            return;
        }
        let t = self.table;
        let v = d.counter.judge(&d.params());
        let explanation = texts::ruling(&v.explanation);
        let text = match after {
            RocLimitState::Full => texts::move_limit_full(t, explanation),
            RocLimitState::Reset { .. } => texts::move_limit_capture(t, explanation),
            RocLimitState::Running => return,
        };
        book.alert(
            NewAlert {
                table: t,
                kind: AlertKind::MoveLimit,
                text,
                rule_ids: ids(&v.rule_ids),
            },
            now,
        );
    }

    /// A player's claim that the declared limit is full.
    pub(super) fn claim_move_limit(&mut self, by: Side, now: u64, book: &mut Book) {
        let t = self.table;
        let ruling = match &self.move_limit {
            None => Ruling {
                verdict: Verdict::Continue,
                must_change: None,
                rule_ids: vec![RuleId::ROC_6.as_str().to_string()],
                explanation: texts::ruling_no_move_limit(by),
            },
            Some(d) => {
                let v = d.counter.judge(&d.params());
                Ruling {
                    verdict: if v.state == RocLimitState::Full {
                        Verdict::Draw
                    } else {
                        Verdict::Continue
                    },
                    must_change: None,
                    rule_ids: ids(&v.rule_ids),
                    explanation: texts::ruling(&v.explanation),
                }
            }
        };
        book.alert(
            NewAlert {
                table: t,
                kind: AlertKind::ClaimPending,
                text: texts::claim_move_limit(t, by, ruling.explanation.clone()),
                rule_ids: ruling.rule_ids.clone(),
            },
            now,
        );
        book.claim(NewClaim::new(t, ClaimKind::MoveLimit, ruling).by(by), now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::convert::side;
    use proto::{IccsMove, TableEvent};
    use rulebook::RuleSet;

    fn play(t: &mut TableState, moves: &[&str], params: &RuleParams, book: &mut Book) {
        for m in moves {
            let by = side(t.board.turn());
            let mv = IccsMove::parse(m).expect("iccs");
            t.apply_event(&TableEvent::Move { by, mv }, 0, params, book);
        }
    }

    /// Horses out and back: four plies, no capture, no check.
    const SHUFFLE: [&str; 4] = ["h0g2", "h9g7", "g2h0", "g7h9"];

    fn shuffle(n: usize) -> Vec<&'static str> {
        (0..n).map(|i| SHUFFLE[i % 4]).collect()
    }

    fn claim(t: &mut TableState, by: Side, params: &RuleParams, book: &mut Book) -> Ruling {
        t.apply_event(&TableEvent::ClaimNaturalLimit { by }, 0, params, book);
        let c = book.claims.all().last().expect("a claim").clone();
        assert_eq!(c.kind, ClaimKind::MoveLimit);
        c.recommended
    }

    #[test]
    fn declared_counted_per_player_and_claimed() {
        let params = RuleSet::Roc.params();
        let mut t = TableState::new(1, "R", "B", 60_000, 0, &params);
        let mut book = Book::default();
        play(&mut t, &shuffle(6), &params, &mut book);
        // Without a declaration a claim only says none was declared.
        let r = claim(&mut t, Side::Black, &params, &mut book);
        assert_eq!(r.verdict, Verdict::Continue);
        assert_eq!(r.rule_ids, ["ROC-6"]);
        let w = t.declare_move_limit(Some(Side::Black), Side::Red, false, &params);
        assert_eq!((w.at_ply, w.moves_each, w.reply_cap), (6, 40, 5));
        // 79 plies: Red 40, Black 39; one short is a false claim, no penalty.
        play(&mut t, &shuffle(81)[2..], &params, &mut book);
        let v = t.move_limit.as_deref().expect("declared").view();
        assert_eq!((v.remaining_red, v.remaining_black), (0, 1));
        let r = claim(&mut t, Side::Black, &params, &mut book);
        assert_eq!(r.verdict, Verdict::Continue);
        let last = book
            .claims
            .get(book.claims.all().last().unwrap().id)
            .unwrap();
        assert_eq!(last.penalty, crate::claims::Penalty::None);
        assert!(!book.alerts.all().any(|a| a.kind == AlertKind::MoveLimit));
        // Black's 40th: full, one alert, and the claim is upheld.
        play(&mut t, &["h9g7"], &params, &mut book);
        assert!(t.move_limit.as_deref().expect("declared").view().full());
        let full: Vec<_> = book
            .alerts
            .all()
            .filter(|a| a.kind == AlertKind::MoveLimit)
            .collect();
        assert_eq!(full.len(), 1);
        assert!(full[0].rule_ids.contains(&"ROC-7".to_string()));
        let r = claim(&mut t, Side::Black, &params, &mut book);
        assert_eq!(r.verdict, Verdict::Draw, "{r:?}");
        assert!(r.rule_ids.iter().all(|id| id.starts_with("ROC-")), "{r:?}");
    }

    #[test]
    fn a_capture_after_the_declaration_asks_for_a_reset() {
        let params = RuleSet::Roc.params();
        let mut t = TableState::new(1, "R", "B", 60_000, 0, &params);
        let mut book = Book::default();
        t.declare_move_limit(None, Side::Red, false, &params);
        // The central cannon takes the centre pawn over its own pawn at ply 3.
        play(&mut t, &["b2e2", "h9g7", "e2e6"], &params, &mut book);
        let v = t.move_limit.as_deref().expect("declared").view();
        assert_eq!(v.capture_at_ply, Some(3), "{v:?}");
        let alerts: Vec<_> = book
            .alerts
            .all()
            .filter(|a| a.kind == AlertKind::MoveLimit)
            .collect();
        assert_eq!(alerts.len(), 1);
        let en = texts::english(&alerts[0].text);
        assert!(en.contains("ply 3"), "{en}");
        let r = claim(&mut t, Side::Black, &params, &mut book);
        assert_eq!(r.verdict, Verdict::Continue);
        assert!(
            texts::english(&r.explanation).contains("cancels the limit"),
            "{r:?}"
        );
    }
}
