//! The broadcast's handle on a running server (`RunningServer::public_feed`):
//! a fresh public picture of the hall and the public events after it
//! (`public.rs`), taken under the hall lock so nothing falls between them.

use std::sync::Arc;

use hall::public::PublicEvent;
use tokio::sync::mpsc;

use crate::public::{PublicPicture, TAP_QUEUE};
use crate::shared::Shared;

/// A handle the broadcast subscribes through (cheap to clone).
#[derive(Debug, Clone)]
pub struct PublicFeed {
    shared: Arc<Shared>,
}

impl PublicFeed {
    pub(crate) fn new(shared: Arc<Shared>) -> PublicFeed {
        PublicFeed { shared }
    }

    /// A fresh picture and the events after it, in order. `None` when the
    /// hall's state is not readable (the server is stopping).
    pub fn subscribe(&self) -> Option<(PublicPicture, mpsc::Receiver<Arc<Vec<PublicEvent>>>)> {
        let hall = self.shared.hall.lock().ok()?;
        let (tx, rx) = mpsc::channel(TAP_QUEUE);
        self.shared.public.add(tx);
        let (seq, games) = hall.public_games();
        let picture = PublicPicture {
            round: hall.info().round,
            seq,
            games,
        };
        Some((picture, rx))
    }
}
