//! The server's first-choice TLS cipher suite: TLS_CHACHA20_POLY1305_SHA256
//! with keys that hold a connection's 32-byte secrets instead of ring's
//! ~560-byte key objects (issue 40: memory per connected table).
//!
//! rustls's ring provider keeps every key as a `ring::aead::LessSafeKey`,
//! an enum sized for its largest variant (AES-GCM's key schedule and GHASH
//! table), whichever cipher was negotiated. A QUIC connection keeps six of
//! them for its whole life (the 1-RTT packet keys of this key phase and of
//! the next, both directions, and the two header-protection keys) and TLS's
//! record layer two more, which QUIC never uses: ~3.5 KB a connection, 33
//! MiB at 10,000 tables.
//!
//! ChaCha20's key is its 32 bytes, so making ring's key from them is a copy
//! (AES-GCM's would expand a key schedule on every packet). The keys here
//! keep the bytes and make ring's key for each packet sealed or opened;
//! the record layer's keys are made on first use. The cryptography is
//! ring's throughout: this module only decides when ring's key objects
//! exist. The tests check every output against rustls's own ChaCha20 keys.
//!
//! [`provider`] is ring's default provider with this suite first; the
//! server config sets `ignore_client_order`, so a client that offers
//! ChaCha20 gets it, and one that does not gets AES-GCM as before.

use quinn::rustls;
use ring::aead;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter, MessageEncrypter,
    Nonce, OutboundOpaqueMessage, OutboundPlainMessage, Tls13AeadAlgorithm,
    UnsupportedOperationError,
};
use rustls::crypto::CryptoProvider;
use rustls::{
    quic, CipherSuite, CipherSuiteCommon, ConnectionTrafficSecrets, Error, SupportedCipherSuite,
    Tls13CipherSuite,
};
use std::sync::OnceLock;

/// ChaCha20-Poly1305's key length.
const KEY_LEN: usize = 32;
/// TLS 1.3's and QUIC's nonce (IV) length.
const IV_LEN: usize = 12;
/// Poly1305's tag.
const TAG_LEN: usize = 16;
/// RFC 9001 §6.6: packets that may fail authentication under one
/// ChaCha20-Poly1305 key before the connection must end (2^36).
const INTEGRITY_LIMIT: u64 = 1 << 36;
/// RFC 9001 §6.6: ChaCha20-Poly1305's confidentiality limit exceeds the
/// number of packets a connection can send.
const CONFIDENTIALITY_LIMIT: u64 = u64::MAX;

/// ring's default provider with [`suite`] in place of its own ChaCha20
/// suite, first in the list.
pub fn provider() -> CryptoProvider {
    let mut provider = rustls::crypto::ring::default_provider();
    provider
        .cipher_suites
        .retain(|s| s.suite() != CipherSuite::TLS13_CHACHA20_POLY1305_SHA256);
    provider.cipher_suites.insert(0, suite());
    provider
}

/// TLS_CHACHA20_POLY1305_SHA256: ring's hash and HKDF, the keys of this
/// module for QUIC and the record layer.
pub fn suite() -> SupportedCipherSuite {
    static SUITE: OnceLock<&'static Tls13CipherSuite> = OnceLock::new();
    let suite = SUITE.get_or_init(|| {
        let ring = ring_suite();
        Box::leak(Box::new(Tls13CipherSuite {
            common: CipherSuiteCommon {
                suite: ring.common.suite,
                hash_provider: ring.common.hash_provider,
                confidentiality_limit: ring.common.confidentiality_limit,
            },
            hkdf_provider: ring.hkdf_provider,
            aead_alg: &RecordLayer,
            quic: Some(&QuicKeys),
        }))
    });
    SupportedCipherSuite::Tls13(suite)
}

/// rustls's own ChaCha20 suite over ring: what the record layer's keys
/// are made with, and the tests' reference.
pub(crate) fn ring_suite() -> &'static Tls13CipherSuite {
    rustls::crypto::ring::cipher_suite::TLS13_CHACHA20_POLY1305_SHA256
        .tls13()
        // A constant of rustls: nothing a peer sends can change it.
        .expect("TLS13_CHACHA20_POLY1305_SHA256 is a TLS 1.3 suite")
}

/// A key and IV as bytes, wiped when dropped.
struct Secret {
    key: [u8; KEY_LEN],
    iv: [u8; IV_LEN],
}

impl Secret {
    fn new(key: &AeadKey, iv: Option<&Iv>) -> Secret {
        let mut secret = Secret {
            key: [0; KEY_LEN],
            iv: [0; IV_LEN],
        };
        // rustls hands out keys of `aead_key_len()` (KEY_LEN) bytes.
        secret.key.copy_from_slice(key.as_ref());
        if let Some(iv) = iv {
            secret.iv.copy_from_slice(iv.as_ref());
        }
        secret
    }

    fn aead_key(&self) -> AeadKey {
        AeadKey::from(self.key)
    }

    fn iv(&self) -> Iv {
        Iv::from(self.iv)
    }

    /// ring's key for one packet.
    fn ring_key(&self) -> Result<aead::LessSafeKey, Error> {
        aead::UnboundKey::new(&aead::CHACHA20_POLY1305, &self.key)
            .map(aead::LessSafeKey::new)
            .map_err(|_| Error::General("ChaCha20-Poly1305 key of the wrong length".into()))
    }

    fn nonce(&self, packet_number: u64) -> aead::Nonce {
        aead::Nonce::assume_unique_for_key(Nonce::new(&self.iv(), packet_number).0)
    }
}

impl Drop for Secret {
    fn drop(&mut self) {
        for byte in self.key.iter_mut().chain(self.iv.iter_mut()) {
            // SAFETY: `byte` is a valid, aligned, exclusive reference.
            unsafe { std::ptr::write_volatile(byte, 0) };
        }
        std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
    }
}

/// The QUIC keys of the suite.
pub(crate) struct QuicKeys;

impl quic::Algorithm for QuicKeys {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        Box::new(PacketKey(Secret::new(&key, Some(&iv))))
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        Box::new(HeaderKey(Secret::new(&key, None)))
    }

    fn aead_key_len(&self) -> usize {
        KEY_LEN
    }
}

/// A QUIC packet protection key (RFC 9001 §5.3).
pub(crate) struct PacketKey(Secret);

impl quic::PacketKey for PacketKey {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, Error> {
        let tag = self
            .0
            .ring_key()?
            .seal_in_place_separate_tag(
                self.0.nonce(packet_number),
                aead::Aad::from(header),
                payload,
            )
            .map_err(|_| Error::EncryptError)?;
        Ok(quic::Tag::from(tag.as_ref()))
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let plain = self
            .0
            .ring_key()?
            .open_in_place(
                self.0.nonce(packet_number),
                aead::Aad::from(header),
                payload,
            )
            .map_err(|_| Error::DecryptError)?;
        Ok(plain)
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        CONFIDENTIALITY_LIMIT
    }

    fn integrity_limit(&self) -> u64 {
        INTEGRITY_LIMIT
    }
}

/// A QUIC header protection key (RFC 9001 §5.4).
struct HeaderKey(Secret);

impl HeaderKey {
    /// RFC 9001 §5.4.1: the mask's first byte covers the low 4 bits of a
    /// long header's first byte (5 of a short one's), the rest the packet
    /// number, whose length is in the first byte's unprotected low 2 bits.
    fn apply(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        unmasking: bool,
    ) -> Result<(), Error> {
        let key = aead::quic::HeaderProtectionKey::new(&aead::quic::CHACHA20, &self.0.key)
            .map_err(|_| Error::General("ChaCha20 header key of the wrong length".into()))?;
        let [first_mask, pn_mask @ ..] = key
            .new_mask(sample)
            .map_err(|_| Error::General("header protection sample of the wrong length".into()))?;
        if packet_number.len() > pn_mask.len() {
            return Err(Error::General("packet number longer than 4 bytes".into()));
        }
        const LONG_HEADER: u8 = 0x80;
        let bits = if *first & LONG_HEADER != 0 {
            0x0f
        } else {
            0x1f
        };
        let plain_first = if unmasking {
            *first ^ (first_mask & bits)
        } else {
            *first
        };
        let pn_len = usize::from(plain_first & 0x03) + 1;
        *first ^= first_mask & bits;
        for (byte, mask) in packet_number.iter_mut().zip(pn_mask).take(pn_len) {
            *byte ^= mask;
        }
        Ok(())
    }
}

impl quic::HeaderProtectionKey for HeaderKey {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.apply(sample, first, packet_number, false)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.apply(sample, first, packet_number, true)
    }

    fn sample_len(&self) -> usize {
        aead::quic::CHACHA20.sample_len()
    }
}

/// TLS's record layer: ring's keys, made when first used.
struct RecordLayer;

impl Tls13AeadAlgorithm for RecordLayer {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        Box::new(LazyEncrypter {
            secret: Secret::new(&key, Some(&iv)),
            inner: None,
        })
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        Box::new(LazyDecrypter {
            secret: Secret::new(&key, Some(&iv)),
            inner: None,
        })
    }

    fn key_len(&self) -> usize {
        KEY_LEN
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        ring_suite().aead_alg.extract_keys(key, iv)
    }
}

struct LazyEncrypter {
    secret: Secret,
    inner: Option<Box<dyn MessageEncrypter>>,
}

impl MessageEncrypter for LazyEncrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let secret = &self.secret;
        self.inner
            .get_or_insert_with(|| {
                ring_suite()
                    .aead_alg
                    .encrypter(secret.aead_key(), secret.iv())
            })
            .encrypt(msg, seq)
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        match &self.inner {
            Some(inner) => inner.encrypted_payload_len(payload_len),
            // TLS 1.3: the content type byte and the tag.
            None => payload_len + 1 + TAG_LEN,
        }
    }
}

struct LazyDecrypter {
    secret: Secret,
    inner: Option<Box<dyn MessageDecrypter>>,
}

impl MessageDecrypter for LazyDecrypter {
    fn decrypt<'a>(
        &mut self,
        msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let secret = &self.secret;
        self.inner
            .get_or_insert_with(|| {
                ring_suite()
                    .aead_alg
                    .decrypter(secret.aead_key(), secret.iv())
            })
            .decrypt(msg, seq)
    }
}
