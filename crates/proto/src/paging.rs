//! Paged hall snapshots (分页快照, protocol 8): a hall too large for one
//! page goes out as [`SnapshotPage`]s, each a frame well under the frame
//! limit, and the client puts them together before it shows anything.
//!
//! The server plans the pages from the encoded size of every part
//! ([`plan`]: the tables, then the alerts, claims and audit entries, in
//! order, each page at most [`PAGE_BYTES`] unless one part alone is
//! larger); a hall that fits in one page is sent as a plain
//! `ServerMsg::Snapshot` as before. The client's [`Assembly`] takes the
//! pages in order and gives the whole [`HallView`] once the last one is in;
//! a page out of order or of another snapshot is an error and the pages
//! so far are dropped (the next snapshot starts afresh). The pages a
//! client holds are bounded: at most [`MAX_PAGES`] pages, at most
//! [`MAX_TABLES`] tables.

use std::ops::Range;

use crate::message::{HallView, SnapshotPage};

/// Bytes a page aims at (its frame; one part larger than this is a page
/// alone). Equal to the server's room for one connection's replies, so a
/// page goes out while the next is encoded, never the whole hall at once.
pub const PAGE_BYTES: usize = 256 * 1024;

/// Most pages of one snapshot a client accepts.
pub const MAX_PAGES: u32 = 4_096;

/// Most tables of one snapshot a client accepts (the wire's table numbers).
pub const MAX_TABLES: usize = 65_535;

/// Bytes a page's frame spends besides its head and parts: the length
/// prefix, the message's tag, the page numbers and the vectors' lengths
/// (varints of at most 10 bytes each), with room to spare.
const PAGE_OVERHEAD: usize = 128;

/// What one page holds of each vector of the hall view: `[tables, alerts,
/// claims, audit]`, ranges into the snapshot's own vectors.
pub type PageParts = [Range<usize>; 4];

/// The pages of a snapshot whose head encodes in `head` bytes and whose
/// parts (`[tables, alerts, claims, audit]`) encode in the given sizes:
/// every part in order on exactly one page, each page at most `page_bytes`
/// unless a part alone is larger. Always at least one page.
pub fn plan(head: usize, sizes: [&[usize]; 4], page_bytes: usize) -> Vec<PageParts> {
    let empty = || [0..0, 0..0, 0..0, 0..0];
    let mut pages = Vec::new();
    let mut page: PageParts = empty();
    let base = head + PAGE_OVERHEAD;
    let mut bytes = base;
    let mut items = 0usize;
    for (k, sizes) in sizes.iter().enumerate() {
        for (i, &size) in sizes.iter().enumerate() {
            if items > 0 && bytes.saturating_add(size) > page_bytes {
                pages.push(std::mem::replace(&mut page, empty()));
                bytes = base;
                items = 0;
            }
            if page[k].is_empty() {
                page[k] = i..i;
            }
            page[k].end = i + 1;
            bytes = bytes.saturating_add(size);
            items += 1;
        }
        // The next page's range of this kind starts where this one ended.
        if page[k].is_empty() {
            page[k] = sizes.len()..sizes.len();
        }
    }
    pages.push(page);
    pages
}

/// Why the pages received do not make a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PageError {
    /// A snapshot of no pages or more than [`MAX_PAGES`].
    #[error("a snapshot of {pages} pages (1 to {MAX_PAGES} accepted)")]
    PageCount { pages: u32 },
    /// A page that does not follow the previous one.
    #[error("page {page} of snapshot {snapshot} out of order (expected page {expected} of snapshot {of})")]
    OutOfOrder {
        snapshot: u64,
        page: u32,
        expected: u32,
        of: u64,
    },
    /// More tables than a hall can have.
    #[error("a snapshot of more than {MAX_TABLES} tables")]
    TooManyTables,
}

#[derive(Debug, Clone)]
struct Building {
    snapshot: u64,
    pages: u32,
    next: u32,
    view: HallView,
}

/// A client's snapshot being put together from its pages.
#[derive(Debug, Clone, Default)]
pub struct Assembly {
    building: Option<Building>,
}

impl Assembly {
    /// Takes the next page; the whole hall view once `page` was the last.
    /// A page 0 starts a new snapshot (the pages of an unfinished one are
    /// dropped); any other page must follow the previous one.
    pub fn take(&mut self, page: SnapshotPage) -> Result<Option<HallView>, PageError> {
        let SnapshotPage {
            snapshot,
            page,
            pages,
            view,
        } = page;
        if pages == 0 || pages > MAX_PAGES || page >= pages {
            self.building = None;
            return Err(PageError::PageCount { pages });
        }
        if page == 0 {
            self.building = Some(Building {
                snapshot,
                pages,
                next: 0,
                view: HallView {
                    tables: Vec::new(),
                    alerts: Vec::new(),
                    claims: Vec::new(),
                    audit: Vec::new(),
                    ..view.clone()
                },
            });
        }
        let Some(b) = self.building.as_mut() else {
            return Err(PageError::OutOfOrder {
                snapshot,
                page,
                expected: 0,
                of: snapshot,
            });
        };
        if (b.snapshot, b.pages, b.next) != (snapshot, pages, page) {
            let (expected, of) = (b.next, b.snapshot);
            self.building = None;
            return Err(PageError::OutOfOrder {
                snapshot,
                page,
                expected,
                of,
            });
        }
        if b.view.tables.len() + view.tables.len() > MAX_TABLES {
            self.building = None;
            return Err(PageError::TooManyTables);
        }
        b.view.tables.extend(view.tables);
        b.view.alerts.extend(view.alerts);
        b.view.claims.extend(view.claims);
        b.view.audit.extend(view.audit);
        b.next += 1;
        if b.next < b.pages {
            return Ok(None);
        }
        Ok(self.building.take().map(|b| b.view))
    }

    /// Pages received and pages in all of the snapshot being put together
    /// (to show "loading n/m"); `None` when none is.
    pub fn progress(&self) -> Option<(u32, u32)> {
        self.building.as_ref().map(|b| (b.next, b.pages))
    }

    /// Drops the pages so far (the connection was lost, or a whole
    /// snapshot came).
    pub fn reset(&mut self) {
        self.building = None;
    }
}

/// The pages of `view`, planned from its parts' encoded sizes, as
/// messages (for tests and small tools: the server encodes its pages one
/// at a time from shared table views).
pub fn pages_of(view: &HallView, snapshot: u64, page_bytes: usize) -> Vec<SnapshotPage> {
    let tables = sizes(&view.tables);
    let (alerts, claims, audit) = (sizes(&view.alerts), sizes(&view.claims), sizes(&view.audit));
    let head = head_of(view);
    let plan = plan(
        crate::codec::encoded_len(&head),
        [&tables, &alerts, &claims, &audit],
        page_bytes,
    );
    let pages = plan.len() as u32;
    plan.into_iter()
        .enumerate()
        .map(|(i, [t, a, c, u])| SnapshotPage {
            snapshot,
            page: i as u32,
            pages,
            view: HallView {
                tables: view.tables[t].to_vec(),
                alerts: view.alerts[a].to_vec(),
                claims: view.claims[c].to_vec(),
                audit: view.audit[u].to_vec(),
                ..head.clone()
            },
        })
        .collect()
}

/// The encoded size of each of `items`.
pub fn sizes<T: bincode::Encode>(items: &[T]) -> Vec<usize> {
    items.iter().map(crate::codec::encoded_len).collect()
}

/// `view` without its vectors (what every page repeats).
pub fn head_of(view: &HallView) -> HallView {
    HallView {
        tournament: view.tournament.clone(),
        round: view.round,
        rule_set: view.rule_set.clone(),
        time_control: view.time_control.clone(),
        paused: view.paused.clone(),
        tables: Vec::new(),
        alerts: Vec::new(),
        claims: Vec::new(),
        audit: Vec::new(),
        server_ms: view.server_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_puts_every_part_on_one_page_in_order_under_the_bound() {
        let tables = vec![100; 50];
        let alerts = vec![300; 3];
        let claims: Vec<usize> = Vec::new();
        let audit = vec![50; 7];
        let pages = plan(10, [&tables, &alerts, &claims, &audit], 1_000);
        let mut next = [0usize; 4];
        for page in &pages {
            let mut bytes = 10 + PAGE_OVERHEAD;
            for (k, r) in page.iter().enumerate() {
                if !r.is_empty() {
                    assert_eq!(r.start, next[k], "{pages:?}");
                    next[k] = r.end;
                }
                let sizes = [&tables, &alerts, &claims, &audit][k];
                bytes += sizes[r.clone()].iter().sum::<usize>();
            }
            assert!(bytes <= 1_000, "{bytes} {pages:?}");
        }
        assert_eq!(next, [50, 3, 0, 7]);
        assert!(pages.len() >= 6 && pages.len() <= 9, "{}", pages.len());
        // One part larger than a page is a page alone; nothing: one page.
        let none: &[usize] = &[];
        let big = plan(10, [&[5_000], none, none, none], 1_000);
        assert_eq!(big, vec![[0..1, 0..0, 0..0, 0..0]]);
        assert_eq!(plan(10, [none; 4], 1_000).len(), 1);
    }

    #[test]
    fn an_assembly_gives_the_hall_once_its_last_page_is_in() {
        let mut asm = Assembly::default();
        let page = |snapshot, page, pages| SnapshotPage {
            snapshot,
            page,
            pages,
            view: HallView {
                tournament: "t".into(),
                round: 1,
                rule_set: "asian".into(),
                time_control: crate::message::TimeControl::Fischer {
                    base_ms: 1,
                    increment_ms: 0,
                },
                paused: None,
                tables: Vec::new(),
                alerts: Vec::new(),
                claims: Vec::new(),
                audit: Vec::new(),
                server_ms: 5,
            },
        };
        assert_eq!(asm.take(page(1, 0, 2)), Ok(None));
        assert_eq!(asm.progress(), Some((1, 2)));
        let whole = asm.take(page(1, 1, 2)).expect("in order");
        assert_eq!(whole.map(|v| v.server_ms), Some(5));
        assert_eq!(asm.progress(), None);
        // Out of order: an error, and the pages so far dropped.
        assert!(asm.take(page(2, 1, 3)).is_err());
        assert_eq!(asm.take(page(2, 0, 3)), Ok(None));
        assert!(matches!(
            asm.take(page(3, 1, 3)),
            Err(PageError::OutOfOrder { expected: 1, .. })
        ));
        assert_eq!(asm.progress(), None);
        assert!(matches!(
            asm.take(page(4, 0, 0)),
            Err(PageError::PageCount { pages: 0 })
        ));
        // A new page 0 restarts.
        assert_eq!(asm.take(page(5, 0, 3)), Ok(None));
        assert_eq!(asm.take(page(6, 0, 1)).map(|v| v.is_some()), Ok(true));
    }
}
