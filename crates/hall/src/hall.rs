//! Hall state (大厅): every table's state machine, the alerts, the claims,
//! the audit trail and the hall-wide pause. The arbiters' commands are in
//! [`crate::command`] (one module per family); the notes the server
//! itself stores in `notes.rs`.
//!
//! [`Hall`] changes only through [`Hall::apply`] with a record that is
//! already durably stored (`ingest.rs` makes sure of it), so that replaying
//! the store in order rebuilds the same hall (`rebuild.rs`). Each change
//! collects its [`Effects`] in the [`Book`]: deltas for the consoles
//! (`publish.rs`) and controls for the table terminals.

use std::collections::BTreeMap;
use std::sync::Arc;

use proto::{
    Alert, AuditEntry, ClaimView, Command, ControlToTable, Delta, EventEnvelope, HallInfo,
    HallView, PauseInfo, TableLog,
};
use rulebook::{RuleParams, TimeControl};

pub use crate::book::{Book, Effects, MAX_AUDIT};

use crate::alerts::AlertTimings;
use crate::book::Words;
use crate::record::Record;
use crate::refusal::Refusal;
use crate::table::TableState;
use crate::views::Views;

/// Audit entries sent in a snapshot.
pub const SNAPSHOT_AUDIT: usize = 200;

/// What changed since the last snapshot (see `snapshot/`): the tables
/// whose state changed, with the records that changed each, and the
/// records applied. Kept by [`Hall::apply`].
#[derive(Debug, Default, Clone)]
pub struct Changes {
    /// Changed tables and how many records changed each.
    pub tables: BTreeMap<u16, u64>,
    /// The most records that changed one table.
    pub most_for_a_table: u64,
    /// Records applied.
    pub records: u64,
}

impl Changes {
    pub(crate) fn table(&mut self, t: u16) {
        let n = self.tables.entry(t).or_insert(0);
        *n += 1;
        self.most_for_a_table = self.most_for_a_table.max(*n);
    }
}

/// Everything a hall is made of before any record: what the config gives
/// (`config::initial`), or a test's [`crate::fixture::Fixture`].
#[derive(Debug, Clone)]
pub struct HallSetup {
    /// Facts every client gets in its hello.
    pub info: HallInfo,
    /// The rule parameters.
    pub params: RuleParams,
    /// Every table of the round: number, Red, Black.
    pub tables: Vec<(u16, String, String)>,
    /// Each side's time at the start (ms).
    pub initial_ms: u64,
    /// The increment after each move (ms; 0 for a traditional control).
    pub increment_ms: u64,
    /// The time control the clock reports are checked against.
    pub time_control: TimeControl,
    /// Grace periods of the server's own alerts (config `[alerts]`).
    pub timings: AlertTimings,
    /// When the round starts (Unix ms), if the config says; the no-show
    /// time runs from here, else from each table's clock start.
    pub round_start_ms: Option<u64>,
}

impl HallSetup {
    /// Table `n` as the round starts, if it is one of the round's.
    pub(crate) fn fresh_table(&self, n: u16) -> Option<TableState> {
        let (_, red, black) = self.tables.iter().find(|(t, _, _)| *t == n)?;
        let mut t = TableState::new(
            n,
            red,
            black,
            self.initial_ms,
            self.increment_ms,
            &self.params,
        );
        t.clock.control = self.time_control.clone();
        Some(t)
    }
}

/// The whole hall. Its state changes only through [`Hall::apply`] (and a
/// snapshot's [`Hall::restore`]); the fields are the crate's, read from
/// outside through the accessors below.
#[derive(Debug)]
pub struct Hall {
    /// What the hall was made of (a snapshot is restored onto it).
    pub(crate) setup: HallSetup,
    /// Facts every client gets in its hello.
    pub(crate) info: HallInfo,
    /// The rule parameters.
    pub(crate) params: RuleParams,
    /// Every table of the round, each behind an `Arc` so that a snapshot
    /// cut takes them without copying (issue 40): a table is copied only
    /// when it is written while a cut still holds it ([`Arc::make_mut`]).
    pub(crate) tables: BTreeMap<u16, Arc<TableState>>,
    /// Alerts, claims, audit.
    pub(crate) book: Book,
    /// The hall pause, if paused.
    pub(crate) paused: Option<PauseInfo>,
    /// Grace periods of the server's own alerts (config `[alerts]`).
    pub(crate) timings: AlertTimings,
    /// When the round starts (Unix ms), if the config says.
    pub(crate) round_start_ms: Option<u64>,
    /// What changed since the last snapshot.
    pub(crate) changes: Changes,
    /// Records of the round applied so far (a restored snapshot's included).
    pub(crate) applied: u64,
    /// The public sequence: every table's public events added up (`public.rs`).
    pub(crate) public_seq: u64,
    /// Every table's last view, shared by the deltas and the consoles'
    /// pictures (`picture.rs`).
    pub(crate) views: Views,
    /// The round before, as it was when the current round was published
    /// from the console, kept until the current round starts so that the
    /// chief may withdraw it (`command::withdraw`). Not in snapshots: a
    /// server restarted in an unstarted published round rebuilds it from
    /// the record (the server's `rebuild.rs`).
    pub(crate) previous: Option<Box<PreviousRound>>,
}

/// The round before the current one, as it ended (every result in): what
/// withdrawing the current round goes back to.
#[derive(Debug, Clone)]
pub struct PreviousRound {
    /// Its setup (round number, tables and pairings).
    pub(crate) setup: HallSetup,
    /// Its hello facts.
    pub(crate) info: HallInfo,
    /// Its tables, as they ended.
    pub(crate) tables: BTreeMap<u16, Arc<TableState>>,
    /// Its round start.
    pub(crate) round_start_ms: Option<u64>,
    /// Its alerts, as publishing found them (publishing drops them).
    pub(crate) alerts: crate::alerts::AlertBook,
    /// Its claims, as publishing found them (publishing drops them).
    pub(crate) claims: crate::claims::ClaimBook,
    /// Its hall pause (publishing lifts it).
    pub(crate) paused: Option<PauseInfo>,
}

impl Hall {
    /// A hall of `setup`, every game waiting.
    pub fn new(setup: HallSetup) -> Hall {
        let tables = setup
            .tables
            .iter()
            .filter_map(|&(n, _, _)| Some((n, Arc::new(setup.fresh_table(n)?))))
            .collect();
        Hall {
            info: setup.info.clone(),
            params: setup.params,
            tables,
            book: Book::default(),
            paused: None,
            timings: setup.timings,
            round_start_ms: setup.round_start_ms,
            changes: Changes::default(),
            applied: 0,
            public_seq: 0,
            views: Views::default(),
            previous: None,
            setup,
        }
    }

    /// The public sequence: the id of the last public event (`public.rs`).
    pub fn public_seq(&self) -> u64 {
        self.public_seq
    }

    /// Every game as followers see it, with the public sequence it holds at.
    pub fn public_games(&self) -> (u64, Vec<crate::public::PublicGame>) {
        (
            self.public_seq,
            self.tables
                .values()
                .map(|t| crate::table::public::game(t))
                .collect(),
        )
    }

    /// Facts every client gets in its hello.
    pub fn info(&self) -> &HallInfo {
        &self.info
    }

    /// The rule parameters.
    pub fn params(&self) -> &RuleParams {
        &self.params
    }

    /// Every table of the round, by number.
    pub fn tables(&self) -> &BTreeMap<u16, Arc<TableState>> {
        &self.tables
    }

    /// Table `n`, if it is one of the round's.
    pub fn table(&self, n: u16) -> Option<&TableState> {
        self.tables.get(&n).map(|t| &**t)
    }

    /// The alerts, claims and audit trail.
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// The hall pause, if paused.
    pub fn paused(&self) -> Option<&PauseInfo> {
        self.paused.as_ref()
    }

    /// Grace periods of the server's own alerts.
    pub fn timings(&self) -> AlertTimings {
        self.timings
    }

    /// When the round starts (Unix ms), if the config says.
    pub fn round_start_ms(&self) -> Option<u64> {
        self.round_start_ms
    }

    /// What changed since the last snapshot.
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// Forgets what changed (a snapshot was cut).
    pub fn clear_changes(&mut self) {
        self.changes = Changes::default();
    }

    /// Records of the round applied so far (a restored snapshot's included).
    pub fn applied(&self) -> u64 {
        self.applied
    }

    /// Sets where the store's events of table `n` stand (a rebuild: the
    /// store numbers a terminal's events across rounds, the replay applies
    /// this round's only).
    pub fn set_high_water(&mut self, n: u16, epoch: u32, seq: u64) {
        if let Some(t) = self.tables.get_mut(&n).map(Arc::make_mut) {
            t.epoch = epoch;
            t.high_water = seq;
        }
    }

    /// Takes the effects collected so far, adding a table delta for every
    /// table touched.
    pub fn take_effects(&mut self) -> Effects {
        let mut fx = std::mem::take(&mut self.book.fx);
        // The next batch's lists in this one's room and a quarter more: a
        // flood's batch of thousands of public events grew by copies from
        // empty (issue 40).
        let room = |n: usize| n + n / 4;
        self.book.fx.public = Vec::with_capacity(room(fx.public.len()));
        self.book.fx.deltas = Vec::with_capacity(room(fx.deltas.len() + fx.touched.len()));
        for t in std::mem::take(&mut fx.touched) {
            if let Some(ts) = self.tables.get(&t) {
                let pending = self.book.claims.open_count(t);
                let view = ts.view(self.info.natural_limit_plies, pending);
                // Kept for the consoles' pictures, sent as the delta.
                let kept = self.views.keep(t, view);
                fx.deltas.push(Delta::Table(kept));
            }
        }
        self.keep_controls(&fx.controls);
        fx
    }

    /// Drops the effects collected so far, keeping what they change in the
    /// hall (the controls a terminal has not confirmed). A replay does this
    /// after every record: nobody is subscribed yet, so the table views a
    /// delta would carry (every move of the game each time) are not built.
    pub fn discard_effects(&mut self) {
        let fx = std::mem::take(&mut self.book.fx);
        for t in &fx.touched {
            self.views.forget(*t);
        }
        self.keep_controls(&fx.controls);
    }

    fn keep_controls(&mut self, controls: &[(u16, u64, ControlToTable)]) {
        for (t, id, c) in controls {
            if let Some(ts) = self.tables.get_mut(t).map(Arc::make_mut) {
                if ts.pending_controls.len() >= crate::table::MAX_PENDING_CONTROLS {
                    ts.pending_controls.remove(0);
                }
                ts.pending_controls.push((*id, c.clone()));
            }
        }
    }

    /// The full view for a console, every table's view built afresh (the
    /// server takes a [`Hall::picture`] instead, cheap under its lock).
    pub fn snapshot(&self, now_ms: u64) -> HallView {
        let limit = self.info.natural_limit_plies;
        let (alerts, claims, audit) = self.book_parts();
        HallView {
            tournament: self.info.tournament.clone(),
            round: self.info.round,
            rule_set: self.info.rule_set.clone(),
            time_control: self.info.time_control.clone(),
            paused: self.paused.clone(),
            tables: self
                .tables
                .values()
                .map(|t| t.view(limit, self.book.claims.open_count(t.table)))
                .collect(),
            alerts,
            claims,
            audit,
            server_ms: now_ms,
        }
    }

    /// The alerts, the claims and the newest [`SNAPSHOT_AUDIT`] audit
    /// entries, as a snapshot holds them.
    pub(crate) fn book_parts(&self) -> (Vec<Alert>, Vec<ClaimView>, Vec<AuditEntry>) {
        let skip = self.book.audit.len().saturating_sub(SNAPSHOT_AUDIT);
        (
            self.book.alerts.all().cloned().collect(),
            self.book.claims.all().cloned().collect(),
            self.book.audit.iter().skip(skip).cloned().collect(),
        )
    }

    /// A table's log (audit entries and clock history), its audit entries
    /// found through the book's index by table.
    pub fn table_log(&self, table: u16) -> Option<TableLog> {
        let t = self.tables.get(&table)?;
        Some(TableLog {
            table,
            audit: self.book.table_audit(table).cloned().collect(),
            clock_history: t.clock_history.iter().collect(),
        })
    }

    /// What a table's log is made of, as a version: its newest audit id
    /// and its clock samples taken; the log is the same while this is
    /// (a cache of encoded logs keys on it). `None`: no such table.
    pub fn table_log_version(&self, table: u16) -> Option<(u64, u64)> {
        let t = self.tables.get(&table)?;
        Some((self.book.table_audit_last(table), t.clock_samples))
    }

    /// Applies one stored record received at server time `now`; a command
    /// the hall refuses changes nothing but the count of records.
    pub fn apply(&mut self, rec: &Record, now: u64) -> Result<(), Refusal> {
        self.note_change(rec);
        let press = match rec {
            Record::Event(EventEnvelope {
                table,
                body:
                    proto::TableEvent::ClockPress {
                        by,
                        red_ms,
                        black_ms,
                        ..
                    },
                ..
            }) => Some((*table, (*by, *red_ms, *black_ms))),
            _ => None,
        };
        let (one, every) = self.plies_before(rec);
        let applied = self.apply_record(rec, now);
        self.forget_previous_once_started(rec);
        for (t, before) in one.into_iter().chain(every) {
            self.public_step(t, before, press.filter(|p| p.0 == t).map(|p| p.1), now);
        }
        #[cfg(debug_assertions)]
        self.debug_check(rec);
        applied
    }

    fn apply_record(&mut self, rec: &Record, now: u64) -> Result<(), Refusal> {
        match rec {
            Record::Event(env) => self.apply_event(env, now),
            Record::Command { author, command } => self.apply_command(author, command, now),
            Record::Refused {
                who,
                what,
                table,
                why,
                what_msg,
                why_msg,
            } => {
                let what = Words {
                    text: what.clone(),
                    msg: what_msg.clone(),
                };
                let why = Words {
                    text: why.clone(),
                    msg: why_msg.clone(),
                };
                self.book.audit(now, who, what, *table, Some(why));
                Ok(())
            }
            Record::Note(note) => {
                self.apply_note(note, now);
                Ok(())
            }
        }
    }

    fn apply_event(&mut self, env: &EventEnvelope, now: u64) -> Result<(), Refusal> {
        let params = self.params;
        let Some(t) = self.tables.get_mut(&env.table).map(Arc::make_mut) else {
            return Err(Refusal::UnknownEventTable { table: env.table });
        };
        if env.epoch > t.epoch {
            t.epoch = env.epoch;
            t.high_water = 0;
        }
        if env.epoch == t.epoch && env.seq > t.high_water {
            t.high_water = env.seq;
        }
        t.apply_event(&env.body, now, &params, &mut self.book);
        Ok(())
    }

    /// The tables whose public picture `rec` may change, each with its
    /// plies before it: the record's one table (no allocation: most
    /// records are a table's event), or every table for a hall pause.
    fn plies_before(&self, rec: &Record) -> (Option<TablePlies>, Vec<TablePlies>) {
        match rec {
            Record::Command {
                command: Command::PauseHall { .. } | Command::ResumeHall,
                ..
            } => (
                None,
                self.tables
                    .iter()
                    .map(|(&t, s)| (t, s.board.plies()))
                    .collect(),
            ),
            other => (
                other
                    .table()
                    .and_then(|t| self.tables.get(&t).map(|s| (t, s.board.plies()))),
                Vec::new(),
            ),
        }
    }

    /// After a record: table `n`'s ply clocks, then its public events.
    fn public_step(
        &mut self,
        n: u16,
        plies_before: usize,
        press: Option<(proto::Side, u64, u64)>,
        now: u64,
    ) {
        let Some(t) = self.tables.get_mut(&n).map(Arc::make_mut) else {
            return;
        };
        t.note_ply_clocks(plies_before, press);
        let (seq, public) = (&mut self.public_seq, &mut self.book.fx.public);
        crate::table::public::step(t, |change| {
            *seq += 1;
            public.push(crate::public::PublicEvent {
                id: *seq,
                at_ms: now,
                table: n,
                change,
            });
        });
    }

    /// Notes which table states `rec` may change (the book changes with
    /// nearly every record and is in every snapshot).
    fn note_change(&mut self, rec: &Record) {
        self.applied += 1;
        self.changes.records += 1;
        match rec {
            Record::Command {
                command: Command::PauseHall { .. } | Command::ResumeHall,
                ..
            } => {
                let all: Vec<u16> = self.tables.keys().copied().collect();
                for t in all {
                    self.changes.table(t);
                }
            }
            Record::Command {
                command:
                    Command::Subscribe
                    | Command::Unsubscribe
                    | Command::GetTableLog { .. }
                    | Command::AckAlert { .. }
                    | Command::ExportRound
                    | Command::PairNextRound
                    | Command::CorrectResult { .. }
                    | Command::WithdrawRound { .. },
                ..
            }
            | Record::Refused { .. } => {}
            other => {
                if let Some(t) = other.table() {
                    if self.tables.contains_key(&t) {
                        self.changes.table(t);
                    }
                }
            }
        }
    }
}

/// A table and its plies before a record.
type TablePlies = (u16, usize);
