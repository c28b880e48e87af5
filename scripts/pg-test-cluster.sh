#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the tests and the cluster demo: initdb into a
# temporary folder (as an unprivileged user when run as root), listening on 127.0.0.1 at a
# free port and on a socket in that folder, trust authentication for the user `glimpse`.
#
#   scripts/pg-test-cluster.sh start [DIR]   -> prints the cluster's superuser URL
#                                               (postgres://glimpse@127.0.0.1:PORT/postgres)
#   scripts/pg-test-cluster.sh stop DIR      -> stops it and removes DIR
#   scripts/pg-test-cluster.sh url DIR       -> prints the URL of a running cluster
#   scripts/pg-test-cluster.sh pause DIR     -> stops the server, keeps DIR (the database
#                                               going away, for the replica tests)
#   scripts/pg-test-cluster.sh resume DIR    -> starts it again on the same port
#
# Installs postgresql-15 with apt when it is missing (scripts/bootstrap.sh). Options for
# a test cluster: fsync off (a crashed test machine loses nothing of value).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=/usr/lib/postgresql/15/bin
command=${1:-}
dir=${2:-}

owner() {
  # The unprivileged user the server runs as when we are root.
  if id -u postgres >/dev/null 2>&1; then echo postgres; else echo nobody; fi
}

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$(owner)" -- "$@"; else "$@"; fi
}

free_port() {
  python3 - <<'PY'
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}

case "$command" in
  start)
    [ -x "$bin/initdb" ] || scripts/bootstrap.sh postgresql-15 >&2
    [ -n "$dir" ] || dir=$(mktemp -d /tmp/glimpse-pg.XXXXXX)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown "$(owner)" "$dir"; fi
    chmod 700 "$dir"
    port=$(free_port)
    as_owner "$bin/initdb" -D "$dir/data" -U glimpse --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://glimpse@127.0.0.1:$port/postgres" >"$dir/url"
    chmod 755 "$dir"
    echo "pg-test-cluster: PostgreSQL 15 in $dir, port $port" >&2
    cat "$dir/url"
    ;;
  stop)
    [ -n "$dir" ] || { echo "usage: $0 stop DIR" >&2; exit 1; }
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  url)
    cat "$dir/url"
    ;;
  pause)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  resume)
    port=$(sed 's#.*:\([0-9]*\)/.*#\1#' "$dir/url")
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    ;;
  *)
    echo "usage: $0 start [DIR] | stop DIR | url DIR | pause DIR | resume DIR" >&2
    exit 1
    ;;
esac
