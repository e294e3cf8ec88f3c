//! A connection of the server's QUIC shell as its tasks see it: the
//! [`Connection`] handle, its one bidirectional stream's halves
//! ([`SendStream`]: `AsyncWrite`, [`RecvStream`]: `AsyncRead`), the
//! subset of quinn's API the server uses. The `quinn_proto::Connection`
//! lives under a mutex shared with the shell's thread; a task that reads or
//! writes does so under that lock and marks the connection touched, and
//! the thread sends what it owes at its next turn. Wakers are kept per
//! purpose (accept, read, write, stopped, closed): a connection holds no
//! channel and no task of its own.

use super::hub::Hub;
use bytes::Bytes;
use quinn_proto::{ConnectionError, Dir, ReadError, StreamId, VarInt, WriteError};
use std::future::poll_fn;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::oneshot;

/// What the thread resolves an accepted connection's handshake with.
pub(crate) type Connected = oneshot::Sender<Result<Connection, ConnectionError>>;

/// A connection's state, shared by its handles and the shell's thread.
pub(crate) struct ConnRef {
    pub(crate) hub: Arc<Hub>,
    /// The endpoint's handle for it (`ConnectionHandle.0`).
    pub(crate) handle: usize,
    pub(crate) remote: SocketAddr,
    /// Handles held by tasks ([`Connection`], streams): the last one
    /// dropped closes the connection, as quinn's do.
    users: AtomicUsize,
    pub(crate) state: Mutex<ConnState>,
}

/// Under the connection's lock.
pub(crate) struct ConnState {
    pub(crate) conn: quinn_proto::Connection,
    /// In the hub's list of connections for the thread to drive.
    touched: bool,
    /// Why the connection ended, once it has.
    pub(crate) error: Option<ConnectionError>,
    pub(crate) accept: Option<Waker>,
    pub(crate) reader: Option<Waker>,
    pub(crate) writer: Option<Waker>,
    pub(crate) stopped: Option<Waker>,
    pub(crate) closed: Vec<Waker>,
    /// The accepting task's answer, until the handshake ends.
    pub(crate) connected: Option<Connected>,
}

impl ConnRef {
    pub(crate) fn new(
        hub: Arc<Hub>,
        handle: usize,
        conn: quinn_proto::Connection,
        connected: Connected,
    ) -> ConnRef {
        ConnRef {
            hub,
            handle,
            remote: conn.remote_address(),
            users: AtomicUsize::new(0),
            state: Mutex::new(ConnState {
                conn,
                touched: false,
                error: None,
                accept: None,
                reader: None,
                writer: None,
                stopped: None,
                closed: Vec::new(),
                connected: Some(connected),
            }),
        }
    }

    /// The state (a poisoned lock is taken as it is: every change under it
    /// is a call into quinn's state machine, which keeps itself whole).
    pub(crate) fn lock(&self) -> MutexGuard<'_, ConnState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the thread to drive this connection (what a task changed is
    /// sent, its deadline looked at).
    fn touch(&self, st: &mut ConnState) {
        if !st.touched {
            st.touched = true;
            self.hub.touched(self.handle);
        }
    }
}

impl ConnState {
    /// The thread took this connection off the hub's list.
    pub(crate) fn untouch(&mut self) {
        self.touched = false;
    }

    /// Every waker, for when the connection ends.
    pub(crate) fn all_wakers(&mut self, out: &mut Vec<Waker>) {
        out.extend(self.accept.take());
        out.extend(self.reader.take());
        out.extend(self.writer.take());
        out.extend(self.stopped.take());
        out.append(&mut self.closed);
    }
}

/// One counted user of a connection.
struct User(Arc<ConnRef>);

impl User {
    fn new(c: Arc<ConnRef>) -> User {
        c.users.fetch_add(1, Ordering::Relaxed);
        User(c)
    }
}

impl Clone for User {
    fn clone(&self) -> User {
        User::new(self.0.clone())
    }
}

impl Drop for User {
    fn drop(&mut self) {
        if self.0.users.fetch_sub(1, Ordering::AcqRel) == 1 {
            // The last handle: closed as quinn closes a connection nobody
            // holds (code 0, no reason).
            let mut st = self.0.lock();
            if st.error.is_none() {
                close(&self.0, &mut st, VarInt::from_u32(0), &[]);
            }
        }
    }
}

fn close(c: &ConnRef, st: &mut ConnState, code: VarInt, reason: &[u8]) {
    st.conn
        .close(Instant::now(), code, Bytes::copy_from_slice(reason));
    st.error = Some(ConnectionError::LocallyClosed);
    let mut wakers = Vec::new();
    st.all_wakers(&mut wakers);
    c.touch(st);
    wakers.into_iter().for_each(Waker::wake);
}

fn lost(e: &ConnectionError) -> io::Error {
    io::Error::new(io::ErrorKind::ConnectionAborted, e.clone())
}

/// A connection served by the shell (quinn's `Connection`, the part the
/// server uses). Cloning shares it; the last handle dropped (streams
/// included) closes it.
#[derive(Clone)]
pub struct Connection(User);

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("shell::Connection")
            .field("remote", &self.0 .0.remote)
            .finish_non_exhaustive()
    }
}

impl Connection {
    pub(crate) fn new(c: Arc<ConnRef>) -> Connection {
        Connection(User::new(c))
    }

    fn inner(&self) -> &ConnRef {
        &self.0 .0
    }

    /// The peer's address (as the handshake found it).
    pub fn remote_address(&self) -> SocketAddr {
        self.inner().remote
    }

    /// Closes the connection with `code` and `reason`; every pending
    /// operation on it fails with `LocallyClosed`.
    pub fn close(&self, code: VarInt, reason: &[u8]) {
        let c = self.inner();
        let mut st = c.lock();
        if st.error.is_none() {
            close(c, &mut st, code, reason);
        }
    }

    /// Why the connection ended, once it has.
    pub fn close_reason(&self) -> Option<ConnectionError> {
        self.inner().lock().error.clone()
    }

    /// Waits for the connection to end; why it did.
    pub async fn closed(&self) -> ConnectionError {
        let c = self.inner();
        poll_fn(|cx| {
            let mut st = c.lock();
            match &st.error {
                Some(e) => Poll::Ready(e.clone()),
                None => {
                    if !st.closed.iter().any(|w| w.will_wake(cx.waker())) {
                        st.closed.push(cx.waker().clone());
                    }
                    Poll::Pending
                }
            }
        })
        .await
    }

    /// The connection's (and its streams') receive window.
    pub fn set_receive_window(&self, window: VarInt) {
        let c = self.inner();
        let mut st = c.lock();
        st.conn.set_receive_window(window);
        c.touch(&mut st);
    }

    /// The bytes it may have in flight unacknowledged.
    pub fn set_send_window(&self, window: u64) {
        let c = self.inner();
        let mut st = c.lock();
        st.conn.set_send_window(window);
        c.touch(&mut st);
    }

    /// Waits for the peer's next bidirectional stream.
    pub async fn accept_bi(&self) -> Result<(SendStream, RecvStream), ConnectionError> {
        let c = self.inner();
        let id = poll_fn(|cx| {
            let mut st = c.lock();
            if let Some(e) = &st.error {
                return Poll::Ready(Err(e.clone()));
            }
            match st.conn.streams().accept(Dir::Bi) {
                Some(id) => {
                    // The peer may open another: its credit goes out.
                    c.touch(&mut st);
                    Poll::Ready(Ok(id))
                }
                None => {
                    st.accept = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
        .await?;
        Ok((
            SendStream {
                conn: self.0.clone(),
                id,
                finished: false,
            },
            RecvStream {
                conn: self.0.clone(),
                id,
                ended: false,
            },
        ))
    }
}

/// The sending half of a stream.
pub struct SendStream {
    conn: User,
    id: StreamId,
    finished: bool,
}

impl SendStream {
    /// No more data: the peer reads to the end.
    pub fn finish(&mut self) -> Result<(), io::Error> {
        let c = &*self.conn.0;
        let mut st = c.lock();
        self.finished = true;
        let done = st.conn.send_stream(self.id).finish();
        c.touch(&mut st);
        done.map_err(|e| io::Error::new(io::ErrorKind::NotConnected, e))
    }

    /// Waits until the peer stopped the stream, or it was finished and
    /// everything on it acknowledged, or the connection ended.
    pub async fn stopped(&mut self) {
        let c = &*self.conn.0;
        let id = self.id;
        poll_fn(|cx| {
            let mut st = c.lock();
            if st.error.is_some() {
                return Poll::Ready(());
            }
            match st.conn.send_stream(id).stopped() {
                Ok(None) => {
                    st.stopped = Some(cx.waker().clone());
                    Poll::Pending
                }
                // Stopped, or finished, acknowledged and gone.
                Ok(Some(_)) | Err(_) => Poll::Ready(()),
            }
        })
        .await;
    }
}

impl AsyncWrite for SendStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let c = &*this.conn.0;
        let mut st = c.lock();
        if let Some(e) = &st.error {
            return Poll::Ready(Err(lost(e)));
        }
        match st.conn.send_stream(this.id).write(buf) {
            Ok(n) => {
                c.touch(&mut st);
                Poll::Ready(Ok(n))
            }
            Err(WriteError::Blocked) => {
                st.writer = Some(cx.waker().clone());
                Poll::Pending
            }
            Err(WriteError::Stopped(code)) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::ConnectionReset,
                format!("stream stopped by the peer (code {code})"),
            ))),
            Err(WriteError::ClosedStream) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "stream closed",
            ))),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.get_mut().finish())
    }
}

impl Drop for SendStream {
    fn drop(&mut self) {
        // As quinn: a stream dropped unfinished is finished.
        if !self.finished {
            let c = &*self.conn.0;
            let mut st = c.lock();
            if st.error.is_none() && st.conn.send_stream(self.id).finish().is_ok() {
                c.touch(&mut st);
            }
        }
    }
}

/// The receiving half of a stream.
pub struct RecvStream {
    conn: User,
    id: StreamId,
    /// Read to its end.
    ended: bool,
}

impl AsyncRead for RecvStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.ended || buf.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        let c = &*this.conn.0;
        let mut st = c.lock();
        if let Some(e) = &st.error {
            return Poll::Ready(Err(lost(e)));
        }
        let mut stream = st.conn.recv_stream(this.id);
        let mut chunks = match stream.read(true) {
            Ok(chunks) => chunks,
            Err(e) => return Poll::Ready(Err(io::Error::new(io::ErrorKind::NotConnected, e))),
        };
        let mut got = 0usize;
        let mut result = Ok(());
        let mut blocked = false;
        while buf.remaining() > 0 {
            match chunks.next(buf.remaining()) {
                Ok(Some(chunk)) => {
                    buf.put_slice(&chunk.bytes);
                    got += chunk.bytes.len();
                }
                Ok(None) => {
                    this.ended = true;
                    break;
                }
                Err(ReadError::Blocked) => {
                    blocked = got == 0;
                    break;
                }
                Err(ReadError::Reset(code)) => {
                    result = Err(io::Error::new(
                        io::ErrorKind::ConnectionReset,
                        format!("stream reset by the peer (code {code})"),
                    ));
                    break;
                }
            }
        }
        let transmit = chunks.finalize().should_transmit();
        if transmit {
            c.touch(&mut st);
        }
        if blocked {
            st.reader = Some(cx.waker().clone());
            return Poll::Pending;
        }
        Poll::Ready(result)
    }
}

impl Drop for RecvStream {
    fn drop(&mut self) {
        if !self.ended {
            let c = &*self.conn.0;
            let mut st = c.lock();
            if st.error.is_none() && st.conn.recv_stream(self.id).stop(0u32.into()).is_ok() {
                c.touch(&mut st);
            }
        }
    }
}
