//! The next round in the running hall (issue 36), end to end over real
//! QUIC: round 1 of a hall of eight players is closed (every game has a
//! result), a deputy's `N` is refused naming why, the chief's console
//! (the real `console::App` on the real network client) pairs round 2,
//! sees *why this pair* on every board, swaps one pair's colours with a
//! reason and publishes; the table terminals are disconnected and sign in
//! to round 2 with their new pairing; the server is restarted between the
//! publication and the start and still plays round 2; round 2 is played;
//! the export's standings equal `caipan standings` on the exported TRF.
//!
//! And the real table terminals (`table::terminal`, the engine and link of
//! `caipan table`, each with its outbox on disk) through the round change:
//! they play round 1, the chief publishes round 2, each terminal shows
//! its new pairing (round, table, names, colours) waiting for the start
//! from the initial position with a full clock, then plays round 2 with
//! its own clock and its round's own outbox; nothing of round 1 reaches
//! round 2's record.

mod support;

use std::path::Path;
use std::time::Duration;

use proto::{Command, Connector, GameResult, ServerMsg, Side, TableStatus, Trust};
use support::console::Console;
use support::{caipan, close_round, connect, table_token, Hall, Round, Terminal, CHIEF, DEPUTY};
use table::engine::{Action, Engine, Status};
use table::terminal::{self, TerminalHandle};
use table::timebase::Timebase;
use table::Outbox;

const ROUND1: [(&str, &str); 4] = [
    ("胡荣华", "许银川"),
    ("吕钦", "赵国荣"),
    ("徐天红", "柳大华"),
    ("李来群", "杨官璘"),
];

fn hall() -> Hall {
    let mut h = Hall::new("编排测试赛", "127.0.0.1:0").with_tables(&ROUND1);
    h.deputy = Some((DEPUTY.into(), vec![1, 2]));
    h.rounds = vec![Round::new(1, &ROUND1)];
    h
}

/// The standings' columns that `caipan standings` computes from a TRF as
/// the export does from the record: rank, name, points, games, wins,
/// draws, losses, wins with Black, opponent scores (the id column names
/// the player by registration id in the export and by start number in
/// the TRF's standings; technical fouls are not in a TRF).
fn comparable(csv: &str) -> Vec<String> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [0, 2, 4, 5, 6, 7, 8, 9, 11, 12]
                .iter()
                .map(|&i| f.get(i).copied().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chief_pairs_swaps_and_publishes_round_2_which_survives_a_restart_and_is_played() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = hall();
    let data = dir.path().join("data");
    // As `caipan serve` does at every start (the config copy for exports).
    let note = || {
        server::export::stored::note_hall_start(&data, &h.toml(), &h.config(dir.path()))
            .expect("start noted")
    };
    note();
    let s = h.start(dir.path()).await;

    // Terminals of round 1 connected.
    let mut terminals = Vec::new();
    for t in 1..=4 {
        terminals.push(Terminal::open(s.addr, s.fingerprint, t).await);
    }

    // Not before the round is over.
    let mut early = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let err = early
        .command(1, Command::PairNextRound)
        .await
        .expect_err("round 1 is not over");
    assert!(
        err.1.contains("round 1 is not over: tables 1, 2, 3, 4"),
        "{err:?}"
    );

    use GameResult::*;
    close_round(&s, &[(1, RedWins), (2, BlackWins), (3, RedWins), (4, Draw)]).await;

    // A deputy's N: refused, saying why.
    let mut deputy = Console::new(s.addr, s.fingerprint, DEPUTY);
    deputy
        .until("deputy subscribed", |a| a.hall().is_some())
        .await;
    deputy.key('N').await;
    let screen = deputy.screen();
    assert!(
        screen.contains("only the chief pairs and publishes the next round"),
        "{screen}"
    );
    // The server refuses it too.
    let mut raw_deputy = connect(s.addr, s.fingerprint, DEPUTY)
        .await
        .expect("deputy");
    let err = raw_deputy
        .command(7, Command::PairNextRound)
        .await
        .expect_err("deputy refused");
    assert!(err.1.contains("only the chief"), "{err:?}");

    // The chief pairs round 2: why this pair on every board.
    let mut chief = Console::new(s.addr, s.fingerprint, CHIEF);
    chief
        .until("chief subscribed", |a| a.hall().is_some())
        .await;
    chief.key('N').await;
    chief
        .until("the proposal", |a| a.next_round.is_some())
        .await;
    let draft = chief.app.next_round.clone().expect("draft");
    assert_eq!(draft.round.round, 2);
    assert_eq!(draft.round.system, "xiangqi");
    assert_eq!(draft.round.boards.len(), 4);
    let mut everyone: Vec<&str> = draft
        .round
        .boards
        .iter()
        .flat_map(|b| [b.red.as_str(), b.black.as_str()])
        .collect();
    everyone.sort();
    let mut expected: Vec<&str> = ROUND1.iter().flat_map(|(r, b)| [*r, *b]).collect();
    expected.sort();
    assert_eq!(everyone, expected, "every player once");
    for b in &draft.round.boards {
        let ids: Vec<&str> = b.why.iter().map(|m| m.id.as_str()).collect();
        assert!(
            ids.contains(&"round-why-same-score") || ids.contains(&"round-why-float"),
            "table {}: {ids:?}",
            b.table
        );
        assert!(
            ids.contains(&"round-why-colour"),
            "table {}: {ids:?}",
            b.table
        );
        // No rematch of round 1.
        assert!(
            !ROUND1
                .iter()
                .any(|(r, k)| (b.red == *r && b.black == *k) || (b.red == *k && b.black == *r)),
            "rematch on table {}",
            b.table
        );
    }
    let screen = chief.screen();
    assert!(
        screen.contains("same score") || screen.contains("float"),
        "{screen}"
    );

    // Swap the colours of the first board, with a reason.
    let (red, black) = (
        draft.round.boards[0].red.clone(),
        draft.round.boards[0].black.clone(),
    );
    chief.key('w').await;
    assert!(chief.app.dialog.is_some(), "a reason is asked");
    for c in "红方申请换色".chars() {
        chief.key(c).await;
    }
    chief.enter().await;
    let draft = chief.app.next_round.clone().expect("draft");
    assert_eq!(
        (
            draft.round.boards[0].red.as_str(),
            draft.round.boards[0].black.as_str()
        ),
        (black.as_str(), red.as_str())
    );
    assert_eq!(draft.changes.len(), 1);
    assert_eq!(draft.changes[0].reason, "红方申请换色");

    // Publish.
    chief.key('P').await;
    chief.key('y').await;
    chief
        .until("round 2 in the hall", |a| {
            a.hall().is_some_and(|h| h.round == 2)
        })
        .await;
    let published = draft.round.clone();

    // The terminals of round 1 are disconnected; they sign in to round 2.
    for t in &mut terminals {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            match tokio::time::timeout_at(deadline, t.c.c.recv()).await {
                Ok(Err(_)) => break,
                Ok(Ok(m)) => assert!(!matches!(m, ServerMsg::Error(_)), "{m:?}"),
                Err(_) => panic!("table {}: not disconnected", t.table),
            }
        }
    }
    let check_round2 = |session: &proto::TableSession| {
        let b = published
            .boards
            .iter()
            .find(|b| b.table == session.table)
            .expect("a board of round 2");
        assert_eq!((&session.red, &session.black), (&b.red, &b.black));
        assert_eq!(session.status, TableStatus::Waiting);
        assert!(session.moves.is_empty());
    };
    for t in 1..=4 {
        let term = Terminal::open(s.addr, s.fingerprint, t).await;
        assert_eq!(term.c.hello.hall.round, 2);
        check_round2(term.c.hello.table.as_ref().expect("session"));
    }
    drop(chief);
    drop(deputy);

    // A restart between the publication and the start keeps round 2.
    s.shutdown().await.expect("clean stop");
    note();
    let s = h.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    assert_eq!(chief.hello.hall.round, 2);
    let view = chief.subscribe().await;
    assert_eq!(view.round, 2);
    let mut terms = Vec::new();
    for t in 1..=4 {
        let term = Terminal::open(s.addr, s.fingerprint, t).await;
        check_round2(term.c.hello.table.as_ref().expect("session"));
        terms.push(term);
    }

    // Published, not yet started: its pairings print (A4, by table and
    // by name, no registration ids).
    let page = caipan(&[
        "export",
        "--data",
        data.to_str().expect("path"),
        "--round",
        "2",
        "--format",
        "pairings-html",
    ]);
    check_pairings_page(&page, &published);

    // Round 2 is played: table 1 by its terminal (a resignation), the rest set.
    terms[0]
        .event(proto::TableEvent::Arrived {
            side: proto::Side::Red,
        })
        .await;
    close_round(&s, &[(1, RedWins), (2, Draw), (3, BlackWins), (4, RedWins)]).await;
    drop(chief);
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let view = chief.subscribe().await;
    assert!(view
        .tables
        .iter()
        .all(|t| matches!(t.status, TableStatus::Finished { .. })));
    s.shutdown().await.expect("clean stop");

    // The export's standings equal `caipan standings` on the exported TRF.
    let data = data.to_str().expect("path");
    let trf_path = dir.path().join("event.trf");
    let trf = caipan(&["export", "--data", data, "--round", "2", "--format", "trf"]);
    std::fs::write(&trf_path, &trf).expect("write trf");
    assert!(trf.lines().any(|l| l.starts_with("001")), "{trf}");
    let exported = caipan(&[
        "export",
        "--data",
        data,
        "--round",
        "2",
        "--format",
        "standings-csv",
    ]);
    let from_trf = caipan(&[
        "standings",
        "--trf",
        trf_path.to_str().expect("path"),
        "--tiebreaks",
        "opponent_score_all,DE,fewer_technical_fouls,BWG,lots",
    ]);
    assert_eq!(
        comparable(&exported),
        comparable(&from_trf),
        "export:\n{exported}\ncaipan standings:\n{from_trf}"
    );
    assert_eq!(comparable(&exported).len(), 8);
    // Round 1 still exports as it was played.
    let r1 = caipan(&["export", "--data", data, "--round", "1", "--format", "csv"]);
    assert!(r1.contains("胡荣华") && r1.contains("许银川"), "{r1}");
}

/// The printable pairings of `round`: well-formed, A4, every board by
/// table in order, every player by name with table, colour and opponent.
fn check_pairings_page(page: &str, round: &proto::RoundProposal) {
    assert!(page.contains("@page{size:A4"), "{page}");
    let body = page
        .strip_prefix("<!DOCTYPE html>\n")
        .expect("doctype first");
    let mut reader = quick_xml::Reader::from_str(body);
    let mut cells: Vec<String> = Vec::new();
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Text(t)) => {
                cells.push(t.decode().expect("text decodes").into_owned())
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed at {}: {e}", reader.buffer_position()),
        }
    }
    let (by_table, by_name) = page.split_once("按姓名 By name").expect("by name");
    assert!(by_table.contains("按台次 By table"), "{page}");
    let mut at = 0;
    for b in &round.boards {
        let row = format!(
            "<tr><td class=\"no\">{}</td><td>{}</td><td>{}</td></tr>",
            b.table, b.red, b.black
        );
        let found = by_table[at..]
            .find(&row)
            .unwrap_or_else(|| panic!("{row} in order: {page}"));
        at += found;
        for (me, colour, other) in [(&b.red, "红 Red", &b.black), (&b.black, "黑 Black", &b.red)]
        {
            let row = format!(
                "<tr><td>{me}</td><td class=\"no\">{}</td><td>{colour}</td><td>{other}</td></tr>",
                b.table
            );
            assert!(by_name.contains(&row), "{row}: {page}");
        }
        for id in [&b.red_id, &b.black_id].into_iter().flatten() {
            assert!(
                !cells.iter().any(|c| c.contains(id.as_str())),
                "id {id} printed"
            );
        }
    }
}

/// A real table terminal (what `caipan table` runs, without the screen)
/// for table `t`, its outboxes in `folder/round-R`.
async fn real_terminal(s: &server::RunningServer, t: u16, folder: &Path) -> TerminalHandle {
    let connector = Connector::new(&Trust::Fingerprint(s.fingerprint), false).expect("connector");
    let link = table::link::LinkConfig::new(s.addr, table_token(t), connector);
    let (info, hello) = terminal::fetch_info(&link).await.expect("table info");
    let epoch = hello.table.as_ref().expect("session").epoch + 1;
    let (outbox, _) = Outbox::open_round(folder, t, hello.hall.round, epoch).expect("round outbox");
    terminal::spawn(Engine::new(info, outbox), Some(link), Timebase::real(0))
}

/// The chief pairs the next round and publishes it unchanged.
async fn publish_next(s: &server::RunningServer) -> proto::RoundProposal {
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    chief
        .send(proto::ClientMsg::Command {
            id: 1,
            command: Command::PairNextRound,
        })
        .await;
    let proposal = chief
        .until(|m| match m {
            ServerMsg::RoundProposal { proposal, .. } => Some(proposal.clone()),
            ServerMsg::Error(e) => panic!("pairing refused: {e:?}"),
            _ => None,
        })
        .await;
    chief
        .command(
            2,
            Command::PublishRound {
                round: proposal.clone(),
                changes: Vec::new(),
            },
        )
        .await
        .expect("published");
    *proposal
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_terminals_show_their_new_pairing_and_play_round_2_from_the_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = hall();
    let s = h.start(dir.path()).await;
    let folder = |t: u16| dir.path().join(format!("outbox-{t}"));
    let mut terms = Vec::new();
    for t in 1..=4 {
        terms.push(real_terminal(&s, t, &folder(t)).await);
    }
    let wait = Duration::from_secs(10);
    for (i, term) in terms.iter().enumerate() {
        let s = term
            .wait_for(wait, |s| s.online)
            .await
            .unwrap_or_else(|| panic!("table {} online", i + 1));
        assert_eq!((s.round, s.red.as_str()), (1, ROUND1[i].0));
    }

    // Round 1: table 1 is played at its terminal (Black resigns), the
    // chief sets the others.
    let t1 = &terms[0];
    t1.act(Action::StartClock).await.expect("start");
    for m in ["h2e2", "h9g7", "h0g2"] {
        t1.act(Action::Play(m.into())).await.expect("move");
    }
    t1.act(Action::Resign {
        by: Side::Black,
        reason: "认输".into(),
    })
    .await
    .expect("resign");
    t1.wait_for(wait, |s| s.waiting == 0)
        .await
        .expect("round 1 acknowledged");
    use GameResult::*;
    close_round(&s, &[(2, BlackWins), (3, RedWins), (4, Draw)]).await;
    for term in &terms {
        term.wait_for(wait, |s| matches!(s.status, Status::Finished { .. }))
            .await
            .expect("round 1 over at every terminal");
    }

    // The chief publishes round 2: every terminal shows its new pairing,
    // waiting for the start, from the initial position with a full clock.
    let published = publish_next(&s).await;
    assert_eq!(published.round, 2);
    let full = 80 * 60 * 1000;
    for (i, term) in terms.iter().enumerate() {
        let t = i as u16 + 1;
        let b = published
            .boards
            .iter()
            .find(|b| b.table == t)
            .expect("a board at every table");
        let screen = term
            .wait_for(wait, |s| s.round == 2 && s.online)
            .await
            .unwrap_or_else(|| panic!("table {t}: round 2 not shown: {:?}", term.screen()));
        assert_eq!(screen.table, t);
        assert_eq!(
            (&screen.red, &screen.black),
            (&b.red, &b.black),
            "table {t}"
        );
        assert_eq!(screen.status, Status::Waiting, "table {t}");
        assert_eq!(screen.plies, 0);
        assert_eq!(screen.position, xiangqi::Position::new());
        assert_eq!((screen.red_ms, screen.black_ms), (full, full));
        assert!(
            screen.message.contains(&format!("round 2: table {t}")),
            "{}",
            screen.message
        );
        assert!(folder(t)
            .join("round-2")
            .join(format!("table-{t}.outbox"))
            .exists());
        assert!(folder(t)
            .join("round-1")
            .join(format!("table-{t}.outbox"))
            .exists());
    }

    // Round 2 is played at the terminals: on table 1 with its own clock.
    let t1 = &terms[0];
    t1.act(Action::StartClock).await.expect("round 2 starts");
    for m in ["b2e2", "b9c7"] {
        t1.act(Action::Play(m.into())).await.expect("round 2 move");
    }
    t1.act(Action::Resign {
        by: Side::Red,
        reason: "认输".into(),
    })
    .await
    .expect("resign");
    let done = t1
        .wait_for(wait, |s| s.waiting == 0 && s.plies == 2)
        .await
        .expect("round 2 acknowledged");
    assert_ne!(
        (done.red_ms, done.black_ms),
        (full, full),
        "round 2's clock ran"
    );
    for t in &terms[1..] {
        t.act(Action::StartClock).await.expect("start");
        t.act(Action::Play("h2e2".into())).await.expect("move");
        t.act(Action::OfferDraw { by: Side::Black })
            .await
            .expect("offer");
        t.act(Action::AcceptDraw { by: Side::Red })
            .await
            .expect("draw");
        t.wait_for(wait, |s| s.waiting == 0)
            .await
            .expect("acknowledged");
    }
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let view = chief.subscribe().await;
    assert_eq!(view.round, 2);
    for t in &view.tables {
        let b = published
            .boards
            .iter()
            .find(|b| b.table == t.table)
            .expect("board");
        assert_eq!((&t.red, &t.black), (&b.red, &b.black));
        assert!(matches!(t.status, TableStatus::Finished { .. }), "{t:?}");
    }
    // Round 2's record of table 1 holds round 2's game only.
    let t1_view = view.tables.iter().find(|t| t.table == 1).expect("table 1");
    let moves: Vec<String> = t1_view.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["b2e2", "b9c7"]);
    assert!(matches!(
        t1_view.status,
        TableStatus::Finished {
            result: BlackWins,
            ..
        }
    ));
    for t in terms {
        let (engine, stats) = t.stop().await.expect("stop");
        assert_eq!(engine.round(), 2);
        assert_eq!(engine.outbox().waiting(), 0);
        assert!(stats.errors.is_empty(), "{:?}", stats.errors);
    }
    s.shutdown().await.expect("clean stop");
}

/// Deputies across rounds: one deputy by table ranges (`"1-2, 4"`), one
/// by the list form (the same tables as before, `[3]`), every table
/// covered (`deputies_cover_all_tables`). The chief's preview of round 2
/// names each deputy's tables of the round; after the publication each
/// deputy acts on its tables of round 2 and is refused the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deputies_keep_their_ranges_and_lists_in_round_2_shown_in_the_preview() {
    const DEPUTY_B: &str = "test-deputy-b-token-0123456789";
    let dir = tempfile::tempdir().expect("tempdir");
    let text = hall()
        .toml()
        .replace("tables = [1, 2]", "tables = \"1-2, 4\"")
        .replace(
            "[credentials.chief]",
            "[credentials]\ndeputies_cover_all_tables = true\n[credentials.chief]",
        )
        .replace(
            "[[credentials.table]]\ntable = 1\n",
            &format!(
                "[[credentials.deputy]]\nname = \"刘建华\"\ntoken = \"{DEPUTY_B}\"\ntables = [3]\n\
                 [[credentials.table]]\ntable = 1\n"
            ),
        );
    let config = support::config_from(&text, dir.path());
    assert_eq!(config.credentials.deputies.len(), 2, "{text}");
    let s = support::start_with(dir.path(), config).await;
    use GameResult::*;
    close_round(&s, &[(1, RedWins), (2, BlackWins), (3, RedWins), (4, Draw)]).await;

    // The preview: each deputy's tables of round 2.
    let mut chief = Console::new(s.addr, s.fingerprint, CHIEF);
    chief
        .until("chief subscribed", |a| a.hall().is_some())
        .await;
    chief.key('N').await;
    chief
        .until("the proposal", |a| a.next_round.is_some())
        .await;
    let draft = chief.app.next_round.clone().expect("draft");
    let notes: Vec<String> = draft
        .round
        .notes
        .iter()
        .map(|n| i18n::render(i18n::Lang::En, n))
        .collect();
    assert!(
        notes.contains(&"deputy 陈立新: tables 1-2, 4".to_string())
            && notes.contains(&"deputy 刘建华: tables 3".to_string()),
        "{notes:?}"
    );
    let screen = chief.screen();
    assert!(screen.contains("tables 1-2, 4"), "{screen}");
    chief.key('P').await;
    chief.key('y').await;
    chief
        .until("round 2 in the hall", |a| {
            a.hall().is_some_and(|h| h.round == 2)
        })
        .await;

    // Round 2: each deputy on its own tables only.
    let pause = |table: u16| Command::PauseTable {
        table,
        reason: "巡场".into(),
    };
    let mut a = connect(s.addr, s.fingerprint, DEPUTY)
        .await
        .expect("deputy");
    let mut b = connect(s.addr, s.fingerprint, DEPUTY_B)
        .await
        .expect("deputy b");
    assert_eq!(a.hello.hall.round, 2);
    a.command(1, pause(4)).await.expect("table 4 is 陈立新's");
    b.command(1, pause(3)).await.expect("table 3 is 刘建华's");
    let err = b
        .command(2, pause(4))
        .await
        .expect_err("table 4 is not 刘建华's");
    assert!(matches!(err.0, proto::ErrorCode::Forbidden), "{err:?}");
    let err = a
        .command(2, pause(3))
        .await
        .expect_err("table 3 is not 陈立新's");
    assert!(err.1.contains("table 3"), "{err:?}");
}

/// Field `i` of the line of `csv` whose field `key` is `value`.
fn csv_field(csv: &str, key: usize, value: &str, i: usize) -> String {
    csv.lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f.get(key) == Some(&value))
        .and_then(|f| f.get(i).map(|s| s.to_string()))
        .unwrap_or_else(|| panic!("no line with {value:?} in field {key}:\n{csv}"))
}

/// A round-1 result corrected after round 2 was published (an appeal):
/// only the chief corrects, with a reason, a game that was a board of
/// that round; the correction is stored and audited, the export's
/// results, standings and TRF (what the next pairing reads) give the
/// corrected result, and a restart keeps it. The hall stays in round 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_1_result_corrected_in_round_2_is_what_the_export_and_the_next_pairing_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = hall();
    let data = dir.path().join("data");
    let note = || {
        server::export::stored::note_hall_start(&data, &h.toml(), &h.config(dir.path()))
            .expect("start noted")
    };
    note();
    let s = h.start(dir.path()).await;
    use GameResult::*;
    close_round(&s, &[(1, RedWins), (2, BlackWins), (3, RedWins), (4, Draw)]).await;
    publish_next(&s).await;
    let data_s = data.to_str().expect("path").to_string();
    let export = |round: &str, format: &str| {
        caipan(&[
            "export", "--data", &data_s, "--round", round, "--format", format,
        ])
    };
    let before = export("1", "standings-csv");

    let correct = |round: u32, table: u16, reason: &str| Command::CorrectResult {
        round,
        table,
        result: RedWins,
        reason: reason.into(),
    };
    // Only the chief corrects.
    let mut deputy = connect(s.addr, s.fingerprint, DEPUTY)
        .await
        .expect("deputy");
    let err = deputy
        .command(1, correct(1, 1, "申诉"))
        .await
        .expect_err("deputy refused");
    assert!(
        err.1
            .contains("only the chief corrects a result of an earlier round"),
        "{err:?}"
    );
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    for (cmd, why) in [
        (correct(1, 9, "申诉"), "round 1 had no game at table 9"),
        (correct(2, 4, "申诉"), "the hall plays round 2"),
        (correct(1, 4, " "), "the reason is required"),
    ] {
        let err = chief.command(1, cmd).await.expect_err("refused");
        assert!(err.1.contains(why), "{why}: {err:?}");
    }
    // Table 4 of round 1 was a draw; the appeal gives it to Red.
    chief
        .command(2, correct(1, 4, "申诉成立：黑方记录违例"))
        .await
        .expect("corrected");
    let view = chief.subscribe().await;
    assert_eq!(view.round, 2, "the hall stays in round 2");
    assert!(
        view.audit.iter().any(|e| e.what
            == "round 1 table 4: result corrected to RedWins because 申诉成立：黑方记录违例"
            && e.who.starts_with("chief")),
        "{:?}",
        view.audit
    );

    let check = |when: &str| {
        let results = export("1", "csv");
        assert_eq!(csv_field(&results, 1, "4", 8), "1-0", "{when}: {results}");
        assert!(
            csv_field(&results, 1, "4", 21).contains("申诉成立"),
            "{when}: {results}"
        );
        assert_eq!(
            csv_field(&results, 1, "1", 8),
            "1-0",
            "{when}: the others kept"
        );
        let after = export("1", "standings-csv");
        let points = |csv: &str, who: &str| csv_field(csv, 2, who, 4);
        assert_ne!(
            points(&before, "李来群"),
            points(&after, "李来群"),
            "{when}"
        );
        assert_eq!(
            points(&after, "李来群"),
            points(&after, "胡荣华"),
            "{when}: a win each"
        );
        assert_eq!(
            points(&after, "杨官璘"),
            points(&after, "许银川"),
            "{when}: a loss each"
        );
        // The TRF the next pairing reads: 李来群 (White) won round 1.
        let trf = export("1", "trf");
        let line = trf
            .lines()
            .find(|l| l.starts_with("001") && l.contains("李来群"))
            .unwrap_or_else(|| panic!("{trf}"));
        assert!(line.trim_end().ends_with("w 1"), "{when}: {line}");
    };
    check("after the correction");
    drop(chief);
    drop(deputy);
    s.shutdown().await.expect("clean stop");
    note();
    let s = h.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let view = chief.subscribe().await;
    assert_eq!(view.round, 2);
    check("after a restart");
    s.shutdown().await.expect("clean stop");
}

/// The board of `name` in `round`, and the other player.
fn board_of<'a>(round: &'a proto::RoundProposal, name: &str) -> (&'a proto::RoundBoard, String) {
    let b = round
        .boards
        .iter()
        .find(|b| b.red == name || b.black == name)
        .unwrap_or_else(|| panic!("{name} has no board: {round:?}"));
    let other = if b.red == name { &b.black } else { &b.red };
    (b, other.clone())
}

/// The chief pairs the next round (the proposal, nothing published).
async fn pair_next(chief: &mut support::Client) -> proto::RoundProposal {
    chief
        .send(proto::ClientMsg::Command {
            id: 50,
            command: Command::PairNextRound,
        })
        .await;
    *chief
        .until(|m| match m {
            ServerMsg::RoundProposal { proposal, .. } => Some(proposal.clone()),
            ServerMsg::Error(e) => panic!("pairing refused: {e:?}"),
            _ => None,
        })
        .await
}

/// Withdrawing a published round after a correction (issue 36): round 2
/// is published with 李来群 on half a point (a draw at table 4); the chief
/// corrects that result to a win (an appeal) and withdraws round 2 before
/// it started (a deputy is refused); the hall and a real table terminal go
/// back to round 1, every result in; a restart keeps the withdrawal; `N`
/// pairs round 2 again from the corrected record (李来群 now meets a
/// player on one point, same score); it is published and a restart plays
/// it; round 2 started cannot be withdrawn; the export has round 1 with
/// the corrected result and the data dir's round starts mark the
/// withdrawn round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_published_round_withdrawn_after_a_correction_is_paired_again_from_the_corrected_record()
{
    let dir = tempfile::tempdir().expect("tempdir");
    let h = hall();
    let data = dir.path().join("data");
    let note = || {
        server::export::stored::note_hall_start(&data, &h.toml(), &h.config(dir.path()))
            .expect("start noted")
    };
    note();
    let s = h.start(dir.path()).await;
    let folder = dir.path().join("outbox-1");
    let term = real_terminal(&s, 1, &folder).await;
    let wait = Duration::from_secs(10);
    use GameResult::*;
    close_round(&s, &[(1, RedWins), (2, BlackWins), (3, RedWins), (4, Draw)]).await;
    let first = publish_next(&s).await;
    let (b, _) = board_of(&first, "李来群");
    assert_eq!(
        b.why[0].id, "round-why-float",
        "李来群 (half a point) floats: {:?}",
        b.why
    );
    term.wait_for(wait, |s| s.round == 2 && s.online)
        .await
        .unwrap_or_else(|| panic!("terminal in round 2: {:?}", term.screen()));

    let withdraw = |reason: &str| Command::WithdrawRound {
        round: 2,
        reason: reason.into(),
    };
    let mut deputy = connect(s.addr, s.fingerprint, DEPUTY)
        .await
        .expect("deputy");
    let err = deputy
        .command(1, withdraw("重排"))
        .await
        .expect_err("deputy refused");
    assert!(
        err.1.contains("only the chief withdraws a published round"),
        "{err:?}"
    );
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    chief
        .command(
            2,
            Command::CorrectResult {
                round: 1,
                table: 4,
                result: RedWins,
                reason: "申诉成立：黑方记录违例".into(),
            },
        )
        .await
        .expect("corrected");
    let err = chief
        .command(3, withdraw(" "))
        .await
        .expect_err("no reason");
    assert!(err.1.contains("the reason is required"), "{err:?}");
    chief
        .command(4, withdraw("更正后重新编排"))
        .await
        .expect("withdrawn");
    drop(chief);
    let back_in_round_1 = |view: &proto::HallView, when: &str| {
        assert_eq!(view.round, 1, "{when}");
        for t in &view.tables {
            let i = usize::from(t.table) - 1;
            assert_eq!((t.red.as_str(), t.black.as_str()), ROUND1[i], "{when}");
            assert!(
                matches!(t.status, TableStatus::Finished { .. }),
                "{when}: {t:?}"
            );
        }
    };
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let view = chief.subscribe().await;
    back_in_round_1(&view, "after the withdrawal");
    assert!(
        view.audit.iter().any(|e| e.what
            == "withdraw round 2 (published, not started) because 更正后重新编排"
            && e.who.starts_with("chief")),
        "{:?}",
        view.audit
    );
    // The terminal follows the hall back to round 1 (its game finished),
    // the withdrawn round's outbox set aside.
    let screen = term
        .wait_for(wait, |s| s.round == 1 && s.online)
        .await
        .unwrap_or_else(|| panic!("terminal back in round 1: {:?}", term.screen()));
    assert!(
        matches!(screen.status, Status::Finished { .. }),
        "{screen:?}"
    );
    assert!(folder.join("round-2-withdrawn-1").exists());
    assert!(!folder.join("round-2").exists());
    drop(chief);
    drop(deputy);
    let (_, stats) = term.stop().await.expect("stop");
    assert!(stats.errors.is_empty(), "{:?}", stats.errors);

    // A restart keeps the withdrawal.
    s.shutdown().await.expect("clean stop");
    note();
    let s = h.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    back_in_round_1(&chief.subscribe().await, "after a restart");
    let rounds = std::fs::read_to_string(data.join("hall-rounds.json")).expect("round starts");
    assert!(rounds.contains("withdrawn_at"), "{rounds}");

    // Paired again from the corrected record: 李来群 won round 1.
    let again = pair_next(&mut chief).await;
    let (b, other) = board_of(&again, "李来群");
    assert_eq!(b.why[0].id, "round-why-same-score", "{:?}", b.why);
    assert!(
        ["胡荣华", "赵国荣", "徐天红"].contains(&other.as_str()),
        "李来群 meets a winner of round 1: {other}"
    );
    chief
        .command(
            51,
            Command::PublishRound {
                round: Box::new(again.clone()),
                changes: Vec::new(),
            },
        )
        .await
        .expect("published again");
    s.shutdown().await.expect("clean stop");
    note();
    let s = h.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let view = chief.subscribe().await;
    assert_eq!(view.round, 2, "the round published again");
    for t in &view.tables {
        let b = again
            .boards
            .iter()
            .find(|b| b.table == t.table)
            .expect("board");
        assert_eq!((&t.red, &t.black), (&b.red, &b.black));
    }
    // Once a game of it has a result, round 2 is not withdrawn.
    chief
        .command(
            52,
            Command::SetResult {
                table: 3,
                result: Draw,
                reason: "结果单".into(),
            },
        )
        .await
        .expect("result");
    let err = chief.command(53, withdraw("x")).await.expect_err("started");
    assert!(err.1.contains("the round has started"), "{err:?}");
    s.shutdown().await.expect("clean stop");

    // The export: round 1 with the corrected result; the withdrawn round
    // is no round of the data dir.
    let data_s = data.to_str().expect("path").to_string();
    let results = caipan(&[
        "export", "--data", &data_s, "--round", "1", "--format", "csv",
    ]);
    assert_eq!(csv_field(&results, 1, "4", 8), "1-0", "{results}");
    assert_eq!(csv_field(&results, 1, "1", 8), "1-0", "{results}");
    let starts = server::export::stored::rounds_started(&data).expect("starts");
    let numbers: Vec<u32> = starts.iter().map(|r| r.round).collect();
    assert_eq!(numbers, [1, 2], "{starts:?}");
}

/// A server restarted between the publication and the withdrawal still
/// has the round before at hand: the withdrawal puts round 1 back with
/// its results (the server rebuilds the round before from the record).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_published_before_a_restart_can_still_be_withdrawn() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = hall();
    let data = dir.path().join("data");
    let note = || {
        server::export::stored::note_hall_start(&data, &h.toml(), &h.config(dir.path()))
            .expect("start noted")
    };
    note();
    let s = h.start(dir.path()).await;
    use GameResult::*;
    close_round(&s, &[(1, RedWins), (2, BlackWins), (3, RedWins), (4, Draw)]).await;
    publish_next(&s).await;
    s.shutdown().await.expect("clean stop");
    note();
    let s = h.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    assert_eq!(chief.subscribe().await.round, 2);
    chief
        .command(
            60,
            Command::WithdrawRound {
                round: 2,
                reason: "编排有误".into(),
            },
        )
        .await
        .expect("withdrawn after a restart");
    drop(chief);
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let view = chief.subscribe().await;
    assert_eq!(view.round, 1);
    let results: Vec<Option<GameResult>> = view
        .tables
        .iter()
        .map(|t| match t.status {
            TableStatus::Finished { result, .. } => Some(result),
            _ => None,
        })
        .collect();
    assert_eq!(
        results,
        [Some(RedWins), Some(BlackWins), Some(RedWins), Some(Draw)]
    );
    s.shutdown().await.expect("clean stop");
}

/// The names a proposal pairs (boards and bye).
fn paired_names(p: &proto::RoundProposal) -> Vec<String> {
    let mut names: Vec<String> = p
        .boards
        .iter()
        .flat_map(|b| [b.red.clone(), b.black.clone()])
        .chain(p.bye.clone())
        .collect();
    names.sort();
    names
}

/// Late entries and withdrawals of players (issue 36): round 1 is played;
/// a deputy may neither enter nor withdraw a player; the chief enters
/// 王五 (CHN-42) late and withdraws 杨官璘 from round 2 (an unknown
/// player, a withdrawal from the round played, a second entry and a
/// second withdrawal are refused, each naming why); `N` pairs round 2 with
/// 王五 and without 杨官璘; the exported TRF lists 王五 with 0 points for
/// round 1 and 杨官璘 absent (`XXZ`); a restart keeps both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_entrant_is_paired_and_a_withdrawn_player_is_not_even_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let h = hall();
    let data = dir.path().join("data");
    let note = || {
        server::export::stored::note_hall_start(&data, &h.toml(), &h.config(dir.path()))
            .expect("start noted")
    };
    note();
    let s = h.start(dir.path()).await;
    use GameResult::*;
    close_round(&s, &[(1, RedWins), (2, BlackWins), (3, RedWins), (4, Draw)]).await;
    let entry = Command::EnterPlayer {
        name: "王五".into(),
        id: Some("CHN-42".into()),
        rating: Some(2150),
        federation: Some("CHN".into()),
        club: None,
    };
    let leave = |player: &str, from_round: u16, reason: &str| Command::WithdrawPlayer {
        player: player.into(),
        from_round,
        reason: reason.into(),
    };
    let mut deputy = connect(s.addr, s.fingerprint, DEPUTY)
        .await
        .expect("deputy");
    for (cmd, why) in [
        (entry.clone(), "only the chief enters a player late"),
        (
            leave("杨官璘", 2, "病"),
            "only the chief withdraws a player",
        ),
    ] {
        let err = deputy.command(1, cmd).await.expect_err("deputy refused");
        assert!(err.1.contains(why), "{why}: {err:?}");
    }
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    chief.command(2, entry.clone()).await.expect("entered");
    chief
        .command(3, leave("杨官璘", 2, "因病退赛"))
        .await
        .expect("withdrawn");
    for (cmd, why) in [
        (leave("无名氏", 2, "病"), "no player of the tournament"),
        (leave("胡荣华", 1, "病"), "not after the round being played"),
        (leave("杨官璘", 3, "又"), "withdrawn already, from round 2"),
        (
            entry.clone(),
            "CHN-42 is a player of the tournament already",
        ),
    ] {
        let err = chief.command(4, cmd).await.expect_err("refused");
        assert!(err.1.contains(why), "{why}: {err:?}");
    }
    let view = chief.subscribe().await;
    assert_eq!(view.round, 1, "the round played is untouched");
    for words in [
        "enter player 王五 (id CHN-42, rating 2150, CHN) late, from the next round",
        "withdraw player 杨官璘 from round 2 because 因病退赛",
    ] {
        assert!(
            view.audit
                .iter()
                .any(|e| e.what == words && e.who.starts_with("chief")),
            "{words}: {:?}",
            view.audit
        );
    }
    let data_s = data.to_str().expect("path").to_string();
    let check = |when: &str, p: &proto::RoundProposal| {
        let names = paired_names(p);
        assert_eq!(p.round, 2, "{when}");
        assert!(names.iter().any(|n| n == "王五"), "{when}: {names:?}");
        assert!(!names.iter().any(|n| n == "杨官璘"), "{when}: {names:?}");
        assert_eq!(names.len(), 8, "{when}: {names:?}");
        let (b, _) = board_of(p, "王五");
        let id = if b.red == "王五" {
            &b.red_id
        } else {
            &b.black_id
        };
        assert_eq!(id.as_deref(), Some("CHN-42"), "{when}: {b:?}");
        let trf = caipan(&[
            "export", "--data", &data_s, "--round", "1", "--format", "trf",
        ]);
        let line = |name: &str| {
            trf.lines()
                .find(|l| l.starts_with("001") && l.contains(name))
                .unwrap_or_else(|| panic!("{when}: {name}: {trf}"))
                .to_string()
        };
        let entrant = line("王五");
        assert!(entrant.contains("CHN-42"), "{when}: {entrant}");
        assert!(entrant.ends_with("0000 - Z"), "{when}: {entrant}");
        let withdrawn: String = line("杨官璘")[4..8].trim().to_string();
        assert!(
            trf.lines().any(|l| l == format!("XXZ {withdrawn}")),
            "{when}: {trf}"
        );
        assert!(
            trf.contains("062 9"),
            "{when}: nine players in the TRF: {trf}"
        );
    };
    let p = pair_next(&mut chief).await;
    check("paired", &p);
    drop(chief);
    drop(deputy);
    s.shutdown().await.expect("clean stop");
    note();
    let s = h.start(dir.path()).await;
    let mut chief = connect(s.addr, s.fingerprint, CHIEF).await.expect("chief");
    let again = pair_next(&mut chief).await;
    check("after a restart", &again);
    chief
        .command(5, leave("杨官璘", 3, "又"))
        .await
        .expect_err("still withdrawn after a restart");
    s.shutdown().await.expect("clean stop");
}
