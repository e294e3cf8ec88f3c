//! The load generator of `caipan bench hall --client-processes N` in N
//! child processes (issue 40): at 10,000 tables one process of two
//! threads holding every table's QUIC connection is itself the bottleneck,
//! so the tables are split into N contiguous shares, each played by a
//! child `caipan bench hall-clients` (this same binary, a hidden
//! subcommand). The consoles stay in the parent, which times every press
//! from the clocks the tables send.
//!
//! The conversation on the child's stdin and stdout, one JSON object a
//! line:
//!
//! 1. parent → child: its share ([`Share`]: the server, the pinned
//!    certificate, the tables with their tokens, the index of the first
//!    among all tables, the pace);
//! 2. child → parent: `{"connected": N}` once its tables are signed in
//!    (or `{"error": …}`);
//! 3. parent → child: [`Go`]: the load's time origin and its first press,
//!    as Unix nanoseconds (the processes share the machine's clock, so a
//!    press's time means the same in both);
//! 4. child → parent: its figures ([`ShareReport`]): events sent, acked
//!    and errors, the ack latencies as `(µs, count)` buckets (at most about
//!    22,500 pairs: bounded whatever the rate), the same by the second of
//!    the window their press was sent in (one small histogram a second,
//!    `load::timeline`: bounded by `--duration`), its CPU seconds and RSS.
//!
//! With `--connect-storm` each child's tables drop and reconnect at the
//! storm's moment (the share says when, counted from the first press), and
//! each table's storm figures come back in its report ([`StormSeen`]),
//! its presses' times counted from the storm. Not with `--stalled-viewers`.

use std::net::SocketAddr;
use std::process::{ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use table::load::stats::Samples;
use table::load::timeline::Timeline;
use table::load::{self, procstat, LoadOptions, LoadReport, TablesReport};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// Longest line a child may send (its report: ~22,500 buckets at most,
/// and with a connect storm each table's acks after the storm).
const MAX_LINE: usize = 32 << 20;

/// One child's share of the tables.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Share {
    server: SocketAddr,
    /// The server certificate's SHA-256 fingerprint (pinned).
    fingerprint: String,
    tables: Vec<(u16, String)>,
    /// Index of `tables[0]` among all the load's tables (press phases).
    first_index: usize,
    rate: Option<f64>,
    window: usize,
    duration_ms: u64,
    connect_parallel: usize,
    /// A connect storm this many ms after the first press.
    #[serde(default)]
    connect_storm_ms: Option<u64>,
    /// Play the tables on one thread of quinn's state machine
    /// (`table::load::lean`).
    #[serde(default)]
    lean: bool,
}

/// When the load starts, in Unix nanoseconds.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Go {
    origin_unix_ns: u128,
    start_unix_ns: u128,
}

/// What a child's tables measured.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct ShareReport {
    tables: usize,
    sent: u64,
    acked: u64,
    errors: u64,
    /// Ack latencies, `(µs, count)` ([`Samples::buckets`]).
    ack_us: Vec<(u32, u64)>,
    /// The same by the second their press was sent in
    /// ([`Timeline::to_buckets`]).
    #[serde(default)]
    ack_seconds: Vec<Vec<(u32, u64)>>,
    /// CPU seconds of every thread of the child during the load (its
    /// runtime's workers, its main and blocking threads).
    cpu_s: f64,
    rss_mb: Option<f64>,
    /// The tables' QUIC packets while pressing and while connecting
    /// ([`load::Packets::to_array`]).
    #[serde(default)]
    packets: [u64; 8],
    #[serde(default)]
    connect_packets: [u64; 8],
    /// What each table saw of the connect storm (empty without one).
    #[serde(default)]
    storms: Vec<StormSeen>,
}

/// One table's view of the connect storm, its times counted from the
/// storm's moment (the processes' clocks are the machine's).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct StormSeen {
    hit: bool,
    reconnect_us: Option<u64>,
    attempts: u64,
    /// (sent, µs after the storm; ack latency, µs) of each press sent from
    /// the storm on.
    acks: Vec<(u64, u64)>,
}

impl StormSeen {
    fn of(t: &load::storm::TableStorm, at: Instant) -> StormSeen {
        let us = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        StormSeen {
            hit: t.hit,
            reconnect_us: t.reconnect.map(us),
            attempts: t.attempts,
            acks: t
                .acks
                .iter()
                .map(|(sent, lat)| (us(sent.saturating_duration_since(at)), us(*lat)))
                .collect(),
        }
    }

    fn table_storm(&self, at: Instant) -> load::storm::TableStorm {
        load::storm::TableStorm {
            hit: self.hit,
            reconnect: self.reconnect_us.map(Duration::from_micros),
            attempts: self.attempts,
            acks: self
                .acks
                .iter()
                .map(|&(sent, lat)| (at + Duration::from_micros(sent), Duration::from_micros(lat)))
                .collect(),
        }
    }
}

/// The children's figures beside the merged report.
#[derive(Debug, Default, Clone)]
pub struct ClientsFigures {
    /// Child processes that played tables.
    pub processes: usize,
    /// Their tables on one thread each (`table::load::lean`).
    pub lean: bool,
    /// Their CPU seconds during the load (the load generator's share).
    pub cpu_s: f64,
    /// Each child's RSS at the end of the load, MiB.
    pub rss_mb: Vec<f64>,
    /// Each child's figures: tables, events sent, acked, errors.
    pub shares: Vec<serde_json::Value>,
}

fn unix_ns(t: SystemTime) -> u128 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

/// The `Instant` of `unix_ns` on this machine's clock (the processes
/// share it).
fn instant_of(unix_ns_at: u128) -> Instant {
    let now_i = Instant::now();
    let now_u = unix_ns(SystemTime::now());
    let ns = |d: u128| Duration::from_nanos(u64::try_from(d).unwrap_or(u64::MAX));
    if unix_ns_at >= now_u {
        now_i + ns(unix_ns_at - now_u)
    } else {
        now_i.checked_sub(ns(now_u - unix_ns_at)).unwrap_or(now_i)
    }
}

/// Reads one line (at most [`MAX_LINE`] bytes) as JSON of `T`.
async fn read_json<T, R>(from: &mut BufReader<R>, what: &str) -> anyhow::Result<T>
where
    T: serde::de::DeserializeOwned,
    R: tokio::io::AsyncRead + Unpin,
{
    let mut line = Vec::new();
    let mut limited = (&mut *from).take(MAX_LINE as u64 + 1);
    limited.read_until(b'\n', &mut line).await?;
    anyhow::ensure!(!line.is_empty(), "{what}: the other side ended");
    anyhow::ensure!(line.len() <= MAX_LINE, "{what}: line over {MAX_LINE} bytes");
    if let Ok(e) = serde_json::from_slice::<ChildError>(&line) {
        anyhow::bail!("{what}: {}", e.error);
    }
    serde_json::from_slice(&line).with_context(|| format!("{what}: not the expected JSON"))
}

/// A child's failure, as it reports it.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct ChildError {
    error: String,
}

/// `{"connected": N}`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Connected {
    connected: usize,
}

async fn write_json<W, T>(to: &mut W, v: &T) -> anyhow::Result<()>
where
    W: tokio::io::AsyncWrite + Unpin,
    T: serde::Serialize,
{
    let mut line = serde_json::to_vec(v)?;
    line.push(b'\n');
    to.write_all(&line).await?;
    to.flush().await?;
    Ok(())
}

// ---------------------------------------------------------------- child

/// `caipan bench hall-clients`: one child's share of the tables (read
/// from stdin), played on a runtime of two `bench-client` threads.
pub fn child_main() -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("bench-client")
        .enable_all()
        .build()
        .context("client runtime")?;
    rt.block_on(async {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut stdout = tokio::io::stdout();
        match play_share(&mut stdin, &mut stdout).await {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(e) => {
                let _ = write_json(
                    &mut stdout,
                    &ChildError {
                        error: format!("{e:#}"),
                    },
                )
                .await;
                Err(e)
            }
        }
    })
}

async fn play_share(
    stdin: &mut BufReader<tokio::io::Stdin>,
    stdout: &mut tokio::io::Stdout,
) -> anyhow::Result<()> {
    let share: Share = read_json(stdin, "the share").await?;
    let fingerprint: proto::Fingerprint = share
        .fingerprint
        .parse()
        .map_err(|e| anyhow::anyhow!("fingerprint: {e}"))?;
    let opts = Arc::new(LoadOptions {
        server: share.server,
        trust: proto::Trust::Fingerprint(fingerprint),
        tables: share.tables,
        console_token: String::new(),
        more_consoles: Vec::new(),
        on_phase: None,
        duration: Duration::from_millis(share.duration_ms),
        rate: share.rate,
        window: share.window,
        connect_parallel: share.connect_parallel,
        connect_storm: share.connect_storm_ms.map(Duration::from_millis),
    });
    let (n, part, cpu0, started) = if share.lean {
        play_lean(stdin, stdout, &opts, share.first_index).await?
    } else {
        let connector = proto::Connector::new(&opts.trust, opts.server.is_ipv6())?;
        let conns = load::connect_tables(&connector, &opts).await?;
        let n = conns.len();
        write_json(stdout, &Connected { connected: n }).await?;
        let go: Go = read_json(stdin, "go").await?;
        // Every thread of this child is the load generator's (the prefix ""
        // matches every name).
        let cpu0 = procstat::thread_cpu_seconds(&[""]);
        let (origin, started) = (instant_of(go.origin_unix_ns), instant_of(go.start_unix_ns));
        let run = load::spawn_tables(
            conns,
            &connector,
            &opts,
            share.first_index,
            (origin, started),
        );
        (n, run.finish().await?, cpu0, started)
    };
    let storm_at = opts.connect_storm.map(|after| started + after);
    let cpu_s = match (cpu0, procstat::thread_cpu_seconds(&[""])) {
        (Some(a), Some(b)) => b - a,
        _ => 0.0,
    };
    let report = ShareReport {
        tables: n,
        sent: part.sent,
        acked: part.acked,
        errors: part.errors,
        ack_us: part.lat.buckets(),
        ack_seconds: part.seconds.to_buckets(),
        cpu_s,
        rss_mb: procstat::rss_mb(),
        packets: part.packets.to_array(),
        connect_packets: part.connect_packets.to_array(),
        storms: storm_at.map_or_else(Vec::new, |at| {
            part.storms.iter().map(|t| StormSeen::of(t, at)).collect()
        }),
    };
    write_json(stdout, &report).await
}

/// The share on one thread of quinn's state machine (`table::load::lean`):
/// the tables signed in, `Connected` said, then played from `Go`. The
/// tables played, what they measured, the CPU mark at the start and the
/// first press's time. The CPU mark leaves out the tables' thread, which
/// has ended by the last mark; its whole CPU is added to the share's.
async fn play_lean(
    stdin: &mut BufReader<tokio::io::Stdin>,
    stdout: &mut tokio::io::Stdout,
    opts: &Arc<LoadOptions>,
    first_index: usize,
) -> anyhow::Result<(usize, TablesReport, Option<f64>, Instant)> {
    let o = opts.clone();
    let tables =
        tokio::task::spawn_blocking(move || load::lean::LeanTables::connect(&o, first_index))
            .await
            .context("the lean tables' start")??;
    let n = tables.connected;
    write_json(stdout, &Connected { connected: n }).await?;
    let go: Go = read_json(stdin, "go").await?;
    let cpu0 = procstat::thread_cpu_seconds(&[""]);
    let (origin, started) = (instant_of(go.origin_unix_ns), instant_of(go.start_unix_ns));
    let (part, lean_cpu_s) = tokio::task::spawn_blocking(move || tables.play((origin, started)))
        .await
        .context("the lean tables' load")??;
    // cpu0 held the tables' thread's CPU until then; its end total, added
    // to the other threads' difference, is the share's CPU.
    Ok((n, part, cpu0.map(|c| c - lean_cpu_s), started))
}

// ---------------------------------------------------------------- parent

/// A child playing its share.
struct Child {
    process: tokio::process::Child,
    stdin: tokio::process::ChildStdin,
    stdout: BufReader<tokio::process::ChildStdout>,
}

/// Starts a child with `share` and waits until its tables are connected.
async fn start_child(share: &Share) -> anyhow::Result<Child> {
    let exe = std::env::current_exe().context("own executable")?;
    let mut process = tokio::process::Command::new(exe)
        .args(["bench", "hall-clients"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .context("start a load generator process")?;
    let mut stdin = process.stdin.take().context("child stdin")?;
    let stdout = BufReader::new(process.stdout.take().context("child stdout")?);
    write_json(&mut stdin, share).await?;
    Ok(Child {
        process,
        stdin,
        stdout,
    })
}

/// The tables split into `n` contiguous shares (the first ones one table
/// larger), with the index of each share's first table.
fn split(tables: &[(u16, String)], n: usize) -> Vec<(usize, Vec<(u16, String)>)> {
    let n = n.clamp(1, tables.len().max(1));
    let (base, extra) = (tables.len() / n, tables.len() % n);
    let mut out = Vec::with_capacity(n);
    let mut at = 0;
    for i in 0..n {
        let len = base + usize::from(i < extra);
        out.push((at, tables[at..at + len].to_vec()));
        at += len;
    }
    out
}

/// Adds one child's report to the merged tables' figures and the
/// children's own; its storm's times counted from `storm_at`.
fn take_share(
    r: ShareReport,
    part: &mut TablesReport,
    figures: &mut ClientsFigures,
    storm_at: Option<Instant>,
) {
    figures.shares.push(serde_json::json!({
        "tables": r.tables,
        "sent_events": r.sent,
        "acked_events": r.acked,
        "errors": r.errors,
        "rss_mb": r.rss_mb,
    }));
    let mut lat = Samples::default();
    for (us, count) in r.ack_us {
        lat.push_bucket(us, count);
    }
    part.merge(TablesReport {
        sent: r.sent,
        acked: r.acked,
        errors: r.errors,
        lat,
        seconds: Timeline::from_buckets(r.ack_seconds),
        storms: storm_at.map_or_else(Vec::new, |at| {
            r.storms.iter().map(|t| t.table_storm(at)).collect()
        }),
        packets: load::Packets::from_array(r.packets),
        connect_packets: load::Packets::from_array(r.connect_packets),
    });
    figures.cpu_s += r.cpu_s;
    figures.rss_mb.extend(r.rss_mb);
}

/// Runs the load with the tables in `processes` child processes and the
/// consoles here; the report merged as [`load::run`] makes it, and the
/// children's own figures.
pub async fn run(
    opts: LoadOptions,
    processes: usize,
    lean: bool,
) -> anyhow::Result<(LoadReport, ClientsFigures)> {
    let fingerprint = opts.trust.fingerprint()?.to_string();
    let connect_started = Instant::now();
    let mut children = Vec::new();
    for (first_index, tables) in split(&opts.tables, processes) {
        let share = Share {
            server: opts.server,
            fingerprint: fingerprint.clone(),
            tables,
            first_index,
            rate: opts.rate,
            window: opts.window,
            duration_ms: u64::try_from(opts.duration.as_millis()).unwrap_or(u64::MAX),
            // The server admits so many handshakes at once: the share of
            // the whole load's.
            connect_parallel: (opts.connect_parallel / processes.max(1)).max(1),
            connect_storm_ms: opts
                .connect_storm
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            lean,
        };
        children.push(start_child(&share).await?);
    }
    let mut connected = 0;
    for c in &mut children {
        let said: Connected = read_json(&mut c.stdout, "a load generator process").await?;
        connected += said.connected;
    }
    anyhow::ensure!(
        connected == opts.tables.len(),
        "{connected} of {} tables connected",
        opts.tables.len()
    );
    let mut probe = load::phase(&opts, "tables_connected").await;
    let connector = proto::Connector::new(&opts.trust, opts.server.is_ipv6())?;
    let consoles = load::subscribe_consoles(&connector, &opts).await?;
    let connect_s = (connect_started.elapsed().saturating_sub(probe)).as_secs_f64();
    probe += load::phase(&opts, "consoles_subscribed").await;

    let (origin, origin_unix) = (Instant::now(), SystemTime::now());
    // Time for the word to reach every child before the first press.
    let margin = load::SPAWN_MARGIN + Duration::from_millis(100);
    let started = origin + margin;
    let go = Go {
        origin_unix_ns: unix_ns(origin_unix),
        start_unix_ns: unix_ns(origin_unix + margin),
    };
    for c in &mut children {
        write_json(&mut c.stdin, &go).await?;
    }
    let consoles = load::spawn_consoles(consoles, origin, (started, started + opts.duration));
    let last_second = opts.duration.saturating_sub(Duration::from_secs(1));
    tokio::time::sleep_until((started + last_second).into()).await;
    probe += load::phase(&opts, "load_end").await;

    let mut report = LoadReport {
        tables: connected,
        duration_s: opts.duration.as_secs_f64(),
        connect_s,
        probe_s: probe.as_secs_f64(),
        started_unix_ms: load::unix_ms(origin_unix + margin),
        ..LoadReport::default()
    };
    let mut part = TablesReport::default();
    let storm_at = opts.connect_storm.map(|after| started + after);
    let mut figures = ClientsFigures {
        processes: children.len(),
        lean,
        ..ClientsFigures::default()
    };
    for c in &mut children {
        let r: ShareReport = read_json(&mut c.stdout, "a load generator process").await?;
        take_share(r, &mut part, &mut figures, storm_at);
    }
    for mut c in children {
        drop(c.stdin);
        let status = c.process.wait().await?;
        anyhow::ensure!(
            status.success(),
            "a load generator process exited with {status}"
        );
    }
    report.storm = opts
        .connect_storm
        .map(|after| load::storm::summarize(after.as_secs_f64(), started + after, &part.storms));
    report.add_tables(&mut part);
    report.add_consoles(consoles.finish().await?);
    Ok((report, figures))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_split_into_contiguous_shares() {
        let tables: Vec<(u16, String)> = (1..=7).map(|t| (t, format!("t{t}"))).collect();
        let shares = split(&tables, 3);
        let sizes: Vec<(usize, usize)> = shares.iter().map(|(i, t)| (*i, t.len())).collect();
        assert_eq!(sizes, [(0, 3), (3, 2), (5, 2)]);
        assert_eq!(shares[1].1[0], (4, "t4".to_string()));
        // Never more shares than tables.
        assert_eq!(split(&tables[..2], 4).len(), 2);
    }

    #[test]
    fn the_shares_seconds_are_merged_second_by_second_through_their_json() {
        // Two children: the first saw a stall in second 1, the second
        // played quietly in seconds 0 and 1.
        let child = |lat_ms: &[(usize, u64)]| {
            let mut t = Timeline::default();
            let mut all = Samples::default();
            for &(second, ms) in lat_ms {
                t.push(second, Duration::from_millis(ms));
                all.push(Duration::from_millis(ms));
            }
            let r = ShareReport {
                tables: 1,
                acked: lat_ms.len() as u64,
                ack_us: all.buckets(),
                ack_seconds: t.to_buckets(),
                ..ShareReport::default()
            };
            let line = serde_json::to_string(&r).expect("encodes");
            serde_json::from_str::<ShareReport>(&line).expect("decodes")
        };
        let mut part = TablesReport::default();
        let mut figures = ClientsFigures::default();
        take_share(child(&[(0, 2), (1, 700)]), &mut part, &mut figures, None);
        take_share(
            child(&[(0, 3), (0, 4), (1, 5)]),
            &mut part,
            &mut figures,
            None,
        );
        let mut report = LoadReport {
            duration_s: 3.0,
            ..LoadReport::default()
        };
        report.add_tables(&mut part);
        let s = &report.ack_seconds;
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].count, s[1].count, s[2].count), (3, 2, 0));
        assert_eq!(s[0].max_ms, 4.0);
        assert!(s[1].max_ms > 690.0 && s[1].max_ms <= 700.0, "{s:?}");
        assert_eq!(report.acked_events, 5);
        // A child of before the timeline (no `ack_seconds`) still reads.
        let old: ShareReport = serde_json::from_str(
            r#"{"tables":1,"sent":1,"acked":1,"errors":0,"ack_us":[[5,1]],"cpu_s":0.0,"rss_mb":null}"#,
        )
        .expect("an old report");
        assert!(old.ack_seconds.is_empty());
    }

    #[test]
    fn a_unix_time_maps_to_the_same_moment() {
        let now = SystemTime::now();
        let at = instant_of(unix_ns(now + Duration::from_secs(2)));
        let d = at.saturating_duration_since(Instant::now());
        assert!(d > Duration::from_millis(1900) && d <= Duration::from_secs(2));
    }
}
