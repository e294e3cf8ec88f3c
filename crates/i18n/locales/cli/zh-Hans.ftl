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
config-unknown-start-order = "{ $value }" 不是 "rating" 或 "listed"
config-player-id-length = 编号须为 1 至 { $max } 个字符
config-player-id-twice = 编号 { $id } 与 { $other } 重复
config-empty-player = 棋手姓名为空
config-rating-too-high = 等级分 { $rating } 高于 { $max }
config-pairing-not-for-kind = "{ $value }" 不适用于 kind = { $kind }（瑞士制："xiangqi" 或 "dutch"；循环赛："round-robin"）
config-tiebreak-twice = 破同分规则 "{ $code }" 列出了两次
config-unknown-tiebreak = 未知的破同分代码 "{ $code }"（可用：{ $known }）
config-empty-tiebreaks = 破同分列表为空；如用规则集的顺序，请删去此键
config-utc-offset-gone = 已不再读取 `utc_offset = "{ $value }"`：请改为给出赛场的 IANA 时区，如 `time_zone = "Asia/Shanghai"`（夏令时随之自动处理）
config-draw-over-win = 和局得分多于胜局得分（{ $draw } > { $win }）
config-not-an-address = `{ $value }` 不是地址（应如 { $example }）
config-empty-path = 路径为空
config-seconds-too-large = { $value } 秒太大
config-minutes-too-large = { $value } 分钟太大
config-broadcast-listen-missing = 缺少此键：请给出公开监听地址，如 0.0.0.0:8080（或删去 [broadcast] 段）
config-seconds-out-of-range = { $value } 超出范围：应为 0 至 { $max } 秒
config-either-or = { $first } 与 { $second } 只能给出一个
config-at-most = 至多应为 { $max }
config-check-cap-over-plies = 计入的将军步数多于限着步数（{ $cap } > { $plies }）
config-cycles-after-order = 应为 1（000 (G)3：再循环一次，默认）或 3（AXF-G3 的表述：再循环三次），不能是 { $value }
config-no-rounds = 没有 [[round]] 段：至少应给出当前轮
config-round-zero = 轮次从 1 开始编号
config-round-beyond-planned = 第 { $round } 轮超出 tournament.rounds_planned = { $planned }
config-round-twice = 第 { $round } 轮与 { $other } 重复
config-not-a-time = `{ $value }` 不是时间（应为 HH:MM）
config-round-no-tables = 本轮没有台次
config-id-two-names = 编号 { $id } 在此处给了 { $name }，在 { $at } 给了 { $other }
config-id-missing-here = { $name } 在此处没有编号，在别处却有 { $ids }：请在每一轮都给出编号
config-empty-id = 编号为空：请删去此键
config-id-too-long = 编号 `{ $id }` 超过 { $max } 个字符（TRF 第 58-68 列）
config-id-spaces = 编号 { $id } 含有空格或控制字符
config-table-out-of-range = 台号 { $table } 超出范围 1..={ $max }
config-table-twice = 台号 { $table } 重复（另见 { $other }）
config-player-twice = { $name } 已在 { $other } 下棋
config-plays-itself = { $name } 不能与自己对弈
config-teams-needed = 团体赛（tournament.team_match）须给出双方队名
config-no-token = 没有令牌（请给出 token、token_file 或 token_env）
config-token-forms = `{ $what }`、`{ $what }_file` 与 `{ $what }_env` 只能给出一个
config-env-not-set = 环境变量 { $var } 未设置
config-empty-token = 令牌为空
config-token-too-short = 令牌太短（{ $bytes } 字节；至少 { $min }）
config-token-spaces = 令牌含有空白或控制字符
config-same-token = 与 { $other } 的令牌相同（每个令牌必须唯一）
config-empty-account-name = 名称为空
config-name-twice = 名称 { $name } 已被 { $other } 使用
config-no-tables-assigned = 没有分配台次
config-table-not-in-round = 第 { $table } 台不在第 { $round } 轮中
config-table-listed-twice = 第 { $table } 台列出了两次
config-not-a-table-number = "{ $value }" 不是台号
config-ranges-empty-part = "{ $ranges }" 中有空的部分
config-range-backwards = 范围 { $range } 是倒序的（应写为 { $low }-{ $high }）
config-ranges-table-twice = 第 { $table } 台在 "{ $ranges }" 中出现两次
config-ranges-no-table = "{ $ranges }" 不含第 { $round } 轮的任何台次
config-tables-without-deputy = 第 { $round } 轮：第 { $tables } 台没有副裁判（配置的 deputies_cover_all_tables 要求每台都有一位）
config-table-two-tokens = 第 { $table } 台有两个令牌
config-derived-token-equals = 派生的令牌与 { $other } 相同
config-table-no-token = 第 { $table } 台没有令牌（请给出 [[credentials.table]] 或 credentials.table_secret）
config-store-no-url = 没有指定数据库：请给出 `url`、`url_env` 或 `url_file` 之一（用 SQLite 则删去 [store] 段）
config-store-url-forms = `url`、`url_env` 与 `url_file` 只能给出一个
config-empty-store-id = 标识为空
config-store-id-form = 至多 { $max } 字节，且不含控制字符
config-empty-url = URL 为空
config-not-a-postgres-url = 不是 PostgreSQL 的 URL（postgres://user@host:port/database）
config-clock-not-positive = 必须大于 0
config-clock-no-periods = 至少需要一个时段
config-clock-periods-increase = 各时段的步数与分钟数必须逐段递增
config-clock-empty-block = 加时段的步数与分钟数必须大于 0
config-clock-base-twice = base_minutes 与 base_seconds 只能给出一个
config-clock-too-large = 数值太大
config-clock-sudden-death-increment = sudden_death 没有加秒（请用 kind = "fischer"）
config-clock-sudden-death-no-base = sudden_death 需要基本用时
config-clock-traditional-base = 传统计时用时段，不用基本用时或加秒
config-clock-unknown-kind = "{ $value }" 不是 "fischer"、"sudden_death"、"rapid"、"blitz"、"traditional" 之一
config-clock-traditional-keys = periods 与 block_* 只用于 kind = "traditional"
config-clock-internal-default = 缺少内置默认值
config-clock-too-many-moves = 步数太多
config-clock-too-many-minutes = 分钟数太多
# TOML 错误：$detail 是 toml 库自己的话（只有英文：解析器的原文，不由我们翻译），原样给出。
config-toml-at = TOML 错误，第 { $line } 行第 { $column } 列：{ $detail }
config-toml = TOML 错误：{ $detail }
# 读不了的文件：$why 是 config-io-* 之一。
config-cannot-read = 无法读取配置文件 { $path }：{ $why }
config-cannot-read-token-file = 无法读取令牌文件 { $path }：{ $why }
config-cannot-read-url-file = 无法读取 URL 文件 { $path }：{ $why }
config-io-not-found = 文件或文件夹不存在
config-io-permission-denied = 没有访问权限
# $detail 是操作系统自己的话。
config-io-other = 系统错误：{ $detail }

## caipan check。
check-problems-found = { $file }：发现 { $count } 个问题；未启动服务
check-valid = { $file }：配置有效

## caipan serve。
serve-config = 配置 { $file }
