#!/usr/bin/env python3
"""Replay caipan's exported PGN game records with pyffish (Fairy-Stockfish), outside CI.

Usage (from the repository root):
    pip install pyffish
    python3 tests/oracle/export_pyffish.py                 # plays the export test's round, then checks
    python3 tests/oracle/export_pyffish.py --data DIR --round N   # a hall's data dir (e.g. after the demo)

Without --data it runs `cargo test -p caipan --test export a_round_played` with
EXPORT_TEST_KEEP set, which keeps the data dir of a round played through the real
server (4 tables of master games ended by resignation, agreement, fouls, flag).

For the data dir it runs `caipan export --format pgn --out TMP` and
`caipan export --format json` (the results, with the server's final FEN of every
table). Every exported PGN is then read here independently: tags, the ICCS moves
(ranks 0-9, turned into pyffish's 1-10), the `[%clk h:mm:ss]` stamps. Each move
must be in pyffish's legal-move list for the position reached; the position
after the last move (board and side to move) must equal the server's final FEN;
a game whose reason is checkmate or stalemate must have no legal move left in
pyffish, and any other finished game must still have one (or be over by a rule
pyffish also sees). Exit status 1 on any mismatch.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def to_uci(iccs):
    """ICCS (ranks 0-9) to Fairy-Stockfish UCI (ranks 1-10)."""
    iccs = iccs.lower().replace("-", "")
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def parse_pgn(text):
    tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$', text, re.M))
    body = "\n".join(l for l in text.splitlines() if not l.startswith("["))
    clocks = []
    moves = []
    # Walk tokens: comments in braces, move numbers, moves, results.
    for tok in re.finditer(r"\{[^}]*\}|[^\s{}]+", body):
        t = tok.group(0)
        if t.startswith("{"):
            m = re.search(r"\[%clk (\d+):(\d\d):(\d\d)\]", t)
            if m and moves:
                clocks.append((len(moves) - 1, int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3])))
            continue
        if re.fullmatch(r"\d+\.(\.\.)?", t) or t in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        if re.fullmatch(r"[a-iA-I][0-9]-?[a-iA-I][0-9]", t):
            moves.append(t)
            continue
        raise ValueError(f"unexpected token {t!r}")
    return tags, moves, clocks


def board_and_turn(fen):
    parts = fen.split()
    return parts[0], parts[1]


def caipan(args):
    exe = os.path.join(ROOT, "target", "debug", "caipan")
    if not os.path.exists(exe):
        subprocess.run(["cargo", "build", "-p", "caipan"], cwd=ROOT, check=True)
    return subprocess.run([exe] + args, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", help="a hall's data dir (default: play the export test's round)")
    ap.add_argument("--round", type=int, default=1)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="caipan-export-oracle-")
    data = args.data
    if data is None:
        data = os.path.join(tmp, "data")
        env = dict(os.environ, EXPORT_TEST_KEEP=data)
        subprocess.run(
            ["cargo", "test", "-p", "caipan", "--test", "export", "a_round_played"],
            cwd=ROOT, env=env, check=True, capture_output=True,
        )
    out = os.path.join(tmp, "pgn")
    caipan(["export", "--data", data, "--round", str(args.round), "--format", "pgn", "--out", out])
    results = json.loads(caipan(["export", "--data", data, "--round", str(args.round), "--format", "json"]))
    by_table = {r["table"]: r for r in results["results"]}

    failures = 0
    plies_total = 0
    files = sorted(os.listdir(out))
    for name in files:
        with open(os.path.join(out, name), encoding="utf-8") as f:
            tags, moves, clocks = parse_pgn(f.read())
        table = int(tags["Round"].split(".")[1])
        row = by_table[table]
        start = tags.get("FEN", START)
        played = []
        for i, m in enumerate(moves):
            uci = to_uci(m)
            legal = sf.legal_moves("xiangqi", start, played)
            if uci not in legal:
                print(f"{name}: ply {i + 1} {m} is not legal for pyffish")
                failures += 1
                break
            played.append(uci)
        plies_total += len(played)
        fen = sf.get_fen("xiangqi", start, played)
        if board_and_turn(fen) != board_and_turn(row["final_fen"]):
            print(f"{name}: pyffish ends at {fen}, the server at {row['final_fen']}")
            failures += 1
        left = sf.legal_moves("xiangqi", start, played)
        if row["reason"] in ("checkmate", "stalemate") and left:
            print(f"{name}: {row['reason']} but pyffish has {len(left)} legal moves")
            failures += 1
        if row["reason"] not in ("checkmate", "stalemate", "") and not left:
            print(f"{name}: ended by {row['reason']} in a position without legal moves")
            failures += 1
        if row["plies"] != len(moves):
            print(f"{name}: {len(moves)} moves in the PGN, {row['plies']} in the results")
            failures += 1
        if tags.get("Red") != row["red"] or tags.get("Black") != row["black"]:
            print(f"{name}: names differ from the results")
            failures += 1
        token = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2"}.get(row["result"], "*")
        if tags.get("Result") != token:
            print(f"{name}: Result {tags.get('Result')} but the results say {row['result']}")
            failures += 1
        print(f"{name}: {len(moves)} plies, {len(clocks)} clock stamps, {row['result']} {row['reason']}: "
              f"{'ok' if failures == 0 else 'CHECK'}")
    print(f"{len(files)} game records, {plies_total} plies replayed by pyffish, {failures} mismatches")
    return 1 if failures or not files else 0


if __name__ == "__main__":
    sys.exit(main())
