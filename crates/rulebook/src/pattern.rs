//! A side's pattern over a repetition cycle (长将, 长捉, 一将一捉, ...).
//!
//! "Perpetual X" (长X) means every move of that side in the cycle is X (002 §1).
//! Each move's most serious kind comes from `classify.rs`; pieces are followed
//! through the cycle by identity, so that "the same piece chased on every move"
//! (AXF-S3, D28) is seen even when the chased piece runs.
//!
//! Which perpetual chase is forbidden depends on the rule set (`counts`):
//! AXF exempts king and pawn chasers (AXF-S9, D23-D25) and an uncrossed pawn
//! target (AXF-S3, D20); ROC exempts a chase with a king or pawn among the
//! chasers (ROC-15, ROC-20) but no pawn target; CXA counts a king with another
//! piece (CXA-9) and a pawn in a mutual attack (CXA-11). The table below gives
//! the AXF citations.
//!
//! PATTERN kinds (the `kind` field of the JSON PATTERN of `caipan adjudicate`):
//!
//! | kind | meaning | forbidden? |
//! |---|---|---|
//! | `perpetual_check` | every move checks (长将) | yes (AXF-S1, D1) |
//! | `perpetual_chase` | every move chases (长捉); `attackers`/`targets` squares | yes when one piece is chased on every move by a piece other than a king or pawn (AXF-S3, D28); otherwise no (`chasing_in_turn` S4/D27, king or pawn S9/D23/D24, uncrossed pawn S3/D20) |
//! | `perpetual_mate_threat` | every move threatens mate (长杀) | no (AXF-D4) |
//! | `perpetual_material_threat` | every move threatens to win material with a check (长要抽吃) | no (AXF-D33) |
//! | `perpetual_exchange` | every move offers an exchange (长兑) | no (AXF-D35) |
//! | `perpetual_offer` | every move offers a piece (长献) | no (AXF-D35) |
//! | `perpetual_block` | every move blocks (长拦) | no (AXF-D34) |
//! | `check_and_chase` | checks and chases (一将一捉, 多将一捉) | no (AXF-D7) |
//! | `check_and_mate_threat` | checks and mate threats (一将一杀) | no (AXF-D6) |
//! | `check_and_material_threat` | checks and material threats (一将一要抽吃) | no (AXF-D8) |
//! | `check_and_idle` | checks and other moves (一将一闲) | no (AXF-D8) |
//! | `chase_and_material_threat` | chases and material threats (一捉一要抽吃) | no (AXF-D9) |
//! | `chase_and_idle` | chases and other moves (not every move a chase) | no |
//! | `mate_threat_and_idle` | mate threats and other moves | no |
//! | `idle` | every move idle (闲) | no (AXF-P1) |
//! | `mixed` | any other mixture without checks or chases | no |

use crate::chase::{Chase, NonChaseReason};
use crate::classify::{MoveClass, MoveKind};
use crate::ruleset::RuleSet;
use crate::value::is_uncrossed_pawn;
use xiangqi::{Color, Move, Piece, Position, Role, Square};

/// The name of a side's pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternKind {
    /// 长将.
    PerpetualCheck,
    /// 长捉.
    PerpetualChase,
    /// 长杀.
    PerpetualMateThreat,
    /// 长要抽吃.
    PerpetualMaterialThreat,
    /// 长兑.
    PerpetualExchange,
    /// 长献.
    PerpetualOffer,
    /// 长拦.
    PerpetualBlock,
    /// 一将一捉.
    CheckAndChase,
    /// 一将一杀.
    CheckAndMateThreat,
    /// 一将一要抽吃.
    CheckAndMaterialThreat,
    /// 一将一闲.
    CheckAndIdle,
    /// 一捉一要抽吃.
    ChaseAndMaterialThreat,
    /// Chases on some moves only.
    ChaseAndIdle,
    /// Mate threats on some moves only.
    MateThreatAndIdle,
    /// 闲.
    Idle,
    /// Anything else.
    Mixed,
}

impl PatternKind {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            PatternKind::PerpetualCheck => "perpetual_check",
            PatternKind::PerpetualChase => "perpetual_chase",
            PatternKind::PerpetualMateThreat => "perpetual_mate_threat",
            PatternKind::PerpetualMaterialThreat => "perpetual_material_threat",
            PatternKind::PerpetualExchange => "perpetual_exchange",
            PatternKind::PerpetualOffer => "perpetual_offer",
            PatternKind::PerpetualBlock => "perpetual_block",
            PatternKind::CheckAndChase => "check_and_chase",
            PatternKind::CheckAndMateThreat => "check_and_mate_threat",
            PatternKind::CheckAndMaterialThreat => "check_and_material_threat",
            PatternKind::CheckAndIdle => "check_and_idle",
            PatternKind::ChaseAndMaterialThreat => "chase_and_material_threat",
            PatternKind::ChaseAndIdle => "chase_and_idle",
            PatternKind::MateThreatAndIdle => "mate_threat_and_idle",
            PatternKind::Idle => "idle",
            PatternKind::Mixed => "mixed",
        }
    }

    /// The catalogue id of its name (`pattern-perpetual-check`).
    pub fn id(self) -> &'static str {
        match self {
            PatternKind::PerpetualCheck => "pattern-perpetual-check",
            PatternKind::PerpetualChase => "pattern-perpetual-chase",
            PatternKind::PerpetualMateThreat => "pattern-perpetual-mate-threat",
            PatternKind::PerpetualMaterialThreat => "pattern-perpetual-material-threat",
            PatternKind::PerpetualExchange => "pattern-perpetual-exchange",
            PatternKind::PerpetualOffer => "pattern-perpetual-offer",
            PatternKind::PerpetualBlock => "pattern-perpetual-block",
            PatternKind::CheckAndChase => "pattern-check-and-chase",
            PatternKind::CheckAndMateThreat => "pattern-check-and-mate-threat",
            PatternKind::CheckAndMaterialThreat => "pattern-check-and-material-threat",
            PatternKind::CheckAndIdle => "pattern-check-and-idle",
            PatternKind::ChaseAndMaterialThreat => "pattern-chase-and-material-threat",
            PatternKind::ChaseAndIdle => "pattern-chase-and-idle",
            PatternKind::MateThreatAndIdle => "pattern-mate-threat-and-idle",
            PatternKind::Idle => "pattern-idle",
            PatternKind::Mixed => "pattern-mixed",
        }
    }

    /// Chinese name.
    pub fn zh(self) -> &'static str {
        match self {
            PatternKind::PerpetualCheck => "长将",
            PatternKind::PerpetualChase => "长捉",
            PatternKind::PerpetualMateThreat => "长杀",
            PatternKind::PerpetualMaterialThreat => "长要抽吃",
            PatternKind::PerpetualExchange => "长兑",
            PatternKind::PerpetualOffer => "长献",
            PatternKind::PerpetualBlock => "长拦",
            PatternKind::CheckAndChase => "一将一捉",
            PatternKind::CheckAndMateThreat => "一将一杀",
            PatternKind::CheckAndMaterialThreat => "一将一要抽吃",
            PatternKind::CheckAndIdle => "一将一闲",
            PatternKind::ChaseAndMaterialThreat => "一捉一要抽吃",
            PatternKind::ChaseAndIdle => "捉闲交替",
            PatternKind::MateThreatAndIdle => "杀闲交替",
            PatternKind::Idle => "闲着",
            PatternKind::Mixed => "其他着法",
        }
    }
}

/// Why a side that chases on every move is still allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllowedChase {
    /// No one piece is chased on every move (一子轮捉两子, AXF-S4, D27; D11 for cannons on two rooks).
    InTurn,
    /// Only a king or pawns chase (on some move alone), AXF-S9, D23, D24.
    KingOrPawn {
        /// The king takes part.
        king: bool,
        /// A pawn takes part.
        pawn: bool,
    },
    /// The chased piece is an uncrossed pawn (AXF-S3, D20).
    UncrossedPawn,
}

/// Facts about a forbidden perpetual chase of one piece, for citing rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaseFacts {
    /// The chased piece (square in the cycle's position).
    pub target: Square,
    /// Its role.
    pub target_role: Role,
    /// Whether the target is a pawn that crossed the river.
    pub target_crossed_pawn: bool,
    /// The distinct chasing pieces (squares in the cycle's position) with roles.
    pub attackers: Vec<(Square, Role)>,
    /// The target had a true root on some chasing move (chased anyway: worth more).
    pub target_protected: bool,
    /// The target had a false root on some move (AXF-D29).
    pub false_root: bool,
    /// The target could not capture back on some move (pinned or hobbled, AXF-S7, D19).
    pub target_cannot_reply: bool,
    /// Some attack was opened by moving a screen (AXF-D20, D21).
    pub discovered: bool,
    /// A king or pawn chased it too (AXF-D25).
    pub king_or_pawn_joined: bool,
    /// A chasing move also offered an exchange (AXF-S8, D31).
    pub with_exchange: bool,
    /// The kind of piece that pins the target to its king, if any (AXF-D14 horse, D22 cannon).
    pub pinned_by: Option<Role>,
    /// The chasers' rook and king are held by the target rook together with a cannon (AXF-D32).
    pub rook_and_king_controlled: bool,
    /// Some chase came from cutting the target's protection while attacker and target stood still (ROC-26, CXA-2).
    pub protection_cut: bool,
    /// Some chaser was itself the root of another piece (CXA-4).
    pub attacker_is_root: bool,
}

/// An attack on a truly protected piece kept up on every move (AXF-S6, D12, D30).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtectedAttack {
    /// The attacked piece (square in the cycle's position).
    pub target: Square,
    /// Its role.
    pub target_role: Role,
    /// Distinct attacking pieces with roles.
    pub attackers: Vec<(Square, Role)>,
    /// Most pieces that could capture it at once.
    pub max_attackers: usize,
}

/// One side's pattern over the cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SidePattern {
    /// The side.
    pub side: Color,
    /// The pattern.
    pub kind: PatternKind,
    /// Most serious kind of each of its moves, in order.
    pub moves: Vec<MoveKind>,
    /// Whether the pattern is forbidden (长将 or a forbidden 长捉).
    pub forbidden: bool,
    /// Chasing pieces (squares in the cycle's position).
    pub attackers: Vec<Square>,
    /// Chased pieces (squares in the cycle's position).
    pub targets: Vec<Square>,
    /// Facts of the forbidden chase.
    pub chase: Option<ChaseFacts>,
    /// Why an every-move chase is allowed.
    pub allowed_chase: Option<AllowedChase>,
    /// A protected piece attacked on every move without it being a chase.
    pub protected_attack: Option<ProtectedAttack>,
    /// Some classification rests on a judgement-laden notion (block, material threat) or a bounded search ran out.
    pub needs_judgement: bool,
    /// Some move attacked a same-type piece that could take back: an offer (AXF-S7, D19).
    pub mutual_same_type: bool,
    /// Every chase is a cannon on a rook (AXF-D11 when in turn).
    pub cannons_on_rooks: bool,
    /// A forbidden chase rests on moves made out of check (解照还捉): the arbiter judges intent.
    pub chase_out_of_check: bool,
    /// Some move only chased formally: the capture would be mated at once (CXA-7).
    pub formal_chase_mated: bool,
    /// Some move kept a chase that stood before it, without a new one (CXA-6).
    pub kept_chase: bool,
}

/// Follows pieces through the cycle: `id[sq]` is the square the piece on `sq`
/// stood on at the start of the cycle (= its square at the end); an empty
/// square, or one whose piece left, names itself.
#[derive(Clone, Debug)]
pub struct PieceIds {
    id: [u8; 90],
}

impl PieceIds {
    /// Identities at the start of the cycle (every square its own).
    pub fn new(_pos: &Position) -> PieceIds {
        PieceIds::identity()
    }

    /// Every square its own identity.
    pub fn identity() -> PieceIds {
        PieceIds {
            id: std::array::from_fn(|i| i as u8),
        }
    }

    /// Moves the identity along with a (non-capturing) move.
    pub fn apply(&mut self, mv: Move) {
        let (from, to) = (mv.from.index(), mv.to.index());
        self.id[to] = self.id[from];
        self.id[from] = from as u8;
    }

    /// Whether every piece stands on the square it started on (no two pieces
    /// of a kind swapped places), as after a cycle that brought each piece back.
    pub fn is_identity(&self) -> bool {
        self.id
            .iter()
            .enumerate()
            .all(|(i, &id)| usize::from(id) == i)
    }

    /// The identity (start square) of the piece now on `sq`.
    pub fn of(&self, sq: Square) -> Square {
        Square::from_index(self.id[sq.index()]).unwrap_or(sq)
    }
}

/// One classified move of the cycle with identities mapped after the move.
#[derive(Clone, Debug)]
pub struct CycleMove {
    /// Who played it.
    pub side: Color,
    /// Its classification.
    pub class: MoveClass,
    /// Identities after the move.
    pub ids: PieceIds,
}

fn uniq<T: PartialEq + Copy>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// The pattern of `side` over the classified cycle moves.
pub fn side_pattern(
    side: Color,
    cycle: &[CycleMove],
    start: &Position,
    set: RuleSet,
) -> SidePattern {
    let own: Vec<&CycleMove> = cycle.iter().filter(|m| m.side == side).collect();
    let moves: Vec<MoveKind> = own.iter().map(|m| m.class.kind()).collect();
    let all = |k: MoveKind| !moves.is_empty() && moves.iter().all(|&m| m == k);
    let has = |k: MoveKind| moves.contains(&k);
    let others_best = moves
        .iter()
        .copied()
        .filter(|&k| k != MoveKind::Check)
        .min();
    let kind = if all(MoveKind::Check) {
        PatternKind::PerpetualCheck
    } else if all(MoveKind::Chase) {
        PatternKind::PerpetualChase
    } else if all(MoveKind::MateThreat) {
        PatternKind::PerpetualMateThreat
    } else if all(MoveKind::MaterialThreat) {
        PatternKind::PerpetualMaterialThreat
    } else if all(MoveKind::Exchange) {
        PatternKind::PerpetualExchange
    } else if all(MoveKind::Offer) {
        PatternKind::PerpetualOffer
    } else if all(MoveKind::Block) {
        PatternKind::PerpetualBlock
    } else if moves.iter().all(|&k| k == MoveKind::Idle) {
        PatternKind::Idle
    } else if has(MoveKind::Check) {
        match others_best {
            Some(MoveKind::Chase) => PatternKind::CheckAndChase,
            Some(MoveKind::MateThreat) => PatternKind::CheckAndMateThreat,
            Some(MoveKind::MaterialThreat) => PatternKind::CheckAndMaterialThreat,
            _ => PatternKind::CheckAndIdle,
        }
    } else if has(MoveKind::Chase) {
        if moves
            .iter()
            .all(|&k| k == MoveKind::Chase || k == MoveKind::MaterialThreat)
        {
            PatternKind::ChaseAndMaterialThreat
        } else {
            PatternKind::ChaseAndIdle
        }
    } else if has(MoveKind::MateThreat) {
        PatternKind::MateThreatAndIdle
    } else {
        PatternKind::Mixed
    };

    let needs_judgement = own.iter().any(|m| {
        let k = m.class.kind();
        m.class.search_incomplete || k == MoveKind::Block || k == MoveKind::MaterialThreat
    });

    let mut pattern = SidePattern {
        side,
        kind,
        moves,
        forbidden: kind == PatternKind::PerpetualCheck,
        attackers: Vec::new(),
        targets: Vec::new(),
        chase: None,
        allowed_chase: None,
        protected_attack: protected_attack(&own, start),
        needs_judgement,
        chase_out_of_check: false,
        kept_chase: own.iter().any(|m| {
            m.class.chases.is_empty()
                && m.class
                    .non_chases
                    .iter()
                    .any(|n| n.reason == NonChaseReason::KeptChase)
        }),
        formal_chase_mated: own.iter().any(|m| {
            m.class
                .non_chases
                .iter()
                .any(|n| n.reason == NonChaseReason::CaptureGetsMated)
        }),
        mutual_same_type: own.iter().any(|m| {
            m.class
                .non_chases
                .iter()
                .any(|n| n.reason == NonChaseReason::MutualOffer)
        }),
        cannons_on_rooks: own.iter().any(|m| !m.class.chases.is_empty())
            && own.iter().all(|m| {
                m.class
                    .chases
                    .iter()
                    .all(|c| c.attacker_role == Role::Cannon && c.target_role == Role::Rook)
            }),
    };
    // All chasers and chased pieces, for the report.
    for m in &own {
        for c in &m.class.chases {
            uniq(&mut pattern.attackers, m.ids.of(c.attacker));
            uniq(&mut pattern.targets, m.ids.of(c.target));
        }
    }
    if kind == PatternKind::PerpetualChase {
        judge_perpetual_chase(&own, start, set, &mut pattern);
    }
    pattern
}

/// Whether the chase `c` (on a move of the chasing side) counts towards a
/// forbidden perpetual chase of its target under `set`.
///
/// - AXF: not by a king or pawn (AXF-S9, D23-D25; D25 is judged on the
///   facts), and not of an uncrossed pawn (AXF-S3, D20).
/// - ROC: not by a king or pawn (ROC-15 "唯將帥與兵卒長捉不在限"); an uncrossed
///   pawn may not be chased either (ROC-15, ROC-24 name no river).
/// - CXA: a king's chase counts together with another piece's on the same
///   move (CXA-9), a pawn's only in a mutual attack (互打: the target can take
///   the pawn, CXA-11); an uncrossed pawn is material like any other (CXA-3).
fn counts(set: RuleSet, c: &Chase, target_piece: Option<Piece>, move_chases: &[Chase]) -> bool {
    let uncrossed = target_piece
        .map(|p| is_uncrossed_pawn(p, c.target))
        .unwrap_or(false);
    match set {
        RuleSet::Axf => !matches!(c.attacker_role, Role::King | Role::Pawn) && !uncrossed,
        RuleSet::Roc => !matches!(c.attacker_role, Role::King | Role::Pawn),
        RuleSet::Cxa => match c.attacker_role {
            Role::King => move_chases
                .iter()
                .any(|o| o.target == c.target && o.attacker_role != Role::King),
            Role::Pawn => !c.target_cannot_reply,
            _ => true,
        },
    }
}

/// Is a perpetual chase forbidden under `set`, and of what? (AXF-S3/S4/S9,
/// D20, D23-D25, D27, D28; ROC-15, ROC-20; CXA-3, CXA-9, CXA-11.)
fn judge_perpetual_chase(
    own: &[&CycleMove],
    start: &Position,
    set: RuleSet,
    pattern: &mut SidePattern,
) {
    let eligible: Vec<Vec<Square>> = own
        .iter()
        .map(|m| {
            let mut v = Vec::new();
            for c in &m.class.chases {
                let target_piece = start.piece_at(m.ids.of(c.target));
                if counts(set, c, target_piece, &m.class.chases) {
                    uniq(&mut v, m.ids.of(c.target));
                }
            }
            v
        })
        .collect();
    let common: Vec<Square> = eligible
        .first()
        .map(|first| {
            first
                .iter()
                .copied()
                .filter(|t| eligible.iter().all(|e| e.contains(t)))
                .collect()
        })
        .unwrap_or_default();
    let mut common = common;
    if set == RuleSet::Roc {
        // ROC-20: two chasing one lose "但其中如有一兵卒或將帥者例外" (no AXF-D25).
        common.retain(|&t| {
            !own.iter().any(|m| {
                m.class.chases.iter().any(|c| {
                    m.ids.of(c.target) == t && matches!(c.attacker_role, Role::King | Role::Pawn)
                })
            })
        });
    }
    let Some(&target) = common.first() else {
        pattern.allowed_chase = Some(allowed_reason(own, start, set));
        return;
    };
    let mut facts = ChaseFacts {
        target,
        target_role: start.piece_at(target).map(|p| p.role).unwrap_or(Role::Pawn),
        target_crossed_pawn: start
            .piece_at(target)
            .map(|p| p.role == Role::Pawn && !is_uncrossed_pawn(p, target))
            .unwrap_or(false),
        attackers: Vec::new(),
        target_protected: false,
        false_root: false,
        target_cannot_reply: false,
        discovered: false,
        king_or_pawn_joined: false,
        with_exchange: false,
        pinned_by: None,
        rook_and_king_controlled: false,
        protection_cut: false,
        attacker_is_root: false,
    };
    for m in own {
        let mut chased_here = false;
        for c in &m.class.chases {
            if m.ids.of(c.target) != target {
                continue;
            }
            chased_here = true;
            let a = m.ids.of(c.attacker);
            if matches!(c.attacker_role, Role::King | Role::Pawn) {
                facts.king_or_pawn_joined = true;
            }
            if !facts.attackers.iter().any(|(s, _)| *s == a) {
                facts.attackers.push((a, c.attacker_role));
            }
            facts.target_protected |= c.protection.protects();
            facts.false_root |= c.protection == crate::protection::Protection::FalseRoot;
            facts.target_cannot_reply |= c.target_cannot_reply;
            facts.discovered |= c.discovered;
            facts.protection_cut |= c.protection_cut;
            facts.attacker_is_root |= c.attacker_is_root;
        }
        if chased_here && m.class.exchange {
            facts.with_exchange = true;
        }
    }
    pattern.forbidden = true;
    pattern.chase_out_of_check = own.iter().any(|m| m.class.out_of_check);
    pattern.attackers = facts.attackers.iter().map(|(s, _)| *s).collect();
    pattern.targets = common;
    pattern.chase = Some(facts);
}

fn allowed_reason(own: &[&CycleMove], start: &Position, set: RuleSet) -> AllowedChase {
    let mut king = false;
    let mut pawn = false;
    let mut other = false;
    let mut only_uncrossed = true;
    for m in own {
        for c in &m.class.chases {
            match c.attacker_role {
                Role::King => king = true,
                Role::Pawn => pawn = true,
                _ => other = true,
            }
            let uncrossed = start
                .piece_at(m.ids.of(c.target))
                .map(|p| is_uncrossed_pawn(p, c.target))
                .unwrap_or(false);
            only_uncrossed &= uncrossed;
        }
    }
    if only_uncrossed && set == RuleSet::Axf {
        AllowedChase::UncrossedPawn
    } else if (king || pawn) && (set != RuleSet::Axf || !other || moves_without_other(own)) {
        AllowedChase::KingOrPawn { king, pawn }
    } else {
        AllowedChase::InTurn
    }
}

/// Some move chases only with a king or pawns (AXF-D23, D24: joined on one move only).
fn moves_without_other(own: &[&CycleMove]) -> bool {
    own.iter().any(|m| {
        m.class
            .chases
            .iter()
            .all(|c| matches!(c.attacker_role, Role::King | Role::Pawn))
    })
}

/// A piece attacked on every move of the side, at least once while truly
/// protected (AXF-S6, D12, D30).
fn protected_attack(own: &[&CycleMove], start: &Position) -> Option<ProtectedAttack> {
    let first = own.first()?;
    let mut candidates: Vec<Square> = first
        .class
        .non_chases
        .iter()
        .filter(|n| n.reason == NonChaseReason::TrulyProtected)
        .map(|n| first.ids.of(n.target))
        .chain(first.class.chases.iter().map(|c| first.ids.of(c.target)))
        .collect();
    candidates.retain(|t| {
        own.iter().all(|m| {
            m.class.chases.iter().any(|c| m.ids.of(c.target) == *t)
                || m.class.non_chases.iter().any(|n| m.ids.of(n.target) == *t)
        }) && own.iter().any(|m| {
            m.class
                .non_chases
                .iter()
                .any(|n| n.reason == NonChaseReason::TrulyProtected && m.ids.of(n.target) == *t)
        })
    });
    let target = *candidates.first()?;
    let mut attackers: Vec<(Square, Role)> = Vec::new();
    for m in own {
        let from_chases = m.class.chases.iter().map(|c| (c.target, c.attacker));
        let from_non = m.class.non_chases.iter().map(|n| (n.target, n.attacker));
        for (t, a) in from_chases.chain(from_non) {
            if m.ids.of(t) == target {
                let id = m.ids.of(a);
                if !attackers.iter().any(|(s, _)| *s == id) {
                    let role = start.piece_at(id).map(|p| p.role).unwrap_or(Role::Pawn);
                    attackers.push((id, role));
                }
            }
        }
    }
    let max_attackers = own
        .iter()
        .flat_map(|m| {
            m.class
                .non_chases
                .iter()
                .filter(|n| m.ids.of(n.target) == target)
                .map(|n| n.attackers)
        })
        .max()
        .unwrap_or(0)
        .max(attackers.len());
    Some(ProtectedAttack {
        max_attackers,
        target,
        target_role: start.piece_at(target).map(|p| p.role).unwrap_or(Role::Pawn),
        attackers,
    })
}
