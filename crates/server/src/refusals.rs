//! Refused requests in the audit trail, bounded (拒绝记录限流): every refusal
//! is still recorded, but no principal can grow the append-only trail, or
//! the log, faster than a few entries a minute.
//!
//! Per principal, a window of [`WINDOW_MS`] opens at its first refusal.
//! The first [`STORED_PER_WINDOW`] refusals of the window are stored one by
//! one (reason and description cut to [`MAX_TEXT`] bytes with a marker)
//! and logged (escaped). The next one raises ONE alert for the arbiters
//! (a `Note::RefusedCommands`), and it and every later one of the window
//! are only counted; when the window ends (the ticker looks every 250 ms,
//! and a clean stop flushes every open window) the count is appended as
//! one entry: `viewer:大厅显示屏 — 2300 refused requests in 60 s`. Appended,
//! never updated: the trail stays append-only on every store.

use std::collections::HashMap;
use std::sync::Mutex;

use hall::record::{Note, Record};
use proto::logsafe::truncate;
use proto::{Arg, Message};

/// Length of a principal's refusal window.
pub const WINDOW_MS: u64 = 60_000;
/// Refusals stored one by one per principal and window.
pub const STORED_PER_WINDOW: u32 = 10;
/// Longest stored description or reason of a refusal, in bytes.
pub const MAX_TEXT: usize = 256;

/// What to do with one refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Store it as its own (bounded) entry.
    Store,
    /// Only count it; `alert` is the note to store once per window (the
    /// first refusal past the threshold).
    Count {
        /// The alert's note, on the first counted refusal of the window.
        alert: Option<Record>,
    },
}

#[derive(Debug, Clone, Copy)]
struct Window {
    start_ms: u64,
    seen: u64,
}

impl Window {
    fn counted(&self) -> u64 {
        self.seen.saturating_sub(u64::from(STORED_PER_WINDOW))
    }
}

/// The open windows of every principal.
#[derive(Debug, Default)]
pub struct Refusals {
    windows: Mutex<HashMap<String, Window>>,
}

/// Largest encoded typed message stored with a refusal: one whose
/// verbatim texts, each cut to [`MAX_TEXT`], still encode larger (a
/// peer's round changes nest its own messages) is left out, and the row
/// renders as its English text.
pub const MAX_TYPED: usize = 4 * MAX_TEXT;

/// The entry that stands for the `n` counted refusals of `who`'s window.
fn counted_entry(who: &str, n: u64, secs: u64) -> Record {
    let (what, why) = hall::audit::asked::counted(n, secs, STORED_PER_WINDOW);
    Record::Refused {
        who: who.to_string(),
        what: i18n::texts::english(&what),
        table: None,
        why: i18n::texts::english(&why),
        what_msg: Some(what),
        why_msg: Some(why),
    }
}

/// `m` as a refusal's row stores it: each verbatim text cut to
/// [`MAX_TEXT`] bytes (as the English texts are), and the whole left out
/// (`None`) when it still encodes to more than [`MAX_TYPED`] bytes.
pub fn bounded(m: &Message) -> Option<Message> {
    let cut = cut_texts(m, 0)?;
    let size = hall::record::encode_message(&cut).ok()?.len();
    (size <= MAX_TYPED).then_some(cut)
}

fn cut_texts(m: &Message, depth: usize) -> Option<Message> {
    if depth > proto::MAX_DEPTH {
        return None;
    }
    let mut args = Vec::with_capacity(m.args.len());
    for (name, arg) in &m.args {
        let arg = match arg {
            Arg::Verbatim(t) => Arg::Verbatim(truncate(t, MAX_TEXT)),
            Arg::Message(inner) => Arg::Message(Box::new(cut_texts(inner, depth + 1)?)),
            other => other.clone(),
        };
        args.push((truncate(name, MAX_TEXT), arg));
    }
    Some(Message {
        id: truncate(&m.id, MAX_TEXT),
        args,
    })
}

impl Refusals {
    /// Counts a refusal of `who` at `now_ms`. Returns the counted entry of
    /// `who`'s previous window if it just ended (to append first), and what
    /// to do with this refusal.
    pub fn note(&self, who: &str, now_ms: u64) -> (Option<Record>, Verdict) {
        let Ok(mut windows) = self.windows.lock() else {
            return (None, Verdict::Store);
        };
        let mut ended = None;
        let w = windows.entry(who.to_string()).or_insert(Window {
            start_ms: now_ms,
            seen: 0,
        });
        if now_ms.saturating_sub(w.start_ms) >= WINDOW_MS {
            if w.counted() > 0 {
                ended = Some(counted_entry(who, w.counted(), WINDOW_MS / 1000));
            }
            *w = Window {
                start_ms: now_ms,
                seen: 0,
            };
        }
        w.seen += 1;
        let verdict = if w.seen <= u64::from(STORED_PER_WINDOW) {
            Verdict::Store
        } else if w.seen == u64::from(STORED_PER_WINDOW) + 1 {
            Verdict::Count {
                alert: Some(Record::Note(Note::RefusedCommands {
                    who: who.to_string(),
                    threshold: STORED_PER_WINDOW,
                    window_s: (WINDOW_MS / 1000) as u32,
                })),
            }
        } else {
            Verdict::Count { alert: None }
        };
        (ended, verdict)
    }

    /// The counted entries of the windows that ended by `now_ms` (the
    /// ticker appends them); those windows are closed.
    pub fn due(&self, now_ms: u64) -> Vec<Record> {
        self.take(|w| now_ms.saturating_sub(w.start_ms) >= WINDOW_MS, now_ms)
    }

    /// The counted entries of every open window, ended or not (a clean
    /// stop appends them); every window is closed.
    pub fn flush(&self, now_ms: u64) -> Vec<Record> {
        self.take(|_| true, now_ms)
    }

    fn take(&self, done: impl Fn(&Window) -> bool, now_ms: u64) -> Vec<Record> {
        let Ok(mut windows) = self.windows.lock() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        windows.retain(|who, w| {
            if !done(w) {
                return true;
            }
            if w.counted() > 0 {
                let secs = now_ms.saturating_sub(w.start_ms).min(WINDOW_MS) / 1000;
                out.push(counted_entry(who, w.counted(), secs.max(1)));
            }
            false
        });
        out.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusals_typed_message_is_bounded_like_its_text() {
        let long = "停".repeat(400);
        let m = Message::new("audit-pause-table")
            .int("table", 3)
            .verbatim("reason", &long);
        let cut = bounded(&m).expect("small once cut");
        match cut.get("reason") {
            Some(Arg::Verbatim(t)) => {
                assert!(t.len() < 300 && t.starts_with("停停"), "{t}");
                assert!(t.ends_with("more bytes]"), "{t}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(cut.get("table"), Some(&Arg::Int(3)));
        // Nested past the renderer's depth, or too many parts: left out.
        let mut deep = Message::new("audit-note");
        for _ in 0..=proto::MAX_DEPTH + 1 {
            deep = Message::new("audit-note").arg("m", Arg::Message(Box::new(deep)));
        }
        assert_eq!(bounded(&deep), None);
        let mut wide = Message::new("audit-note");
        for i in 0..100 {
            wide = wide.verbatim(&format!("a{i}"), "x".repeat(200));
        }
        assert_eq!(bounded(&wide), None);
        // The counted entry's English is as before, typed beside it.
        match counted_entry("viewer:x", 2300, 60) {
            Record::Refused {
                what,
                why,
                what_msg,
                why_msg,
                ..
            } => {
                assert_eq!(
                    what,
                    "2300 refused requests in 60 s (counted, not stored one by one)"
                );
                assert_eq!(why, "more than 10 refused requests in a window");
                assert_eq!(
                    what_msg.map(|m| m.id),
                    Some("audit-refusals-counted".into())
                );
                assert!(why_msg.is_some());
            }
            other => panic!("{other:?}"),
        }
    }

    fn counted(r: &Record) -> u64 {
        match r {
            Record::Refused { what, .. } => what
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0),
            _ => 0,
        }
    }

    #[test]
    fn past_the_threshold_refusals_are_counted_with_one_alert_per_window() {
        let r = Refusals::default();
        let t0 = 1_000_000;
        let mut alerts = 0;
        let mut stored = 0;
        for i in 0..2_300u64 {
            let (ended, v) = r.note("viewer:x", t0 + i);
            assert!(ended.is_none());
            match v {
                Verdict::Store => stored += 1,
                Verdict::Count { alert: Some(_) } => alerts += 1,
                Verdict::Count { alert: None } => {}
            }
        }
        assert_eq!((stored, alerts), (STORED_PER_WINDOW, 1));
        // Another principal has its own window.
        assert_eq!(r.note("deputy:y", t0).1, Verdict::Store);
        assert!(r.due(t0 + WINDOW_MS - 1).is_empty(), "window still open");
        let due = r.due(t0 + WINDOW_MS);
        assert_eq!(due.len(), 1, "deputy:y had nothing counted");
        assert_eq!(counted(&due[0]), 2_300 - u64::from(STORED_PER_WINDOW));
        // A new window: stored again, one more alert once past the threshold.
        let (ended, v) = r.note("viewer:x", t0 + WINDOW_MS + 5);
        assert!(ended.is_none());
        assert_eq!(v, Verdict::Store);
    }

    #[test]
    fn a_window_that_ends_on_the_next_refusal_or_at_a_flush_gives_its_count() {
        let r = Refusals::default();
        for i in 0..15 {
            r.note("viewer:x", i);
        }
        let (ended, v) = r.note("viewer:x", WINDOW_MS + 1);
        assert_eq!(ended.as_ref().map(counted), Some(5));
        assert_eq!(v, Verdict::Store);
        for i in 0..12 {
            r.note("viewer:x", WINDOW_MS + 2 + i);
        }
        let flushed = r.flush(WINDOW_MS + 30);
        assert_eq!(flushed.iter().map(counted).collect::<Vec<_>>(), vec![3]);
        assert!(r.flush(WINDOW_MS + 31).is_empty());
    }
}
