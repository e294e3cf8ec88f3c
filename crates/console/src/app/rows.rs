//! Which tables the hall overview lists, in which order: the role's tables
//! of every shown hall (the `H` hall filter), narrowed by the `/` filter,
//! sorted by table number, time left or alerts.

use super::App;
use crate::i18n::Strings;
use crate::perm;
use proto::{TableStatus, TableView};

/// Order of the hall overview (`s` cycles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// Table number, ascending.
    Table,
    /// Least time left on either clock first; finished games last.
    TimeLeft,
    /// Most open alerts and pending claims first.
    Alerts,
}

impl SortKey {
    /// The next order.
    pub fn next(self) -> SortKey {
        match self {
            SortKey::Table => SortKey::TimeLeft,
            SortKey::TimeLeft => SortKey::Alerts,
            SortKey::Alerts => SortKey::Table,
        }
    }

    /// Its name in the status line.
    pub fn label(self, s: &Strings) -> &'static str {
        match self {
            SortKey::Table => s.sort_table,
            SortKey::TimeLeft => s.sort_time,
            SortKey::Alerts => s.sort_alerts,
        }
    }
}

/// Whether `t` matches the filter text: table number, either name, or the
/// status word (in either language), case-insensitive.
fn matches(t: &TableView, filter: &str) -> bool {
    let f = filter.trim().to_lowercase();
    if f.is_empty() {
        return true;
    }
    if t.table.to_string() == f {
        return true;
    }
    let status = match &t.status {
        TableStatus::Waiting => "waiting 未开始",
        TableStatus::Playing => "playing 对局中",
        TableStatus::Paused(_) => "paused 暂停",
        TableStatus::Sealed { .. } => "sealed 封棋",
        TableStatus::Finished { .. } => "finished 结束",
    };
    let offline = if t.online { "" } else { "offline 离线" };
    [t.red.as_str(), t.black.as_str(), status, offline]
        .iter()
        .any(|h| h.to_lowercase().contains(&f))
}

/// How many tables the hall overview shows (no sorting: cheap enough to
/// run after every delta).
pub fn visible_count(app: &App) -> usize {
    app.links
        .iter()
        .enumerate()
        .filter(|(i, _)| app.shows_hall(*i))
        .map(|(_, l)| {
            l.hall.as_ref().map_or(0, |hall| {
                hall.tables
                    .iter()
                    .filter(|t| perm::sees_table(l.role.as_ref(), t.table))
                    .filter(|t| matches(t, &app.filter))
                    .count()
            })
        })
        .sum()
}

/// The tables shown in the hall overview, in display order.
pub fn visible_tables(app: &App) -> Vec<&TableView> {
    table_rows(app).into_iter().map(|(_, t)| t).collect()
}

/// The tables shown in the hall overview, in display order, each with its
/// hall's index: every shown hall's tables the role there sees, narrowed
/// by the filter; a hall's tables together when sorted by number.
pub fn table_rows(app: &App) -> Vec<(usize, &TableView)> {
    let mut v: Vec<(usize, &TableView)> = Vec::new();
    for (i, l) in app.links.iter().enumerate() {
        let Some(hall) = &l.hall else { continue };
        if !app.shows_hall(i) {
            continue;
        }
        v.extend(
            hall.tables
                .iter()
                .filter(|t| perm::sees_table(l.role.as_ref(), t.table))
                .filter(|t| matches(t, &app.filter))
                .map(|t| (i, t)),
        );
    }
    match app.sort {
        SortKey::Table => v.sort_by_key(|(h, t)| (*h, t.table)),
        SortKey::TimeLeft => v.sort_by_cached_key(|(h, t)| {
            let finished = matches!(t.status, TableStatus::Finished { .. });
            let (r, b) = app.live_times_in(*h, t);
            (finished, r.min(b), *h, t.table)
        }),
        SortKey::Alerts => {
            // Open alerts per table, counted once (not once per table).
            let mut open: std::collections::HashMap<(usize, u16), usize> =
                std::collections::HashMap::new();
            for (i, l) in app.links.iter().enumerate() {
                let Some(hall) = &l.hall else { continue };
                for a in hall.alerts.iter().filter(|a| a.acked_by.is_none()) {
                    *open.entry((i, a.table)).or_default() += 1;
                }
            }
            v.sort_by_cached_key(|(h, t)| {
                let weight =
                    open.get(&(*h, t.table)).copied().unwrap_or(0) + t.pending_claims as usize;
                (std::cmp::Reverse(weight), *h, t.table)
            })
        }
    }
    v
}
