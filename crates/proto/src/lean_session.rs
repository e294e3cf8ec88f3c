//! The server's QUIC TLS session: rustls's connection for the handshake,
//! then only what QUIC still needs (issue 40: memory per connected table).
//!
//! quinn's own rustls session keeps rustls's `ServerConnection` for the
//! connection's whole life: its handshake state, buffers, record layer and
//! secrets, ~2.4 KB a connection that nothing reads once the handshake is
//! over. After the handshake a QUIC server needs from TLS only the
//! secrets of the next key phase (for key updates, RFC 9001 §6), which
//! rustls hands over with the 1-RTT keys, and the handshake's outcome
//! (ALPN, server name) for whoever asks. This session keeps those and
//! drops the rustls connection once the handshake is complete and rustls
//! has nothing left to send.
//!
//! After that, CRYPTO data from the client is refused as TLS's
//! `unexpected_message` (a TLS 1.3 client sends nothing after its Finished
//! over QUIC: no key updates, no tickets); keying material is no longer
//! exported (nothing in caipan does); there is no peer identity (the
//! server asks for no client certificate: clients authenticate in the
//! protocol's hello).
//!
//! [`LeanServerConfig`] wraps quinn's own server config for what happens
//! before a session (Initial keys, Retry tags) and starts these sessions.

use quinn::crypto::rustls::{HandshakeData, QuicServerConfig};
use quinn::rustls;
use quinn_proto::crypto::{
    self, ExportKeyingMaterialError, HeaderKey, KeyPair, Keys, PacketKey, UnsupportedVersion,
};
use quinn_proto::transport_parameters::TransportParameters;
use quinn_proto::{ConnectionId, Side, TransportError, TransportErrorCode};
use rustls::quic::{self as tls_quic, KeyChange};
use std::any::Any;
use std::sync::Arc;

/// TLS's `unexpected_message` alert, as a QUIC CRYPTO_ERROR (RFC 9001 §4.8).
const UNEXPECTED_MESSAGE: u8 = 10;

/// quinn's server crypto config with [`LeanSession`]s.
pub struct LeanServerConfig {
    tls: Arc<rustls::ServerConfig>,
    quinn: QuicServerConfig,
    initial: tls_quic::Suite,
}

impl LeanServerConfig {
    /// The config over `tls` (TLS 1.3 with a QUIC-capable AES-128-GCM suite
    /// for Initial packets, as quinn's own needs).
    pub fn new(tls: rustls::ServerConfig) -> Result<LeanServerConfig, String> {
        let tls = Arc::new(tls);
        let quinn = QuicServerConfig::try_from(tls.clone()).map_err(|e| e.to_string())?;
        let initial = tls
            .crypto_provider()
            .cipher_suites
            .iter()
            .filter(|s| s.suite() == rustls::CipherSuite::TLS13_AES_128_GCM_SHA256)
            .find_map(|s| s.tls13()?.quic_suite())
            .ok_or("no QUIC-capable TLS13_AES_128_GCM_SHA256 suite for Initial packets")?;
        Ok(LeanServerConfig {
            tls,
            quinn,
            initial,
        })
    }
}

impl crypto::ServerConfig for LeanServerConfig {
    fn initial_keys(
        &self,
        version: u32,
        dst_cid: &ConnectionId,
    ) -> Result<Keys, UnsupportedVersion> {
        self.quinn.initial_keys(version, dst_cid)
    }

    fn retry_tag(&self, version: u32, orig_dst_cid: &ConnectionId, packet: &[u8]) -> [u8; 16] {
        self.quinn.retry_tag(version, orig_dst_cid, packet)
    }

    fn start_session(
        self: Arc<Self>,
        version: u32,
        params: &TransportParameters,
    ) -> Box<dyn crypto::Session> {
        Box::new(self.session(version, params))
    }
}

impl LeanServerConfig {
    /// A session for a connection of QUIC `version` with the server's
    /// transport `params` ([`crypto::ServerConfig::start_session`]).
    pub fn session(&self, version: u32, params: &TransportParameters) -> LeanSession {
        let mut encoded = Vec::new();
        params.write(&mut encoded);
        // quinn starts a session only for a version `initial_keys` took.
        let state = match tls_version(version) {
            Ok(tls_version) => {
                match tls_quic::ServerConnection::new(self.tls.clone(), tls_version, encoded) {
                    Ok(tls) => State::Handshaking(Box::new(tls_quic::Connection::Server(tls))),
                    Err(e) => State::Failed(format!("TLS session not started: {e}")),
                }
            }
            Err(UnsupportedVersion) => State::Failed(format!("QUIC version {version:#x}")),
        };
        LeanSession {
            version: tls_version(version).unwrap_or(tls_quic::Version::V1),
            initial: self.initial,
            got_handshake_data: false,
            next_secrets: None,
            state,
        }
    }
}

/// RFC 9000's version 1 and the drafts quinn accepts, as rustls names them.
fn tls_version(version: u32) -> Result<tls_quic::Version, UnsupportedVersion> {
    match version {
        0xff00_001d..=0xff00_0020 => Ok(tls_quic::Version::V1Draft),
        0x0000_0001 | 0xff00_0021..=0xff00_0022 => Ok(tls_quic::Version::V1),
        _ => Err(UnsupportedVersion),
    }
}

/// Where a session is.
enum State {
    /// rustls's connection, until the handshake is over.
    Handshaking(Box<tls_quic::Connection>),
    /// The handshake's outcome, all that is kept of it.
    Done {
        alpn: Option<Box<[u8]>>,
        server_name: Option<Box<str>>,
    },
    /// rustls refused to start (a config it cannot use for QUIC).
    Failed(String),
}

/// A server's QUIC TLS session (see the module's doc).
pub struct LeanSession {
    version: tls_quic::Version,
    initial: tls_quic::Suite,
    got_handshake_data: bool,
    next_secrets: Option<tls_quic::Secrets>,
    state: State,
}

impl LeanSession {
    /// Whether rustls's connection is gone (the handshake done).
    pub fn released(&self) -> bool {
        matches!(self.state, State::Done { .. })
    }

    fn tls(&self) -> Option<&tls_quic::Connection> {
        match &self.state {
            State::Handshaking(tls) => Some(tls),
            State::Done { .. } | State::Failed(_) => None,
        }
    }

    /// Lets rustls's connection go once the handshake is over and it has
    /// nothing more to write (called after a write that wrote nothing).
    fn release_if_done(&mut self) {
        let State::Handshaking(tls) = &self.state else {
            return;
        };
        if tls.is_handshaking() || self.next_secrets.is_none() {
            return;
        }
        self.state = State::Done {
            alpn: tls.alpn_protocol().map(Box::from),
            server_name: server_name(tls).map(Box::from),
        };
    }
}

/// The server name the client sent (SNI).
fn server_name(tls: &tls_quic::Connection) -> Option<&str> {
    match tls {
        tls_quic::Connection::Server(server) => server.server_name(),
        tls_quic::Connection::Client(_) => None,
    }
}

fn transport_error(code: TransportErrorCode, reason: String) -> TransportError {
    TransportError {
        code,
        frame: None,
        reason,
    }
}

fn boxed_keys(keys: tls_quic::Keys) -> Keys {
    Keys {
        header: KeyPair {
            local: Box::new(keys.local.header),
            remote: Box::new(keys.remote.header),
        },
        packet: KeyPair {
            local: Box::new(keys.local.packet),
            remote: Box::new(keys.remote.packet),
        },
    }
}

impl crypto::Session for LeanSession {
    fn initial_keys(&self, dst_cid: &ConnectionId, side: Side) -> Keys {
        let side = match side {
            Side::Client => rustls::Side::Client,
            Side::Server => rustls::Side::Server,
        };
        boxed_keys(self.initial.keys(dst_cid, side, self.version))
    }

    fn handshake_data(&self) -> Option<Box<dyn Any>> {
        if !self.got_handshake_data {
            return None;
        }
        let (protocol, server_name) = match &self.state {
            State::Handshaking(tls) => (
                tls.alpn_protocol().map(<[u8]>::to_vec),
                server_name(tls).map(str::to_owned),
            ),
            State::Done { alpn, server_name } => (
                alpn.as_deref().map(<[u8]>::to_vec),
                server_name.as_deref().map(str::to_owned),
            ),
            State::Failed(_) => return None,
        };
        Some(Box::new(HandshakeData {
            protocol,
            server_name,
        }))
    }

    fn peer_identity(&self) -> Option<Box<dyn Any>> {
        let certs = self.tls()?.peer_certificates()?;
        let certs: Vec<rustls::pki_types::CertificateDer<'static>> =
            certs.iter().map(|c| c.clone().into_owned()).collect();
        Some(Box::new(certs))
    }

    fn early_crypto(&self) -> Option<(Box<dyn HeaderKey>, Box<dyn PacketKey>)> {
        let keys = self.tls()?.zero_rtt_keys()?;
        Some((Box::new(keys.header), Box::new(keys.packet)))
    }

    fn early_data_accepted(&self) -> Option<bool> {
        None
    }

    fn is_handshaking(&self) -> bool {
        match &self.state {
            State::Handshaking(tls) => tls.is_handshaking(),
            State::Done { .. } => false,
            State::Failed(_) => true,
        }
    }

    fn read_handshake(&mut self, buf: &[u8]) -> Result<bool, TransportError> {
        let tls = match &mut self.state {
            State::Handshaking(tls) => tls,
            State::Done { .. } => {
                return Err(transport_error(
                    TransportErrorCode::crypto(UNEXPECTED_MESSAGE),
                    "TLS data after the handshake".into(),
                ))
            }
            State::Failed(why) => {
                return Err(transport_error(
                    TransportErrorCode::INTERNAL_ERROR,
                    why.clone(),
                ))
            }
        };
        if let Err(e) = tls.read_hs(buf) {
            return Err(match tls.alert() {
                Some(alert) => {
                    transport_error(TransportErrorCode::crypto(alert.into()), e.to_string())
                }
                None => transport_error(
                    TransportErrorCode::PROTOCOL_VIOLATION,
                    format!("TLS error: {e}"),
                ),
            });
        }
        // rustls signals no "ClientHello read": the server name, the ALPN
        // or the handshake's end says it was.
        if !self.got_handshake_data
            && (tls.alpn_protocol().is_some()
                || server_name(tls).is_some()
                || !tls.is_handshaking())
        {
            self.got_handshake_data = true;
            return Ok(true);
        }
        Ok(false)
    }

    fn transport_parameters(&self) -> Result<Option<TransportParameters>, TransportError> {
        // The server reads the client's parameters once, with its first
        // Handshake keys; after the handshake nobody asks.
        let Some(encoded) = self.tls().and_then(|tls| tls.quic_transport_parameters()) else {
            return Ok(None);
        };
        TransportParameters::read(Side::Server, &mut std::io::Cursor::new(encoded))
            .map(Some)
            .map_err(TransportError::from)
    }

    fn write_handshake(&mut self, buf: &mut Vec<u8>) -> Option<Keys> {
        let State::Handshaking(tls) = &mut self.state else {
            return None;
        };
        let before = buf.len();
        let keys = match tls.write_hs(buf) {
            Some(KeyChange::Handshake { keys }) => keys,
            Some(KeyChange::OneRtt { keys, next }) => {
                self.next_secrets = Some(next);
                keys
            }
            None => {
                if buf.len() == before {
                    self.release_if_done();
                }
                return None;
            }
        };
        Some(boxed_keys(keys))
    }

    fn next_1rtt_keys(&mut self) -> Option<KeyPair<Box<dyn PacketKey>>> {
        let keys = self.next_secrets.as_mut()?.next_packet_keys();
        Some(KeyPair {
            local: Box::new(keys.local),
            remote: Box::new(keys.remote),
        })
    }

    fn is_valid_retry(&self, _: &ConnectionId, _: &[u8], _: &[u8]) -> bool {
        // Retry packets go to clients only.
        false
    }

    fn export_keying_material(
        &self,
        output: &mut [u8],
        label: &[u8],
        context: &[u8],
    ) -> Result<(), ExportKeyingMaterialError> {
        self.tls()
            .ok_or(ExportKeyingMaterialError)?
            .export_keying_material(output, label, Some(context))
            .map(|_| ())
            .map_err(|_| ExportKeyingMaterialError)
    }
}
