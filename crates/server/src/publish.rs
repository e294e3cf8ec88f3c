//! Console fan-out (推送): a subscribed console gets a snapshot of the hall,
//! then every delta, through its own bounded queue of pre-encoded frames.
//!
//! Publishing never waits: a delta is encoded once and offered to every
//! queue with `try_send`; a console whose queue is full (in frames,
//! [`CONSOLE_QUEUE`], or in bytes, [`CONSOLE_BYTES`]) is marked lagged and
//! skipped from then on, and its writer replaces everything it missed with a
//! fresh snapshot (`connection.rs`). So a slow or stuck console never slows
//! ingest. Deltas are published while the hall lock is held, and snapshots
//! are taken under the same lock, so a snapshot followed by the deltas queued
//! after it is always the complete, ordered picture. A viewer's queue (the
//! public display) gets the public part only ([`crate::viewer`]): its own
//! frame of a delta, encoded once for every viewer, or none.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use hall::picture::Part;
use proto::codec::encoded_len;
use proto::frame::encode_frame;
use proto::paging::PAGE_BYTES;
use proto::{Delta, HallView, ServerMsg};
use tokio::sync::mpsc;

/// Frames a console may have queued before it counts as lagging.
pub const CONSOLE_QUEUE: usize = 4_096;

/// Bytes of frames a console may have queued before it counts as lagging
/// (256 KiB: a console that keeps up holds a few frames; one that does not
/// gets a fresh snapshot when it reads again, or is closed, `stall.rs`).
pub const CONSOLE_BYTES: usize = 256 * 1024;

/// An encoded frame shared by every console.
pub type Frame = Arc<Vec<u8>>;

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

    /// Whether the console fell behind and needs a fresh snapshot.
    pub fn lagged(&self) -> bool {
        self.lagged.load(Ordering::Acquire)
    }

    /// Clears the lagged mark (call with the hall locked, its queue
    /// emptied, before the snapshot).
    pub fn clear_lagged(&self) {
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
}

/// Every subscribed console.
#[derive(Debug, Default)]
pub struct Publisher {
    subs: Mutex<Vec<Arc<Subscriber>>>,
    next: AtomicU64,
    /// Frames dropped because a console lagged (for figures).
    pub dropped: AtomicU64,
}

impl Publisher {
    /// Registers a console (`public`: a viewer, sent the public part
    /// only); returns it and the receiving end of its queue. Call with the
    /// hall locked, and take the snapshot under the same lock.
    pub fn subscribe(&self, public: bool) -> (Arc<Subscriber>, mpsc::Receiver<Frame>) {
        let (tx, rx) = mpsc::channel(CONSOLE_QUEUE);
        let sub = Arc::new(Subscriber {
            id: self.next.fetch_add(1, Ordering::Relaxed) + 1,
            tx,
            lagged: AtomicBool::new(false),
            public,
            queued: AtomicUsize::new(0),
        });
        if let Ok(mut subs) = self.subs.lock() {
            subs.push(sub.clone());
        }
        (sub, rx)
    }

    /// Removes a console.
    pub fn unsubscribe(&self, id: u64) {
        if let Ok(mut subs) = self.subs.lock() {
            subs.retain(|s| s.id != id);
        }
    }

    /// Number of consoles subscribed.
    pub fn len(&self) -> usize {
        self.subs.lock().map(|s| s.len()).unwrap_or(0)
    }

    /// Whether no console is subscribed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Offers a whole new picture of the hall to every console (a new
    /// round: every table changed), without waiting (call with the hall
    /// locked). Encoded once for the arbiters and once for the viewers. A
    /// console whose queue is full is marked lagged and gets its snapshot
    /// from its writer instead.
    ///
    /// A hall larger than a page ([`PAGE_BYTES`]) is not encoded here:
    /// every console is marked lagged and woken with an empty frame, and
    /// its writer sends the new picture in pages (`pages.rs`), one page at
    /// a time, instead of every queue holding the whole hall.
    pub fn publish_snapshot(&self, view: &HallView) {
        let Ok(subs) = self.subs.lock() else {
            return;
        };
        if encoded_len(view) > PAGE_BYTES {
            for s in subs.iter() {
                s.lagged.store(true, Ordering::Release);
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
            let sent = frame.as_ref().map(|f| s.tx.try_send(f.clone()));
            if !matches!(sent, Some(Ok(()))) {
                s.lagged.store(true, Ordering::Release);
            }
        }
    }

    /// Offers `deltas` to every console without waiting (call with the hall locked).
    pub fn publish(&self, deltas: Vec<Delta>) {
        if deltas.is_empty() {
            return;
        }
        let Ok(subs) = self.subs.lock() else {
            return;
        };
        if subs.is_empty() {
            return;
        }
        let viewers = subs.iter().any(|s| s.public);
        for d in deltas {
            let public = match viewers {
                true => crate::viewer::delta(&d).and_then(encode),
                false => None,
            };
            let Some(full) = encode(d) else {
                continue;
            };
            for s in subs.iter() {
                if s.lagged() {
                    continue;
                }
                let frame = match (s.public, &public) {
                    (false, _) => &full,
                    (true, Some(f)) => f,
                    (true, None) => continue,
                };
                if s.queued() + frame.len() > CONSOLE_BYTES {
                    s.lagged.store(true, Ordering::Release);
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                match s.tx.try_send(frame.clone()) {
                    Ok(()) => {
                        s.queued.fetch_add(frame.len(), Ordering::AcqRel);
                    }
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        s.lagged.store(true, Ordering::Release);
                        self.dropped.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => {}
                }
            }
        }
    }
}

/// A delta's frame, encoded once for every queue it goes to.
fn encode(d: Delta) -> Option<Frame> {
    match encode_frame(&ServerMsg::Delta(d)) {
        Ok(f) => Some(Arc::new(f)),
        Err(e) => {
            tracing::error!(error = %e, "delta does not encode; not published");
            None
        }
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
}
