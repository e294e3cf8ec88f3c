# shellcheck shell=bash
# PostgreSQL for the tests of the PostgreSQL store. Sourced by .ci/run (and
# usable by hand: `. scripts/ci_postgres.sh` before `cargo test`):
# - installs PostgreSQL (Debian package) when no initdb is found;
# - starts a throwaway cluster as the `postgres` user (via runuser when
#   running as root: PostgreSQL refuses root), data and socket in a
#   temporary folder, listening on 127.0.0.1 only, on a free port;
# - exports CAIPAN_TEST_PG_URL (superuser `postgres`, trust on loopback):
#   each test creates its own database there; tests that crash the
#   database start their own clusters with the same binaries;
# - stops the cluster and removes its folder when the calling shell exits
#   (chained before any EXIT trap already set).
# With CI set, the tests fail rather than skip when PostgreSQL is missing.

caipan_pg_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

if [ -z "$(caipan_pg_bin)" ] || [ ! -x "$(caipan_pg_bin)/initdb" ]; then
    echo "CI: installing PostgreSQL (Debian package)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
CAIPAN_PG_BIN_DIR=$(caipan_pg_bin)
CAIPAN_PG_DIR=$(mktemp -d /tmp/caipan-ci-pg.XXXXXX)

caipan_pg_as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$CAIPAN_PG_DIR"
fi
caipan_pg_as_owner "$CAIPAN_PG_BIN_DIR/initdb" -D "$CAIPAN_PG_DIR/data" -U postgres \
    --auth=trust -E UTF8 --no-instructions >"$CAIPAN_PG_DIR/initdb.log" 2>&1 || {
    cat "$CAIPAN_PG_DIR/initdb.log" >&2
    exit 1
}

caipan_pg_started=""
for _ in 1 2 3 4 5; do
    CAIPAN_PG_PORT=$((20000 + RANDOM % 40000))
    if caipan_pg_as_owner "$CAIPAN_PG_BIN_DIR/pg_ctl" -D "$CAIPAN_PG_DIR/data" \
        -l "$CAIPAN_PG_DIR/server.log" -w -t 120 \
        -o "-p $CAIPAN_PG_PORT -k $CAIPAN_PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300" \
        start >/dev/null; then
        caipan_pg_started=1
        break
    fi
done
if [ -z "$caipan_pg_started" ]; then
    echo "CI: the throwaway PostgreSQL cluster did not start" >&2
    cat "$CAIPAN_PG_DIR/server.log" >&2 || true
    exit 1
fi

caipan_pg_stop() {
    caipan_pg_as_owner "$CAIPAN_PG_BIN_DIR/pg_ctl" -D "$CAIPAN_PG_DIR/data" -m fast -w stop \
        >/dev/null 2>&1 || true
    rm -rf "$CAIPAN_PG_DIR"
}
caipan_pg_prev_trap=$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")
# shellcheck disable=SC2064
trap "caipan_pg_stop; $caipan_pg_prev_trap" EXIT

export CAIPAN_TEST_PG_URL="postgres://postgres@127.0.0.1:$CAIPAN_PG_PORT/postgres"
echo "CI: throwaway PostgreSQL $("$CAIPAN_PG_BIN_DIR/postgres" --version | awk '{print $3}') on 127.0.0.1:$CAIPAN_PG_PORT ($CAIPAN_PG_DIR)"
