//! SHA-256 certificate fingerprints (证书指纹), used to pin the hall
//! server's self-signed certificate.
//!
//! Printed as 32 upper-case hex bytes separated by colons
//! (`AB:CD:...`, the `openssl x509 -fingerprint -sha256` style). Parsing
//! accepts that form and the plain 64-digit form, in either case, with
//! colons, spaces or dashes between bytes and an optional `sha256:` prefix.

use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// The SHA-256 digest of a certificate's DER encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    /// Fingerprint of a DER-encoded certificate.
    pub fn of_der(der: &[u8]) -> Fingerprint {
        Fingerprint(Sha256::digest(der).into())
    }

    /// The plain form: 64 lower-case hex digits, no separators.
    pub fn to_plain_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            write!(f, "{b:02X}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}

/// A fingerprint that did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad SHA-256 fingerprint: {0} (want 64 hex digits, colons optional)")]
pub struct ParseFingerprintError(pub String);

impl FromStr for Fingerprint {
    type Err = ParseFingerprintError;

    fn from_str(text: &str) -> Result<Fingerprint, ParseFingerprintError> {
        let trimmed = text.trim();
        let body = trimmed
            .strip_prefix("sha256:")
            .or_else(|| trimmed.strip_prefix("SHA256:"))
            .or_else(|| trimmed.strip_prefix("SHA-256:"))
            .unwrap_or(trimmed);
        let digits: Vec<u8> = body
            .bytes()
            .filter(|c| !matches!(c, b':' | b' ' | b'-'))
            .collect();
        let fail = || ParseFingerprintError(text.to_string());
        if digits.len() != 64 {
            return Err(fail());
        }
        let mut out = [0u8; 32];
        for (i, pair) in digits.chunks(2).enumerate() {
            let hex = |c: u8| (c as char).to_digit(16);
            let (Some(hi), Some(lo)) = (hex(pair[0]), hex(pair[1])) else {
                return Err(fail());
            };
            out[i] = (hi * 16 + lo) as u8;
        }
        Ok(Fingerprint(out))
    }
}
