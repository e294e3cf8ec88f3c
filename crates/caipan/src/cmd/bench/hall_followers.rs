//! `caipan bench hall --followers N` (issue 40): the hall's public
//! broadcast on while the load runs, with `N` followers holding its live
//! feed (`/events`) open, so a run at scale measures the server with the
//! broadcast it would have in a real hall.
//!
//! The child `caipan serve` gets a `[broadcast]` section on a free
//! loopback port; the followers run in a child process of this binary
//! (`caipan bench broadcast --follow ADDR`, the followers' side of
//! `bench broadcast`), which reports how late the moves, clocks and
//! results reached them (from the record's server time to receipt) and
//! how many snapshots they were sent. The broadcast admits at most
//! [`MAX_FOLLOWERS`] streams from one address (its default limits), so
//! that is the most one run asks for.

use std::io::{BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{anyhow, Context};

/// Most followers of one run: the broadcast's default per-address limit
/// (`broadcast::listener::Limits::default().per_address`), all of them
/// coming from 127.0.0.1.
pub const MAX_FOLLOWERS: usize = 32;

/// Checks `--followers` against the other options.
pub fn check(followers: usize, child_server: bool) -> anyhow::Result<()> {
    if followers == 0 {
        return Ok(());
    }
    if !child_server {
        anyhow::bail!(
            "--followers needs --child-server (the broadcast runs in the child caipan serve)"
        );
    }
    if followers > MAX_FOLLOWERS {
        anyhow::bail!(
            "--followers {followers}: at most {MAX_FOLLOWERS} (the broadcast admits {MAX_FOLLOWERS} streams from one address)"
        );
    }
    Ok(())
}

/// A free loopback TCP address for the broadcast (taken and given back:
/// another process could take it before the server does, then the
/// server's start fails naming `broadcast.listen`).
pub fn free_addr() -> anyhow::Result<SocketAddr> {
    let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).context("a free port for the broadcast")?;
    l.local_addr().context("the broadcast's free port")
}

/// The config section that turns the broadcast on at `addr`, no delay.
pub fn config_section(addr: SocketAddr) -> String {
    format!("\n[broadcast]\nlisten = \"{addr}\"\ndelay_s = 0\n")
}

/// The followers' child process.
pub struct Followers {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// Streams the child opened.
    pub connected: usize,
    asked: usize,
}

impl Followers {
    /// Starts `n` followers of the broadcast at `addr` and waits until
    /// the child says how many it connected.
    pub fn start(addr: SocketAddr, n: usize) -> anyhow::Result<Followers> {
        let exe = std::env::current_exe().context("this binary's path")?;
        let mut child = Command::new(exe)
            .args(["bench", "broadcast", "--follow"])
            .arg(addr.to_string())
            .args(["--subscribers", &n.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("start the followers' process")?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow!("the followers' process has no stdout"))?;
        let mut followers = Followers {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            connected: 0,
            asked: n,
        };
        let line = followers.line()?;
        followers.connected = line
            .strip_prefix("connected ")
            .and_then(|c| c.trim().parse().ok())
            .ok_or_else(|| anyhow!("the followers' process said {line:?}, not `connected N`"))?;
        Ok(followers)
    }

    fn line(&mut self) -> anyhow::Result<String> {
        let mut line = String::new();
        let n = self
            .stdout
            .read_line(&mut line)
            .context("reading the followers' process")?;
        if n == 0 {
            return Err(anyhow!("the followers' process ended early"));
        }
        Ok(line)
    }

    /// Asks the child for what its followers saw since they connected and
    /// ends it: `{followers, connected, samples, snapshots, p50_ms,
    /// p99_ms, max_ms}` (delays from the record's server time to receipt).
    pub fn finish(mut self) -> anyhow::Result<serde_json::Value> {
        let asked = self.asked;
        let connected = self.connected;
        let seen = {
            let stdin = self
                .stdin
                .as_mut()
                .ok_or_else(|| anyhow!("the followers' process has no stdin"))?;
            stdin
                .write_all(b"report\n")
                .and_then(|()| stdin.flush())
                .context("asking the followers' process")?;
            self.line()?
        };
        let mut figures: serde_json::Value = serde_json::from_str(seen.trim())
            .with_context(|| format!("the followers' report {seen:?}"))?;
        figures["followers"] = asked.into();
        figures["connected"] = connected.into();
        drop(self.stdin.take());
        self.child.wait().context("the followers' process")?;
        Ok(figures)
    }
}

impl Drop for Followers {
    fn drop(&mut self) {
        // An early error: the child must not outlive the bench.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn followers_need_the_child_server_and_fit_the_per_address_limit() {
        assert!(check(0, false).is_ok());
        assert!(check(MAX_FOLLOWERS, true).is_ok());
        let e = check(1, false).unwrap_err().to_string();
        assert!(e.contains("--child-server"), "{e}");
        let e = check(MAX_FOLLOWERS + 1, true).unwrap_err().to_string();
        assert!(e.contains("at most 32"), "{e}");
    }

    #[test]
    fn the_section_turns_the_broadcast_on_where_asked() {
        let addr: SocketAddr = "127.0.0.1:4711".parse().unwrap();
        let text = format!(
            "{}{}",
            super::super::resilience::fixture::config_text(2, "127.0.0.1:0"),
            config_section(addr)
        );
        let tmp = std::env::temp_dir();
        let config = config::HallConfig::from_toml_str(&text, &tmp, &|_| None).unwrap();
        let b = config.broadcast.expect("a broadcast");
        assert_eq!(b.listen, addr);
        assert_eq!(b.delay_s, 0);
    }
}
