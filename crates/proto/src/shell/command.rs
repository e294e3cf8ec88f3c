//! What a task asks of the server's QUIC shell's endpoint, whose state
//! lives on the shell's thread: a decision on a new connection (accept,
//! retry, refuse, ignore), a close, the stop. Queued here and carried out
//! at the thread's next turn (`driver.rs`), woken through the hub.

use super::conn::Connected;
use super::hub::Hub;
use bytes::Bytes;
use quinn_proto::VarInt;
use std::sync::{Arc, Mutex};

/// Something a task asks of the endpoint.
pub(crate) enum Command {
    Accept(quinn_proto::Incoming, Connected),
    Retry(quinn_proto::Incoming),
    Refuse(quinn_proto::Incoming),
    Ignore(quinn_proto::Incoming),
    /// Close every connection and refuse new ones.
    Close(VarInt, Bytes),
    /// The endpoint's handle is gone: close, drain, end the thread.
    Stop,
}

/// The queue of commands, beside the hub that wakes the thread.
pub(crate) struct Commands {
    hub: Arc<Hub>,
    list: Mutex<Vec<Command>>,
}

impl Commands {
    pub(crate) fn new(hub: Arc<Hub>) -> Commands {
        Commands {
            hub,
            list: Mutex::new(Vec::new()),
        }
    }

    pub(crate) fn push(&self, c: Command) {
        self.list.lock().unwrap_or_else(|e| e.into_inner()).push(c);
        self.hub.wake();
    }

    /// The commands queued (into `out`, swapped so the buffers are
    /// reused); after [`Hub::take`], whose flag clearing covers them.
    pub(crate) fn take(&self, out: &mut Vec<Command>) {
        std::mem::swap(
            &mut *self.list.lock().unwrap_or_else(|e| e.into_inner()),
            out,
        );
    }
}
