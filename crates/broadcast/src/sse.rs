//! The event stream (`GET /events`, Server-Sent Events): one stream for
//! every board. `id:` is the hall's public sequence (`hall::public`); a
//! reconnect with `Last-Event-ID` gets exactly the events after it from
//! the hub's ring, or a fresh `snapshot` when the ring no longer holds
//! them, or the id is not one the broadcast gave. A stream that falls
//! behind the hub's bounded channel (a stalled follower) gets a fresh
//! `snapshot` instead of a queue: its memory is the channel's places, the
//! same for every follower.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::Event;
use futures::Stream;
use tokio::sync::broadcast::error::RecvError;

use crate::hub::{Outputs, Published};
use crate::view::View;

/// The longest `Last-Event-ID` read (a u64 has 20 digits).
pub const MAX_LAST_EVENT_ID: usize = 20;

/// `Last-Event-ID` as a sequence number; anything else (not digits, too
/// long) is an id the broadcast did not give: `None`, a snapshot follows.
pub fn parse_last_event_id(text: &str) -> Option<u64> {
    let t = text.trim();
    if t.is_empty() || t.len() > MAX_LAST_EVENT_ID || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// The `snapshot` event of a view (the body of `/state.json`, rendered
/// once per view).
pub fn snapshot(v: &View) -> Event {
    let data = std::str::from_utf8(&v.state().bytes).unwrap_or("{}");
    Event::default()
        .event("snapshot")
        .id(v.seq.to_string())
        .data(data)
}

struct Follower {
    stop: tokio::sync::watch::Receiver<bool>,
    out: Arc<Outputs>,
    rx: tokio::sync::broadcast::Receiver<Published>,
    pending: VecDeque<Event>,
    cur: u64,
}

/// The stream of one follower, resuming after `last` when given; `None`
/// while the broadcast has no picture yet (the delay of its start).
pub fn follow(
    out: Arc<Outputs>,
    last: Option<u64>,
) -> Option<impl Stream<Item = Result<Event, Infallible>>> {
    // Subscribe first, then read the view: nothing falls between them
    // (events the view already holds are skipped by id).
    let rx = out.events.subscribe();
    let view = out.view.borrow().clone()?;
    let mut pending = VecDeque::new();
    match last.and_then(|l| out.since(l, view.seq)) {
        Some(events) => pending.extend(events.iter().map(|e| e.event.clone())),
        None => pending.push_back(snapshot(&view)),
    }
    let f = Follower {
        stop: out.stop.clone(),
        cur: view.seq,
        out,
        rx,
        pending,
    };
    Some(futures::stream::unfold(f, |mut f| async move {
        loop {
            if let Some(e) = f.pending.pop_front() {
                return Some((Ok(e), f));
            }
            if *f.stop.borrow() {
                return None;
            }
            let got = tokio::select! {
                got = f.rx.recv() => got,
                _ = f.stop.changed() => return None,
            };
            match got {
                Ok(Published::Event(e)) => {
                    if e.id > f.cur {
                        f.cur = e.id;
                        f.pending.push_back(e.event.clone());
                    }
                }
                Ok(Published::Reset) | Err(RecvError::Lagged(_)) => {
                    // What the channel still holds for us is older than
                    // the view: follow from its end, then read the view.
                    f.rx = f.rx.resubscribe();
                    let view = f.out.view.borrow().clone();
                    // The same sequence is the same picture (a stream that
                    // joined as the picture came out): nothing to send.
                    if let Some(v) = view.filter(|v| v.seq != f.cur) {
                        f.cur = v.seq;
                        f.pending.push_back(snapshot(&v));
                    }
                }
                Err(RecvError::Closed) => return None,
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Sent;
    use futures::StreamExt;
    use hall::public::{PublicChange, PublicEvent, PublicGame, PublicStatus};
    use proto::{ClockState, IccsMove};
    use std::sync::Mutex;
    use tokio::sync::{broadcast, watch};

    const HALL: &str = r#"
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
[[round.table]]
table = 1
red = "胡荣华"
black = "许银川"
"#;

    fn view(seq: u64) -> Arc<View> {
        let config = config::HallConfig::from_toml_str(HALL, std::path::Path::new("/"), &|_| None)
            .expect("config");
        let game = PublicGame {
            table: 1,
            red: "胡荣华".into(),
            black: "许银川".into(),
            start_fen: xiangqi::Position::new().to_fen(),
            moves: Vec::new(),
            ply_clocks: Vec::new(),
            clock: ClockState {
                red_ms: 1,
                black_ms: 1,
                running: None,
            },
            clock_at_ms: 0,
            status: PublicStatus::Waiting,
        };
        Arc::new(View::new(Arc::new(config), 1, seq, vec![game]))
    }

    fn event(id: u64) -> Published {
        Published::Event(Arc::new(Sent::new(&public_event(id), &view(id))))
    }

    fn public_event(id: u64) -> PublicEvent {
        PublicEvent {
            id,
            at_ms: id,
            table: 1,
            change: PublicChange::Clock {
                clock: ClockState {
                    red_ms: id,
                    black_ms: 1,
                    running: None,
                },
                status: PublicStatus::Playing,
            },
        }
    }

    fn outputs(buffer: usize, seq: u64) -> (Arc<Outputs>, watch::Sender<Option<Arc<View>>>) {
        let (view_tx, view_rx) = watch::channel(Some(view(seq)));
        let (_stop_tx, stop) = watch::channel(false);
        std::mem::forget(_stop_tx);
        let (events, _) = broadcast::channel(buffer);
        let out = Arc::new(Outputs {
            view: view_rx,
            events,
            ring: Mutex::new(Default::default()),
            stop,
            delay_ms: 0,
        });
        (out, view_tx)
    }

    /// The text of an SSE event as sent.
    fn text(e: &Event) -> String {
        format!("{e:?}")
    }

    #[tokio::test]
    async fn a_stalled_follower_gets_a_snapshot_not_a_queue() {
        let (out, view_tx) = outputs(4, 10);
        let mut s = Box::pin(follow(out.clone(), None).expect("a view"));
        let first = s.next().await.expect("an event").expect("infallible");
        assert!(text(&first).contains("snapshot"), "{first:?}");
        // The follower reads nothing while 50 events go by.
        for id in 11..=60 {
            view_tx.send_replace(Some(view(id)));
            let _ = out.events.send(event(id));
        }
        let next = s.next().await.expect("an event").expect("infallible");
        let t = text(&next);
        assert!(t.contains("snapshot") && t.contains("60"), "{t}");
        // And goes on from there.
        let _ = out.events.send(event(61));
        let next = s.next().await.expect("an event").expect("infallible");
        assert!(
            text(&next).contains("61") && text(&next).contains("clock"),
            "{next:?}"
        );
    }

    #[tokio::test]
    async fn last_event_id_resumes_from_the_ring_or_gets_a_snapshot() {
        let (out, _view_tx) = outputs(16, 5);
        if let Ok(mut ring) = out.ring.lock() {
            for id in 3..=5 {
                if let Published::Event(e) = event(id) {
                    ring.push_back(e);
                }
            }
        }
        let mut s = Box::pin(follow(out.clone(), Some(3)).expect("a view"));
        for id in [4, 5] {
            let e = s.next().await.expect("an event").expect("infallible");
            assert!(
                text(&e).contains(&format!("\"{id}\"")) || text(&e).contains(&format!("id: {id}")),
                "{e:?}"
            );
            assert!(!text(&e).contains("snapshot"));
        }
        for old in [Some(1), Some(6), None] {
            let mut s = Box::pin(follow(out.clone(), old).expect("a view"));
            let e = s.next().await.expect("an event").expect("infallible");
            assert!(text(&e).contains("snapshot"), "{old:?}: {e:?}");
        }
        assert_eq!(parse_last_event_id(" 42 "), Some(42));
        for bad in ["", "-1", "4a", "123456789012345678901"] {
            assert_eq!(parse_last_event_id(bad), None, "{bad}");
        }
        let _ = IccsMove::parse("h2e2");
    }
}
