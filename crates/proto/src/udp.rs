//! The server's UDP socket with a larger receive buffer. A hall's bursts
//! (a round start, a reconnect storm resending outboxes) arrive faster than
//! one read loop drains the kernel's default buffer (often 208 KiB). Each
//! datagram the kernel drops then costs QUIC a retransmission timeout,
//! seconds for the acks it carried. [`crate::tls::ServerIdentity`] binds
//! the hall's endpoint on it.

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
    socket.bind(&addr.into())?;
    let socket: UdpSocket = socket.into();
    let granted = receive_buffer_size(&socket);
    Ok((socket, granted))
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
}
