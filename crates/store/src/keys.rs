//! The key index of the batched event rows, written in bulk (键索引成批写入;
//! SQLite schema 5, issue 40).
//!
//! Up to schema 4 every `event_batches` row was indexed as it was written,
//! `(table_no, epoch, last_seq)`, and since each table's row of a commit
//! lands in a random leaf of that index, a commit of rows for six tables
//! rewrote six index pages: at 10,000 tables three quarters of the WAL
//! were index leaves (docs/benchmarks.md). Since schema 5 the key of each
//! row lives in `event_keys` (a `WITHOUT ROWID` table ordered by
//! `(table_no, epoch, last_seq, first_gseq)`), written in *passes*: the
//! writer keeps the keys of the rows written since the last pass in memory
//! ([`KeyIndex`]), and every [`KeyPassOptions::interval`] (or once
//! [`KeyPassOptions::rows`] are waiting) writes them in key order, a
//! slice with each commit, so a leaf takes all of its new keys of a pass
//! at once and no commit waits long for it. The slices are paced by the
//! rows coming in ([`KeyPassOptions::per_row`] keys for each row a commit
//! adds, at least [`KeyPassOptions::least`], at most
//! [`KeyPassOptions::per_commit`]), so a pass is spread over the commits
//! of a second or two instead of taking the writer for a burst of whole
//! slices: at 10,000 tables that burst (16 commits of 2,048 keys, about
//! 200 ms of the writer's CPU every 3.3 s) was what set off the slow
//! machine's resend storms (docs/benchmarks.md).
//!
//! `meta.keyed_upto` is the pass horizon: every row whose `first_gseq` is
//! at or below it has its key row. It moves in the commit that writes a
//! pass's last keys. Rows above it (the *tail*: the last seconds) are
//! found by a scan of the primary key from there; keys of a pass still
//! being written are above it too, so a reader takes keyed rows at or
//! below the horizon and tail rows above it, in one statement (one
//! snapshot), and never a row twice. The writer finds the tail in memory.
//!
//! A crash between passes loses nothing: the tail is read back from the
//! rows when the store opens (a pass half written is written again, its
//! keys already there ignored).

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, OptionalExtension};

/// The pass horizon as an SQL scalar (0 when the store has none yet).
pub(crate) const KEYED_UPTO: &str =
    "(SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'keyed_upto'), 0))";

/// Sets the pass horizon.
const SET_KEYED_UPTO: &str = "INSERT INTO meta (key, value) VALUES ('keyed_upto', ?1)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value";

/// One key row.
const INSERT_KEY: &str = "INSERT OR IGNORE INTO event_keys
    (table_no, epoch, last_seq, first_gseq, first_seq, last_gseq) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// The highest seq stored per `(table, epoch)` (foldhash, seeded per
/// process: the writer looks a key up twice per event).
pub(crate) type HighWater = HashMap<(u32, u32), u64, foldhash::fast::RandomState>;

/// When the writer writes a pass of keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyPassOptions {
    /// A pass begins once this long has passed since the last one began
    /// (default 4 s) and a key waits ...
    pub interval: Duration,
    /// ... or once this many keys wait (default 32,768).
    pub rows: usize,
    /// Keys of the pass written with a commit for each row it adds
    /// (default 2: a pass is written twice as fast as its keys came in) ...
    pub per_row: usize,
    /// ... but at least this many (default 64) ...
    pub least: usize,
    /// ... and at most this many (default 2,048: a few milliseconds of
    /// the writer's time), unless the commit added more rows than that.
    pub per_commit: usize,
}

impl Default for KeyPassOptions {
    fn default() -> Self {
        KeyPassOptions {
            interval: Duration::from_secs(4),
            rows: 32_768,
            per_row: 2,
            least: 64,
            per_commit: 2_048,
        }
    }
}

/// An `event_keys` row's key: its order is the index's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Key {
    pub table: u32,
    pub epoch: u32,
    pub last_seq: u64,
    pub first_gseq: u64,
}

/// The rest of a key row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub first_seq: u64,
    pub last_gseq: u64,
}

/// A pass being written: its keys in order, the next to write, and the
/// horizon it sets when done.
#[derive(Debug)]
struct Pass {
    keys: Vec<(Key, Span)>,
    next: usize,
    upto: u64,
}

/// What [`KeyIndex::step`] did in one commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Step {
    /// Keys written.
    pub written: usize,
    /// The horizon set (a pass finished), if any.
    pub finished: Option<u64>,
}

/// The writer's keys not yet behind the horizon.
#[derive(Debug)]
pub(crate) struct KeyIndex {
    opts: KeyPassOptions,
    /// Keys of rows written since the pass in progress (or the last) began.
    pending: BTreeMap<Key, Span>,
    pass: Option<Pass>,
    last_pass: Instant,
}

impl KeyIndex {
    /// The index of a store just opened (the schema 5 tables exist): the
    /// tail read back from the rows above the horizon, and the highest seq
    /// stored per `(table, epoch)` (the writer's high-water map).
    pub(crate) fn load(
        conn: &Connection,
        opts: KeyPassOptions,
    ) -> rusqlite::Result<(KeyIndex, HighWater)> {
        let mut high = HighWater::default();
        let mut st = conn.prepare(
            "SELECT table_no, epoch, max(last_seq) FROM event_keys GROUP BY table_no, epoch",
        )?;
        let rows = st.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (t, e, s) = row?;
            if let (Ok(t), Ok(e), Ok(s)) = (u32::try_from(t), u32::try_from(e), u64::try_from(s)) {
                high.insert((t, e), s);
            }
        }
        let mut index = KeyIndex::new(opts);
        let mut st = conn.prepare(&format!(
            "SELECT table_no, epoch, last_seq, first_gseq, first_seq, last_gseq FROM event_batches
             WHERE first_gseq > {KEYED_UPTO} ORDER BY first_gseq"
        ))?;
        let rows = st.query_map([], |r| {
            let u = |i: usize| -> rusqlite::Result<u64> {
                let v: i64 = r.get(i)?;
                u64::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(i, v))
            };
            let w = |i: usize| -> rusqlite::Result<u32> {
                let v: i64 = r.get(i)?;
                u32::try_from(v).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(i, v))
            };
            Ok((
                Key {
                    table: w(0)?,
                    epoch: w(1)?,
                    last_seq: u(2)?,
                    first_gseq: u(3)?,
                },
                Span {
                    first_seq: u(4)?,
                    last_gseq: u(5)?,
                },
            ))
        })?;
        for row in rows {
            let (key, span) = row?;
            let hw = high.entry((key.table, key.epoch)).or_insert(0);
            *hw = (*hw).max(key.last_seq);
            index.pending.insert(key, span);
        }
        Ok((index, high))
    }

    /// An empty index (a new store).
    pub(crate) fn new(opts: KeyPassOptions) -> KeyIndex {
        KeyIndex {
            opts: KeyPassOptions {
                rows: opts.rows.max(1),
                least: opts.least.max(1),
                per_commit: opts.per_commit.max(1),
                ..opts
            },
            pending: BTreeMap::new(),
            pass: None,
            last_pass: Instant::now(),
        }
    }

    /// A row written in the commit being written.
    pub(crate) fn push(&mut self, key: Key, span: Span) {
        debug_assert!(key.last_seq >= span.first_seq && span.last_gseq >= key.first_gseq);
        self.pending.insert(key, span);
    }

    /// Keys not yet behind the horizon (waiting, or in the pass written).
    #[cfg(test)]
    pub(crate) fn waiting(&self) -> usize {
        self.pending.len() + self.pass.as_ref().map_or(0, |p| p.keys.len())
    }

    /// The `first_gseq` of every row in memory whose seq range holds
    /// `(table, epoch, seq)` (it may hold that event, or only a gap).
    pub(crate) fn holding(&self, table: u32, epoch: u32, seq: u64) -> Vec<u64> {
        let from = Key {
            table,
            epoch,
            last_seq: seq,
            first_gseq: 0,
        };
        let same = |k: &Key| k.table == table && k.epoch == epoch;
        let mut out: Vec<u64> = self
            .pending
            .range(from..)
            .take_while(|(k, _)| same(k))
            .filter(|(_, s)| s.first_seq <= seq)
            .map(|(k, _)| k.first_gseq)
            .collect();
        if let Some(pass) = &self.pass {
            let at = pass.keys.partition_point(|(k, _)| *k < from);
            out.extend(
                pass.keys[at..]
                    .iter()
                    .take_while(|(k, _)| same(k))
                    .filter(|(_, s)| s.first_seq <= seq)
                    .map(|(k, _)| k.first_gseq),
            );
        }
        out
    }

    /// Whether a pass should begin now.
    fn due(&self, now: Instant) -> bool {
        !self.pending.is_empty()
            && (self.pending.len() >= self.opts.rows
                || now.duration_since(self.last_pass) >= self.opts.interval)
    }

    /// How many keys of a pass a commit that added `added` rows writes:
    /// paced by the rows ([`KeyPassOptions::per_row`] each, between
    /// [`KeyPassOptions::least`] and [`KeyPassOptions::per_commit`]), and
    /// never fewer than `added`, so the keys waiting never grow faster
    /// than passes write them.
    fn slice(&self, added: usize) -> usize {
        let o = &self.opts;
        o.per_row
            .saturating_mul(added)
            .max(o.least)
            .min(o.per_commit)
            .max(added)
    }

    /// The index's share of one commit that wrote `added` rows, inside its
    /// transaction: begins a pass when one is due, and writes the next
    /// slice of the pass in progress ([`KeyIndex::slice`]), setting the
    /// horizon with its last key. The store fails for good if the commit
    /// fails, so the memory moves on here.
    pub(crate) fn step(
        &mut self,
        tx: &Connection,
        now: Instant,
        added: usize,
    ) -> rusqlite::Result<Step> {
        if self.pass.is_none() && self.due(now) {
            let pending = std::mem::take(&mut self.pending);
            let upto = pending.keys().map(|k| k.first_gseq).max().unwrap_or(0);
            self.pass = Some(Pass {
                keys: pending.into_iter().collect(),
                next: 0,
                upto,
            });
            self.last_pass = now;
        }
        let slice = self.slice(added);
        let Some(pass) = &mut self.pass else {
            return Ok(Step::default());
        };
        let end = (pass.next + slice).min(pass.keys.len());
        let mut st = tx.prepare_cached(INSERT_KEY)?;
        for (k, s) in &pass.keys[pass.next..end] {
            st.execute(params![
                i64::from(k.table),
                i64::from(k.epoch),
                to_i64(k.last_seq),
                to_i64(k.first_gseq),
                to_i64(s.first_seq),
                to_i64(s.last_gseq)
            ])?;
        }
        let written = end - pass.next;
        pass.next = end;
        if pass.next < pass.keys.len() {
            return Ok(Step {
                written,
                finished: None,
            });
        }
        let upto = pass.upto;
        tx.prepare_cached(SET_KEYED_UPTO)?
            .execute([upto.to_string()])?;
        self.pass = None;
        Ok(Step {
            written,
            finished: Some(upto),
        })
    }
}

/// Whether the store keeps its keys in `event_keys` (schema 5) rather
/// than in an index of `event_batches` (schema 4, opened read-only and so
/// not migrated).
pub(crate) fn has_event_keys(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'event_keys'",
        [],
        |r| r.get(0),
    )
}

/// Schema 4 -> 5: every row's key into `event_keys` (in key order, one
/// pass), the horizon at the last row, and the old index dropped.
pub(crate) fn key_all_rows(tx: &Connection) -> rusqlite::Result<u64> {
    let n = tx.execute(
        "INSERT OR IGNORE INTO event_keys
            (table_no, epoch, last_seq, first_gseq, first_seq, last_gseq)
         SELECT table_no, epoch, last_seq, first_gseq, first_seq, last_gseq FROM event_batches
         ORDER BY table_no, epoch, last_seq, first_gseq",
        [],
    )?;
    let upto: Option<i64> = tx
        .query_row("SELECT max(first_gseq) FROM event_batches", [], |r| {
            r.get(0)
        })
        .optional()?
        .flatten();
    tx.execute(SET_KEYED_UPTO, [upto.unwrap_or(0).to_string()])?;
    tx.execute_batch("DROP INDEX IF EXISTS event_batches_key")?;
    Ok(n as u64)
}

/// A stored integer (values fit long before; saturated anyway, as the
/// writer's own).
fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(table: u32, last_seq: u64, first_gseq: u64) -> Key {
        Key {
            table,
            epoch: 1,
            last_seq,
            first_gseq,
        }
    }

    fn span(first_seq: u64, last_gseq: u64) -> Span {
        Span {
            first_seq,
            last_gseq,
        }
    }

    fn store() -> Connection {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch(crate::schema::SCHEMA).unwrap();
        c
    }

    fn keys_in(c: &Connection) -> Vec<(i64, i64, i64)> {
        let mut st = c
            .prepare("SELECT table_no, last_seq, first_gseq FROM event_keys")
            .unwrap();
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)));
        rows.unwrap().map(Result::unwrap).collect()
    }

    fn horizon(c: &Connection) -> i64 {
        c.query_row(&format!("SELECT {KEYED_UPTO}"), [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn a_pass_writes_its_keys_in_order_a_few_a_commit_and_moves_the_horizon_last() {
        let c = store();
        let opts = KeyPassOptions {
            interval: Duration::from_secs(3600),
            rows: 4,
            per_row: 1,
            least: 3,
            per_commit: 3,
        };
        let mut ix = KeyIndex::new(opts);
        let t0 = Instant::now();
        // Rows of tables 9, 2, 5, 2 (gseq order), then one more.
        ix.push(key(9, 1, 1), span(1, 1));
        ix.push(key(2, 1, 2), span(1, 2));
        ix.push(key(5, 3, 3), span(1, 4));
        assert_eq!(ix.step(&c, t0, 0).unwrap(), Step::default(), "3 < 4 rows");
        ix.push(key(2, 2, 5), span(2, 5));
        let s = ix.step(&c, t0, 0).unwrap();
        assert_eq!((s.written, s.finished), (3, None));
        assert_eq!(keys_in(&c), vec![(2, 1, 2), (2, 2, 5), (5, 3, 3)]);
        assert_eq!(horizon(&c), 0, "not before the pass's last key");
        // A row written meanwhile waits for the next pass.
        ix.push(key(1, 1, 6), span(1, 6));
        assert_eq!(ix.waiting(), 5);
        let s = ix.step(&c, t0, 0).unwrap();
        assert_eq!((s.written, s.finished), (1, Some(5)));
        assert_eq!(horizon(&c), 5);
        assert_eq!(keys_in(&c).len(), 4);
        assert_eq!(ix.waiting(), 1);
        // Time alone starts the next.
        let later = t0 + Duration::from_secs(3601);
        let s = ix.step(&c, later, 0).unwrap();
        assert_eq!(s.finished, Some(6));
        assert_eq!(ix.waiting(), 0);
        assert_eq!(
            ix.step(&c, later, 0).unwrap(),
            Step::default(),
            "nothing waits"
        );
    }

    #[test]
    fn a_commit_writes_at_least_as_many_keys_as_it_added() {
        let c = store();
        let mut ix = KeyIndex::new(KeyPassOptions {
            interval: Duration::from_secs(3600),
            rows: 1,
            per_row: 1,
            least: 2,
            per_commit: 2,
        });
        for g in 1..=10u64 {
            ix.push(key(u32::try_from(g).unwrap(), 1, g), span(1, g));
        }
        let s = ix.step(&c, Instant::now(), 5).unwrap();
        assert_eq!((s.written, s.finished), (5, None), "5 rows added, 5 keys");
        let s = ix.step(&c, Instant::now(), 0).unwrap();
        assert_eq!((s.written, s.finished), (2, None), "else the least");
        assert_eq!(keys_in(&c).len(), 7);
    }

    #[test]
    fn a_pass_is_paced_by_the_rows_each_commit_adds() {
        let c = store();
        let mut ix = KeyIndex::new(KeyPassOptions {
            interval: Duration::from_secs(3600),
            rows: 100,
            per_row: 2,
            least: 4,
            per_commit: 16,
        });
        for g in 1..=100u64 {
            ix.push(key(u32::try_from(g).unwrap(), 1, g), span(1, g));
        }
        let now = Instant::now();
        // Each commit's slice: twice its rows, at least 4, at most 16.
        let mut slices = Vec::new();
        for added in [0, 1, 3, 5, 8, 20, 9] {
            slices.push(ix.step(&c, now, added).unwrap().written);
        }
        assert_eq!(slices, vec![4, 4, 6, 10, 16, 20, 16]);
        assert_eq!(keys_in(&c).len(), 76, "the pass is not done");
        assert_eq!(horizon(&c), 0);
        // The last 24 keys with the horizon, in a commit that added more
        // rows than that: never fewer keys than rows.
        assert_eq!(ix.step(&c, now, 100).unwrap().written, 24);
        assert_eq!(horizon(&c), 100);
        // Every key once, in the index's order.
        let keys = keys_in(&c);
        assert_eq!(keys.len(), 100);
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn rows_holding_a_seq_are_found_waiting_and_in_the_pass() {
        let c = store();
        let opts = KeyPassOptions {
            interval: Duration::from_secs(3600),
            rows: 2,
            per_row: 1,
            least: 1,
            per_commit: 1,
        };
        let mut ix = KeyIndex::new(opts);
        ix.push(key(3, 5, 10), span(1, 14)); // seqs 1..=5
        ix.push(key(3, 9, 20), span(7, 22)); // seqs 7..=9
        ix.step(&c, Instant::now(), 0).unwrap(); // the pass holds both
        ix.push(key(3, 12, 30), span(10, 32)); // waiting
        ix.push(key(4, 12, 31), span(1, 33)); // another table
        assert_eq!(ix.holding(3, 1, 4), vec![10]);
        assert_eq!(ix.holding(3, 1, 6), Vec::<u64>::new(), "a gap");
        assert_eq!(ix.holding(3, 1, 8), vec![20]);
        assert_eq!(ix.holding(3, 1, 11), vec![30]);
        assert_eq!(ix.holding(3, 2, 4), Vec::<u64>::new(), "another epoch");
        assert_eq!(ix.holding(4, 1, 12), vec![31]);
    }

    #[test]
    fn defaults_write_a_pass_every_four_seconds_in_small_steps() {
        let d = KeyPassOptions::default();
        assert_eq!(d.interval, Duration::from_secs(4));
        assert!(d.per_commit < d.rows);
        let ix = KeyIndex::new(KeyPassOptions {
            rows: 0,
            least: 0,
            per_commit: 0,
            ..d
        });
        assert_eq!(
            (ix.opts.rows, ix.opts.least, ix.opts.per_commit),
            (1, 1, 1),
            "zero means one"
        );
        assert_eq!((d.per_row, d.least), (2, 64));
        assert!(d.least < d.per_commit);
    }
}
