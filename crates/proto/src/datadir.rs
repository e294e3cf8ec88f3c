//! The file names of the server's TLS identity in its data dir, as plain
//! constants: [`tls`](crate::tls) (feature `net`) reads and writes these
//! files, and the store's backup (crates/store, built without `net`)
//! copies them.

/// Certificate file in the data dir (PEM).
pub const CERT_FILE: &str = "server-cert.pem";
/// Private key file in the data dir (PEM, PKCS#8).
pub const KEY_FILE: &str = "server-key.pem";
/// Stateless-reset key file in the data dir (64 raw bytes).
pub const RESET_KEY_FILE: &str = "stateless-reset.key";
