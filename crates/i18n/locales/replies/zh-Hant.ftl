# caipan 回覆：繁體中文 (zh-Hant)。伺服器拒絕請求的理由（協定 8 的 ErrorReply）、
# 錯誤代碼，以及權限表所稱的操作。規則用語依中華民國象棋規則原文，見 docs/glossary.md。

## 錯誤代碼

code-bad-frame = 資料框無效
code-too-large = 資料框過大
code-bad-version = 協定版本不受支援
code-unauthenticated = 身分未認證
code-forbidden = 無權操作
code-wrong-table = 台號不符
code-conflict = 紀錄衝突
code-illegal-move = 著法違規
code-not-found = 找不到
code-invalid = 請求無效
code-unexpected = 訊息不合時
code-unavailable = 暫時無法使用
code-internal = 伺服器內部錯誤

## 連線

reply-bad-version = 伺服器只接受協定版本 { $server }
reply-hello-first = 第一則訊息必須是交握（hello）
reply-hello-again = 已收到交握，不能重複
reply-frame-too-large = 資料框 { $len } 位元組，超過 { $limit } 位元組的上限；連線已關閉
reply-malformed-frame = 資料框格式錯誤
reply-unknown-token = 權杖無效
reply-too-many-connections = 此權杖的連線過多：已有 { $limit } 條，上限為 { $limit } 條（server.connections_per_token）；請先關閉一條
reply-does-not-fit = 回覆超出一個資料框：{ $error }
reply-stopping = 伺服器正在停止
reply-not-stored-stopping = 伺服器未能儲存此請求，正在停止
reply-stopped-before-storing = 伺服器在儲存此請求前已停止
reply-seq-from-one = 序號從 1 開始
reply-conflict-sent = 同一序號送出了不同內容
reply-conflict-stored = 同一序號已儲存不同內容
reply-behind = 第 { $epoch } 段的序號 { $seq } 落後於本台的已存位置 { $high-epoch }/{ $high-seq }，且從未儲存
reply-out-of-order = 順序錯誤：第 { $table } 台第 { $epoch } 段應為序號 { $expected }，收到 { $got }
reply-server-error = 伺服器錯誤：{ $error }

## 伺服器自行回答的指令

reply-table-log-too-large = 第 { $table } 台的紀錄超出一個資料框
reply-pairing-other-hall = 本賽場不編排：本賽事各輪由賽場{ $hall }編排並發布
reply-round-not-over-in-hall = 賽場{ $hall }：第{ $round }輪未結束（尚無結果的台次：{ $tables }）
reply-pairing-failed = 編排失敗：{ $why }
reply-publish-no-tokens = 第 { $round } 輪：台 { $tables } 沒有權杖（賽場的台權杖只涵蓋設定中的台）
reply-subscribe-paced = { $who } 訂閱過於頻繁：一次最多 { $burst } 個，之後每 { $every } 秒一個；請 { $wait } 秒後再訂閱
reply-snapshot-too-large = 賽場快照（{ $tables } 台）超出一個資料框：{ $error }；未訂閱
reply-snapshot-too-large-unsubscribed = 賽場快照（{ $tables } 台）超出一個資料框：{ $error }；已取消訂閱
reply-export-failed = 匯出失敗：{ $error }
reply-not-sent = 未送出：{ $why }
# The link's own words (a transport error: QUIC, TLS, I/O), as its crates give them.
reply-link-words = { $words }

## 賽場拒絕的理由

refusal-no-table = 沒有第 { $table } 台
refusal-no-table-in-round = 本輪沒有第 { $table } 台
refusal-no-claim = 第 { $table } 台沒有申訴 { $claim }
refusal-no-alert = 沒有警報 { $alert }
refusal-game-over = 第 { $table } 台：對局已結束
refusal-already-paused = 第 { $table } 台已經暫停
refusal-not-paused = 第 { $table } 台未暫停
refusal-is-sealed = 第 { $table } 台已封棋
refusal-hall-already-paused = 全場已經暫停
refusal-hall-not-paused = 全場未暫停
refusal-cannot-seal = 第 { $table } 台現在不能封棋
refusal-illegal-sealed-move = 封棋著法 { $move } 在第 { $table } 台不合規則
refusal-not-sealed = 第 { $table } 台未封棋
refusal-already-ruled = 申訴 { $claim } 已經裁決；如要改判請寫明理由
refusal-lapsed = 申訴 { $claim } 已失效；如要另行裁決請寫明理由
refusal-no-reason = 改判必須寫明理由
refusal-no-order = 第 { $table } 台：此處不能下變著令：{ $why }
refusal-no-declared-limit = { $rules } 規則沒有宣判限著（適用其自然限著）
refusal-round-not-over = 第 { $round } 輪尚未結束：台 { $tables } 沒有結果
refusal-bad-round = 第 { $round } 輪不能發布：{ $why }
refusal-bad-withdrawal = 第 { $round } 輪不能撤回：{ $why }
refusal-bad-entry = 不能補報 { $name }：{ $why }
refusal-bad-player-withdrawal = 棋手 { $player } 不能退賽：{ $why }
refusal-bad-correction = 第{ $round }輪第{ $table }台：成績不能更正：{ $why }
refusal-no-move-limit = 第 { $table } 台沒有宣判限著

## 權限表

role-viewer-read-only = 觀眾只能檢視：不允許{ $action }
role-table-other-table = 第 { $own } 台的終端不能為第 { $table } 台報告{ $kind }
role-table-only-events = 台終端只報告本台的事件：不允許{ $action }
role-deputy-not-assigned = 第 { $table } 台不歸副裁判 { $deputy } 負責（負責：{ $assigned }）
role-assigned-none = 無
role-deputy-table-event = { $kind }是台終端的事件；副裁判應記錄犯規或判定結果
role-deputy-no-table = 台的指令缺少台號
role-deputy-chief-ruling = 只有裁判長才能改判裁判長的裁決（副裁判 { $deputy }）
role-deputy-other-deputy = 副裁判 { $deputy } 不能改判副裁判 { $by } 的裁決：應由裁判長改判
role-deputy-hall-alert = 全場警報由裁判長確認
role-deputy-chief-only = 只有裁判長才能{ $action }（副裁判 { $deputy }）
role-deputy-export = 只有裁判長才能匯出成績
role-deputy-pair-round = 只有裁判長才能編排並發布下一輪（副裁判 { $deputy }）
role-deputy-correct-result = 只有裁判長才能更正前一輪的成績（副裁判 { $deputy }）
action-correct-result = 更正前一輪的成績
role-deputy-withdraw-round = 只有裁判長才能撤回已發佈的一輪（副裁判 { $deputy }）
action-withdraw-round = 撤回已發佈的一輪
role-deputy-enter-player = 只有裁判長才能補報棋手（副裁判 { $deputy }）
action-enter-player = 補報棋手
role-deputy-withdraw-player = 只有裁判長才能辦理棋手退賽（副裁判 { $deputy }）
action-withdraw-player = 辦理棋手退賽
role-deputy-cannot = 副裁判 { $deputy } 不能{ $action }

## 權限表所稱的操作與台事件

action-subscribe = 訂閱
action-pause-table = 暫停本台
action-resume-table = 恢復本台
action-pause-hall = 全場暫停
action-resume-hall = 全場恢復
action-seal = 封棋
action-unseal = 啟封續賽
action-rule-on-claim = 裁決申訴
action-override-ruling = 改判
action-record-foul = 記錄犯規
action-adjust-clock = 調整時鐘
action-set-result = 判定結果
action-ack-alert = 確認警報
action-export = 匯出
action-pair-round = 編排下一輪
action-arrived = 到場
action-clock-press = 按鐘
action-move = 著法
action-claim-natural-limit = 自然限著申訴
action-claim-repetition = 棋例申訴
action-draw-offer = 提和
action-draw-accept = 同意和棋
action-resign = 認負
action-call-arbiter = 呼叫裁判
action-foul-report = 犯規報告
action-result = 結果
action-sealed-move = 封棋著法
action-command-ack = 指令回執

## 與其他提示同列的拒絕（台終端的狀態列）

reply-refused = 伺服器拒絕：{ $why }（{ $code }）

## 裁判的指令，台終端上的顯示

control-paused = { $by } 暫停計時：{ $reason }
control-resumed = { $by } 恢復計時
control-adjusted = { $by } 調整時鐘：{ $reason }
control-sealed = 封棋（{ $by }）
control-unsealed = { $by } 啟封：封棋著法 { $move }
control-unsealed-illegal = { $by } 啟封：封棋著法 { $move } 在此不合規則，由裁判決定
control-result = { $by } 判定結果：{ $result }，{ $why }（{ $reason }）
control-taken-back = { $by } 退回一著：{ $reason }
control-move-limit = { $by } 宣判限著：每方 { $moves } 著
control-move-limit-cancelled = { $by } 取消限著
control-order = { $by } 的裁決：{ $order }

## 拒絕的理由（why-*），嵌在 refusal-bad-* 與 reply-pairing-failed 之中。
# why-words：資料庫、編排引擎或系統自己的錯誤原文，原樣給出。
why-round-not-next = 賽場正在進行第 { $playing } 輪；只能發布第 { $next } 輪
why-boards-count = { $boards } 台（允許 1 至 { $max } 台）
why-changes-count = { $changes } 處改動（至多 { $max } 處）
why-change-no-reason = 改動 { $change } 沒有理由
why-a-reason-too-long = 有一條理由超過 { $max } 位元組
why-table-twice-or-zero = 台號 { $table } 重複或為 0
why-name-too-long = 第 { $table } 台：姓名超過 { $max_name } 位元組或編號超過 { $max_id } 個字元
why-player-no-name = 第 { $table } 台：有棋士沒有姓名
why-plays-twice = { $name } 被排了兩次
why-bye-plays = { $name } 既輪空又有對局
why-withdraw-not-current = 賽場正在進行第 { $playing } 輪：只能撤回正在進行的一輪
why-round-started = 本輪已開始（第 { $tables } 台已有著法、已開鐘或已有結果）
why-config-round = 本輪不是從控制台發布的（設定中的輪次不能撤回）
why-reason-required = 必須給出理由
why-reason-too-long = 理由超過 { $max } 位元組
why-no-round-before = 上一輪的紀錄不在手邊
why-correct-earlier = 賽場正在進行第 { $playing } 輪：只能更正之前輪次的結果（本輪的對局：直接判定其結果）
why-no-table-zero = 沒有第 0 台
why-field-empty = { $field }為空
why-field-too-long = { $field }超過 { $max } 位元組
why-field-control = { $field }含有控制字元
why-field-name = 姓名
why-field-registration-id = 註冊編號
why-field-federation = 協會
why-field-club = 俱樂部
why-field-player = 棋士
why-field-reason = 理由
why-player-not-after = 第 { $round } 輪不在正在進行的一輪（{ $playing }）之後：棋士從下一輪起退賽（如要重新編排，請先撤回已發布的一輪）
why-player-already = { $key } 已是本賽事的棋士
why-no-such-player = 本賽事沒有這個註冊編號（或姓名）的棋士
why-withdrawn-already = 已從第 { $round } 輪起退賽
why-not-a-round-of-hall = 第 { $round } 輪不在本賽場的輪次之中
why-no-game-at-table = 第 { $round } 輪在第 { $table } 台沒有對局（該輪的台次：{ $tables }）
why-words = { $words }
# why-pairing-*: the pairing engine's errors, nested in reply-pairing-failed.
why-pairing-too-few-players = 第 { $round } 輪：到場棋士 { $present } 名，至少需要 2 名
why-pairing-none = 第 { $round } 輪：不重複對局、不違反禁止對陣就無法編排
why-pairing-round-robin-size = 循環賽：{ $players } 名棋士：貝格爾表只適用於 { $min } 至 { $max } 名棋士
why-pairing-round-robin-round = 循環賽：第 { $round } 輪：{ $players } 名棋士的循環賽只有第 1 至 { $rounds } 輪
why-pairing-not-next = 第 { $asked } 輪：已有第 1 至 { $held } 輪的紀錄，只能編排第 { $next } 輪
why-pairing-too-few-tables = 第 { $round } 輪有 { $boards } 台對局，本賽場只有 { $count } 張棋桌（{ $tables }）
# why-no-cycle, why-order-illegal-move (why-illegal-*): the rulebook's reasons nested in refusal-no-order.
why-no-cycle = 自上次吃子至第 { $ply } 步（含）為止，沒有局面出現三次：沒有可下令的循環
why-order-illegal-move = 第 { $ply } 步著法 { $move } 違規：{ $reason }
why-illegal-empty-square = 起點沒有棋子
why-illegal-not-your-piece = 該棋子屬於非行棋方
why-illegal-own-piece = 目標位置有己方的棋子
why-illegal-cannot-move-there = 該棋子不能走到那裡
why-illegal-leaves-check = 該著法使己方將帥被將
why-illegal-kings-facing = 該著法造成將帥在無子的直線上對面
