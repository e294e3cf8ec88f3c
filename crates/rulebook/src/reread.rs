//! The second reading (复核): does the arbiter's judgement of intent change the ruling?
//!
//! Three notions in the AXF glossary rest on intent: a block (拦, "to cut a
//! piece's line"), a material threat (要抽吃, "intending to win material by a
//! check") and a chase made while escaping check (解照还捉: is the escape also
//! "intending to capture next move"?). The classifier reads them from the
//! board (`classify.rs`); the arbiter may read the intent otherwise. Referring
//! every such cycle to the arbiter would bury the rulings that do not depend
//! on it, so the cycle is ruled a second time with the other reading: every
//! block and material threat read as an idle move (闲), every chase made out
//! of check read as a plain escape. When both readings give the same verdict
//! and the same side to change, the judgement cannot change the outcome and
//! the ruling stands without a referral; when they differ, the referral stays
//! and names what the other reading would give. A search that ran out of
//! budget is always referred: its other reading is unknown.

use crate::classify::MoveClass;
use crate::explain::Explanation;
use crate::pattern::CycleMove;
use crate::ruling::{Ruling, Verdict};

/// The judgement-free reading of one move: intent-laden labels dropped.
fn plain(class: &MoveClass) -> MoveClass {
    let mut c = class.clone();
    c.block = false;
    c.material_threat = false;
    if c.out_of_check {
        c.chases.clear();
    }
    c
}

/// Whether any move carries a label that rests on intent.
fn intent_laden(moves: &[CycleMove]) -> bool {
    moves.iter().any(|m| {
        m.class.block
            || m.class.material_threat
            || (m.class.out_of_check && !m.class.chases.is_empty())
    })
}

fn verdict_words(verdict: Verdict, must_change: Option<xiangqi::Color>) -> (String, String) {
    match (verdict, must_change) {
        (Verdict::Draw, _) => ("和棋".to_string(), "a draw".to_string()),
        (_, Some(c)) => (
            format!("{}须变着", c.name_zh()),
            format!("{} must change", c.name_en().to_lowercase()),
        ),
        (v, None) => (v.name().to_string(), v.name().replace('_', " ")),
    }
}

/// [`verdict_words`] as data.
fn verdict_typed(verdict: Verdict, must_change: Option<xiangqi::Color>) -> Explanation {
    match (verdict, must_change) {
        (Verdict::Draw, _) => Explanation::new("ruling-other-draw"),
        (_, Some(c)) => Explanation::new("ruling-other-must-change").side("side", c),
        (Verdict::RedLoses, None) => {
            Explanation::new("ruling-other-loses").side("side", xiangqi::Color::Red)
        }
        (Verdict::BlackLoses, None) => {
            Explanation::new("ruling-other-loses").side("side", xiangqi::Color::Black)
        }
    }
}

/// Settles the arbiter referral of `ruling` (the ruling on `moves`): `judge`
/// rules on a re-read copy of the moves. The verdict, rules and explanation
/// of `ruling` are kept; only `arbiter` changes.
pub fn settle(
    mut ruling: Ruling,
    moves: &[CycleMove],
    judge: impl Fn(&[CycleMove]) -> Ruling,
) -> Ruling {
    if ruling.arbiter.is_none() || !intent_laden(moves) {
        return ruling;
    }
    if moves.iter().any(|m| m.class.search_incomplete) {
        return ruling;
    }
    let reread: Vec<CycleMove> = moves
        .iter()
        .map(|m| CycleMove {
            side: m.side,
            class: plain(&m.class),
            ids: m.ids.clone(),
        })
        .collect();
    let other = judge(&reread);
    if other.verdict == ruling.verdict && other.must_change == ruling.must_change {
        ruling.arbiter = None;
        ruling.judgement = None;
        return ruling;
    }
    if let Some(j) = ruling.judgement.take() {
        ruling.judgement = Some(
            Explanation::new("ruling-judgement-otherwise")
                .part("judgement", j)
                .part("other", verdict_typed(other.verdict, other.must_change)),
        );
    }
    let (oz, oe) = verdict_words(other.verdict, other.must_change);
    if let Some((zh, en)) = ruling.arbiter.as_mut() {
        zh.push_str(&format!(
            "若裁判员认定这些着法并无此意图（作闲着或单纯应将论），则为{oz}。"
        ));
        en.push_str(&format!(
            " If the arbiter finds no such intent (reading them as idle moves or plain escapes), the ruling is {oe}."
        ));
    }
    ruling
}
