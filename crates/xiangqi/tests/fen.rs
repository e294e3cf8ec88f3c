//! FEN reading and writing: defaults, aliases, every error naming its field, and
//! property tests that no input string — random or a mutated valid FEN — panics.

use proptest::prelude::*;
use xiangqi::{Color, FenError, Piece, Position, Role, Square};

const START: &str = Position::START_FEN;

#[test]
fn start_position_round_trips() {
    let p = Position::from_fen(START).unwrap();
    assert_eq!(p, Position::new());
    assert_eq!(p.to_fen(), START);
    assert_eq!(p.turn(), Color::Red);
    assert_eq!(p.halfmove_clock(), 0);
    assert_eq!(p.fullmove_number(), 1);
    assert_eq!(p.pieces().count(), 32);
    assert_eq!(p.king_square(Color::Red), "e0".parse::<Square>().unwrap());
    assert_eq!(p.king_square(Color::Black), "e9".parse::<Square>().unwrap());
    assert_eq!(
        p.piece_at("h2".parse().unwrap()),
        Some(Piece::new(Color::Red, Role::Cannon))
    );
    assert_eq!(
        p.piece_at("a9".parse().unwrap()),
        Some(Piece::new(Color::Black, Role::Rook))
    );
}

#[test]
fn missing_fields_default_and_side_aliases() {
    let placement = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    assert_eq!(Position::from_fen(placement).unwrap(), Position::new());
    assert_eq!(
        Position::from_fen(&format!("{placement} r")).unwrap(),
        Position::new()
    );
    assert_eq!(
        Position::from_fen(&format!("{placement} w - -")).unwrap(),
        Position::new()
    );
    let black = Position::from_fen(&format!("{placement} b - - 7 12")).unwrap();
    assert_eq!(black.turn(), Color::Black);
    assert_eq!(black.halfmove_clock(), 7);
    assert_eq!(black.fullmove_number(), 12);
    assert_eq!(black.to_fen(), format!("{placement} b - - 7 12"));
    assert_ne!(black.zobrist(), Position::new().zobrist());
    // E and H are accepted for elephant and horse; written back as B and N.
    let alias =
        Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR").unwrap();
    assert_eq!(alias, Position::new());
}

fn err(fen: &str) -> FenError {
    Position::from_fen(fen).unwrap_err()
}

#[test]
fn errors_name_the_field_and_reason() {
    let cases: &[(&str, &str)] = &[
        ("", "empty"),
        ("rnbakabnr/9/1c5c1 w", "expected 10 ranks"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "placement rank 0: unexpected character 'X'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            "placement rank 0: describes 8 files",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            "placement rank 0: describes 10 files",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/0/RNBAKABNR w",
            "placement rank 1: unexpected character '0'",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            "no red king",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/K8/RNBA1ABNR w",
            "placement rank 1",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "side to move",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ",
            "castling",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - e3",
            "en passant",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            "halfmove clock",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
            "fullmove number",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 -3",
            "fullmove number",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra",
            "extra field",
        ),
    ];
    for (fen, needle) in cases {
        let msg = err(fen).to_string();
        assert!(msg.contains(needle), "{fen:?}: {msg:?} lacks {needle:?}");
    }
}

#[test]
fn impossible_placements_are_rejected() {
    let base = |rank0: &str, rank3: &str| format!("4k4/9/9/9/9/9/{rank3}/9/9/{rank0} w - - 0 1");
    // King outside the palace.
    assert!(matches!(
        err(&base("2K6", "9")),
        FenError::ImpossibleSquare { rank: 0, .. }
    ));
    // Advisor off the palace diagonals; elephant off its points.
    assert!(matches!(
        err(&base("4K1A2", "9")),
        FenError::ImpossibleSquare { rank: 0, .. }
    ));
    assert!(matches!(
        err(&base("1B2K4", "9")),
        FenError::ImpossibleSquare { rank: 0, .. }
    ));
    // Pawn behind its starting rank or on a file it cannot be on before the river.
    assert!(matches!(
        err(&base("P3K4", "9")),
        FenError::ImpossibleSquare { rank: 0, .. }
    ));
    assert!(matches!(
        err(&base("4K4", "1P7")),
        FenError::ImpossibleSquare { rank: 3, .. }
    ));
    // Elephant across the river.
    assert!(matches!(
        err("4k4/9/9/9/2B6/9/9/9/9/4K4 w"),
        FenError::ImpossibleSquare { rank: 5, .. }
    ));
    // Too many pieces of a kind.
    assert!(matches!(
        err("4k4/9/9/RRR6/9/9/9/9/9/4K4 w"),
        FenError::TooMany {
            role: Role::Rook,
            count: 3,
            ..
        }
    ));
    assert!(matches!(
        err("3k5/9/9/9/9/9/9/9/9/3K5 w"),
        FenError::KingsFacing
    ));
    // The side that just moved may not be in check.
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"),
        FenError::OpponentInCheck {
            opponent: Color::Black,
            ..
        }
    ));
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").is_ok());
}

fn valid_fens() -> Vec<&'static str> {
    vec![
        START,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 12 40",
    ]
}

fn check_no_panic(text: &str) {
    if let Ok(p) = Position::from_fen(text) {
        // Whatever is accepted is a legal position that round-trips.
        let again = Position::from_fen(&p.to_fen()).unwrap();
        assert_eq!(again, p);
        let _ = p.legal_moves();
        let _ = p.outcome();
    }
}

proptest! {
    #[test]
    fn random_strings_never_panic(text in "\\PC{0,120}") {
        check_no_panic(&text);
    }

    #[test]
    fn fen_like_strings_never_panic(text in "[rnbakcpRNBAKCPEH0-9/ wb-]{0,100}") {
        check_no_panic(&text);
    }

    #[test]
    fn mutated_fens_never_panic(
        which in 0usize..4,
        edits in proptest::collection::vec((0usize..200, 0u8..3, any::<char>()), 1..6),
    ) {
        let mut chars: Vec<char> = valid_fens()[which].chars().collect();
        for (pos, op, ch) in edits {
            let i = pos % (chars.len() + 1);
            match op {
                0 if i < chars.len() => { chars.remove(i); }
                1 => chars.insert(i, ch),
                _ if i < chars.len() => chars[i] = ch,
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        check_no_panic(&text);
    }
}
