//! The next round in the console (下一轮): the chief's draft of the round
//! the server proposed — the boards with *why this pair*, the changes made
//! to it with their reasons — until it is published. State only; the keys
//! are in `keys.rs`, the rendering in `ui/round.rs`.

use proto::{Message, RoundChange, RoundProposal};

/// The proposal being reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    /// The round as it stands (the proposal with the changes applied).
    pub round: RoundProposal,
    /// The changes made, each with its reason (published with the round).
    pub changes: Vec<RoundChange>,
    /// The selected board.
    pub sel: usize,
    /// A board marked for an exchange of opponents (`x` twice).
    pub marked: Option<usize>,
}

/// A change to make once its reason is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Swap the colours of board `i`.
    Colours(usize),
    /// Exchange the Black players of boards `a` and `b`.
    Exchange(usize, usize),
}

impl Draft {
    /// A draft of `round`, unchanged.
    pub fn new(round: RoundProposal) -> Draft {
        Draft {
            round,
            changes: Vec::new(),
            sel: 0,
            marked: None,
        }
    }

    /// Makes `change` with `reason`: the boards change, the change is kept
    /// for the audit, and the boards' *why* notes say a change was made.
    pub fn apply(&mut self, change: Change, reason: &str) {
        let boards = &mut self.round.boards;
        let what = match change {
            Change::Colours(i) => {
                let Some(b) = boards.get_mut(i) else { return };
                std::mem::swap(&mut b.red, &mut b.black);
                std::mem::swap(&mut b.red_id, &mut b.black_id);
                b.why
                    .push(Message::new("round-why-changed").verbatim("reason", reason));
                Message::new("round-change-colours").int("table", b.table)
            }
            Change::Exchange(a, c) if a != c && a < boards.len() && c < boards.len() => {
                let (black_a, id_a) = (boards[a].black.clone(), boards[a].black_id.clone());
                boards[a].black = std::mem::replace(&mut boards[c].black, black_a);
                boards[a].black_id = std::mem::replace(&mut boards[c].black_id, id_a);
                for i in [a, c] {
                    boards[i]
                        .why
                        .push(Message::new("round-why-changed").verbatim("reason", reason));
                }
                Message::new("round-change-exchange")
                    .int("table", boards[a].table)
                    .int("other", boards[c].table)
            }
            Change::Exchange(..) => return,
        };
        self.changes.push(RoundChange {
            what,
            reason: reason.to_string(),
        });
    }
}
