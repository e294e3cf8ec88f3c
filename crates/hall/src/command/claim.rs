//! Claims (申诉) before the arbiter: ruling on one (accept the recommended
//! ruling, or override it with a verdict and a reason; carried out in
//! [`super::ruling`]) and escalating one to the chief. Who may override a
//! ruling depends on who made it (`proto::roles`: a deputy overrides only
//! their own).

use proto::roles::{Action, Author};
use proto::{AlertKind, ClaimStatus, Decision, Delta, Message, Side, Verdict};

use super::Refusal;
use crate::alerts::NewAlert;
use crate::audit::{self, at, count, nested};
use crate::claims::Claim;
use crate::hall::Hall;
use crate::table::order::{order_why, TableOrder};

/// Who may rule: the table's arbiters; an override of a ruling already
/// made depends on who made it.
pub(super) fn action_rule(hall: &Hall, table: u16, claim_id: u64) -> Action {
    let table = u32::from(table);
    let ruled_by = hall
        .book
        .claims
        .get(claim_id)
        .and_then(|c| c.ruled_by.clone());
    match ruled_by {
        Some(ruled_by) => Action::OverrideRuling { table, ruled_by },
        None => Action::RuleOnClaim { table },
    }
}

/// Who may escalate: whoever may rule at the table.
pub(super) fn action_escalate(table: u16) -> Action {
    Action::RuleOnClaim {
        table: u32::from(table),
    }
}

/// In words.
pub(super) fn describe_rule(table: u16, claim_id: u64, decision: &Decision) -> String {
    match decision {
        Decision::Accept => {
            format!("table {table}: accept the recommended ruling on claim {claim_id}")
        }
        Decision::Override {
            verdict,
            must_change,
            reason,
        } => format!(
            "table {table}: override the ruling on claim {claim_id} with {verdict:?} (must change: {must_change:?}); reason: {reason}"
        ),
    }
}

/// In words.
pub(super) fn describe_escalate(table: u16, claim_id: u64, reason: &str) -> String {
    format!("table {table}: escalate claim {claim_id} to the chief: {reason}")
}

/// Typed ([`super::typed`]).
pub(super) fn typed_rule(table: u16, claim_id: u64, decision: &Decision) -> Message {
    let m = at("audit-rule-accept", table).int("claim", count(claim_id));
    match decision {
        Decision::Accept => m,
        Decision::Override {
            verdict,
            must_change,
            reason,
        } => {
            let m = Message {
                id: "audit-rule-override".into(),
                ..m
            };
            let m = nested(m, "verdict", audit::verdict(*verdict));
            nested(m, "must_change", audit::must_change(*must_change)).verbatim("reason", reason)
        }
    }
}

/// Typed ([`super::typed`]).
pub(super) fn typed_escalate(table: u16, claim_id: u64, reason: &str) -> Message {
    at("audit-escalate", table)
        .int("claim", count(claim_id))
        .verbatim("reason", reason)
}

/// The claim `claim_id`, if it is one of `table`'s.
pub(super) fn claim_at(hall: &Hall, table: u16, claim_id: u64) -> Result<&Claim, Refusal> {
    hall.book
        .claims
        .get(claim_id)
        .filter(|c| c.view.table == table)
        .ok_or(Refusal::NoClaim { table, claim_id })
}

/// The verdict a decision gives and the side that must change.
pub(super) fn decided(c: &Claim, decision: &Decision) -> (Verdict, Option<Side>) {
    match decision {
        Decision::Accept => (c.view.recommended.verdict, c.view.recommended.must_change),
        Decision::Override {
            verdict,
            must_change,
            ..
        } => (*verdict, *must_change),
    }
}

/// A claim of the table: accepted while open, overridden with a reason;
/// an order only where the rulebook can give one.
pub(super) fn check_rule(
    hall: &Hall,
    table: u16,
    claim_id: u64,
    decision: &Decision,
) -> Result<(), Refusal> {
    super::table(hall, table)?;
    let c = claim_at(hall, table, claim_id)?;
    match (decision, &c.view.status) {
        (Decision::Accept, ClaimStatus::Ruled { .. }) => Err(Refusal::AlreadyRuled { claim_id }),
        (Decision::Accept, ClaimStatus::Lapsed { .. }) => Err(Refusal::Lapsed { claim_id }),
        (Decision::Override { reason, .. }, _) if reason.trim().is_empty() => {
            Err(Refusal::NoReason)
        }
        _ => check_order(hall, table, c, decision),
    }
}

/// An order is given in a game that goes on, where the position repeats.
fn check_order(hall: &Hall, table: u16, c: &Claim, decision: &Decision) -> Result<(), Refusal> {
    let (verdict, must_change) = decided(c, decision);
    if verdict != Verdict::Order {
        return Ok(());
    }
    let t = super::playing(hall, table)?;
    TableOrder::give(
        &t.board.start,
        &t.board.moves,
        must_change,
        hall.params.rule_set,
        t.cycles_after_order,
        c.view.id,
    )
    .map(|_| ())
    .map_err(|e| Refusal::NoOrder {
        table,
        why: order_why(&e),
    })
}

/// Any claim of the table may be escalated.
pub(super) fn check_escalate(hall: &Hall, table: u16, claim_id: u64) -> Result<(), Refusal> {
    super::table(hall, table)?;
    claim_at(hall, table, claim_id).map(|_| ())
}

/// Hands the claim to the chief, with an alert.
pub(super) fn escalate(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    claim_id: u64,
    reason: &str,
    now: u64,
) -> Result<(), Refusal> {
    let status = ClaimStatus::Escalated {
        by: by.who(),
        reason: reason.to_string(),
        at_ms: now,
    };
    if let Some(v) = hall.book.claims.set_status(claim_id, status, None) {
        hall.book.fx.deltas.push(Delta::Claim(v));
        let alert = NewAlert::new(
            table,
            AlertKind::ClaimPending,
            i18n::texts::claim_escalated(table, claim_id, reason),
            &[],
        );
        hall.book.alert(alert, now);
    }
    Ok(())
}
