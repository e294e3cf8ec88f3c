//! Rule identifiers cited in rulings, verdicts and escalations.
//!
//! Every recommendation the rulebook makes carries the ids of the rules it
//! applies, so that the arbiter (and the audit log) can look them up.
//! `docs/rules.md` states every id's rule and how each text is read; the ids
//! are defined here from the item numbers of the source texts (000 to 004,
//! named in `docs/rules.md`, "Sources"):
//!
//! AXF 2008 (seed 000, the default rule set):
//! - `AXF-P1`..`AXF-P4`: the four ruling principles (seed 002 §2).
//! - `AXF-S1`..`AXF-S10`: the general principles 棋例总纲 (seed 002 §3).
//! - `AXF-D1`..`AXF-D35`: the detail rules 棋例细则 (000's list; 33-34 from 004).
//! - `AXF-G1`..`AXF-G6`: general rules of winning/drawing (001 §4.4, G6 the
//!   flying general / ignored check).
//! - `AXF-LIMIT-1`..`3`: natural move limit 自然限着 (100 plies; claimant's
//!   checks count at most 10; claim procedure and false-claim penalty).
//! - `AXF-CLOCK-n`: the items of 000 ch. 2 §2 (对局时间): 1 electronic clock
//!   (Fischer 80 min + 30 s), 2 traditional clock controls (and organiser-set
//!   rapid controls, named at the end of item 2), 3 starting the clock (Black
//!   starts Red's clock), 4 adjournment (sealed move), 5 clock faults,
//!   6 last move made but clock not pressed = loss on time.
//! - `AXF-PLAY-n`: the items of 000 ch. 3 行棋: 1 order of play, 2 touch-move,
//!   3 a move once made stands, 4A illegal move corrected = one technical
//!   foul, 4B colours reversed, 5 two technical fouls = loss.
//! - `AXF-REC-6`, `AXF-REC-7`: score-sheet items 6 (four moves missing in a
//!   row = one recording violation 违例; four violations = loss) and 7
//!   (refusing to complete the record when told = loss).
//! - `AXF-REF-x`: referee duties by the letter of 000's list: `AXF-REF-G`
//!   (moves gone round three times: a position awaiting ruling), `AXF-REF-I`
//!   (violations and technical fouls counted separately), `AXF-REF-J` (draw
//!   offers), `AXF-REF-L` (adjournment; 15 minutes late at resumption =
//!   forfeit).
//! - `AXF-CONDUCT-5`: players' conduct item 5 (pressing the clock too hard:
//!   reminder, warning, then one violation each time).
//! - `AXF-BAN-n`: the list of prohibited acts (禁止事项) items 1-6 (5: a
//!   repeated draw offer after a refusal, a false natural-limit claim;
//!   6: touching an immovable own piece / an uncapturable enemy piece).
//! - `AXF-FORFEIT-1`, `3`, `4`: 000 ch. 2 §6 (弃权及退出比赛): 1 no-show after
//!   30 minutes (both absent: both forfeit), 3 withdrawal in a round robin,
//!   4 withdrawal in a points round robin / Swiss.
//! - `AXF-SCORE-1`..`4`: ch. 2 §4 scoring: 1 one-game 2/1/0, 2 two-game
//!   matches (small and big points), 3 team one-game matches (board points
//!   decide; match points 2/1/0), 4 team two-game matches (big then small).
//! - `AXF-RANK-1` (round-robin tie-breaks), `AXF-RANK-2` (points round robin
//!   tie-breaks, also used for Swiss, whose lists were lost in the source),
//!   `AXF-RANK-6` (the champion is never shared).
//!
//! ROC (seed 003, Republic of China rules), numbered here in the order of the
//! rule statements of the text:
//! - `ROC-1`..`ROC-5` 走子: touch own piece, touch enemy piece, touch both,
//!   adjusting pieces, a move made stands.
//! - `ROC-6` 限著 when the arbiter may declare a move limit; `ROC-7` its length
//!   (40 moves each, 30 in a book draw; cancelled on a new development);
//!   `ROC-8` replies to check of the limited side count at most 5.
//! - `ROC-9`..`ROC-32` 勝、敗、和與犯規, in text order: 9 capturing the king /
//!   unanswered check, 10 stalemate, 11 draws, 12 cycle without violation,
//!   13 both violate, 14 one violates, 15 chasing an unprotected piece,
//!   16 perpetual check, 17 one check one X, 18 perpetual block/offer/
//!   exchange/pin/chase of a protected piece, 19 escape with counter-threat,
//!   20 two chase one / one chases two, 21 two chases against one,
//!   22 two fouls = loss, 23 disturbing the opponent = one foul, 24 cannon
//!   moving screens, 25 rook and king controlled, 26 unprotecting a still
//!   target with other pieces, 27 rook pinned by a cannon, 28 訛步 illegal
//!   moves, 29 exposing the king / suicide, 30 false or virtual protector,
//!   31 chasing a protected piece and same-type pieces, 32 a chase that does
//!   not return to an earlier position is not perpetual.
//!
//! CXA (seed 004's first list, the Chinese Xiangqi Association's rules):
//! - `CXA-1`..`CXA-13` the thirteen items in order.
//! - `CXA-LIMIT-1` the natural limit (60 rounds without a capture). It is not
//!   in the seeds: taken from the CXA rules as commonly summarised; the
//!   parameters are configurable.
//!
//! A [`RuleId`] is a small `Copy` value; only ids in the table below exist
//! (unknown text is rejected by [`RuleId::parse`]), and each has a short
//! Chinese and English title for display.

use std::fmt;

/// An identifier of a rule cited in a ruling, e.g. `AXF-D6` or `AXF-LIMIT-2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId(&'static str);

/// The rule text for a rule id: short Chinese and English titles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleInfo {
    /// The id, e.g. `AXF-D6`.
    pub id: RuleId,
    /// Short Chinese title.
    pub title_zh: &'static str,
    /// Short English title.
    pub title_en: &'static str,
}

/// Text that is not a known rule id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule id {0:?}")]
pub struct UnknownRuleId(pub String);

macro_rules! rules {
    ($( $konst:ident = $id:literal, $zh:literal, $en:literal; )*) => {
        impl RuleId {
            $(
                #[doc = concat!("`", $id, "`: ", $en)]
                pub const $konst: RuleId = RuleId($id);
            )*
        }
        /// Every known rule id with its titles, in citation order.
        pub const ALL_RULES: &[RuleInfo] = &[
            $( RuleInfo { id: RuleId($id), title_zh: $zh, title_en: $en }, )*
        ];
    };
}

rules! {
    AXF_P1 = "AXF-P1", "双方均无犯禁且不变作和", "neither side violates and neither changes: draw";
    AXF_P2 = "AXF-P2", "双方同犯同一禁例作和", "both sides commit the same forbidden pattern: draw";
    AXF_P3 = "AXF-P3", "一方长照一方长捉，长照者变着", "perpetual check against perpetual chase: the checker must change";
    AXF_P4 = "AXF-P4", "一方犯例另一方不犯，犯例方变着", "one side violates: the violator must change or lose";
    AXF_S1 = "AXF-S1", "长照作负", "perpetual check loses";
    AXF_S2 = "AXF-S2", "长杀、一照一杀等不变作和", "perpetual mate threat, one check one threat/chase/idle: draw";
    AXF_S3 = "AXF-S3", "一子或多子长捉一子作负", "one or more pieces perpetually chasing one piece lose";
    AXF_S4 = "AXF-S4", "一子分捉两子或多子作和", "chasing two or more pieces in turn: draw";
    AXF_S5 = "AXF-S5", "二捉一还捉，二捉者变着", "two chases against one counter-chase: the two-chase side changes";
    AXF_S6 = "AXF-S6", "长捉真根子作和，假根子作负", "chasing a truly protected piece: draw; falsely protected: loses";
    AXF_S7 = "AXF-S7", "长捉同类子作和（受牵制者除外）", "chasing a same-type piece: draw unless it is pinned";
    AXF_S8 = "AXF-S8", "捉兼兑仍作捉", "a chase that is also an exchange offer is a chase";
    AXF_S9 = "AXF-S9", "将帅或兵卒长捉作和", "king or pawn chasing: draw";
    AXF_S10 = "AXF-S10", "长拦、长献、长兑、长要抽吃作和", "perpetual block, offer, exchange, material threat: draw";
    AXF_D1 = "AXF-D1", "单方长将作负", "perpetual check: forbidden";
    AXF_D2 = "AXF-D2", "双方循环长将作和", "mutual perpetual check: draw";
    AXF_D3 = "AXF-D3", "二将一还将，长将者作负", "two checks and one counter-check: the checker loses";
    AXF_D4 = "AXF-D4", "长杀作和", "perpetual mate threat: draw";
    AXF_D5 = "AXF-D5", "解杀反杀作和", "mate threat answered with a counter-threat: draw";
    AXF_D6 = "AXF-D6", "一照一叫杀作和", "one check one mate threat: draw";
    AXF_D7 = "AXF-D7", "一照一捉或多照一捉作和", "one check one chase: draw";
    AXF_D8 = "AXF-D8", "一照一闲、一照一要抽吃作和", "one check one idle / material threat: draw";
    AXF_D9 = "AXF-D9", "一捉一要抽吃作和", "one chase one material threat: draw";
    AXF_D10 = "AXF-D10", "炮不能长捉车", "cannons may not perpetually chase a rook";
    AXF_D11 = "AXF-D11", "炮轮捉两车作和", "cannons chasing two rooks in turn: draw";
    AXF_D12 = "AXF-D12", "车可长捉有根炮", "a rook may chase a protected cannon";
    AXF_D13 = "AXF-D13", "车不能长捉无根炮", "a rook may not chase an unprotected cannon";
    AXF_D14 = "AXF-D14", "被马牵制之车不能长捉", "a rook pinned by a horse may not be chased";
    AXF_D15 = "AXF-D15", "炮马或双马不能分捉一车", "cannon and horse (or two horses) may not chase one rook";
    AXF_D16 = "AXF-D16", "马不能长捉车", "a horse may not perpetually chase a rook";
    AXF_D17 = "AXF-D17", "车马循环长捉作和", "rook and horse chasing each other: draw";
    AXF_D18 = "AXF-D18", "车不能长捉马", "a rook may not perpetually chase a horse";
    AXF_D19 = "AXF-D19", "捉同类子", "chasing a piece of the same type";
    AXF_D20 = "AXF-D20", "炮移炮台捉无根子作捉", "a cannon chasing by moving screens: a chase";
    AXF_D21 = "AXF-D21", "炮移炮台捉车作捉", "a cannon chasing a rook by moving screens: forbidden";
    AXF_D22 = "AXF-D22", "车被炮牵制不能离线", "a rook pinned on a line by a cannon";
    AXF_D23 = "AXF-D23", "将帅长捉作和", "king chasing: draw";
    AXF_D24 = "AXF-D24", "兵卒长捉作和", "pawn chasing: draw";
    AXF_D25 = "AXF-D25", "将帅兵卒每步联合他子长捉作负", "king or pawn joined by another piece on every move: forbidden";
    AXF_D26 = "AXF-D26", "车不能长捉过河兵卒", "a rook may not chase a crossed pawn";
    AXF_D27 = "AXF-D27", "一子轮捉两子作和", "one piece chasing two or more in turn: draw";
    AXF_D28 = "AXF-D28", "两子轮捉一子作负", "two or more pieces chasing one in turn: forbidden";
    AXF_D29 = "AXF-D29", "假根子不能长捉", "a falsely protected piece may not be chased";
    AXF_D30 = "AXF-D30", "多子劫真根子不作捉", "several pieces attacking a truly protected piece: not a chase";
    AXF_D31 = "AXF-D31", "捉兼兑仍作长捉", "a chase with an exchange offer is still a chase";
    AXF_D32 = "AXF-D32", "车帅被车炮控制时不能长捉该车", "rook and king held by rook and cannon: may not chase that rook";
    AXF_D33 = "AXF-D33", "长要抽吃作和", "perpetual material threat: draw";
    AXF_D34 = "AXF-D34", "长拦作和", "perpetual block: draw";
    AXF_D35 = "AXF-D35", "长兑长献作和", "perpetual exchange offer or offer: draw";
    AXF_G1 = "AXF-G1", "吃去对方将帅为胜", "capturing the king wins";
    AXF_G2 = "AXF-G2", "困毙为胜", "the side with no legal move loses";
    AXF_G3 = "AXF-G3", "禁着经要求变着仍重复三次判负", "a forbidden move repeated after the arbiter asked for a change loses";
    AXF_G4 = "AXF-G4", "和局", "draws: neither can win, agreement, arbiter's ruling";
    AXF_G5 = "AXF-G5", "循环不变双方无犯例作和", "a cycle with no violation, neither changing: draw";
    AXF_G6 = "AXF-G6", "将帅对面、不应将者负", "flying general or ignoring a check loses";
    AXF_LIMIT_1 = "AXF-LIMIT-1", "自然限着：双方共走100步未吃子作和", "natural limit: 100 plies without a capture is a draw";
    AXF_LIMIT_2 = "AXF-LIMIT-2", "提和方将军最多只计十着", "the claimant's checks count at most 10";
    AXF_LIMIT_3 = "AXF-LIMIT-3", "审核限着；不实者技术犯规并扣五分钟", "claim verified; a false claim: one technical foul and 5 minutes off";
    AXF_CLOCK_1 = "AXF-CLOCK-1", "电子钟每方80分钟，每着加30秒", "electronic clock: 80 minutes + 30 seconds per move";
    AXF_CLOCK_2 = "AXF-CLOCK-2", "普通钟限时限着；快棋由赛会决定", "traditional clock controls; rapid controls set by the organiser";
    AXF_CLOCK_3 = "AXF-CLOCK-3", "黑方先按钟开动红方时间", "Black starts Red's clock";
    AXF_CLOCK_4 = "AXF-CLOCK-4", "封棋", "adjournment and sealed move";
    AXF_CLOCK_5 = "AXF-CLOCK-5", "棋钟故障", "clock faults";
    AXF_CLOCK_6 = "AXF-CLOCK-6", "走完最后一着未按钟超时判负", "last move made but clock not pressed: loss on time";
    AXF_PLAY_1 = "AXF-PLAY-1", "红方先走，轮流行棋", "Red moves first, then in turn";
    AXF_PLAY_2 = "AXF-PLAY-2", "摸子走子", "touch-move";
    AXF_PLAY_3 = "AXF-PLAY-3", "落子无悔", "a move once made stands";
    AXF_PLAY_4A = "AXF-PLAY-4A", "走错着应纠正并作技术犯规一次", "illegal move corrected: one technical foul";
    AXF_PLAY_4B = "AXF-PLAY-4B", "先后颠倒二十分钟内重赛", "colours reversed: replay within 20 minutes";
    AXF_PLAY_5 = "AXF-PLAY-5", "技术犯规两次判负", "two technical fouls in a game lose";
    AXF_REC_6 = "AXF-REC-6", "连续漏记四着作违例一次，违例四次作负", "four moves missing = one violation; four violations lose";
    AXF_REC_7 = "AXF-REC-7", "通知补记仍不补记者判负", "refusing to complete the record when told loses";
    AXF_REF_G = "AXF-REF-G", "着法循环反复三次以上为待判局面，按整个重复过程定性", "moves gone round three times: a position awaiting ruling, judged over the whole repetition";
    AXF_REF_I = "AXF-REF-I", "违例与技术犯规分别处理", "violations and technical fouls counted separately";
    AXF_REF_J = "AXF-REF-J", "提和须在己方走棋后，不得连续提和", "draw offers: only after one's own move, not twice in a row";
    AXF_REF_L = "AXF-REF-L", "封棋后逾时十五分钟不到作弃权", "15 minutes late after an adjournment: forfeit";
    AXF_CONDUCT_5 = "AXF-CONDUCT-5", "按钟过重：提醒、警告、违例", "pressing the clock too hard: reminder, warning, violation";
    AXF_BAN_5 = "AXF-BAN-5", "不得连续提和；限着申报不实", "repeated draw offer after refusal; false limit claim";
    AXF_BAN_6 = "AXF-BAN-6", "触摸不可走之子或无法吃之子", "touching an immovable or uncapturable piece";
    AXF_FORFEIT_1 = "AXF-FORFEIT-1", "逾时三十分钟未到作弃权", "not at the board 30 minutes after the start: forfeit";
    AXF_FORFEIT_3 = "AXF-FORFEIT-3", "循环制中途退出", "withdrawal in a round robin";
    AXF_FORFEIT_4 = "AXF-FORFEIT-4", "积分循环制中途退出", "withdrawal in a points round robin";
    AXF_SCORE_1 = "AXF-SCORE-1", "一局制胜2和1负0", "one-game: win 2, draw 1, loss 0";
    AXF_SCORE_2 = "AXF-SCORE-2", "两局制大分小分", "two-game matches: big and small points";
    AXF_SCORE_3 = "AXF-SCORE-3", "团体一局制：局分定胜负，场分2/1/0", "team one-game matches: board points decide, match points 2/1/0";
    AXF_SCORE_4 = "AXF-SCORE-4", "团体两局制：大分再小分", "team two-game matches: big points, then small points";
    AXF_RANK_1 = "AXF-RANK-1", "循环制名次区分", "round-robin tie-breaks";
    AXF_RANK_2 = "AXF-RANK-2", "积分循环制名次区分", "points round-robin (and Swiss) tie-breaks";
    AXF_RANK_6 = "AXF-RANK-6", "冠军不予并列", "the champion is never shared";
    ROC_1 = "ROC-1", "觸摸己方之棋子必須走該子", "touching an own piece obliges moving it";
    ROC_2 = "ROC-2", "觸摸對方棋子必須吃掉", "touching an enemy piece obliges capturing it";
    ROC_3 = "ROC-3", "同時觸摸雙方棋子", "touching pieces of both sides";
    ROC_4 = "ROC-4", "擺正棋子須先說明", "adjusting pieces needs an announcement";
    ROC_5 = "ROC-5", "落子無悔", "a move once made stands";
    ROC_6 = "ROC-6", "裁判可宣判限著", "the arbiter may declare a move limit";
    ROC_7 = "ROC-7", "限著每人四十步，例和三十步", "move limit: 40 moves each, 30 in a book draw";
    ROC_8 = "ROC-8", "應照之著法只計算五著", "replies to check count at most 5";
    ROC_9 = "ROC-9", "吃將帥者勝；不解照者負", "capturing the king wins; an unanswered check loses";
    ROC_10 = "ROC-10", "困斃為勝", "stalemate wins";
    ROC_11 = "ROC-11", "和局", "draws";
    ROC_12 = "ROC-12", "循環雙方無犯例不變作和", "cycle with no violation: draw";
    ROC_13 = "ROC-13", "雙方均犯例不變作和", "both sides violate: draw";
    ROC_14 = "ROC-14", "一方犯例不變作負", "one side violates: it loses unless it changes";
    ROC_15 = "ROC-15", "長捉無根子為犯例", "perpetually chasing an unprotected piece is forbidden";
    ROC_16 = "ROC-16", "長照作負", "perpetual check loses";
    ROC_17 = "ROC-17", "一照一殺等不變作和", "one check one mate threat/chase/idle: draw";
    ROC_18 = "ROC-18", "長攔長獻長兌長挾長捉有根子作和", "perpetual block/offer/exchange/pin/chase of a protected piece: draw";
    ROC_19 = "ROC-19", "解殺還殺解照還照作和", "escape with counter-threat or counter-check: draw";
    ROC_20 = "ROC-20", "兩子長捉一子作負，一子長捉兩子作和", "two chase one: loses; one chases two: draw";
    ROC_21 = "ROC-21", "兩捉還一捉，兩捉者變著", "two chases against one: the two-chase side changes";
    ROC_22 = "ROC-22", "犯規兩次作負", "two fouls in a game lose";
    ROC_23 = "ROC-23", "擾亂對方判犯規一次", "disturbing the opponent: one foul";
    ROC_24 = "ROC-24", "炮移炮台長捉", "cannon chasing by moving screens";
    ROC_25 = "ROC-25", "車帥被車炮控制時不能長捉該車", "rook and king controlled: may not chase that rook";
    ROC_26 = "ROC-26", "步步使敵子成為無根子視同長捉", "unprotecting a still target move after move is a chase";
    ROC_27 = "ROC-27", "車被炮牽制不能離線", "a rook pinned on a line by a cannon";
    ROC_28 = "ROC-28", "訛步", "illegal moves";
    ROC_29 = "ROC-29", "露將帥、自殺棋判負", "exposing the king or suicide loses";
    ROC_30 = "ROC-30", "虛根假根不可長捉", "a false or virtual protector does not protect";
    ROC_31 = "ROC-31", "長捉有根子與同類子作和", "chasing protected or same-type pieces: draw";
    ROC_32 = "ROC-32", "未演成循環不以長捉論", "a chase that does not cycle is not perpetual";
    CXA_1 = "CXA-1", "不許單方面長將", "one-sided perpetual check is never allowed";
    CXA_2 = "CXA-2", "從沒捉到捉按捉處理", "a move that creates a chase is a chase";
    CXA_3 = "CXA-3", "下一著能在子力價值上得子者按捉處理", "a move after which the next move wins material is a chase";
    CXA_4 = "CXA-4", "用作根的子捉吃按捉處理", "a protector that attacks counts as chasing";
    CXA_5 = "CXA-5", "捉子兼具兌獻按捉處理", "a chase that also offers or exchanges is a chase";
    CXA_6 = "CXA-6", "從捉到捉按閑著處理", "a chase continued without a new chase is idle";
    CXA_7 = "CXA-7", "吃子即被將死者按閑處理", "a chase whose capture gets mated is idle";
    CXA_8 = "CXA-8", "雙方均為禁止著法不變作和", "both sides forbidden (except perpetual check): draw";
    CXA_9 = "CXA-9", "他子和帥同時捉子按捉處理", "another piece chasing together with the king is a chase";
    CXA_10 = "CXA-10", "過河兵子力價值浮動", "a crossed pawn's value floats";
    CXA_11 = "CXA-11", "互打時兵卒叫吃按捉處理", "in mutual attacks a pawn's attack is a chase";
    CXA_12 = "CXA-12", "兼具多種作用從重定性", "a move with several effects takes the heaviest";
    CXA_13 = "CXA-13", "占據防守要點附帶捉士象按閑", "occupying a key defensive point: incidental attacks are idle";
    CXA_LIMIT_1 = "CXA-LIMIT-1", "自然限着：连续60回合未吃子作和", "natural limit: 60 rounds without a capture is a draw";
}

impl RuleId {
    /// The id as text, e.g. `"AXF-D6"`.
    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// The titles of this rule.
    pub fn info(self) -> RuleInfo {
        // Every RuleId is built from the table, so the lookup always succeeds;
        // the fallback keeps this total without a panic.
        ALL_RULES
            .iter()
            .copied()
            .find(|r| r.id.0 == self.0)
            .unwrap_or(RuleInfo {
                id: self,
                title_zh: "",
                title_en: "",
            })
    }

    /// Parses a known rule id (case-insensitive, surrounding spaces ignored).
    pub fn parse(text: &str) -> Result<RuleId, UnknownRuleId> {
        let t = text.trim();
        ALL_RULES
            .iter()
            .find(|r| r.id.0.eq_ignore_ascii_case(t))
            .map(|r| r.id)
            .ok_or_else(|| UnknownRuleId(text.to_string()))
    }

    fn numbered(prefix: &str, n: u32) -> Option<RuleId> {
        RuleId::parse(&format!("{prefix}{n}")).ok()
    }

    /// `AXF-Dn` (detail rules 1..=35).
    pub fn axf_detail(n: u32) -> Option<RuleId> {
        Self::numbered("AXF-D", n)
    }

    /// `AXF-Sn` (general principles 1..=10).
    pub fn axf_general(n: u32) -> Option<RuleId> {
        Self::numbered("AXF-S", n)
    }

    /// `AXF-Pn` (ruling principles 1..=4).
    pub fn axf_principle(n: u32) -> Option<RuleId> {
        Self::numbered("AXF-P", n)
    }

    /// `AXF-Gn` (general rules of the game 1..=6).
    pub fn axf_game(n: u32) -> Option<RuleId> {
        Self::numbered("AXF-G", n)
    }

    /// `ROC-n` (1..=32).
    pub fn roc(n: u32) -> Option<RuleId> {
        Self::numbered("ROC-", n)
    }

    /// `CXA-n` (1..=13).
    pub fn cxa(n: u32) -> Option<RuleId> {
        Self::numbered("CXA-", n)
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RuleId({})", self.0)
    }
}

impl std::str::FromStr for RuleId {
    type Err = UnknownRuleId;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleId::parse(s)
    }
}

impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for RuleId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        RuleId::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_and_parse_back() {
        let mut seen = HashSet::new();
        for r in ALL_RULES {
            assert!(seen.insert(r.id.as_str()), "duplicate {}", r.id);
            assert_eq!(RuleId::parse(r.id.as_str()), Ok(r.id));
            assert!(!r.title_en.is_empty() && !r.title_zh.is_empty());
        }
    }

    #[test]
    fn numbered_families_are_complete() {
        for n in 1..=35 {
            assert!(RuleId::axf_detail(n).is_some(), "AXF-D{n}");
        }
        for n in 1..=10 {
            assert!(RuleId::axf_general(n).is_some());
        }
        for n in 1..=4 {
            assert!(RuleId::axf_principle(n).is_some());
        }
        for n in 1..=6 {
            assert!(RuleId::axf_game(n).is_some());
        }
        for n in 1..=32 {
            assert!(RuleId::roc(n).is_some(), "ROC-{n}");
        }
        for n in 1..=13 {
            assert!(RuleId::cxa(n).is_some());
        }
        assert_eq!(RuleId::axf_detail(36), None);
        assert_eq!(RuleId::axf_detail(0), None);
    }

    #[test]
    fn parse_is_case_insensitive_and_rejects_unknown() {
        assert_eq!(RuleId::parse(" axf-limit-2 "), Ok(RuleId::AXF_LIMIT_2));
        assert_eq!(RuleId::AXF_PLAY_4A.to_string(), "AXF-PLAY-4A");
        assert!(RuleId::parse("AXF-D99").is_err());
        assert_eq!(
            RuleId::AXF_D6.info().title_en,
            "one check one mate threat: draw"
        );
    }
}
