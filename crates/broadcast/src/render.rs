//! The broadcast's bodies (公开数据), each with its strong ETag: the round
//! PGN (the export's writer with everything private switched off), the
//! whole picture as JSON, DGT's cloud layout (index and one file per game,
//! moves as `"h2e2 1818+28"`: ICCS move, seconds left, +seconds spent) and
//! the pairings. Everything here is built from the public projection
//! (`hall::public`), which holds nothing private.

use hall::public::{PublicGame, PublicStatus};
use proto::{ClockState, GameResult, IccsMove, Side};
use serde_json::{json, Value};

use crate::json::PlyTimes;
use crate::notation::{Tail, Texts};
use crate::view::{Body, View, JSON, PGN};

/// The PGN result token.
pub fn result_token(status: PublicStatus) -> &'static str {
    match status {
        PublicStatus::Finished {
            result: GameResult::RedWins,
            ..
        } => "1-0",
        PublicStatus::Finished {
            result: GameResult::BlackWins,
            ..
        } => "0-1",
        PublicStatus::Finished {
            result: GameResult::Draw,
            ..
        } => "1/2-1/2",
        PublicStatus::Finished {
            result: GameResult::BothLose,
            ..
        } => "0-0",
        _ => "*",
    }
}

fn side(s: Option<Side>) -> Option<&'static str> {
    match s {
        Some(Side::Red) => Some("red"),
        Some(Side::Black) => Some("black"),
        None => None,
    }
}

/// A game's clocks as the JSON writes them (the keys in serde_json's
/// map order, alphabetical, as every object of the feeds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Clock {
    /// When they were read (server Unix ms).
    pub at_ms: u64,
    /// Black's time left.
    pub black_ms: u64,
    /// Red's time left.
    pub red_ms: u64,
    /// The side whose clock runs (`null`: stopped).
    pub running: Option<&'static str>,
}

/// A game's clocks as the JSON writes them.
pub fn clock(c: &ClockState, at_ms: u64) -> Clock {
    Clock {
        at_ms,
        black_ms: c.black_ms,
        red_ms: c.red_ms,
        running: side(c.running),
    }
}

/// The typed reason of a result (`null` before it).
pub fn reason(status: PublicStatus) -> Option<&'static str> {
    match status {
        PublicStatus::Finished { why, .. } => Some(why.as_str()),
        _ => None,
    }
}

/// One game for `/state.json` and the `snapshot` event, its moves in
/// ICCS (`moves`), WXF (`wxf`) and Chinese (`zh`), borrowed from the view
/// and written straight into the body (issue 40: the value tree a
/// 10,000-table picture was built as first held ~20 MB for a 3 MB text).
/// The keys in serde_json's map order (alphabetical), so the bytes are
/// those the value tree wrote.
#[derive(Debug, serde::Serialize)]
pub struct GameJson<'a> {
    black: &'a str,
    clock: Clock,
    clocks_ms: PlyTimes<'a>,
    fen: &'a str,
    #[serde(serialize_with = "crate::json::iccs")]
    moves: &'a [IccsMove],
    reason: Option<&'static str>,
    red: &'a str,
    result: &'static str,
    status: &'static str,
    table: u16,
    wxf: Tail<'a>,
    zh: Tail<'a>,
}

/// `g` with its texts as the JSON writes it.
pub fn game_json_entry<'a>(g: &'a PublicGame, texts: &'a Texts) -> GameJson<'a> {
    GameJson {
        black: &g.black,
        clock: clock(&g.clock, g.clock_at_ms),
        clocks_ms: PlyTimes::new(&g.ply_clocks, 0),
        fen: &g.start_fen,
        moves: &g.moves,
        reason: reason(g.status),
        red: &g.red,
        result: result_token(g.status),
        status: g.status.as_str(),
        table: g.table,
        wxf: texts.wxf.from(0),
        zh: texts.zh.from(0),
    }
}

/// The whole picture (also the `snapshot` event's data).
#[derive(Debug, serde::Serialize)]
pub struct StateJson<'a> {
    games: Vec<GameJson<'a>>,
    round: u32,
    seq: u64,
    site: &'a str,
    tournament: &'a str,
}

/// The whole picture of `v`.
pub fn state(v: &View) -> StateJson<'_> {
    StateJson {
        games: v
            .games
            .values()
            .map(|s| game_json_entry(&s.game, &s.texts))
            .collect(),
        round: v.round,
        seq: v.seq,
        site: &v.config.tournament.site,
        tournament: &v.config.tournament.name,
    }
}

pub(crate) fn state_json(v: &View) -> Body {
    // Plain data of strings and numbers: it always serializes.
    let text = serde_json::to_string(&state(v)).unwrap_or_else(|e| {
        tracing::error!(error = %e, "the picture does not serialize");
        String::from("{}")
    });
    Body::new(text, JSON)
}

pub(crate) fn round_pgn(v: &View) -> Body {
    let mut out = String::new();
    for g in v.all() {
        match export::pgn::to_public_pgn(&v.config, v.round, g) {
            Ok(text) => {
                out.push_str(&text);
                if !text.ends_with("\n\n") {
                    out.push('\n');
                }
            }
            Err(e) => tracing::warn!(error = %e, "a game is left out of the round PGN"),
        }
    }
    Body::new(out, PGN)
}

fn player(name: &str, team: Option<&String>) -> Value {
    json!({ "name": name, "lname": name, "fname": "", "team": team })
}

pub(crate) fn index_json(v: &View) -> Body {
    let pairings: Vec<Value> = v
        .all()
        .map(|g| {
            let p = v.config.pairing(u32::from(g.table));
            let red = player(&g.red, p.and_then(|p| p.red_team.as_ref()));
            let black = player(&g.black, p.and_then(|p| p.black_team.as_ref()));
            json!({
                "table": g.table,
                "red": red,
                "white": red,
                "black": black,
                "result": result_token(g.status),
                "live": !g.status.finished() && g.status != PublicStatus::Waiting,
            })
        })
        .collect();
    Body::new(
        json!({ "round": v.round, "pairings": pairings }).to_string(),
        JSON,
    )
}

pub(crate) fn pairings_json(v: &View) -> Body {
    let tables: Vec<Value> = v
        .all()
        .map(|g| {
            let p = v.config.pairing(u32::from(g.table));
            json!({
                "table": g.table,
                "red": g.red,
                "black": g.black,
                "red_team": p.and_then(|p| p.red_team.clone()),
                "black_team": p.and_then(|p| p.black_team.clone()),
            })
        })
        .collect();
    Body::new(
        json!({ "round": v.round, "tables": tables }).to_string(),
        JSON,
    )
}

/// Seconds, rounded down.
fn secs(ms: u64) -> u64 {
    ms / 1000
}

/// Each ply as DGT writes it: `"h2e2 1818+28"` (the mover's seconds left
/// and the seconds the move took), or the bare move without a press.
pub fn dgt_moves(g: &PublicGame, initial_ms: u64, increment_ms: u64) -> Vec<String> {
    let mut last = [initial_ms, initial_ms];
    g.moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mover = i % 2;
            match g.ply_clocks.get(i) {
                Some(left) => {
                    let spent = (last[mover] + increment_ms).saturating_sub(left);
                    last[mover] = left;
                    format!("{m} {}+{}", secs(left), secs(spent))
                }
                None => m.to_string(),
            }
        })
        .collect()
}

pub(crate) fn game_json(v: &View, g: &PublicGame) -> Body {
    let (_, initial_ms, increment_ms) = proto::convert::wire_time_control(&v.config.time_control);
    let value = json!({
        "table": g.table,
        "live": !g.status.finished() && g.status != PublicStatus::Waiting,
        "status": g.status.as_str(),
        "result": result_token(g.status),
        "reason": reason(g.status),
        "red": g.red,
        "black": g.black,
        "fen": g.start_fen,
        "moves": dgt_moves(g, initial_ms, increment_ms),
        "clock": {
            "red": secs(g.clock.red_ms),
            "black": secs(g.clock.black_ms),
            "running": side(g.clock.running),
            "time": g.clock_at_ms,
        },
    });
    Body::new(value.to_string(), JSON)
}

/// The bodies of a view, each rendered on first ask and kept with it.
impl View {
    /// `/round/{n}.pgn`: every board in one Xiangqi PGN.
    pub fn pgn(&self) -> &Body {
        self.pgn.get_or_init(|| round_pgn(self))
    }

    /// `/state.json`: the whole picture.
    pub fn state(&self) -> &Body {
        self.state.get_or_init(|| state_json(self))
    }

    /// `/round/{n}/index.json`: DGT's pairings.
    pub fn index(&self) -> &Body {
        self.index.get_or_init(|| index_json(self))
    }

    /// `/pairings.json`.
    pub fn pairings(&self) -> &Body {
        self.pairings.get_or_init(|| pairings_json(self))
    }

    /// `/round/{n}/game-{t}.json`: one game in DGT's layout.
    pub fn game(&self, table: u16) -> Option<&Body> {
        self.games_json
            .get_or_init(|| self.all().map(|g| (g.table, game_json(self, g))).collect())
            .get(&table)
    }
}
