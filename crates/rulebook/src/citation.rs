//! What the rule sets' citations share (引用): the situation a cycle comes
//! to before any rule set's citations, a rule set's [`Citation`] for a
//! ruling, and [`push`] (a rule id once). Used by `ruling.rs` (AXF) and by
//! `cite_roc.rs` / `cite_cxa.rs`, which therefore need not import
//! `ruling.rs` back.

use crate::pattern::ChaseFacts;
use crate::rule_id::RuleId;

/// Appends `r` unless it is already there.
pub(crate) fn push(v: &mut Vec<RuleId>, r: RuleId) {
    if !v.contains(&r) {
        v.push(r);
    }
}

/// A rule set's citations for a ruling, with the readings it took where its
/// text is silent (appended to the explanation).
pub(crate) struct Citation {
    /// Rules applied, most general first.
    pub rules: Vec<RuleId>,
    /// Readings and borrowed rules, (Chinese, English).
    pub notes: Vec<(String, String)>,
    /// The same notes as data (`ruling-note-*`), in the same order.
    pub typed_notes: Vec<crate::explain::Explanation>,
}

/// What the cycle comes to, before any rule set's citations.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Situation<'a> {
    /// Both sides check on every move (mutual perpetual check).
    BothCheck,
    /// One side checks on every move, the other chases forbiddenly: the checker changes.
    CheckAgainstChase,
    /// Both sides chase forbiddenly.
    BothChase,
    /// One side checks on every move (`counter_check`: the other checked too).
    OneChecks {
        /// The other side checked on some move.
        counter_check: bool,
    },
    /// One side chases forbiddenly.
    OneChases {
        /// Facts of its chase.
        facts: &'a ChaseFacts,
        /// The other side chased back on some moves only (two chases against one).
        two_against_one: bool,
    },
    /// Neither side violates.
    Allowed,
}
