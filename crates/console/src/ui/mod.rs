//! Rendering (绘制): a pure function from [`App`] to a frame.
//!
//! `draw` never changes the state: every position, scroll offset and clock
//! it shows is computed from the `App` (and its `now_ms`). Screens: the hall
//! overview (with alert and claim panels beside it on a large screen),
//! alerts, the claims queue, a table's detail, plus the help overlay and
//! dialogs on top. Tested with ratatui's `TestBackend` and insta snapshots
//! (`tests/render.rs`). A console over several halls shows the hall column,
//! labels alerts and claims with their hall, names the halls and their
//! roles in the title and the hall filter (`H`) in the status line.

mod alerts;
mod board;
mod claims;
mod detail;
mod dialog;
mod hall;
mod help;
mod round;
pub mod text;
pub mod theme;

use crate::app::{App, ConnState, View};
use crate::i18n::Words;
use crate::width::{pad_right, truncate, width};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Width from which the hall overview gets side panels (alerts, claims).
pub const WIDE: u16 = 150;

/// Draws the whole console.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    let banner = banner_line(app);
    let ticker = app.view == View::Hall && area.width < WIDE;
    let [top, ban, body, tick, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(u16::from(banner.is_some())),
        Constraint::Min(1),
        Constraint::Length(u16::from(ticker)),
        Constraint::Length(1),
    ])
    .areas(area);
    f.render_widget(Paragraph::new(title_line(app, top.width)), top);
    if let Some(b) = banner {
        f.render_widget(Paragraph::new(b).style(banner_style(app)), ban);
    }
    match app.view {
        View::Hall => {
            if area.width >= WIDE {
                let [left, right] =
                    Layout::horizontal([Constraint::Min(80), Constraint::Length(64)]).areas(body);
                hall::draw(f, app, left);
                let [a, c] =
                    Layout::vertical([Constraint::Percentage(45), Constraint::Min(6)]).areas(right);
                alerts::draw_panel(f, app, a);
                claims::draw_panel(f, app, c);
            } else {
                hall::draw(f, app, body);
            }
        }
        View::Alerts => alerts::draw(f, app, body),
        View::Claims => claims::draw(f, app, body),
        View::Detail(t) => detail::draw(f, app, body, t),
        View::Round => round::draw(f, app, body),
    }
    if ticker {
        f.render_widget(Paragraph::new(alerts::ticker(app, tick.width)), tick);
    }
    f.render_widget(Paragraph::new(status_line(app, bottom.width)), bottom);
    if app.help {
        help::draw(f, app, area);
    }
    if let Some(d) = &app.dialog {
        dialog::draw(f, app, d, area);
    }
    if app.theme == theme::Theme::Plain {
        theme::make_plain(f.buffer_mut());
    }
}

fn banner_style(app: &App) -> ratatui::style::Style {
    if app.links.iter().all(|l| l.conn == ConnState::Connected) {
        theme::paused_banner()
    } else {
        theme::banner()
    }
}

/// The banner under the title: a link is down, or a hall is paused (the
/// first such hall; named when the console follows several).
fn banner_line(app: &App) -> Option<Line<'static>> {
    let s = app.lang.s();
    for (i, l) in app.links.iter().enumerate() {
        let text = match &l.conn {
            _ if l.paging.progress().is_some() => {
                let (n, m) = l.paging.progress().unwrap_or_default();
                format!("{} {n}/{m} …", s.loading)
            }
            ConnState::Connected => continue,
            ConnState::Connecting { attempt } if l.hall.is_none() && *attempt <= 1 => {
                format!("{} …", s.connecting)
            }
            ConnState::Connecting { attempt } => {
                let why = l
                    .last_error
                    .as_ref()
                    .map(|e| e.text(app.lang))
                    .unwrap_or_default();
                format!("⚠ {} ({attempt}) {why}", s.disconnected)
            }
            ConnState::Disconnected { attempt, error } => {
                format!("⚠ {} ({attempt}): {}", s.disconnected, error.text(app.lang))
            }
            ConnState::Refused { error } => {
                format!("⛔ {}: {}", s.refused_for_good, error.text(app.lang))
            }
        };
        return Some(Line::from(format!(" {}", app.at_hall(i, &text))));
    }
    let (i, p) = app.links.iter().enumerate().find_map(|(i, l)| {
        let p = l.hall.as_ref()?.paused.as_ref()?;
        Some((i, p))
    })?;
    let mut text = format!("‖ {} — {}", s.hall_paused, p.by);
    if !p.reason.is_empty() {
        text.push_str(": ");
        text.push_str(&p.reason);
    }
    Some(Line::from(format!(" {}", app.at_hall(i, &text))))
}

/// A role in words: `chief arbiter`, `deputy 李四`, ….
fn role_label(s: &crate::i18n::Strings, role: Option<&proto::Role>) -> String {
    match role {
        Some(proto::Role::Chief) => s.chief.to_string(),
        Some(proto::Role::Deputy { name, .. }) => format!("{} {name}", s.deputy),
        Some(proto::Role::Viewer) => s.viewer.to_string(),
        Some(proto::Role::Table { table }) => format!("{} {table}", s.table),
        None => String::new(),
    }
}

/// The title bar: product, tournament and round, role, screen, time.
fn title_line(app: &App, cols: u16) -> Line<'static> {
    let s = app.lang.s();
    let screen = match app.view {
        View::Hall => s.hall.to_string(),
        View::Alerts => s.alerts.to_string(),
        View::Claims => s.claims.to_string(),
        View::Detail(t) => app.at_hall(app.focus, &format!("{} {t}", s.table)),
        View::Round => crate::i18n::word(app.lang, "console-round-title").to_string(),
    };
    let mut left = format!(" {} · {screen}", s.title);
    // The tournament and round (over several halls: when all agree).
    let first = app.links.first().and_then(|l| l.hall.as_ref());
    let agree = app.links.iter().all(|l| {
        l.hall.as_ref().is_some_and(|h| {
            first.is_some_and(|f| (&f.tournament, f.round) == (&h.tournament, h.round))
        })
    });
    if let (Some(h), true) = (app.hall(), agree) {
        left.push_str(&format!(" · {} · {} {}", h.tournament, s.round, h.round));
    }
    if app.multi() {
        // Each hall with the role there (a deputy's tables are per hall).
        for l in &app.links {
            let role = role_label(s, l.role.as_ref());
            left.push_str(&format!(
                " · {}: {}",
                l.name,
                if role.is_empty() { "…" } else { &role }
            ));
        }
    } else {
        let role = role_label(s, app.role());
        if !role.is_empty() {
            left.push_str(&format!(" · {role}"));
        }
    }
    let clock = if app.hall().is_some() {
        text::time_of_day(app.server_now_ms(), app.utc_offset_s)
    } else {
        String::new()
    };
    let cols = usize::from(cols);
    let room = cols.saturating_sub(width(&clock) + 1);
    let left = pad_right(&truncate(&left, room), room);
    Line::from(vec![
        Span::styled(left, theme::title()),
        Span::styled(format!("{clock} "), theme::title()),
    ])
}

/// The bottom line: a notice, or key hints; sort and filter on the right.
fn status_line(app: &App, cols: u16) -> Line<'static> {
    let s = app.lang.s();
    let cols = usize::from(cols);
    let mut right = String::new();
    if app.multi() && app.view != View::Hall && !matches!(app.view, View::Detail(_)) {
        right = format!("{} ", hall_filter_label(app));
    }
    if app.view == View::Hall {
        right = format!("{}: {}", s.sort, app.sort.label(s));
        if app.multi() {
            right = format!("{} · {right}", hall_filter_label(app));
        }
        if !app.filter.is_empty() {
            right.push_str(&format!(" · {}: {}", s.filter, app.filter));
        }
        let shown = crate::app::visible_count(app);
        let total: usize = app
            .links
            .iter()
            .enumerate()
            .filter(|(i, _)| app.shows_hall(*i))
            .filter_map(|(_, l)| l.hall.as_ref())
            .map(|h| h.tables.len())
            .sum();
        right.push_str(&format!(" · {shown}/{total} "));
    }
    let room = cols.saturating_sub(width(&right));
    if let Some(n) = &app.notice {
        let style = if n.error { theme::alarm() } else { theme::ok() };
        return Line::from(vec![
            Span::styled(pad_right(&format!(" {}", n.text), room), style),
            Span::styled(right, theme::dim()),
        ]);
    }
    let hints = hints(app);
    let mut spans = Vec::new();
    let mut used = 1;
    spans.push(Span::raw(" "));
    for (key, what) in hints {
        let w = width(key) + 1 + width(what) + 2;
        if used + w > room {
            break;
        }
        spans.push(Span::styled(key.to_string(), theme::key()));
        spans.push(Span::raw(format!(" {what}  ")));
        used += w;
    }
    spans.push(Span::raw(" ".repeat(room.saturating_sub(used))));
    spans.push(Span::styled(right, theme::dim()));
    Line::from(spans)
}

/// `H`'s hall filter in words: `H: all halls` or `H: B`.
fn hall_filter_label(app: &App) -> String {
    let s = app.lang.s();
    match app.hall_filter {
        None => format!("H {}: {}", s.hall_col, s.all_halls),
        Some(h) => format!("H {}: {}", s.hall_col, app.hall_name(h)),
    }
}

/// Key hints for the current screen, most useful first.
fn hints(app: &App) -> Vec<(&'static str, &'static str)> {
    use crate::perm::Action;
    let t = |id: &'static str| crate::i18n::word(app.lang, id);
    // Offered when the role in any hall may.
    let offers = |action: Action| {
        app.links
            .iter()
            .any(|l| crate::perm::offers(l.role.as_ref(), action))
    };
    let mut v = vec![("?", t("console-hint-help"))];
    match app.view {
        View::Hall => {
            v.push(("⏎", t("console-hint-open")));
            if app.multi() {
                v.push(("H", t("console-hint-hall")));
            }
            v.push(("/", t("console-hint-filter")));
            v.push(("s", t("console-hint-sort")));
            v.push(("g", t("console-hint-goto")));
            v.push(("c", t("console-hint-claims")));
            v.push(("a", t("console-hint-alerts")));
            if offers(Action::PauseTable) {
                v.push(("p", t("console-hint-pause")));
            }
        }
        View::Alerts => {
            if offers(Action::AckAlert) {
                v.push(("x", t("console-hint-ack")));
            }
            v.push(("⏎", t("console-hint-open-table")));
            v.push(("Esc", t("console-hint-hall")));
        }
        View::Claims => {
            if offers(Action::RuleOnClaim) {
                v.push(("y", t("console-hint-accept")));
                v.push(("o", t("console-hint-override")));
            }
            if offers(Action::EscalateClaim) {
                v.push(("e", t("console-hint-escalate")));
            }
            v.push(("⏎", t("console-hint-open-table")));
            v.push(("Esc", t("console-hint-hall")));
        }
        View::Detail(_) => {
            if offers(Action::PauseTable) {
                v.push(("p", t("console-hint-pause")));
                v.push(("S", t("console-hint-seal")));
                v.push(("f", t("console-hint-foul")));
                v.push(("t", t("console-hint-clock")));
                v.push(("r", t("console-hint-result")));
            }
            v.push(("n", t("console-hint-notation")));
            v.push(("Esc", t("console-hint-hall")));
        }
        View::Round => {
            v.push(("w", t("console-hint-swap")));
            v.push(("x", t("console-hint-exchange")));
            v.push(("P", t("console-hint-publish")));
            v.push(("Esc", t("console-hint-hall")));
        }
    }
    v.push(("q", t("console-hint-quit")));
    v
}

/// A centred rectangle of at most `w` x `h` inside `area`.
pub(crate) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}
