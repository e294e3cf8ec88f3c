//! What is always true of a hall (不变量), checked: [`Hall::check_invariants`]
//! names the first broken one ([`Broken`]).
//!
//! - Cheap, per table (O(1) each): the table is filed under its number; a
//!   paused table knows the state it returns to; a table paused by the
//!   hall pause is paused; the sealed move and the sealed status go
//!   together; the board's counters agree with its moves (the position
//!   keys cover the capture-free stretch, the plies since the capture, the
//!   checks, the repetition watch's ply); the bounded lists are within
//!   their bounds.
//! - Cheap, hall-wide: ids never run ahead of their counters.
//! - Full ([`Hall::check_invariants`]): all of the above for every table,
//!   each table's packed clock history holds a marker for each of its
//!   wide samples (O(samples), issue 40),
//!   every claim's and alert's table is one of the round's (or the hall's
//!   own, 0, for an alert), the claims' open counts agree with the claims,
//!   and a snapshot restored onto a fresh hall gives the same snapshot.
//!
//! In debug builds (and so in every test) [`Hall::apply`] checks the cheap
//! ones of the record's table after every record, and all of them every
//! [`full_check_every`] records ([`FULL_CHECK_EVERY`], more in a hall of
//! over 64 tables, so that the full check's cost per record does not grow
//! with the hall: at 5,000 tables a check every 1,024 records took the
//! whole committer thread of a dev build, issue 40); the fuzz target
//! checks all of them after every record. A release build checks nothing.

use proto::TableStatus;

use crate::hall::Hall;
#[cfg(debug_assertions)]
use crate::record::Record;
use crate::snapshot::Restore;
use crate::table::{TableState, MAX_CLOCK_HISTORY, MAX_PENDING_CONTROLS};

/// How many records apart a debug build checks every invariant (the
/// snapshot round trip plays every table's moves again).
pub const FULL_CHECK_EVERY: u64 = 1_024;

/// How many records apart a debug build checks every invariant in a hall
/// of `tables` tables: [`FULL_CHECK_EVERY`], or 16 per table in a larger
/// hall (the check plays every table again: its cost per record stays the
/// same whatever the hall's size).
pub fn full_check_every(tables: usize) -> u64 {
    FULL_CHECK_EVERY.max(u64::try_from(tables).unwrap_or(u64::MAX).saturating_mul(16))
}

/// An invariant that does not hold, with where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Broken {
    /// A table kept under another number.
    #[error("table {key} holds the state of table {table}")]
    Misfiled {
        /// The number it is kept under.
        key: u16,
        /// Its own number.
        table: u16,
    },
    /// A paused table without the state to return to.
    #[error("table {table} is paused without the state it returns to")]
    PausedWithoutBefore {
        /// The table.
        table: u16,
    },
    /// A table marked paused by the hall that is not paused.
    #[error("table {table} is marked paused by the hall but is {status}")]
    HallPauseLost {
        /// The table.
        table: u16,
        /// Its status, in words.
        status: String,
    },
    /// A sealed move without the sealed status, or the reverse.
    #[error("table {table}: sealed move {has_move}, sealed status {sealed_status}")]
    SealMismatch {
        /// The table.
        table: u16,
        /// Whether a sealed move is kept.
        has_move: bool,
        /// Whether the status is sealed.
        sealed_status: bool,
    },
    /// A counter that does not agree with the moves.
    #[error("table {table}: {what} is {got}, the moves say {want}")]
    Counter {
        /// The table.
        table: u16,
        /// Which counter.
        what: &'static str,
        /// Its value.
        got: u64,
        /// What the moves say.
        want: u64,
    },
    /// A list past its bound.
    #[error("table {table}: {what} holds {len}, more than {max}")]
    Unbounded {
        /// The table.
        table: u16,
        /// Which list.
        what: &'static str,
        /// Its length.
        len: usize,
        /// Its bound.
        max: usize,
    },
    /// An id past the counter that gives them.
    #[error("{what} {id} was never given (the last given is {last})")]
    IdAhead {
        /// Which ids.
        what: &'static str,
        /// The id kept.
        id: u64,
        /// The last id given.
        last: u64,
    },
    /// A claim or an alert about a table that is not in the round.
    #[error("{what} {id} is about table {table}, which is not in the round")]
    NoSuchTable {
        /// Claim or alert.
        what: &'static str,
        /// Its id.
        id: u64,
        /// The table it names.
        table: u16,
    },
    /// The open-claims count of a table that does not agree with its claims.
    #[error("table {table}: {counted} open claims, the count says {kept}")]
    OpenCount {
        /// The table.
        table: u16,
        /// Open claims found.
        counted: u32,
        /// The count kept.
        kept: u32,
    },
    /// A clock history whose samples read back are not as many as it
    /// counts, or whose last is not its newest (a change misread).
    #[error("table {table}: the clock history reads back {samples} samples and counts {len}")]
    ClockHistory {
        /// The table.
        table: u16,
        /// Samples read back.
        samples: usize,
        /// Samples counted.
        len: usize,
    },
    /// A snapshot restored onto a fresh hall that does not give the same
    /// snapshot (or does not restore).
    #[error("the snapshot does not survive a restore: {what}")]
    RoundTrip {
        /// What differs.
        what: String,
    },
}

/// The cheap invariants of one table.
pub(crate) fn check_table(key: u16, t: &TableState) -> Result<(), Broken> {
    let table = t.table;
    if key != table {
        return Err(Broken::Misfiled { key, table });
    }
    let paused = matches!(t.status, TableStatus::Paused(_));
    if paused && t.before_pause.is_none() {
        return Err(Broken::PausedWithoutBefore { table });
    }
    if t.paused_by_hall && !paused {
        let status = format!("{:?}", t.status);
        return Err(Broken::HallPauseLost { table, status });
    }
    let sealed_status = matches!(t.status, TableStatus::Sealed { .. });
    if t.sealed.is_some() != sealed_status {
        let has_move = t.sealed.is_some();
        return Err(Broken::SealMismatch {
            table,
            has_move,
            sealed_status,
        });
    }
    check_counters(t)?;
    let bounded = [
        (
            "the clock history",
            t.clock_history.len(),
            MAX_CLOCK_HISTORY,
        ),
        (
            "the pending controls",
            t.pending_controls.len(),
            MAX_PENDING_CONTROLS,
        ),
    ];
    for (what, len, max) in bounded {
        if len > max {
            return Err(Broken::Unbounded {
                table,
                what,
                len,
                max,
            });
        }
    }
    Ok(())
}

/// The board's counters against its moves.
fn check_counters(t: &TableState) -> Result<(), Broken> {
    let b = &t.board;
    let n = b.moves.len() as u64;
    let stretch = b.stretch_start as u64;
    let since = if stretch == 0 {
        u64::from(b.start.halfmove_clock()) + n
    } else {
        n.saturating_sub(stretch)
    };
    let checks = u64::from(b.checks.red) + u64::from(b.checks.black);
    let counters = [
        ("the capture-free stretch's start", stretch, stretch.min(n)),
        (
            "the position keys",
            b.keys.len() as u64,
            n.saturating_sub(stretch) + 1,
        ),
        (
            "the plies since the capture",
            u64::from(b.plies_since_capture),
            since,
        ),
        ("the checks given", checks, checks.min(n)),
        (
            "Red's checks since the capture",
            u64::from(b.checks_since_capture.red),
            u64::from(b.checks_since_capture.red.min(b.checks.red)),
        ),
        (
            "Black's checks since the capture",
            u64::from(b.checks_since_capture.black),
            u64::from(b.checks_since_capture.black.min(b.checks.black)),
        ),
        ("the repetition watch's ply", t.repetition.ply() as u64, n),
    ];
    for (what, got, want) in counters {
        if got != want {
            return Err(Broken::Counter {
                table: t.table,
                what,
                got,
                want,
            });
        }
    }
    Ok(())
}

impl Hall {
    /// Every invariant of the hall (see the module's docs), the first
    /// broken one named.
    pub fn check_invariants(&self) -> Result<(), Broken> {
        for (&key, t) in &self.tables {
            check_table(key, t)?;
            let (samples, len) = (t.clock_history.iter().count(), t.clock_history.len());
            if samples != len || t.clock_history.iter().last() != t.clock_history.back() {
                let table = t.table;
                return Err(Broken::ClockHistory {
                    table,
                    samples,
                    len,
                });
            }
        }
        self.check_ids()?;
        self.check_claims_and_alerts()?;
        self.check_round_trip()
    }

    /// The cheap invariants after `rec`: its table's and the ids'. Only
    /// debug builds check after every record ([`Hall::debug_check`]).
    #[cfg(debug_assertions)]
    pub(crate) fn check_after(&self, rec: &Record) -> Result<(), Broken> {
        if let Some(t) = rec.table() {
            if let Some(ts) = self.tables.get(&t) {
                check_table(t, ts)?;
            }
        }
        self.check_ids()
    }

    /// Ids never run ahead of their counters (the newest of each checked).
    fn check_ids(&self) -> Result<(), Broken> {
        let b = &self.book;
        let (last_audit, _) = b.counters();
        let newest = [
            (
                "alert",
                b.alerts.all().last().map(|a| a.id),
                b.alerts.last_id(),
            ),
            (
                "claim",
                b.claims.all().last().map(|c| c.id),
                b.claims.last_id(),
            ),
            ("audit entry", b.audit.back().map(|e| e.id), last_audit),
        ];
        for (what, id, last) in newest {
            if let Some(id) = id.filter(|&id| id > last) {
                return Err(Broken::IdAhead { what, id, last });
            }
        }
        Ok(())
    }

    /// Every claim's table is the round's, every alert's too (or 0, the
    /// hall's own); the open counts agree with the claims.
    fn check_claims_and_alerts(&self) -> Result<(), Broken> {
        let mut open = std::collections::BTreeMap::<u16, u32>::new();
        for c in self.book.claims.all() {
            if !self.tables.contains_key(&c.table) {
                let (id, table) = (c.id, c.table);
                return Err(Broken::NoSuchTable {
                    what: "claim",
                    id,
                    table,
                });
            }
            if c.status.is_open() {
                *open.entry(c.table).or_default() += 1;
            }
        }
        for a in self.book.alerts.all() {
            if a.table != 0 && !self.tables.contains_key(&a.table) {
                let (id, table) = (a.id, a.table);
                return Err(Broken::NoSuchTable {
                    what: "alert",
                    id,
                    table,
                });
            }
        }
        for &table in self.tables.keys() {
            let counted = open.get(&table).copied().unwrap_or(0);
            let kept = self.book.claims.open_count(table);
            if counted != kept {
                return Err(Broken::OpenCount {
                    table,
                    counted,
                    kept,
                });
            }
        }
        Ok(())
    }

    /// A snapshot of this hall restored onto a fresh hall of the same
    /// setup gives the same snapshot, and the consoles see the same hall
    /// (the views hold what a restore rebuilds from the moves: the
    /// position, the declared limit's count, the order).
    fn check_round_trip(&self) -> Result<(), Broken> {
        let taken = Restore::of(self);
        let mut fresh = Hall::new(self.setup.clone());
        fresh
            .restore(taken.clone())
            .map_err(|e| Broken::RoundTrip {
                what: e.to_string(),
            })?;
        let again = Restore::of(&fresh);
        if again == taken && fresh.snapshot(0) == self.snapshot(0) {
            return Ok(());
        }
        let what = match taken
            .tables
            .iter()
            .find(|(n, t)| again.tables.get(n) != Some(t))
        {
            Some((n, _)) => format!("table {n} differs"),
            None if again.book != taken.book => "the book differs".to_string(),
            None if again != taken => "the hall pause or the record count differs".to_string(),
            None => match self
                .tables
                .iter()
                .find(|(n, t)| fresh.tables.get(n).map(|f| f.view(0, 0)) != Some(t.view(0, 0)))
            {
                Some((n, _)) => format!("table {n}'s view differs"),
                None => "the hall's view differs".to_string(),
            },
        };
        Err(Broken::RoundTrip { what })
    }

    /// In debug builds: the cheap invariants after `rec`, every invariant
    /// every [`full_check_every`] records; a broken one is a panic naming it.
    #[cfg(debug_assertions)]
    pub(crate) fn debug_check(&self, rec: &Record) {
        let checked = if self.applied % full_check_every(self.tables.len()) == 0 {
            self.check_invariants()
        } else {
            self.check_after(rec)
        };
        if let Err(broken) = checked {
            panic!(
                "hall invariant broken after record {}: {broken}",
                self.applied
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use proto::{ClaimKind, PauseInfo, TableStatus};

    use super::Broken;
    use crate::claims::NewClaim;
    use crate::states::{axf, play_on as ruling, Running, NOW, T};

    #[test]
    fn the_full_check_comes_as_often_per_table_in_a_large_hall() {
        use super::{full_check_every, FULL_CHECK_EVERY};
        assert_eq!(full_check_every(0), FULL_CHECK_EVERY);
        assert_eq!(full_check_every(64), FULL_CHECK_EVERY);
        assert_eq!(full_check_every(10_000), 160_000);
        assert_eq!(full_check_every(usize::MAX), u64::MAX);
    }

    #[test]
    fn a_hall_in_every_state_keeps_its_invariants() {
        for claim in [false, true] {
            for state in crate::states::STATES {
                let h = crate::states::axf(state, claim);
                assert_eq!(h.check_invariants(), Ok(()), "{state:?} {claim}");
            }
        }
    }

    /// Each invariant broken on purpose (through the crate's own fields,
    /// as a bug would) is caught and named.
    #[test]
    fn a_broken_invariant_is_caught_and_named() {
        let mut h = axf(Running, true);
        let t = h
            .tables
            .get_mut(&T)
            .map(std::sync::Arc::make_mut)
            .expect("table 1");
        t.status = TableStatus::Paused(PauseInfo {
            by: "chief:王".into(),
            reason: "test".into(),
        });
        assert_eq!(
            h.check_invariants(),
            Err(Broken::PausedWithoutBefore { table: T })
        );

        let mut h = axf(Running, false);
        h.book
            .claim(NewClaim::new(9, ClaimKind::FlagFall, ruling()), NOW);
        assert_eq!(
            h.check_invariants(),
            Err(Broken::NoSuchTable {
                what: "claim",
                id: 1,
                table: 9
            })
        );

        let mut h = axf(Running, false);
        let t = h
            .tables
            .get_mut(&T)
            .map(std::sync::Arc::make_mut)
            .expect("table 1");
        t.board.plies_since_capture += 1;
        assert!(matches!(
            h.check_invariants(),
            Err(Broken::Counter {
                table: T,
                what: "the plies since the capture",
                got: 1,
                want: 0
            })
        ));

        // A position that does not follow from the moves passes the cheap
        // checks; the snapshot round trip rebuilds it from the moves.
        let mut h = axf(Running, false);
        let t = h
            .tables
            .get_mut(&T)
            .map(std::sync::Arc::make_mut)
            .expect("table 1");
        let other = xiangqi::Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        t.board.position = other.expect("a position");
        assert_eq!(
            h.check_invariants(),
            Err(Broken::RoundTrip {
                what: "table 1's view differs".into()
            })
        );
    }

    /// In a debug build a broken invariant stops the hall at the next
    /// record of the table.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "hall invariant broken after record")]
    fn a_debug_build_stops_at_the_record_after_the_break() {
        let mut h = axf(Running, false);
        let t = h
            .tables
            .get_mut(&T)
            .map(std::sync::Arc::make_mut)
            .expect("table 1");
        t.board.stretch_start = 5;
        crate::states::event(
            &mut h,
            proto::TableEvent::Arrived {
                side: proto::Side::Red,
            },
            NOW,
        );
    }
}
