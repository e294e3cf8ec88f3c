//! The hub (转播中枢): one task between the hall's public tap and the
//! followers. It takes the picture and the events from the server
//! (`server::public`), holds each back for the delay (moves, clocks and
//! results alike; the first picture too, so a restart does not show the
//! last moves early), and once per [`TICK`] publishes what came due: the
//! new [`View`] through a `watch` that requests read, and one `tick`
//! event (`events.rs`: the games that changed in it, each once) into a
//! bounded `tokio::sync::broadcast` channel that the streams follow. A
//! stream that falls behind the channel, or resumes with `Last-Event-ID`,
//! is caught up with the games changed since its id (`sse.rs`): the view
//! keeps, per game, when it last changed and when each ply was shown, so
//! the hub keeps no ring of past events.
//!
//! Per batch of the hall the hub only queues it; the view is built once
//! per tick, sharing every game that did not change with the view before
//! (`Arc`), so the hub keeps up with the hall's tap at 10,000 tables. If
//! it still falls behind (the server drops the tap, `server::public`), the
//! fresh picture of the same round is published as a tick of the games
//! that differ from the view, not as a new start: the streams go on.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use config::HallConfig;
use hall::public::PublicEvent;
use server::public::PublicPicture;
use server::public_feed::PublicFeed;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::{Instant, MissedTickBehavior};

use crate::events::Sent;
use crate::view::View;

/// How often the hub publishes (a follower gets at most one event per
/// tick). 200 ms: under the page's 250-ms clock redraw and far under
/// what a follower can tell from "as it is played" (and under any
/// `delay_s` but 0), while at 10,000 tables pressing once a second a
/// stream writes 5 events a second instead of 10,000 and the hub builds 5
/// views a second instead of one per committed batch of the hall.
pub const TICK: Duration = Duration::from_millis(200);

/// What a stream gets from the hub.
#[derive(Debug, Clone)]
pub enum Published {
    /// One tick (its id is the view's sequence once applied), written
    /// once for every stream.
    Tick(Arc<Sent>),
    /// A new picture that is not the continuation of the last (the first,
    /// a new round, a restarted hall): send a snapshot.
    Reset,
}

/// The hub's outputs, shared with the HTTP handlers.
#[derive(Debug)]
pub struct Outputs {
    /// The view now (`None` until the first picture is due).
    pub view: watch::Receiver<Option<Arc<View>>>,
    /// The ticks, for the streams.
    pub events: broadcast::Sender<Published>,
    /// Set when the broadcast stops (the streams end).
    pub stop: watch::Receiver<bool>,
    /// The delay (ms): what is published is this much behind the hall.
    pub delay_ms: u64,
    /// Fresh pictures taken after the first (the hub fell behind the
    /// server's tap), for the log and the bench.
    pub pictures: AtomicU64,
}

impl Outputs {
    /// Outputs around `view`, with a channel of `buffer` ticks.
    pub fn new(
        view: watch::Receiver<Option<Arc<View>>>,
        buffer: usize,
        stop: watch::Receiver<bool>,
        delay_ms: u64,
    ) -> Outputs {
        let (events, _) = broadcast::channel(buffer.max(1));
        Outputs {
            view,
            events,
            stop,
            delay_ms,
            pictures: AtomicU64::new(0),
        }
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
    let delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX);
    let hub = Hub::new(config, stream_buffer, stop.clone(), delay_ms);
    let out = hub.outputs();
    tokio::spawn(run(feed, hub, delay, stop));
    out
}

async fn run(feed: PublicFeed, hub: Hub, delay: Duration, mut stop: watch::Receiver<bool>) {
    let mut queue: VecDeque<(Instant, Due)> = VecDeque::new();
    let mut rx: Option<mpsc::Receiver<Arc<Vec<PublicEvent>>>> = None;
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut subscribed = 0u64;
    loop {
        if rx.is_none() {
            match feed.subscribe() {
                Some((picture, r)) => {
                    subscribed += 1;
                    if subscribed > 1 {
                        let n = hub.out.pictures.fetch_add(1, Ordering::Relaxed) + 1;
                        tracing::info!(pictures = n, "the broadcast took a fresh picture");
                    }
                    queue.push_back((Instant::now() + delay, Due::Picture(picture)));
                    rx = Some(r);
                }
                None => return,
            }
        }
        tokio::select! {
            _ = stop.changed() => return,
            got = async { rx.as_mut()?.recv().await }, if rx.is_some() => match got {
                Some(batch) => queue.push_back((Instant::now() + delay, Due::Events(batch))),
                // The tap was dropped (we fell behind): a fresh picture.
                None => rx = None,
            },
            _ = tick.tick() => hub.release(&mut queue, Instant::now()),
        }
    }
}

/// The hub's publishing side: what it does with pictures and events once
/// they are due.
pub struct Hub {
    config: Arc<HallConfig>,
    out: Arc<Outputs>,
    view_tx: watch::Sender<Option<Arc<View>>>,
}

impl Hub {
    /// A hub with no view yet, its channel of `stream_buffer` ticks.
    pub fn new(
        config: Arc<HallConfig>,
        stream_buffer: usize,
        stop: watch::Receiver<bool>,
        delay_ms: u64,
    ) -> Hub {
        let (view_tx, view_rx) = watch::channel(None);
        let out = Arc::new(Outputs::new(view_rx, stream_buffer, stop, delay_ms));
        Hub {
            config,
            out,
            view_tx,
        }
    }

    /// What the HTTP side reads.
    pub fn outputs(&self) -> Arc<Outputs> {
        self.out.clone()
    }

    /// Publishes what is due at `now`: the events since the last tick as
    /// one tick; a picture where it comes among them.
    fn release(&self, queue: &mut VecDeque<(Instant, Due)>, now: Instant) {
        let mut batches: Vec<Arc<Vec<PublicEvent>>> = Vec::new();
        while queue.front().is_some_and(|(at, _)| *at <= now) {
            match queue.pop_front() {
                Some((_, Due::Events(b))) => batches.push(b),
                Some((_, Due::Picture(p))) => {
                    self.tick(&batches);
                    batches.clear();
                    self.picture(p);
                }
                None => break,
            }
        }
        self.tick(&batches);
    }

    /// One tick of `batches` (nothing when they hold nothing new).
    pub fn tick(&self, batches: &[Arc<Vec<PublicEvent>>]) {
        let Some(current) = self.view_tx.borrow().clone() else {
            return;
        };
        let (view, tables) = current.after(batches.iter().flat_map(|b| b.iter()));
        if view.seq == current.seq {
            return;
        }
        self.publish(view, current.seq, &tables);
    }

    fn publish(&self, view: View, base: u64, tables: &std::collections::BTreeSet<u16>) {
        let sent = Arc::new(crate::events::tick(&view, base, tables));
        self.view_tx.send_replace(Some(Arc::new(view)));
        let _ = self.out.events.send(Published::Tick(sent));
    }

    /// A picture: the first, a new round (a snapshot for every stream),
    /// or a fresh one of the same round after falling behind (a tick of
    /// the games that differ).
    pub fn picture(&self, p: PublicPicture) {
        let current = self.view_tx.borrow().clone();
        if let Some(current) = current {
            if let Some((view, tables)) = current.resync(p.round, p.seq, &p.games) {
                if view.seq != current.seq || !tables.is_empty() {
                    self.publish(view, current.seq, &tables);
                }
                return;
            }
        }
        let view = View::new(self.config.clone(), p.round, p.seq, p.games);
        self.view_tx.send_replace(Some(Arc::new(view)));
        let _ = self.out.events.send(Published::Reset);
    }
}
