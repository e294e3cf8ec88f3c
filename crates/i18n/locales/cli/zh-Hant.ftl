# caipan 命令列在比賽中給使用者看的話（issue 33）：賽場設定的問題
# （config-*，caipan check 與 caipan serve），check 的結論（check-*），
# serve 啟動時的話（serve-*）。

## 賽場設定的問題（前面印出鍵的路徑）。
config-unknown-language = `{ $value }` 不是可用的語言：請用 zh-Hans、zh-Hant、en 或 vi（zh 即 zh-Hans）
config-unknown-rule-set = 未知的規則集 `{ $value }`（應為 axf、roc 或 cxa）
config-empty-name = 賽事名稱為空
config-not-a-date = `{ $value }` 不是日期（應為 YYYY-MM-DD）
config-not-a-time-zone = `{ $value }` 不是 IANA 時區（如 Asia/Shanghai、Europe/Paris）
config-not-a-federation = `{ $value }` 不是三個字母的協會代碼（如 CHN）
config-at-least-one = 至少應為 1
config-no-such-round = 第 { $round } 輪沒有 [[round]] 段
config-unknown-start-order = "{ $value }" 不是 "rating" 或 "listed"（序號排法）
config-player-id-length = 編號須為 1 至 { $max } 個字元
config-player-id-twice = 編號 { $id } 與 { $other } 重複
config-empty-player = 棋士姓名為空
config-rating-too-high = 等級分 { $rating } 高於 { $max }
config-pairing-not-for-kind = "{ $value }" 不適用於 kind = { $kind }（瑞士制："xiangqi" 或 "dutch"；循環賽："round-robin"）
config-tiebreak-twice = 破同分規則 "{ $code }" 列出了兩次
config-unknown-tiebreak = 未知的破同分代碼 "{ $code }"（可用：{ $known }）
config-empty-tiebreaks = 破同分列表為空；如用規則集的順序，請刪去此鍵
config-utc-offset-gone = 已不再讀取 `utc_offset = "{ $value }"`：請改為給出賽場的 IANA 時區，如 `time_zone = "Asia/Shanghai"`（夏令時間隨之自動處理）
config-draw-over-win = 和局得分多於勝局得分（{ $draw } > { $win }）
config-not-an-address = `{ $value }` 不是位址（應如 { $example }）
config-empty-path = 路徑為空
config-seconds-too-large = { $value } 秒過大
config-minutes-too-large = { $value } 分鐘太大
config-broadcast-listen-missing = 缺少此鍵：請給出公開監聽位址，如 0.0.0.0:8080（或刪去 [broadcast] 段）
config-seconds-out-of-range = { $value } 超出範圍：應為 0 至 { $max } 秒
config-either-or = { $first } 與 { $second } 只能給出一個
config-at-most = 至多應為 { $max }
config-check-cap-over-plies = 計入的將軍步數多於限著步數（{ $cap } > { $plies }）
config-cycles-after-order = 應為 1（000 (G)3：再循環一次，預設）或 3（AXF-G3 的表述：再循環三次），不能是 { $value }
config-no-rounds = 沒有 [[round]] 段：至少應給出目前這一輪
config-round-zero = 輪次從 1 開始編號
config-round-beyond-planned = 第 { $round } 輪超出 tournament.rounds_planned = { $planned }
config-round-twice = 第 { $round } 輪與 { $other } 重複
config-not-a-time = `{ $value }` 不是時間（應為 HH:MM）
config-round-no-tables = 本輪沒有台次
config-id-two-names = 編號 { $id } 在此處給了 { $name }，在 { $at } 給了 { $other }
config-id-missing-here = { $name } 在此處沒有編號，在別處卻有 { $ids }：請在每一輪都給出編號
config-empty-id = 編號為空：請刪去此鍵
config-id-too-long = 編號 `{ $id }` 超過 { $max } 個字元（TRF 第 58-68 欄）
config-id-spaces = 編號 { $id } 含有空格或控制字元
config-table-out-of-range = 台號 { $table } 超出範圍 1..={ $max }
config-table-twice = 台號 { $table } 重複（另見 { $other }）
config-player-twice = { $name } 已經在 { $other } 對弈
config-plays-itself = { $name } 不能與自己對弈
config-teams-needed = 團體賽（tournament.team_match）須給出雙方隊名
config-no-token = 沒有權杖（請給出 token、token_file 或 token_env）
config-token-forms = `{ $what }`、`{ $what }_file` 與 `{ $what }_env` 只能給出一個
config-env-not-set = 環境變數 { $var } 未設定
config-empty-token = 權杖為空
config-token-too-short = 權杖太短（{ $bytes } 位元組；至少 { $min }）
config-token-spaces = 權杖含有空白或控制字元
config-same-token = 與 { $other } 的權杖相同（每個權杖必須唯一）
config-empty-account-name = 名稱為空
config-name-twice = 名稱 { $name } 已被 { $other } 使用
config-no-tables-assigned = 沒有分配台次
config-table-not-in-round = 第 { $table } 台不在第 { $round } 輪中
config-table-listed-twice = 第 { $table } 台列出了兩次
config-not-a-table-number = "{ $value }" 不是台號
config-ranges-empty-part = "{ $ranges }" 中有空的部分（範圍）
config-range-backwards = 範圍 { $range } 是倒序的（應寫為 { $low }-{ $high }）
config-ranges-table-twice = 第 { $table } 台在 "{ $ranges }" 中出現兩次
config-ranges-no-table = "{ $ranges }" 不含第 { $round } 輪的任何台次
config-tables-without-deputy = 第 { $round } 輪：第 { $tables } 台沒有副裁判（設定的 deputies_cover_all_tables 要求每台都有一位）
config-table-two-tokens = 第 { $table } 台有兩個權杖
config-derived-token-equals = 衍生的權杖與 { $other } 相同
config-table-no-token = 第 { $table } 台沒有權杖（請給出 [[credentials.table]] 或 credentials.table_secret）
config-store-no-url = 沒有指定資料庫：請給出 `url`、`url_env` 或 `url_file` 之一（用 SQLite 則刪去 [store] 段）
config-store-url-forms = `url`、`url_env` 與 `url_file` 只能給出一個
config-empty-store-id = 識別碼為空
config-store-id-form = 至多 { $max } 位元組，且不含控制字元
config-empty-url = URL 為空
config-not-a-postgres-url = 並非 PostgreSQL 的 URL（postgres://user@host:port/database）
config-clock-not-positive = 必須大於 0
config-clock-no-periods = 至少需要一個時段
config-clock-periods-increase = 各時段的步數與分鐘數必須逐段遞增
config-clock-empty-block = 加時段的步數與分鐘數必須大於 0
config-clock-base-twice = base_minutes 與 base_seconds 只能給出一個
config-clock-too-large = 數值太大
config-clock-sudden-death-increment = sudden_death 沒有加秒（請用 kind = "fischer"）
config-clock-sudden-death-no-base = sudden_death 需要基本用時
config-clock-traditional-base = 傳統計時用時段，不用基本用時或加秒
config-clock-unknown-kind = "{ $value }" 不是 "fischer"、"sudden_death"、"rapid"、"blitz"、"traditional" 其中之一
config-clock-traditional-keys = periods 與 block_* 只用於 kind = "traditional"
config-clock-internal-default = 缺少內建預設值
config-clock-too-many-moves = 步數太多（時段）
config-clock-too-many-minutes = 分鐘數太多
# TOML 錯誤：$detail 是 toml 函式庫自己的話（只有英文：解析器的原文，不由我們翻譯），原樣給出。
config-toml-at = TOML 錯誤，第 { $line } 行第 { $column } 欄：{ $detail }
config-toml = TOML 錯誤：{ $detail }
# 讀不了的檔案：$why 是 config-io-* 之一。
config-cannot-read = 無法讀取設定檔 { $path }：{ $why }
config-cannot-read-token-file = 無法讀取權杖檔 { $path }：{ $why }
config-cannot-read-url-file = 無法讀取 URL 檔 { $path }：{ $why }
config-io-not-found = 檔案或資料夾不存在
config-io-permission-denied = 沒有存取權限
# $detail 是作業系統自己的話。
config-io-other = 系統錯誤：{ $detail }

## caipan check。
check-problems-found = { $file }：發現 { $count } 個問題；未啟動服務
check-valid = { $file }：設定有效

## caipan serve。
serve-config = 設定 { $file }
