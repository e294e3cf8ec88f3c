//! The field (参赛者): who is entered, what each played in every round so
//! far, and how results score. Every pairing system reads its facts from
//! here: scores, opponents met, colour history, byes received.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A colour: Red moves first in Xiangqi, so Red = White of chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// Red (红方), White in chess.
    Red,
    /// Black (黑方).
    Black,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }
}

/// A round's result code for one player (TRF-16's codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultCode {
    /// `1` (or `W`): won a played game.
    Win,
    /// `=` (or `D`): drew.
    Draw,
    /// `0` (or `L`): lost.
    Loss,
    /// `+`: won by forfeit (the opponent did not come).
    ForfeitWin,
    /// `-`: lost by forfeit.
    ForfeitLoss,
    /// `U`: the pairing-allocated bye (轮空).
    PairingBye,
    /// `F`: a full-point bye the player asked for.
    FullBye,
    /// `H`: a half-point bye.
    HalfBye,
    /// `Z` or blank: not paired, no points (absent, or not yet entered).
    ZeroBye,
}

impl ResultCode {
    /// Reads a TRF result character.
    pub fn from_trf(c: char) -> Option<ResultCode> {
        Some(match c {
            '1' | 'W' | 'w' => ResultCode::Win,
            '=' | 'D' | 'd' => ResultCode::Draw,
            '0' | 'L' | 'l' => ResultCode::Loss,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'U' | 'u' => ResultCode::PairingBye,
            'F' | 'f' => ResultCode::FullBye,
            'H' | 'h' => ResultCode::HalfBye,
            'Z' | 'z' | ' ' => ResultCode::ZeroBye,
            _ => return None,
        })
    }

    /// The TRF character.
    pub fn to_trf(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::PairingBye => 'U',
            ResultCode::FullBye => 'F',
            ResultCode::HalfBye => 'H',
            ResultCode::ZeroBye => 'Z',
        }
    }

    /// A game was played over the board (colours count).
    pub fn played(self) -> bool {
        matches!(self, ResultCode::Win | ResultCode::Draw | ResultCode::Loss)
    }
}

/// Points per result, in tenths of a point (so 1/½/0 is 10/5/0 and
/// Xiangqi's 2/1/0 is 20/10/0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoring {
    /// A win, also by forfeit.
    pub win: u32,
    /// A draw.
    pub draw: u32,
    /// A loss, also by forfeit.
    pub loss: u32,
    /// The pairing-allocated bye (AXF: a win).
    pub pairing_bye: u32,
    /// A full-point bye.
    pub full_bye: u32,
    /// A half-point bye.
    pub half_bye: u32,
    /// Absent, not paired.
    pub zero_bye: u32,
}

impl Scoring {
    /// FIDE's 1 / ½ / 0 (a pairing-allocated bye is a win).
    pub const FIDE: Scoring = Scoring {
        win: 10,
        draw: 5,
        loss: 0,
        pairing_bye: 10,
        full_bye: 10,
        half_bye: 5,
        zero_bye: 0,
    };
    /// AXF's 2 / 1 / 0 (a bye is a win).
    pub const AXF: Scoring = Scoring {
        win: 20,
        draw: 10,
        loss: 0,
        pairing_bye: 20,
        full_bye: 20,
        half_bye: 10,
        zero_bye: 0,
    };

    /// Points (tenths) for a result.
    pub fn points(&self, r: ResultCode) -> u32 {
        match r {
            ResultCode::Win | ResultCode::ForfeitWin => self.win,
            ResultCode::Draw => self.draw,
            ResultCode::Loss | ResultCode::ForfeitLoss => self.loss,
            ResultCode::PairingBye => self.pairing_bye,
            ResultCode::FullBye => self.full_bye,
            ResultCode::HalfBye => self.half_bye,
            ResultCode::ZeroBye => self.zero_bye,
        }
    }
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring::FIDE
    }
}

/// One entered player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Start number (1-based, the pairing number).
    pub number: u32,
    /// Name.
    pub name: String,
    /// Rating (0 = unrated).
    pub rating: u32,
    /// Club, team or federation for avoidance ("" = none).
    pub club: String,
    /// May receive the pairing-allocated bye.
    pub bye_eligible: bool,
}

/// What a player did in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The opponent's start number (none for a bye or absence).
    pub opponent: Option<u32>,
    /// The colour (none when nothing was played).
    pub side: Option<Side>,
    /// The result.
    pub result: ResultCode,
}

impl Entry {
    /// Absent, nothing played.
    pub const ABSENT: Entry = Entry {
        opponent: None,
        side: None,
        result: ResultCode::ZeroBye,
    };
}

/// The players and their rounds so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// Players in start-number order (`entrants[i].number == i + 1`).
    pub entrants: Vec<Entrant>,
    /// `history[i][r]`: what player `i` did in round `r + 1`; every player
    /// has one entry per round held.
    pub history: Vec<Vec<Entry>>,
    /// How results score.
    pub scoring: Scoring,
    /// Players who do not play the next round, with what they get
    /// (a requested bye `F`/`H`, or `Z`).
    pub absent_next: BTreeMap<u32, ResultCode>,
    /// Pairs that must not meet (start numbers, smaller first).
    pub forbidden: BTreeSet<(u32, u32)>,
    /// Rounds planned (0 = unknown).
    pub rounds_planned: u32,
}

impl Field {
    /// A field of `entrants` without rounds.
    pub fn new(entrants: Vec<Entrant>, scoring: Scoring) -> Field {
        let n = entrants.len();
        Field {
            entrants,
            history: vec![Vec::new(); n],
            scoring,
            ..Field::default()
        }
    }

    /// Rounds held.
    pub fn rounds_held(&self) -> u32 {
        self.history.first().map_or(0, |h| h.len() as u32)
    }

    /// Score of player index `i`, in tenths.
    pub fn score(&self, i: usize) -> u32 {
        self.history[i]
            .iter()
            .map(|e| self.scoring.points(e.result))
            .sum()
    }

    /// Whether players `a` and `b` (indices) met already (played or by
    /// forfeit: a forfeit is a pairing that was made).
    pub fn met(&self, a: usize, b: usize) -> bool {
        let nb = b as u32 + 1;
        self.history[a].iter().any(|e| e.opponent == Some(nb))
    }

    /// Whether players `a` and `b` (indices) played a game over the board.
    pub fn played(&self, a: usize, b: usize) -> bool {
        let nb = b as u32 + 1;
        self.history[a]
            .iter()
            .any(|e| e.opponent == Some(nb) && e.result.played())
    }

    /// Whether the pair is forbidden.
    pub fn forbidden(&self, a: usize, b: usize) -> bool {
        let (x, y) = (a.min(b) as u32 + 1, a.max(b) as u32 + 1);
        self.forbidden.contains(&(x, y))
    }

    /// Colours of the games player `i` played, in round order.
    pub fn colours(&self, i: usize) -> Vec<Side> {
        self.history[i]
            .iter()
            .filter(|e| e.result.played())
            .filter_map(|e| e.side)
            .collect()
    }

    /// Pairing-allocated byes received (`U`).
    pub fn byes(&self, i: usize) -> usize {
        self.history[i]
            .iter()
            .filter(|e| e.result == ResultCode::PairingBye)
            .count()
    }

    /// Whether player `i` plays the next round.
    pub fn present(&self, i: usize) -> bool {
        !self.absent_next.contains_key(&(i as u32 + 1))
    }

    /// Appends a round: the pairing's boards with their results, the bye,
    /// and the absences. `results` gives Red's result per board.
    pub fn push_round(&mut self, boards: &[(crate::Board, ResultCode)], bye: Option<u32>) {
        let n = self.entrants.len();
        let mut row = vec![None; n];
        for (b, red_result) in boards {
            let black_result = match red_result {
                ResultCode::Win => ResultCode::Loss,
                ResultCode::Loss => ResultCode::Win,
                ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
                ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
                other => *other,
            };
            row[b.red as usize - 1] = Some(Entry {
                opponent: Some(b.black),
                side: Some(Side::Red),
                result: *red_result,
            });
            row[b.black as usize - 1] = Some(Entry {
                opponent: Some(b.red),
                side: Some(Side::Black),
                result: black_result,
            });
        }
        if let Some(p) = bye {
            row[p as usize - 1] = Some(Entry {
                opponent: None,
                side: None,
                result: ResultCode::PairingBye,
            });
        }
        for (p, code) in &self.absent_next {
            if let Some(slot) = row.get_mut(*p as usize - 1) {
                slot.get_or_insert(Entry {
                    opponent: None,
                    side: None,
                    result: *code,
                });
            }
        }
        for (i, e) in row.into_iter().enumerate() {
            self.history[i].push(e.unwrap_or(Entry::ABSENT));
        }
        self.absent_next.clear();
    }
}
