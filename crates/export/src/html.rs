//! A static HTML page (成绩公告) with the round's results, the standings
//! after the round, team standings in team events, and a crosstable; one
//! self-contained UTF-8 file (inline CSS, no script), written as
//! well-formed XHTML-style markup (every element closed, attributes quoted,
//! text escaped) so that it also parses as XML.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::game::PlayedGame;
use super::results::{result_token, rows};
use super::standings::{half, rulebook_result, tie_break_name, Standings, TeamRow};
use config::HallConfig;

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

/// The round's results table.
fn push_results(h: &mut String, round_games: &[PlayedGame]) {
    h.push_str("<h2>本轮成绩 Results</h2>\n<table>\n<thead><tr><th>台 Table</th><th>红方 Red</th><th>结果 Result</th><th>黑方 Black</th><th>原因 Reason</th><th>回合 Moves</th></tr></thead>\n<tbody>\n");
    for r in rows(round_games) {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"name red\">{}</td><td>{}</td><td class=\"name\">{}</td><td>{} {}</td><td>{}</td></tr>",
            r.table,
            escape(&r.red),
            escape(&r.result),
            escape(&r.black),
            escape(&r.reason_zh),
            escape(&r.reason),
            r.moves
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

/// The standings after the round, with the tie-break order.
fn push_standings(h: &mut String, round: u32, standings: &Standings) {
    let _ = writeln!(
        h,
        "<h2>第{round}轮后排名 Standings after round {round}</h2>\n<p>积分 Points 2/1/0; 同分依次比较 tie-breaks ({}): {}</p>",
        escape(&standings.rule_id),
        escape(&standings.tie_break_order.join(" → "))
    );
    if !standings.missing_rounds.is_empty() {
        let m: Vec<String> = standings
            .missing_rounds
            .iter()
            .map(u32::to_string)
            .collect();
        let _ = writeln!(
            h,
            "<p>Rounds not in this data dir (left out): {}</p>",
            escape(&m.join(", "))
        );
    }
    h.push_str("<table>\n<thead><tr><th>名次 Rank</th><th>姓名 Player</th><th>积分 Points</th><th>局 Games</th><th>胜 W</th><th>和 D</th><th>负 L</th><th>对手分 Opp.</th><th>后胜 Black wins</th><th>犯规 Fouls</th><th>区分 Decided by</th></tr></thead>\n<tbody>\n");
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
            escape(r.decided_by.map(tie_break_name).unwrap_or(""))
        );
    }
    h.push_str("</tbody>\n</table>\n");
}

/// The team standings table.
fn push_team_standings(h: &mut String, teams: &[TeamRow]) {
    h.push_str("<h2>团体排名 Team standings</h2>\n<table>\n<thead><tr><th>名次 Rank</th><th>队 Team</th><th>场分 Match points</th><th>局分 Board points</th><th>场 Matches</th><th>胜 W</th><th>和 D</th><th>负 L</th></tr></thead>\n<tbody>\n");
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
fn push_crosstable(h: &mut String, round: u32, all_games: &[PlayedGame], standings: &Standings) {
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
            let side = if red { "红" } else { "黑" };
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
        "<h2>交叉表 Crosstable</h2>\n<table>\n<thead><tr><th>#</th><th>姓名 Player</th>"
    );
    for i in 0..players.len() {
        let _ = write!(h, "<th>{}</th>", i + 1);
    }
    h.push_str("<th>积分 Points</th></tr></thead>\n<tbody>\n");
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

/// The page after round `round`. `round_games` are the round's games;
/// `all_games` every game counted by `standings`.
pub fn to_html(
    config: &HallConfig,
    round: u32,
    round_games: &[PlayedGame],
    all_games: &[PlayedGame],
    standings: &Standings,
) -> String {
    let t = &config.tournament;
    let title = format!("{} · 第{round}轮 Round {round}", t.name);
    let mut h = String::new();
    h.push_str(
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"zh\">\n<head>\n",
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

    push_results(&mut h, round_games);

    push_standings(&mut h, round, standings);
    if let Some(teams) = &standings.teams {
        push_team_standings(&mut h, teams);
    }

    push_crosstable(&mut h, round, all_games, standings);
    let _ = writeln!(
        h,
        "<footer>caipan 裁判 · {} · {} games; unfinished games are marked * and not counted.</footer>\n</body>\n</html>",
        escape(&t.name),
        round_games.iter().filter(|g| result_token(g) != "*").count()
    );
    h
}
