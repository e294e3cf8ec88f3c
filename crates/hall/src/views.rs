//! Every table's last view (桌面视图), kept shared: the view the hall built
//! for the table's last delta, an `Arc<TableView>` per table, which the
//! consoles' pictures (`picture.rs`) copy as pointers. Written by the hall
//! ([`crate::Hall::take_effects`] keeps, a discarded change, a new round
//! and a restore forget).

use std::collections::BTreeMap;
use std::sync::Arc;

use proto::TableView;

/// Every table's last view, shared.
#[derive(Debug, Default)]
pub struct Views {
    kept: BTreeMap<u16, Arc<TableView>>,
}

impl Views {
    /// Keeps `view` as table `table`'s view; returns it shared.
    pub(crate) fn keep(&mut self, table: u16, view: TableView) -> Arc<TableView> {
        let view = Arc::new(view);
        self.kept.insert(table, view.clone());
        view
    }

    /// Forgets table `table`'s view (it changed unseen).
    pub(crate) fn forget(&mut self, table: u16) {
        self.kept.remove(&table);
    }

    /// Forgets every view (the tables were replaced).
    pub(crate) fn clear(&mut self) {
        self.kept.clear();
    }

    /// Table `table`'s kept view.
    pub(crate) fn get(&self, table: u16) -> Option<&Arc<TableView>> {
        self.kept.get(&table)
    }

    /// Views kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Whether no view is kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }
}
