//! Classification of one move (着法定性): check 将, mate threat 杀, chase 捉,
//! exchange offer 兑, block 拦, offer 献, material threat 要抽吃, idle 闲.
//!
//! Definitions from the AXF glossary (002 §1); a move may be several things
//! at once and the pattern uses the most serious one (`MoveClass::kind`):
//! check > chase > mate threat > material threat > exchange > offer > block > idle.
//! A chase that is also an exchange offer stays a chase (AXF-S8, D31).
//!
//! - check: the opponent is in check after the move.
//! - chase: see `chase.rs`.
//! - mate threat: if the opponent passed, the mover would win by checks
//!   (`threat::mate_by_checks`, bounded).
//! - material threat: if the opponent passed, the mover has a check after
//!   which every reply leaves a material-winning capture, which it did not
//!   have without the check (`threat::material_threat`).
//! - exchange offer (兑): the moved piece can be taken by an opponent piece of
//!   the same value, and it is truly protected or attacks that piece back.
//! - offer (献): the moved piece can be taken with gain (unprotected, or by a
//!   lesser piece).
//! - block (拦): the moved piece steps onto the open line of an opponent rook
//!   or cannon between it and a piece of ours or our palace, cutting its path
//!   (a judgement-laden notion: rulings that rest on it say so).

use crate::chase::{chases_among, Chase, ChaseDefinition, NonChase};
use crate::protection::{pass, protection};
use crate::threat::{mate_by_checks, material_threat, Search, MATE_DEPTH};
use crate::value::value;
use xiangqi::{Color, Move, Position, Role, Square};

/// The most serious thing a move does (从重定性).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// 将: gives check.
    Check,
    /// 捉: chases a piece.
    Chase,
    /// 杀: threatens mate.
    MateThreat,
    /// 要抽吃: threatens to win material with a check.
    MaterialThreat,
    /// 兑: offers an exchange.
    Exchange,
    /// 献: offers a piece.
    Offer,
    /// 拦: blocks an opponent piece.
    Block,
    /// 闲: none of these.
    Idle,
}

impl MoveKind {
    /// English name used in JSON and explanations.
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Check => "check",
            MoveKind::Chase => "chase",
            MoveKind::MateThreat => "mate_threat",
            MoveKind::MaterialThreat => "material_threat",
            MoveKind::Exchange => "exchange",
            MoveKind::Offer => "offer",
            MoveKind::Block => "block",
            MoveKind::Idle => "idle",
        }
    }

    /// Chinese term.
    pub fn zh(self) -> &'static str {
        match self {
            MoveKind::Check => "将",
            MoveKind::Chase => "捉",
            MoveKind::MateThreat => "杀",
            MoveKind::MaterialThreat => "要抽吃",
            MoveKind::Exchange => "兑",
            MoveKind::Offer => "献",
            MoveKind::Block => "拦",
            MoveKind::Idle => "闲",
        }
    }
}

/// Everything one move does.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveClass {
    /// The move.
    pub mv: Option<Move>,
    /// 将.
    pub check: bool,
    /// 捉: the chases (new attacks that intend capture).
    pub chases: Vec<Chase>,
    /// New attacks that are not chases (kept for explanations, AXF-D30).
    pub non_chases: Vec<NonChase>,
    /// 杀.
    pub mate_threat: bool,
    /// 要抽吃.
    pub material_threat: bool,
    /// 兑.
    pub exchange: bool,
    /// 献.
    pub offer: bool,
    /// 拦.
    pub block: bool,
    /// A bounded search ran out of budget: the classification may miss a threat.
    pub search_incomplete: bool,
    /// The mover was in check before the move (its chases come with an escape).
    pub out_of_check: bool,
}

impl MoveClass {
    /// The most serious kind (从重定性, CXA-12; AXF-S8 for chase over exchange).
    pub fn kind(&self) -> MoveKind {
        if self.check {
            MoveKind::Check
        } else if !self.chases.is_empty() {
            MoveKind::Chase
        } else if self.mate_threat {
            MoveKind::MateThreat
        } else if self.material_threat {
            MoveKind::MaterialThreat
        } else if self.exchange {
            MoveKind::Exchange
        } else if self.offer {
            MoveKind::Offer
        } else if self.block {
            MoveKind::Block
        } else {
            MoveKind::Idle
        }
    }
}

/// Classifies the legal move `mv` played in `before`.
pub fn classify(before: &Position, mv: Move, definition: ChaseDefinition) -> MoveClass {
    let mut after = before.clone();
    after.play_unchecked(mv);
    classify_played(before, mv, &after, definition)
}

/// Classifies `mv`, given the positions before and after it.
pub fn classify_played(
    before: &Position,
    mv: Move,
    after: &Position,
    definition: ChaseDefinition,
) -> MoveClass {
    let mut class = MoveClass {
        mv: Some(mv),
        check: after.is_check(),
        out_of_check: before.is_check(),
        ..MoveClass::default()
    };
    let passed = pass(after);
    // The mover's legal captures if the opponent passed: for the chases and
    // for whether it already wins material.
    let captures = passed.as_ref().map(Position::captures).unwrap_or_default();
    let (found, not) = match passed.as_ref() {
        Some(p) => chases_among(before, mv, after, p, &captures, definition),
        None => (Vec::new(), Vec::new()),
    };
    class.chases = found;
    class.non_chases = not;
    let (exchange, offer) = exchange_or_offer(after, mv.to);
    class.exchange = exchange;
    class.offer = offer
        || class
            .non_chases
            .iter()
            .any(|n| n.reason == crate::chase::NonChaseReason::MutualOffer);
    if let Some(p) = passed.as_ref() {
        if class.chases.is_empty() {
            // A threat must be made by the move: the mover had no such win
            // before it (the opponent's last move had parried it).
            match mate_by_checks(p, MATE_DEPTH) {
                Search::Yes => class.mate_threat = mate_by_checks(before, MATE_DEPTH) == Search::No,
                Search::No => {}
                Search::Unknown => class.search_incomplete = true,
            }
            if !class.mate_threat
                && !wins_material(p, &captures)
                && material_threat(p).is_some()
                && material_threat(before).is_none()
            {
                class.material_threat = true;
            }
        }
    }
    class.block = blocks(before, mv, after);
    class
}

/// Whether the side to move in `pos` can capture something that wins
/// material now, given its legal captures of non-king pieces (`captures`):
/// a piece worth more than the capturer, or an unprotected one. The answer
/// of `threat::can_win_material`, from the captures already generated.
fn wins_material(pos: &Position, captures: &[Move]) -> bool {
    captures.iter().any(|&m| {
        let (Some(a), Some(t)) = (pos.piece_at(m.from), pos.piece_at(m.to)) else {
            return false;
        };
        value(t, m.to) > value(a, m.from) || !protection(pos, m.from, m.to).protects()
    })
}

/// (兑, 献) for the piece that just moved to `to`; `after` has the opponent to move.
fn exchange_or_offer(after: &Position, to: Square) -> (bool, bool) {
    let Some(moved) = after.piece_at(to) else {
        return (false, false);
    };
    let vm = value(moved, to);
    let mut exchange = false;
    let mut offer = false;
    let them = after.turn();
    // The legal captures of the moved piece: moves of the pieces attacking it.
    for from in after.attackers_iter(to, them) {
        let m = Move { from, to };
        if !after.is_legal(m) {
            continue;
        }
        let Some(x) = after.piece_at(m.from) else {
            continue;
        };
        let vx = value(x, m.from);
        // Protection of the moved piece against this capture.
        let protected = protection(after, m.from, to).protects();
        if vx == vm && x.role != Role::King {
            // Either the moved piece is protected (capture, recapture) or it attacked x.
            if protected || attacks_back(after, to, m.from) {
                exchange = true;
            }
        }
        if !protected || vx < vm {
            offer = true;
        }
    }
    (exchange, offer)
}

/// Whether the piece on `from` (side not to move) pseudo-attacks `target`.
fn attacks_back(after: &Position, from: Square, target: Square) -> bool {
    match after.piece_at(from) {
        Some(p) => after.attackers_iter(target, p.color).any(|sq| sq == from),
        None => false,
    }
}

/// 拦: the moved piece now stands on the open line between an opponent rook or
/// cannon and one of our pieces that it attacked before the move.
fn blocks(before: &Position, mv: Move, after: &Position) -> bool {
    let us = before.turn();
    let them = us.other();
    // `between` needs mv.to on a line with sq, or on the leg of a horse
    // jumping to sq (a diagonal neighbour of sq): only those squares.
    let (tf, tr) = (mv.to.file(), mv.to.rank());
    let mut near = [(0u8, 0u8); 23];
    for f in 0..9 {
        near[usize::from(f)] = (f, tr);
    }
    for r in 0..10 {
        near[9 + usize::from(r)] = (tf, r);
    }
    for (i, (x, y)) in [(1, 1), (1, -1), (-1, 1), (-1, -1)].into_iter().enumerate() {
        near[19 + i] = (tf.wrapping_add_signed(x), tr.wrapping_add_signed(y));
    }
    for &(f, r) in &near {
        let Some(sq) = Square::new(f, r) else {
            continue; // off the board
        };
        if sq == mv.to || after.piece_at(sq).is_none_or(|p| p.color != us) {
            continue;
        }
        if !may_pass(after, them, sq, mv.to) {
            continue;
        }
        let mut now = None;
        let lost = before.attackers_iter(sq, them).any(|a| {
            let now = *now.get_or_insert_with(|| square_set(after.attackers_iter(sq, them)));
            now & square_bit(a) == 0
                && matches!(after.piece_at(a), Some(x) if x.color == them && matches!(x.role, Role::Rook | Role::Cannon | Role::Horse))
                && between(a, sq, mv.to)
        });
        if lost && sq != mv.from {
            return true;
        }
    }
    false
}

/// Whether a rook, cannon or horse of `them` stands where its path to `sq`
/// could pass through `mid` (a line or diagonal neighbour of `sq`): a rook
/// or cannon on the ray from `sq` beyond `mid`, or a horse using `mid` as
/// its leg. What [`blocks`] looks for needs one (a cheap test first).
fn may_pass(pos: &Position, them: Color, sq: Square, mid: Square) -> bool {
    let (sf, sr) = (i32::from(sq.file()), i32::from(sq.rank()));
    let (sx, sy) = (i32::from(mid.file()) - sf, i32::from(mid.rank()) - sr);
    let theirs = |f: i32, r: i32| -> Option<Role> {
        let sq = Square::new(u8::try_from(f).ok()?, u8::try_from(r).ok()?)?;
        pos.piece_at(sq).filter(|p| p.color == them).map(|p| p.role)
    };
    if sx == 0 || sy == 0 {
        let (sx, sy) = (sx.signum(), sy.signum());
        let (mut f, mut r) = (i32::from(mid.file()) + sx, i32::from(mid.rank()) + sy);
        while (0..9).contains(&f) && (0..10).contains(&r) {
            if matches!(theirs(f, r), Some(Role::Rook | Role::Cannon)) {
                return true;
            }
            (f, r) = (f + sx, r + sy);
        }
        false
    } else {
        [(sf + 2 * sx, sr + sy), (sf + sx, sr + 2 * sy)]
            .iter()
            .any(|&(f, r)| theirs(f, r) == Some(Role::Horse))
    }
}

/// A square's bit in a [`square_set`].
fn square_bit(sq: Square) -> u128 {
    1 << sq.index()
}

/// Squares as a set of bits.
fn square_set(squares: impl Iterator<Item = Square>) -> u128 {
    squares.fold(0, |set, sq| set | square_bit(sq))
}

/// Whether `mid` lies strictly between `a` and `b` on a rank or file, or is
/// the leg square of a horse jump from `a` to `b`.
fn between(a: Square, b: Square, mid: Square) -> bool {
    let (af, ar, bf, br, mf, mr) = (
        a.file(),
        a.rank(),
        b.file(),
        b.rank(),
        mid.file(),
        mid.rank(),
    );
    if af == bf && mf == af {
        return mr > ar.min(br) && mr < ar.max(br);
    }
    if ar == br && mr == ar {
        return mf > af.min(bf) && mf < af.max(bf);
    }
    // Horse leg: one step from a towards b along the long leg.
    let df = bf as i32 - af as i32;
    let dr = br as i32 - ar as i32;
    if df.abs() + dr.abs() == 3 && df != 0 && dr != 0 {
        let (lf, lr) = if df.abs() == 2 {
            (af as i32 + df.signum(), ar as i32)
        } else {
            (af as i32, ar as i32 + dr.signum())
        };
        return lf == mf as i32 && lr == mr as i32;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`blocks`] without the [`may_pass`] test first.
    fn blocks_by_attackers(before: &Position, mv: Move, after: &Position) -> bool {
        let them = before.turn().other();
        after.pieces().any(|(sq, p)| {
            p.color != them
                && sq != mv.to
                && sq != mv.from
                && before.attackers(sq, them).iter().any(|&a| {
                    !after.attackers(sq, them).contains(&a)
                        && matches!(after.piece_at(a), Some(x) if x.color == them && matches!(x.role, Role::Rook | Role::Cannon | Role::Horse))
                        && between(a, sq, mv.to)
                })
        })
    }

    /// Winning material read from the generated captures is
    /// `threat::can_win_material`, on positions reached by random play
    /// (both sides to move, captures preferred to reach open positions).
    #[test]
    fn wins_material_is_can_win_material() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut below = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut seen = [0; 2];
        for _game in 0..30 {
            let mut pos = Position::new();
            for _ply in 0..150 {
                for p in [Some(pos.clone()), pass(&pos)].into_iter().flatten() {
                    let want = crate::threat::can_win_material(&p);
                    assert_eq!(wins_material(&p, &p.captures()), want, "{p:?}");
                    seen[usize::from(want)] += 1;
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let captures: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| pos.piece_at(m.to).is_some())
                    .collect();
                let mv = if !captures.is_empty() && below(2) == 0 {
                    captures[below(captures.len())]
                } else {
                    legal[below(legal.len())]
                };
                pos.play_unchecked(mv);
            }
        }
        assert!(seen[0] > 1_000 && seen[1] > 1_000, "{seen:?}");
    }

    /// The quick test loses no block: every legal move of positions
    /// reached by random play, against the attackers compared in full.
    #[test]
    fn may_pass_loses_no_block() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut below = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut moves, mut found) = (0, 0);
        for _game in 0..12 {
            let mut pos = Position::new();
            for _ply in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &mv in legal.iter() {
                    let mut after = pos.clone();
                    after.play_unchecked(mv);
                    let want = blocks_by_attackers(&pos, mv, &after);
                    assert_eq!(blocks(&pos, mv, &after), want, "{pos:?} {mv}");
                    moves += 1;
                    found += usize::from(want);
                }
                let mv = legal[below(legal.len())];
                pos.play_unchecked(mv);
            }
        }
        assert!(
            moves > 20_000 && found > 500,
            "{moves} moves, {found} blocks"
        );
    }
}
