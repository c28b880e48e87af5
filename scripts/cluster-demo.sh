#!/usr/bin/env bash
# Beyond one machine, on one machine: a throwaway PostgreSQL 15 cluster as the catalog of
# record, two `glimpse serve` replicas on it, the sample catalog indexed into it, the same
# search answered by both, a landmark removed through replica 1 (admin API) and gone
# from replica 2's answers (LISTEN/NOTIFY + an incremental reload), then undone.
# Cleans up after itself: stops only the processes it started and its own cluster.
#
# Usage: scripts/cluster-demo.sh [--quick]   (--quick: debug build; what scripts/test.sh runs)
# Env:   GLIMPSE_BIN=path (skip the build)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
scripts/bootstrap.sh curl python3 >&2

if [ -n "${GLIMPSE_BIN:-}" ]; then
  bin=$GLIMPSE_BIN
elif [ $quick -eq 1 ]; then
  swift build --product glimpse 2>&1 | tail -n 1 >&2
  bin="$(swift build --show-bin-path)/glimpse"
else
  source scripts/lib/release-build.sh
  bin=$(release_glimpse)
fi

source scripts/lib/serve-ready.sh
work=$(mktemp -d)
pgdir=$(mktemp -d /tmp/glimpse-pg.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  scripts/pg-test-cluster.sh stop "$pgdir" || true
  rm -rf "$work"
}
trap cleanup EXIT

# Prints a command as a user would type it (the demo's transcript), with `glimpse` for the binary.
show() { echo; echo "\$ $*" | sed "s#$bin#glimpse#g"; }
fail() { echo "cluster-demo: $*" >&2; exit 1; }

url=$(scripts/pg-test-cluster.sh start "$pgdir")
echo "PostgreSQL 15: a throwaway cluster in a temporary folder, $url"
export GLIMPSE_DATABASE_URL=$url

show "$bin" index testdata/catalog/manifest.json
"$bin" index testdata/catalog/manifest.json

token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$token" > "$work/admin-token"
chmod 600 "$work/admin-token"

# Starts replica N on a free port; sets port$N.
start_replica() {
  local n=$1 log="$work/replica$1.log"
  "$bin" serve --port 0 --admin-token-file "$work/admin-token" --log-level info 2> "$log" &
  pids+=("$!")
  local pid=$! port
  port=$(wait_until_ready "$log" "$pid") || fail "replica $n exited or did not become ready (its log above)"
  printf -v "port$n" '%s' "$port"
}
show "$bin" serve --port 0 --admin-token-file admin-token '&   # replica 1'
start_replica 1
show "$bin" serve --port 0 --admin-token-file admin-token '&   # replica 2'
start_replica 2
echo "replica 1 on 127.0.0.1:$port1, replica 2 on 127.0.0.1:$port2"
for p in "$port1" "$port2"; do
  show curl -s "http://127.0.0.1:$p/readyz"
  curl -sf "http://127.0.0.1:$p/readyz"; echo
done

# The search of the README's Quick start, on each replica: landmark ids and scores.
query="region=4,211,712,332&page_size=3"
ids() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join("%s %s %.3f" % (r["kind"], r["id"], r["score"]) for r in d["results"]) or "(no results)")'; }
for p in "$port1" "$port2"; do
  show curl -s --data-binary @testdata/samples/screenshot-hurricane-ridge.png "'http://127.0.0.1:$p/v1/search?$query'"
  curl -sf --data-binary @testdata/samples/screenshot-hurricane-ridge.png "http://127.0.0.1:$p/v1/search?$query" | ids
done
answer1=$(curl -sf --data-binary @testdata/samples/screenshot-hurricane-ridge.png "http://127.0.0.1:$port1/v1/search?$query" | ids)
answer2=$(curl -sf --data-binary @testdata/samples/screenshot-hurricane-ridge.png "http://127.0.0.1:$port2/v1/search?$query" | ids)
[ "$answer1" = "$answer2" ] || fail "the replicas answer differently: '$answer1' vs '$answer2'"
grep -q "landmark landmarks/hurricane-ridge " <<< "$answer1" || fail "replica 1 does not find landmarks/hurricane-ridge: $answer1"

show curl -s -H "'Authorization: Bearer …'" --data "'{\"id\": \"landmarks/hurricane-ridge\", \"kind\": \"landmark\", \"mode\": \"delete\"}'" \
  "http://127.0.0.1:$port1/v1/admin/remove"
removed_at=$(date +%s%N)
curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  --data '{"id": "landmarks/hurricane-ridge", "kind": "landmark", "mode": "delete"}' "http://127.0.0.1:$port1/v1/admin/remove"; echo

# Replica 2 learns of it through LISTEN/NOTIFY and applies the change incrementally.
gone=""
for _ in $(seq 1 100); do
  answer=$(curl -sf --data-binary @testdata/samples/screenshot-hurricane-ridge.png "http://127.0.0.1:$port2/v1/search?$query" | ids)
  if ! grep -q "landmark landmarks/hurricane-ridge " <<< "$answer"; then gone=$(( ($(date +%s%N) - removed_at) / 1000000 )); break; fi
  sleep 0.02
done
[ -n "$gone" ] || fail "replica 2 still answers landmarks/hurricane-ridge 2 s after its removal"
show curl -s --data-binary @testdata/samples/screenshot-hurricane-ridge.png "'http://127.0.0.1:$port2/v1/search?$query'"
echo "$answer"
echo "(replica 2 stopped answering landmarks/hurricane-ridge ${gone} ms after replica 1 removed it; its log:)"
grep -m1 'index updated' "$work/replica2.log" | sed 's/^[^ ]* //' || fail "replica 2 logged no incremental update"
show curl -s "http://127.0.0.1:$port2/readyz"
curl -sf "http://127.0.0.1:$port2/readyz"; echo

show curl -s -H "'Authorization: Bearer …'" -X POST "http://127.0.0.1:$port2/v1/admin/undo"
curl -sf -H "Authorization: Bearer $token" -X POST "http://127.0.0.1:$port2/v1/admin/undo"; echo
back=""
for _ in $(seq 1 100); do
  answer=$(curl -sf --data-binary @testdata/samples/screenshot-hurricane-ridge.png "http://127.0.0.1:$port1/v1/search?$query" | ids)
  if grep -q "landmark landmarks/hurricane-ridge " <<< "$answer"; then back=1; break; fi
  sleep 0.02
done
[ -n "$back" ] || fail "replica 1 does not answer landmarks/hurricane-ridge 2 s after the undo through replica 2"
show curl -s --data-binary @testdata/samples/screenshot-hurricane-ridge.png "'http://127.0.0.1:$port1/v1/search?$query'"
echo "$answer"
echo
echo "cluster-demo: ok (two replicas, one PostgreSQL catalog; stopping them and the cluster)"
