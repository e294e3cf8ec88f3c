//! The public tap (公开推送): the hall's public events (`hall::public`)
//! handed to the broadcast (crates/broadcast), which serves them to
//! followers on its own port. Like the console fan-out (`publish.rs`) it
//! never waits: each batch's events are offered with `try_send` to a
//! bounded queue; a tap that is full is dropped, its receiver ends after
//! what it holds, and the broadcast subscribes again (a fresh picture). A
//! subscription is taken under the hall lock with the picture it starts
//! from, so picture plus events is the complete, ordered story.

use std::sync::{Arc, Mutex};

use hall::public::{PublicEvent, PublicGame};
use tokio::sync::mpsc;

/// What the log says when a tap is dropped (the bench counts it).
pub const FELL_BEHIND: &str = "the broadcast fell behind the hall";

/// Batches of events a tap may have queued before it is dropped.
pub const TAP_QUEUE: usize = 1_024;

/// Every tap of one server (in practice the one broadcast).
#[derive(Debug, Default)]
pub struct PublicTaps {
    taps: Mutex<Vec<mpsc::Sender<Arc<Vec<PublicEvent>>>>>,
}

impl PublicTaps {
    /// Offers a batch's public events to every tap without waiting (call
    /// with the hall locked, in commit order); then, when the batch
    /// played another round (published or withdrawn), drops every tap:
    /// each receiver ends after what it holds and its broadcast subscribes
    /// again, to a picture of the round now played, not to events about
    /// boards it does not show.
    pub fn publish(&self, events: Vec<PublicEvent>, new_round: bool) {
        let Ok(mut taps) = self.taps.lock() else {
            return;
        };
        if taps.is_empty() {
            return;
        }
        if !events.is_empty() {
            let batch = Arc::new(events);
            taps.retain(|t| match t.try_send(batch.clone()) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    tracing::warn!("{FELL_BEHIND}: it takes a fresh picture");
                    false
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            });
        }
        if new_round {
            taps.clear();
        }
    }

    pub(crate) fn add(&self, tx: mpsc::Sender<Arc<Vec<PublicEvent>>>) {
        if let Ok(mut taps) = self.taps.lock() {
            taps.push(tx);
        }
    }
}

/// The picture a tap starts from: the public sequence it holds at and
/// every game as followers see it.
#[derive(Debug, Clone)]
pub struct PublicPicture {
    /// The round.
    pub round: u32,
    /// The public sequence (id of the last event the picture includes).
    pub seq: u64,
    /// Every game of the round.
    pub games: Vec<PublicGame>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use hall::public::PublicChange;
    use proto::ClockState;

    fn event(id: u64) -> PublicEvent {
        PublicEvent {
            id,
            at_ms: id,
            table: 1,
            change: PublicChange::Clock {
                clock: ClockState {
                    red_ms: 1,
                    black_ms: 1,
                    running: None,
                },
                status: hall::public::PublicStatus::Playing,
            },
        }
    }

    #[tokio::test]
    async fn another_round_ends_the_tap_after_what_it_holds() {
        let taps = PublicTaps::default();
        let (tx, mut rx) = mpsc::channel(TAP_QUEUE);
        taps.add(tx);
        taps.publish(vec![event(1)], false);
        taps.publish(vec![event(2)], true);
        // The tap is gone: this batch is not offered to it.
        taps.publish(vec![event(3)], false);
        let ids: Vec<u64> = std::iter::from_fn(|| rx.try_recv().ok())
            .map(|b| b[0].id)
            .collect();
        assert_eq!(
            ids,
            [1, 2],
            "the events before the round's change, in order"
        );
        assert!(rx.recv().await.is_none(), "then the receiver ends");
    }
}
