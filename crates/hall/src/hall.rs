//! Hall state (大厅): every table's state machine, the alerts, the claims,
//! the audit trail and the hall-wide pause. The arbiters' commands are in
//! [`crate::command`] (one module per family); the notes the server
//! itself stores are applied here.
//!
//! [`Hall`] changes only through [`Hall::apply`] with a record that is
//! already durably stored (`ingest.rs` makes sure of it), so that replaying
//! the store in order rebuilds the same hall (`rebuild.rs`). Each change
//! collects its [`Effects`] in the [`Book`]: deltas for the consoles
//! (`publish.rs`) and controls for the table terminals.

use std::collections::BTreeMap;

use proto::{
    AlertKind, ClaimKind, Command, ControlToTable, Delta, EventEnvelope, HallInfo, HallView,
    PauseInfo, Ruling, TableLog, Verdict,
};
use rulebook::RuleParams;

pub use crate::book::{Book, Effects, MAX_AUDIT};

use crate::alerts::AlertTimings;
use crate::alerts::NewAlert;
use crate::claims::Penalty;
use crate::record::{Note, Record};
use crate::refusal::Refusal;
use crate::table::convert::{side_en, side_zh};
use crate::table::{Raised, TableState};

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
    fn table(&mut self, t: u16) {
        let n = self.tables.entry(t).or_insert(0);
        *n += 1;
        self.most_for_a_table = self.most_for_a_table.max(*n);
    }
}

/// The whole hall.
#[derive(Debug)]
pub struct Hall {
    /// Facts every client gets in its hello.
    pub info: HallInfo,
    /// The rule parameters.
    pub params: RuleParams,
    /// Every table of the round.
    pub tables: BTreeMap<u16, TableState>,
    /// Alerts, claims, audit.
    pub book: Book,
    /// The hall pause, if paused.
    pub paused: Option<PauseInfo>,
    /// Grace periods of the server's own alerts (config `[alerts]`).
    pub timings: AlertTimings,
    /// When the round starts (Unix ms), if the config says; the no-show
    /// time runs from here, else from each table's clock start.
    pub round_start_ms: Option<u64>,
    /// What changed since the last snapshot.
    pub changes: Changes,
    /// Records of the round applied so far (a restored snapshot's included).
    pub applied: u64,
}

impl Hall {
    /// A hall with `tables` (number, red, black), every game waiting.
    pub fn new(
        info: HallInfo,
        params: RuleParams,
        tables: &[(u16, String, String)],
        initial_ms: u64,
        increment_ms: u64,
    ) -> Hall {
        let tables = tables
            .iter()
            .map(|(n, r, b)| {
                (
                    *n,
                    TableState::new(*n, r, b, initial_ms, increment_ms, &params),
                )
            })
            .collect();
        Hall {
            info,
            params,
            tables,
            book: Book::default(),
            paused: None,
            timings: AlertTimings::default(),
            round_start_ms: None,
            changes: Changes::default(),
            applied: 0,
        }
    }

    /// Takes the effects collected so far, adding a table delta for every
    /// table touched.
    pub fn take_effects(&mut self) -> Effects {
        let mut fx = std::mem::take(&mut self.book.fx);
        for t in std::mem::take(&mut fx.touched) {
            if let Some(ts) = self.tables.get(&t) {
                let pending = self.book.claims.open_count(t);
                fx.deltas.push(Delta::Table(
                    ts.view(self.info.natural_limit_plies, pending),
                ));
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
        self.keep_controls(&fx.controls);
    }

    fn keep_controls(&mut self, controls: &[(u16, u64, ControlToTable)]) {
        for (t, id, c) in controls {
            if let Some(ts) = self.tables.get_mut(t) {
                if ts.pending_controls.len() >= crate::table::MAX_PENDING_CONTROLS {
                    ts.pending_controls.remove(0);
                }
                ts.pending_controls.push((*id, c.clone()));
            }
        }
    }

    /// The full view for a console.
    pub fn snapshot(&self, now_ms: u64) -> HallView {
        let limit = self.info.natural_limit_plies;
        let skip = self.book.audit.len().saturating_sub(SNAPSHOT_AUDIT);
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
            alerts: self.book.alerts.all().cloned().collect(),
            claims: self.book.claims.all().cloned().collect(),
            audit: self.book.audit.iter().skip(skip).cloned().collect(),
            server_ms: now_ms,
        }
    }

    /// A table's log (audit entries and clock history).
    pub fn table_log(&self, table: u16) -> Option<TableLog> {
        let t = self.tables.get(&table)?;
        Some(TableLog {
            table,
            audit: self
                .book
                .audit
                .iter()
                .filter(|e| e.table == Some(table))
                .cloned()
                .collect(),
            clock_history: t.clock_history.iter().cloned().collect(),
        })
    }

    /// Applies one stored record received at server time `now`; a command
    /// the hall refuses changes nothing but the count of records.
    pub fn apply(&mut self, rec: &Record, now: u64) -> Result<(), Refusal> {
        self.note_change(rec);
        match rec {
            Record::Event(env) => self.apply_event(env, now),
            Record::Command { author, command } => self.apply_command(author, command, now),
            Record::Refused {
                who,
                what,
                table,
                why,
            } => {
                self.book
                    .audit(now, who, what.clone(), *table, Some(why.clone()));
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
        let Some(t) = self.tables.get_mut(&env.table) else {
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
                    | Command::ExportRound,
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

    /// A stored record set aside on start: one hall-wide alert per record
    /// (a later start that sets it aside again stores another note, which
    /// raises nothing new).
    fn record_quarantined(&mut self, gseq: u64, error: &str, now: u64) {
        let text_en = format!(
            "stored record at gseq {gseq} does not decode and was set aside (--quarantine-undecodable): the hall's state does not include it ({error})"
        );
        let raised = self
            .book
            .alerts
            .all()
            .any(|a| a.kind == AlertKind::RecordQuarantined && a.text_en == text_en);
        if raised {
            return;
        }
        self.book.alert(
            NewAlert::new(
                0,
                AlertKind::RecordQuarantined,
                format!("存储记录（gseq {gseq}）无法解码，已按操作员要求隔离：大厅状态不含此记录（{error}）"),
                text_en,
                &[],
            ),
            now,
        );
    }

    fn apply_note(&mut self, note: &Note, now: u64) {
        match note {
            Note::RefusedCommands {
                who,
                threshold,
                window_s,
            } => {
                self.book.alert(
                    NewAlert::new(
                        0,
                        AlertKind::RefusedCommands,
                        format!("有终端在反复发送被拒绝的指令：{who}（{window_s}秒内超过{threshold}条）"),
                        format!("a console is sending refused commands: {who} (more than {threshold} in {window_s} s)"),
                        &[],
                    ),
                    now,
                );
            }
            Note::RecordQuarantined { gseq, error } => self.record_quarantined(*gseq, error, now),
            Note::Online { table, online } => {
                if let Some(t) = self.tables.get_mut(table) {
                    if t.online == *online {
                        return;
                    }
                    t.online = *online;
                    t.last_heard_ms = now;
                    let n = *table;
                    if !*online {
                        // Reported offline by the ticker after the grace period.
                        t.offline_since_ms = Some(now);
                    } else if let Some(since) = t.offline_since_ms.take() {
                        // The outage is over: its mark is never looked up
                        // again (a later one has its own start), so it goes
                        // and a flapping terminal does not grow the table.
                        if t.raised.remove(&Raised::Offline(since)) {
                            self.book.alert(
                                NewAlert::new(
                                    n,
                                    AlertKind::TableOnline,
                                    format!("第{n}台终端恢复连接"),
                                    format!("table {n}: terminal back online"),
                                    &[],
                                ),
                                now,
                            );
                        }
                    }
                    self.book.touch(n);
                }
            }
            Note::OfflineAlert { table, since_ms } => {
                if let Some(t) = self.tables.get_mut(table) {
                    if t.online
                        || t.offline_since_ms != Some(*since_ms)
                        || !t.raised.insert(Raised::Offline(*since_ms))
                    {
                        return;
                    }
                    let n = *table;
                    let secs = now.saturating_sub(*since_ms) / 1000;
                    self.book.alert(
                        NewAlert::new(
                            n,
                            AlertKind::TableOffline,
                            format!("第{n}台终端断开连接已{secs}秒"),
                            format!("table {n}: terminal offline for {secs} s"),
                            &[],
                        ),
                        now,
                    );
                    self.book.touch(n);
                }
            }
            Note::LateResumption {
                table,
                resumed_at_ms,
                side: s,
            } => {
                let params = self.params;
                if let Some(t) = self.tables.get_mut(table) {
                    if t.finished() || !t.raised.insert(Raised::LateResumption(*resumed_at_ms, *s))
                    {
                        return;
                    }
                    let n = *table;
                    let mins = params.fouls.adjournment_late_ms / 60_000;
                    let secs = params.fouls.adjournment_late_ms / 1000;
                    let (lim_zh, lim_en) = if secs % 60 == 0 {
                        (format!("{mins}分钟"), format!("{mins} minutes"))
                    } else {
                        (format!("{secs}秒"), format!("{secs} s"))
                    };
                    let rules = [rulebook::RuleId::AXF_REF_L.as_str()];
                    self.book.alert(
                        NewAlert::new(
                            n,
                            AlertKind::SealOverdue,
                            format!("第{n}台封棋续赛后{lim_zh}{}未到", side_zh(*s)),
                            format!(
                                "table {n}: adjourned game resumed, {} absent after {lim_en}",
                                side_en(*s)
                            ),
                            &rules,
                        ),
                        now,
                    );
                    self.book.claim(
                        n,
                        ClaimKind::NoShow,
                        None,
                        now,
                        Ruling {
                            verdict: Verdict::Loss { side: *s },
                            must_change: None,
                            rule_ids: rules.iter().map(|s| s.to_string()).collect(),
                            explanation_zh: format!(
                                "{}续赛时逾时{lim_zh}未到，作弃权论。",
                                side_zh(*s)
                            ),
                            explanation_en: format!(
                                "{} not at the board {lim_en} after the resumption: forfeit.",
                                side_en(*s)
                            ),
                        },
                        Penalty::None,
                    );
                    self.book.touch(n);
                }
            }
            Note::FlagFall { table, side } => {
                if let Some(t) = self.tables.get_mut(table) {
                    t.flag_fall(*side, now, &mut self.book);
                    self.book.touch(*table);
                }
            }
            Note::NoShow { table, side: s } => {
                let limit_ms = self.params.fouls.no_show_ms;
                if let Some(t) = self.tables.get_mut(table) {
                    if !t.raised.insert(Raised::NoShow(*s)) {
                        return;
                    }
                    let n = *table;
                    let rules = [rulebook::RuleId::AXF_FORFEIT_1.as_str()];
                    let (lim_zh, lim_en) = if limit_ms % 60_000 == 0 {
                        let m = limit_ms / 60_000;
                        (format!("{m}分钟"), format!("{m} minutes"))
                    } else {
                        let s = limit_ms / 1000;
                        (format!("{s}秒"), format!("{s} s"))
                    };
                    self.book.alert(
                        NewAlert::new(
                            n,
                            AlertKind::NoShow,
                            format!("第{n}台{}开赛{lim_zh}未到", side_zh(*s)),
                            format!("table {n}: {} absent {lim_en} after the start", side_en(*s)),
                            &rules,
                        ),
                        now,
                    );
                    self.book.claim(
                        n,
                        ClaimKind::NoShow,
                        None,
                        now,
                        Ruling {
                            verdict: Verdict::Loss { side: *s },
                            must_change: None,
                            rule_ids: rules.iter().map(|s| s.to_string()).collect(),
                            explanation_zh: format!(
                                "{}开赛后逾时{lim_zh}未到，作弃权论。",
                                side_zh(*s)
                            ),
                            explanation_en: format!(
                                "{} not at the board {lim_en} after the start: forfeit.",
                                side_en(*s)
                            ),
                        },
                        Penalty::None,
                    );
                }
            }
        }
    }
}
