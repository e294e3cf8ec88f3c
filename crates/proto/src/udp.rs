//! The server's UDP socket with a larger receive buffer. A hall's bursts
//! (a round start, a reconnect storm resending outboxes) arrive faster than
//! one read loop drains the kernel's default buffer (often 208 KiB). Each
//! datagram the kernel drops then costs QUIC a retransmission timeout,
//! seconds for the acks it carried. [`crate::tls::ServerIdentity`] binds
//! the hall's endpoint on it.
//!
//! Linux caps a socket's request at `net.core.rmem_max` (4 MiB on the
//! bench machine, 208 KiB on many). A server with the right to
//! (`CAP_NET_ADMIN`, e.g. run as root) gets the whole request past that
//! cap with `SO_RCVBUFFORCE` (issue 40): at 10,000 tables a hiccup of
//! ~150 ms in the server's reading (a snapshot cut, a busy machine)
//! overflowed 4 MiB, the kernel dropped ~120,000 datagrams, and every
//! table behind them waited out QUIC's growing retransmission timeouts:
//! acks of seconds for the next 10-20 s (docs/benchmarks.md). Without
//! that right the capped buffer stays, and the log says so.

use std::net::{SocketAddr, UdpSocket};

use socket2::{Domain, Protocol, SockRef, Socket, Type};

/// A UDP socket bound to `addr` that asked for a receive buffer of
/// `receive_buffer` bytes, with the size the kernel granted (Linux caps the
/// request at `net.core.rmem_max` and reports twice what it keeps, for its
/// bookkeeping). A refused request is logged and the socket is still made.
pub fn bind_with_receive_buffer(
    addr: SocketAddr,
    receive_buffer: usize,
) -> std::io::Result<(UdpSocket, usize)> {
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    if addr.is_ipv6() {
        // As std's bind leaves it on Linux: a v6 socket takes v4 too.
        socket.set_only_v6(false).ok();
    }
    if let Err(e) = socket.set_recv_buffer_size(receive_buffer) {
        tracing::warn!(error = %e, "could not set the UDP receive buffer size");
    }
    // Linux reports twice what it keeps: less than asked means capped.
    if SockRef::from(&socket).recv_buffer_size().unwrap_or(0) < receive_buffer {
        if let Err(e) = force_receive_buffer(&socket, receive_buffer) {
            tracing::info!(
                error = %e,
                asked = receive_buffer,
                "UDP receive buffer capped at net.core.rmem_max (SO_RCVBUFFORCE not permitted)"
            );
        }
    }
    socket.bind(&addr.into())?;
    let socket: UdpSocket = socket.into();
    let granted = receive_buffer_size(&socket);
    Ok((socket, granted))
}

/// `SO_RCVBUFFORCE`: the receive buffer past `net.core.rmem_max`, for a
/// process with `CAP_NET_ADMIN` (an error otherwise; Linux only).
#[cfg(target_os = "linux")]
fn force_receive_buffer(socket: &Socket, size: usize) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let size = libc::c_int::try_from(size).unwrap_or(libc::c_int::MAX);
    let len = libc::socklen_t::try_from(std::mem::size_of::<libc::c_int>())
        .map_err(|_| std::io::Error::other("socklen"))?;
    // SAFETY: a valid open socket, a pointer to a c_int that lives through
    // the call and its exact length; the kernel only reads it.
    let rc = unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_RCVBUFFORCE,
            std::ptr::from_ref(&size).cast(),
            len,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere there is no such option: the capped buffer stays.
#[cfg(not(target_os = "linux"))]
fn force_receive_buffer(_socket: &Socket, _size: usize) -> std::io::Result<()> {
    Err(std::io::Error::other("SO_RCVBUFFORCE is Linux's"))
}

/// The receive buffer size the kernel reports for `socket` (0 if it does not say).
pub fn receive_buffer_size(socket: &UdpSocket) -> usize {
    SockRef::from(socket).recv_buffer_size().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The socket asks for more than the default and gets more (the kernel
    /// may cap the request, never below what a plain socket has), and it
    /// carries datagrams.
    #[test]
    fn the_receive_buffer_is_larger_than_a_plain_sockets() {
        let any: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let plain = UdpSocket::bind(any).unwrap();
        let default = receive_buffer_size(&plain);
        let (big, granted) = bind_with_receive_buffer(any, 4 << 20).unwrap();
        assert!(default > 0, "the kernel reports a size");
        assert!(granted > default, "granted {granted}, default {default}");
        assert_eq!(granted, receive_buffer_size(&big));
        plain.send_to(b"ping", big.local_addr().unwrap()).unwrap();
        let mut buf = [0u8; 8];
        let (n, _) = big.recv_from(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"ping");
    }

    /// Past `net.core.rmem_max`: a process that may (`CAP_NET_ADMIN`)
    /// gets the whole request, any other the cap.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_permitted_server_gets_its_buffer_past_the_systems_cap() {
        let Ok(max) = std::fs::read_to_string("/proc/sys/net/core/rmem_max") else {
            return;
        };
        let max: usize = max.trim().parse().unwrap();
        let ask = 2 * max + 4096;
        // CAP_NET_ADMIN (bit 12) among the effective capabilities.
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let cap_eff = status
            .lines()
            .find_map(|l| l.strip_prefix("CapEff:"))
            .map(|h| u64::from_str_radix(h.trim(), 16).unwrap())
            .unwrap();
        let permitted = cap_eff & (1 << 12) != 0;
        let (s, granted) = bind_with_receive_buffer("127.0.0.1:0".parse().unwrap(), ask).unwrap();
        assert_eq!(granted, receive_buffer_size(&s));
        if permitted {
            assert!(granted >= ask, "asked {ask}, granted {granted}");
        } else {
            assert!(granted <= 2 * max, "capped at {max}: granted {granted}");
        }
    }
}
