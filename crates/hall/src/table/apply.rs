//! Applying a stored table event to a [`TableState`]: clock mirror, moves
//! checked with crates/xiangqi, counters, the rulebook's natural-limit and
//! repetition checks, claims, offers, fouls and results. Alerts and claims
//! are raised in the hall's [`Book`].
//!
//! Illegal moves are not played: the alert and the recommended ruling follow
//! the rules (a move that ignores a check or exposes the kings proposes a
//! loss, AXF-G6; any other a correction and a technical foul, AXF-PLAY-4A),
//! and the board waits for the correction.

use proto::{
    AlertKind, ClaimKind, EndReason, FoulKind, GameResult, IccsMove, Ruling, Side, TableEvent,
    TableStatus, Verdict,
};
use rulebook::limit::{judge_claim, limit_reached, PlyFact};
use rulebook::{OrderState, RuleParams};
use xiangqi::IllegalReason;

use super::board::{illegal_move_loses, MoveOutcome};
use super::convert::{color, game_move, side, side_en, side_zh};
use super::{PendingIllegal, Raised, TableState};
use crate::alerts::NewAlert;
use crate::book::Book;
use crate::claims::{Ends, Penalty};

fn ids(rules: &[rulebook::RuleId]) -> Vec<String> {
    rules.iter().map(|r| r.as_str().to_string()).collect()
}

fn strs(rules: &[&str]) -> Vec<String> {
    rules.iter().map(|s| s.to_string()).collect()
}

impl TableState {
    /// Applies one stored table event received at server time `now`.
    pub fn apply_event(&mut self, ev: &TableEvent, now: u64, params: &RuleParams, book: &mut Book) {
        self.last_heard_ms = now;
        let t = self.table;
        if let Some(by) = reported_by(ev) {
            self.seen(by, now);
        }
        if let TableEvent::ClockPress { by, .. } | TableEvent::Move { by, .. } = ev {
            let by = *by;
            book.lapse(
                t,
                |c| {
                    c.kind == ClaimKind::NoShow
                        && c.recommended.verdict == Verdict::Loss { side: by }
                },
                || format!("{} is at the board and moved", side_en(by)),
                now,
            );
        }
        match ev {
            TableEvent::Arrived { side } => {
                self.arrived[*side] = true;
            }
            TableEvent::ClockStarted {
                red_ms,
                black_ms,
                terminal_mono_ms,
            } => {
                self.start(now);
                book.lapse(
                    t,
                    |c| c.kind == ClaimKind::NoShow,
                    || "the clock started: the players are at the board".to_string(),
                    now,
                );
                let anomalies = self.clock.report(
                    None,
                    *red_ms,
                    *black_ms,
                    *terminal_mono_ms,
                    now,
                    Some(self.board.turn()),
                );
                self.clock_anomalies(anomalies, now, book);
                self.sample_clock(now);
            }
            TableEvent::ClockPress {
                by,
                mv,
                red_ms,
                black_ms,
                terminal_mono_ms,
            } => {
                self.start(now);
                if let Some(m) = mv {
                    self.play_move(*by, *m, now, params, book);
                }
                if self.draw_offer == Some(by.other()) {
                    // A move answers a standing offer: refused.
                    self.draw_offer = None;
                }
                let anomalies = self.clock.report(
                    Some(color(*by)),
                    *red_ms,
                    *black_ms,
                    *terminal_mono_ms,
                    now,
                    None,
                );
                self.clock_anomalies(anomalies, now, book);
                self.sample_clock(now);
                for s in [Side::Red, Side::Black] {
                    let left = if s == Side::Red { *red_ms } else { *black_ms };
                    if left == 0 {
                        self.flag_fall(s, now, book);
                    }
                }
            }
            TableEvent::Move { by, mv } => {
                self.start(now);
                self.play_move(*by, *mv, now, params, book);
            }
            // Under ROC the limit is declared: a claim is that it is full.
            TableEvent::ClaimNaturalLimit { by } if declared_limit(params) => {
                self.claim_move_limit(*by, now, book)
            }
            TableEvent::ClaimNaturalLimit { by } => self.claim_limit(*by, now, params, book),
            TableEvent::ClaimRepetition { by } => self.claim_repetition(*by, now, params, book),
            TableEvent::DrawOffer { by } => {
                self.draw_offer = Some(*by);
            }
            TableEvent::DrawAccept { by } => {
                if self.draw_offer == Some(by.other()) {
                    self.draw_offer = None;
                    self.finish(
                        GameResult::Draw,
                        EndReason::Agreement,
                        "draw agreed (AXF-G4)",
                        now,
                        book,
                    );
                }
            }
            TableEvent::DrawDecline { by } => {
                if self.draw_offer == Some(by.other()) {
                    self.draw_offer = None;
                }
            }
            TableEvent::Resign { by, reason } => {
                let why = format!("{} resigned: {reason}", side_en(*by));
                self.finish(
                    GameResult::win_for(by.other()),
                    EndReason::Resignation,
                    &why,
                    now,
                    book,
                );
            }
            TableEvent::CallArbiter { by, reason } => {
                book.alert(
                    NewAlert::new(
                        t,
                        AlertKind::ArbiterCalled,
                        format!("第{t}台{}请裁判：{reason}", side_zh(*by)),
                        format!("table {t}: {} calls the arbiter: {reason}", side_en(*by)),
                        &[],
                    ),
                    now,
                );
            }
            TableEvent::FoulReport { side, kind, note } => {
                self.add_foul(*side, *kind, note, now, params, book);
            }
            TableEvent::FlagFell {
                side,
                red_ms,
                black_ms,
                terminal_mono_ms,
            } => {
                let running = self.clock.running;
                self.clock
                    .report(None, *red_ms, *black_ms, *terminal_mono_ms, now, running);
                self.sample_clock(now);
                self.flag_fall(*side, now, book);
            }
            TableEvent::Result {
                result,
                why,
                reason,
            } => {
                // Mate and stalemate are the board's to say, not the report's.
                let why = self.board_end().unwrap_or(match why {
                    EndReason::Checkmate | EndReason::Stalemate => EndReason::Reported,
                    other => *other,
                });
                self.finish(*result, why, reason, now, book);
            }
            TableEvent::ControlApplied {
                control_id,
                red_ms,
                black_ms,
                running,
                terminal_mono_ms,
            } => {
                self.pending_controls.retain(|(c, _)| c != control_id);
                self.clock.red_ms = *red_ms;
                self.clock.black_ms = *black_ms;
                self.clock.terminal_ms = Some(*terminal_mono_ms);
                self.clock.reported_at_ms = now;
                if let Some(r) = running {
                    self.clock.running = Some(color(*r));
                }
                self.sample_clock(now);
            }
        }
        book.touch(t);
    }

    fn start(&mut self, now: u64) {
        if self.started_at_ms.is_none() {
            self.started_at_ms = Some(now);
        }
        if self.status == TableStatus::Waiting {
            self.status = TableStatus::Playing;
        }
    }

    fn clock_anomalies(
        &mut self,
        anomalies: Vec<super::clock::ClockAnomaly>,
        now: u64,
        book: &mut Book,
    ) {
        let t = self.table;
        for a in anomalies {
            book.alert(
                NewAlert::new(
                    t,
                    AlertKind::ClockAnomaly,
                    format!("第{t}台计时异常：{}", a.description_zh),
                    format!("table {t}: clock anomaly: {}", a.description_en),
                    &["AXF-CLOCK-5"],
                ),
                now,
            );
        }
    }

    /// A flag fell for `s` (once per game): alert and a claim proposing the loss.
    pub fn flag_fall(&mut self, s: Side, now: u64, book: &mut Book) {
        if self.finished() || !self.raised.insert(Raised::Flag(s)) {
            return;
        }
        self.flag = Some(s);
        let t = self.table;
        let rules = ["AXF-CLOCK-1"];
        book.alert(
            NewAlert::new(
                t,
                AlertKind::FlagFall,
                format!("第{t}台{}超时落旗", side_zh(s)),
                format!("table {t}: {}'s flag fell", side_en(s)),
                &rules,
            ),
            now,
        );
        book.claim(
            t,
            ClaimKind::FlagFall,
            None,
            now,
            Ruling {
                verdict: Verdict::Loss { side: s },
                must_change: None,
                rule_ids: strs(&rules),
                explanation_zh: format!("{}用时已尽，超时判负。", side_zh(s)),
                explanation_en: format!("{}'s time ran out: loss on time.", side_en(s)),
            },
            Penalty::None,
        );
    }

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
            None => Err((format!("{mv} is not a move on the board"), false)),
            Some(_) if by != turn => Err((
                format!("{} moved but it is {}'s turn", side_en(by), side_en(turn)),
                false,
            )),
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
                        Err((illegal_words(&e.reason).to_string(), loses))
                    }
                }
            }
        };
        let Err((why, loses)) = outcome else {
            return;
        };
        let rules: &[&str] = if loses { &["AXF-G6"] } else { &["AXF-PLAY-4A"] };
        book.alert(
            NewAlert::new(
                t,
                AlertKind::IllegalMove,
                format!("第{t}台{}走出违规着法{mv}：{why}", side_zh(by)),
                format!("table {t}: illegal move {mv} by {}: {why}", side_en(by)),
                rules,
            ),
            now,
        );
        let (verdict, zh, en) = if loses {
            (
                Verdict::Loss { side: by },
                format!("{}着法{mv}不应将或造成将帅对面，判负。", side_zh(by)),
                format!(
                    "{}'s move {mv} ignores a check or exposes the kings: loss (AXF-G6).",
                    side_en(by)
                ),
            )
        } else {
            (
                Verdict::CorrectMove { side: by },
                format!("{}着法{mv}不合规则，应纠正，并作技术犯规一次。", side_zh(by)),
                format!(
                    "{}'s move {mv} is not legal: it is corrected and counts as one technical foul (AXF-PLAY-4A).",
                    side_en(by)
                ),
            )
        };
        let claim = book.claim(
            t,
            ClaimKind::IllegalMove,
            None,
            now,
            Ruling {
                verdict,
                must_change: None,
                rule_ids: strs(rules),
                explanation_zh: zh,
                explanation_en: en,
            },
            Penalty::None,
        );
        self.pending_illegal = Some(PendingIllegal {
            mv,
            by,
            claim_id: claim,
        });
    }

    #[allow(clippy::too_many_arguments)]
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
                        text_zh: format!(
                            "第{t}台出现循环（第{}次重复）：{}",
                            r.cycle.occurrences, r.explanation_zh
                        ),
                        text_en: format!(
                            "table {t}: repetition (position occurred {} times): {}",
                            r.cycle.occurrences, r.explanation_en
                        ),
                        rule_ids: rule_ids.clone(),
                    },
                    now,
                );
                let id = book.claim(
                    t,
                    ClaimKind::Repetition,
                    None,
                    now,
                    order_ruling(r, self.cycles_after_order),
                    Penalty::None,
                );
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
                        text_zh: format!("第{t}台{}", la.explanation_zh),
                        text_en: format!("table {t}: {}", la.explanation_en),
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
                let (zh, en) = l.words();
                book.alert(
                    NewAlert::new(
                        t,
                        AlertKind::Repetition,
                        format!("第{t}台{zh}（申诉{claim}）"),
                        format!("table {t}: {en} (claim {claim})"),
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
                        text_zh: format!("第{t}台变着令后再循环：{}", r.explanation_zh),
                        text_en: format!(
                            "table {t}: the cycle repeated after the order: {}",
                            r.explanation_en
                        ),
                        rule_ids: r.rule_ids.clone(),
                    },
                    now,
                );
                let id = book.claim(t, ClaimKind::Repetition, None, now, r, Penalty::None);
                book.claims.set_ends(id, Ends::repetition(&ruling));
            }
            _ => {}
        }
    }

    fn claim_limit(&mut self, by: Side, now: u64, params: &RuleParams, book: &mut Book) {
        let t = self.table;
        let v = judge_claim(&self.limit, color(by), params, false);
        let rule_ids = ids(&v.rule_ids);
        let penalty = match v.penalty {
            Some(p) => Penalty::FalseLimitClaim {
                side: by,
                technical_foul: p.technical_foul,
                deduct_ms: p.time_deduction_ms,
            },
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
            explanation_zh: v.explanation_zh.clone(),
            explanation_en: v.explanation_en.clone(),
        };
        book.claim(t, ClaimKind::NaturalLimit, Some(by), now, ruling, penalty);
        book.alert(
            NewAlert {
                table: t,
                kind: AlertKind::ClaimPending,
                text_zh: format!("第{t}台{}", v.explanation_zh),
                text_en: format!("table {t}: {}", v.explanation_en),
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
                explanation_zh: "当前局面未重复三次，不构成循环，继续对弈。".into(),
                explanation_en:
                    "The position has not occurred three times: no cycle to rule on; play continues."
                        .into(),
            },
        };
        book.alert(
            NewAlert {
                table: t,
                kind: AlertKind::ClaimPending,
                text_zh: format!(
                    "第{t}台{}提出棋例申诉：{}",
                    side_zh(by),
                    ruling.explanation_zh
                ),
                text_en: format!(
                    "table {t}: {} claims a repetition ruling: {}",
                    side_en(by),
                    ruling.explanation_en
                ),
                rule_ids: ruling.rule_ids.clone(),
            },
            now,
        );
        let id = book.claim(
            t,
            ClaimKind::Repetition,
            Some(by),
            now,
            ruling,
            Penalty::None,
        );
        book.claims.set_ends(id, ends);
    }

    /// Records a foul and raises the threshold alert and claim when reached.
    pub fn add_foul(
        &mut self,
        s: Side,
        kind: FoulKind,
        note: &str,
        now: u64,
        params: &RuleParams,
        book: &mut Book,
    ) {
        let t = self.table;
        let f = self.fouls_mut(s);
        let (count, limit, raised, rules, zh_kind, en_kind) = match kind {
            FoulKind::Technical => {
                f.technical += 1;
                (
                    f.technical,
                    params.fouls.technical_fouls_to_lose,
                    Raised::TechnicalFouls(s),
                    ["AXF-PLAY-5"],
                    "技术犯规",
                    "technical fouls",
                )
            }
            FoulKind::Violation => {
                f.violations += 1;
                (
                    f.violations,
                    params.fouls.recording_violations_to_lose,
                    Raised::Violations(s),
                    ["AXF-REC-6"],
                    "违例",
                    "violations",
                )
            }
        };
        tracing::debug!(table = t, ?s, ?kind, note, "foul recorded");
        if count < limit || self.finished() || !self.raised.insert(raised) {
            return;
        }
        book.alert(
            NewAlert::new(
                t,
                AlertKind::FoulThreshold,
                format!("第{t}台{}{zh_kind}已达{count}次", side_zh(s)),
                format!("table {t}: {} has {count} {en_kind}", side_en(s)),
                &rules,
            ),
            now,
        );
        book.claim(
            t,
            ClaimKind::FoulThreshold,
            None,
            now,
            Ruling {
                verdict: Verdict::Loss { side: s },
                must_change: None,
                rule_ids: strs(&rules),
                explanation_zh: format!("{}{zh_kind}{count}次，判负。", side_zh(s)),
                explanation_en: format!("{} has {count} {en_kind}: loss.", side_en(s)),
            },
            Penalty::None,
        );
    }

    /// Mate or stalemate on the board, if the game stands there.
    pub fn board_end(&self) -> Option<EndReason> {
        self.board
            .position
            .outcome()
            .map(|xiangqi::Outcome::Win { reason, .. }| match reason {
                xiangqi::EndReason::Checkmate => EndReason::Checkmate,
                xiangqi::EndReason::Stalemate => EndReason::Stalemate,
            })
    }

    /// Ends the game, `why` typed and `reason` in words.
    pub fn finish(
        &mut self,
        result: GameResult,
        why: EndReason,
        reason: &str,
        now: u64,
        book: &mut Book,
    ) {
        let t = self.table;
        self.status = TableStatus::Finished {
            result,
            why,
            reason: reason.to_string(),
        };
        self.sealed = None;
        self.clock.running = None;
        self.sample_clock(now);
        book.lapse(t, |_| true, || format!("the game ended ({why})"), now);
        let (zh, en) = match result {
            GameResult::RedWins => ("红胜", "Red wins"),
            GameResult::BlackWins => ("黑胜", "Black wins"),
            GameResult::Draw => ("和棋", "draw"),
            GameResult::BothLose => ("双方判负", "both lose"),
        };
        book.alert(
            NewAlert::new(
                t,
                AlertKind::GameOver,
                format!("第{t}台对局结束：{zh}，{}（{reason}）", why.as_zh()),
                format!("table {t}: game over: {en}, {why} ({reason})"),
                &[],
            ),
            now,
        );
    }
}

/// Whether the rule set's limit is declared by the arbiter (ROC) rather
/// than counted from the last capture.
pub fn declared_limit(params: &RuleParams) -> bool {
    params.limit.counts_from == rulebook::ruleset::LimitStart::Declaration
}

/// The side that made a report, which shows it is at the board.
fn reported_by(ev: &TableEvent) -> Option<Side> {
    match ev {
        TableEvent::Arrived { side } => Some(*side),
        TableEvent::ClockPress { by, .. }
        | TableEvent::Move { by, .. }
        | TableEvent::ClaimNaturalLimit { by }
        | TableEvent::ClaimRepetition { by }
        | TableEvent::DrawOffer { by }
        | TableEvent::DrawAccept { by }
        | TableEvent::DrawDecline { by }
        | TableEvent::Resign { by, .. }
        | TableEvent::CallArbiter { by, .. } => Some(*by),
        _ => None,
    }
}

/// The recommended ruling at a repetition's third occurrence: the order
/// (change, or one more cycle is a draw), not yet a result. The rulebook's
/// verdict (who violates) is in the explanation and the rule ids.
pub fn order_ruling(r: &rulebook::ruling::Ruling, cycles: rulebook::CyclesAfterOrder) -> Ruling {
    let (oz, oe) = rulebook::Order::of(r).words(cycles);
    let w = repetition_ruling(r);
    Ruling {
        verdict: Verdict::Order,
        must_change: w.must_change,
        explanation_zh: format!("{oz}。{}", w.explanation_zh),
        explanation_en: format!("{oe}. {}", upper_first(&w.explanation_en)),
        rule_ids: w.rule_ids,
    }
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The wire ruling of a rulebook repetition ruling.
pub fn repetition_ruling(r: &rulebook::ruling::Ruling) -> Ruling {
    let mut zh = r.explanation_zh.clone();
    let mut en = r.explanation_en.clone();
    if let Some((jz, je)) = &r.arbiter {
        zh.push_str(&format!("（需裁判判断：{jz}）"));
        en.push_str(&format!(" (arbiter's judgement needed: {je})"));
    }
    Ruling {
        verdict: super::convert::repetition_verdict(r.verdict),
        must_change: r.must_change.map(side),
        rule_ids: ids(&r.rules),
        explanation_zh: zh,
        explanation_en: en,
    }
}

fn illegal_words(reason: &IllegalReason) -> &'static str {
    match reason {
        IllegalReason::EmptySquare => "no piece on the starting square",
        IllegalReason::NotYourPiece => "moves a piece of the side not to move",
        IllegalReason::OwnPieceOnTarget => "captures its own piece",
        IllegalReason::PieceCannotMoveThere => "the piece cannot move there",
        IllegalReason::LeavesKingInCheck => "ignores a check / leaves the king in check",
        IllegalReason::KingsFacing => "leaves the kings facing each other",
        #[allow(unreachable_patterns)]
        _ => "illegal move",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loss(side: Side) -> Ruling {
        Ruling {
            verdict: Verdict::Loss { side },
            must_change: None,
            rule_ids: strs(&["AXF-FORFEIT-1"]),
            explanation_zh: String::new(),
            explanation_en: String::new(),
        }
    }

    #[test]
    fn claims_lapse_when_what_they_were_about_goes_away() {
        let params = RuleParams::default();
        let mut t = TableState::new(1, "R", "B", 60_000, 0, &params);
        let mut book = Book::default();
        let red = book.claim(
            1,
            ClaimKind::NoShow,
            None,
            0,
            loss(Side::Red),
            Penalty::None,
        );
        let black = book.claim(
            1,
            ClaimKind::NoShow,
            None,
            0,
            loss(Side::Black),
            Penalty::None,
        );
        let flag = book.claim(
            1,
            ClaimKind::FlagFall,
            None,
            0,
            loss(Side::Black),
            Penalty::None,
        );
        let other = book.claim(
            2,
            ClaimKind::NoShow,
            None,
            0,
            loss(Side::Red),
            Penalty::None,
        );
        let status = |book: &Book, id| book.claims.get(id).map(|c| c.view.status.clone());
        // Red moves: Red's no-show lapses, nothing else.
        let mv = IccsMove::parse("h2e2").expect("iccs");
        t.apply_event(
            &TableEvent::Move { by: Side::Red, mv },
            5,
            &params,
            &mut book,
        );
        assert!(
            matches!(
                status(&book, red),
                Some(proto::ClaimStatus::Lapsed { at_ms: 5, .. })
            ),
            "{:?}",
            status(&book, red)
        );
        assert_eq!(book.claims.open_count(1), 2);
        // The game ends: every open claim of the table closes with it.
        let resign = TableEvent::Resign {
            by: Side::Black,
            reason: "lost".into(),
        };
        t.apply_event(&resign, 9, &params, &mut book);
        for id in [black, flag] {
            match status(&book, id) {
                Some(proto::ClaimStatus::Lapsed { why, at_ms: 9 }) => {
                    assert!(why.contains("resignation"), "{why}")
                }
                s => panic!("claim {id}: {s:?}"),
            }
        }
        assert_eq!(book.claims.open_count(1), 0);
        assert_eq!(book.claims.open_count(2), 1);
        assert_eq!(status(&book, other), Some(proto::ClaimStatus::Pending));
        assert_eq!(
            book.audit
                .iter()
                .filter(|e| e.what.contains("lapsed"))
                .count(),
            3
        );
    }

    #[test]
    fn natural_limit_alert_is_raised_once_per_stretch() {
        let params = RuleParams::default();
        let mut t = TableState::new(1, "R", "B", 60_000, 0, &params);
        let mut book = Book::default();
        let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let need = params.limit.required_plies as usize;
        let mut first_at = None;
        for ply in 0..need + 40 {
            let m = shuffle[ply % 4];
            let by = side(t.board.turn());
            let mv = IccsMove::parse(m).expect("iccs");
            t.apply_event(&TableEvent::Move { by, mv }, 0, &params, &mut book);
            let n = book
                .alerts
                .all()
                .filter(|a| a.kind == AlertKind::NaturalLimit)
                .count();
            if n == 1 && first_at.is_none() {
                first_at = Some(ply + 1);
            }
            assert!(n <= 1, "one alert for the stretch, {n} at ply {}", ply + 1);
        }
        assert_eq!(t.board.plies(), need + 40);
        let at = first_at.expect("the limit alert was raised");
        assert!(at <= need, "raised at ply {at}, the limit is {need} plies");
    }
}
