//! The follower's pages (观众页面), rendered on the server so that they read
//! without JavaScript (text first: names, moves as text, clocks, results
//! in words, for screen readers too): `/` every board, `/board/T` one
//! board with its whole move list, `/pairings`, and `/display` for the
//! hall's big screen. The page's script (`assets/app.js`) then draws the
//! boards and follows `/events`. Every peer or config text is escaped
//! (`html::esc`).

use std::fmt::Write as _;

use hall::public::{PublicGame, PublicStatus};

use crate::html::{esc, json_in_script};
use crate::notation::Notation;
use crate::view::View;
use crate::words::Words;

/// What a page shows and how.
#[derive(Debug, Clone)]
pub struct Choice {
    /// The words of the chosen language.
    pub words: Words,
    /// The chosen notation.
    pub notation: Notation,
    /// Server time (Unix ms) of the rendering, for the script's clocks.
    pub now_ms: u64,
    /// The broadcast's delay (ms): what is shown is this much behind.
    pub delay_ms: u64,
}

impl Choice {
    /// The query string of this choice (`?lang=en&notation=wxf`).
    fn query(&self) -> String {
        format!(
            "?lang={}&notation={}",
            self.words.lang.tag(),
            self.notation.key()
        )
    }
}

/// Which page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// `/`.
    Index,
    /// `/board/T`.
    Board(u16),
    /// `/pairings`.
    Pairings,
    /// `/display`.
    Display,
}

impl Page {
    fn path(self) -> String {
        match self {
            Page::Index => "/".into(),
            Page::Board(t) => format!("/board/{t}"),
            Page::Pairings => "/pairings".into(),
            Page::Display => "/display".into(),
        }
    }

    fn mode(self) -> &'static str {
        match self {
            Page::Index => "index",
            Page::Board(_) => "board",
            Page::Pairings => "pairings",
            Page::Display => "display",
        }
    }
}

/// A clock as text: `h:mm:ss`, or `m:ss` under an hour.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The page `page` of view `v` (`None`: a board the round does not have).
pub fn render(v: &View, page: Page, c: &Choice) -> Option<String> {
    let w = &c.words;
    let mut body = String::new();
    match page {
        Page::Index => {
            body.push_str("<main id=\"boards\" class=\"boards\">");
            for g in v.all() {
                game(&mut body, v, g, c, false);
            }
            body.push_str("</main>");
            feeds(&mut body, v, w);
        }
        Page::Board(t) => {
            let g = v.board(t)?;
            body.push_str("<main id=\"boards\" class=\"boards single\">");
            game(&mut body, v, g, c, true);
            body.push_str("</main>");
        }
        Page::Pairings => {
            body.push_str("<main>");
            results_table(&mut body, v, w, "pairings");
            body.push_str("</main>");
        }
        Page::Display => {
            body.push_str("<main class=\"display\">");
            body.push_str("<section id=\"before\">");
            results_table(&mut body, v, w, "pairings");
            body.push_str("</section><section id=\"boards\" class=\"boards\">");
            for g in v.all() {
                game(&mut body, v, g, c, false);
            }
            body.push_str("</section><section id=\"after\">");
            results_table(&mut body, v, w, "results");
            body.push_str("</section></main>");
        }
    }
    Some(frame(v, page, c, &body))
}

/// The document around `body`: head, header with the choices, the words
/// for the script.
fn frame(v: &View, page: Page, c: &Choice, body: &str) -> String {
    let w = &c.words;
    let t = &v.config.tournament;
    let title = format!("{} — {}", t.name, w.round(v.round));
    let mut out = String::with_capacity(body.len() + 4096);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
         <body class=\"{mode}\" data-mode=\"{mode}\" data-lang=\"{lang}\" data-notation=\"{n}\" \
         data-now=\"{now}\" data-delay=\"{delay}\" data-round=\"{round}\">",
        lang = w.lang.tag(),
        title = esc(&title),
        mode = page.mode(),
        n = c.notation.key(),
        now = c.now_ms,
        delay = c.delay_ms,
        round = v.round,
    );
    let _ = write!(
        out,
        "<header><h1>{}</h1><p class=\"sub\">{} · {} <span id=\"live\" class=\"live\" hidden>● {}</span></p>",
        esc(&t.name),
        esc(&t.site),
        esc(&w.round(v.round)),
        esc(w.t("live"))
    );
    if page != Page::Display {
        nav(&mut out, page, c);
    }
    out.push_str("</header>");
    out.push_str(body);
    let _ = writeln!(
        out,
        "<script id=\"words\" type=\"application/json\">{}</script>\
         <script src=\"/assets/app.js\" defer></script></body></html>",
        json_in_script(&w.to_json())
    );
    out
}

/// Links: the pages, the languages, the notations.
fn nav(out: &mut String, page: Page, c: &Choice) {
    let w = &c.words;
    let q = esc(&c.query());
    let _ = write!(
        out,
        "<nav><a href=\"/{q}\">{}</a> <a href=\"/pairings{q}\">{}</a> <a href=\"/display{q}\">{}</a></nav>",
        esc(w.t("boards")),
        esc(w.t("pairings")),
        esc(w.t("display"))
    );
    let path = page.path();
    let _ = write!(
        out,
        "<nav class=\"choices\"><span>{}:</span>",
        esc(w.t("language"))
    );
    for lang in i18n::Lang::ALL {
        let cur = if lang == w.lang {
            " aria-current=\"true\""
        } else {
            ""
        };
        let _ = write!(
            out,
            " <a class=\"lang\" data-lang=\"{tag}\" href=\"{path}?lang={tag}&amp;notation={n}\"{cur}>{name}</a>",
            tag = lang.tag(),
            n = c.notation.key(),
            name = esc(lang.native_name())
        );
    }
    let _ = write!(out, " <span>{}:</span>", esc(w.t("notation")));
    for n in Notation::ALL {
        let cur = if n == c.notation {
            " aria-current=\"true\""
        } else {
            ""
        };
        let label = match n {
            Notation::Chinese => "中文",
            Notation::Wxf => "WXF",
            Notation::Iccs => "ICCS",
        };
        let _ = write!(
            out,
            " <a class=\"notation\" data-notation=\"{k}\" href=\"{path}?lang={tag}&amp;notation={k}\"{cur}>{label}</a>",
            k = n.key(),
            tag = w.lang.tag(),
        );
    }
    out.push_str("</nav>");
}

/// One board: names, clocks, status in words, the board's place, moves.
fn game(out: &mut String, v: &View, g: &PublicGame, c: &Choice, open: bool) {
    let w = &c.words;
    let texts = v.texts_of(g.table);
    let hant = w.lang == i18n::Lang::ZhHant;
    let running = |s| {
        if g.clock.running == Some(s) {
            " running"
        } else {
            ""
        }
    };
    let _ = write!(
        out,
        "<article class=\"game\" id=\"t{t}\" data-table=\"{t}\">\
         <h2><a href=\"/board/{t}{q}\">{label}</a></h2>\
         <p class=\"players\"><span class=\"name red\">{rl}: {red}</span> <span class=\"vs\">–</span> \
         <span class=\"name black\">{bl}: {black}</span></p>\
         <p class=\"clocks\"><span class=\"clock red{rr}\" data-side=\"red\">{rc}</span> \
         <span class=\"clock black{br}\" data-side=\"black\">{bc}</span></p>\
         <p class=\"status {st}\" aria-live=\"polite\">{status}</p>\
         <div class=\"board\" aria-hidden=\"true\"></div>\
         <details class=\"moves\"{open}><summary>{moves} (<span class=\"count\">{n}</span>)</summary><ol>",
        t = g.table,
        q = esc(&c.query()),
        label = esc(&w.table(g.table)),
        rl = esc(w.t("red")),
        bl = esc(w.t("black")),
        red = esc(&g.red),
        black = esc(&g.black),
        rr = running(proto::Side::Red),
        br = running(proto::Side::Black),
        rc = clock_text(g.clock.red_ms),
        bc = clock_text(g.clock.black_ms),
        st = g.status.as_str(),
        status = esc(&w.status(g.status)),
        open = if open { " open" } else { "" },
        moves = esc(w.t("moves")),
        n = g.moves.len(),
    );
    for i in 0..g.moves.len() {
        let _ = write!(
            out,
            "<li>{}</li>",
            esc(&texts.get(c.notation, i, &g.moves, hant))
        );
    }
    out.push_str("</ol></details></article>");
}

/// The round's tables: pairings with results (`id` names the section).
fn results_table(out: &mut String, v: &View, w: &Words, id: &str) {
    let _ = write!(
        out,
        "<h2>{}</h2><table id=\"{id}\" class=\"pairings\"><thead><tr><th>#</th><th>{}</th><th></th><th>{}</th></tr></thead><tbody>",
        esc(if id == "results" { w.t("results") } else { w.t("pairings") }),
        esc(w.t("red")),
        esc(w.t("black"))
    );
    for g in v.all() {
        let p = v.config.pairing(u32::from(g.table));
        let team = |t: Option<&String>| {
            t.map(|t| format!(" <small>({})</small>", esc(t)))
                .unwrap_or_default()
        };
        let result = match g.status {
            PublicStatus::Finished { .. } => crate::render::result_token(g.status),
            _ => "–",
        };
        let _ = write!(
            out,
            "<tr data-table=\"{t}\"><td>{t}</td><td>{red}{rt}</td><td class=\"result\" title=\"{words}\">{result}</td><td>{black}{bt}</td></tr>",
            t = g.table,
            red = esc(&g.red),
            rt = team(p.and_then(|p| p.red_team.as_ref())),
            black = esc(&g.black),
            bt = team(p.and_then(|p| p.black_team.as_ref())),
            words = esc(&w.status(g.status)),
        );
    }
    out.push_str("</tbody></table>");
}

/// The links for relays and apps.
fn feeds(out: &mut String, v: &View, w: &Words) {
    let r = v.round;
    let _ = write!(
        out,
        "<footer><h2>{}</h2><ul>\
         <li><a href=\"/round/{r}.pgn\">/round/{r}.pgn</a> — PGN</li>\
         <li><a href=\"/round/{r}/index.json\">/round/{r}/index.json</a> — DGT</li>\
         <li><a href=\"/state.json\">/state.json</a></li>\
         <li><a href=\"/pairings.json\">/pairings.json</a></li>\
         <li><a href=\"/events\">/events</a> — Server-Sent Events</li></ul></footer>",
        esc(w.t("feeds"))
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_a_clock() {
        assert_eq!(clock_text(4_800_000), "1:20:00");
        assert_eq!(clock_text(59_999), "0:59");
        assert_eq!(clock_text(3_599_000), "59:59");
    }
}
