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

/// Batches of events a tap may have queued before it is dropped.
pub const TAP_QUEUE: usize = 1_024;

/// Every tap of one server (in practice the one broadcast).
#[derive(Debug, Default)]
pub struct PublicTaps {
    taps: Mutex<Vec<mpsc::Sender<Arc<Vec<PublicEvent>>>>>,
}

impl PublicTaps {
    /// Offers a batch's public events to every tap without waiting (call
    /// with the hall locked, in commit order).
    pub fn publish(&self, events: Vec<PublicEvent>) {
        if events.is_empty() {
            return;
        }
        let Ok(mut taps) = self.taps.lock() else {
            return;
        };
        if taps.is_empty() {
            return;
        }
        let batch = Arc::new(events);
        taps.retain(|t| match t.try_send(batch.clone()) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::warn!("the broadcast fell behind the hall: it takes a fresh picture");
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        });
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
