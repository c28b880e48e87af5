#!/usr/bin/env bash
# Replica figures on a PostgreSQL catalog of 1,000,029 synthetic views (32,259 landmarks
# x 31 views, `glimpse debug-synthesize-catalog`), release build, loopback only:
#   1. cold start: time from starting `glimpse serve` until /readyz answers 200 (3 runs)
#   2. reload: a one-landmark removal (`glimpse catalog remove`) until the replica's
#      /readyz shows the new generation, and the update time it logs (5 runs)
#   3. wrk: POST /v1/search/fingerprint with a random PDQ per request (a full scan each)
#      against one replica, then against two replicas at once (one wrk per replica)
# Prints a Markdown table with `uptime` beside each figure (the machine is shared).
#
# Usage: benchmarks/replicas.sh [--quick]  (--quick: 20,000 views, 3 s of wrk; a smoke run)
# Env:   GLIMPSE_BIN=path (skip the build), GLIMPSE_BENCH_DATABASE_URL=postgres://… (a
#        database already holding the synthetic catalog; else a throwaway cluster is made)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
if [ $quick -eq 1 ]; then landmarks=646; duration=3; else landmarks=32259; duration=20; fi
scripts/bootstrap.sh wrk curl >&2
if [ -n "${GLIMPSE_BIN:-}" ]; then
  bin=$GLIMPSE_BIN
else
  source scripts/lib/release-build.sh
  bin=$(release_glimpse)
fi

source scripts/lib/serve-ready.sh
work=$(mktemp -d)
pgdir=""
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$pgdir" ]; then scripts/pg-test-cluster.sh stop "$pgdir"; fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${GLIMPSE_BENCH_DATABASE_URL:-}" ]; then
  db=$GLIMPSE_BENCH_DATABASE_URL
else
  pgdir=$(mktemp -d /tmp/glimpse-pg.XXXXXX)
  admin=$(scripts/pg-test-cluster.sh start "$pgdir")
  psql "$admin" -qc "CREATE DATABASE bench" >/dev/null
  db=${admin%/postgres}/bench
  echo "replicas: synthesizing $((landmarks * 31)) views into $db" >&2
  "$bin" debug-synthesize-catalog --landmarks "$landmarks" --collections 100 --db "$db" >&2
fi

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
load() { uptime | sed 's/.*load average: //'; }

# start_replica LOG -> sets $port, $replica_pid and $cold_ms (spawn until /readyz 200).
start_replica() {
  local log=$1 started
  started=$(date +%s%N)
  "$bin" serve --db "$db" --port 0 --log-level info --max-concurrent-searches 16 2> "$log" &
  replica_pid=$!
  pids+=("$replica_pid")
  port=$(wait_until_ready "$log" "$replica_pid" 120 0.01) || { echo "replicas: glimpse serve did not become ready (its log above)" >&2; exit 1; }
  cold_ms=$(ms_since "$started")
}
stop_replica() { kill "$1"; wait "$1" 2>/dev/null || true; }

echo "| figure | value | uptime load (1/5/15 min) |"
echo "|---|---|---|"
views=""
for run in 1 2 3; do
  start_replica "$work/cold$run.log"
  [ -n "$views" ] || views=$(curl -sf "http://127.0.0.1:$port/readyz" | sed 's/.*"views":\([0-9]*\).*/\1/')
  echo "| cold start $run ($views views): spawn until /readyz 200 | $cold_ms ms | $(load) |"
  stop_replica "$replica_pid"
done

start_replica "$work/one.log"
one_pid=$replica_pid one_port=$port
for run in 1 2 3 4 5; do
  before=$(curl -sf "http://127.0.0.1:$one_port/readyz" | sed 's/.*"generation":\([0-9]*\).*/\1/')
  id=$(printf 'synthetic/L%08d' $((run * 101)))
  started=$(date +%s%N)
  "$bin" catalog remove "landmark:$id" --delete --db "$db" >/dev/null
  removed_ms=$(ms_since "$started")
  for _ in $(seq 1 1000); do
    now=$(curl -sf "http://127.0.0.1:$one_port/readyz" | sed 's/.*"generation":\([0-9]*\).*/\1/')
    [ "$now" != "$before" ] && break
    sleep 0.002
  done
  seen_ms=$(ms_since "$started")
  logged=$(grep 'index updated' "$work/one.log" | tail -n 1 | sed 's/.*duration_ms=\([0-9.]*\).*/\1/')
  echo "| reload $run: remove one landmark ($id); update applied by the replica (its log) / command start until /readyz shows generation $now (the command itself: $removed_ms ms, a process start + connect) | ${logged} ms / ${seen_ms} ms | $(load) |"
done
"$bin" catalog undo --db "$db" >/dev/null  # (one undo: the last removal)

wrk_run() { RANDOM_PDQ=1 wrk -t1 -c"$2" -d"${duration}s" --timeout 10s -s "$PWD/scripts/lib/wrk-search.lua" "http://127.0.0.1:$1/v1/search/fingerprint" 2>&1 | grep '^RESULT' | sed 's/^RESULT //'; }
curl -sf -o /dev/null -H 'Content-Type: application/json' --data '{"pdq": "0000000000000000000000000000000000000000000000000000000000000000"}' "http://127.0.0.1:$one_port/v1/search/fingerprint"
echo "| wrk, ONE replica, 8 connections, ${duration} s | $(wrk_run "$one_port" 8) | $(load) |"
start_replica "$work/two.log"
two_port=$port
curl -sf -o /dev/null -H 'Content-Type: application/json' --data '{"pdq": "0000000000000000000000000000000000000000000000000000000000000000"}' "http://127.0.0.1:$two_port/v1/search/fingerprint"
wrk_run "$one_port" 4 > "$work/a.txt" &
a=$!
wrk_run "$two_port" 4 > "$work/b.txt" &
b=$!
wait "$a" "$b"
sum=$(cat "$work/a.txt" "$work/b.txt" | sed 's/rps=\([0-9.]*\).*/\1/' | awk '{ s += $1 } END { printf "%.1f", s }')
echo "| wrk, TWO replicas at once, 4 connections each, ${duration} s: replica 1 / replica 2 / sum | $(cat "$work/a.txt") / $(cat "$work/b.txt") / **rps=$sum** | $(load) |"
