#!/usr/bin/env bash
# Renders caipan's HTML export in headless Chromium and saves a screenshot
# (outside CI: needs a Chromium; on Debian `apt-get install
# chromium-headless-shell fonts-noto-cjk`).
#
# Usage (from the repository root):
#   tests/oracle/export_html_screenshot.sh [OUT.png] [DATA_DIR ROUND]
# Without a data dir it plays the export test's round through the real server
# (cargo test ... with EXPORT_TEST_KEEP) and exports round 1. The page is also
# checked to be well-formed XML (python3 xml.dom.minidom) before rendering.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-/tmp/caipan-export.png}
work=$(mktemp -d /tmp/caipan-html-XXXXXX)
if [[ $# -ge 3 ]]; then
  data=$2; round=$3
else
  data=$work/data; round=1
  EXPORT_TEST_KEEP=$data cargo test -q -p caipan --test export a_round_played >/dev/null
fi
[[ -x target/debug/caipan ]] || cargo build -q -p caipan
target/debug/caipan export --data "$data" --round "$round" --format html --out "$work/page.html"
python3 - "$work/page.html" <<'PY'
import sys, xml.dom.minidom
text = open(sys.argv[1], encoding="utf-8").read()
xml.dom.minidom.parseString(text.replace("<!DOCTYPE html>", "", 1).encode("utf-8"))
print("well-formed:", sys.argv[1])
PY
chrome=$(command -v chromium-headless-shell || command -v chromium || command -v google-chrome || true)
if [[ -z $chrome && -x /usr/lib/chromium/chromium-headless-shell ]]; then chrome=/usr/lib/chromium/chromium-headless-shell; fi
[[ -n $chrome ]] || { echo "no Chromium found" >&2; exit 2; }
"$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1100,1500 --screenshot="$out" "file://$work/page.html" 2>/dev/null
echo "screenshot: $out"
