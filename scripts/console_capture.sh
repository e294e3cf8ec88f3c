#!/usr/bin/env bash
# Starts a demo hall and captures the arbiter console's screen with tmux.
#
#   scripts/console_capture.sh [OUT_DIR]      (default: target/console-capture)
#
# What it does, all on 127.0.0.1 and in a temporary directory:
#   1. builds `caipan` and the console's `feed_hall` example (debug);
#   2. writes a 24-table hall config with demo tokens and starts
#      `caipan serve`, reading the certificate fingerprint it prints;
#   3. starts `feed_hall`, which plays real games (from the shared PGN file
#      when present) at every table, and a perpetual check at table 7;
#   4. runs `caipan console` as the chief in a detached tmux session at
#      200x60, then at 80x24, and again in Chinese, saving each screen
#      (`tmux capture-pane`) to OUT_DIR/*.txt;
#   5. stops everything it started (by PID) and removes the temp dir.
# Needs: tmux, cargo. Exits non-zero if the console never shows the hall.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${1:-$ROOT/target/console-capture}
mkdir -p "$OUT"
command -v tmux >/dev/null || { echo "tmux is required" >&2; exit 2; }

cargo build -q -p caipan
cargo build -q -p caipan-console --example feed_hall
BIN=$ROOT/target/debug/caipan
FEED=$ROOT/target/debug/examples/feed_hall

TMP=$(mktemp -d)
SESSION="caipan-capture-$$"
SERVER_PID=""
FEED_PID=""
cleanup() {
  tmux kill-session -t "$SESSION" 2>/dev/null || true
  [ -n "$FEED_PID" ] && kill "$FEED_PID" 2>/dev/null || true
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ -n "$SERVER_PID" ] && wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

PORT=$((20000 + RANDOM % 20000))
CHIEF=demo-chief-token-0123456789
TABLES=24
NAMES=(胡荣华 许银川 吕钦 赵国荣 王天一 郑惟桐 蒋川 洪智 谢靖 孟辰 赵鑫鑫 汪洋
       欧阳琦琳 唐丹 徐天红 柳大华 李来群 于幼华 陶汉明 卜凤波 刘殿中 王嘉良
       左文静 王琳娜 戴荣光 季本涵 言穆江 张强 蔡福如 赵庆阁 陈孝堃 万春林
       钱洪发 杨官璘 "Lim Yee Hong" "Alexander Rutherford" 郭福人 李智屏
       黎德志 金波 党斐 陈富杰 苗利明 张学潮 许国义 程鸣 尚威 聂铁文)
{
  cat <<TOML
rules = "axf"
[tournament]
name = "2026 全国象棋个人赛 (演示)"
site = "demo hall"
date = "2026-11-29"
kind = "swiss"
current_round = 1
[time_control]
kind = "fischer"
base_minutes = 80
increment_seconds = 30
[server]
listen = "127.0.0.1:$PORT"
data_dir = "data"
[credentials.chief]
name = "王志明"
token = "$CHIEF"
[[credentials.deputy]]
name = "陈立新"
token = "demo-deputy-token-0123456789"
tables = [1, 2, 3, 4, 5, 6, 7, 8]
TOML
  for t in $(seq 1 $TABLES); do
    printf '[[credentials.table]]\ntable = %d\ntoken = "demo-table-%d-token-0123456789"\n' "$t" "$t"
  done
  printf '[[round]]\nnumber = 1\n'
  for t in $(seq 1 $TABLES); do
    r=${NAMES[$(( (2 * t - 2) % ${#NAMES[@]} ))]}
    b=${NAMES[$(( (2 * t - 1) % ${#NAMES[@]} ))]}
    printf '[[round.table]]\ntable = %d\nred = "%s"\nblack = "%s"\n' "$t" "$r" "$b"
  done
} > "$TMP/hall.toml"

"$BIN" serve --config "$TMP/hall.toml" --data "$TMP/data" > "$TMP/serve.out" 2> "$TMP/serve.err" &
SERVER_PID=$!
FP=""
for _ in $(seq 1 100); do
  FP=$(sed -n 's/^certificate sha256 fingerprint //p' "$TMP/serve.out" | head -1)
  [ -n "$FP" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$TMP/serve.err" >&2; exit 1; }
  sleep 0.1
done
[ -n "$FP" ] || { echo "server printed no fingerprint" >&2; cat "$TMP/serve.err" >&2; exit 1; }

PGN=$ROOT/data/games/hu-ronghua-1391.pgn
FEED_ARGS=(--server "127.0.0.1:$PORT" --fingerprint "$FP" --tables "$TABLES"
           --token-pattern 'demo-table-{}-token-0123456789' --pace-ms 400 --perpetual 7)
[ -f "$PGN" ] && FEED_ARGS+=(--pgn "$PGN")
"$FEED" "${FEED_ARGS[@]}" > "$TMP/feed.out" 2>&1 &
FEED_PID=$!

# The chief's token from a file, as the README recommends (a token on the
# command line is visible to every user of the machine in `ps`).
printf '%s\n' "$CHIEF" > "$TMP/chief.token"
chmod 600 "$TMP/chief.token"
console() { # LANG_CODE
  echo "$BIN console --server 127.0.0.1:$PORT --token-file $TMP/chief.token --fingerprint $FP --lang $1 --log $TMP/console.log"
}
capture() { # NAME
  tmux capture-pane -p -t "$SESSION" > "$OUT/$1.txt"
  echo "captured $OUT/$1.txt"
}

tmux new-session -d -s "$SESSION" -x 200 -y 60 "$(console en)"
# Let the games run for a while (the perpetual check needs 16 plies).
sleep 10
grep -q "Hall" <(tmux capture-pane -p -t "$SESSION") || {
  echo "the console did not show the hall" >&2
  tmux capture-pane -p -t "$SESSION" >&2
  exit 1
}
capture hall-200x60-en
tmux send-keys -t "$SESSION" c
sleep 1
capture claims-200x60-en
tmux send-keys -t "$SESSION" Escape Enter
sleep 1
capture detail-200x60-en
tmux send-keys -t "$SESSION" Escape
tmux resize-window -t "$SESSION" -x 80 -y 24
sleep 1.5
capture hall-80x24-en
tmux kill-session -t "$SESSION"

tmux new-session -d -s "$SESSION" -x 120 -y 40 "$(console zh)"
sleep 3
capture hall-120x40-zh
tmux send-keys -t "$SESSION" g 7 Enter Enter
sleep 1
capture detail-120x40-zh
tmux send-keys -t "$SESSION" '?'
sleep 0.5
capture help-120x40-zh
tmux send-keys -t "$SESSION" q
sleep 0.5
echo "done: $(ls "$OUT" | wc -l) screens in $OUT"
