#!/usr/bin/env python3
"""Adjudication speed against Fairy-Stockfish (pyffish), measured in the same run.

Usage (outside CI; `pip install pyffish`; run from anywhere in the checkout):
    python3 tests/oracle/repetition_bench.py [--rounds N] [--seconds S] [--baseline DIR]

--baseline DIR also benches the rulebook of another checkout (e.g. an older
commit exported with `git archive C | tar -x -C DIR`) in every round, for
before/after figures under the same load.

The input is crates/rulebook/benches/game80.json (80 plies, the last ones a
cycle whose final position occurs a third time). Each round times pyffish's
`is_optional_game_end` on it for S seconds (calls of 20 in a batch; the best
and the median batch are kept), then runs `cargo bench -p caipan-rulebook --bench
repetition` (divan: fastest and median of 100 samples), so both sides see the
same machine load; rounds alternate. At the end it prints, for our
`adjudicate_line` (JSON line in, JSON line out: the same work as pyffish's
call, input parsing included) and `judge_game` (parsed moves), adjudications
per second and the ratio to pyffish, best against best and median against
median, and the per-move cost of the incremental watch next to pyffish
re-evaluating the game prefix after every move.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAME80 = os.path.join(ROOT, "crates/rulebook/benches/game80.json")
UNITS = {"ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def uci(m):
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)


def pyffish_round(seconds):
    game = json.load(open(GAME80))
    fen, moves = game["fen"], [uci(m) for m in game["moves"]]
    batches = []
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        t0 = time.perf_counter()
        for _ in range(20):
            sf.is_optional_game_end("xiangqi", fen, moves)
        batches.append((time.perf_counter() - t0) / 20 * 1e6)
    # The server's per-move question, pyffish style: the whole prefix after every move.
    t0 = time.perf_counter()
    for i in range(1, 73):
        sf.is_optional_game_end("xiangqi", fen, moves[:i])
    per_move = (time.perf_counter() - t0) / 72 * 1e6
    return min(batches), statistics.median(batches), per_move


def to_us(value, unit):
    return float(value) * UNITS[unit]


def ours_round(root=ROOT):
    out = subprocess.run(
        ["cargo", "bench", "-q", "-p", "caipan-rulebook", "--bench", "repetition"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    res = {}
    cell = r"([\d.]+)\s*(ns|µs|us|ms|s)"
    for line in out.splitlines():
        m = re.search(r"(\w+_\w+)\s+" + cell + r"\s*│\s*" + cell + r"\s*│\s*" + cell, line)
        if m:
            name = m.group(1)
            res[name] = (to_us(m.group(2), m.group(3)), to_us(m.group(6), m.group(7)))
    if "judge_game_80_plies" not in res:
        sys.exit("could not read the divan output:\n" + out)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--baseline", help="another checkout whose rulebook is benched too")
    args = ap.parse_args()
    roots = [ROOT] + ([args.baseline] if args.baseline else [])
    for root in roots:
        subprocess.run(["cargo", "bench", "-q", "-p", "caipan-rulebook", "--bench", "repetition", "--no-run"],
                       cwd=root, check=True)
    py, ours, base = [], [], []
    for r in range(args.rounds):
        py.append(pyffish_round(args.seconds))
        ours.append(ours_round())
        if args.baseline:
            base.append(ours_round(args.baseline))
        print(f"round {r + 1}: pyffish best {py[-1][0]:.0f} us median {py[-1][1]:.0f} us; "
              f"adjudicate_line best {ours[-1]['adjudicate_line_80_plies'][0]:.1f} us "
              f"median {ours[-1]['adjudicate_line_80_plies'][1]:.1f} us", flush=True)
    py_best = min(p[0] for p in py)
    py_median = statistics.median(p[1] for p in py)
    py_move = min(p[2] for p in py)
    print(f"\npyffish is_optional_game_end, 80-ply game: best {py_best:.0f} us ({1e6 / py_best:,.0f}/s), "
          f"median {py_median:.0f} us ({1e6 / py_median:,.0f}/s)")
    for name in ["adjudicate_line_80_plies", "judge_game_80_plies"]:
        best = min(o[name][0] for o in ours)
        median = statistics.median(o[name][1] for o in ours)
        print(f"{name}: best {best:.1f} us ({1e6 / best:,.0f}/s), median {median:.1f} us ({1e6 / median:,.0f}/s); "
              f"ratio to pyffish: {py_best / best:.0f}x best-to-best, {py_median / median:.0f}x median-to-median")
    for name in ["adjudicate_line_80_plies", "judge_game_80_plies"] if base else []:
        best = min(o[name][0] for o in base)
        median = statistics.median(o[name][1] for o in base)
        print(f"baseline {name}: best {best:.1f} us, median {median:.1f} us; "
              f"ratio to pyffish: {py_best / best:.0f}x best-to-best, {py_median / median:.0f}x median-to-median")
    if all("watch_repeating_per_move" in o for o in ours):
        rep = min(o["watch_repeating_per_move"][0] for o in ours) / 20
        print(f"incremental watch while a repetition goes on (an alert and a ruling every ply): {rep:.1f} us per move")
    # watch_per_move is timed per 72 moves in one sample (divan's ItemsCount): per move = sample / 72.
    w = min(o["watch_per_move"][0] for o in ours) / 72
    print(f"incremental watch: {w * 1e3:.0f} ns per move; pyffish re-evaluating the prefix: {py_move:.0f} us per move "
          f"({py_move / w:,.0f}x)")


if __name__ == "__main__":
    main()
