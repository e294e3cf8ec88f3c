//! Engine tests: presses and the clock, move entry in every notation,
//! controls, flags, results, resend points and rebuilding from the outbox.

use super::*;
use crate::outbox::Outbox;
use proto::{ControlToTable, IccsMove, TableStatus};

fn info() -> TableInfo {
    TableInfo {
        table: 3,
        red: "胡荣华".into(),
        black: "许银川".into(),
        control: TimeControl::axf_fischer(),
        round: 1,
    }
}

fn engine() -> Engine {
    Engine::new(info(), Outbox::memory(3, 1))
}

#[test]
fn a_game_start_with_presses_and_increments() {
    let mut e = engine();
    assert!(matches!(
        e.act(Action::Play("h2e2".into()), 0),
        Err(EngineError::NotStarted)
    ));
    let ev = e.act(Action::StartClock, 1_000).unwrap();
    assert!(matches!(
        ev[0].body,
        TableEvent::ClockStarted {
            red_ms: 4_800_000,
            ..
        }
    ));
    // Enter then press.
    e.act(Action::EnterMove("炮二平五".into()), 11_000).unwrap();
    let ev = e.act(Action::Press, 11_000).unwrap();
    match &ev[0].body {
        TableEvent::ClockPress {
            by,
            mv,
            red_ms,
            black_ms,
            terminal_mono_ms,
        } => {
            assert_eq!(*by, Side::Red);
            assert_eq!(*mv, IccsMove::parse("h2e2"));
            assert_eq!(*red_ms, 4_800_000 - 10_000 + 30_000);
            assert_eq!(*black_ms, 4_800_000);
            assert_eq!(*terminal_mono_ms, 11_000);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        e.act(Action::Press, 12_000),
        Err(EngineError::NoMoveEntered)
    ));
    assert!(matches!(
        e.act(Action::EnterMove("h2e2".into()), 12_000),
        Err(EngineError::BadMove(_))
    ));
    e.act(Action::Play("H8+7".into()), 21_000).unwrap();
    let s = e.screen(31_000);
    assert_eq!(s.plies, 2);
    assert_eq!(s.black_ms, 4_800_000 - 10_000 + 30_000);
    assert_eq!(s.red_ms, 4_800_000 - 10_000 + 30_000 - 10_000);
    assert_eq!(s.running, Some(Side::Red));
    assert_eq!(s.last_move_text.as_deref(), Some("马8进7"));
    assert_eq!(e.outbox().last_seq(), 3);
    assert_eq!(
        e.outbox()
            .from_seq(1)
            .iter()
            .map(|e| e.seq)
            .collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
}

#[test]
fn a_terminal_in_the_vietnamese_mode_accepts_p2_5_and_shows_vietnamese() {
    let mut e = engine();
    e.set_notation(crate::game::Notation::Vietnamese);
    e.act(Action::StartClock, 1_000).unwrap();
    e.act(Action::EnterMove("P2-5".into()), 2_000).unwrap();
    let ev = e.act(Action::Press, 3_000).unwrap();
    assert!(matches!(
        &ev[0].body,
        TableEvent::ClockPress { mv, .. } if *mv == IccsMove::parse("h2e2")
    ));
    assert_eq!(e.screen(3_000).last_move_text.as_deref(), Some("P2-5"));
    e.act(Action::Play("M8.7".into()), 4_000).unwrap();
    assert_eq!(e.screen(4_000).last_move_text.as_deref(), Some("M8.7"));
    e.act(Action::Play("X1.1".into()), 5_000).unwrap();
    e.act(Action::Play("X9.1".into()), 6_000).unwrap();
    e.act(Action::Play("X1-4".into()), 7_000).unwrap();
    assert_eq!(e.screen(7_000).last_move_text.as_deref(), Some("X1-4"));
    e.act(Action::Play("X9/1".into()), 8_000).unwrap();
    assert_eq!(e.screen(8_000).last_move_text.as_deref(), Some("X9/1"));
    // WXF is not read in this mode: `C2.5`-style text is refused.
    assert!(matches!(
        e.act(Action::EnterMove("H2+3".into()), 9_000),
        Err(EngineError::BadMove(_))
    ));
}

#[test]
fn pause_resume_adjust_seal_unseal_and_result_are_acknowledged() {
    let mut e = engine();
    e.act(Action::StartClock, 0).unwrap();
    e.act(Action::Play("h2e2".into()), 5_000).unwrap();
    let ev = e
        .control(
            7,
            &ControlToTable::Pause {
                by: "chief 王志明".into(),
                reason: "noise".into(),
            },
            8_000,
        )
        .unwrap();
    assert!(matches!(
        ev[0].body,
        TableEvent::ControlApplied {
            control_id: 7,
            running: None,
            black_ms: 4_797_000,
            ..
        }
    ));
    assert!(matches!(e.status(), Status::Paused { by, .. } if by == "chief 王志明"));
    assert!(matches!(
        e.act(Action::Play("h9g7".into()), 9_000),
        Err(EngineError::Paused { .. })
    ));
    // Time does not run while paused.
    assert_eq!(e.screen(100_000).black_ms, 4_797_000);
    // A resent control is acknowledged again but not applied twice.
    let ev = e
        .control(
            7,
            &ControlToTable::Pause {
                by: "x".into(),
                reason: "y".into(),
            },
            9_000,
        )
        .unwrap();
    assert!(matches!(
        ev[0].body,
        TableEvent::ControlApplied { control_id: 7, .. }
    ));
    let ev = e
        .control(8, &ControlToTable::Resume { by: "chief".into() }, 100_000)
        .unwrap();
    assert!(matches!(
        ev[0].body,
        TableEvent::ControlApplied {
            running: Some(Side::Black),
            ..
        }
    ));
    e.control(
        9,
        &ControlToTable::Adjust {
            by: "chief".into(),
            red_ms: 60_000,
            black_ms: 70_000,
            reason: "fix".into(),
        },
        101_000,
    )
    .unwrap();
    assert_eq!(e.screen(102_000).black_ms, 69_000);
    e.control(
        10,
        &ControlToTable::Seal {
            by: "deputy".into(),
        },
        102_000,
    )
    .unwrap();
    assert!(matches!(e.status(), Status::Sealed { .. }));
    let ev = e
        .control(
            11,
            &ControlToTable::Unseal {
                by: "deputy".into(),
                sealed_move: IccsMove::parse("h9g7").unwrap(),
                red_ms: 60_000,
                black_ms: 65_000,
            },
            500_000,
        )
        .unwrap();
    assert!(matches!(
        ev[0].body,
        TableEvent::ControlApplied {
            red_ms: 60_000,
            black_ms: 65_000,
            running: Some(Side::Red),
            ..
        }
    ));
    assert_eq!(e.board().moves().len(), 2);
    e.control(
        12,
        &ControlToTable::SetResult {
            by: "chief".into(),
            result: GameResult::Draw,
            why: proto::EndReason::Agreement,
            reason: "agreed".into(),
        },
        501_000,
    )
    .unwrap();
    assert!(e.is_over());
    assert!(matches!(
        e.act(Action::Play("h0g2".into()), 502_000),
        Err(EngineError::GameOver(_))
    ));
    let _ = TableStatus::Waiting;
}

#[test]
fn a_flag_falls_once_and_stops_the_game() {
    let mut e = Engine::new(
        TableInfo {
            control: TimeControl::Fischer {
                base_ms: 10_000,
                increment_ms: 0,
            },
            ..info()
        },
        Outbox::memory(3, 1),
    );
    e.act(Action::StartClock, 0).unwrap();
    assert!(e.tick(9_999).unwrap().is_none());
    let ev = e.tick(12_000).unwrap().unwrap();
    assert!(matches!(
        ev.body,
        TableEvent::FlagFell {
            side: Side::Red,
            red_ms: 0,
            terminal_mono_ms: 12_000,
            ..
        }
    ));
    assert!(e.tick(13_000).unwrap().is_none());
    assert!(matches!(
        e.act(Action::Play("h2e2".into()), 14_000),
        Err(EngineError::FlagFell(_))
    ));
}

#[test]
fn mate_ends_the_game_with_a_result() {
    let mut e = engine();
    e.act(Action::StartClock, 0).unwrap();
    // A quick mate: the smothered-style "horse and cannon" trap from the start.
    let line = ["h2e2", "h7e7", "e2e6", "e7e3", "e6e9"];
    let mut t = 0;
    let mut last = Vec::new();
    for m in line {
        t += 1_000;
        match e.act(Action::Play(m.into()), t) {
            Ok(ev) => last = ev,
            Err(err) => {
                // The line is only a probe: stop at the first refusal.
                assert!(matches!(err, EngineError::BadMove(_)), "{err}");
                break;
            }
        }
    }
    if e.is_over() {
        assert!(last
            .iter()
            .any(|ev| matches!(ev.body, TableEvent::Result { .. })));
    }
}

#[test]
fn draw_offers_claims_and_resignation() {
    let mut e = engine();
    e.act(Action::StartClock, 0).unwrap();
    assert!(matches!(
        e.act(Action::AcceptDraw { by: Side::Black }, 1),
        Err(EngineError::NoOffer(_))
    ));
    e.act(Action::OfferDraw { by: Side::Red }, 2).unwrap();
    e.act(Action::DeclineDraw { by: Side::Black }, 3).unwrap();
    e.act(Action::ClaimNaturalLimit { by: Side::Red }, 4)
        .unwrap();
    e.act(Action::ClaimRepetition { by: Side::Red }, 5).unwrap();
    e.act(
        Action::CallArbiter {
            by: Side::Black,
            reason: "noise".into(),
        },
        6,
    )
    .unwrap();
    e.act(
        Action::Resign {
            by: Side::Red,
            reason: "record ends".into(),
        },
        7,
    )
    .unwrap();
    assert!(matches!(
        e.status(),
        Status::Finished {
            result: GameResult::BlackWins,
            ..
        }
    ));
    let kinds: Vec<_> = e
        .outbox()
        .from_seq(1)
        .iter()
        .map(|e| std::mem::discriminant(&e.body))
        .collect();
    assert_eq!(kinds.len(), 7);
}

#[test]
fn sensor_move_and_take_back() {
    let mut e = engine();
    e.act(Action::StartClock, 0).unwrap();
    let ev = e
        .act(
            Action::SensorMove {
                mv: IccsMove::parse("a0a5").unwrap(),
            },
            1_000,
        )
        .unwrap();
    assert!(matches!(ev[0].body, TableEvent::Move { by: Side::Red, .. }));
    assert_eq!(e.board().moves().len(), 0);
    e.control(
        1,
        &ControlToTable::TakeBack {
            by: "chief".into(),
            reason: "illegal".into(),
        },
        2_000,
    )
    .unwrap();
    e.act(Action::Play("h2e2".into()), 3_000).unwrap();
    e.control(
        2,
        &ControlToTable::TakeBack {
            by: "chief".into(),
            reason: "again".into(),
        },
        4_000,
    )
    .unwrap();
    assert_eq!(e.board().moves().len(), 0);
    assert_eq!(e.screen(4_000).running, Some(Side::Red));
}

#[test]
fn resend_point_from_the_server_session() {
    let mut e = engine();
    e.act(Action::StartClock, 0).unwrap();
    e.act(Action::Play("h2e2".into()), 1_000).unwrap();
    e.act(Action::Play("h9g7".into()), 2_000).unwrap();
    let mut session = TableSession {
        table: 3,
        red: String::new(),
        black: String::new(),
        epoch: 1,
        high_water: 2,
        clock: proto::ClockState {
            red_ms: 0,
            black_ms: 0,
            running: None,
        },
        status: TableStatus::Playing,
        moves: Vec::new(),
        move_limit: None,
    };
    assert_eq!(e.on_session(&session).unwrap(), 3);
    assert_eq!(e.outbox().acked(), 2);
    session.epoch = 0;
    session.high_water = 0;
    assert_eq!(e.on_session(&session).unwrap(), 1);
    session.epoch = 2;
    assert!(matches!(
        e.on_session(&session),
        Err(EngineError::Superseded { .. })
    ));
}

#[test]
fn a_restarted_terminal_rebuilds_from_its_outbox() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (ob, _) = Outbox::open(dir.path(), 3, 77).unwrap();
        let mut e = Engine::new(info(), ob);
        e.act(Action::StartClock, 0).unwrap();
        e.act(Action::Play("h2e2".into()), 10_000).unwrap();
        e.act(Action::Play("h9g7".into()), 20_000).unwrap();
        e.control(
            4,
            &ControlToTable::Adjust {
                by: "c".into(),
                red_ms: 100_000,
                black_ms: 200_000,
                reason: "r".into(),
            },
            25_000,
        )
        .unwrap();
    }
    let (ob, _) = Outbox::open(dir.path(), 3, 99).unwrap();
    let e = Engine::new(info(), ob);
    assert_eq!(e.board().moves().len(), 2);
    assert_eq!(e.outbox().epoch(), 77);
    assert_eq!(e.last_mono(), 25_000);
    assert!(matches!(e.status(), Status::Paused { by, .. } if by == "terminal"));
    let s = e.screen(99_000);
    assert_eq!((s.red_ms, s.black_ms), (100_000, 200_000));
}

#[test]
fn a_result_may_be_reported_after_the_flag() {
    let mut e = Engine::new(
        TableInfo {
            control: TimeControl::Fischer {
                base_ms: 10_000,
                increment_ms: 0,
            },
            ..info()
        },
        Outbox::memory(3, 1),
    );
    e.act(Action::StartClock, 0).unwrap();
    e.act(Action::Play("h2e2".into()), 1_000).unwrap();
    e.tick(20_000).unwrap().unwrap();
    let s = e.screen(21_000);
    assert_eq!(s.status, Status::Flagged { side: Side::Black });
    e.act(
        Action::ReportResult {
            result: GameResult::RedWins,
            why: proto::EndReason::Flag,
            reason: "flag".into(),
        },
        22_000,
    )
    .unwrap();
    assert!(matches!(e.status(), Status::Finished { .. }));
}

/// The hello of round 2 at table 3: 吕钦 v 赵国荣, the table's numbering
/// as the server holds it after round 1 (epoch 5, 3 events).
fn round2_session() -> TableSession {
    TableSession {
        table: 3,
        red: "吕钦".into(),
        black: "赵国荣".into(),
        epoch: 5,
        high_water: 3,
        clock: proto::ClockState {
            red_ms: 4_800_000,
            black_ms: 4_800_000,
            running: None,
        },
        status: TableStatus::Waiting,
        moves: Vec::new(),
        move_limit: None,
    }
}

#[test]
fn the_next_round_is_a_fresh_game_for_the_new_pairing_with_its_own_outbox() {
    let dir = tempfile::tempdir().unwrap();
    let (ob, _) = Outbox::open_round(dir.path(), 3, 1, 5).unwrap();
    let mut e = Engine::new(info(), ob);
    e.set_notation(crate::game::Notation::Vietnamese);
    e.act(Action::StartClock, 0).unwrap();
    e.act(Action::Play("h2e2".into()), 10_000).unwrap();
    e.on_ack(5, 2).unwrap();
    e.act(
        Action::Resign {
            by: Side::Black,
            reason: "认输".into(),
        },
        20_000,
    )
    .unwrap();
    assert!(e.is_over());
    let old_path = e.outbox().path().unwrap().to_path_buf();
    assert!(old_path.starts_with(dir.path().join("round-1")));
    let old_bytes = std::fs::read(&old_path).unwrap();

    let mut next = e
        .next_round(2, &round2_session(), TimeControl::axf_fischer(), 25_000)
        .unwrap();
    // The new pairing, waiting for the start, from the initial position
    // with a full clock.
    assert_eq!(next.round(), 2);
    let s = next.screen(30_000);
    assert_eq!((s.round, s.table), (2, 3));
    assert_eq!((s.red.as_str(), s.black.as_str()), ("吕钦", "赵国荣"));
    assert_eq!(s.status, Status::Waiting);
    assert_eq!(s.plies, 0);
    assert_eq!(s.position, xiangqi::Position::new());
    assert_eq!((s.red_ms, s.black_ms), (4_800_000, 4_800_000));
    assert_eq!(s.running, None);
    // The one event of round 1 never acknowledged is named, not carried over.
    assert!(
        s.message.contains("round 2: table 3") && s.message.contains("1 events of round 1"),
        "{}",
        s.message
    );
    assert_eq!(next.outbox().waiting(), 0);
    // Its own outbox: round 2's folder, a new epoch after the server's.
    assert_eq!(next.outbox().epoch(), 6);
    assert!(next
        .outbox()
        .path()
        .unwrap()
        .starts_with(dir.path().join("round-2")));
    assert!(next.last_mono() >= 25_000);
    // The notation setting carries over (a Vietnamese move is read).
    next.act(Action::StartClock, 30_000).unwrap();
    let ev = next.act(Action::Play("P2-5".into()), 40_000).unwrap();
    assert_eq!((ev[0].epoch, ev[0].seq), (6, 2));
    assert_eq!(next.screen(41_000).plies, 1);
    // Its own clock: Red used 10 s and got the increment; Black's runs.
    let s = next.screen(41_000);
    assert_eq!((s.red_ms, s.black_ms), (4_820_000, 4_799_000));
    assert_eq!(s.running, Some(Side::Black));
    // The old round's outbox is untouched on disk.
    assert_eq!(std::fs::read(&old_path).unwrap(), old_bytes);
    drop(next);
    // A restart in round 2 finds round 2's outbox and rebuilds its game.
    let (ob, _) = Outbox::open_round(dir.path(), 3, 2, 99).unwrap();
    assert_eq!(ob.epoch(), 6);
    let again = Engine::new(TableInfo { round: 2, ..info() }, ob);
    assert_eq!(again.board().moves().len(), 1);
}

#[test]
fn an_engine_in_memory_moves_to_the_next_round_in_memory() {
    let e = engine();
    let next = e
        .next_round(4, &round2_session(), TimeControl::axf_fischer(), 0)
        .unwrap();
    assert_eq!(next.outbox().path(), None);
    assert_eq!(next.outbox().epoch(), 6);
    assert_eq!(next.round(), 4);
}
