//! The server's QUIC shell's thread: `quinn_proto`'s endpoint and every
//! connection's state machine driven by one OS thread (the I/O 外壳 over
//! the 状态机 core). It sleeps in `poll(2)` on the UDP socket and the wake
//! socket, the earliest connection deadline its timeout; receives in
//! batches; drives each connection that had something happen once per
//! batch (its events turned into task wakes, its endpoint events handed
//! over, its datagrams sent); runs the connections' timers from one heap;
//! and carries out what tasks ask (accept, retry, refuse, ignore a new
//! connection; close). The tasks' work on a connection is done by the
//! tasks themselves under the connection's lock (`conn.rs`).

use super::command::{Command, Commands};
use super::conn::{ConnRef, ConnState, Connected, Connection};
use super::hub::Hub;
use super::io::{handle, receive, wait, Datagrams, Io};
use super::timers::{disarm, Timers};
use super::Incoming;
use bytes::{Bytes, BytesMut};
use quinn_proto::{
    ConnectionError, ConnectionHandle, DatagramEvent, Endpoint, Event, StreamEvent, VarInt,
};
use quinn_udp::RecvMeta;
use std::collections::VecDeque;
use std::os::unix::net::UnixDatagram;
use std::sync::Arc;
use std::task::Waker;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// How long a stopping shell waits for its connections to drain.
pub const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// Datagrams one connection may send per drive before the others have
/// their turn (quinn's connection driver stops at 20 too).
const TRANSMITS_PER_DRIVE: usize = 20;

/// A connection as the thread holds it.
struct Slot {
    conn: Arc<ConnRef>,
    /// The deadline it has in the heap.
    armed: Option<Instant>,
    /// In the thread's list to drive.
    marked: bool,
}

pub(crate) struct Driver {
    pub(crate) io: Io,
    pub(crate) wake: UnixDatagram,
    pub(crate) hub: Arc<Hub>,
    pub(crate) commands_in: Arc<Commands>,
    pub(crate) endpoint: Endpoint,
    /// New connections for the accepting task; `None` once closed.
    pub(crate) incoming: Option<mpsc::Sender<Incoming>>,
    /// Connections open, for `wait_idle`.
    pub(crate) open_tx: watch::Sender<usize>,
    slots: Vec<Option<Slot>>,
    open: usize,
    /// (deadline, handle), earliest first; stale entries skipped.
    timers: Timers,
    dirty: VecDeque<usize>,
    send_buf: Vec<u8>,
    resp_buf: Vec<u8>,
    wakers: Vec<Waker>,
    touched: Vec<usize>,
    commands: Vec<Command>,
    /// When the close began (new connections refused since).
    closing: Option<Instant>,
    stopping: bool,
}

impl Driver {
    pub(crate) fn new(
        io: Io,
        wake: UnixDatagram,
        hub: Arc<Hub>,
        commands_in: Arc<Commands>,
        endpoint: Endpoint,
        incoming: mpsc::Sender<Incoming>,
        open_tx: watch::Sender<usize>,
    ) -> Driver {
        Driver {
            io,
            wake,
            hub,
            commands_in,
            endpoint,
            incoming: Some(incoming),
            open_tx,
            slots: Vec::new(),
            open: 0,
            timers: Timers::default(),
            dirty: VecDeque::new(),
            send_buf: Vec::new(),
            resp_buf: Vec::new(),
            wakers: Vec::new(),
            touched: Vec::new(),
            commands: Vec::new(),
            closing: None,
            stopping: false,
        }
    }

    pub(crate) fn run(mut self) {
        loop {
            let now = Instant::now();
            self.turn(now);
            self.fire_timers(now);
            self.drive_dirty(now);
            self.compact_timers();
            self.open_tx.send_if_modified(|n| {
                let changed = *n != self.open;
                *n = self.open;
                changed
            });
            if self.stopping {
                let since = self.closing.unwrap_or(now);
                if self.open == 0 || now >= since + CLOSE_GRACE {
                    break;
                }
            }
            let mut timeout = self
                .next_deadline()
                .map(|at| at.saturating_duration_since(now));
            if self.stopping {
                let left =
                    (self.closing.unwrap_or(now) + CLOSE_GRACE).saturating_duration_since(now);
                timeout = Some(timeout.map_or(left, |t| t.min(left)));
            }
            let ready = wait(
                [(&self.io.socket, libc::POLLIN), (&self.wake, libc::POLLIN)],
                timeout,
            );
            if ready[1] {
                let mut b = [0u8; 64];
                while self.wake.recv(&mut b).is_ok() {}
            }
            if ready[0] {
                receive(&mut self);
            }
        }
        // The rest is the drop's (`abandon`), which a panic runs too.
    }

    /// What tasks asked since the last turn.
    fn turn(&mut self, now: Instant) {
        let mut touched = std::mem::take(&mut self.touched);
        let mut commands = std::mem::take(&mut self.commands);
        self.hub.take(&mut touched);
        self.commands_in.take(&mut commands);
        for h in touched.drain(..) {
            self.mark(h);
        }
        for c in commands.drain(..) {
            self.command(now, c);
        }
        self.touched = touched;
        self.commands = commands;
    }

    fn command(&mut self, now: Instant, c: Command) {
        self.resp_buf.clear();
        match c {
            Command::Accept(incoming, answer) => {
                if self.closing.is_some() {
                    let t = self.endpoint.refuse(incoming, &mut self.resp_buf);
                    self.io.send(&t, &self.resp_buf);
                    let _ = answer.send(Err(ConnectionError::LocallyClosed));
                    return;
                }
                match self
                    .endpoint
                    .accept(incoming, now, &mut self.resp_buf, None)
                {
                    Ok((h, conn)) => {
                        let conn = Arc::new(ConnRef::new(self.hub.clone(), h.0, conn, answer));
                        if self.slots.len() <= h.0 {
                            self.slots.resize_with(h.0 + 1, || None);
                        }
                        self.slots[h.0] = Some(Slot {
                            conn,
                            armed: None,
                            marked: false,
                        });
                        self.open += 1;
                        self.mark(h.0);
                    }
                    Err(e) => {
                        if let Some(t) = e.response {
                            self.io.send(&t, &self.resp_buf);
                        }
                        let _ = answer.send(Err(e.cause));
                    }
                }
            }
            Command::Retry(incoming) => match self.endpoint.retry(incoming, &mut self.resp_buf) {
                Ok(t) => self.io.send(&t, &self.resp_buf),
                Err(e) => self.endpoint.ignore(e.into_incoming()),
            },
            Command::Refuse(incoming) => {
                let t = self.endpoint.refuse(incoming, &mut self.resp_buf);
                self.io.send(&t, &self.resp_buf);
            }
            Command::Ignore(incoming) => self.endpoint.ignore(incoming),
            Command::Close(code, reason) => self.begin_close(now, code, &reason),
            Command::Stop => {
                self.stopping = true;
                if self.closing.is_none() {
                    self.begin_close(now, VarInt::from_u32(0), b"");
                }
            }
        }
    }

    /// Closes every connection; new ones are refused from now on.
    fn begin_close(&mut self, now: Instant, code: VarInt, reason: &[u8]) {
        if self.closing.is_none() {
            self.closing = Some(now);
        }
        self.incoming = None;
        let reason = Bytes::copy_from_slice(reason);
        for h in 0..self.slots.len() {
            let Some(slot) = self.slots[h].as_ref() else {
                continue;
            };
            {
                let mut st = slot.conn.lock();
                if st.error.is_none() {
                    st.conn.close(now, code, reason.clone());
                    st.error = Some(ConnectionError::LocallyClosed);
                    st.all_wakers(&mut self.wakers);
                }
            }
            self.mark(h);
        }
        self.wakers.drain(..).for_each(Waker::wake);
    }

    /// The thread ends: connections still held end for their tasks too.
    fn abandon(&mut self) {
        self.commands_in.close();
        for slot in self.slots.drain(..).flatten() {
            let answer = {
                let mut st = slot.conn.lock();
                if st.error.is_none() {
                    st.error = Some(ConnectionError::LocallyClosed);
                }
                st.all_wakers(&mut self.wakers);
                st.connected.take()
            };
            if let Some(a) = answer {
                let _ = a.send(Err(ConnectionError::LocallyClosed));
            }
        }
        self.wakers.drain(..).for_each(Waker::wake);
        self.open = 0;
        self.open_tx.send_replace(0);
    }

    fn mark(&mut self, h: usize) {
        if let Some(s) = self.slots.get_mut(h).and_then(Option::as_mut) {
            if !s.marked {
                s.marked = true;
                self.dirty.push_back(h);
            }
        }
    }

    /// Handles every deadline that has passed.
    fn fire_timers(&mut self, now: Instant) {
        while let Some(h) = self.timers.pop_due(now, |h, at| {
            let armed = self.slots.get_mut(h).and_then(Option::as_mut);
            disarm(armed.map(|s| &mut s.armed), at)
        }) {
            if let Some(s) = self.slots.get(h).and_then(Option::as_ref) {
                s.conn.lock().conn.handle_timeout(now);
            }
            self.mark(h);
        }
    }

    /// A live connection's armed deadline.
    fn armed(slots: &[Option<Slot>], h: usize) -> Option<Instant> {
        slots.get(h).and_then(Option::as_ref).and_then(|s| s.armed)
    }

    /// The earliest live deadline.
    fn next_deadline(&mut self) -> Option<Instant> {
        let slots = &self.slots;
        self.timers.next_deadline(|h| Self::armed(slots, h))
    }

    /// Drops the stale entries once they outnumber the connections.
    fn compact_timers(&mut self) {
        let slots = &self.slots;
        self.timers.compact(self.open, |h| Self::armed(slots, h));
    }

    fn drive_dirty(&mut self, now: Instant) {
        while let Some(h) = self.dirty.pop_front() {
            self.drive(h, now);
        }
    }

    /// A connection's application events: the tasks to wake, the
    /// handshake's end (the accepting task's answer) or the connection's.
    fn events(
        st: &mut ConnState,
        wakers: &mut Vec<Waker>,
        connected: &mut Option<Connected>,
        lost: &mut Option<(Connected, ConnectionError)>,
    ) {
        while let Some(event) = st.conn.poll() {
            match event {
                Event::Connected => *connected = st.connected.take(),
                Event::ConnectionLost { reason } => {
                    if st.error.is_none() {
                        st.error = Some(reason.clone());
                    }
                    st.all_wakers(wakers);
                    if let Some(a) = st.connected.take() {
                        *lost = Some((a, reason));
                    }
                }
                Event::Stream(StreamEvent::Opened { .. }) => wakers.extend(st.accept.take()),
                Event::Stream(StreamEvent::Readable { .. }) => wakers.extend(st.reader.take()),
                Event::Stream(StreamEvent::Writable { .. }) => wakers.extend(st.writer.take()),
                Event::Stream(StreamEvent::Finished { .. }) => wakers.extend(st.stopped.take()),
                Event::Stream(StreamEvent::Stopped { .. }) => {
                    wakers.extend(st.writer.take());
                    wakers.extend(st.stopped.take());
                }
                _ => {}
            }
        }
    }

    /// Drives connection `h`: its events to its tasks, its endpoint
    /// events, its datagrams, its deadline; removes it once drained.
    fn drive(&mut self, h: usize, now: Instant) {
        let Some(slot) = self.slots.get_mut(h).and_then(Option::as_mut) else {
            return;
        };
        slot.marked = false;
        let conn = slot.conn.clone();
        let mut drained = false;
        let mut connected = None;
        let mut lost = None;
        let mut more = false;
        let deadline;
        {
            let mut st = conn.lock();
            st.untouch();
            loop {
                Self::events(&mut st, &mut self.wakers, &mut connected, &mut lost);
                let mut again = false;
                while let Some(event) = st.conn.poll_endpoint_events() {
                    drained |= event.is_drained();
                    if let Some(back) = self.endpoint.handle_event(ConnectionHandle(h), event) {
                        st.conn.handle_event(back);
                        again = true;
                    }
                }
                if !again {
                    break;
                }
            }
            let mut sent = 0;
            loop {
                if sent == TRANSMITS_PER_DRIVE {
                    more = true;
                    break;
                }
                self.send_buf.clear();
                match st.conn.poll_transmit(now, self.io.gso, &mut self.send_buf) {
                    Some(t) => self.io.send(&t, &self.send_buf),
                    None => break,
                }
                sent += 1;
            }
            deadline = st.conn.poll_timeout();
            if drained {
                if st.error.is_none() {
                    st.error = Some(ConnectionError::LocallyClosed);
                }
                st.all_wakers(&mut self.wakers);
            }
        }
        self.wakers.drain(..).for_each(Waker::wake);
        if let Some(a) = connected {
            // A task that gave up waiting drops it: closed then.
            let _ = a.send(Ok(Connection::new(conn.clone())));
        }
        if let Some((a, reason)) = lost {
            let _ = a.send(Err(reason));
        }
        if drained {
            self.slots[h] = None;
            self.open = self.open.saturating_sub(1);
            return;
        }
        if let Some(slot) = self.slots[h].as_mut() {
            self.timers.arm(h, &mut slot.armed, deadline);
        }
        if more {
            // More to send: after the others' turn.
            self.mark(h);
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.abandon();
    }
}

impl Datagrams for Driver {
    fn io(&mut self) -> &mut Io {
        &mut self.io
    }

    /// One datagram to the endpoint, and what it says to do.
    fn datagram(&mut self, now: Instant, meta: &RecvMeta, data: BytesMut) {
        match handle(&mut self.endpoint, now, meta, data, &mut self.resp_buf) {
            Some(DatagramEvent::ConnectionEvent(h, event)) => {
                if let Some(s) = self.slots.get(h.0).and_then(Option::as_ref) {
                    s.conn.lock().conn.handle_event(event);
                    self.mark(h.0);
                }
            }
            Some(DatagramEvent::NewConnection(incoming)) => {
                let handle = Incoming::new(incoming, self.commands_in.clone());
                let refused = match &self.incoming {
                    Some(tx) => match tx.try_send(handle) {
                        Ok(()) => None,
                        Err(mpsc::error::TrySendError::Full(h))
                        | Err(mpsc::error::TrySendError::Closed(h)) => Some(h),
                    },
                    None => Some(handle),
                };
                if let Some(inner) = refused.and_then(Incoming::into_inner) {
                    let t = self.endpoint.refuse(inner, &mut self.resp_buf);
                    self.io.send(&t, &self.resp_buf);
                }
            }
            Some(DatagramEvent::Response(t)) => self.io.send(&t, &self.resp_buf),
            None => {}
        }
    }

    fn drive_all(&mut self, now: Instant) {
        self.drive_dirty(now);
    }
}
