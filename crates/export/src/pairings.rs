//! Printable pairings (对阵表) of a round, as one self-contained A4 HTML
//! page (inline CSS with `@page { size: A4 }`, no script), in Chinese and
//! English like the other exports: the boards by table (what the hall
//! posts at the entrance) and every player by name with their table and
//! colour (so each finds their table), page-broken between the two. The
//! round comes from the config with the rounds published from the console
//! added (`crate::published`), so a round can be printed once published,
//! before any game of it is played. Registration ids are not printed
//! (the TRF, for the arbiters, carries them).
//!
//! With a hall language (`[tournament] language`, `caipan export --lang`)
//! the page is in that language with English beside it ("printable
//! pairings in the hall's language plus English", issue 33): 按台次 By
//! table becomes `Theo bàn By table` under vi (`crate::words`).

use std::fmt::Write as _;

use config::{HallConfig, Pairing};

use crate::html::escape;
use crate::words::{html_lang, message_with_english, with_english};
use crate::ExportError;
use i18n::Lang;
use proto::Message;

const STYLE: &str = "@page{size:A4;margin:15mm}\
body{font-family:system-ui,'Noto Sans CJK SC','Microsoft YaHei',sans-serif;margin:0;color:#000;font-size:11pt}\
h1{font-size:16pt;margin:0 0 .2em}h2{font-size:13pt;margin:.8em 0 .3em}p{margin:0 0 .5em}\
table{border-collapse:collapse;width:100%}th,td{border:1px solid #555;padding:.2em .4em;text-align:left}\
th{background:#eee}td.no{text-align:center;width:4em}thead{display:table-header-group}tr{page-break-inside:avoid}\
section.by-name{page-break-before:always}";

/// The HTML page of round `round`'s pairings, in `lang` with English
/// beside it (`None`: Chinese and English, as before the hall had a
/// language).
pub fn to_html(config: &HallConfig, round: u32, lang: Option<Lang>) -> Result<String, ExportError> {
    let r = config.round(round).ok_or_else(|| ExportError::NoRound {
        round,
        detail: format!(
            "no pairing for it (the hall has rounds {})",
            config
                .rounds
                .iter()
                .map(|r| r.number.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })?;
    let t = &config.tournament;
    let title = match lang {
        None => format!("{} · 第{round}轮对阵 Round {round} pairings", t.name),
        Some(l) => format!(
            "{} · {}",
            t.name,
            message_with_english(
                l,
                &Message::new("export-round-pairings").int("round", round)
            )
        ),
    };
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"{}\">\n<head>",
        html_lang(lang)
    );
    h.push_str("<meta charset=\"utf-8\"/>\n");
    let _ = writeln!(h, "<title>{}</title>", escape(&title));
    let _ = writeln!(h, "<style>{STYLE}</style>\n</head>\n<body>");
    let when = [
        r.date.clone().unwrap_or_else(|| t.date.clone()),
        r.start.clone().unwrap_or_default(),
    ]
    .join(" ");
    let header = format!(
        "<h1>{}</h1>\n<p>{} · {}</p>\n",
        escape(&title),
        escape(&t.site),
        escape(when.trim())
    );
    h.push_str("<section class=\"by-table\">\n");
    h.push_str(&header);
    push_by_table(&mut h, &r.tables, lang);
    h.push_str("</section>\n<section class=\"by-name\">\n");
    h.push_str(&header);
    push_by_name(&mut h, &r.tables, lang);
    let boards = match lang {
        None => format!("{} boards 台", r.tables.len()),
        Some(l) => message_with_english(
            l,
            &Message::new("export-boards").int("boards", r.tables.len() as i64),
        ),
    };
    let _ = writeln!(
        h,
        "</section>\n<footer><p>caipan 裁判 · {} · {}</p></footer>\n</body>\n</html>",
        escape(&t.name),
        escape(&boards)
    );
    Ok(h)
}

/// A heading row of the pairings' tables: `(today's words, id)` per column.
fn push_head(h: &mut String, lang: Option<Lang>, columns: &[(&str, &str)]) {
    h.push_str("<table>\n");
    crate::html::push_head_with(h, columns, |today, id| with_english(lang, today, id));
}

fn push_by_table(h: &mut String, boards: &[Pairing], lang: Option<Lang>) {
    let _ = writeln!(
        h,
        "<h2>{}</h2>",
        escape(&with_english(lang, "按台次 By table", "export-by-table"))
    );
    push_head(
        h,
        lang,
        &[
            ("台 Table", "export-col-table"),
            ("红方 Red", "export-col-red"),
            ("黑方 Black", "export-col-black"),
        ],
    );
    let mut boards: Vec<&Pairing> = boards.iter().collect();
    boards.sort_by_key(|b| b.table);
    for b in boards {
        let _ = writeln!(
            h,
            "<tr><td class=\"no\">{}</td><td>{}</td><td>{}</td></tr>",
            b.table,
            escape(&b.red),
            escape(&b.black)
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

/// Every player, sorted by name (Unicode order: pinyin order needs a
/// collation table the build does not carry), with table, colour and
/// opponent.
fn push_by_name(h: &mut String, boards: &[Pairing], lang: Option<Lang>) {
    let _ = writeln!(
        h,
        "<h2>{}</h2>",
        escape(&with_english(lang, "按姓名 By name", "export-by-name"))
    );
    push_head(
        h,
        lang,
        &[
            ("姓名 Name", "export-col-name"),
            ("台 Table", "export-col-table"),
            ("执 Colour", "export-col-colour"),
            ("对手 Opponent", "export-col-opponent"),
        ],
    );
    let red = escape(&with_english(lang, "红 Red", "export-col-red"));
    let black = escape(&with_english(lang, "黑 Black", "export-col-black"));
    let mut rows: Vec<(&str, u32, bool, &str)> = boards
        .iter()
        .flat_map(|b| {
            [
                // Red sorts first, as 红 before 黑 did.
                (b.red.as_str(), b.table, false, b.black.as_str()),
                (b.black.as_str(), b.table, true, b.red.as_str()),
            ]
        })
        .collect();
    rows.sort();
    for (name, table, is_black, opponent) in rows {
        let colour = if is_black { &black } else { &red };
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"no\">{table}</td><td>{colour}</td><td>{}</td></tr>",
            escape(name),
            escape(opponent)
        );
    }
    h.push_str("</tbody>\n</table>\n");
}
