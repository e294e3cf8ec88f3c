//! A decided claim as the players read it on the table terminal (申诉裁决):
//! what was claimed, by whom, and what the ruling does — "Black's claim
//! (natural limit) decided: play on, technical foul, 5:00 off". The effect
//! is worded with the console's words for the same rulings (`console-v-*`,
//! `console-pen-*`), so the arbiter and the players read one thing.

use proto::{Arg, ClaimKind, ClaimPenalty, Message, Side, Verdict};

use crate::ids;

fn nest(m: Message, name: &str, inner: Message) -> Message {
    m.arg(name, Arg::Message(Box::new(inner)))
}

/// The ruling without its penalty: "play on, Black must change", "play
/// on, no penalty", "Red loses".
fn verdict_words(v: Verdict, must_change: Option<Side>) -> &'static str {
    match (v, must_change) {
        (Verdict::Continue, Some(Side::Red)) => "console-v-red-change",
        (Verdict::Continue, Some(Side::Black)) => "console-v-black-change",
        (Verdict::Continue, None) => "console-v-continue",
        (Verdict::Order, Some(Side::Red)) => "console-v-order-red",
        (Verdict::Order, Some(Side::Black)) => "console-v-order-black",
        (Verdict::Order, None) => "console-v-order-draw",
        (Verdict::Draw, _) => "console-draw",
        (Verdict::Loss { side: Side::Red }, _) => "console-v-red-loses",
        (Verdict::Loss { side: Side::Black }, _) => "console-v-black-loses",
        (Verdict::CorrectMove { side: Side::Red }, _) => "console-v-red-correct",
        (Verdict::CorrectMove { side: Side::Black }, _) => "console-v-black-correct",
    }
}

/// What a ruling does with the penalty that went with it, one name per
/// effect: "play on, technical foul, 5:00 off" (a false natural-limit
/// claim accepted), "play on, no penalty" (nothing imposed).
pub fn claim_effect(
    v: Verdict,
    must_change: Option<Side>,
    penalty: Option<ClaimPenalty>,
) -> Message {
    let mut penalties = Vec::new();
    if let Some(p) = penalty {
        if p.technical_foul {
            penalties.push(Message::new("console-pen-foul"));
        }
        if p.deduct_ms > 0 {
            penalties
                .push(Message::new("console-pen-off").arg("time", Arg::DurationMs(p.deduct_ms)));
        }
    }
    let head = if !penalties.is_empty() && (v, must_change) == (Verdict::Continue, None) {
        "console-v-play-on"
    } else {
        verdict_words(v, must_change)
    };
    let mut list = nest(
        Message::new(proto::convert::LIST),
        "sep",
        Message::new("claim-effect-sep"),
    );
    for m in std::iter::once(Message::new(head)).chain(penalties) {
        list = list.arg("item", Arg::Message(Box::new(m)));
    }
    list
}

/// A decided claim: `kind` claimed by `claimant` (`None`: raised by the
/// server), and what the ruling does.
pub fn claim_decided(
    kind: ClaimKind,
    claimant: Option<Side>,
    verdict: Verdict,
    must_change: Option<Side>,
    penalty: Option<ClaimPenalty>,
) -> Message {
    let m = match claimant {
        Some(side) => Message::new("claim-decided").side("side", side),
        None => Message::new("claim-decided-server"),
    };
    let m = nest(m, "what", Message::new(ids::claim_kind(kind)));
    nest(m, "effect", claim_effect(verdict, must_change, penalty))
}

/// Every shape of a decided claim (for the catalogue test): each claim
/// kind, each verdict, with and without each penalty.
pub fn every_decided() -> Vec<Message> {
    let pen = |technical_foul, deduct_ms| ClaimPenalty {
        side: Side::Black,
        technical_foul,
        deduct_ms,
    };
    let mut out = Vec::new();
    for kind in ids::CLAIM_KINDS {
        out.push(claim_decided(
            kind,
            Some(Side::Red),
            Verdict::Draw,
            None,
            None,
        ));
        out.push(claim_decided(kind, None, Verdict::Draw, None, None));
    }
    for v in ids::every_verdict() {
        for m in [None, Some(Side::Red), Some(Side::Black)] {
            for p in [None, Some(pen(true, 300_000)), Some(pen(false, 60_000))] {
                out.push(claim_effect(v, m, p));
            }
        }
    }
    out
}
