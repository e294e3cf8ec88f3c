//! What each replayed table does, move by move: the real game, and on
//! incident tables the scripted incident, each checked with the real
//! rulebook before it is played (a perpetual check and a perpetual chase
//! that the rulebook rules as the chaser's loss, a natural-limit claim that
//! holds and one that does not, an illegal move that is not a loss).
//!
//! The repetitions follow the procedure (docs/rules.md, "Procedure"): at
//! the third occurrence the players wait for the arbiter's order (变着令);
//! the checking side then goes on with its cycle once more (the second
//! claim: its loss under AXF-G3, which the players wait for), the chasing
//! side changes (the real game goes on, the order lapses).

use proto::convert::wire_move;
use proto::IccsMove;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rulebook::pattern::PatternKind;
use rulebook::repetition::judge_game;
use rulebook::{judge_claim, LimitCounter, PlyFact, RuleSet};
use std::collections::HashSet;
use xiangqi::{Color, Game, IllegalReason, Move, Position};

/// The scripted incidents (`--incidents`), one per chosen table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Incident {
    /// 长将: a check cycle repeated to the third occurrence; after the
    /// order the checking side repeats it once more.
    PerpetualCheck,
    /// 长捉: a forbidden chase cycle repeated to the third occurrence;
    /// after the order the chasing side changes (the real game goes on).
    PerpetualChase,
    /// 100 capture-free plies, then a claim that holds (AXF-LIMIT-1).
    TrueLimitClaim,
    /// A claim long before the limit (AXF-LIMIT-3 penalty proposed).
    FalseLimitClaim,
    /// A player stops moving until the flag falls.
    FlagFall,
    /// A move a piece cannot make, reported as a board sensor saw it,
    /// then corrected (AXF-PLAY-4A).
    IllegalMove,
    /// The terminal loses its connection for a while and keeps playing.
    Disconnect,
}

impl Incident {
    /// All incidents, in the order tables get them.
    pub const ALL: [Incident; 7] = [
        Incident::PerpetualCheck,
        Incident::PerpetualChase,
        Incident::TrueLimitClaim,
        Incident::FalseLimitClaim,
        Incident::FlagFall,
        Incident::IllegalMove,
        Incident::Disconnect,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Incident::PerpetualCheck => "perpetual check",
            Incident::PerpetualChase => "perpetual chase",
            Incident::TrueLimitClaim => "true natural-limit claim",
            Incident::FalseLimitClaim => "false natural-limit claim",
            Incident::FlagFall => "flag fall",
            Incident::IllegalMove => "illegal move",
            Incident::Disconnect => "disconnect",
        }
    }
}

/// One step of a table's script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Think, play this move and press.
    Play(Move),
    /// The side to move claims the natural move limit.
    ClaimLimit,
    /// Report this move unchecked (it is illegal), then go on.
    Sensor(IccsMove),
    /// Drop the connection for a while and keep playing.
    Disconnect,
    /// The side to move stops thinking until its flag falls; the game ends.
    Flag,
    /// Wait for the arbiter's ruling on the limit claim; without one, the
    /// players agree the draw.
    ConcludeLimit,
    /// Wait for the arbiter's order at a repetition's third occurrence to
    /// reach the table; without one, play on.
    AwaitOrder,
    /// Wait for the arbiter's result on the claim the last move raised;
    /// without one, play on.
    AwaitRuling,
}

/// A table's script and the incident it carries.
#[derive(Debug, Clone)]
pub struct Script {
    /// Index of the game in the list.
    pub game: usize,
    pub steps: Vec<Step>,
    pub incident: Option<Incident>,
    /// Ply at which the incident starts.
    pub at_ply: usize,
}

fn real_steps(g: &Game, range: std::ops::Range<usize>) -> impl Iterator<Item = Step> + '_ {
    g.moves[range].iter().map(|&m| Step::Play(m))
}

/// The plain real game.
pub fn plain(games: &[Game], index: usize) -> Script {
    Script {
        game: index,
        steps: real_steps(&games[index], 0..games[index].moves.len()).collect(),
        incident: None,
        at_ply: 0,
    }
}

/// A script for `incident`, starting from game `first` and trying the
/// following games until one has a suitable spot (the search is bounded).
pub fn with_incident(
    games: &[Game],
    first: usize,
    incident: Incident,
    seed: u64,
) -> Option<Script> {
    for k in 0..games.len().min(400) {
        let index = (first + k) % games.len();
        let g = &games[index];
        if g.start != Position::new() || g.moves.len() < 30 {
            continue;
        }
        let found = match incident {
            Incident::PerpetualCheck | Incident::PerpetualChase => {
                repetition_script(g, incident == Incident::PerpetualCheck)
            }
            Incident::TrueLimitClaim => limit_walk(g, seed.wrapping_add(k as u64)),
            Incident::FalseLimitClaim => false_claim(g),
            Incident::FlagFall => {
                let at = g.moves.len() * 2 / 3;
                let mut steps: Vec<Step> = real_steps(g, 0..at).collect();
                steps.push(Step::Flag);
                Some((steps, at))
            }
            Incident::IllegalMove => illegal_script(g),
            Incident::Disconnect => {
                let at = 12;
                let mut steps: Vec<Step> = real_steps(g, 0..at).collect();
                steps.push(Step::Disconnect);
                steps.extend(real_steps(g, at..g.moves.len()));
                Some((steps, at))
            }
        };
        if let Some((steps, at_ply)) = found {
            return Some(Script {
                game: index,
                steps,
                incident: Some(incident),
                at_ply,
            });
        }
    }
    None
}

fn reverse(m: Move) -> Move {
    Move::new(m.to, m.from)
}

fn quiet(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.to).is_none()
}

/// Finds a ply where the side to move can start a 4-ply cycle (its move,
/// the reply, both moved back) that the rulebook rules as its loss for a
/// perpetual check (`check`) or a perpetual chase; the cycle is played
/// twice (the third occurrence raises the alert and the claim recommending
/// the order) and the players wait for the order. The checking side then
/// plays the cycle once more (the second claim) and the players wait for
/// the result; without one, and after a chase (whose first move is not the
/// real game's, so the real move changes), the real game goes on from the
/// same position.
fn repetition_script(g: &Game, check: bool) -> Option<(Vec<Step>, usize)> {
    let mut pos = g.start.clone();
    for ply in 0..g.moves.len() {
        if ply >= 10 {
            if let Some(cycle) = find_cycle(g, ply, &pos, check) {
                let mut steps: Vec<Step> = real_steps(g, 0..ply).collect();
                for _ in 0..2 {
                    steps.extend(cycle.iter().map(|&m| Step::Play(m)));
                }
                steps.push(Step::AwaitOrder);
                if check {
                    steps.extend(cycle.iter().map(|&m| Step::Play(m)));
                    steps.push(Step::AwaitRuling);
                }
                steps.extend(real_steps(g, ply..g.moves.len()));
                return Some((steps, ply));
            }
        }
        pos.play_unchecked(g.moves[ply]);
    }
    None
}

fn find_cycle(g: &Game, ply: usize, pos: &Position, check: bool) -> Option<[Move; 4]> {
    let s = pos.turn();
    let real = g.moves[ply];
    for c1 in pos.legal_moves().iter().copied() {
        if !quiet(pos, c1) || pos.gives_check(c1) != check || (!check && c1 == real) {
            continue;
        }
        let mut p1 = pos.clone();
        p1.play_unchecked(c1);
        for r1 in p1.legal_moves().iter().copied() {
            if !quiet(&p1, r1) || p1.gives_check(r1) {
                continue;
            }
            let mut p2 = p1.clone();
            p2.play_unchecked(r1);
            let c2 = reverse(c1);
            if !p2.is_legal(c2) || !quiet(&p2, c2) || p2.gives_check(c2) != check {
                continue;
            }
            let mut p3 = p2.clone();
            p3.play_unchecked(c2);
            let r2 = reverse(r1);
            if !p3.is_legal(r2) || !quiet(&p3, r2) || p3.gives_check(r2) {
                continue;
            }
            let cycle = [c1, r1, c2, r2];
            if rules_as_loss(g, ply, &cycle, s, check) {
                return Some(cycle);
            }
        }
    }
    None
}

/// The rulebook's view: after the real moves up to `ply` and the cycle
/// twice, `s` loses for a perpetual check (or a perpetual chase).
fn rules_as_loss(g: &Game, ply: usize, cycle: &[Move; 4], s: Color, check: bool) -> bool {
    let mut line: Vec<Move> = g.moves[..ply].to_vec();
    line.extend_from_slice(cycle);
    line.extend_from_slice(cycle);
    let Ok(Some(r)) = judge_game(&g.start, &line, RuleSet::Axf) else {
        return false;
    };
    let (mine, theirs) = match s {
        Color::Red => (&r.red, &r.black),
        Color::Black => (&r.black, &r.red),
    };
    let want = if check {
        PatternKind::PerpetualCheck
    } else {
        PatternKind::PerpetualChase
    };
    let loses = match s {
        Color::Red => rulebook::ruling::Verdict::RedLoses,
        Color::Black => rulebook::ruling::Verdict::BlackLoses,
    };
    r.verdict == loses && mine.kind == want && mine.forbidden && !theirs.forbidden
}

fn facts(start: &Position, moves: &[Move]) -> LimitCounter {
    let mut pos = start.clone();
    let mut c = LimitCounter::new();
    for &m in moves {
        let by = pos.turn();
        let capture = pos.piece_at(m.to).is_some();
        pos.play_unchecked(m);
        c.record(PlyFact {
            by,
            capture,
            check: pos.is_check(),
        });
    }
    c
}

/// From ply 20 of the real game, both sides shuffle pieces (seeded; no
/// capture, no check, no position twice) until a claim by the side to move
/// holds under the AXF rules; then the claim and its conclusion.
fn limit_walk(g: &Game, seed: u64) -> Option<(Vec<Step>, usize)> {
    let at = 20.min(g.moves.len());
    let params = RuleSet::Axf.params();
    let mut rng = StdRng::seed_from_u64(seed);
    'attempt: for _ in 0..8 {
        let mut pos = g.start.clone();
        let mut line: Vec<Move> = g.moves[..at].to_vec();
        let mut seen = HashSet::new();
        for &m in &line {
            pos.play_unchecked(m);
            seen.insert(pos.zobrist());
        }
        for _ in 0..400 {
            let counter = facts(&g.start, &line);
            if judge_claim(&counter, pos.turn(), &params, false).holds {
                let mut steps: Vec<Step> = line.iter().map(|&m| Step::Play(m)).collect();
                steps.push(Step::ClaimLimit);
                steps.push(Step::ConcludeLimit);
                return Some((steps, at));
            }
            let candidates: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| quiet(&pos, m) && !pos.gives_check(m))
                .filter(|&m| {
                    let mut p = pos.clone();
                    p.play_unchecked(m);
                    !seen.contains(&p.zobrist()) && p.has_legal_move()
                })
                .collect();
            if candidates.is_empty() {
                continue 'attempt;
            }
            let m = candidates[rng.random_range(0..candidates.len())];
            pos.play_unchecked(m);
            seen.insert(pos.zobrist());
            line.push(m);
        }
    }
    None
}

/// A claim at ply 24 that the rulebook rules false (too few capture-free plies).
fn false_claim(g: &Game) -> Option<(Vec<Step>, usize)> {
    let at = 24.min(g.moves.len());
    let counter = facts(&g.start, &g.moves[..at]);
    let mut pos = g.start.clone();
    for &m in &g.moves[..at] {
        pos.play_unchecked(m);
    }
    let v = judge_claim(&counter, pos.turn(), &RuleSet::Axf.params(), false);
    if v.holds {
        return None;
    }
    let mut steps: Vec<Step> = real_steps(g, 0..at).collect();
    steps.push(Step::ClaimLimit);
    steps.extend(real_steps(g, at..g.moves.len()));
    Some((steps, at))
}

/// At ply 10, a move the piece cannot make (not one that would lose the
/// game under AXF-G6), then the real move as the correction.
fn illegal_script(g: &Game) -> Option<(Vec<Step>, usize)> {
    let at = 10;
    let mut pos = g.start.clone();
    for &m in &g.moves[..at] {
        pos.play_unchecked(m);
    }
    let s = pos.turn();
    let mut bad = None;
    'find: for (from, piece) in pos.pieces() {
        if piece.color != s {
            continue;
        }
        for to in xiangqi::Square::all() {
            if to == from || pos.piece_at(to).is_some() {
                continue;
            }
            let m = Move::new(from, to);
            if let Err(e) = pos.check_move(m) {
                if e.reason == IllegalReason::PieceCannotMoveThere {
                    bad = Some(m);
                    break 'find;
                }
            }
        }
    }
    let bad = bad?;
    let mut steps: Vec<Step> = real_steps(g, 0..at).collect();
    steps.push(Step::Sensor(wire_move(bad)));
    steps.extend(real_steps(g, at..g.moves.len()));
    Some((steps, at))
}

#[cfg(test)]
mod tests;
