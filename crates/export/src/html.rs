//! A static HTML page (成绩公告) with the round's results, the standings
//! after the round, team standings in team events, and a crosstable; one
//! self-contained UTF-8 file (inline CSS, no script), written as
//! well-formed XHTML-style markup (every element closed, attributes quoted,
//! text escaped) so that it also parses as XML.
//!
//! Without a language (`lang` `None`) the page is worded as it always
//! was, Chinese and English side by side; with one (`caipan export
//! --lang`, `[tournament] language`) its headings, column heads and the
//! end reasons are in that language (`crate::words`), names as written.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::game::PlayedGame;
use super::results::{result_token, rows_in};
use super::standings::{half, rulebook_result, tie_break_words, Standings, TeamRow};
use crate::words::{head, html_lang};
use config::HallConfig;
use i18n::Lang;
use proto::Message;

/// Escapes text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than tab/newline are not allowed in XML.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,'Noto Sans CJK SC','Microsoft YaHei',sans-serif;margin:1.5em;color:#222}\
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #bbb;padding:.25em .5em;text-align:center}\
th{background:#f3efe6}td.name{text-align:left}td.self{background:#ddd}.red{color:#b00}\
caption{text-align:left;font-weight:bold;padding:.3em 0}footer{margin-top:2em;font-size:.85em;color:#666}";

/// A table head row: `(today's words, catalogue id)` per column, each
/// worded by `word` (`crate::words::head` or `with_english`).
pub(crate) fn push_head_with(
    h: &mut String,
    columns: &[(&str, &str)],
    word: impl Fn(&str, &str) -> String,
) {
    h.push_str("<thead><tr>");
    for (today, id) in columns {
        let _ = write!(h, "<th>{}</th>", escape(&word(today, id)));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
}

/// A table head row in the page's language.
fn push_head(h: &mut String, lang: Option<Lang>, columns: &[(&str, &str)]) {
    push_head_with(h, columns, |today, id| head(lang, today, id));
}

/// The round's results table.
fn push_results(h: &mut String, round_games: &[PlayedGame], lang: Option<Lang>) {
    let _ = writeln!(
        h,
        "<h2>{}</h2>\n<table>",
        escape(&head(lang, "本轮成绩 Results", "export-results"))
    );
    push_head(
        h,
        lang,
        &[
            ("台 Table", "export-col-table"),
            ("红方 Red", "export-col-red"),
            ("结果 Result", "export-col-result"),
            ("黑方 Black", "export-col-black"),
            ("原因 Reason", "export-col-reason"),
            ("回合 Moves", "export-col-moves"),
        ],
    );
    for r in rows_in(round_games, lang) {
        let reason = match r.reason_text {
            Some(text) => text,
            None => format!("{} {}", r.reason_zh, r.reason),
        };
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"name red\">{}</td><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td></tr>",
            r.table,
            escape(&r.red),
            escape(&r.result),
            escape(&r.black),
            escape(&reason),
            r.moves
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

/// The standings' heading, their scoring and tie-break line, and the
/// rounds left out.
fn push_standings_intro(h: &mut String, round: u32, standings: &Standings, lang: Option<Lang>) {
    let order = match lang {
        None => standings.tie_break_order.join(" → "),
        Some(_) => standings
            .tie_breaks
            .iter()
            .map(|t| tie_break_words(*t, lang))
            .collect::<Vec<_>>()
            .join(" → "),
    };
    match lang {
        None => {
            let _ = writeln!(
                h,
                "<h2>第{round}轮后排名 Standings after round {round}</h2>\n<p>积分 Points 2/1/0; 同分依次比较 tie-breaks ({}): {}</p>",
                escape(&standings.rule_id),
                escape(&order)
            );
        }
        Some(l) => {
            let title = Message::new("export-standings-after").int("round", round);
            let points = Message::new("export-points-tie-breaks")
                .verbatim("rule", &standings.rule_id)
                .verbatim("order", &order);
            let _ = writeln!(
                h,
                "<h2>{}</h2>\n<p>{}</p>",
                escape(&i18n::render(l, &title)),
                escape(&i18n::render(l, &points))
            );
        }
    }
    if !standings.missing_rounds.is_empty() {
        let m: Vec<String> = standings
            .missing_rounds
            .iter()
            .map(u32::to_string)
            .collect();
        let text = match lang {
            None => format!("Rounds not in this data dir (left out): {}", m.join(", ")),
            Some(l) => i18n::render(
                l,
                &Message::new("export-rounds-left-out").verbatim("rounds", m.join(", ")),
            ),
        };
        let _ = writeln!(h, "<p>{}</p>", escape(&text));
    }
}

/// The standings after the round, with the tie-break order.
fn push_standings(h: &mut String, round: u32, standings: &Standings, lang: Option<Lang>) {
    push_standings_intro(h, round, standings, lang);
    h.push_str("<table>\n");
    push_head(
        h,
        lang,
        &[
            ("名次 Rank", "export-col-rank"),
            ("姓名 Player", "export-col-player"),
            ("积分 Points", "export-col-points"),
            ("局 Games", "export-col-games"),
            ("胜 W", "export-col-wins"),
            ("和 D", "export-col-draws"),
            ("负 L", "export-col-losses"),
            ("对手分 Opp.", "export-col-opponents"),
            ("后胜 Black wins", "export-col-black-wins"),
            ("犯规 Fouls", "export-col-fouls"),
            ("区分 Decided by", "export-col-decided-by"),
        ],
    );
    for r in &standings.players {
        let opp = match standings.system {
            rulebook::standings::EventSystem::RoundRobin => half(r.opponent_score_beaten_x2),
            _ => r.opponent_score_all.to_string(),
        };
        let _ = writeln!(
            h,
            "<tr><td>{}{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.rank,
            if r.shared { "=" } else { "" },
            escape(standings.name_of(&r.player)),
            r.points,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            opp,
            r.black_wins,
            r.technical_fouls,
            escape(
                &r.decided_by
                    .map(|t| tie_break_words(t, lang))
                    .unwrap_or_default()
            )
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

/// The team standings table.
fn push_team_standings(h: &mut String, teams: &[TeamRow], lang: Option<Lang>) {
    let _ = writeln!(
        h,
        "<h2>{}</h2>\n<table>",
        escape(&head(
            lang,
            "团体排名 Team standings",
            "export-team-standings"
        ))
    );
    push_head(
        h,
        lang,
        &[
            ("名次 Rank", "export-col-rank"),
            ("队 Team", "export-col-team"),
            ("场分 Match points", "export-col-match-points"),
            ("局分 Board points", "export-col-board-points"),
            ("场 Matches", "export-col-matches"),
            ("胜 W", "export-col-wins"),
            ("和 D", "export-col-draws"),
            ("负 L", "export-col-losses"),
        ],
    );
    for r in teams {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.rank,
            escape(&r.team),
            r.match_points,
            r.board_points,
            r.matches,
            r.won,
            r.drawn,
            r.lost
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

/// The crosstable: players in standings order; a cell lists the games
/// against that opponent: points scored (2/1/0, + or - for forfeits) and
/// the colour (红 Red / 黑 Black), with the round.
fn push_crosstable(
    h: &mut String,
    round: u32,
    all_games: &[PlayedGame],
    standings: &Standings,
    lang: Option<Lang>,
) {
    let (red_mark, black_mark) = (
        head(lang, "红", "export-mark-red"),
        head(lang, "黑", "export-mark-black"),
    );
    let players: Vec<&str> = standings
        .players
        .iter()
        .map(|r| r.player.as_str())
        .collect();
    let index: BTreeMap<&str, usize> = players.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let mut cells: Vec<Vec<Vec<String>>> = vec![vec![Vec::new(); players.len()]; players.len()];
    for g in all_games.iter().filter(|g| g.round <= round) {
        let (Some(&r), Some(&b)) = (
            index.get(g.pairing.red_key()),
            index.get(g.pairing.black_key()),
        ) else {
            continue;
        };
        let res = rulebook_result(g);
        let mark = |red: bool| -> String {
            let side = escape(if red { &red_mark } else { &black_mark });
            let score = match res {
                None => "*".to_string(),
                Some(x) if x.is_forfeit() => {
                    let c = if red {
                        xiangqi::Color::Red
                    } else {
                        xiangqi::Color::Black
                    };
                    if x.points(c) > 0 {
                        "+".into()
                    } else {
                        "-".into()
                    }
                }
                Some(x) => x
                    .points(if red {
                        xiangqi::Color::Red
                    } else {
                        xiangqi::Color::Black
                    })
                    .to_string(),
            };
            format!("{score}{side}<sub>{}</sub>", g.round)
        };
        cells[r][b].push(mark(true));
        cells[b][r].push(mark(false));
    }
    let _ = writeln!(
        h,
        "<h2>{}</h2>\n<table>\n<thead><tr><th>#</th><th>{}</th>",
        escape(&head(lang, "交叉表 Crosstable", "export-crosstable")),
        escape(&head(lang, "姓名 Player", "export-col-player"))
    );
    for i in 0..players.len() {
        let _ = write!(h, "<th>{}</th>", i + 1);
    }
    let _ = write!(
        h,
        "<th>{}</th></tr></thead>\n<tbody>\n",
        escape(&head(lang, "积分 Points", "export-col-points"))
    );
    for (i, p) in players.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"name\">{}</td>",
            i + 1,
            escape(standings.name_of(p))
        );
        for (j, c) in cells[i].iter().enumerate() {
            if i == j {
                h.push_str("<td class=\"self\"></td>");
            } else {
                let _ = write!(h, "<td>{}</td>", c.join(" "));
            }
        }
        let _ = writeln!(h, "<td>{}</td></tr>", standings.players[i].points);
    }
    h.push_str("</tbody>\n</table>\n");
}

/// The page after round `round` in `lang` (`None`: Chinese and English
/// side by side, as before the hall had a language). `round_games` are
/// the round's games; `all_games` every game counted by `standings`.
pub fn to_html(
    config: &HallConfig,
    round: u32,
    round_games: &[PlayedGame],
    all_games: &[PlayedGame],
    standings: &Standings,
    lang: Option<Lang>,
) -> String {
    let t = &config.tournament;
    let title = match lang {
        None => format!("{} · 第{round}轮 Round {round}", t.name),
        Some(l) => i18n::render(
            l,
            &Message::new("export-round-title")
                .verbatim("name", &t.name)
                .int("round", round),
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
    let _ = writeln!(h, "<h1>{}</h1>", escape(&title));
    let _ = writeln!(
        h,
        "<p>{} · {}</p>",
        escape(&t.site),
        escape(
            &config
                .round(round)
                .and_then(|r| r.date.clone())
                .unwrap_or_else(|| t.date.clone())
        )
    );

    push_results(&mut h, round_games, lang);

    push_standings(&mut h, round, standings, lang);
    if let Some(teams) = &standings.teams {
        push_team_standings(&mut h, teams, lang);
    }

    push_crosstable(&mut h, round, all_games, standings, lang);
    let finished = round_games
        .iter()
        .filter(|g| result_token(g) != "*")
        .count();
    let footer = match lang {
        None => format!(
            "caipan 裁判 · {} · {finished} games; unfinished games are marked * and not counted.",
            t.name
        ),
        Some(l) => i18n::render(
            l,
            &Message::new("export-footer")
                .verbatim("name", &t.name)
                .int("games", finished as i64),
        ),
    };
    let _ = writeln!(h, "<footer>{}</footer>\n</body>\n</html>", escape(&footer));
    h
}
