//! Every key of the console (按键表), for the help screen (`?`) and the
//! hint line. Keys of actions the role may not take are left out, so a
//! deputy's help does not offer pausing the hall (over several halls: a key
//! is offered when the role in some hall may; the server of the selected
//! row's hall judges). `H`, the hall filter, is listed only for a console
//! over several halls.
//!
//! Keep this list and `app/keys.rs` in step: the help test presses each
//! listed key.

use crate::app::perm::{self, Action};
use crate::i18n::Lang;
use proto::Role;

/// Where a key works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Everywhere,
    Hall,
    Alerts,
    Claims,
    Detail,
}

/// One help line.
#[derive(Debug, Clone, Copy)]
pub struct KeyHelp {
    pub keys: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
    pub scope: Scope,
    /// The action the key starts, if any (hidden when the role may not).
    pub action: Option<Action>,
    /// Only for a console over several halls.
    pub halls_only: bool,
}

const fn k(keys: &'static str, en: &'static str, zh: &'static str, scope: Scope) -> KeyHelp {
    KeyHelp {
        keys,
        en,
        zh,
        scope,
        action: None,
        halls_only: false,
    }
}

const fn act(
    keys: &'static str,
    en: &'static str,
    zh: &'static str,
    scope: Scope,
    action: Action,
) -> KeyHelp {
    KeyHelp {
        keys,
        en,
        zh,
        scope,
        action: Some(action),
        halls_only: false,
    }
}

/// Every key, in help order.
pub const KEYS: &[KeyHelp] = &[
    k("?  F1", "this help", "本帮助", Scope::Everywhere),
    k("q  Ctrl-C", "quit", "退出", Scope::Everywhere),
    k(
        "Tab  Shift-Tab",
        "next / previous screen: hall, claims, alerts",
        "切换画面: 赛场, 申诉, 警报",
        Scope::Everywhere,
    ),
    k("a", "alerts", "警报", Scope::Everywhere),
    k("c", "claims queue", "申诉队列", Scope::Everywhere),
    k(
        "Esc  Backspace",
        "back to the hall; clear the filter",
        "返回赛场; 清除筛选",
        Scope::Everywhere,
    ),
    k(
        "↑ ↓  k j",
        "move the selection",
        "移动选择",
        Scope::Everywhere,
    ),
    k(
        "PgUp PgDn  Ctrl-B Ctrl-F",
        "page up / down",
        "翻页",
        Scope::Everywhere,
    ),
    k(
        "Ctrl-U Ctrl-D",
        "half a page up / down",
        "半页",
        Scope::Everywhere,
    ),
    k(
        "Home  End G",
        "first / last",
        "首行 / 末行",
        Scope::Everywhere,
    ),
    k("L", "中文 / English", "中文 / English", Scope::Everywhere),
    k("Enter  → l", "open the table", "打开台次", Scope::Hall),
    k(
        "s",
        "sort: table, time left, alerts",
        "排序: 台号, 剩余时间, 警报",
        Scope::Hall,
    ),
    k(
        "/",
        "filter by name, number or status",
        "按姓名, 台号或状态筛选",
        Scope::Hall,
    ),
    k("g  :", "go to a table by number", "按台号跳转", Scope::Hall),
    KeyHelp {
        keys: "H",
        en: "hall filter: all halls, then each hall",
        zh: "按赛场筛选: 全部, 逐个赛场",
        scope: Scope::Everywhere,
        action: None,
        halls_only: true,
    },
    k("← h", "back to the hall", "返回赛场", Scope::Detail),
    k(
        "n",
        "notation: Chinese, WXF, ICCS",
        "记谱: 中文, WXF, ICCS",
        Scope::Detail,
    ),
    act(
        "x",
        "acknowledge the alert",
        "确认警报",
        Scope::Alerts,
        Action::AckAlert,
    ),
    act(
        "X",
        "acknowledge all open alerts",
        "确认全部警报",
        Scope::Alerts,
        Action::AckAlert,
    ),
    act(
        "y",
        "accept the recommended ruling",
        "采纳建议裁决",
        Scope::Claims,
        Action::RuleOnClaim,
    ),
    act(
        "o",
        "override with a reason",
        "改判 (须写理由)",
        Scope::Claims,
        Action::RuleOnClaim,
    ),
    act(
        "e",
        "escalate to the chief",
        "提交裁判长",
        Scope::Claims,
        Action::EscalateClaim,
    ),
    act(
        "p",
        "pause / resume the table",
        "暂停 / 恢复本台",
        Scope::Detail,
        Action::PauseTable,
    ),
    act(
        "S",
        "seal / unseal",
        "封棋 / 启封",
        Scope::Detail,
        Action::Seal,
    ),
    act(
        "f",
        "record a foul",
        "记录犯规",
        Scope::Detail,
        Action::RecordFoul,
    ),
    act(
        "t",
        "adjust the clock",
        "调整时钟",
        Scope::Detail,
        Action::AdjustClock,
    ),
    act(
        "m",
        "move limit 限著 (ROC)",
        "宣判 / 取消限著 (ROC)",
        Scope::Detail,
        Action::RuleOnClaim,
    ),
    act(
        "r",
        "set the result",
        "判定结果",
        Scope::Detail,
        Action::SetResult,
    ),
    act(
        "P",
        "pause / resume the whole hall",
        "全场暂停 / 恢复",
        Scope::Everywhere,
        Action::PauseHall,
    ),
    act(
        "E",
        "export the round",
        "导出本轮",
        Scope::Everywhere,
        Action::Export,
    ),
];

/// The keys offered to `role` in a console of one hall.
pub fn keys_for(role: Option<&Role>) -> impl Iterator<Item = &'static KeyHelp> + '_ {
    keys_offered(vec![role], false)
}

/// The keys offered in a console whose roles (one per hall) are `roles`:
/// an action's key when the role in some hall may take it; `H` when
/// `halls` (several halls).
pub fn keys_offered(
    roles: Vec<Option<&Role>>,
    halls: bool,
) -> impl Iterator<Item = &'static KeyHelp> + '_ {
    KEYS.iter().filter(move |k| {
        (halls || !k.halls_only)
            && k.action
                .is_none_or(|a| roles.iter().any(|r| perm::offers(*r, a)))
    })
}

/// A key's description in `lang`.
pub fn describe(k: &KeyHelp, lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => k.zh,
        Lang::En => k.en,
    }
}

/// Scope heading in `lang`.
pub fn scope_name(scope: Scope, lang: Lang) -> &'static str {
    let s = lang.s();
    match scope {
        Scope::Everywhere => match lang {
            Lang::Zh => "通用",
            Lang::En => "Everywhere",
        },
        Scope::Hall => s.hall,
        Scope::Alerts => s.alerts,
        Scope::Claims => s.claims,
        Scope::Detail => match lang {
            Lang::Zh => "赛场与台次 (所选台)",
            Lang::En => "Hall and table (selected table)",
        },
    }
}
