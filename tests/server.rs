//! End-to-end tests of the hall server: a real server on 127.0.0.1 with a
//! temporary data dir, real QUIC clients (proto's client helpers) as table
//! terminals and consoles.
//!
//! Covered: events acknowledged and seen by a console; flag fall, illegal
//! move, perpetual check from a real move sequence and a false natural-limit
//! claim, each with its rule cited; pause/resume of a table and of the hall
//! reaching the terminals; seal/unseal with the sealed move hidden; a ruling
//! accepted and one overridden, both audited; the authorization matrix;
//! restart (graceful, and SIGKILL of `caipan serve`) with every acknowledged
//! event kept and resends stored once; hostile input; a table's connection
//! one task of the server's and no other.
//!
//! Each test runs twice (`on_both_stores!`): with the hall record in SQLite
//! in the data dir (`NAME::sqlite`) and in PostgreSQL (`NAME::postgres`,
//! a fresh database each; skipped loudly without PostgreSQL).

use std::time::Duration;

use proto::{
    AlertKind, ClaimKind, ClaimStatus, ClientMsg, Command, ControlToTable, Decision, ErrorCode,
    EventEnvelope, FoulKind, GameResult, Hello, RulingOutcome, ServerMsg, Side, TableEvent,
    TableStatus, Trust, Verdict, PROTOCOL_VERSION,
};

mod support;
use support::stores::TestStore;
use support::*;

on_both_stores!(
    event_is_acknowledged_and_seen_by_a_console,
    flag_fall_illegal_move_and_false_limit_claim_raise_alerts_with_rules,
    a_move_ignoring_check_proposes_a_loss,
    perpetual_check_from_a_real_sequence_is_detected_without_a_claim,
    pause_and_resume_of_a_table_and_of_the_hall_reach_the_terminals,
    sealed_move_is_hidden_until_unsealed,
    rulings_accepted_and_overridden_are_audited,
    audit_rows_reach_a_console_typed_and_are_stored_typed,
    authorization_matrix_refuses_and_changes_nothing,
    hostile_input_gets_errors_and_the_server_keeps_serving,
    graceful_restart_keeps_every_acknowledged_event_and_dedupes_resends,
    sigkill_in_the_middle_of_a_stream_loses_nothing_acknowledged,
    a_burst_is_acknowledged_in_order_with_coalesced_acks,
);

async fn event_is_acknowledged_and_seen_by_a_console(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    let view = chief.subscribe().await;
    assert_eq!(view.tables.len(), 4);
    assert_eq!(view.tables[0].red, "胡荣华");
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    let ack = t1
        .event(press(Side::Red, "h2e2", 4_800_000, 4_800_000))
        .await;
    assert_eq!((ack.table, ack.seq, ack.duplicate), (1, 1, false));
    let tv = delta_until(&mut chief, |m| match m {
        ServerMsg::Delta(proto::Delta::Table(t)) if t.table == 1 && t.plies == 1 => Some(t.clone()),
        _ => None,
    })
    .await;
    assert_eq!(tv.last_move, Some(mv("h2e2")));
    assert_eq!(tv.to_move, Side::Black);
    assert!(tv.online);
    // A resend of the same event is acknowledged as a duplicate and not stored twice.
    let env = EventEnvelope {
        table: 1,
        epoch: t1.epoch,
        seq: 1,
        body: press(Side::Red, "h2e2", 4_800_000, 4_800_000),
    };
    t1.c.send(ClientMsg::Event(env.clone())).await;
    let dup =
        t1.c.until(|m| match m {
            ServerMsg::Ack(a) => Some(*a),
            _ => None,
        })
        .await;
    assert!(dup.duplicate);
    // Same key, other content: conflict.
    let mut other = env;
    other.body = press(Side::Red, "b2e2", 1, 1);
    t1.c.send(ClientMsg::Event(other)).await;
    let err =
        t1.c.until(|m| match m {
            ServerMsg::Error(e) => Some(e.clone()),
            _ => None,
        })
        .await;
    assert_eq!(err.code, ErrorCode::Conflict);
    let snap = s.snapshot().unwrap();
    assert_eq!(snap.tables[0].plies, 1);
    s.shutdown().await.unwrap();
}

async fn flag_fall_illegal_move_and_false_limit_claim_raise_alerts_with_rules(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut chief = chief(&s).await;
    let mut t2 = Terminal::open(s.addr, s.fingerprint, 2).await;
    t2.play(&["h2e2", "h9g7"], Side::Red).await;

    // Illegal: a rook through its own pawn (not a check matter): correction + technical foul.
    t2.event(TableEvent::Move {
        by: Side::Red,
        mv: mv("a0a5"),
    })
    .await;
    let a = chief
        .alert_where(|a| a.kind == AlertKind::IllegalMove)
        .await;
    assert_eq!(a.rule_ids, vec!["AXF-PLAY-4A".to_string()]);
    let c = chief
        .claim_where(|c| c.kind == ClaimKind::IllegalMove)
        .await;
    assert_eq!(
        c.recommended.verdict,
        Verdict::CorrectMove { side: Side::Red }
    );
    assert_eq!(
        s.snapshot().unwrap().tables[1].plies,
        2,
        "illegal move not applied"
    );

    // False natural-limit claim after 2 plies: AXF-LIMIT-1/2/3 cited, play continues.
    t2.event(TableEvent::ClaimNaturalLimit { by: Side::Black })
        .await;
    let c = chief
        .claim_where(|c| c.kind == ClaimKind::NaturalLimit)
        .await;
    assert_eq!(c.recommended.verdict, Verdict::Continue);
    for r in ["AXF-LIMIT-1", "AXF-LIMIT-2", "AXF-LIMIT-3"] {
        assert!(
            c.recommended.rule_ids.iter().any(|x| x == r),
            "{r} in {:?}",
            c.recommended.rule_ids
        );
    }
    // Accepting it costs Black a technical foul and 5 minutes.
    chief
        .command(
            5,
            Command::RuleOnClaim {
                table: 2,
                claim_id: c.id,
                decision: Decision::Accept,
            },
        )
        .await
        .unwrap();
    let tv = &s.snapshot().unwrap().tables[1];
    assert_eq!(tv.fouls_black.technical, 1);
    assert_eq!(tv.clock.black_ms, 4_000_000 - 300_000);

    // Flag fall reported by the terminal.
    t2.event(TableEvent::FlagFell {
        side: Side::Red,
        red_ms: 0,
        black_ms: 1_000,
        terminal_mono_ms: 5,
    })
    .await;
    let a = chief.alert_where(|a| a.kind == AlertKind::FlagFall).await;
    assert_eq!(a.table, 2);
    assert!(a.rule_ids.contains(&"AXF-CLOCK-1".to_string()));
    assert_eq!(s.snapshot().unwrap().tables[1].flag, Some(Side::Red));
    s.shutdown().await.unwrap();
}

async fn a_move_ignoring_check_proposes_a_loss(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut chief = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 3).await;
    // The cannon takes the e6 pawn, the horse takes it back, the e-pawn marches up and
    // takes the horse: only that pawn stands between the kings on the e-file.
    t.play(
        &[
            "h2e2", "h9g7", "e2e6", "g7e6", "e3e4", "a6a5", "e4e5", "a5a4", "e5e6", "a4a3",
        ],
        Side::Red,
    )
    .await;
    assert_eq!(s.snapshot().unwrap().tables[2].plies, 10);
    // The pawn steps aside: the kings face each other (flying general).
    t.event(TableEvent::Move {
        by: Side::Red,
        mv: mv("e6d6"),
    })
    .await;
    let c = chief
        .claim_where(|c| c.kind == ClaimKind::IllegalMove)
        .await;
    assert_eq!(c.recommended.verdict, Verdict::Loss { side: Side::Red });
    assert_eq!(c.recommended.rule_ids, vec!["AXF-G6".to_string()]);
    s.shutdown().await.unwrap();
}

async fn perpetual_check_from_a_real_sequence_is_detected_without_a_claim(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut chief = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 1).await;
    // Red's horse goes h0-g2-f4, takes the g6 pawn and reaches g8 with check via e7.
    let opening = [
        "g3g4", "a6a5", "h0g2", "a5a4", "g2f4", "a4a3", "f4g6", "a3b3", "g6e7", "b3c3", "e7g8",
    ];
    t.play(&opening, Side::Red).await;
    // The king steps up and back; the horse checks from f6 and g8 every time.
    let cycle = ["e9e8", "g8f6", "e8e9", "f6g8"];
    for _ in 0..2 {
        t.play(&cycle, Side::Black).await;
    }
    assert_eq!(s.snapshot().unwrap().tables[0].plies, 19);
    let a = chief.alert_where(|a| a.kind == AlertKind::Repetition).await;
    assert!(
        a.rule_ids.iter().any(|r| r == "AXF-D1" || r == "AXF-S1"),
        "perpetual check cited: {:?}",
        a.rule_ids
    );
    let c = chief.claim_where(|c| c.kind == ClaimKind::Repetition).await;
    assert_eq!(c.recommended.must_change, Some(Side::Red));
    assert_eq!(c.by, None, "raised without a claim");
    // The cycle goes on: each of its positions now occurs a third time, but
    // the arbiter gets one claim and one alert for the cycle, not one each.
    t.play(&cycle, Side::Black).await;
    let hall = s.snapshot().unwrap();
    assert_eq!(hall.tables[0].plies, 23);
    let claims = hall
        .claims
        .iter()
        .filter(|c| c.table == 1 && c.kind == ClaimKind::Repetition)
        .count();
    let alerts = hall
        .alerts
        .iter()
        .filter(|a| a.table == 1 && a.kind == AlertKind::Repetition)
        .count();
    assert_eq!(
        (claims, alerts),
        (1, 1),
        "one claim and one alert per cycle"
    );
    s.shutdown().await.unwrap();
}

/// The next control the terminal receives.
async fn control(t: &mut Terminal) -> (u64, ControlToTable) {
    t.c.until(|m| match m {
        ServerMsg::Control { id, control, .. } => Some((*id, control.clone())),
        _ => None,
    })
    .await
}

async fn pause_and_resume_of_a_table_and_of_the_hall_reach_the_terminals(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    let mut deputy = connect(s.addr, s.fingerprint, DEPUTY).await.unwrap();
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    let mut t2 = Terminal::open(s.addr, s.fingerprint, 2).await;
    t1.play(&["h2e2"], Side::Red).await;
    t2.play(&["b2e2"], Side::Red).await;

    deputy
        .command(
            1,
            Command::PauseTable {
                table: 1,
                reason: "噪音".into(),
            },
        )
        .await
        .unwrap();
    let (id, c) = control(&mut t1).await;
    assert!(
        matches!(c, ControlToTable::Pause { ref by, ref reason } if by == "deputy:陈立新" && reason == "噪音")
    );
    t1.event(TableEvent::ControlApplied {
        control_id: id,
        red_ms: 4_000_000,
        black_ms: 3_990_000,
        running: None,
        terminal_mono_ms: 10,
    })
    .await;
    assert!(matches!(
        s.snapshot().unwrap().tables[0].status,
        TableStatus::Paused(_)
    ));
    deputy
        .command(2, Command::ResumeTable { table: 1 })
        .await
        .unwrap();
    assert!(matches!(
        control(&mut t1).await.1,
        ControlToTable::Resume { .. }
    ));
    assert_eq!(s.snapshot().unwrap().tables[0].status, TableStatus::Playing);

    chief
        .command(
            3,
            Command::PauseHall {
                reason: "停电".into(),
            },
        )
        .await
        .unwrap();
    for t in [&mut t1, &mut t2] {
        assert!(
            matches!(control(t).await.1, ControlToTable::Pause { ref reason, .. } if reason == "停电")
        );
    }
    let snap = s.snapshot().unwrap();
    assert!(snap.paused.is_some());
    assert!(snap
        .tables
        .iter()
        .all(|t| matches!(t.status, TableStatus::Paused(_))));
    chief.command(4, Command::ResumeHall).await.unwrap();
    for t in [&mut t1, &mut t2] {
        assert!(matches!(control(t).await.1, ControlToTable::Resume { .. }));
    }
    let snap = s.snapshot().unwrap();
    assert!(snap.paused.is_none());
    assert!(snap
        .tables
        .iter()
        .all(|t| !matches!(t.status, TableStatus::Paused(_))));
    s.shutdown().await.unwrap();
}

async fn sealed_move_is_hidden_until_unsealed(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    let mut viewer = connect(s.addr, s.fingerprint, VIEWER).await.unwrap();
    viewer.subscribe().await;
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    t1.play(&["h2e2"], Side::Red).await;
    // Black seals h9g7.
    chief
        .command(
            1,
            Command::Seal {
                table: 1,
                sealed_move: mv("h9g7"),
            },
        )
        .await
        .unwrap();
    assert!(matches!(
        control(&mut t1).await.1,
        ControlToTable::Seal { .. }
    ));
    let snap = s.snapshot().unwrap();
    let tv = &snap.tables[0];
    assert!(matches!(tv.status, TableStatus::Sealed { .. }));
    assert_eq!(tv.plies, 1);
    // The sealed move appears in no view, no audit line and no delta.
    let hidden = format!("{:?}", snap);
    assert!(!hidden.contains("h9g7") && !hidden.contains(&format!("{:?}", mv("h9g7"))));
    let mut seen = Vec::new();
    while let Ok(Ok(m)) = tokio::time::timeout(Duration::from_millis(300), viewer.c.recv()).await {
        seen.push(format!("{m:?}"));
    }
    assert!(!seen.is_empty());
    assert!(seen
        .iter()
        .all(|m| !m.contains(&format!("{:?}", mv("h9g7")))));
    // A sealed game refuses a bad sealed move and unseals into the move.
    chief
        .command(2, Command::Unseal { table: 1 })
        .await
        .unwrap();
    match control(&mut t1).await.1 {
        ControlToTable::Unseal { sealed_move, .. } => assert_eq!(sealed_move, mv("h9g7")),
        other => panic!("expected unseal, got {other:?}"),
    }
    let tv = &s.snapshot().unwrap().tables[0];
    assert_eq!(tv.plies, 2);
    assert_eq!(tv.last_move, Some(mv("h9g7")));
    assert_eq!(tv.status, TableStatus::Playing);
    s.shutdown().await.unwrap();
}

async fn rulings_accepted_and_overridden_are_audited(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    let mut deputy = connect(s.addr, s.fingerprint, DEPUTY).await.unwrap();
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    let mut t2 = Terminal::open(s.addr, s.fingerprint, 2).await;
    t1.play(&["h2e2"], Side::Red).await;
    t1.event(TableEvent::ClaimNaturalLimit { by: Side::Black })
        .await;
    t2.play(&["h2e2"], Side::Red).await;
    t2.event(TableEvent::ClaimNaturalLimit { by: Side::Red })
        .await;
    let claims: Vec<_> = s.snapshot().unwrap().claims;
    let c1 = claims.iter().find(|c| c.table == 1).unwrap().id;
    let c2 = claims.iter().find(|c| c.table == 2).unwrap().id;

    deputy
        .command(
            1,
            Command::RuleOnClaim {
                table: 1,
                claim_id: c1,
                decision: Decision::Accept,
            },
        )
        .await
        .unwrap();
    chief
        .command(
            2,
            Command::RuleOnClaim {
                table: 2,
                claim_id: c2,
                decision: Decision::Override {
                    verdict: Verdict::Draw,
                    must_change: None,
                    reason: "双方同意和棋".into(),
                },
            },
        )
        .await
        .unwrap();
    // The deputy cannot override the chief's ruling.
    let err = deputy
        .command(
            3,
            Command::RuleOnClaim {
                table: 2,
                claim_id: c2,
                decision: Decision::Override {
                    verdict: Verdict::Continue,
                    must_change: None,
                    reason: "no".into(),
                },
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(err.0, ErrorCode::Forbidden), "{err:?}");

    let snap = s.snapshot().unwrap();
    let r1 = snap.claims.iter().find(|c| c.id == c1).unwrap();
    assert!(
        matches!(&r1.status, ClaimStatus::Ruled { by, outcome: RulingOutcome::Accepted, .. } if by == "deputy:陈立新")
    );
    let r2 = snap.claims.iter().find(|c| c.id == c2).unwrap();
    assert!(
        matches!(&r2.status, ClaimStatus::Ruled { outcome: RulingOutcome::Overridden { reason, .. }, .. } if reason == "双方同意和棋")
    );
    assert!(matches!(
        snap.tables[1].status,
        TableStatus::Finished {
            result: GameResult::Draw,
            ..
        }
    ));
    assert_eq!(
        snap.tables[0].fouls_black.technical, 1,
        "accepted penalty applied"
    );
    let audit: Vec<_> = snap
        .audit
        .iter()
        .map(|a| (a.who.clone(), a.what.clone(), a.refused.clone()))
        .collect();
    assert!(audit
        .iter()
        .any(|(w, what, r)| w == "deputy:陈立新" && what.contains("accept") && r.is_none()));
    assert!(audit
        .iter()
        .any(|(w, what, r)| w == "chief:王志明" && what.contains("双方同意和棋") && r.is_none()));
    assert!(audit
        .iter()
        .any(|(w, _, r)| w == "deputy:陈立新" && r.is_some()));
    // The same trail is in the store, read back after a restart.
    s.shutdown().await.unwrap();
    let s = store.start(dir.path()).await;
    let snap2 = s.snapshot().unwrap();
    assert_eq!(snap2.audit, snap.audit);
    assert_eq!(snap2.claims, snap.claims);
    s.shutdown().await.unwrap();
}

/// The audit trail typed (issue 33, protocol 10): a refused and an
/// accepted command reach a subscribed console over QUIC with their typed
/// messages (what was done, the refusal's own words), which render in
/// each language and in English as the text beside them; the store keeps
/// them typed, and a restart reads them back the same.
async fn audit_rows_reach_a_console_typed_and_are_stored_typed(store: TestStore) {
    use i18n::Lang;
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    let mut deputy = connect(s.addr, s.fingerprint, DEPUTY).await.unwrap();
    let pause = Command::PauseTable {
        table: 3,
        reason: "停电".into(),
    };
    // Table 3 is not the deputy's: refused, and audited with why.
    let err = deputy.command(1, pause.clone()).await.unwrap_err();
    assert!(matches!(err.0, ErrorCode::Forbidden), "{err:?}");
    chief.command(2, pause.clone()).await.unwrap();
    // A console subscribing now gets both rows in its hall view.
    let mut console = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    let view = console.subscribe().await;
    let rows: Vec<_> = view.audit.iter().filter(|e| e.table == Some(3)).collect();
    assert_eq!(rows.len(), 2, "{:?}", view.audit);
    let refused = *rows.iter().find(|e| e.refused.is_some()).unwrap();
    let accepted = *rows.iter().find(|e| e.refused.is_none()).unwrap();
    let typed = hall::command::typed(&pause);
    for e in [refused, accepted] {
        assert_eq!(e.what_msg.as_ref(), Some(&typed), "{e:?}");
        assert_eq!(e.what, "pause table 3: 停电");
        assert_eq!(i18n::render(Lang::En, &typed), e.what);
    }
    assert_eq!(i18n::render(Lang::ZhHant, &typed), "暫停第3台：停电");
    assert_eq!(i18n::render(Lang::Vi, &typed), "tạm dừng bàn 3: 停电");
    let why = refused.refused_msg.as_ref().expect("the refusal typed");
    assert!(why.id.starts_with("role-"), "{why:?}");
    assert_eq!(
        refused.refused.as_deref(),
        Some(i18n::texts::english(why).as_str())
    );
    assert!(accepted.refused_msg.is_none());
    // The store keeps both messages, encoded.
    let stored = store.audit_entries(dir.path()).await;
    let decoded = |b: &Option<Vec<u8>>| {
        b.as_deref()
            .map(|b| hall::record::decode_message(b).expect("a stored message"))
    };
    let at_3: Vec<_> = stored
        .iter()
        .filter(|a| a.record.table == Some(3))
        .collect();
    assert_eq!(at_3.len(), 2, "{stored:?}");
    for a in &at_3 {
        assert_eq!(decoded(&a.record.action_msg), Some(typed.clone()));
    }
    assert!(at_3
        .iter()
        .any(|a| decoded(&a.record.why_msg).as_ref() == Some(why)));
    let snap = s.snapshot().unwrap();
    s.shutdown().await.unwrap();
    let s = store.start(dir.path()).await;
    assert_eq!(s.snapshot().unwrap().audit, snap.audit);
    s.shutdown().await.unwrap();
}

/// Every console command, for the authorization matrix.
fn all_commands(claim: u64, alert: u64) -> Vec<Command> {
    vec![
        Command::PauseTable {
            table: 3,
            reason: "x".into(),
        },
        Command::ResumeTable { table: 3 },
        Command::PauseHall { reason: "x".into() },
        Command::ResumeHall,
        Command::Seal {
            table: 3,
            sealed_move: mv("h9g7"),
        },
        Command::Unseal { table: 3 },
        Command::RuleOnClaim {
            table: 3,
            claim_id: claim,
            decision: Decision::Accept,
        },
        Command::EscalateClaim {
            table: 3,
            claim_id: claim,
            reason: "x".into(),
        },
        Command::RecordFoul {
            table: 3,
            side: Side::Red,
            kind: FoulKind::Violation,
            note: "x".into(),
        },
        Command::AdjustClock {
            table: 3,
            red_ms: 1,
            black_ms: 1,
            reason: "x".into(),
        },
        Command::SetResult {
            table: 3,
            result: GameResult::Draw,
            reason: "x".into(),
        },
        Command::AckAlert { alert_id: alert },
        Command::ExportRound,
    ]
}

async fn authorization_matrix_refuses_and_changes_nothing(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut t3 = Terminal::open(s.addr, s.fingerprint, 3).await;
    t3.play(&["h2e2"], Side::Red).await;
    t3.event(TableEvent::ClaimNaturalLimit { by: Side::Black })
        .await;
    let before = s.snapshot().unwrap();
    let claim = before.claims[0].id;
    let alert = before.alerts.iter().find(|a| a.table == 3).unwrap().id;
    // Table 3 is not the deputy's (1, 2): every table command is refused to the
    // deputy, everything to the viewer and to a table terminal.
    let mut refused = 0;
    for (token, role) in [
        (DEPUTY, "deputy"),
        (VIEWER, "viewer"),
        (table_token(4).as_str(), "table"),
    ] {
        let mut c = connect(s.addr, s.fingerprint, token).await.unwrap();
        for (i, cmd) in all_commands(claim, alert).into_iter().enumerate() {
            let r = c.command(i as u64 + 1, cmd.clone()).await;
            let (code, why) = r.expect_err(&format!("{role} must be refused {cmd:?}"));
            assert!(
                matches!(code, ErrorCode::Forbidden),
                "{role} {cmd:?}: {code:?}"
            );
            assert!(!why.is_empty());
            refused += 1;
        }
        // A table terminal reporting for another table; a console reporting
        // table events at all.
        c.send(ClientMsg::Event(EventEnvelope {
            table: 3,
            epoch: 1,
            seq: 99,
            body: TableEvent::Arrived { side: Side::Red },
        }))
        .await;
        let e = c
            .until(|m| match m {
                ServerMsg::Error(e) => Some(e.clone()),
                _ => None,
            })
            .await;
        if role == "table" {
            assert_eq!(e.code, ErrorCode::WrongTable);
        } else {
            assert!(matches!(e.code, ErrorCode::Forbidden));
        }
    }
    // The deputy on an assigned table, and the chief anywhere, are allowed.
    let mut deputy = connect(s.addr, s.fingerprint, DEPUTY).await.unwrap();
    deputy
        .command(
            50,
            Command::RecordFoul {
                table: 1,
                side: Side::Red,
                kind: FoulKind::Violation,
                note: "ok".into(),
            },
        )
        .await
        .unwrap();
    let err = deputy
        .command(51, Command::PauseHall { reason: "x".into() })
        .await
        .unwrap_err();
    assert!(matches!(err.0, ErrorCode::Forbidden));
    // Protocol 8: the refusal travels as a catalogue id with typed
    // arguments (the deputy's name verbatim), and the console renders it
    // in its own language.
    deputy
        .send(ClientMsg::Command {
            id: 52,
            command: Command::PauseTable {
                table: 3,
                reason: "x".into(),
            },
        })
        .await;
    let e = deputy
        .until(|m| match m {
            ServerMsg::Error(e) if e.re == Some(proto::RequestRef::Command { id: 52 }) => {
                Some(e.clone())
            }
            _ => None,
        })
        .await;
    assert_eq!(e.code, ErrorCode::Forbidden);
    assert_eq!(e.message.id, "role-deputy-not-assigned");
    assert_eq!(e.message.get("table"), Some(&proto::Arg::Int(3)));
    assert_eq!(
        e.message.get("deputy"),
        Some(&proto::Arg::Verbatim("陈立新".into()))
    );
    assert_eq!(
        e.message.get("assigned"),
        Some(&proto::Arg::Verbatim("1, 2".into()))
    );
    let mut console = ::console::fixture::app(
        ::console::Lang::Vi,
        proto::Role::Chief,
        ::console::fixture::hall(4),
    );
    console.on_server(ServerMsg::Error(e));
    let shown = console.notice.expect("the refusal is shown").text;
    assert!(
        shown.contains("bàn 3 không được giao cho phó trọng tài 陈立新 (được giao: 1, 2)"),
        "{shown}"
    );
    // Nothing changed for table 3 and the hall; each refusal is in the audit trail.
    let after = s.snapshot().unwrap();
    assert_eq!(after.tables[2], before.tables[2]);
    assert_eq!(after.claims, before.claims);
    assert_eq!(after.paused, None);
    assert!(after.alerts.iter().all(|a| a.acked_by.is_none()));
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    chief
        .command(
            60,
            Command::RuleOnClaim {
                table: 3,
                claim_id: claim,
                decision: Decision::Accept,
            },
        )
        .await
        .unwrap();
    s.shutdown().await.unwrap();
    // Each refusal is in the audit trail: one by one up to the threshold
    // per principal and window, the rest as one counted entry (appended at
    // the latest when the server stops).
    let mut audited = 0u64;
    for a in store.audit_entries(dir.path()).await {
        if !matches!(a.record.outcome, store::AuditOutcome::Refused { .. }) {
            continue;
        }
        audited += match a.record.action.split_once(" refused requests in ") {
            Some((n, _)) => n.parse::<u64>().unwrap(),
            None => 1,
        };
    }
    assert_eq!(
        audited,
        refused + 5,
        "{audited} refusals audited, {refused} commands, 3 events and 2 more commands refused"
    );
}

async fn hostile_input_gets_errors_and_the_server_keeps_serving(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    // Wrong token: refused and closed.
    let err = connect(s.addr, s.fingerprint, "not-a-token-at-all-xxxx")
        .await
        .err()
        .expect("refused");
    assert!(
        matches!(err, proto::ConnError::Refused(ref e) if e.code == ErrorCode::Unauthenticated),
        "{err:?}"
    );
    // Wrong version: refused.
    let hello = Hello {
        protocol_version: PROTOCOL_VERSION + 7,
        token: CHIEF.into(),
        client: "x".into(),
    };
    let err = proto::connect(s.addr, &Trust::Fingerprint(s.fingerprint), hello)
        .await
        .err()
        .expect("refused");
    assert!(
        matches!(err, proto::ConnError::Refused(ref e) if matches!(e.code, ErrorCode::BadVersion { .. })),
        "{err:?}"
    );

    // Garbage bytes on a raw stream: an error reply, connection kept; an
    // oversize frame: an error reply, and the connection is closed.
    let hello = Hello {
        protocol_version: PROTOCOL_VERSION,
        token: table_token(1),
        client: "raw".into(),
    };
    let c = proto::connect(s.addr, &Trust::Fingerprint(s.fingerprint), hello)
        .await
        .unwrap();
    let (conn, _hello, mut tx, mut rx) = c.split();
    let garbage = [0u8, 0, 0, 5, 0xff, 0xfe, 0xfd, 0xfc, 0xfb];
    tx.get_mut().write_all(&garbage).await.unwrap();
    let m = rx.recv().await.unwrap().unwrap();
    assert!(
        matches!(m, ServerMsg::Error(ref e) if e.code == ErrorCode::BadFrame),
        "{m:?}"
    );
    // Still served on the same connection.
    tx.send(&ClientMsg::Ping { nonce: 42 }).await.unwrap();
    let m = rx.recv().await.unwrap().unwrap();
    assert_eq!(m, ServerMsg::Pong { nonce: 42 });
    let big = (proto::limits::MAX_CLIENT_FRAME as u32 + 1).to_be_bytes();
    let w = tx.get_mut();
    w.write_all(&big).await.unwrap();
    let _ = w
        .write_all(&vec![0u8; proto::limits::MAX_CLIENT_FRAME + 1])
        .await;
    let m = rx.recv().await.unwrap().unwrap();
    assert!(
        matches!(m, ServerMsg::Error(ref e) if matches!(e.code, ErrorCode::TooLarge { .. })),
        "{m:?}"
    );
    let why = tokio::time::timeout(Duration::from_secs(10), conn.closed())
        .await
        .expect("the server closes the connection");
    assert!(
        matches!(why, quinn::ConnectionError::ApplicationClosed(ref c) if c.error_code == proto::conn::CLOSE_PROTOCOL.into()),
        "{why:?}"
    );
    // Others are served too.
    let mut t2 = Terminal::open(s.addr, s.fingerprint, 2).await;
    t2.play(&["h2e2"], Side::Red).await;
    s.shutdown().await.unwrap();
}

async fn graceful_restart_keeps_every_acknowledged_event_and_dedupes_resends(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    // Pipelined stream: send 40 presses without waiting, then stop mid-stream.
    let moves = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2c2", "a9b9", "b0a2", "b7b3",
    ];
    let sent = t1.send_presses(&moves).await;
    let acked = t1.acked_through(5).await;
    let before = s.snapshot().unwrap();
    s.shutdown().await.unwrap();
    let s = store.start(dir.path()).await;
    let after = s.snapshot().unwrap();
    // Everything acknowledged before the stop survived, state identical. The
    // snapshot `before` was taken while the pipelined presses were still being
    // stored, and a graceful stop drains them, so the restarted hall holds at
    // least what `before` showed, in the same order.
    assert!(after.tables[0].plies as u64 >= acked);
    let (was, now) = (&before.tables[0].moves, &after.tables[0].moves);
    assert!(
        now.len() >= was.len(),
        "the restarted hall lost moves: {now:?} after, {was:?} before"
    );
    assert_eq!(now[..was.len()], was[..]);
    // The terminal reconnects and resends from the high-water mark; resends of stored
    // ones are duplicates.
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    let hw = t1.c.hello.table.clone().unwrap().high_water;
    for env in &sent {
        t1.c.send(ClientMsg::Event(env.clone())).await;
    }
    assert_eq!(resent_acks(&mut t1, &sent, hw).await, hw);
    let snap = s.snapshot().unwrap();
    assert_eq!(snap.tables[0].plies, 10);
    s.shutdown().await.unwrap();
}

async fn sigkill_in_the_middle_of_a_stream_loses_nothing_acknowledged(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("hall.toml");
    std::fs::write(&cfg, store.config_text()).unwrap();
    let data = dir.path().join("data");
    let (mut child, addr, fp) = support::spawn_serve(&cfg, &data).await;

    let mut t1 = Terminal::open(addr, fp, 1).await;
    let moves = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2c2", "a9b9", "b0a2", "b7b3", "h0h1",
        "h7h6",
    ];
    let sent = t1.send_presses(&moves).await;
    let acked = t1.acked_through(4).await;
    child.kill().expect("SIGKILL");
    let _ = child.wait();

    let s = store.start(dir.path()).await;
    let snap = s.snapshot().unwrap();
    assert!(
        snap.tables[0].plies as u64 >= acked,
        "acked {acked}, stored {}",
        snap.tables[0].plies
    );
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    let hw = t1.c.hello.table.clone().unwrap().high_water;
    assert!(hw >= acked);
    for env in &sent {
        t1.c.send(ClientMsg::Event(env.clone())).await;
    }
    assert_eq!(
        resent_acks(&mut t1, &sent, hw).await,
        hw,
        "every stored event is acknowledged as a duplicate"
    );
    let snap = s.snapshot().unwrap();
    assert_eq!(snap.tables[0].plies, 12, "each event stored exactly once");
    s.shutdown().await.unwrap();
    // Restarting again rebuilds the identical state.
    let s2 = store.start(dir.path()).await;
    let again = s2.snapshot().unwrap();
    assert_eq!(again.tables, {
        let mut t = snap.tables.clone();
        for (a, b) in t.iter_mut().zip(&again.tables) {
            a.online = b.online;
            a.last_heard_ms = b.last_heard_ms;
        }
        t
    });
    s2.shutdown().await.unwrap();
}

/// Reads the acks of `sent` resent after a restart (acks are cumulative:
/// one may answer several events) until the last is acknowledged; returns
/// the highest seq acknowledged as a duplicate. No event above the stored
/// high-water mark `hw` is a duplicate, none at or below it is new.
async fn resent_acks(t: &mut Terminal, sent: &[EventEnvelope], hw: u64) -> u64 {
    let last = sent.last().map(|e| e.seq).unwrap_or(0);
    let (mut dup_through, mut acked) = (0u64, 0u64);
    while acked < last {
        match t.c.recv().await {
            ServerMsg::Ack(a) => {
                if a.duplicate {
                    assert!(a.seq <= hw, "seq {} acknowledged as a duplicate", a.seq);
                    dup_through = dup_through.max(a.seq);
                } else {
                    assert!(a.seq > hw, "stored seq {} acknowledged as new", a.seq);
                }
                acked = acked.max(a.seq);
            }
            ServerMsg::Error(e) => panic!("resend refused: {e:?}"),
            _ => {}
        }
    }
    dup_through
}

/// Events sent in one write reach the pipeline as bursts: every one is
/// stored once and acknowledged, with fewer acks than events (consecutive
/// acks of the table are coalesced, each carrying the high-water mark); an
/// event refused in the middle (for another table) is answered in its
/// place: after the acks of the events before it, before those after it.
async fn a_burst_is_acknowledged_in_order_with_coalesced_acks(store: TestStore) {
    let dir = tempfile::tempdir().unwrap();
    let s = store.start(dir.path()).await;
    let t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    let (n, refused_after) = (600u64, 300u64);
    let (_conn, _hello, mut tx, mut rx) = t1.c.c.split();
    for i in 1..=n {
        let env = EventEnvelope {
            table: 1,
            epoch: t1.epoch,
            seq: i,
            body: TableEvent::CallArbiter {
                by: Side::Red,
                reason: format!("burst {i}"),
            },
        };
        tx.queue(&ClientMsg::Event(env)).unwrap();
        if i == refused_after {
            let other = EventEnvelope {
                table: 2,
                epoch: 1,
                seq: 1,
                body: TableEvent::DrawOffer { by: Side::Red },
            };
            tx.queue(&ClientMsg::Event(other)).unwrap();
        }
    }
    tx.flush().await.unwrap();
    let (mut acks, mut acked, mut refused_at) = (0u64, 0u64, None);
    while acked < n {
        let m = tokio::time::timeout(Duration::from_secs(10), rx.recv())
            .await
            .expect("reply within 10 s")
            .unwrap()
            .expect("message");
        match m {
            ServerMsg::Ack(a) => {
                assert!(
                    !a.duplicate && a.table == 1 && a.seq > acked,
                    "{a:?} after {acked}"
                );
                acks += 1;
                acked = a.seq;
            }
            ServerMsg::Error(e) => {
                assert_eq!(e.code, ErrorCode::WrongTable, "{e:?}");
                assert!(refused_at.is_none(), "one refusal");
                refused_at = Some(acked);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(refused_at, Some(refused_after), "the refusal in its place");
    assert!(acks < n, "{acks} acks for {n} events: none coalesced");
    // Each event applied once, in order.
    let calls: Vec<String> = s
        .snapshot()
        .unwrap()
        .alerts
        .iter()
        .filter(|a| a.table == 1 && a.kind == AlertKind::ArbiterCalled)
        .map(|a| i18n::texts::english(&a.text))
        .collect();
    let expected: Vec<String> = (1..=n)
        .map(|i| format!("table 1: Red calls the arbiter: burst {i}"))
        .collect();
    assert_eq!(calls, expected);
    s.shutdown().await.unwrap();
}

/// Consoles subscribing while four tables press and call the arbiter
/// (issue 40: deltas per fan-out tick): each one's snapshot followed by
/// the `Deltas` frames it is sent, applied by the console's own code,
/// ends as the server's hall — nothing missed, nothing twice (the pending
/// tick goes to the consoles already subscribed before a snapshot is
/// taken).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consoles_subscribed_mid_load_end_with_the_servers_hall() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    const EVENTS: u64 = 200;
    let acked = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let load: Vec<_> = (1..=4u16)
        .map(|table| {
            let (addr, fp) = (s.addr, s.fingerprint);
            let acked = acked.clone();
            tokio::spawn(async move {
                let mut t = Terminal::open(addr, fp, table).await;
                let mut side = Side::Red;
                for i in 0..EVENTS {
                    let body = match i % 7 {
                        3 => TableEvent::CallArbiter {
                            by: side,
                            reason: format!("mid-load {i}"),
                        },
                        _ => {
                            let ms = 5_000_000 - i * 1_000;
                            TableEvent::ClockPress {
                                by: side,
                                mv: None,
                                red_ms: ms,
                                black_ms: ms,
                                terminal_mono_ms: i,
                            }
                        }
                    };
                    t.event(body).await;
                    acked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    side = side.other();
                }
            })
        })
        .collect();
    // Consoles at different points of the load (none, a fifth, ... of the
    // events acknowledged), each read as the console app reads its link
    // (whole `Deltas` frames).
    let mut consoles = Vec::new();
    for k in 0..4 {
        while acked.load(std::sync::atomic::Ordering::Relaxed) < k * 4 * EVENTS / 5 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let mut c = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
        c.send(ClientMsg::Command {
            id: 1,
            command: Command::Subscribe,
        })
        .await;
        let mut app = ::console::App::new(::console::Lang::En);
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        consoles.push((
            tokio::spawn(async move {
                let mut rx = rx;
                let mut frames = 0u64;
                loop {
                    tokio::select! {
                        m = c.c.recv() => match m {
                            Ok(m) => {
                                frames += u64::from(matches!(m, ServerMsg::Deltas(_)));
                                app.on_server(m);
                            }
                            Err(e) => panic!("console lost: {e}"),
                        },
                        _ = &mut rx => break,
                    }
                }
                (app, frames)
            }),
            tx,
        ));
    }
    for l in load {
        l.await.unwrap();
    }
    // Every event acknowledged is published; a tick later it is sent.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let hall = s.snapshot().unwrap();
    let alerts = |v: &proto::HallView| -> Vec<(u64, String)> {
        v.alerts
            .iter()
            .map(|a| (a.id, i18n::texts::english(&a.text)))
            .collect()
    };
    let audit = |v: &proto::HallView| -> Vec<u64> { v.audit.iter().map(|a| a.id).collect() };
    assert!(
        alerts(&hall).len() >= 4 * (EVENTS as usize / 7),
        "{}",
        hall.alerts.len()
    );
    for (i, (task, stop)) in consoles.into_iter().enumerate() {
        stop.send(()).unwrap();
        let (app, frames) = task.await.unwrap();
        let view = app.links[0].hall.clone().expect("a snapshot");
        assert!(frames > 0, "console {i}: no Deltas frame");
        assert_eq!(view.tables, hall.tables, "console {i}'s tables");
        assert_eq!(alerts(&view), alerts(&hall), "console {i}'s alerts");
        assert_eq!(view.claims, hall.claims, "console {i}'s claims");
        // The console's audit rows: the server's last ones, none twice.
        let (mine, server) = (audit(&view), audit(&hall));
        assert!(
            mine.windows(2).all(|w| w[0] < w[1]),
            "console {i}: {mine:?}"
        );
        let n = mine.len().min(server.len());
        assert_eq!(
            mine[mine.len() - n..],
            server[server.len() - n..],
            "console {i}"
        );
    }
    s.shutdown().await.unwrap();
}

/// Consoles fed table steps (protocol 12, issue 40): four tables play the
/// opening of real games, move by move; the chief's console (the console
/// app's own code), a tracked chief, a viewer and a chief that subscribes
/// halfway all end with the server's hall (the viewer: its public cut),
/// most presses reaching them as steps, a late subscriber's first view of
/// each table whole. Prints the bytes per press per console, steps against
/// whole views.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consoles_fed_steps_end_with_the_servers_hall() {
    const PLIES: usize = 40;
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/games/hu-ronghua-1391.pgn");
    let text = std::fs::read_to_string(path).expect("the game data set");
    let mut games = table::replay::games_from_pgn(&text).expect("PGN");
    let start = xiangqi::Position::new().to_fen();
    games.retain(|g| g.moves.len() >= PLIES && g.start.to_fen() == start);
    assert!(games.len() >= 4, "four games of {PLIES} plies");
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    chief.subscribe().await;
    let mut viewer = connect(s.addr, s.fingerprint, VIEWER).await.unwrap();
    viewer.subscribe().await;
    // The console app, fed the frames as its link reads them.
    let mut raw = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
    raw.send(ClientMsg::Command {
        id: 1,
        command: Command::Subscribe,
    })
    .await;
    let mut app = ::console::App::new(::console::Lang::En);
    let mut terminals = Vec::new();
    for table in 1..=4u16 {
        terminals.push(Terminal::open(s.addr, s.fingerprint, table).await);
    }
    let mut late: Option<Client> = None;
    let mut side = Side::Red;
    for ply in 0..PLIES {
        if ply == PLIES / 2 {
            let mut c = connect(s.addr, s.fingerprint, CHIEF).await.unwrap();
            c.subscribe().await;
            late = Some(c);
        }
        for (t, g) in terminals.iter_mut().zip(&games) {
            let m = xiangqi::to_iccs(g.moves[ply]);
            let ms = 4_000_000 - 1_000 * ply as u64;
            t.event(press(side, &m, ms, ms)).await;
        }
        side = side.other();
        // Read as the presses come, so that no console lags.
        for c in [&mut chief, &mut viewer].into_iter().chain(late.as_mut()) {
            drain_tracked(c, Duration::from_millis(30)).await;
        }
        while let Ok(Ok(m)) = tokio::time::timeout(Duration::from_millis(1), raw.c.recv()).await {
            assert!(
                app.on_server(m).is_empty(),
                "the console asked for a fresh picture"
            );
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut late = late.expect("the late console");
    for c in [&mut chief, &mut viewer, &mut late] {
        drain_tracked(c, Duration::from_millis(300)).await;
    }
    while let Ok(Ok(m)) = tokio::time::timeout(Duration::from_millis(300), raw.c.recv()).await {
        assert!(
            app.on_server(m).is_empty(),
            "the console asked for a fresh picture"
        );
    }
    let hall = s.snapshot().unwrap();
    assert!(hall.tables.iter().all(|t| t.moves.len() == PLIES));
    assert_eq!(chief.tables(), hall.tables, "the chief's tables");
    assert_eq!(late.tables(), hall.tables, "the late chief's tables");
    let cut = server::viewer::snapshot(hall.clone());
    assert_eq!(viewer.tables(), cut.tables, "the viewer's tables");
    let link = &app.links[0];
    assert_eq!(link.hall.as_ref().expect("a snapshot").tables, hall.tables);
    assert!(link.stale.is_empty() && link.resync == ::console::app::Resync::Whole);
    let presses = (4 * PLIES) as u64;
    for (who, c) in [("chief", &chief), ("viewer", &viewer), ("late", &late)] {
        eprintln!(
            "{who}: {} steps, {} whole views; table bytes per press {} (as whole views {}); delta bytes per press {}",
            c.steps,
            c.wholes,
            c.table_bytes / presses,
            c.table_bytes_whole / presses,
            c.delta_bytes / presses
        );
    }
    // Every press but each table's first (and a few presence changes)
    // as a step.
    assert!(chief.steps >= presses - 4, "{} steps", chief.steps);
    assert!(chief.wholes <= 8, "{} whole views", chief.wholes);
    assert!(viewer.steps >= presses - 4, "{} steps", viewer.steps);
    // The late console: each table's first view whole, then steps.
    assert!(late.wholes >= 4 && late.steps >= presses / 2 - 8);
    assert!(chief.table_bytes * 2 < chief.table_bytes_whole);
    s.shutdown().await.unwrap();
}

/// Reads `c` (tracking its tables) until `quiet` passes without a message.
async fn drain_tracked(c: &mut Client, quiet: Duration) {
    while let Ok(Ok(m)) = tokio::time::timeout(quiet, c.c.recv()).await {
        let _ = c.take(m);
    }
}

/// A console that stops reading while many tables press (issue 40): its
/// queue overflows and it is marked lagged; when it reads again it is
/// caught up by the tables that changed — never sent a whole snapshot —
/// and ends with exactly the server's hall (a viewer: the public cut of
/// it, and nothing but the public cut on the way).
async fn a_console_that_stops_reading_is_caught_up(token: &'static str, public: bool) {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    use std::sync::Arc;
    const TABLES: u16 = 100;
    let names: Vec<(String, String)> = (1..=TABLES)
        .map(|t| {
            (
                format!("红方{t}号{}", "棋".repeat(40)),
                format!("黑方{t}号{}", "弈".repeat(40)),
            )
        })
        .collect();
    let players: Vec<(&str, &str)> = names
        .iter()
        .map(|(r, b)| (r.as_str(), b.as_str()))
        .collect();
    let mut config = Hall::new("追帧赛", "127.0.0.1:0").with_tables(&players);
    config.viewer = Some(VIEWER.into());
    let dir = tempfile::tempdir().unwrap();
    let s = config.start(dir.path()).await;

    let mut c = connect(s.addr, s.fingerprint, token).await.unwrap();
    c.send(ClientMsg::Command {
        id: 1,
        command: Command::Subscribe,
    })
    .await;
    // The subscription's snapshot first.
    let mut app = ::console::App::new(::console::Lang::En);
    loop {
        let m = c.c.recv().await.expect("the subscription's answer");
        let done = matches!(m, ServerMsg::Snapshot(_));
        app.on_server(m);
        if done {
            break;
        }
    }
    let reading = Arc::new(AtomicBool::new(true));
    let (stop_tx, mut stop_rx) = tokio::sync::oneshot::channel::<()>();
    let console = tokio::spawn({
        let reading = reading.clone();
        async move {
            let (mut snapshots, mut deltas) = (1u64, Vec::new());
            loop {
                if !reading.load(Relaxed) {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    continue;
                }
                tokio::select! {
                    m = c.c.recv() => match m {
                        Ok(m) => {
                            match &m {
                                ServerMsg::Snapshot(_) => snapshots += 1,
                                ServerMsg::SnapshotPage(p) if p.page + 1 == p.pages => snapshots += 1,
                                ServerMsg::Deltas(ds) if public => deltas.extend(ds.iter().cloned()),
                                _ => {}
                            }
                            app.on_server(m);
                        }
                        Err(e) => panic!("console lost: {e}"),
                    },
                    _ = &mut stop_rx => break,
                }
            }
            (app, snapshots, deltas)
        }
    });
    let load_on = Arc::new(AtomicBool::new(true));
    let load: Vec<_> = (1..=TABLES)
        .map(|table| {
            let (addr, fp) = (s.addr, s.fingerprint);
            let on = load_on.clone();
            tokio::spawn(async move {
                let mut t = Terminal::open(addr, fp, table).await;
                let mut side = Side::Red;
                let mut i = 0u64;
                while on.load(Relaxed) {
                    // Bursts of 10 events, acked together.
                    for _ in 0..10 {
                        i += 1;
                        let body = match i % 50 {
                            25 if table % 10 == 1 => TableEvent::CallArbiter {
                                by: side,
                                reason: format!("lagging {i}"),
                            },
                            _ => {
                                let ms = 5_000_000 - i;
                                TableEvent::ClockPress {
                                    by: side,
                                    mv: None,
                                    red_ms: ms,
                                    black_ms: ms,
                                    terminal_mono_ms: i,
                                }
                            }
                        };
                        let env = t.env(body);
                        t.c.send(ClientMsg::Event(env)).await;
                        side = side.other();
                    }
                    let seq = t.seq;
                    t.acked_through(seq).await;
                }
            })
        })
        .collect();
    // The console stops reading until its queue overflows (a frame
    // dropped: it is lagged), well within the writer's stall limit (the
    // queue fills a second or so after QUIC's window; the tables' changes
    // are steps of about 45 bytes since protocol 12, so filling that
    // window takes several seconds more than it did with whole views).
    reading.store(false, Relaxed);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while s.console_frames_dropped() == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the console's queue never overflowed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    reading.store(true, Relaxed);
    // It reads again while the load goes on, then the load stops.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    load_on.store(false, Relaxed);
    for l in load {
        l.await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let hall = s.snapshot().unwrap();
    stop_tx.send(()).unwrap();
    let (app, snapshots, deltas) = console.await.unwrap();
    let (catch_ups, whole) = s.lagging_consoles();
    assert!(catch_ups >= 1, "no catch-up");
    assert_eq!(whole, 0, "a whole snapshot was sent to the lagging console");
    assert_eq!(snapshots, 1, "only the subscription's snapshot");
    let view = app.links[0].hall.clone().expect("a snapshot");
    let alerts = |v: &proto::HallView| -> Vec<(u64, String)> {
        v.alerts
            .iter()
            .map(|a| (a.id, i18n::texts::english(&a.text)))
            .collect()
    };
    if public {
        let cut = server::viewer::snapshot(hall.clone());
        assert_eq!(view.tables, cut.tables, "the viewer's tables");
        assert!(view.alerts.is_empty() && view.claims.is_empty() && view.audit.is_empty());
        // Nothing but the public cut on the way, the catch-up's included.
        assert!(!deltas.is_empty());
        for d in &deltas {
            match d {
                proto::Delta::Table(t) => {
                    assert_eq!(
                        **t,
                        server::viewer::table(proto::TableView::clone(t)),
                        "table {}",
                        t.table
                    )
                }
                proto::Delta::TableStep(t) => {
                    assert_eq!(*t, server::viewer::step(t.clone()), "table {}", t.table)
                }
                proto::Delta::HallPaused(_) => {}
                other => panic!("a viewer was sent {other:?}"),
            }
        }
    } else {
        assert!(!hall.alerts.is_empty());
        assert_eq!(view.tables, hall.tables, "the console's tables");
        assert_eq!(alerts(&view), alerts(&hall), "the console's alerts");
        assert_eq!(view.claims, hall.claims, "the console's claims");
        let ids = |v: &proto::HallView| -> Vec<u64> { v.audit.iter().map(|a| a.id).collect() };
        let (mine, server) = (ids(&view), ids(&hall));
        assert!(mine.windows(2).all(|w| w[0] < w[1]), "{mine:?}");
        let n = mine.len().min(server.len());
        assert_eq!(mine[mine.len() - n..], server[server.len() - n..]);
    }
    s.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chief_console_that_stops_reading_is_caught_up_by_changed_tables() {
    a_console_that_stops_reading_is_caught_up(CHIEF, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_that_stops_reading_is_caught_up_with_the_public_cut_only() {
    a_console_that_stops_reading_is_caught_up(VIEWER, true).await;
}

/// A table's connection costs the server one task and no other: the
/// reader and the writer run in it together (issue 40: they were two
/// tasks, and quinn's I/O added a connection driver task; the server's
/// QUIC shell, `proto::shell`, drives every connection from its one
/// thread). The
/// terminals run on a runtime of their own, so that only the server's
/// tasks are counted here; they send an event each, so both halves have
/// worked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_connection_is_one_task() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let metrics = tokio::runtime::Handle::current().metrics();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = metrics.num_alive_tasks();
    let (addr, fp) = (s.addr, s.fingerprint);
    let (connected_tx, connected_rx) = tokio::sync::oneshot::channel();
    let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
    let terminals = std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().expect("client runtime");
        rt.block_on(async move {
            let mut held = Vec::new();
            for table in 1..=4u16 {
                let mut t = Terminal::open(addr, fp, table).await;
                t.event(TableEvent::CallArbiter {
                    by: Side::Red,
                    reason: format!("task count {table}"),
                })
                .await;
                held.push(t);
            }
            connected_tx.send(()).expect("test waits");
            let _ = done_rx.await;
        });
    });
    connected_rx.await.expect("terminals connected");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let during = metrics.num_alive_tasks();
    done_tx.send(()).expect("terminals wait");
    terminals.join().expect("terminals' thread");
    assert_eq!(
        during - before,
        4,
        "tasks: {before} before 4 table connections, {during} with them"
    );
}
