//! Chinese and English text of the console (界面文字).
//!
//! Every visible word comes from a [`Strings`] table chosen by [`Lang`]; the
//! default language follows the locale (`LC_ALL`, then `LC_MESSAGES`, then
//! `LANG`: `zh*` selects Chinese), and `caipan console --lang zh|en` chooses
//! explicitly. Rule explanations come from the server in both languages and
//! are picked with [`Lang::pick`].

use std::fmt;
use std::str::FromStr;

use proto::{ClaimPenalty, Side, Verdict};

/// The console's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// 中文.
    Zh,
    /// English.
    #[default]
    En,
}

impl Lang {
    /// The language the locale environment asks for (`LC_ALL`,
    /// `LC_MESSAGES`, `LANG`, first one set wins); English otherwise.
    pub fn from_env() -> Lang {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let locale = get("LC_ALL")
            .or_else(|| get("LC_MESSAGES"))
            .or_else(|| get("LANG"));
        Lang::from_locale(locale.as_deref())
    }

    /// The language for one locale string such as `zh_CN.UTF-8`.
    pub fn from_locale(locale: Option<&str>) -> Lang {
        match locale {
            Some(l) if l.to_ascii_lowercase().starts_with("zh") => Lang::Zh,
            _ => Lang::En,
        }
    }

    /// The other language (the `L` key switches at run time).
    pub fn other(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }

    /// The text table of this language.
    pub fn s(self) -> &'static Strings {
        match self {
            Lang::Zh => &ZH,
            Lang::En => &EN,
        }
    }

    /// The catalogue language of this console language (zh is zh-Hans).
    pub fn catalogue(self) -> i18n::Lang {
        match self {
            Lang::Zh => i18n::Lang::ZhHans,
            Lang::En => i18n::Lang::En,
        }
    }

    /// A wire message (an alert's text, a ruling's explanation) rendered
    /// in this language from the catalogues.
    pub fn text(self, m: &proto::Message) -> String {
        i18n::render(self.catalogue(), m)
    }

    /// Picks the text in this language out of a (zh, en) pair; falls back to
    /// the other one when empty.
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh if !zh.is_empty() => zh,
            Lang::En if !en.is_empty() => en,
            Lang::Zh => en,
            Lang::En => zh,
        }
    }
}

/// A `--lang` value that is neither `zh` nor `en`.
#[derive(Debug, thiserror::Error)]
#[error("unknown language {0:?}: use zh or en")]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        match s.to_ascii_lowercase().as_str() {
            "zh" | "cn" | "zh-cn" | "zh_cn" => Ok(Lang::Zh),
            "en" => Ok(Lang::En),
            _ => Err(UnknownLang(s.to_string())),
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        })
    }
}

/// Every fixed text of the console, in one language.
#[derive(Debug)]
pub struct Strings {
    /// The language of this table.
    pub lang: Lang,
    pub title: &'static str,
    pub chief: &'static str,
    pub deputy: &'static str,
    pub viewer: &'static str,
    pub round: &'static str,
    pub hall: &'static str,
    pub alerts: &'static str,
    pub claims: &'static str,
    pub detail: &'static str,
    pub help: &'static str,
    pub table: &'static str,
    pub table_short: &'static str,
    /// Heading of the hall column (a console over several halls).
    pub hall_col: &'static str,
    /// "all halls" (the hall filter off).
    pub all_halls: &'static str,
    pub red: &'static str,
    pub black: &'static str,
    pub red_short: &'static str,
    pub black_short: &'static str,
    pub clock: &'static str,
    pub to_move: &'static str,
    pub moves: &'static str,
    pub no_capture: &'static str,
    pub fouls: &'static str,
    pub pending: &'static str,
    pub status: &'static str,
    pub seen: &'static str,
    pub playing: &'static str,
    pub not_started: &'static str,
    pub paused: &'static str,
    pub sealed: &'static str,
    pub finished: &'static str,
    pub offline: &'static str,
    pub hall_paused: &'static str,
    pub disconnected: &'static str,
    pub connecting: &'static str,
    /// A permanent refusal: the link stops (no retry).
    pub refused_for_good: &'static str,
    pub connected: &'static str,
    pub sort: &'static str,
    pub sort_table: &'static str,
    pub sort_time: &'static str,
    pub sort_alerts: &'static str,
    pub filter: &'static str,
    pub goto_table: &'static str,
    pub no_tables: &'static str,
    pub no_alerts: &'static str,
    pub no_claims: &'static str,
    pub acknowledged: &'static str,
    pub recommended: &'static str,
    pub rules: &'static str,
    pub ruled_by: &'static str,
    pub accepted: &'static str,
    pub overridden: &'static str,
    pub escalated: &'static str,
    pub reason: &'static str,
    pub claimant: &'static str,
    pub move_list: &'static str,
    pub clock_history: &'static str,
    pub log: &'static str,
    pub technical: &'static str,
    pub violation: &'static str,
    pub yes_no: &'static str,
    pub confirm: &'static str,
    pub input: &'static str,
    pub enter_esc: &'static str,
    pub river_chu: &'static str,
    pub river_han: &'static str,
    pub keys_title: &'static str,
    pub not_allowed: &'static str,
    pub sent: &'static str,
    pub server_refused: &'static str,
    pub draw: &'static str,
    pub red_wins: &'static str,
    pub black_wins: &'static str,
    pub flag: &'static str,
    pub notation_chinese: &'static str,
    pub notation_wxf: &'static str,
    pub ago: &'static str,
    pub none: &'static str,
    pub act_ack_all: &'static str,
    pub to_move_long: &'static str,
    pub moves_long: &'static str,
    pub pending_word: &'static str,
    pub escalated_word: &'static str,
    pub lapsed_word: &'static str,
    pub done: &'static str,
    pub act_ack: &'static str,
    pub act_pause_table: &'static str,
    pub act_resume_table: &'static str,
    pub act_pause_hall: &'static str,
    pub act_resume_hall: &'static str,
    pub act_seal: &'static str,
    pub act_unseal: &'static str,
    pub act_foul: &'static str,
    pub act_adjust: &'static str,
    pub act_result: &'static str,
    pub act_accept: &'static str,
    pub act_override: &'static str,
    pub act_escalate: &'static str,
    pub act_export: &'static str,
    pub prompt_reason: &'static str,
    pub prompt_sealed_move: &'static str,
    pub prompt_times: &'static str,
    pub prompt_note: &'static str,
    pub choose_foul: &'static str,
    pub choose_result: &'static str,
    pub choose_verdict: &'static str,
    /// Play on with no penalty: the one name of that effect.
    pub v_continue: &'static str,
    /// Play on, before the penalty's words ("play on, technical foul, 5:00 off").
    pub v_play_on: &'static str,
    /// A penalty's technical foul.
    pub pen_foul: &'static str,
    /// A penalty's time off: the words before and after the duration.
    pub pen_off: (&'static str, &'static str),
    /// What an override does not impose ("waives technical foul, 5:00 off").
    pub waives: &'static str,
    pub v_red_change: &'static str,
    pub v_order_red: &'static str,
    pub v_order_black: &'static str,
    pub v_order_draw: &'static str,
    pub ordered_word: &'static str,
    pub v_black_change: &'static str,
    pub v_red_loses: &'static str,
    pub v_black_loses: &'static str,
    pub v_red_correct: &'static str,
    pub v_black_correct: &'static str,
    pub both_lose: &'static str,
    pub required: &'static str,
    pub no_such_table: &'static str,
    pub bad_move: &'static str,
    pub bad_time: &'static str,
    pub sealed_hidden: &'static str,
    /// The declared move limit 限著 (ROC).
    pub move_limit: &'static str,
    pub act_move_limit: &'static str,
    pub choose_move_limit: &'static str,
    pub ml_red_at_black: &'static str,
    pub ml_black_at_red: &'static str,
    pub ml_red_arbiter: &'static str,
    pub ml_black_arbiter: &'static str,
    pub ml_red_book: &'static str,
    pub ml_black_book: &'static str,
    pub ml_cancel: &'static str,
    pub ml_limited: &'static str,
    pub ml_short: &'static str,
    pub ml_full: &'static str,
    pub ml_capture: &'static str,
}

/// English.
pub static EN: Strings = Strings {
    lang: Lang::En,
    title: "caipan referee console",
    chief: "chief arbiter",
    deputy: "deputy",
    viewer: "viewer",
    round: "round",
    hall: "Hall",
    alerts: "Alerts",
    claims: "Claims",
    detail: "Table",
    help: "Help",
    table: "Table",
    table_short: "#",
    hall_col: "Hall",
    all_halls: "all halls",
    red: "Red",
    black: "Black",
    red_short: "R",
    black_short: "B",
    clock: "Clock",
    to_move: "Mv",
    moves: "Mvs",
    no_capture: "No capture",
    fouls: "Fouls",
    pending: "Clm",
    status: "Status",
    seen: "Seen",
    playing: "playing",
    not_started: "waiting",
    paused: "paused",
    sealed: "sealed",
    finished: "finished",
    offline: "offline",
    hall_paused: "HALL PAUSED",
    disconnected: "disconnected — retrying",
    connecting: "connecting",
    refused_for_good: "refused by the server, not retrying",
    connected: "connected",
    sort: "sort",
    sort_table: "table",
    sort_time: "time left",
    sort_alerts: "alerts",
    filter: "filter",
    goto_table: "go to table",
    no_tables: "no tables",
    no_alerts: "no alerts",
    no_claims: "no pending claims",
    acknowledged: "acknowledged",
    recommended: "Recommended",
    rules: "Rules",
    ruled_by: "ruled by",
    accepted: "accepted",
    overridden: "overridden",
    escalated: "escalated to the chief",
    reason: "reason",
    claimant: "claim by",
    move_list: "Moves",
    clock_history: "Clock history",
    log: "Events and audit",
    technical: "technical",
    violation: "violation",
    yes_no: "y = yes, n = no",
    confirm: "Confirm",
    input: "Input",
    enter_esc: "Enter = send, Esc = cancel",
    river_chu: "楚 河",
    river_han: "漢 界",
    keys_title: "Keys",
    not_allowed: "not allowed for your role",
    sent: "sent",
    server_refused: "refused",
    draw: "draw",
    red_wins: "Red wins",
    black_wins: "Black wins",
    flag: "FLAG",
    notation_chinese: "Chinese",
    notation_wxf: "WXF",
    ago: "ago",
    none: "—",
    act_ack_all: "acknowledge all open alerts",
    to_move_long: "to move",
    moves_long: "moves",
    pending_word: "pending",
    escalated_word: "escalated",
    lapsed_word: "lapsed",
    done: "done",
    act_ack: "acknowledge alert",
    act_pause_table: "pause table",
    act_resume_table: "resume table",
    act_pause_hall: "pause the whole hall",
    act_resume_hall: "resume the whole hall",
    act_seal: "seal (adjourn)",
    act_unseal: "unseal and resume",
    act_foul: "record a foul",
    act_adjust: "adjust clock",
    act_result: "set result",
    act_accept: "accept the recommended ruling",
    act_override: "override the ruling",
    act_escalate: "escalate to the chief",
    act_export: "export the round",
    prompt_reason: "reason",
    prompt_sealed_move: "sealed move (ICCS h2e2, or 炮二平五)",
    prompt_times: "Red Black, e.g. 45:00 38:12 or +1:00 -0:30",
    prompt_note: "note",
    choose_foul: "side and kind",
    choose_result: "result",
    choose_verdict: "ruling",
    v_continue: "play on, no penalty",
    v_play_on: "play on",
    pen_foul: "technical foul",
    pen_off: ("", " off"),
    waives: "waives",
    v_red_change: "play on, Red must change",
    v_order_red: "order: Red must change",
    v_order_black: "order: Black must change",
    v_order_draw: "announce: one more cycle draws",
    ordered_word: "ordered",
    v_black_change: "play on, Black must change",
    v_red_loses: "Red loses",
    v_black_loses: "Black loses",
    v_red_correct: "Red corrects the move (technical foul)",
    v_black_correct: "Black corrects the move (technical foul)",
    both_lose: "both lose",
    required: "required",
    no_such_table: "no such table",
    bad_move: "not a move here",
    bad_time: "bad time: give Red and Black, e.g. 45:00 38:12",
    sealed_hidden: "the move stays hidden until unsealed",
    move_limit: "Move limit",
    act_move_limit: "declare / cancel the move limit",
    choose_move_limit: "limited side, who asked",
    ml_red_at_black: "Red limited, at Black's request (40 each)",
    ml_black_at_red: "Black limited, at Red's request (40 each)",
    ml_red_arbiter: "Red limited, by the arbiter (40 each)",
    ml_black_arbiter: "Black limited, by the arbiter (40 each)",
    ml_red_book: "Red limited, book draw (30 each)",
    ml_black_book: "Black limited, book draw (30 each)",
    ml_cancel: "cancel the declared limit",
    ml_limited: "limited",
    ml_short: "Limit",
    ml_full: "full",
    ml_capture: "capture at ply",
};

/// 中文.
pub static ZH: Strings = Strings {
    lang: Lang::Zh,
    title: "裁判台",
    chief: "裁判长",
    deputy: "副裁判",
    viewer: "观众",
    round: "轮",
    hall: "赛场",
    alerts: "警报",
    claims: "申诉",
    detail: "台次",
    help: "帮助",
    table: "台",
    table_short: "台",
    hall_col: "赛场",
    all_halls: "全部赛场",
    red: "红方",
    black: "黑方",
    red_short: "红",
    black_short: "黑",
    clock: "用时",
    to_move: "走",
    moves: "回合",
    no_capture: "未吃子",
    fouls: "犯规",
    pending: "诉",
    status: "状态",
    seen: "联络",
    playing: "对局中",
    not_started: "未开始",
    paused: "暂停",
    sealed: "封棋",
    finished: "结束",
    offline: "离线",
    hall_paused: "全场暂停",
    disconnected: "连接中断 — 正在重试",
    connecting: "连接中",
    refused_for_good: "服务器拒绝连接, 不再重试",
    connected: "已连接",
    sort: "排序",
    sort_table: "台号",
    sort_time: "剩余时间",
    sort_alerts: "警报",
    filter: "筛选",
    goto_table: "跳到台号",
    no_tables: "没有台次",
    no_alerts: "没有警报",
    no_claims: "没有待裁申诉",
    acknowledged: "已确认",
    recommended: "建议裁决",
    rules: "条款",
    ruled_by: "裁决人",
    accepted: "采纳",
    overridden: "改判",
    escalated: "已提交裁判长",
    reason: "理由",
    claimant: "申诉方",
    move_list: "棋谱",
    clock_history: "计时记录",
    log: "事件与审计",
    technical: "技术",
    violation: "违例",
    yes_no: "y = 是, n = 否",
    confirm: "确认",
    input: "输入",
    enter_esc: "回车 = 发送, Esc = 取消",
    river_chu: "楚 河",
    river_han: "漢 界",
    keys_title: "按键",
    not_allowed: "无此权限",
    sent: "已发送",
    server_refused: "被拒绝",
    draw: "和棋",
    red_wins: "红胜",
    black_wins: "黑胜",
    flag: "超时",
    notation_chinese: "中文",
    notation_wxf: "WXF",
    ago: "前",
    none: "—",
    act_ack_all: "确认全部警报",
    to_move_long: "轮走",
    moves_long: "回合",
    pending_word: "待裁",
    escalated_word: "已上报",
    lapsed_word: "已失效",
    done: "完成",
    act_ack: "确认警报",
    act_pause_table: "暂停本台",
    act_resume_table: "恢复本台",
    act_pause_hall: "全场暂停",
    act_resume_hall: "全场恢复",
    act_seal: "封棋",
    act_unseal: "启封续赛",
    act_foul: "记录犯规",
    act_adjust: "调整时钟",
    act_result: "判定结果",
    act_accept: "采纳建议裁决",
    act_override: "改判",
    act_escalate: "提交裁判长",
    act_export: "导出本轮",
    prompt_reason: "理由",
    prompt_sealed_move: "封棋着法 (ICCS h2e2 或 炮二平五)",
    prompt_times: "红 黑, 例如 45:00 38:12 或 +1:00 -0:30",
    prompt_note: "备注",
    choose_foul: "哪一方, 何种犯规",
    choose_result: "结果",
    choose_verdict: "裁决",
    v_continue: "继续对局, 不处罚",
    v_play_on: "继续对局",
    pen_foul: "技术犯规",
    pen_off: ("扣时 ", ""),
    waives: "免除",
    v_red_change: "继续, 红方必须变着",
    v_order_red: "变着令: 红方必须变着",
    v_order_black: "变着令: 黑方必须变着",
    v_order_draw: "宣布: 再循环即和",
    ordered_word: "已下令",
    v_black_change: "继续, 黑方必须变着",
    v_red_loses: "红方判负",
    v_black_loses: "黑方判负",
    v_red_correct: "红方更正着法 (技术犯规)",
    v_black_correct: "黑方更正着法 (技术犯规)",
    both_lose: "双方判负",
    required: "不能为空",
    no_such_table: "没有这个台号",
    bad_move: "无法识别的着法",
    bad_time: "时间格式错误: 例如 45:00 38:12",
    sealed_hidden: "着法启封前保密",
    move_limit: "限著",
    act_move_limit: "宣判 / 取消限著",
    choose_move_limit: "被限著方, 由谁提出",
    ml_red_at_black: "红方被限, 黑方提出 (每方40步)",
    ml_black_at_red: "黑方被限, 红方提出 (每方40步)",
    ml_red_arbiter: "红方被限, 裁判宣判 (每方40步)",
    ml_black_arbiter: "黑方被限, 裁判宣判 (每方40步)",
    ml_red_book: "红方被限, 例和 (每方30步)",
    ml_black_book: "黑方被限, 例和 (每方30步)",
    ml_cancel: "取消限著",
    ml_limited: "被限",
    ml_short: "限著",
    ml_full: "已满",
    ml_capture: "吃子于第",
};

/// A ruling with the penalty that goes with it, in words: one name per
/// effect — "play on, technical foul, 5:00 off" (a false natural-limit
/// claim accepted) and "play on, no penalty" are never both "play on".
pub fn ruling_label(
    s: &Strings,
    v: Verdict,
    must_change: Option<Side>,
    penalty: Option<ClaimPenalty>,
) -> String {
    match penalty.and_then(|p| penalty_label(s, p)) {
        None => verdict_label(s, v, must_change),
        Some(p) if (v, must_change) == (Verdict::Continue, None) => {
            format!("{}, {p}", s.v_play_on)
        }
        Some(p) => format!("{}, {p}", verdict_label(s, v, must_change)),
    }
}

/// A penalty in words ("technical foul, 5:00 off"); `None` when it
/// imposes nothing.
pub fn penalty_label(s: &Strings, p: ClaimPenalty) -> Option<String> {
    let mut parts = Vec::new();
    if p.technical_foul {
        parts.push(s.pen_foul.to_string());
    }
    if p.deduct_ms > 0 {
        let time = rulebook::clock_text(p.deduct_ms, rulebook::ClockForm::Short);
        parts.push(format!("{}{time}{}", s.pen_off.0, s.pen_off.1));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// What an override waives (" (waives technical foul, 5:00 off)"), or
/// nothing when accepting the recommendation adds no penalty.
pub fn waived_label(s: &Strings, penalty: Option<ClaimPenalty>) -> String {
    penalty
        .and_then(|p| penalty_label(s, p))
        .map(|p| format!(" ({} {p})", s.waives))
        .unwrap_or_default()
}

/// A ruling without a penalty in words, e.g. "play on, Black must
/// change", "play on, no penalty".
pub fn verdict_label(s: &Strings, v: Verdict, must_change: Option<Side>) -> String {
    match (v, must_change) {
        (Verdict::Continue, Some(Side::Red)) => s.v_red_change.to_string(),
        (Verdict::Continue, Some(Side::Black)) => s.v_black_change.to_string(),
        (Verdict::Continue, None) => s.v_continue.to_string(),
        (Verdict::Order, Some(Side::Red)) => s.v_order_red.to_string(),
        (Verdict::Order, Some(Side::Black)) => s.v_order_black.to_string(),
        (Verdict::Order, None) => s.v_order_draw.to_string(),
        (Verdict::Draw, _) => s.draw.to_string(),
        (Verdict::Loss { side: Side::Red }, _) => s.v_red_loses.to_string(),
        (Verdict::Loss { side: Side::Black }, _) => s.v_black_loses.to_string(),
        (Verdict::CorrectMove { side: Side::Red }, _) => s.v_red_correct.to_string(),
        (Verdict::CorrectMove { side: Side::Black }, _) => s.v_black_correct.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two kinds of "play on" have a name each, in both languages.
    #[test]
    fn play_on_names_its_penalty_or_none() {
        let p = ClaimPenalty {
            side: Side::Black,
            technical_foul: true,
            deduct_ms: 300_000,
        };
        let label = |s, p| ruling_label(s, Verdict::Continue, None, p);
        assert_eq!(label(&EN, Some(p)), "play on, technical foul, 5:00 off");
        assert_eq!(label(&EN, None), "play on, no penalty");
        assert_eq!(label(&ZH, Some(p)), "继续对局, 技术犯规, 扣时 5:00");
        assert_eq!(label(&ZH, None), "继续对局, 不处罚");
        let time_only = ClaimPenalty {
            technical_foul: false,
            ..p
        };
        assert_eq!(label(&EN, Some(time_only)), "play on, 5:00 off");
        let nothing = ClaimPenalty {
            technical_foul: false,
            deduct_ms: 0,
            ..p
        };
        assert_eq!(label(&EN, Some(nothing)), "play on, no penalty");
        // The terminal's words (proto::effect_en) are the console's English.
        let sides = [None, Some(Side::Red), Some(Side::Black)];
        for v in [
            Verdict::Continue,
            Verdict::Order,
            Verdict::Draw,
            Verdict::Loss { side: Side::Red },
            Verdict::CorrectMove { side: Side::Black },
        ] {
            for m in sides {
                let m = if matches!(v, Verdict::Continue | Verdict::Order) {
                    m
                } else {
                    None
                };
                for pen in [None, Some(p), Some(time_only), Some(nothing)] {
                    assert_eq!(
                        ruling_label(&EN, v, m, pen),
                        proto::effect_en(v, m, pen),
                        "{v:?} {m:?} {pen:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn locale_selects_language() {
        assert_eq!(Lang::from_locale(Some("zh_CN.UTF-8")), Lang::Zh);
        assert_eq!(Lang::from_locale(Some("zh_TW")), Lang::Zh);
        assert_eq!(Lang::from_locale(Some("en_GB.UTF-8")), Lang::En);
        assert_eq!(Lang::from_locale(Some("C")), Lang::En);
        assert_eq!(Lang::from_locale(None), Lang::En);
    }

    #[test]
    fn lang_parses_and_picks() {
        assert_eq!("zh".parse::<Lang>().ok(), Some(Lang::Zh));
        assert_eq!("EN".parse::<Lang>().ok(), Some(Lang::En));
        assert!("fr".parse::<Lang>().is_err());
        assert_eq!(Lang::Zh.pick("长将", "perpetual check"), "长将");
        assert_eq!(Lang::En.pick("长将", ""), "长将");
    }
}
