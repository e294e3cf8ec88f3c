# Lời của dòng lệnh caipan mà người dùng đọc trong ván đấu (issue 33):
# các lỗi của tệp cấu hình giải (config-*, caipan check và caipan serve),
# kết luận của check (check-*), lời khởi động của serve (serve-*).

## Các lỗi của tệp cấu hình (đường dẫn khóa in trước).
config-unknown-language = `{ $value }` không phải là ngôn ngữ: hãy dùng zh-Hans, zh-Hant, en hoặc vi (zh là zh-Hans)
config-unknown-rule-set = bộ luật `{ $value }` không rõ (cần là axf, roc hoặc cxa)
config-empty-name = tên giải đấu để trống
config-not-a-date = `{ $value }` không phải là ngày (YYYY-MM-DD)
config-not-a-time-zone = `{ $value }` không phải là múi giờ IANA như Asia/Shanghai hoặc Europe/Paris
config-not-a-federation = `{ $value }` không phải là mã liên đoàn ba chữ cái như CHN
config-at-least-one = phải ít nhất là 1
config-no-such-round = vòng { $round } không có mục [[round]]
config-unknown-start-order = "{ $value }" không phải là "rating" hay "listed"
config-player-id-length = cần mã số dài từ 1 đến { $max } ký tự
config-player-id-twice = mã số { $id } trùng với { $other }
config-empty-player = tên kỳ thủ để trống
config-rating-too-high = hệ số { $rating } cao hơn { $max }
config-pairing-not-for-kind = "{ $value }" không hợp với kind = { $kind } (hệ Thụy Sĩ: "xiangqi" hoặc "dutch"; vòng tròn: "round-robin")
config-tiebreak-twice = chỉ số phụ "{ $code }" được liệt kê hai lần
config-unknown-tiebreak = mã chỉ số phụ "{ $code }" không rõ (các mã dùng được: { $known })
config-empty-tiebreaks = danh sách chỉ số phụ để trống; hãy bỏ khóa này để dùng thứ tự của bộ luật
config-utc-offset-gone = `utc_offset = "{ $value }"` không còn được đọc: hãy cho múi giờ IANA của phòng đấu, ví dụ `time_zone = "Asia/Shanghai"` (giờ mùa hè khi đó được tính tự động)
config-draw-over-win = điểm hòa nhiều hơn điểm thắng ({ $draw } > { $win })
config-not-an-address = `{ $value }` không phải là địa chỉ dạng { $example }
config-empty-path = đường dẫn để trống
config-seconds-too-large = { $value } giây là quá lớn
config-minutes-too-large = { $value } phút là quá lớn
config-broadcast-listen-missing = thiếu khóa này: hãy cho địa chỉ nghe công khai, như 0.0.0.0:8080 (hoặc bỏ mục [broadcast])
config-seconds-out-of-range = { $value } nằm ngoài khoảng cho phép: từ 0 đến { $max } giây
config-either-or = chỉ cho một trong hai khóa { $first } và { $second }
config-at-most = phải nhiều nhất là { $max }
config-check-cap-over-plies = số nước chiếu được tính nhiều hơn số nước của giới hạn ({ $cap } > { $plies })
config-cycles-after-order = phải là 1 (000 (G)3: 再循环一次 — lặp thêm một vòng, mặc định) hoặc 3 (theo lời AXF-G3: thêm ba vòng), không được là { $value }
config-no-rounds = không có mục [[round]]: hãy cho ít nhất vòng đang đấu
config-round-zero = số vòng bắt đầu từ 1
config-round-beyond-planned = vòng { $round } vượt quá tournament.rounds_planned = { $planned }
config-round-twice = vòng { $round } trùng với { $other }
config-not-a-time = `{ $value }` không phải là giờ (HH:MM)
config-round-no-tables = vòng đấu không có bàn nào
config-id-two-names = mã số { $id } ở đây được cho { $name }, còn ở { $at } lại cho { $other }
config-id-missing-here = { $name } ở đây không có mã số nhưng ở chỗ khác có { $ids }: hãy cho mã số trong mọi vòng
config-empty-id = mã số để trống: hãy bỏ khóa này
config-id-too-long = mã số `{ $id }` dài hơn { $max } ký tự (cột 58-68 của TRF)
config-id-spaces = mã số { $id } có khoảng trắng hoặc ký tự điều khiển
config-table-out-of-range = bàn { $table } nằm ngoài khoảng 1..={ $max }
config-table-twice = bàn { $table } bị trùng (cũng ở { $other })
config-player-twice = { $name } đã đấu ở { $other }
config-plays-itself = { $name } không thể đấu với chính mình
config-teams-needed = giải đồng đội (tournament.team_match) cần tên cả hai đội
config-no-token = không có mã truy cập (hãy cho token, token_file hoặc token_env)
config-token-forms = chỉ cho một trong `{ $what }`, `{ $what }_file` và `{ $what }_env`
config-env-not-set = biến môi trường { $var } chưa được đặt
config-empty-token = mã truy cập để trống
config-token-too-short = mã truy cập quá ngắn ({ $bytes } byte; ít nhất { $min })
config-token-spaces = mã truy cập có khoảng trắng hoặc ký tự điều khiển
config-same-token = trùng mã truy cập với { $other } (mỗi mã phải là duy nhất)
config-empty-account-name = tên để trống
config-name-twice = tên { $name } đã được { $other } dùng
config-no-tables-assigned = chưa được giao bàn nào
config-table-not-in-round = bàn { $table } không có trong vòng { $round }
config-table-listed-twice = bàn { $table } được liệt kê hai lần
config-not-a-table-number = "{ $value }" không phải là số bàn
config-ranges-empty-part = có một phần để trống trong "{ $ranges }"
config-range-backwards = khoảng { $range } bị ngược (hãy viết { $low }-{ $high })
config-ranges-table-twice = bàn { $table } xuất hiện hai lần trong "{ $ranges }"
config-ranges-no-table = "{ $ranges }" không gồm bàn nào của vòng { $round }
config-tables-without-deputy = vòng { $round }: các bàn { $tables } không có phó trọng tài (khóa deputies_cover_all_tables của cấu hình đòi mỗi bàn có một người)
config-table-two-tokens = bàn { $table } có hai mã truy cập
config-derived-token-equals = mã truy cập suy ra trùng với { $other }
config-table-no-token = bàn { $table } không có mã truy cập (hãy cho [[credentials.table]] hoặc credentials.table_secret)
config-store-no-url = chưa chỉ định cơ sở dữ liệu: hãy cho một trong `url`, `url_env` và `url_file` (hoặc bỏ mục [store] để dùng SQLite)
config-store-url-forms = chỉ cho một trong `url`, `url_env` và `url_file`
config-empty-store-id = mã định danh để trống
config-store-id-form = nhiều nhất { $max } byte, không có ký tự điều khiển
config-empty-url = URL để trống
config-not-a-postgres-url = không phải là URL của PostgreSQL (postgres://user@host:port/database)
config-clock-not-positive = phải lớn hơn 0
config-clock-no-periods = cần ít nhất một giai đoạn
config-clock-periods-increase = số nước và số phút phải tăng dần qua các giai đoạn
config-clock-empty-block = số nước và số phút của khối thời gian phải lớn hơn 0
config-clock-base-twice = chỉ cho một trong base_minutes và base_seconds
config-clock-too-large = giá trị quá lớn
config-clock-sudden-death-increment = sudden_death không có thời gian cộng thêm (hãy dùng kind = "fischer")
config-clock-sudden-death-no-base = sudden_death cần thời gian cơ bản
config-clock-traditional-base = kiểu truyền thống dùng các giai đoạn, không dùng thời gian cơ bản hay thời gian cộng thêm
config-clock-unknown-kind = "{ $value }" không phải là một trong "fischer", "sudden_death", "rapid", "blitz", "traditional"
config-clock-traditional-keys = periods và block_* chỉ dùng cho kind = "traditional"
config-clock-internal-default = thiếu giá trị mặc định dựng sẵn
config-clock-too-many-moves = quá nhiều nước
config-clock-too-many-minutes = quá nhiều phút
# Lỗi TOML: $detail là lời của thư viện toml (chỉ có tiếng Anh: lời của bộ phân tích, không do chúng tôi dịch), giữ nguyên.
config-toml-at = lỗi TOML ở dòng { $line }, cột { $column }: { $detail }
config-toml = lỗi TOML: { $detail }
# Tệp không đọc được: $why là một trong config-io-*.
config-cannot-read = không đọc được tệp cấu hình { $path }: { $why }
config-cannot-read-token-file = không đọc được tệp mã truy cập { $path }: { $why }
config-cannot-read-url-file = không đọc được tệp URL { $path }: { $why }
config-io-not-found = không có tệp hoặc thư mục này
config-io-permission-denied = không có quyền truy cập
# $detail là lời của hệ điều hành.
config-io-other = lỗi hệ thống: { $detail }

## caipan check.
check-problems-found = { $file }: tìm thấy { $count } lỗi; máy chủ chưa được khởi động
check-valid = { $file }: cấu hình hợp lệ

## caipan serve.
serve-config = cấu hình { $file }
