//! Demo feeder: plays real games at the tables of a running hall server,
//! as table terminals would (clock presses with both times), so that the
//! console has something to show. Used by `scripts/console_capture.sh`
//! until the table replayer (`caipan table replay`) takes over.
//!
//! ```text
//! cargo run -p caipan-console --example feed_hall -- \
//!     --server 127.0.0.1:4433 --fingerprint HEX --tables 24 \
//!     --token-pattern 'demo-table-{}-token-0123456789' \
//!     [--pgn data/games/hu-ronghua-1391.pgn] [--pace-ms 1500] \
//!     [--perpetual 7]
//! ```
//! Table `--perpetual N` plays a perpetual check (Red checks for ever) so
//! that a repetition alert and claim appear. Without `--pgn` every table
//! plays the same short opening.

use proto::{ClientMsg, EventEnvelope, Hello, IccsMove, ServerMsg, Side, TableEvent, Trust};
use std::net::SocketAddr;
use std::time::Duration;

const OPENING: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 c6c5 b2a2 h7i7 c3c4 g6g5 h0h6 i7h7 \
                       h6g6 h7h3 g6g5 b7b5 a0b0 b5b3";
const PERPETUAL: &str = "b2d2 e9e8 d2d4 b7d7 d4e4 e8d8 e4d4 d8e8 d4e4 e8d8 e4d4 d8e8 d4e4 e8d8 \
                         e4d4 d8e8";

struct Opts {
    server: SocketAddr,
    fingerprint: proto::Fingerprint,
    tables: u16,
    token_pattern: String,
    pgn: Option<String>,
    pace: Duration,
    perpetual: Option<u16>,
}

fn parse() -> Result<Opts, String> {
    let mut args = std::env::args().skip(1);
    let mut server = None;
    let mut fingerprint = None;
    let mut tables = 12u16;
    let mut token_pattern = "demo-table-{}-token-0123456789".to_string();
    let mut pgn = None;
    let mut pace = Duration::from_millis(1500);
    let mut perpetual = None;
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--server" => server = Some(val()?.parse().map_err(|e| format!("--server: {e}"))?),
            "--fingerprint" => {
                fingerprint = Some(val()?.parse().map_err(|e| format!("--fingerprint: {e}"))?)
            }
            "--tables" => tables = val()?.parse().map_err(|e| format!("--tables: {e}"))?,
            "--token-pattern" => token_pattern = val()?,
            "--pgn" => pgn = Some(val()?),
            "--pace-ms" => {
                pace = Duration::from_millis(val()?.parse().map_err(|e| format!("--pace-ms: {e}"))?)
            }
            "--perpetual" => {
                perpetual = Some(val()?.parse().map_err(|e| format!("--perpetual: {e}"))?)
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(Opts {
        server: server.ok_or("--server is required")?,
        fingerprint: fingerprint.ok_or("--fingerprint is required")?,
        tables,
        token_pattern,
        pgn,
        pace,
        perpetual,
    })
}

/// Games as ICCS move lists.
fn games(pgn: Option<&str>) -> Vec<Vec<IccsMove>> {
    let parse = |s: &str| s.split_whitespace().filter_map(IccsMove::parse).collect();
    let Some(path) = pgn else {
        return vec![parse(OPENING)];
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("feed_hall: {path}: {e}; playing the built-in opening");
            return vec![parse(OPENING)];
        }
    };
    match xiangqi::read_pgn(&text) {
        Ok(gs) => gs
            .iter()
            .map(|g| {
                g.moves
                    .iter()
                    .filter_map(|m| IccsMove::parse(&m.text))
                    .collect()
            })
            .filter(|v: &Vec<IccsMove>| v.len() > 20)
            .collect(),
        Err(e) => {
            eprintln!("feed_hall: {path}: {e}; playing the built-in opening");
            vec![parse(OPENING)]
        }
    }
}

async fn table(o: &Opts, table: u16, moves: Vec<IccsMove>) -> Result<(), String> {
    let hello = Hello {
        protocol_version: proto::PROTOCOL_VERSION,
        token: o.token_pattern.replace("{}", &table.to_string()),
        client: "caipan feed_hall example".into(),
    };
    let mut c = proto::connect(o.server, &Trust::Fingerprint(o.fingerprint), hello)
        .await
        .map_err(|e| format!("table {table}: {e}"))?;
    let session = c.hello_ok.table.clone();
    let epoch = session.as_ref().map_or(1, |s| s.epoch + 1);
    // Stagger the tables so that presses spread over the pace.
    tokio::time::sleep(o.pace * u32::from(table % 10) / 10).await;
    let (mut red, mut black) = (4_800_000u64, 4_800_000u64);
    let mut side = Side::Red;
    for (i, m) in moves.iter().enumerate() {
        // Each table thinks at its own speed.
        let think = 3_000 + (u64::from(table) * 7_919 + i as u64 * 104_729) % 90_000;
        match side {
            Side::Red => red = red.saturating_sub(think).saturating_add(30_000),
            Side::Black => black = black.saturating_sub(think).saturating_add(30_000),
        }
        let seq = i as u64 + 1;
        let env = EventEnvelope {
            table,
            epoch,
            seq,
            body: TableEvent::ClockPress {
                by: side,
                mv: Some(*m),
                red_ms: red,
                black_ms: black,
                terminal_mono_ms: seq * 10_000,
            },
        };
        c.send(&ClientMsg::Event(env))
            .await
            .map_err(|e| format!("table {table}: {e}"))?;
        loop {
            match c.recv().await.map_err(|e| format!("table {table}: {e}"))? {
                ServerMsg::Ack(a) if a.seq >= seq => break,
                ServerMsg::Error(e) => {
                    return Err(format!(
                        "table {table}: move {m} refused: {}",
                        i18n::texts::english(&e.message)
                    ))
                }
                _ => {}
            }
        }
        side = side.other();
        tokio::time::sleep(o.pace).await;
    }
    // Stay connected (the table stays online) until killed.
    loop {
        if c.recv().await.is_err() {
            return Ok(());
        }
    }
}

#[tokio::main]
async fn main() {
    let o = match parse() {
        Ok(o) => std::sync::Arc::new(o),
        Err(e) => {
            eprintln!("feed_hall: {e}");
            std::process::exit(2);
        }
    };
    let games = games(o.pgn.as_deref());
    let mut tasks = Vec::new();
    for t in 1..=o.tables {
        let moves = if o.perpetual == Some(t) {
            PERPETUAL
                .split_whitespace()
                .filter_map(IccsMove::parse)
                .collect()
        } else {
            games[usize::from(t - 1) % games.len()].clone()
        };
        let o = o.clone();
        tasks.push(tokio::spawn(async move {
            if let Err(e) = table(&o, t, moves).await {
                eprintln!("feed_hall: {e}");
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
}
