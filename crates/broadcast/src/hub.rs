//! The hub (转播中枢): one task between the hall's public tap and the
//! followers. It takes the picture and the events from the server
//! (`server::public`), holds each back for the delay (moves, clocks and
//! results alike; the first picture too, so a restart does not show the
//! last moves early), then publishes the new [`View`] and the events: the
//! view through a `watch` that requests read, the events into a bounded
//! ring kept for resuming streams and a bounded `tokio::sync::broadcast`
//! channel that the streams follow (a stream that falls behind it gets a
//! fresh snapshot, `sse.rs`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use config::HallConfig;
use hall::public::PublicEvent;
use server::public::PublicPicture;
use server::public_feed::PublicFeed;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;

use crate::events::Sent;
use crate::view::View;

/// Most recent events kept for a stream resuming with `Last-Event-ID`.
pub const RING: usize = 4_096;

/// What a stream gets from the hub.
#[derive(Debug, Clone)]
pub enum Published {
    /// One event (its id is the view's sequence once applied), written
    /// once for every stream.
    Event(Arc<Sent>),
    /// A new picture that is not the continuation of the last (a new
    /// subscription to the hall after falling behind, a new round): send
    /// a snapshot.
    Reset,
}

/// The hub's outputs, shared with the HTTP handlers.
#[derive(Debug)]
pub struct Outputs {
    /// The view now (`None` until the first picture is due).
    pub view: watch::Receiver<Option<Arc<View>>>,
    /// The events, for the streams.
    pub events: broadcast::Sender<Published>,
    /// The most recent events, oldest first.
    pub ring: Mutex<VecDeque<Arc<Sent>>>,
    /// Set when the broadcast stops (the streams end).
    pub stop: watch::Receiver<bool>,
    /// The delay (ms): what is published is this much behind the hall.
    pub delay_ms: u64,
}

impl Outputs {
    /// The events after `last` up to `upto` when the ring still holds all
    /// of them; `None` when it does not (too old, or not an id it gave).
    pub fn since(&self, last: u64, upto: u64) -> Option<Vec<Arc<Sent>>> {
        if last > upto {
            return None;
        }
        if last == upto {
            return Some(Vec::new());
        }
        let ring = self.ring.lock().ok()?;
        let first = ring.front()?.id;
        if first > last + 1 {
            return None;
        }
        let out: Vec<_> = ring
            .iter()
            .filter(|e| e.id > last && e.id <= upto)
            .cloned()
            .collect();
        (out.len() as u64 == upto - last).then_some(out)
    }
}

/// Something waiting for the delay.
enum Due {
    Picture(PublicPicture),
    Events(Arc<Vec<PublicEvent>>),
}

/// Starts the hub: returns its outputs; it runs until `stop` changes.
pub fn start(
    feed: PublicFeed,
    config: Arc<HallConfig>,
    delay: Duration,
    stream_buffer: usize,
    stop: watch::Receiver<bool>,
) -> Arc<Outputs> {
    let (view_tx, view_rx) = watch::channel(None);
    let (events, _) = broadcast::channel(stream_buffer.max(1));
    let out = Arc::new(Outputs {
        view: view_rx,
        events,
        ring: Mutex::new(VecDeque::new()),
        stop: stop.clone(),
        delay_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
    });
    tokio::spawn(run(feed, config, delay, out.clone(), view_tx, stop));
    out
}

async fn run(
    feed: PublicFeed,
    config: Arc<HallConfig>,
    delay: Duration,
    out: Arc<Outputs>,
    view_tx: watch::Sender<Option<Arc<View>>>,
    mut stop: watch::Receiver<bool>,
) {
    let mut queue: VecDeque<(Instant, Due)> = VecDeque::new();
    let mut rx: Option<mpsc::Receiver<Arc<Vec<PublicEvent>>>> = None;
    loop {
        if rx.is_none() {
            match feed.subscribe() {
                Some((picture, r)) => {
                    queue.push_back((Instant::now() + delay, Due::Picture(picture)));
                    rx = Some(r);
                }
                None => return,
            }
        }
        let next_due = queue.front().map(|(at, _)| *at);
        tokio::select! {
            _ = stop.changed() => return,
            got = async { rx.as_mut()?.recv().await }, if rx.is_some() => match got {
                Some(batch) => queue.push_back((Instant::now() + delay, Due::Events(batch))),
                // The tap was dropped (we fell behind): a fresh picture.
                None => rx = None,
            },
            () = async {
                if let Some(at) = next_due {
                    tokio::time::sleep_until(at).await;
                }
            }, if next_due.is_some() => {
                let now = Instant::now();
                while queue.front().is_some_and(|(at, _)| *at <= now) {
                    if let Some((_, due)) = queue.pop_front() {
                        release(due, &config, &out, &view_tx);
                    }
                }
            }
        }
    }
}

/// Publishes what is due: a new view, the events into the ring and to the
/// streams.
fn release(
    due: Due,
    config: &Arc<HallConfig>,
    out: &Outputs,
    view_tx: &watch::Sender<Option<Arc<View>>>,
) {
    match due {
        Due::Picture(p) => {
            let view = View::new(config.clone(), p.round, p.seq, p.games);
            if let Ok(mut ring) = out.ring.lock() {
                // Ids after a new picture continue the hall's sequence; what
                // the ring holds stays valid only below it.
                ring.retain(|e| e.id <= view.seq);
            }
            view_tx.send_replace(Some(Arc::new(view)));
            let _ = out.events.send(Published::Reset);
        }
        Due::Events(batch) => {
            let Some(current) = view_tx.borrow().clone() else {
                return;
            };
            let fresh: Vec<&PublicEvent> = batch.iter().filter(|e| e.id > current.seq).collect();
            if fresh.is_empty() {
                return;
            }
            let view = current.after(&batch);
            let arcs: Vec<Arc<Sent>> = fresh
                .into_iter()
                .map(|e| Arc::new(Sent::new(e, &view)))
                .collect();
            if let Ok(mut ring) = out.ring.lock() {
                for e in &arcs {
                    if ring.len() >= RING {
                        ring.pop_front();
                    }
                    ring.push_back(e.clone());
                }
            }
            view_tx.send_replace(Some(Arc::new(view)));
            for e in arcs {
                let _ = out.events.send(Published::Event(e));
            }
        }
    }
}
