# caipan trả lời: tiếng Việt (vi). Lý do máy chủ từ chối một yêu cầu
# (ErrorReply của giao thức 8), các mã lỗi, và tên các thao tác mà bảng
# quyền hạn nêu ra. Thuật ngữ luật: docs/glossary.md.

## mã lỗi

code-bad-frame = khung dữ liệu hỏng
code-too-large = khung dữ liệu quá lớn
code-bad-version = phiên bản giao thức không được hỗ trợ
code-unauthenticated = chưa xác thực
code-forbidden = không có quyền
code-wrong-table = sai bàn
code-conflict = xung đột dữ liệu
code-illegal-move = nước đi sai luật
code-not-found = không tìm thấy
code-invalid = yêu cầu không hợp lệ
code-unexpected = thông điệp không đúng lúc
code-unavailable = tạm thời không phục vụ được
code-internal = lỗi nội bộ máy chủ

## kết nối

reply-bad-version = máy chủ chỉ dùng giao thức phiên bản { $server }
reply-hello-first = thông điệp đầu tiên phải là lời chào (hello)
reply-hello-again = đã nhận lời chào rồi
reply-frame-too-large = khung dữ liệu { $len } byte vượt giới hạn { $limit } byte; kết nối bị đóng
reply-malformed-frame = khung dữ liệu sai định dạng
reply-unknown-token = mã truy cập không hợp lệ
reply-too-many-connections = quá nhiều kết nối với mã truy cập này: đang mở { $limit }, giới hạn là { $limit } (server.connections_per_token); hãy đóng bớt một kết nối
reply-does-not-fit = câu trả lời không vừa một khung dữ liệu: { $error }
reply-stopping = máy chủ đang dừng
reply-not-stored-stopping = máy chủ không lưu được yêu cầu này và đang dừng
reply-stopped-before-storing = máy chủ đã dừng trước khi lưu yêu cầu này
reply-seq-from-one = số thứ tự bắt đầu từ 1
reply-conflict-sent = cùng một số thứ tự được gửi với nội dung khác
reply-conflict-stored = cùng một số thứ tự đã được lưu với nội dung khác
reply-behind = số thứ tự { $seq } của đợt { $epoch } đứng sau mốc đã lưu { $high-epoch }/{ $high-seq } của bàn và chưa từng được lưu
reply-out-of-order = sai thứ tự: bàn { $table } đợt { $epoch } chờ số thứ tự { $expected }, nhận được { $got }
reply-server-error = lỗi máy chủ: { $error }

## lệnh do máy chủ tự trả lời

reply-table-log-too-large = nhật ký của bàn { $table } không vừa một khung dữ liệu
reply-pairing-other-hall = phòng đấu này không xếp cặp: phòng { $hall } xếp cặp và công bố các vòng của giải
reply-round-not-over-in-hall = phòng { $hall }: vòng { $round } chưa kết thúc (bàn chưa có kết quả: { $tables })
reply-pairing-failed = xếp cặp thất bại: { $why }
reply-publish-no-tokens = vòng { $round }: các bàn { $tables } không có mã truy cập (mã của phòng đấu chỉ gồm các bàn trong cấu hình)
reply-subscribe-paced = { $who } đăng ký theo dõi quá nhiều lần: tối đa { $burst } lần liền, sau đó mỗi { $every } giây một lần; hãy đăng ký lại sau { $wait } giây
reply-snapshot-too-large = ảnh chụp phòng đấu ({ $tables } bàn) không vừa một khung dữ liệu: { $error }; chưa đăng ký theo dõi
reply-snapshot-too-large-unsubscribed = ảnh chụp phòng đấu ({ $tables } bàn) không vừa một khung dữ liệu: { $error }; đã hủy theo dõi
reply-export-failed = xuất dữ liệu thất bại: { $error }
reply-not-sent = chưa gửi: { $why }
# The link's own words (a transport error: QUIC, TLS, I/O), as its crates give them.
reply-link-words = { $words }

## lý do phòng đấu từ chối

refusal-no-table = không có bàn { $table }
refusal-no-table-in-round = vòng này không có bàn { $table }
refusal-no-claim = bàn { $table } không có khiếu nại { $claim }
refusal-no-alert = không có cảnh báo { $alert }
refusal-game-over = bàn { $table }: ván đấu đã kết thúc
refusal-already-paused = bàn { $table } đã tạm dừng rồi
refusal-not-paused = bàn { $table } không tạm dừng
refusal-is-sealed = bàn { $table } đang niêm phong
refusal-hall-already-paused = toàn phòng đấu đã tạm dừng rồi
refusal-hall-not-paused = toàn phòng đấu không tạm dừng
refusal-cannot-seal = bàn { $table } lúc này không niêm phong được
refusal-illegal-sealed-move = nước niêm phong { $move } sai luật ở bàn { $table }
refusal-not-sealed = bàn { $table } không niêm phong
refusal-already-ruled = khiếu nại { $claim } đã được xử; muốn xử khác phải ghi lý do
refusal-lapsed = khiếu nại { $claim } đã hết hiệu lực; muốn xử khác phải ghi lý do
refusal-no-reason = xử khác phải ghi lý do
refusal-no-order = bàn { $table }: không thể ra lệnh thay đổi nước đi ở đây: { $why }
refusal-no-declared-limit = luật { $rules } không có hạn định số nước do trọng tài tuyên bố (áp dụng giới hạn nước tự nhiên)
refusal-round-not-over = vòng { $round } chưa kết thúc: các bàn { $tables } chưa có kết quả
refusal-bad-round = không công bố được vòng { $round }: { $why }
refusal-bad-withdrawal = không rút lại được vòng { $round }: { $why }
refusal-bad-entry = không đăng ký muộn được { $name }: { $why }
refusal-bad-player-withdrawal = không rút được kỳ thủ { $player }: { $why }
refusal-bad-correction = vòng { $round } bàn { $table }: không thể sửa kết quả: { $why }
refusal-no-move-limit = bàn { $table } chưa tuyên bố hạn định số nước

## bảng quyền hạn

role-viewer-read-only = người xem chỉ được xem: không được phép { $action }
role-table-other-table = thiết bị bàn { $own } không được báo { $kind } cho bàn { $table }
role-table-only-events = thiết bị bàn chỉ báo sự kiện của chính bàn mình: không được phép { $action }
role-deputy-not-assigned = bàn { $table } không được giao cho phó trọng tài { $deputy } (được giao: { $assigned })
role-assigned-none = không có
role-deputy-table-event = { $kind } là sự kiện của thiết bị bàn; phó trọng tài ghi lỗi hoặc định kết quả
role-deputy-no-table = lệnh cho bàn mà không có số bàn
role-deputy-chief-ruling = chỉ trọng tài trưởng mới xử khác được quyết định của trọng tài trưởng (phó trọng tài { $deputy })
role-deputy-other-deputy = phó trọng tài { $deputy } không xử khác được quyết định của phó trọng tài { $by }: việc đó của trọng tài trưởng
role-deputy-hall-alert = cảnh báo toàn phòng do trọng tài trưởng xác nhận
role-deputy-chief-only = chỉ trọng tài trưởng mới được { $action } (phó trọng tài { $deputy })
role-deputy-export = chỉ trọng tài trưởng mới được xuất kết quả
role-deputy-pair-round = chỉ trọng tài trưởng mới xếp cặp và công bố vòng sau (phó trọng tài { $deputy })
role-deputy-correct-result = chỉ trọng tài trưởng mới sửa kết quả của vòng trước (phó trọng tài { $deputy })
action-correct-result = sửa kết quả của vòng trước
role-deputy-withdraw-round = chỉ trọng tài trưởng mới rút lại một vòng đã công bố (phó trọng tài { $deputy })
action-withdraw-round = rút lại một vòng đã công bố
role-deputy-enter-player = chỉ trọng tài trưởng mới đăng ký muộn một kỳ thủ (phó trọng tài { $deputy })
action-enter-player = đăng ký muộn một kỳ thủ
role-deputy-withdraw-player = chỉ trọng tài trưởng mới rút một kỳ thủ khỏi giải (phó trọng tài { $deputy })
action-withdraw-player = rút một kỳ thủ khỏi giải
role-deputy-cannot = phó trọng tài { $deputy } không được { $action }

## thao tác và sự kiện bàn mà bảng quyền hạn nêu ra

action-subscribe = đăng ký theo dõi
action-pause-table = tạm dừng bàn
action-resume-table = tiếp tục bàn
action-pause-hall = tạm dừng toàn phòng đấu
action-resume-hall = tiếp tục toàn phòng đấu
action-seal = niêm phong ván đấu
action-unseal = mở niêm phong ván đấu
action-rule-on-claim = xử khiếu nại
action-override-ruling = xử khác một quyết định
action-record-foul = ghi lỗi
action-adjust-clock = chỉnh đồng hồ
action-set-result = định kết quả
action-ack-alert = xác nhận cảnh báo
action-export = xuất kết quả
action-pair-round = xếp cặp vòng sau
action-arrived = có mặt
action-clock-press = bấm đồng hồ
action-move = nước đi
action-claim-natural-limit = khiếu nại giới hạn nước tự nhiên
action-claim-repetition = khiếu nại lặp nước
action-draw-offer = cầu hòa
action-draw-accept = đồng ý hòa
action-resign = xin thua
action-call-arbiter = gọi trọng tài
action-foul-report = báo lỗi
action-result = kết quả
action-sealed-move = nước niêm phong
action-command-ack = xác nhận lệnh

## lời từ chối giữa các thông báo khác (dòng trạng thái của thiết bị bàn)

reply-refused = máy chủ từ chối: { $why } ({ $code })

## lệnh của trọng tài, như thiết bị bàn hiển thị

control-paused = { $by } tạm dừng đồng hồ: { $reason }
control-resumed = { $by } cho đồng hồ chạy tiếp
control-adjusted = { $by } chỉnh đồng hồ: { $reason }
control-sealed = hoãn ván: { $by } niêm phong
control-unsealed = { $by } mở niêm phong: nước niêm phong { $move }
control-unsealed-illegal = { $by } mở niêm phong: nước niêm phong { $move } sai luật ở đây; trọng tài quyết định
control-result = { $by } định kết quả: { $result }, { $why } ({ $reason })
control-taken-back = { $by } cho đi lại nước vừa rồi: { $reason }
control-move-limit = { $by } tuyên bố hạn định số nước: mỗi bên { $moves } nước
control-move-limit-cancelled = { $by } hủy hạn định số nước
control-order = lệnh của { $by }: { $order }

## Lý do từ chối (why-*), lồng trong refusal-bad-* và reply-pairing-failed.
# why-words: lời báo lỗi của cơ sở dữ liệu, bộ xếp cặp hoặc hệ thống, giữ nguyên.
why-round-not-next = phòng đấu đang đấu vòng { $playing }; chỉ có thể công bố vòng { $next }
why-boards-count = { $boards } bàn (cho phép từ 1 đến { $max } bàn)
why-changes-count = { $changes } thay đổi (nhiều nhất { $max })
why-change-no-reason = thay đổi { $change } không có lý do
why-a-reason-too-long = có một lý do dài hơn { $max } byte
why-table-twice-or-zero = bàn { $table } bị trùng hoặc là 0
why-name-too-long = bàn { $table }: có tên dài hơn { $max_name } byte hoặc mã số dài hơn { $max_id } ký tự
why-player-no-name = bàn { $table }: có kỳ thủ không có tên
why-plays-twice = { $name } được xếp đấu hai lần
why-bye-plays = { $name } vừa được miễn đấu vừa có ván đấu
why-withdraw-not-current = phòng đấu đang đấu vòng { $playing }: chỉ rút lại được vòng đang đấu
why-round-started = vòng đấu đã bắt đầu (bàn { $tables } đã có nước đi, đã bấm đồng hồ hoặc đã có kết quả)
why-config-round = vòng này không được công bố từ bảng điều khiển (vòng trong cấu hình không rút lại được)
why-reason-required = cần có lý do
why-reason-too-long = lý do dài hơn { $max } byte
why-no-round-before = không có sẵn vòng trước đó
why-correct-earlier = phòng đấu đang đấu vòng { $playing }: chỉ sửa kết quả của vòng trước (ván của vòng này: hãy định kết quả của nó)
why-no-table-zero = không có bàn 0
why-field-empty = { $field } để trống
why-field-too-long = { $field } dài hơn { $max } byte
why-field-control = { $field } có ký tự điều khiển
why-field-name = tên
why-field-registration-id = mã số đăng ký
why-field-federation = liên đoàn
why-field-club = câu lạc bộ
why-field-player = kỳ thủ
why-field-reason = lý do
why-player-not-after = vòng { $round } không ở sau vòng đang đấu ({ $playing }): kỳ thủ rút lui từ vòng sau trở đi (muốn xếp cặp lại, hãy rút lại vòng đã công bố trước)
why-player-already = { $key } đã là kỳ thủ của giải
why-no-such-player = giải không có kỳ thủ nào mang mã số đăng ký (hoặc tên) này
why-withdrawn-already = đã rút lui từ vòng { $round }
why-not-a-round-of-hall = vòng { $round } không thuộc các vòng của phòng đấu
why-no-game-at-table = vòng { $round } không có ván nào ở bàn { $table } (các bàn của vòng: { $tables })
why-words = { $words }
# why-pairing-*: the pairing engine's errors, nested in reply-pairing-failed.
why-pairing-too-few-players = vòng { $round }: có mặt { $present } kỳ thủ, cần ít nhất 2
why-pairing-none = vòng { $round }: không có cách xếp cặp nào tránh được gặp lại hoặc cặp bị cấm
why-pairing-round-robin-size = giải vòng tròn: { $players } kỳ thủ: bảng Berger chỉ dành cho { $min } đến { $max } kỳ thủ
why-pairing-round-robin-round = giải vòng tròn: vòng { $round }: giải vòng tròn { $players } kỳ thủ chỉ có các vòng 1 đến { $rounds }
why-pairing-not-next = vòng { $asked }: đã có các vòng 1..{ $held }; chỉ xếp cặp được vòng { $next }
why-pairing-too-few-tables = vòng { $round } có { $boards } bàn đấu; phòng đấu chỉ có { $count } bàn ({ $tables })
# why-no-cycle, why-order-illegal-move (why-illegal-*): the rulebook's reasons nested in refusal-no-order.
why-no-cycle = từ lần ăn quân gần nhất đến nước thứ { $ply } không có thế cờ nào lặp lại ba lần: không có vòng lặp để ra lệnh
why-order-illegal-move = nước thứ { $ply } { $move } không hợp lệ: { $reason }
why-illegal-empty-square = không có quân ở ô xuất phát
why-illegal-not-your-piece = quân này thuộc bên chưa đến lượt đi
why-illegal-own-piece = ô đích có quân của chính bên đi
why-illegal-cannot-move-there = quân này không thể đi đến đó
why-illegal-leaves-check = nước đi để Tướng của bên đi bị chiếu
why-illegal-kings-facing = nước đi để hai Tướng đối mặt trên một cột không có quân cản
