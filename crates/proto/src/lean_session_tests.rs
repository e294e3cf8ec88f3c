//! Tests of [`crate::lean_session`]: the session driven as quinn drives it,
//! against rustls's own QUIC client in memory.

use crate::lean_session::{LeanServerConfig, LeanSession};
use crate::tls::{tls_client_config, ServerIdentity, Trust, SERVER_NAME};
use crate::ALPN;
use bytes::BytesMut;
use quinn::crypto::rustls::HandshakeData;
use quinn::rustls;
use quinn_proto::crypto::{PacketKey, Session};
use quinn_proto::transport_parameters::TransportParameters;
use quinn_proto::TransportErrorCode;
use rustls::quic::{self, KeyChange};
use std::sync::Arc;

fn configs() -> (LeanServerConfig, Arc<rustls::ClientConfig>) {
    let identity = ServerIdentity::generate().expect("identity");
    let trust = Trust::CertDer(identity.cert_der().to_vec());
    let mut tls = identity
        .tls_server_config(Arc::new(crate::chacha_keys::provider()))
        .expect("server tls");
    tls.ignore_client_order = true;
    let ring = Arc::new(rustls::crypto::ring::default_provider());
    let client = Arc::new(tls_client_config(&trust, ring).expect("client tls"));
    (LeanServerConfig::new(tls).expect("lean config"), client)
}

/// Transport parameters with every default (an empty encoding).
fn params() -> TransportParameters {
    TransportParameters::read(
        quinn_proto::Side::Client,
        &mut std::io::Cursor::new(&[][..]),
    )
    .expect("the empty encoding")
}

fn client(config: Arc<rustls::ClientConfig>) -> quic::ClientConnection {
    let mut encoded = Vec::new();
    params().write(&mut encoded);
    quic::ClientConnection::new(
        config,
        quic::Version::V1,
        SERVER_NAME.try_into().expect("name"),
        encoded,
    )
    .expect("client")
}

/// What the handshake left: the client's 1-RTT keys and next secrets, the
/// server's 1-RTT packet keys, how often the server said its handshake
/// data was ready, whether it had the client's transport parameters.
struct Outcome {
    client_keys: quic::Keys,
    client_next: quic::Secrets,
    server_keys: quinn_proto::crypto::Keys,
    data_ready: usize,
    saw_params: bool,
}

/// The handshake as quinn runs it: CRYPTO data read in order, then the
/// session written until it has nothing more (quinn's `write_crypto`).
fn handshake(session: &mut LeanSession, client: &mut quic::ClientConnection) -> Outcome {
    let (mut client_one_rtt, mut server_keys) = (None, Vec::new());
    let (mut data_ready, mut saw_params) = (0, false);
    for _ in 0..16 {
        // Each side's output is read a key phase at a time, as QUIC carries
        // it (one packet space per level).
        let mut up = Vec::new();
        loop {
            let mut chunk = Vec::new();
            let change = client.write_hs(&mut chunk);
            if !chunk.is_empty() {
                up.push(chunk);
            }
            match change {
                Some(KeyChange::OneRtt { keys, next }) => client_one_rtt = Some((keys, next)),
                Some(KeyChange::Handshake { .. }) => {}
                None => break,
            }
        }
        for chunk in &up {
            data_ready += usize::from(session.read_handshake(chunk).expect("server reads"));
            saw_params |= matches!(session.transport_parameters(), Ok(Some(_)));
        }
        let mut down = Vec::new();
        loop {
            let mut chunk = Vec::new();
            let keys = session.write_handshake(&mut chunk);
            let wrote = !chunk.is_empty();
            if wrote {
                down.push(chunk);
            }
            match keys {
                Some(keys) => server_keys.push(keys),
                None if !wrote => break,
                None => {}
            }
        }
        for chunk in &down {
            client.read_hs(chunk).expect("client reads");
        }
        if up.is_empty() && down.is_empty() {
            break;
        }
    }
    let (client_keys, client_next) = client_one_rtt.expect("client 1-RTT keys");
    assert_eq!(server_keys.len(), 2, "Handshake keys, then 1-RTT keys");
    Outcome {
        client_keys,
        client_next,
        server_keys: server_keys.pop().expect("1-RTT keys"),
        data_ready,
        saw_params,
    }
}

/// `key` (quinn's interface, the server's) seals; rustls's `opener` opens.
fn server_to_client(key: &dyn PacketKey, opener: &dyn quic::PacketKey, pn: u64) -> Vec<u8> {
    let header = [0x41u8, 9, 9, 9];
    let plain = format!("packet {pn}");
    let mut packet = header.to_vec();
    packet.extend_from_slice(plain.as_bytes());
    packet.resize(packet.len() + key.tag_len(), 0);
    key.encrypt(pn, &mut packet, header.len());
    let mut payload = packet[header.len()..].to_vec();
    let opened = opener
        .decrypt_in_place(pn, &header, &mut payload)
        .expect("the client opens the server's packet");
    opened.to_vec()
}

/// rustls's `sealer` (the client's) seals; `key` (the server's) opens.
fn client_to_server(sealer: &dyn quic::PacketKey, key: &dyn PacketKey, pn: u64) -> Vec<u8> {
    let header = [0x41u8, 7, 7, 7];
    let mut payload = format!("packet {pn}").into_bytes();
    let tag = sealer
        .encrypt_in_place(pn, &header, &mut payload)
        .expect("seal");
    payload.extend_from_slice(tag.as_ref());
    let mut payload = BytesMut::from(&payload[..]);
    key.decrypt(pn, &header, &mut payload)
        .expect("the server opens the client's packet");
    payload.to_vec()
}

#[test]
fn rustls_goes_after_the_handshake_and_key_updates_still_work() {
    let (config, client_config) = configs();
    let mut session = config.session(1, &params());
    let mut client = client(client_config);
    assert!(session.is_handshaking() && !session.released());
    let mut outcome = handshake(&mut session, &mut client);
    assert!(!client.is_handshaking());
    assert!(session.released(), "rustls's connection let go");
    assert!(!session.is_handshaking());
    assert_eq!(outcome.data_ready, 1, "HandshakeDataReady once");
    assert!(outcome.saw_params, "the client's transport parameters read");

    let data = session.handshake_data().expect("handshake data");
    let data = data.downcast::<HandshakeData>().expect("quinn's type");
    assert_eq!(data.protocol.as_deref(), Some(ALPN));
    assert_eq!(data.server_name.as_deref(), Some(SERVER_NAME));

    assert_eq!(
        server_to_client(
            &*outcome.server_keys.packet.local,
            &*outcome.client_keys.remote.packet,
            1
        ),
        b"packet 1"
    );
    assert_eq!(
        client_to_server(
            &*outcome.client_keys.local.packet,
            &*outcome.server_keys.packet.remote,
            2
        ),
        b"packet 2"
    );
    // Three key phases after the first (RFC 9001 §6), from the secrets the
    // session kept.
    for phase in 0..3u64 {
        let server = session.next_1rtt_keys().expect("next keys");
        let client = outcome.client_next.next_packet_keys();
        let pn = 100 + phase;
        assert_eq!(
            server_to_client(&*server.local, &*client.remote, pn),
            format!("packet {pn}").as_bytes()
        );
        assert_eq!(
            client_to_server(&*client.local, &*server.remote, pn + 10),
            format!("packet {}", pn + 10).as_bytes()
        );
    }
}

#[test]
fn tls_data_after_the_handshake_is_refused_as_unexpected() {
    let (config, client_config) = configs();
    let mut session = config.session(1, &params());
    handshake(&mut session, &mut client(client_config));
    let err = session
        .read_handshake(b"\x04\x00\x00\x01x")
        .expect_err("refused");
    assert_eq!(err.code, TransportErrorCode::crypto(10));
    let mut out = Vec::new();
    assert!(session.write_handshake(&mut out).is_none() && out.is_empty());
    assert!(matches!(session.transport_parameters(), Ok(None)));
    assert!(session.peer_identity().is_none());
    let mut exported = [0u8; 8];
    assert!(session
        .export_keying_material(&mut exported, b"label", b"")
        .is_err());
}

#[test]
fn a_garbled_client_hello_is_a_tls_alert_and_nothing_is_released() {
    let (config, _) = configs();
    let mut session = config.session(1, &params());
    let err = session
        .read_handshake(b"\x01\x00\x00\x05hello")
        .expect_err("refused");
    let code = u64::from(err.code);
    assert!(
        (0x100..0x200).contains(&code),
        "a CRYPTO_ERROR, got {code:#x}"
    );
    assert!(!session.released());
}

#[test]
fn an_unknown_quic_version_gives_a_session_that_refuses_everything() {
    let (config, _) = configs();
    let mut session = config.session(0x0bad_0bad, &params());
    let err = session.read_handshake(b"\x01").expect_err("refused");
    assert_eq!(err.code, TransportErrorCode::INTERNAL_ERROR);
    assert!(err.reason.contains("0xbad0bad"), "{}", err.reason);
}
