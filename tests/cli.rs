//! The command-line conventions of the `caipan` binary (issue 13), run as a
//! user runs them: input files in the encodings real archives and
//! spreadsheets use.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `caipan ARGS` in no locale (its messages in English, whatever the
/// machine running the tests reads).
fn caipan(args: &[&str]) -> Output {
    caipan_in(args, None)
}

/// `caipan ARGS` with `LANG` set to `locale` (`LC_ALL` and `LC_MESSAGES`
/// unset), or with none of them.
fn caipan_in(args: &[&str], locale: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_caipan"));
    cmd.args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG");
    if let Some(l) = locale {
        cmd.env("LANG", l);
    }
    cmd.output().expect("run caipan")
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

/// `caipan check` says what is wrong in the user's language (`--lang`,
/// else the locale's): a bad `[tournament] language` named by its key,
/// its value and the four languages, and the summary line.
#[test]
fn check_names_a_problem_in_the_users_language() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(example_config()).unwrap();
    let path = dir.path().join("bad.toml");
    let bad = good.replacen("kind = \"swiss\"", "kind = \"swiss\"\nlanguage = \"fr\"", 1);
    std::fs::write(&path, bad).unwrap();
    let file = path_str(&path);
    let cases = [
        (
            vec!["--lang", "vi"],
            None,
            "tournament.language: `fr` không phải là ngôn ngữ: hãy dùng zh-Hans, zh-Hant, en hoặc vi (zh là zh-Hans)",
            "1 lỗi; máy chủ chưa được khởi động",
        ),
        (
            vec!["--lang", "zh-Hant"],
            None,
            "tournament.language: `fr` 不是可用的語言：請用 zh-Hans、zh-Hant、en 或 vi（zh 即 zh-Hans）",
            "發現 1 個問題；未啟動服務",
        ),
        // No --lang: the locale's language, as the console chooses.
        (
            vec![],
            Some("zh_TW.UTF-8"),
            "tournament.language: `fr` 不是可用的語言",
            "發現 1 個問題",
        ),
        (
            vec![],
            None,
            "tournament.language: `fr` is not a language: use zh-Hans, zh-Hant, en or vi (zh is zh-Hans)",
            ": 1 problem found; nothing was served",
        ),
    ];
    for (extra, locale, problem, summary) in cases {
        let mut args = vec!["check", "--config", file];
        args.extend(extra.iter().copied());
        let out = caipan_in(&args, locale);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("{file}: {problem}")),
            "{args:?} {locale:?}: {problem:?} not in {stderr}"
        );
        assert!(
            stderr.contains(summary),
            "{args:?}: {summary:?} not in {stderr}"
        );
    }
    // A good config's verdict line in Vietnamese.
    let out = caipan(&[
        "check",
        "--config",
        path_str(&example_config()),
        "--lang",
        "vi",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(": cấu hình hợp lệ"), "{stdout}");
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

/// `caipan serve` on the example config, its data dir in `dir`, on a
/// free loopback port.
fn serve_example(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_caipan"));
    cmd.args([
        "serve",
        "--config",
        path_str(&example_config()),
        "--data",
        path_str(&dir.join("data")),
        "--listen",
        "127.0.0.1:0",
    ]);
    cmd
}

#[test]
fn server_logs_carry_no_ansi_escapes_into_a_pipe() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let mut child = serve_example(dir.path())
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

/// `caipan serve` turns transparent huge pages off for itself (issue 40:
/// a huge page held for a few small allocations; `malloc.rs`) unless the
/// operator chose with `MIMALLOC_ALLOW_THP`: the kernel's own word for the
/// process, `THP_enabled` in /proc/PID/status, once it is listening.
#[cfg(target_os = "linux")]
#[test]
fn serve_runs_without_huge_pages_unless_the_operator_chose() {
    use std::io::{BufRead, BufReader};
    let thp_of_serve = |chosen: Option<&str>| {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = serve_example(dir.path());
        cmd.env_remove("MIMALLOC_ALLOW_THP")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        if let Some(v) = chosen {
            cmd.env("MIMALLOC_ALLOW_THP", v);
        }
        let mut child = cmd.spawn().expect("caipan serve starts");
        let stdout = child.stdout.take().unwrap();
        let first = BufReader::new(stdout).lines().next();
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()));
        let _ = child.kill();
        let _ = child.wait();
        let first = first.expect("a line").expect("utf-8");
        assert!(first.starts_with("listening on"), "{first}");
        let status = status.expect("the server's /proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("THP_enabled:"))
            .map(|v| v.trim().to_string())
            .expect("the kernel reports THP_enabled")
    };
    assert_eq!(thp_of_serve(None), "0", "huge pages off by default");
    assert_eq!(thp_of_serve(Some("1")), "1", "the operator's choice kept");
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

/// How one run ended when its stdout was closed after `lines` lines.
struct Closed {
    status: std::process::ExitStatus,
    first: Vec<String>,
    stderr: String,
}

/// Runs `caipan args` with stdin from /dev/null and stdout a pipe that is
/// closed after `lines` lines (`| head -N`); `stop` is sent SIGTERM after
/// that (a server), else the run must end by itself within two minutes.
fn with_stdout_closed_early(args: &[&str], lines: usize, stop: bool) -> Closed {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(args)
        .env_remove("CAIPAN_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run caipan");
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let mut first = Vec::new();
    {
        let mut out = BufReader::new(child.stdout.take().unwrap());
        for _ in 0..lines {
            let mut line = String::new();
            if out.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            first.push(line.trim_end().to_string());
        }
    } // stdout closed here
    if stop {
        std::thread::sleep(std::time::Duration::from_millis(300));
        // SAFETY: a signal to our own child, still unreaped.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGTERM);
        }
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("caipan {args:?} did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Closed {
        status,
        first,
        stderr: err.join().unwrap(),
    }
}

/// The exit codes of README's table, or SIGPIPE (a print-only subcommand
/// whose reader went away).
fn assert_published(args: &[&str], c: &Closed) {
    use std::os::unix::process::ExitStatusExt as _;
    let ok = match c.status.code() {
        Some(code) => [0, 1, 2, 3, 4, 130].contains(&code),
        None => c.status.signal() == Some(libc::SIGPIPE),
    };
    assert!(
        ok && !c.stderr.contains("panicked"),
        "caipan {args:?}: {:?}\n{}",
        c.status,
        c.stderr
    );
}

#[test]
fn every_subcommand_survives_a_closed_stdout_and_no_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let cfg = p(&example_config());
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/games");
    let pgn = p(&games.join("hu-ronghua-1391.pgn"));
    let data = p(&dir.path().join("data"));
    let mut seen = Vec::new();
    let mut run = |args: &[&str], lines: usize, stop: bool| -> Closed {
        seen.push(args[0].to_string());
        let c = with_stdout_closed_early(args, lines, stop);
        assert_published(args, &c);
        c
    };

    // The server: its banner read, stdout closed, then stopped by SIGTERM.
    let served = run(
        &[
            "serve",
            "--config",
            &cfg,
            "--data",
            &data,
            "--listen",
            "127.0.0.1:0",
        ],
        4,
        true,
    );
    assert_eq!(served.status.code(), Some(0), "{}", served.stderr);
    let addr = served.first[0]
        .trim_start_matches("listening on ")
        .to_string();
    let fp = served.first[1]
        .trim_start_matches("certificate sha256 fingerprint ")
        .to_string();
    assert!(
        served
            .first
            .iter()
            .any(|l| l.starts_with("store SQLite file")),
        "{:?}",
        served.first
    );

    // The screens: no terminal, exit 2 before connecting, with the reason.
    for args in [
        vec![
            "table",
            "--server",
            &addr,
            "--table",
            "1",
            "--token",
            "t0000000000000000",
            "--fingerprint",
            &fp,
        ],
        vec![
            "console",
            "--server",
            &addr,
            "--token",
            "t0000000000000000",
            "--fingerprint",
            &fp,
        ],
        vec!["demo", "--tables", "1"],
    ] {
        let c = run(&args, 1, false);
        assert_eq!(c.status.code(), Some(2), "{args:?}: {}", c.stderr);
        assert!(
            c.stderr.contains("not a terminal"),
            "{args:?}: {}",
            c.stderr
        );
    }

    // The others, each printing more than the one line read.
    let out = p(&dir.path().join("out"));
    let trf =
        p(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/golden/two-rounds.trf"));
    let csv =
        p(&Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data/encoding/pairings-utf8.csv"));
    for (args, lines) in [
        (vec!["perft", "--depth", "3", "--divide"], 1),
        (vec!["verify", &pgn], 0),
        (vec!["adjudicate", "--scan-pgn", &pgn], 1),
        (vec!["adjudicate"], 1),
        (
            vec!["export", "--data", &data, "--round", "1", "--format", "csv"],
            0,
        ),
        (vec!["backup", "--data", &data, "--out", &out], 0),
        (vec!["pairings", "import", &csv], 1),
        (
            vec![
                "pair", "--trf", &trf, "--round", "3", "--system", "xiangqi", "--seed", "1",
            ],
            1,
        ),
        (vec!["standings", "--trf", &trf], 1),
        (
            vec![
                "bench",
                "hall",
                "--tables",
                "2",
                "--duration",
                "1",
                "--no-baseline",
            ],
            1,
        ),
        (vec!["check", "--config", &cfg], 1),
        (vec!["completions", "bash"], 1),
        (vec!["man"], 1),
        (vec!["paths"], 1),
        (vec!["token", "--config", &cfg], 1),
        (
            vec![
                "demo",
                "--headless",
                "--tables",
                "1",
                "--speed",
                "20000",
                "--no-incidents",
            ],
            1,
        ),
    ] {
        run(&args, lines, false);
    }

    // Every subcommand of `caipan --help` was run.
    let help = String::from_utf8(caipan(&["--help"]).stdout).unwrap();
    let listed: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        // A subcommand's line is indented by two spaces; a wrapped
        // description continues deeper.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(listed.len() > 10, "{help}");
    for c in listed {
        assert!(seen.iter().any(|s| s == c), "subcommand {c} not run");
    }
}

#[test]
fn token_prints_or_writes_each_tables_token() {
    let cfg = example_config();
    let out = caipan(&["token", "--config", path_str(&cfg), "--tables", "1-3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (i, l) in lines.iter().enumerate() {
        let parts: Vec<&str> = l.split(' ').collect();
        assert_eq!(parts[..2], ["table", &(i + 1).to_string()[..]], "{l}");
        assert!(parts[2].len() >= 16, "{l}");
    }
    // To files, mode 0600.
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let out = caipan(&[
        "token",
        "--config",
        path_str(&cfg),
        "--tables",
        "2",
        "--out",
        path_str(dir.path()),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = dir.path().join("table-2.token");
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap().trim(),
        lines[1].split(' ').nth(2).unwrap()
    );
    // A table outside the round is named, with the tables there are.
    let out = caipan(&["token", "--config", path_str(&cfg), "--tables", "1-99"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no token for table") && err.contains("has tables 1-"),
        "{err}"
    );
}

/// Every `**`message`**` that README's Troubleshooting quotes is one the
/// program prints: each literal piece of it (between `...`, `…` and
/// placeholders such as `N`, `X`, `DIR`) is in the source of crates/, or
/// is the operating system's or a library's own words, listed here.
#[test]
fn readmes_quoted_error_messages_are_in_the_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme
        .split("\n## Troubleshooting")
        .nth(1)
        .expect("a Troubleshooting section")
        .split("\n## ")
        .next()
        .unwrap();
    let mut source = String::new();
    let mut dirs = vec![root.join("crates")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p.ends_with("target") {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                source.push_str(&std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    // Words that come from elsewhere: the OS (a port in use).
    let outside = ["Address already in use"];
    let mut quoted = 0;
    for part in section.split("**`").skip(1) {
        let Some(msg) = part.split("`").next() else {
            continue;
        };
        quoted += 1;
        let placeholder = |w: &str| {
            w.len() <= 4
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        };
        for piece in msg.split(['…']).flat_map(|p| p.split("...")) {
            let words: Vec<&str> = piece.split(' ').collect();
            for run in words.split(|w| placeholder(w.trim_matches(|c: char| !c.is_alphanumeric())))
            {
                let text = run.join(" ");
                let text = text
                    .trim()
                    .trim_matches(|c: char| "():,".contains(c))
                    .trim();
                if text.len() < 6 || outside.iter().any(|o| o.contains(text) || text.contains(o)) {
                    continue;
                }
                assert!(
                    source.contains(text),
                    "README quotes {msg:?}, but {text:?} is in no source file"
                );
            }
        }
    }
    assert!(quoted >= 5, "{quoted} quoted messages found");
}
