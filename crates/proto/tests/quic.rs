//! Real QUIC loopback tests: a server endpoint with a generated certificate
//! in a temp data dir, clients pinning its fingerprint or trusting its
//! certificate file, wrong fingerprints, refused hellos, oversize frames,
//! and the identity persisting across restarts.

mod common;

use common::*;
use proto::conn::{accept_hello, ConnError, Connector};
use proto::limits::MAX_CLIENT_FRAME;
use proto::tls::{CERT_FILE, KEY_FILE, RESET_KEY_FILE};
use proto::*;
use std::net::SocketAddr;

/// A tiny protocol peer: token "good" is table 7; acks events, answers
/// pings, reports bad frames.
async fn serve(endpoint: std::sync::Arc<proto::shell::Endpoint>) {
    while let Some(incoming) = endpoint.accept().await {
        tokio::spawn(async move {
            let Ok(connection) = incoming.accept().await else {
                return;
            };
            let Ok((mut conn, hello)) = accept_hello(connection).await else {
                return;
            };
            if hello.token != "good" {
                conn.refuse(ErrorReply {
                    code: ErrorCode::Unauthenticated,
                    message: proto::refusals::unknown_token(),
                    re: None,
                })
                .await;
                return;
            }
            let ok = ServerMsg::HelloOk(hello_ok(Role::Table { table: 7 }, true));
            if conn.sender.send(&ok).await.is_err() {
                return;
            }
            loop {
                let reply = match conn.receiver.recv().await {
                    Ok(Some(ClientMsg::Ping { nonce })) => ServerMsg::Pong { nonce },
                    Ok(Some(ClientMsg::Event(e))) => ServerMsg::Ack(Ack {
                        table: e.table,
                        epoch: e.epoch,
                        seq: e.seq,
                        duplicate: false,
                    }),
                    Ok(Some(_)) => continue,
                    Ok(None) => return,
                    Err(e) if e.is_recoverable() => ServerMsg::Error(ErrorReply {
                        code: match e {
                            proto::FrameError::TooLarge { max, .. } => {
                                ErrorCode::TooLarge { limit: max as u32 }
                            }
                            _ => ErrorCode::BadFrame,
                        },
                        message: proto::refusals::server_error(&e.to_string()),
                        re: None,
                    }),
                    Err(_) => return,
                };
                if conn.sender.send(&reply).await.is_err() {
                    return;
                }
            }
        });
    }
}

struct TestServer {
    addr: SocketAddr,
    fingerprint: Fingerprint,
    endpoint: std::sync::Arc<proto::shell::Endpoint>,
}

fn start(dir: &std::path::Path) -> TestServer {
    let identity = ServerIdentity::load_or_create(dir).unwrap();
    let endpoint = std::sync::Arc::new(identity.shell("127.0.0.1:0".parse().unwrap()).unwrap());
    let addr = endpoint.local_addr().unwrap();
    tokio::spawn(serve(endpoint.clone()));
    TestServer {
        addr,
        fingerprint: identity.fingerprint(),
        endpoint,
    }
}

#[tokio::test]
async fn pinned_fingerprint_connects_and_events_are_acked_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let mut conn = connect(
        server.addr,
        &Trust::Fingerprint(server.fingerprint),
        hello("good"),
    )
    .await
    .unwrap();
    assert_eq!(conn.hello_ok.role, Role::Table { table: 7 });
    assert_eq!(conn.hello_ok.table.as_ref().unwrap().high_water, 41);

    // A batch: many events queued, one flush.
    let events = all_table_events();
    for seq in 1..=1000u64 {
        let body = events[seq as usize % events.len()].clone();
        conn.queue(&ClientMsg::Event(EventEnvelope {
            table: 7,
            epoch: 1,
            seq,
            body,
        }))
        .unwrap();
    }
    conn.flush().await.unwrap();
    for seq in 1..=1000u64 {
        match conn.recv().await.unwrap() {
            ServerMsg::Ack(ack) => assert_eq!((ack.table, ack.epoch, ack.seq), (7, 1, seq)),
            other => panic!("{other:?}"),
        }
    }
    conn.send(&ClientMsg::Ping { nonce: 99 }).await.unwrap();
    assert_eq!(conn.recv().await.unwrap(), ServerMsg::Pong { nonce: 99 });
    conn.close("done");
    server.endpoint.close(0u32.into(), b"");
}

#[tokio::test]
async fn certificate_file_trust_connects_pem_and_der() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let pem = dir.path().join(CERT_FILE);
    let conn = connect(server.addr, &Trust::CertFile(pem.clone()), hello("good"))
        .await
        .unwrap();
    assert_eq!(conn.hello_ok.role, Role::Table { table: 7 });

    let der = proto::tls::read_certificate(&pem).unwrap();
    let der_path = dir.path().join("server.der");
    std::fs::write(&der_path, der.as_ref()).unwrap();
    let mut conn = connect(server.addr, &Trust::CertFile(der_path), hello("good"))
        .await
        .unwrap();
    conn.send(&ClientMsg::Ping { nonce: 1 }).await.unwrap();
    assert_eq!(conn.recv().await.unwrap(), ServerMsg::Pong { nonce: 1 });
}

#[tokio::test]
async fn wrong_fingerprint_or_certificate_fails_and_the_server_keeps_serving() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let mut wrong = server.fingerprint;
    wrong.0[0] ^= 1;
    let err = connect(server.addr, &Trust::Fingerprint(wrong), hello("good"))
        .await
        .err()
        .unwrap();
    assert!(matches!(err, ConnError::Connection(_)), "{err:?}");

    let other = ServerIdentity::generate().unwrap();
    let err = connect(
        server.addr,
        &Trust::CertDer(other.cert_der().to_vec()),
        hello("good"),
    )
    .await
    .err()
    .unwrap();
    assert!(matches!(err, ConnError::Connection(_)), "{err:?}");

    let conn = connect(
        server.addr,
        &Trust::Fingerprint(server.fingerprint),
        hello("good"),
    )
    .await;
    assert!(conn.is_ok());
}

#[tokio::test]
async fn bad_token_and_bad_version_are_refused_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let trust = Trust::Fingerprint(server.fingerprint);
    match connect(server.addr, &trust, hello("bad")).await {
        Err(ConnError::Refused(e)) => assert_eq!(e.code, ErrorCode::Unauthenticated),
        other => panic!("{:?}", other.err()),
    }
    // The last released protocol (12, at 7d2b947), the next one, and 0.
    for version in [12, PROTOCOL_VERSION + 1, 0] {
        let mut other = hello("good");
        other.protocol_version = version;
        match connect(server.addr, &trust, other).await {
            Err(ConnError::Refused(e)) => {
                assert_eq!(
                    e.code,
                    ErrorCode::BadVersion {
                        server: PROTOCOL_VERSION
                    },
                    "version {version}"
                )
            }
            other => panic!("version {version}: {:?}", other.err()),
        }
    }
}

#[tokio::test]
async fn many_connections_share_one_connector() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let connector = Connector::new(&Trust::Fingerprint(server.fingerprint), false).unwrap();
    let mut conns = Vec::new();
    for _ in 0..20 {
        conns.push(connector.connect(server.addr, hello("good")).await.unwrap());
    }
    for (i, conn) in conns.iter_mut().enumerate() {
        conn.send(&ClientMsg::Ping { nonce: i as u64 })
            .await
            .unwrap();
    }
    for (i, conn) in conns.iter_mut().enumerate() {
        assert_eq!(
            conn.recv().await.unwrap(),
            ServerMsg::Pong { nonce: i as u64 }
        );
    }
}

#[tokio::test]
async fn oversize_frame_over_quic_gets_an_error_and_the_connection_survives() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let conn = connect(
        server.addr,
        &Trust::Fingerprint(server.fingerprint),
        hello("good"),
    )
    .await
    .unwrap();
    let (_connection, _ok, mut sender, mut receiver) = conn.split();
    let len = MAX_CLIENT_FRAME * 2;
    let mut raw = (len as u32).to_be_bytes().to_vec();
    raw.resize(4 + len, 0x5A);
    // A garbage frame of legal size, too.
    raw.extend_from_slice(&[0, 0, 0, 3, 0xFF, 0xFF, 0xFF]);
    sender.get_mut().write_all(&raw).await.unwrap();
    sender.send(&ClientMsg::Ping { nonce: 5 }).await.unwrap();
    match receiver.recv().await.unwrap().unwrap() {
        ServerMsg::Error(e) => {
            assert_eq!(
                e.code,
                ErrorCode::TooLarge {
                    limit: MAX_CLIENT_FRAME as u32
                }
            )
        }
        other => panic!("{other:?}"),
    }
    match receiver.recv().await.unwrap().unwrap() {
        ServerMsg::Error(e) => assert_eq!(e.code, ErrorCode::BadFrame),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        receiver.recv().await.unwrap().unwrap(),
        ServerMsg::Pong { nonce: 5 }
    );
}

#[tokio::test]
async fn identity_persists_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let first = ServerIdentity::load_or_create(dir.path()).unwrap();
    assert!(first.created());
    let reset = std::fs::read(dir.path().join(RESET_KEY_FILE)).unwrap();
    assert_eq!(reset.len(), 64);
    let second = ServerIdentity::load_or_create(dir.path()).unwrap();
    assert!(!second.created());
    assert_eq!(first.fingerprint(), second.fingerprint());
    assert_eq!(
        std::fs::read(dir.path().join(RESET_KEY_FILE)).unwrap(),
        reset
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "key file must not be readable by others");
    }

    // A restarted server (same dir) is accepted by a client pinned to the
    // first start's fingerprint.
    let server = start(dir.path());
    assert_eq!(server.fingerprint, first.fingerprint());
    connect(
        server.addr,
        &Trust::Fingerprint(first.fingerprint()),
        hello("good"),
    )
    .await
    .unwrap();
}

#[test]
fn half_identities_and_bad_reset_keys_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    ServerIdentity::load_or_create(dir.path()).unwrap();
    std::fs::remove_file(dir.path().join(KEY_FILE)).unwrap();
    assert!(matches!(
        ServerIdentity::load_or_create(dir.path()),
        Err(TlsError::HalfIdentity { .. })
    ));

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(RESET_KEY_FILE), [1u8; 10]).unwrap();
    assert!(matches!(
        ServerIdentity::load_or_create(dir.path()),
        Err(TlsError::BadResetKey { len: 10, .. })
    ));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junk.pem");
    std::fs::write(&path, "not a certificate").unwrap();
    assert!(matches!(
        Trust::CertFile(path).fingerprint(),
        Err(TlsError::NoCertificate { .. })
    ));
}

/// Presents a fixed certificate chain with a signing key that may not match it.
#[derive(Debug)]
struct Impostor(std::sync::Arc<quinn::rustls::sign::CertifiedKey>);

impl quinn::rustls::server::ResolvesServerCert for Impostor {
    fn resolve(
        &self,
        _hello: quinn::rustls::server::ClientHello<'_>,
    ) -> Option<std::sync::Arc<quinn::rustls::sign::CertifiedKey>> {
        Some(self.0.clone())
    }
}

/// A server that shows the genuine certificate (it is public) but signs the
/// handshake with its own key must be refused by a client pinning the
/// genuine fingerprint: the pin alone is not enough, the signature counts.
#[tokio::test]
async fn a_replayed_certificate_without_its_key_is_refused() {
    use quinn::rustls;
    use std::sync::Arc;

    let dir = tempfile::tempdir().unwrap();
    let genuine = ServerIdentity::load_or_create(dir.path()).unwrap();
    let cert = proto::tls::read_certificate(&dir.path().join(CERT_FILE)).unwrap();

    let other_key = rcgen::KeyPair::generate().unwrap();
    let key_der = rustls::pki_types::PrivateKeyDer::Pkcs8(other_key.serialize_der().into());
    let signer = rustls::crypto::ring::sign::any_supported_type(&key_der).unwrap();
    let certified = rustls::sign::CertifiedKey::new(vec![cert], signer);
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(Impostor(Arc::new(certified))));
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let quic = quinn::crypto::rustls::QuicServerConfig::try_from(tls).unwrap();
    let endpoint = Arc::new(
        proto::shell::Endpoint::new(
            std::net::UdpSocket::bind("127.0.0.1:0").unwrap(),
            quinn::EndpointConfig::default(),
            quinn::ServerConfig::with_crypto(Arc::new(quic)),
        )
        .unwrap(),
    );
    let addr = endpoint.local_addr().unwrap();
    tokio::spawn(serve(endpoint.clone()));

    let err = connect(
        addr,
        &Trust::Fingerprint(genuine.fingerprint()),
        hello("good"),
    )
    .await
    .err()
    .expect("impostor must be refused");
    assert!(matches!(err, ConnError::Connection(_)), "{err:?}");
    endpoint.close(0u32.into(), b"");
}

#[tokio::test]
async fn a_peer_cannot_send_quic_datagrams_to_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    // A client whose own transport allows datagrams (quinn's default).
    let mut config = proto::tls::client_config(&Trust::Fingerprint(server.fingerprint)).unwrap();
    config.transport_config(std::sync::Arc::new(quinn::TransportConfig::default()));
    let endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    let connection = endpoint
        .connect_with(config, server.addr, proto::tls::SERVER_NAME)
        .unwrap()
        .await
        .unwrap();
    // The server offered no datagram buffer: nothing can be queued in it.
    assert_eq!(connection.max_datagram_size(), None);
    assert!(matches!(
        connection.send_datagram(b"unread".to_vec().into()),
        Err(quinn::SendDatagramError::UnsupportedByPeer)
    ));
    connection.close(0u32.into(), b"done");
    server.endpoint.close(0u32.into(), b"");
}

/// One echo over a fresh bidirectional stream.
async fn echo_once(connection: &quinn::Connection, message: &[u8]) -> Vec<u8> {
    let (mut send, mut recv) = connection.open_bi().await.unwrap();
    send.write_all(message).await.unwrap();
    send.finish().unwrap();
    recv.read_to_end(1024).await.unwrap()
}

#[tokio::test]
async fn the_server_keeps_no_tls_session_yet_serves_key_updates_from_both_sides() {
    // `server_config`'s sessions let rustls's connection go after the
    // handshake (proto::lean_session); key updates then come from the
    // secrets kept, whichever side starts them.
    let identity = ServerIdentity::generate().unwrap();
    let server = identity.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.local_addr().unwrap();
    let accepted = tokio::spawn({
        let server = server.clone();
        async move {
            let connection = server.accept().await.unwrap().await.unwrap();
            let echo = connection.clone();
            tokio::spawn(async move {
                while let Ok((mut send, mut recv)) = echo.accept_bi().await {
                    let message = recv.read_to_end(1024).await.unwrap();
                    send.write_all(&message).await.unwrap();
                    send.finish().unwrap();
                }
            });
            connection
        }
    });
    let config = proto::tls::client_config(&Trust::Fingerprint(identity.fingerprint())).unwrap();
    let client = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
    let connection = client
        .connect_with(config, addr, proto::tls::SERVER_NAME)
        .unwrap()
        .await
        .unwrap();
    let on_server = accepted.await.unwrap();
    assert_eq!(echo_once(&connection, b"first").await, b"first");
    let data = on_server.handshake_data().unwrap();
    let data = data
        .downcast::<quinn::crypto::rustls::HandshakeData>()
        .unwrap();
    assert_eq!(data.protocol.as_deref(), Some(proto::ALPN));
    for round in 0..3 {
        connection.force_key_update();
        let message = format!("after the client's key update {round}");
        assert_eq!(
            echo_once(&connection, message.as_bytes()).await,
            message.as_bytes()
        );
        on_server.force_key_update();
        let message = format!("after the server's key update {round}");
        assert_eq!(
            echo_once(&connection, message.as_bytes()).await,
            message.as_bytes()
        );
    }
    assert!(connection.close_reason().is_none());
    connection.close(0u32.into(), b"done");
    server.close(0u32.into(), b"");
}
