#!/usr/bin/env bash
# The hall's PostgreSQL failing over to a synchronous streaming standby,
# on this machine (issue 17; outside CI: it takes a minute and two
# PostgreSQL servers). It
# 1. sets up a primary and a standby (pg_basebackup -R, streaming,
#    synchronous_standby_names naming the standby, synchronous_commit =
#    remote_apply), as the `postgres` user via runuser when run as root,
#    data and sockets in a temporary folder, listening on 127.0.0.1 only;
# 2. runs `caipan bench failover`: `caipan serve` on the primary with
#    tables replaying games (the bench's load generator: each table keeps
#    an outbox and resends from the server's high-water mark), the primary
#    stopped mid-stream (pg_ctl stop -m immediate), the standby promoted
#    (pg_ctl promote), every acknowledged event looked for on the standby
#    before any resend, then the hall pointed at the standby (caipan serve
#    restarted with the standby's URL) and checked again at the end;
# 3. prints a summary (acked, stored, lost, duplicated) and removes
#    everything it made.
#
# Usage: scripts/pg_standby.sh [--tables N] [--before-ms MS] [--after-ms MS]
# (extra arguments go to `caipan bench failover`). CAIPAN names the caipan
# binary (default: target/release/caipan, else target/debug/caipan);
# CAIPAN_PG_BIN the PostgreSQL binaries (default: the newest
# /usr/lib/postgresql/*/bin). Exit status: the bench's (0: nothing lost).
set -euo pipefail
cd "$(dirname "$0")/.."

CAIPAN=${CAIPAN:-}
if [ -z "$CAIPAN" ]; then
    for c in target/release/caipan target/debug/caipan; do
        if [ -x "$c" ]; then
            CAIPAN=$(pwd)/$c
            break
        fi
    done
fi
if [ -z "$CAIPAN" ] || [ ! -x "$CAIPAN" ]; then
    echo "pg_standby: no caipan binary: cargo build --release -p caipan, or set CAIPAN" >&2
    exit 2
fi
PG_BIN=${CAIPAN_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    echo "pg_standby: PostgreSQL not found (Debian: apt-get install postgresql, or set CAIPAN_PG_BIN)" >&2
    exit 2
fi

ROOT=$(mktemp -d /tmp/caipan-standby.XXXXXX)
as_pg() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}
if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$ROOT"
fi
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
PRIMARY_PORT=$(free_port)
STANDBY_PORT=$(free_port)
while [ "$STANDBY_PORT" = "$PRIMARY_PORT" ]; do STANDBY_PORT=$(free_port); done

cleanup() {
    for d in primary standby; do
        if [ -f "$ROOT/$d/postmaster.pid" ]; then
            as_pg "$PG_BIN/pg_ctl" -D "$ROOT/$d" -m immediate -w stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$ROOT"
}
trap cleanup EXIT

say() { echo "== $*"; }
psql_at() { "$PG_BIN/psql" -X -q -A -t -h 127.0.0.1 -p "$1" -U postgres -d "$2" -c "$3"; }

say "primary: initdb, 127.0.0.1:$PRIMARY_PORT ($ROOT/primary)"
as_pg "$PG_BIN/initdb" -D "$ROOT/primary" -U postgres --auth=trust -E UTF8 --no-instructions \
    >"$ROOT/initdb.log" 2>&1 || { cat "$ROOT/initdb.log" >&2; exit 1; }
# initdb's pg_hba.conf already trusts replication connections from
# 127.0.0.1 (--auth=trust). Once the standby runs, a commit waits until it
# has applied it (remote_apply): what caipan acknowledges is on the standby.
as_pg tee -a "$ROOT/primary/postgresql.auto.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
port = $PRIMARY_PORT
unix_socket_directories = '$ROOT'
max_connections = 100
wal_level = replica
max_wal_senders = 4
fsync = on
synchronous_commit = remote_apply
EOF
as_pg "$PG_BIN/pg_ctl" -D "$ROOT/primary" -l "$ROOT/primary.log" -w -t 60 start >/dev/null
psql_at "$PRIMARY_PORT" postgres "CREATE DATABASE caipan" >/dev/null

say "standby: pg_basebackup -R from the primary, 127.0.0.1:$STANDBY_PORT ($ROOT/standby)"
as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$ROOT/standby" \
    -R -X stream --checkpoint=fast
# The standby's own port; it names itself to the primary (application_name,
# the name in synchronous_standby_names). Once promoted it has no standby
# of its own: it must not wait for one (synchronous_standby_names empty).
as_pg tee -a "$ROOT/standby/postgresql.auto.conf" >/dev/null <<EOF
port = $STANDBY_PORT
primary_conninfo = 'host=127.0.0.1 port=$PRIMARY_PORT user=postgres application_name=caipan_standby'
synchronous_standby_names = ''
hot_standby = on
EOF
as_pg "$PG_BIN/pg_ctl" -D "$ROOT/standby" -l "$ROOT/standby.log" -w -t 60 start >/dev/null

# Only now the primary waits for its standby (set before the standby runs,
# the CREATE DATABASE above would have waited for ever).
psql_at "$PRIMARY_PORT" postgres \
    "ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (caipan_standby)'" >/dev/null
psql_at "$PRIMARY_PORT" postgres "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 1 100); do
    state=$(psql_at "$PRIMARY_PORT" postgres \
        "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'caipan_standby'" || true)
    [ "$state" = "sync" ] && break
    sleep 0.2
done
if [ "$state" != "sync" ]; then
    echo "pg_standby: the standby did not become synchronous (state: '${state:-none}')" >&2
    tail -n 20 "$ROOT/standby.log" >&2 || true
    exit 1
fi
say "replication: $(psql_at "$PRIMARY_PORT" postgres \
    "SELECT application_name || ' ' || state || ', sync_state ' || sync_state FROM pg_stat_replication"), \
synchronous_commit = $(psql_at "$PRIMARY_PORT" postgres "SHOW synchronous_commit")"

PRIMARY_URL="postgres://postgres@127.0.0.1:$PRIMARY_PORT/caipan"
STANDBY_URL="postgres://postgres@127.0.0.1:$STANDBY_PORT/caipan"
AS_PG=""
if [ "$(id -u)" = 0 ]; then AS_PG="runuser -u postgres --"; fi
STOP="$AS_PG '$PG_BIN/pg_ctl' -D '$ROOT/primary' -m immediate -w stop"
PROMOTE="$AS_PG '$PG_BIN/pg_ctl' -D '$ROOT/standby' -w -t 60 promote"

say "caipan bench failover: caipan serve on the primary, tables replaying; primary stopped (-m immediate) mid-stream; standby promoted; hall restarted on the standby"
set +e
"$CAIPAN" bench failover --primary "$PRIMARY_URL" --standby "$STANDBY_URL" \
    --stop-primary "$STOP" --promote "$PROMOTE" --dir "$ROOT/hall" "$@"
rc=$?
set -e

say "after the failover: standby in recovery: $(psql_at "$STANDBY_PORT" postgres "SELECT pg_is_in_recovery()"); \
rows of the hall on the promoted standby: $(psql_at "$STANDBY_PORT" caipan \
    "SELECT coalesce(sum(n), 0) || ' events in ' || count(*) || ' batch rows' FROM event_batches" 2>/dev/null || echo '?')"
if [ "$rc" = 0 ]; then
    say "PASS: every acknowledged event is on the promoted standby, none twice"
else
    say "FAIL (exit $rc); logs were in $ROOT"
fi
exit "$rc"
