//! Carrying out a ruling on a claim (裁决): the claim is marked ruled (with
//! who ruled, so that only they or the chief override it), then its verdict
//! acts on the table: play on, a change order at a repetition, a result,
//! or an illegal move corrected; the penalty of a false natural-limit
//! claim follows (AXF-LIMIT-3). Last, the table's terminal is told the
//! claim was decided: what it does, and the penalty that went with it.

use proto::roles::Author;
use proto::{
    ClaimKind, ClaimStatus, ControlToTable, Decision, Delta, EndReason, FoulKind, GameResult,
    RulingOutcome, Side, TableStatus, Verdict,
};

use super::claim::decided;
use super::Refusal;
use crate::claims::{Ends, LimitClaimPenalty, Penalty};
use crate::hall::Hall;
use crate::table::convert::color;
use crate::table::order::TableOrder;

/// What the ruling decides, read from the claim before it changes.
struct Ruled {
    claim_id: u64,
    claimant: Option<Side>,
    verdict: Verdict,
    must_change: Option<Side>,
    penalty: Penalty,
    kind: ClaimKind,
    ends: Ends,
}

/// Rules on claim `claim_id` of `table` and carries the verdict out.
pub(super) fn rule(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    claim_id: u64,
    decision: &Decision,
    now: u64,
) -> Result<(), Refusal> {
    let r = mark_ruled(hall, by, table, claim_id, decision, now)?;
    match r.verdict {
        Verdict::Continue => play_on(hall, table)?,
        Verdict::Order => order(hall, by, table, &r, now)?,
        Verdict::Draw | Verdict::Loss { .. } => end(hall, by, table, &r, now)?,
        Verdict::CorrectMove { side } => correct(hall, by, table, &r, side, now)?,
    }
    if let Penalty::FalseLimitClaim(LimitClaimPenalty {
        side,
        technical_foul,
        deduct_ms,
    }) = r.penalty
    {
        false_limit_claim(hall, by, table, side, technical_foul, deduct_ms, now)?;
    }
    let decided = ControlToTable::ClaimDecided {
        claim_id,
        kind: r.kind,
        claimant: r.claimant,
        verdict: r.verdict,
        must_change: r.must_change,
        penalty: r.penalty.wire(),
    };
    hall.book.control(table, decided);
    hall.book.touch(table);
    Ok(())
}

/// Marks the claim ruled and says what the ruling decides.
fn mark_ruled(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    claim_id: u64,
    decision: &Decision,
    now: u64,
) -> Result<Ruled, Refusal> {
    let c = super::claim::claim_at(hall, table, claim_id)?;
    let (verdict, must_change) = decided(c, decision);
    let (outcome, penalty) = match decision {
        Decision::Accept => (RulingOutcome::Accepted, c.penalty),
        Decision::Override {
            verdict,
            must_change,
            reason,
        } => (
            RulingOutcome::Overridden {
                verdict: *verdict,
                must_change: *must_change,
                reason: reason.clone(),
            },
            Penalty::None,
        ),
    };
    let ruled = Ruled {
        claim_id,
        claimant: c.view.by,
        verdict,
        must_change,
        penalty,
        kind: c.view.kind,
        ends: c.ends,
    };
    let status = ClaimStatus::Ruled {
        by: by.who(),
        outcome,
        at_ms: now,
    };
    let author = Some(by.ruling_author());
    if let Some(v) = hall.book.claims.set_status(claim_id, status, author) {
        hall.book.fx.deltas.push(Delta::Claim(v));
    }
    Ok(ruled)
}

/// Play on: a game ended by the claim goes on.
fn play_on(hall: &mut Hall, table: u16) -> Result<(), Refusal> {
    let t = super::table_mut(&mut hall.tables, table)?;
    if t.finished() {
        t.status = TableStatus::Playing;
    }
    Ok(())
}

/// A change order at a repetition: the side must change, or one more cycle
/// decides (the table's order watch follows the game from here).
fn order(hall: &mut Hall, by: &Author, table: u16, r: &Ruled, now: u64) -> Result<(), Refusal> {
    let rule_set = hall.params.rule_set;
    let t = super::table_mut(&mut hall.tables, table)?;
    let claim_id = r.claim_id;
    let given = TableOrder::give(
        &t.board.start,
        &t.board.moves,
        r.must_change,
        rule_set,
        t.cycles_after_order,
        claim_id,
    );
    let order = match given {
        Ok(order) => order,
        Err(e) => {
            tracing::warn!(table, claim_id, error = %e, "order not given");
            return Ok(());
        }
    };
    let text = order.words();
    let ply = t.board.plies();
    t.order = Some(Box::new(order));
    let who = by.who();
    let what = format!(
        "table {table}: order at ply {ply} (claim {claim_id}): {}",
        i18n::texts::english(&text)
    );
    let typed = crate::audit::order(table, ply, claim_id, text.clone());
    let what = crate::book::Words::typed(what, typed);
    hall.book.audit(now, &who, what, Some(table), None);
    let must_change = r.must_change;
    let control = ControlToTable::Order {
        by: who,
        must_change,
        text,
    };
    hall.book.control(table, control);
    Ok(())
}

/// A result: a loss or a draw by ruling, with the claim's end reason.
fn end(hall: &mut Hall, by: &Author, table: u16, r: &Ruled, now: u64) -> Result<(), Refusal> {
    let claim_id = r.claim_id;
    let why = r.ends.of_verdict(r.verdict).unwrap_or(EndReason::Arbiter);
    let (result, reason) = match r.verdict {
        Verdict::Loss { side: loser } => (
            GameResult::win_for(loser.other()),
            format!("{} loses by ruling on claim {claim_id}", loser.name_en()),
        ),
        _ => (
            GameResult::Draw,
            format!("draw by ruling on claim {claim_id}"),
        ),
    };
    let t = super::table_mut(&mut hall.tables, table)?;
    t.finish(result, why, &reason, now, &mut hall.book);
    let by = by.who();
    let control = ControlToTable::SetResult {
        by,
        result,
        why,
        reason,
    };
    hall.book.control(table, control);
    Ok(())
}

/// An illegal move corrected: a technical foul for the mover, and the
/// wrong move taken back at the terminal unless the player already
/// corrected it on the board (taking back would undo the correction).
fn correct(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    r: &Ruled,
    mover: Side,
    now: u64,
) -> Result<(), Refusal> {
    let params = hall.params;
    let claim_id = r.claim_id;
    let t = super::table_mut(&mut hall.tables, table)?;
    let uncorrected = t
        .pending_illegal
        .take()
        .is_some_and(|p| p.claim_id == claim_id);
    let note = "illegal move corrected";
    t.add_foul(
        mover,
        FoulKind::Technical,
        note,
        now,
        &params,
        &mut hall.book,
    );
    if r.kind == ClaimKind::IllegalMove && uncorrected {
        let reason = format!("illegal move corrected (claim {claim_id}, AXF-PLAY-4A)");
        let by = by.who();
        hall.book
            .control(table, ControlToTable::TakeBack { by, reason });
    }
    Ok(())
}

/// A false natural-limit claim (AXF-LIMIT-3): a technical foul if the rules
/// say so and time off the claimant's clock, whose flag may fall by it.
fn false_limit_claim(
    hall: &mut Hall,
    by: &Author,
    table: u16,
    side: Side,
    technical_foul: bool,
    deduct_ms: u64,
    now: u64,
) -> Result<(), Refusal> {
    let params = hall.params;
    let t = super::table_mut(&mut hall.tables, table)?;
    if technical_foul {
        let note = "false natural-limit claim";
        t.add_foul(
            side,
            FoulKind::Technical,
            note,
            now,
            &params,
            &mut hall.book,
        );
    }
    let after = t
        .clock
        .remaining_at(color(side), now)
        .saturating_sub(deduct_ms);
    let other = t.clock.remaining_at(color(side.other()), now);
    let (red_ms, black_ms) = match side {
        Side::Red => (after, other),
        Side::Black => (other, after),
    };
    t.clock.adjust(red_ms, black_ms, now);
    t.sample_clock(now);
    let control = ControlToTable::Adjust {
        by: by.who(),
        red_ms,
        black_ms,
        reason: format!(
            "false natural-limit claim: {} off (AXF-LIMIT-3)",
            rulebook::clock_text(deduct_ms, rulebook::ClockForm::Short)
        ),
    };
    hall.book.control(table, control);
    if after == 0 {
        t.flag_fall(side, now, &mut hall.book);
    }
    Ok(())
}
