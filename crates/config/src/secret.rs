//! Secrets in the hall config: the [`Token`] type (never printed), where a
//! token comes from (inline, a file, an environment variable) and the
//! derived table-token scheme.
//!
//! Every credential in `hall.toml` names exactly one source:
//! `token = "..."` (inline), `token_file = "secrets/chief.token"` (relative to
//! the config file's folder; surrounding whitespace trimmed) or
//! `token_env = "CAIPAN_TOKEN_CHIEF"` (an environment variable; by convention
//! named `CAIPAN_TOKEN_<ROLE>[_<N>]`). Table terminals may instead get tokens
//! derived from one hall secret: `token(table N) =
//! hex(HMAC-SHA256(secret, "caipan table N"))[..32]` — see
//! [`derive_table_token`].

use std::fmt;
use std::path::Path;

use proto::Message;
use sha2::{Digest, Sha256};

/// Shortest token accepted from a config (in bytes). Derived table tokens
/// are 32 hex characters.
pub const MIN_TOKEN_LEN: usize = 16;

/// A bearer token (口令). Its `Debug` is redacted and it has no `Display`,
/// so it cannot leak into logs by accident; use [`Token::expose`] where the
/// raw value is truly needed (authentication, handing it to a terminal).
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// Wraps a raw token.
    pub fn new(raw: impl Into<String>) -> Self {
        Self(raw.into())
    }

    /// The raw token. Never log it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// A short, non-reversible fingerprint (first 8 hex digits of the
    /// token's SHA-256) that may appear in logs to tell tokens apart.
    pub fn fingerprint(&self) -> String {
        hex(&Sha256::digest(self.0.as_bytes())[..4])
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

/// Where a token is read from (the three mutually exclusive config keys).
#[derive(Clone, PartialEq, Eq)]
pub enum TokenSource {
    /// `token = "..."`.
    Inline(String),
    /// `token_file = "path"` (relative to the config file's folder).
    File(std::path::PathBuf),
    /// `token_env = "CAIPAN_TOKEN_..."`.
    Env(String),
}

impl fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenSource::Inline(_) => f.write_str("Inline(<redacted>)"),
            TokenSource::File(p) => f.debug_tuple("File").field(p).finish(),
            TokenSource::Env(v) => f.debug_tuple("Env").field(v).finish(),
        }
    }
}

impl TokenSource {
    /// Picks the one source among the three optional keys, or says what is
    /// wrong (none, or more than one). `what` is the key prefix, e.g.
    /// `token` or `table_secret`.
    pub(crate) fn pick(
        what: &str,
        inline: Option<&String>,
        file: Option<&std::path::PathBuf>,
        env: Option<&String>,
    ) -> Result<Option<TokenSource>, Message> {
        let given = [inline.is_some(), file.is_some(), env.is_some()]
            .iter()
            .filter(|g| **g)
            .count();
        if given > 1 {
            return Err(Message::new("config-token-forms").verbatim("what", what));
        }
        Ok(if let Some(t) = inline {
            Some(TokenSource::Inline(t.clone()))
        } else if let Some(p) = file {
            Some(TokenSource::File(p.clone()))
        } else {
            env.map(|v| TokenSource::Env(v.clone()))
        })
    }

    /// Reads the token. `base_dir` resolves relative files; `env` looks up
    /// environment variables (injectable for tests).
    pub(crate) fn resolve(
        &self,
        base_dir: &Path,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Token, Message> {
        let raw = match self {
            TokenSource::Inline(t) => t.clone(),
            TokenSource::File(p) => {
                let path = base_dir.join(p);
                std::fs::read_to_string(&path)
                    .map_err(|e| crate::cannot_read("config-cannot-read-token-file", &path, &e))?
                    .trim()
                    .to_string()
            }
            TokenSource::Env(var) => match env(var) {
                Some(v) => v.trim().to_string(),
                None => {
                    return Err(Message::new("config-env-not-set").verbatim("var", var.as_str()))
                }
            },
        };
        if raw.is_empty() {
            return Err(Message::new("config-empty-token"));
        }
        if raw.len() < MIN_TOKEN_LEN {
            return Err(Message::new("config-token-too-short")
                .int("bytes", raw.len() as i64)
                .int("min", MIN_TOKEN_LEN as i64));
        }
        if raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(Message::new("config-token-spaces"));
        }
        Ok(Token(raw))
    }
}

/// The token of table `table` under the derived scheme: the first 32 hex
/// digits of `HMAC-SHA256(secret, "caipan table <table>")` (`ring::hmac`).
pub fn derive_table_token(secret: &Token, table: u32) -> Token {
    let mac = hmac_sha256(
        secret.expose().as_bytes(),
        format!("caipan table {table}").as_bytes(),
    );
    Token(hex(&mac.as_ref()[..16]))
}

/// HMAC-SHA256 (RFC 2104) by `ring`.
fn hmac_sha256(key: &[u8], message: &[u8]) -> ring::hmac::Tag {
    ring::hmac::sign(&ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key), message)
}

/// Lower-case hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc4231_case_2() {
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            hex(mac.as_ref()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    /// Table tokens that halls already hand out must not change: these were
    /// computed by the hand-written HMAC this module had before `ring`.
    #[test]
    fn derived_table_tokens_are_unchanged() {
        let cases = [
            (
                "0123456789abcdef-hall-secret",
                1,
                "3d4442fbbc712e932bea830067885d89",
            ),
            (
                "0123456789abcdef-hall-secret",
                2,
                "1a7ee63e36786f09e7fcc873af2ca93d",
            ),
            (
                "0123456789abcdef-hall-secret",
                12,
                "e511ea8b500bdd46a3a07eccae15280a",
            ),
            (
                "0123456789abcdef-hall-secret",
                300,
                "9c6ac6253d083392a3684d252241dc62",
            ),
            (
                "correct horse battery staple 裁判",
                1,
                "a47ebafff8ed1bb3f4cee99e7e795d46",
            ),
            (
                "correct horse battery staple 裁判",
                300,
                "bff31a20873a90f818d0682a8ae68d68",
            ),
        ];
        for (secret, table, token) in cases {
            let derived = derive_table_token(&Token::new(secret), table);
            assert_eq!(derived.expose(), token, "{secret} table {table}");
        }
        // A secret longer than the 64-byte block is hashed first (RFC 2104).
        let long = Token::new("k".repeat(100));
        assert_eq!(
            derive_table_token(&long, 7).expose(),
            "d1d148632a6bc220551161fbdf7c692d"
        );
    }

    #[test]
    fn debug_is_redacted() {
        let t = Token::new("super-secret-token-value");
        assert!(!format!("{t:?}").contains("super"));
        let s = TokenSource::Inline("super-secret-token-value".into());
        assert!(!format!("{s:?}").contains("super"));
    }
}
