//! A generated hall for the resilience benches: `n` tables with pairings
//! and a token each, a chief, two deputies (each half of the tables; from
//! two tables), Fischer 80 min + 30 s, AXF rules.

use std::path::{Path, PathBuf};

/// The chief's token.
pub const CHIEF_TOKEN: &str = "bench-chief-token-0123456789abcdef";

/// The viewer's token (the hall's public display; `bench hall
/// --stalled-viewers` signs in with it).
pub const VIEWER_TOKEN: &str = "bench-viewer-token-0123456789abcdef";

/// Deputy `d`'s token (`d` 1 or 2; the hall has two deputies when it has
/// two tables or more, each covering half of them).
pub fn deputy_token(d: u8) -> String {
    format!("bench-deputy-{d}-token-0123456789abcdef")
}

/// The deputies' tokens of a hall of `tables` tables.
pub fn deputy_tokens(tables: u16) -> Vec<String> {
    if tables >= 2 {
        vec![deputy_token(1), deputy_token(2)]
    } else {
        Vec::new()
    }
}

/// Table `t`'s token.
pub fn table_token(t: u16) -> String {
    format!("bench-table-{t}-token-0123456789abcdef")
}

/// The config text of a hall with tables `1..=tables`.
pub fn config_text(tables: u16, listen: &str) -> String {
    let mut s = format!(
        r#"rules = "axf"
[tournament]
name = "压力测试赛"
site = "bench hall"
date = "2026-11-29"
kind = "swiss"
current_round = 1
[time_control]
kind = "fischer"
base_minutes = 80
increment_seconds = 30
[server]
listen = "{listen}"
data_dir = "data"
[credentials.chief]
name = "总裁判"
token = "{CHIEF_TOKEN}"
[[credentials.viewer]]
name = "大厅显示屏"
token = "{VIEWER_TOKEN}"
"#
    );
    if tables >= 2 {
        let half = tables / 2;
        for (d, range) in [
            (1, format!("1-{half}")),
            (2, format!("{}-{tables}", half + 1)),
        ] {
            s.push_str(&format!(
                "[[credentials.deputy]]\nname = \"副裁判{d}\"\ntoken = \"{}\"\ntables = \"{range}\"\n",
                deputy_token(d)
            ));
        }
    }
    for t in 1..=tables {
        s.push_str(&format!(
            "[[credentials.table]]\ntable = {t}\ntoken = \"{}\"\n",
            table_token(t)
        ));
    }
    s.push_str("[[round]]\nnumber = 1\n");
    for t in 1..=tables {
        s.push_str(&format!(
            "[[round.table]]\ntable = {t}\nred = \"红方{t}\"\nblack = \"黑方{t}\"\n"
        ));
    }
    s
}

/// A `[store]` section putting the hall's record in the PostgreSQL
/// database at `url` as hall `hall`.
pub fn store_section(url: &str, hall: &str) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    format!("[store]\nurl = {}\nhall = {}\n", q(url), q(hall))
}

/// Writes `hall.toml` into `dir` and returns its path.
pub fn write_config(dir: &Path, tables: u16) -> anyhow::Result<PathBuf> {
    let path = dir.join("hall.toml");
    std::fs::write(&path, config_text(tables, "127.0.0.1:0"))?;
    Ok(path)
}

/// Loads the written config (validated like `caipan serve` does).
pub fn load_config(path: &Path) -> anyhow::Result<config::HallConfig> {
    Ok(config::HallConfig::load(path)?)
}
