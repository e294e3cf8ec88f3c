//! Repetition (棋例) end to end: replaying a game, finding the cycle, ruling
//! on it; and [`RepetitionWatch`], the incremental checker the server feeds
//! one move at a time.
//!
//! The alert rule (docs/rules.md, "The repetition procedure"): a position
//! occurring for the third time raises it; the cycle ruled on is the one
//! between the position's last two occurrences. Captures end every cycle
//! (material never comes back), so the watch forgets the history at each
//! capture and its cost per move stays O(1) (one hash, one map update).
//! While a repetition goes on, every ply raises an alert on a cycle of the
//! same moves: the watch keeps their classifications ([`ClassMemo`]) and
//! only classifies moves it has not judged yet.

use crate::chase::ChaseDefinition;
use crate::classify::{classify_played, MoveClass};
use crate::cycle::{final_cycle, Cycle};
use crate::pattern::{side_pattern, CycleMove, PieceIds, SidePattern};
pub use crate::protection::pinners;
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
    let played = moves.get(cycle.start..cycle.end)?;
    let taken = undos.get(cycle.start..cycle.end)?;
    let mut at = end;
    for (&mv, &undo) in played.iter().zip(taken).rev() {
        at.unplay(mv, undo);
    }
    Some(judge_cycle(&at, played, cycle, set))
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
    let mut at = start.clone();
    for &mv in moves.get(..cycle.start)? {
        at.play_unchecked(mv);
    }
    Some(judge_cycle(
        &at,
        moves.get(cycle.start..cycle.end)?,
        cycle,
        set,
    ))
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
        let mut at = self.base.clone();
        for &m in &self.moves[..local.start] {
            at.play_unchecked(m);
        }
        // Report plies counted from the watch's start, not from the last capture.
        let cycle = Cycle {
            start: local.start + self.base_ply,
            end: local.end + self.base_ply,
            ..local
        };
        let ruling = judge_cycle_with(
            &at,
            &self.moves[local.start..local.end],
            cycle,
            self.set,
            &mut self.memo,
        );
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
