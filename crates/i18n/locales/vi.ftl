# Danh mục thông điệp của caipan: tiếng Việt (vi).
# Thuật ngữ theo Luật Cờ Tướng (Liên đoàn Cờ Việt Nam); nguồn ở
# docs/glossary.md. Ký hiệu quân: Tg S T X P M B.

## Hai bên

side-red = Đỏ
side-black = Đen

## Quân cờ ($side: red | black; tiếng Việt gọi quân hai bên như nhau)

piece-general = { $side ->
   *[other] Tướng
}
piece-advisor = { $side ->
   *[other] Sĩ
}
piece-elephant = { $side ->
   *[other] Tượng
}
piece-horse = { $side ->
   *[other] Mã
}
piece-chariot = { $side ->
   *[other] Xe
}
piece-cannon = { $side ->
   *[other] Pháo
}
piece-soldier = { $side ->
   *[other] Tốt
}

## Loại cảnh báo

alert-kind-flag-fall = hết giờ
alert-kind-illegal-move = nước đi sai luật
alert-kind-repetition = lặp lại nước đi
alert-kind-natural-limit = giới hạn nước tự nhiên
alert-kind-no-show = vắng mặt bị xử thua
alert-kind-clock-anomaly = đồng hồ bất thường
alert-kind-table-offline = bàn mất kết nối
alert-kind-table-online = bàn kết nối lại
alert-kind-foul-threshold = đủ số lỗi
alert-kind-seal-overdue = quá hạn mở nước kín
alert-kind-arbiter-called = gọi trọng tài
alert-kind-claim-pending = khiếu nại chờ xử
alert-kind-game-over = ván đấu kết thúc
alert-kind-refused-commands = lệnh bị từ chối
alert-kind-move-limit = hạn định số nước
alert-kind-record-quarantined = bản ghi bị cách ly
alert-kind-terminal-replaced = thay máy ở bàn
alert-kind-two-terminals = hai máy một bàn
alert-kind-stopped-reading = máy ngừng nhận

## Loại khiếu nại

claim-kind-natural-limit = giới hạn nước tự nhiên
claim-kind-repetition = luật lặp nước
claim-kind-illegal-move = nước đi sai luật
claim-kind-foul-threshold = đủ số lỗi
claim-kind-flag-fall = hết giờ
claim-kind-no-show = vắng mặt bị xử thua
claim-kind-draw-offer = đề nghị hòa
claim-kind-move-limit = hạn định số nước

## Lý do kết thúc ván

end-reason-checkmate = chiếu bí
end-reason-stalemate = hết nước đi
end-reason-resignation = xin thua
end-reason-flag = hết giờ
end-reason-perpetual-check = chiếu mãi
end-reason-perpetual-chase = đuổi bắt mãi
end-reason-repetition = hòa do lặp nước
end-reason-natural-limit = giới hạn nước tự nhiên
end-reason-fouls = phạm lỗi
end-reason-illegal-move = nước đi sai luật
end-reason-forfeit = bỏ cuộc
end-reason-agreement = thỏa thuận hòa
end-reason-arbiter = trọng tài quyết định
end-reason-reported = bàn báo kết quả
end-reason-move-limit = hạn định số nước

## Loại lỗi

foul-kind-technical = lỗi kỹ thuật
foul-kind-violation = vi phạm

## Phán quyết

verdict-continue = tiếp tục ván đấu
verdict-draw = xử hòa
verdict-loss = { $side } thua
verdict-correct-move = { $side } phải đi lại nước khác
verdict-order = lệnh thay đổi nước đi

## Thuật ngữ luật (xem docs/glossary.md)

term-perpetual-check = chiếu mãi
term-perpetual-chase = đuổi bắt mãi
term-must-change = { $side } phải thay đổi nước đi, nếu không bị xử thua
term-one-check-one-kill = một chiếu một dọa bí
term-idle = nước nhàn
term-protected-piece = quân có bảo vệ
term-unprotected-piece = quân không được bảo vệ

## The follower page and the hall display (broadcast)

web-round = Vòng { $round }
web-table = Bàn { $table }
web-waiting = chưa bắt đầu
web-playing = đang chơi
web-paused = tạm dừng
web-adjourned = hoãn ván
web-red-wins = Đỏ thắng
web-black-wins = Đen thắng
web-draw = Hòa
web-both-lose = Cả hai thua
web-moves = Nước đi
web-boards = Tất cả bàn cờ
web-pairings = Cặp đấu
web-results = Kết quả
web-display = Màn hình hội trường
web-notation = Ký hiệu
web-language = Ngôn ngữ
web-live = trực tiếp
web-reconnecting = đang kết nối lại…
web-feeds = Dữ liệu cho trang tiếp sóng

## Thông điệp của phòng thi đấu (cảnh báo, phán quyết; i18n::texts)
# text-zh-en: lời giải thích mà bộ luật vẫn viết sẵn bằng tiếng Trung và
# tiếng Anh, hiển thị nguyên văn (tiếng Anh).

text-zh-en = { $en }
alert-claim-escalated = bàn { $table }: khiếu nại { $claim } đã chuyển lên tổng trọng tài: { $reason }
alert-terminal-replaced = bàn { $table }: đã thay máy trạm (máy mới đã tiếp quản bàn; máy cũ đã được lệnh dừng)
alert-two-terminals = hai máy trạm của bàn { $table } liên tục giành bàn của nhau: hãy tắt một máy
alert-refused-commands = một máy liên tục gửi lệnh bị từ chối: { $who } (hơn { $threshold } lệnh trong { $window } giây)
alert-stopped-reading = một máy ngừng nhận dữ liệu và đã bị ngắt kết nối: { $who } (không nhận gì trong { $seconds } giây)
alert-record-quarantined = bản ghi lưu tại gseq { $gseq } không giải mã được và đã được để riêng (--quarantine-undecodable): trạng thái phòng thi đấu không gồm bản ghi này ({ $error })
alert-table-online = bàn { $table }: máy trạm đã kết nối lại
alert-table-offline = bàn { $table }: máy trạm mất kết nối đã { $seconds } giây
alert-illegal-move = bàn { $table }: { $side } đi nước không hợp lệ { $move }: { $why }
illegal-not-a-move = { $move } không phải là nước đi trên bàn cờ
illegal-wrong-turn = { $side } đã đi nhưng đang đến lượt { $turn }
illegal-empty-square = không có quân ở ô xuất phát
illegal-not-your-piece = đi quân của bên chưa đến lượt
illegal-own-piece = ăn quân của chính mình
illegal-cannot-move-there = quân này không thể đi đến đó
illegal-leaves-check = không tránh chiếu / để Tướng bị chiếu
illegal-kings-facing = để hai Tướng đối mặt
illegal-generic = nước đi không hợp lệ
alert-repetition = bàn { $table }: lặp lại (thế cờ xuất hiện { $count } lần): { $explanation }
alert-at-table = bàn { $table }: { $text }
alert-order-lapsed = bàn { $table }: { $order } (khiếu nại { $claim })
alert-order-repeated = bàn { $table }: vòng lặp lại tiếp diễn sau lệnh phải thay đổi nước đi: { $explanation }
alert-arbiter-called = bàn { $table }: { $side } gọi trọng tài: { $reason }
alert-claim-repetition = bàn { $table }: { $side } khiếu nại về luật lặp lại: { $explanation }
alert-clock-anomaly = bàn { $table }: đồng hồ bất thường: { $description }
result-red-wins = Đỏ thắng
result-black-wins = Đen thắng
result-draw = hòa
result-both-lose = cả hai bên bị xử thua
alert-game-over = bàn { $table }: ván đấu kết thúc: { $result }, { $why } ({ $reason })
alert-move-limit-full = bàn { $table }: đã đủ số nước hạn định: { $explanation }
alert-move-limit-capture = bàn { $table }: có nước ăn quân trong khi đếm số nước hạn định: { $explanation }
alert-claim-move-limit = bàn { $table }: { $side } xin xử hòa theo số nước hạn định: { $explanation }
ruling-no-cycle = Thế cờ chưa lặp lại ba lần: không có vòng lặp để xét; tiếp tục ván đấu.
ruling-no-move-limit = { $side } xin xử hòa theo số nước hạn định, nhưng ván này chưa tuyên bố hạn định: tiếp tục ván đấu; trọng tài có thể tuyên bố hạn định khi được yêu cầu.
## Ván tiếp theo: vì sao ghép cặp này, thay đổi của tổng trọng tài (issue 36)

round-why-same-score = cùng điểm { $points }
round-why-float = lệch điểm: { $red-points } gặp { $black-points }
round-why-colour = { $player } ván trước cầm { $last }, ván này cầm { $now }
round-why-rematches-avoided = { $player }: tránh { $count } lần gặp lại
round-why-changed = tổng trọng tài thay đổi: { $reason }
round-change-colours = bàn { $table }: đổi màu quân
round-change-exchange = bàn { $table } và bàn { $other }: đổi người cầm quân Đen
round-note-relaxed = quy tắc được nới: { $what }
round-deputy-tables = phó trọng tài { $deputy }: bàn { $tables }
round-hall-tables = phòng { $hall }: bàn { $tables }
round-deputy-idle = phó trọng tài { $deputy } không có bàn nào ở vòng này (chờ)
round-deputy-uncovered = bàn { $tables } không có phó trọng tài

## Lệnh thay đổi nước đi và khi lệnh hết hiệu lực (i18n::texts::order, order_lapse; issue 33, wire)

order-change = { $side } phải thay đổi nước đi, nếu không bị xử thua (lặp lại thêm { $cycles ->
    [1] một vòng
    [3] ba vòng
   *[other] { $cycles } vòng
} là thua)
order-draw = trọng tài tuyên bố: nếu lặp lại thêm { $cycles ->
    [1] một vòng
    [3] ba vòng
   *[other] { $cycles } vòng
} thì xử hòa
order-lapse-capture = { $side } ăn quân ở nước thứ { $ply }: vòng lặp bị phá, lệnh thay đổi nước đi hết hiệu lực
order-lapse-left-cycle = { $side } rời vòng lặp ở nước thứ { $ply }: lệnh thay đổi nước đi hết hiệu lực

## Đồng hồ bất thường (i18n::texts::anomaly, AXF-CLOCK-5; issue 33, wire)

clock-time-went-backwards = báo cáo đồng hồ sớm hơn báo cáo trước { $off } ms
clock-moves-decreased = số nước của { $side } giảm từ { $from } xuống { $to }
clock-time-grew = thời gian của { $side } tăng { $growth } ms, nhiều hơn { $off } ms so với thời gian cộng thêm và điều chỉnh
clock-ran-too-fast = đồng hồ đã chạy { $used } ms trong { $elapsed } ms thực tế (nhanh hơn { $off } ms)
clock-ran-too-slow = đồng hồ đã chạy { $used } ms trong { $elapsed } ms thực tế (chậm hơn { $off } ms)
clock-idle-side-changed = { $side } không đi và không bấm đồng hồ nhưng mất { $used } ms

## Những câu văn cuối cùng thành thông điệp (issue 33, lang33-ends): các
## xử thua do hội trường đề xuất (hall::loss), kết thúc ván đấu và khiếu
## nại đã phán quyết trên máy trạm, lời giải thích của `caipan adjudicate`.
## Thuật ngữ theo docs/glossary.md (hết giờ, lỗi kỹ thuật, vi phạm, bỏ cuộc †).

loss-flag-fall-alert = bàn { $table }: { $side } hết giờ
loss-flag-fall = { $side } đã dùng hết thời gian: xử thua vì hết giờ.
loss-fouls-alert = bàn { $table }: { $side } đã có { $count } { $kind ->
    [technical] lỗi kỹ thuật
   *[other] lần vi phạm
}
loss-fouls = { $side } đã có { $count } { $kind ->
    [technical] lỗi kỹ thuật
   *[other] lần vi phạm
}: xử thua.
loss-no-show-alert = bàn { $table }: { $side } vắng mặt { $limit } sau giờ bắt đầu
loss-no-show = { $side } không có mặt tại bàn { $limit } sau giờ bắt đầu: bỏ cuộc.
loss-late-alert = bàn { $table }: ván hoãn đã tiếp tục, { $side } vắng mặt sau { $limit }
loss-late = { $side } không có mặt tại bàn { $limit } sau khi ván hoãn tiếp tục: bỏ cuộc.
loss-minutes = { $minutes } phút
loss-seconds = { $seconds } giây
game-end = { $result }, lý do: { $why }
game-end-reason = { $result }, lý do: { $why } ({ $reason })
game-end-set-by = { $result }, lý do: { $why } ({ $reason }; do { $by } quyết định)
claim-decided = khiếu nại của { $side } ({ $what }) đã được phán quyết: { $effect }
claim-decided-server = phán quyết ({ $what }): { $effect }
claim-effect-sep = { ", " }
ruling-checkmated = { $side } bị chiếu bí và bị xử thua ({ $rule }).
ruling-stalemated = { $side } bị hết nước đi (không còn nước hợp lệ) và bị xử thua ({ $rule }).
ruling-order-stands = Lệnh của trọng tài đưa ra ở nước thứ { $ply } vẫn còn hiệu lực ({ $order }); chưa có kết quả.
ruling-nothing-to-rule = Thế cờ cuối chưa xuất hiện lần thứ ba: không có gì để phán quyết.
