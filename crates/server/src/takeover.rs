//! One terminal per table (一台一终端): what a table's new connection does
//! to the one already connected, bounded in what it stores.
//!
//! A table's new connection takes the table over from its older one (a
//! laptop swap: the new terminal is the one the players now use); the older
//! one is sent [`proto::ServerMsg::TakenOver`] and closed, and a caipan
//! terminal then stops reconnecting for that table unless the person at it
//! confirms. That first takeover is stored as one
//! `Note::TerminalReplaced` ("terminal replaced").
//!
//! Two terminals that ignore the notice (an old program, a script) would
//! take the table from each other as fast as they reconnect. A takeover
//! within [`FIGHT_WINDOW_MS`] of the table's previous one is a fight: its
//! first stores ONE `Note::TerminalsFighting` (the "two terminals for table
//! N" alert), and it and every later one are only counted, nothing stored
//! (the connection's online note neither); when no takeover came for the
//! window, the ticker appends the count as one `Note::TerminalsFought`. So a
//! fight of any length leaves three records.

use std::collections::HashMap;
use std::sync::Mutex;

use hall::record::{Note, Record};

/// A takeover this soon after the table's previous one is part of a fight.
pub const FIGHT_WINDOW_MS: u64 = 10_000;

/// What to do with one takeover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A takeover after a quiet while: store this record (the "terminal
    /// replaced" note) and the connection's online note as usual.
    Replaced(Record),
    /// Part of a fight: store `alert` (the fight's first takeover only) and
    /// nothing else, not even the connection's online note.
    Fight {
        /// The "two terminals" note, once per fight.
        alert: Option<Record>,
    },
}

#[derive(Debug, Clone, Copy)]
struct Fight {
    start_ms: u64,
    /// Takeovers counted (after the one that began the fight).
    count: u64,
}

#[derive(Debug, Clone, Copy)]
struct TableState {
    last_ms: u64,
    fight: Option<Fight>,
}

/// The takeovers of every table.
#[derive(Debug, Default)]
pub struct Takeovers {
    tables: Mutex<HashMap<u16, TableState>>,
}

fn fought(table: u16, f: Fight, end_ms: u64) -> Record {
    Record::Note(Note::TerminalsFought {
        table,
        takeovers: f.count,
        seconds: end_ms.saturating_sub(f.start_ms).div_ceil(1000).max(1),
    })
}

impl Takeovers {
    /// A new connection of `table` took it from a connected one at
    /// `now_ms`. Returns the count of the table's previous fight if it just
    /// ended (to append first), and what to store for this one.
    pub fn note(&self, table: u16, now_ms: u64) -> (Option<Record>, Verdict) {
        let Ok(mut tables) = self.tables.lock() else {
            return (None, Verdict::Fight { alert: None });
        };
        let quiet = Verdict::Replaced(Record::Note(Note::TerminalReplaced { table }));
        let Some(st) = tables.get_mut(&table) else {
            tables.insert(
                table,
                TableState {
                    last_ms: now_ms,
                    fight: None,
                },
            );
            return (None, quiet);
        };
        let within = now_ms.saturating_sub(st.last_ms) < FIGHT_WINDOW_MS;
        let last = std::mem::replace(&mut st.last_ms, now_ms);
        if !within {
            let ended = st.fight.take().map(|f| fought(table, f, last));
            return (ended, quiet);
        }
        match &mut st.fight {
            Some(f) => {
                f.count += 1;
                (None, Verdict::Fight { alert: None })
            }
            None => {
                st.fight = Some(Fight {
                    start_ms: last,
                    count: 1,
                });
                (
                    None,
                    Verdict::Fight {
                        alert: Some(Record::Note(Note::TerminalsFighting { table })),
                    },
                )
            }
        }
    }

    /// Whether `table` is in a fight at `now_ms` (its connections' online
    /// notes are not stored meanwhile).
    pub fn fighting(&self, table: u16, now_ms: u64) -> bool {
        self.tables.lock().is_ok_and(|t| {
            t.get(&table).is_some_and(|s| {
                s.fight.is_some() && now_ms.saturating_sub(s.last_ms) < FIGHT_WINDOW_MS
            })
        })
    }

    /// The counts of the fights that ended by `now_ms` (the ticker appends
    /// them).
    pub fn due(&self, now_ms: u64) -> Vec<Record> {
        self.take(|s| now_ms.saturating_sub(s.last_ms) >= FIGHT_WINDOW_MS)
    }

    /// The counts of every fight, ended or not (a clean stop appends them).
    pub fn flush(&self) -> Vec<Record> {
        self.take(|_| true)
    }

    fn take(&self, done: impl Fn(&TableState) -> bool) -> Vec<Record> {
        let Ok(mut tables) = self.tables.lock() else {
            return Vec::new();
        };
        let mut out: Vec<(u16, Record)> = Vec::new();
        for (table, s) in tables.iter_mut() {
            if done(s) {
                if let Some(f) = s.fight.take() {
                    out.push((*table, fought(*table, f, s.last_ms)));
                }
            }
        }
        out.sort_by_key(|(t, _)| *t);
        out.into_iter().map(|(_, r)| r).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_is_stored_and_a_fight_is_one_alert_and_one_count() {
        let t = Takeovers::default();
        let t0 = 1_000_000;
        assert_eq!(
            t.note(3, t0),
            (
                None,
                Verdict::Replaced(Record::Note(Note::TerminalReplaced { table: 3 }))
            )
        );
        assert!(!t.fighting(3, t0));
        // 4,000 takeovers a millisecond apart: one alert, nothing else.
        let mut alerts = 0;
        for i in 1..=4_000u64 {
            let (ended, v) = t.note(3, t0 + i);
            assert!(ended.is_none());
            match v {
                Verdict::Fight { alert: Some(_) } => alerts += 1,
                Verdict::Fight { alert: None } => {}
                Verdict::Replaced(r) => panic!("stored {r:?} in a fight"),
            }
        }
        assert_eq!(alerts, 1);
        assert!(t.fighting(3, t0 + 4_000));
        // Another table is on its own.
        assert!(matches!(t.note(4, t0).1, Verdict::Replaced(_)));
        assert!(t.due(t0 + 4_000 + FIGHT_WINDOW_MS - 1).is_empty());
        let due = t.due(t0 + 4_000 + FIGHT_WINDOW_MS);
        assert_eq!(
            due,
            vec![Record::Note(Note::TerminalsFought {
                table: 3,
                takeovers: 4_000,
                seconds: 4
            })]
        );
        assert!(t.flush().is_empty(), "counted once");
        // Later, a swap again.
        let later = t0 + 60_000;
        assert!(matches!(t.note(3, later), (None, Verdict::Replaced(_))));
    }

    #[test]
    fn a_fight_still_open_is_counted_at_the_next_swap_or_the_stop() {
        let t = Takeovers::default();
        t.note(1, 0);
        t.note(1, 10);
        t.note(1, 20);
        let (ended, v) = t.note(1, 20 + FIGHT_WINDOW_MS);
        assert!(matches!(v, Verdict::Replaced(_)));
        assert!(matches!(
            ended,
            Some(Record::Note(Note::TerminalsFought { takeovers: 2, .. }))
        ));
        t.note(1, 30 + FIGHT_WINDOW_MS);
        assert_eq!(t.flush().len(), 1);
    }
}
