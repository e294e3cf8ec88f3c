//! Every incident script is found in the real games and rules as intended.

use super::*;

pub(crate) fn games() -> Vec<Game> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/games/hu-ronghua-1391.pgn"
    );
    let text = std::fs::read_to_string(path).expect("the game data set");
    crate::replay::games_from_pgn(&text).expect("games")
}

fn play_line(script: &Script, g: &Game) -> (Vec<Move>, Position) {
    let mut pos = g.start.clone();
    let mut line = Vec::new();
    for s in &script.steps {
        if let Step::Play(m) = s {
            pos.play(*m).expect("every scripted move is legal");
            line.push(*m);
        }
    }
    (line, pos)
}

#[test]
fn every_incident_is_found_and_checked() {
    let games = games();
    assert!(games.len() > 1_000);
    for (i, incident) in Incident::ALL.into_iter().enumerate() {
        let script =
            with_incident(&games, i, incident, 5).unwrap_or_else(|| panic!("{incident:?}"));
        let g = &games[script.game];
        let (line, _) = play_line(&script, g);
        match incident {
            Incident::PerpetualCheck | Incident::PerpetualChase => {
                let upto = script.at_ply + 8;
                let r = judge_game(&g.start, &line[..upto], RuleSet::Axf)
                    .unwrap()
                    .unwrap();
                assert_ne!(r.verdict, rulebook::ruling::Verdict::Draw, "{incident:?}");
                assert!(
                    r.rules.iter().any(|id| {
                        let s = id.as_str();
                        if incident == Incident::PerpetualCheck {
                            s == "AXF-D1" || s == "AXF-S1"
                        } else {
                            s != "AXF-D1"
                        }
                    }),
                    "{:?}",
                    r.rules
                );
                // The players wait for the order; the checking side then
                // repeats the cycle once more, the chasing side changes.
                let order = script.steps.iter().position(|s| *s == Step::AwaitOrder);
                let ruling = script.steps.iter().position(|s| *s == Step::AwaitRuling);
                assert_eq!(order, Some(script.at_ply + 8), "{incident:?}");
                if incident == Incident::PerpetualCheck {
                    assert_eq!(ruling, Some(script.at_ply + 13));
                    assert_eq!(line.len(), g.moves.len() + 12);
                } else {
                    assert_eq!(ruling, None);
                    assert_ne!(line[script.at_ply + 8], line[script.at_ply]);
                    assert_eq!(line.len(), g.moves.len() + 8);
                }
                // What follows the order, as the hall's order watch sees it.
                let at = script.at_ply + 8;
                let mut watch = rulebook::OrderWatch::new(
                    &g.start,
                    &line[..at],
                    None,
                    RuleSet::Axf,
                    rulebook::CyclesAfterOrder::One,
                )
                .unwrap();
                let mut pos = g.start.clone();
                for &m in &line[..at] {
                    pos.play_unchecked(m);
                }
                let ordered = watch.order().side();
                let mut state = None;
                for &m in &line[at..at + 4] {
                    let before = pos.clone();
                    pos.play_unchecked(m);
                    if let Some(s) = watch.push(&before, m, &pos) {
                        state = Some(s.clone());
                    }
                }
                match (incident, state) {
                    (
                        Incident::PerpetualCheck,
                        Some(rulebook::OrderState::Repeated { ruling, .. }),
                    ) => {
                        assert_eq!(ruling.rules[0], rulebook::RuleId::AXF_G3);
                        assert_eq!(ruling.must_change, ordered);
                    }
                    (Incident::PerpetualChase, Some(rulebook::OrderState::Lapsed(l))) => {
                        assert!(
                            matches!(l, rulebook::Lapse::LeftCycle { by, .. } if Some(by) == ordered)
                        );
                    }
                    (i, other) => panic!("{i:?}: after the order {other:?}"),
                }
            }
            Incident::TrueLimitClaim => {
                assert_eq!(script.steps.last(), Some(&Step::ConcludeLimit));
                let c = facts(&g.start, &line);
                let mut pos = g.start.clone();
                for &m in &line {
                    pos.play_unchecked(m);
                }
                assert!(judge_claim(&c, pos.turn(), &RuleSet::Axf.params(), false).holds);
            }
            Incident::FalseLimitClaim => {
                assert!(script.steps.contains(&Step::ClaimLimit));
                assert_eq!(line.len(), g.moves.len());
            }
            Incident::FlagFall => assert_eq!(script.steps.last(), Some(&Step::Flag)),
            Incident::IllegalMove => {
                let bad = script
                    .steps
                    .iter()
                    .find_map(|s| match s {
                        Step::Sensor(m) => Some(*m),
                        _ => None,
                    })
                    .unwrap();
                let mut pos = g.start.clone();
                for &m in &g.moves[..script.at_ply] {
                    pos.play_unchecked(m);
                }
                let m = proto::convert::game_move(bad).unwrap();
                assert_eq!(
                    pos.check_move(m).unwrap_err().reason,
                    IllegalReason::PieceCannotMoveThere
                );
            }
            Incident::Disconnect => assert!(script.steps.contains(&Step::Disconnect)),
        }
    }
}
