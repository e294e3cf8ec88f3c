//! A peer that stopped reading (停止接收): a connection whose writer could
//! hand nothing to QUIC for [`STALL`] while it had something to send (no
//! flow-control credit, no acknowledgements) is closed with
//! [`proto::conn::CLOSE_STALLED`] and a reason, logged with the principal
//! (escaped), and — at most once per principal per [`ALERT_WINDOW_MS`] —
//! stored as a `Note::StoppedReading`, which raises an alert for the
//! arbiters. Its memory is already bounded (`room.rs`); closing gives it
//! back and tells the people in the hall.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use proto::conn::CLOSE_STALLED;
use proto::logsafe::escaped;

use crate::submit::Submitter;
use hall::record::{Note, Record};

/// How long a writer may make no progress, with bytes to send, before the
/// connection is closed.
pub const STALL: Duration = Duration::from_secs(10);

/// At most one alert per principal in this window.
pub const ALERT_WINDOW_MS: u64 = 60_000;

/// The reason sent with the close.
pub const REASON: &[u8] = b"stopped reading: nothing taken for 10 s";

/// When each principal's last stall alert was stored.
#[derive(Debug, Default)]
pub struct Stalls {
    last: Mutex<HashMap<String, u64>>,
}

impl Stalls {
    /// Whether a stall of `who` at `now` raises an alert (and notes it).
    fn alert(&self, who: &str, now: u64) -> bool {
        let Ok(mut last) = self.last.lock() else {
            return false;
        };
        match last.get(who) {
            Some(&at) if now.saturating_sub(at) < ALERT_WINDOW_MS => false,
            _ => {
                last.insert(who.to_string(), now);
                true
            }
        }
    }
}

/// Closes `connection` of `who`, which stopped reading with `queued` bytes
/// waiting, at `now` (Unix ms); logs it and alerts through `submitter`
/// (at most once per principal and window, counted in `stalls`).
pub async fn close(
    stalls: &Stalls,
    submitter: &Submitter,
    connection: &proto::shell::Connection,
    who: &str,
    queued: usize,
    now: u64,
) {
    tracing::warn!(
        who = %escaped(who),
        remote = %connection.remote_address(),
        queued,
        stall_s = STALL.as_secs(),
        "peer stopped reading (no flow-control credit, no acknowledgements): closing the connection"
    );
    connection.close(CLOSE_STALLED.into(), REASON);
    if stalls.alert(who, now) {
        let note = Note::StoppedReading {
            who: who.to_string(),
            after_s: u32::try_from(STALL.as_secs()).unwrap_or(u32::MAX),
        };
        submitter.submit_quiet(Record::Note(note), now).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_alert_per_principal_per_window() {
        let s = Stalls::default();
        assert!(s.alert("viewer:x", 1_000));
        assert!(!s.alert("viewer:x", 2_000));
        assert!(s.alert("chief:y", 2_000));
        assert!(s.alert("viewer:x", 1_000 + ALERT_WINDOW_MS));
    }
}
