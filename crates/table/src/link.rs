//! Connection settings of a table terminal and the hello it sends.
//!
//! A terminal may know several addresses for its hall (an active server and
//! a standby that takes over, README "A standby server"): it tries them in
//! turn, each within [`LinkConfig::connect_timeout`], starting from the one
//! that answered last, and moves to whichever answers. Its outbox belongs to
//! the hall (by the hall id the server announces), not to an address, so it
//! resends from the high-water mark of whichever server it reaches.

use proto::{ClientConn, ConnError, Connector, Hello, PROTOCOL_VERSION};
use std::net::SocketAddr;
use std::time::Duration;

/// Where and how a terminal connects.
#[derive(Clone)]
pub struct LinkConfig {
    /// The hall's addresses, tried in turn (at least one).
    pub servers: Vec<SocketAddr>,
    pub token: String,
    /// Client endpoint and TLS trust (share one among many terminals: one
    /// UDP socket serves them all).
    pub connector: Connector,
    /// First wait after a failed connection; doubles up to `max_backoff`.
    pub backoff: Duration,
    pub max_backoff: Duration,
    /// How long one connection attempt to one address may take (a server
    /// that is down or stopped gives no answer at all over UDP).
    pub connect_timeout: Duration,
    /// Events outstanding and no acknowledgement for this long: the server
    /// is taken for gone (stopped, or its machine lost) and the terminal
    /// connects again, to the next address first. QUIC alone would notice
    /// only after its idle timeout.
    pub stall: Duration,
    /// Free text naming the client software.
    pub client: String,
}

impl LinkConfig {
    /// One address.
    pub fn new(server: SocketAddr, token: impl Into<String>, connector: Connector) -> LinkConfig {
        LinkConfig::with_servers(vec![server], token, connector)
    }

    /// Several addresses of one hall, tried in this order at first.
    pub fn with_servers(
        servers: Vec<SocketAddr>,
        token: impl Into<String>,
        connector: Connector,
    ) -> LinkConfig {
        LinkConfig {
            servers,
            token: token.into(),
            connector,
            backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(2),
            connect_timeout: Duration::from_secs(3),
            stall: Duration::from_secs(5),
            client: format!("caipan-table {}", env!("CARGO_PKG_VERSION")),
        }
    }

    pub(crate) fn hello(&self) -> Hello {
        Hello {
            protocol_version: PROTOCOL_VERSION,
            token: self.token.clone(),
            client: self.client.clone(),
        }
    }

    /// Tries every address once, starting at index `from`; returns the
    /// connection and the index of the address that answered, or the last
    /// error.
    pub async fn connect_any(&self, from: usize) -> Result<(ClientConn, usize), ConnError> {
        let n = self.servers.len().max(1);
        let mut last = ConnError::Protocol("no server address".into());
        for k in 0..n {
            let i = (from + k) % n;
            let Some(&addr) = self.servers.get(i) else {
                break;
            };
            let attempt = tokio::time::timeout(
                self.connect_timeout,
                self.connector.connect(addr, self.hello()),
            );
            match attempt.await {
                Ok(Ok(conn)) => {
                    tracing::info!(%addr, "connected to the hall server");
                    return Ok((conn, i));
                }
                Ok(Err(e)) => {
                    tracing::info!(%addr, error = %e, "no hall server here");
                    last = e;
                }
                Err(_) => {
                    tracing::info!(%addr, "no answer");
                    last = ConnError::Timeout(self.connect_timeout);
                }
            }
        }
        Err(last)
    }
}

impl std::fmt::Debug for LinkConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinkConfig")
            .field("servers", &self.servers)
            .field("token", &"<redacted>")
            .finish()
    }
}
