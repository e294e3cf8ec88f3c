//! The ROC move limit (限著) as the ROC text defines it (docs/rules.md, ROC-6
//! to ROC-8): *declared*, counted *per player* from the declaration.
//!
//! - Declared (ROC-6) by the arbiter, on a player's request or on his own
//!   judgement, in a win-or-draw ending going round, or in a book draw 例和 /
//!   true draw 正和. The declaration names the limited side: the stronger
//!   side, the one that must win within the limit ("被限著方（佔優勢者）"). A
//!   player asking for it is the weaker side, so by default the limited side
//!   is the requester's opponent; the arbiter names it.
//! - 40 moves per player (30 in a book draw), ROC-7: reached, with no new
//!   development, the game is a draw.
//! - Replies to check (ROC-8): while the weaker side checks now and then,
//!   only five of the limited side's replies to check count in the whole
//!   limit; the checks themselves count in full.
//! - A new development (a piece lost; a position turned lost, which only the
//!   arbiter can see) lets the arbiter cancel the limit, declare a new one or
//!   play on without one (ROC-7). The counter sees captures: after one it
//!   stops counting and asks the arbiter to decide ([`RocLimitState::Reset`]).
//!
//! [`RocLimitCounter`] is fed every ply of the game (the plies before the
//! declaration only tell whether the first counted ply is a reply to check);
//! [`RocLimitCounter::judge`] rules on a claim that the limit is full.

use crate::explain::Explanation;
use crate::limit::PlyFact;
use crate::rule_id::RuleId;
use crate::ruleset::RuleParams;
use xiangqi::Color;

/// Who declared the limit (ROC-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declarer {
    /// The arbiter, on his own judgement.
    Arbiter,
    /// The arbiter, on this player's request.
    Player(Color),
}

/// A declared ROC move limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RocDeclaration {
    /// Plies played when it was declared (the count starts with the next ply).
    pub at_ply: u32,
    /// Who asked for it.
    pub by: Declarer,
    /// The limited (stronger) side.
    pub limited: Color,
    /// A book draw 例和: 30 moves each instead of 40.
    pub book_draw: bool,
}

impl RocDeclaration {
    /// A declaration; the limited side defaults to the requester's opponent.
    /// `None` when the arbiter declares without naming the limited side.
    pub fn new(
        at_ply: u32,
        by: Declarer,
        limited: Option<Color>,
        book_draw: bool,
    ) -> Option<RocDeclaration> {
        let limited = match (limited, by) {
            (Some(c), _) => c,
            (None, Declarer::Player(c)) => c.other(),
            (None, Declarer::Arbiter) => return None,
        };
        Some(RocDeclaration {
            at_ply,
            by,
            limited,
            book_draw,
        })
    }

    /// Moves each player must make (40, or 30 in a book draw), from the rule
    /// set's plies (both sides) rounded up to whole moves.
    pub fn moves_each(&self, params: &RuleParams) -> u32 {
        let plies = if self.book_draw {
            params.limit.book_draw_plies
        } else {
            params.limit.required_plies
        };
        plies.div_ceil(2)
    }
}

/// The ROC parameters with a limit of `moves_each` moves per player and
/// `reply_cap` counted replies to check: for a counter that gets its sizes
/// from elsewhere (the table terminal gets them from the hall's declaration).
pub fn roc_params(moves_each: u32, reply_cap: u32) -> RuleParams {
    let mut p = crate::ruleset::RuleSet::Roc.params();
    p.limit.required_plies = moves_each.saturating_mul(2);
    p.limit.book_draw_plies = moves_each.saturating_mul(2);
    p.limit.check_cap = reply_cap;
    p
}

/// Where a declared limit stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RocLimitState {
    /// Counting; not full yet.
    Running,
    /// Both players have made their moves: a draw if nothing new happened.
    Full,
    /// A piece was captured at this ply (plies played) after the
    /// declaration: the arbiter cancels, resets or keeps the limit (ROC-7).
    Reset {
        /// Plies played after the capture.
        at_ply: u32,
    },
}

/// Counts a declared limit per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RocLimitCounter {
    decl: RocDeclaration,
    ply: u32,
    moves: [u32; 2],
    replies: u32,
    pending_check: Option<Color>,
    capture_at: Option<u32>,
}

impl RocLimitCounter {
    /// A counter for `decl`, before the first ply of the game (or of the
    /// position the plies are counted from).
    pub fn new(decl: RocDeclaration) -> RocLimitCounter {
        RocLimitCounter {
            decl,
            ply: 0,
            moves: [0, 0],
            replies: 0,
            pending_check: None,
            capture_at: None,
        }
    }

    /// A counter for `decl` declared now, `ply` plies into the game; `check_by`
    /// is the side whose last ply gave check, if any.
    pub fn declared_now(decl: RocDeclaration, check_by: Option<Color>) -> RocLimitCounter {
        RocLimitCounter {
            ply: decl.at_ply,
            pending_check: check_by,
            ..RocLimitCounter::new(decl)
        }
    }

    /// The declaration.
    pub fn declaration(&self) -> RocDeclaration {
        self.decl
    }

    /// Records the next ply of the game.
    pub fn record(&mut self, fact: PlyFact) {
        let reply = self.pending_check == Some(fact.by.other());
        self.ply = self.ply.saturating_add(1);
        self.pending_check = fact.check.then_some(fact.by);
        if self.ply <= self.decl.at_ply || self.capture_at.is_some() {
            return;
        }
        if fact.capture {
            self.capture_at = Some(self.ply);
            return;
        }
        let i = fact.by.index();
        self.moves[i] = self.moves[i].saturating_add(1);
        if reply && fact.by == self.decl.limited {
            self.replies = self.replies.saturating_add(1);
        }
    }

    /// Moves `side` made since the declaration.
    pub fn moves_by(&self, side: Color) -> u32 {
        self.moves[side.index()]
    }

    /// The limited side's replies to check since the declaration.
    pub fn replies_to_check(&self) -> u32 {
        self.replies
    }

    /// Replies to check that do not count (beyond the cap, ROC-8).
    pub fn struck(&self, params: &RuleParams) -> u32 {
        self.replies.saturating_sub(params.limit.check_cap)
    }

    /// Moves of `side` that count towards the limit.
    pub fn counted(&self, side: Color, params: &RuleParams) -> u32 {
        let m = self.moves_by(side);
        if side == self.decl.limited {
            m.saturating_sub(self.struck(params))
        } else {
            m
        }
    }

    /// Moves `side` still has to make.
    pub fn remaining(&self, side: Color, params: &RuleParams) -> u32 {
        self.decl
            .moves_each(params)
            .saturating_sub(self.counted(side, params))
    }

    /// Where the limit stands.
    pub fn state(&self, params: &RuleParams) -> RocLimitState {
        if let Some(at_ply) = self.capture_at {
            RocLimitState::Reset { at_ply }
        } else if Color::ALL
            .into_iter()
            .all(|c| self.remaining(c, params) == 0)
        {
            RocLimitState::Full
        } else {
            RocLimitState::Running
        }
    }

    /// Rules on a claim that the limit is full.
    pub fn judge(&self, params: &RuleParams) -> RocLimitVerdict {
        let state = self.state(params);
        let each = self.decl.moves_each(params);
        let lim = self.decl.limited;
        let (lz, le) = (lim.name_zh(), lim.name_en());
        let struck = self.struck(params);
        let cap = params.limit.check_cap;
        let counts_zh = format!(
            "自第{}步宣判限著（每方{each}步{}，被限著方{lz}），{}已走{}步、{}已走{}步；{lz}應照{}著，只計{cap}著，不計{struck}著；剩餘：紅方{}步、黑方{}步。",
            self.decl.at_ply,
            if self.decl.book_draw { "，例和" } else { "" },
            Color::Red.name_zh(),
            self.counted(Color::Red, params),
            Color::Black.name_zh(),
            self.counted(Color::Black, params),
            self.replies,
            self.remaining(Color::Red, params),
            self.remaining(Color::Black, params),
        );
        let counts_en = format!(
            "Move limit declared at ply {} ({each} moves each{}, {le} limited): Red {} and Black {} counted moves; {le} replied to check {} times, at most {cap} count, {struck} struck; remaining: Red {}, Black {}.",
            self.decl.at_ply,
            if self.decl.book_draw { ", book draw" } else { "" },
            self.counted(Color::Red, params),
            self.counted(Color::Black, params),
            self.replies,
            self.remaining(Color::Red, params),
            self.remaining(Color::Black, params),
        );
        let mut rule_ids = vec![RuleId::ROC_6, RuleId::ROC_7];
        if self.replies > 0 {
            rule_ids.push(RuleId::ROC_8);
        }
        let (zh, en) = match state {
            RocLimitState::Full => (
                format!("{counts_zh}限著已滿，局勢無新變化，判和。"),
                format!("{counts_en} The limit is full with no new development: draw."),
            ),
            RocLimitState::Running => (
                format!("{counts_zh}限著未滿，申請不實，繼續對弈（棋規對此無罰則）。"),
                format!("{counts_en} The limit is not full: the claim is false, play continues (the ROC text sets no penalty for it)."),
            ),
            RocLimitState::Reset { at_ply } => (
                format!("{counts_zh}第{at_ply}步吃子，局勢出現新變化：請裁判員取消原限著，另行限著或不限著繼續比賽。"),
                format!("{counts_en} A piece was captured at ply {at_ply}, a new development: the arbiter cancels the limit, declares a new one or lets play go on without one."),
            ),
        };
        let explanation = Explanation::new("roc-limit-verdict")
            .part("counts", self.counts_typed(params))
            .part(
                "outcome",
                match state {
                    RocLimitState::Full => Explanation::new("roc-limit-full"),
                    RocLimitState::Running => Explanation::new("roc-limit-not-full"),
                    RocLimitState::Reset { at_ply } => {
                        Explanation::new("roc-limit-reset").count("ply", at_ply as usize)
                    }
                },
            );
        RocLimitVerdict {
            state,
            counted: [
                self.counted(Color::Red, params),
                self.counted(Color::Black, params),
            ],
            remaining: [
                self.remaining(Color::Red, params),
                self.remaining(Color::Black, params),
            ],
            struck,
            rule_ids,
            explanation_zh: zh,
            explanation_en: en,
            explanation,
        }
    }

    /// The counts of [`RocLimitCounter::judge`]'s explanation as data.
    fn counts_typed(&self, params: &RuleParams) -> Explanation {
        let n = |x: u32| x as usize;
        Explanation::new("roc-limit-counts")
            .count("ply", self.decl.at_ply as usize)
            .count("each", n(self.decl.moves_each(params)))
            .part(
                "book",
                Explanation::new(if self.decl.book_draw {
                    "roc-limit-book-draw"
                } else {
                    "ruling-none"
                }),
            )
            .side("limited", self.decl.limited)
            .count("red", n(self.counted(Color::Red, params)))
            .count("black", n(self.counted(Color::Black, params)))
            .count("replies", n(self.replies))
            .count("cap", n(params.limit.check_cap))
            .count("struck", n(self.struck(params)))
            .count("red-left", n(self.remaining(Color::Red, params)))
            .count("black-left", n(self.remaining(Color::Black, params)))
    }
}

/// The ruling on a claim that a declared ROC limit is full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RocLimitVerdict {
    /// Where the limit stands: `Full` upholds the claim (a draw).
    pub state: RocLimitState,
    /// Counted moves, Red then Black.
    pub counted: [u32; 2],
    /// Remaining moves, Red then Black.
    pub remaining: [u32; 2],
    /// The limited side's replies to check struck from its count.
    pub struck: u32,
    /// Rules applied.
    pub rule_ids: Vec<RuleId>,
    /// Explanation in Chinese.
    pub explanation_zh: String,
    /// Explanation in English.
    pub explanation_en: String,
    /// The explanation as data (`roc-limit-*`, `explain.rs`): its English
    /// rendering is `explanation_en`; its Chinese is in one script (the
    /// text above mixes the ROC text's Traditional words with Simplified
    /// side names).
    pub explanation: Explanation,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::RuleSet;
    use Color::{Black, Red};

    fn fact(by: Color, check: bool, capture: bool) -> PlyFact {
        PlyFact { by, capture, check }
    }

    /// Red (limited) and Black alternate quiet moves.
    fn quiet(c: &mut RocLimitCounter, plies: u32, first: Color) {
        let mut by = first;
        for _ in 0..plies {
            c.record(fact(by, false, false));
            by = by.other();
        }
    }

    #[test]
    fn forty_moves_each_from_the_declaration() {
        let p = RuleSet::Roc.params();
        let d = RocDeclaration::new(10, Declarer::Player(Black), None, false).unwrap();
        assert_eq!(d.limited, Red);
        assert_eq!(d.moves_each(&p), 40);
        let mut c = RocLimitCounter::new(d);
        quiet(&mut c, 10, Red); // before the declaration: not counted
        quiet(&mut c, 79, Red);
        assert_eq!((c.moves_by(Red), c.moves_by(Black)), (40, 39));
        assert_eq!(c.state(&p), RocLimitState::Running);
        assert_eq!(c.remaining(Black, &p), 1);
        quiet(&mut c, 1, Black);
        assert_eq!(c.state(&p), RocLimitState::Full);
    }

    #[test]
    fn only_five_replies_to_check_count() {
        let p = RuleSet::Roc.params();
        let d = RocDeclaration::new(0, Declarer::Arbiter, Some(Red), true).unwrap();
        assert_eq!(d.moves_each(&p), 30);
        let mut c = RocLimitCounter::new(d);
        // Eight times Red moves, Black checks, Red replies.
        for _ in 0..8 {
            c.record(fact(Red, false, false));
            c.record(fact(Black, true, false));
        }
        assert_eq!(c.replies_to_check(), 7); // the 8th reply is not played yet
        c.record(fact(Red, false, false));
        assert_eq!(c.replies_to_check(), 8);
        assert_eq!(c.struck(&p), 3);
        assert_eq!(c.counted(Red, &p), 9 - 3);
        assert_eq!(c.counted(Black, &p), 8); // the checks count in full
                                             // Black's replies to Red's checks are never struck.
        c.record(fact(Black, false, false));
        c.record(fact(Red, true, false));
        c.record(fact(Black, false, false));
        assert_eq!(c.counted(Black, &p), 10);
    }

    #[test]
    fn a_capture_after_the_declaration_asks_for_a_reset() {
        let p = RuleSet::Roc.params();
        let d = RocDeclaration::new(4, Declarer::Player(Red), None, false).unwrap();
        let mut c = RocLimitCounter::new(d);
        c.record(fact(Red, false, true)); // a capture before: nothing
        quiet(&mut c, 5, Black);
        c.record(fact(Black, false, true));
        quiet(&mut c, 200, Red);
        assert_eq!(c.state(&p), RocLimitState::Reset { at_ply: 7 });
        let v = c.judge(&p);
        assert!(v.explanation_en.contains("ply 7"), "{}", v.explanation_en);
    }

    #[test]
    fn sizes_given_from_elsewhere() {
        let p = roc_params(30, 5);
        let d = RocDeclaration::new(0, Declarer::Arbiter, Some(Red), false).unwrap();
        assert_eq!(d.moves_each(&p), 30);
        assert_eq!(p.limit.check_cap, 5);
        let d = RocDeclaration {
            book_draw: true,
            ..d
        };
        assert_eq!(d.moves_each(&p), 30);
    }

    #[test]
    fn the_arbiter_names_the_limited_side() {
        assert_eq!(RocDeclaration::new(0, Declarer::Arbiter, None, false), None);
    }
}
