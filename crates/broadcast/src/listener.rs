//! The public TCP listener with bounds (连接限制): at most
//! [`Limits::per_address`] open connections from one IP address and
//! [`Limits::total`] in all; a connection over a bound is closed at once,
//! before a byte of it is read. Each accepted stream gives its place back
//! when it is dropped.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// Connection bounds of the public port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Open connections from one IP address.
    pub per_address: usize,
    /// Open connections in all.
    pub total: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            per_address: 32,
            total: 10_000,
        }
    }
}

#[derive(Debug, Default)]
struct Counts {
    by_ip: HashMap<IpAddr, usize>,
    total: usize,
}

/// A TCP listener that keeps to [`Limits`].
#[derive(Debug)]
pub struct Bounded {
    inner: TcpListener,
    limits: Limits,
    counts: Arc<Mutex<Counts>>,
}

impl Bounded {
    /// Wraps a bound listener.
    pub fn new(inner: TcpListener, limits: Limits) -> Bounded {
        Bounded {
            inner,
            limits,
            counts: Arc::default(),
        }
    }

    fn admit(&self, ip: IpAddr) -> bool {
        let Ok(mut c) = self.counts.lock() else {
            return false;
        };
        let here = c.by_ip.get(&ip).copied().unwrap_or(0);
        if here >= self.limits.per_address || c.total >= self.limits.total {
            return false;
        }
        c.by_ip.insert(ip, here + 1);
        c.total += 1;
        true
    }
}

/// An accepted connection; gives its place back when dropped.
#[derive(Debug)]
pub struct Counted {
    stream: TcpStream,
    ip: IpAddr,
    counts: Arc<Mutex<Counts>>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        if let Ok(mut c) = self.counts.lock() {
            c.total = c.total.saturating_sub(1);
            if let Some(n) = c.by_ip.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    c.by_ip.remove(&self.ip);
                }
            }
        }
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    /// Vectored writes go through to the socket: hyper then queues a
    /// body's chunks as they are (`Bytes`, shared) instead of copying each
    /// into one flat buffer that keeps the size of the largest ever sent
    /// for the connection's life (issue 40: a follower's first snapshot of
    /// a 10,000-table hall, ~3 MB, stayed allocated for every stream).
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

impl axum::serve::Listener for Bounded {
    type Io = Counted;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Counted, SocketAddr) {
        loop {
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    if self.admit(addr.ip()) {
                        let _ = stream.set_nodelay(true);
                        return (
                            Counted {
                                stream,
                                ip: addr.ip(),
                                counts: self.counts.clone(),
                            },
                            addr,
                        );
                    }
                    tracing::info!(%addr, "broadcast: too many connections from this address (or in all): closed");
                    drop(stream);
                }
                Err(e) => {
                    // Out of file descriptors and the like: wait a little.
                    tracing::warn!(error = %e, "broadcast: accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::serve::Listener;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// An accepted stream writes vectored (so hyper queues body chunks
    /// instead of copying them into a flat buffer), and a vectored write
    /// arrives whole and in order.
    #[tokio::test]
    async fn an_accepted_stream_writes_vectored() {
        let tcp = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = tcp.local_addr().expect("addr");
        let mut l = Bounded::new(tcp, Limits::default());
        let client = tokio::spawn(async move {
            let mut c = TcpStream::connect(addr).await.expect("connect");
            let mut got = Vec::new();
            c.read_to_end(&mut got).await.expect("read");
            got
        });
        let (mut s, _) = l.accept().await;
        assert!(s.is_write_vectored());
        let parts = [b"event: tick\n".as_slice(), b"data: {}\n\n".as_slice()];
        let mut sent = 0;
        let total: usize = parts.iter().map(|p| p.len()).sum();
        while sent < total {
            let mut skip = sent;
            let slices: Vec<io::IoSlice<'_>> = parts
                .iter()
                .filter_map(|p| {
                    let from = skip.min(p.len());
                    skip -= from;
                    (from < p.len()).then(|| io::IoSlice::new(&p[from..]))
                })
                .collect();
            sent += s.write_vectored(&slices).await.expect("write");
        }
        s.shutdown().await.expect("shutdown");
        drop(s);
        let got = client.await.expect("client");
        assert_eq!(got, b"event: tick\ndata: {}\n\n");
    }
}
