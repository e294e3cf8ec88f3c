# Lời của các tệp xuất (issue 33): trang kết quả và xếp hạng, bảng xếp
# cặp để in, khi tệp xuất có ngôn ngữ (caipan export --lang,
# [tournament] language). Không có ngôn ngữ thì tệp xuất giữ lời cũ
# (tiếng Trung và tiếng Anh), không nằm trong danh mục.

## Trang kết quả và xếp hạng.
export-round-title = { $name } · Vòng { $round }
export-results = Kết quả
export-col-table = Bàn
export-col-red = Đỏ
export-col-result = Kết quả ván
export-col-black = Đen
export-col-reason = Lý do
export-col-moves = Số nước
export-standings-after = Xếp hạng sau vòng { $round }
export-points-tie-breaks = Điểm 2/1/0; chỉ số phụ ({ $rule }): { $order }
export-rounds-left-out = Các vòng không có trong thư mục dữ liệu này (không tính): { $rounds }
export-col-rank = Hạng
export-col-player = Kỳ thủ
export-col-points = Điểm
export-col-games = Số ván
export-col-wins = Thắng
export-col-draws = Hòa
export-col-losses = Thua
export-col-opponents = Điểm đối thủ
export-col-black-wins = Thắng cầm Đen
export-col-fouls = Lỗi kỹ thuật
export-col-decided-by = Phân định bởi
export-team-standings = Xếp hạng đồng đội
export-col-team = Đội
export-col-match-points = Điểm trận
export-col-board-points = Điểm ván
export-col-matches = Số trận
export-crosstable = Bảng kết quả chéo
export-mark-red = đỏ
export-mark-black = đen
export-footer = caipan · { $name } · { $games } ván đã xong; ván chưa xong được đánh dấu * và không tính điểm.

## Bảng xếp cặp để in (ngôn ngữ của giải, kèm tiếng Anh).
export-round-pairings = Xếp cặp vòng { $round }
export-by-table = Theo bàn
export-by-name = Theo tên
export-col-name = Tên
export-col-colour = Cầm quân
export-col-opponent = Đối thủ
export-boards = { $boards } bàn

## Tên các chỉ số phụ (thứ tự xếp hạng và cột "Phân định bởi").
export-tiebreak-direct-encounter = đối đầu trực tiếp
export-tiebreak-opponent-score-beaten = điểm đối thủ (thắng tính đủ, hòa tính nửa)
export-tiebreak-opponent-score-all = điểm đối thủ (mọi đối thủ)
export-tiebreak-fewer-technical-fouls = ít lỗi kỹ thuật hơn
export-tiebreak-more-black-wins = nhiều ván thắng cầm Đen hơn
export-tiebreak-lots = bốc thăm
export-tiebreak-buchholz = hệ số Buchholz (BH)
export-tiebreak-buchholz-cut1 = Buchholz bỏ một đối thủ thấp nhất (BH-C1)
export-tiebreak-sonneborn-berger = hệ số Sonneborn-Berger (SB)
export-tiebreak-progressive-score = điểm lũy tiến (PS)
export-tiebreak-wins = số ván thắng (WIN)
export-tiebreak-black-games = số ván cầm Đen (BPG)
export-tiebreak-average-rating-opponents = hệ số trung bình của đối thủ (ARO)
