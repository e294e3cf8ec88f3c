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

## caipan check.
check-problems-found = { $file }: tìm thấy { $count } lỗi; máy chủ chưa được khởi động
check-valid = { $file }: cấu hình hợp lệ

## caipan serve.
serve-config = cấu hình { $file }
