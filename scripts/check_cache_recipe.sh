#!/usr/bin/env bash
# Runs the README's cache recipe (docs/nginx-broadcast.conf) on loopback in
# front of a headless demo's broadcast and checks it (issue 35): the round
# PGN and the page come from nginx's cache on the second ask (X-Cache-Status
# HIT) with caipan's ETag, and /events passes through unbuffered (the
# snapshot arrives within 5 s). Needs nginx (Debian: nginx-light). It builds
# caipan (cargo build -p caipan) unless CAIPAN_BIN names a built binary
# (.ci/run passes the one `cargo test --workspace` just built, which saves
# CI a rebuild with the package's own features). Without nginx it fails
# when CI is set and says so otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nginx >/dev/null 2>&1; then
    echo "check_cache_recipe: nginx is not installed (apt-get install nginx-light)" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 0
fi
if [ -n "${CAIPAN_BIN:-}" ]; then
    BIN=$CAIPAN_BIN
    [ -x "$BIN" ] || { echo "check_cache_recipe: CAIPAN_BIN=$BIN is not an executable file" >&2; exit 1; }
else
    cargo build --quiet -p caipan
    BIN=target/debug/caipan
fi
TMP=$(mktemp -d)
DEMO_PID="" NGINX_PID=""
cleanup() {
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null || true
    [ -n "$DEMO_PID" ] && kill "$DEMO_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT

"$BIN" demo --headless --tables 4 --speed 20 --broadcast 127.0.0.1:0 \
    --data "$TMP/hall" --log "$TMP/demo.log" >"$TMP/demo.out" 2>&1 &
DEMO_PID=$!
for _ in $(seq 100); do
    grep -q '^broadcast: ' "$TMP/demo.out" && break
    sleep 0.1
done
UP=$(sed -n 's|^broadcast: http://\(.*\)/$|\1|p' "$TMP/demo.out")
[ -n "$UP" ] || { echo "check_cache_recipe: the demo printed no broadcast URL" >&2; cat "$TMP/demo.out" >&2; exit 1; }
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

# The recipe, with the marked lines pointed at this loopback run.
mkdir -p "$TMP/cache" "$TMP/logs"
sed -e "s|server 127.0.0.1:8080;|server $UP;|" \
    -e "s|listen 80;|listen 127.0.0.1:$PORT;|" \
    -e "s|/var/cache/nginx/caipan|$TMP/cache|" docs/nginx-broadcast.conf >"$TMP/caipan.conf"
cat >"$TMP/nginx.conf" <<CONF
daemon off;
pid $TMP/nginx.pid;
error_log $TMP/logs/error.log;
$( [ "$(id -u)" = 0 ] && echo "user root;" )
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $TMP/body;
    proxy_temp_path $TMP/proxy;
    fastcgi_temp_path $TMP/fcgi;
    uwsgi_temp_path $TMP/uwsgi;
    scgi_temp_path $TMP/scgi;
    include $TMP/caipan.conf;
}
CONF
nginx -t -q -p "$TMP" -c "$TMP/nginx.conf"
nginx -p "$TMP" -c "$TMP/nginx.conf" &
NGINX_PID=$!
for _ in $(seq 50); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/state.json" && break
    sleep 0.1
done

fail() { echo "check_cache_recipe: $*" >&2; exit 1; }
status_of() { curl -s -D - -o /dev/null "http://127.0.0.1:$PORT$1" | tr -d '\r' | grep -i "^$2:" | head -1 | cut -d' ' -f2-; }
for path in /round/1.pgn "/?lang=en"; do
    status_of "$path" x-cache-status >/dev/null
    second=$(status_of "$path" x-cache-status)
    [ "$second" = HIT ] || fail "$path: the second ask was $second, not a cache HIT"
    etag=$(status_of "$path" etag)
    [ -n "$etag" ] || fail "$path: no ETag through the cache"
done
# The stream: the snapshot within 5 s through the proxy.
timeout 5 curl -s -N "http://127.0.0.1:$PORT/events" >"$TMP/events" || true
grep -q '^event: snapshot' "$TMP/events" || fail "/events: no snapshot within 5 s through nginx (buffered?)"
echo "check_cache_recipe: nginx $(nginx -v 2>&1 | sed 's|.*/||') in front of $UP: PGN and page cache HITs, /events unbuffered"
