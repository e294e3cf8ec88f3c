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

## caipan check。
check-problems-found = { $file }：發現 { $count } 個問題；未啟動服務
check-valid = { $file }：設定有效

## caipan serve。
serve-config = 設定 { $file }
