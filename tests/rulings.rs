//! End-to-end tests of the repetition procedure (issue 15) over real QUIC:
//! a real in-process server, table terminals and the chief's console.
//!
//! - A perpetual chase from a real game reaches its third occurrence: the
//!   recommended ruling is an order (变着令), accepted with the arbiter's
//!   keys in the console; the game goes on and the table terminal (the real
//!   engine) shows the order; the cycle repeats once more: a second claim
//!   recommends the loss citing AXF-G3 first; accepted, the game ends with
//!   the typed reason *perpetual chase*; the audit trail and the exported
//!   PGN hold the sequence.
//! - The ordered side changes: no second claim, the order lapses (alert).
//! - An announced draw (both sides idle) that repeats: a draw, reason
//!   *repetition*.

mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use console::app::{Outgoing, View};
use console::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use console::net::{self, NetConfig, NetEvent};
use console::{App, Lang};
use export::{self, Format, Rendered};
use proto::{
    AlertKind, ClaimKind, ClaimStatus, ClaimView, Command, Connector, Decision, EndReason,
    GameResult, Side, TableStatus, Trust, Verdict,
};
use support::{chief, table_token, Hall, Terminal};
use table::engine::{Action, Engine};
use table::replay::script::{with_incident, Incident, Step};
use table::terminal::{self, TerminalHandle};
use table::timebase::Timebase;
use table::Outbox;
use tokio::sync::mpsc;
use xiangqi::{Game, Move, Position};

fn hall(listen: &str) -> Hall {
    Hall::new("棋例测试赛", listen).with_tables(&[("甲", "乙"), ("丙", "丁"), ("戊", "己")])
}

/// A real game with a perpetual chase the rulebook rules as the chaser's
/// loss: the moves up to the cycle, and the 4-ply cycle.
fn chase() -> (Vec<Move>, [Move; 4], Vec<Move>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/games/hu-ronghua-1391.pgn");
    let text = std::fs::read_to_string(&path).expect("the data set");
    let games: Vec<Game> = xiangqi::pgn::read_pgn(&text)
        .expect("data set reads")
        .iter()
        .filter_map(|g| g.replay().ok())
        .filter(|g| g.start == Position::new())
        .take(200)
        .collect();
    let s = with_incident(&games, 0, Incident::PerpetualChase, 7).expect("a chase");
    let moves: Vec<Move> = s
        .steps
        .iter()
        .filter_map(|st| match st {
            Step::Play(m) => Some(*m),
            // The players wait for the order here; this test plays it.
            Step::AwaitOrder => None,
            other => panic!("unexpected step {other:?}"),
        })
        .collect();
    let at = s.at_ply;
    let cycle = [moves[at], moves[at + 1], moves[at + 2], moves[at + 3]];
    let rest = moves[at + 8..].to_vec();
    (moves[..at + 8].to_vec(), cycle, rest)
}

fn iccs(m: &[Move]) -> Vec<String> {
    m.iter()
        .map(|&m| proto::convert::wire_move(m).to_string())
        .collect()
}

/// The console under test (as in tests/console.rs): the app fed by the real
/// network client, keys pressed as an arbiter presses them.
struct Console {
    app: App,
    cmds: mpsc::Sender<Outgoing>,
    events: mpsc::Receiver<NetEvent>,
    start: std::time::Instant,
}

impl Console {
    fn new(addr: SocketAddr, fp: proto::Fingerprint) -> Console {
        let (cmds, events) = net::spawn(NetConfig {
            servers: vec![addr.to_string()],
            token: support::CHIEF.into(),
            trust: Trust::Fingerprint(fp),
        });
        Console {
            app: App::new(Lang::En),
            cmds,
            events,
            start: std::time::Instant::now(),
        }
    }

    async fn send(&mut self, out: Vec<Outgoing>) {
        for o in out {
            self.cmds.send(o).await.expect("network task alive");
        }
    }

    async fn until(&mut self, what: &str, done: impl Fn(&App) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while !done(&self.app) {
            let ev = tokio::time::timeout_at(deadline, self.events.recv())
                .await
                .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
                .expect("network task alive");
            self.app.tick(self.start.elapsed().as_millis() as u64);
            let out = match ev {
                NetEvent::Conn(c) => {
                    self.app.set_conn(c);
                    Vec::new()
                }
                NetEvent::Msg(m) => self.app.on_server(m),
            };
            self.send(out).await;
        }
    }

    async fn key(&mut self, c: char) {
        let out = self
            .app
            .on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        self.send(out).await;
    }

    /// Accepts claim `id` from the claims queue: `c`, select, `y`, `y`.
    async fn accept(&mut self, id: u64) {
        if self.app.view != View::Claims {
            self.key('c').await;
        }
        assert_eq!(self.app.view, View::Claims);
        while self.app.claim_sel > 0 {
            self.key('k').await;
        }
        let idx = self
            .app
            .claims()
            .iter()
            .position(|c| c.id == id)
            .expect("claim listed");
        for _ in 0..idx {
            self.key('j').await;
        }
        self.key('y').await;
        assert!(self.app.dialog.is_some(), "asks to confirm");
        self.key('y').await;
        self.until("the ruling", |a| {
            claim(a, |c| c.id == id).is_some_and(|c| matches!(c.status, ClaimStatus::Ruled { .. }))
        })
        .await;
    }
}

fn claim(app: &App, f: impl Fn(&ClaimView) -> bool) -> Option<ClaimView> {
    app.claims().into_iter().find(|c| f(c)).cloned()
}

async fn terminal_for(
    addr: SocketAddr,
    fp: proto::Fingerprint,
    t: u16,
    dir: &Path,
) -> TerminalHandle {
    let connector = Connector::new(&Trust::Fingerprint(fp), false).unwrap();
    let link = table::link::LinkConfig::new(addr, table_token(t), connector);
    let (info, hello) = terminal::fetch_info(&link).await.expect("table info");
    let session = hello.table.unwrap();
    let (outbox, _) = Outbox::open(dir, t, session.epoch + 1).unwrap();
    terminal::spawn(Engine::new(info, outbox), Some(link), Timebase::real(0))
}

async fn play(h: &TerminalHandle, moves: &[String]) {
    for m in moves {
        h.act(Action::Play(m.clone())).await.expect("move played");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_perpetual_chase_is_ordered_to_change_then_lost_under_axf_g3() {
    let dir = tempfile::tempdir().unwrap();
    let s = hall("127.0.0.1:0").start(dir.path()).await;
    let (addr, fp) = (s.addr, s.fingerprint);
    let mut con = Console::new(addr, fp);
    con.until("the snapshot", |a| a.connected() && a.hall().is_some())
        .await;
    let (to_third, cycle, _) = chase();
    let h = terminal_for(addr, fp, 1, &dir.path().join("outbox")).await;
    for side in [Side::Red, Side::Black] {
        h.act(Action::Arrived { side }).await.unwrap();
    }
    h.act(Action::StartClock).await.unwrap();
    play(&h, &iccs(&to_third)).await;

    // Third occurrence: the recommendation is an order, not a result.
    let is_rep = |c: &ClaimView| c.table == 1 && c.kind == ClaimKind::Repetition;
    con.until("the order claim", |a| claim(a, is_rep).is_some())
        .await;
    let first = claim(&con.app, is_rep).unwrap();
    assert_eq!(first.recommended.verdict, Verdict::Order, "{first:?}");
    let chaser = first.recommended.must_change.expect("a side must change");
    assert!(
        i18n::texts::english(&first.recommended.explanation).contains("must change"),
        "{:?}",
        first.recommended.explanation
    );
    con.accept(first.id).await;

    // The game goes on; the terminal shows the order; the detail has it.
    let shown = h
        .wait_for(Duration::from_secs(20), |sc| sc.order.is_some())
        .await
        .expect("the terminal shows the order");
    let order = i18n::texts::english(&shown.order.expect("an order"));
    assert!(order.contains("must change"), "{order}");
    let v = s.snapshot().unwrap();
    assert_eq!(v.tables[0].status, TableStatus::Playing);
    assert_eq!(
        v.tables[0].order.as_ref().map(|o| o.must_change),
        Some(Some(chaser))
    );

    // The cycle once more: the second claim recommends the loss, AXF-G3 first.
    play(&h, &iccs(&cycle)).await;
    assert!(h.screen().order.is_none(), "shown until the next move");
    con.until("the second claim", |a| {
        claim(a, |c| is_rep(c) && c.id != first.id).is_some()
    })
    .await;
    let second = claim(&con.app, |c| is_rep(c) && c.id != first.id).unwrap();
    assert_eq!(second.recommended.verdict, Verdict::Loss { side: chaser });
    assert_eq!(second.recommended.rule_ids[0], "AXF-G3", "{second:?}");
    con.accept(second.id).await;
    con.until("the end", |a| {
        a.hall()
            .is_some_and(|hv| matches!(hv.tables[0].status, TableStatus::Finished { .. }))
    })
    .await;
    let v = s.snapshot().unwrap();
    match &v.tables[0].status {
        TableStatus::Finished { result, why, .. } => {
            assert_eq!(*result, GameResult::win_for(chaser.other()));
            assert_eq!(*why, EndReason::PerpetualChase);
        }
        other => panic!("{other:?}"),
    }
    assert!(v
        .audit
        .iter()
        .any(|e| e.table == Some(1) && e.what.contains("order at ply")));
    h.stop().await.ok();
    s.shutdown().await.unwrap();

    // The exported PGN holds the order and the result's reason.
    let data = dir.path().join("data");
    let config = hall("127.0.0.1:0").config(dir.path());
    let Rendered::Files(files) =
        export::render(&data, &config, 1, Format::Pgn, Default::default()).unwrap()
    else {
        panic!("pgn is a folder of files");
    };
    let pgn: String = files.iter().map(|(_, body)| body.as_str()).collect();
    assert!(pgn.contains("must change"), "{pgn}");
    assert!(pgn.contains("AXF-G3"), "{pgn}");
    assert!(pgn.contains("perpetual chase"), "{pgn}");
}

#[tokio::test]
async fn an_ordered_side_that_changes_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let s = hall("127.0.0.1:0").start(dir.path()).await;
    let mut c = chief(&s).await;
    let (to_third, _, rest) = chase();
    let mut t = Terminal::open(s.addr, s.fingerprint, 2).await;
    let moves = iccs(&to_third);
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    t.play(&refs, Side::Red).await;
    let order = c
        .claim_where(|cl| cl.table == 2 && cl.kind == ClaimKind::Repetition)
        .await;
    assert_eq!(order.recommended.verdict, Verdict::Order);
    c.command(
        1,
        Command::RuleOnClaim {
            table: 2,
            claim_id: order.id,
            decision: Decision::Accept,
        },
    )
    .await
    .expect("order accepted");
    // The real game goes on from the same position: the cycle is left.
    let more = iccs(&rest[..10]);
    let refs: Vec<&str> = more.iter().map(String::as_str).collect();
    let next = if to_third.len() % 2 == 0 {
        Side::Red
    } else {
        Side::Black
    };
    t.play(&refs, next).await;
    let lapse = c
        .alert_where(|a| {
            a.table == 2
                && a.kind == AlertKind::Repetition
                && i18n::texts::english(&a.text).contains("lapses")
        })
        .await;
    assert!(
        i18n::texts::english(&lapse.text).contains("order lapses"),
        "{lapse:?}"
    );
    let v = s.snapshot().unwrap();
    assert_eq!(v.tables[1].status, TableStatus::Playing);
    assert!(v.tables[1].order.is_none());
    let reps: Vec<&ClaimView> = v
        .claims
        .iter()
        .filter(|cl| cl.table == 2 && cl.kind == ClaimKind::Repetition)
        .collect();
    assert_eq!(reps.len(), 1, "no second claim: {reps:?}");
    s.shutdown().await.unwrap();
}

#[tokio::test]
async fn an_announced_draw_that_repeats_is_a_draw() {
    let dir = tempfile::tempdir().unwrap();
    let s = hall("127.0.0.1:0").start(dir.path()).await;
    let mut c = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 3).await;
    let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    t.play(&[shuffle, shuffle].concat(), Side::Red).await;
    let announce = c
        .claim_where(|cl| cl.table == 3 && cl.kind == ClaimKind::Repetition)
        .await;
    assert_eq!(
        (
            announce.recommended.verdict,
            announce.recommended.must_change
        ),
        (Verdict::Order, None),
        "{announce:?}"
    );
    c.command(
        1,
        Command::RuleOnClaim {
            table: 3,
            claim_id: announce.id,
            decision: Decision::Accept,
        },
    )
    .await
    .expect("announcement accepted");
    t.play(&shuffle, Side::Red).await;
    let draw = c
        .claim_where(|cl| cl.table == 3 && cl.kind == ClaimKind::Repetition && cl.id != announce.id)
        .await;
    assert_eq!(draw.recommended.verdict, Verdict::Draw, "{draw:?}");
    c.command(
        2,
        Command::RuleOnClaim {
            table: 3,
            claim_id: draw.id,
            decision: Decision::Accept,
        },
    )
    .await
    .expect("draw accepted");
    let v = s.snapshot().unwrap();
    match &v.tables[2].status {
        TableStatus::Finished { result, why, .. } => {
            assert_eq!((*result, *why), (GameResult::Draw, EndReason::Repetition));
        }
        other => panic!("{other:?}"),
    }
    s.shutdown().await.unwrap();
}

/// `[arbitration] cycles_after_order = 3` (AXF-G3's wording): the announced
/// draw's second claim comes after three more cycles, not one.
#[tokio::test]
async fn cycles_after_order_three_waits_for_the_third_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{}\n[arbitration]\ncycles_after_order = 3\n",
        hall("127.0.0.1:0").toml()
    );
    let config = config::HallConfig::from_toml_str(&text, dir.path(), &|_| None)
        .expect("config with cycles_after_order");
    assert_eq!(config.rule_params.cycles_after_order.count(), 3);
    let s = server::Server::start(config, &dir.path().join("data"))
        .await
        .expect("server starts");
    let mut c = chief(&s).await;
    let mut t = Terminal::open(s.addr, s.fingerprint, 3).await;
    let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    t.play(&[shuffle, shuffle].concat(), Side::Red).await;
    let announce = c
        .claim_where(|cl| cl.table == 3 && cl.kind == ClaimKind::Repetition)
        .await;
    assert_eq!(announce.recommended.verdict, Verdict::Order);
    assert!(
        i18n::texts::english(&announce.recommended.explanation).contains("three more cycles"),
        "{announce:?}"
    );
    c.command(
        1,
        Command::RuleOnClaim {
            table: 3,
            claim_id: announce.id,
            decision: Decision::Accept,
        },
    )
    .await
    .expect("announcement accepted");
    let reps = |s: &server::RunningServer| {
        s.snapshot()
            .unwrap()
            .claims
            .iter()
            .filter(|cl| cl.table == 3 && cl.kind == ClaimKind::Repetition)
            .count()
    };
    // One and two more cycles: the order stands, no second claim (with
    // the default, the first would already raise it).
    for _ in 0..2 {
        t.play(&shuffle, Side::Red).await;
        assert_eq!(reps(&s), 1, "no second claim yet");
        let v = s.snapshot().unwrap();
        assert!(v.tables[2].order.is_some(), "the order stands");
        assert_eq!(v.tables[2].status, TableStatus::Playing);
    }
    // The third: the draw is recommended.
    t.play(&shuffle, Side::Red).await;
    let draw = c
        .claim_where(|cl| cl.table == 3 && cl.kind == ClaimKind::Repetition && cl.id != announce.id)
        .await;
    assert_eq!(draw.recommended.verdict, Verdict::Draw, "{draw:?}");
    assert_eq!(reps(&s), 2);
    s.shutdown().await.unwrap();
}
