//! The UDP side of an I/O shell over quinn's state machine (`quinn_proto`):
//! one socket sent on with GSO and received from in batches (`quinn_udp`),
//! and `poll(2)` on a few descriptors. Shared by the server's shell
//! ([`super::Endpoint`]) and the raw baseline's echo shell
//! (`table::load::raw_shell`).

use bytes::BytesMut;
use quinn_proto::Transmit;
use quinn_udp::{RecvMeta, UdpSocketState, BATCH_SIZE};
use std::io::{ErrorKind, IoSliceMut};
use std::net::UdpSocket;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

/// Datagrams coalesced into one GSO send at most (quinn's limit).
pub const MAX_SEGMENTS: usize = 10;

/// One receive buffer: a GRO-coalesced read is at most 64 KiB.
pub const RECV_SLOT: usize = 64 * 1024;

/// Receive batches per wake before timers and commands are looked at
/// again.
pub const RECV_ROUNDS: usize = 16;

/// What the socket carried so far (a shell's own counts).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IoCounts {
    /// `recvmmsg` calls that returned datagrams.
    pub recv_batches: u64,
    /// Datagrams received (GRO segments counted one by one).
    pub datagrams_in: u64,
    /// Send calls (one per transmit, several datagrams with GSO).
    pub transmits: u64,
    /// Datagrams sent.
    pub datagrams_out: u64,
    /// Transmits dropped because the socket stayed full or failed.
    pub send_failures: u64,
}

/// The socket and how to send on it and receive from it.
pub struct Io {
    pub socket: UdpSocket,
    udp: UdpSocketState,
    /// Datagrams per GSO send.
    pub gso: usize,
    /// Whether the path MTU may be probed (the socket does not fragment).
    pub allow_mtud: bool,
    recv_buf: Box<[u8]>,
    /// The datagrams of the batch being handled.
    batch: Vec<(RecvMeta, BytesMut)>,
    pub counts: IoCounts,
}

impl Io {
    /// Wraps a bound socket (made non-blocking by `quinn_udp`).
    pub fn new(socket: UdpSocket) -> std::io::Result<Io> {
        let udp = UdpSocketState::new((&socket).into())?;
        let gso = udp.max_gso_segments().clamp(1, MAX_SEGMENTS);
        let allow_mtud = !udp.may_fragment();
        Ok(Io {
            socket,
            udp,
            gso,
            allow_mtud,
            recv_buf: vec![0u8; RECV_SLOT * BATCH_SIZE].into_boxed_slice(),
            batch: Vec::new(),
            counts: IoCounts::default(),
        })
    }

    /// Sends `t` (its bytes at the start of `buf`); waits briefly for room
    /// if the socket is full, then drops it (QUIC resends what is lost).
    pub fn send(&mut self, t: &Transmit, buf: &[u8]) {
        let Some(contents) = buf.get(..t.size) else {
            self.counts.send_failures += 1;
            return;
        };
        let tx = quinn_udp::Transmit {
            destination: t.destination,
            ecn: t
                .ecn
                .and_then(|e| quinn_udp::EcnCodepoint::from_bits(e as u8)),
            contents,
            segment_size: t.segment_size,
            src_ip: t.src_ip,
        };
        for _ in 0..3 {
            match self.udp.send((&self.socket).into(), &tx) {
                Ok(()) => {
                    self.counts.transmits += 1;
                    self.counts.datagrams_out += match t.segment_size {
                        Some(s) if s > 0 => t.size.div_ceil(s) as u64,
                        _ => 1,
                    };
                    return;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    wait(
                        [(&self.socket, libc::POLLOUT)],
                        Some(Duration::from_millis(50)),
                    );
                }
                Err(_) => break,
            }
        }
        self.counts.send_failures += 1;
    }

    /// Receives one batch of datagrams into `out` (GRO segments one by
    /// one); false once the socket is empty (or failed).
    pub fn receive_batch(&mut self, out: &mut Vec<(RecvMeta, BytesMut)>) -> bool {
        let mut metas = [RecvMeta::default(); BATCH_SIZE];
        let mut buf = std::mem::take(&mut self.recv_buf);
        let got = {
            let mut parts = buf.chunks_mut(RECV_SLOT);
            let mut iovs: [IoSliceMut; BATCH_SIZE] =
                std::array::from_fn(|_| IoSliceMut::new(parts.next().unwrap_or_default()));
            self.udp.recv((&self.socket).into(), &mut iovs, &mut metas)
        };
        let n = match got {
            Ok(n) => n,
            Err(e) => {
                self.recv_buf = buf;
                return match e.kind() {
                    // Undefined in QUIC and forgeable: not a reason to stop.
                    ErrorKind::ConnectionReset => true,
                    ErrorKind::WouldBlock => false,
                    _ => {
                        tracing::warn!(error = %e, "QUIC shell: receive");
                        false
                    }
                };
            }
        };
        self.counts.recv_batches += 1;
        for (meta, slot) in metas.iter().zip(buf.chunks(RECV_SLOT)).take(n) {
            let Some(data) = slot.get(..meta.len) else {
                continue;
            };
            let stride = if meta.stride == 0 {
                meta.len
            } else {
                meta.stride
            };
            for d in data.chunks(stride.max(1)) {
                self.counts.datagrams_in += 1;
                out.push((*meta, BytesMut::from(d)));
            }
        }
        self.recv_buf = buf;
        true
    }
}

/// A shell that takes datagrams: [`receive`] hands it each one.
pub trait Datagrams {
    fn io(&mut self) -> &mut Io;
    /// One datagram, received at `now`.
    fn datagram(&mut self, now: Instant, meta: &RecvMeta, data: BytesMut);
    /// Drives the connections the datagrams so far concern.
    fn drive_all(&mut self, now: Instant);
}

/// Receives batches of datagrams until the socket is empty (or
/// [`RECV_ROUNDS`] batches), driving the connections after each.
pub fn receive(shell: &mut impl Datagrams) {
    let mut batch = std::mem::take(&mut shell.io().batch);
    for _ in 0..RECV_ROUNDS {
        let more = shell.io().receive_batch(&mut batch);
        let now = Instant::now();
        for (meta, data) in batch.drain(..) {
            shell.datagram(now, &meta, data);
        }
        if !more {
            break;
        }
        shell.drive_all(now);
    }
    shell.io().batch = batch;
}

/// `datagram` to `endpoint` (its ECN as received); what it says to do,
/// a response's bytes in `resp_buf`.
pub fn handle(
    endpoint: &mut quinn_proto::Endpoint,
    now: Instant,
    meta: &RecvMeta,
    datagram: BytesMut,
    resp_buf: &mut Vec<u8>,
) -> Option<quinn_proto::DatagramEvent> {
    resp_buf.clear();
    let ecn = meta
        .ecn
        .and_then(|e| quinn_proto::EcnCodepoint::from_bits(e as u8));
    endpoint.handle(now, meta.addr, meta.dst_ip, ecn, datagram, resp_buf)
}

/// Waits until one of `fds` is ready for its event, or `timeout` (None:
/// no limit); which were ready. Interrupted: none ready.
pub fn wait<const N: usize>(
    fds: [(&dyn AsRawFd, libc::c_short); N],
    timeout: Option<Duration>,
) -> [bool; N] {
    let mut polls: [libc::pollfd; N] = fds.map(|(fd, events)| libc::pollfd {
        fd: fd.as_raw_fd(),
        events,
        revents: 0,
    });
    // Whole milliseconds, rounded up, so a deadline is never woken early
    // into a busy loop.
    let ms = match timeout {
        None => -1,
        Some(t) => {
            let ms = t.as_micros().div_ceil(1000);
            i32::try_from(ms).unwrap_or(i32::MAX)
        }
    };
    // SAFETY: `polls` is a valid array of `polls.len()` pollfd structs
    // that lives across the call.
    let n = unsafe { libc::poll(polls.as_mut_ptr(), polls.len() as libc::nfds_t, ms) };
    if n <= 0 {
        return [false; N];
    }
    polls.map(|p| p.revents & (p.events | libc::POLLERR | libc::POLLHUP) != 0)
}
