#!/usr/bin/env bash
# Beyond one machine, on one machine: a throwaway PostgreSQL 15 cluster as the catalog of
# record, the sample catalog indexed into it in P partitions, R `glimpse serve` replicas of
# every partition (--partition i/P; P=1: R replicas of the whole catalog) behind haproxy
# (Debian), and:
#   1. the screenshot search through the load balancer, the same from every replica (and,
#      partitioned, the same as a replica holding the whole catalog: the merge is exact);
#   2. a landmark removed through one replica (admin API) and gone from every replica's
#      answers (LISTEN/NOTIFY + an incremental reload), then undone;
#   3. wrk through the load balancer (a different PDQ lookup per request, so each one fans
#      out) while one replica is killed with SIGKILL: no failed request;
#   4. partitioned: every replica of the last partition killed: every page through the load
#      balancer is partial and names it; one replica started again: complete pages again.
# Cleans up after itself: stops only the processes it started and its own cluster.
#
# Usage: scripts/cluster-demo.sh [--quick] [--partitions P] [--replicas R]
#        (default P=1, R=2; --quick: debug build, shorter load, and P=2 unless given; what
#        scripts/test.sh runs)
# Env:   GLIMPSE_BIN=path (skip the build)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0 partitions="" replicas=2
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --partitions) partitions=$2; shift ;;
    --replicas) replicas=$2; shift ;;
    *) echo "usage: scripts/cluster-demo.sh [--quick] [--partitions P] [--replicas R]" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$partitions" ] || partitions=$([ $quick -eq 1 ] && echo 2 || echo 1)
[[ "$partitions" =~ ^[1-9][0-9]?$ && "$replicas" =~ ^[1-9]$ ]] || { echo "cluster-demo: 1 to 99 partitions, 1 to 9 replicas each" >&2; exit 2; }
load_seconds=$([ $quick -eq 1 ] && echo 4 || echo 10)
scripts/bootstrap.sh curl python3 wrk haproxy >&2

if [ -n "${GLIMPSE_BIN:-}" ]; then
  bin=$GLIMPSE_BIN
elif [ $quick -eq 1 ]; then
  swift build --product glimpse 2>&1 | tail -n 1 >&2
  bin="$(swift build --show-bin-path)/glimpse"
else
  source scripts/lib/release-build.sh
  bin=$(release_glimpse)
fi

source scripts/lib/cluster-scratch.sh

# Prints a command as a user would type it (the demo's transcript), with `glimpse` for the binary.
show() { echo; echo "\$ $*" | sed "s#$bin#glimpse#g"; }
fail() { echo "cluster-demo: $*" >&2; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

url=$(scripts/pg-test-cluster.sh start "$pgdir")
echo "PostgreSQL 15: a throwaway cluster in a temporary folder, $url"
export GLIMPSE_DATABASE_URL=$url

show "$bin" index testdata/catalog/manifest.json --partitions "$partitions"
"$bin" index testdata/catalog/manifest.json --partitions "$partitions"

token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$token" > "$work/admin-token"
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/cluster-token"
chmod 600 "$work/admin-token" "$work/cluster-token"

# start_replica NAME [ARGS…]: a replica on a free port; sets port_NAME and pid_NAME.
start_replica() {
  local name=$1 log="$work/replica-$1.log"
  : > "$log"
  "$bin" serve --port 0 --admin-token-file "$work/admin-token" --log-level info "${@:2}" 2> "$log" &
  pids+=("$!")
  local pid=$! port
  port=$(wait_until_ready "$log" "$pid") || fail "replica $name exited or did not become ready (its log above)"
  printf -v "port_$name" '%s' "$port"
  printf -v "pid_$name" '%s' "$pid"
}
# partition_args I: the options of a replica of partition I.
partition_args() {
  [ "$partitions" -gt 1 ] && echo "--partition $1/$partitions --cluster-token-file $work/cluster-token" || true
}
names=()
for ((i = 0; i < partitions; i++)); do
  for ((r = 1; r <= replicas; r++)); do
    name="p${i}r${r}"
    # shellcheck disable=SC2046
    [ ${#names[@]} -lt 3 ] && show "$bin" serve --port 0 --admin-token-file admin-token \
      $(partition_args "$i" | sed "s#$work/##") "&   # replica $r of partition $i/$partitions"
    # shellcheck disable=SC2046
    start_replica "$name" $(partition_args "$i")
    names+=("$name")
  done
done
[ ${#names[@]} -le 3 ] || echo "(… $(( ${#names[@]} - 3 )) more)"
port_of() { local v="port_$1"; echo "${!v}"; }
pid_of() { local v="pid_$1"; echo "${!v}"; }

# Every partitioned replica sees the others (heartbeats in the catalog, one a second).
wait_whole_cluster() {
  local name
  for name in "$@"; do
    for _ in $(seq 1 100); do
      curl -sf "http://127.0.0.1:$(port_of "$name")/readyz" | grep -q '"partitions_missing":\[\]' && continue 2
      [ "$partitions" -eq 1 ] && continue 2
      sleep 0.1
    done
    fail "replica $name still misses partitions: $(curl -s "http://127.0.0.1:$(port_of "$name")/readyz")"
  done
}
wait_whole_cluster "${names[@]}"
show curl -s "http://127.0.0.1:$(port_of "${names[0]}")/readyz"
curl -sf "http://127.0.0.1:$(port_of "${names[0]}")/readyz"; echo

# haproxy in front: round robin, /readyz health checks every 200 ms, a request whose replica
# refuses or drops it retried on another (the requests are buffered, so they can be).
lb=$(free_port)
{
  cat <<EOF
global
  maxconn 512
defaults
  mode http
  timeout connect 100ms
  timeout client 30s
  timeout server 30s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout 503
frontend glimpse
  bind 127.0.0.1:$lb
  default_backend replicas
backend replicas
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1
  http-check expect status 200
  default-server inter 200ms fall 1 rise 2
EOF
  for name in "${names[@]}"; do echo "  server $name 127.0.0.1:$(port_of "$name") check"; done
} > "$work/haproxy.cfg"
haproxy -f "$work/haproxy.cfg" -db > "$work/haproxy.log" 2>&1 &
pids+=("$!")
for _ in $(seq 1 50); do curl -sf -o /dev/null "http://127.0.0.1:$lb/healthz" && break; sleep 0.1; done
echo
echo "haproxy on 127.0.0.1:$lb in front of ${#names[@]} replicas ($partitions partition(s) × $replicas)"

# 1. The search of the README's Quick start: landmark ids and scores.
query="region=4,211,712,332&page_size=3"
image=testdata/samples/screenshot-hurricane-ridge.png
ids() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join("%s %s %.6f" % (r["kind"], r["id"], r["score"]) for r in d["results"]) or "(no results)")'; }
search() { curl -sf --data-binary @"$image" "http://127.0.0.1:$1/v1/search?$query" | ids; }
show curl -s --data-binary @$image "'http://127.0.0.1:$lb/v1/search?$query'"
expected=$(search "$lb")
echo "$expected"
grep -q "landmark landmarks/hurricane-ridge " <<< "$expected" || fail "no landmarks/hurricane-ridge through the load balancer: $expected"
for name in "${names[@]}"; do
  [ "$(search "$(port_of "$name")")" = "$expected" ] || fail "replica $name answers differently: $(search "$(port_of "$name")")"
done
if [ "$partitions" -gt 1 ]; then
  start_replica whole
  [ "$(search "$port_whole")" = "$expected" ] || fail "the merged page differs from the whole catalog's: $(search "$port_whole")"
  echo "(every replica answers the same page, and it is the page of a replica holding the whole catalog)"
  kill "$pid_whole"
  wait "$pid_whole" 2>/dev/null || true
else
  echo "(every replica answers the same page)"
fi

# 2. A removal through one replica, gone from every replica's answers.
show curl -s -H "'Authorization: Bearer …'" --data "'{\"id\": \"landmarks/hurricane-ridge\", \"kind\": \"landmark\", \"mode\": \"delete\"}'" \
  "http://127.0.0.1:$(port_of "${names[0]}")/v1/admin/remove"
removed_at=$(date +%s%N)
curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  --data '{"id": "landmarks/hurricane-ridge", "kind": "landmark", "mode": "delete"}' "http://127.0.0.1:$(port_of "${names[0]}")/v1/admin/remove"; echo
slowest=0
for name in "${names[@]}"; do
  gone=""
  for _ in $(seq 1 150); do
    if ! grep -q "landmark landmarks/hurricane-ridge " <<< "$(search "$(port_of "$name")")"; then gone=$(( ($(date +%s%N) - removed_at) / 1000000 )); break; fi
    sleep 0.02
  done
  [ -n "$gone" ] || fail "replica $name still answers landmarks/hurricane-ridge 3 s after its removal"
  [ "$gone" -gt "$slowest" ] && slowest=$gone
done
show curl -s --data-binary @$image "'http://127.0.0.1:$lb/v1/search?$query'"
search "$lb"
echo "(every replica stopped answering landmarks/hurricane-ridge within ${slowest} ms of its removal)"
show curl -s -H "'Authorization: Bearer …'" -X POST "http://127.0.0.1:$lb/v1/admin/undo"
curl -sf -H "Authorization: Bearer $token" -X POST "http://127.0.0.1:$lb/v1/admin/undo"; echo
for name in "${names[@]}"; do
  for _ in $(seq 1 150); do [ "$(search "$(port_of "$name")")" = "$expected" ] && continue 2; sleep 0.02; done
  fail "replica $name does not answer landmarks/hurricane-ridge again 3 s after the undo"
done
echo "(every replica answers it again)"

# 3. Load through the load balancer while one replica is killed.
wrk_lua="$PWD/scripts/lib/wrk-search.lua"
victim=${names[$(( ${#names[@]} - 1 ))]}
[ "$replicas" -gt 1 ] || victim=""
show wrk -t2 -c4 -d"${load_seconds}s" "'http://127.0.0.1:$lb/v1/search/fingerprint?deadline_ms=5000'" "  # a different PDQ lookup per request"
RANDOM_PDQ=1 wrk -t2 -c4 -d"${load_seconds}s" --timeout 10s -s "$wrk_lua" "http://127.0.0.1:$lb/v1/search/fingerprint?deadline_ms=5000" > "$work/wrk.out" 2>&1 &
wrk_pid=$!
if [ -n "$victim" ]; then
  sleep $(( load_seconds / 2 ))
  kill -9 "$(pid_of "$victim")"
  wait "$(pid_of "$victim")" 2>/dev/null || true
  echo "(kill -9 replica $victim after $(( load_seconds / 2 )) s)"
fi
wait "$wrk_pid" || fail "wrk failed: $(cat "$work/wrk.out")"
result=$(grep '^RESULT' "$work/wrk.out") || fail "wrk printed no result: $(cat "$work/wrk.out")"
echo "$result"
failed=$(sed 's/.*failed=\([0-9]*\).*/\1/' <<< "$result"); busy=$(sed 's/.*busy=\([0-9]*\).*/\1/' <<< "$result")
sockets=$(sed 's/.*socket_errors=\([0-9]*\).*/\1/' <<< "$result"); requests=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<< "$result")
partial=$(sed 's/.*partial=\([0-9]*\).*/\1/' <<< "$result")
[ "$failed" -eq 0 ] && [ "$busy" -eq 0 ] && [ "$sockets" -eq 0 ] || fail "failed requests under load: $result"
[ "$partial" -eq 0 ] || fail "partial pages under load (a partition's twin did not answer in time): $result"
[ "$requests" -gt 0 ] || fail "no request completed: $result"
echo "(${requests} requests, none failed, none partial$([ -n "$victim" ] && echo ", one replica killed half-way"))"
alive=()
for name in "${names[@]}"; do [ "$name" = "$victim" ] || alive+=("$name"); done

# 4. A partition lost, then back.
if [ "$partitions" -gt 1 ]; then
  last=$(( partitions - 1 ))
  for name in "${alive[@]}"; do
    [[ "$name" == p${last}r* ]] && { kill -9 "$(pid_of "$name")" 2>/dev/null || true; wait "$(pid_of "$name")" 2>/dev/null || true; }
  done
  echo
  echo "(kill -9 every replica of partition $last/$partitions)"
  sleep 1  # the load balancer's health checks take them out
  partial=0 total=20
  for k in $(seq 1 $total); do
    page=$(curl -sf -H 'Content-Type: application/json' --data "{\"pdq\": \"$(printf '%064x' "$k")\"}" "http://127.0.0.1:$lb/v1/search/fingerprint?min_score=0") \
      || fail "a request failed with partition $last lost"
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if d["partial"] and d.get("missing_partitions") == [sys.argv[2]] else 1)' "$page" "$last/$partitions" \
      && partial=$((partial + 1))
  done
  show curl -s --data-binary @$image "'http://127.0.0.1:$lb/v1/search?region=4,200,712,340&page_size=3'"
  curl -sf --data-binary @"$image" "http://127.0.0.1:$lb/v1/search?region=4,200,712,340&page_size=3" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("partial:", d["partial"], "missing_partitions:", d.get("missing_partitions"), "results:", len(d["results"]))'
  [ "$partial" -eq "$total" ] || fail "$partial of $total pages marked partial with partition $last lost"
  echo "($partial of $total pages marked partial, naming partition $last/$partitions)"
  show "$bin" serve --port 0 --admin-token-file admin-token --partition "$last/$partitions" --cluster-token-file cluster-token "&"
  start_replica back $(partition_args "$last")
  wait_whole_cluster "${alive[0]}"
  sleep 1
  complete=$(search "$lb")
  [ "$complete" = "$expected" ] || fail "not complete again after partition $last returned: $complete"
  for k in $(seq 1 $total); do
    page=$(curl -sf -H 'Content-Type: application/json' --data "{\"pdq\": \"$(printf '%064x' "$((k + 100))")\"}" "http://127.0.0.1:$lb/v1/search/fingerprint?min_score=0")
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(1 if d["partial"] else 0)' "$page" || fail "a partial page after partition $last returned: $page"
  done
  echo "(partition $last/$partitions back: $total of $total pages complete)"
fi
echo
echo "cluster-demo: ok ($partitions partition(s) × $replicas replicas behind haproxy, one PostgreSQL catalog; stopping them and the cluster)"
