//! The message ids of the wire's closed vocabularies (词汇): sides,
//! pieces, alert kinds, claim kinds, end reasons, verdicts, foul kinds.
//! Every match here names each variant (no wildcard), so a variant added
//! to proto fails to compile until it has an id, and the catalogue test
//! checks every id of [`every_id`] is in all four catalogues.

use proto::{AlertKind, ClaimKind, EndReason, FoulKind, Message, PieceKind, Side, Verdict};

/// The id of a side's name (红方 / Red).
pub fn side(side: Side) -> &'static str {
    match side {
        Side::Red => "side-red",
        Side::Black => "side-black",
    }
}

/// The id of a piece's name; the message takes `$side` (`red` or
/// `black`), since Chinese writes the two sides' pieces apart.
pub fn piece(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "piece-general",
        PieceKind::Advisor => "piece-advisor",
        PieceKind::Elephant => "piece-elephant",
        PieceKind::Horse => "piece-horse",
        PieceKind::Chariot => "piece-chariot",
        PieceKind::Cannon => "piece-cannon",
        PieceKind::Soldier => "piece-soldier",
    }
}

/// Every piece kind.
pub const PIECES: [PieceKind; 7] = [
    PieceKind::General,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Soldier,
];

/// Every alert kind.
pub const ALERT_KINDS: [AlertKind; 19] = [
    AlertKind::FlagFall,
    AlertKind::IllegalMove,
    AlertKind::Repetition,
    AlertKind::NaturalLimit,
    AlertKind::NoShow,
    AlertKind::ClockAnomaly,
    AlertKind::TableOffline,
    AlertKind::TableOnline,
    AlertKind::FoulThreshold,
    AlertKind::SealOverdue,
    AlertKind::ArbiterCalled,
    AlertKind::ClaimPending,
    AlertKind::GameOver,
    AlertKind::RefusedCommands,
    AlertKind::MoveLimit,
    AlertKind::RecordQuarantined,
    AlertKind::TerminalReplaced,
    AlertKind::TwoTerminals,
    AlertKind::StoppedReading,
];

/// The id of an alert kind's short name (超时 / flag fall).
pub fn alert_kind(kind: AlertKind) -> &'static str {
    match kind {
        AlertKind::FlagFall => "alert-kind-flag-fall",
        AlertKind::IllegalMove => "alert-kind-illegal-move",
        AlertKind::Repetition => "alert-kind-repetition",
        AlertKind::NaturalLimit => "alert-kind-natural-limit",
        AlertKind::NoShow => "alert-kind-no-show",
        AlertKind::ClockAnomaly => "alert-kind-clock-anomaly",
        AlertKind::TableOffline => "alert-kind-table-offline",
        AlertKind::TableOnline => "alert-kind-table-online",
        AlertKind::FoulThreshold => "alert-kind-foul-threshold",
        AlertKind::SealOverdue => "alert-kind-seal-overdue",
        AlertKind::ArbiterCalled => "alert-kind-arbiter-called",
        AlertKind::ClaimPending => "alert-kind-claim-pending",
        AlertKind::GameOver => "alert-kind-game-over",
        AlertKind::RefusedCommands => "alert-kind-refused-commands",
        AlertKind::MoveLimit => "alert-kind-move-limit",
        AlertKind::RecordQuarantined => "alert-kind-record-quarantined",
        AlertKind::TerminalReplaced => "alert-kind-terminal-replaced",
        AlertKind::TwoTerminals => "alert-kind-two-terminals",
        AlertKind::StoppedReading => "alert-kind-stopped-reading",
    }
}

/// Every claim kind.
pub const CLAIM_KINDS: [ClaimKind; 8] = [
    ClaimKind::NaturalLimit,
    ClaimKind::Repetition,
    ClaimKind::IllegalMove,
    ClaimKind::FoulThreshold,
    ClaimKind::FlagFall,
    ClaimKind::NoShow,
    ClaimKind::DrawOffer,
    ClaimKind::MoveLimit,
];

/// The id of a claim kind's name (自然限着 / natural move limit).
pub fn claim_kind(kind: ClaimKind) -> &'static str {
    match kind {
        ClaimKind::NaturalLimit => "claim-kind-natural-limit",
        ClaimKind::Repetition => "claim-kind-repetition",
        ClaimKind::IllegalMove => "claim-kind-illegal-move",
        ClaimKind::FoulThreshold => "claim-kind-foul-threshold",
        ClaimKind::FlagFall => "claim-kind-flag-fall",
        ClaimKind::NoShow => "claim-kind-no-show",
        ClaimKind::DrawOffer => "claim-kind-draw-offer",
        ClaimKind::MoveLimit => "claim-kind-move-limit",
    }
}

/// The id of an end reason's name (将死 / checkmate).
pub fn end_reason(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Checkmate => "end-reason-checkmate",
        EndReason::Stalemate => "end-reason-stalemate",
        EndReason::Resignation => "end-reason-resignation",
        EndReason::Flag => "end-reason-flag",
        EndReason::PerpetualCheck => "end-reason-perpetual-check",
        EndReason::PerpetualChase => "end-reason-perpetual-chase",
        EndReason::Repetition => "end-reason-repetition",
        EndReason::NaturalLimit => "end-reason-natural-limit",
        EndReason::Fouls => "end-reason-fouls",
        EndReason::IllegalMove => "end-reason-illegal-move",
        EndReason::Forfeit => "end-reason-forfeit",
        EndReason::Agreement => "end-reason-agreement",
        EndReason::Arbiter => "end-reason-arbiter",
        EndReason::Reported => "end-reason-reported",
        EndReason::MoveLimit => "end-reason-move-limit",
    }
}

/// The id of a foul kind's name (技术犯规 / technical foul).
pub fn foul_kind(kind: FoulKind) -> &'static str {
    match kind {
        FoulKind::Technical => "foul-kind-technical",
        FoulKind::Violation => "foul-kind-violation",
    }
}

/// A verdict as a message (判和 / draw; 红方负 / Red loses; …).
pub fn verdict(v: Verdict) -> Message {
    match v {
        Verdict::Continue => Message::new("verdict-continue"),
        Verdict::Draw => Message::new("verdict-draw"),
        Verdict::Loss { side } => Message::new("verdict-loss").side("side", side),
        Verdict::CorrectMove { side } => Message::new("verdict-correct-move").side("side", side),
        Verdict::Order => Message::new("verdict-order"),
    }
}

/// Every verdict shape (for the catalogue test).
pub fn every_verdict() -> Vec<Verdict> {
    vec![
        Verdict::Continue,
        Verdict::Draw,
        Verdict::Loss { side: Side::Red },
        Verdict::CorrectMove { side: Side::Black },
        Verdict::Order,
    ]
}

/// Every message id the code above can produce, with the arguments each
/// takes (the catalogue test checks both against all four catalogues).
pub fn every_id() -> Vec<(String, Vec<String>)> {
    let mut ids: Vec<(String, Vec<String>)> = Vec::new();
    for s in Side::ALL {
        ids.push((side(s).into(), vec![]));
    }
    for p in PIECES {
        ids.push((piece(p).into(), vec!["side".to_string()]));
    }
    for k in ALERT_KINDS {
        ids.push((alert_kind(k).into(), vec![]));
    }
    for k in CLAIM_KINDS {
        ids.push((claim_kind(k).into(), vec![]));
    }
    for r in EndReason::ALL {
        ids.push((end_reason(r).into(), vec![]));
    }
    for f in [FoulKind::Technical, FoulKind::Violation] {
        ids.push((foul_kind(f).into(), vec![]));
    }
    for v in every_verdict() {
        let m = verdict(v);
        ids.push((m.id, m.args.iter().map(|(n, _)| n.clone()).collect()));
    }
    ids.sort();
    ids.dedup();
    ids
}
