//! Writes a PostgreSQL fixture of the fixture chain (旧格式样本链, see
//! tests/fixtures/README.md): a short round played through a real server
//! whose hall record is in PostgreSQL, dumped with `pg_dump` into
//! `$CAIPAN_WRITE_FIXTURE/postgres.sql`. It is `#[ignore]`d: it is run by
//! hand, once per stored-format change, on a checkout of the version whose
//! format the fixture keeps (the v4 fixture was written by commit 65c1679),
//! with PostgreSQL reachable (`. scripts/ci_postgres.sh`):
//!
//! ```text
//! CAIPAN_WRITE_FIXTURE=/tmp/out cargo test -p caipan --test fixture_writer -- --ignored
//! ```
//!
//! The round: table 1 plays, Red claims the natural move limit falsely and
//! the chief accepts the recommendation (a technical foul and 5:00 off),
//! then Black resigns; table 2 has a foul recorded by the chief, a clock
//! adjustment and a draw by agreement; table 3's result is set by the
//! chief; table 4 plays three moves and is unfinished.

use std::path::PathBuf;

use proto::{ClaimKind, Command, Decision, FoulKind, GameResult, Side, TableEvent};
use store::postgres::cluster::{find_bin, test_database};

mod support;
use support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes a fixture; run by hand (see the file's doc comment)"]
async fn write_postgres_fixture() {
    let out = PathBuf::from(
        std::env::var_os("CAIPAN_WRITE_FIXTURE").expect("CAIPAN_WRITE_FIXTURE names a folder"),
    );
    std::fs::create_dir_all(&out).unwrap();
    let db = test_database("fixture_writer")
        .await
        .expect("PostgreSQL reachable (CAIPAN_TEST_PG_URL)");
    let dir = tempfile::tempdir().unwrap();
    let h = hall("127.0.0.1:0").on_postgres(db.url(), "hall-a", "fixture-tournament");
    let s = h.start(dir.path()).await;
    let mut chief = chief(&s).await;

    // Table 1: a false natural-limit claim, accepted; then Black resigns.
    let mut t1 = Terminal::open(s.addr, s.fingerprint, 1).await;
    t1.play(&["h2e2", "h9g7", "h0g2", "i9h9"], Side::Red).await;
    t1.event(TableEvent::ClaimNaturalLimit { by: Side::Red })
        .await;
    let claim = chief
        .claim_where(|c| c.table == 1 && c.kind == ClaimKind::NaturalLimit)
        .await;
    chief
        .command(
            1,
            Command::RuleOnClaim {
                table: 1,
                claim_id: claim.id,
                decision: Decision::Accept,
            },
        )
        .await
        .expect("ruling accepted");
    t1.play(&["b2e2"], Side::Red).await;
    t1.event(TableEvent::Resign {
        by: Side::Black,
        reason: "认输".into(),
    })
    .await;

    // Table 2: a foul, a clock adjustment, a draw by agreement.
    let mut t2 = Terminal::open(s.addr, s.fingerprint, 2).await;
    t2.play(&["c3c4", "c6c5"], Side::Red).await;
    chief
        .command(
            2,
            Command::RecordFoul {
                table: 2,
                side: Side::Black,
                kind: FoulKind::Technical,
                note: "手机响".into(),
            },
        )
        .await
        .expect("foul recorded");
    chief
        .command(
            3,
            Command::AdjustClock {
                table: 2,
                red_ms: 3_900_000,
                black_ms: 3_800_000,
                reason: "clock set back after a dispute".into(),
            },
        )
        .await
        .expect("clock adjusted");
    t2.play(&["b0c2"], Side::Red).await;
    t2.event(TableEvent::DrawOffer { by: Side::Black }).await;
    t2.event(TableEvent::DrawAccept { by: Side::Red }).await;

    // Table 3: the chief sets the result.
    let mut t3 = Terminal::open(s.addr, s.fingerprint, 3).await;
    t3.play(&["b2e2", "b9c7"], Side::Red).await;
    chief
        .command(
            4,
            Command::SetResult {
                table: 3,
                result: GameResult::BlackWins,
                reason: "Red absent after the break".into(),
            },
        )
        .await
        .expect("result set");

    // Table 4: unfinished.
    let mut t4 = Terminal::open(s.addr, s.fingerprint, 4).await;
    t4.play(&["g3g4", "g6g5", "h2g2"], Side::Red).await;

    drop((t1, t2, t3, t4, chief));
    s.shutdown().await.unwrap();

    let bin = find_bin().expect("PostgreSQL binaries");
    let dump = std::process::Command::new(bin.join("pg_dump"))
        .args([
            "--no-owner",
            "--no-privileges",
            "--format=plain",
            "--dbname",
        ])
        .arg(db.url())
        .output()
        .expect("pg_dump runs");
    assert!(
        dump.status.success(),
        "{}",
        String::from_utf8_lossy(&dump.stderr)
    );
    std::fs::write(out.join("postgres.sql"), &dump.stdout).unwrap();
}
