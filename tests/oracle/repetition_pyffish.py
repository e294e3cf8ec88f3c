#!/usr/bin/env python3
"""Cross-check of the AXF repetition catalogue against Fairy-Stockfish (pyffish).

Usage (outside CI; `pip install pyffish`):
    python3 tests/oracle/repetition_pyffish.py            # catalogue comparison
    python3 tests/oracle/repetition_pyffish.py --bench    # pyffish timing on benches/game80.json

For every case of crates/rulebook/tests/catalogue/axf.jsonl, and for the
AXF ruling (`axf`) of the positions in roc.jsonl and cxa.jsonl that are not
AXF cases already (pyffish plays the Asian rules; the ROC and CXA verdicts
themselves have no oracle), the moves (ICCS,
ranks 0-9) are converted to pyffish's coordinates (ranks 1-10: h2e2 -> h3e3)
and `pyffish.is_optional_game_end("xiangqi", fen, moves)` is asked for its
repetition verdict (a value from the side to move's point of view: 0 draw,
negative loss, positive win). Cases where pyffish has no opinion (no game
end) are listed as such. Every disagreement with our expected verdict is
printed with the case's note; the reading of the AXF text for each known one
is in DISAGREEMENTS below.
"""
import json
import os
import sys
import time

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOGUE = os.path.join(ROOT, "crates/rulebook/tests/catalogue/axf.jsonl")
OTHER_SETS = [os.path.join(ROOT, f"crates/rulebook/tests/catalogue/{s}.jsonl") for s in ("roc", "cxa")]
GAME80 = os.path.join(ROOT, "crates/rulebook/benches/game80.json")

# Why the AXF text sides with us, per case id.
DISAGREEMENTS = {
    "own-D22-pinned-attacker": (
        "The red rook is pinned on the e-file by the cannon e8 (advisor e1 the other screen). "
        "AXF-D22 (000 item 22): 车被炮牵制不能离线时车在该线移动不作為捉子论 - its moves along "
        "that line are not chases; it cannot legally take the cannon on rank 4/5. Fairy-Stockfish "
        "counts a pinned or line-confined attacker as chasing (a documented limitation), so it "
        "rules a perpetual chase (red loses) where AXF gives a draw (AXF-P1)."
    ),
    "own-protection-screen": (
        "Taking away a protection is a chase by the standing attacker (issue 39): the manual's "
        "appendix rules a pawn stepping back and forth to remove the screen of a cannon that "
        "protects a horse attacked by a rook as the rook perpetually chasing the unprotected horse "
        "(Red violates); AXF-D29 (000 item 29): a root that lost its power to protect counts as "
        "none. Fairy-Stockfish reads the pawn moves as idle, so it gives a draw."
    ),
    "roc-own-protection-cut (axf)": (
        "The same reading as own-protection-screen, a red horse taking away the cannon's screen: "
        "the rook perpetually chases the horse (AXF-D29), Red loses; Fairy-Stockfish: a draw."
    ),
    "own-check-with-discovered-chase": (
        "A move that checks is a check (the glossary's 照着; AXF-S8 folds only an exchange into a "
        "chase): one check one chase is a draw by AXF-D7 (000 item 7: 一照一捉或多照一捉均作和局). "
        "Fairy-Stockfish also counts the attack opened by the checking move as a chase and so finds "
        "a perpetual chase. No AXF sentence says so; caipan keeps its reading (docs/rules.md)."
    ),
    "own-check-with-discovered-chase-black": (
        "The same as own-check-with-discovered-chase, colours exchanged: AXF-D7, a draw."
    ),
    "own-discovered-check-and-chase": (
        "The same reading: the discovered check that also attacks a cannon is a check, Black's "
        "pattern one check one chase, a draw by AXF-D7; Fairy-Stockfish: a perpetual chase."
    ),
}


def uci(m):
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)


def verdict(fen, moves):
    end, value = sf.is_optional_game_end("xiangqi", fen, moves)
    if not end:
        return None
    if value == 0:
        return "draw"
    red_to_move = (sf.get_fen("xiangqi", fen, moves).split()[1] == "w")
    side_loses = value < 0
    loser_is_red = red_to_move == side_loses
    return "red_loses" if loser_is_red else "black_loses"


def axf_cases():
    """The AXF cases, then the AXF rulings of ROC/CXA positions not seen yet."""
    seen = set()
    for line in open(CATALOGUE, encoding="utf-8"):
        if line.strip():
            case = json.loads(line)
            seen.add((case["fen"], tuple(case["moves"])))
            yield case["id"], case, case["expected"]["verdict"]
    for path in OTHER_SETS:
        for line in open(path, encoding="utf-8"):
            if not line.strip():
                continue
            case = json.loads(line)
            key = (case["fen"], tuple(case["moves"]))
            if key not in seen:
                seen.add(key)
                yield case["id"] + " (axf)", case, case["axf"]["verdict"]


def catalogue():
    agree = disagree = no_opinion = 0
    for _cid, case, ours in axf_cases():
        moves = [uci(m) for m in case["moves"]]
        theirs = verdict(case["fen"], moves)
        if theirs is None:
            no_opinion += 1
            print(f"{_cid:28} ours={ours:12} pyffish=(no opinion)")
        elif theirs == ours:
            agree += 1
            print(f"{_cid:28} ours={ours:12} pyffish={theirs:12} agree")
        else:
            disagree += 1
            print(f"{_cid:28} ours={ours:12} pyffish={theirs:12} DISAGREE")
            print(f"    case: {case.get('note', '')}")
            print(f"    reading: {DISAGREEMENTS.get(_cid, '(no reading recorded yet)')}")
    print(f"\n{agree} agree, {disagree} disagree, {no_opinion} without a pyffish opinion")


def bench(seconds=3.0):
    game = json.load(open(GAME80))
    moves = [uci(m) for m in game["moves"]]
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        sf.is_optional_game_end("xiangqi", game["fen"], moves)
        n += 1
    dt = time.perf_counter() - t0
    print(f"pyffish is_optional_game_end on the 80-ply game: {n / dt:,.0f} calls/s ({dt / n * 1e6:.1f} us each)")
    # Per-move cost, the way a server would ask after every move: the whole prefix each time.
    t0 = time.perf_counter()
    reps = 5
    for _ in range(reps):
        for i in range(1, 73):
            sf.is_optional_game_end("xiangqi", game["fen"], moves[:i])
    dt = time.perf_counter() - t0
    print(f"pyffish per-move check (prefix of the first 72 plies each time): {dt / (reps * 72) * 1e6:.1f} us per move")


if __name__ == "__main__":
    if "--bench" in sys.argv:
        bench()
    else:
        catalogue()
