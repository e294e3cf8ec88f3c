//! The hall overview (赛场总览): one row per table, columns chosen to fit the
//! width — at 80 columns the essentials (table, names, clocks, claims,
//! status), on a wide screen also moves, the no-capture bar, fouls and when
//! the terminal was last heard from. A console over several halls puts the
//! hall's name first.

use super::{text, theme};
use crate::app::{table_rows, App};
use crate::clock::{format_age_ms, format_ms, urgency, Urgency};
use crate::i18n::Strings;
use crate::i18n::Words;
use crate::width::{pad_left, pad_right};
use proto::{Side, TableStatus, TableView};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// A column of the overview.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Hall,
    Table,
    Red,
    Black,
    RedClock,
    BlackClock,
    ToMove,
    Claims,
    Status,
    Moves,
    Fouls,
    NoCapture,
    Seen,
}

/// Columns by priority (first = kept longest when narrow), with widths.
/// Names take whatever is left (at least `NAME_MIN` each).
const FIXED: &[(Col, usize)] = &[
    (Col::Table, 3),
    (Col::RedClock, 7),
    (Col::BlackClock, 7),
    (Col::Status, 9),
    (Col::Claims, 3),
    (Col::ToMove, 2),
    (Col::Moves, 4),
    (Col::Fouls, 9),
    (Col::NoCapture, 13),
    (Col::Seen, 7),
];
const NAME_MIN: usize = 8;
const NAME_MAX: usize = 16;
const STATUS_MAX: usize = 22;

/// The layout of the columns for a width: (column, width) in display
/// order; a hall column `hall_w` wide first unless that is 0; the
/// side-to-move column `to_move_w` wide (at least 2: Vietnamese writes
/// Đỏ / Đen, three columns).
fn layout(cols: usize, hall_w: usize, to_move_w: usize) -> Vec<(Col, usize)> {
    // Take fixed columns by priority while two names still fit.
    let mut chosen: Vec<(Col, usize)> = Vec::new();
    let mut used = 2 * (NAME_MIN + 1);
    if hall_w > 0 {
        chosen.push((Col::Hall, hall_w));
        used += hall_w + 1;
    }
    for &(c, w) in FIXED {
        let w = if c == Col::ToMove {
            w.max(to_move_w)
        } else {
            w
        };
        if used + w < cols {
            chosen.push((c, w));
            used += w + 1;
        }
    }
    // Share out what is left: names first, then a longer status.
    let mut spare = cols.saturating_sub(used);
    let grow = spare.min(2 * (NAME_MAX - NAME_MIN)) / 2;
    let name = NAME_MIN + grow;
    spare -= 2 * grow;
    if let Some(st) = chosen.iter_mut().find(|(c, _)| *c == Col::Status) {
        let more = spare.min(STATUS_MAX - st.1);
        st.1 += more;
    }
    let order = [
        Col::Hall,
        Col::Table,
        Col::Red,
        Col::Black,
        Col::RedClock,
        Col::BlackClock,
        Col::ToMove,
        Col::Moves,
        Col::NoCapture,
        Col::Fouls,
        Col::Claims,
        Col::Status,
        Col::Seen,
    ];
    order
        .iter()
        .filter_map(|c| match c {
            Col::Red | Col::Black => Some((*c, name)),
            _ => chosen.iter().find(|(x, _)| x == c).copied(),
        })
        .collect()
}

/// Draws the overview into `area`.
pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let s = app.lang.s();
    let rows = table_rows(app);
    let to_move_w = crate::width::width(s.red_short).max(crate::width::width(s.black_short));
    let cols = layout(usize::from(area.width), text::hall_width(app), to_move_w);
    let mut lines = Vec::with_capacity(usize::from(area.height));
    let header: Vec<Span> = cols
        .iter()
        .map(|(c, w)| {
            let h = match c {
                Col::Hall => s.hall_col,
                Col::Table => s.table_short,
                Col::Red => s.red,
                Col::Black => s.black,
                Col::RedClock => s.red_short,
                Col::BlackClock => s.black_short,
                Col::ToMove => s.to_move,
                Col::Claims => s.pending,
                Col::Status => s.status,
                Col::Moves => s.moves,
                Col::Fouls => s.fouls,
                Col::NoCapture => s.no_capture,
                Col::Seen => s.seen,
            };
            let text = match c {
                Col::RedClock | Col::BlackClock | Col::Moves | Col::Table => pad_left(h, *w),
                _ => pad_right(h, *w),
            };
            Span::styled(format!("{text} "), theme::header())
        })
        .collect();
    lines.push(Line::from(header));
    let body = usize::from(area.height).saturating_sub(1);
    if rows.is_empty() {
        let msg = if app.links.iter().all(|l| l.hall.is_none()) {
            s.connecting
        } else {
            s.no_tables
        };
        lines.push(Line::styled(format!(" {msg}"), theme::dim()));
    }
    // Keep the selection visible whatever the stored offset.
    let sel = app.hall_sel.min(rows.len().saturating_sub(1));
    let mut off = app.hall_offset.min(sel);
    if body > 0 && sel >= off + body {
        off = sel + 1 - body;
    }
    for (i, (hall, t)) in rows.iter().enumerate().skip(off).take(body) {
        let mut spans = row(app, *hall, t, &cols);
        if i == sel {
            for sp in &mut spans {
                sp.style = sp.style.patch(theme::selected());
            }
        }
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines), area);
}

/// The cells of one row: table `t` of hall `hall`.
fn row(app: &App, hall: usize, t: &TableView, cols: &[(Col, usize)]) -> Vec<Span<'static>> {
    let s = app.lang.s();
    let (red_ms, black_ms) = app.live_times_in(hall, t);
    let playing = matches!(t.status, TableStatus::Playing)
        && app
            .links
            .get(hall)
            .and_then(|l| l.hall.as_ref())
            .is_some_and(|h| h.paused.is_none());
    let running = if playing { t.clock.running } else { None };
    cols.iter()
        .map(|&(c, w)| match c {
            Col::Hall => {
                // The hall's name and its link's state (connected,
                // reconnecting, refused), so that a hall whose link is down
                // shows it on every row, not only in the banner.
                let conn = app.links.get(hall).map(|l| &l.conn);
                let mark = conn.map_or("", text::link_mark);
                let style = match conn {
                    Some(crate::app::ConnState::Connected) => theme::key(),
                    _ => theme::alarm(),
                };
                let name = pad_right(app.hall_name(hall), w.saturating_sub(2));
                cell(format!("{name} {mark}"), style)
            }
            Col::Table => {
                let style = if app.open_alerts_in(hall, t.table) > 0 {
                    theme::warn()
                } else {
                    Style::new()
                };
                cell(pad_left(&t.table.to_string(), w), style)
            }
            Col::Red => cell(pad_right(&t.red, w), theme::red()),
            Col::Black => cell(pad_right(&t.black, w), Style::new()),
            Col::RedClock => clock_cell(red_ms, running == Some(Side::Red), w),
            Col::BlackClock => clock_cell(black_ms, running == Some(Side::Black), w),
            Col::ToMove => {
                if matches!(t.status, TableStatus::Finished { .. }) {
                    cell(pad_right("", w), Style::new())
                } else {
                    let style = match t.to_move {
                        Side::Red => theme::red(),
                        Side::Black => Style::new(),
                    };
                    cell(pad_right(text::side_short(s, t.to_move), w), style)
                }
            }
            Col::Moves => cell(pad_left(&t.plies.div_ceil(2).to_string(), w), Style::new()),
            Col::NoCapture => no_capture_cell(s, t, w),
            Col::Fouls => fouls_cell(t, w),
            Col::Claims => {
                if t.pending_claims > 0 {
                    cell(
                        pad_left(&format!("!{}", t.pending_claims), w),
                        theme::alarm(),
                    )
                } else {
                    cell(pad_left("", w), Style::new())
                }
            }
            Col::Status => status_cell(s, t, w),
            Col::Seen => {
                if !t.online {
                    cell(pad_right(s.offline, w), theme::alarm())
                } else if t.last_heard_ms == 0 {
                    cell(pad_right(s.none, w), theme::dim())
                } else {
                    let age = app.server_now_ms_in(hall).saturating_sub(t.last_heard_ms);
                    let style = if age > 60_000 {
                        theme::warn()
                    } else {
                        theme::dim()
                    };
                    cell(pad_right(&format_age_ms(age), w), style)
                }
            }
        })
        .collect()
}

/// A cell: its text and a space.
fn cell(text: String, style: Style) -> Span<'static> {
    Span::styled(format!("{text} "), style)
}

/// The no-capture cell: ROC's declared limit, or a bar of the plies since
/// the last capture against the natural limit.
fn no_capture_cell(s: &'static Strings, t: &TableView, w: usize) -> Span<'static> {
    match &t.move_limit {
        Some(v) => {
            let style = if v.full() || v.capture_at_ply.is_some() {
                theme::alarm()
            } else {
                theme::warn()
            };
            cell(pad_left(&text::move_limit_cell(s, v), w), style)
        }
        None => {
            let (bar, style) = no_capture_bar(t.plies_since_capture, t.natural_limit_plies, w);
            cell(bar, style)
        }
    }
}

/// The fouls cell: technical fouls / violations, Red then Black.
fn fouls_cell(t: &TableView, w: usize) -> Span<'static> {
    let text = format!(
        "{}/{} {}/{}",
        t.fouls_red.technical,
        t.fouls_red.violations,
        t.fouls_black.technical,
        t.fouls_black.violations
    );
    let any = t.fouls_red.technical
        + t.fouls_red.violations
        + t.fouls_black.technical
        + t.fouls_black.violations
        > 0;
    cell(
        pad_right(&text, w),
        if any { theme::warn() } else { theme::dim() },
    )
}

/// The state cell.
fn status_cell(s: &'static Strings, t: &TableView, w: usize) -> Span<'static> {
    let style = match t.status {
        TableStatus::Playing => Style::new(),
        TableStatus::Waiting => theme::dim(),
        TableStatus::Paused(_) => theme::warn(),
        TableStatus::Sealed { .. } => theme::sealed(),
        TableStatus::Finished { .. } => theme::ok(),
    };
    cell(pad_right(&text::status_label(s, &t.status), w), style)
}

/// A clock cell: the live time, coloured by urgency, ⚑ when fallen.
fn clock_cell(ms: i64, running: bool, w: usize) -> Span<'static> {
    let u = urgency(ms);
    let text = if u == Urgency::Flagged {
        format!("⚑{}", format_ms(ms))
    } else {
        format_ms(ms)
    };
    Span::styled(
        format!("{} ", pad_left(&text, w)),
        theme::clock_style(u, running),
    )
}

/// Plies since the last capture as a bar toward the natural limit, then the
/// count: `███▌░░░ 45`. Yellow from 80 %, red at the limit.
pub fn no_capture_bar(plies: u32, limit: u32, w: usize) -> (String, Style) {
    let count = plies.to_string();
    let bar_w = w.saturating_sub(count.len() + 1);
    let limit = limit.max(1);
    let frac = (f64::from(plies) / f64::from(limit)).min(1.0);
    let eighths = (frac * bar_w as f64 * 2.0).round() as usize;
    let full = eighths / 2;
    let half = eighths % 2 == 1;
    let mut bar = "█".repeat(full);
    if half {
        bar.push('▌');
    }
    let filled = full + usize::from(half);
    bar.push_str(&"░".repeat(bar_w.saturating_sub(filled)));
    let style = if plies >= limit {
        theme::alarm()
    } else if plies * 5 >= limit * 4 {
        theme::warn()
    } else {
        theme::dim()
    };
    (pad_right(&format!("{bar} {count}"), w), style)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_screens_keep_the_essentials() {
        let cols = layout(80, 0, 2);
        let has = |c| cols.iter().any(|(x, _)| *x == c);
        assert!(has(Col::Table) && has(Col::Red) && has(Col::Black));
        assert!(has(Col::RedClock) && has(Col::BlackClock) && has(Col::Status));
        assert!(has(Col::Claims));
        let total: usize = cols.iter().map(|(_, w)| w + 1).sum();
        assert!(total <= 80, "{total}");
        let wide = layout(136, 0, 2);
        assert_eq!(wide.len(), 12, "every column at 136 columns: {wide:?}");
        // Several halls: the hall column comes first, the essentials stay.
        let halls = layout(80, 3, 2);
        assert_eq!(halls[0], (Col::Hall, 3));
        assert!(halls.iter().any(|(x, _)| *x == Col::Status), "{halls:?}");
        let total: usize = halls.iter().map(|(_, w)| w + 1).sum();
        assert!(total <= 80, "{total}");
    }

    #[test]
    fn bar_grows_toward_the_limit() {
        assert_eq!(no_capture_bar(0, 120, 10).0, "░░░░░░░░ 0");
        assert_eq!(no_capture_bar(60, 120, 10).0, "███▌░░░ 60");
        assert_eq!(no_capture_bar(130, 120, 10).0, "██████ 130");
        assert_eq!(no_capture_bar(130, 120, 10).1, theme::alarm());
    }
}
