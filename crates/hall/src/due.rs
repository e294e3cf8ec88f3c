//! Notes due (到时提醒): the time-based facts the hall cannot see by itself
//! — a flag fall the terminal did not report, an offline terminal, a
//! no-show, a late resumption — found from the hall and a time. The
//! server's ticker asks [`due_notes`] every tick and stores what it answers
//! as server notes before applying them, so they replay like any record;
//! the fuzz target asks after every record. Pure: the time is an argument.

use proto::{Side, TableStatus};
use rulebook::fouls::{late_resumption, no_show, AttendanceOutcome};

use crate::hall::Hall;
use crate::record::Note;
use crate::table::Raised;

/// The time-based notes due at `now` (applying a note raises its alert
/// once, so a note is due only until it is applied).
///
/// - flag fall: the running side's extrapolated time has been zero for the
///   flag grace (`[alerts] flag_grace_seconds`) and the terminal did not report it;
/// - offline: the terminal's connection ended longer ago than the offline
///   grace (`[alerts] offline_grace_seconds`) and the game is not over;
/// - no-show (AXF-FORFEIT-1, `rulebook::fouls::no_show`): counted from the
///   round's configured start, else from the table's clock start;
/// - late resumption (AXF-REF-L, `rulebook::fouls::late_resumption`):
///   counted from the unseal of an adjourned game.
pub fn due_notes(hall: &Hall, now: u64) -> Vec<Note> {
    let mut out = Vec::new();
    let p = &hall.params;
    let absent = |o: AttendanceOutcome| -> Vec<Side> {
        match o {
            AttendanceOutcome::Forfeit(c) => vec![crate::table::convert::side(c)],
            AttendanceOutcome::BothForfeit => vec![Side::Red, Side::Black],
            _ => Vec::new(),
        }
    };
    for t in hall.tables.values() {
        if t.finished() {
            continue;
        }
        if let Some(since) = t.offline_since_ms {
            if !t.online
                && now.saturating_sub(since) >= hall.timings.offline_grace_ms
                && !t.raised.contains(&Raised::Offline(since))
            {
                out.push(Note::OfflineAlert {
                    table: t.table,
                    since_ms: since,
                });
            }
        }
        if matches!(t.status, TableStatus::Playing) && !t.clock.paused && t.sealed.is_none() {
            if let Some(s) = t.clock.running {
                let side = crate::table::convert::side(s);
                if t.clock.started
                    && t.clock
                        .remaining_at(s, now.saturating_sub(hall.timings.flag_grace_ms))
                        == 0
                    && !t.raised.contains(&Raised::Flag(side))
                {
                    out.push(Note::FlagFall {
                        table: t.table,
                        side,
                    });
                }
            }
        }
        if let Some(start) = hall.round_start_ms.or(t.started_at_ms) {
            if now.saturating_sub(start) >= p.fouls.no_show_ms {
                let v = no_show(start, now, t.seen_ms.into(), &p.fouls);
                for side in absent(v.outcome) {
                    if !t.raised.contains(&Raised::NoShow(side)) {
                        out.push(Note::NoShow {
                            table: t.table,
                            side,
                        });
                    }
                }
            }
        }
        if let Some(resumed) = t.resumed_at_ms {
            if t.sealed.is_none() && now.saturating_sub(resumed) >= p.fouls.adjournment_late_ms {
                let v = late_resumption(resumed, now, t.seen_since_resume.into(), &p.fouls);
                for side in absent(v.outcome) {
                    if !t.raised.contains(&Raised::LateResumption(resumed, side)) {
                        out.push(Note::LateResumption {
                            table: t.table,
                            resumed_at_ms: resumed,
                            side,
                        });
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::states::one_minute_hall as hall;

    fn apply(hall: &mut Hall, notes: &[Note], at: u64) {
        for n in notes {
            hall.apply(&Record::Note(n.clone()), at)
                .expect("a due note applies");
        }
    }

    #[test]
    fn offline_is_due_after_the_grace_and_only_until_applied() {
        let mut h = hall();
        apply(
            &mut h,
            &[Note::Online {
                table: 1,
                online: true,
            }],
            0,
        );
        apply(
            &mut h,
            &[Note::Online {
                table: 1,
                online: false,
            }],
            1_000,
        );
        let grace = h.timings.offline_grace_ms;
        assert!(due_notes(&h, 1_000 + grace - 1).is_empty());
        let due = due_notes(&h, 1_000 + grace);
        assert_eq!(
            due,
            vec![Note::OfflineAlert {
                table: 1,
                since_ms: 1_000
            }]
        );
        apply(&mut h, &due, 1_000 + grace);
        assert!(due_notes(&h, 1_000 + grace + 10_000).is_empty());
    }

    #[test]
    fn no_show_counts_from_the_round_start() {
        let mut h = hall();
        h.round_start_ms = Some(5_000);
        let limit = h.params.fouls.no_show_ms;
        // Absent only once the limit has passed (AXF-FORFEIT-1).
        assert!(due_notes(&h, 5_000 + limit).is_empty());
        let due = due_notes(&h, 5_000 + limit + 1);
        assert_eq!(
            due,
            vec![
                Note::NoShow {
                    table: 1,
                    side: Side::Red
                },
                Note::NoShow {
                    table: 1,
                    side: Side::Black
                },
            ],
            "neither player seen: both absent"
        );
        apply(&mut h, &due, 5_000 + limit + 1);
        assert!(due_notes(&h, 5_000 + limit + 60_000).is_empty());
    }
}
