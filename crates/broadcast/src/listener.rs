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
