//! The server's own notes (服务器记录) applied to the hall: a terminal's
//! connection coming and going, the offline alert after its grace period,
//! a flag fall the terminal did not report, a no-show at the start or at
//! the resumption of an adjourned game, a console sending refused
//! commands, and a stored record set aside on start. The server stores
//! each note (the ticker's due notes come from [`crate::due`]) before it
//! reaches [`Hall::apply`], like any record, so a replay raises the same
//! alerts and claims.

use proto::{AlertKind, Side};

use crate::alerts::NewAlert;
use crate::hall::Hall;
use crate::loss::Loss;
use crate::record::Note;
use crate::table::Raised;

impl Hall {
    /// Applies one server note received at `now`.
    pub(crate) fn apply_note(&mut self, note: &Note, now: u64) {
        match note {
            Note::RefusedCommands {
                who,
                threshold,
                window_s,
            } => self.refused_commands(who, *threshold, *window_s, now),
            Note::RecordQuarantined { gseq, error } => self.record_quarantined(*gseq, error, now),
            Note::Online { table, online } => self.online(*table, *online, now),
            Note::OfflineAlert { table, since_ms } => self.offline_alert(*table, *since_ms, now),
            Note::LateResumption {
                table,
                resumed_at_ms,
                side,
            } => self.late_resumption(*table, *resumed_at_ms, *side, now),
            Note::FlagFall { table, side } => {
                if let Some(t) = self.tables.get_mut(table).map(std::sync::Arc::make_mut) {
                    t.flag_fall(*side, now, &mut self.book);
                    self.book.touch(*table);
                }
            }
            Note::NoShow { table, side } => self.no_show(*table, *side, now),
            Note::TerminalReplaced { table } => self.terminal_alert(
                *table,
                AlertKind::TerminalReplaced,
                i18n::texts::terminal_replaced(*table),
                now,
            ),
            Note::TerminalsFighting { table } => self.terminal_alert(
                *table,
                AlertKind::TwoTerminals,
                i18n::texts::two_terminals(*table),
                now,
            ),
            Note::StoppedReading { who, after_s } => self.book.alert(
                NewAlert::new(
                    0,
                    AlertKind::StoppedReading,
                    i18n::texts::stopped_reading(who, *after_s),
                    &[],
                ),
                now,
            ),
            // The count is in the stored record (the audit trail); the
            // fight's alert was raised at its start.
            Note::TerminalsFought { .. } => {}
        }
    }

    /// An alert about the table's terminals.
    fn terminal_alert(&mut self, table: u16, kind: AlertKind, text: proto::Message, now: u64) {
        if !self.tables.contains_key(&table) {
            return;
        }
        self.book.alert(NewAlert::new(table, kind, text, &[]), now);
        self.book.touch(table);
    }

    /// A console past the refused-commands threshold: one hall-wide alert.
    fn refused_commands(&mut self, who: &str, threshold: u32, window_s: u32, now: u64) {
        self.book.alert(
            NewAlert::new(
                0,
                AlertKind::RefusedCommands,
                i18n::texts::refused_commands(who, threshold, window_s),
                &[],
            ),
            now,
        );
    }

    /// A stored record set aside on start: one hall-wide alert per record
    /// (a later start that sets it aside again stores another note, which
    /// raises nothing new).
    fn record_quarantined(&mut self, gseq: u64, error: &str, now: u64) {
        let text = i18n::texts::record_quarantined(gseq, error);
        let raised = self
            .book
            .alerts
            .all()
            .any(|a| a.kind == AlertKind::RecordQuarantined && a.text == text);
        if raised {
            return;
        }
        self.book.alert(
            NewAlert::new(0, AlertKind::RecordQuarantined, text, &[]),
            now,
        );
    }

    /// A table's terminal connected or went away.
    fn online(&mut self, table: u16, online: bool, now: u64) {
        let Some(t) = self.tables.get_mut(&table).map(std::sync::Arc::make_mut) else {
            return;
        };
        if t.online == online {
            return;
        }
        t.online = online;
        t.last_heard_ms = now;
        if !online {
            // Reported offline by the ticker after the grace period.
            t.offline_since_ms = Some(now);
        } else if let Some(since) = t.offline_since_ms.take() {
            // The outage is over: its mark is never looked up again (a
            // later one has its own start), so it goes and a flapping
            // terminal does not grow the table.
            if t.raised.remove(&Raised::Offline(since)) {
                self.book.alert(
                    NewAlert::new(
                        table,
                        AlertKind::TableOnline,
                        i18n::texts::table_online(table),
                        &[],
                    ),
                    now,
                );
            }
        }
        self.book.touch(table);
    }

    /// A terminal still offline after the grace period: one alert per
    /// outage.
    fn offline_alert(&mut self, table: u16, since_ms: u64, now: u64) {
        let Some(t) = self.tables.get_mut(&table).map(std::sync::Arc::make_mut) else {
            return;
        };
        if t.online
            || t.offline_since_ms != Some(since_ms)
            || !t.raised.insert(Raised::Offline(since_ms))
        {
            return;
        }
        let secs = now.saturating_sub(since_ms) / 1000;
        self.book.alert(
            NewAlert::new(
                table,
                AlertKind::TableOffline,
                i18n::texts::table_offline(table, secs),
                &[],
            ),
            now,
        );
        self.book.touch(table);
    }

    /// A player absent after an adjourned game resumed (AXF-REF-L): an
    /// alert and a no-show claim for the arbiter, once per resumption and
    /// side.
    fn late_resumption(&mut self, table: u16, resumed_at_ms: u64, side: Side, now: u64) {
        // Whole seconds, as the limit was always spelled.
        let limit_ms = self.params.fouls.adjournment_late_ms / 1000 * 1000;
        let Some(t) = self.tables.get_mut(&table).map(std::sync::Arc::make_mut) else {
            return;
        };
        if t.finished() || !t.raised.insert(Raised::LateResumption(resumed_at_ms, side)) {
            return;
        }
        let loss = Loss::LateResumption { side, limit_ms };
        self.book.propose_loss(table, loss, now);
        self.book.touch(table);
    }

    /// A player absent after the round's start (AXF-FORFEIT-1): an alert
    /// and a no-show claim for the arbiter, once per side.
    fn no_show(&mut self, table: u16, side: Side, now: u64) {
        let limit_ms = self.params.fouls.no_show_ms;
        let Some(t) = self.tables.get_mut(&table).map(std::sync::Arc::make_mut) else {
            return;
        };
        if !t.raised.insert(Raised::NoShow(side)) {
            return;
        }
        self.book
            .propose_loss(table, Loss::NoShow { side, limit_ms }, now);
    }
}
