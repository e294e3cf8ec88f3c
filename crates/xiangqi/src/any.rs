//! Reading a move in whichever notation it is written (任意记谱): ICCS,
//! then WXF, then Chinese. Above the three readers (`iccs.rs`, `wxf.rs`,
//! `chinese.rs`) and the notation machinery they share (`notation/`), so
//! that machinery does not import the readers back.

use crate::notation::{clip, NotationError};
use crate::{chinese, iccs, wxf, Move, Position};

/// Reads a move in any notation: ICCS (`h2e2`, `H2-E2`), then WXF (`C2.5`),
/// then Chinese (`炮二平五`), and checks that it is legal in `pos`.
///
/// The first notation whose *shape* the text has decides: a text that looks like
/// ICCS but is illegal gets the ICCS error, not a WXF attempt.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_with(pos, text, wxf::parse_wxf)
}

/// Reads ICCS, then the descriptive notation `middle` (WXF, or Vietnamese
/// in its own mode), then Chinese; the first notation whose shape the
/// text has decides.
pub(crate) fn parse_with(
    pos: &Position,
    text: &str,
    middle: fn(&Position, &str) -> Result<Move, NotationError>,
) -> Result<Move, NotationError> {
    match iccs::parse_iccs(text) {
        Ok(m) => {
            return pos
                .check_move(m)
                .map(|()| m)
                .map_err(|e| NotationError::Illegal {
                    text: clip(text),
                    source: e,
                })
        }
        Err(e) if !e.is_syntax() => return Err(e),
        Err(_) => {}
    }
    match middle(pos, text) {
        Err(e) if e.is_syntax() => {}
        other => return other,
    }
    match chinese::parse_chinese(pos, text) {
        Err(e) if e.is_syntax() => Err(NotationError::Unrecognized { text: clip(text) }),
        other => other,
    }
}
