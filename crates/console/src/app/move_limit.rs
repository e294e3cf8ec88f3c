//! The move-limit dialog (限著, ROC-6/ROC-7): the `m` key on a table offers
//! who is limited and who asked (or a book draw 例和), and, when a limit is
//! declared, to cancel it; a new declaration replaces the old one (a
//! reset). The server refuses it under rules without a declared limit.

use crate::i18n::Strings;
use proto::{Command, Side};

/// What the arbiter chose: declare (who asked, who is limited, book draw)
/// or cancel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitChoice {
    Declare {
        requested_by: Option<Side>,
        limited: Side,
        book_draw: bool,
    },
    Cancel,
}

/// The options, by key; cancelling only when a limit is declared.
pub fn options(s: &Strings, declared: bool) -> Vec<(char, String)> {
    let mut v = vec![
        ('1', s.ml_red_at_black.to_string()),
        ('2', s.ml_black_at_red.to_string()),
        ('3', s.ml_red_arbiter.to_string()),
        ('4', s.ml_black_arbiter.to_string()),
        ('5', s.ml_red_book.to_string()),
        ('6', s.ml_black_book.to_string()),
    ];
    if declared {
        v.push(('0', s.ml_cancel.to_string()));
    }
    v
}

/// The choice of key `c` (one of [`options`]).
pub fn choice(c: char) -> LimitChoice {
    let declare = |requested_by, limited, book_draw| LimitChoice::Declare {
        requested_by,
        limited,
        book_draw,
    };
    match c {
        '1' => declare(Some(Side::Black), Side::Red, false),
        '2' => declare(Some(Side::Red), Side::Black, false),
        '3' => declare(None, Side::Red, false),
        '4' => declare(None, Side::Black, false),
        '5' => declare(None, Side::Red, true),
        '6' => declare(None, Side::Black, true),
        _ => LimitChoice::Cancel,
    }
}

/// The choice in words (the option's label).
pub fn label(s: &Strings, c: LimitChoice) -> &'static str {
    match c {
        LimitChoice::Cancel => s.ml_cancel,
        LimitChoice::Declare {
            limited,
            book_draw,
            requested_by,
        } => match (limited, book_draw, requested_by) {
            (Side::Red, true, _) => s.ml_red_book,
            (Side::Black, true, _) => s.ml_black_book,
            (Side::Red, false, Some(_)) => s.ml_red_at_black,
            (Side::Black, false, Some(_)) => s.ml_black_at_red,
            (Side::Red, false, None) => s.ml_red_arbiter,
            (Side::Black, false, None) => s.ml_black_arbiter,
        },
    }
}

/// The command of a choice at `table`.
pub fn command(table: u16, c: LimitChoice) -> Command {
    match c {
        LimitChoice::Declare {
            requested_by,
            limited,
            book_draw,
        } => Command::DeclareMoveLimit {
            table,
            requested_by,
            limited,
            book_draw,
        },
        LimitChoice::Cancel => Command::CancelMoveLimit { table },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, Words};

    #[test]
    fn every_option_makes_its_command() {
        let s = Lang::En.s();
        let opts = options(s, true);
        assert_eq!(opts.len(), 7);
        assert_eq!(options(s, false).len(), 6);
        for (k, text) in opts {
            let c = choice(k);
            assert_eq!(label(s, c), text, "{k}");
            match command(3, c) {
                Command::DeclareMoveLimit { table, .. } | Command::CancelMoveLimit { table } => {
                    assert_eq!(table, 3)
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(
            command(1, choice('1')),
            Command::DeclareMoveLimit {
                table: 1,
                requested_by: Some(Side::Black),
                limited: Side::Red,
                book_draw: false
            }
        );
        assert_eq!(
            command(1, choice('0')),
            Command::CancelMoveLimit { table: 1 }
        );
    }
}
