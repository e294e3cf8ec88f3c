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
/// The level is always set in the session, also when the server's default
/// is already strong: a session that only inherits the default follows it
/// down when the server's configuration is reloaded with a weaker one.
pub(super) async fn durable_session(client: &Client) -> Result<(), tokio_postgres::Error> {
    let row = client.query_one("SHOW synchronous_commit", &[]).await?;
    let level: String = row.get(0);
    let keep = if level == "remote_apply" {
        "SET synchronous_commit = remote_apply"
    } else {
        "SET synchronous_commit = on"
    };
    client.batch_execute(keep).await
}

/// A server setting under which PostgreSQL may answer a commit that a
/// power cut or a crash of its host can still lose (停电丢失).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsafeSetting {
    /// The setting's name (`fsync`, `full_page_writes`,
    /// `synchronous_commit`).
    pub name: &'static str,
    /// Its value as the server reports it.
    pub value: String,
}

impl std::fmt::Display for UnsafeSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the database runs with {} = {}: a power cut or a crash of its host can lose \
             records caipan has acknowledged (set it to on)",
            self.name, self.value
        )
    }
}

/// The server-wide settings that weaken durability: `fsync = off` and
/// `full_page_writes = off` (the cluster's own), and a server default of
/// `synchronous_commit = off` (caipan's sessions raise it to `on`, see
/// [`durable_session`], but other writers and a misread guarantee do not;
/// it is read from `pg_settings.reset_val`, not from this session).
pub async fn unsafe_settings(client: &Client) -> Result<Vec<UnsafeSetting>, tokio_postgres::Error> {
    let rows = client
        .query(
            "SELECT name, reset_val FROM pg_settings \
             WHERE name IN ('fsync', 'full_page_writes', 'synchronous_commit')",
            &[],
        )
        .await?;
    let mut found = Vec::new();
    for row in rows {
        let name: String = row.get(0);
        let value: String = row.get(1);
        let name = match name.as_str() {
            "fsync" => "fsync",
            "full_page_writes" => "full_page_writes",
            "synchronous_commit" => "synchronous_commit",
            _ => continue,
        };
        if value == "off" {
            found.push(UnsafeSetting { name, value });
        }
    }
    found.sort_by_key(|s| s.name);
    Ok(found)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::postgres::cluster::{find_bin, Cluster};

    /// A cluster of its own (the settings are server-wide): none of the
    /// three reported as it starts, all three once turned off.
    #[tokio::test]
    async fn weak_durability_settings_are_reported() {
        if find_bin().is_none() && std::env::var_os("CI").is_none() {
            eprintln!("SKIPPED weak_durability_settings_are_reported: PostgreSQL is not installed");
            return;
        }
        let cluster = tokio::task::spawn_blocking(Cluster::start)
            .await
            .expect("join")
            .expect("a throwaway PostgreSQL cluster");
        let target = PgTarget::parse(&cluster.url("postgres"), None).expect("url");
        let client = target.connect().await.expect("connect");
        assert_eq!(unsafe_settings(&client).await.expect("query"), vec![]);

        // One statement at a time: ALTER SYSTEM refuses a transaction
        // block, which a multi-statement batch is.
        for sql in [
            "ALTER SYSTEM SET fsync = off",
            "ALTER SYSTEM SET full_page_writes = off",
            "ALTER SYSTEM SET synchronous_commit = off",
            "SELECT pg_reload_conf()",
        ] {
            client.batch_execute(sql).await.expect(sql);
        }
        // pg_reload_conf signals the postmaster; the backends take the new
        // values at their next command.
        let mut found = Vec::new();
        for _ in 0..50 {
            let fresh = target.connect().await.expect("connect");
            found = unsafe_settings(&fresh).await.expect("query");
            if found.len() == 3 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let names: Vec<&str> = found.iter().map(|s| s.name).collect();
        assert_eq!(names, ["fsync", "full_page_writes", "synchronous_commit"]);
        let text = found[0].to_string();
        assert!(
            text.contains("fsync = off") && text.contains("acknowledged"),
            "{text}"
        );
        // Our own sessions still commit durably whatever the default, also
        // one opened before the default was lowered.
        let row = client
            .query_one("SHOW synchronous_commit", &[])
            .await
            .expect("show");
        let own: String = row.get(0);
        assert_eq!(own, "on");
        drop(cluster);
    }
}
