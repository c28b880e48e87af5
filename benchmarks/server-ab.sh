#!/usr/bin/env bash
# A/B of two `glimpse serve` builds on the same machine: both serve a copy of the sample
# catalog side by side, and wrk (Debian) drives one at a time, the order alternating every
# round so both meet the machine's ups and downs alike. Requests: a cached fingerprint
# lookup (one PDQ), a random PDQ per request (the whole index scanned), an entity read
# (GET /v1/landmarks/{id}) and an image search (POST /v1/search with a 512x239 catalog JPEG,
# 600 byte-distinct copies: none answered from the kept rankings). Prints one row per
# request kind and build: mean requests/s over the rounds, each round's figure, the server's
# CPU per request, and the change of B against A.
#
# Usage: benchmarks/server-ab.sh [--quick] [--rounds N] [--seconds S] --a PATH [--b PATH]
#   --a PATH      build A (the reference, e.g. a release build of the previous commit)
#   --b PATH      build B (default: build the release product of this tree)
#   --rounds N    rounds (default 4); each runs every request kind on A and on B
#   --seconds S   seconds per wrk run (default 6)
#   --quick       1 round of 1 s: checks the script works (CI)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh
source scripts/lib/serve-ready.sh

rounds=4 seconds=6 a="" b=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) rounds=1; seconds=1 ;;
    --rounds) rounds="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --a) a="$2"; shift ;;
    --b) b="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument server-ab.sh "$1" ;;
  esac
  shift
done
[ -n "$a" ] || { echo "server-ab.sh: --a PATH is required (the reference build)" >&2; exit 1; }
[ -n "$b" ] || b=$(release_glimpse)
scripts/bootstrap.sh wrk curl

work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

"$b" index testdata/catalog/manifest.json --db "$work/a.sqlite" >/dev/null 2>&1
cp "$work/a.sqlite" "$work/b.sqlite"
echo '{"pdq": "366e3b07998dd58e4e03cb139ba2b5e22ef10e5995bd30ee62db8a5881bcc166"}' > "$work/lookup.json"
cp testdata/catalog/landmarks/hurricane-ridge.jpg "$work/photo.jpg"
python3 scripts/lib/distinct_copies.py "$work/photo.jpg" 600 > "$work/photo.list"
# start BUILD DB LOG: starts a server on an ephemeral port and prints "PID PORT".
start() {
  "$1" serve --db "$2" --port 0 --log-level notice 2> "$3" >/dev/null &
  local pid=$! port
  port=$(wait_until_ready "$3" "$pid") || { echo "server-ab.sh: $1 serve did not start (its log above)" >&2; exit 1; }
  echo "$pid $port"
}
read -r pid_a port_a < <(start "$a" "$work/a.sqlite" "$work/a.log"); pids+=("$pid_a")
read -r pid_b port_b < <(start "$b" "$work/b.sqlite" "$work/b.log"); pids+=("$pid_b")

cpu_ms() { awk '{ print ($14 + $15) * 10 }' "/proc/$1/stat"; }
# run SIDE KIND: one wrk run; appends "SIDE KIND rps cpu_ms_per_request" to the results.
run() {
  local side=$1 kind=$2 port pid out
  if [ "$side" = A ]; then port=$port_a pid=$pid_a; else port=$port_b pid=$pid_b; fi
  local base="http://127.0.0.1:$port" c0
  c0=$(cpu_ms "$pid")
  case $kind in
    lookup) out=$(BODY_FILE="$work/lookup.json" BODY_TYPE=application/json wrk -t2 -c8 -d"${seconds}s" -s scripts/lib/wrk-search.lua "$base/v1/search/fingerprint") ;;
    random-lookup) out=$(RANDOM_PDQ=1 wrk -t2 -c8 -d"${seconds}s" -s scripts/lib/wrk-search.lua "$base/v1/search/fingerprint") ;;
    entity) out=$(wrk -t2 -c8 -d"${seconds}s" -s scripts/lib/wrk-search.lua "$base/v1/landmarks/landmarks%2Fhurricane-ridge") ;;
    search-photo) out=$(BODY_LIST="$work/photo.list" wrk -t2 -c4 -d"${seconds}s" -s scripts/lib/wrk-search.lua "$base/v1/search") ;;
  esac
  local line rps requests failed
  line=$(grep '^RESULT' <<< "$out")
  rps=$(sed 's/.*rps=\([^ ]*\).*/\1/' <<< "$line"); requests=$(sed 's/.*requests=\([^ ]*\).*/\1/' <<< "$line")
  failed=$(sed 's/.*failed=\([^ ]*\).*/\1/' <<< "$line")
  [ "$failed" = 0 ] || { echo "server-ab.sh: $side $kind: $failed failed requests" >&2; exit 1; }
  echo "$side $kind $rps $(awk -v c="$(( $(cpu_ms "$pid") - c0 ))" -v n="$requests" 'BEGIN { printf "%.3f", (n > 0 ? c / n : 0) }')" >> "$work/results"
}

kinds="lookup random-lookup entity search-photo"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then sides="A B"; else sides="B A"; fi
  for kind in $kinds; do
    for side in $sides; do run "$side" "$kind"; done
  done
done

echo "server A/B: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $rounds rounds of ${seconds} s, load $(uptime | sed 's/.*load average: //')"
echo "A: $a"
echo "B: $b"
echo "| request | build | requests/s (mean) | each round | CPU ms/request (mean) | B vs A |"
echo "|---|---|---:|---|---:|---:|"
awk -v kinds="$kinds" '
  { n[$1" "$2]++; r[$1" "$2] += $3; c[$1" "$2] += $4; each[$1" "$2] = each[$1" "$2] (each[$1" "$2] == "" ? "" : ", ") $3 }
  END {
    split(kinds, k, " ")
    for (i = 1; i <= length(k); i++) {
      ma = r["A "k[i]] / n["A "k[i]]; mb = r["B "k[i]] / n["B "k[i]]
      printf "| %s | A | %.1f | %s | %.3f | |\n", k[i], ma, each["A "k[i]], c["A "k[i]] / n["A "k[i]]
      printf "| %s | B | %.1f | %s | %.3f | %+.1f %% |\n", k[i], mb, each["B "k[i]], c["B "k[i]] / n["B "k[i]], (mb / ma - 1) * 100
    }
  }' "$work/results"
