//! Claims (申诉/裁决) of the hall: what a player claimed (natural limit,
//! repetition, draw) or what the server raised for an arbiter (illegal
//! move, foul threshold, flag fall, no-show, repetition without a claim),
//! each with the rulebook's recommended ruling citing its rule ids, and how
//! it was decided (accepted, or overridden with a reason) and by whom.

use proto::{ClaimKind, ClaimStatus, ClaimView, Ruling, Side};
use std::collections::BTreeMap;

use crate::auth::RulingAuthor;

/// Most decided claims kept (open ones are always kept).
pub const MAX_DECIDED: usize = 2_000;

/// A penalty that goes with accepting a recommendation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Penalty {
    /// Nothing beyond the verdict.
    None,
    /// A false natural-limit claim: a technical foul and time off the
    /// claimant's clock (AXF-LIMIT-3).
    FalseLimitClaim {
        /// The claimant.
        side: Side,
        /// Whether a technical foul is recorded.
        technical_foul: bool,
        /// Time taken off (ms).
        deduct_ms: u64,
    },
}

/// One claim.
#[derive(Debug, Clone)]
pub struct Claim {
    /// What consoles see.
    pub view: ClaimView,
    /// Penalty applied when the recommendation is accepted.
    pub penalty: Penalty,
    /// Who ruled, once ruled.
    pub ruled_by: Option<RulingAuthor>,
}

/// All claims of the hall.
#[derive(Debug, Clone, Default)]
pub struct ClaimBook {
    next_id: u64,
    claims: BTreeMap<u64, Claim>,
}

impl ClaimBook {
    /// Opens a claim; returns its view.
    pub fn open(
        &mut self,
        table: u16,
        kind: ClaimKind,
        by: Option<Side>,
        at_ms: u64,
        recommended: Ruling,
        penalty: Penalty,
    ) -> ClaimView {
        self.next_id += 1;
        let view = ClaimView {
            id: self.next_id,
            table,
            kind,
            by,
            raised_at_ms: at_ms,
            recommended,
            status: ClaimStatus::Pending,
        };
        self.claims.insert(
            view.id,
            Claim {
                view: view.clone(),
                penalty,
                ruled_by: None,
            },
        );
        self.trim();
        view
    }

    fn trim(&mut self) {
        let decided: Vec<u64> = self
            .claims
            .values()
            .filter(|c| matches!(c.view.status, ClaimStatus::Ruled { .. }))
            .map(|c| c.view.id)
            .collect();
        if decided.len() > MAX_DECIDED {
            for id in &decided[..decided.len() - MAX_DECIDED] {
                self.claims.remove(id);
            }
        }
    }

    /// The claim `id`.
    pub fn get(&self, id: u64) -> Option<&Claim> {
        self.claims.get(&id)
    }

    /// The claim `id`, mutable.
    pub fn get_mut(&mut self, id: u64) -> Option<&mut Claim> {
        self.claims.get_mut(&id)
    }

    /// Pending or escalated claims of `table`.
    pub fn open_count(&self, table: u16) -> u32 {
        self.claims
            .values()
            .filter(|c| {
                c.view.table == table && !matches!(c.view.status, ClaimStatus::Ruled { .. })
            })
            .count() as u32
    }

    /// Every claim, by id.
    pub fn all(&self) -> impl Iterator<Item = &ClaimView> {
        self.claims.values().map(|c| &c.view)
    }
}
