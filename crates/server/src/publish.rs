//! Console fan-out (推送): a subscribed console gets a snapshot of the hall,
//! then every delta, through its own bounded queue of pre-encoded frames.
//!
//! Publishing never waits: the committer adds a batch's deltas to the
//! tick's pending list ([`Publisher::publish`]), and the tick is sent at
//! most every [`TICK`], coalesced (a table's last view of the tick only,
//! `tick.rs`), as `Deltas` frames encoded once for the arbiters and once
//! for the viewers, offered to every queue with `try_send`: by the
//! committer itself when the last tick is [`TICK`] old (so the first
//! delta after a quiet tick goes out at once, and under load no task
//! wake-up stands between a commit and the consoles), else by the
//! fan-out task ([`Publisher::run_ticks`]) when it is due. An idle hall
//! wakes no timer.
//!
//! A console whose queue is full (in frames, [`CONSOLE_QUEUE`], or in
//! bytes, [`CONSOLE_BYTES`]) is marked lagged and offered no frame from
//! then on: instead the publisher remembers what it missed
//! (`catchup.rs`): WHICH tables changed (a bitset over table numbers, so
//! bounded by the hall's tables, not by events) and the other deltas
//! (alerts, claims, audit rows, pauses) in order, up to
//! [`crate::catchup::HELD_BYTES`]. When its writer has room again it sends
//! the frames its queue held, the held deltas and the CURRENT view of each
//! changed table (read under the hall lock for those tables only), as
//! ordinary `Deltas` frames of a page each, then the live ticks again
//! ([`Publisher::catch_up`], `writer.rs`). Only a new round (every table
//! replaced) or held deltas past their bound make it a whole snapshot. So
//! a slow or stuck console never slows ingest, and what a lagging console
//! costs is bounded by the tables that changed times a view, not by the
//! hall.
//!
//! The picture stays whole: deltas are added while the hall lock is held,
//! and before any snapshot or catch-up is read under that lock (a console
//! subscribing, a lagging console's catch-up, a new round) the pending
//! tick is sent first to the consoles already subscribed
//! ([`Publisher::subscribe`], [`Publisher::catch_up`],
//! [`Publisher::publish_snapshot`]), so a snapshot (or a catch-up) followed
//! by what is queued after it is always the complete, ordered picture,
//! nothing twice (the argument: [`Publisher::catch_up`]). A table's view
//! goes as a step from the view it was last sent as (`Delta::TableStep`,
//! protocol 12) to every console that was sent that view, whole to the
//! others (`steps.rs`: each console's `since`, the first tick after its
//! picture). A viewer's queue
//! (the public display) gets the public part only ([`crate::viewer`]),
//! and so does what it is remembered to have missed.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use hall::picture::Part;
use proto::codec::encoded_len;
use proto::frame::encode_frame;
use proto::paging::PAGE_BYTES;
use proto::{Delta, HallView, ServerMsg};
use tokio::sync::{mpsc, Notify};

use crate::catchup::{Behind, Missed};
use crate::steps::Bases;
use crate::tick::Tick;
pub use crate::tick::TICK;

/// Catch-ups and whole snapshots sent to lagging consoles by every
/// publisher of this process (for `caipan bench hall --child-server`,
/// which reads them from the child: `caipan::memstats`).
#[derive(Debug, Default)]
pub struct Totals {
    /// Catch-ups by changed tables.
    pub catch_ups: AtomicU64,
    /// Whole snapshots.
    pub whole_snapshots: AtomicU64,
}

/// This process's [`Totals`].
pub static TOTALS: Totals = Totals {
    catch_ups: AtomicU64::new(0),
    whole_snapshots: AtomicU64::new(0),
};

/// Frames a console may have queued before it counts as lagging.
pub const CONSOLE_QUEUE: usize = 4_096;

/// Bytes of frames a console may have queued before it counts as lagging
/// (256 KiB: a console that keeps up holds a few frames; one that does not
/// is caught up by the tables that changed when it reads again, or is
/// closed, `stall.rs`).
pub const CONSOLE_BYTES: usize = 256 * 1024;

pub use crate::tick::Frame;

/// The part of the hall a subscriber's pictures hold (`public`: a
/// viewer's, the tables only; [`crate::viewer`] takes out the rest).
pub fn part(public: bool) -> Part {
    match public {
        true => Part::Tables,
        false => Part::All,
    }
}

/// One subscribed console.
#[derive(Debug)]
pub struct Subscriber {
    /// Subscription id.
    pub id: u64,
    tx: mpsc::Sender<Frame>,
    lagged: AtomicBool,
    /// A viewer: sent the public part only.
    public: bool,
    /// Bytes of the frames in its queue.
    queued: AtomicUsize,
    /// What it missed while lagged (`catchup.rs`; changed with the
    /// subscribers locked).
    behind: Mutex<Behind>,
    /// The first tick it was sent after its picture (its snapshot or its
    /// catch-up): it holds the bases sent from then on (`steps.rs`; set
    /// with the subscribers locked).
    since: AtomicU64,
}

impl Subscriber {
    /// The hall view this subscriber may see of `view` (its snapshots).
    pub fn view(&self, view: HallView) -> HallView {
        match self.public {
            true => crate::viewer::snapshot(view),
            false => view,
        }
    }

    /// Whether it is a viewer's (the public part only).
    pub fn public(&self) -> bool {
        self.public
    }

    /// The part of the hall its pictures hold.
    pub fn part(&self) -> Part {
        part(self.public)
    }

    /// Whether the console fell behind and needs its catch-up (or a
    /// whole snapshot): [`Publisher::catch_up`].
    pub fn lagged(&self) -> bool {
        self.lagged.load(Ordering::Acquire)
    }

    /// What it missed.
    fn behind(&self) -> MutexGuard<'_, Behind> {
        self.behind.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks it lagged with nothing short of a whole snapshot due.
    fn lag_whole(&self) {
        self.behind().set_whole();
        self.lagged.store(true, Ordering::Release);
    }

    /// Clears the lagged mark (with the hall and the subscribers locked,
    /// its queue emptied, before the catch-up: [`Publisher::catch_up`]).
    fn clear_lagged(&self) {
        self.queued.store(0, Ordering::Release);
        self.lagged.store(false, Ordering::Release);
    }

    /// The writer took a frame of `len` bytes from the queue.
    pub fn taken(&self, len: usize) {
        let _ = self
            .queued
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |q| {
                Some(q.saturating_sub(len))
            });
    }

    /// Bytes of the frames in its queue.
    pub fn queued(&self) -> usize {
        self.queued.load(Ordering::Acquire)
    }

    /// Offers a tick's frames in order; when its queue is full (in frames
    /// or bytes) marks it lagged (and counts the frame dropped), and from
    /// then on remembers what the frames left out hold instead
    /// ([`Behind::record`]: the tables changed, the other deltas in order).
    fn offer(&self, tick: &Tick, dropped: &AtomicU64) {
        for (first, frame) in &tick.frames {
            if !self.lagged() {
                if self.queued() + frame.len() <= CONSOLE_BYTES {
                    match self.tx.try_send(frame.clone()) {
                        Ok(()) => {
                            self.queued.fetch_add(frame.len(), Ordering::AcqRel);
                            continue;
                        }
                        Err(mpsc::error::TrySendError::Full(_)) => {}
                        Err(mpsc::error::TrySendError::Closed(_)) => return,
                    }
                }
                self.lagged.store(true, Ordering::Release);
                dropped.fetch_add(1, Ordering::Relaxed);
            }
            self.behind().record(&tick.deltas[*first..]);
            return;
        }
    }
}

/// Every subscribed console, and the deltas of the tick not yet sent.
///
/// Locks, always in this order: the hall, `subs`, `pending`. The
/// committer takes only `pending` (with the hall locked), so encoding a
/// tick (with `subs` locked) never holds up a commit.
#[derive(Debug, Default)]
pub struct Publisher {
    subs: Mutex<Vec<Arc<Subscriber>>>,
    /// Consoles subscribed (read without the lock by [`Publisher::publish`]).
    count: AtomicUsize,
    /// The tick's deltas, in the order published.
    pending: Mutex<Vec<Delta>>,
    /// Each table's last sent view and the ticks' numbers (`steps.rs`;
    /// locked only with `subs` locked, after it).
    bases: Mutex<Bases>,
    /// Wakes the fan-out task when the first delta of a tick comes.
    wake: Notify,
    next: AtomicU64,
    /// Frames dropped because a console lagged (for figures).
    pub dropped: AtomicU64,
    /// Catch-ups sent to lagging consoles ([`Publisher::catch_up`]).
    pub catch_ups: AtomicU64,
    /// Whole snapshots sent to lagging consoles instead (a new round over
    /// a page, or held rows past [`crate::catchup::HELD_BYTES`]).
    pub whole_snapshots: AtomicU64,
    /// Ticks sent (for figures and tests).
    pub ticks: AtomicU64,
    /// When the last tick was sent ([`since_start`] ns; 0: never).
    last_tick: AtomicU64,
    /// The tick's length if not [`TICK`] (tests).
    tick: Option<std::time::Duration>,
}

/// Nanoseconds since the first call in this process (at least 1).
fn since_start() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(std::time::Instant::now);
    u64::try_from(start.elapsed().as_nanos())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// The [`since_start`] instant `ns` as a tokio instant.
fn instant_of(ns: u64) -> tokio::time::Instant {
    let now = since_start();
    let ago = std::time::Duration::from_nanos(now.saturating_sub(ns));
    tokio::time::Instant::now()
        .checked_sub(ago)
        .unwrap_or_else(tokio::time::Instant::now)
}

impl Publisher {
    /// Registers a console (`public`: a viewer, sent the public part
    /// only); returns it and the receiving end of its queue. Call with the
    /// hall locked, and take the snapshot under the same lock: the pending
    /// tick goes to the consoles subscribed before it first (the snapshot
    /// holds it).
    pub fn subscribe(&self, public: bool) -> (Arc<Subscriber>, mpsc::Receiver<Frame>) {
        let (tx, rx) = mpsc::channel(CONSOLE_QUEUE);
        let mut subs = self.subscribers();
        self.flush_to(&subs);
        let sub = Arc::new(Subscriber {
            id: self.next.fetch_add(1, Ordering::Relaxed) + 1,
            tx,
            lagged: AtomicBool::new(false),
            public,
            queued: AtomicUsize::new(0),
            behind: Mutex::default(),
            since: AtomicU64::new(self.bases().next_tick()),
        });
        subs.push(sub.clone());
        self.count.store(subs.len(), Ordering::Release);
        (sub, rx)
    }

    /// Removes a console.
    pub fn unsubscribe(&self, id: u64) {
        let mut subs = self.subscribers();
        subs.retain(|s| s.id != id);
        self.count.store(subs.len(), Ordering::Release);
        if subs.is_empty() {
            // Nobody holds a base any more (the next subscriber's
            // snapshot holds the tables).
            self.bases().forget();
        }
    }

    /// Takes what a lagged console missed and clears its mark: the
    /// pending tick first sent to every console (this one's part of it
    /// remembered as missed), then the frames in its queue taken out (they
    /// were queued before anything it missed) and what it missed taken
    /// ([`Missed`]). Call with the hall locked, and read what the catch-up
    /// sends under the same lock: the changed tables' views
    /// ([`hall::Hall::views_of`]), or for [`Missed::Whole`] the picture
    /// (then the queued frames are dropped: the snapshot holds them).
    ///
    /// Why the console then holds the server's hall, nothing missing,
    /// stale, twice or out of order:
    /// - every delta is published with the hall lock held, and a tick
    ///   reaches a console only through `offer`, with the subscribers
    ///   locked; so for each console every delta is, at any moment, in
    ///   its queue (a prefix of what it was sent, in order), or remembered
    ///   in its [`Behind`] (everything after that prefix: once lagged, a
    ///   console is offered nothing more until this call clears the
    ///   mark), or pending, or not yet published;
    /// - here, with the hall and the subscribers locked, the pending tick
    ///   is flushed (so nothing is pending) and no delta can be published
    ///   until the hall is unlocked; the queue's frames and the
    ///   remembered deltas are taken and the mark cleared together;
    /// - the writer sends, in this order: the queue's frames, the held
    ///   non-table deltas (in the order published), the changed tables'
    ///   views as the hall holds them under this same lock (each the last
    ///   view of every delta it replaces, the same view a snapshot taken
    ///   now would hold), then what its queue receives after (published
    ///   after the hall is unlocked, so later than every view it was
    ///   sent). A table view replaces the console's whole view of that
    ///   table, and the console applies the non-table deltas apart from
    ///   the tables, so sending each changed table once, at its current
    ///   view, after the held rows, ends with what applying every missed
    ///   delta in order would have.
    pub fn catch_up(&self, sub: &Subscriber, rx: &mut mpsc::Receiver<Frame>) -> Missed {
        let subs = self.subscribers();
        self.flush_to(&subs);
        let mut queued = Vec::new();
        while let Ok(f) = rx.try_recv() {
            queued.push(f);
        }
        let missed = sub.behind().take(queued);
        sub.clear_lagged();
        // What it is sent now is its picture: the bases sent before are
        // not all held (a table's catch-up view may be later than its base).
        sub.since.store(self.bases().next_tick(), Ordering::Release);
        let count = match missed {
            Missed::Whole => &self.whole_snapshots,
            Missed::Changed { .. } => &self.catch_ups,
        };
        count.fetch_add(1, Ordering::Relaxed);
        let total = match missed {
            Missed::Whole => &TOTALS.whole_snapshots,
            Missed::Changed { .. } => &TOTALS.catch_ups,
        };
        total.fetch_add(1, Ordering::Relaxed);
        // A moment on the bench's timeline (`store::markers`).
        match &missed {
            Missed::Whole => store::markers::moment("console_whole_snapshot", 0),
            Missed::Changed { tables, .. } => {
                store::markers::moment("console_catch_up", tables.len() as u64);
            }
        }
        missed
    }

    /// Number of consoles subscribed.
    pub fn len(&self) -> usize {
        self.subscribers().len()
    }

    /// Whether no console is subscribed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Offers a whole new picture of the hall to every console (a new
    /// round: every table changed), without waiting (call with the hall
    /// locked). Encoded once for the arbiters and once for the viewers. A
    /// console whose queue is full, or that is already lagged, is marked
    /// for a whole snapshot and gets it from its writer instead.
    ///
    /// A hall larger than a page ([`PAGE_BYTES`]) is not encoded here:
    /// every console is marked lagged and woken with an empty frame, and
    /// its writer sends the new picture in pages (`pages.rs`), one page at
    /// a time, instead of every queue holding the whole hall.
    pub fn publish_snapshot(&self, view: &HallView) {
        let subs = self.subscribers();
        // The deltas before the new picture go before it.
        self.flush_to(&subs);
        // Every table replaced: no step from a view of the round before.
        self.bases().forget();
        if encoded_len(view) > PAGE_BYTES {
            for s in subs.iter() {
                s.lag_whole();
                let _ = s.tx.try_send(Arc::new(Vec::new()));
            }
            return;
        }
        let encoded = |public: bool| {
            if !subs.iter().any(|s| s.public == public) {
                return None;
            }
            let view = match public {
                true => crate::viewer::snapshot(view.clone()),
                false => view.clone(),
            };
            match encode_frame(&ServerMsg::Snapshot(Box::new(view))) {
                Ok(f) => Some(Arc::new(f)),
                Err(e) => {
                    tracing::error!(error = %e, public, "snapshot does not encode; consoles marked lagged");
                    None
                }
            }
        };
        let (full, public) = (encoded(false), encoded(true));
        for s in subs.iter() {
            let frame = match s.public {
                true => &public,
                false => &full,
            };
            // A console already behind is sent the new picture whole by
            // its writer (what it missed is of the round before).
            if s.lagged() {
                s.lag_whole();
                let _ = s.tx.try_send(Arc::new(Vec::new()));
                continue;
            }
            match frame.as_ref().map(|f| (f.len(), s.tx.try_send(f.clone()))) {
                Some((len, Ok(()))) => {
                    s.queued.fetch_add(len, Ordering::AcqRel);
                }
                _ => s.lag_whole(),
            }
        }
    }

    /// Adds `deltas` to the tick without waiting (call with the hall
    /// locked). When the last tick went out at least [`TICK`] ago the
    /// tick is sent here and now (by the committer: no task to wake, the
    /// first delta after a quiet tick has no delay); else the tick's first
    /// delta wakes the fan-out task, which sends it when it is due.
    pub fn publish(&self, deltas: Vec<Delta>) {
        if deltas.is_empty() || self.count.load(Ordering::Acquire) == 0 {
            // Nobody to tell: the next subscriber's snapshot holds them.
            return;
        }
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let first = pending.is_empty();
        pending.extend(deltas);
        drop(pending);
        let last = self.last_tick.load(Ordering::Acquire);
        let tick = u64::try_from(self.tick().as_nanos()).unwrap_or(u64::MAX);
        if last == 0 || since_start().saturating_sub(last) >= tick {
            self.flush();
        } else if first {
            self.wake.notify_one();
        }
    }

    /// Sends the pending tick to every console now.
    pub fn flush(&self) {
        self.flush_to(&self.subscribers());
    }

    /// A publisher whose ticks are `tick` long (tests: [`TICK`] otherwise).
    pub fn with_tick(tick: std::time::Duration) -> Publisher {
        Publisher {
            tick: Some(tick),
            ..Publisher::default()
        }
    }

    fn tick(&self) -> std::time::Duration {
        self.tick.unwrap_or(TICK)
    }

    /// The subscribers, locked (a panic elsewhere while they were locked
    /// left the list whole: every change to it is one push or retain).
    fn subscribers(&self) -> MutexGuard<'_, Vec<Arc<Subscriber>>> {
        self.subs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The tables' bases, locked (call with the subscribers locked).
    fn bases(&self) -> MutexGuard<'_, Bases> {
        self.bases.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tables whose last sent view is kept as a base (for figures and
    /// tests).
    pub fn bases_kept(&self) -> usize {
        self.bases().kept()
    }

    /// The fan-out task: woken by a tick's first delta that was not sent
    /// at once, sends the tick when the last one is [`TICK`] old (unless
    /// the committer sent it first); never wakes while nothing is pending.
    pub async fn run_ticks(&self) {
        loop {
            self.wake.notified().await;
            let last = self.last_tick.load(Ordering::Acquire);
            tokio::time::sleep_until(instant_of(last) + self.tick()).await;
            self.flush();
        }
    }

    /// Sends the pending tick to `subs` (the subscribers, locked): its
    /// deltas coalesced, a table's view as a step to the consoles that
    /// hold its base (`steps.rs`), framed once per audience (the arbiters,
    /// the viewers; a console just given its picture apart), offered to
    /// every console that is not lagged.
    fn flush_to(&self, subs: &MutexGuard<'_, Vec<Arc<Subscriber>>>) {
        // The next tick's list made as large as this one's: the committer
        // adds to it under the hall's lock, without growing it by copies.
        let deltas = {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            let room = pending.len();
            std::mem::replace(&mut *pending, Vec::with_capacity(room))
        };
        if deltas.is_empty() || subs.is_empty() {
            return;
        }
        self.last_tick.store(since_start(), Ordering::Release);
        let deltas = crate::tick::coalesce(deltas);
        let mut bases = self.bases();
        let steps = bases.steps(&deltas);
        // Each audience's tick, encoded once: (public, since) → tick.
        let mut ticks: Vec<((bool, u64), Tick)> = Vec::with_capacity(2);
        for s in subs.iter() {
            let key = (s.public, steps.audience(s.since.load(Ordering::Acquire)));
            let at = match ticks.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    let tick = crate::tick::paged(steps.deltas(&deltas, key.1, key.0));
                    ticks.push((key, tick));
                    ticks.len() - 1
                }
            };
            s.offer(&ticks[at].1, &self.dropped);
        }
        bases.sent(deltas);
        self.ticks.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_marks_the_console_lagged_without_blocking() {
        let p = Publisher::default();
        let (sub, mut rx) = p.subscribe(false);
        for i in 0..(CONSOLE_QUEUE as u64 + 10) {
            p.publish(vec![Delta::AlertAcked {
                id: i,
                by: "x".into(),
            }]);
            p.flush();
        }
        assert!(sub.lagged());
        assert_eq!(p.dropped.load(Ordering::Relaxed), 1);
        let mut n = 0;
        while rx.try_recv().is_ok() {
            n += 1;
        }
        assert_eq!(n, CONSOLE_QUEUE);
        p.unsubscribe(sub.id);
        assert!(p.is_empty());
    }

    #[test]
    fn a_console_over_its_bytes_is_lagged_before_its_frame_count() {
        let p = Publisher::default();
        let (sub, mut rx) = p.subscribe(false);
        let big = "字".repeat(10_000);
        let mut sent = 0;
        while !sub.lagged() {
            p.publish(vec![Delta::AlertAcked {
                id: sent,
                by: big.clone(),
            }]);
            p.flush();
            sent += 1;
        }
        assert!(sent < 20, "{sent} frames of 30 KB");
        assert!(sub.queued() <= CONSOLE_BYTES);
        let mut bytes = 0;
        while let Ok(f) = rx.try_recv() {
            bytes += f.len();
            sub.taken(f.len());
        }
        assert!(
            bytes <= CONSOLE_BYTES && bytes > CONSOLE_BYTES / 2,
            "{bytes}"
        );
        assert_eq!(sub.queued(), 0);
    }

    fn deltas(f: &Frame) -> Vec<Delta> {
        use proto::codec::WireMessage;
        match ServerMsg::decode(&f[proto::limits::LEN_PREFIX..]) {
            Ok(ServerMsg::Deltas(ds)) => ds,
            other => panic!("{other:?}"),
        }
    }

    fn received(rx: &mut mpsc::Receiver<Frame>) -> Vec<Vec<Delta>> {
        let mut out = Vec::new();
        while let Ok(f) = rx.try_recv() {
            out.push(deltas(&f));
        }
        out
    }

    #[test]
    fn a_tick_goes_out_as_one_frame_coalesced_and_cut_for_viewers() {
        use crate::tick::tests::{alert, view};
        let p = Publisher::with_tick(std::time::Duration::from_secs(3_600));
        let (_arbiter, mut full) = p.subscribe(false);
        let (_viewer, mut public) = p.subscribe(true);
        // The first delta of a quiet hall goes out at once.
        p.publish(vec![alert(0)]);
        assert_eq!(received(&mut full), vec![vec![alert(0)]]);
        assert!(received(&mut public).is_empty());
        p.publish(vec![view(1, 1), view(2, 1)]);
        p.publish(vec![view(1, 2), alert(3)]);
        p.publish(vec![view(1, 3), view(1, 4), view(1, 5)]);
        assert!(received(&mut full).is_empty(), "nothing before the tick");
        p.flush();
        assert_eq!(
            received(&mut full),
            vec![vec![view(2, 1), alert(3), view(1, 5)]]
        );
        let cut = |d: Delta| crate::viewer::delta(&d).expect("a table is public");
        assert_eq!(
            received(&mut public),
            vec![vec![cut(view(2, 1)), cut(view(1, 5))]]
        );
        assert_eq!(p.ticks.load(Ordering::Relaxed), 2);
        // A tick of what viewers may not see sends them nothing.
        p.publish(vec![alert(4)]);
        p.flush();
        assert_eq!(received(&mut full), vec![vec![alert(4)]]);
        assert!(received(&mut public).is_empty());
    }

    #[test]
    fn a_snapshot_taken_after_subscribe_or_resync_is_followed_by_nothing_it_holds() {
        use crate::tick::tests::{alert, step, view};
        let p = Publisher::with_tick(std::time::Duration::from_secs(3_600));
        let (first, mut first_rx) = p.subscribe(false);
        p.publish(vec![view(1, 0)]);
        assert_eq!(received(&mut first_rx), vec![vec![view(1, 0)]]);
        p.publish(vec![view(1, 1), alert(1)]);
        // A second console subscribes (its snapshot holds the pending
        // tick): the first console gets the tick now, the second never.
        let (_second, mut second_rx) = p.subscribe(false);
        // (It holds table 1's last view: a step.)
        assert_eq!(received(&mut first_rx), vec![vec![step(1, 0, 1), alert(1)]]);
        p.publish(vec![view(1, 2)]);
        p.flush();
        // The second's snapshot came after table 1's base: the whole view.
        assert_eq!(received(&mut second_rx), vec![vec![view(1, 2)]]);
        assert_eq!(received(&mut first_rx), vec![vec![step(1, 1, 2)]]);
        // The first falls behind (a new round's picture it had no room
        // for); its catch-up sends the pending tick to the second and
        // empties the first's queue: its whole snapshot holds both.
        p.publish(vec![alert(2)]);
        p.flush();
        first.lag_whole();
        p.publish(vec![view(1, 3)]);
        assert!(matches!(p.catch_up(&first, &mut first_rx), Missed::Whole));
        assert!(!first.lagged());
        assert!(received(&mut first_rx).is_empty());
        assert_eq!(
            received(&mut second_rx),
            vec![vec![alert(2)], vec![step(1, 2, 3)]]
        );
        // After its whole snapshot the first holds no base it was sent:
        // the whole view; the second a step.
        p.publish(vec![view(1, 4)]);
        p.flush();
        assert_eq!(received(&mut first_rx), vec![vec![view(1, 4)]]);
        assert_eq!(received(&mut second_rx), vec![vec![step(1, 3, 4)]]);
        assert_eq!(p.whole_snapshots.load(Ordering::Relaxed), 1);
    }

    /// Fills `sub`'s queue with ticks of one big alert until it lags;
    /// returns the alerts queued.
    fn lag(p: &Publisher, sub: &Subscriber, from: u64) -> u64 {
        let mut id = from;
        while !sub.lagged() {
            p.publish(vec![Delta::AlertAcked {
                id,
                by: "字".repeat(10_000),
            }]);
            p.flush();
            id += 1;
        }
        id - from - 1
    }

    #[test]
    fn a_lagging_console_is_sent_its_queue_then_what_it_missed_by_table_then_the_rest() {
        use crate::tick::tests::{alert, view};
        let p = Publisher::with_tick(std::time::Duration::from_secs(3_600));
        let (slow, mut slow_rx) = p.subscribe(false);
        let (viewer, mut viewer_rx) = p.subscribe(true);
        let queued = lag(&p, &slow, 0);
        assert!(queued > 0 && !viewer.lagged());
        let (fast, mut fast_rx) = p.subscribe(false);
        let _ = received(&mut viewer_rx);
        // While it lags: table 1 changes five times, alerts and a pause
        // come between; the last tick is still pending at the catch-up.
        for plies in 1..=5 {
            p.publish(vec![view(1, plies), alert(100 + u64::from(plies))]);
            p.flush();
        }
        p.publish(vec![view(2, 1), Delta::HallPaused(None)]);
        assert!(slow.lagged());
        let Missed::Changed {
            queued: frames,
            held,
            tables,
        } = p.catch_up(&slow, &mut slow_rx)
        else {
            panic!("a catch-up, not a whole snapshot");
        };
        // Its queue's frames, in order, the alerts it had room for.
        assert_eq!(frames.len() as u64, queued);
        assert!(frames.iter().enumerate().all(
            |(i, f)| matches!(&deltas(f)[..], [Delta::AlertAcked { id, .. }] if *id == i as u64)
        ));
        // Table 1 once (its view read from the hall), every other delta
        // in order, the pending tick's included.
        assert_eq!(tables, vec![1, 2]);
        // The alert whose frame found no room first.
        assert!(matches!(&held[0], Delta::AlertAcked { id, .. } if *id == queued));
        let mut want: Vec<Delta> = (1..=5).map(|i| alert(100 + i)).collect();
        want.push(Delta::HallPaused(None));
        assert_eq!(held[1..], want);
        assert!(!slow.lagged() && received(&mut slow_rx).is_empty());
        // The pending tick went to the others when it was taken.
        let fast_got: Vec<Delta> = received(&mut fast_rx).into_iter().flatten().collect();
        assert_eq!(fast_got.last(), Some(&Delta::HallPaused(None)));
        assert!(!fast.lagged());
        // Then the live ticks again.
        p.publish(vec![view(3, 1)]);
        p.flush();
        assert_eq!(received(&mut slow_rx), vec![vec![view(3, 1)]]);
        assert_eq!(p.catch_ups.load(Ordering::Relaxed), 1);
        assert_eq!(p.whole_snapshots.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_lagging_viewer_remembers_the_public_cut_only() {
        use crate::tick::tests::{alert, view};
        let p = Publisher::with_tick(std::time::Duration::from_secs(3_600));
        let (viewer, mut rx) = p.subscribe(true);
        // A viewer's queue fills with tables only.
        let mut plies = 0;
        while !viewer.lagged() {
            plies += 1;
            // (A new board each time: the steps are as large.)
            let big = |t: u16| match view(t, plies) {
                Delta::Table(mut v) => {
                    Arc::make_mut(&mut v).fen = format!("{plies}{}", "x".repeat(20_000));
                    Delta::Table(v)
                }
                d => d,
            };
            p.publish(vec![big(1), big(2)]);
            p.flush();
        }
        p.publish(vec![
            alert(1),
            view(7, 1),
            Delta::HallPaused(Some(proto::PauseInfo {
                by: "chief".into(),
                reason: "noise".into(),
            })),
        ]);
        p.flush();
        let Missed::Changed { held, tables, .. } = p.catch_up(&viewer, &mut rx) else {
            panic!("a catch-up");
        };
        assert_eq!(tables, vec![1, 2, 7]);
        assert_eq!(
            held,
            vec![
                crate::viewer::delta(&Delta::HallPaused(Some(proto::PauseInfo {
                    by: "chief".into(),
                    reason: "noise".into(),
                })))
                .expect("a pause is public")
            ]
        );
    }

    #[test]
    fn a_new_round_over_a_lagging_console_is_a_whole_snapshot() {
        use crate::tick::tests::view;
        let p = Publisher::with_tick(std::time::Duration::from_secs(3_600));
        let (sub, mut rx) = p.subscribe(false);
        lag(&p, &sub, 0);
        p.publish(vec![view(1, 1)]);
        p.flush();
        p.publish_snapshot(&hall::fixture::Fixture::default().hall().snapshot(0));
        assert!(sub.lagged());
        assert!(matches!(p.catch_up(&sub, &mut rx), Missed::Whole));
        assert!(rx.try_recv().is_err(), "its queue emptied");
    }

    #[tokio::test]
    async fn a_quiet_halls_delta_goes_out_at_once_the_next_when_the_tick_is_due() {
        use crate::tick::tests::{alert, step, view};
        let tick = std::time::Duration::from_millis(200);
        let p = Arc::new(Publisher::with_tick(tick));
        let (_sub, mut rx) = p.subscribe(false);
        let task = tokio::spawn({
            let p = p.clone();
            async move { p.run_ticks().await }
        });
        let next = |rx: &mut mpsc::Receiver<Frame>| {
            let f = rx.try_recv();
            f.ok().map(|f| deltas(&f))
        };
        for round in 1..=2u32 {
            // Quiet: sent by the publisher itself, nothing to wait for.
            // (The second round's views are steps from the first's.)
            let table = |t: u16, plies: u32| match round {
                1 => view(t, plies),
                _ => step(t, plies - 1, plies),
            };
            p.publish(vec![view(1, round)]);
            assert_eq!(next(&mut rx), Some(vec![table(1, round)]));
            // Within the tick: gathered, sent by the task when it is due.
            p.publish(vec![
                view(2, round),
                alert(u64::from(round)),
                view(2, round + 10),
            ]);
            let f = tokio::time::timeout(std::time::Duration::from_secs(5), rx.recv())
                .await
                .expect("the tick within 5 s")
                .expect("the queue open");
            assert_eq!(
                deltas(&f),
                vec![alert(u64::from(round)), table(2, round + 10)]
            );
            // Nothing more while the hall is quiet.
            tokio::time::sleep(tick * 2).await;
            assert_eq!(next(&mut rx), None);
        }
        assert_eq!(p.ticks.load(Ordering::Relaxed), 4);
        task.abort();
    }
}
