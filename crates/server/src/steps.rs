//! Which consoles get a table's change as a step (一步, protocol 12,
//! issue 40): a console that holds the view the table was last sent as
//! gets `Delta::TableStep` (the moves since and the small fields), every
//! other console the whole `Delta::Table`.
//!
//! The publisher (`publish.rs`) numbers its ticks and keeps, per table,
//! the view it last sent in a tick and that tick's number ([`Bases`]); each
//! console has the number of the first tick it was sent after its picture
//! (its snapshot on subscribe, its catch-up, its whole snapshot: `since`,
//! set with the subscribers locked). A console holds a table's last sent
//! view exactly when it was sent the tick that view went out in: that
//! tick's number is at least its `since` (from then on it was offered
//! every tick, and a console that lagged is caught up, which sets `since`
//! again). So, with the base the last sent view, a table's step goes to
//! the consoles whose `since` is at most the base's tick, and the whole
//! view to the others (a console subscribed or caught up after the base
//! went out holds the table as its picture showed it, which may be later).
//! A new round forgets every base (the tables are replaced). The tick is
//! still encoded once per audience in the common case: the consoles that
//! hold every base of the tick share one encoding, and only a console
//! that holds some bases and not others (its first tick after a picture)
//! gets its own.

use std::collections::HashMap;
use std::sync::Arc;

use proto::{Delta, TableStep, TableView};

/// The view each table was last sent as, and the tick it went out in.
#[derive(Debug, Default)]
pub struct Bases {
    /// The last tick's number (0: none yet).
    tick: u64,
    /// Shared with the hall's kept view and the tick's delta.
    last: HashMap<u16, (Arc<TableView>, u64)>,
}

/// One tick's table deltas as steps where a base is known: per delta of
/// the tick, the step and the base's tick.
#[derive(Debug, Default)]
pub struct Steps {
    steps: Vec<Option<(TableStep, u64)>>,
    /// The earliest base tick of the steps (`None`: no step).
    oldest: Option<u64>,
}

impl Bases {
    /// The number the next tick will have: a console's `since` when its
    /// picture is taken now.
    pub fn next_tick(&self) -> u64 {
        self.tick + 1
    }

    /// Forgets every base (a new round: every table replaced; or nobody
    /// subscribed any more).
    pub fn forget(&mut self) {
        self.last = HashMap::new();
    }

    /// Tables with a base kept.
    pub fn kept(&self) -> usize {
        self.last.len()
    }

    /// Starts a tick of `deltas` (coalesced: a table at most once): the
    /// steps from each table's base, where one will do.
    pub fn steps(&mut self, deltas: &[Delta]) -> Steps {
        self.tick += 1;
        let steps: Vec<Option<(TableStep, u64)>> = deltas
            .iter()
            .map(|d| match d {
                Delta::Table(v) => {
                    let (base, sent) = self.last.get(&v.table)?;
                    TableStep::between(base, v).map(|s| (s, *sent))
                }
                _ => None,
            })
            .collect();
        let oldest = steps.iter().flatten().map(|(_, sent)| *sent).min();
        Steps { steps, oldest }
    }

    /// Ends the tick: its tables' views are their bases from now on.
    pub fn sent(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            if let Delta::Table(v) = d {
                self.last.insert(v.table, (v, self.tick));
            }
        }
    }
}

impl Steps {
    /// Which version of the tick a console whose picture came before tick
    /// `since` is sent: 0 for the shared one (it holds every base), else
    /// `since` (it holds the bases sent from that tick on only).
    pub fn audience(&self, since: u64) -> u64 {
        match self.oldest {
            Some(oldest) if since > oldest => since,
            _ => 0,
        }
    }

    /// The tick's deltas for the consoles of [`Steps::audience`] `since`:
    /// a step where the console holds its base, the whole view elsewhere;
    /// cut for the public when `public` ([`crate::viewer`]).
    pub fn deltas(&self, deltas: &[Delta], since: u64, public: bool) -> Vec<Delta> {
        let mut out = Vec::with_capacity(deltas.len());
        for (i, d) in deltas.iter().enumerate() {
            let d = match self.steps.get(i) {
                Some(Some((step, sent))) if *sent >= since => match public {
                    true => Delta::TableStep(crate::viewer::step(step.clone())),
                    false => Delta::TableStep(step.clone()),
                },
                _ if public => match crate::viewer::delta(d) {
                    Some(d) => d,
                    None => continue,
                },
                _ => d.clone(),
            };
            out.push(d);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tick::tests::{alert, view};

    fn moved(table: u16, moves: u8) -> Delta {
        match view(table, u32::from(moves)) {
            Delta::Table(mut v) => {
                Arc::make_mut(&mut v).moves = (0..moves)
                    .map(|i| proto::IccsMove { from: i, to: i + 1 })
                    .collect();
                Delta::Table(v)
            }
            d => d,
        }
    }

    fn step(from: &Delta, to: &Delta) -> Delta {
        match (from, to) {
            (Delta::Table(a), Delta::Table(b)) => {
                Delta::TableStep(TableStep::between(a, b).expect("a step"))
            }
            _ => panic!("two views"),
        }
    }

    #[test]
    fn a_console_gets_a_step_only_for_a_base_it_was_sent() {
        let mut bases = Bases::default();
        // Tick 1: tables 1 and 2, nothing known: whole views.
        let t1 = vec![moved(1, 1), alert(1), moved(2, 1)];
        let s = bases.steps(&t1);
        assert_eq!(s.audience(1), 0);
        assert_eq!(s.deltas(&t1, 0, false), t1);
        bases.sent(t1);
        // A console subscribes now: its first tick is 2.
        let late = bases.next_tick();
        assert_eq!(late, 2);
        // Tick 2: table 1 again (a step for the console of tick 1 only).
        let t2 = vec![moved(1, 2)];
        let s = bases.steps(&t2);
        assert_eq!(
            s.deltas(&t2, s.audience(1), false),
            vec![step(&moved(1, 1), &moved(1, 2))]
        );
        assert_eq!(s.audience(late), late);
        assert_eq!(s.deltas(&t2, s.audience(late), false), t2);
        bases.sent(t2);
        // Tick 3: tables 1 and 2: the late console holds 1's base (sent
        // in tick 2) but not 2's (tick 1).
        let t3 = vec![moved(2, 2), moved(1, 3)];
        let s = bases.steps(&t3);
        assert_eq!(
            s.deltas(&t3, s.audience(late), false),
            vec![moved(2, 2), step(&moved(1, 2), &moved(1, 3))]
        );
        assert_eq!(
            s.deltas(&t3, s.audience(1), false),
            vec![
                step(&moved(2, 1), &moved(2, 2)),
                step(&moved(1, 2), &moved(1, 3))
            ]
        );
        // A viewer's version is cut for the public, alerts left out.
        let public = s.deltas(&t3, s.audience(1), true);
        assert!(public.iter().all(|d| matches!(
            d,
            Delta::TableStep(st) if st.pending_claims == 0
        )));
        bases.sent(t3);
        // A new round: every base forgotten, whole views for all.
        bases.forget();
        let t4 = vec![moved(1, 4)];
        let s = bases.steps(&t4);
        assert_eq!(s.deltas(&t4, s.audience(1), false), t4);
    }

    #[test]
    fn a_base_is_the_sent_view_itself() {
        let mut bases = Bases::default();
        let d = moved(1, 3);
        bases.sent(vec![d.clone()]);
        let (Delta::Table(sent), Some((base, _))) = (&d, bases.last.get(&1)) else {
            panic!("table 1's base kept");
        };
        assert!(Arc::ptr_eq(sent, base), "the base shares the delta's view");
    }

    #[test]
    fn a_taken_back_move_or_a_new_name_goes_whole() {
        let mut bases = Bases::default();
        bases.sent(vec![moved(1, 3)]);
        let mut back = moved(1, 3);
        if let Delta::Table(v) = &mut back {
            let v = Arc::make_mut(v);
            v.moves[2] = proto::IccsMove { from: 50, to: 51 };
            v.red = "新".into();
        }
        let t = vec![back.clone()];
        let s = bases.steps(&t);
        assert_eq!(s.deltas(&t, s.audience(1), false), vec![back]);
    }
}
