//! Throwaway PostgreSQL clusters for tests, benches and the replication
//! script's checks: `initdb` into a temporary folder (as the `postgres`
//! user via `runuser` when running as root: PostgreSQL refuses root),
//! listening on 127.0.0.1 only, on a free port, with its socket in the same
//! folder; fsync left on (the crash tests need real durability).
//!
//! [`test_database`] gives each test its own fresh database: in the cluster
//! named by `CAIPAN_TEST_PG_URL` when set (a role allowed to create
//! databases), otherwise in one cluster started for the test process and
//! stopped when it exits. Where PostgreSQL is missing it returns `None`
//! after a loud skip notice, or panics when `CI` is set (CI must not skip).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Environment variable naming an existing cluster for the tests.
pub const TEST_URL_ENV: &str = "CAIPAN_TEST_PG_URL";

/// A cluster in a temporary folder; stopped and removed on drop.
#[derive(Debug)]
pub struct Cluster {
    root: PathBuf,
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
    running: bool,
}

/// The PostgreSQL binaries folder: `CAIPAN_PG_BIN`, else the newest
/// `/usr/lib/postgresql/*/bin` (Debian), else `pg_config --bindir`.
pub fn find_bin() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CAIPAN_PG_BIN") {
        let p = PathBuf::from(p);
        return p.join("initdb").exists().then_some(p);
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let e = e.ok()?;
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    found.sort();
    if let Some((_, bin)) = found.pop() {
        return Some(bin);
    }
    let out = Command::new("pg_config").arg("--bindir").output().ok()?;
    let p = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    p.join("initdb").exists().then_some(p)
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

impl Cluster {
    /// Initialises and starts a cluster (superuser `postgres`, trust
    /// authentication on loopback).
    pub fn start() -> Result<Cluster, String> {
        let bin = find_bin().ok_or("PostgreSQL is not installed (no initdb found)")?;
        static N: AtomicU32 = AtomicU32::new(0);
        let root = std::env::temp_dir().join(format!(
            "caipan-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("sock"))
            .map_err(|e| format!("cannot create {}: {e}", root.display()))?;
        let as_postgres = is_root();
        if as_postgres {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&root)
                .status()
                .map_err(|e| format!("chown: {e}"))?;
            if !status.success() {
                return Err("cannot give the cluster folder to the postgres user".into());
            }
        }
        let mut cluster = Cluster {
            root,
            bin,
            port: free_port()?,
            as_postgres,
            running: false,
        };
        let data = cluster.data_dir();
        cluster.run(
            "initdb",
            &[
                "-D",
                &data.display().to_string(),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-instructions",
            ],
        )?;
        let conf = format!(
            "listen_addresses = '127.0.0.1'\nport = {}\nunix_socket_directories = '{}'\n\
             max_connections = 300\nshared_buffers = 64MB\nfsync = on\nsynchronous_commit = on\n",
            cluster.port,
            cluster.root.join("sock").display()
        );
        let conf_path = data.join("postgresql.auto.conf");
        let mut old = std::fs::read_to_string(&conf_path).unwrap_or_default();
        old.push_str(&conf);
        cluster.write_file(&conf_path, &old)?;
        cluster.start_again()?;
        Ok(cluster)
    }

    /// The data directory.
    pub fn data_dir(&self) -> PathBuf {
        self.root.join("data")
    }

    /// The TCP port (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `postgres://postgres@127.0.0.1:PORT/db`.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    fn write_file(&self, path: &Path, text: &str) -> Result<(), String> {
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        if self.as_postgres {
            let _ = Command::new("chown")
                .arg("postgres:postgres")
                .arg(path)
                .status();
        }
        Ok(())
    }

    fn run(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        let out = cmd
            .args(args)
            .current_dir(&self.root)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {tool}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{tool} failed: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }

    fn pg_ctl(&self, args: &[&str]) -> Result<(), String> {
        let data = self.data_dir().display().to_string();
        let mut all = vec!["-D", data.as_str()];
        all.extend_from_slice(args);
        self.run("pg_ctl", &all)
    }

    /// Starts the (stopped) cluster and waits until it accepts connections.
    pub fn start_again(&mut self) -> Result<(), String> {
        let log = self.root.join("server.log").display().to_string();
        self.pg_ctl(&["-l", &log, "-w", "-t", "120", "start"])?;
        self.running = true;
        Ok(())
    }

    /// `pg_ctl stop -m immediate`: like a crash (no checkpoint, clients cut).
    pub fn stop_immediate(&mut self) -> Result<(), String> {
        self.pg_ctl(&["-m", "immediate", "-w", "stop"])?;
        self.running = false;
        Ok(())
    }

    /// `pg_ctl stop -m fast`.
    pub fn stop(&mut self) -> Result<(), String> {
        if self.running {
            self.pg_ctl(&["-m", "fast", "-w", "stop"])?;
            self.running = false;
        }
        Ok(())
    }

    /// Runs one SQL statement with `psql` as the superuser.
    pub fn psql(&self, db: &str, sql: &str) -> Result<String, String> {
        let exe = self.bin.join("psql");
        let port = self.port.to_string();
        let out = Command::new(exe)
            .args([
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
            ])
            .args(["-p", &port, "-U", "postgres", "-d", db, "-c", sql])
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("cannot run psql: {e}"))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Err(e) = self.stop() {
            eprintln!("caipan: stopping the throwaway PostgreSQL cluster failed: {e}");
            let _ = self.pg_ctl(&["-m", "immediate", "-w", "stop"]);
        }
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The test process's own cluster (started on first use, stopped at exit).
static SHARED: OnceLock<Result<Mutex<Option<Cluster>>, String>> = OnceLock::new();

extern "C" fn stop_shared() {
    if let Some(Ok(m)) = SHARED.get() {
        let cluster = m.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(cluster);
    }
}

/// The admin URL (without database) tests create their databases with.
fn admin_base() -> Result<String, String> {
    if let Ok(url) = std::env::var(TEST_URL_ENV) {
        return Ok(url);
    }
    let shared = SHARED.get_or_init(|| {
        let c = Cluster::start()?;
        // SAFETY: registers a plain extern "C" function with no arguments.
        unsafe {
            libc::atexit(stop_shared);
        }
        Ok(Mutex::new(Some(c)))
    });
    match shared {
        Ok(m) => m
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|c| c.url("postgres"))
            .ok_or_else(|| "the test cluster was stopped".into()),
        Err(e) => Err(e.clone()),
    }
}

/// A fresh database for one test; dropped (forcibly) when this is dropped.
#[derive(Debug)]
pub struct TestDatabase {
    admin: String,
    name: String,
    url: String,
}

impl TestDatabase {
    /// Its URL (same role as the admin URL).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The admin URL (the `postgres` database of the cluster).
    pub fn admin_url(&self) -> &str {
        &self.admin
    }

    /// Runs SQL statements in this database as the admin role.
    pub async fn execute(&self, sql: &str) -> Result<(), String> {
        exec(&self.url, sql).await
    }

    /// The URL of this database as another role (`user:password`).
    pub fn url_as(&self, user: &str, password: &str) -> String {
        replace_db(&replace_user(&self.admin, user, password), &self.name)
    }
}

async fn exec(url: &str, sql: &str) -> Result<(), String> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .map_err(|e| format!("cannot connect to {}: {e}", redact(url)))?;
    let task = tokio::spawn(conn);
    let r = client
        .batch_execute(sql)
        .await
        .map_err(|e| super::schema::pg_text(&e));
    drop(client);
    let _ = task.await;
    r
}

fn redact(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(a), Some(b)) if b > a => format!("{}://…{}", &url[..a], &url[b..]),
        _ => url.to_string(),
    }
}

/// `url` with its database path replaced by `db` (query kept).
fn replace_db(url: &str, db: &str) -> String {
    let (base, query) = match url.find('?') {
        Some(i) => (&url[..i], &url[i..]),
        None => (url, ""),
    };
    let start = base.find("://").map(|i| i + 3).unwrap_or(0);
    let base = match base[start..].find('/') {
        Some(i) => &base[..start + i],
        None => base,
    };
    format!("{base}/{db}{query}")
}

/// `url` with its user and password replaced.
fn replace_user(url: &str, user: &str, password: &str) -> String {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let rest = &url[start..];
    let host = match rest.find('@') {
        Some(at) if rest.find('/').is_none_or(|slash| at < slash) => &rest[at + 1..],
        _ => rest,
    };
    format!("{}{user}:{password}@{host}", &url[..start])
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let admin = self.admin.clone();
        let sql = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name);
        // Drop may run inside a runtime: use a thread with its own.
        let _ = std::thread::spawn(move || {
            if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                let _ = rt.block_on(exec(&admin, &sql));
            }
        })
        .join();
    }
}

/// A fresh database for a test, or `None` (after a loud notice) where no
/// PostgreSQL is available; with `CI` set, no PostgreSQL is a failure.
pub async fn test_database(tag: &str) -> Option<TestDatabase> {
    let admin = match tokio::task::spawn_blocking(admin_base).await {
        Ok(Ok(a)) => a,
        Ok(Err(why)) => return skip(tag, &why),
        Err(e) => return skip(tag, &e.to_string()),
    };
    static N: AtomicU32 = AtomicU32::new(0);
    let clean: String = tag
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(30)
        .collect();
    let name = format!(
        "caipan_{clean}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match exec(&admin, &format!("CREATE DATABASE \"{name}\"")).await {
            Ok(()) => break,
            Err(e) if Instant::now() < deadline && e.contains("being accessed") => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("cannot create the test database {name}: {e}"),
        }
    }
    let url = replace_db(&admin, &name);
    Some(TestDatabase { admin, name, url })
}

fn skip(tag: &str, why: &str) -> Option<TestDatabase> {
    if std::env::var_os("CI").is_some() {
        panic!("CI is set and PostgreSQL is not available for {tag}: {why}");
    }
    // Straight to stderr, past the test harness's capture: a skip is loud.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED {tag}: no PostgreSQL ({why}). Install it (Debian: apt-get install postgresql) \
         or set {TEST_URL_ENV} to run the PostgreSQL tests. ***\n"
    );
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_rewritten_for_another_database_and_role() {
        assert_eq!(
            replace_db("postgres://postgres@127.0.0.1:5/postgres", "t1"),
            "postgres://postgres@127.0.0.1:5/t1"
        );
        assert_eq!(
            replace_db("postgres://a:b@h:5/x?sslmode=disable", "y"),
            "postgres://a:b@h:5/y?sslmode=disable"
        );
        assert_eq!(
            replace_user("postgres://postgres@127.0.0.1:5/db", "hall", "pw"),
            "postgres://hall:pw@127.0.0.1:5/db"
        );
        assert_eq!(
            replace_user("postgres://127.0.0.1:5/db", "hall", "pw"),
            "postgres://hall:pw@127.0.0.1:5/db"
        );
        assert_eq!(redact("postgres://u:secret@h/db"), "postgres://…@h/db");
    }
}
