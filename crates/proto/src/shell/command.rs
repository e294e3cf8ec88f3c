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

impl Command {
    /// Answers a command the ended thread will not carry out: an accepting
    /// task learns the endpoint is closed (the attempt itself is dropped).
    fn answer_closed(self) {
        if let Command::Accept(_, answer) = self {
            let _ = answer.send(Err(quinn_proto::ConnectionError::LocallyClosed));
        }
    }
}

/// The queue of commands, beside the hub that wakes the thread.
pub(crate) struct Commands {
    hub: Arc<Hub>,
    list: Mutex<Queue>,
}

#[derive(Default)]
struct Queue {
    items: Vec<Command>,
    /// The thread has ended: commands are answered here.
    closed: bool,
}

impl Commands {
    pub(crate) fn new(hub: Arc<Hub>) -> Commands {
        Commands {
            hub,
            list: Mutex::new(Queue::default()),
        }
    }

    pub(crate) fn push(&self, c: Command) {
        let late = {
            let mut q = self.list.lock().unwrap_or_else(|e| e.into_inner());
            if q.closed {
                Some(c)
            } else {
                q.items.push(c);
                None
            }
        };
        match late {
            Some(c) => c.answer_closed(),
            None => self.hub.wake(),
        }
    }

    /// The thread ends: what is queued, and what comes later, is answered
    /// as closed.
    pub(crate) fn close(&self) {
        let items = {
            let mut q = self.list.lock().unwrap_or_else(|e| e.into_inner());
            q.closed = true;
            std::mem::take(&mut q.items)
        };
        items.into_iter().for_each(Command::answer_closed);
    }

    /// The commands queued (into `out`, swapped so the buffers are
    /// reused); after [`Hub::take`], whose flag clearing covers them.
    pub(crate) fn take(&self, out: &mut Vec<Command>) {
        std::mem::swap(
            &mut self.list.lock().unwrap_or_else(|e| e.into_inner()).items,
            out,
        );
    }
}
