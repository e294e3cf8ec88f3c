//! `caipan demo --headless --auto-rule`: the chief arbiter played by the
//! demo (自动裁判长). A real console connection over QUIC with the chief's
//! token, subscribed to the hall, that accepts every claim's recommended
//! ruling the moment it appears — an order at a repetition's third
//! occurrence, the result of the second claim, a true natural-limit claim,
//! a flag fall, an illegal move's correction, a false claim's penalty — as
//! a chief pressing `y` at once would. The hall records each ruling like
//! any other (audit trail, claims queue); the summary reads them back from
//! the hall view.

use anyhow::Context;
use proto::{
    ClaimView, ClientConn, ClientMsg, Command, Decision, Delta, Hello, ServerMsg, Trust,
    PROTOCOL_VERSION,
};
use std::collections::HashSet;
use std::net::SocketAddr;

/// The id of the subscription request; rulings count up from here.
const SUBSCRIBE_ID: u64 = 1;

/// Connects as the chief and accepts every open claim until the
/// connection ends (the caller aborts the task at the end of the round).
pub async fn run(addr: SocketAddr, trust: Trust, token: String) -> anyhow::Result<()> {
    let hello = Hello {
        protocol_version: PROTOCOL_VERSION,
        token,
        client: "caipan demo --auto-rule".into(),
    };
    let mut conn = proto::connect(addr, &trust, hello)
        .await
        .context("the auto-rule chief's connection")?;
    conn.send(&ClientMsg::Command {
        id: SUBSCRIBE_ID,
        command: Command::Subscribe,
    })
    .await
    .context("subscribing")?;
    let mut chief = Chief {
        next_id: SUBSCRIBE_ID + 1,
        accepted: HashSet::new(),
    };
    let mut pages = proto::paging::Assembly::default();
    loop {
        let msg = conn
            .recv()
            .await
            .context("the auto-rule chief's connection")?;
        let msg = match msg {
            ServerMsg::SnapshotPage(p) => match pages.take(*p)? {
                Some(view) => ServerMsg::Snapshot(Box::new(view)),
                None => continue,
            },
            m => m,
        };
        match msg {
            ServerMsg::Snapshot(view) => {
                for c in &view.claims {
                    chief.accept(&mut conn, c).await?;
                }
            }
            ServerMsg::Delta(_) | ServerMsg::Deltas(_) => {
                // A fan-out tick's claims, in order (protocol 11).
                for d in msg.deltas() {
                    if let Delta::Claim(c) = d {
                        chief.accept(&mut conn, c).await?;
                    }
                }
            }
            ServerMsg::Error(e) => {
                let message = i18n::texts::english(&e.message);
                tracing::warn!(code = ?e.code, %message, "auto-rule: refused");
            }
            _ => {}
        }
    }
}

struct Chief {
    next_id: u64,
    /// Claims already accepted (a claim comes again in later deltas).
    accepted: HashSet<u64>,
}

impl Chief {
    /// Accepts `c`'s recommendation if it is open and not yet accepted.
    async fn accept(&mut self, conn: &mut ClientConn, c: &ClaimView) -> anyhow::Result<()> {
        if !c.status.is_open() || !self.accepted.insert(c.id) {
            return Ok(());
        }
        tracing::info!(
            table = c.table,
            claim = c.id,
            kind = ?c.kind,
            verdict = ?c.recommended.verdict,
            rules = ?c.recommended.rule_ids,
            "auto-rule: accepting the recommendation"
        );
        let id = self.next_id;
        self.next_id += 1;
        conn.send(&ClientMsg::Command {
            id,
            command: Command::RuleOnClaim {
                table: c.table,
                claim_id: c.id,
                decision: Decision::Accept,
            },
        })
        .await
        .context("sending a ruling")
    }
}
