//! Drawing the terminal's screen: a pure function of [`App`].
//!
//! Layout: a title line (table, players, time control); the two clocks in
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
use proto::Side;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use rulebook::{clock_text, ClockForm};
use xiangqi::Square;

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
    let line = Line::from(vec![
        Span::styled(
            format!(" 第{}台 table {} ", s.table, s.table),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::styled(format!("红 {} ", s.red), Style::new().fg(Color::Red)),
        Span::raw("vs "),
        Span::styled(
            format!("黑 {} ", s.black),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!("· {}", app.control)),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

fn side_clock(app: &App, side: Side) -> Vec<Line<'static>> {
    let s = &app.screen;
    let (name, ms, zh, i) = match side {
        Side::Red => (&s.red, s.red_ms, "红方", 0),
        Side::Black => (&s.black, s.black_ms, "黑方", 1),
    };
    let running = s.running == Some(side);
    let style = if running {
        Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    let marker = if running {
        "▶ running"
    } else if s.to_move == side {
        "  to move"
    } else {
        ""
    };
    let mut head = vec![
        Span::styled(format!("{zh} {name} "), style),
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
        lines.push(Line::raw(format!(" {due} moves due by the next control")));
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
    let to_move = format!("{} ({})", s.to_move, s.to_move.name_zh());
    let last = match (&s.last_move, &s.last_move_text) {
        (Some(m), Some(t)) => format!("{m} {t}"),
        _ => "—".into(),
    };
    let entered = s
        .entered
        .map(|m| format!(" · entered {m}: press the clock"))
        .unwrap_or_default();
    let mut info = vec![
        Line::raw(format!(
            "move {} · {} to move · +{} s per move",
            s.plies / 2 + 1,
            to_move,
            s.increment_ms / 1000
        )),
        Line::raw(format!("plies {} · last move {last}{entered}", s.plies)),
    ];
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
                    let c = p.name_zh().to_string();
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
            lines.push(Line::raw("  ──── 楚河  汉界 ────"));
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
            "  Enter: enter move · Space: press · F1 start F2 limit F3 rep F4 draw F5 accept F7 arbiter · :resign",
            Style::new().fg(Color::DarkGray),
        ),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// The status words for the state (also for logs and tests).
pub fn status_text(app: &App) -> String {
    let s = &app.screen;
    let state = match &s.status {
        Status::Waiting => "waiting for the start (F1 starts the clock)".to_string(),
        Status::Running => "running".to_string(),
        Status::Paused { by, reason } => format!("PAUSED by {by}: {reason}"),
        Status::Sealed { by } => format!("SEALED (adjourned) by {by}"),
        Status::Finished { result, reason } => {
            let r = match result {
                proto::GameResult::RedWins => "Red wins 红胜",
                proto::GameResult::BlackWins => "Black wins 黑胜",
                proto::GameResult::Draw => "draw 和棋",
                proto::GameResult::BothLose => "both lose",
            };
            format!("GAME OVER: {r} ({reason})")
        }
        Status::Flagged { side } => format!("FLAG FELL: {} — the arbiter rules", side.name_en()),
    };
    let link = if let Some(why) = &s.link_stopped {
        return format!("{state} · NOT CONNECTED: {why}");
    } else if s.online {
        if s.waiting > 0 {
            format!("online · {} sending", s.waiting)
        } else {
            "online".to_string()
        }
    } else {
        format!("offline — {} events waiting", s.waiting)
    };
    let note = match &s.order {
        Some(o) => o.as_str(),
        None => app.notice.as_deref().unwrap_or(&s.message),
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
