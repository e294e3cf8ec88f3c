//! Every table event in every table state (`crate::states`), with no
//! network, like the commands' matrix: each case states what the event's
//! check says in each state ([`Heed`]); a heeded event must make its
//! change, an ignored one none beyond the terminal being heard. The matrix
//! covers every event by construction: see [`case_of`]. Then events at a
//! bare table: claims lapsing, the natural-limit alert.

use proto::{
    AlertKind, ClaimKind, EndReason, FoulKind, GameResult, IccsMove, Ruling, Side, TableEvent,
    TableStatus, Verdict,
};
use rulebook::{RuleId, RuleParams};

use super::{ids, Heed, Ignored};
use crate::book::Book;
use crate::claims::{NewClaim, Penalty};
use crate::hall::Hall;
use crate::snapshot::TableSnap;
use crate::states::*;
use crate::table::convert::side;
use crate::table::TableState;

fn loss(side: Side) -> Ruling {
    Ruling {
        verdict: Verdict::Loss { side },
        must_change: None,
        rule_ids: ids(&[RuleId::AXF_FORFEIT_1]),
        explanation: i18n::texts::no_words(),
    }
}

#[test]
fn claims_lapse_when_what_they_were_about_goes_away() {
    let params = RuleParams::default();
    let mut t = TableState::new(1, "R", "B", 60_000, 0, &params);
    let mut book = Book::default();
    let red = book.claim(NewClaim::new(1, ClaimKind::NoShow, loss(Side::Red)), 0);
    let black = book.claim(NewClaim::new(1, ClaimKind::NoShow, loss(Side::Black)), 0);
    let flag = book.claim(NewClaim::new(1, ClaimKind::FlagFall, loss(Side::Black)), 0);
    let other = book.claim(NewClaim::new(2, ClaimKind::NoShow, loss(Side::Red)), 0);
    let status = |book: &Book, id| book.claims.get(id).map(|c| c.view.status.clone());
    // Red moves: Red's no-show lapses, nothing else.
    let mv = IccsMove::parse("h2e2").expect("iccs");
    t.apply_event(
        &TableEvent::Move { by: Side::Red, mv },
        5,
        &params,
        &mut book,
    );
    // The reason travels typed: its id and arguments, not English.
    assert_eq!(
        status(&book, red),
        Some(proto::ClaimStatus::Lapsed {
            why: proto::Message::new("audit-lapse-moved").side("side", Side::Red),
            at_ms: 5
        })
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
                assert_eq!(why.id, "audit-lapse-game-ended");
                let inner = proto::Message::new("end-reason-resignation");
                assert_eq!(
                    why.args,
                    vec![("why".to_string(), proto::Arg::Message(Box::new(inner)))]
                );
                assert!(
                    i18n::texts::english(&why).contains("resignation"),
                    "{why:?}"
                );
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

/// One table event of the matrix.
struct Case {
    name: &'static str,
    /// The hall the event comes to.
    hall: fn(State, bool) -> Hall,
    /// The event, reported by table 1's terminal.
    event: fn() -> TableEvent,
    /// What its check says in each state, with or without the claim.
    expect: fn(State, bool) -> Heed,
    /// The change the event made when heeded: (state, claim, before, after).
    changed: fn(State, bool, &Hall, &Hall),
}

fn open_claims(h: &Hall) -> u32 {
    h.book.claims.open_count(T)
}

fn alerts_of(h: &Hall, kind: AlertKind) -> usize {
    h.book.alerts.all().filter(|a| a.kind == kind).count()
}

fn claims_of(h: &Hall, kind: ClaimKind) -> usize {
    h.book.claims.all().filter(|c| c.kind == kind).count()
}

/// The no-show claim against Black is open in `s` (the end of the game
/// lapsed it).
fn no_show_open(s: State, claim: bool) -> bool {
    claim && s != Finished
}

fn heeded(_: State, _: bool) -> Heed {
    Heed::Applies
}

fn times() -> (u64, u64) {
    (590_000, 600_000)
}

fn arrived() -> Case {
    Case {
        name: "arrived",
        hall: axf,
        event: || TableEvent::Arrived { side: Side::Black },
        expect: heeded,
        changed: |_, _, _, after| {
            let t = table(after);
            assert!(t.arrived[Side::Black] && !t.arrived[Side::Red]);
            assert_eq!(t.seen_ms[Side::Black], Some(NOW));
        },
    }
}

fn clock_started() -> Case {
    Case {
        name: "clock started",
        hall: axf,
        event: || TableEvent::ClockStarted {
            red_ms: 600_000,
            black_ms: 600_000,
            terminal_mono_ms: 10,
        },
        expect: heeded,
        changed: |s, _, before, after| {
            let t = table(after);
            let want = match s {
                NotStarted => TableStatus::Playing,
                _ => table(before).status.clone(),
            };
            assert_eq!(t.status, want);
            assert!(t.started_at_ms.is_some());
            // The players are at the board: no no-show claim stays open.
            assert_eq!(open_claims(after), 0);
            assert_eq!(t.clock_history.len(), table(before).clock_history.len() + 1);
        },
    }
}

fn clock_press() -> Case {
    Case {
        name: "clock press with a move",
        hall: axf,
        event: || {
            let (red_ms, black_ms) = times();
            TableEvent::ClockPress {
                by: Side::Red,
                mv: Some(h2e2()),
                red_ms,
                black_ms,
                terminal_mono_ms: 20,
            }
        },
        expect: heeded,
        changed: |s, claim, before, after| {
            let t = table(after);
            // Played in every state: the terminal is the record of the board.
            assert_eq!(t.board.plies(), table(before).board.plies() + 1);
            assert_eq!((t.clock.red_ms, t.clock.black_ms), times());
            // Red's move does not lapse the claim against Black.
            assert_eq!(open_claims(after) > 0, no_show_open(s, claim));
        },
    }
}

fn flag_at_zero() -> Case {
    Case {
        name: "clock press leaving Red at zero",
        hall: axf,
        event: || TableEvent::ClockPress {
            by: Side::Red,
            mv: None,
            red_ms: 0,
            black_ms: 600_000,
            terminal_mono_ms: 20,
        },
        expect: heeded,
        changed: |s, _, before, after| {
            let t = table(after);
            let finished = s == Finished;
            assert_eq!(t.flag, (!finished).then_some(Side::Red));
            assert_eq!(
                claims_of(after, ClaimKind::FlagFall),
                claims_of(before, ClaimKind::FlagFall) + usize::from(!finished)
            );
        },
    }
}

fn legal_move() -> Case {
    Case {
        name: "move",
        hall: axf,
        event: || TableEvent::Move {
            by: Side::Red,
            mv: h2e2(),
        },
        expect: heeded,
        changed: |s, _, before, after| {
            let t = table(after);
            assert_eq!(t.board.plies(), table(before).board.plies() + 1);
            assert!(t.pending_illegal.is_none());
            let want = match s {
                NotStarted => TableStatus::Playing,
                _ => table(before).status.clone(),
            };
            assert_eq!(t.status, want);
        },
    }
}

fn illegal_move() -> Case {
    Case {
        name: "move out of turn",
        hall: axf,
        event: || TableEvent::Move {
            by: Side::Black,
            mv: IccsMove::parse("h7e7").expect("a move"),
        },
        expect: heeded,
        changed: |_, _, before, after| {
            let t = table(after);
            assert_eq!(t.board.plies(), table(before).board.plies());
            assert_eq!(alerts_of(after, AlertKind::IllegalMove), 1);
            let c = after.book.claims.get(claim_id(after)).expect("the claim");
            assert_eq!(c.view.kind, ClaimKind::IllegalMove);
            assert_eq!(
                c.view.recommended.verdict,
                Verdict::CorrectMove { side: Side::Black }
            );
            assert_eq!(
                t.pending_illegal.as_ref().map(|p| p.claim_id),
                Some(c.view.id)
            );
        },
    }
}

fn natural_limit_claim() -> Case {
    Case {
        name: "natural-limit claim (AXF)",
        hall: axf,
        event: || TableEvent::ClaimNaturalLimit { by: Side::Red },
        expect: heeded,
        changed: |_, _, _, after| {
            let c = after.book.claims.get(claim_id(after)).expect("the claim");
            assert_eq!(c.view.kind, ClaimKind::NaturalLimit);
            assert_eq!(c.view.by, Some(Side::Red));
            // Nothing near the limit: a false claim, play on with a penalty.
            assert_eq!(c.view.recommended.verdict, Verdict::Continue);
            assert_ne!(c.penalty, Penalty::None);
            // Consoles see it typed.
            assert_eq!(c.view.penalty, c.penalty.wire());
            assert_eq!(alerts_of(after, AlertKind::ClaimPending), 1);
        },
    }
}

fn move_limit_claim() -> Case {
    Case {
        name: "move-limit claim (ROC, none declared)",
        hall: roc,
        event: || TableEvent::ClaimNaturalLimit { by: Side::Black },
        expect: heeded,
        changed: |_, _, _, after| {
            let c = after.book.claims.get(claim_id(after)).expect("the claim");
            assert_eq!(c.view.kind, ClaimKind::MoveLimit);
            assert_eq!(c.view.recommended.verdict, Verdict::Continue);
            assert_eq!(c.penalty, Penalty::None);
        },
    }
}

fn repetition_claim() -> Case {
    Case {
        name: "repetition claim",
        hall: axf,
        event: || TableEvent::ClaimRepetition { by: Side::Black },
        expect: heeded,
        changed: |_, _, _, after| {
            let c = after.book.claims.get(claim_id(after)).expect("the claim");
            assert_eq!(c.view.kind, ClaimKind::Repetition);
            // Nothing repeats at the start: play on.
            assert_eq!(c.view.recommended.verdict, Verdict::Continue);
            assert_eq!(alerts_of(after, AlertKind::ClaimPending), 1);
        },
    }
}

fn draw_offer() -> Case {
    Case {
        name: "draw offer",
        hall: axf,
        event: || TableEvent::DrawOffer { by: Side::Red },
        expect: heeded,
        changed: |_, _, _, after| assert_eq!(table(after).draw_offer, Some(Side::Red)),
    }
}

/// Black has offered a draw in `state`.
fn offered(state: State, claim: bool) -> Hall {
    let mut h = axf(state, claim);
    event(&mut h, TableEvent::DrawOffer { by: Side::Black }, 4_000);
    h
}

fn draw_accept() -> Case {
    Case {
        name: "draw accepted",
        hall: offered,
        event: || TableEvent::DrawAccept { by: Side::Red },
        expect: heeded,
        changed: |_, _, _, after| {
            let t = table(after);
            assert!(matches!(
                t.status,
                TableStatus::Finished {
                    result: GameResult::Draw,
                    why: EndReason::Agreement,
                    ..
                }
            ));
            assert_eq!(t.draw_offer, None);
            assert_eq!(open_claims(after), 0);
        },
    }
}

fn draw_accept_unoffered() -> Case {
    Case {
        name: "draw accepted, none offered",
        hall: axf,
        event: || TableEvent::DrawAccept { by: Side::Red },
        expect: |_, _| Heed::Ignored(Ignored::NoOffer),
        changed: |_, _, _, _| unreachable!("never heeded"),
    }
}

fn draw_decline() -> Case {
    Case {
        name: "draw declined",
        hall: offered,
        event: || TableEvent::DrawDecline { by: Side::Red },
        expect: heeded,
        changed: |_, _, before, after| {
            assert_eq!(table(after).draw_offer, None);
            assert_eq!(table(after).status, table(before).status);
        },
    }
}

fn draw_decline_own() -> Case {
    Case {
        name: "draw declined by the side that offered",
        hall: offered,
        event: || TableEvent::DrawDecline { by: Side::Black },
        expect: |_, _| Heed::Ignored(Ignored::NoOffer),
        changed: |_, _, _, _| unreachable!("never heeded"),
    }
}

fn resign() -> Case {
    Case {
        name: "resign",
        hall: axf,
        event: || TableEvent::Resign {
            by: Side::Red,
            reason: "认负".into(),
        },
        expect: heeded,
        changed: |_, _, _, after| {
            let t = table(after);
            assert!(matches!(
                &t.status,
                TableStatus::Finished {
                    result: GameResult::BlackWins,
                    why: EndReason::Resignation,
                    reason,
                } if reason == "Red resigned: 认负"
            ));
            assert_eq!(open_claims(after), 0);
            assert!(t.clock.running.is_none());
        },
    }
}

fn call_arbiter() -> Case {
    Case {
        name: "call the arbiter",
        hall: axf,
        event: || TableEvent::CallArbiter {
            by: Side::Black,
            reason: "对方未记录".into(),
        },
        expect: heeded,
        changed: |_, _, before, after| {
            let a = after.book.alerts.all().last().expect("an alert");
            assert_eq!(a.kind, AlertKind::ArbiterCalled);
            assert_eq!(
                i18n::render(i18n::Lang::ZhHans, &a.text),
                "第1台黑方请裁判：对方未记录"
            );
            assert_eq!(
                i18n::render(i18n::Lang::ZhHant, &a.text),
                "第1台黑方請裁判：对方未记录"
            );
            assert_eq!(open_claims(after), open_claims(before));
        },
    }
}

fn foul_report() -> Case {
    Case {
        name: "foul reported",
        hall: axf,
        event: || TableEvent::FoulReport {
            side: Side::Red,
            kind: FoulKind::Violation,
            note: "漏记".into(),
        },
        expect: heeded,
        changed: |_, _, before, after| {
            let n = |h: &Hall| table(h).fouls(Side::Red).violations;
            assert_eq!(n(after), n(before) + 1);
            // One violation is far from the threshold.
            assert_eq!(alerts_of(after, AlertKind::FoulThreshold), 0);
        },
    }
}

fn flag_fell() -> Case {
    Case {
        name: "flag fell",
        hall: axf,
        event: || TableEvent::FlagFell {
            side: Side::Black,
            red_ms: 300_000,
            black_ms: 0,
            terminal_mono_ms: 30,
        },
        expect: heeded,
        changed: |s, _, before, after| {
            let t = table(after);
            assert_eq!((t.clock.red_ms, t.clock.black_ms), (300_000, 0));
            // After the end of the game a flag does not fall.
            let falls = s != Finished;
            assert_eq!(t.flag, falls.then_some(Side::Black));
            assert_eq!(
                alerts_of(after, AlertKind::FlagFall),
                alerts_of(before, AlertKind::FlagFall) + usize::from(falls)
            );
            if falls {
                let c = after.book.claims.get(claim_id(after)).expect("the claim");
                assert_eq!(
                    c.view.recommended.verdict,
                    Verdict::Loss { side: Side::Black }
                );
                assert_eq!(c.view.recommended.rule_ids, ["AXF-CLOCK-1"]);
            }
        },
    }
}

fn result() -> Case {
    Case {
        name: "result reported as a mate",
        hall: axf,
        event: || TableEvent::Result {
            result: GameResult::RedWins,
            why: EndReason::Checkmate,
            reason: "绝杀".into(),
        },
        expect: heeded,
        changed: |_, _, _, after| {
            // The board is not mate: the reason is the report's.
            assert!(matches!(
                table(after).status,
                TableStatus::Finished {
                    result: GameResult::RedWins,
                    why: EndReason::Reported,
                    ..
                }
            ));
            assert!(alerts_of(after, AlertKind::GameOver) >= 1);
        },
    }
}

fn control_applied() -> Case {
    Case {
        name: "control applied",
        hall: axf,
        event: || TableEvent::ControlApplied {
            control_id: 1,
            red_ms: 123_000,
            black_ms: 456_000,
            running: Some(Side::Black),
            terminal_mono_ms: 40,
        },
        expect: heeded,
        changed: |s, _, _, after| {
            let t = table(after);
            assert_eq!((t.clock.red_ms, t.clock.black_ms), (123_000, 456_000));
            assert_eq!(t.clock.running, Some(xiangqi::Color::Black));
            // The pause (control 1) is confirmed: it is not sent again.
            if s == Paused {
                assert!(t.pending_controls.iter().all(|(id, _)| *id != 1));
            }
        },
    }
}

/// The matrix: every case below, each run in every state.
fn cases() -> Vec<Case> {
    vec![
        arrived(),
        clock_started(),
        clock_press(),
        flag_at_zero(),
        legal_move(),
        illegal_move(),
        natural_limit_claim(),
        move_limit_claim(),
        repetition_claim(),
        draw_offer(),
        draw_accept(),
        draw_accept_unoffered(),
        draw_decline(),
        draw_decline_own(),
        resign(),
        call_arbiter(),
        foul_report(),
        flag_fell(),
        result(),
        control_applied(),
    ]
}

/// A case of each table event: no wildcard, so a new event does not
/// compile until it names its case here, and [`every_event_has_a_case`]
/// checks that the case named is in the matrix.
fn case_of(ev: &TableEvent) -> fn() -> Case {
    match ev {
        TableEvent::Arrived { .. } => arrived,
        TableEvent::ClockStarted { .. } => clock_started,
        TableEvent::ClockPress { .. } => clock_press,
        TableEvent::Move { .. } => legal_move,
        TableEvent::ClaimNaturalLimit { .. } => natural_limit_claim,
        TableEvent::ClaimRepetition { .. } => repetition_claim,
        TableEvent::DrawOffer { .. } => draw_offer,
        TableEvent::DrawAccept { .. } => draw_accept,
        TableEvent::DrawDecline { .. } => draw_decline,
        TableEvent::Resign { .. } => resign,
        TableEvent::CallArbiter { .. } => call_arbiter,
        TableEvent::FoulReport { .. } => foul_report,
        TableEvent::FlagFell { .. } => flag_fell,
        TableEvent::Result { .. } => result,
        TableEvent::ControlApplied { .. } => control_applied,
    }
}

/// Table 1's state in a snapshot, less what any report changes (its
/// envelope's numbering, when the terminal was last heard, who was seen).
fn unheeded(h: &Hall) -> TableSnap {
    let mut s = TableSnap::of(table(h));
    (s.epoch, s.high_water, s.last_heard_ms) = (0, 0, 0);
    s.seen_ms = [None, None];
    s
}

#[test]
fn every_event_in_every_table_state() {
    let mut checked = 0;
    for case in cases() {
        checked += in_every_state(
            case.name,
            case.hall,
            |state, claim, at, before, mut after| {
                let ev = (case.event)();
                let want = (case.expect)(state, claim);
                assert_eq!(table(&before).check_event(&ev), want, "{at}: check");
                event(&mut after, ev, NOW);
                assert_eq!(table(&after).last_heard_ms, NOW, "{at}");
                match want {
                    Heed::Applies => (case.changed)(state, claim, &before, &after),
                    Heed::Ignored(_) => {
                        assert_eq!(unheeded(&after), unheeded(&before), "{at}: unchanged");
                        assert_eq!(
                            after.snapshot(NOW).claims,
                            before.snapshot(NOW).claims,
                            "{at}"
                        );
                        assert_eq!(
                            after.snapshot(NOW).alerts,
                            before.snapshot(NOW).alerts,
                            "{at}"
                        );
                    }
                }
            },
        );
    }
    assert_eq!(checked, cases().len() * STATES.len() * 2);
}

#[test]
fn every_event_has_a_case() {
    let names: Vec<&str> = cases().iter().map(|c| c.name).collect();
    for ev in every_variant::<TableEvent>() {
        let case = case_of(&ev)();
        assert!(
            names.contains(&case.name),
            "{ev:?}: {} is not in the matrix",
            case.name
        );
        let built = (case.event)();
        assert_eq!(
            std::mem::discriminant(&built),
            std::mem::discriminant(&ev),
            "{ev:?}: the case {} gives {built:?}",
            case.name
        );
    }
}
