//! What the config tests share: a small valid hall config.

/// A small valid config (4 tables, a chief, two deputies, a viewer); each
/// test replaces or breaks one part of it.
pub const BASE: &str = r#"
rules = "axf"

[tournament]
name = "测试赛"
site = "北京"
date = "2026-01-02"
kind = "round_robin"

[server]
listen = "127.0.0.1:4433"

[credentials]
table_secret = "test-hall-secret-0001"

[credentials.chief]
name = "王志明"
token = "chief-token-0123456789"

[[credentials.deputy]]
name = "陈立新"
token = "deputy-a-token-0123456789"
tables = [1, 2]

[[credentials.deputy]]
name = "刘建华"
token = "deputy-b-token-0123456789"
tables = [3, 4]

[[credentials.viewer]]
name = "显示屏"
token = "viewer-token-0123456789"

[[round]]
number = 1

[[round.table]]
table = 1
red = "胡荣华"
black = "许银川"

[[round.table]]
table = 2
red = "吕钦"
black = "赵国荣"

[[round.table]]
table = 3
red = "徐天红"
black = "柳大华"

[[round.table]]
table = 4
red = "李来群"
black = "杨官璘"
"#;
