//! Check, checkmate and stalemate (a loss for the side to move), `play` errors, and
//! make/unmake of whole games restoring position, counters and hash.

use xiangqi::{Color, EndReason, Move, Outcome, Position, Role, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn mv(text: &str) -> Move {
    Move::new(text[0..2].parse().unwrap(), text[2..4].parse().unwrap())
}

#[test]
fn rook_and_facing_king_mate() {
    // The rook checks on the d-file; e9 is covered by the red king (flying general).
    let p = pos("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers(), vec!["d0".parse::<Square>().unwrap()]);
    assert!(p.is_checkmate());
    assert!(!p.is_stalemate());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Red,
            reason: EndReason::Checkmate
        })
    );
}

#[test]
fn stalemate_is_a_loss() {
    // Black's king is not in check but every step is covered.
    let p = pos("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(!p.is_check());
    assert!(p.legal_moves().is_empty());
    assert!(p.is_stalemate());
    assert!(!p.is_checkmate());
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner(), Color::Red);
    assert_eq!(outcome.to_string(), "red wins by stalemate");
}

#[test]
fn mate_delivered_by_play() {
    let mut p = pos("3k5/9/9/9/9/9/9/9/7R1/4K4 w - - 0 1");
    assert_eq!(p.outcome(), None);
    assert!(p.gives_check(mv("h1h9")));
    assert!(!p.gives_check(mv("h1h8")));
    assert_eq!(p.play(mv("h1d1")), Ok(None));
    assert!(p.is_checkmate());
    assert_eq!(p.turn(), Color::Black);
}

#[test]
fn play_reports_captures_and_counters() {
    let mut p = Position::new();
    for m in ["h2e2", "h9g7", "h0g2", "i9h9", "e2e6"] {
        let captured = p.play(mv(m)).unwrap();
        if m == "e2e6" {
            assert_eq!(captured.map(|c| c.role), Some(Role::Pawn));
        } else {
            assert_eq!(captured, None);
        }
    }
    assert_eq!(p.halfmove_clock(), 0);
    assert_eq!(p.fullmove_number(), 3);
    assert_eq!(p.turn(), Color::Black);
    let err = p.play(mv("e6e7")).unwrap_err();
    assert_eq!(err.mv, mv("e6e7"));
    assert!(err.to_string().contains("e6e7"), "{err}");
}

#[test]
fn unplaying_a_whole_game_restores_everything() {
    let mut p = Position::new();
    let start = p.clone();
    let mut history = vec![];
    let mut seen = std::collections::HashSet::new();
    for i in 0..200 {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(i * 7919) % moves.len()];
        seen.insert(p.zobrist());
        let undo = p.play_unchecked(m);
        history.push((m, undo));
    }
    assert!(history.len() > 20);
    assert!(seen.len() > 20, "hashes should differ between positions");
    while let Some((m, undo)) = history.pop() {
        p.unplay(m, undo);
    }
    assert_eq!(p, start);
    assert_eq!(p.zobrist(), start.zobrist());
    assert_eq!(p.to_fen(), Position::START_FEN);
}

#[test]
fn same_placement_same_hash_whatever_the_route() {
    let mut a = Position::new();
    let mut b = Position::new();
    for m in ["h2e2", "h9g7", "b0c2", "b9c7"] {
        a.play(mv(m)).unwrap();
    }
    for m in ["b0c2", "b9c7", "h2e2", "h9g7"] {
        b.play(mv(m)).unwrap();
    }
    assert_eq!(a.zobrist(), b.zobrist());
    assert_eq!(a, b);
    // Same placement, other side to move: different hash.
    let red = pos("3k5/9/9/9/9/9/9/9/9/4K2R1 w - - 0 1");
    let black = pos("3k5/9/9/9/9/9/9/9/9/4K2R1 b - - 0 1");
    assert_ne!(red.zobrist(), black.zobrist());
}
