//! What the server's QUIC shell's thread and the tasks share: the list of
//! connections tasks touched and the wake socket the thread sleeps on
//! (the decisions on new connections ride on it too: `command.rs`). A
//! task's change to a connection costs a lock and, when the thread may be
//! asleep, one byte on the wake socket; changes made while a wake is
//! pending ride on it.

use std::os::unix::net::UnixDatagram;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub(crate) struct Hub {
    /// The tasks' end of the wake socket.
    wake: UnixDatagram,
    /// A wake byte was sent and the thread has not yet looked.
    notified: AtomicBool,
    touched: Mutex<Vec<usize>>,
}

impl Hub {
    pub(crate) fn new(wake: UnixDatagram) -> Hub {
        Hub {
            wake,
            notified: AtomicBool::new(false),
            touched: Mutex::new(Vec::new()),
        }
    }

    /// Wakes the thread (unless a wake is pending already).
    pub(crate) fn wake(&self) {
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

    /// The thread's turn: the connections touched since the last one
    /// (into `touched`, swapped so the buffers are reused). The flag is
    /// cleared first, so whatever comes after is woken for; the commands
    /// (`command.rs`) are taken after this.
    pub(crate) fn take(&self, touched: &mut Vec<usize>) {
        self.notified.store(false, Ordering::Release);
        std::mem::swap(
            &mut *self.touched.lock().unwrap_or_else(|e| e.into_inner()),
            touched,
        );
    }
}
