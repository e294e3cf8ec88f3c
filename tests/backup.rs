//! Safe copies of a hall's data (issue 19): `caipan backup` while a
//! 50-table replay runs gives a copy that opens, holds exactly the live
//! store's rows up to its cut, and exports the same results as the live
//! data dir at that moment; `caipan serve` accepts the copy; after SIGTERM
//! `hall.db` alone (without `-wal`/`-shm`) holds every acknowledged event.

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use proto::Side;

mod support;
use support::*;

fn caipan(args: &[&str]) -> std::process::Output {
    Process::new(env!("CARGO_BIN_EXE_caipan"))
        .args(args)
        .env("RUST_LOG", "error")
        .output()
        .expect("run caipan")
}

fn signal(pid: u32, sig: i32) {
    let pid = i32::try_from(pid).expect("pid");
    // SAFETY: kill(2) on a child we spawned, with a valid signal number.
    unsafe {
        libc::kill(pid, sig);
    }
}

/// Every event (gseq, table, epoch, seq, payload) of the store in `dir`,
/// read the way the offline tools read it (read-only, with its WAL when
/// one is there), whatever rows the store keeps them in.
fn events(dir: &Path) -> Vec<(i64, i64, i64, i64, Vec<u8>)> {
    let reader = store::StoreReader::open(&dir.join("hall.db")).expect("store opens");
    let int = |v: u64| i64::try_from(v).expect("fits");
    reader
        .all_events()
        .expect("events read")
        .into_iter()
        .map(|e| {
            (
                int(e.gseq),
                i64::from(e.key.table),
                i64::from(e.key.epoch),
                int(e.key.seq),
                e.payload,
            )
        })
        .collect()
}

fn export_results(data: &Path) -> String {
    let d = data.to_str().expect("utf-8 path");
    let out = caipan(&["export", "--data", d, "--round", "1", "--format", "json"]);
    assert!(
        out.status.success(),
        "export of {d}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn backup(data: &Path, out: &Path) {
    let r = caipan(&[
        "backup",
        "--data",
        data.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(
        r.status.success(),
        "backup: {}",
        String::from_utf8_lossy(&r.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backup_under_a_50_table_replay_and_hall_db_alone_after_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let names: Vec<(String, String)> = (1..=50)
        .map(|i| (format!("红方{i}"), format!("黑方{i}")))
        .collect();
    let pairs: Vec<(&str, &str)> = names
        .iter()
        .map(|(r, b)| (r.as_str(), b.as_str()))
        .collect();
    let h = Hall::new("备份测试赛", "127.0.0.1:0").with_tables(&pairs);
    let cfg = dir.path().join("hall.toml");
    std::fs::write(&cfg, h.toml()).unwrap();
    let (mut server, addr, fp) = spawn_serve(&cfg, &data).await;

    // Tables 2-50 replay real games; table 1 is ours, its acks counted.
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/games/hu-ronghua-1391.pgn");
    let mut replay = Process::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["table", "replay", "--server", &addr.to_string(), "--config"])
        .arg(&cfg)
        .arg("--pgn")
        .arg(&pgn)
        .args([
            "--tables",
            "2-50",
            "--speed",
            "300",
            "--fingerprint",
            &fp.to_string(),
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("replay starts");
    let mut t1 = Terminal::open(addr, fp, 1).await;
    t1.play(&["h2e2", "h9g7"], Side::Red).await;
    let start = Instant::now();
    while events(&data).len() < 300 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the replay runs"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // A backup while the replay writes.
    let running = dir.path().join("backup-running");
    backup(&data, &running);
    // At one moment: the server frozen, a backup and an export of the live dir.
    signal(server.id(), libc::SIGSTOP);
    let frozen = dir.path().join("backup-frozen");
    backup(&data, &frozen);
    let live_results = export_results(&data);
    signal(server.id(), libc::SIGCONT);
    assert_eq!(
        export_results(&frozen),
        live_results,
        "the copy exports what the live data dir did at that moment"
    );
    let copied = events(&running);
    assert!(copied.len() >= 300, "{} events in the copy", copied.len());

    // More acknowledged events, then a clean stop under load.
    t1.play(&["h0g2", "i9h9", "i0h0", "b9c7"], Side::Red).await;
    let acked_t1 = t1.seq;
    signal(server.id(), libc::SIGTERM);
    assert!(server.wait().expect("server exits").success());
    let _ = replay.kill();
    let _ = replay.wait();

    // hall.db alone holds every event.
    let alone = dir.path().join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    std::fs::copy(data.join("hall.db"), alone.join("hall.db")).unwrap();
    let wal = std::fs::metadata(data.join("hall.db-wal"))
        .map(|m| m.len())
        .unwrap_or(0);
    assert_eq!(wal, 0, "the WAL is checkpointed and truncated");
    let all = events(&alone);
    let t1_events = all.iter().filter(|e| e.1 == 1).count() as u64;
    assert_eq!(t1_events, acked_t1, "every acknowledged event of table 1");
    // The running copy is exactly the final store up to its cut.
    let cut = copied.last().map(|e| e.0).unwrap_or(0);
    let prefix: Vec<_> = all.iter().filter(|e| e.0 <= cut).cloned().collect();
    assert_eq!(prefix, copied, "the copy is the store at one commit");
    eprintln!(
        "backup: {} events in the running copy, {} at the stop; hall.db alone {} bytes",
        copied.len(),
        all.len(),
        std::fs::metadata(alone.join("hall.db"))
            .map(|m| m.len())
            .unwrap_or(0)
    );

    // `caipan export` and `caipan serve` accept the copy.
    export_results(&running);
    let (copy_server, _, copy_fp) = spawn_serve(&cfg, &running).await;
    assert_eq!(copy_fp, fp, "the copy keeps the hall's certificate");
    signal(copy_server.id(), libc::SIGTERM);
    let mut copy_server = copy_server;
    assert!(copy_server.wait().expect("exits").success());
}

#[test]
fn backup_refuses_a_data_dir_without_a_store_and_names_pg_dump() {
    let dir = tempfile::tempdir().unwrap();
    let out = caipan(&[
        "backup",
        "--data",
        dir.path().to_str().unwrap(),
        "--out",
        dir.path().join("copy").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("pg_dump"), "{err}");
}
