//! Replaying stored records (重放): the one loop that rebuilds a hall from
//! the store. The server's restart, the export and the fuzz target all go
//! through [`Replay`] (or [`replay`]): each stored record, given as its
//! position in the store (`gseq`), the server time it was received and its
//! bytes, is decoded ([`Record::decode`]) and applied ([`Hall::apply`]) in
//! the order given, exactly as the pipeline applied it live.
//!
//! Faults are never silent: a record that does not decode stops the replay
//! with a [`ReplayError`] naming its `gseq`, so a rebuilt hall never quietly
//! differs from what was acknowledged. Only a replay told to
//! [`Replay::quarantine`] sets such records aside, listing each
//! ([`Replayed::quarantined`]) for the caller to report.
//!
//! The effects of a replayed record (deltas, controls) are not published:
//! nobody is subscribed yet. An [`Observer`] sees the hall before and after
//! each record (the export follows each game's clocks and notes this way)
//! and may take the record's effects; what it leaves is discarded.

use crate::hall::Hall;
use crate::record::{Record, RecordError};

/// A stored record that does not decode: where it is and why.
#[derive(Debug, thiserror::Error)]
#[error("stored record at gseq {gseq} does not decode: {error}")]
pub struct ReplayError {
    /// Its position in the store.
    pub gseq: u64,
    /// Why it does not decode (in the message, so not a `source`).
    pub error: RecordError,
}

/// Watches a replay record by record. Both methods do nothing by default.
pub trait Observer {
    /// Before `rec` (received at `at_ms`) is applied.
    fn before(&mut self, _hall: &Hall, _rec: &Record, _at_ms: u64) {}
    /// After `rec` is applied; its effects are still in the hall
    /// ([`Hall::take_effects`] takes them), what is left is discarded.
    fn after(&mut self, _hall: &mut Hall, _rec: &Record, _at_ms: u64) {}
}

/// Observes nothing.
impl Observer for () {}

/// A finished replay.
#[derive(Debug)]
pub struct Replayed {
    /// The hall with every record applied.
    pub hall: Hall,
    /// Records decoded and applied.
    pub records: u64,
    /// Records set aside because they do not decode (only with
    /// [`Replay::quarantine`]), in store order.
    pub quarantined: Vec<ReplayError>,
}

/// A replay in progress: records are fed in store order, in one or several
/// runs (a store read page by page).
#[derive(Debug)]
pub struct Replay {
    hall: Hall,
    records: u64,
    quarantine: bool,
    quarantined: Vec<ReplayError>,
}

impl Replay {
    /// Starts from `hall`: fresh from the config, or restored from a
    /// snapshot (then feed the records after its cut).
    pub fn new(hall: Hall) -> Replay {
        Replay {
            hall,
            records: 0,
            quarantine: false,
            quarantined: Vec::new(),
        }
    }

    /// Sets aside records that do not decode instead of failing (an
    /// explicit choice of the operator; the caller reports each).
    pub fn quarantine(mut self, on: bool) -> Replay {
        self.quarantine = on;
        self
    }

    /// The hall so far.
    pub fn hall(&self) -> &Hall {
        &self.hall
    }

    /// Records applied so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Applies `items` — `(gseq, at_ms, bytes)` in store order.
    pub fn feed<I, B>(&mut self, items: I) -> Result<(), ReplayError>
    where
        I: IntoIterator<Item = (u64, u64, B)>,
        B: AsRef<[u8]>,
    {
        self.feed_observed(items, &mut ())
    }

    /// [`Replay::feed`], showing each record to `observer`.
    pub fn feed_observed<I, B, O>(&mut self, items: I, observer: &mut O) -> Result<(), ReplayError>
    where
        I: IntoIterator<Item = (u64, u64, B)>,
        B: AsRef<[u8]>,
        O: Observer + ?Sized,
    {
        for (gseq, at_ms, bytes) in items {
            let rec = match Record::decode(bytes.as_ref()) {
                Ok(rec) => rec,
                Err(error) if self.quarantine => {
                    tracing::error!(gseq, %error, "stored record does not decode: quarantined");
                    self.quarantined.push(ReplayError { gseq, error });
                    continue;
                }
                Err(error) => return Err(ReplayError { gseq, error }),
            };
            observer.before(&self.hall, &rec, at_ms);
            if let Err(refused) = self.hall.apply(&rec, at_ms) {
                // Stored as it was live: the live hall refused it the same way.
                tracing::debug!(gseq, code = %refused.code(), why = %refused, "replayed record not applied");
            }
            observer.after(&mut self.hall, &rec, at_ms);
            self.hall.discard_effects();
            self.records += 1;
        }
        Ok(())
    }

    /// The hall and the counts.
    pub fn finish(self) -> Replayed {
        Replayed {
            hall: self.hall,
            records: self.records,
            quarantined: self.quarantined,
        }
    }
}

/// Replays `items` — `(gseq, at_ms, bytes)` in store order — onto `hall`;
/// fails on the first record that does not decode.
pub fn replay<I, B>(hall: Hall, items: I) -> Result<Replayed, ReplayError>
where
    I: IntoIterator<Item = (u64, u64, B)>,
    B: AsRef<[u8]>,
{
    let mut r = Replay::new(hall);
    r.feed(items)?;
    Ok(r.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Note;
    use crate::states::one_minute_hall as hall;

    fn online(on: bool) -> Vec<u8> {
        Record::Note(Note::Online {
            table: 1,
            online: on,
        })
        .encode()
        .expect("encodes")
    }

    #[test]
    fn applies_in_order_and_counts() {
        let items = vec![(1, 10, online(true)), (2, 20, online(false))];
        let r = replay(hall(), items).expect("replays");
        assert_eq!(r.records, 2);
        assert_eq!(r.hall.applied, 2);
        assert!(!r.hall.tables[&1].online);
        assert_eq!(r.hall.tables[&1].offline_since_ms, Some(20));
    }

    #[test]
    fn an_undecodable_record_names_its_gseq() {
        let items = vec![(7, 10, online(true)), (8, 20, vec![0xEE, 1, 2])];
        let e = replay(hall(), items).expect_err("fails");
        assert_eq!(e.gseq, 8);
        assert!(e.to_string().contains("gseq 8"), "{e}");
    }

    #[test]
    fn quarantine_sets_it_aside_and_goes_on() {
        let items = vec![(7, 10, vec![]), (8, 20, online(true))];
        let mut r = Replay::new(hall()).quarantine(true);
        r.feed(items).expect("replays");
        let r = r.finish();
        assert_eq!(r.records, 1);
        assert_eq!(r.quarantined.len(), 1);
        assert_eq!(r.quarantined[0].gseq, 7);
        assert!(r.hall.tables[&1].online);
    }

    #[test]
    fn the_observer_sees_each_record_and_its_effects() {
        #[derive(Default)]
        struct Seen(Vec<(u64, bool, usize)>);
        impl Observer for Seen {
            fn before(&mut self, hall: &Hall, _rec: &Record, at_ms: u64) {
                self.0.push((at_ms, hall.tables[&1].online, 0));
            }
            fn after(&mut self, hall: &mut Hall, _rec: &Record, _at_ms: u64) {
                let fx = hall.take_effects();
                if let Some(last) = self.0.last_mut() {
                    last.2 = fx.deltas.len();
                }
            }
        }
        let mut seen = Seen::default();
        let mut r = Replay::new(hall());
        r.feed_observed(
            vec![(1, 10, online(true)), (2, 20, online(true))],
            &mut seen,
        )
        .expect("replays");
        assert_eq!(r.records(), 2);
        assert_eq!(seen.0[0].0, 10);
        assert!(!seen.0[0].1);
        assert!(seen.0[1].1);
        assert!(seen.0[0].2 > 0, "the first record touched the table");
    }
}
