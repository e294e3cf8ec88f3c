//! Claims (申诉/裁决) of the hall: what a player claimed (natural limit,
//! repetition, draw) or what the server raised for an arbiter (illegal
//! move, foul threshold, flag fall, no-show, repetition without a claim),
//! each with the rulebook's recommended ruling citing its rule ids, and how
//! it was decided (accepted, or overridden with a reason) and by whom.

use proto::{ClaimKind, ClaimStatus, ClaimView, EndReason, Ruling, Side, Verdict};
use std::collections::{BTreeMap, BTreeSet, HashMap};

use proto::roles::RulingAuthor;

/// Most decided claims kept (open ones are always kept).
pub const MAX_DECIDED: usize = 2_000;

/// A penalty that goes with accepting a recommendation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Penalty {
    /// Nothing beyond the verdict.
    None,
    /// A false natural-limit claim: a technical foul and time off the
    /// claimant's clock (AXF-LIMIT-3).
    FalseLimitClaim(LimitClaimPenalty),
}

/// The penalty of a false natural-limit claim (AXF-LIMIT-3): the wire's
/// [`proto::ClaimPenalty`] (the claimant, a technical foul or not, the time
/// off), also a snapshot's (`snapshot::PenaltySnap`), so that all three say
/// it once; its encoding is the one snapshots have had since version 1.
pub type LimitClaimPenalty = proto::ClaimPenalty;

impl Penalty {
    /// The penalty as consoles and terminals see it (`None`: none).
    pub fn wire(self) -> Option<LimitClaimPenalty> {
        match self {
            Penalty::None => None,
            Penalty::FalseLimitClaim(p) => Some(p),
        }
    }
}

/// What a game ended on a claim is called: the typed reason of a loss of
/// each side (Red, Black) and of a draw. Fixed when the claim is opened,
/// from its kind and, for a repetition, from the losing side's pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ends {
    /// A loss of Red, of Black.
    pub loss: [EndReason; 2],
    /// A draw.
    pub draw: EndReason,
}

impl Ends {
    /// The reasons for a claim of `kind` (a repetition's losses are
    /// perpetual chases until [`Ends::repetition`] says otherwise).
    pub fn of_kind(kind: ClaimKind) -> Ends {
        let (loss, draw) = match kind {
            ClaimKind::NaturalLimit => (EndReason::Arbiter, EndReason::NaturalLimit),
            ClaimKind::Repetition => (EndReason::PerpetualChase, EndReason::Repetition),
            ClaimKind::IllegalMove => (EndReason::IllegalMove, EndReason::Arbiter),
            ClaimKind::FoulThreshold => (EndReason::Fouls, EndReason::Arbiter),
            ClaimKind::FlagFall => (EndReason::Flag, EndReason::Arbiter),
            ClaimKind::NoShow => (EndReason::Forfeit, EndReason::Arbiter),
            ClaimKind::DrawOffer => (EndReason::Arbiter, EndReason::Agreement),
            ClaimKind::MoveLimit => (EndReason::Arbiter, EndReason::MoveLimit),
        };
        Ends {
            loss: [loss; 2],
            draw,
        }
    }

    /// A repetition ruling's reasons: a side whose pattern over the cycle
    /// is a perpetual check loses for perpetual check, any other forbidden
    /// pattern is a perpetual chase; a draw is a repetition.
    pub fn repetition(r: &rulebook::ruling::Ruling) -> Ends {
        let of = |p: &rulebook::pattern::SidePattern| {
            if p.kind == rulebook::pattern::PatternKind::PerpetualCheck {
                EndReason::PerpetualCheck
            } else {
                EndReason::PerpetualChase
            }
        };
        Ends {
            loss: [of(&r.red), of(&r.black)],
            draw: EndReason::Repetition,
        }
    }

    /// The reason a verdict ends the game with (`None`: it does not end it).
    pub fn of_verdict(&self, v: Verdict) -> Option<EndReason> {
        match v {
            Verdict::Loss { side: Side::Red } => Some(self.loss[0]),
            Verdict::Loss { side: Side::Black } => Some(self.loss[1]),
            Verdict::Draw => Some(self.draw),
            _ => None,
        }
    }
}

/// What a claim says, before it is numbered: the table, the kind, who
/// claimed (`None`: raised by the hall), the recommended ruling and the
/// penalty that goes with accepting it.
#[derive(Debug, Clone)]
pub struct NewClaim {
    /// The table it is about.
    pub table: u16,
    /// What kind of claim.
    pub kind: ClaimKind,
    /// The claimant, if a player claimed.
    pub by: Option<Side>,
    /// The recommended ruling.
    pub recommended: Ruling,
    /// The penalty that goes with accepting it.
    pub penalty: Penalty,
}

impl NewClaim {
    /// A claim the hall raises, with no penalty beyond the verdict.
    pub fn new(table: u16, kind: ClaimKind, recommended: Ruling) -> NewClaim {
        NewClaim {
            table,
            kind,
            by: None,
            recommended,
            penalty: Penalty::None,
        }
    }

    /// Claimed by `side`.
    pub fn by(mut self, side: Side) -> NewClaim {
        self.by = Some(side);
        self
    }

    /// With `penalty` when the recommendation is accepted.
    pub fn penalty(mut self, penalty: Penalty) -> NewClaim {
        self.penalty = penalty;
        self
    }
}

/// One claim.
#[derive(Debug, Clone)]
pub struct Claim {
    /// What consoles see.
    pub view: ClaimView,
    /// Penalty applied when the recommendation is accepted.
    pub penalty: Penalty,
    /// The typed reason of a result ruled on it.
    pub ends: Ends,
    /// Who ruled, once ruled.
    pub ruled_by: Option<RulingAuthor>,
}

/// All claims of the hall, by id, with the decided ones and the open
/// count of each table indexed, so that opening, deciding and counting are
/// O(log n) (a replay opens thousands).
#[derive(Debug, Clone, Default)]
pub struct ClaimBook {
    next_id: u64,
    claims: BTreeMap<u64, Claim>,
    /// Ids of the ruled claims kept, oldest first.
    decided: BTreeSet<u64>,
    /// Pending or escalated claims per table.
    open: HashMap<u16, u32>,
}

fn is_open(status: &ClaimStatus) -> bool {
    status.is_open()
}

impl ClaimBook {
    /// A new round: every claim of the round before goes (the ids keep
    /// counting, so none is reused).
    pub fn new_round(&mut self) {
        self.claims.clear();
        self.decided.clear();
        self.open.clear();
    }

    /// Back to the round before (a published round withdrawn): its claims
    /// as `before` kept them when the round was published; the ids keep
    /// counting, so none opened since is reused.
    pub fn back_to(&mut self, before: ClaimBook) {
        let next_id = self.next_id.max(before.next_id);
        *self = before;
        self.next_id = next_id;
    }

    /// Opens claim `c` raised at `at_ms`; returns its view.
    pub fn open(&mut self, c: NewClaim, at_ms: u64) -> ClaimView {
        self.next_id += 1;
        let view = ClaimView {
            id: self.next_id,
            table: c.table,
            kind: c.kind,
            by: c.by,
            raised_at_ms: at_ms,
            recommended: c.recommended,
            penalty: c.penalty.wire(),
            status: ClaimStatus::Pending,
        };
        self.insert(Claim {
            view: view.clone(),
            penalty: c.penalty,
            ends: Ends::of_kind(c.kind),
            ruled_by: None,
        });
        self.trim();
        view
    }

    fn insert(&mut self, c: Claim) {
        if is_open(&c.view.status) {
            *self.open.entry(c.view.table).or_insert(0) += 1;
        } else {
            self.decided.insert(c.view.id);
        }
        if let Some(old) = self.claims.insert(c.view.id, c) {
            self.forget(&old);
        }
    }

    fn forget(&mut self, c: &Claim) {
        if is_open(&c.view.status) {
            if let Some(n) = self.open.get_mut(&c.view.table) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    self.open.remove(&c.view.table);
                }
            }
        } else {
            self.decided.remove(&c.view.id);
        }
    }

    /// Keeps at most [`MAX_DECIDED`] ruled claims (the oldest go).
    fn trim(&mut self) {
        while self.decided.len() > MAX_DECIDED {
            let Some(id) = self.decided.pop_first() else {
                break;
            };
            self.claims.remove(&id);
        }
    }

    /// The claim `id`.
    pub fn get(&self, id: u64) -> Option<&Claim> {
        self.claims.get(&id)
    }

    /// Sets the status of claim `id` (and who ruled, once ruled); returns
    /// its view.
    pub fn set_status(
        &mut self,
        id: u64,
        status: ClaimStatus,
        ruled_by: Option<RulingAuthor>,
    ) -> Option<ClaimView> {
        let mut c = self.claims.remove(&id)?;
        self.forget(&c);
        c.view.status = status;
        if ruled_by.is_some() {
            c.ruled_by = ruled_by;
        }
        let view = c.view.clone();
        self.insert(c);
        Some(view)
    }

    /// Sets the typed reasons of a result ruled on claim `id`.
    pub fn set_ends(&mut self, id: u64, ends: Ends) {
        if let Some(c) = self.claims.get_mut(&id) {
            c.ends = ends;
        }
    }

    /// Pending or escalated claims of `table`.
    pub fn open_count(&self, table: u16) -> u32 {
        self.open.get(&table).copied().unwrap_or(0)
    }

    /// The open claims of `table` that `which` selects, by id (a scan,
    /// made only when the table has open claims).
    pub fn open_of(&self, table: u16, which: impl Fn(&ClaimView) -> bool) -> Vec<u64> {
        if self.open_count(table) == 0 {
            return Vec::new();
        }
        self.claims
            .values()
            .filter(|c| c.view.table == table && is_open(&c.view.status) && which(&c.view))
            .map(|c| c.view.id)
            .collect()
    }

    /// Every claim kept, by id.
    pub fn all(&self) -> impl Iterator<Item = &ClaimView> {
        self.claims.values().map(|c| &c.view)
    }

    /// Every claim kept with its penalty and ruling author, by id.
    pub fn claims(&self) -> impl Iterator<Item = &Claim> {
        self.claims.values()
    }

    /// The id the last opened claim got (0: none yet).
    pub fn last_id(&self) -> u64 {
        self.next_id
    }

    /// A book restored from a snapshot: the last id given and the claims kept.
    pub fn restore(last_id: u64, claims: Vec<Claim>) -> ClaimBook {
        let mut book = ClaimBook {
            next_id: last_id,
            ..ClaimBook::default()
        };
        for c in claims {
            book.insert(c);
        }
        book
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::states::play_on as ruling;
    use proto::RulingOutcome;

    fn ruled() -> ClaimStatus {
        ClaimStatus::Ruled {
            by: "chief:王".into(),
            outcome: RulingOutcome::Accepted,
            at_ms: 1,
        }
    }

    #[test]
    fn open_counts_follow_status_changes() {
        let mut b = ClaimBook::default();
        let a = b.open(NewClaim::new(3, ClaimKind::FlagFall, ruling()), 1);
        b.open(NewClaim::new(3, ClaimKind::NoShow, ruling()), 2);
        b.open(NewClaim::new(4, ClaimKind::NoShow, ruling()), 2);
        assert_eq!(
            (b.open_count(3), b.open_count(4), b.open_count(5)),
            (2, 1, 0)
        );
        b.set_status(a.id, ruled(), Some(RulingAuthor::Chief));
        assert_eq!(b.open_count(3), 1);
        assert_eq!(
            b.get(a.id).and_then(|c| c.ruled_by.clone()),
            Some(RulingAuthor::Chief)
        );
        // Escalated after a ruling: open again.
        b.set_status(
            a.id,
            ClaimStatus::Escalated {
                by: "deputy:李".into(),
                reason: "r".into(),
                at_ms: 3,
            },
            None,
        );
        assert_eq!(b.open_count(3), 2);
        assert!(b.set_status(99, ruled(), None).is_none());
    }

    #[test]
    fn keeps_the_newest_decided_claims() {
        let mut b = ClaimBook::default();
        for i in 0..(MAX_DECIDED as u64 + 10) {
            let v = b.open(NewClaim::new(1, ClaimKind::FlagFall, ruling()), i);
            b.set_status(v.id, ruled(), Some(RulingAuthor::Chief));
        }
        let v = b.open(NewClaim::new(2, ClaimKind::FlagFall, ruling()), 0);
        assert_eq!(b.all().count(), MAX_DECIDED + 1);
        assert!(b.get(1).is_none() && b.get(v.id).is_some());
        assert_eq!(b.open_count(2), 1);
        let r = ClaimBook::restore(b.last_id(), b.claims().cloned().collect());
        assert_eq!(r.all().collect::<Vec<_>>(), b.all().collect::<Vec<_>>());
        assert_eq!(r.open_count(2), 1);
        assert_eq!(r.decided, b.decided);
    }
}
