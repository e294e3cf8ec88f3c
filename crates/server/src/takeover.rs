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
//!
//! Which of two connections of a table is the newer is decided by their
//! connection ids (given in sign-in order, before the `HelloOk`), not by
//! the order their tasks reach the table's link ([`claim`]): a terminal
//! that connects once to learn its table, closes, and connects again to
//! play can have the second connection's task link first; the first then
//! finds a newer link and leaves it alone.

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

/// The table's link as a newly signed-in connection finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    /// The linked connection's id.
    pub conn: u64,
    /// Whether it is already closing (a terminal that connected once to
    /// learn its table).
    pub closing: bool,
}

/// What a newly signed-in connection `conn` of a table does with its link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// No live older connection: link, nothing taken over (an older one
    /// that is closing is replaced silently).
    Free,
    /// Link and take the table over from the older live connection.
    TakeOver,
    /// A newer connection already holds the table: this one is the one
    /// taken over (told so and closed); the link is left alone.
    Stale,
}

/// Decides [`Claim`] for connection `conn` finding `held` as the table's
/// link. Connection ids are unique and given in sign-in order.
pub fn claim(held: Option<Held>, conn: u64) -> Claim {
    match held {
        None => Claim::Free,
        Some(h) => {
            debug_assert_ne!(h.conn, conn, "a connection links its table once");
            if h.conn > conn {
                Claim::Stale
            } else if h.closing {
                Claim::Free
            } else {
                Claim::TakeOver
            }
        }
    }
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

    /// Every order in which up to four connections of one table (ids in
    /// sign-in order, each live or closing) reach the link: the newest
    /// connection always holds it at the end, each connection is linked or
    /// told it is stale exactly once, and a takeover is counted only when a
    /// live older connection is displaced by a newer one.
    #[test]
    fn the_newest_connection_holds_the_table_in_every_link_order() {
        fn permutations(n: u64) -> Vec<Vec<u64>> {
            if n == 0 {
                return vec![Vec::new()];
            }
            let mut out = Vec::new();
            for p in permutations(n - 1) {
                for i in 0..=p.len() {
                    let mut q = p.clone();
                    q.insert(i, n);
                    out.push(q);
                }
            }
            out
        }
        let mut cases = 0;
        for n in 1..=4u64 {
            for order in permutations(n) {
                for closing_mask in 0..(1u32 << n) {
                    let closing = |c: u64| closing_mask & (1 << (c - 1)) != 0;
                    let mut held: Option<Held> = None;
                    for &c in &order {
                        let before = held;
                        match claim(held, c) {
                            Claim::Free => {
                                assert!(before.is_none_or(|h| h.conn < c && h.closing));
                                held = Some(Held {
                                    conn: c,
                                    closing: closing(c),
                                });
                            }
                            Claim::TakeOver => {
                                let h = before.expect("something to take over");
                                assert!(h.conn < c && !h.closing);
                                held = Some(Held {
                                    conn: c,
                                    closing: closing(c),
                                });
                            }
                            Claim::Stale => {
                                assert!(before.is_some_and(|h| h.conn > c));
                            }
                        }
                    }
                    assert_eq!(held.map(|h| h.conn), Some(n), "{order:?}");
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, 2 + 2 * 4 + 6 * 8 + 24 * 16);
    }

    /// The demo's race: the info connection (1, closing) links after the
    /// play connection (2): the play connection keeps the table.
    #[test]
    fn a_late_info_connection_does_not_take_the_table_back() {
        assert_eq!(claim(None, 2), Claim::Free);
        let play = Held {
            conn: 2,
            closing: false,
        };
        assert_eq!(claim(Some(play), 1), Claim::Stale);
        assert_eq!(
            claim(
                Some(Held {
                    conn: 1,
                    closing: true
                }),
                2
            ),
            Claim::Free
        );
        assert_eq!(
            claim(
                Some(Held {
                    conn: 1,
                    closing: false
                }),
                2
            ),
            Claim::TakeOver
        );
    }

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
