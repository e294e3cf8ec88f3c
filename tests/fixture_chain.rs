//! The fixture chain (旧格式样本链): every stored format caipan has
//! released stays readable. `tests/fixtures/<version>/` holds a data dir
//! (`sqlite/`) and a PostgreSQL dump (`postgres.sql`) written by that
//! version, with the exports of their round 1 beside them
//! (`export-sqlite/`, `export-postgres/`); this test opens each with
//! today's build and checks that `caipan export` writes the same bytes in
//! every format. A change of a stored format adds the next fixture
//! (tests/fixtures/README.md says how); none is ever rewritten.
//!
//! The PostgreSQL half restores the dump into a fresh database of the
//! test cluster (`CAIPAN_TEST_PG_URL`, or a cluster the test starts):
//! without PostgreSQL it is skipped loudly, and fails when `CI` is set.

use std::path::{Path, PathBuf};
use std::process::Command;

use store::postgres::cluster::{find_bin, test_database};

/// The single-file formats, by `caipan export --format` name.
const FORMATS: [&str; 6] = [
    "csv",
    "json",
    "trf",
    "html",
    "standings-csv",
    "standings-json",
];

/// The fixtures of the released stored formats, oldest first (v4 to v13;
/// tests/fixtures/README.md lists each one's commit, protocol, snapshot
/// format and store schemas). A folder missing, or one on disk and not
/// listed here, fails the test: the chain only grows.
const RELEASED: [&str; 10] = [
    "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13",
];

/// The fixture folders, oldest first.
fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut dirs: Vec<(u32, PathBuf)> = std::fs::read_dir(&root)
        .expect("tests/fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .map(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            let n = name
                .strip_prefix('v')
                .and_then(|n| n.parse::<u32>().ok())
                .unwrap_or_else(|| panic!("{}: fixture folders are v<N>", p.display()));
            (n, p)
        })
        .collect();
    dirs.sort();
    let names: Vec<String> = dirs.iter().map(|(n, _)| format!("v{n}")).collect();
    assert_eq!(names, RELEASED, "the fixtures under {}", root.display());
    dirs.into_iter().map(|(_, p)| p).collect()
}

/// `caipan export` with `source` args for round 1 in `format`: stdout,
/// or the files written under `out` for pgn.
fn export(source: &[&str], format: &str, out: Option<&Path>) -> Vec<u8> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_caipan"));
    cmd.arg("export")
        .args(source)
        .args(["--round", "1", "--format", format]);
    if format == "trf" {
        // The PostgreSQL fixture keeps an unfinished game on purpose.
        cmd.arg("--allow-unfinished");
    }
    if let Some(out) = out {
        cmd.arg("--out").arg(out);
    }
    let o = cmd.output().expect("caipan export runs");
    assert!(
        o.status.success(),
        "caipan export {source:?} --format {format}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

/// Exports round 1 in every format and compares with `expected/`.
fn exports_identically(fixture: &Path, source: &[&str], expected: &Path) {
    for format in FORMATS {
        let want = std::fs::read(expected.join(format!("round1.{format}")))
            .unwrap_or_else(|e| panic!("{}: {e}", expected.display()));
        let got = export(source, format, None);
        assert!(
            got == want,
            "{}: the {format} export differs from {}:\n--- got\n{}",
            fixture.display(),
            expected.display(),
            String::from_utf8_lossy(&got)
        );
    }
    let out = tempfile::tempdir().unwrap();
    export(source, "pgn", Some(&out.path().join("pgn")));
    let want_dir = expected.join("pgn");
    let mut want: Vec<String> = std::fs::read_dir(&want_dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    want.sort();
    let mut got: Vec<String> = std::fs::read_dir(out.path().join("pgn"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    got.sort();
    assert_eq!(got, want, "{}: PGN files", fixture.display());
    for name in want {
        let a = std::fs::read_to_string(want_dir.join(&name)).unwrap();
        let b = std::fs::read_to_string(out.path().join("pgn").join(&name)).unwrap();
        assert!(
            a == b,
            "{}: {name} differs:\n--- got\n{b}",
            fixture.display()
        );
    }
}

#[test]
fn every_fixture_data_dir_opens_and_exports_identically() {
    for fixture in fixtures() {
        // A copy: opening a store may write its WAL files beside it.
        let dir = tempfile::tempdir().unwrap();
        for e in std::fs::read_dir(fixture.join("sqlite")).unwrap().flatten() {
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
        let data = dir.path().to_string_lossy().into_owned();
        exports_identically(&fixture, &["--data", &data], &fixture.join("export-sqlite"));
        // A server opening it migrates the store (schema 1 -> 2: the
        // published rounds indexed from the audit trail); the same rounds
        // are found, and it still exports identically.
        let file = dir.path().join(store::DB_FILE);
        let before = store::StoreReader::open(&file)
            .and_then(|r| r.published_rounds())
            .expect("published rounds before");
        open_with_a_server(dir.path());
        let after = store::StoreReader::open(&file)
            .and_then(|r| r.published_rounds())
            .expect("published rounds after");
        assert_eq!(after, before, "{}: published rounds", fixture.display());
        exports_identically(&fixture, &["--data", &data], &fixture.join("export-sqlite"));
    }
}

/// Starts and stops a server on the data dir `data` (its hall from the
/// config copy there), as `caipan serve` would.
fn open_with_a_server(data: &Path) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let mut config = export::stored::load_hall(data, None).expect("config copy");
        config.server.listen = "127.0.0.1:0".parse().expect("address");
        let srv = server::Server::start(config, data)
            .await
            .expect("a server opens the fixture");
        srv.shutdown().await.expect("clean stop");
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fixture_postgres_dump_restores_and_exports_identically() {
    for fixture in fixtures() {
        let dump = fixture.join("postgres.sql");
        let Some(db) = test_database("fixture_chain").await else {
            return;
        };
        let bin = find_bin().expect("PostgreSQL binaries beside the cluster");
        let o = Command::new(bin.join("psql"))
            .args(["-q", "-v", "ON_ERROR_STOP=1", "-d"])
            .arg(db.url())
            .arg("-f")
            .arg(&dump)
            .output()
            .expect("psql runs");
        assert!(
            o.status.success(),
            "{}: psql: {}",
            dump.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        let url = db.url().to_string();
        let fixture2 = fixture.clone();
        tokio::task::spawn_blocking(move || {
            exports_identically(
                &fixture2,
                &["--store", &url, "--tournament", "fixture-tournament"],
                &fixture2.join("export-postgres"),
            )
        })
        .await
        .unwrap();
        migrate_and_export_again(&fixture, db.url()).await;
    }
}

/// Opens every hall of the restored dump with this build's store (the
/// schema migrated to this build's, as a starting server does) and checks
/// that the tournament still exports byte for byte as it did.
async fn migrate_and_export_again(fixture: &Path, url: &str) {
    let tournament = "fixture-tournament";
    let db = store::PgDatabase::connect(url, None).await.unwrap();
    let halls = db.tournament_halls(tournament).await.unwrap();
    assert!(!halls.is_empty(), "{}: no hall", fixture.display());
    for hall in halls {
        let opts = store::PgOptions {
            tournament: Some(tournament.into()),
            ..store::PgOptions::new(hall)
        };
        let opened = store::PgStore::open(url, opts).await.unwrap();
        opened.close_store().await;
    }
    let db = store::PgDatabase::connect(url, None).await.unwrap();
    assert_eq!(db.schema_version(), store::postgres::PG_SCHEMA_VERSION);
    let (fixture, url) = (fixture.to_path_buf(), url.to_string());
    tokio::task::spawn_blocking(move || {
        exports_identically(
            &fixture,
            &["--store", &url, "--tournament", tournament],
            &fixture.join("export-postgres"),
        )
    })
    .await
    .unwrap();
}
