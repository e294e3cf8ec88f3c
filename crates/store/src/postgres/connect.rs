//! Reaching PostgreSQL: the `postgres://` URL, optional TLS to the
//! database (rustls on the ring provider, trusting the CA file the config
//! names), and the session settings every caipan connection gets
//! (`synchronous_commit` at least `on`, so a commit is answered only once
//! it is flushed, and once a synchronous standby has it when one is
//! configured).

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use tokio_postgres::config::SslMode;
use tokio_postgres::{Client, Config, NoTls};
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::StoreError;

/// Where and how to connect.
#[derive(Clone)]
pub struct PgTarget {
    config: Config,
    tls: Option<MakeRustlsConnect>,
}

impl std::fmt::Debug for PgTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl PgTarget {
    /// Parses `url` (`postgres://user:password@host:port/db?sslmode=…`).
    /// With `sslmode=require` the server's certificate is checked against
    /// `ca_file` (PEM), which is then required; without a CA file
    /// `sslmode=prefer` (the default) connects in the clear.
    pub fn parse(url: &str, ca_file: Option<&Path>) -> Result<PgTarget, StoreError> {
        let mut config = Config::from_str(url).map_err(|e| {
            StoreError::Invalid(format!("store url is not a valid PostgreSQL URL: {e}"))
        })?;
        if config.get_application_name().is_none() {
            config.application_name("caipan");
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        // Notice a peer that vanished (cable, killed VM) within about a minute.
        config.keepalives_idle(Duration::from_secs(30));
        let tls = match (ca_file, config.get_ssl_mode()) {
            (Some(ca), _) => Some(rustls_connector(ca)?),
            (None, SslMode::Require) => {
                return Err(StoreError::Invalid(
                    "sslmode=require needs the database's CA certificate: set [store] ca_file"
                        .into(),
                ))
            }
            (None, _) => None,
        };
        Ok(PgTarget { config, tls })
    }

    /// `user@host:port/db`, without the password (for logs and errors).
    pub fn describe(&self) -> String {
        let host = self
            .config
            .get_hosts()
            .first()
            .map(|h| match h {
                tokio_postgres::config::Host::Tcp(s) => s.clone(),
                tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
            })
            .unwrap_or_else(|| "localhost".into());
        let port = self.config.get_ports().first().copied().unwrap_or(5432);
        format!(
            "{}@{host}:{port}/{}",
            self.config.get_user().unwrap_or("?"),
            self.config.get_dbname().unwrap_or("?")
        )
    }

    /// Opens one connection (its I/O runs on a spawned task) and applies
    /// the session settings.
    pub async fn connect(&self) -> Result<Client, tokio_postgres::Error> {
        let client = match &self.tls {
            Some(tls) => {
                let (client, conn) = self.config.connect(tls.clone()).await?;
                tokio::spawn(drive(conn));
                client
            }
            None => {
                let (client, conn) = self.config.connect(NoTls).await?;
                tokio::spawn(drive(conn));
                client
            }
        };
        durable_session(&client).await?;
        Ok(client)
    }

    /// A read pool of at most `size` connections.
    pub fn pool(&self, size: usize) -> Result<deadpool_postgres::Pool, StoreError> {
        let mgr_config = deadpool_postgres::ManagerConfig {
            recycling_method: deadpool_postgres::RecyclingMethod::Fast,
        };
        let manager = match &self.tls {
            Some(tls) => deadpool_postgres::Manager::from_config(
                self.config.clone(),
                tls.clone(),
                mgr_config,
            ),
            None => deadpool_postgres::Manager::from_config(self.config.clone(), NoTls, mgr_config),
        };
        deadpool_postgres::Pool::builder(manager)
            .max_size(size.max(1))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(30)))
            .create_timeout(Some(Duration::from_secs(10)))
            .build()
            .map_err(|e| StoreError::Io(format!("cannot build the read pool: {e}")))
    }
}

async fn drive<F>(conn: F)
where
    F: std::future::Future<Output = Result<(), tokio_postgres::Error>>,
{
    if let Err(e) = conn.await {
        tracing::warn!(error = %e, "PostgreSQL connection closed");
    }
}

/// `synchronous_commit` below `on` (`off`, `local`, `remote_write`) would
/// answer commits that a crash or a failover can still lose: raise it.
async fn durable_session(client: &Client) -> Result<(), tokio_postgres::Error> {
    let row = client.query_one("SHOW synchronous_commit", &[]).await?;
    let level: String = row.get(0);
    if !matches!(level.as_str(), "on" | "remote_apply") {
        client.batch_execute("SET synchronous_commit = on").await?;
    }
    Ok(())
}

fn rustls_connector(ca_file: &Path) -> Result<MakeRustlsConnect, StoreError> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    let mut roots = rustls::RootCertStore::empty();
    let certs = CertificateDer::pem_file_iter(ca_file).map_err(|e| {
        StoreError::Invalid(format!(
            "cannot read the database CA file {}: {e}",
            ca_file.display()
        ))
    })?;
    for cert in certs {
        let cert = cert.map_err(|e| {
            StoreError::Invalid(format!("bad certificate in {}: {e}", ca_file.display()))
        })?;
        roots.add(cert).map_err(|e| {
            StoreError::Invalid(format!("bad certificate in {}: {e}", ca_file.display()))
        })?;
    }
    if roots.is_empty() {
        return Err(StoreError::Invalid(format!(
            "no certificate in the database CA file {}",
            ca_file.display()
        )));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::Invalid(format!("TLS setup: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}
