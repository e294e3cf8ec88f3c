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
