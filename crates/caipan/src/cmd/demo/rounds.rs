//! `caipan demo --headless --rounds N`: the rounds after the first (下一轮).
//! When a round is over the demo's chief pairs the next one from the
//! console protocol (`PairNextRound`, the server's proposal with why this
//! pair), accepts it unchanged (`PublishRound`), and the replayed tables
//! play it with the next games of the data set (without the scripted
//! incidents, which belong to round 1). At the end the standings after the
//! last round are printed with their tie-break columns, as
//! `caipan export --format standings-csv` writes them.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use proto::{ClientMsg, Command, Hello, RoundProposal, ServerMsg, Trust, PROTOCOL_VERSION};

/// The chief pairs the next round and publishes it as proposed.
pub async fn publish_next(
    addr: SocketAddr,
    trust: Trust,
    token: &str,
) -> anyhow::Result<RoundProposal> {
    let hello = Hello {
        protocol_version: PROTOCOL_VERSION,
        token: token.to_string(),
        client: format!("caipan-demo {}", env!("CARGO_PKG_VERSION")),
    };
    let mut conn = proto::connect(addr, &trust, hello)
        .await
        .context("the demo's chief connects")?;
    let mut ask = async |id: u64, command: Command| -> anyhow::Result<ServerMsg> {
        conn.send(&ClientMsg::Command { id, command }).await?;
        loop {
            let m = tokio::time::timeout(Duration::from_secs(60), conn.recv())
                .await
                .context("no answer from the server within 60 s")??;
            match &m {
                ServerMsg::RoundProposal { id: i, .. } | ServerMsg::CommandOk { id: i, .. }
                    if *i == id =>
                {
                    return Ok(m)
                }
                ServerMsg::Error(e) if e.re == Some(proto::RequestRef::Command { id }) => {
                    bail!("{}", i18n::replies::error_text(i18n::Lang::En, e))
                }
                _ => {}
            }
        }
    };
    let proposal = match ask(1, Command::PairNextRound).await? {
        ServerMsg::RoundProposal { proposal, .. } => *proposal,
        other => bail!("unexpected answer {other:?}"),
    };
    ask(
        2,
        Command::PublishRound {
            round: Box::new(proposal.clone()),
            changes: Vec::new(),
        },
    )
    .await
    .context("publishing the round")?;
    Ok(proposal)
}

/// The round's pairing as printed: one line per board with why this pair.
pub fn pairing_lines(p: &RoundProposal) -> String {
    let mut out = format!(
        "round {} paired ({}, seed {}):\n",
        p.round, p.system, p.seed
    );
    for b in &p.boards {
        let why: Vec<String> = b
            .why
            .iter()
            .map(|m| i18n::render(i18n::Lang::En, m))
            .collect();
        out.push_str(&format!(
            "  {:>3}  {} v {}   {}\n",
            b.table,
            b.red,
            b.black,
            why.join("; ")
        ));
    }
    if let Some(bye) = &p.bye {
        out.push_str(&format!("  bye: {bye}\n"));
    }
    out
}

/// The replay of the next round: the games after those of the round
/// before, without the scripted incidents.
pub fn next_games(opts: &table::replay::ReplayOptions, round: u32) -> table::replay::ReplayOptions {
    let mut next = opts.clone();
    let mut games: Vec<xiangqi::Game> = opts.games.as_ref().clone();
    let shift = (opts.tables.len() * (round as usize - 1)) % games.len().max(1);
    games.rotate_left(shift);
    next.games = Arc::new(games);
    next.incidents = false;
    next.seed = opts.seed.wrapping_add(u64::from(round));
    next
}

/// The standings after `round` in the data dir, as the export writes them.
pub fn standings(data: &Path, round: u32) -> anyhow::Result<String> {
    let config = ::export::stored::load_hall(data, None)?;
    let options = ::export::RenderOptions::default();
    match ::export::render(
        data,
        &config,
        round,
        ::export::Format::StandingsCsv,
        options,
    )? {
        ::export::Rendered::Single(text) => Ok(text.replace("\r\n", "\n")),
        ::export::Rendered::Files(_) => bail!("standings are one file"),
    }
}
