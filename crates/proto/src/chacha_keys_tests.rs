//! Tests of [`crate::chacha_keys`]: every key's output against rustls's own
//! ChaCha20 keys over ring, and real handshakes (QUIC's and TLS's record
//! layer) between a client with ring's default suites and the server's.

use crate::chacha_keys::{self, QuicKeys};
use crate::tls::{tls_client_config, ServerIdentity, Trust};
use quinn::rustls;
use ring::rand::{SecureRandom, SystemRandom};
use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::quic::{self, Algorithm, KeyChange};
use rustls::{CipherSuite, Error};
use std::sync::Arc;

fn random<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    SystemRandom::new().fill(&mut out).expect("system random");
    out
}

fn ring_quic() -> &'static dyn Algorithm {
    chacha_keys::ring_suite()
        .quic
        .expect("ring's ChaCha20 suite has QUIC keys")
}

/// (ours, ring's) packet keys of one key and IV.
fn packet_keys() -> (Box<dyn quic::PacketKey>, Box<dyn quic::PacketKey>) {
    let (key, iv) = (random::<32>(), random::<12>());
    (
        QuicKeys.packet_key(AeadKey::from(key), Iv::from(iv)),
        ring_quic().packet_key(AeadKey::from(key), Iv::from(iv)),
    )
}

fn seal(key: &dyn quic::PacketKey, pn: u64, header: &[u8], plain: &[u8]) -> Vec<u8> {
    let mut sealed = plain.to_vec();
    let tag = key.encrypt_in_place(pn, header, &mut sealed).expect("seal");
    sealed.extend_from_slice(tag.as_ref());
    sealed
}

fn open(
    key: &dyn quic::PacketKey,
    pn: u64,
    header: &[u8],
    sealed: &[u8],
) -> Result<Vec<u8>, Error> {
    let mut buf = sealed.to_vec();
    key.decrypt_in_place(pn, header, &mut buf)
        .map(<[u8]>::to_vec)
}

#[test]
fn packets_seal_as_rings_keys_do_and_open_both_ways() {
    for pn in [0, 1, 255, 1 << 20, (1 << 62) - 1] {
        for len in [0usize, 1, 37, 1200] {
            let (ours, rings) = packet_keys();
            let header = random::<21>();
            let plain: Vec<u8> = (0..len).map(|i| (i * 7 + pn as usize) as u8).collect();
            let sealed = seal(&*ours, pn, &header, &plain);
            assert_eq!(
                sealed,
                seal(&*rings, pn, &header, &plain),
                "pn {pn}, {len} bytes"
            );
            assert_eq!(sealed.len(), len + ours.tag_len());
            assert_eq!(
                open(&*rings, pn, &header, &sealed).expect("ring opens ours"),
                plain
            );
            assert_eq!(
                open(&*ours, pn, &header, &sealed).expect("ours opens"),
                plain
            );
        }
    }
}

#[test]
fn a_forged_or_misplaced_packet_does_not_open() {
    let (ours, rings) = packet_keys();
    let header = random::<9>();
    let sealed = seal(&*rings, 7, &header, b"a move: h2e2");
    let mut forged = sealed.clone();
    *forged.last_mut().expect("tag") ^= 1;
    assert!(matches!(
        open(&*ours, 7, &header, &forged),
        Err(Error::DecryptError)
    ));
    assert!(matches!(
        open(&*ours, 8, &header, &sealed),
        Err(Error::DecryptError)
    ));
    assert!(matches!(
        open(&*ours, 7, &random::<9>(), &sealed),
        Err(Error::DecryptError)
    ));
    assert!(matches!(
        open(&*ours, 7, &header, &sealed[..10]),
        Err(Error::DecryptError)
    ));
    assert_eq!(ours.tag_len(), rings.tag_len());
    assert_eq!(ours.integrity_limit(), rings.integrity_limit());
    assert_eq!(ours.confidentiality_limit(), rings.confidentiality_limit());
}

#[test]
fn header_protection_masks_as_rings_and_unmasks() {
    for first in [0xc0u8, 0xc3, 0xe1, 0x40, 0x43, 0x5e, 0x7f] {
        let key = random::<32>();
        let ours = QuicKeys.header_protection_key(AeadKey::from(key));
        let rings = ring_quic().header_protection_key(AeadKey::from(key));
        assert_eq!(ours.sample_len(), rings.sample_len());
        let sample = random::<16>();
        let pn = random::<4>();
        let (mut a_first, mut a_pn) = (first, pn);
        let (mut b_first, mut b_pn) = (first, pn);
        ours.encrypt_in_place(&sample, &mut a_first, &mut a_pn)
            .expect("mask");
        rings
            .encrypt_in_place(&sample, &mut b_first, &mut b_pn)
            .expect("mask");
        assert_eq!((a_first, a_pn), (b_first, b_pn), "first byte {first:#x}");
        ours.decrypt_in_place(&sample, &mut a_first, &mut a_pn)
            .expect("unmask");
        assert_eq!((a_first, a_pn), (first, pn), "first byte {first:#x}");
    }
}

#[test]
fn header_protection_refuses_a_short_sample_or_a_long_packet_number() {
    let ours = QuicKeys.header_protection_key(AeadKey::from(random::<32>()));
    let (mut first, mut pn) = (0x43u8, [1u8, 2, 3, 4]);
    assert!(ours
        .encrypt_in_place(&[0; 15], &mut first, &mut pn)
        .is_err());
    assert_eq!(
        (first, pn),
        (0x43, [1, 2, 3, 4]),
        "nothing changed on an error"
    );
    let mut long_pn = [0u8; 5];
    assert!(ours
        .decrypt_in_place(&[0; 16], &mut first, &mut long_pn)
        .is_err());
}

fn server_and_trust() -> (ServerIdentity, Trust) {
    let identity = ServerIdentity::generate().expect("identity");
    let trust = Trust::CertDer(identity.cert_der().to_vec());
    (identity, trust)
}

/// The server's rustls config as `server_config` makes it.
fn server_tls(identity: &ServerIdentity) -> Arc<rustls::ServerConfig> {
    let mut tls = identity
        .tls_server_config(Arc::new(chacha_keys::provider()))
        .expect("server tls");
    tls.ignore_client_order = true;
    Arc::new(tls)
}

fn ring_client(trust: &Trust, suites: Option<&[CipherSuite]>) -> Arc<rustls::ClientConfig> {
    let mut provider = rustls::crypto::ring::default_provider();
    if let Some(keep) = suites {
        provider.cipher_suites.retain(|s| keep.contains(&s.suite()));
    }
    Arc::new(tls_client_config(trust, Arc::new(provider)).expect("client tls"))
}

/// A QUIC handshake in memory (RFC 9001's CRYPTO data passed in order);
/// each side's 1-RTT keys and next secrets.
fn quic_handshake(
    client: &mut quic::ClientConnection,
    server: &mut quic::ServerConnection,
) -> ((quic::Keys, quic::Secrets), (quic::Keys, quic::Secrets)) {
    let (mut client_keys, mut server_keys) = (None, None);
    for _ in 0..16 {
        let mut buf = Vec::new();
        if let Some(KeyChange::OneRtt { keys, next }) = client.write_hs(&mut buf) {
            client_keys = Some((keys, next));
        }
        if !buf.is_empty() {
            server.read_hs(&buf).expect("server reads");
        }
        let mut buf = Vec::new();
        if let Some(KeyChange::OneRtt { keys, next }) = server.write_hs(&mut buf) {
            server_keys = Some((keys, next));
        }
        if !buf.is_empty() {
            client.read_hs(&buf).expect("client reads");
        }
        if !client.is_handshaking() && !server.is_handshaking() {
            break;
        }
    }
    (
        client_keys.expect("client 1-RTT keys"),
        server_keys.expect("server 1-RTT keys"),
    )
}

#[test]
fn a_quic_client_with_rings_suites_gets_chacha20_and_the_keys_interoperate() {
    let (identity, trust) = server_and_trust();
    let params = b"transport parameters".to_vec();
    let mut client = quic::ClientConnection::new(
        ring_client(&trust, None),
        quic::Version::V1,
        crate::tls::SERVER_NAME.try_into().expect("name"),
        params.clone(),
    )
    .expect("client");
    let mut server = quic::ServerConnection::new(server_tls(&identity), quic::Version::V1, params)
        .expect("server");
    let ((client_keys, mut client_next), (server_keys, mut server_next)) =
        quic_handshake(&mut client, &mut server);
    let suite = server.negotiated_cipher_suite().expect("suite");
    assert_eq!(suite.suite(), CipherSuite::TLS13_CHACHA20_POLY1305_SHA256);
    assert!(
        std::ptr::eq(
            suite.tls13().expect("1.3"),
            chacha_keys::suite().tls13().expect("1.3")
        ),
        "the server's keys are this module's"
    );

    let header = [0x43u8, 1, 2, 3, 4, 5];
    let up = seal(&*client_keys.local.packet, 3, &header, b"press");
    assert_eq!(
        open(&*server_keys.remote.packet, 3, &header, &up).expect("server opens"),
        b"press"
    );
    let down = seal(&*server_keys.local.packet, 9, &header, b"ack");
    assert_eq!(
        open(&*client_keys.remote.packet, 9, &header, &down).expect("client opens"),
        b"ack"
    );

    let sample = random::<16>();
    let (mut first, mut pn) = (0x43u8, [9u8, 8, 7, 6]);
    server_keys
        .local
        .header
        .encrypt_in_place(&sample, &mut first, &mut pn)
        .expect("mask");
    client_keys
        .remote
        .header
        .decrypt_in_place(&sample, &mut first, &mut pn)
        .expect("unmask");
    assert_eq!((first, pn), (0x43, [9, 8, 7, 6]));

    // A key update (RFC 9001 §6): the next phase's keys agree too.
    let (client_up, server_up) = (
        client_next.next_packet_keys(),
        server_next.next_packet_keys(),
    );
    let sealed = seal(&*client_up.local, 1 << 30, &header, b"next phase");
    assert_eq!(
        open(&*server_up.remote, 1 << 30, &header, &sealed).expect("opens"),
        b"next phase"
    );
    assert!(open(&*server_keys.remote.packet, 1 << 30, &header, &sealed).is_err());
}

/// TLS over a byte stream in memory: both ends' records until neither has
/// anything to send.
fn pump(client: &mut rustls::ClientConnection, server: &mut rustls::ServerConnection) {
    for _ in 0..32 {
        let mut moved = false;
        while client.wants_write() {
            let mut buf = Vec::new();
            client.write_tls(&mut buf).expect("client writes");
            server.read_tls(&mut buf.as_slice()).expect("server reads");
            server.process_new_packets().expect("server processes");
            moved = true;
        }
        while server.wants_write() {
            let mut buf = Vec::new();
            server.write_tls(&mut buf).expect("server writes");
            client.read_tls(&mut buf.as_slice()).expect("client reads");
            client.process_new_packets().expect("client processes");
            moved = true;
        }
        if !moved {
            return;
        }
    }
}

fn tls_exchange(client_suites: Option<&[CipherSuite]>) -> CipherSuite {
    use std::io::{Read, Write};
    let (identity, trust) = server_and_trust();
    let mut client = rustls::ClientConnection::new(
        ring_client(&trust, client_suites),
        crate::tls::SERVER_NAME.try_into().expect("name"),
    )
    .expect("client");
    let mut server = rustls::ServerConnection::new(server_tls(&identity)).expect("server");
    pump(&mut client, &mut server);
    client.writer().write_all(b"a record up").expect("write");
    server.writer().write_all(b"a record down").expect("write");
    pump(&mut client, &mut server);
    let mut up = [0u8; 11];
    server
        .reader()
        .read_exact(&mut up)
        .expect("server reads the record");
    assert_eq!(&up, b"a record up");
    let mut down = [0u8; 13];
    client
        .reader()
        .read_exact(&mut down)
        .expect("client reads the record");
    assert_eq!(&down, b"a record down");
    server.negotiated_cipher_suite().expect("suite").suite()
}

#[test]
fn tls_records_use_the_lazy_record_keys_and_a_client_without_chacha20_gets_aes() {
    assert_eq!(
        tls_exchange(None),
        CipherSuite::TLS13_CHACHA20_POLY1305_SHA256
    );
    assert_eq!(
        tls_exchange(Some(&[CipherSuite::TLS13_AES_128_GCM_SHA256])),
        CipherSuite::TLS13_AES_128_GCM_SHA256
    );
}

#[test]
fn a_connections_chacha20_keys_are_small() {
    // What issue 40 is about: ring's key objects are ~560 bytes each.
    assert!(std::mem::size_of::<chacha_keys::PacketKey>() <= 48);
}
