//! Connection settings of a table terminal and the hello it sends.

use proto::{Connector, Hello, PROTOCOL_VERSION};
use std::net::SocketAddr;
use std::time::Duration;

/// Where and how a terminal connects.
#[derive(Clone)]
pub struct LinkConfig {
    pub server: SocketAddr,
    pub token: String,
    /// Client endpoint and TLS trust (share one among many terminals: one
    /// UDP socket serves them all).
    pub connector: Connector,
    /// First wait after a failed connection; doubles up to `max_backoff`.
    pub backoff: Duration,
    pub max_backoff: Duration,
    /// Free text naming the client software.
    pub client: String,
}

impl LinkConfig {
    pub fn new(server: SocketAddr, token: impl Into<String>, connector: Connector) -> LinkConfig {
        LinkConfig {
            server,
            token: token.into(),
            connector,
            backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(2),
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
}

impl std::fmt::Debug for LinkConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinkConfig")
            .field("server", &self.server)
            .field("token", &"<redacted>")
            .finish()
    }
}
