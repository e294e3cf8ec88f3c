//! Small wire types shared by every message family: sides, moves, results,
//! fouls, time controls and clock states.
//!
//! These are the protocol's own types, deliberately independent of
//! `xiangqi`/`rulebook`, so that the wire format only changes when the
//! protocol version does. Converting to and from the game types is the
//! server's and the terminals' business.

use bincode::{Decode, Encode};
use std::fmt;

/// A side of the board (红方 Red moves first, 黑方 Black).
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Red,
    Black,
}

impl Side {
    /// Both sides, Red first.
    pub const ALL: [Side; 2] = [Side::Red, Side::Black];

    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// 0 for Red, 1 for Black (the index of `[red, black]` pairs).
    pub fn index(self) -> usize {
        match self {
            Side::Red => 0,
            Side::Black => 1,
        }
    }

    /// The name in English texts: `Red` / `Black` (also its `Display`).
    pub fn name_en(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Black => "Black",
        }
    }

    /// The name in Chinese texts: 红方 / 黑方.
    pub fn name_zh(self) -> &'static str {
        match self {
            Side::Red => "红方",
            Side::Black => "黑方",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name_en())
    }
}

/// One move on the wire: two square indices `rank * 9 + file` (file 0..=8 is
/// `a..i` from Red's left, rank 0..=9 from Red's side), the same numbering as
/// `xiangqi::Square`. Displayed and parsed as ICCS text (`h2e2`).
///
/// Decoding accepts any byte; [`IccsMove::is_valid`] says whether both squares
/// are on the board (the server rejects moves that are not).
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IccsMove {
    pub from: u8,
    pub to: u8,
}

/// Number of squares on the board (9 files x 10 ranks).
pub const SQUARES: u8 = 90;

impl IccsMove {
    /// A move from square index `from` to `to`; `None` when a square is off the
    /// board or both are the same.
    pub fn new(from: u8, to: u8) -> Option<IccsMove> {
        let m = IccsMove { from, to };
        m.is_valid().then_some(m)
    }

    /// Both squares on the board and distinct.
    pub fn is_valid(self) -> bool {
        self.from < SQUARES && self.to < SQUARES && self.from != self.to
    }

    /// Parses ICCS text: `h2e2`, `H2-E2` (case-insensitive, optional dash).
    pub fn parse(text: &str) -> Option<IccsMove> {
        let bytes: Vec<u8> = text
            .trim()
            .bytes()
            .filter(|b| *b != b'-')
            .map(|b| b.to_ascii_lowercase())
            .collect();
        if bytes.len() != 4 {
            return None;
        }
        let square = |f: u8, r: u8| -> Option<u8> {
            if (b'a'..=b'i').contains(&f) && r.is_ascii_digit() {
                Some((r - b'0') * 9 + (f - b'a'))
            } else {
                None
            }
        };
        IccsMove::new(square(bytes[0], bytes[1])?, square(bytes[2], bytes[3])?)
    }
}

impl fmt::Display for IccsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_valid() {
            return write!(f, "?{}-{}?", self.from, self.to);
        }
        let sq = |i: u8| ((b'a' + i % 9) as char, i / 9);
        let (ff, fr) = sq(self.from);
        let (tf, tr) = sq(self.to);
        write!(f, "{ff}{fr}{tf}{tr}")
    }
}

/// A game's result (比赛结果).
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
    /// Both players lose (e.g. both absent 30 minutes after the start).
    BothLose,
}

impl GameResult {
    /// The result in which `side` wins.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::Red => GameResult::RedWins,
            Side::Black => GameResult::BlackWins,
        }
    }
}

/// Why a game ended (终局原因), carried with every result from the event
/// that ended it: the terminal's report, the arbiter's ruling on a claim,
/// the arbiter's own result. Never inferred from words.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// 将死.
    Checkmate,
    /// 困毙 (no legal move, not in check: a loss, AXF-G2).
    Stalemate,
    /// 认负.
    Resignation,
    /// 超时 (AXF-CLOCK-1).
    Flag,
    /// 长将: a perpetual check ruled a loss (after an order to change).
    PerpetualCheck,
    /// 长捉 (or another forbidden perpetual pattern) ruled a loss.
    PerpetualChase,
    /// A repetition ruled a draw.
    Repetition,
    /// 自然限着 (AXF-LIMIT-1).
    NaturalLimit,
    /// Technical fouls or violations at the limit (AXF-PLAY-5).
    Fouls,
    /// An illegal move that loses (AXF-G6).
    IllegalMove,
    /// 弃权: absent at the start or the resumption (AXF-FORFEIT-1).
    Forfeit,
    /// 议和.
    Agreement,
    /// A result the arbiter set, with the arbiter's reason.
    Arbiter,
    /// A result the table terminal reported for a reason of its own.
    Reported,
    /// The declared move limit 限著 of the ROC rules is full (ROC-7).
    MoveLimit,
}

impl EndReason {
    /// Every reason, in declaration order.
    pub const ALL: [EndReason; 15] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::Resignation,
        EndReason::Flag,
        EndReason::PerpetualCheck,
        EndReason::PerpetualChase,
        EndReason::Repetition,
        EndReason::NaturalLimit,
        EndReason::Fouls,
        EndReason::IllegalMove,
        EndReason::Forfeit,
        EndReason::Agreement,
        EndReason::Arbiter,
        EndReason::Reported,
        EndReason::MoveLimit,
    ];

    /// The English words (exports, summaries).
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Resignation => "resignation",
            EndReason::Flag => "flag",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::PerpetualChase => "perpetual chase",
            EndReason::Repetition => "repetition",
            EndReason::NaturalLimit => "natural limit",
            EndReason::Fouls => "fouls",
            EndReason::IllegalMove => "illegal move",
            EndReason::Forfeit => "forfeit",
            EndReason::Agreement => "agreement",
            EndReason::Arbiter => "arbiter",
            EndReason::Reported => "reported",
            EndReason::MoveLimit => "move limit",
        }
    }

    /// The Chinese term.
    pub fn as_zh(self) -> &'static str {
        match self {
            EndReason::Checkmate => "将死",
            EndReason::Stalemate => "困毙",
            EndReason::Resignation => "认负",
            EndReason::Flag => "超时",
            EndReason::PerpetualCheck => "长将",
            EndReason::PerpetualChase => "长捉",
            EndReason::Repetition => "循环作和",
            EndReason::NaturalLimit => "自然限着",
            EndReason::Fouls => "犯规",
            EndReason::IllegalMove => "违规着法",
            EndReason::Forfeit => "弃权",
            EndReason::Agreement => "议和",
            EndReason::Arbiter => "裁判判定",
            EndReason::Reported => "终端报告",
            EndReason::MoveLimit => "限著",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Kind of foul (犯规): technical fouls (技术犯规, two lose the game) and
/// recording/conduct violations (违例, four lose the game) are counted apart.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FoulKind {
    Technical,
    Violation,
}

/// Foul counts of one side.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FoulCount {
    pub technical: u32,
    pub violations: u32,
}

/// One stage of a traditional clock control: `moves` own moves by
/// `cumulative_ms` of the player's total time (AXF-CLOCK-2: 25 by 60 min, ...).
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClockStage {
    pub moves: u32,
    pub cumulative_ms: u64,
}

/// The hall's time control (用时规定).
#[derive(Encode, Decode, Debug, Clone, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// Base time plus an increment after each move (AXF-CLOCK-1: 80 min + 30 s).
    /// Rapid and blitz are Fischer controls too (increment may be 0).
    Fischer { base_ms: u64, increment_ms: u64 },
    /// Traditional periods (AXF-CLOCK-2): the listed stages, then every
    /// `then_ms` another `then_moves` moves (the count not carried over).
    Traditional {
        stages: Vec<ClockStage>,
        then_moves: u32,
        then_ms: u64,
    },
}

/// What a clock shows at one moment: both remaining times and whose clock
/// runs. `running` is `None` before the start, while paused or sealed, and
/// after the end.
#[derive(Encode, Decode, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClockState {
    pub red_ms: u64,
    pub black_ms: u64,
    pub running: Option<Side>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_displays_and_parses_back() {
        for from in 0..SQUARES {
            for to in 0..SQUARES {
                let Some(m) = IccsMove::new(from, to) else {
                    assert_eq!(from, to);
                    continue;
                };
                let text = m.to_string();
                assert_eq!(IccsMove::parse(&text), Some(m), "{text}");
                assert_eq!(IccsMove::parse(&text.to_uppercase()), Some(m));
            }
        }
    }

    #[test]
    fn iccs_examples_and_bad_text() {
        let m = IccsMove::parse("h2e2").unwrap();
        assert_eq!((m.from, m.to), (2 * 9 + 7, 2 * 9 + 4));
        assert_eq!(IccsMove::parse("H2-E2"), Some(m));
        for bad in ["", "h2e", "h2e2x", "j2e2", "h2e:", "h2h2", "乙2e2"] {
            assert_eq!(IccsMove::parse(bad), None, "{bad}");
        }
        assert!(!IccsMove { from: 90, to: 0 }.is_valid());
        assert_eq!(IccsMove { from: 200, to: 3 }.to_string(), "?200-3?");
    }

    #[test]
    fn every_end_reason_has_its_own_words() {
        let en: std::collections::HashSet<_> = EndReason::ALL.iter().map(|r| r.as_str()).collect();
        let zh: std::collections::HashSet<_> = EndReason::ALL.iter().map(|r| r.as_zh()).collect();
        assert_eq!(
            (en.len(), zh.len()),
            (EndReason::ALL.len(), EndReason::ALL.len())
        );
        assert_eq!(EndReason::PerpetualChase.to_string(), "perpetual chase");
    }

    #[test]
    fn sides_and_results() {
        assert_eq!(Side::Red.other(), Side::Black);
        assert_eq!(Side::Black.other(), Side::Red);
        assert_eq!(GameResult::win_for(Side::Black), GameResult::BlackWins);
    }
}
