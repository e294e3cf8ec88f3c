//! A sample hall for the rendering tests, the snapshot files and the
//! rendering benchmark: tables in every state (playing, low time, flag
//! fallen, paused, sealed, finished, offline, waiting), Chinese and long
//! names, alerts, claims (pending, escalated, ruled) and an audit trail.
//!
//! [`halls_app`] puts several such halls in one console.
//!
//! Not used by the console itself.

use crate::app::{App, ConnState};
use crate::i18n::Lang;
use proto::{
    Alert, AlertKind, AuditEntry, ClaimKind, ClaimPenalty, ClaimStatus, ClaimView, ClockState,
    EndReason, FoulCount, GameResult, HallInfo, HallView, HelloOk, IccsMove, PauseInfo, Role,
    Ruling, RulingOutcome, ServerMsg, Side, TableStatus, TableView, TimeControl, Verdict,
};
use xiangqi::{Move, Position, Square};

/// The server's wall clock in the sample (2026-11-29 14:00:00 UTC).
pub const SERVER_MS: u64 = 1_795_960_800_000;

/// An opening played at the sample tables (ICCS).
pub const OPENING: &[&str] = &[
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "b2a2", "h7i7", "c3c4", "g6g5",
    "h0h6", "i7h7", "h6g6", "h7h3",
];

fn mv(s: &str) -> IccsMove {
    IccsMove::parse(s).unwrap_or(IccsMove { from: 0, to: 1 })
}

/// A table that has played `n` plies of [`OPENING`].
pub fn table(n: u16, red: &str, black: &str, plies: usize) -> TableView {
    let moves: Vec<IccsMove> = OPENING.iter().take(plies).map(|m| mv(m)).collect();
    let mut pos = Position::new();
    for m in &moves {
        if let (Some(f), Some(t)) = (Square::from_index(m.from), Square::from_index(m.to)) {
            let _ = pos.play(Move::new(f, t));
        }
    }
    TableView {
        table: n,
        red: red.into(),
        black: black.into(),
        clock: ClockState {
            red_ms: 3_900_000,
            black_ms: 3_480_000,
            running: Some(if plies % 2 == 0 {
                Side::Red
            } else {
                Side::Black
            }),
        },
        clock_at_ms: SERVER_MS - 10_000,
        to_move: if plies % 2 == 0 {
            Side::Red
        } else {
            Side::Black
        },
        flag: None,
        plies: plies as u32,
        plies_since_capture: pos.halfmove_clock(),
        natural_limit_plies: 120,
        checks_red: 0,
        checks_black: 0,
        fouls_red: FoulCount::default(),
        fouls_black: FoulCount::default(),
        pending_claims: 0,
        status: TableStatus::Playing,
        last_heard_ms: SERVER_MS - 2_000,
        online: true,
        last_move: moves.last().copied(),
        order: None,
        fen: pos.to_fen(),
        moves,
        move_limit: None,
    }
}

const NAMES: &[(&str, &str)] = &[
    ("胡荣华", "许银川"),
    ("吕钦", "赵国荣"),
    ("王天一", "郑惟桐"),
    ("蒋川", "洪智"),
    ("谢靖", "孟辰"),
    ("赵鑫鑫", "汪洋"),
    ("欧阳琦琳", "唐丹"),
    ("Alexander Rutherford", "Lim Yee Hong"),
    ("左文静", "王琳娜"),
    ("徐天红", "柳大华"),
    ("李来群", "于幼华"),
    ("陶汉明", "聂卫平"),
];

/// A hall of `n` tables in assorted states.
pub fn hall(n: u16) -> HallView {
    HallView {
        tournament: "2026 全国象棋个人赛".into(),
        round: 5,
        rule_set: "AXF-2008".into(),
        time_control: TimeControl::Fischer {
            base_ms: 4_800_000,
            increment_ms: 30_000,
        },
        paused: None,
        tables: (1..=n).map(sample_table).collect(),
        alerts: alerts(),
        claims: claims(),
        audit: audit(),
        server_ms: SERVER_MS,
    }
}

/// Table `i` of the sample hall, in the state its number gives (`i % 12`).
fn sample_table(i: u16) -> TableView {
    let (r, b) = NAMES[usize::from(i - 1) % NAMES.len()];
    let mut t = table(i, r, b, usize::from(i) % OPENING.len() + 1);
    t.plies_since_capture = (u32::from(i) * 11) % 125;
    match i % 12 {
        2 => {
            t.clock.running = Some(Side::Black);
            t.to_move = Side::Black;
            t.clock.black_ms = 262_000;
        }
        3 => {
            t.status = TableStatus::Paused(PauseInfo {
                by: "chief".into(),
                reason: "phone rang".into(),
            });
            t.clock.running = None;
        }
        4 => {
            t.status = TableStatus::Sealed {
                by: "deputy 李四".into(),
                at_ms: SERVER_MS - 600_000,
            };
            t.clock.running = None;
        }
        5 => {
            t.status = TableStatus::Finished {
                result: GameResult::RedWins,
                why: proto::EndReason::Checkmate,
                reason: "checkmate".into(),
            };
            t.clock.running = None;
        }
        6 => {
            t.clock.running = None;
            t.flag = Some(Side::Red);
            t.clock.red_ms = 0;
            t.status = TableStatus::Finished {
                result: GameResult::BlackWins,
                why: proto::EndReason::Flag,
                reason: "flag".into(),
            };
        }
        7 => {
            t.online = false;
            t.last_heard_ms = SERVER_MS - 95_000;
            t.pending_claims = 1;
            t.fouls_black = FoulCount {
                technical: 1,
                violations: 0,
            };
            t.clock.red_ms = 45_000;
            t.clock.running = Some(Side::Red);
            t.to_move = Side::Red;
        }
        8 => {
            t.status = TableStatus::Waiting;
            t.clock.running = None;
            t.plies = 0;
            t.moves.clear();
            t.last_move = None;
            t.plies_since_capture = 0;
            t.fen = Position::new().to_fen();
        }
        _ => {}
    }
    t
}

/// The sample's alerts, acknowledged or not: the hall's own messages.
fn alerts() -> Vec<Alert> {
    use i18n::texts as t;
    let alert = |id: u64, table: u16, kind: AlertKind, ago: u64, text, acked: bool| Alert {
        id,
        table,
        kind,
        at_ms: SERVER_MS - ago,
        text,
        rule_ids: if kind == AlertKind::Repetition {
            vec!["AXF-D1".into()]
        } else {
            Vec::new()
        },
        acked_by: acked.then(|| "chief".into()),
    };
    let mate = t::game_over(5, GameResult::RedWins, EndReason::Checkmate, "checkmate");
    vec![
        alert(1, 5, AlertKind::GameOver, 900_000, mate, true),
        alert(
            2,
            6,
            AlertKind::FlagFall,
            400_000,
            t::loss_flag_fall(Some(6), Side::Red),
            false,
        ),
        alert(
            3,
            7,
            AlertKind::TableOffline,
            95_000,
            t::table_offline(7, 95),
            false,
        ),
        alert(
            4,
            7,
            AlertKind::Repetition,
            30_000,
            t::repetition(7, 3, black_checks_perpetually()),
            false,
        ),
    ]
}

/// The rulebook's ruling on Black's rook checking Red's king from h0 and
/// h1 while it steps between f0 and f1 (Black's perpetual check, AXF-D1).
fn black_checks_perpetually() -> proto::Message {
    let start = Position::from_fen("4k4/9/9/9/9/9/9/9/7r1/5K3 b - - 0 1");
    let moves: Vec<Move> = [
        "h1h0", "f0f1", "h0h1", "f1f0", "h1h0", "f0f1", "h0h1", "f1f0",
    ]
    .iter()
    .filter_map(|m| xiangqi::parse_iccs(m).ok())
    .collect();
    match start.map(|p| rulebook::judge_game(&p, &moves, rulebook::RuleSet::Axf)) {
        Ok(Ok(Some(r))) => i18n::texts::ruling(&r.explanation),
        _ => i18n::texts::ruling_no_cycle(),
    }
}

/// The rulebook's answer to Black's claim of the natural limit after 70
/// plies without a capture (false: AXF needs 100).
fn false_limit_claim() -> proto::Message {
    use rulebook::limit::{judge_claim, LimitCounter, PlyFact};
    use xiangqi::Color;
    let mut counter = LimitCounter::new();
    for ply in 0..70 {
        counter.record(PlyFact {
            by: if ply % 2 == 0 {
                Color::Red
            } else {
                Color::Black
            },
            capture: false,
            check: false,
        });
    }
    let params = rulebook::RuleSet::Axf.params();
    i18n::texts::ruling(&judge_claim(&counter, Color::Black, &params, false).explanation)
}

/// The sample's claims: pending, escalated, ruled.
fn claims() -> Vec<ClaimView> {
    let ruling = |v: Verdict, m: Option<Side>, ids: &[&str], explanation| Ruling {
        verdict: v,
        must_change: m,
        rule_ids: ids.iter().map(|s| s.to_string()).collect(),
        explanation,
    };
    vec![
        ClaimView {
            id: 11,
            table: 7,
            kind: ClaimKind::Repetition,
            by: Some(Side::Red),
            raised_at_ms: SERVER_MS - 25_000,
            recommended: ruling(
                Verdict::Continue,
                Some(Side::Black),
                &["AXF-D1", "AXF-P4"],
                black_checks_perpetually(),
            ),
            penalty: None,
            status: ClaimStatus::Pending,
        },
        ClaimView {
            id: 10,
            table: 2,
            kind: ClaimKind::NaturalLimit,
            by: Some(Side::Black),
            raised_at_ms: SERVER_MS - 200_000,
            recommended: ruling(
                Verdict::Continue,
                None,
                &["AXF-LIMIT-1", "AXF-LIMIT-3"],
                false_limit_claim(),
            ),
            // A false claim: accepting the recommendation costs Black a
            // technical foul and five minutes (AXF-LIMIT-3).
            penalty: Some(ClaimPenalty {
                side: Side::Black,
                technical_foul: true,
                deduct_ms: 300_000,
            }),
            status: ClaimStatus::Escalated {
                by: "deputy 李四".into(),
                reason: "player disputes the count".into(),
                at_ms: SERVER_MS - 150_000,
            },
        },
        ClaimView {
            id: 9,
            table: 9,
            kind: ClaimKind::IllegalMove,
            by: None,
            raised_at_ms: SERVER_MS - 1_200_000,
            recommended: ruling(
                Verdict::CorrectMove { side: Side::Black },
                None,
                &["AXF-PLAY-4A"],
                i18n::texts::illegal_ruling(false, Side::Black, "h7h0"),
            ),
            penalty: None,
            status: ClaimStatus::Ruled {
                by: "chief".into(),
                outcome: RulingOutcome::Accepted,
                at_ms: SERVER_MS - 1_100_000,
            },
        },
    ]
}

/// The sample's audit trail.
fn audit() -> Vec<AuditEntry> {
    vec![
        AuditEntry {
            id: 1,
            at_ms: SERVER_MS - 1_100_000,
            who: "chief".into(),
            what: "ruled on claim 9: accepted".into(),
            table: Some(9),
            refused: None,
            what_msg: None,
            refused_msg: None,
        },
        AuditEntry {
            id: 2,
            at_ms: SERVER_MS - 300_000,
            who: "deputy 李四".into(),
            what: "paused table 3".into(),
            table: Some(3),
            refused: None,
            what_msg: None,
            refused_msg: None,
        },
    ]
}

/// A console signed in as `role` and fed `hall`, at the snapshot's time.
pub fn app(lang: Lang, role: Role, hall: HallView) -> App {
    let mut app = App::new(lang);
    sign_in(&mut app, 0, role, hall);
    app
}

/// A console over several halls: in each (name, role, hall) signed in as
/// `role` and fed `hall`.
pub fn halls_app(lang: Lang, halls: Vec<(&str, Role, HallView)>) -> App {
    let names = halls.iter().map(|(n, _, _)| n.to_string()).collect();
    let mut app = App::with_halls(lang, names);
    for (i, (_, role, hall)) in halls.into_iter().enumerate() {
        sign_in(&mut app, i, role, hall);
    }
    app
}

fn sign_in(app: &mut App, i: usize, role: Role, hall: HallView) {
    app.on_server_from(
        i,
        ServerMsg::HelloOk(HelloOk {
            role,
            server_version: "test".into(),
            hall: HallInfo {
                hall_id: "0123456789abcdef".into(),
                tournament: hall.tournament.clone(),
                round: hall.round,
                rule_set: hall.rule_set.clone(),
                time_control: hall.time_control.clone(),
                natural_limit_plies: 120,
                language: None,
            },
            table: None,
            server_ms: SERVER_MS,
        }),
    );
    app.on_server_from(i, ServerMsg::Snapshot(Box::new(hall)));
    app.set_conn_in(i, ConnState::Connected);
}
