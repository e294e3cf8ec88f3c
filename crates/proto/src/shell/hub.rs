//! What the server's QUIC shell's thread and the tasks share: the list of
//! connections tasks touched, the decisions on new connections
//! ([`Command`]), and the wake socket the thread sleeps on. A task's
//! change to a connection costs a lock and, when the thread may be
//! asleep, one byte on the wake socket; changes made while a wake is
//! pending ride on it.

use super::conn::Connected;
use bytes::Bytes;
use quinn_proto::VarInt;
use std::os::unix::net::UnixDatagram;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Something a task asks of the endpoint (its state lives on the thread).
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

pub(crate) struct Hub {
    /// The tasks' end of the wake socket.
    wake: UnixDatagram,
    /// A wake byte was sent and the thread has not yet looked.
    notified: AtomicBool,
    touched: Mutex<Vec<usize>>,
    commands: Mutex<Vec<Command>>,
}

impl Hub {
    pub(crate) fn new(wake: UnixDatagram) -> Hub {
        Hub {
            wake,
            notified: AtomicBool::new(false),
            touched: Mutex::new(Vec::new()),
            commands: Mutex::new(Vec::new()),
        }
    }

    fn wake(&self) {
        if !self.notified.swap(true, Ordering::AcqRel) {
            // Full (the thread has a backlog of bytes to read): it wakes
            // anyway.
            let _ = self.wake.send(&[0]);
        }
    }

    /// Connection `handle` has something for the thread.
    pub(crate) fn touched(&self, handle: usize) {
        self.touched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(handle);
        self.wake();
    }

    pub(crate) fn command(&self, c: Command) {
        self.commands
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(c);
        self.wake();
    }

    /// The thread's turn: what was asked since the last one (into the
    /// given vectors, swapped so their buffers are reused). The flag is
    /// cleared first, so whatever comes after is woken for.
    pub(crate) fn take(&self, touched: &mut Vec<usize>, commands: &mut Vec<Command>) {
        self.notified.store(false, Ordering::Release);
        std::mem::swap(
            &mut *self.touched.lock().unwrap_or_else(|e| e.into_inner()),
            touched,
        );
        std::mem::swap(
            &mut *self.commands.lock().unwrap_or_else(|e| e.into_inner()),
            commands,
        );
    }
}
