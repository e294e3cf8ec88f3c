//! A table in detail (台次详情): players and live clocks, counters and
//! fouls, the board with the last move marked, the move list in the chosen
//! notation, the clock history, and the table's alerts and audit trail
//! (newest first). The log and clock history come from the server's
//! `TableLog` (asked for when the table is opened) merged with live deltas.

use super::{board, hall, text, theme};
use crate::app::{App, Notation};
use crate::clock::{format_age_ms, format_ms, urgency};
use crate::i18n::Strings;
use crate::i18n::Words;
use crate::width::{pad_left, pad_right, truncate};
use proto::{Side, TableStatus, TableView};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

/// Draws table `table` into `area`.
pub fn draw(f: &mut Frame, app: &App, area: Rect, table: u16) {
    let s = app.lang.s();
    let Some(t) = app.table(table) else {
        f.render_widget(
            Paragraph::new(Line::styled(format!(" {}", s.no_such_table), theme::dim())),
            area,
        );
        return;
    };
    let [left, right] =
        Layout::horizontal([Constraint::Length(board::WIDTH + 2), Constraint::Min(20)]).areas(area);
    let info = info_lines(app, t, left.width);
    let [top, bottom] =
        Layout::vertical([Constraint::Length(info.len() as u16), Constraint::Min(0)]).areas(left);
    f.render_widget(Paragraph::new(info), top);
    match board::parse_placement(&t.fen) {
        Some(grid) => {
            let lines = board::lines(&grid, t.last_move, (s.river_chu, s.river_han));
            let b = Rect {
                x: bottom.x + 1,
                width: bottom.width.saturating_sub(1).min(board::WIDTH),
                height: bottom.height.min(board::HEIGHT),
                ..bottom
            };
            f.render_widget(Paragraph::new(lines), b);
        }
        None => f.render_widget(
            Paragraph::new(Line::styled(format!(" FEN? {}", t.fen), theme::alarm())),
            bottom,
        ),
    }
    let tall = right.height >= 30;
    let [moves, clocks, log] = Layout::vertical([
        Constraint::Percentage(if tall { 40 } else { 45 }),
        Constraint::Length(if tall { 10 } else { 5 }),
        Constraint::Min(3),
    ])
    .areas(right);
    draw_moves(f, app, t, moves);
    draw_clock_history(f, app, clocks);
    draw_log(f, app, t, log);
}

/// The detail's first line: the table and its state (who paused it, why).
fn status_line(s: &'static Strings, t: &TableView, cols: usize) -> Line<'static> {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let status_style = match t.status {
        TableStatus::Paused(_) => theme::warn(),
        TableStatus::Sealed { .. } => theme::sealed(),
        TableStatus::Finished { .. } => theme::ok(),
        _ => Style::new(),
    };
    let mut status = text::status_label(s, &t.status);
    if let TableStatus::Paused(p) = &t.status {
        status.push_str(&format!(" — {}", p.by));
        if !p.reason.is_empty() {
            status.push_str(&format!(": {}", p.reason));
        }
    }
    Line::from(vec![
        Span::styled(format!(" {} {} ", s.table, t.table), bold),
        Span::styled(truncate(&status, cols.saturating_sub(8)), status_style),
    ])
}

/// The move-limit line: ROC's declared limit, or the plies since the last
/// capture against the natural limit.
fn limit_line(s: &'static Strings, t: &TableView, cols: usize) -> Line<'static> {
    let (bar, bar_style) = hall::no_capture_bar(t.plies_since_capture, t.natural_limit_plies, 10);
    match &t.move_limit {
        // Under ROC the declared limit counts, not the plies since a capture.
        Some(v) => Line::from(vec![
            Span::raw(format!(" {}: ", s.ml_short)),
            Span::styled(
                truncate(
                    &text::move_limit(s, v),
                    cols.saturating_sub(crate::width::width(s.ml_short) + 3),
                ),
                if v.full() || v.capture_at_ply.is_some() {
                    theme::alarm()
                } else {
                    theme::warn()
                },
            ),
        ]),
        None => Line::from(vec![
            Span::raw(format!(" {} ", s.no_capture)),
            Span::styled(bar, bar_style),
            Span::styled(format!("/{}", t.natural_limit_plies), theme::dim()),
        ]),
    }
}

fn info_lines(app: &App, t: &TableView, cols: u16) -> Vec<Line<'static>> {
    let s = app.lang.s();
    let cols = usize::from(cols);
    let (red_ms, black_ms) = app.live_times(t);
    let running = if matches!(t.status, TableStatus::Playing) {
        t.clock.running
    } else {
        None
    };
    let player = |side: Side, name: &str, ms: i64| {
        let u = urgency(ms);
        let mark = if running == Some(side) { "▶" } else { " " };
        let clock = if t.flag == Some(side) || ms <= 0 {
            format!("⚑{}", format_ms(ms))
        } else {
            format_ms(ms)
        };
        let name_style = match side {
            Side::Red => theme::red(),
            Side::Black => Style::new(),
        };
        Line::from(vec![
            Span::styled(format!(" {mark}{} ", text::side_short(s, side)), name_style),
            Span::styled(pad_right(name, cols.saturating_sub(14)), name_style),
            Span::styled(
                pad_left(&clock, 9),
                theme::clock_style(u, running == Some(side)),
            ),
        ])
    };
    let fouls = format!(
        " {}: {} {}/{} · {} {}/{}",
        s.fouls,
        s.red_short,
        t.fouls_red.technical,
        t.fouls_red.violations,
        s.black_short,
        t.fouls_black.technical,
        t.fouls_black.violations
    );
    let seen = if !t.online {
        Span::styled(s.offline.to_string(), theme::alarm())
    } else if t.last_heard_ms == 0 {
        Span::styled(s.none.to_string(), theme::dim())
    } else {
        Span::raw(format_age_ms(
            app.server_now_ms().saturating_sub(t.last_heard_ms),
        ))
    };
    let order = t.order.as_ref().map(|o| {
        Line::styled(
            truncate(&format!(" ! {}", app.lang.text(&o.text)), cols),
            theme::warn(),
        )
    });
    let mut lines = vec![
        status_line(s, t, cols),
        player(Side::Red, &t.red, red_ms),
        player(Side::Black, &t.black, black_ms),
        Line::raw(truncate(
            &format!(
                " {}: {} · {} {}",
                s.to_move_long,
                text::side(s, t.to_move),
                s.moves_long,
                t.plies.div_ceil(2)
            ),
            cols,
        )),
        limit_line(s, t, cols),
        Line::raw(truncate(&fouls, cols)),
        Line::from(vec![Span::raw(format!(" {}: ", s.seen)), seen]),
    ];
    lines.extend(order);
    lines
}

fn draw_moves(f: &mut Frame, app: &App, t: &TableView, area: Rect) {
    let s = app.lang.s();
    let name = match app.notation {
        Notation::Chinese => s.notation_chinese,
        Notation::Wxf => s.notation_wxf,
        Notation::Vietnamese => crate::i18n::word(app.lang, "console-notation-vietnamese"),
        Notation::Iccs => "ICCS",
    };
    let block = Block::bordered().title(Span::styled(
        format!(" {} · {name} · n ", s.move_list),
        theme::title(),
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let texts = crate::notation::move_texts_in(&t.moves, app.notation, app.lang);
    // One line per full move: "12. 炮二平五  馬８進７"; columns side by side,
    // the newest moves always visible.
    let pairs: Vec<String> = texts
        .chunks(2)
        .enumerate()
        .map(|(i, p)| {
            let red = pad_right(&p[0], 10);
            let black = p.get(1).map(String::as_str).unwrap_or("");
            format!("{:>3}. {red} {}", i + 1, pad_right(black, 10))
        })
        .collect();
    let rows = usize::from(inner.height).max(1);
    let col_w = 27usize;
    let ncols = (usize::from(inner.width) / col_w).max(1);
    let capacity = rows * ncols;
    let start = pairs.len().saturating_sub(capacity);
    let shown = &pairs[start..];
    let lines: Vec<Line> = (0..rows.min(shown.len()))
        .map(|r| {
            let spans: Vec<Span> = (0..ncols)
                .filter_map(|c| shown.get(c * rows + r))
                .enumerate()
                .map(|(c, text)| {
                    let last_pair = start + c * rows + r + 1 == pairs.len();
                    let style = if last_pair {
                        Style::new().add_modifier(Modifier::BOLD)
                    } else {
                        Style::new()
                    };
                    Span::styled(pad_right(text, col_w), style)
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

fn draw_clock_history(f: &mut Frame, app: &App, area: Rect) {
    let s = app.lang.s();
    let block = Block::bordered().title(Span::styled(
        format!(" {} ", s.clock_history),
        theme::title(),
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let samples = app
        .table_log
        .as_ref()
        .map(|l| l.clock_history.as_slice())
        .unwrap_or(&[]);
    let rows = usize::from(inner.height);
    let lines: Vec<Line> = if samples.is_empty() {
        vec![Line::styled(format!(" {}", s.none), theme::dim())]
    } else {
        samples
            .iter()
            .rev()
            .take(rows)
            .map(|c| {
                let run = match c.clock.running {
                    Some(Side::Red) => s.red_short,
                    Some(Side::Black) => s.black_short,
                    None => " ",
                };
                Line::raw(format!(
                    " {} #{:<4} {} {:>8}  {} {:>8}  ▶{run}",
                    text::time_of_day(c.at_ms, app.utc_offset_s),
                    c.plies,
                    s.red_short,
                    format_ms(c.clock.red_ms as i64),
                    s.black_short,
                    format_ms(c.clock.black_ms as i64),
                ))
            })
            .collect()
    };
    f.render_widget(Paragraph::new(lines), inner);
}

/// The table's alerts and audit entries, newest first.
fn draw_log(f: &mut Frame, app: &App, t: &TableView, area: Rect) {
    let s = app.lang.s();
    let block = Block::bordered().title(Span::styled(format!(" {} ", s.log), theme::title()));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let mut entries: Vec<(u64, Line<'static>)> = Vec::new();
    let cols = usize::from(inner.width);
    if let Some(h) = app.hall() {
        for a in h.alerts.iter().filter(|a| a.table == t.table) {
            let text = format!(
                " {} ⚠ {}: {}",
                text::time_of_day(a.at_ms, app.utc_offset_s),
                text::alert_kind(app.lang, a.kind),
                app.lang.text(&a.text)
            );
            let style = if a.acked_by.is_some() {
                theme::dim()
            } else {
                theme::warn()
            };
            entries.push((a.at_ms, Line::styled(truncate(&text, cols), style)));
        }
        let mut audit: Vec<&proto::AuditEntry> = h
            .audit
            .iter()
            .filter(|e| e.table == Some(t.table))
            .collect();
        if let Some(log) = &app.table_log {
            for e in &log.audit {
                if !audit.iter().any(|x| x.id == e.id) {
                    audit.push(e);
                }
            }
        }
        for e in audit {
            let mut text = format!(
                " {} {}: {}",
                text::time_of_day(e.at_ms, app.utc_offset_s),
                e.who,
                text::audit_what(app.lang, e)
            );
            let style = if let Some(why) = text::audit_refused(app.lang, e) {
                text.push_str(&format!(" — {}: {why}", s.server_refused));
                theme::alarm()
            } else {
                Style::new()
            };
            entries.push((e.at_ms, Line::styled(truncate(&text, cols), style)));
        }
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.0));
    let lines: Vec<Line> = if entries.is_empty() {
        vec![Line::styled(format!(" {}", s.none), theme::dim())]
    } else {
        entries
            .into_iter()
            .skip(usize::from(app.log_scroll))
            .take(usize::from(inner.height))
            .map(|(_, l)| l)
            .collect()
    };
    f.render_widget(Paragraph::new(lines), inner);
}
