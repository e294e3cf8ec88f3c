//! ICCS coordinate notation (`h2e2`): files `a`..`i` from Red's left, ranks
//! `0`..`9` from Red's side. The form with a dash and upper case (`H2-E2`, used
//! by xqbase PGN files with `[Format "ICCS"]`) is read too; case does not matter.
//!
//! ICCS names squares, not pieces, so reading it needs no position; legality is
//! checked by the caller (`notation::parse_any`, PGN replay).

use crate::notation::{clip, syntax, NotationError};
use crate::{Move, Square};

/// Reads an ICCS move: `h2e2`, `H2E2`, `h2-e2` or `H2-E2` (surrounding spaces ignored).
///
/// Only the shape is checked here (two distinct squares); whether the move is
/// legal is a question for the position.
pub fn parse_iccs(text: &str) -> Result<Move, NotationError> {
    // The usual form (`h2e2`) straight from the bytes; the rest below.
    if let [f1 @ b'a'..=b'i', r1 @ b'0'..=b'9', f2 @ b'a'..=b'i', r2 @ b'0'..=b'9'] =
        *text.as_bytes()
    {
        if let (Some(from), Some(to)) = (
            Square::new(f1 - b'a', r1 - b'0'),
            Square::new(f2 - b'a', r2 - b'0'),
        ) {
            if from != to {
                return Ok(Move::new(from, to));
            }
        }
    }
    parse_general(text)
}

/// [`parse_iccs`] for every form, with the errors.
fn parse_general(text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    if !t.is_ascii() {
        return Err(syntax(
            text,
            "not ICCS: expected two squares like h2e2 or H2-E2",
        ));
    }
    let (from, to) = match t.len() {
        4 => (&t[0..2], &t[2..4]),
        5 if t.as_bytes()[2] == b'-' => (&t[0..2], &t[3..5]),
        _ => {
            return Err(syntax(
                text,
                "not ICCS: expected two squares like h2e2 or H2-E2",
            ));
        }
    };
    let (Ok(from), Ok(to)) = (from.parse::<Square>(), to.parse::<Square>()) else {
        return Err(syntax(
            text,
            "not ICCS: a square is a file a-i and a rank 0-9",
        ));
    };
    if from == to {
        return Err(NotationError::Impossible {
            text: clip(text),
            reason: "the move starts and ends on the same square".to_string(),
        });
    }
    Ok(Move::new(from, to))
}

/// Writes a move in ICCS, lower case without a dash (`h2e2`).
pub fn to_iccs(m: Move) -> String {
    m.to_string()
}

/// Writes a move in the xqbase ICCS form, upper case with a dash (`H2-E2`).
pub fn to_iccs_dashed(m: Move) -> String {
    format!(
        "{}{}-{}{}",
        m.from.file_char().to_ascii_uppercase(),
        m.from.rank_char(),
        m.to.file_char().to_ascii_uppercase(),
        m.to.rank_char()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The fast path reads exactly what the general one reads.
    #[test]
    fn fast_path_agrees() {
        let chars = b"`ahij/09:AI";
        let mut n = 0;
        for &a in chars {
            for &b in chars {
                for &c in chars {
                    for &d in chars {
                        let t = String::from_utf8(vec![a, b, c, d]).unwrap();
                        assert_eq!(parse_iccs(&t), parse_general(&t), "{t}");
                        n += parse_iccs(&t).is_ok() as usize;
                    }
                }
            }
        }
        assert!(n > 50, "{n} moves read");
    }

    #[test]
    fn reads_all_forms() {
        let m = parse_iccs("h2e2").unwrap();
        assert_eq!(m.from, "h2".parse().unwrap());
        assert_eq!(m.to, "e2".parse().unwrap());
        for t in ["H2E2", "H2-E2", "h2-e2", " h2e2 ", "h2-E2"] {
            assert_eq!(parse_iccs(t).unwrap(), m, "{t}");
        }
        assert_eq!(to_iccs(m), "h2e2");
        assert_eq!(to_iccs_dashed(m), "H2-E2");
    }

    #[test]
    fn rejects_malformed() {
        for t in [
            "",
            "h2",
            "h2e",
            "j2e2",
            "h2e2e",
            "h2+e2",
            "hae2",
            "h2-e",
            "h2e2-",
            "h2h2",
            "炮二平五",
            "é2e2",
        ] {
            assert!(parse_iccs(t).is_err(), "{t}");
        }
        assert!(parse_iccs("h2h2")
            .unwrap_err()
            .to_string()
            .contains("same square"));
    }

    #[test]
    fn every_move_roundtrips() {
        for from in Square::all() {
            for to in Square::all() {
                if from != to {
                    let m = Move::new(from, to);
                    assert_eq!(parse_iccs(&to_iccs(m)).unwrap(), m);
                    assert_eq!(parse_iccs(&to_iccs_dashed(m)).unwrap(), m);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in ".{0,12}") {
            let _ = parse_iccs(&s);
        }

        #[test]
        fn never_panics_on_near_misses(s in "[a-jA-J0-9\\-é炮]{0,6}") {
            let _ = parse_iccs(&s);
        }
    }
}
