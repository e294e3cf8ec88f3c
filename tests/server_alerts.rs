//! End-to-end tests of the hall server's own alerts (issue 4 follow-ups):
//! a real server on 127.0.0.1 with a temporary data dir, real QUIC clients
//! as table terminals and the chief's console. Short limits come from the
//! config (`[alerts]`, `[arbitration] *_seconds`, the round's start time).
//!
//! Covered: clock anomaly (time grows without an increment), table offline
//! after the grace period and back online (and no alert for a reconnect
//! within the grace), no-show counted from the round's configured start
//! (AXF-FORFEIT-1), late resumption of an adjourned game counted from the
//! unseal (AXF-REF-L), the ticker's own flag fall, the foul threshold
//! (second technical foul, AXF-PLAY-5), controls given while a terminal was
//! away delivered on reconnect in order until acknowledged, and the restart
//! from snapshots equal to a full replay.

use std::path::Path;
use std::time::{Duration, Instant};

use config::HallConfig;
use proto::{
    Alert, AlertKind, ClaimKind, ClientMsg, Command, ControlToTable, FoulKind, ServerMsg, Side,
    TableEvent, Verdict,
};
use server::{RunningServer, Server};

mod support;
use support::*;

/// The test hall (4 tables, Fischer 80 min + 30 s) with `extra` TOML
/// appended and `round_extra` lines added to the round.
fn config_with(dir: &Path, tournament_extra: &str, round_extra: &str, extra: &str) -> HallConfig {
    let text = config_text("127.0.0.1:0")
        .replace(
            "[tournament]\n",
            &format!("[tournament]\n{tournament_extra}\n"),
        )
        .replace(
            "[[round]]\nnumber = 1\n",
            &format!("[[round]]\nnumber = 1\n{round_extra}\n"),
        );
    config_from(&format!("{text}\n{extra}\n"), dir)
}

/// The next alert of `kind` at `table` seen by a console.
async fn alert(console: &mut Client, table: u16, kind: AlertKind) -> Alert {
    console
        .alert_where(|a| a.table == table && a.kind == kind)
        .await
}

fn alerts_of(s: &RunningServer, table: u16, kind: AlertKind) -> Vec<Alert> {
    s.snapshot()
        .unwrap()
        .alerts
        .into_iter()
        .filter(|a| a.table == table && a.kind == kind)
        .collect()
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// UTC date and time (minute) of Unix ms.
fn utc_date_time(ms: u64) -> (String, String) {
    let secs = (ms / 1000) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil from days (Howard Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        format!("{y:04}-{m:02}-{d:02}"),
        format!("{:02}:{:02}", rem / 3600, rem % 3600 / 60),
    )
}

#[tokio::test]
async fn clock_report_growing_without_increment_raises_a_clock_anomaly() {
    let dir = tempfile::tempdir().unwrap();
    let s = start_with(dir.path(), config_with(dir.path(), "", "", "")).await;
    let mut c = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 1).await;
    // A normal press: Red's time may grow by the 30 s increment.
    t.event(press(Side::Red, "h2e2", 4_800_000 + 25_000, 4_800_000))
        .await;
    t.event(press(Side::Black, "h9g7", 4_825_000, 4_790_000))
        .await;
    assert!(alerts_of(&s, 1, AlertKind::ClockAnomaly).is_empty());
    // Red's time grows by a minute more than the increment.
    t.event(press(Side::Red, "b0c2", 4_825_000 + 90_000, 4_790_000))
        .await;
    let a = alert(&mut c, 1, AlertKind::ClockAnomaly).await;
    assert!(i18n::texts::english(&a.text).contains("Red"), "{a:?}");
    assert!(!a.rule_ids.is_empty(), "{a:?}");
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn table_offline_after_the_grace_period_and_back_online() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config_with(dir.path(), "", "", "[alerts]\noffline_grace_seconds = 1\n");
    let s = start_with(dir.path(), cfg).await;
    let mut c = chief(&s).await;

    // A reconnect within the grace period raises nothing.
    let mut t = Terminal::open(s.addr, s.fingerprint, 3).await;
    t.event(TableEvent::Arrived { side: Side::Red }).await;
    t.c.c.close("restart");
    drop(t);
    let mut t = Terminal::open(s.addr, s.fingerprint, 3).await;
    t.event(TableEvent::Arrived { side: Side::Black }).await;
    tokio::time::sleep(Duration::from_millis(1_600)).await;
    assert!(alerts_of(&s, 3, AlertKind::TableOffline).is_empty());
    assert!(alerts_of(&s, 3, AlertKind::TableOnline).is_empty());

    // Gone for longer than the grace: offline, then back online.
    let closed = Instant::now();
    t.c.c.close("gone");
    drop(t);
    let a = alert(&mut c, 3, AlertKind::TableOffline).await;
    assert!(
        closed.elapsed() >= Duration::from_millis(900),
        "alert after the grace period, not at once ({:?})",
        closed.elapsed()
    );
    assert!(i18n::texts::english(&a.text).contains("offline"), "{a:?}");
    assert!(!s.snapshot().unwrap().tables[2].online);
    let _t = Terminal::open(s.addr, s.fingerprint, 3).await;
    let a = alert(&mut c, 3, AlertKind::TableOnline).await;
    assert!(
        i18n::texts::english(&a.text).contains("back online"),
        "{a:?}"
    );
    assert!(s.snapshot().unwrap().tables[2].online);
    assert_eq!(alerts_of(&s, 3, AlertKind::TableOffline).len(), 1);
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn no_show_counts_from_the_rounds_configured_start() {
    let dir = tempfile::tempdir().unwrap();
    // The round started this minute; the no-show limit passes ~3 s from now.
    let now = now_ms();
    let start = now / 60_000 * 60_000;
    let (date, time) = utc_date_time(start);
    let limit_s = (now - start) / 1000 + 3;
    let cfg = config_with(
        dir.path(),
        "time_zone = \"UTC\"",
        &format!("date = \"{date}\"\nstart = \"{time}\""),
        &format!("[arbitration]\nno_show_seconds = {limit_s}\n"),
    );
    assert_eq!(cfg.round_start_ms(), Some(start));
    let s = start_with(dir.path(), cfg).await;
    let mut c = chief(&s).await;
    // Table 1: Red is there in time, Black never comes; the clock never starts.
    let mut t = Terminal::open(s.addr, s.fingerprint, 1).await;
    t.event(TableEvent::Arrived { side: Side::Red }).await;
    let a = alert(&mut c, 1, AlertKind::NoShow).await;
    assert!(
        a.at_ms >= start + limit_s * 1000,
        "not before the limit: {a:?}"
    );
    assert!(i18n::texts::english(&a.text).contains("Black"), "{a:?}");
    assert_eq!(a.rule_ids, vec!["AXF-FORFEIT-1".to_string()]);
    let claim = c
        .claim_where(|cl| cl.table == 1 && cl.kind == ClaimKind::NoShow)
        .await;
    assert_eq!(
        claim.recommended.verdict,
        Verdict::Loss { side: Side::Black }
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    let t1 = alerts_of(&s, 1, AlertKind::NoShow);
    assert_eq!(t1.len(), 1, "only Black at table 1: {t1:?}");
    // Table 2: nobody came: both sides.
    assert_eq!(alerts_of(&s, 2, AlertKind::NoShow).len(), 2);
    s.shutdown().await.unwrap();
}

/// A no-show claim raised at the round's start lapses when the table
/// connects after all and its clock starts: the claim is closed without a
/// ruling (audited), and the hall's open count for the table drops.
#[tokio::test]
async fn a_no_show_claim_lapses_when_the_table_connects_and_its_clock_starts() {
    let dir = tempfile::tempdir().unwrap();
    let now = now_ms();
    let start = now / 60_000 * 60_000;
    let (date, time) = utc_date_time(start);
    let limit_s = (now - start) / 1000 + 2;
    let cfg = config_with(
        dir.path(),
        "time_zone = \"UTC\"",
        &format!("date = \"{date}\"\nstart = \"{time}\""),
        &format!("[arbitration]\nno_show_seconds = {limit_s}\n"),
    );
    let s = start_with(dir.path(), cfg).await;
    let mut c = chief(&s).await;
    // Nobody at table 4: a claim for each side.
    let first = c
        .claim_where(|cl| cl.table == 4 && cl.kind == ClaimKind::NoShow)
        .await;
    let second = c
        .claim_where(|cl| cl.table == 4 && cl.kind == ClaimKind::NoShow && cl.id != first.id)
        .await;
    let pending = |s: &RunningServer| s.snapshot().unwrap().tables[3].pending_claims;
    assert_eq!(pending(&s), 2);
    // The table comes, late, and the arbiter lets the game start.
    let mut t = Terminal::open(s.addr, s.fingerprint, 4).await;
    t.event(TableEvent::ClockStarted {
        red_ms: 4_800_000,
        black_ms: 4_800_000,
        terminal_mono_ms: 0,
    })
    .await;
    for id in [first.id, second.id] {
        let cl = c
            .claim_where(|cl| cl.id == id && !cl.status.is_open())
            .await;
        match cl.status {
            proto::ClaimStatus::Lapsed { why, .. } => {
                assert_eq!(why, proto::Message::new("audit-lapse-clock-started"));
                let english = i18n::texts::english(&why);
                assert!(english.contains("clock started"), "{english}")
            }
            other => panic!("claim {id}: {other:?}"),
        }
    }
    let view = s.snapshot().unwrap();
    assert_eq!(view.tables[3].pending_claims, 0, "the hall's count drops");
    assert!(
        view.claims
            .iter()
            .filter(|cl| cl.table != 4)
            .all(|cl| cl.status == proto::ClaimStatus::Pending),
        "the other tables' claims stay open"
    );
    assert!(
        view.audit
            .iter()
            .any(|e| e.table == Some(4) && e.what.contains("lapsed")),
        "audited"
    );
    // An arbiter can no longer accept it.
    let refused = c
        .command(
            7,
            Command::RuleOnClaim {
                table: 4,
                claim_id: first.id,
                decision: proto::Decision::Accept,
            },
        )
        .await;
    assert!(refused.is_err(), "{refused:?}");
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn late_resumption_of_an_adjourned_game_counts_from_the_unseal() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config_with(
        dir.path(),
        "",
        "",
        "[arbitration]\nadjourn_late_seconds = 1\n",
    );
    let s = start_with(dir.path(), cfg).await;
    let mut c = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 2).await;
    t.play(&["h2e2", "h9g7"], Side::Red).await;
    c.command(
        1,
        Command::Seal {
            table: 2,
            sealed_move: mv("b0c2"),
        },
    )
    .await
    .unwrap();
    // Sealed for longer than the limit: nothing (it counts from the resumption).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(alerts_of(&s, 2, AlertKind::SealOverdue).is_empty());
    let unsealed = now_ms();
    c.command(2, Command::Unseal { table: 2 }).await.unwrap();
    // Black (to move after the sealed move) is there; Red never shows.
    t.event(press(Side::Black, "b9c7", 4_000_000, 4_000_000))
        .await;
    let a = alert(&mut c, 2, AlertKind::SealOverdue).await;
    assert!(a.at_ms >= unsealed + 1_000, "{a:?}");
    assert!(i18n::texts::english(&a.text).contains("Red"), "{a:?}");
    assert_eq!(a.rule_ids, vec!["AXF-REF-L".to_string()]);
    let claim = c
        .claim_where(|cl| cl.table == 2 && cl.kind == ClaimKind::NoShow)
        .await;
    assert_eq!(claim.recommended.verdict, Verdict::Loss { side: Side::Red });
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(alerts_of(&s, 2, AlertKind::SealOverdue).len(), 1);
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn the_server_flags_a_running_side_whose_time_ran_out_unreported() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config_with(dir.path(), "", "", "[alerts]\nflag_grace_seconds = 1\n");
    let s = start_with(dir.path(), cfg).await;
    let mut c = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 4).await;
    let started = Instant::now();
    t.event(TableEvent::ClockStarted {
        red_ms: 400,
        black_ms: 60_000,
        terminal_mono_ms: 1,
    })
    .await;
    let a = alert(&mut c, 4, AlertKind::FlagFall).await;
    assert!(
        started.elapsed() >= Duration::from_millis(1_300),
        "after the time and the grace: {:?}",
        started.elapsed()
    );
    assert!(i18n::texts::english(&a.text).contains("Red"), "{a:?}");
    assert_eq!(a.rule_ids, vec!["AXF-CLOCK-1".to_string()]);
    let claim = c
        .claim_where(|cl| cl.table == 4 && cl.kind == ClaimKind::FlagFall)
        .await;
    assert_eq!(claim.recommended.verdict, Verdict::Loss { side: Side::Red });
    assert_eq!(s.snapshot().unwrap().tables[3].flag, Some(Side::Red));
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn second_technical_foul_reaches_the_threshold_and_proposes_a_loss() {
    let dir = tempfile::tempdir().unwrap();
    let s = start_with(dir.path(), config_with(dir.path(), "", "", "")).await;
    let mut c = chief(&s).await;
    let foul = |id| {
        (
            id,
            Command::RecordFoul {
                table: 2,
                side: Side::Black,
                kind: FoulKind::Technical,
                note: "pressed the clock with the other hand".into(),
            },
        )
    };
    let (id, cmd) = foul(1);
    c.command(id, cmd).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(alerts_of(&s, 2, AlertKind::FoulThreshold).is_empty());
    let (id, cmd) = foul(2);
    c.command(id, cmd).await.unwrap();
    let a = alert(&mut c, 2, AlertKind::FoulThreshold).await;
    assert_eq!(a.rule_ids, vec!["AXF-PLAY-5".to_string()]);
    let claim = c
        .claim_where(|cl| cl.table == 2 && cl.kind == ClaimKind::FoulThreshold)
        .await;
    assert_eq!(
        claim.recommended.verdict,
        Verdict::Loss { side: Side::Black }
    );
    assert_eq!(claim.recommended.rule_ids, vec!["AXF-PLAY-5".to_string()]);
    assert_eq!(s.snapshot().unwrap().tables[1].fouls_black.technical, 2);
    s.shutdown().await.unwrap();
}

/// Reads controls until a Pong for `nonce`: every control received before it.
async fn controls_until_pong(t: &mut Terminal, nonce: u64) -> Vec<(u64, ControlToTable)> {
    t.c.send(ClientMsg::Ping { nonce }).await;
    let mut out = Vec::new();
    loop {
        match t.c.recv().await {
            ServerMsg::Control { id, control, .. } => out.push((id, control)),
            ServerMsg::Pong { nonce: n } if n == nonce => return out,
            _ => {}
        }
    }
}

/// The controls a terminal receives until one matches `last` (included);
/// fails after ten seconds without it.
async fn controls_until(
    t: &mut Terminal,
    last: impl Fn(&ControlToTable) -> bool,
) -> Vec<(u64, ControlToTable)> {
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let ServerMsg::Control { id, control, .. } = t.c.recv().await {
                let done = last(&control);
                out.push((id, control));
                if done {
                    return;
                }
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the awaited control never came; got {out:?}"));
    out
}

fn applied(id: u64) -> TableEvent {
    TableEvent::ControlApplied {
        control_id: id,
        red_ms: 4_800_000,
        black_ms: 4_800_000,
        running: None,
        terminal_mono_ms: 100 + id,
    }
}

#[tokio::test]
async fn controls_for_an_absent_terminal_are_delivered_on_reconnect_until_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let s = start_with(dir.path(), config_with(dir.path(), "", "", "")).await;
    let mut c = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 2).await;
    t.play(&["h2e2", "h9g7"], Side::Red).await;
    t.c.c.close("away");
    drop(t);
    tokio::time::sleep(Duration::from_millis(200)).await;
    c.command(
        1,
        Command::PauseTable {
            table: 2,
            reason: "医务".into(),
        },
    )
    .await
    .unwrap();
    c.command(
        2,
        Command::AdjustClock {
            table: 2,
            red_ms: 4_000_000,
            black_ms: 4_100_000,
            reason: "补时".into(),
        },
    )
    .await
    .unwrap();
    c.command(3, Command::ResumeTable { table: 2 })
        .await
        .unwrap();
    drop(c);
    // The pending controls are state rebuilt from the store: restart.
    s.shutdown().await.unwrap();
    let s = start_with(dir.path(), config_with(dir.path(), "", "", "")).await;
    let mut c = chief(&s).await;

    // Back: all three, in order.
    let mut t = Terminal::open(s.addr, s.fingerprint, 2).await;
    let got = controls_until_pong(&mut t, 7).await;
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(matches!(got[0].1, ControlToTable::Pause { .. }), "{got:?}");
    assert!(
        matches!(
            got[1].1,
            ControlToTable::Adjust {
                red_ms: 4_000_000,
                ..
            }
        ),
        "{got:?}"
    );
    assert!(matches!(got[2].1, ControlToTable::Resume { .. }), "{got:?}");
    assert!(got[0].0 < got[1].0 && got[1].0 < got[2].0);
    // The terminal confirms the first only, then goes away again.
    t.event(applied(got[0].0)).await;
    t.c.c.close("away again");
    drop(t);

    // The unconfirmed two come again, in order; once confirmed, nothing more.
    let mut t = Terminal::open(s.addr, s.fingerprint, 2).await;
    let again = controls_until_pong(&mut t, 8).await;
    assert_eq!(
        again.iter().map(|c| c.0).collect::<Vec<_>>(),
        vec![got[1].0, got[2].0]
    );
    t.event(applied(got[1].0)).await;
    t.event(applied(got[2].0)).await;
    t.c.c.close("done");
    drop(t);
    let mut t = Terminal::open(s.addr, s.fingerprint, 2).await;
    assert!(controls_until_pong(&mut t, 9).await.is_empty());
    // A control given while it is connected comes live, once.
    c.command(
        4,
        Command::PauseTable {
            table: 2,
            reason: "x".into(),
        },
    )
    .await
    .unwrap();
    // (The command's reply may reach the chief before the control is
    // forwarded: wait for it, then make sure it came once.)
    let live =
        t.c.until(|m| match m {
            ServerMsg::Control { id, control, .. } => Some((*id, control.clone())),
            _ => None,
        })
        .await;
    assert!(matches!(live.1, ControlToTable::Pause { .. }), "{live:?}");
    assert!(controls_until_pong(&mut t, 10).await.is_empty());
    s.shutdown().await.unwrap();
}

/// Restart time over a large store (a figure, not a check):
/// `cargo test --release -p caipan --test server_alerts -- --ignored --nocapture restart_time`.
/// Writes `CAIPAN_RESTART_EVENTS` (default 100 000) table events (seeded
/// random legal games as clock presses, 400 tables) straight into the store,
/// then times `Server::start`, which rebuilds the hall by replaying them.
#[tokio::test]
#[ignore]
async fn restart_time_of_a_large_store() {
    use hall::record::Record;
    use rand::{Rng, SeedableRng};
    use store::{EventKey, NewEvent, OpenOptions, SqliteStore, Store};

    let events: u64 = std::env::var("CAIPAN_RESTART_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let tables: u16 = 400;
    let dir = tempfile::tempdir().unwrap();
    // 400 tables with derived tokens instead of the 4 listed ones.
    let mut hall = hall("127.0.0.1:0");
    hall.table_tokens.clear();
    hall.table_secret = Some("restart-figure-secret-0123456789".into());
    let names: Vec<(String, String)> = (1..=tables)
        .map(|t| (format!("红{t}"), format!("黑{t}")))
        .collect();
    let players: Vec<(&str, &str)> = names.iter().map(|(r, b)| (&r[..], &b[..])).collect();
    hall.rounds = vec![Round::new(1, &players)];
    let cfg = hall.config(dir.path());
    let data = dir.path().join("data");
    {
        let store = SqliteStore::open(&data, OpenOptions::new(cfg.hall_id())).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let per_table = events / u64::from(tables);
        let mut batch = Vec::new();
        let at = now_ms();
        for t in 1..=tables {
            let mut pos = xiangqi::Position::new();
            let mut side = Side::Red;
            let (mut red, mut black) = (4_800_000u64, 4_800_000u64);
            for seq in 1..=per_table {
                let moves = pos.legal_moves();
                let body = if moves.is_empty() {
                    TableEvent::CallArbiter {
                        by: side,
                        reason: "no legal move".into(),
                    }
                } else {
                    let m = moves[rng.random_range(0..moves.len())];
                    pos.play(m).unwrap();
                    let used = rng.random_range(1_000..20_000u64);
                    match side {
                        Side::Red => red = red.saturating_sub(used) + 30_000,
                        Side::Black => black = black.saturating_sub(used) + 30_000,
                    }
                    let ev = TableEvent::ClockPress {
                        by: side,
                        mv: Some(mv(&m.to_string())),
                        red_ms: red,
                        black_ms: black,
                        terminal_mono_ms: seq * 10_000,
                    };
                    side = side.other();
                    ev
                };
                let env = proto::EventEnvelope {
                    table: t,
                    epoch: 1,
                    seq,
                    body,
                };
                batch.push(NewEvent {
                    key: EventKey {
                        table: u32::from(t),
                        epoch: 1,
                        seq,
                    },
                    kind: "event".into(),
                    payload: Record::Event(env).encode().unwrap(),
                    received_at_ms: (at + seq) as i64,
                });
                if batch.len() >= 2_000 {
                    store
                        .append_batch(std::mem::take(&mut batch))
                        .await
                        .unwrap();
                }
            }
        }
        store.append_batch(batch).await.unwrap();
    }
    let t0 = Instant::now();
    let s = Server::start(cfg, &data).await.expect("server starts");
    let took = t0.elapsed();
    println!(
        "restart: {} records replayed in {:.2} s ({:.0} records/s)",
        s.rebuilt_records,
        took.as_secs_f64(),
        s.rebuilt_records as f64 / took.as_secs_f64()
    );
    assert!(s.rebuilt_records >= events - u64::from(tables));
    s.shutdown().await.unwrap();
}

/// An illegal move's correction ruled after the player already corrected
/// it on the board is not taken back (the take-back would undo the correct
/// move on the terminal and leave it apart from the hall); ruled before the
/// correction, the wrong move is taken back.
#[tokio::test]
async fn a_correction_ruled_after_the_player_corrected_takes_nothing_back() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let mut c = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 2).await;
    t.play(&["h2e2", "h9g7"], Side::Red).await;
    // Red's rook through its own pawn; Red then plays a legal move.
    t.event(TableEvent::Move {
        by: Side::Red,
        mv: mv("a0a5"),
    })
    .await;
    let first = c
        .claim_where(|cl| cl.table == 2 && cl.kind == ClaimKind::IllegalMove)
        .await;
    t.play(&["b0c2"], Side::Red).await;
    c.command(
        1,
        Command::RuleOnClaim {
            table: 2,
            claim_id: first.id,
            decision: proto::Decision::Accept,
        },
    )
    .await
    .expect("correction accepted");
    let v = s.snapshot().unwrap();
    assert_eq!(v.tables[1].plies, 3, "the correction stands");
    assert_eq!(v.tables[1].fouls_red.technical, 1, "the foul still counts");

    // Black's cannon jumps without a screen; ruled before any correction.
    t.event(TableEvent::Move {
        by: Side::Black,
        mv: mv("b7b0"),
    })
    .await;
    let second = c
        .claim_where(|cl| cl.table == 2 && cl.kind == ClaimKind::IllegalMove && cl.id != first.id)
        .await;
    c.command(
        2,
        Command::RuleOnClaim {
            table: 2,
            claim_id: second.id,
            decision: proto::Decision::Accept,
        },
    )
    .await
    .expect("correction accepted");
    // Controls reach the terminal in the order the hall issued them, so a
    // take-back for the first claim would arrive before the second's.
    let second_reason = format!("claim {},", second.id);
    let sent = controls_until(
        &mut t,
        |c| matches!(c, ControlToTable::TakeBack { reason, .. } if reason.contains(&second_reason)),
    )
    .await;
    let first_reason = format!("claim {},", first.id);
    assert!(
        !sent.iter().any(|(_, c)| matches!(
            c,
            ControlToTable::TakeBack { reason, .. } if reason.contains(&first_reason)
        )),
        "the correction ruled after the player corrected took a move back: {sent:?}"
    );
    s.shutdown().await.unwrap();
}
