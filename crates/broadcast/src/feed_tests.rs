//! The stream's contract (issue 40), through the real hub and streams and
//! the SSE bytes axum writes: a tick carries each changed game once in its
//! latest state (a result never dropped), ids increase; a stream that
//! falls behind is caught up with only the games that changed and ends
//! equal to the hub's view; `Last-Event-ID` resumes with the games
//! changed since; a fresh picture of the same round is a tick, not a new
//! start. The follower's side is [`Model`]: what the page's script does
//! with `snapshot`, `tick` and `catchup`.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;

use axum::body::Bytes;
use axum::response::sse::{Event, Sse};
use axum::response::IntoResponse;
use futures::{Stream, StreamExt};
use hall::public::{PublicChange, PublicEvent, PublicGame, PublicStatus};
use proto::{ClockState, EndReason, GameResult, IccsMove, Side};
use serde_json::Value;
use server::public::PublicPicture;
use tokio::sync::watch;

use crate::events::event_id;
use crate::hub::{Hub, Outputs};
use crate::sse::follow;

const MOVES: [&str; 8] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "c6c5",
];

fn config(tables: u16) -> Arc<config::HallConfig> {
    let mut text = String::from(
        r#"
[tournament]
name = "测试赛"
date = "2026-01-02"
kind = "round_robin"
[credentials]
table_secret = "test-hall-secret-0001"
[credentials.chief]
name = "王"
token = "chief-token-0123456789"
[[round]]
number = 1
"#,
    );
    for t in 1..=tables {
        text.push_str(&format!(
            "[[round.table]]\ntable = {t}\nred = \"红{t}\"\nblack = \"黑{t}\"\n"
        ));
    }
    Arc::new(
        config::HallConfig::from_toml_str(&text, std::path::Path::new("/"), &|_| None)
            .expect("config"),
    )
}

fn game(table: u16) -> PublicGame {
    PublicGame {
        table,
        red: format!("红{table}"),
        black: format!("黑{table}"),
        start_fen: xiangqi::Position::new().to_fen(),
        moves: Vec::new(),
        ply_clocks: Default::default(),
        clock: ClockState {
            red_ms: 600_000,
            black_ms: 600_000,
            running: None,
        },
        clock_at_ms: 0,
        status: PublicStatus::Waiting,
    }
}

/// The hall's side: numbers the public events as the hall does.
struct Hall {
    seq: u64,
    plies: BTreeMap<u16, u32>,
}

impl Hall {
    fn new(seq: u64) -> Hall {
        Hall {
            seq,
            plies: BTreeMap::new(),
        }
    }

    fn event(&mut self, table: u16, change: PublicChange) -> PublicEvent {
        self.seq += 1;
        PublicEvent {
            id: self.seq,
            at_ms: 1_000_000 + self.seq,
            table,
            change,
        }
    }

    /// The next move of `table` (the opening of [`MOVES`]).
    fn play(&mut self, table: u16) -> PublicEvent {
        let ply = self.plies.entry(table).or_insert(0);
        *ply += 1;
        let n = *ply;
        let mv = IccsMove::parse(MOVES[(n as usize - 1) % MOVES.len()]).expect("ICCS");
        let running = if n % 2 == 1 { Side::Black } else { Side::Red };
        let clock = ClockState {
            red_ms: 600_000 - u64::from(n),
            black_ms: 600_000 - u64::from(n) * 2,
            running: Some(running),
        };
        self.event(
            table,
            PublicChange::Move {
                ply: n,
                mv,
                clock_ms: Some(600_000 - u64::from(n)),
                clock,
            },
        )
    }

    fn result(&mut self, table: u16) -> PublicEvent {
        self.event(
            table,
            PublicChange::Result {
                result: GameResult::RedWins,
                why: EndReason::Resignation,
            },
        )
    }
}

fn hub(tables: u16, buffer: usize) -> (Hub, Arc<Outputs>) {
    let (stop_tx, stop) = watch::channel(false);
    std::mem::forget(stop_tx);
    let hub = Hub::new(config(tables), buffer, stop, 0);
    hub.picture(PublicPicture {
        round: 1,
        seq: 0,
        games: (1..=tables).map(game).collect(),
    });
    let out = hub.outputs();
    (hub, out)
}

/// One SSE event as axum writes it: (event, the public sequence of its
/// id, data); the id's round must be the data's round where it has one.
async fn bytes_of(body: Bytes) -> (String, u64, Value) {
    let text = String::from_utf8(body.to_vec()).expect("UTF-8");
    let (mut name, mut id, mut data) = (String::new(), 0, String::new());
    for l in text.lines() {
        if let Some(v) = l.strip_prefix("event: ") {
            name = v.to_string();
        } else if let Some(v) = l.strip_prefix("id: ") {
            id = v.parse().expect("an integer id");
        } else if let Some(v) = l.strip_prefix("data: ") {
            data.push_str(v);
        }
    }
    let data: Value = serde_json::from_str(&data).expect("JSON data");
    let (round, seq) = crate::events::split_event_id(id);
    if let Some(r) = data["round"].as_u64() {
        assert_eq!(u64::from(round), r, "the id names the round");
    }
    (name, seq, data)
}

/// The next event of a stream, or `None` when nothing comes at once.
async fn next<S: Stream<Item = Result<Bytes, Infallible>> + Unpin>(
    s: &mut S,
) -> Option<(String, u64, Value)> {
    let e = tokio::time::timeout(std::time::Duration::from_millis(200), s.next())
        .await
        .ok()??;
    Some(bytes_of(e.expect("infallible")).await)
}

/// A follower's boards, kept as the page's script keeps them.
#[derive(Default)]
struct Model {
    games: BTreeMap<u64, Value>,
    id: u64,
}

impl Model {
    fn take(&mut self, (name, id, data): &(String, u64, Value)) {
        match name.as_str() {
            "snapshot" => {
                self.games.clear();
                for g in data["games"].as_array().expect("games") {
                    self.games.insert(g["table"].as_u64().unwrap(), g.clone());
                }
            }
            "tick" | "catchup" => {
                for d in data["games"].as_array().expect("games") {
                    let g = self
                        .games
                        .get_mut(&d["table"].as_u64().unwrap())
                        .expect("a known board");
                    let from = d["from"].as_u64().unwrap() as usize;
                    for k in ["moves", "wxf", "zh", "clocks_ms"] {
                        let a = g[k].as_array_mut().unwrap();
                        a.truncate(from);
                        a.extend(d[k].as_array().unwrap().iter().cloned());
                    }
                    for k in ["clock", "status", "result", "reason"] {
                        g[k] = d[k].clone();
                    }
                }
            }
            other => panic!("an event the page does not know: {other}"),
        }
        assert!(*id >= self.id, "ids go up: {id} after {}", self.id);
        self.id = *id;
    }

    /// Equal to the view's whole picture (`/state.json`).
    fn assert_equal_to(&self, out: &Outputs) {
        let v = out.view.borrow().clone().expect("a view");
        let state: Value = serde_json::from_slice(&v.state().bytes).unwrap();
        let games: BTreeMap<u64, Value> = state["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["table"].as_u64().unwrap(), g.clone()))
            .collect();
        assert_eq!(self.games, games);
        assert_eq!(self.id, v.seq);
    }
}

fn tables_of(data: &Value) -> Vec<u64> {
    data["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["table"].as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_tick_carries_each_changed_game_once_in_its_latest_state() {
    let (hub, out) = hub(3, 32);
    let mut s = Box::pin(follow(out.clone(), None).expect("a view"));
    let mut model = Model::default();
    let first = next(&mut s).await.expect("a snapshot");
    assert_eq!(first.0, "snapshot");
    model.take(&first);

    // One tick: four moves of board 1, a move and the result of board 2
    // followed by a move of board 3.
    let mut hall = Hall::new(0);
    let mut events: Vec<PublicEvent> = (0..4).map(|_| hall.play(1)).collect();
    events.push(hall.play(2));
    events.push(hall.result(2));
    events.push(hall.play(3));
    hub.tick(&[Arc::new(events)]);
    let tick = next(&mut s).await.expect("a tick");
    assert_eq!(tick.0, "tick");
    assert_eq!(tick.1, 7, "a tick's id is its last event's");
    assert_eq!(tables_of(&tick.2), [1, 2, 3], "each board once");
    let b1 = &tick.2["games"][0];
    assert_eq!(b1["from"], 0);
    assert_eq!(b1["moves"].as_array().unwrap().len(), 4);
    assert_eq!(b1["wxf"][0], "C2.5");
    assert_eq!(b1["status"], "playing");
    assert_eq!(b1["clock"]["red_ms"], 600_000 - 4);
    let b2 = &tick.2["games"][1];
    assert_eq!(b2["status"], "finished", "the result is not dropped: {b2}");
    assert_eq!(b2["result"], "1-0");
    assert_eq!(b2["reason"], "resignation");
    model.take(&tick);
    assert!(next(&mut s).await.is_none(), "one event per tick");

    // The next tick: only board 1, from its fifth ply.
    hub.tick(&[Arc::new(vec![hall.play(1)])]);
    let tick = next(&mut s).await.expect("a tick");
    assert_eq!(tick.1, 8);
    assert_eq!(tables_of(&tick.2), [1]);
    assert_eq!(tick.2["games"][0]["from"], 4);
    assert_eq!(tick.2["games"][0]["moves"], serde_json::json!(["i0h0"]));
    model.take(&tick);
    model.assert_equal_to(&out);
    // Nothing new: no tick.
    hub.tick(&[]);
    assert!(next(&mut s).await.is_none());
}

#[tokio::test]
async fn a_lagging_stream_gets_only_the_changed_games_and_ends_equal() {
    let (hub, out) = hub(10, 2);
    let mut s = Box::pin(follow(out.clone(), None).expect("a view"));
    let mut model = Model::default();
    model.take(&next(&mut s).await.expect("a snapshot"));
    let mut hall = Hall::new(0);
    // The stream reads nothing while 20 ticks go by (its channel holds 2),
    // boards 2, 3 and 5 playing, board 3 taken back (given whole).
    for i in 0..20u64 {
        let mut batch = vec![hall.play(2), hall.play(3)];
        if i % 4 == 0 {
            batch.push(hall.play(5));
        }
        if i == 10 {
            let back = PublicGame {
                moves: Vec::new(),
                ply_clocks: Default::default(),
                ..game(3)
            };
            hall.plies.insert(3, 0);
            batch.push(hall.event(3, PublicChange::Game(Box::new(back))));
        }
        hub.tick(&[Arc::new(batch)]);
    }
    let caught = next(&mut s).await.expect("a catch-up");
    assert_eq!(caught.0, "catchup", "not a snapshot");
    assert_eq!(tables_of(&caught.2), [2, 3, 5], "only the changed boards");
    assert_eq!(caught.2["games"][0]["from"], 0);
    model.take(&caught);
    model.assert_equal_to(&out);
    assert!(next(&mut s).await.is_none());
    // And it goes on with the ticks.
    hub.tick(&[Arc::new(vec![hall.play(7)])]);
    let tick = next(&mut s).await.expect("a tick");
    assert_eq!((tick.0.as_str(), tables_of(&tick.2)), ("tick", vec![7]));
    model.take(&tick);
    model.assert_equal_to(&out);
}

#[tokio::test]
async fn last_event_id_resumes_with_the_games_changed_since() {
    let (hub, out) = hub(4, 32);
    let mut s = Box::pin(follow(out.clone(), None).expect("a view"));
    let mut model = Model::default();
    model.take(&next(&mut s).await.expect("a snapshot"));
    let mut hall = Hall::new(0);
    hub.tick(&[Arc::new(vec![hall.play(1), hall.play(1), hall.play(2)])]);
    model.take(&next(&mut s).await.expect("a tick"));
    let cut = model.id;
    assert_eq!(cut, 3);
    drop(s);
    // Away: board 1 plays on, board 4 starts, board 2 does not change.
    hub.tick(&[Arc::new(vec![hall.play(1), hall.play(4)])]);
    hub.tick(&[Arc::new(vec![hall.play(1), hall.result(4)])]);
    let mut s = Box::pin(follow(out.clone(), Some(event_id(1, cut))).expect("a view"));
    let caught = next(&mut s).await.expect("a catch-up");
    assert_eq!(caught.0, "catchup");
    assert_eq!(caught.1, 7);
    assert_eq!(tables_of(&caught.2), [1, 4]);
    assert_eq!(
        caught.2["games"][0]["from"], 2,
        "from the first ply it lacks"
    );
    model.take(&caught);
    model.assert_equal_to(&out);

    // At the view's id: nothing to send, the next tick follows.
    let mut s = Box::pin(follow(out.clone(), Some(event_id(1, 7))).expect("a view"));
    assert!(next(&mut s).await.is_none());
    hub.tick(&[Arc::new(vec![hall.play(3)])]);
    let tick = next(&mut s).await.expect("a tick");
    assert_eq!((tick.0.as_str(), tick.1), ("tick", 8));
    model.take(&tick);
    model.assert_equal_to(&out);
    // An id it never gave (ahead of it): a snapshot.
    let mut s = Box::pin(follow(out.clone(), Some(event_id(1, 99))).expect("a view"));
    let e = next(&mut s).await.expect("a snapshot");
    assert_eq!((e.0.as_str(), e.1), ("snapshot", 8));
}

#[tokio::test]
async fn a_fresh_picture_of_the_round_is_a_tick_of_what_differs() {
    let (hub, out) = hub(3, 32);
    let mut hall = Hall::new(0);
    hub.tick(&[Arc::new(vec![hall.play(1), hall.play(2)])]);
    let mut s = Box::pin(follow(out.clone(), None).expect("a view"));
    let mut model = Model::default();
    model.take(&next(&mut s).await.expect("a snapshot"));
    // The hub fell behind the tap: the server's picture at 4 has board 1
    // two plies on and board 2 unchanged.
    let v = out.view.borrow().clone().expect("a view");
    let mut g1 = v.board(1).cloned().unwrap();
    for e in [hall.play(1), hall.play(1)] {
        crate::view::apply(&mut g1, &e);
    }
    let g2 = PublicGame {
        clock_at_ms: 5,
        ..v.board(2).cloned().unwrap()
    };
    hub.picture(PublicPicture {
        round: 1,
        seq: hall.seq,
        games: vec![g1, g2, game(3)],
    });
    let tick = next(&mut s).await.expect("a tick");
    assert_eq!(tick.0, "tick", "not a snapshot");
    assert_eq!(tables_of(&tick.2), [1]);
    assert_eq!(tick.2["games"][0]["from"], 1);
    model.take(&tick);
    model.assert_equal_to(&out);
    // Another round: a snapshot.
    hub.picture(PublicPicture {
        round: 2,
        seq: hall.seq,
        games: vec![game(1)],
    });
    let e = next(&mut s).await.expect("a snapshot");
    assert_eq!(e.0, "snapshot");
    assert_eq!(e.2["round"], 2);
    // A follower of round 1 reconnecting now, its sequence inside round
    // 2's range: a snapshot, never a catch-up of round 2's boards over
    // round 1's.
    let v = out.view.borrow().clone().expect("a view");
    assert!(v.continues(v.seq), "the sequence alone would continue");
    let mut old = Box::pin(follow(out.clone(), Some(event_id(1, v.seq))).expect("a view"));
    let e = next(&mut old).await.expect("a snapshot");
    assert_eq!((e.0.as_str(), e.1), ("snapshot", v.seq));
    assert_eq!(e.2["round"], 2);
    // One of round 2 at the view's id: nothing to send.
    let mut now = Box::pin(follow(out.clone(), Some(event_id(2, v.seq))).expect("a view"));
    assert!(next(&mut now).await.is_none());
}

#[test]
fn event_ids_carry_the_round_above_the_sequence() {
    use crate::events::split_event_id;
    assert_eq!(split_event_id(event_id(3, 17)), (3, 17));
    assert!(event_id(2, 0) > event_id(1, (1 << crate::events::SEQ_BITS) - 1));
    assert_eq!(event_id(0, 5), 5);
    // Out of range parts are clamped, never wrapped into the other part.
    assert_eq!(split_event_id(event_id(1, u64::MAX)).0, 1);
    assert_eq!(split_event_id(event_id(u32::MAX, 1)).1, 1);
}

/// An entry as the stream wrote it before entries were typed (issue 40):
/// a JSON value tree, its keys sorted by serde_json's map.
fn entry_as_value_tree(s: &crate::view::Shown, since: u64) -> Value {
    let g = &s.game;
    let from = s.first_unseen(since).min(g.moves.len());
    let tail = |v: &crate::notation::Column| v.to_vec().get(from..).unwrap_or_default().to_vec();
    let running = match g.clock.running {
        Some(Side::Red) => serde_json::json!("red"),
        Some(Side::Black) => serde_json::json!("black"),
        None => Value::Null,
    };
    let reason = match g.status {
        PublicStatus::Finished { why, .. } => serde_json::json!(why.as_str()),
        _ => Value::Null,
    };
    serde_json::json!({
        "table": g.table,
        "from": from,
        "moves": g.moves[from..].iter().map(ToString::to_string).collect::<Vec<_>>(),
        "wxf": tail(&s.texts.wxf),
        "zh": tail(&s.texts.zh),
        "clocks_ms": g.ply_clocks.times_from(from),
        "clock": {
            "red_ms": g.clock.red_ms,
            "black_ms": g.clock.black_ms,
            "running": running,
            "at_ms": g.clock_at_ms,
        },
        "status": g.status.as_str(),
        "result": crate::render::result_token(g.status),
        "reason": reason,
        "at_ms": s.at_ms,
    })
}

/// The typed entries write, byte for byte, what the value trees wrote, for
/// a follower at every point of a game: moves with and without a clock,
/// moves that do not replay (written in ICCS), a clock stopped and
/// running, a result; and so does a tick's whole data.
#[test]
fn typed_entries_write_the_bytes_the_value_trees_wrote() {
    let mut hall = Hall::new(0);
    let mut shown = crate::view::Shown::new(game(7), 0);
    let mut compared = 0;
    for step in 0..14 {
        let mut e = match step {
            13 => hall.result(7),
            _ => hall.play(7),
        };
        if let PublicChange::Move { clock_ms, .. } = &mut e.change {
            if step % 3 == 2 {
                *clock_ms = None;
            }
        }
        shown.apply(&e);
        for since in 0..=hall.seq {
            let typed = serde_json::to_string(&crate::events::entry(&shown, since)).unwrap();
            assert_eq!(typed, entry_as_value_tree(&shown, since).to_string());
            compared += 1;
        }
    }
    assert!(matches!(shown.game.status, PublicStatus::Finished { .. }));
    assert!(
        shown.game.moves.len() > MOVES.len(),
        "some moves do not replay"
    );
    assert_eq!(compared, (1..=14).map(|n| n + 1).sum::<usize>());

    let view = crate::view::View::new(config(3), 1, 40, (1..=3).map(game).collect());
    let (view, changed) = view.after(&[hall_event(41, 2), hall_event(42, 3)]);
    let data = crate::events::changes(&view, 40, changed.iter().copied());
    let games: Vec<Value> = changed
        .iter()
        .filter_map(|t| view.games.get(t))
        .map(|s| entry_as_value_tree(s, 40))
        .collect();
    let tree = serde_json::json!({ "round": 1, "seq": 42, "since": 40, "games": games });
    assert_eq!(data, tree.to_string());
}

/// The first move of `table` as public event `id`.
fn hall_event(id: u64, table: u16) -> PublicEvent {
    let mut hall = Hall::new(id - 1);
    hall.play(table)
}

/// A game that changes while the view before still holds it (the hub's
/// case: the published view) is copied once a tick with room for its new
/// plies only (issue 40): none of its lists doubles at the next ply, and
/// the copies show what the game's events say.
#[test]
fn a_game_changed_under_a_held_view_is_copied_with_room_for_its_new_plies() {
    let mut hall = Hall::new(0);
    let mut views = vec![Arc::new(crate::view::View::new(
        config(2),
        1,
        0,
        vec![game(1), game(2)],
    ))];
    for tick in 0..6 {
        let events: Vec<PublicEvent> = (0..=tick % 3).map(|_| hall.play(1)).collect();
        let before = views.last().cloned().expect("a view");
        let (view, changed) = before.after(&events);
        assert_eq!(changed.into_iter().collect::<Vec<_>>(), vec![1]);
        views.push(Arc::new(view));
    }
    let last = views.last().expect("a view");
    let s = &last.games[&1];
    assert_eq!(s.game.moves.len(), 1 + 2 + 3 + 1 + 2 + 3);
    // Room a tick: its plies' texts at their longest (5 bytes WXF, 12
    // Chinese), every other list exact; doubled lists would hold > 100.
    assert!(
        s.spare_bytes() <= 3 * (5 + 12),
        "copied with room for its plies only: {} spare bytes",
        s.spare_bytes()
    );
    assert_eq!(s.texts.wxf.len(), s.game.moves.len());
    assert_eq!(s.texts.zh.len(), s.game.moves.len());
    assert_eq!(s.game.ply_clocks.len(), s.game.moves.len());
    assert_eq!(s.texts.wxf.get(0), Some("C2.5"));
    // The game that did not change is the same allocation in every view.
    assert!(Arc::ptr_eq(&views[0].games[&2], &last.games[&2]));
    // Each ply's id is the tick's event that showed it.
    assert_eq!(s.first_unseen(0), 0);
    assert_eq!(s.first_unseen(1), 1);
    assert_eq!(s.first_unseen(last.seq), s.game.moves.len());
    assert_eq!(s.ply_id(11), Some(12));
}

/// A game of the picture as `/state.json` wrote it before the picture was
/// typed (issue 40): a JSON value tree, its keys sorted by serde_json's
/// map.
fn game_as_value_tree(g: &PublicGame, texts: &crate::notation::Texts) -> Value {
    serde_json::json!({
        "table": g.table,
        "red": g.red,
        "black": g.black,
        "fen": g.start_fen,
        "moves": g.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "wxf": texts.wxf.to_vec(),
        "zh": texts.zh.to_vec(),
        "clocks_ms": g.ply_clocks.times(),
        "clock": crate::render::clock(&g.clock, g.clock_at_ms),
        "status": g.status.as_str(),
        "result": crate::render::result_token(g.status),
        "reason": crate::render::reason(g.status),
    })
}

/// The typed picture writes, byte for byte, what the value tree wrote: a
/// game played on past moves that do not replay (ICCS texts), a finished
/// one, one not started.
#[test]
fn the_typed_picture_writes_what_the_value_tree_wrote() {
    let mut hall = Hall::new(0);
    let mut events: Vec<PublicEvent> = (0..14).map(|_| hall.play(1)).collect();
    events.extend((0..3).map(|_| hall.play(2)));
    events.push(hall.result(2));
    let view = crate::view::View::new(config(3), 1, 0, (1..=3).map(game).collect());
    let (view, _) = view.after(&events);
    let typed = serde_json::to_string(&crate::render::state(&view)).expect("serializes");
    let tree = serde_json::json!({
        "tournament": view.config.tournament.name,
        "site": view.config.tournament.site,
        "round": view.round,
        "seq": view.seq,
        "games": view
            .games
            .values()
            .map(|s| game_as_value_tree(&s.game, &s.texts))
            .collect::<Vec<_>>(),
    });
    assert_eq!(typed, tree.to_string());
    assert_eq!(view.state().bytes, typed.as_bytes());
    assert_eq!(view.games[&1].game.moves.len(), 14);
    assert!(matches!(
        view.games[&2].game.status,
        PublicStatus::Finished { .. }
    ));
}

/// An event as the stream writes it is, byte for byte, what axum's `Event`
/// wrote for the same name, id and data (the stream sent those before its
/// events were shared bytes, issue 40), a data of several lines too.
#[tokio::test]
async fn a_wire_event_is_what_axums_event_wrote() {
    for (name, id, data) in [
        ("tick", 7u64, r#"{"games":[],"round":1}"#),
        ("snapshot", event_id(3, 17), "{}"),
        ("catchup", 0, "line one\nline two"),
        ("tick", 1, ""),
    ] {
        let e = Event::default().event(name).id(id.to_string()).data(data);
        let res = Sse::new(futures::stream::iter([Ok::<_, Infallible>(e)])).into_response();
        let axum = axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .expect("the body");
        assert_eq!(crate::events::wire(name, id, data), axum, "{name} {data:?}");
    }
}

/// A stream with nothing to send says it is alive with a comment line
/// after the keep-alive interval, and goes on with the next tick.
#[tokio::test]
async fn a_silent_stream_sends_a_keep_alive_comment() {
    let (hub, out) = hub(2, 8);
    let every = std::time::Duration::from_millis(50);
    let mut s = Box::pin(crate::sse::follow_every(out.clone(), None, every).expect("a view"));
    let first = next(&mut s).await.expect("a snapshot");
    assert_eq!(first.0, "snapshot");
    let alive = tokio::time::timeout(std::time::Duration::from_secs(5), s.next())
        .await
        .expect("within the interval")
        .expect("the stream goes on")
        .expect("infallible");
    assert_eq!(&alive[..], b": keep-alive\n\n");
    let mut hall = Hall::new(0);
    hub.tick(&[Arc::new(vec![hall.play(1)])]);
    let got = next(&mut s).await.expect("an event");
    assert_eq!(got.0, "tick");
}

/// A tick and a catch-up written straight into their event's buffer are
/// the bytes of their data's text as [`crate::events::wire`] writes it.
#[test]
fn a_tick_written_in_place_is_the_wire_of_its_text() {
    let mut hall = Hall::new(0);
    let mut events: Vec<PublicEvent> = (0..10).map(|i| hall.play(1 + (i % 3) as u16)).collect();
    events.push(hall.result(2));
    let view = crate::view::View::new(config(3), 1, 0, (1..=3).map(game).collect());
    let (view, tables) = view.after(&events);
    let id = event_id(view.round, view.seq);
    let tick = crate::events::tick(&view, 0, &tables);
    let text = crate::events::changes(&view, 0, tables.iter().copied());
    assert_eq!(tick.event, crate::events::wire("tick", id, &text));
    let caught = crate::events::catch_up(&view, 4);
    let text = crate::events::changes(&view, 4, view.changed_since(4));
    assert_eq!(caught, crate::events::wire("catchup", id, &text));
    assert!(text.contains("\"games\":[{"));
}
