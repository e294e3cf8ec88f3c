# caipan 命令行在比赛中给用户看的话（issue 33）：赛场配置的问题
# （config-*，caipan check 与 caipan serve），check 的结论（check-*），
# serve 启动时的话（serve-*）。

## 赛场配置的问题（前面印出键的路径）。
config-unknown-language = `{ $value }` 不是可用的语言：请用 zh-Hans、zh-Hant、en 或 vi（zh 即 zh-Hans）
config-unknown-rule-set = 未知的规则集 `{ $value }`（应为 axf、roc 或 cxa）
config-empty-name = 赛事名称为空
config-not-a-date = `{ $value }` 不是日期（应为 YYYY-MM-DD）
config-not-a-time-zone = `{ $value }` 不是 IANA 时区（如 Asia/Shanghai、Europe/Paris）
config-not-a-federation = `{ $value }` 不是三个字母的协会代码（如 CHN）
config-at-least-one = 至少应为 1
config-no-such-round = 第 { $round } 轮没有 [[round]] 段

## caipan check。
check-problems-found = { $file }：发现 { $count } 个问题；未启动服务
check-valid = { $file }：配置有效

## caipan serve。
serve-config = 配置 { $file }
