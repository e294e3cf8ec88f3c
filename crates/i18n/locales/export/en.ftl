# The exports' own words (issue 33): the HTML results and standings page
# and the printed pairings, when the export has a language (`caipan
# export --lang`, `[tournament] language`). Without one the exports keep
# their old Chinese and English words, which are not in the catalogue.

## The results and standings page.
export-round-title = { $name } · Round { $round }
export-results = Results
export-col-table = Table
export-col-red = Red
export-col-result = Result
export-col-black = Black
export-col-reason = Reason
export-col-moves = Moves
export-standings-after = Standings after round { $round }
export-points-tie-breaks = Points 2/1/0; tie-breaks ({ $rule }): { $order }
export-rounds-left-out = Rounds not in this data dir (left out): { $rounds }
export-col-rank = Rank
export-col-player = Player
export-col-points = Points
export-col-games = Games
export-col-wins = W
export-col-draws = D
export-col-losses = L
export-col-opponents = Opp.
export-col-black-wins = Black wins
export-col-fouls = Fouls
export-col-decided-by = Decided by
export-team-standings = Team standings
export-col-team = Team
export-col-match-points = Match points
export-col-board-points = Board points
export-col-matches = Matches
export-crosstable = Crosstable
export-mark-red = R
export-mark-black = B
export-footer = caipan · { $name } · { $games } games; unfinished games are marked * and not counted.

## The printed pairings (the hall's language, English beside it).
export-round-pairings = Round { $round } pairings
export-by-table = By table
export-by-name = By name
export-col-name = Name
export-col-colour = Colour
export-col-opponent = Opponent
export-boards = { $boards } boards

## Tie-break names (the standings' order and "Decided by").
export-tiebreak-direct-encounter = direct encounter
export-tiebreak-opponent-score-beaten = opponent score (beaten + half drawn)
export-tiebreak-opponent-score-all = opponent score (all opponents)
export-tiebreak-fewer-technical-fouls = fewer technical fouls
export-tiebreak-more-black-wins = more wins with Black
export-tiebreak-lots = lots
export-tiebreak-buchholz = Buchholz (BH)
export-tiebreak-buchholz-cut1 = Buchholz cut 1 (BH-C1)
export-tiebreak-sonneborn-berger = Sonneborn-Berger (SB)
export-tiebreak-progressive-score = progressive score (PS)
export-tiebreak-wins = wins (WIN)
export-tiebreak-black-games = games with Black (BPG)
export-tiebreak-average-rating-opponents = average rating of opponents (ARO)
