//! Drawing the terminal's screen: a pure function of [`App`].
//!
//! Layout: a title line (round, table, players, time control); the two clocks in
//! large digits (the running one highlighted, with side to move, increment,
//! moves and moves due); the board with the last move marked; the input
//! line; the status line (running / paused by whom and why / sealed /
//! result; online, or "offline — N events waiting").
//!
//! With `app.plain` (`NO_COLOR`, `--theme plain`) the drawn cells lose their
//! colours: Red's name and pieces are underlined (Black's pieces are bold
//! in both themes; 车, 马 and 炮 are the same glyph for both sides), the
//! coloured status bar is reversed, so nothing that colour told is lost.

use super::app::App;
use super::bigclock::big;
use crate::engine::Status;
use i18n::Lang;
use proto::Message;
use proto::Side;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use rulebook::{clock_text, ClockForm};
use xiangqi::Square;

/// The screen message `id` in `lang` with its arguments as written.
fn say(lang: Lang, id: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let m = args.iter().fold(Message::new(id), |m, (name, v)| {
        m.verbatim(name, v.to_string())
    });
    i18n::render(lang, &m)
}

/// A side's name in `lang` (红方 / Red / Đỏ).
fn side_name(lang: Lang, side: Side) -> String {
    i18n::term(lang, i18n::ids::side(side))
}

/// Draws `app` on the whole frame.
pub fn render(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Min(12),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .split(area);
    title(frame, rows[0], app);
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Min(30), Constraint::Length(26)])
        .split(rows[1]);
    clocks(frame, cols[0], app);
    board(frame, cols[1], app);
    input(frame, rows[2], app);
    status(frame, rows[3], app);
    if app.plain {
        strip_colour(frame);
    }
}

/// The plain theme: colours reset, meaning kept by weight and reverse video.
fn strip_colour(frame: &mut Frame) {
    for c in frame.buffer_mut().content.iter_mut() {
        if c.fg == Color::Red {
            c.modifier.insert(Modifier::UNDERLINED);
        }
        if c.bg != Color::Reset {
            c.modifier.insert(Modifier::REVERSED);
        }
        (c.fg, c.bg) = (Color::Reset, Color::Reset);
    }
}

fn title(frame: &mut Frame, area: Rect, app: &App) {
    let s = &app.screen;
    let first = app.langs[0];
    let line = Line::from(vec![
        Span::styled(
            format!(
                " {} ",
                app.two(|l| say(
                    l,
                    "table-title",
                    &[("round", &s.round), ("table", &s.table)]
                ))
            ),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::styled(
            format!("{} {} ", side_name(first, Side::Red), s.red),
            Style::new().fg(Color::Red),
        ),
        Span::raw("vs "),
        Span::styled(
            format!("{} {} ", side_name(first, Side::Black), s.black),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!("· {}", app.control)),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

fn side_clock(app: &App, side: Side) -> Vec<Line<'static>> {
    let s = &app.screen;
    let (name, ms, i) = match side {
        Side::Red => (&s.red, s.red_ms, 0),
        Side::Black => (&s.black, s.black_ms, 1),
    };
    let side_words = app.two(|l| side_name(l, side));
    let running = s.running == Some(side);
    let style = if running {
        Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    let marker = if running {
        format!("▶ {}", app.two(|l| say(l, "table-running", &[])))
    } else if s.to_move == side {
        format!("  {}", app.two(|l| say(l, "table-to-move", &[])))
    } else {
        String::new()
    };
    let mut head = vec![
        Span::styled(format!("{side_words} {name} "), style),
        Span::raw(marker),
    ];
    if let Some(v) = &s.move_limit {
        head.push(Span::styled(
            format!(" {}", crate::move_limit::side_words(v, side)),
            Style::new().fg(Color::Cyan),
        ));
    }
    let mut lines = vec![Line::from(head)];
    for row in big(&clock_text(ms, ClockForm::Short)) {
        lines.push(Line::styled(format!(" {row}"), style));
    }
    if let Some(due) = s.moves_to_go[i] {
        let words = app.two(|l| say(l, "table-moves-due", &[("due", &due)]));
        lines.push(Line::raw(format!(" {words}")));
    }
    lines
}

fn clocks(frame: &mut Frame, area: Rect, app: &App) {
    let s = &app.screen;
    let halves = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(7),
            Constraint::Length(7),
            Constraint::Min(1),
        ])
        .split(area);
    frame.render_widget(Paragraph::new(side_clock(app, Side::Red)), halves[0]);
    frame.render_widget(Paragraph::new(side_clock(app, Side::Black)), halves[1]);
    let last = match (&s.last_move, &s.last_move_text) {
        (Some(m), Some(t)) if app.langs[0] == Lang::ZhHant => {
            let mover = match s.to_move {
                Side::Red => xiangqi::Color::Black,
                Side::Black => xiangqi::Color::Red,
            };
            format!("{m} {}", xiangqi::chinese_traditional(t, mover))
        }
        (Some(m), Some(t)) => format!("{m} {t}"),
        _ => "—".into(),
    };
    let mv = s.plies / 2 + 1;
    let inc = s.increment_ms / 1000;
    let mut info = vec![Line::raw(app.two(|l| {
        let side = side_name(l, s.to_move);
        say(
            l,
            "table-info",
            &[("move", &mv), ("side", &side), ("inc", &inc)],
        )
    }))];
    // A move typed and not yet pressed: its own line, so that the two
    // languages' words are never cut off at the right.
    if let Some(m) = s.entered {
        let words = app.two(|l| say(l, "table-entered", &[("move", &m)]));
        info.push(Line::styled(
            words,
            Style::new().add_modifier(Modifier::BOLD),
        ));
    }
    info.push(Line::raw(app.two(|l| {
        say(l, "table-last", &[("plies", &s.plies), ("last", &last)])
    })));
    if let Some(n) = s.move_limit.as_ref().and_then(crate::move_limit::note) {
        info.push(Line::styled(
            n,
            Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        ));
    }
    frame.render_widget(Paragraph::new(info), halves[2]);
}

fn board(frame: &mut Frame, area: Rect, app: &App) {
    let s = &app.screen;
    let marked = |sq: Square| s.last_move.is_some_and(|m| m.from == sq || m.to == sq);
    let mut lines = Vec::with_capacity(11);
    for rank in (0..10u8).rev() {
        let mut spans = vec![Span::raw(format!("{rank} "))];
        for file in 0..9u8 {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let (text, mut style) = match s.position.piece_at(sq) {
                Some(p) => {
                    let c = match app.langs[0] {
                        // The ROC text's glyphs: 俥傌帥 / 車馬將包.
                        Lang::ZhHant => {
                            xiangqi::chinese_traditional(&p.name_zh().to_string(), p.color)
                        }
                        _ => p.name_zh().to_string(),
                    };
                    let st = if p.color == xiangqi::Color::Red {
                        Style::new().fg(Color::Red)
                    } else {
                        Style::new().add_modifier(Modifier::BOLD)
                    };
                    (c, st)
                }
                None => ("· ".to_string(), Style::new().fg(Color::DarkGray)),
            };
            if marked(sq) {
                style = style.add_modifier(Modifier::REVERSED);
            }
            let text = if text.chars().count() == 1 {
                text
            } else {
                text.trim_end().to_string() + " "
            };
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
        if rank == 5 {
            lines.push(Line::raw(match app.langs[0] {
                Lang::ZhHant => "  ──── 楚河  漢界 ────",
                _ => "  ──── 楚河  汉界 ────",
            }));
        }
    }
    lines.push(Line::raw("  a b c d e f g h i"));
    let block = Block::default().borders(Borders::LEFT);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn input(frame: &mut Frame, area: Rect, app: &App) {
    let line = Line::from(vec![
        Span::styled("move> ", Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(app.input.clone()),
        Span::styled("▏", Style::new().add_modifier(Modifier::SLOW_BLINK)),
        Span::styled(
            format!("  {}", app.two(|l| say(l, "table-keys", &[]))),
            Style::new().fg(Color::DarkGray),
        ),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// The game's state in words, in `lang`.
fn state_words(lang: Lang, status: &Status) -> String {
    match status {
        Status::Waiting => say(lang, "table-waiting", &[]),
        Status::Running => say(lang, "table-running", &[]),
        Status::Paused { by, reason } => {
            say(lang, "table-paused", &[("by", by), ("reason", reason)])
        }
        Status::Sealed { by } => say(lang, "table-sealed", &[("by", by)]),
        Status::Finished { .. } => {
            let end = status.end().unwrap_or_else(i18n::texts::no_words);
            let m = Message::new("table-game-over").arg("end", proto::Arg::Message(Box::new(end)));
            i18n::render(lang, &m)
        }
        Status::Flagged { side } => {
            let side = side_name(lang, *side);
            say(lang, "table-flag-fell", &[("side", &side)])
        }
    }
}

/// The status words for the state (also for logs and tests).
pub fn status_text(app: &App) -> String {
    let s = &app.screen;
    let state = app.two(|l| state_words(l, &s.status));
    let link = if let Some(why) = &s.link_stopped {
        let words = app.two(|l| say(l, "table-not-connected", &[("why", why)]));
        return format!("{state} · {words}");
    } else if s.online {
        if s.waiting > 0 {
            app.two(|l| say(l, "table-online-sending", &[("count", &s.waiting)]))
        } else {
            app.two(|l| say(l, "table-online", &[]))
        }
    } else {
        app.two(|l| say(l, "table-offline", &[("count", &s.waiting)]))
    };
    // The order, a control's or the server's words: in both languages.
    let note = match (&s.order, &app.notice) {
        (Some(o), _) => app.two(|l| i18n::render(l, o)),
        (None, Some(n)) => n.clone(),
        (None, None) => app.two(|l| s.message.render(l)),
    };
    if note.is_empty() {
        format!("{state} · {link}")
    } else {
        format!("{state} · {link} · {note}")
    }
}

fn status(frame: &mut Frame, area: Rect, app: &App) {
    let s = &app.screen;
    let style = match (&s.status, s.online) {
        (_, false) => Style::new().fg(Color::Black).bg(Color::Yellow),
        (Status::Paused { .. } | Status::Sealed { .. } | Status::Flagged { .. }, _) => {
            Style::new().fg(Color::White).bg(Color::Red)
        }
        _ => Style::new().fg(Color::Black).bg(Color::Green),
    };
    frame.render_widget(Paragraph::new(status_text(app)).style(style), area);
}

#[cfg(test)]
mod tests;
