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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse_round_trip_in_both_forms() {
        let fp = Fingerprint::of_der(b"certificate bytes");
        let colon = fp.to_string();
        assert_eq!(colon.len(), 32 * 3 - 1);
        assert!(colon.bytes().all(|c| c == b':' || c.is_ascii_hexdigit()));
        assert_eq!(colon.parse::<Fingerprint>().unwrap(), fp);
        assert_eq!(fp.to_plain_hex().parse::<Fingerprint>().unwrap(), fp);
        assert_eq!(colon.to_lowercase().parse::<Fingerprint>().unwrap(), fp);
        assert_eq!(
            format!("sha256:{}", fp.to_plain_hex())
                .parse::<Fingerprint>()
                .unwrap(),
            fp
        );
        assert_eq!(format!("  {colon}\n").parse::<Fingerprint>().unwrap(), fp);
    }

    #[test]
    fn bad_fingerprints_are_rejected() {
        let plain = Fingerprint::of_der(b"x").to_plain_hex();
        for bad in [
            "",
            "abc",
            &plain[..62],
            &format!("{plain}00"),
            &plain.replace('a', "g"),
        ] {
            if bad.len() == 64 && !bad.contains('g') {
                continue;
            }
            assert!(bad.parse::<Fingerprint>().is_err(), "{bad:?}");
        }
        let non_ascii = format!("{}é", &plain[..62]);
        assert!(non_ascii.parse::<Fingerprint>().is_err());
    }

    #[test]
    fn sha256_of_known_input() {
        // SHA-256("abc")
        assert_eq!(
            Fingerprint::of_der(b"abc").to_plain_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
