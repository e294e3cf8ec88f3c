//! Words for protocol values (status, verdicts, results, alert kinds, claim
//! kinds, audit rows) and times of day, in the console's language.

use crate::i18n::Words;
pub use crate::i18n::{ruling_label, verdict_label, waived_label};
use crate::i18n::{Lang, Strings};
use proto::{AlertKind, AuditEntry, ClaimKind, GameResult, Side, TableStatus};

/// Short result: `1-0`, `0-1`, `½-½`, `0-0`.
pub fn result_short(r: GameResult) -> &'static str {
    match r {
        GameResult::RedWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "½-½",
        GameResult::BothLose => "0-0",
    }
}

/// The status word of a table, with the result and reason when finished.
pub fn status_label(s: &Strings, st: &TableStatus) -> String {
    match st {
        TableStatus::Waiting => s.not_started.to_string(),
        TableStatus::Playing => s.playing.to_string(),
        TableStatus::Paused(_) => s.paused.to_string(),
        TableStatus::Sealed { .. } => s.sealed.to_string(),
        TableStatus::Finished { result, why, .. } => format!(
            "{} {}",
            result_short(*result),
            i18n::term(s.lang, i18n::ids::end_reason(*why))
        ),
    }
}

/// What an audit row did, in the console's language: its typed message
/// (protocol 10), or the text stored with a row written before.
pub fn audit_what(lang: Lang, e: &AuditEntry) -> String {
    match &e.what_msg {
        Some(m) => lang.text(m),
        None => e.what.clone(),
    }
}

/// Why an audit row was refused (`None`: accepted), in the console's
/// language: its typed message, or the text stored with an older row.
pub fn audit_refused(lang: Lang, e: &AuditEntry) -> Option<String> {
    let why = e.refused.as_ref()?;
    Some(match &e.refused_msg {
        Some(m) => lang.text(m),
        None => why.clone(),
    })
}

/// A side's name.
pub fn side(s: &Strings, side: Side) -> &'static str {
    match side {
        Side::Red => s.red,
        Side::Black => s.black,
    }
}

/// A side's one-character mark (红/黑, R/B).
pub fn side_short(s: &Strings, side: Side) -> &'static str {
    match side {
        Side::Red => s.red_short,
        Side::Black => s.black_short,
    }
}

/// An alert kind in words, from the catalogues (`alert-kind-*`).
pub fn alert_kind(lang: Lang, k: AlertKind) -> String {
    i18n::term(lang, i18n::ids::alert_kind(k))
}

/// A claim kind in words, from the catalogues (`claim-kind-*`).
pub fn claim_kind(lang: Lang, k: ClaimKind) -> String {
    i18n::term(lang, i18n::ids::claim_kind(k))
}

/// Time of day `HH:MM:SS` of a Unix ms instant, shifted by `utc_offset_s`.
pub fn time_of_day(unix_ms: u64, utc_offset_s: i32) -> String {
    let secs = (unix_ms / 1000) as i64 + i64::from(utc_offset_s);
    let day = secs.rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", day / 3600, (day / 60) % 60, day % 60)
}

/// A declared move limit 限著 (ROC) in a few words: each player's remaining
/// moves and the limited side (`R40 B40 · R limited`), `R0 B0 · full`, or
/// the capture that stopped it.
pub fn move_limit(s: &Strings, v: &proto::MoveLimitView) -> String {
    if let Some(p) = v.capture_at_ply {
        return format!("{} {p}", s.ml_capture);
    }
    let state = if v.full() {
        s.ml_full.to_string()
    } else {
        format!("{} {}", side_short(s, v.limit.limited), s.ml_limited)
    };
    format!("{} · {state}", move_limit_cell(s, v))
}

/// A declared move limit in a hall row's cell: each player's remaining
/// moves (`R12 B13`), `R0 B0` when full, `×N` when a capture at ply N
/// stopped it.
pub fn move_limit_cell(s: &Strings, v: &proto::MoveLimitView) -> String {
    match v.capture_at_ply {
        Some(p) => format!("×{p}"),
        None => format!(
            "{}{} {}{}",
            s.red_short, v.remaining_red, s.black_short, v.remaining_black
        ),
    }
}

/// Hall `hall`'s name and a space, padded to the hall column, before a
/// table number in the alert and claim queues; empty for a console of one
/// hall.
pub fn hall_label(app: &crate::app::App, hall: usize) -> String {
    if !app.multi() {
        return String::new();
    }
    let w = app
        .links
        .iter()
        .map(|l| crate::width::width(&l.name))
        .max()
        .unwrap_or(1);
    format!("{} ", crate::width::pad_right(app.hall_name(hall), w))
}

/// Width of the hall column: the longest hall name (and its heading); 0
/// for a console of one hall.
pub fn hall_width(app: &crate::app::App) -> usize {
    if !app.multi() {
        return 0;
    }
    app.links
        .iter()
        .map(|l| crate::width::width(&l.name) + 2)
        .chain([crate::width::width(app.lang.s().hall_col)])
        .max()
        .unwrap_or(1)
}

/// A hall's link state as a row's mark: `●` connected, `↻` connecting or
/// reconnecting, `✗` refused for good (the banner says why).
pub fn link_mark(conn: &crate::app::ConnState) -> &'static str {
    match conn {
        crate::app::ConnState::Connected => "●",
        crate::app::ConnState::Connecting { .. } | crate::app::ConnState::Disconnected { .. } => {
            "↻"
        }
        crate::app::ConnState::Refused { .. } => "✗",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Words;
    use proto::Verdict;

    #[test]
    fn each_link_state_has_its_own_mark() {
        use crate::app::ConnState;
        let marks = [
            link_mark(&ConnState::Connected),
            link_mark(&ConnState::Disconnected {
                attempt: 2,
                error: "x".into(),
            }),
            link_mark(&ConnState::Refused { error: "x".into() }),
        ];
        assert_eq!(marks, ["●", "↻", "✗"]);
    }

    #[test]
    fn time_of_day_wraps_and_shifts() {
        assert_eq!(time_of_day(0, 0), "00:00:00");
        assert_eq!(time_of_day(3_723_000, 0), "01:02:03");
        assert_eq!(time_of_day(0, 8 * 3600), "08:00:00");
        assert_eq!(time_of_day(0, -3600), "23:00:00");
    }

    #[test]
    fn finished_status_names_result_and_reason() {
        let st = TableStatus::Finished {
            result: GameResult::BlackWins,
            why: proto::EndReason::PerpetualChase,
            reason: "Red loses by ruling on claim 3".into(),
        };
        let (en, zh) = (Lang::En.s(), Lang::ZhHans.s());
        assert_eq!(status_label(en, &st), "0-1 perpetual chase");
        assert_eq!(status_label(zh, &st), "0-1 长捉");
        assert_eq!(status_label(Lang::ZhHant.s(), &st), "0-1 長捉");
        assert_eq!(status_label(Lang::Vi.s(), &st), "0-1 đuổi bắt mãi");
        assert_eq!(status_label(zh, &TableStatus::Playing), "对局中");
        assert_eq!(
            verdict_label(en, Verdict::Continue, Some(Side::Black)),
            "play on, Black must change"
        );
    }

    #[test]
    fn move_limits_in_words() {
        use proto::{MoveLimit, MoveLimitView};
        let s = Lang::En.s();
        let mut v = MoveLimitView {
            limit: MoveLimit {
                at_ply: 10,
                requested_by: None,
                limited: Side::Black,
                book_draw: false,
                moves_each: 40,
                reply_cap: 5,
            },
            remaining_red: 3,
            remaining_black: 4,
            struck: 0,
            capture_at_ply: None,
        };
        assert_eq!(move_limit(s, &v), "R3 B4 · B limited");
        assert_eq!(move_limit_cell(s, &v), "R3 B4");
        v.remaining_red = 0;
        v.remaining_black = 0;
        assert_eq!(move_limit(s, &v), "R0 B0 · full");
        v.capture_at_ply = Some(33);
        assert_eq!(move_limit(s, &v), "capture at ply 33");
        assert_eq!(move_limit_cell(s, &v), "×33");
    }
}
