//! `caipan pair --system dutch` against gacrux 1.11.65, the reference
//! pairing and tie-break checker FIDE's endorsement process names (MIT, on
//! PyPI). gacrux's tournament generator pairs random tournaments with its
//! own Dutch engine (random results, zero- and half-point byes, forfeits,
//! players absent in early rounds); every round is then paired again by
//! `caipan pair` from a TRF of the rounds before it. Every round must be
//! legal and equal to gacrux's pairing (the pairs and the bye; board order
//! aside: a TRF has no board numbers). The tie-breaks BH, BH-C1, SB, PS,
//! WIN, BWG, BPG and ARO of `caipan standings` must equal those of
//! gacrux's tie-break checker on every generated tournament. The checker
//! itself is run on the generated files (it must say `Check: True`) and on
//! a copy with one round's colours swapped (it must say `Check: False`, so
//! a checker that always agrees would fail this test).
//!
//! gacrux is found through `CAIPAN_GACRUX_PYTHON` (a Python with gacrux
//! installed; .ci/run sets it) or `python3`; without it the test fails and
//! says how to install it. `CAIPAN_GACRUX_TOURNAMENTS` sets how many
//! tournaments are generated (default 200: 9 to 40 players, every
//! twentieth 60 to 200, 5 to 11 rounds; 300 s on the shared 2-core
//! machine under a load average of 12, most of it gacrux's generator, so
//! well under that on CI's own two cores; one Python process per worker
//! runs all of gacrux's calls, see [`DRIVER`]). `CAIPAN_GACRUX_SHOW=1`
//! prints each round that differs (the pairs only one side made) and
//! keeps its input TRF in the test's directory.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use pairing::{trf, ResultCode, Side};

/// A round's boards (white, black), sorted, and the bye.
type Printed = (Vec<(u32, u32)>, Option<u32>);

const INSTALL: &str = "gacrux 1.11.65 is needed: python3 -m venv /tmp/gacrux && \
/tmp/gacrux/bin/pip install gacrux==1.11.65, then run the test with \
CAIPAN_GACRUX_PYTHON=/tmp/gacrux/bin/python (.ci/run does this)";

fn python() -> String {
    let py = std::env::var("CAIPAN_GACRUX_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = Command::new(&py)
        .args(["-c", "import gacrux.pairingchecker, gacrux.version"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok, "{py} has no gacrux. {INSTALL}");
    py
}

fn work_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("test dir");
    dir
}

/// Runs the checker on a file and returns its `Check:` verdict.
fn check(py: &str, file: &Path) -> bool {
    check_with(py, file, &[])
}

/// The checker's verdict with more arguments (`-n R`: check up to round
/// R, a round paired but not yet played included).
fn check_with(py: &str, file: &Path, more: &[&str]) -> bool {
    let out = Command::new(py)
        .args([
            "-m",
            "gacrux.pairingchecker",
            "-c",
            "-m",
            "dutch",
            "-d",
            "T",
        ])
        .args(more)
        .arg("-i")
        .arg(file)
        .output()
        .expect("run gacrux.pairingchecker");
    let text = String::from_utf8_lossy(&out.stdout);
    let verdict = text
        .lines()
        .rev()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Check:")
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_else(|| {
            panic!(
                "no Check: line from the checker on {}:\n{text}\n{}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            )
        });
    match verdict.as_str() {
        "True" => true,
        "False" => false,
        v => panic!("Check: {v}?"),
    }
}

/// One Python process running gacrux's generator and tie-break checker
/// for many tournaments: a process per call spent most of the test's time
/// importing gacrux (about 0.2 s of CPU each, two calls per tournament).
/// A request is a tab-separated line; the answer is what gacrux printed,
/// then `@@END <status>` (`ok`, or the name of the exception raised).
const DRIVER: &str = r#"
import sys, io, contextlib
sys.set_int_max_str_digits(15000)
from gacrux.tournamentgenerator import tournamentgenerator
from gacrux.tiebreakchecker import tiebreakchecker
out = sys.stdout
for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    buf = io.StringIO()
    status = "ok"
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            if f[0] == "gen":
                sys.argv = ["tournamentgenerator", "-g", f[4], "1", "-m", "dutch",
                            "-p", f[2], "-N", f[3], "-S", "0.03", "0.03", "0.03", "-o", f[1]]
                t = tournamentgenerator()
                t.read_command_line()
                t.process_tournaments()
            elif f[0] == "tb":
                sys.argv = ["tiebreakchecker", "-s", "-d", "T", "-t", *f[2:], "-i", f[1]]
                tiebreakchecker().common_main()
    except BaseException as e:
        status = type(e).__name__
    out.write(buf.getvalue() + "\n@@END " + status + "\n")
    out.flush()
"#;

/// A running [`DRIVER`]. Its tie-break checker is told the tournaments
/// are Swiss (`-s`): without it gacrux takes a field of N players and N-1
/// or N rounds (9 players, 8 rounds) for a round robin and leaves
/// unplayed rounds out of BH and SB.
struct Gacrux {
    child: std::process::Child,
    out: std::io::BufReader<std::process::ChildStdout>,
}

impl Gacrux {
    fn start(py: &str) -> Gacrux {
        let mut child = Command::new(py)
            .args(["-c", DRIVER])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start the gacrux driver");
        let out = std::io::BufReader::new(child.stdout.take().expect("driver stdout"));
        Gacrux { child, out }
    }

    /// Sends one request; returns (status, what gacrux printed).
    fn ask(&mut self, fields: &[&str]) -> (String, String) {
        use std::io::{BufRead, Write};
        let stdin = self.child.stdin.as_mut().expect("driver stdin");
        writeln!(stdin, "{}", fields.join("\t")).expect("write to the gacrux driver");
        stdin.flush().expect("flush");
        let mut text = String::new();
        loop {
            let mut line = String::new();
            let n = self
                .out
                .read_line(&mut line)
                .expect("read the gacrux driver");
            assert!(n > 0, "the gacrux driver ended; it printed:\n{text}");
            if let Some(status) = line.trim_end().strip_prefix("@@END ") {
                return (status.to_string(), text);
            }
            text.push_str(&line);
        }
    }

    /// Generates tournament number `seed` (gacrux seeds its lots with
    /// it); false when gacrux finds no legal pairing for some round
    /// (small fields, many rounds).
    fn generate(&mut self, file: &Path, players: u32, rounds: u32, seed: u32) -> bool {
        let (status, text) = self.ask(&[
            "gen",
            &file.display().to_string(),
            &players.to_string(),
            &rounds.to_string(),
            &seed.to_string(),
        ]);
        if status == "GacruxNoLegalPairing" {
            return false;
        }
        assert!(
            status == "ok" && file.exists(),
            "generator failed ({status}): {text}"
        );
        true
    }
}

impl Drop for Gacrux {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// Generates a tournament with gacrux's generator in a process of its
/// own (the checker test; the big test uses [`Gacrux`]).
fn generate(py: &str, file: &Path, players: u32, rounds: u32) -> bool {
    Gacrux::start(py).generate(file, players, rounds, 0)
}

/// The round's pairs as `caipan pair --format pairs` prints them, read
/// from the generated file (board order is compared as a set: a TRF has
/// no board numbers).
fn expected(field: &pairing::Field, round: usize) -> Printed {
    let mut boards = Vec::new();
    let mut bye = None;
    for (i, h) in field.history.iter().enumerate() {
        let e = h[round];
        match (e.opponent, e.side) {
            (Some(o), Some(Side::Red)) => boards.push((i as u32 + 1, o)),
            (None, _) if e.result == ResultCode::PairingBye => bye = Some(i as u32 + 1),
            _ => {}
        }
    }
    boards.sort();
    (boards, bye)
}

/// A TRF of rounds 1..=round-1 of `field`, with the absences and byes the
/// file gives for `round` as XXZ / 240 lines.
fn input_for(field: &pairing::Field, top: Option<Side>, round: usize) -> String {
    let mut f = field.clone();
    for h in &mut f.history {
        h.truncate(round);
    }
    let mut text = trf::write(&f, None);
    match top {
        Some(Side::Red) => text.push_str("152 W\n"),
        Some(Side::Black) => text.push_str("152 B\n"),
        None => {}
    }
    let mut zero = Vec::new();
    for (i, h) in field.history.iter().enumerate() {
        let e = h[round];
        if e.opponent.is_none() {
            match e.result {
                ResultCode::HalfBye => {
                    text.push_str(&format!("240 H {:>3}  {:>4}\n", round + 1, i + 1))
                }
                ResultCode::FullBye => {
                    text.push_str(&format!("240 F {:>3}  {:>4}\n", round + 1, i + 1))
                }
                ResultCode::ZeroBye => zero.push((i + 1).to_string()),
                _ => {}
            }
        }
    }
    if !zero.is_empty() {
        text.push_str(&format!("XXZ {}\n", zero.join(" ")));
    }
    text
}

fn pair_with_caipan(input: &Path, round: usize) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args([
            "pair", "--system", "dutch", "--format", "pairs", "--seed", "1",
        ])
        .args(["--round", &(round + 1).to_string(), "--trf"])
        .arg(input)
        .output()
        .expect("run caipan pair");
    (
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
        out.status.success(),
    )
}

fn parse_pairs(text: &str) -> Option<Printed> {
    let mut lines = text.lines();
    let count: usize = lines.next()?.trim().parse().ok()?;
    let mut boards = Vec::new();
    let mut bye = None;
    for l in lines.take(count) {
        let (a, b) = l.split_once(' ')?;
        let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
        if b == 0 {
            bye = Some(a);
        } else {
            boards.push((a, b));
        }
    }
    boards.sort();
    Some((boards, bye))
}

#[test]
fn the_checker_says_false_on_a_file_with_one_rounds_colours_swapped() {
    let py = python();
    let dir = work_dir("gacrux_swap");
    let file = dir.join("t.trf");
    assert!(generate(&py, &file, 16, 5));
    assert!(check(&py, &file), "the generator's own file checks");
    let text = std::fs::read_to_string(&file).expect("read");
    // Round 3's colours swapped on every 001 line.
    let swapped = swap_colours(&text, 3);
    assert_ne!(swapped, text);
    let bad = dir.join("swapped.trf");
    std::fs::write(&bad, swapped).expect("write");
    assert!(!check(&py, &bad), "the checker must refuse swapped colours");
}

/// A TRF with round `round`'s colours swapped on every `001` line.
fn swap_colours(text: &str, round: usize) -> String {
    let at = 91 + 10 * (round - 1) + 5;
    text.lines()
        .map(|l| {
            let mut c: Vec<char> = l.chars().collect();
            if l.starts_with("001") && c.len() > at {
                c[at] = match c[at] {
                    'w' => 'b',
                    'b' => 'w',
                    x => x,
                };
            }
            c.into_iter().collect::<String>() + "\n"
        })
        .collect()
}

/// Checks that a printed pairing is a legal one for the field before
/// `round`: everyone present paired once, no rematch of a played game.
fn legal(field: &pairing::Field, round: usize, pairs: &Printed) -> Result<(), String> {
    let mut f = field.clone();
    for h in &mut f.history {
        h.truncate(round);
    }
    let mut seen = vec![0; f.entrants.len()];
    for &(w, b) in &pairs.0 {
        let (a, c) = (w as usize - 1, b as usize - 1);
        if f.played(a, c) {
            return Err(format!("{w}-{b} is a rematch"));
        }
        seen[a] += 1;
        seen[c] += 1;
    }
    if let Some(b) = pairs.1 {
        seen[b as usize - 1] += 1;
    }
    for (i, h) in field.history.iter().enumerate() {
        let absent = h[round].opponent.is_none() && h[round].result != ResultCode::PairingBye;
        let want = if absent { 0 } else { 1 };
        if seen[i] != want {
            return Err(format!("player {} paired {} times", i + 1, seen[i]));
        }
    }
    Ok(())
}

/// Tie-break values as printed by gacrux's checker or by
/// `caipan standings --format values`: start number -> values by code.
fn tie_break_table(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut lines = text.lines();
    let Some(head) = lines.next() else {
        return BTreeMap::new();
    };
    let heads: Vec<&str> = head.split('\t').collect();
    let mut out = BTreeMap::new();
    for l in lines.filter(|l| !l.starts_with("Check")) {
        let cells: Vec<&str> = l.split('\t').collect();
        for (h, c) in heads.iter().zip(&cells).skip(2) {
            // Numbers compare as numbers ("5.00" = "5.0").
            let v = c
                .parse::<f64>()
                .map_or(c.to_string(), |x| format!("{x:.2}"));
            out.entry(format!("{} {}", cells[0], h.replace('/', "-")))
                .or_insert_with(Vec::new)
                .push(v);
        }
    }
    out
}

/// The tie-breaks compared with gacrux's tie-break checker (DE aside: see
/// README "Pairing").
const CODES: [&str; 9] = ["PTS", "BH", "BH-C1", "SB", "PS", "WIN", "BWG", "BPG", "ARO"];

fn tie_breaks_agree(gacrux: &mut Gacrux, file: &Path) -> Result<(), String> {
    let ours = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args([
            "standings",
            "--format",
            "values",
            "--tiebreaks",
            &CODES[1..].join(","),
        ])
        .arg("--trf")
        .arg(file)
        .output()
        .expect("run caipan standings");
    let codes: Vec<String> = CODES.iter().map(|c| c.replace("-C1", "/C1")).collect();
    let mut ask = vec!["tb".to_string(), file.display().to_string()];
    ask.extend(codes);
    let ask: Vec<&str> = ask.iter().map(|s| s.as_str()).collect();
    let (status, theirs) = gacrux.ask(&ask);
    if status != "ok" {
        return Err(format!(
            "gacrux's tie-break checker failed ({status}): {theirs}"
        ));
    }
    let (a, b) = (
        tie_break_table(&String::from_utf8_lossy(&ours.stdout)),
        tie_break_table(&theirs),
    );
    if a.is_empty() || a != b {
        let diff: Vec<String> = b
            .iter()
            .filter(|(k, v)| a.get(*k) != Some(v))
            .take(5)
            .map(|(k, v)| format!("{k}: gacrux {v:?}, caipan {:?}", a.get(k)))
            .collect();
        return Err(format!(
            "tie-breaks differ: {diff:?} {}",
            String::from_utf8_lossy(&ours.stderr)
        ));
    }
    Ok(())
}

/// gacrux's generator seeds its lots with the tournament's number, so
/// tournaments of one size and length differ (its `-g 1` would generate
/// number 0 every time).
const SEED_BASE: u32 = 0;

/// The result of one tournament: (round 1 equal, later rounds, later
/// rounds equal, failures).
type Outcome = (usize, usize, usize, Vec<String>);

fn one_tournament(
    gacrux: &mut Gacrux,
    dir: &Path,
    t: u32,
    mut players: u32,
    rounds: u32,
) -> Outcome {
    let mut file = dir.join(format!("t{t:03}-{players}p-{rounds}r.trf"));
    while !gacrux.generate(&file, players, rounds, SEED_BASE + t) {
        players += 2;
        file = dir.join(format!("t{t:03}-{players}p-{rounds}r.trf"));
    }
    let text = std::fs::read_to_string(&file).expect("read generated");
    let parsed = trf::parse(&text, None).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let (field, top) = (parsed.field, parsed.top_colour);
    let (mut firsts, mut later, mut later_same) = (0, 0, 0);
    let mut failures = Vec::new();
    if let Err(e) = tie_breaks_agree(gacrux, &file) {
        failures.push(format!("{}: {e}", file.display()));
    }
    for r in 0..field.rounds_held() as usize {
        let input = dir.join(format!("t{t:03}-r{}.trf", r + 1));
        std::fs::write(&input, input_for(&field, top, r)).expect("write input");
        let (out, ok) = pair_with_caipan(&input, r);
        let want = expected(&field, r);
        let Some(got) = parse_pairs(&out).filter(|_| ok) else {
            failures.push(format!(
                "{} round {}: no pairing:\n{out}",
                file.display(),
                r + 1
            ));
            continue;
        };
        if let Err(e) = legal(&field, r, &got) {
            failures.push(format!("{} round {}: {e}:\n{out}", file.display(), r + 1));
            continue;
        }
        if r == 0 {
            firsts += usize::from(got == want);
        } else {
            later += 1;
            later_same += usize::from(got == want);
        }
        if got != want {
            let only = |a: &Printed, b: &Printed| -> Vec<(u32, u32)> {
                a.0.iter().filter(|p| !b.0.contains(p)).copied().collect()
            };
            let what = format!(
                "{} round {}: caipan {:?} bye {:?}, gacrux {:?} bye {:?}",
                file.display(),
                r + 1,
                only(&got, &want),
                got.1,
                only(&want, &got),
                want.1
            );
            if std::env::var_os("CAIPAN_GACRUX_SHOW").is_some() {
                eprintln!("{what}");
            }
            failures.push(what);
        }
        if got == want || std::env::var_os("CAIPAN_GACRUX_SHOW").is_none() {
            let _ = std::fs::remove_file(&input);
        }
    }
    (firsts, later, later_same, failures)
}

#[test]
fn caipan_pairs_every_round_of_gacrux_tournaments_as_gacrux_does() {
    let py = python();
    let dir = work_dir("gacrux_dutch");
    let count: u32 = std::env::var("CAIPAN_GACRUX_TOURNAMENTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut lots = pairing::lots::Lots::new(34);
    let plan: Vec<(u32, u32, u32)> = (0..count)
        .map(|t| {
            // Mostly small fields, every twentieth up to 200 players
            // (gacrux's generator takes seconds for those).
            let players = if t % 20 == 19 {
                60 + lots.below(141) as u32
            } else {
                9 + lots.below(32) as u32
            };
            (t, players, 5 + lots.below(7) as u32)
        })
        .collect();
    // Two workers: gacrux is one Python process per call.
    let results: Vec<Outcome> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                let (py, dir, plan) = (&py, &dir, &plan);
                s.spawn(move || {
                    let mut gacrux = Gacrux::start(py);
                    plan.iter()
                        .skip(w)
                        .step_by(2)
                        .map(|&(t, p, r)| one_tournament(&mut gacrux, dir, t, p, r))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    let firsts: usize = results.iter().map(|r| r.0).sum();
    let later: usize = results.iter().map(|r| r.1).sum();
    let later_same: usize = results.iter().map(|r| r.2).sum();
    let failures: Vec<&String> = results.iter().flat_map(|r| &r.3).collect();
    eprintln!(
        "gacrux: {count} tournaments, tie-breaks {}; round 1 equal in {firsts}; later rounds equal in {later_same} of {later} ({:.1}%)",
        CODES.join(" "),
        100.0 * later_same as f64 / later.max(1) as f64
    );
    assert!(
        failures.is_empty(),
        "{} checks fail; the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Runs `caipan pair --system dutch --seed 1` with `args`: (exit code,
/// stdout, stderr).
fn caipan_pair(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["pair", "--system", "dutch", "--seed", "1"])
        .args(args)
        .output()
        .expect("run caipan pair");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A TRF-16 `001` line: start number, points, then (opponent, colour,
/// result) per round.
fn player_line(number: u32, points: &str, rounds: &[(u32, char, char)]) -> String {
    let mut l = format!(
        "001 {number:>4}      {:<33} {:>4} {:3} {:>11} {:10} {points:>4} {number:>4}",
        format!("Player {number}"),
        2000,
        "",
        "",
        ""
    );
    for &(o, c, r) in rounds {
        l.push_str(&format!("  {o:>4} {c} {r}"));
    }
    l + "\n"
}

#[test]
fn caipan_pair_prints_pairs_on_gacrux_files_and_exits_as_specified() {
    let py = python();
    let dir = work_dir("gacrux_pair_cli");
    let file = dir.join("t.trf");
    // 15 players, 5 rounds: a PAB in round 6 unless byes make it even.
    assert!(Gacrux::start(&py).generate(&file, 15, 5, 3));
    let text = std::fs::read_to_string(&file).expect("read generated");
    let field = trf::parse(&text, None).expect("parse generated").field;
    let f = file.display().to_string();

    // Round 6 from gacrux's own file: exit 0 and nothing on stdout but
    // the count line (the bye counted) and `WHITE BLACK` lines.
    let (code, out, err) = caipan_pair(&["--format", "pairs", "--round", "6", "--trf", &f]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let count: usize = lines[0].parse().expect("a count line");
    assert_eq!(lines.len(), count + 1, "{out}");
    let present = (0..field.entrants.len())
        .filter(|&i| field.present(i))
        .count();
    assert_eq!(count, present.div_ceil(2), "{out}");
    let mut seen = std::collections::BTreeSet::new();
    let mut byes = 0;
    for l in &lines[1..] {
        let (w, b) = l.split_once(' ').expect("WHITE BLACK");
        let (w, b): (u32, u32) = (w.parse().expect("white"), b.parse().expect("black"));
        assert!(seen.insert(w), "{w} twice: {out}");
        if b == 0 {
            byes += 1;
        } else {
            assert!(seen.insert(b), "{b} twice: {out}");
            assert!(
                !field.played(w as usize - 1, b as usize - 1),
                "{w}-{b} is a rematch"
            );
        }
    }
    assert_eq!(byes, present % 2, "{out}");
    if byes == 1 {
        assert!(lines.last().is_some_and(|l| l.ends_with(" 0")), "{out}");
    }

    // A file holding the round asked for, or too few rounds: exit 2,
    // naming the line or the rounds held; nothing on stdout.
    for (round, says) in [
        ("5", "already holds round 5"),
        ("7", "holds rounds 1..5"),
        ("0", "rounds start at 1"),
    ] {
        let (code, out, err) = caipan_pair(&["--round", round, "--trf", &f]);
        assert_eq!(code, Some(2), "round {round}: {err}");
        assert!(out.is_empty() && err.contains(says), "round {round}: {err}");
    }
    let (code, _, err) = caipan_pair(&["--round", "5", "--trf", &f]);
    assert!(code == Some(2) && err.contains("line "), "{err}");
    // A missing file, a malformed line, an unknown system: exit 2.
    let (code, _, err) = caipan_pair(&["--round", "6", "--trf", "/nonexistent/t.trf"]);
    assert_eq!(code, Some(2), "{err}");
    let bad = dir.join("bad.trf");
    std::fs::write(&bad, format!("{text}001 xyz\n")).expect("write");
    let (code, out, err) = caipan_pair(&["--round", "6", "--trf", &bad.display().to_string()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty() && err.contains("line"), "{err}");
    let other = Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(["pair", "--system", "monrad", "--round", "6", "--trf", &f])
        .output()
        .expect("run caipan pair");
    assert_eq!(other.status.code(), Some(2));

    // Four players who have all met: round 4 has no pairing, exit 1 with
    // a message naming the round, nothing on stdout.
    let met = dir.join("met.trf");
    let mut t = String::from("012 all met\n");
    t += &player_line(1, "3.0", &[(2, 'w', '1'), (3, 'b', '1'), (4, 'w', '1')]);
    t += &player_line(2, "2.0", &[(1, 'b', '0'), (4, 'w', '1'), (3, 'b', '1')]);
    t += &player_line(3, "1.0", &[(4, 'w', '1'), (1, 'w', '0'), (2, 'w', '0')]);
    t += &player_line(4, "0.0", &[(3, 'b', '0'), (2, 'b', '0'), (1, 'b', '0')]);
    std::fs::write(&met, t).expect("write");
    let (code, out, err) = caipan_pair(&["--round", "4", "--trf", &met.display().to_string()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty() && err.contains("round 4"), "{out}{err}");
}

/// `caipan pair --format trf` writes a TRF gacrux reads (the `162` line's
/// columns, opponents right-aligned, a paired round's blank result kept):
/// round 6 paired from gacrux's own file, and round 3 from a file of
/// rounds 1..2 that caipan wrote, both pass gacrux's pairing checker with
/// every earlier round.
#[test]
fn caipan_pair_format_trf_passes_gacruxs_checker() {
    let py = python();
    let dir = work_dir("gacrux_pair_trf");
    let file = dir.join("t.trf");
    assert!(Gacrux::start(&py).generate(&file, 15, 5, 7));
    let text = std::fs::read_to_string(&file).expect("read generated");
    let parsed = trf::parse(&text, None).expect("parse generated");
    let short = dir.join("two-rounds.trf");
    std::fs::write(&short, input_for(&parsed.field, parsed.top_colour, 2)).expect("write");
    for (input, round) in [(&file, "6"), (&short, "3")] {
        let f = input.display().to_string();
        let (code, out, err) = caipan_pair(&["--format", "trf", "--round", round, "--trf", &f]);
        assert_eq!(code, Some(0), "{err}");
        let paired = dir.join(format!("paired-{round}.trf"));
        std::fs::write(&paired, &out).expect("write");
        assert!(
            out.lines().any(|l| l.starts_with("162  W 1.0    D 0.5")),
            "{out}"
        );
        // `-n`: gacrux checks up to the last round with a result unless
        // told, and the round just paired has none yet.
        assert!(
            check_with(&py, &paired, &["-n", round]),
            "round {round}: Check: False on\n{out}"
        );
        // The same file with the new round's colours swapped fails, so
        // the check above did look at the new round.
        let swapped = swap_colours(&out, round.parse().expect("round"));
        let bad = dir.join(format!("swapped-{round}.trf"));
        std::fs::write(&bad, swapped).expect("write");
        assert!(!check_with(&py, &bad, &["-n", round]), "round {round}");
    }
}
