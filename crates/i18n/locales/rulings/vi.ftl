# caipan rulings catalogue: tiếng Việt (vi). The rulebook's explanations
# (rulebook::explain) sentence by sentence, with their facts. Terms of the
# Vietnamese rules (VN in docs/glossary.md): chiếu mãi, đuổi bắt mãi,
# phải thay đổi nước đi, nếu không bị xử thua; every other word is ours (†),
# to be reviewed by an arbiter who reads Vietnamese.

ruling-none = { "" }
ruling-sep-pieces = { ", " }
ruling-sep-notes = { "" }
ruling-sep-reasons = { "; " }

## What a side does over the cycle

pattern-perpetual-check = chiếu mãi
pattern-perpetual-chase = đuổi bắt mãi
pattern-perpetual-mate-threat = dọa bí mãi
pattern-perpetual-material-threat = dọa ăn quân mãi
pattern-perpetual-exchange = đổi quân mãi
pattern-perpetual-offer = hiến quân mãi
pattern-perpetual-block = cản mãi
pattern-check-and-chase = một chiếu một đuổi bắt
pattern-check-and-mate-threat = một chiếu một dọa bí
pattern-check-and-material-threat = một chiếu một dọa ăn quân
pattern-check-and-idle = một chiếu một nước nhàn
pattern-chase-and-material-threat = một đuổi bắt một dọa ăn quân
pattern-chase-and-idle = đuổi bắt xen nước nhàn
pattern-mate-threat-and-idle = dọa bí xen nước nhàn
pattern-idle = nước nhàn
pattern-mixed = nước đi khác

## A repetition ruling

ruling-piece-at = { $piece } { $square }
ruling-chase = { " " }({ $attackers } đuổi bắt { $targets })
ruling-not-forbidden = , không thuộc trường hợp cấm
ruling-side = { $side }: { $pattern }{ $chase }{ $allowed }
ruling-verdict-draw = Nếu không bên nào thay đổi thì hòa: trọng tài tuyên bố lặp thêm một vòng nữa là hòa.
ruling-verdict-must-change = { $side } phạm luật, phải thay đổi nước đi, nếu không bị xử thua.
ruling-repetition = Thế cờ xuất hiện lần thứ { $count } (vòng lặp { $plies } nước). { $red }; { $black }. { $verdict } ({ $rules }){ $notes }

## Readings where a rule set's text is silent

ruling-note-roc-uncrossed-pawn = { " " }Luật ROC không miễn cho Tốt chưa qua sông (ROC-15, ROC-24): cũng không được đuổi bắt mãi Tốt đó.
ruling-note-roc-exchange = { " " }Luật ROC không quy định nước vừa đuổi bắt vừa đổi quân: nước đi được xem theo loại nặng nhất, đuổi bắt.
ruling-note-roc-mate-threat = { " " }Danh sách ROC không có điều về dọa bí mãi; ví dụ của nó coi là được phép, nên không vi phạm (ROC-12).
ruling-note-roc-material-threat = { " " }Luật ROC không quy định về dọa ăn quân (要抽吃): xem như không vi phạm (ROC-12).
ruling-note-cxa-borrowed = { " " }Danh sách CXA không quy định trường hợp này; áp dụng { $rules }.

## Two cycles that differ: the whole repetition

ruling-whole = { $ruling } Hai vòng lặp khác nhau (nước { $first }-{ $at } và { $at }-{ $end }: khác nước đi hoặc khác quân): các nước của toàn bộ quá trình lặp giữa ba lần xuất hiện cuối, nước { $first } đến { $end }, được xếp loại chung, nên chiếu mãi hay đuổi bắt mãi phải đúng ở mọi nước của cả hai vòng, mỗi quân được theo dõi qua cả hai vòng{ $reading }
ruling-whole-cited = { " " }(theo { $rules }).
ruling-whole-reading = { " " }(cách đọc toàn bộ quá trình lặp, docs/rules.md).

## The arbiter's judgement of intent

ruling-why-intent = có nước đi trong vòng lặp được xếp là cản hoặc dọa ăn quân, hoặc việc tìm kiếm chưa xong: cần trọng tài phán đoán ý định
ruling-why-out-of-check = bên đuổi bắt có nước đuổi bắt khi đang bị chiếu (vừa tránh chiếu vừa đuổi bắt): có ý định ăn quân hay không là do trọng tài phán đoán
ruling-judgement = { $reasons }.
ruling-judgement-otherwise = { $judgement } Nếu trọng tài thấy không có ý định đó (xem là nước nhàn hoặc chỉ tránh chiếu), phán quyết là { $other }.
ruling-other-draw = hòa
ruling-other-must-change = { $side } phải thay đổi nước đi
ruling-other-loses = { $side } thua
ruling-with-judgement = { $ruling } (cần trọng tài phán đoán: { $judgement })

## The order at a repetition and the cycle repeated after it

ruling-more-cycles = { $cycles ->
    [1] lặp thêm một vòng
    [3] lặp thêm ba vòng
   *[other] lặp thêm { $cycles } vòng
}
ruling-order-change = { $side } phải thay đổi nước đi; { $more } nữa thì thua
ruling-order-draw = trọng tài tuyên bố { $more } nữa là hòa
ruling-order = Lệnh: { $order }. { $ruling }
ruling-did-not-change = { $side } không thay đổi nước đi và bị xử thua
ruling-neither-changed = không bên nào thay đổi: hòa
ruling-order-repeated = Lệnh ở nước { $ply }: { $order }. Sau đó vòng lặp lặp lại ({ $more }; thế cờ xuất hiện { $count } lần): { $verdict } ({ $rules }).

## An illegal move (the hall's ruling on it)

ruling-illegal-loses = Nước { $move } của { $side } không tránh chiếu hoặc để hai Tướng đối mặt: xử thua (AXF-G6).
ruling-illegal-corrected = Nước { $move } của { $side } sai luật: phải đi lại và bị tính một lỗi kỹ thuật (AXF-PLAY-4A).

## The natural move limit

limit-discount-checks = tối đa { $cap } nước chiếu của { $side } được tính
limit-discount-replies = tối đa { $cap } nước tránh chiếu của { $side } được tính
limit-claim = { $side } yêu cầu hòa theo giới hạn nước tự nhiên: { $plies } nước không ăn quân, { $discount }, trừ { $struck }, tính { $counted }, cần { $required }. { $outcome }
limit-claim-holds = Yêu cầu đúng: hòa.
limit-technical-foul = một lỗi kỹ thuật và{ " " }
limit-claim-false = Yêu cầu sai: { $foul }trừ { $time } trên đồng hồ của { $side } (hết giờ do bị trừ thì thua); tiếp tục ván đấu.
limit-either-side = bất kỳ bên nào
limit-one-side = { $side }
limit-reached = Đã đạt giới hạn nước tự nhiên: { $plies } nước không ăn quân (cần { $required }); yêu cầu của { $who } sẽ đúng, và trọng tài có thể xử hòa sau khi kiểm tra số nước.

## The ROC declared move limit

roc-limit-book-draw = , hòa theo sách
roc-limit-counts = Hạn định số nước tuyên bố ở nước { $ply } (mỗi bên { $each } nước{ $book }, bên bị hạn định: { $limited }): Đỏ { $red } và Đen { $black } nước được tính; { $limited } tránh chiếu { $replies } lần, tính tối đa { $cap }, trừ { $struck }; còn lại: Đỏ { $red-left }, Đen { $black-left }.
roc-limit-full = Đã đủ số nước hạn định, thế cờ không có biến đổi mới: hòa.
roc-limit-not-full = Chưa đủ số nước hạn định: yêu cầu sai, tiếp tục ván đấu (luật ROC không đặt hình phạt cho việc này).
roc-limit-reset = Có quân bị ăn ở nước { $ply }, một biến đổi mới: trọng tài hủy hạn định, tuyên bố hạn định mới hoặc cho tiếp tục không hạn định.
roc-limit-verdict = { $counts } { $outcome }
