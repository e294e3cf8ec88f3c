//! TLS and QUIC configuration for the hall server and its clients.
//!
//! Server: [`ServerIdentity::load_or_create`] keeps a self-signed
//! certificate (rcgen, SANs `caipan` and `localhost`), its key, and a
//! stateless-reset key in the hall's data directory, creating them on first
//! start; its [`Fingerprint`] is what clients pin. [`ServerIdentity::bind`]
//! makes the quinn endpoint: TLS 1.3 only, ALPN `caipan/1`, 0-RTT off
//! (`max_early_data_size = 0`), idle timeout [`IDLE_TIMEOUT`], keep-alive
//! [`KEEP_ALIVE`], and the persisted reset key so that a restarted server
//! can reset its old connections' peers at once.
//!
//! Client: [`client_config`] trusts exactly one certificate: the one in a
//! file (PEM or DER), or the one with a pinned SHA-256 fingerprint. Either
//! way the server's handshake signature is still verified with the ring
//! provider's algorithms, so a peer that merely replays the certificate
//! without its key fails. Names and validity dates are not checked: the
//! trusted certificate is pinned exactly.
//!
//! Files in the data dir: [`CERT_FILE`], [`KEY_FILE`] (mode 0600 on Unix),
//! [`RESET_KEY_FILE`] (64 random bytes, mode 0600).

use crate::fingerprint::Fingerprint;
use crate::limits::{LEN_PREFIX, MAX_CLIENT_FRAME};
use crate::ALPN;
use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use quinn::rustls;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

// The file names live in `datadir` (plain data, no feature).
pub use crate::datadir::{CERT_FILE, KEY_FILE, RESET_KEY_FILE};
/// Name the clients ask for (SNI); the certificate carries it, though the
/// pinned verification does not depend on it.
pub const SERVER_NAME: &str = "caipan";
/// A connection silent this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// Keep-alive interval, well inside the idle timeout.
pub const KEEP_ALIVE: Duration = Duration::from_secs(5);
/// Length of the stateless-reset key.
pub const RESET_KEY_LEN: usize = 64;

/// TLS setup failures.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: no certificate found (want PEM or DER)")]
    NoCertificate { path: PathBuf },
    #[error("{path}: no private key found (want PEM)")]
    NoKey { path: PathBuf },
    #[error(
        "{found} exists but {missing} does not: refusing to make a new identity over a half one"
    )]
    HalfIdentity { found: PathBuf, missing: PathBuf },
    #[error("{path}: stateless-reset key must be {RESET_KEY_LEN} bytes, found {len}")]
    BadResetKey { path: PathBuf, len: usize },
    #[error("certificate generation: {0}")]
    Generate(String),
    #[error("TLS: {0}")]
    Rustls(#[from] rustls::Error),
    #[error("QUIC config: {0}")]
    Quic(String),
    #[error("bind {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> TlsError + '_ {
    move |source| TlsError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Transport settings of the clients (and the base of the server's).
pub fn transport_config() -> quinn::TransportConfig {
    let mut t = quinn::TransportConfig::default();
    // 30 s fits in a VarInt of milliseconds; the conversion cannot fail.
    if let Ok(idle) = quinn::IdleTimeout::try_from(IDLE_TIMEOUT) {
        t.max_idle_timeout(Some(idle));
    }
    t.keep_alive_interval(Some(KEEP_ALIVE));
    // The server opens no stream to a client.
    t.max_concurrent_bidi_streams(0u8.into());
    t.max_concurrent_uni_streams(0u8.into());
    // No path MTU discovery, either side (issue 40): every datagram stays
    // at QUIC's safe 1,200 bytes. A table's frames and its replies are a
    // few dozen bytes, a client sends nothing large, and the probes cost
    // each connection about 4 probes and their ACKs each way at its
    // start (and again every 10 minutes): at 2,000 tables 12.8 datagrams
    // sent and 11.3 received per table to connect, 6.4 and 5.5 without
    // (docs/benchmarks.md). The cost: a console's hall snapshot leaves in
    // 1,200-byte packets instead of up to 1,452.
    t.mtu_discovery_config(None);
    // No QUIC datagrams, either side (issue 40): the protocol sends none,
    // and quinn's default would let a peer queue up to 1.25 MB of them
    // per connection, unread, in the other side's memory. Without a
    // receive buffer the transport parameter is not sent, so the peer
    // cannot send one (a DATAGRAM frame is then a protocol violation).
    t.datagram_receive_buffer_size(None);
    t
}

/// Receive window of a connection before its `Hello` is read: one frame
/// of the largest size a client may send, so a peer that never signs in
/// pins at most this much of the server's memory in QUIC buffers.
pub const HELLO_WINDOW: u32 = (MAX_CLIENT_FRAME + LEN_PREFIX) as u32;

/// Receive window of the one stream (and of the connection after sign-in):
/// two frames of the largest size a client may send, so a client can
/// pipeline while the server reads.
pub const STREAM_WINDOW: u32 = 2 * HELLO_WINDOW;

/// Bytes the server keeps in flight to one client (QUIC send buffer:
/// written and not yet acknowledged) before its `Hello` is authenticated:
/// 64 KiB. The server raises it after sign-in
/// (`quinn::Connection::set_send_window`, `server::room::SEND_WINDOW`).
pub const SERVER_SEND_WINDOW: u64 = 64 * 1024;

/// Transport settings of the server (those of [`transport_config`],
/// path MTU discovery off included), sized to the protocol: the client may
/// open ONE bidirectional stream and no unidirectional one (streams the
/// protocol does not use cannot be opened, so nothing unread piles up on
/// them); the connection may receive [`HELLO_WINDOW`] bytes until the
/// server raises it to [`STREAM_WINDOW`] after sign-in
/// (`quinn::Connection::set_receive_window`); [`SERVER_SEND_WINDOW`] bytes
/// in flight to the client.
pub fn server_transport_config() -> quinn::TransportConfig {
    let mut t = transport_config();
    t.max_concurrent_bidi_streams(1u8.into());
    t.max_concurrent_uni_streams(0u8.into());
    t.stream_receive_window(STREAM_WINDOW.into());
    t.receive_window(HELLO_WINDOW.into());
    t.send_window(SERVER_SEND_WINDOW);
    t
}

/// The server's certificate, key and stateless-reset key.
pub struct ServerIdentity {
    cert: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
    reset_key: [u8; RESET_KEY_LEN],
    fingerprint: Fingerprint,
    cert_path: Option<PathBuf>,
    created: bool,
}

impl std::fmt::Debug for ServerIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerIdentity")
            .field("fingerprint", &self.fingerprint)
            .field("cert_path", &self.cert_path)
            .field("created", &self.created)
            .finish_non_exhaustive()
    }
}

fn random_bytes<const N: usize>() -> Result<[u8; N], TlsError> {
    use ring::rand::SecureRandom;
    let mut out = [0u8; N];
    ring::rand::SystemRandom::new()
        .fill(&mut out)
        .map_err(|_| TlsError::Generate("system random source failed".into()))?;
    Ok(out)
}

/// Writes `data` to `path` durably (temp file, fsync, rename, fsync of the
/// directory: [`crate::durable`]), with mode 0600 on Unix when `secret`.
fn write_file(path: &Path, data: &[u8], secret: bool) -> Result<(), TlsError> {
    crate::durable::write_atomic_mode(path, data, secret).map_err(|e| TlsError::Io {
        path: e.path,
        source: e.source,
    })
}

impl ServerIdentity {
    /// A fresh in-memory identity (tests, benchmarks, throw-away halls).
    pub fn generate() -> Result<ServerIdentity, TlsError> {
        let ck = rcgen::generate_simple_self_signed(vec![
            SERVER_NAME.to_string(),
            "localhost".to_string(),
        ])
        .map_err(|e| TlsError::Generate(e.to_string()))?;
        let cert = ck.cert.der().clone();
        let key = PrivateKeyDer::Pkcs8(ck.signing_key.serialize_der().into());
        Ok(ServerIdentity {
            fingerprint: Fingerprint::of_der(&cert),
            cert,
            key,
            reset_key: random_bytes()?,
            cert_path: None,
            created: true,
        })
    }

    /// Loads the identity from `dir`, creating the directory and any
    /// missing part on first start. A certificate without its key (or the
    /// reverse) is an error rather than silently replaced, since clients
    /// pin the certificate.
    pub fn load_or_create(dir: &Path) -> Result<ServerIdentity, TlsError> {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        let cert_path = dir.join(CERT_FILE);
        let key_path = dir.join(KEY_FILE);
        let reset_path = dir.join(RESET_KEY_FILE);

        let reset_key = if reset_path.exists() {
            let bytes = std::fs::read(&reset_path).map_err(io_err(&reset_path))?;
            <[u8; RESET_KEY_LEN]>::try_from(bytes.as_slice()).map_err(|_| {
                TlsError::BadResetKey {
                    path: reset_path.clone(),
                    len: bytes.len(),
                }
            })?
        } else {
            let key: [u8; RESET_KEY_LEN] = random_bytes()?;
            write_file(&reset_path, &key, true)?;
            key
        };

        match (cert_path.exists(), key_path.exists()) {
            (true, true) => {
                let cert = read_certificate(&cert_path)?;
                let key = PrivateKeyDer::from_pem_file(&key_path).map_err(|_| TlsError::NoKey {
                    path: key_path.clone(),
                })?;
                Ok(ServerIdentity {
                    fingerprint: Fingerprint::of_der(&cert),
                    cert,
                    key,
                    reset_key,
                    cert_path: Some(cert_path),
                    created: false,
                })
            }
            (false, false) => {
                let ck = rcgen::generate_simple_self_signed(vec![
                    SERVER_NAME.to_string(),
                    "localhost".to_string(),
                ])
                .map_err(|e| TlsError::Generate(e.to_string()))?;
                write_file(&key_path, ck.signing_key.serialize_pem().as_bytes(), true)?;
                write_file(&cert_path, ck.cert.pem().as_bytes(), false)?;
                let cert = ck.cert.der().clone();
                tracing::info!(path = %cert_path.display(), "created a self-signed server certificate");
                Ok(ServerIdentity {
                    fingerprint: Fingerprint::of_der(&cert),
                    cert,
                    key: PrivateKeyDer::Pkcs8(ck.signing_key.serialize_der().into()),
                    reset_key,
                    cert_path: Some(cert_path),
                    created: true,
                })
            }
            (true, false) => Err(TlsError::HalfIdentity {
                found: cert_path,
                missing: key_path,
            }),
            (false, true) => Err(TlsError::HalfIdentity {
                found: key_path,
                missing: cert_path,
            }),
        }
    }

    /// SHA-256 fingerprint of the certificate (print it for the clients).
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }

    /// The certificate, DER.
    pub fn cert_der(&self) -> &[u8] {
        &self.cert
    }

    /// Where the certificate file is (None for a generated in-memory identity).
    pub fn cert_path(&self) -> Option<&Path> {
        self.cert_path.as_deref()
    }

    /// True when this start created the certificate.
    pub fn created(&self) -> bool {
        self.created
    }

    /// The quinn server config: TLS 1.3, ALPN `caipan/1`, no 0-RTT,
    /// [`server_transport_config`], small buffers for handshakes not yet
    /// accepted.
    ///
    /// The server prefers ChaCha20-Poly1305 with compact keys
    /// ([`crate::chacha_keys`]): ~3.5 KB less a connection than AES-GCM's
    /// key objects. A client that does not offer it gets AES-GCM.
    pub fn server_config(&self) -> Result<quinn::ServerConfig, TlsError> {
        let mut tls = self.tls_server_config(Arc::new(crate::chacha_keys::provider()))?;
        tls.ignore_client_order = true;
        let crypto = crate::lean_session::LeanServerConfig::new(tls).map_err(TlsError::Quic)?;
        Ok(self.quinn_server_config(Arc::new(crypto)))
    }

    /// [`ServerIdentity::server_config`] with ring's cipher suites in the
    /// client's order, as quinn's defaults are: the raw echo baseline's
    /// config (`caipan bench hall`), bare quinn as it comes.
    pub fn server_config_ring_suites(&self) -> Result<quinn::ServerConfig, TlsError> {
        let tls = self.tls_server_config(provider())?;
        let quic = QuicServerConfig::try_from(tls).map_err(|e| TlsError::Quic(e.to_string()))?;
        Ok(self.quinn_server_config(Arc::new(quic)))
    }

    /// TLS 1.3 with this identity's certificate, ALPN `caipan/1`, no 0-RTT.
    pub(crate) fn tls_server_config(
        &self,
        provider: Arc<rustls::crypto::CryptoProvider>,
    ) -> Result<rustls::ServerConfig, TlsError> {
        let mut tls = rustls::ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS13])?
            .with_no_client_auth()
            .with_single_cert(vec![self.cert.clone()], self.key.clone_key())?;
        tls.alpn_protocols = vec![ALPN.to_vec()];
        tls.max_early_data_size = 0;
        Ok(tls)
    }

    fn quinn_server_config(
        &self,
        crypto: Arc<dyn quinn::crypto::ServerConfig>,
    ) -> quinn::ServerConfig {
        let mut cfg = quinn::ServerConfig::with_crypto(crypto);
        cfg.transport_config(Arc::new(server_transport_config()));
        // Packets buffered for handshakes not yet accepted: small, bounded.
        cfg.incoming_buffer_size(64 * 1024);
        cfg.incoming_buffer_size_total(16 * 1024 * 1024);
        cfg.max_incoming(4096);
        cfg
    }

    /// Endpoint config carrying the persisted stateless-reset key.
    pub fn endpoint_config(&self) -> quinn::EndpointConfig {
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &self.reset_key);
        quinn::EndpointConfig::new(Arc::new(key))
    }

    /// Binds a server endpoint on `addr` (use port 0 for any free port;
    /// `Endpoint::local_addr` tells which). Needs a Tokio runtime.
    pub fn bind(&self, addr: SocketAddr) -> Result<quinn::Endpoint, TlsError> {
        let socket =
            std::net::UdpSocket::bind(addr).map_err(|source| TlsError::Bind { addr, source })?;
        self.endpoint_on(addr, socket, self.server_config()?)
    }

    /// [`Self::bind`] with [`Self::server_config_ring_suites`]: the raw
    /// echo baseline's endpoint.
    pub fn bind_ring_suites(&self, addr: SocketAddr) -> Result<quinn::Endpoint, TlsError> {
        let socket =
            std::net::UdpSocket::bind(addr).map_err(|source| TlsError::Bind { addr, source })?;
        self.endpoint_on(addr, socket, self.server_config_ring_suites()?)
    }

    /// [`Self::bind`] on a socket with a larger UDP receive buffer
    /// ([`crate::udp`]); the size the kernel granted is logged.
    pub fn bind_with_receive_buffer(
        &self,
        addr: SocketAddr,
        receive_buffer: usize,
    ) -> Result<quinn::Endpoint, TlsError> {
        let (socket, granted) = crate::udp::bind_with_receive_buffer(addr, receive_buffer)
            .map_err(|source| TlsError::Bind { addr, source })?;
        tracing::info!(asked = receive_buffer, granted, "UDP receive buffer");
        self.endpoint_on(addr, socket, self.server_config()?)
    }

    /// A server endpoint over the QUIC shell ([`crate::shell`]) on `addr`,
    /// its socket with a larger UDP receive buffer ([`crate::udp`]; the size
    /// the kernel granted is logged). The server's transport.
    pub fn shell_with_receive_buffer(
        &self,
        addr: SocketAddr,
        receive_buffer: usize,
    ) -> Result<crate::shell::Endpoint, TlsError> {
        let (socket, granted) = crate::udp::bind_with_receive_buffer(addr, receive_buffer)
            .map_err(|source| TlsError::Bind { addr, source })?;
        tracing::info!(asked = receive_buffer, granted, "UDP receive buffer");
        crate::shell::Endpoint::new(socket, self.endpoint_config(), self.server_config()?)
            .map_err(|source| TlsError::Bind { addr, source })
    }

    /// [`Self::shell_with_receive_buffer`] with the system's buffer.
    pub fn shell(&self, addr: SocketAddr) -> Result<crate::shell::Endpoint, TlsError> {
        let socket =
            std::net::UdpSocket::bind(addr).map_err(|source| TlsError::Bind { addr, source })?;
        crate::shell::Endpoint::new(socket, self.endpoint_config(), self.server_config()?)
            .map_err(|source| TlsError::Bind { addr, source })
    }

    /// A server endpoint on a bound `socket`.
    fn endpoint_on(
        &self,
        addr: SocketAddr,
        socket: std::net::UdpSocket,
        config: quinn::ServerConfig,
    ) -> Result<quinn::Endpoint, TlsError> {
        let runtime = quinn::default_runtime()
            .ok_or_else(|| TlsError::Quic("no async runtime (Tokio) running".into()))?;
        quinn::Endpoint::new(self.endpoint_config(), Some(config), socket, runtime)
            .map_err(|source| TlsError::Bind { addr, source })
    }
}

/// Reads the first certificate of a PEM file, or a whole DER file.
pub fn read_certificate(path: &Path) -> Result<CertificateDer<'static>, TlsError> {
    let bytes = std::fs::read(path).map_err(io_err(path))?;
    let none = || TlsError::NoCertificate {
        path: path.to_path_buf(),
    };
    if bytes.starts_with(b"-----BEGIN") || bytes.windows(11).any(|w| w == b"-----BEGIN ") {
        CertificateDer::pem_slice_iter(&bytes)
            .next()
            .ok_or_else(none)?
            .map_err(|_| none())
    } else if bytes.first() == Some(&0x30) {
        Ok(CertificateDer::from(bytes))
    } else {
        Err(none())
    }
}

/// What a client trusts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trust {
    /// The server certificate in this file (PEM or DER).
    CertFile(PathBuf),
    /// The server certificate itself (DER).
    CertDer(Vec<u8>),
    /// The certificate with this SHA-256 fingerprint.
    Fingerprint(Fingerprint),
}

impl Trust {
    /// The fingerprint to pin.
    pub fn fingerprint(&self) -> Result<Fingerprint, TlsError> {
        match self {
            Trust::CertFile(path) => Ok(Fingerprint::of_der(&read_certificate(path)?)),
            Trust::CertDer(der) => Ok(Fingerprint::of_der(der)),
            Trust::Fingerprint(fp) => Ok(*fp),
        }
    }
}

/// The server presented another certificate than the pinned one. Its
/// `Debug` is its message, since rustls shows the cause of a failed
/// verification by `Debug`; [`crate::ConnError::is_permanent`] finds it by
/// [`FINGERPRINT_MISMATCH`].
#[derive(thiserror::Error)]
#[error("{FINGERPRINT_MISMATCH}: the server presented {presented}, this client pins {pinned} (check --fingerprint or --cert against `caipan serve`'s banner)")]
pub struct FingerprintMismatch {
    pinned: Fingerprint,
    presented: Fingerprint,
}

/// The start of [`FingerprintMismatch`]'s message.
pub const FINGERPRINT_MISMATCH: &str =
    "the server's certificate fingerprint does not match the pinned one";

impl std::fmt::Debug for FingerprintMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

/// Accepts exactly the certificate with the pinned fingerprint, and checks
/// the handshake signatures against it.
#[derive(Debug)]
struct PinnedCertVerifier {
    pinned: Fingerprint,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for PinnedCertVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let presented = Fingerprint::of_der(end_entity);
        if presented == self.pinned {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::Other(rustls::OtherError(std::sync::Arc::new(
                    FingerprintMismatch {
                        pinned: self.pinned,
                        presented,
                    },
                ))),
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// The quinn client config for `trust`: TLS 1.3, ALPN `caipan/1`,
/// certificate pinned, [`transport_config`].
pub fn client_config(trust: &Trust) -> Result<quinn::ClientConfig, TlsError> {
    let tls = tls_client_config(trust, provider())?;
    let quic = QuicClientConfig::try_from(tls).map_err(|e| TlsError::Quic(e.to_string()))?;
    let mut cfg = quinn::ClientConfig::new(Arc::new(quic));
    cfg.transport_config(Arc::new(transport_config()));
    Ok(cfg)
}

/// TLS 1.3 trusting exactly `trust`'s certificate, ALPN `caipan/1`.
pub(crate) fn tls_client_config(
    trust: &Trust,
    provider: Arc<rustls::crypto::CryptoProvider>,
) -> Result<rustls::ClientConfig, TlsError> {
    let verifier = PinnedCertVerifier {
        pinned: trust.fingerprint()?,
        algorithms: provider.signature_verification_algorithms,
    };
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    tls.alpn_protocols = vec![ALPN.to_vec()];
    Ok(tls)
}
