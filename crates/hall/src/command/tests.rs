//! Every command in every table state (`crate::states`), with no network.
//! Each case states which states refuse the command and with which
//! [`Refusal`]; an accepted command must make its change, a refused one
//! none at all. The matrix covers every command by construction: see
//! [`case_of`].

use proto::roles::{Action, Author, RoleKind, RulingAuthor};
use proto::{
    AlertKind, ClaimStatus, Command, ControlToTable, Decision, EndReason, EventEnvelope, FoulKind,
    GameResult, IccsMove, Side, TableEvent, TableStatus, Verdict,
};

use super::{Refusal, Roster};
use crate::hall::Hall;
use crate::record::Record;
use crate::states::*;

/// The controls the last command sent to table 1's terminal.
fn controls(h: &mut Hall) -> Vec<ControlToTable> {
    let fx = h.take_effects();
    fx.controls
        .into_iter()
        .filter(|(t, _, _)| *t == T)
        .map(|(_, _, c)| c)
        .collect()
}

/// One command of the matrix.
struct Case {
    name: &'static str,
    /// The hall the command is given in.
    hall: fn(State, bool) -> Hall,
    /// The command, given the hall.
    command: fn(&Hall) -> Command,
    /// What it gives in each state, with or without the claim.
    expect: fn(State, bool) -> Result<(), Refusal>,
    /// The change an accepted command made: (state, before, after).
    changed: fn(State, &Hall, &mut Hall),
}

fn pause_table() -> Case {
    Case {
        name: "pause table",
        hall: axf,
        command: |_| Command::PauseTable {
            table: T,
            reason: "电源".into(),
        },
        expect: |s, _| match s {
            Paused => Err(Refusal::AlreadyPaused { table: T }),
            Sealed => Err(Refusal::IsSealed { table: T }),
            Finished => Err(Refusal::GameOver { table: T }),
            NotStarted | Running => Ok(()),
        },
        changed: |_, before, after| {
            let t = table(after);
            assert!(
                matches!(&t.status, TableStatus::Paused(p) if p.by == "chief:王" && p.reason == "电源")
            );
            assert_eq!(t.before_pause.as_deref(), Some(&table(before).status));
            assert!(!t.paused_by_hall);
            assert!(t.clock.paused);
            assert!(matches!(
                controls(after)[..],
                [ControlToTable::Pause { .. }]
            ));
        },
    }
}

fn resume_table() -> Case {
    Case {
        name: "resume table",
        hall: axf,
        command: |_| Command::ResumeTable { table: T },
        expect: |s, _| match s {
            Paused => Ok(()),
            _ => Err(Refusal::NotPaused { table: T }),
        },
        changed: |_, before, after| {
            let t = table(after);
            assert_eq!(Some(&t.status), table(before).before_pause.as_deref());
            assert_eq!(t.status, TableStatus::Playing);
            assert!(!t.clock.paused);
            let by = "chief:王".to_string();
            assert_eq!(controls(after), [ControlToTable::Resume { by }]);
        },
    }
}

fn pause_hall() -> Case {
    Case {
        name: "pause hall",
        hall: axf,
        command: |_| Command::PauseHall {
            reason: "停电".into(),
        },
        expect: |_, _| Ok(()),
        changed: |s, before, after| {
            assert_eq!(
                after.paused.as_ref().map(|p| p.reason.as_str()),
                Some("停电")
            );
            // The other table (not started) is paused by the hall too.
            assert!(after.tables[&2].paused_by_hall);
            let t = table(after);
            match s {
                NotStarted | Running => {
                    assert!(t.paused_by_hall);
                    assert!(matches!(t.status, TableStatus::Paused(_)));
                }
                _ => {
                    assert!(!t.paused_by_hall);
                    assert_eq!(t.status, table(before).status);
                }
            }
        },
    }
}

fn resume_hall() -> Case {
    Case {
        name: "resume hall (not paused)",
        hall: axf,
        command: |_| Command::ResumeHall,
        expect: |_, _| Err(Refusal::HallNotPaused),
        changed: |_, _, _| unreachable!("never accepted"),
    }
}

fn seal() -> Case {
    Case {
        name: "seal",
        hall: axf,
        command: |_| Command::Seal {
            table: T,
            sealed_move: h2e2(),
        },
        expect: |s, _| match s {
            Sealed | Finished => Err(Refusal::CannotSeal { table: T }),
            NotStarted | Running | Paused => Ok(()),
        },
        changed: |_, _, after| {
            let t = table(after);
            assert!(matches!(&t.status, TableStatus::Sealed { by, .. } if by == "chief:王"));
            assert_eq!(t.sealed.as_ref().map(|s| s.mv), Some(h2e2()));
            assert_eq!(t.sealed.as_ref().map(|s| s.writer), Some(Side::Red));
            let by = "chief:王".to_string();
            assert_eq!(controls(after), [ControlToTable::Seal { by }]);
        },
    }
}

fn seal_illegal() -> Case {
    Case {
        name: "seal an illegal move",
        hall: axf,
        command: |_| Command::Seal {
            table: T,
            sealed_move: IccsMove::parse("a0a5").expect("a move"),
        },
        expect: |s, _| match s {
            Sealed | Finished => Err(Refusal::CannotSeal { table: T }),
            NotStarted | Running | Paused => Err(Refusal::IllegalSealedMove {
                table: T,
                mv: IccsMove::parse("a0a5").expect("a move"),
            }),
        },
        changed: |_, _, _| unreachable!("never accepted"),
    }
}

fn unseal() -> Case {
    Case {
        name: "unseal",
        hall: axf,
        command: |_| Command::Unseal { table: T },
        expect: |s, _| match s {
            Sealed => Ok(()),
            _ => Err(Refusal::NotSealed { table: T }),
        },
        changed: |_, before, after| {
            let t = table(after);
            assert_eq!(t.status, TableStatus::Playing);
            assert!(t.sealed.is_none());
            assert_eq!(t.board.plies(), table(before).board.plies() + 1);
            assert_eq!(t.resumed_at_ms, Some(NOW));
            let c = controls(after);
            assert!(
                matches!(&c[..], [ControlToTable::Unseal { sealed_move, .. }] if *sealed_move == h2e2())
            );
        },
    }
}

/// The claim's refusal when it is there: the end of the game lapsed it.
fn lapsed_when_finished(s: State, claim: bool) -> Result<(), Refusal> {
    match (claim, s) {
        (false, _) => Err(Refusal::NoClaim {
            table: T,
            claim_id: 1,
        }),
        (true, Finished) => Err(Refusal::Lapsed { claim_id: 1 }),
        (true, _) => Ok(()),
    }
}

fn accept_claim() -> Case {
    Case {
        name: "accept the recommended ruling",
        hall: axf,
        command: |h| Command::RuleOnClaim {
            table: T,
            claim_id: claim_id(h),
            decision: Decision::Accept,
        },
        expect: lapsed_when_finished,
        changed: |_, _, after| {
            let c = after.book.claims.get(1).expect("the claim");
            assert!(matches!(c.view.status, ClaimStatus::Ruled { .. }));
            assert_eq!(c.ruled_by, Some(RulingAuthor::Chief));
            let t = table(after);
            assert!(matches!(
                t.status,
                TableStatus::Finished {
                    result: GameResult::RedWins,
                    why: EndReason::Forfeit,
                    ..
                }
            ));
            assert!(t.sealed.is_none());
        },
    }
}

fn override_claim() -> Case {
    Case {
        name: "override: play on",
        hall: axf,
        command: |h| Command::RuleOnClaim {
            table: T,
            claim_id: claim_id(h),
            decision: Decision::Override {
                verdict: Verdict::Continue,
                must_change: None,
                reason: "已到场".into(),
            },
        },
        expect: |_, claim| match claim {
            true => Ok(()),
            false => Err(Refusal::NoClaim {
                table: T,
                claim_id: 1,
            }),
        },
        changed: |s, before, after| {
            let c = after.book.claims.get(1).expect("the claim");
            assert!(matches!(c.view.status, ClaimStatus::Ruled { .. }));
            // The terminal is told: play on, no penalty.
            let decided = ControlToTable::ClaimDecided {
                claim_id: 1,
                kind: c.view.kind,
                claimant: c.view.by,
                verdict: Verdict::Continue,
                must_change: None,
                penalty: None,
            };
            assert_eq!(controls(after).last(), Some(&decided));
            // Play on: a game the claim ended goes on (this one the arbiter ended).
            let status = &table(after).status;
            match s {
                Finished => assert_eq!(*status, TableStatus::Playing),
                _ => assert_eq!(*status, table(before).status),
            }
        },
    }
}

fn override_without_reason() -> Case {
    Case {
        name: "override without a reason",
        hall: axf,
        command: |h| Command::RuleOnClaim {
            table: T,
            claim_id: claim_id(h),
            decision: Decision::Override {
                verdict: Verdict::Draw,
                must_change: None,
                reason: "  ".into(),
            },
        },
        expect: |_, claim| match claim {
            true => Err(Refusal::NoReason),
            false => Err(Refusal::NoClaim {
                table: T,
                claim_id: 1,
            }),
        },
        changed: |_, _, _| unreachable!("never accepted"),
    }
}

fn order_without_repetition() -> Case {
    Case {
        name: "override with an order where nothing repeats",
        hall: axf,
        command: |h| Command::RuleOnClaim {
            table: T,
            claim_id: claim_id(h),
            decision: Decision::Override {
                verdict: Verdict::Order,
                must_change: Some(Side::Red),
                reason: "长将".into(),
            },
        },
        expect: |s, claim| match (claim, s) {
            (false, _) => Err(Refusal::NoClaim {
                table: T,
                claim_id: 1,
            }),
            (true, Finished) => Err(Refusal::GameOver { table: T }),
            (true, _) => Err(Refusal::NoOrder {
                table: T,
                why: proto::refusals::why_no_cycle(0),
            }),
        },
        changed: |_, _, _| unreachable!("never accepted"),
    }
}

fn escalate() -> Case {
    Case {
        name: "escalate a claim",
        hall: axf,
        command: |h| Command::EscalateClaim {
            table: T,
            claim_id: claim_id(h),
            reason: "请裁判长".into(),
        },
        expect: |_, claim| match claim {
            true => Ok(()),
            false => Err(Refusal::NoClaim {
                table: T,
                claim_id: 1,
            }),
        },
        changed: |_, before, after| {
            let c = after.book.claims.get(1).expect("the claim");
            assert!(
                matches!(&c.view.status, ClaimStatus::Escalated { by, .. } if by == "chief:王")
            );
            let pending = |h: &Hall| {
                h.book
                    .alerts
                    .all()
                    .filter(|a| a.kind == AlertKind::ClaimPending)
                    .count()
            };
            assert_eq!(pending(after), pending(before) + 1);
        },
    }
}

fn record_foul() -> Case {
    Case {
        name: "record a foul",
        hall: axf,
        command: |_| Command::RecordFoul {
            table: T,
            side: Side::Red,
            kind: FoulKind::Technical,
            note: "未按钟".into(),
        },
        expect: |_, _| Ok(()),
        changed: |_, before, after| {
            let n = |h: &Hall| table(h).fouls(Side::Red).technical;
            assert_eq!(n(after), n(before) + 1);
            assert_eq!(
                table(after).fouls(Side::Black),
                table(before).fouls(Side::Black)
            );
        },
    }
}

fn adjust_clock() -> Case {
    Case {
        name: "adjust the clock",
        hall: axf,
        command: |_| Command::AdjustClock {
            table: T,
            red_ms: 300_000,
            black_ms: 420_000,
            reason: "钟坏".into(),
        },
        expect: |s, _| match s {
            Finished => Err(Refusal::GameOver { table: T }),
            _ => Ok(()),
        },
        changed: |_, _, after| {
            let t = table(after);
            assert_eq!((t.clock.red_ms, t.clock.black_ms), (300_000, 420_000));
            let c = controls(after);
            assert!(matches!(
                &c[..],
                [ControlToTable::Adjust {
                    red_ms: 300_000,
                    black_ms: 420_000,
                    ..
                }]
            ));
        },
    }
}

fn set_result() -> Case {
    Case {
        name: "set the result",
        hall: axf,
        command: |_| Command::SetResult {
            table: T,
            result: GameResult::Draw,
            reason: "双方同意".into(),
        },
        expect: |_, _| Ok(()),
        changed: |_, _, after| {
            let t = table(after);
            assert!(matches!(
                &t.status,
                TableStatus::Finished { result: GameResult::Draw, why: EndReason::Arbiter, reason } if reason == "双方同意"
            ));
            assert!(t.sealed.is_none());
            let open = after.book.claims.open_count(T);
            assert_eq!(open, 0, "the end of the game lapses the claims");
        },
    }
}

fn ack_alert() -> Case {
    Case {
        name: "acknowledge an alert",
        hall: axf,
        command: |h| Command::AckAlert {
            alert_id: no_show_alert(h),
        },
        expect: |_, claim| match claim {
            true => Ok(()),
            false => Err(Refusal::NoAlert { alert_id: 999 }),
        },
        changed: |_, before, after| {
            let id = no_show_alert(before);
            let a = after.book.alerts.all().find(|a| a.id == id).expect("alert");
            assert_eq!(a.acked_by.as_deref(), Some("chief:王"));
        },
    }
}

fn declare_limit_axf() -> Case {
    Case {
        name: "declare a move limit (AXF: none)",
        hall: axf,
        command: |_| Command::DeclareMoveLimit {
            table: T,
            requested_by: Some(Side::Black),
            limited: Side::Red,
            book_draw: false,
        },
        expect: |_, _| {
            Err(Refusal::NoDeclaredLimit {
                rule_set: "AXF-2008".into(),
            })
        },
        changed: |_, _, _| unreachable!("never accepted"),
    }
}

fn declare_limit_roc() -> Case {
    Case {
        name: "declare a move limit (ROC)",
        hall: roc,
        command: |_| Command::DeclareMoveLimit {
            table: T,
            requested_by: Some(Side::Black),
            limited: Side::Red,
            book_draw: false,
        },
        expect: |s, _| match s {
            Finished => Err(Refusal::GameOver { table: T }),
            _ => Ok(()),
        },
        changed: |_, _, after| {
            assert!(table(after).move_limit.is_some());
            let c = controls(after);
            assert!(matches!(
                &c[..],
                [ControlToTable::MoveLimit { limit: Some(_), .. }]
            ));
        },
    }
}

fn cancel_limit() -> Case {
    Case {
        name: "cancel a move limit never declared",
        hall: roc,
        command: |_| Command::CancelMoveLimit { table: T },
        expect: |_, _| Err(Refusal::NoMoveLimit { table: T }),
        changed: |_, _, _| unreachable!("never accepted"),
    }
}

/// A read: accepted everywhere, changes nothing at the table.
fn read(name: &'static str, command: fn(&Hall) -> Command) -> Case {
    Case {
        name,
        hall: axf,
        command,
        expect: |_, _| Ok(()),
        changed: |_, before, after| {
            assert_eq!(table(after).status, table(before).status);
            assert!(controls(after).is_empty());
        },
    }
}

fn subscribe() -> Case {
    read("subscribe", |_| Command::Subscribe)
}

fn unsubscribe() -> Case {
    read("unsubscribe", |_| Command::Unsubscribe)
}

fn table_log() -> Case {
    read("table log", |_| Command::GetTableLog { table: T })
}

fn export() -> Case {
    read("export", |_| Command::ExportRound)
}

/// What pairing or publishing the next round gives: table 2 of the
/// fixture never ends, so the round is never over.
fn round_not_over(s: State, _: bool) -> Result<(), Refusal> {
    Err(Refusal::RoundNotOver {
        round: 1,
        tables: match s {
            Finished => vec![2],
            _ => vec![1, 2],
        },
    })
}

fn pair_next_round() -> Case {
    Case {
        name: "pair the next round",
        hall: axf,
        command: |_| Command::PairNextRound,
        expect: round_not_over,
        changed: |_, _, _| {},
    }
}

/// Round 2 of the fixture's four players, colours swapped.
pub(super) fn round_2() -> proto::RoundProposal {
    let board = |table: u16, red: &str, black: &str| proto::RoundBoard {
        table,
        red: red.into(),
        black: black.into(),
        red_id: None,
        black_id: None,
        why: Vec::new(),
    };
    proto::RoundProposal {
        round: 2,
        system: "xiangqi".into(),
        seed: 1,
        boards: vec![board(1, "丁", "甲"), board(2, "乙", "丙")],
        bye: None,
        notes: Vec::new(),
    }
}

fn publish_round() -> Case {
    Case {
        name: "publish round",
        hall: axf,
        command: |_| Command::PublishRound {
            round: Box::new(round_2()),
            changes: Vec::new(),
        },
        expect: round_not_over,
        changed: |_, _, _| {},
    }
}

/// A correction of round 1 while the hall plays round 1: refused in
/// every state (a game of this round is `SetResult`'s).
fn correct_result() -> Case {
    Case {
        name: "correct a result",
        hall: axf,
        command: |_| Command::CorrectResult {
            round: 1,
            table: 1,
            result: GameResult::RedWins,
            reason: "申诉".into(),
        },
        expect: |_, _| {
            Err(Refusal::BadCorrection {
                round: 1,
                table: 1,
                why: proto::Message::new("why-correct-earlier").int("playing", 1),
            })
        },
        changed: |_, _, _| {},
    }
}

/// A withdrawal of round 2 while the hall plays round 1 (the config's):
/// refused in every state.
fn withdraw_round() -> Case {
    Case {
        name: "withdraw a round",
        hall: axf,
        command: |_| Command::WithdrawRound {
            round: 2,
            reason: "更正后重新编排".into(),
        },
        expect: |_, _| {
            Err(Refusal::BadWithdrawal {
                round: 2,
                why: proto::Message::new("why-withdraw-not-current").int("playing", 1),
            })
        },
        changed: |_, _, _| {},
    }
}

/// A late entry: accepted in every state (it changes the next pairing,
/// not the round being played).
fn enter_player() -> Case {
    read("enter a player", |_| Command::EnterPlayer {
        name: "王五".into(),
        id: Some("CHN-42".into()),
        rating: Some(2150),
        federation: Some("CHN".into()),
        club: None,
    })
}

/// A withdrawal from round 2 while the hall plays round 1: accepted in
/// every state (the roster is the server's check, `Roster`).
fn withdraw_player() -> Case {
    read("withdraw a player", |_| Command::WithdrawPlayer {
        player: "甲".into(),
        from_round: 2,
        reason: "因病退赛".into(),
    })
}

/// The matrix: every case below, each run in every state.
fn cases() -> Vec<Case> {
    vec![
        pause_table(),
        resume_table(),
        pause_hall(),
        resume_hall(),
        seal(),
        seal_illegal(),
        unseal(),
        accept_claim(),
        override_claim(),
        override_without_reason(),
        order_without_repetition(),
        escalate(),
        record_foul(),
        adjust_clock(),
        set_result(),
        ack_alert(),
        declare_limit_axf(),
        declare_limit_roc(),
        cancel_limit(),
        subscribe(),
        unsubscribe(),
        table_log(),
        export(),
        pair_next_round(),
        publish_round(),
        correct_result(),
        withdraw_round(),
        enter_player(),
        withdraw_player(),
    ]
}

/// A case of each command: no wildcard, so a new command does not compile
/// until it names its case here, and [`every_command_has_a_case`] checks
/// that the case named is in the matrix.
fn case_of(cmd: &Command) -> fn() -> Case {
    match cmd {
        Command::Subscribe => subscribe,
        Command::Unsubscribe => unsubscribe,
        Command::GetTableLog { .. } => table_log,
        Command::ExportRound => export,
        Command::PauseTable { .. } => pause_table,
        Command::ResumeTable { .. } => resume_table,
        Command::PauseHall { .. } => pause_hall,
        Command::ResumeHall => resume_hall,
        Command::Seal { .. } => seal,
        Command::Unseal { .. } => unseal,
        Command::RuleOnClaim { .. } => accept_claim,
        Command::EscalateClaim { .. } => escalate,
        Command::RecordFoul { .. } => record_foul,
        Command::AdjustClock { .. } => adjust_clock,
        Command::SetResult { .. } => set_result,
        Command::AckAlert { .. } => ack_alert,
        Command::DeclareMoveLimit { .. } => declare_limit_roc,
        Command::CancelMoveLimit { .. } => cancel_limit,
        Command::PairNextRound => pair_next_round,
        Command::PublishRound { .. } => publish_round,
        Command::CorrectResult { .. } => correct_result,
        Command::WithdrawRound { .. } => withdraw_round,
        Command::EnterPlayer { .. } => enter_player,
        Command::WithdrawPlayer { .. } => withdraw_player,
    }
}

/// A refusal's variant and fields, the rulebook's words of `NoOrder` aside.
fn same_refusal(got: &Result<(), Refusal>, want: &Result<(), Refusal>) -> bool {
    match (got, want) {
        (Err(Refusal::NoOrder { table: a, .. }), Err(Refusal::NoOrder { table: b, .. })) => a == b,
        _ => got == want,
    }
}

#[test]
fn every_command_in_every_table_state() {
    let mut checked = 0;
    for case in cases() {
        checked += in_every_state(
            case.name,
            case.hall,
            |state, claim, at, before, mut after| {
                let cmd = (case.command)(&before);
                let want = (case.expect)(state, claim);
                let checked_first = before.check_command(&cmd);
                assert!(
                    same_refusal(&checked_first, &want),
                    "{at}: check gave {checked_first:?}, want {want:?}"
                );
                let audit = after.book.audit.len();
                let rec = Record::Command {
                    author: chief(),
                    command: cmd.clone(),
                };
                let got = after.apply(&rec, NOW);
                assert!(
                    same_refusal(&got, &want),
                    "{at}: got {got:?}, want {want:?}"
                );
                match got {
                    Ok(()) => {
                        // The command's own entry first (a lapse may follow).
                        let e = after.book.audit.get(audit).expect("an audit entry");
                        assert_eq!(e.what, super::describe(&cmd), "{at}");
                        assert_eq!(e.who, "chief:王", "{at}");
                        (case.changed)(state, &before, &mut after);
                    }
                    Err(r) => {
                        assert_eq!(
                            r.code(),
                            want.as_ref().err().map(Refusal::code).expect("refused")
                        );
                        assert_eq!(
                            after.snapshot(NOW),
                            before.snapshot(NOW),
                            "{at}: refused, unchanged"
                        );
                        assert!(
                            after.take_effects().controls.is_empty(),
                            "{at}: nothing sent"
                        );
                    }
                }
            },
        );
    }
    assert_eq!(checked, cases().len() * STATES.len() * 2);
}

#[test]
fn every_command_has_a_case() {
    let h = axf(Running, true);
    let names: Vec<&str> = cases().iter().map(|c| c.name).collect();
    for cmd in every_variant::<Command>() {
        let case = case_of(&cmd)();
        assert!(
            names.contains(&case.name),
            "{cmd:?}: {} is not in the matrix",
            case.name
        );
        let built = (case.command)(&h);
        assert_eq!(
            std::mem::discriminant(&built),
            std::mem::discriminant(&cmd),
            "{cmd:?}: the case {} gives {built:?}",
            case.name
        );
    }
}

#[test]
fn a_table_not_in_the_round_is_refused_by_every_table_command() {
    let mut h = axf(Running, true);
    for case in cases() {
        let mut cmd = (case.command)(&h);
        let Some(table) = table_field(&mut cmd) else {
            continue;
        };
        *table = 9;
        let want = Refusal::NoTable { table: 9 };
        let rec = Record::Command {
            author: chief(),
            command: cmd,
        };
        assert_eq!(h.apply(&rec, NOW), Err(want), "{}", case.name);
    }
    let env = EventEnvelope {
        table: 9,
        epoch: 1,
        seq: 1,
        body: TableEvent::Arrived { side: Side::Red },
    };
    assert_eq!(
        h.apply(&Record::Event(env), NOW),
        Err(Refusal::UnknownEventTable { table: 9 })
    );
}

fn table_field(cmd: &mut Command) -> Option<&mut u16> {
    match cmd {
        Command::GetTableLog { table }
        | Command::PauseTable { table, .. }
        | Command::ResumeTable { table }
        | Command::Seal { table, .. }
        | Command::Unseal { table }
        | Command::RuleOnClaim { table, .. }
        | Command::EscalateClaim { table, .. }
        | Command::RecordFoul { table, .. }
        | Command::AdjustClock { table, .. }
        | Command::SetResult { table, .. }
        | Command::DeclareMoveLimit { table, .. }
        | Command::CancelMoveLimit { table } => Some(table),
        _ => None,
    }
}

#[test]
fn the_hall_pause_resumes_only_the_tables_it_paused() {
    let mut h = axf(Paused, false);
    let reason = "停电".to_string();
    command(&mut h, Command::PauseHall { reason }, NOW);
    assert_eq!(
        h.check_command(&Command::PauseHall {
            reason: "again".into()
        }),
        Err(Refusal::HallAlreadyPaused)
    );
    assert!(h.tables[&2].paused_by_hall);
    command(&mut h, Command::ResumeHall, NOW + 1);
    assert!(h.paused.is_none());
    assert_eq!(h.tables[&2].status, TableStatus::Waiting);
    // Table 1 was paused on its own: it stays paused.
    assert!(matches!(table(&h).status, TableStatus::Paused(_)));
}

/// Found by the hall's invariants (a table marked paused by the hall that
/// is not paused): a game that ends, or is sealed, under the hall pause
/// stays ended or sealed when the hall resumes.
#[test]
fn the_hall_resumption_leaves_a_game_ended_or_sealed_under_the_pause() {
    for sealed in [false, true] {
        let mut h = axf(Running, false);
        let reason = "停电".to_string();
        command(&mut h, Command::PauseHall { reason }, NOW);
        if sealed {
            let sealed_move = h2e2();
            command(
                &mut h,
                Command::Seal {
                    table: T,
                    sealed_move,
                },
                NOW + 1,
            );
        } else {
            let body = TableEvent::Resign {
                by: Side::Red,
                reason: "认负".into(),
            };
            event(&mut h, body, NOW + 1);
        }
        let status = table(&h).status.clone();
        command(&mut h, Command::ResumeHall, NOW + 2);
        assert_eq!(table(&h).status, status, "sealed {sealed}");
        assert_eq!(table(&h).sealed.is_some(), sealed);
        // The other table, paused by the hall, resumed.
        assert_eq!(h.tables[&2].status, TableStatus::Waiting);
        assert_eq!(h.check_invariants(), Ok(()));
    }
}

#[test]
fn a_declared_limit_is_cancelled() {
    let mut h = roc(Running, false);
    let declare = Command::DeclareMoveLimit {
        table: T,
        requested_by: None,
        limited: Side::Black,
        book_draw: true,
    };
    command(&mut h, declare, NOW);
    let rec = Record::Command {
        author: chief(),
        command: Command::CancelMoveLimit { table: T },
    };
    h.apply(&rec, NOW + 1).expect("cancelled");
    assert!(table(&h).move_limit.is_none());
    let c = controls(&mut h);
    assert!(matches!(
        &c[..],
        [ControlToTable::MoveLimit { limit: None, .. }]
    ));
}

#[test]
fn a_ruling_records_its_author_for_the_override_rule() {
    for (author, ruled_by) in [
        (chief(), RulingAuthor::Chief),
        (
            Author::new(RoleKind::Deputy, "李"),
            RulingAuthor::Deputy("李".into()),
        ),
    ] {
        let mut h = axf(Running, true);
        let cmd = Command::RuleOnClaim {
            table: T,
            claim_id: 1,
            decision: Decision::Accept,
        };
        assert_eq!(h.action_of(&cmd), Action::RuleOnClaim { table: 1 });
        let rec = Record::Command {
            author: author.clone(),
            command: cmd.clone(),
        };
        h.apply(&rec, NOW).expect("ruled");
        assert_eq!(
            h.action_of(&cmd),
            Action::OverrideRuling {
                table: 1,
                ruled_by: ruled_by.clone()
            }
        );
        let c = h.book.claims.get(1).expect("the claim");
        assert!(matches!(&c.view.status, ClaimStatus::Ruled { by, .. } if *by == author.who()));
        // Accepted twice: refused, the first ruling stands.
        assert_eq!(
            h.apply(&rec, NOW),
            Err(Refusal::AlreadyRuled { claim_id: 1 })
        );
    }
}

/// A false natural-limit claim: accepting it takes the time off and
/// records the foul, then tells the terminal "play on" with that penalty
/// (the last control, so that it is the terminal's last word); overriding
/// it with "play on" waives the penalty and says so.
#[test]
fn a_decided_claim_is_announced_to_the_terminal_with_its_penalty() {
    for accept in [true, false] {
        let mut h = axf(Running, false);
        event(&mut h, TableEvent::ClaimNaturalLimit { by: Side::Red }, NOW);
        let id = claim_id(&h);
        let penalty = h.book.claims.get(id).expect("the claim").view.penalty;
        let p = penalty.expect("a false claim carries its penalty");
        assert_eq!((p.side, p.technical_foul), (Side::Red, true));
        assert!(p.deduct_ms > 0);
        let decision = if accept {
            Decision::Accept
        } else {
            Decision::Override {
                verdict: Verdict::Continue,
                must_change: None,
                reason: "the count was close".into(),
            }
        };
        let rec = Record::Command {
            author: chief(),
            command: Command::RuleOnClaim {
                table: T,
                claim_id: id,
                decision,
            },
        };
        h.apply(&rec, NOW + 1).expect("ruled");
        let c = controls(&mut h);
        let decided = ControlToTable::ClaimDecided {
            claim_id: id,
            kind: proto::ClaimKind::NaturalLimit,
            claimant: Some(Side::Red),
            verdict: Verdict::Continue,
            must_change: None,
            penalty: if accept { Some(p) } else { None },
        };
        assert_eq!(c.last(), Some(&decided), "accept {accept}: {c:?}");
        let adjusted = c.iter().any(|c| matches!(c, ControlToTable::Adjust { .. }));
        assert_eq!(adjusted, accept, "{c:?}");
    }
}

#[test]
fn publishing_moves_the_hall_to_the_round_and_a_replay_of_it_changes_nothing() {
    let mut h = axf(Finished, false);
    let chief = proto::roles::Author::new(proto::roles::RoleKind::Chief, "王");
    h.set_high_water(1, 3, 17);
    let result = GameResult::Draw;
    let reason = "r".to_string();
    command(
        &mut h,
        Command::SetResult {
            table: 2,
            result,
            reason,
        },
        4_000,
    );
    let publish = Command::PublishRound {
        round: Box::new(round_2()),
        changes: vec![proto::RoundChange {
            what: proto::Message::new("round-change-colours").int("table", 1),
            reason: String::new(),
        }],
    };
    // A change without a reason is refused.
    assert!(matches!(
        h.check_command(&publish),
        Err(Refusal::BadRound { .. })
    ));
    let publish = Command::PublishRound {
        round: Box::new(round_2()),
        changes: Vec::new(),
    };
    h.apply_command(&chief, &publish, 5_000).expect("published");
    assert_eq!(h.info().round, 2);
    let t1 = &h.tables()[&1];
    assert_eq!((t1.red.as_str(), t1.black.as_str()), ("丁", "甲"));
    assert!(!t1.finished());
    assert_eq!((t1.epoch, t1.high_water), (3, 17), "the numbering goes on");
    assert!(h.book().claims.all().next().is_none());
    // The same record again (a replay of round 2 from its first record).
    h.apply_command(&chief, &publish, 6_000).expect("no-op");
    assert_eq!(h.info().round, 2);
    // Round 3 only once round 2 is over; round 4 never now.
    let mut r4 = round_2();
    r4.round = 4;
    let refused = h.check_command(&Command::PublishRound {
        round: Box::new(r4),
        changes: Vec::new(),
    });
    assert!(
        matches!(refused, Err(Refusal::BadRound { round: 4, .. })),
        "{refused:?}"
    );
}

#[test]
fn a_result_of_the_round_before_is_corrected_in_a_later_round_and_nothing_else_changes() {
    let mut h = axf(Finished, false);
    let chief = proto::roles::Author::new(proto::roles::RoleKind::Chief, "王");
    command(
        &mut h,
        Command::SetResult {
            table: 2,
            result: GameResult::Draw,
            reason: "r".into(),
        },
        4_000,
    );
    let publish = Command::PublishRound {
        round: Box::new(round_2()),
        changes: Vec::new(),
    };
    h.apply_command(&chief, &publish, 5_000).expect("published");
    let correct = |round: u32, table: u16, reason: &str| Command::CorrectResult {
        round,
        table,
        result: GameResult::BlackWins,
        reason: reason.into(),
    };
    // Not this round, not round 0, not table 0, never without a reason.
    for (cmd, why) in [
        (correct(2, 1, "x"), "the hall plays round 2"),
        (correct(0, 1, "x"), "the hall plays round 2"),
        (correct(1, 0, "x"), "there is no table 0"),
        (correct(1, 2, "  "), "the reason is required"),
        (correct(1, 2, &"长".repeat(100)), "longer than 256 bytes"),
    ] {
        match h.check_command(&cmd) {
            Err(r @ Refusal::BadCorrection { .. }) => {
                assert!(r.to_string().contains(why), "{cmd:?}: {r}");
                assert_eq!(r.code(), proto::ErrorCode::Invalid);
            }
            other => panic!("{cmd:?}: {other:?}"),
        }
    }
    let before = h.snapshot(6_000);
    let audit = h.book.audit.len();
    let cmd = correct(1, 2, "申诉成立：红方超时");
    h.apply_command(&chief, &cmd, 6_000).expect("corrected");
    let e = h.book.audit.get(audit).expect("an audit entry");
    assert_eq!(
        e.what,
        "round 1 table 2: result corrected to BlackWins because 申诉成立：红方超时"
    );
    assert_eq!(e.who, "chief:王");
    assert_eq!(e.table, None, "not round 2's table 2");
    // Round 2's tables are untouched (round 1 is the record's business).
    let mut after = h.snapshot(6_000);
    after.audit.truncate(before.audit.len());
    assert_eq!(after, before);
    assert!(
        h.take_effects().controls.is_empty(),
        "nothing sent to a table"
    );
    // Only the chief corrects.
    let deputy = proto::roles::Principal::Deputy {
        name: "李".into(),
        tables: [1, 2].into_iter().collect(),
    };
    let refused = proto::roles::authorize(&deputy, &h.action_of(&cmd));
    assert!(
        refused.is_err_and(
            |r| i18n::texts::english(&r.message).contains("only the chief corrects a result")
        ),
        "a deputy may not"
    );
}

/// Round 1 of the fixture over (table 1 finished by the state, table 2
/// drawn), round 2 published.
fn round_2_published() -> Hall {
    let mut h = axf(Finished, false);
    let chief = proto::roles::Author::new(proto::roles::RoleKind::Chief, "王");
    command(
        &mut h,
        Command::SetResult {
            table: 2,
            result: GameResult::Draw,
            reason: "r".into(),
        },
        4_000,
    );
    let publish = Command::PublishRound {
        round: Box::new(round_2()),
        changes: Vec::new(),
    };
    h.apply_command(&chief, &publish, 5_000).expect("published");
    h
}

fn withdraw(round: u32, reason: &str) -> Command {
    Command::WithdrawRound {
        round,
        reason: reason.into(),
    }
}

#[test]
fn a_withdrawn_round_puts_the_round_before_back_with_its_results() {
    let mut h = round_2_published();
    let chief = proto::roles::Author::new(proto::roles::RoleKind::Chief, "王");
    assert!(h.can_withdraw());
    let round_1_results: Vec<bool> = vec![true, true];
    // Not another round, never without a reason.
    for (cmd, why) in [
        (withdraw(1, "x"), "the hall plays round 2"),
        (withdraw(3, "x"), "the hall plays round 2"),
        (withdraw(2, " "), "the reason is required"),
        (withdraw(2, &"长".repeat(100)), "longer than 256 bytes"),
    ] {
        match h.check_command(&cmd) {
            Err(r @ Refusal::BadWithdrawal { .. }) => {
                assert!(r.to_string().contains(why), "{cmd:?}: {r}")
            }
            other => panic!("{cmd:?}: {other:?}"),
        }
    }
    // A terminal of round 2 signed in and numbered on (not a start).
    h.set_high_water(1, 4, 2);
    let audit = h.book.audit.len();
    h.apply_command(&chief, &withdraw(2, "申诉成立，重新编排"), 6_000)
        .expect("withdrawn");
    let e = h.book.audit.get(audit).expect("an audit entry");
    assert_eq!(
        e.what,
        "withdraw round 2 (published, not started) because 申诉成立，重新编排"
    );
    assert_eq!(h.info().round, 1);
    let t1 = &h.tables()[&1];
    assert_eq!(
        (t1.red.as_str(), t1.black.as_str()),
        ("甲", "乙"),
        "round 1's pairing"
    );
    let finished: Vec<bool> = h.tables().values().map(|t| t.finished()).collect();
    assert_eq!(finished, round_1_results, "every result of round 1 is in");
    assert_eq!((t1.epoch, t1.high_water), (4, 2), "the numbering goes on");
    assert!(!h.can_withdraw(), "round 1 is the config's");
    // N pairs again: round 2 can be published again.
    h.check_command(&Command::PublishRound {
        round: Box::new(round_2()),
        changes: Vec::new(),
    })
    .expect("round 2 again");
    // Round 1 (its games over, and the config's) is not withdrawn.
    let refused = h.check_command(&withdraw(1, "x"));
    assert!(
        refused
            .as_ref()
            .is_err_and(|r| r.to_string().contains("has started")),
        "{refused:?}"
    );
}

#[test]
fn a_started_round_cannot_be_withdrawn_and_a_deputy_never() {
    let mut h = round_2_published();
    // A deputy may not, whatever the round.
    let deputy = proto::roles::Principal::Deputy {
        name: "李".into(),
        tables: [1, 2].into_iter().collect(),
    };
    let refused = proto::roles::authorize(&deputy, &h.action_of(&withdraw(2, "x")));
    assert!(
        refused.is_err_and(|r| i18n::texts::english(&r.message)
            .contains("only the chief withdraws a published round")),
        "a deputy may not"
    );
    // Table 1's clock starts: the round has started.
    let started = TableEvent::ClockStarted {
        red_ms: 600_000,
        black_ms: 600_000,
        terminal_mono_ms: 0,
    };
    event(&mut h, started, 7_000);
    assert!(h.round_started());
    assert!(!h.can_withdraw());
    match h.check_command(&withdraw(2, "x")) {
        Err(r @ Refusal::BadWithdrawal { round: 2, .. }) => {
            assert!(r.to_string().contains("the round has started"), "{r}");
            assert!(r.to_string().contains("table 1"), "{r}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_replay_of_publication_and_withdrawal_gives_the_same_hall() {
    let chief = proto::roles::Author::new(proto::roles::RoleKind::Chief, "王");
    let mut live = round_2_published();
    live.apply_command(&chief, &withdraw(2, "重排"), 6_000)
        .expect("withdrawn");
    let mut again = round_2();
    let b = &mut again.boards[1];
    std::mem::swap(&mut b.red, &mut b.black);
    let publish = Command::PublishRound {
        round: Box::new(again),
        changes: Vec::new(),
    };
    live.apply_command(&chief, &publish, 7_000)
        .expect("published again");
    let mut replayed = round_2_published();
    replayed
        .apply_command(&chief, &withdraw(2, "重排"), 6_000)
        .expect("withdrawn");
    replayed
        .apply_command(&chief, &publish, 7_000)
        .expect("published again");
    assert_eq!(live.snapshot(8_000), replayed.snapshot(8_000));
    assert_eq!(live.info().round, 2);
    assert_eq!(live.tables()[&2].red, "丙", "the new pairing");
    assert!(
        live.can_withdraw(),
        "the round published again can be withdrawn"
    );
}

fn leave(player: &str, from_round: u16, reason: &str) -> Command {
    Command::WithdrawPlayer {
        player: player.into(),
        from_round,
        reason: reason.into(),
    }
}

fn enter(name: &str, id: Option<&str>) -> Command {
    Command::EnterPlayer {
        name: name.into(),
        id: id.map(Into::into),
        rating: None,
        federation: None,
        club: None,
    }
}

/// The words of a refusal's catalogue message, in English.
fn english(r: &Refusal) -> String {
    i18n::texts::english(&r.message())
}

#[test]
fn a_deputy_may_not_enter_or_withdraw_a_player() {
    let h = axf(Finished, false);
    let deputy = proto::roles::Principal::Deputy {
        name: "李".into(),
        tables: [1, 2].into_iter().collect(),
    };
    let chief = proto::roles::Principal::Chief { name: "王".into() };
    for (cmd, words) in [
        (enter("王五", None), "only the chief enters a player late"),
        (leave("甲", 2, "病"), "only the chief withdraws a player"),
    ] {
        let refused = proto::roles::authorize(&deputy, &h.action_of(&cmd));
        assert!(
            refused.is_err_and(|r| i18n::texts::english(&r.message).contains(words)),
            "{cmd:?}: a deputy may not"
        );
        proto::roles::authorize(&chief, &h.action_of(&cmd)).expect("the chief may");
    }
}

#[test]
fn an_entry_or_a_withdrawal_the_hall_sees_wrong_is_refused() {
    let h = axf(Finished, false);
    for (cmd, why) in [
        (enter(" ", None), "the name is empty"),
        (enter(&"长".repeat(30), None), "longer than 64 bytes"),
        (enter("王\u{7}五", None), "control character"),
        (enter("王五", Some("")), "the registration id is empty"),
        (leave("甲", 1, "病"), "not after the round being played (1)"),
        (leave("甲", 0, "病"), "not after the round being played"),
        (leave("甲", 2, " "), "the reason is empty"),
        (leave("", 2, "病"), "the player is empty"),
    ] {
        match h.check_command(&cmd) {
            Err(r @ (Refusal::BadEntry { .. } | Refusal::BadPlayerWithdrawal { .. })) => {
                assert!(r.to_string().contains(why), "{cmd:?}: {r}");
                assert!(english(&r).contains(why), "{cmd:?}: {}", english(&r));
            }
            other => panic!("{cmd:?}: {other:?}"),
        }
    }
}

#[test]
fn an_entry_and_a_withdrawal_are_audited_and_change_no_table() {
    let mut h = axf(Finished, false);
    let chief = proto::roles::Author::new(proto::roles::RoleKind::Chief, "王");
    let before = h.snapshot(5_000);
    let audit = h.book.audit.len();
    let entry = Command::EnterPlayer {
        name: "王五".into(),
        id: Some("CHN-42".into()),
        rating: Some(2150),
        federation: Some("CHN".into()),
        club: None,
    };
    h.apply_command(&chief, &entry, 5_000).expect("entered");
    h.apply_command(&chief, &leave("甲", 2, "因病退赛"), 5_100)
        .expect("withdrawn");
    let words: Vec<String> = (audit..h.book.audit.len())
        .filter_map(|i| h.book.audit.get(i))
        .map(|e| e.what.clone())
        .collect();
    assert_eq!(
        words,
        [
            "enter player 王五 (id CHN-42, rating 2150, CHN) late, from the next round",
            "withdraw player 甲 from round 2 because 因病退赛",
        ]
    );
    let mut after = h.snapshot(5_000);
    after.audit.truncate(before.audit.len());
    assert_eq!(after, before, "the round being played is untouched");
    assert!(
        h.take_effects().controls.is_empty(),
        "nothing sent to a table"
    );
}

#[test]
fn the_roster_refuses_an_unknown_player_a_second_withdrawal_and_a_second_entry() {
    let mut roster = Roster::new(["甲", "乙", "CHN-7"].map(String::from));
    let unknown = roster
        .check(&leave("CHN-99", 3, "病"))
        .expect_err("an unknown player");
    assert!(
        english(&unknown)
            .contains("player CHN-99 cannot be withdrawn: no player of the tournament"),
        "{}",
        english(&unknown)
    );
    let first = leave("CHN-7", 3, "病");
    roster.check(&first).expect("a player of the tournament");
    roster.apply(&first);
    assert_eq!(roster.withdrawn_from("CHN-7"), Some(3));
    let twice = roster
        .check(&leave("CHN-7", 4, "again"))
        .expect_err("withdrawn already");
    assert!(
        english(&twice).contains("withdrawn already, from round 3"),
        "{}",
        english(&twice)
    );
    // An entry joins the roster once: the same key again is refused, a
    // withdrawal of the entrant is not.
    let entry = enter("王五", Some("CHN-42"));
    roster.check(&entry).expect("a new player");
    roster.apply(&entry);
    let again = roster
        .check(&enter("王五", Some("CHN-42")))
        .expect_err("twice");
    assert!(english(&again).contains("CHN-42 is a player of the tournament already"));
    roster
        .check(&leave("CHN-42", 3, "病"))
        .expect("the entrant may withdraw");
    roster
        .check(&enter("王五", None))
        .expect("a namesake without the id is another player (by name)");
}

/// A refusal's reason is a message of its own (`why-*`), nested in the
/// refusal's: every language words both, no English left inside.
#[test]
fn a_refusals_reason_is_worded_in_each_language() {
    let hall = axf(Running, false);
    let r = hall
        .check_command(&Command::WithdrawRound {
            round: 2,
            reason: "更正后重新编排".into(),
        })
        .unwrap_err();
    let en = i18n::render(i18n::Lang::En, &r.message());
    assert_eq!(
        en,
        "round 2 cannot be withdrawn: the hall plays round 1: only the round it plays can be withdrawn"
    );
    let vi = i18n::render(i18n::Lang::Vi, &r.message());
    assert!(vi.contains("phòng đấu đang đấu vòng 1"), "{vi}");
    let hant = i18n::render(i18n::Lang::ZhHant, &r.message());
    assert!(hant.contains("賽場正在進行第 1 輪"), "{hant}");
    for text in [&vi, &hant] {
        assert!(!text.contains("the hall plays"), "{text}");
    }
}

/// Publishing drops the round before's alerts and claims and lifts a hall
/// pause; withdrawing the round gives them back as they were (the ids go
/// on counting), and drops what the withdrawn round raised.
#[test]
fn a_withdrawn_round_gives_back_the_alerts_claims_and_pause_publishing_dropped() {
    // Round 1: a no-show claim pending at table 1 (with its alert), its
    // game then over; table 2 drawn; the hall paused.
    let mut h = axf(Finished, true);
    let chief = proto::roles::Author::new(proto::roles::RoleKind::Chief, "王");
    command(
        &mut h,
        Command::SetResult {
            table: 2,
            result: GameResult::Draw,
            reason: "r".into(),
        },
        4_000,
    );
    command(
        &mut h,
        Command::PauseHall {
            reason: "停电".into(),
        },
        4_500,
    );
    let before = h.snapshot(4_600);
    assert!(!before.alerts.is_empty(), "round 1 has an alert");
    assert!(!before.claims.is_empty(), "round 1 has a claim");
    assert!(before.paused.is_some(), "the hall is paused");
    let publish = Command::PublishRound {
        round: Box::new(round_2()),
        changes: Vec::new(),
    };
    h.apply_command(&chief, &publish, 5_000).expect("published");
    let published = h.snapshot(5_100);
    assert!(published.alerts.is_empty(), "publishing drops the alerts");
    assert!(published.claims.is_empty(), "and the claims");
    assert!(published.paused.is_none(), "and lifts the pause");
    h.apply_command(&chief, &withdraw(2, "申诉成立，重新编排"), 6_000)
        .expect("withdrawn");
    let after = h.snapshot(4_600);
    assert_eq!(after.alerts, before.alerts, "round 1's alerts are back");
    assert_eq!(after.claims, before.claims, "round 1's claims are back");
    assert_eq!(after.paused, before.paused, "the hall pause is back");
    assert_eq!(after.tables, before.tables, "round 1's tables are back");
}

/// A published round that has not started may lose a player from that
/// round on (the chief withdraws the round next and pairs it again); once
/// it has started, only from the round after.
#[test]
fn a_player_leaves_an_unstarted_published_round_but_not_a_started_one() {
    let mut h = round_2_published();
    h.check_command(&leave("甲", 2, "因病退赛"))
        .expect("from the unstarted round 2");
    h.check_command(&leave("甲", 1, "因病退赛"))
        .expect_err("never from round 1");
    let started = TableEvent::ClockStarted {
        red_ms: 600_000,
        black_ms: 600_000,
        terminal_mono_ms: 0,
    };
    event(&mut h, started, 7_000);
    match h.check_command(&leave("甲", 2, "因病退赛")) {
        Err(r @ Refusal::BadPlayerWithdrawal { .. }) => {
            assert!(
                r.to_string()
                    .contains("not after the round being played (2)"),
                "{r}"
            )
        }
        other => panic!("{other:?}"),
    }
    h.check_command(&leave("甲", 3, "因病退赛"))
        .expect("from round 3");
}
