//! Repetition (棋例) end to end: replaying a game, finding the cycle, ruling
//! on it; and [`RepetitionWatch`], the incremental checker the server feeds
//! one move at a time.
//!
//! The alert rule (docs/rules.md, "The repetition procedure"): a position
//! occurring for the third time raises it. The moves ruled on are those of
//! the whole repetition, from the occurrence two before the last (the first,
//! at the third occurrence) to the last (AXF-REF-G: the moves have gone round
//! three times): when the two cycles are the same moves of the same pieces,
//! that is the last cycle twice over and the last cycle alone is classified
//! ([`cycles_agree`]); when they differ, both are classified together and the
//! ruling says so ([`Ruling::whole_from`]). Captures end every cycle
//! (material never comes back), so the watch forgets the history at each
//! capture and its cost per move stays O(1) (one hash, one map update).
//! While a repetition goes on, every ply raises an alert on a cycle of the
//! same moves: the watch keeps their classifications ([`ClassMemo`]) and
//! only classifies moves it has not judged yet.

use crate::chase::ChaseDefinition;
use crate::classify::{classify_played, MoveClass};
use crate::cycle::{earlier_occurrence, final_cycle, Cycle};
use crate::explain::Explanation;
use crate::pattern::{side_pattern, CycleMove, PieceIds, SidePattern};
pub use crate::protection::pinners;
use crate::rule_id::RuleId;
use crate::ruleset::RuleSet;
use crate::ruling::{rule, Ruling};
use std::collections::HashMap;
use xiangqi::{Color, IllegalMove, Move, Position, Role, Undo};

/// Occurrences of a position that raise the repetition alert.
pub const ALERT_OCCURRENCES: usize = 3;

/// The chase definition of a rule set (ROC: by protection and type; CXA: by material, CXA-3).
pub fn chase_definition(set: RuleSet) -> ChaseDefinition {
    match set {
        RuleSet::Cxa => ChaseDefinition::Material,
        RuleSet::Roc => ChaseDefinition::Roc,
        RuleSet::Axf => ChaseDefinition::Axf,
    }
}

/// Rules on the cycle `moves`, played from `start` (the first occurrence of
/// the repeated position). The moves must be legal.
pub fn judge_cycle(start: &Position, moves: &[Move], cycle: Cycle, set: RuleSet) -> Ruling {
    // No memo: a cycle judged once classifies each (position, move) of it
    // once (one that recurs inside the cycle gets the same class again).
    let def = chase_definition(set);
    judge_cycle_by(start, moves, cycle, set, |before, mv, after| {
        classify_played(before, mv, after, def)
    })
}

/// Classifications of moves already judged, by position and move: a
/// repetition that goes on rules on the same moves again at every ply
/// (`RepetitionWatch`), and a classification depends only on the position
/// before the move and the move (the rule set is fixed per memo).
#[derive(Clone, Debug, Default)]
pub struct ClassMemo {
    seen: HashMap<(u64, Move), (Position, MoveClass)>,
}

impl ClassMemo {
    /// The classification of `mv` played in `before` (giving `after`).
    fn classify(
        &mut self,
        before: &Position,
        mv: Move,
        after: &Position,
        def: ChaseDefinition,
    ) -> MoveClass {
        let key = (before.zobrist(), mv);
        if let Some((p, class)) = self.seen.get(&key) {
            // The hash names the placement; check it to be sure.
            if p.turn() == before.turn() && p.pieces().eq(before.pieces()) {
                return class.clone();
            }
        }
        let class = classify_played(before, mv, after, def);
        self.seen.insert(key, (before.clone(), class.clone()));
        class
    }

    /// Forgets everything (positions before a capture never come back).
    pub fn clear(&mut self) {
        self.seen.clear();
    }
}

/// [`judge_cycle`] reusing (and filling) `memo`.
pub fn judge_cycle_with(
    start: &Position,
    moves: &[Move],
    cycle: Cycle,
    set: RuleSet,
    memo: &mut ClassMemo,
) -> Ruling {
    let def = chase_definition(set);
    judge_cycle_by(start, moves, cycle, set, |before, mv, after| {
        memo.classify(before, mv, after, def)
    })
}

/// [`judge_cycle`] with `classify(before, mv, after)` classifying each move.
fn judge_cycle_by(
    start: &Position,
    moves: &[Move],
    cycle: Cycle,
    set: RuleSet,
    mut classify: impl FnMut(&Position, Move, &Position) -> MoveClass,
) -> Ruling {
    let mut pos = start.clone();
    let mut ids = PieceIds::new(start);
    let mut classified = Vec::with_capacity(moves.len());
    for &mv in moves {
        let before = pos.clone();
        let side = pos.turn();
        pos.play_unchecked_quiet(mv);
        ids.apply(mv);
        let class = classify(&before, mv, &pos);
        classified.push(CycleMove {
            side,
            class,
            ids: ids.clone(),
        });
    }
    let judge = |moves: &[CycleMove]| rule_classified(start, moves, cycle, set);
    crate::reread::settle(judge(&classified), &classified, judge)
}

/// Whether the earlier cycle of a repetition and its last are the same moves
/// of the same pieces (every piece back on its own square after the earlier
/// one, so no two pieces of a kind changed roles). Then the whole repetition
/// classifies as the last cycle twice over and its patterns are the last
/// cycle's: only that one is classified.
pub fn cycles_agree(earlier: &[Move], last: &[Move]) -> bool {
    if earlier != last {
        return false;
    }
    let mut ids = PieceIds::identity();
    for &mv in earlier {
        ids.apply(mv);
    }
    ids.is_identity()
}

/// Rules on a whole repetition whose two cycles differ: `moves` are the
/// plies from the earlier occurrence (ply `first`, position `start`) to
/// `cycle.end`, classified by `classify`. A perpetual pattern must then hold
/// on every move of both cycles, pieces followed through both (so two rooks
/// taking turns at two cannons, one pair per cycle, chase in turn: AXF-S4,
/// AXF-D27); the ruling says how the cycles were combined.
fn judge_whole_by(
    start: &Position,
    first: usize,
    moves: &[Move],
    cycle: Cycle,
    set: RuleSet,
    classify: impl FnMut(&Position, Move, &Position) -> MoveClass,
) -> Ruling {
    let mut r = judge_cycle_by(start, moves, cycle, set, classify);
    r.whole_from = Some(first);
    let (at, end) = (cycle.start, cycle.end);
    r.explanation_zh.push_str(&format!(
        "两次循环着法不同（第{first}至{at}步、第{at}至{end}步，所走之子或着法有别），按整个重复过程（最近三次出现之间，第{first}至{end}步）合并定性：长将、长捉须两次循环每着皆然，各子按同一子追踪"
    ));
    r.explanation_en.push_str(&format!(
        " The two cycles differ (plies {first}-{at} and {at}-{end}: other moves or other pieces): the moves of the whole repetition between its last three occurrences, plies {first} to {end}, were classified together, so a perpetual check or chase must hold on every move of both cycles, each piece followed through both"
    ));
    let reading = if set == RuleSet::Axf {
        Explanation::new("ruling-whole-cited").rules("rules", &[RuleId::AXF_REF_G])
    } else {
        Explanation::new("ruling-whole-reading")
    };
    r.explanation = Explanation::new("ruling-whole")
        .part(
            "ruling",
            std::mem::replace(&mut r.explanation, Explanation::new("ruling-none")),
        )
        .count("first", first)
        .count("at", at)
        .count("end", end)
        .part("reading", reading);
    if set == RuleSet::Axf {
        crate::citation::push(&mut r.rules, RuleId::AXF_REF_G);
        r.explanation_zh.push_str("（AXF-REF-G）。");
        r.explanation_en.push_str(" (AXF-REF-G).");
    } else {
        r.explanation_zh
            .push_str("（整个重复过程的读法，见 docs/rules.md）。");
        r.explanation_en
            .push_str(" (the reading of the whole repetition, docs/rules.md).");
    }
    r
}

/// Rules on the repetition ending at `cycle`: `at_first` is the position at
/// the earlier occurrence (ply `first`), `moves` the plies from there to
/// `cycle.end`. The last cycle alone when the cycles agree, else the whole.
fn judge_repetition(
    mut at_first: Position,
    first: usize,
    moves: &[Move],
    cycle: Cycle,
    set: RuleSet,
    memo: Option<&mut ClassMemo>,
) -> Option<Ruling> {
    let (earlier, last) = moves.split_at_checked(cycle.start.checked_sub(first)?)?;
    let def = chase_definition(set);
    if cycles_agree(earlier, last) {
        for &mv in earlier {
            at_first.play_unchecked_quiet(mv);
        }
        return Some(match memo {
            Some(memo) => judge_cycle_with(&at_first, last, cycle, set, memo),
            None => judge_cycle(&at_first, last, cycle, set),
        });
    }
    Some(match memo {
        Some(memo) => judge_whole_by(&at_first, first, moves, cycle, set, |b, mv, a| {
            memo.classify(b, mv, a, def)
        }),
        None => judge_whole_by(&at_first, first, moves, cycle, set, |b, mv, a| {
            classify_played(b, mv, a, def)
        }),
    })
}

/// Rules on the classified moves of `cycle`, played from `start`.
fn rule_classified(start: &Position, moves: &[CycleMove], cycle: Cycle, set: RuleSet) -> Ruling {
    let mut red = side_pattern(Color::Red, moves, start, set);
    let mut black = side_pattern(Color::Black, moves, start, set);
    add_pin_facts(&mut red, start);
    add_pin_facts(&mut black, start);
    rule(cycle, red, black, start, set)
}

/// Replays `moves` from `start` (checked) and rules on the final position if
/// it has occurred at least three times. `Err` names the first illegal move
/// and its index.
pub fn judge_game(
    start: &Position,
    moves: &[Move],
    set: RuleSet,
) -> Result<Option<Ruling>, (usize, IllegalMove)> {
    let mut pos = start.clone();
    let mut hashes = Vec::with_capacity(moves.len() + 1);
    let mut undos = Vec::with_capacity(moves.len());
    hashes.push(pos.zobrist());
    let mut last_capture = 0;
    for (i, &mv) in moves.iter().enumerate() {
        pos.check_move(mv).map_err(|e| (i, e))?;
        if pos.piece_at(mv.to).is_some() {
            last_capture = i + 1;
        }
        undos.push(pos.play_unchecked_quiet(mv));
        hashes.push(pos.zobrist());
    }
    Ok(judge_final(pos, moves, &undos, &hashes, last_capture, set))
}

/// The final cycle of `hashes` (the hash after each ply) after the last
/// capture (`last_capture` plies in), as ply indices of the whole game:
/// positions before a capture cannot recur.
fn cycle_since_capture(hashes: &[u64], last_capture: usize) -> Option<Cycle> {
    let mut cycle = final_cycle(hashes.get(last_capture..)?, ALERT_OCCURRENCES)?;
    cycle.start += last_capture;
    cycle.end += last_capture;
    Some(cycle)
}

/// [`judge_replayed`] from the end: `end` is the position after the legal
/// `moves`, `undos[i]` what playing `moves[i]` returned (`play_unchecked`).
/// The cycle's first position is `end` with the cycle's moves taken back,
/// not a second replay of the game.
pub fn judge_final(
    end: Position,
    moves: &[Move],
    undos: &[Undo],
    hashes: &[u64],
    last_capture: usize,
    set: RuleSet,
) -> Option<Ruling> {
    let cycle = cycle_since_capture(hashes, last_capture)?;
    if cycle.end != moves.len() {
        return None; // `hashes` is not of `moves` (one more than the moves)
    }
    let first = earlier_occurrence(hashes, &cycle)?;
    let played = moves.get(cycle.start..cycle.end)?;
    let taken = undos.get(cycle.start..cycle.end)?;
    let mut at = end;
    for (&mv, &undo) in played.iter().zip(taken).rev() {
        at.unplay(mv, undo);
    }
    let earlier = moves.get(first..cycle.start)?;
    if cycles_agree(earlier, played) {
        return Some(judge_cycle(&at, played, cycle, set));
    }
    for (&mv, &undo) in earlier.iter().zip(undos.get(first..cycle.start)?).rev() {
        at.unplay(mv, undo);
    }
    judge_repetition(at, first, moves.get(first..cycle.end)?, cycle, set, None)
}

/// [`judge_game`] for legal `moves` already replayed: `hashes[i]` is the
/// Zobrist hash after `i` plies and `last_capture` the number of plies up to
/// the last capture (0 if none).
pub fn judge_replayed(
    start: &Position,
    moves: &[Move],
    hashes: &[u64],
    last_capture: usize,
    set: RuleSet,
) -> Option<Ruling> {
    let cycle = cycle_since_capture(hashes, last_capture)?;
    let first = earlier_occurrence(hashes, &cycle)?;
    let mut at = start.clone();
    for &mv in moves.get(..first)? {
        at.play_unchecked(mv);
    }
    judge_repetition(at, first, moves.get(first..cycle.end)?, cycle, set, None)
}

/// A repetition alert raised by [`RepetitionWatch`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionAlert {
    /// Plies since the watch started when the alert was raised.
    pub ply: usize,
    /// The ruling on the cycle (its `cycle.occurrences` is 3 or more).
    pub ruling: Ruling,
}

/// Incremental repetition checker: feed every move; it reports when the
/// position after the move has occurred three times or more, with the ruling.
#[derive(Clone, Debug)]
pub struct RepetitionWatch {
    set: RuleSet,
    base: Position,
    base_ply: usize,
    moves: Vec<Move>,
    hashes: Vec<u64>,
    counts: HashMap<u64, u32>,
    pieces: usize,
    memo: ClassMemo,
}

impl RepetitionWatch {
    /// A watch starting at `start`.
    pub fn new(start: &Position, set: RuleSet) -> RepetitionWatch {
        let mut w = RepetitionWatch {
            set,
            base: start.clone(),
            base_ply: 0,
            moves: Vec::new(),
            hashes: Vec::new(),
            counts: HashMap::new(),
            pieces: start.pieces().count(),
            memo: ClassMemo::default(),
        };
        w.reset_at(start, 0);
        w
    }

    fn reset_at(&mut self, pos: &Position, ply: usize) {
        self.base = pos.clone();
        self.base_ply = ply;
        self.moves.clear();
        self.hashes.clear();
        self.counts.clear();
        self.memo.clear();
        let h = pos.zobrist();
        self.hashes.push(h);
        self.counts.insert(h, 1);
        self.pieces = pos.pieces().count();
    }

    /// Plies fed so far.
    pub fn ply(&self) -> usize {
        self.base_ply + self.moves.len()
    }

    /// Records the legal move `mv` whose resulting position is `after`.
    /// Returns the alert when `after` has now occurred three times or more.
    pub fn push(&mut self, mv: Move, after: &Position) -> Option<RepetitionAlert> {
        let pieces = after.pieces().count();
        if pieces != self.pieces {
            let ply = self.ply() + 1;
            self.reset_at(after, ply);
            return None;
        }
        let h = after.zobrist();
        self.moves.push(mv);
        self.hashes.push(h);
        let n = self.counts.entry(h).or_insert(0);
        *n += 1;
        if (*n as usize) < ALERT_OCCURRENCES {
            return None;
        }
        let local = final_cycle(&self.hashes, ALERT_OCCURRENCES)?;
        let first = earlier_occurrence(&self.hashes, &local)?;
        let mut at = self.base.clone();
        for &m in self.moves.get(..first)? {
            at.play_unchecked(m);
        }
        // Report plies counted from the watch's start, not from the last capture.
        let cycle = Cycle {
            start: local.start + self.base_ply,
            end: local.end + self.base_ply,
            ..local
        };
        let ruling = judge_repetition(
            at,
            first + self.base_ply,
            self.moves.get(first..local.end)?,
            cycle,
            self.set,
            Some(&mut self.memo),
        )?;
        Some(RepetitionAlert {
            ply: self.ply(),
            ruling,
        })
    }
}

/// Fills the pin facts of a forbidden chase (AXF-D14, D22, D32).
fn add_pin_facts(p: &mut SidePattern, pos: &Position) {
    let side = p.side;
    let Some(f) = p.chase.as_mut() else {
        return;
    };
    let pins = pinners(pos, f.target);
    f.pinned_by = pins
        .iter()
        .map(|(_, r)| *r)
        .find(|r| matches!(r, Role::Horse | Role::Cannon))
        .or_else(|| pins.first().map(|(_, r)| *r));
    // AXF-D32: the chasers' rook is held against its king by the target rook or a cannon.
    if f.target_role == Role::Rook
        && f.attackers
            .iter()
            .any(|(_, r)| matches!(r, Role::Horse | Role::Cannon))
    {
        f.rook_and_king_controlled = pos
            .pieces()
            .filter(|(_, pc)| pc.color == side && pc.role == Role::Rook)
            .any(|(sq, _)| {
                pinners(pos, sq)
                    .iter()
                    .any(|(s, r)| *s == f.target || *r == Role::Cannon)
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        xiangqi::parse_iccs(s).expect("ICCS")
    }

    /// The same moves agree; other moves, or the same moves that leave two
    /// pieces of a kind on each other's squares, do not.
    #[test]
    fn cycles_agree_only_on_the_same_moves_of_the_same_pieces() {
        let a: Vec<Move> = ["g4c4", "c7g7", "c4g4", "g7c7"].map(mv).to_vec();
        let b: Vec<Move> = ["i2a2", "a8i8", "a2i2", "i8a8"].map(mv).to_vec();
        assert!(cycles_agree(&a, &a));
        assert!(!cycles_agree(&a, &b));
        assert!(!cycles_agree(&a, &a[..2]));
        // Rooks on a0 and c0: a0-a1, c0-a0, a1-c1, c1-c0 (Black's king
        // stepping in between): the placement is back, the rooks swapped.
        let swap: Vec<Move> = [
            "a0a1", "e9e8", "c0a0", "e8e9", "a1c1", "e9e8", "c1c0", "e8e9",
        ]
        .map(mv)
        .to_vec();
        assert!(!cycles_agree(&swap, &swap));
    }

    /// Two rooks taking turns at two cannons, one pair per cycle: the last
    /// cycle alone is a forbidden perpetual chase; the whole repetition is
    /// two pieces chasing two in turn, a draw citing AXF-REF-G. The watch
    /// and the whole-game judgement agree.
    #[test]
    fn differing_cycles_are_judged_together() {
        let start = Position::from_fen("4k4/c8/2c6/9/9/6R2/9/8R/9/3K5 w - - 0 1").expect("FEN");
        let moves: Vec<Move> = [
            "g4c4", "c7g7", "c4g4", "g7c7", "i2a2", "a8i8", "a2i2", "i8a8",
        ]
        .map(mv)
        .to_vec();
        let whole = judge_game(&start, &moves, RuleSet::Axf)
            .expect("legal")
            .expect("a third occurrence");
        assert_eq!(whole.verdict, crate::ruling::Verdict::Draw);
        assert_eq!(whole.whole_from, Some(0));
        assert_eq!((whole.cycle.start, whole.cycle.end), (4, 8));
        assert!(whole.rules.contains(&RuleId::AXF_REF_G));
        assert!(whole.rules.contains(&RuleId::AXF_D27));
        let mut at = start.clone();
        for &m in &moves[..4] {
            at.play_unchecked(m);
        }
        let last = judge_cycle(&at, &moves[4..], whole.cycle, RuleSet::Axf);
        assert_eq!(last.verdict, crate::ruling::Verdict::RedLoses);
        let mut watch = RepetitionWatch::new(&start, RuleSet::Axf);
        let mut pos = start;
        let mut alert = None;
        for &m in &moves {
            pos.play_unchecked(m);
            alert = watch.push(m, &pos);
        }
        let alert = alert.expect("the watch raises it");
        assert_eq!(alert.ruling.verdict, whole.verdict);
        assert_eq!(alert.ruling.rules, whole.rules);
        assert_eq!(alert.ruling.whole_from, whole.whole_from);
    }
}
