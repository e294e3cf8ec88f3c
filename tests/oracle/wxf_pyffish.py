#!/usr/bin/env python3
"""Cross-check caipan's WXF writer against pyffish (Fairy-Stockfish), outside CI.

Usage (from the repository root):
    pip install pyffish
    cargo build -p caipan
    python3 tests/oracle/wxf_pyffish.py [PGN] [--sample N (default 5000, 0 = all)] [--seed S] [--show K]

It runs the hidden `caipan verify --dump-wxf PGN`, which prints for every ply of
every game: game, ply, FEN before the move, ICCS, our WXF, our Chinese. For a
sample of moves (default 5,000; `--sample 0` for all) it asks pyffish for its WXF text of the
same move, `pyffish.get_san("xiangqi", fen, move, False, NOTATION_XIANGQI_WXF)`,
where pyffish's ranks are 1-10 (ICCS h2e2 is h3e3).

Before comparing, pyffish's text is normalised in the two ways that are only a
matter of style: its `=` for a sideways move becomes `.` (the WXF standard sign,
which caipan writes), and its trailing check mark `+` / mate mark `#` is dropped
(WXF move text has none). Everything else must match character for character.
Differences are grouped by kind and printed with examples.
"""

import argparse
import collections
import os
import random
import re
import subprocess
import sys

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_PGN = os.path.join(ROOT, "..", "shared", "data", "games", "hu-ronghua-1391.pgn")


def to_pyffish_uci(iccs):
    """ICCS (ranks 0-9) to Fairy-Stockfish UCI (ranks 1-10)."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def normalise(pyffish_wxf):
    s = pyffish_wxf
    # A check/mate mark after a complete 4-character move.
    if len(s) == 5 and s[-1] in "+#":
        s = s[:-1]
    return s.replace("=", ".")


def kind(ours, theirs):
    """A short label for a systematic difference."""
    if re.fullmatch(r"[1-5][1-9][.+\-][1-9]", theirs):
        return "pyffish numbers tandem pawns (index+file) where WXF uses +/- markers"
    if re.fullmatch(r"[RHCP][1-9][+\-.][1-9]", theirs) and re.fullmatch(r"[RHCP][+\-][+\-.][1-9]", ours):
        return "pyffish names the file of a tandem piece when the other could not make the same step"
    if re.fullmatch(r"[RHCP][+\-][+\-.][1-9]", theirs) and re.fullmatch(r"[1-9][+\-1-9][+\-.][1-9]", ours):
        return "pawns doubled on two files: WXF file+marker vs pyffish P+/P-"
    return "other"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn", nargs="?", default=DEFAULT_PGN)
    ap.add_argument("--sample", type=int, default=5000, help="moves to sample (0 = all; all 120k take ~15 min)")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--show", type=int, default=5, help="examples per kind of difference")
    ap.add_argument("--caipan", default=os.path.join(ROOT, "target", "debug", "caipan"))
    args = ap.parse_args()

    out = subprocess.run(
        [args.caipan, "verify", "--dump-wxf", args.pgn], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        sys.exit(f"caipan verify --dump-wxf failed with exit code {out.returncode}")
    rows = [line.split("\t") for line in out.stdout.splitlines() if line]
    if args.sample and args.sample < len(rows):
        rows = random.Random(args.seed).sample(rows, args.sample)

    agree = 0
    diffs = collections.defaultdict(list)
    for game, ply, fen, iccs, ours, _chinese in rows:
        theirs = sf.get_san("xiangqi", fen, to_pyffish_uci(iccs), False, sf.NOTATION_XIANGQI_WXF)
        if normalise(theirs) == ours:
            agree += 1
        else:
            diffs[kind(ours, normalise(theirs))].append((game, ply, fen, iccs, ours, theirs))

    total = len(rows)
    print(f"pyffish {'.'.join(map(str, sf.version()))}: {agree} / {total} moves agree "
          f"({100.0 * agree / max(total, 1):.3f}%), {total - agree} differ")
    for k, items in sorted(diffs.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{len(items)} x {k}")
        for game, ply, fen, iccs, ours, theirs in items[: args.show]:
            print(f"  game {game} ply {ply} {iccs}: caipan {ours}  pyffish {theirs}   {fen}")


if __name__ == "__main__":
    main()
