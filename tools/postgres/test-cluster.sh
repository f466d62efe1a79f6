#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for the thread-store tests and prints the
# `SKEIN_TEST_DATABASE_URL` they read. Test data only: trust authentication on 127.0.0.1, no fsync.
# Usage: eval "$(bash tools/postgres/test-cluster.sh)"   (again later: reuses the running cluster)
set -euo pipefail
PORT=${SKEIN_TEST_PG_PORT:-55432}
DATA=${SKEIN_TEST_PG_DIR:-/tmp/skein-test-pg}
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
  echo "test-cluster.sh: no PostgreSQL server found under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi
# PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user the package made.
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ ! -f "$DATA/PG_VERSION" ]; then
  mkdir -p "$DATA"
  [ "$(id -u)" = 0 ] && chown postgres: "$DATA"
  as_owner "$BIN/initdb" -D "$DATA" -U postgres --auth=trust --no-sync -E UTF8 >/dev/null
fi
if ! as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  as_owner "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w start \
    -o "-p $PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$DATA -c fsync=off -c max_connections=300" >/dev/null
fi
echo "export SKEIN_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/postgres"
