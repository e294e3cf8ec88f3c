#!/usr/bin/env python3
"""Cross-check `caipan perft` against Fairy-Stockfish (pyffish, variant "xiangqi").

Not part of CI (pyffish is slow: roughly 7-15 ms per legal_moves call, so a run of
all positions takes about an hour with --jobs 2).
Usage:
    pip install pyffish
    cargo build --release -p caipan
    python3 tests/oracle/perft_pyffish.py [--caipan target/release/caipan] [--jobs 2] [NAME ...]

For every position below, pyffish counts perft at the given depth (bulk counting at
depth 1: pyffish.legal_moves(variant, fen, []) at every node, memoised by FEN); the script then
runs `caipan perft --depth D --fen FEN` and compares. On a mismatch it prints a
per-root-move comparison (`caipan perft --divide`) to locate the bug.
Exit status 0 only when every count agrees.

pyffish uses ranks 1-10 in its moves (ICCS h2e2 is pyffish h3e3); the FEN is the
same standard Xiangqi FEN.
"""

import argparse
import multiprocessing
import subprocess
import sys
import time

import pyffish as sf

VARIANT = "xiangqi"

# (name, FEN, depth). Depths chosen so each count is >= 1,000,000 nodes.
POSITIONS = [
    # Below 1M nodes (quick extra checks).
    ("midgame-2", "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", 4),
    ("efile-rook-pins", "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", 4),
    ("efile-cannons", "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1", 4),
    ("midgame-3", "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1", 4),
    # At least 1M nodes each.
    ("midgame-1", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 4),
    ("hu-ronghua-51-ply34", "1n2kab2/4a4/2c1b1c2/4C1n2/p1p1P1r1p/9/P1P1R3P/2N1BC2N/4A4/3AK1B2 w - - 0 1", 4),
    ("flying-general-file", "r3k4/4a4/4c4/2p1R1p2/4n4/2P1N1P2/4C4/9/4A4/4K3R b - - 0 1", 4),
    ("discovered-cannon", "3akab2/9/4b4/p1p3p1p/9/4C4/9/9/4C4/3K5 b - - 0 1", 6),
    ("cannon-screens", "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1", 5),
    ("horse-cannon-end", "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1", 5),
    ("rook-horse-end", "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1", 5),
    ("offset-kings-end", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", 5),
]


def parse_placement(fen):
    """FEN placement to a list of 90 cells (index rank * 9 + file), None when empty."""
    cells = [None] * 90
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, file = 9 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                cells[rank * 9 + file] = ch
                file += 1
    return cells


def make_fen(cells, side):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            p = cells[rank * 9 + file]
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def square(text):
    """pyffish square (file a-i, rank 1-10) to index."""
    return (int(text[1:]) - 1) * 9 + ord(text[0]) - ord("a")


def after(fen, uci):
    """FEN after a pyffish move. Only bookkeeping (the piece goes from -> to, side
    flips): every legality decision stays pyffish's."""
    i = 1
    while uci[i].isdigit():
        i += 1
    cells = parse_placement(fen)
    src, dst = square(uci[:i]), square(uci[i:])
    cells[dst], cells[src] = cells[src], None
    return make_fen(cells, "b" if fen.split()[1] == "w" else "w")


def pyffish_perft(fen, depth, memo=None):
    """Perft by pyffish.legal_moves, memoised on (FEN, depth) because every pyffish
    call costs milliseconds and perft trees are full of transpositions."""
    if memo is None:
        memo = {}
    key = (fen, depth)
    if key in memo:
        return memo[key]
    legal = sf.legal_moves(VARIANT, fen, [])
    if depth == 1:
        total = len(legal)
    else:
        total = sum(pyffish_perft(after(fen, m), depth - 1, memo) for m in legal)
    memo[key] = total
    return total


def pyffish_divide(fen, depth):
    out = {}
    for m in sf.legal_moves(VARIANT, fen, []):
        n = 1 if depth == 1 else pyffish_perft(after(fen, m), depth - 1)
        out[to_iccs(m)] = n
    return out


def to_iccs(uci):
    """pyffish move (ranks 1-10) to ICCS (ranks 0-9): h3e3 -> h2e2."""
    i = 1
    while uci[i].isdigit():
        i += 1
    a, b = uci[:i], uci[i:]
    return f"{a[0]}{int(a[1:]) - 1}{b[0]}{int(b[1:]) - 1}"


def caipan_perft(caipan, fen, depth, divide=False):
    cmd = [caipan, "perft", "--depth", str(depth), "--fen", fen, "--threads", "1"]
    if divide:
        cmd.append("--divide")
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    lines = res.stdout.split()
    if divide:
        out = res.stdout.strip().splitlines()
        return {l.split()[0]: int(l.split()[1]) for l in out[:-1]}
    return int(lines[-1])


def oracle(job):
    name, fen, depth = job
    t = time.time()
    n = pyffish_perft(fen, depth)
    return name, fen, depth, n, time.time() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--caipan", default="target/release/caipan")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    jobs = [p for p in POSITIONS if not args.names or p[0] in args.names]
    for name, fen, _ in jobs:
        if sf.validate_fen(fen, VARIANT) != sf.FEN_OK:
            print(f"{name}: pyffish rejects the FEN {fen}", file=sys.stderr)
            return 2
    ok = True
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for name, fen, depth, expected, secs in pool.imap_unordered(oracle, jobs):
            got = caipan_perft(args.caipan, fen, depth)
            verdict = "OK" if got == expected else "MISMATCH"
            print(
                f"{verdict:8} {name:14} depth {depth}  pyffish {expected:>12,}  caipan {got:>12,}"
                f"  ({secs:.0f} s)  {fen}",
                flush=True,
            )
            if got != expected:
                ok = False
                mine = caipan_perft(args.caipan, fen, depth, divide=True)
                theirs = pyffish_divide(fen, depth)
                for m in sorted(set(mine) | set(theirs)):
                    if mine.get(m) != theirs.get(m):
                        print(f"    {m}: caipan {mine.get(m)} pyffish {theirs.get(m)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
