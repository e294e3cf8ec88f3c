//! `caipan serve` as a child process (this same binary), so a bench can
//! SIGKILL the server at a random moment and start it again on the same
//! address and data dir. The child prints `listening on ADDR` and
//! `certificate sha256 fingerprint FP` on stdout when it serves, and
//! `standby: …` first when it waits as a standby for a hall another server
//! holds (PostgreSQL); its log goes to a file.
//!
//! For `caipan bench powercut` the child runs with `--power-cut-test SPEC`
//! (its store on the power-cut VFS) and its stdin is a pipe: a line `cut`
//! sent there makes it lose power ([`ServeChild::cut_power`]).

use std::io::BufRead;
use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use anyhow::{anyhow, Context};

/// What the child said on stdout.
enum Said {
    Standby,
    Serving(SocketAddr, proto::Fingerprint),
}

/// A running `caipan serve`.
pub struct ServeChild {
    child: Child,
    said: Receiver<Said>,
    /// The pipe to its stdin (power-cut runs).
    stdin: Option<ChildStdin>,
    /// Where it listens (a standby: where it will).
    pub addr: SocketAddr,
    /// Its certificate's fingerprint (a standby: the one it will present).
    pub fingerprint: proto::Fingerprint,
}

impl ServeChild {
    /// Starts `caipan serve --config CONFIG --data DATA [--listen ADDR]` and
    /// waits (at most 60 s) for its address and fingerprint. The server's
    /// log is appended to `log`.
    pub fn spawn(
        config: &Path,
        data: &Path,
        listen: Option<SocketAddr>,
        log: &Path,
    ) -> anyhow::Result<ServeChild> {
        Self::spawn_with(config, data, listen, log, None)
    }

    /// [`ServeChild::spawn`] with the store on the power-cut VFS
    /// (`--power-cut-test SPEC`) when `power_cut` is set.
    pub fn spawn_with(
        config: &Path,
        data: &Path,
        listen: Option<SocketAddr>,
        log: &Path,
        power_cut: Option<&str>,
    ) -> anyhow::Result<ServeChild> {
        Self::spawn_full(config, data, listen, log, (power_cut, None))
    }

    /// [`ServeChild::spawn`] with the server writing its heap figures to
    /// `memstats` (`CAIPAN_MEMSTATS`, see `crate::memstats`).
    pub fn spawn_measured(
        config: &Path,
        data: &Path,
        log: &Path,
        memstats: &Path,
    ) -> anyhow::Result<ServeChild> {
        Self::spawn_full(config, data, None, log, (None, Some(memstats)))
    }

    fn spawn_full(
        config: &Path,
        data: &Path,
        listen: Option<SocketAddr>,
        log: &Path,
        extra: (Option<&str>, Option<&Path>),
    ) -> anyhow::Result<ServeChild> {
        let (mut child, said) = start(config, data, listen, log, extra)?;
        let stdin = child.stdin.take();
        loop {
            match said.recv_timeout(Duration::from_secs(60)) {
                Ok(Said::Serving(addr, fingerprint)) => {
                    return Ok(ServeChild {
                        child,
                        said,
                        stdin,
                        addr,
                        fingerprint,
                    })
                }
                Ok(Said::Standby) => {}
                Err(_) => {
                    let _ = child.kill();
                    let status = child.wait().ok();
                    return Err(anyhow!(
                        "caipan serve did not report its address (exit status {status:?})"
                    ));
                }
            }
        }
    }

    /// Starts a second server of a hall another server holds, on `listen`,
    /// and waits (at most 60 s) until it says it stands by.
    pub fn spawn_standby(
        config: &Path,
        data: &Path,
        listen: SocketAddr,
        fingerprint: proto::Fingerprint,
        log: &Path,
    ) -> anyhow::Result<ServeChild> {
        let (mut child, said) = start(config, data, Some(listen), log, (None, None))?;
        match said.recv_timeout(Duration::from_secs(60)) {
            Ok(Said::Standby) => Ok(ServeChild {
                child,
                said,
                stdin: None,
                addr: listen,
                fingerprint,
            }),
            Ok(Said::Serving(..)) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(anyhow!(
                    "caipan serve on {listen} served at once instead of standing by"
                ))
            }
            Err(_) => {
                let _ = child.kill();
                let status = child.wait().ok();
                Err(anyhow!(
                    "caipan serve on {listen} did not stand by (exit status {status:?})"
                ))
            }
        }
    }

    /// Waits (at most `limit`) until a standby serves: it took the hall over.
    pub fn wait_serving(&mut self, limit: Duration) -> anyhow::Result<()> {
        let deadline = std::time::Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.said.recv_timeout(left) {
                Ok(Said::Serving(addr, fp)) => {
                    if fp != self.fingerprint {
                        return Err(anyhow!(
                            "the standby on {addr} presents another certificate"
                        ));
                    }
                    self.addr = addr;
                    return Ok(());
                }
                Ok(Said::Standby) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(anyhow!(
                        "the standby on {} did not take over within {limit:?}",
                        self.addr
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(anyhow!("the standby on {} exited", self.addr))
                }
            }
        }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL, then reap.
    pub fn kill(mut self) -> anyhow::Result<()> {
        self.child.kill().context("SIGKILL")?;
        self.child.wait().context("reaping the killed server")?;
        Ok(())
    }

    /// The power goes off (a server started with a power-cut spec): tells
    /// it `cut`, then waits (at most `limit`) until it is gone.
    pub fn cut_power(mut self, limit: Duration) -> anyhow::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| anyhow!("the server was not started for power cuts"))?;
        stdin
            .write_all(b"cut\n")
            .and_then(|()| stdin.flush())
            .context("telling the server to lose power")?;
        let deadline = std::time::Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().context("waiting for the server")? {
                tracing::debug!(?status, "server lost power");
                return Ok(());
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return Err(anyhow!("the server did not lose power within {limit:?}"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// SIGTERM (graceful shutdown: commit what is queued), then wait; the
    /// exit code.
    pub fn terminate(mut self) -> anyhow::Result<Option<i32>> {
        let pid = libc::pid_t::try_from(self.child.id()).context("pid")?;
        // SAFETY: plain kill(2) on our own child's pid, which is not reaped yet.
        let rc = unsafe { libc::kill(pid, libc::SIGTERM) };
        if rc != 0 {
            return Err(anyhow!("kill(SIGTERM) failed"));
        }
        let status = self.child.wait().context("waiting for the server")?;
        Ok(status.code())
    }
}

/// Starts the server again on `addr` (the port may take a moment to free).
pub async fn restart(
    config: &Path,
    data: &Path,
    addr: SocketAddr,
    log: &Path,
) -> anyhow::Result<ServeChild> {
    restart_with(config, data, addr, log, None).await
}

/// [`restart`] with the store on the power-cut VFS when `power_cut` is set.
pub async fn restart_with(
    config: &Path,
    data: &Path,
    addr: SocketAddr,
    log: &Path,
    power_cut: Option<String>,
) -> anyhow::Result<ServeChild> {
    let mut last = None;
    for _ in 0..20 {
        let (c, d, l) = (config.to_path_buf(), data.to_path_buf(), log.to_path_buf());
        let p = power_cut.clone();
        match tokio::task::spawn_blocking(move || {
            ServeChild::spawn_with(&c, &d, Some(addr), &l, p.as_deref())
        })
        .await?
        {
            Ok(child) => return Ok(child),
            Err(e) => {
                last = Some(e);
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        }
    }
    Err(last.unwrap_or_else(|| anyhow!("restart failed")))
}

/// Spawns the child and a thread reading what it says.
fn start(
    config: &Path,
    data: &Path,
    listen: Option<SocketAddr>,
    log: &Path,
    (power_cut, memstats): (Option<&str>, Option<&Path>),
) -> anyhow::Result<(Child, Receiver<Said>)> {
    let exe = std::env::current_exe().context("own executable")?;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .with_context(|| format!("server log {}", log.display()))?;
    let mut cmd = Command::new(exe);
    cmd.arg("serve")
        .arg("--config")
        .arg(config)
        .arg("--data")
        .arg(data)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log))
        .stdin(Stdio::null());
    if let Some(a) = listen {
        cmd.arg("--listen").arg(a.to_string());
    }
    if let Some(path) = memstats {
        cmd.env(crate::memstats::ENV, path);
    }
    if let Some(spec) = power_cut {
        cmd.arg("--power-cut-test").arg(spec).stdin(Stdio::piped());
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe; the closure allocates
        // nothing. The server dies with the bench instead of lingering.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    let mut child = spawn_from_lasting_thread(cmd).context("spawning caipan serve")?;
    let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut addr = None;
        let mut fp = None;
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line.starts_with("standby: ") {
                let _ = tx.send(Said::Standby);
            }
            if let Some(a) = line.strip_prefix("listening on ") {
                addr = a.trim().parse::<SocketAddr>().ok();
            }
            if let Some(f) = line.strip_prefix("certificate sha256 fingerprint ") {
                fp = f.trim().parse::<proto::Fingerprint>().ok();
            }
            if let (Some(a), Some(f)) = (addr, fp) {
                let _ = tx.send(Said::Serving(a, f));
                addr = None;
            }
        }
        // Keep draining until the child exits (stdout is a pipe).
    });
    Ok((child, rx))
}

/// Spawns `cmd` from one thread that lives as long as the bench.
/// `PR_SET_PDEATHSIG` fires when the *thread* that forked the child ends,
/// not the process: a child spawned from a Tokio blocking-pool thread was
/// SIGKILLed when that thread idled out (10 s), and the terminal-cut bench,
/// whose server is never restarted, then waited on a dead server for ever.
fn spawn_from_lasting_thread(cmd: Command) -> std::io::Result<Child> {
    type Job = (Command, std::sync::mpsc::Sender<std::io::Result<Child>>);
    static SPAWNER: std::sync::OnceLock<std::sync::Mutex<std::sync::mpsc::Sender<Job>>> =
        std::sync::OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        std::thread::spawn(move || {
            for (mut cmd, reply) in rx {
                let _ = reply.send(cmd.spawn());
            }
        });
        std::sync::Mutex::new(tx)
    });
    let (reply, answer) = std::sync::mpsc::channel();
    let sent = spawner
        .lock()
        .map_err(|_| std::io::Error::other("the spawner thread's lock is poisoned"))?
        .send((cmd, reply));
    if sent.is_err() {
        return Err(std::io::Error::other("the spawner thread has ended"));
    }
    answer
        .recv()
        .map_err(|_| std::io::Error::other("the spawner thread did not answer"))?
}
