# Các dòng của sổ kiểm tra (审计记录, issue 33): mỗi loại lệnh một id với
# tham số có kiểu; các dòng do phòng đấu hay máy chủ tự ghi cũng vậy.
# Tiếng Anh giữ nguyên văn bản đã lưu trước đây (hall::command::describe).
# Dòng nào tiếng Anh ghi mã còn ngôn ngữ khác ghi chữ thì nhận cả hai tham
# số và chọn theo tham số không hiển thị (chỉ có nhánh mặc định).

audit-subscribe = đăng ký theo dõi
audit-unsubscribe = hủy theo dõi
audit-get-table-log = xem nhật ký bàn { $table }
audit-export-round = xuất kết quả vòng đấu
audit-pause-table = tạm dừng bàn { $table }: { $reason }
audit-resume-table = tiếp tục bàn { $table }
audit-pause-hall = tạm dừng toàn phòng đấu: { $reason }
audit-resume-hall = tiếp tục toàn phòng đấu
audit-seal = niêm phong ván đấu bàn { $table } (nước niêm phong được giữ kín)
audit-unseal = mở niêm phong ván đấu bàn { $table }
audit-rule-accept = bàn { $table }: chấp nhận quyết định đề xuất cho khiếu nại { $claim }
audit-rule-override = bàn { $table }: xử khác khiếu nại { $claim } thành { $verdict } ({ $must_change }); lý do: { $reason }
audit-verdict-continue = tiếp tục ván đấu
audit-verdict-draw = xử hòa
audit-verdict-loss = { $side } bị xử thua
audit-verdict-correct-move = { $side } đi lại nước vừa đi
audit-verdict-order = lệnh thay đổi nước đi
audit-must-change = { $side } phải thay đổi nước đi
audit-must-change-none = không bên nào phải thay đổi nước đi
audit-escalate = bàn { $table }: chuyển khiếu nại { $claim } lên tổng trọng tài: { $reason }
audit-record-foul = bàn { $table }: ghi một { $kind } cho { $side }: { $note }
audit-foul-technical = lỗi kỹ thuật
audit-foul-violation = vi phạm
audit-adjust-clock = bàn { $table }: chỉnh đồng hồ Đỏ { $red }, Đen { $black }: { $reason }
audit-set-result = bàn { $table }: định kết quả { $result }: { $reason }
audit-result-red-wins = Đỏ thắng
audit-result-black-wins = Đen thắng
audit-result-draw = hòa
audit-result-both-lose = cả hai bên thua
audit-ack-alert = xác nhận cảnh báo { $alert }
audit-declare-move-limit = bàn { $table }: công bố hạn định số nước ({ $limited } bị hạn định{ $book ->
        [1] , hòa theo sách
       *[0] {""}
    })
audit-declare-move-limit-requested = bàn { $table }: công bố hạn định số nước theo yêu cầu của { $requested_by } ({ $limited } bị hạn định{ $book ->
        [1] , hòa theo sách
       *[0] {""}
    })
audit-cancel-move-limit = bàn { $table }: hủy hạn định số nước
audit-pair-next-round = xếp cặp vòng sau
audit-publish-round = công bố vòng { $round } ({ $boards } bàn, { $system }, hạt giống { $seed }){ $changes }
audit-round-change = ; { $code ->
       *[other] { $change }
    }, lý do: { $reason }
audit-correct-result = vòng { $round } bàn { $table }: sửa kết quả thành { $result }, lý do: { $reason }
audit-withdraw-round = rút lại vòng { $round } (đã công bố, chưa bắt đầu), lý do: { $reason }
audit-enter-player = đăng ký muộn kỳ thủ { $name }, thi đấu từ vòng sau
audit-enter-player-details = đăng ký muộn kỳ thủ { $name } ({ $details }), thi đấu từ vòng sau
audit-player-id = mã { $id }
audit-player-rating = hệ số { $rating }
audit-player-federation = liên đoàn { $federation }
audit-player-club = câu lạc bộ { $club }
audit-sep = {", "}
audit-withdraw-player = rút kỳ thủ { $player } khỏi giải từ vòng { $round }, lý do: { $reason }
audit-claim-lapsed = bàn { $table }: khiếu nại { $claim } hết hiệu lực: { $why }
audit-lapse-too-many = bàn { $table } có hơn { $max } khiếu nại cùng loại chưa xử: khiếu nại cũ nhất hết hiệu lực
audit-lapse-clock-started = đồng hồ đã chạy: hai kỳ thủ đã có mặt
audit-lapse-game-ended = ván đấu đã kết thúc ({ $why })
audit-lapse-moved = { $side } đã có mặt và đã đi quân
audit-order = bàn { $table }: lệnh ở nước thứ { $ply } (khiếu nại { $claim }): { $order }
audit-report = bàn { $table } báo { $code ->
       *[other] { $action }
    }
audit-publish-round-refused = công bố vòng { $round }
audit-publish-a-round = công bố một vòng
audit-withdraw-round-refused = rút lại vòng { $round }
audit-correct-result-refused = sửa kết quả vòng { $round } bàn { $table }
audit-refusals-counted = { $count } yêu cầu bị từ chối trong { $secs } giây (chỉ đếm, không lưu từng cái)
audit-refusals-counted-why = hơn { $threshold } yêu cầu bị từ chối trong một khoảng thời gian
audit-note = ghi chú của máy chủ
