//! The event stream (`GET /events`, Server-Sent Events): one stream for
//! every board, one `tick` per hub tick (`hub::TICK`) carrying the games
//! that changed in it (`events.rs`). `id:` is [`crate::events::event_id`]: the round in
//! its high bits, the hall's public sequence (`hall::public`) of the
//! tick's last event in its low ones, so an id of another round is never
//! read as one of this round (each round's sequence starts again from its
//! boards). A reconnect with
//! `Last-Event-ID` gets one `catchup`: the games changed after that id,
//! each from the first ply it lacks; an id from before the broadcast's
//! first picture of the round, or not one it gave, gets a fresh
//! `snapshot`. A stream that falls behind the hub's bounded channel (a
//! stalled follower) is caught up the same way when it reads again, not
//! queued for: its memory is the channel's places, the same for every
//! follower, and its catch-up is the games that changed, not the hall.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;

use std::time::Duration;

use axum::body::Bytes;
use futures::Stream;
use tokio::sync::broadcast::error::RecvError;

use crate::events::{catch_up, event_id, split_event_id, wire};
use crate::hub::{Outputs, Published};
use crate::view::View;

/// The longest `Last-Event-ID` read (a u64 has 20 digits).
pub const MAX_LAST_EVENT_ID: usize = 20;

/// `Last-Event-ID` as an [`event_id`]; anything else (not digits, too
/// long) is an id the broadcast did not give: `None`, a snapshot follows.
pub fn parse_last_event_id(text: &str) -> Option<u64> {
    let t = text.trim();
    if t.is_empty() || t.len() > MAX_LAST_EVENT_ID || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// How long a stream stays silent before it sends a comment line (`:
/// keep-alive`), so proxies and the follower's browser see it alive.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// What a stream sends after [`KEEP_ALIVE`] without an event.
const KEEP_ALIVE_COMMENT: &[u8] = b": keep-alive\n\n";

/// The `snapshot` event of a view (the body of `/state.json`), written
/// once per view and shared by every stream that starts from it.
pub fn snapshot(v: &View) -> Bytes {
    v.snapshot_event
        .get_or_init(|| {
            let data = std::str::from_utf8(&v.state().bytes).unwrap_or("{}");
            wire("snapshot", event_id(v.round, v.seq), data)
        })
        .clone()
}

struct Follower {
    stop: tokio::sync::watch::Receiver<bool>,
    out: Arc<Outputs>,
    rx: tokio::sync::broadcast::Receiver<Published>,
    pending: VecDeque<Bytes>,
    /// The round and sequence the follower was shown everything of.
    round: u32,
    cur: u64,
}

impl Follower {
    /// Brings the follower to `v`: nothing when it is there, the games
    /// changed since its sequence when `v` continues it, else a snapshot.
    fn reach(&mut self, v: &View) {
        if v.round == self.round && v.seq == self.cur {
            return;
        }
        match v.round == self.round && v.continues(self.cur) {
            true => self.pending.push_back(catch_up(v, self.cur)),
            false => self.pending.push_back(snapshot(v)),
        }
        self.round = v.round;
        self.cur = v.seq;
    }

    /// Follows from the channel's end and the view now (after `Lagged`,
    /// a `Reset`, or a tick that does not continue the follower).
    fn rejoin(&mut self) {
        self.rx = self.rx.resubscribe();
        let view = self.out.view.borrow().clone();
        if let Some(v) = view {
            self.reach(&v);
        }
    }

    fn got(&mut self, got: Published) {
        match got {
            Published::Tick(t) if t.id <= self.cur => {}
            Published::Tick(t) if t.base == self.cur => {
                self.cur = t.id;
                self.pending.push_back(t.event.clone());
            }
            Published::Tick(_) | Published::Reset => self.rejoin(),
        }
    }
}

/// The stream of one follower, resuming after `last` when given; `None`
/// while the broadcast has no picture yet (the delay of its start).
pub fn follow(
    out: Arc<Outputs>,
    last: Option<u64>,
) -> Option<impl Stream<Item = Result<Bytes, Infallible>>> {
    follow_every(out, last, KEEP_ALIVE)
}

/// [`follow`] with a comment line after `keep_alive` without an event.
pub fn follow_every(
    out: Arc<Outputs>,
    last: Option<u64>,
    keep_alive: Duration,
) -> Option<impl Stream<Item = Result<Bytes, Infallible>>> {
    // Subscribe first, then read the view: nothing falls between them
    // (ticks the view already holds are skipped by id).
    let rx = out.events.subscribe();
    let view = out.view.borrow().clone()?;
    let mut f = Follower {
        stop: out.stop.clone(),
        round: view.round,
        cur: view.seq,
        out,
        rx,
        pending: VecDeque::new(),
    };
    // An id of another round (or one never given) is not continued.
    let last = last
        .map(split_event_id)
        .filter(|&(round, seq)| round == view.round && view.continues(seq))
        .map(|(_, seq)| seq);
    match last {
        Some(l) if l == view.seq => {}
        Some(l) => f.pending.push_back(catch_up(&view, l)),
        None => f.pending.push_back(snapshot(&view)),
    }
    Some(futures::stream::unfold(f, move |mut f| async move {
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
                _ = tokio::time::sleep(keep_alive) => {
                    return Some((Ok(Bytes::from_static(KEEP_ALIVE_COMMENT)), f));
                }
            };
            match got {
                Ok(p) => f.got(p),
                // What the channel still holds for us is older than the
                // view: follow from its end, caught up to the view.
                Err(RecvError::Lagged(_)) => f.rejoin(),
                Err(RecvError::Closed) => return None,
            }
        }
    }))
}
