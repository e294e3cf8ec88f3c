//! The board in Chinese glyphs (棋盘): 帥仕相俥傌炮兵 in red, 將士象車馬砲卒
//! in black, on a wooden background, with the last move marked (its origin
//! as 〇, its destination highlighted). Files are numbered as Chinese
//! notation reads them: １–９ from Black's right along the top, 九–一 from
//! Red's right along the bottom.
//!
//! Every glyph is two columns wide, points are separated by one column:
//! the board is 26 columns plus a margin, 12 or 13 rows.

use super::theme;
use proto::IccsMove;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// Pieces by rank (0 = Red's back rank) and file (0 = a), as FEN letters.
pub type Grid = [[Option<char>; 9]; 10];

/// Reads the placement field of a FEN; `None` if it is not a board.
pub fn parse_placement(fen: &str) -> Option<Grid> {
    let placement = fen.split_whitespace().next()?;
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 10 {
        return None;
    }
    let mut grid: Grid = [[None; 9]; 10];
    for (i, r) in ranks.iter().enumerate() {
        let rank = 9 - i;
        let mut file = 0usize;
        for c in r.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else if glyph(c).is_some() {
                if file >= 9 {
                    return None;
                }
                grid[rank][file] = Some(c);
                file += 1;
            } else {
                return None;
            }
            if file > 9 {
                return None;
            }
        }
        if file != 9 {
            return None;
        }
    }
    Some(grid)
}

/// The Chinese glyph of a FEN piece letter (upper case Red).
pub fn glyph(c: char) -> Option<&'static str> {
    Some(match c {
        'K' => "帥",
        'A' => "仕",
        'B' | 'E' => "相",
        'N' | 'H' => "傌",
        'R' => "俥",
        'C' => "炮",
        'P' => "兵",
        'k' => "將",
        'a' => "士",
        'b' | 'e' => "象",
        'n' | 'h' => "馬",
        'r' => "車",
        'c' => "砲",
        'p' => "卒",
        _ => return None,
    })
}

const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
const BLACK_FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];

/// The board as lines (13 rows: file numbers, 10 ranks with the river
/// between, file numbers).
pub fn lines(grid: &Grid, last: Option<IccsMove>, river: (&str, &str)) -> Vec<Line<'static>> {
    let bg = Style::new().bg(theme::BOARD_BG);
    let empty = bg.fg(Color::Rgb(120, 80, 40));
    let red = bg.fg(theme::BOARD_RED).add_modifier(Modifier::BOLD);
    let black = bg.fg(theme::BOARD_BLACK).add_modifier(Modifier::BOLD);
    let mark_bg = Color::Rgb(250, 230, 90);
    let (from, to) = match last {
        Some(m) if m.is_valid() => (Some(m.from as usize), Some(m.to as usize)),
        _ => (None, None),
    };
    let labels = |names: &[&str; 9]| {
        let mut spans = vec![Span::styled(" ", bg)];
        for n in names {
            spans.push(Span::styled(n.to_string(), bg.fg(Color::Rgb(90, 60, 30))));
            spans.push(Span::styled(" ", bg));
        }
        Line::from(spans)
    };
    let mut out = vec![labels(&BLACK_FILES)];
    for rank in (0..10).rev() {
        let mut spans = vec![Span::styled(" ", bg)];
        for (file, point) in grid[rank].iter().enumerate() {
            let idx = rank * 9 + file;
            let (text, mut style) = match *point {
                Some(c) => {
                    let g = glyph(c).unwrap_or("？");
                    (g, if c.is_ascii_uppercase() { red } else { black })
                }
                None if from == Some(idx) => ("〇", empty.fg(Color::Rgb(200, 0, 0))),
                None => ("＋", empty),
            };
            if to == Some(idx) || from == Some(idx) {
                style = style.bg(mark_bg);
            }
            spans.push(Span::styled(text, style));
            spans.push(Span::styled(" ", bg));
        }
        out.push(Line::from(spans));
        if rank == 5 {
            let (chu, han) = river;
            let gap = usize::from(WIDTH)
                .saturating_sub(5 + crate::width::width(chu) + crate::width::width(han));
            out.push(Line::from(Span::styled(
                format!("   {chu}{}{han}  ", " ".repeat(gap)),
                bg.fg(Color::Rgb(90, 60, 30)),
            )));
        }
    }
    out.push(labels(&RED_FILES));
    out
}

/// Board width in columns.
pub const WIDTH: u16 = 28;
/// Board height in rows.
pub const HEIGHT: u16 = 13;

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn parses_the_start_position() {
        let g = parse_placement(START).unwrap();
        assert_eq!(g[0][4], Some('K'));
        assert_eq!(g[9][4], Some('k'));
        assert_eq!(g[2][1], Some('C'));
        assert_eq!(g[5][0], None);
    }

    #[test]
    fn rejects_broken_placements() {
        assert!(parse_placement("").is_none());
        assert!(parse_placement("rnbakabnr/9/9").is_none());
        assert!(parse_placement("rnbakabnrr/9/9/9/9/9/9/9/9/9").is_none());
        assert!(parse_placement("xnbakabnr/9/9/9/9/9/9/9/9/9").is_none());
        assert!(parse_placement("8/9/9/9/9/9/9/9/9/9").is_none());
    }

    #[test]
    fn every_row_has_the_board_width() {
        let g = parse_placement(START).unwrap();
        let m = IccsMove::parse("h2e2");
        let ls = lines(&g, m, ("楚 河", "漢 界"));
        assert_eq!(ls.len(), usize::from(HEIGHT));
        for l in &ls {
            assert_eq!(l.width(), usize::from(WIDTH), "{l:?}");
        }
    }
}
