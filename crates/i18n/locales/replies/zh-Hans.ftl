# caipan 回复：简体中文 (zh-Hans)。服务器拒绝请求的理由（协议 8 的 ErrorReply）、
# 错误代码，以及权限表所称的操作。规则用语见 docs/glossary.md。

## 错误代码

code-bad-frame = 数据帧无效
code-too-large = 数据帧过大
code-bad-version = 协议版本不受支持
code-unauthenticated = 身份未认证
code-forbidden = 无权操作
code-wrong-table = 台号不符
code-conflict = 记录冲突
code-illegal-move = 着法违规
code-not-found = 未找到
code-invalid = 请求无效
code-unexpected = 消息不合时
code-unavailable = 暂不可用
code-internal = 服务器内部错误

## 连接

reply-bad-version = 服务器只接受协议版本 { $server }
reply-hello-first = 第一条消息必须是握手（hello）
reply-hello-again = 已收到握手，不能重复
reply-frame-too-large = 数据帧 { $len } 字节，超过 { $limit } 字节的上限；连接已关闭
reply-malformed-frame = 数据帧格式错误
reply-unknown-token = 令牌无效
reply-too-many-connections = 此令牌的连接过多：已有 { $limit } 个，上限为 { $limit } 个（server.connections_per_token）；请先关闭一个
reply-does-not-fit = 回复超出一个数据帧：{ $error }
reply-stopping = 服务器正在停止
reply-not-stored-stopping = 服务器未能保存此请求，正在停止
reply-stopped-before-storing = 服务器在保存此请求前已停止
reply-seq-from-one = 序号从 1 开始
reply-conflict-sent = 同一序号发送了不同内容
reply-conflict-stored = 同一序号已保存不同内容
reply-behind = 第 { $epoch } 段的序号 { $seq } 落后于本台的已存位置 { $high-epoch }/{ $high-seq }，且从未保存
reply-out-of-order = 顺序错误：第 { $table } 台第 { $epoch } 段应为序号 { $expected }，收到 { $got }
reply-server-error = 服务器错误：{ $error }

## 服务器自行回答的指令

reply-table-log-too-large = 第 { $table } 台的记录超出一个数据帧
reply-pairing-other-hall = 本赛场不编排：本赛事各轮由赛场{ $hall }编排并发布
reply-round-not-over-in-hall = 赛场{ $hall }：第{ $round }轮未结束（尚无结果的台次：{ $tables }）
reply-pairing-failed = 编排失败：{ $why }
reply-publish-no-tokens = 第 { $round } 轮：台 { $tables } 没有令牌（赛场的台令牌只覆盖配置中的台）
reply-subscribe-paced = { $who } 订阅过于频繁：一次最多 { $burst } 个，之后每 { $every } 秒一个；请 { $wait } 秒后再订阅
reply-snapshot-too-large = 赛场快照（{ $tables } 台）超出一个数据帧：{ $error }；未订阅
reply-snapshot-too-large-unsubscribed = 赛场快照（{ $tables } 台）超出一个数据帧：{ $error }；已取消订阅
reply-export-failed = 导出失败：{ $error }
reply-not-sent = 未发送：{ $why }
# The link's own words (a transport error: QUIC, TLS, I/O), as its crates give them.
reply-link-words = { $words }

## 赛场拒绝的理由

refusal-no-table = 没有第 { $table } 台
refusal-no-table-in-round = 本轮没有第 { $table } 台
refusal-no-claim = 第 { $table } 台没有申诉 { $claim }
refusal-no-alert = 没有警报 { $alert }
refusal-game-over = 第 { $table } 台：对局已结束
refusal-already-paused = 第 { $table } 台已经暂停
refusal-not-paused = 第 { $table } 台未暂停
refusal-is-sealed = 第 { $table } 台已封棋
refusal-hall-already-paused = 全场已经暂停
refusal-hall-not-paused = 全场未暂停
refusal-cannot-seal = 第 { $table } 台现在不能封棋
refusal-illegal-sealed-move = 封棋着法 { $move } 在第 { $table } 台不合规则
refusal-not-sealed = 第 { $table } 台未封棋
refusal-already-ruled = 申诉 { $claim } 已经裁决；如要改判请写明理由
refusal-lapsed = 申诉 { $claim } 已失效；如要另行裁决请写明理由
refusal-no-reason = 改判必须写明理由
refusal-no-order = 第 { $table } 台：此处不能下变着令：{ $why }
refusal-no-declared-limit = { $rules } 规则没有宣判限著（适用其自然限着）
refusal-round-not-over = 第 { $round } 轮尚未结束：台 { $tables } 没有结果
refusal-bad-round = 第 { $round } 轮不能发布：{ $why }
refusal-bad-withdrawal = 第 { $round } 轮不能撤回：{ $why }
refusal-bad-entry = 不能补报 { $name }：{ $why }
refusal-bad-player-withdrawal = 棋手 { $player } 不能退赛：{ $why }
refusal-bad-correction = 第{ $round }轮第{ $table }台：成绩不能更正：{ $why }
refusal-no-move-limit = 第 { $table } 台没有宣判限著

## 权限表

role-viewer-read-only = 观众只能查看：不允许{ $action }
role-table-other-table = 第 { $own } 台的终端不能为第 { $table } 台报告{ $kind }
role-table-only-events = 台终端只报告本台的事件：不允许{ $action }
role-deputy-not-assigned = 第 { $table } 台不归副裁判 { $deputy } 负责（负责：{ $assigned }）
role-assigned-none = 无
role-deputy-table-event = { $kind }是台终端的事件；副裁判应记录犯规或判定结果
role-deputy-no-table = 台的指令缺少台号
role-deputy-chief-ruling = 只有裁判长才能改判裁判长的裁决（副裁判 { $deputy }）
role-deputy-other-deputy = 副裁判 { $deputy } 不能改判副裁判 { $by } 的裁决：应由裁判长改判
role-deputy-hall-alert = 全场警报由裁判长确认
role-deputy-chief-only = 只有裁判长才能{ $action }（副裁判 { $deputy }）
role-deputy-export = 只有裁判长才能导出成绩
role-deputy-pair-round = 只有裁判长才能编排并发布下一轮（副裁判 { $deputy }）
role-deputy-correct-result = 只有裁判长才能更正前一轮的成绩（副裁判 { $deputy }）
action-correct-result = 更正前一轮的成绩
role-deputy-withdraw-round = 只有裁判长才能撤回已发布的一轮（副裁判 { $deputy }）
action-withdraw-round = 撤回已发布的一轮
role-deputy-enter-player = 只有裁判长才能补报棋手（副裁判 { $deputy }）
action-enter-player = 补报棋手
role-deputy-withdraw-player = 只有裁判长才能办理棋手退赛（副裁判 { $deputy }）
action-withdraw-player = 办理棋手退赛
role-deputy-cannot = 副裁判 { $deputy } 不能{ $action }

## 权限表所称的操作与台事件

action-subscribe = 订阅
action-pause-table = 暂停本台
action-resume-table = 恢复本台
action-pause-hall = 全场暂停
action-resume-hall = 全场恢复
action-seal = 封棋
action-unseal = 启封续赛
action-rule-on-claim = 裁决申诉
action-override-ruling = 改判
action-record-foul = 记录犯规
action-adjust-clock = 调整时钟
action-set-result = 判定结果
action-ack-alert = 确认警报
action-export = 导出
action-pair-round = 编排下一轮
action-arrived = 到场
action-clock-press = 按钟
action-move = 着法
action-claim-natural-limit = 自然限着申诉
action-claim-repetition = 棋例申诉
action-draw-offer = 提和
action-draw-accept = 同意和棋
action-resign = 认负
action-call-arbiter = 呼叫裁判
action-foul-report = 犯规报告
action-result = 结果
action-sealed-move = 封棋着法
action-command-ack = 指令回执

## 与其他提示同列的拒绝（台终端的状态行）

reply-refused = 服务器拒绝：{ $why }（{ $code }）

## 裁判的指令，台终端上的显示

control-paused = { $by } 暂停计时：{ $reason }
control-resumed = { $by } 恢复计时
control-adjusted = { $by } 调整时钟：{ $reason }
control-sealed = 封棋（{ $by }）
control-unsealed = { $by } 启封：封棋着法 { $move }
control-unsealed-illegal = { $by } 启封：封棋着法 { $move } 在此不合规则，由裁判决定
control-result = { $by } 判定结果：{ $result }，{ $why }（{ $reason }）
control-taken-back = { $by } 退回一着：{ $reason }
control-move-limit = { $by } 宣判限著：每方 { $moves } 着
control-move-limit-cancelled = { $by } 取消限著
control-order = { $by } 的裁决：{ $order }

## 拒绝的理由（why-*），嵌在 refusal-bad-* 与 reply-pairing-failed 之中。
# why-words：数据库、编排引擎或系统自己的错误原文，原样给出。
why-round-not-next = 赛场正在进行第 { $playing } 轮；只能发布第 { $next } 轮
why-boards-count = { $boards } 台（允许 1 至 { $max } 台）
why-changes-count = { $changes } 处改动（至多 { $max } 处）
why-change-no-reason = 改动 { $change } 没有理由
why-a-reason-too-long = 有一条理由超过 { $max } 字节
why-table-twice-or-zero = 台号 { $table } 重复或为 0
why-name-too-long = 第 { $table } 台：姓名超过 { $max_name } 字节或编号超过 { $max_id } 个字符
why-player-no-name = 第 { $table } 台：有棋手没有姓名
why-plays-twice = { $name } 被排了两次
why-bye-plays = { $name } 既轮空又有对局
why-withdraw-not-current = 赛场正在进行第 { $playing } 轮：只能撤回正在进行的一轮
why-round-started = 本轮已开始（第 { $tables } 台已有着法、已开钟或已有结果）
why-config-round = 本轮不是从控制台发布的（配置中的轮次不能撤回）
why-reason-required = 必须给出理由
why-reason-too-long = 理由超过 { $max } 字节
why-no-round-before = 上一轮的记录不在手边
why-correct-earlier = 赛场正在进行第 { $playing } 轮：只能更正之前轮次的结果（本轮的对局：直接判定其结果）
why-no-table-zero = 没有第 0 台
why-field-empty = { $field }为空
why-field-too-long = { $field }超过 { $max } 字节
why-field-control = { $field }含有控制字符
why-field-name = 姓名
why-field-registration-id = 注册编号
why-field-federation = 协会
why-field-club = 俱乐部
why-field-player = 棋手
why-field-reason = 理由
why-player-not-after = 第 { $round } 轮不在正在进行的一轮（{ $playing }）之后：棋手从下一轮起退赛（如要重新编排，请先撤回已发布的一轮）
why-player-already = { $key } 已是本赛事的棋手
why-no-such-player = 本赛事没有这个注册编号（或姓名）的棋手
why-withdrawn-already = 已从第 { $round } 轮起退赛
why-not-a-round-of-hall = 第 { $round } 轮不在本赛场的轮次之中
why-no-game-at-table = 第 { $round } 轮在第 { $table } 台没有对局（该轮的台次：{ $tables }）
why-words = { $words }
# why-pairing-*: the pairing engine's errors, nested in reply-pairing-failed.
why-pairing-too-few-players = 第 { $round } 轮：到场棋手 { $present } 名，至少需要 2 名
why-pairing-none = 第 { $round } 轮：不重复对局、不违反禁止对阵就无法编排
why-pairing-round-robin-size = 循环赛：{ $players } 名棋手：贝格尔表只适用于 { $min } 至 { $max } 名棋手
why-pairing-round-robin-round = 循环赛：第 { $round } 轮：{ $players } 名棋手的循环赛只有第 1 至 { $rounds } 轮
why-pairing-not-next = 第 { $asked } 轮：已有第 1 至 { $held } 轮的记录，只能编排第 { $next } 轮
why-pairing-too-few-tables = 第 { $round } 轮有 { $boards } 台对局，本赛场只有 { $count } 张棋台（{ $tables }）
# why-no-cycle, why-order-illegal-move (why-illegal-*): the rulebook's reasons nested in refusal-no-order.
why-no-cycle = 自上次吃子至第 { $ply } 步（含）为止，没有局面出现三次：没有可下令的循环
why-order-illegal-move = 第 { $ply } 步着法 { $move } 违规：{ $reason }
why-illegal-empty-square = 起点没有棋子
why-illegal-not-your-piece = 该棋子属于非行棋方
why-illegal-own-piece = 目标位置有己方的棋子
why-illegal-cannot-move-there = 该棋子不能走到那里
why-illegal-leaves-check = 该着法使己方将帅被将
why-illegal-kings-facing = 该着法造成将帅在无子的直线上对面
