//! The command-line conventions of the `caipan` binary (issue 13), run as a
//! user runs them: input files in the encodings real archives and
//! spreadsheets use.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn caipan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(args)
        .output()
        .expect("run caipan")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/encoding")
        .join(name)
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn a_gbk_pairings_csv_imports_equal_to_its_utf8_twin() {
    let import = |name: &str| {
        let out = caipan(&["pairings", "import", path_str(&fixture(name))]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
        String::from_utf8(out.stdout).expect("TOML on stdout is UTF-8")
    };
    let utf8 = import("pairings-utf8.csv");
    let gbk = import("pairings-gbk.csv");
    assert_eq!(gbk, utf8);
    assert!(utf8.contains("胡荣华") && utf8.contains("赵鑫鑫"), "{utf8}");
    assert!(utf8.contains("许银川"), "{utf8}");
    // The same with a UTF-8 byte-order mark.
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("bom.csv");
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    bytes.extend(std::fs::read(fixture("pairings-utf8.csv")).unwrap());
    std::fs::write(&bom, bytes).unwrap();
    let out = caipan(&["pairings", "import", path_str(&bom)]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), utf8);
}

/// `caipan table` with everything but the trust anchor: the token must be
/// found first (else the error is about the token, not the trust).
fn table_without_trust(extra: &[&str], env: Option<&str>) -> (Option<i32>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_caipan"));
    cmd.args(["table", "--server", "127.0.0.1:9", "--table", "1"])
        .args(extra)
        .env_remove("CAIPAN_TOKEN");
    let dir = tempfile::tempdir().unwrap();
    cmd.args(["--outbox", path_str(dir.path())]);
    if let Some(v) = env {
        cmd.env("CAIPAN_TOKEN", v);
    }
    let out = cmd.output().expect("run caipan");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_token_comes_from_the_environment_or_a_file() {
    // No source at all: the error says where a token may come from.
    let (code, err) = table_without_trust(&[], None);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--token-file") && err.contains("CAIPAN_TOKEN"),
        "{err}"
    );
    // From the environment: past the token, on to the trust anchor.
    let (code, err) = table_without_trust(&[], Some("table-one-token-0001"));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--fingerprint") && !err.contains("token"),
        "{err}"
    );
    let (_, err) = table_without_trust(&[], Some("  "));
    assert!(err.contains("CAIPAN_TOKEN is set but empty"), "{err}");
    // From a file.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("table1.token");
    std::fs::write(&file, "table-one-token-0001\n").unwrap();
    let (code, err) = table_without_trust(&["--token-file", path_str(&file)], None);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--fingerprint") && !err.contains("token"),
        "{err}"
    );
    let empty = dir.path().join("empty.token");
    std::fs::write(&empty, "\n").unwrap();
    let (_, err) = table_without_trust(&["--token-file", path_str(&empty)], None);
    assert!(
        err.contains("is empty") && err.contains("empty.token"),
        "{err}"
    );
    let missing = dir.path().join("missing.token");
    let (_, err) = table_without_trust(&["--token-file", path_str(&missing)], None);
    assert!(err.contains("cannot read token file"), "{err}");
    // Both flags: a usage error.
    let (code, err) = table_without_trust(
        &["--token", "x", "--token-file", path_str(&file)],
        Some("y"),
    );
    assert_eq!(code, Some(2), "{err}");
    // The console reads the same sources.
    let out = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["console", "--server", "127.0.0.1:9", "--token-file"])
        .arg(&empty)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is empty"), "{err}");
}

#[test]
fn exit_codes_follow_the_published_table() {
    // 2: usage (clap).
    assert_eq!(caipan(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(caipan(&["verify"]).status.code(), Some(2));
    // 1: a runtime error reaching main.
    let out = caipan(&[
        "export",
        "--data",
        "/nonexistent/caipan",
        "--round",
        "1",
        "--format",
        "csv",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // verify's own: 4 unreadable, 3 illegal move, 0 all legal.
    assert_eq!(
        caipan(&["verify", "/nonexistent/caipan/none.pgn"])
            .status
            .code(),
        Some(4)
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n\n1. h2e2 hello\n").unwrap();
    assert_eq!(caipan(&["verify", path_str(&bad)]).status.code(), Some(3));
    let good = dir.path().join("good.pgn");
    std::fs::write(&good, "[Event \"x\"]\n\n1. h2e2 h9g7\n").unwrap();
    assert_eq!(caipan(&["verify", path_str(&good)]).status.code(), Some(0));
}

fn example_config() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/hall.toml")
}

#[test]
fn check_prints_what_a_good_config_would_serve() {
    let cfg = example_config();
    let out = caipan(&["check", "--config", path_str(&cfg)]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "rule set    axf",
        "listen",
        "data dir",
        "table   1",
        "chief",
        "deputy",
        "the config is valid",
    ] {
        assert!(stdout.contains(want), "{want:?} missing:\n{stdout}");
    }
    let text = std::fs::read_to_string(&cfg).unwrap();
    for line in text
        .lines()
        .filter(|l| l.trim_start().starts_with("token = "))
    {
        let token = line.split('"').nth(1).unwrap();
        assert!(!stdout.contains(token), "a token is printed: {token}");
    }
}

#[test]
fn check_names_the_problems_of_bad_configs() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(example_config()).unwrap();
    let cases = [
        ("kind = \"swiss\"", "kind = \"knockout\"", "tournament.kind"),
        (
            "date = \"2026-11-29\"",
            "date = \"2026-02-31\"",
            "`2026-02-31` is not a date",
        ),
        (
            "[tournament]\n",
            "[tournament]\nutc_offset = \"+08:00\"\n",
            "time_zone",
        ),
    ];
    for (i, (from, to, want)) in cases.iter().enumerate() {
        assert!(good.contains(from), "the example has {from:?}");
        let path = dir.path().join(format!("bad{i}.toml"));
        std::fs::write(&path, good.replacen(from, to, 1)).unwrap();
        let out = caipan(&["check", "--config", path_str(&path)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "case {i}: {stderr}");
        assert!(stderr.contains(want), "case {i}: {want:?} not in {stderr}");
        assert!(out.stdout.is_empty(), "case {i}: nothing described");
    }
}

#[test]
fn completions_and_man_page_cover_the_subcommands() {
    let out = caipan(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0));
    let bash = String::from_utf8_lossy(&out.stdout);
    for sub in ["export", "verify", "check", "standings-csv"] {
        assert!(bash.contains(sub), "bash completion lacks {sub}");
    }
    let out = caipan(&["completions", "tcsh"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
    let out = caipan(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let man = String::from_utf8_lossy(&out.stdout);
    assert!(
        man.starts_with(".ie") || man.contains(".TH caipan"),
        "{}",
        &man[..man.len().min(200)]
    );
    let dir = tempfile::tempdir().unwrap();
    let out = caipan(&["man", "--out", path_str(dir.path())]);
    assert_eq!(out.status.code(), Some(0));
    assert!(dir.path().join("caipan-export.1").exists());
}

#[test]
fn server_logs_carry_no_ansi_escapes_into_a_pipe() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args([
            "serve",
            "--config",
            path_str(&example_config()),
            "--data",
            path_str(&dir.path().join("data")),
            "--listen",
            "127.0.0.1:0",
        ])
        .env_remove("NO_COLOR")
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("caipan serve starts");
    let stderr = child.stderr.take().unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(stderr).lines().take(50) {
        let line = line.unwrap();
        let done = line.contains("INFO");
        lines.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        lines.iter().any(|l| l.contains("INFO")),
        "a log line was read: {lines:?}"
    );
    for l in &lines {
        assert!(!l.contains('\u{1b}'), "an ANSI escape in {l:?}");
    }
}

#[test]
fn paths_follow_the_xdg_directories_and_refuse_a_bad_hall_id() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let state = dir.path().join("state");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_caipan"))
            .args(args)
            .env("XDG_DATA_HOME", &data)
            .env("XDG_STATE_HOME", &state)
            .output()
            .unwrap()
    };
    let out = run(&["paths", "--hall", "0123456789abcdef", "--table", "7"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let want_outbox = data.join("caipan/outbox/0123456789abcdef/table-7");
    let want_log = state.join("caipan/table-7.log");
    assert!(text.contains(&want_outbox.display().to_string()), "{text}");
    assert!(text.contains(&want_log.display().to_string()), "{text}");
    let out = run(&["paths", "--hall", "../../etc", "--table", "7"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hall id"));
}

#[test]
fn a_console_config_of_several_halls_names_its_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("halls.toml");
    std::fs::write(
        &file,
        "[[hall]]\nname = \"东厅\"\nservers = [\"10.0.0.1\"]\nfingerprint = \"00\"\ntoken_file = \"t\"\n",
    )
    .unwrap();
    let out = caipan(&["console", "--halls", path_str(&file)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("halls.toml: hall[0].servers[0]: \"10.0.0.1\" is not host:port"),
        "{err}"
    );
    // --halls replaces the one hall's flags.
    let out = caipan(&["console", "--halls", path_str(&file), "--server", "h:1"]);
    assert_eq!(out.status.code(), Some(2));
    // The example in config/ is well formed up to its (absent) token files.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/console-halls.toml");
    let out = caipan(&["console", "--halls", path_str(&example)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("hall[0].token_file: "), "{err}");
}

#[test]
fn table_replay_takes_every_address_of_the_hall() {
    // Two --server (an active server and its standby) are accepted: the
    // error is about the missing config, not the arguments.
    let out = caipan(&[
        "table",
        "replay",
        "--server",
        "127.0.0.1:9",
        "--server",
        "127.0.0.1:10",
        "--config",
        "/nonexistent/caipan/hall.toml",
        "--pgn",
        "/nonexistent/caipan/games.pgn",
        "--fingerprint",
        "00",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("/nonexistent/caipan/hall.toml"), "{err}");
}
