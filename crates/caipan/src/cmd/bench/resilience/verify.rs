//! Checks against the store (read-only, works while a server runs or after
//! it was killed): every acknowledged event is stored, nothing is stored
//! twice or differently from what was sent, and the hall rebuilt from the
//! store by a fresh replay equals the running server's view.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hall::record::Record;
use proto::{EventEnvelope, HallView};
use store::{LogEntry, PgDatabase, StoreReader, StoredEvent};

use super::load::Outbox;

/// Acknowledged vs stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Events the table clients saw acknowledged.
    pub acked: u64,
    /// Table events in the store.
    pub stored: u64,
    /// Acknowledged but not in the store.
    pub lost: u64,
    /// Stored more than once, stored differently from what was sent, or
    /// stored though never sent.
    pub duplicated: u64,
}

/// Where a hall's record is: SQLite in a data dir, or a hall in a
/// PostgreSQL database.
#[derive(Debug, Clone)]
pub enum StoreAt {
    /// The data dir.
    Dir(PathBuf),
    /// The database URL and the hall's id there.
    Pg {
        /// `postgres://…`.
        url: String,
        /// `[store] hall`.
        hall: String,
    },
}

impl StoreAt {
    async fn events(&self) -> anyhow::Result<Vec<StoredEvent>> {
        Ok(match self {
            StoreAt::Dir(d) => StoreReader::open_dir(d)?.all_events()?,
            StoreAt::Pg { url, hall } => {
                let db = PgDatabase::connect(url, None).await?;
                db.hall(hall).events_after(None, 0).await?
            }
        })
    }

    async fn log(&self) -> anyhow::Result<Vec<LogEntry>> {
        Ok(match self {
            StoreAt::Dir(d) => StoreReader::open_dir(d)?.log_after(0)?,
            StoreAt::Pg { url, hall } => {
                let db = PgDatabase::connect(url, None).await?;
                db.hall(hall).log_after(0).await?
            }
        })
    }
}

/// Compares the outboxes with the store in `data_dir`.
pub fn check_store(data_dir: &Path, outboxes: &[Outbox]) -> anyhow::Result<Tally> {
    let reader = StoreReader::open_dir(data_dir)?;
    Ok(tally(reader.all_events()?, outboxes))
}

/// Compares the outboxes with the store at `at`.
pub async fn check_store_at(at: &StoreAt, outboxes: &[Outbox]) -> anyhow::Result<Tally> {
    Ok(tally(at.events().await?, outboxes))
}

/// Tables whose acknowledged events are not all in the store at `at`
/// right now. Checked after a crash or a power cut and before any table
/// resends (a resend would store a lost event again and hide the loss).
pub async fn high_water_regressions_at(at: &StoreAt, outboxes: &[Outbox]) -> anyhow::Result<u64> {
    let mut stored = std::collections::HashSet::new();
    for ev in at.events().await? {
        if let Ok(Record::Event(env)) = Record::decode(&ev.payload) {
            stored.insert((env.table, env.epoch, env.seq));
        }
    }
    Ok(outboxes
        .iter()
        .filter(|o| (1..=o.acked).any(|s| !stored.contains(&(o.table, o.epoch, s))))
        .count() as u64)
}

/// `PRAGMA integrity_check` of the SQLite store in `data_dir`, opened
/// through the real VFS: `None` when sound, else what is wrong.
pub fn integrity_problem(data_dir: &Path) -> Option<String> {
    match StoreReader::open_dir(data_dir).and_then(|r| r.integrity_check()) {
        Ok(()) => None,
        Err(e) => Some(e.to_string()),
    }
}

fn tally(events: Vec<StoredEvent>, outboxes: &[Outbox]) -> Tally {
    let mut stored: HashMap<(u16, u32, u64), EventEnvelope> = HashMap::new();
    let mut tally = Tally::default();
    for ev in events {
        let env = match Record::decode(&ev.payload) {
            Ok(Record::Event(env)) => env,
            // Not a table event as sent: counts as stored differently.
            _ => {
                tally.duplicated += 1;
                continue;
            }
        };
        tally.stored += 1;
        let key = (env.table, env.epoch, env.seq);
        if stored.insert(key, env).is_some() {
            tally.duplicated += 1;
        }
    }
    let by_table: HashMap<u16, &Outbox> = outboxes.iter().map(|o| (o.table, o)).collect();
    for (key, env) in &stored {
        let sent = by_table
            .get(&key.0)
            .filter(|o| o.epoch == key.1)
            .and_then(|o| o.sent.get((key.2 as usize).wrapping_sub(1)));
        if sent != Some(env) {
            tally.duplicated += 1;
        }
    }
    for o in outboxes {
        tally.acked += o.acked;
        for seq in 1..=o.acked {
            if !stored.contains_key(&(o.table, o.epoch, seq)) {
                tally.lost += 1;
            }
        }
    }
    tally
}

/// The hall rebuilt from scratch from the store at `at`, viewed at `now_ms`.
pub async fn replay_view_at(
    config: &config::HallConfig,
    at: &StoreAt,
    now_ms: u64,
) -> anyhow::Result<HallView> {
    Ok(replay_hall_at(config, at).await?.snapshot(now_ms))
}

/// The hall rebuilt from scratch from the store at `at`.
pub async fn replay_hall_at(
    config: &config::HallConfig,
    at: &StoreAt,
) -> anyhow::Result<hall::hall::Hall> {
    let log = at.log().await?;
    let hall = server::rebuild::hall_from_config(config);
    // The hall core's one replay loop (an undecodable row fails, naming its gseq).
    let replayed = hall::replay::replay(hall, log.into_iter().map(server::rebuild::log_item))?;
    Ok(replayed.hall)
}

/// The live view of the server at `addr` against a fresh replay of the
/// store at `at`: the differences (empty: equal), the plies on all boards
/// of the replayed view (the comparison is not of empty halls) and the
/// tries it took (more than one: the hall moved, or differed, meanwhile).
///
/// The server may commit a note of its own while the two views are taken
/// (a table going on- or offline, a flag fall or no-show found by its
/// ticker), so each try takes the live view twice, before and after the
/// replay: if it moved in between, the try is a race and is repeated after
/// a pause. A difference counts only when the live view stood still around
/// the replay in two tries running; if the hall never stands still, the
/// answer says so instead of reporting a divergence.
pub async fn compare_views(
    connector: &proto::Connector,
    addr: std::net::SocketAddr,
    config: &config::HallConfig,
    at: &StoreAt,
) -> anyhow::Result<(Vec<String>, u64, u32)> {
    const TRIES: u32 = 10;
    let mut plies = 0;
    let mut stable_differences = 0;
    let mut last = Vec::new();
    for tries in 1..=TRIES {
        let before = live_view(connector, addr).await?;
        let replayed = replay_view_at(config, at, before.server_ms).await?;
        let after = live_view(connector, addr).await?;
        plies = replayed.tables.iter().map(|t| u64::from(t.plies)).sum();
        let diffs = differences(&before, &replayed);
        if diffs.is_empty() {
            return Ok((diffs, plies, tries));
        }
        if differences(&before, &after).is_empty() {
            stable_differences += 1;
            if stable_differences == 2 {
                let mut out = vec![
                    "the live hall stood still and differs from a replay of its store".to_string(),
                ];
                out.extend(diffs);
                return Ok((out, plies, tries));
            }
        } else {
            stable_differences = 0;
        }
        last = diffs;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    let mut out = vec![format!(
        "not compared: the live hall changed during each of {TRIES} tries (last differences follow)"
    )];
    out.extend(last);
    Ok((out, plies, TRIES))
}

/// Clears what legitimately differs between two views of the same state
/// taken at different moments by different processes: the view's time, when
/// each terminal was last heard from (not stored), and the clock's
/// extrapolation instant.
pub fn normalized(mut v: HallView) -> HallView {
    v.server_ms = 0;
    for t in &mut v.tables {
        t.last_heard_ms = 0;
    }
    v
}

/// The differences between two views, in words (empty: equal).
pub fn differences(live: &HallView, replayed: &HallView) -> Vec<String> {
    let (a, b) = (normalized(live.clone()), normalized(replayed.clone()));
    let mut out = Vec::new();
    if a.tables.len() != b.tables.len() {
        out.push(format!(
            "{} tables live, {} replayed",
            a.tables.len(),
            b.tables.len()
        ));
    }
    for (x, y) in a.tables.iter().zip(&b.tables) {
        if x != y {
            out.push(format!(
                "table {}: {} differ",
                x.table,
                table_differences(x, y).join(", ")
            ));
        }
    }
    if a.alerts != b.alerts {
        out.push(format!(
            "alerts differ ({} live, {} replayed)",
            a.alerts.len(),
            b.alerts.len()
        ));
    }
    if a.claims != b.claims {
        out.push("claims differ".into());
    }
    if a.audit != b.audit {
        out.push("audit differs".into());
    }
    if a.paused != b.paused {
        out.push("hall pause differs".into());
    }
    out
}

/// The hall view of a running server, as the chief's console gets it
/// (subscribe, first snapshot).
pub async fn live_view(
    connector: &proto::Connector,
    addr: std::net::SocketAddr,
) -> anyhow::Result<HallView> {
    use proto::{ClientMsg, Command, Hello, ServerMsg};
    let hello = Hello {
        protocol_version: proto::PROTOCOL_VERSION,
        token: super::fixture::CHIEF_TOKEN.into(),
        client: "bench-check".into(),
    };
    let mut c = connector.connect(addr, hello).await?;
    c.send(&ClientMsg::Command {
        id: 1,
        command: Command::Subscribe,
    })
    .await?;
    let view = tokio::time::timeout(std::time::Duration::from_secs(30), async {
        let mut pages = proto::paging::Assembly::default();
        loop {
            match c.recv().await? {
                ServerMsg::Snapshot(v) => return Ok::<_, anyhow::Error>(*v),
                ServerMsg::SnapshotPage(p) => {
                    if let Some(v) = pages.take(*p)? {
                        return Ok(v);
                    }
                }
                ServerMsg::Error(e) => anyhow::bail!("subscribe refused: {e:?}"),
                _ => {}
            }
        }
    })
    .await??;
    c.close("done");
    Ok(view)
}

/// The names of the fields in which two table views differ, each with the
/// live and replayed values when short.
fn table_differences(x: &proto::TableView, y: &proto::TableView) -> Vec<String> {
    let mut out = Vec::new();
    macro_rules! field {
        ($($f:ident),*) => {$(
            if x.$f != y.$f {
                let (l, r) = (format!("{:?}", x.$f), format!("{:?}", y.$f));
                if l.len() + r.len() < 160 {
                    out.push(format!("{} (live {l}, replayed {r})", stringify!($f)));
                } else {
                    out.push(stringify!($f).to_string());
                }
            }
        )*};
    }
    field!(
        red,
        black,
        clock,
        clock_at_ms,
        to_move,
        flag,
        plies,
        plies_since_capture,
        natural_limit_plies,
        checks_red,
        checks_black,
        fouls_red,
        fouls_black,
        pending_claims,
        status,
        last_heard_ms,
        online,
        last_move,
        fen,
        moves
    );
    if out.is_empty() {
        out.push("other fields".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> HallView {
        let text = super::super::fixture::config_text(3, "127.0.0.1:0");
        let cfg =
            config::HallConfig::from_toml_str(&text, Path::new("/tmp"), &|_| None).expect("config");
        server::rebuild::hall_from_config(&cfg).snapshot(1_000)
    }

    #[test]
    fn differences_ignore_only_time_of_view_and_last_heard() {
        let a = view();
        let mut b = a.clone();
        b.server_ms += 5_000;
        b.tables[1].last_heard_ms = 77;
        assert!(differences(&a, &b).is_empty());
        b.tables[2].plies = 9;
        b.tables[0].online = !b.tables[0].online;
        let d = differences(&a, &b);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].contains("table 1") && d[0].contains("online"), "{d:?}");
        assert!(d[1].contains("table 3") && d[1].contains("plies"), "{d:?}");
        b.tables.pop();
        assert!(differences(&a, &b)
            .iter()
            .any(|m| m.contains("3 tables live, 2 replayed")));
    }
}
