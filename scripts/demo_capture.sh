#!/usr/bin/env bash
# Captures the screens of `caipan demo` (the README's first command) with tmux.
#
#   scripts/demo_capture.sh [OUT_DIR] [WAIT_SECONDS]
#       OUT_DIR       default target/demo-capture
#       WAIT_SECONDS  how long the hall plays before the first capture (default 60)
#   CAIPAN_BIN=target/debug/caipan scripts/demo_capture.sh   # skip the release build
#
# What it does:
#   1. builds `caipan` (release, as `cargo run --release -- demo` does),
#      unless CAIPAN_BIN names a binary;
#   2. runs `caipan demo --lang en` in a detached 120x36 tmux session (the
#      demo: embedded server on 127.0.0.1, 24 replayed tables with the
#      scripted incidents, the chief arbiter's console);
#   3. after WAIT_SECONDS saves the hall, the alerts and the claims queue
#      (`tmux capture-pane -p`) to OUT_DIR/*.txt, then the hall in Chinese;
#   4. presses `q` and checks that the demo stopped by itself with exit 0
#      (console -> tables -> server), which is what the README promises.
# Needs: tmux and cargo (the demo's games are embedded in the binary;
# CAIPAN_DEMO_ARGS="--pgn FILE" replays others).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${1:-$ROOT/target/demo-capture}
WAIT=${2:-60}
mkdir -p "$OUT"
command -v tmux >/dev/null || { echo "tmux is required" >&2; exit 2; }

if [ -z "${CAIPAN_BIN:-}" ]; then
  cargo build -q --release -p caipan
  CAIPAN_BIN=$ROOT/target/release/caipan
fi
TMP=$(mktemp -d)
SESSION="caipan-demo-$$"
cleanup() {
  tmux kill-session -t "$SESSION" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

capture() { # NAME
  tmux capture-pane -p -t "$SESSION" > "$OUT/$1.txt"
  echo "captured $OUT/$1.txt"
}

run_demo() { # LANG
  tmux new-session -d -s "$SESSION" -x 120 -y 36 \
    "sh -c '\"$CAIPAN_BIN\" demo --lang $1 --log \"$TMP/demo.log\" ${CAIPAN_DEMO_ARGS:-} 2> \"$TMP/demo.err\"; echo \$? > \"$TMP/exit\"'"
}

stop_demo() {
  tmux send-keys -t "$SESSION" q
  for _ in $(seq 1 100); do
    [ -f "$TMP/exit" ] && break
    sleep 0.1
  done
  if [ ! -f "$TMP/exit" ]; then
    echo "the demo did not stop after q" >&2
    exit 1
  fi
  code=$(cat "$TMP/exit")
  rm -f "$TMP/exit"
  if [ "$code" != 0 ]; then
    echo "the demo exited with $code" >&2
    cat "$TMP/demo.err" >&2
    exit 1
  fi
  echo "q: the demo stopped cleanly (exit 0)"
}

run_demo en
sleep "$WAIT"
grep -q "Hall" <(tmux capture-pane -p -t "$SESSION") || {
  echo "the console did not show the hall" >&2
  tmux capture-pane -p -t "$SESSION" >&2
  cat "$TMP/demo.err" >&2
  exit 1
}
capture demo-hall-120x36-en
tmux send-keys -t "$SESSION" a
sleep 1
capture demo-alerts-120x36-en
tmux send-keys -t "$SESSION" c
sleep 1
capture demo-claims-120x36-en
tmux send-keys -t "$SESSION" Escape
sleep 0.5
stop_demo

run_demo zh
sleep 10
capture demo-hall-120x36-zh
stop_demo
echo "done: screens in $OUT"
