//! Hall state (大厅): every table's state machine, the alerts, the claims,
//! the audit trail and the hall-wide pause, with the arbiters' commands.
//!
//! [`Hall`] changes only through [`Hall::apply`] with a record that is
//! already durably stored (`ingest.rs` makes sure of it), so that replaying
//! the store in order rebuilds the same hall (`rebuild.rs`). Each change
//! collects its [`Effects`] in the [`Book`]: deltas for the consoles
//! (`publish.rs`) and controls for the table terminals.

use std::collections::BTreeMap;

use proto::{
    AlertKind, ClaimKind, ClaimStatus, Command, ControlToTable, Delta, EndReason, ErrorCode,
    GameResult, HallInfo, HallView, PauseInfo, Ruling, RulingOutcome, Side, TableLog, TableStatus,
    Verdict,
};
use rulebook::RuleParams;

pub use crate::command::{command_table, describe};

pub use crate::book::{Book, Effects, MAX_AUDIT};

use crate::alerts::AlertTimings;
use crate::alerts::NewAlert;
use crate::claims::Penalty;
use crate::record::{Note, Record};
use crate::table::convert::{color, side, side_en, side_zh};
use crate::table::order::TableOrder;
use crate::table::{Raised, Sealed, TableState};
use proto::roles::{Action, RulingAuthor, Scope};

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

/// A refused or failed request: the code and a sentence saying why.
pub type Refused = (ErrorCode, String);

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

    /// The authorization action of a console command (reads included).
    pub fn action_of(&self, cmd: &Command) -> Action {
        let t = |n: &u16| u32::from(*n);
        match cmd {
            Command::Subscribe | Command::Unsubscribe => Action::Subscribe { scope: Scope::Hall },
            Command::GetTableLog { table } => Action::Subscribe {
                scope: Scope::Table(t(table)),
            },
            Command::PauseTable { table, .. } => Action::PauseTable { table: t(table) },
            Command::ResumeTable { table } => Action::ResumeTable { table: t(table) },
            Command::PauseHall { .. } => Action::PauseHall,
            Command::ResumeHall => Action::ResumeHall,
            Command::Seal { table, .. } => Action::Seal { table: t(table) },
            Command::Unseal { table } => Action::Unseal { table: t(table) },
            Command::RuleOnClaim {
                table, claim_id, ..
            } => match self
                .book
                .claims
                .get(*claim_id)
                .and_then(|c| c.ruled_by.clone())
            {
                Some(ruled_by) => Action::OverrideRuling {
                    table: t(table),
                    ruled_by,
                },
                None => Action::RuleOnClaim { table: t(table) },
            },
            Command::EscalateClaim { table, .. } => Action::RuleOnClaim { table: t(table) },
            Command::RecordFoul { table, .. } => Action::RecordFoul { table: t(table) },
            Command::AdjustClock { table, .. } => Action::AdjustClock { table: t(table) },
            Command::SetResult { table, .. } => Action::SetResult { table: t(table) },
            // Declaring or cancelling the limit is a ruling at the table.
            Command::DeclareMoveLimit { table, .. } | Command::CancelMoveLimit { table } => {
                Action::RuleOnClaim { table: t(table) }
            }
            Command::AckAlert { alert_id } => Action::AckAlert {
                table: self.book.alerts.table_of(*alert_id).map(u32::from),
            },
            Command::ExportRound => Action::Export,
        }
    }

    fn table_ok(&self, table: u16) -> Result<&TableState, Refused> {
        self.tables.get(&table).ok_or((
            ErrorCode::NotFound,
            format!("no table {table} in this round"),
        ))
    }

    /// Checks that `cmd` makes sense now (before it is stored).
    pub fn check_command(&self, cmd: &Command) -> Result<(), Refused> {
        let invalid = |m: String| Err((ErrorCode::Invalid, m));
        match cmd {
            Command::Subscribe | Command::Unsubscribe => Ok(()),
            Command::GetTableLog { table } => self.table_ok(*table).map(|_| ()),
            Command::PauseTable { table, .. } => {
                let t = self.table_ok(*table)?;
                match &t.status {
                    TableStatus::Finished { .. } => {
                        invalid(format!("table {table}: the game is over"))
                    }
                    TableStatus::Paused(_) => invalid(format!("table {table} is already paused")),
                    TableStatus::Sealed { .. } => invalid(format!("table {table} is sealed")),
                    _ => Ok(()),
                }
            }
            Command::ResumeTable { table } => {
                let t = self.table_ok(*table)?;
                match &t.status {
                    TableStatus::Paused(_) => Ok(()),
                    _ => invalid(format!("table {table} is not paused")),
                }
            }
            Command::PauseHall { .. } => match self.paused {
                Some(_) => invalid("the hall is already paused".into()),
                None => Ok(()),
            },
            Command::ResumeHall => match self.paused {
                Some(_) => Ok(()),
                None => invalid("the hall is not paused".into()),
            },
            Command::Seal { table, sealed_move } => {
                let t = self.table_ok(*table)?;
                if t.finished() || t.sealed.is_some() {
                    return invalid(format!("table {table} cannot be sealed now"));
                }
                let legal = crate::table::convert::game_move(*sealed_move)
                    .map(|m| t.board.position.is_legal(m))
                    .unwrap_or(false);
                if !legal {
                    return Err((
                        ErrorCode::IllegalMove,
                        format!("sealed move {sealed_move} is not legal at table {table}"),
                    ));
                }
                Ok(())
            }
            Command::Unseal { table } => {
                let t = self.table_ok(*table)?;
                match t.sealed {
                    Some(_) => Ok(()),
                    None => invalid(format!("table {table} is not sealed")),
                }
            }
            Command::RuleOnClaim {
                table,
                claim_id,
                decision,
            } => {
                self.table_ok(*table)?;
                let c = self
                    .book
                    .claims
                    .get(*claim_id)
                    .filter(|c| c.view.table == *table)
                    .ok_or((
                        ErrorCode::NotFound,
                        format!("no claim {claim_id} at table {table}"),
                    ))?;
                match (decision, &c.view.status) {
                    (proto::Decision::Accept, ClaimStatus::Ruled { .. }) => invalid(format!(
                        "claim {claim_id} is already ruled; override it with a reason"
                    )),
                    (proto::Decision::Accept, ClaimStatus::Lapsed { .. }) => invalid(format!(
                        "claim {claim_id} lapsed; rule otherwise with a reason"
                    )),
                    (proto::Decision::Override { reason, .. }, _) if reason.trim().is_empty() => {
                        invalid("an override needs a reason".into())
                    }
                    _ => {
                        let (verdict, must_change) = match decision {
                            proto::Decision::Accept => {
                                (c.view.recommended.verdict, c.view.recommended.must_change)
                            }
                            proto::Decision::Override {
                                verdict,
                                must_change,
                                ..
                            } => (*verdict, *must_change),
                        };
                        if verdict != Verdict::Order {
                            return Ok(());
                        }
                        let t = self.table_ok(*table)?;
                        if t.finished() {
                            return invalid(format!("table {table}: the game is over"));
                        }
                        TableOrder::give(
                            &t.board.start,
                            &t.board.moves,
                            must_change,
                            self.params.rule_set,
                            t.cycles_after_order,
                            *claim_id,
                        )
                        .map(|_| ())
                        .map_err(|e| (ErrorCode::Invalid, format!("table {table}: {e}")))
                    }
                }
            }
            Command::EscalateClaim {
                table, claim_id, ..
            } => {
                self.table_ok(*table)?;
                match self
                    .book
                    .claims
                    .get(*claim_id)
                    .filter(|c| c.view.table == *table)
                {
                    Some(_) => Ok(()),
                    None => Err((
                        ErrorCode::NotFound,
                        format!("no claim {claim_id} at table {table}"),
                    )),
                }
            }
            Command::RecordFoul { table, .. } => self.table_ok(*table).map(|_| ()),
            Command::AdjustClock { table, .. } => {
                let t = self.table_ok(*table)?;
                if t.finished() {
                    return invalid(format!("table {table}: the game is over"));
                }
                Ok(())
            }
            Command::SetResult { table, .. } => self.table_ok(*table).map(|_| ()),
            Command::AckAlert { alert_id } => {
                if self.book.alerts.contains(*alert_id) {
                    Ok(())
                } else {
                    Err((ErrorCode::NotFound, format!("no alert {alert_id}")))
                }
            }
            // The export itself runs after the command is stored
            // (`export::command::after_commit`).
            Command::ExportRound => Ok(()),
            Command::DeclareMoveLimit { table, .. } => {
                let t = self.table_ok(*table)?;
                if !crate::table::apply::declared_limit(&self.params) {
                    return invalid(format!(
                        "the {} rules have no declared move limit (their natural limit applies)",
                        self.info.rule_set
                    ));
                }
                if t.finished() {
                    return invalid(format!("table {table}: the game is over"));
                }
                Ok(())
            }
            Command::CancelMoveLimit { table } => {
                let t = self.table_ok(*table)?;
                match t.move_limit {
                    Some(_) => Ok(()),
                    None => invalid(format!("table {table} has no move limit declared")),
                }
            }
        }
    }

    /// Applies one stored record received at server time `now`.
    pub fn apply(&mut self, rec: &Record, now: u64) -> Result<String, Refused> {
        self.note_change(rec);
        match rec {
            Record::Event(env) => {
                let params = self.params;
                let Some(t) = self.tables.get_mut(&env.table) else {
                    return Err((ErrorCode::NotFound, format!("no table {}", env.table)));
                };
                if env.epoch > t.epoch {
                    t.epoch = env.epoch;
                    t.high_water = 0;
                }
                if env.epoch == t.epoch && env.seq > t.high_water {
                    t.high_water = env.seq;
                }
                t.apply_event(&env.body, now, &params, &mut self.book);
                Ok(String::new())
            }
            Record::Command { who, role, command } => self.apply_command(who, role, command, now),
            Record::Refused {
                who,
                what,
                table,
                why,
            } => {
                self.book
                    .audit(now, who, what.clone(), *table, Some(why.clone()));
                Ok(String::new())
            }
            Record::Note(note) => {
                self.apply_note(note, now);
                Ok(String::new())
            }
        }
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
                        if t.raised.contains(&Raised::Offline(since)) {
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

    fn who_table(
        tables: &mut BTreeMap<u16, TableState>,
        table: u16,
    ) -> Result<&mut TableState, Refused> {
        tables.get_mut(&table).ok_or((
            ErrorCode::NotFound,
            format!("no table {table} in this round"),
        ))
    }

    fn apply_command(
        &mut self,
        who: &str,
        role: &str,
        cmd: &Command,
        now: u64,
    ) -> Result<String, Refused> {
        self.check_command(cmd)?;
        let params = self.params;
        let table_of = command_table(cmd);
        self.book.audit(now, who, describe(cmd), table_of, None);
        match cmd {
            Command::Subscribe | Command::Unsubscribe | Command::GetTableLog { .. } => {}
            Command::PauseTable { table, reason } => {
                let info = PauseInfo {
                    by: who.to_string(),
                    reason: reason.clone(),
                };
                self.pause_table(*table, info, false, now)?;
            }
            Command::ResumeTable { table } => {
                self.resume_table(*table, who, now)?;
            }
            Command::PauseHall { reason } => {
                let info = PauseInfo {
                    by: who.to_string(),
                    reason: reason.clone(),
                };
                self.paused = Some(info.clone());
                let ids: Vec<u16> = self.tables.keys().copied().collect();
                for t in ids {
                    let ts = &self.tables[&t];
                    if ts.finished()
                        || ts.sealed.is_some()
                        || matches!(ts.status, TableStatus::Paused(_))
                    {
                        continue;
                    }
                    self.pause_table(t, info.clone(), true, now)?;
                }
                self.book
                    .fx
                    .deltas
                    .push(proto::Delta::HallPaused(Some(info)));
            }
            Command::ResumeHall => {
                self.paused = None;
                let ids: Vec<u16> = self
                    .tables
                    .values()
                    .filter(|t| t.paused_by_hall)
                    .map(|t| t.table)
                    .collect();
                for t in ids {
                    self.resume_table(t, who, now)?;
                }
                self.book.fx.deltas.push(proto::Delta::HallPaused(None));
            }
            Command::Seal { table, sealed_move } => {
                let by = who.to_string();
                let t = Self::who_table(&mut self.tables, *table)?;
                let writer = match params.sealed_move_by {
                    rulebook::ruleset::SealedMoveBy::Red => Side::Red,
                    rulebook::ruleset::SealedMoveBy::SideToMove => side(t.board.turn()),
                };
                t.clock.pause(now);
                t.sealed = Some(Sealed {
                    mv: *sealed_move,
                    writer,
                    by: by.clone(),
                    at_ms: now,
                });
                t.status = TableStatus::Sealed {
                    by: by.clone(),
                    at_ms: now,
                };
                t.sample_clock(now);
                self.book.control(*table, ControlToTable::Seal { by });
                self.book.touch(*table);
            }
            Command::Unseal { table } => {
                let by = who.to_string();
                let t = Self::who_table(&mut self.tables, *table)?;
                let Some(s) = t.sealed.take() else {
                    return Err((ErrorCode::Invalid, format!("table {table} is not sealed")));
                };
                t.status = TableStatus::Playing;
                // The resumption: both players must be at the board within
                // the adjournment limit (AXF-REF-L).
                t.resumed_at_ms = Some(now);
                t.seen_since_resume = [None, None];
                t.play_move(s.writer, s.mv, now, &params, &mut self.book);
                let t = Self::who_table(&mut self.tables, *table)?;
                t.clock.resume(now);
                t.clock.running = Some(t.board.turn());
                t.sample_clock(now);
                let (red_ms, black_ms) = (t.clock.red_ms, t.clock.black_ms);
                self.book.control(
                    *table,
                    ControlToTable::Unseal {
                        by,
                        sealed_move: s.mv,
                        red_ms,
                        black_ms,
                    },
                );
                self.book.touch(*table);
            }
            Command::RuleOnClaim {
                table,
                claim_id,
                decision,
            } => {
                self.rule_on_claim(who, role, *table, *claim_id, decision, now)?;
            }
            Command::EscalateClaim {
                table,
                claim_id,
                reason,
            } => {
                let status = ClaimStatus::Escalated {
                    by: who.to_string(),
                    reason: reason.clone(),
                    at_ms: now,
                };
                if let Some(v) = self.book.claims.set_status(*claim_id, status, None) {
                    self.book.fx.deltas.push(proto::Delta::Claim(v));
                    self.book.alert(
                        NewAlert::new(
                            *table,
                            AlertKind::ClaimPending,
                            format!("第{table}台申诉{claim_id}已提交裁判长：{reason}"),
                            format!(
                                "table {table}: claim {claim_id} escalated to the chief: {reason}"
                            ),
                            &[],
                        ),
                        now,
                    );
                }
            }
            Command::RecordFoul {
                table,
                side: s,
                kind,
                note,
            } => {
                let t = Self::who_table(&mut self.tables, *table)?;
                t.add_foul(*s, *kind, note, now, &params, &mut self.book);
                self.book.touch(*table);
            }
            Command::AdjustClock {
                table,
                red_ms,
                black_ms,
                reason,
            } => {
                let t = Self::who_table(&mut self.tables, *table)?;
                t.clock.adjust(*red_ms, *black_ms, now);
                t.sample_clock(now);
                self.book.control(
                    *table,
                    ControlToTable::Adjust {
                        by: who.to_string(),
                        red_ms: *red_ms,
                        black_ms: *black_ms,
                        reason: reason.clone(),
                    },
                );
                self.book.touch(*table);
            }
            Command::SetResult {
                table,
                result,
                reason,
            } => {
                let t = Self::who_table(&mut self.tables, *table)?;
                t.finish(*result, EndReason::Arbiter, reason, now, &mut self.book);
                self.book.control(
                    *table,
                    ControlToTable::SetResult {
                        by: who.to_string(),
                        result: *result,
                        why: EndReason::Arbiter,
                        reason: reason.clone(),
                    },
                );
                self.book.touch(*table);
            }
            Command::AckAlert { alert_id } => {
                if let Some(a) = self.book.alerts.ack(*alert_id, who) {
                    self.book.fx.deltas.push(proto::Delta::AlertAcked {
                        id: a.id,
                        by: a.acked_by.unwrap_or_default(),
                    });
                }
            }
            Command::ExportRound => {}
            Command::DeclareMoveLimit {
                table,
                requested_by,
                limited,
                book_draw,
            } => {
                let t = Self::who_table(&mut self.tables, *table)?;
                let limit = t.declare_move_limit(*requested_by, *limited, *book_draw, &params);
                self.book.control(
                    *table,
                    ControlToTable::MoveLimit {
                        by: who.to_string(),
                        limit: Some(limit),
                    },
                );
                self.book.touch(*table);
            }
            Command::CancelMoveLimit { table } => {
                let t = Self::who_table(&mut self.tables, *table)?;
                t.move_limit = None;
                self.book.control(
                    *table,
                    ControlToTable::MoveLimit {
                        by: who.to_string(),
                        limit: None,
                    },
                );
                self.book.touch(*table);
            }
        }
        Ok(String::new())
    }

    fn pause_table(
        &mut self,
        table: u16,
        info: PauseInfo,
        by_hall: bool,
        now: u64,
    ) -> Result<(), Refused> {
        let t = Self::who_table(&mut self.tables, table)?;
        let old = std::mem::replace(&mut t.status, TableStatus::Paused(info.clone()));
        t.before_pause = Some(old);
        t.paused_by_hall = by_hall;
        t.clock.pause(now);
        t.sample_clock(now);
        self.book.control(
            table,
            ControlToTable::Pause {
                by: info.by,
                reason: info.reason,
            },
        );
        self.book.touch(table);
        Ok(())
    }

    fn resume_table(&mut self, table: u16, who: &str, now: u64) -> Result<(), Refused> {
        let t = Self::who_table(&mut self.tables, table)?;
        t.status = t.before_pause.take().unwrap_or(TableStatus::Playing);
        t.paused_by_hall = false;
        t.clock.resume(now);
        t.sample_clock(now);
        self.book.control(
            table,
            ControlToTable::Resume {
                by: who.to_string(),
            },
        );
        self.book.touch(table);
        Ok(())
    }

    fn rule_on_claim(
        &mut self,
        who: &str,
        role: &str,
        table: u16,
        claim_id: u64,
        decision: &proto::Decision,
        now: u64,
    ) -> Result<(), Refused> {
        let author = if role == "chief" {
            RulingAuthor::Chief
        } else {
            RulingAuthor::Deputy(
                who.split_once(':')
                    .map(|(_, n)| n)
                    .unwrap_or(who)
                    .to_string(),
            )
        };
        let Some(c) = self.book.claims.get(claim_id) else {
            return Err((ErrorCode::NotFound, format!("no claim {claim_id}")));
        };
        let (outcome, verdict, must_change, penalty) = match decision {
            proto::Decision::Accept => (
                RulingOutcome::Accepted,
                c.view.recommended.verdict,
                c.view.recommended.must_change,
                c.penalty,
            ),
            proto::Decision::Override {
                verdict,
                must_change,
                reason,
            } => (
                RulingOutcome::Overridden {
                    verdict: *verdict,
                    must_change: *must_change,
                    reason: reason.clone(),
                },
                *verdict,
                *must_change,
                Penalty::None,
            ),
        };
        let kind = c.view.kind;
        let ends = c.ends;
        let status = ClaimStatus::Ruled {
            by: who.to_string(),
            outcome,
            at_ms: now,
        };
        if let Some(v) = self.book.claims.set_status(claim_id, status, Some(author)) {
            self.book.fx.deltas.push(proto::Delta::Claim(v));
        }
        let params = self.params;
        let t = Self::who_table(&mut self.tables, table)?;
        match verdict {
            Verdict::Continue => {
                if t.finished() {
                    t.status = TableStatus::Playing;
                }
            }
            Verdict::Order => {
                match TableOrder::give(
                    &t.board.start,
                    &t.board.moves,
                    must_change,
                    params.rule_set,
                    t.cycles_after_order,
                    claim_id,
                ) {
                    Ok(order) => {
                        let (text_zh, text_en) = order.words();
                        let ply = t.board.plies();
                        t.order = Some(order);
                        self.book.audit(
                            now,
                            who,
                            format!(
                                "table {table}: order at ply {ply} (claim {claim_id}): {text_en}"
                            ),
                            Some(table),
                            None,
                        );
                        self.book.control(
                            table,
                            ControlToTable::Order {
                                by: who.to_string(),
                                must_change,
                                text_zh,
                                text_en,
                            },
                        );
                    }
                    Err(e) => tracing::warn!(table, claim_id, error = %e, "order not given"),
                }
            }
            Verdict::Draw | Verdict::Loss { .. } => {
                let end = ends.of_verdict(verdict).unwrap_or(EndReason::Arbiter);
                let (result, words) = match verdict {
                    Verdict::Loss { side: loser } => (
                        GameResult::win_for(loser.other()),
                        format!("{} loses by ruling on claim {claim_id}", side_en(loser)),
                    ),
                    _ => (
                        GameResult::Draw,
                        format!("draw by ruling on claim {claim_id}"),
                    ),
                };
                t.finish(result, end, &words, now, &mut self.book);
                self.book.control(
                    table,
                    ControlToTable::SetResult {
                        by: who.to_string(),
                        result,
                        why: end,
                        reason: words,
                    },
                );
            }
            Verdict::CorrectMove { side: mover } => {
                // Once the player has corrected the move on the board the
                // wrong move is gone: taking back would undo the correction.
                let uncorrected = t
                    .pending_illegal
                    .take()
                    .is_some_and(|p| p.claim_id == claim_id);
                t.add_foul(
                    mover,
                    proto::FoulKind::Technical,
                    "illegal move corrected",
                    now,
                    &params,
                    &mut self.book,
                );
                if kind == ClaimKind::IllegalMove && uncorrected {
                    self.book.control(
                        table,
                        ControlToTable::TakeBack {
                            by: who.to_string(),
                            reason: format!(
                                "illegal move corrected (claim {claim_id}, AXF-PLAY-4A)"
                            ),
                        },
                    );
                }
            }
        }
        if let Penalty::FalseLimitClaim {
            side: s,
            technical_foul,
            deduct_ms,
        } = penalty
        {
            let t = Self::who_table(&mut self.tables, table)?;
            if technical_foul {
                t.add_foul(
                    s,
                    proto::FoulKind::Technical,
                    "false natural-limit claim",
                    now,
                    &params,
                    &mut self.book,
                );
            }
            let t = Self::who_table(&mut self.tables, table)?;
            let c = color(s);
            let left = t.clock.remaining_at(c, now);
            let after = left.saturating_sub(deduct_ms);
            let (r, b) = match s {
                Side::Red => (after, t.clock.remaining_at(xiangqi::Color::Black, now)),
                Side::Black => (t.clock.remaining_at(xiangqi::Color::Red, now), after),
            };
            t.clock.adjust(r, b, now);
            t.sample_clock(now);
            self.book.control(
                table,
                ControlToTable::Adjust {
                    by: who.to_string(),
                    red_ms: r,
                    black_ms: b,
                    reason: format!(
                        "false natural-limit claim: {} ms off (AXF-LIMIT-3)",
                        deduct_ms
                    ),
                },
            );
            if after == 0 {
                let t = Self::who_table(&mut self.tables, table)?;
                t.flag_fall(s, now, &mut self.book);
            }
        }
        self.book.touch(table);
        Ok(())
    }
}
