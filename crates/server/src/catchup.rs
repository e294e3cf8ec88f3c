//! A lagging console's catch-up (追帧, issue 40): what a console missed
//! while its queue was full, kept by the tables that changed rather than by
//! the deltas, and sent when its writer has room again as ordinary
//! `Deltas` frames — never a whole snapshot of the hall unless the
//! arbiters' rows it missed pass their own bound.
//!
//! [`Behind`] is kept per subscriber by the publisher (`publish.rs`) from
//! the tick its queue had no room for on: the numbers of the tables whose
//! view changed ([`Changed`], a bitset over table numbers: at most 8 KiB
//! whatever the number of events) and every other delta (alerts, claims,
//! audit rows, pauses) in order, up to [`HELD_BYTES`]; past that it falls
//! back to a whole snapshot. [`Missed`] is what the writer takes under the
//! hall lock; [`Pages`] cuts the held deltas and the changed tables'
//! current views (read under that lock, those tables only) into frames
//! under [`PAGE_BYTES`], one page at a time.
//!
//! Why the console ends with the server's hall: see
//! `Publisher::catch_up` (`publish.rs`).

use std::sync::Arc;

use proto::codec::encoded_len;
use proto::paging::PAGE_BYTES;
use proto::{Delta, TableView};

use crate::tick::Frame;

/// Bytes of non-table deltas (alerts, claims, audit rows, pauses) a
/// lagging console may have held for it (256 KiB, the same as its queue,
/// `CONSOLE_BYTES`): so a lagging console costs the server at most twice
/// its queue in held words, plus its bitset. Past this it is sent a whole
/// snapshot instead: thousands of the arbiters' rows missed (a console
/// away for minutes during a storm of alerts) are better replaced by the
/// hall's own bounded lists (the snapshot's alerts, claims and audit
/// tail) than replayed one by one.
pub const HELD_BYTES: usize = 256 * 1024;

/// The table numbers whose view changed: a bitset, grown to the largest
/// number seen (a u16: 8 KiB at most), iterated in number order.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Changed {
    words: Vec<u64>,
    count: usize,
}

impl Changed {
    /// Marks table `table` changed.
    pub fn insert(&mut self, table: u16) {
        let (word, bit) = (usize::from(table) / 64, table % 64);
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        let mask = 1u64 << bit;
        if self.words[word] & mask == 0 {
            self.words[word] |= mask;
            self.count += 1;
        }
    }

    /// Tables marked.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether none is marked.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The tables marked, in number order.
    pub fn tables(&self) -> Vec<u16> {
        let mut out = Vec::with_capacity(self.count);
        for (i, &w) in self.words.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let bit = w.trailing_zeros() as usize;
                if let Ok(n) = u16::try_from(i * 64 + bit) {
                    out.push(n);
                }
                w &= w - 1;
            }
        }
        out
    }
}

/// What a console missed since its queue last had room.
#[derive(Debug, Default)]
pub struct Behind {
    changed: Changed,
    held: Vec<Delta>,
    held_bytes: usize,
    whole: bool,
}

/// What the writer sends a console that fell behind.
#[derive(Debug)]
pub enum Missed {
    /// A whole snapshot (a new round, or more held rows than
    /// [`HELD_BYTES`]); its queue emptied.
    Whole,
    /// Its catch-up.
    Changed {
        /// The frames its queue held when it was lagged (before anything
        /// it missed): sent first.
        queued: Vec<Frame>,
        /// The non-table deltas it missed, in order.
        held: Vec<Delta>,
        /// The tables whose view changed, in number order.
        tables: Vec<u16>,
    },
}

impl Behind {
    /// Records deltas the console's queue had no room for (a viewer's
    /// already cut for the public).
    pub fn record(&mut self, deltas: &[Delta]) {
        if self.whole {
            return;
        }
        for d in deltas {
            match d {
                Delta::Table(t) => self.changed.insert(t.table),
                Delta::TableStep(t) => self.changed.insert(t.table),
                other => {
                    self.held_bytes = self.held_bytes.saturating_add(encoded_len(other));
                    if self.held_bytes > HELD_BYTES {
                        self.log_bound_passed();
                        self.set_whole();
                        return;
                    }
                    self.held.push(other.clone());
                }
            }
        }
    }

    /// Says (once per fallback) what the held rows were when they passed
    /// [`HELD_BYTES`].
    fn log_bound_passed(&self) {
        let mut kinds = [0usize; 4];
        for d in &self.held {
            let k = match d {
                Delta::Alert(_) | Delta::AlertAcked { .. } => 0,
                Delta::Claim(_) => 1,
                Delta::Audit(_) => 2,
                Delta::HallPaused(_) | Delta::Table(_) | Delta::TableStep(_) => 3,
            };
            kinds[k] += 1;
        }
        let [alerts, claims, audit, pauses] = kinds;
        tracing::info!(
            held = self.held.len(),
            bytes = self.held_bytes,
            alerts,
            claims,
            audit,
            pauses,
            tables = self.changed.count,
            "a lagging console's held rows passed their bound: it gets a whole snapshot"
        );
    }

    /// Nothing short of a whole snapshot will do (a new round, or the
    /// held rows past their bound).
    pub fn set_whole(&mut self) {
        *self = Behind {
            whole: true,
            ..Behind::default()
        };
    }

    /// Whether a whole snapshot is due.
    #[cfg(test)]
    pub fn whole(&self) -> bool {
        self.whole
    }

    /// The tables marked changed.
    #[cfg(test)]
    pub fn changed(&self) -> &Changed {
        &self.changed
    }

    /// Takes what was missed (the console's `queued` frames given) and
    /// starts afresh.
    pub fn take(&mut self, queued: Vec<Frame>) -> Missed {
        let behind = std::mem::take(self);
        match behind.whole {
            true => Missed::Whole,
            false => Missed::Changed {
                queued,
                held: behind.held,
                tables: behind.changed.tables(),
            },
        }
    }
}

/// A catch-up being sent, page by page: the held deltas, then the changed
/// tables' views (cut for the public display when `public`), in `Deltas`
/// frames of at most a page each ([`crate::tick::frames`]).
#[derive(Debug)]
pub struct Pages {
    held: std::vec::IntoIter<Delta>,
    views: std::vec::IntoIter<Arc<TableView>>,
    public: bool,
    /// A delta that did not fit in the last page.
    carry: Option<(Delta, usize)>,
    page_bytes: usize,
}

impl Pages {
    /// The pages of `held` then `views`.
    pub fn new(held: Vec<Delta>, views: Vec<Arc<TableView>>, public: bool) -> Pages {
        Pages::sized(held, views, public, PAGE_BYTES)
    }

    /// [`Pages::new`] with pages of `page_bytes` (tests use small ones).
    pub fn sized(
        held: Vec<Delta>,
        views: Vec<Arc<TableView>>,
        public: bool,
        page_bytes: usize,
    ) -> Pages {
        Pages {
            held: held.into_iter(),
            views: views.into_iter(),
            public,
            carry: None,
            page_bytes,
        }
    }

    fn next_delta(&mut self) -> Option<(Delta, usize)> {
        if let Some(c) = self.carry.take() {
            return Some(c);
        }
        let d = match self.held.next() {
            Some(d) => d,
            None => {
                let v = self.views.next()?;
                Delta::Table(match self.public {
                    true => Arc::new(crate::viewer::table(TableView::clone(&v))),
                    false => v,
                })
            }
        };
        let size = encoded_len(&d);
        Some((d, size))
    }

    /// The next page's frames (one, unless a delta alone does not encode:
    /// then it is logged and left out, `tick.rs`); `None` after the last.
    pub fn next_page(&mut self) -> Option<Vec<Frame>> {
        let mut chunk = Vec::new();
        let mut bytes = 0usize;
        let room = self.page_bytes.saturating_sub(crate::tick::FRAME_OVERHEAD);
        while let Some((d, size)) = self.next_delta() {
            if !chunk.is_empty() && bytes.saturating_add(size) > room {
                self.carry = Some((d, size));
                break;
            }
            bytes = bytes.saturating_add(size);
            chunk.push(d);
        }
        if chunk.is_empty() {
            return None;
        }
        Some(
            crate::tick::frames(chunk, self.page_bytes)
                .into_iter()
                .map(|(_, f)| f)
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tick::tests::{alert, view};

    #[test]
    fn the_changed_tables_are_a_set_in_number_order() {
        let mut c = Changed::default();
        for t in [9_999u16, 1, 64, 63, 1, 9_999, 65_535, 0] {
            c.insert(t);
        }
        assert_eq!(c.tables(), vec![0, 1, 63, 64, 9_999, 65_535]);
        assert_eq!(c.len(), 6);
        assert!(c.words.len() <= 1_024, "8 KiB at most");
    }

    #[test]
    fn a_table_changed_five_times_is_one_table_other_deltas_kept_in_order() {
        let mut b = Behind::default();
        b.record(&[view(1, 1), alert(1), view(2, 1)]);
        b.record(&[view(1, 2), Delta::HallPaused(None), view(1, 3)]);
        b.record(&[view(1, 4), alert(2), view(1, 5)]);
        let Missed::Changed {
            queued,
            held,
            tables,
        } = b.take(Vec::new())
        else {
            panic!("a catch-up");
        };
        assert!(queued.is_empty());
        assert_eq!(held, vec![alert(1), Delta::HallPaused(None), alert(2)]);
        assert_eq!(tables, vec![1, 2]);
        // Taken: it starts afresh.
        assert!(matches!(
            b.take(Vec::new()),
            Missed::Changed { held, tables, .. } if held.is_empty() && tables.is_empty()
        ));
    }

    #[test]
    fn held_deltas_past_their_bound_fall_back_to_a_whole_snapshot() {
        let mut b = Behind::default();
        let big = |id| Delta::AlertAcked {
            id,
            by: "字".repeat(1_000),
        };
        let each = encoded_len(&big(0));
        let fit = HELD_BYTES / each;
        for id in 0..fit as u64 {
            b.record(&[big(id), view(1, 1)]);
        }
        assert!(!b.whole(), "{fit} rows of {each} bytes fit");
        b.record(&[big(fit as u64)]);
        assert!(b.whole());
        // Nothing more is kept once whole.
        b.record(&[view(2, 1), alert(1)]);
        assert!(b.changed().is_empty());
        assert!(matches!(b.take(Vec::new()), Missed::Whole));
        assert!(!b.whole());
    }

    #[test]
    fn pages_hold_the_held_deltas_then_the_views_under_the_page_size() {
        use proto::codec::WireMessage;
        let held = vec![alert(1), Delta::HallPaused(None), alert(2)];
        let views: Vec<Arc<TableView>> = (1..=300u16)
            .map(|t| match view(t, u32::from(t)) {
                Delta::Table(v) => v,
                _ => unreachable!(),
            })
            .collect();
        let page = 4 * 1024;
        for public in [false, true] {
            let mut pages = Pages::sized(held.clone(), views.clone(), public, page);
            let mut got = Vec::new();
            let mut n = 0;
            while let Some(fs) = pages.next_page() {
                for f in fs {
                    assert!(f.len() <= page, "{}", f.len());
                    match ServerMsg::decode(&f[proto::limits::LEN_PREFIX..]) {
                        Ok(proto::ServerMsg::Deltas(ds)) => got.extend(ds),
                        other => panic!("{other:?}"),
                    }
                    n += 1;
                }
            }
            assert!(n > 2, "{n} pages");
            let cut = |v: &Arc<TableView>| match public {
                true => Delta::Table(Arc::new(crate::viewer::table(TableView::clone(v)))),
                false => Delta::Table(v.clone()),
            };
            let want: Vec<Delta> = held.iter().cloned().chain(views.iter().map(cut)).collect();
            assert_eq!(got, want);
        }
    }

    use proto::ServerMsg;
}
