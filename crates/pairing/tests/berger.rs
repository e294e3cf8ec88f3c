//! The Berger tables equal FIDE's published tables (C.05 Annex 1) for 3 to
//! 16 players (4 to 16 places; 3 players use the table of 4, and so on),
//! read from `berger-fide.txt` beside this test.

use pairing::berger::{table, Cycles};

#[test]
fn berger_tables_equal_fides_for_3_to_16_players() {
    let text = include_str!("berger-fide.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (head, boards) = line.split_once(": ").expect("'places round: boards'");
        let (places, round) = head.split_once(' ').expect("'places round'");
        let places: u32 = places.parse().expect("places");
        let round: usize = round.parse().expect("round");
        let fide: Vec<(u32, u32)> = boards
            .split(' ')
            .map(|b| {
                let (w, k) = b.split_once('-').expect("white-black");
                (w.parse().expect("white"), k.parse().expect("black"))
            })
            .collect();
        for players in [places - 1, places] {
            if players < 3 {
                continue;
            }
            let ours = table(players, Cycles::Single).expect("size in range");
            assert_eq!(ours.len(), places as usize - 1, "{players} players: rounds");
            assert_eq!(ours[round - 1], fide, "{players} players, round {round}");
            checked += 1;
        }
    }
    // 3..16 players: sizes 4..16 places have 3+5+...+15 rounds, twice
    // (odd and even player counts) but 4 places only once for 3 and 4.
    assert_eq!(checked, 2 * (3 + 5 + 7 + 9 + 11 + 13 + 15));
}
