//! A console's snapshot in pages (分页快照, protocol 8): the hall's
//! picture is sent as one `Snapshot` frame when it fits in a page
//! ([`proto::paging::PAGE_BYTES`]), else as `SnapshotPage` frames, each
//! encoded only when the previous one was queued — so a 10,000-table hall
//! never needs one frame over the limit, and a connection holds one page
//! of it at a time (plus the picture's shared table views), not the whole
//! hall encoded.
//!
//! The pages are planned from each table view's encoded size (the full
//! view's: a viewer's cut is smaller, so its pages are under the bound
//! too). Snapshot numbers are unique in the process, so a client never
//! mixes the pages of two snapshots.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use hall::picture::Picture;
use proto::codec::encoded_len;
use proto::frame::{encode_frame, FrameError};
use proto::paging::{self, PageParts, PAGE_BYTES};
use proto::{HallView, ServerMsg, SnapshotPage, TableView};

/// The number of the next paged snapshot.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// A snapshot being sent, page by page.
#[derive(Debug)]
pub struct Pages {
    snapshot: u64,
    /// The hall without its tables (a viewer's cut already).
    head: HallView,
    tables: Vec<Arc<TableView>>,
    /// Whether the tables are cut for the public display when encoded.
    public: bool,
    plan: Vec<PageParts>,
    next: usize,
}

impl Pages {
    /// The pages of `picture` at server time `now_ms`; `public`: a
    /// viewer's (`crate::viewer`), pages of `page_bytes` at most.
    pub fn new(picture: Picture, public: bool, now_ms: u64) -> Pages {
        Pages::sized(picture, public, now_ms, PAGE_BYTES)
    }

    /// [`Pages::new`] with pages of `page_bytes` (tests use small ones).
    pub fn sized(picture: Picture, public: bool, now_ms: u64, page_bytes: usize) -> Pages {
        let (head, tables) = picture.into_parts(now_ms);
        let head = match public {
            true => crate::viewer::snapshot(head),
            false => head,
        };
        let table_sizes: Vec<usize> = tables.iter().map(|t| encoded_len(&**t)).collect();
        let plan = paging::plan(
            encoded_len(&paging::head_of(&head)),
            [
                &table_sizes,
                &paging::sizes(&head.alerts),
                &paging::sizes(&head.claims),
                &paging::sizes(&head.audit),
            ],
            page_bytes,
        );
        Pages {
            snapshot: NEXT.fetch_add(1, Ordering::Relaxed),
            head,
            tables,
            public,
            plan,
            next: 0,
        }
    }

    /// Pages in all (1: a plain `Snapshot`).
    pub fn count(&self) -> usize {
        self.plan.len()
    }

    /// Tables in the snapshot.
    pub fn tables(&self) -> usize {
        self.tables.len()
    }

    /// The next page's frame, `None` after the last: one `Snapshot` when
    /// the hall fits in one page, else `SnapshotPage`s in order.
    pub fn next_frame(&mut self) -> Option<Result<Vec<u8>, FrameError>> {
        let [t, a, c, u] = self.plan.get(self.next)?.clone();
        self.next += 1;
        let cut = |v: &Arc<TableView>| match self.public {
            true => crate::viewer::table(TableView::clone(v)),
            false => TableView::clone(v),
        };
        let view = HallView {
            tables: self.tables[t].iter().map(cut).collect(),
            alerts: self.head.alerts[a].to_vec(),
            claims: self.head.claims[c].to_vec(),
            audit: self.head.audit[u].to_vec(),
            ..paging::head_of(&self.head)
        };
        let msg = match self.plan.len() {
            1 => ServerMsg::Snapshot(Box::new(view)),
            n => ServerMsg::SnapshotPage(Box::new(SnapshotPage {
                snapshot: self.snapshot,
                page: (self.next - 1) as u32,
                pages: n as u32,
                view,
            })),
        };
        Some(encode_frame(&msg))
    }
}
