//! Every problem the config validator can produce is a catalogue message
//! (`config-*`, crates/i18n/locales/cli) rendered in all four languages,
//! and the zh-Hans, zh-Hant and vi renderings hold no English prose: a
//! corpus of broken configs produces every `config-*` id of the
//! catalogue (the few no config can reach are listed with the reason),
//! and each problem's rendering is checked word by word against its
//! English one (ASCII words are allowed only as codes, keys and values).

use std::collections::BTreeSet;
use std::path::Path;

use config::{derive_table_token, ConfigError, ConfigProblem, HallConfig};
use i18n::Lang;
use proto::{Arg, Message};

mod common;
use common::BASE;

/// The `config-*` ids no config can produce, with why.
const UNREACHABLE: &[(&str, &str)] = &[
    // Every kind the rulebook reads has its defaults built in.
    (
        "config-clock-internal-default",
        "a bug's message, never a user's",
    ),
    // block_minutes = 0 is "must be more than 0" first; block_moves = 0
    // means no blocks.
    (
        "config-clock-empty-block",
        "a block is checked before it is built",
    ),
    // The parser and serde always give the place of what they found.
    ("config-toml", "the toml crate gives every error a span"),
];

/// `BASE` with `from` replaced by `to` (which must be in it).
fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from}");
    BASE.replacen(from, to, 1)
}

/// `BASE` with a section added before `[server]`.
fn section(text: &str) -> String {
    with("[server]", &format!("{text}\n\n[server]"))
}

/// `BASE` with `[time_control]` holding `text`.
fn clock(text: &str) -> String {
    section(&format!("[time_control]\n{text}"))
}

/// `BASE` with `[tournament]` holding one more line.
fn tournament(line: &str) -> String {
    with(
        "kind = \"round_robin\"",
        &format!("kind = \"round_robin\"\n{line}"),
    )
}

/// `BASE` with `[store]` holding `text`.
fn store(text: &str) -> String {
    format!("{BASE}\n[store]\n{text}\n")
}

/// `BASE` with round 1's table 1 holding one more line.
fn table_one(line: &str) -> String {
    with("red = \"胡荣华\"", &format!("red = \"胡荣华\"\n{line}"))
}

/// Every broken config of the corpus, with the files the cases read.
fn corpus(dir: &Path) -> Vec<String> {
    let secret_token = derive_table_token(&config::Token::new("test-hall-secret-0001"), 1)
        .expose()
        .to_string();
    let huge = i64::MAX;
    let players = "[[tournament.player]]\nid = \"P1\"\nname = \"胡荣华\"\n\n\
                   [[tournament.player]]\nid = \"P1\"\nname = \"\"\nrating = 5000\n\n\
                   [[tournament.player]]\nid = \"\"\nname = \"许银川\"";
    let mut cases = vec![
        // [tournament]
        tournament("language = \"fr\""),
        with("rules = \"axf\"", "rules = \"xyz\""),
        with("name = \"测试赛\"", "name = \" \""),
        with("date = \"2026-01-02\"", "date = \"2026-13-01\""),
        tournament("time_zone = \"Mars/Olympus\""),
        tournament("federation = \"cn\""),
        tournament("rounds_planned = 0"),
        tournament("current_round = 9"),
        tournament("start_order = \"age\""),
        with("kind = \"round_robin\"", "kind = \"round_robin\"\npairing = \"dutch\""),
        tournament("tiebreaks = [\"BH\", \"BH\", \"XX\"]"),
        tournament("tiebreaks = []"),
        tournament("utc_offset = \"+08:00\""),
        section(players),
        tournament(
            "[tournament.team_match]\nboards = 2\nmatch_points_win = 1\nmatch_points_draw = 2",
        ),
        // [server], [alerts], [broadcast]
        with(
            "listen = \"127.0.0.1:4433\"",
            "listen = \"nowhere\"\ndata_dir = \"\"\nconnections_per_token = 0",
        ),
        section(&format!("[alerts]\noffline_grace_seconds = {huge}")),
        section("[broadcast]\ndelay_s = 5"),
        section("[broadcast]\nlisten = \"0.0.0.0:8080\"\ndelay_s = 5000"),
        // [arbitration], [natural_limit]
        section("[arbitration]\nno_show_minutes = 5\nno_show_seconds = 30"),
        section(&format!("[arbitration]\nadjourn_late_minutes = {huge}")),
        section("[arbitration]\ncycles_after_order = 2"),
        section("[natural_limit]\nrequired_plies = 2000"),
        section("[natural_limit]\nrequired_plies = 10\ncheck_cap = 20"),
        // [time_control]
        clock("kind = \"fischer\"\nbase_minutes = 0"),
        clock("kind = \"traditional\"\nperiods = []"),
        clock("kind = \"traditional\"\nperiods = [[40, 90], [30, 60]]"),
        clock("kind = \"traditional\"\nblock_minutes = 0"),
        clock("base_minutes = 5\nbase_seconds = 30"),
        clock(&format!("base_minutes = {huge}")),
        clock("kind = \"sudden_death\"\nbase_minutes = 5\nincrement_seconds = 5"),
        clock("kind = \"sudden_death\""),
        clock("kind = \"traditional\"\nbase_minutes = 5"),
        clock("kind = \"hourglass\""),
        clock("kind = \"fischer\"\nperiods = [[40, 90]]"),
        clock(&format!("kind = \"traditional\"\nperiods = [[{huge}, 90]]")),
        clock(&format!("kind = \"traditional\"\nperiods = [[40, {huge}]]")),
        // [[round]]
        BASE[..BASE.find("[[round]]").unwrap()].to_string(),
        with("number = 1", "number = 0"),
        format!("{}\n[[round]]\nnumber = 1\n[[round.table]]\ntable = 9\nred = \"甲\"\nblack = \"乙\"\n", tournament("rounds_planned = 1")),
        format!("{BASE}\n[[round]]\nnumber = 2\ndate = \"2026-02-31\"\nstart = \"25:00\"\n"),
        format!(
            "{}\n[[round]]\nnumber = 2\n[[round.table]]\ntable = 1\nred = \"胡荣华\"\nblack = \"吕钦\"\nblack_id = \"P1\"\n",
            table_one("red_id = \"P1\"")
        ),
        table_one("red_id = \"\""),
        table_one("red_id = \"ABCDEFGHIJKLMNOP\""),
        table_one("red_id = \"A B\""),
        with("table = 1", "table = 70000"),
        with("table = 2", "table = 1"),
        with("red = \"吕钦\"", "red = \"胡荣华\""),
        with("black = \"许银川\"", "black = \"胡荣华\""),
        with("red = \"李来群\"", "red = \"\""),
        // [credentials]
        with("token = \"chief-token-0123456789\"", ""),
        with(
            "token = \"chief-token-0123456789\"",
            "token = \"chief-token-0123456789\"\ntoken_env = \"CHIEF\"",
        ),
        with("token = \"chief-token-0123456789\"", "token_env = \"NOPE\""),
        with("token = \"chief-token-0123456789\"", "token = \"\""),
        with("token = \"chief-token-0123456789\"", "token = \"short\""),
        with("token = \"chief-token-0123456789\"", "token = \"chief token 0123456789\""),
        with("token = \"chief-token-0123456789\"", "token_file = \"missing-token.txt\""),
        with("token = \"chief-token-0123456789\"", "token_file = \"a-folder\""),
        with("token = \"viewer-token-0123456789\"", "token = \"chief-token-0123456789\""),
        with("name = \"显示屏\"", "name = \"\""),
        with("name = \"显示屏\"", "name = \"王志明\""),
        with("tables = [1, 2]", "tables = []"),
        with("tables = [1, 2]", "tables = [1, 1, 9]"),
        with("tables = [1, 2]", "tables = \"a-4\""),
        with("tables = [1, 2]", "tables = \"1,,2\""),
        with("tables = [1, 2]", "tables = \"4-1\""),
        with("tables = [1, 2]", "tables = \"1-4, 3\""),
        with("tables = [1, 2]", "tables = \"30-40\""),
        with("tables = [1, 2]", "tables = \"1-70000\""),
        with(
            "[credentials]\n",
            "[credentials]\ndeputies_cover_all_tables = true\n",
        )
        .replacen("tables = [3, 4]", "tables = [3]", 1),
        format!(
            "{BASE}\n[[credentials.table]]\ntable = 1\ntoken = \"table-one-token-0001\"\n\n\
             [[credentials.table]]\ntable = 1\ntoken = \"table-one-token-0002\"\n\n\
             [[credentials.table]]\ntable = 8\ntoken = \"table-eight-token-01\"\n"
        ),
        with(
            "token = \"chief-token-0123456789\"",
            &format!("token = \"{secret_token}\""),
        ),
        with("table_secret = \"test-hall-secret-0001\"", ""),
        // [store]
        store("hall = \"a\""),
        store("url = \"postgres://db/caipan\"\nurl_env = \"DB\""),
        store("url = \"postgres://db/caipan\"\nhall = \" \""),
        store(&format!("url = \"postgres://db/caipan\"\nhall = \"{}\"", "h".repeat(300))),
        store("url = \"\""),
        store("url = \"mysql://db/caipan\""),
        store("url_env = \"NOPE\"\nca_file = \"\""),
        store("url_file = \"missing-url.txt\""),
        // TOML itself.
        format!("{BASE}\n[[round\n"),
        with("number = 1", "number = \"one\""),
    ];
    std::fs::create_dir_all(dir.join("a-folder")).unwrap();
    cases.push(String::new());
    cases
}

/// Every problem of `text` read from `dir` (a config file there).
fn problems_of(text: &str, dir: &Path) -> Vec<ConfigProblem> {
    let path = dir.join("hall.toml");
    std::fs::write(&path, text).unwrap();
    match HallConfig::load(&path) {
        Ok(_) if text.is_empty() => panic!("an empty config is not valid"),
        Ok(_) => panic!("config was accepted but should not be:\n{text}"),
        Err(e) => e.problems(),
    }
}

/// Every message id in `m` and the messages nested in it.
fn ids(m: &Message, out: &mut BTreeSet<String>) {
    out.insert(m.id.clone());
    for (_, a) in &m.args {
        if let Arg::Message(inner) = a {
            ids(inner, out);
        }
    }
}

/// The verbatim values of `m` and the messages nested in it.
fn values(m: &Message, out: &mut Vec<String>) {
    for (_, a) in &m.args {
        match a {
            Arg::Verbatim(v) => out.push(v.clone()),
            Arg::Message(inner) => values(inner, out),
            _ => {}
        }
    }
}

/// ASCII words that are codes, names or keys in every language.
const CODES: &[&str] = &[
    "TOML",
    "URL",
    "IANA",
    "TRF",
    "PostgreSQL",
    "SQLite",
    "HH",
    "MM",
    "YYYY",
    "DD",
    "AXF",
    "G3",
    "CHN",
    "zh",
    "Hans",
    "Hant",
    "en",
    "vi",
    "axf",
    "roc",
    "cxa",
    "rating",
    "listed",
    "kind",
    "xiangqi",
    "dutch",
    "round",
    "robin",
    "fischer",
    "sudden_death",
    "rapid",
    "blitz",
    "traditional",
    "periods",
    "block_",
    "token",
    "token_file",
    "token_env",
    "url",
    "url_env",
    "url_file",
    "byte",
    "user",
    "host",
    "port",
    "database",
    "postgres",
    "Asia",
    "Shanghai",
    "Europe",
    "Paris",
    "broadcast",
    "store",
    "credentials",
    "table",
    "table_secret",
];

/// The words of `text` outside its argument values and its quoted or
/// bracketed parts: what a reader reads as prose.
fn prose_words(text: &str, values: &[String]) -> Vec<String> {
    let mut t = text.to_string();
    for v in values {
        if !v.is_empty() {
            t = t.replace(v.as_str(), " ");
        }
    }
    let mut out = String::new();
    let mut quote: Option<char> = None;
    for c in t.chars() {
        match (quote, c) {
            (None, '`' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, c) => out.push(c),
        }
    }
    out.split(|c: char| !(c.is_ascii_alphanumeric() || "_.[]:=/*-".contains(c)))
        .filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_alphabetic()) && !CODES.contains(w))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_config_problem_is_typed_and_worded_in_all_four_languages() {
    let dir = tempfile::tempdir().unwrap();
    let mut produced = BTreeSet::new();
    let mut all = Vec::new();
    for text in corpus(dir.path()) {
        let problems = problems_of(&text, dir.path());
        assert!(!problems.is_empty(), "{text}");
        all.extend(problems);
    }
    // The I/O words a config file can meet (permission denied cannot be
    // made as root, so it comes from the error kind itself).
    let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    let read = ConfigError::Read {
        path: dir.path().join("hall.toml"),
        source: denied,
    };
    all.extend(read.problems());
    let missing = HallConfig::load(&dir.path().join("nope.toml")).unwrap_err();
    all.extend(missing.problems());
    for p in &all {
        ids(&p.message, &mut produced);
    }

    // Every config-* id of the catalogue is produced (or unreachable).
    let catalogue: BTreeSet<String> = i18n::catalogue::cli_source(Lang::En)
        .lines()
        .filter(|l| l.starts_with("config-"))
        .filter_map(|l| l.split_once(" = ").map(|(id, _)| id.trim().to_string()))
        .collect();
    let unreachable: BTreeSet<String> = UNREACHABLE.iter().map(|(id, _)| id.to_string()).collect();
    let missed: Vec<&String> = catalogue
        .iter()
        .filter(|id| !produced.contains(*id) && !unreachable.contains(*id))
        .collect();
    assert!(missed.is_empty(), "no case produces {missed:#?}");
    let stray: Vec<&String> = produced
        .iter()
        .filter(|id| !catalogue.contains(*id))
        .collect();
    assert!(stray.is_empty(), "ids not in the catalogue: {stray:#?}");
    for id in &unreachable {
        assert!(catalogue.contains(id), "{id} is not in the catalogue");
    }

    // Each problem in each language: no id shown raw, no English prose.
    let catalogue_all = i18n::Catalogue::get();
    for p in &all {
        let mut vals = Vec::new();
        values(&p.message, &mut vals);
        let english = p.text(Lang::En);
        assert_eq!(english, p.problem, "the English is the message's");
        let english_words: BTreeSet<String> = prose_words(&english, &vals)
            .into_iter()
            .map(|w| w.to_lowercase())
            .collect();
        for lang in [Lang::ZhHans, Lang::ZhHant, Lang::Vi] {
            let text = p.text(lang);
            let mut seen = BTreeSet::new();
            ids(&p.message, &mut seen);
            for id in &seen {
                assert!(catalogue_all.has(lang, id), "{lang}: no {id}");
            }
            assert_ne!(text, english, "{lang}: {} is English", p.key);
            for w in prose_words(&text, &vals) {
                let english_word = english_words.contains(&w.to_lowercase());
                let chinese = lang != Lang::Vi;
                assert!(
                    !english_word && !chinese,
                    "{lang}: English word {w:?} in {}: {text}",
                    p.key
                );
            }
        }
    }
}

#[test]
fn a_toml_error_names_its_line_column_and_key() {
    let text = BASE.replacen("number = 1", "number = \"one\"", 1);
    let Err(ConfigError::Syntax(p)) =
        HallConfig::from_toml_str(&text, Path::new("/hall"), &|_| None)
    else {
        panic!("a string for a number is a syntax problem");
    };
    assert_eq!(p.key, "round[0].number");
    let line = text.lines().position(|l| l.contains("\"one\"")).unwrap() + 1;
    assert_eq!(p.message.id, "config-toml-at");
    let vi = p.line(Lang::Vi);
    assert!(
        vi.starts_with(&format!(
            "round[0].number: lỗi TOML ở dòng {line}, cột 10: "
        )),
        "{vi}"
    );
    let hant = p.line(Lang::ZhHant);
    assert!(hant.contains(&format!("第 {line} 行第 10 欄")), "{hant}");
    // The parser's own words are kept as they are, in every language.
    let Some(Arg::Verbatim(detail)) = p.message.get("detail") else {
        panic!("the detail is an argument");
    };
    assert!(vi.ends_with(detail.as_str()) && hant.ends_with(detail.as_str()));
}

#[test]
fn a_config_that_cannot_be_read_says_why_in_typed_words() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.toml");
    let e = HallConfig::load(&missing).unwrap_err();
    let shown = missing.display().to_string();
    assert_eq!(
        e.text(Lang::En),
        format!("cannot read config {shown}: no such file or folder")
    );
    assert_eq!(
        e.text(Lang::ZhHans),
        format!("无法读取配置文件 {shown}：文件或文件夹不存在")
    );
    assert_eq!(
        e.text(Lang::Vi),
        format!("không đọc được tệp cấu hình {shown}: không có tệp hoặc thư mục này")
    );
    // A folder is no file: the OS's own words travel as the detail.
    let e = HallConfig::load(dir.path()).unwrap_err();
    let hant = e.text(Lang::ZhHant);
    assert!(hant.contains("系統錯誤："), "{hant}");
}
