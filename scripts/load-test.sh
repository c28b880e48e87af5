#!/usr/bin/env bash
# Load test of `glimpse serve` with wrk (Debian) on loopback, bounded in time.
#
#   (a) POST /v1/search with a 1080p JPEG and with a 12 MP JPEG (sample catalog; every search
#       phase sends byte-distinct copies of the JPEG, so none is answered from kept rankings)
#   (b) POST /v1/search/fingerprint (PDQ lookup) on a catalog of 1,000,000 views
#       (built with `glimpse debug-synthesize-catalog`; --quick: the sample catalog)
#   (c) GET /v1/landmarks/{id}
#   (d) a re-index (`glimpse index` of a changed manifest) during search load: failed
#       requests and the time until /readyz serves the new catalog generation
#   (e) a soak (5 minutes; --quick: 10 s) sampling the server's RSS every 5 s
#   (f) GET /healthz while 4 connections upload 12 MP JPEGs (both cores decoding): its
#       p99 must stay at most 50 ms (full run; reported in --quick)
#   (g) GET …/thumbnail on 32 connections (rendered once, then kept)
#   (i) tracing on: (a) and (b) again on a server started with --otel-endpoint, exporting
#       every request's spans over OTLP/HTTP to a collector on loopback (Python, answering
#       200 and counting exports), to set beside the untraced rows
#   (h) hostile clients: 1080p searches while 24 uploads stall after 10 bytes and 8 drip a
#       byte a second (each must get 408 and be closed within 20 s, no search 429), then
#       49,000,000x1 and 1x49,000,000 PNGs, 4 at a time (each 422, the server's peak RSS
#       must grow by less than 64 MB)
#
# Prints one table row per phase: requests/s, p50, p99, errors (non-2xx other than 429,
# socket errors), 429s, the server's peak RSS, and `uptime` (the machine is shared).
# Fails on any failed request, a reload that does not land within 5 s, or (full run)
# an RSS that grows more than 5 % over the soak. Throughput targets are reported, not
# enforced (figures depend on the machine's load).
#
# Usage: scripts/load-test.sh [--quick]    (--quick: debug build, ~3 s per phase; CI)
# Env:   GLIMPSE_BIN=path (skip the build), GLIMPSE_LOAD_REPORT=file (also write the table),
#        GLIMPSE_SOAK_SECONDS=N (soak length)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
if [ $quick -eq 1 ]; then phase=3; soak=10; reindex_load=6; else phase=20; soak=300; reindex_load=12; fi
soak=${GLIMPSE_SOAK_SECONDS:-$soak}

scripts/bootstrap.sh wrk curl
venv=.venv-loadtest
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import PIL" 2>/dev/null; then
  echo "load-test: installing Pillow into $venv (test images)" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "pillow==11.3.0"
fi

if [ -n "${GLIMPSE_BIN:-}" ]; then
  bin=$GLIMPSE_BIN
elif [ $quick -eq 1 ]; then
  swift build --product glimpse 2>&1 | tail -n 1
  bin="$(swift build --show-bin-path)/glimpse"
else
  source scripts/lib/release-build.sh
  bin=$(release_glimpse --scratch-path .build-release)
fi

source scripts/lib/serve-ready.sh
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Test images: a catalog photo scaled to 1920x1080 and 4000x3000, JPEG quality 90.
"$venv/bin/python" - "$work" <<'PY'
import sys
from PIL import Image
src = Image.open("testdata/catalog/landmarks/hurricane-ridge.jpg").convert("RGB")
for name, size in (("1080p", (1920, 1080)), ("12mp", (4000, 3000))):
    src.resize(size, Image.LANCZOS).save(f"{sys.argv[1]}/{name}.jpg", quality=90)
PY
# Byte-distinct copies (the same pixels) for the search phases: a body sent again is answered
# from the server's 256 kept rankings without a decode or a search.
python3 scripts/lib/distinct_copies.py "$work/1080p.jpg" 600 > "$work/1080p.list"
python3 scripts/lib/distinct_copies.py "$work/12mp.jpg" 400 > "$work/12mp.list"

# The sample catalog, and a changed manifest (one landmark fewer, absolute paths) to re-index.
"$bin" index testdata/catalog/manifest.json --db "$work/sample.sqlite" >/dev/null 2>&1
python3 - "$work" <<'PY'
import json, os, sys
manifest = json.load(open("testdata/catalog/manifest.json"))
root = os.path.abspath("testdata/catalog")
manifest["landmarks"] = [dict(l, images=[os.path.join(root, p) for p in l["images"]]) for l in manifest["landmarks"] if l["id"] != "food/apricot"]
for c in manifest["collections"]:
    c["landmarks"] = [i for i in c["landmarks"] if i != "food/apricot"]
json.dump(manifest, open(f"{sys.argv[1]}/changed.json", "w"))
PY

# Starts a server on a catalog; sets $port and $server_pid.
start_server() {
  local db=$1 log=$2
  "$bin" serve --db "$db" --port 0 --log-level notice --max-concurrent-searches 16 --reload-poll-ms 100 "${@:3}" 2> "$log" &
  server_pid=$!
  pids+=("$server_pid")
  port=$(wait_until_ready "$log" "$server_pid") || { echo "load-test: glimpse serve did not become ready (its log above)" >&2; exit 1; }
}

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
# CPU time (ms) the process has used: utime + stime.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$1/stat"; }
hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }

wrk_lua="$PWD/scripts/lib/wrk-search.lua"

report=$work/report.md
{
  echo "| phase | requests/s | p50 ms | p99 ms | requests | errors | 429 | peak RSS MB | server CPU ms/request | uptime load (1/5/15 min) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} > "$report"
failures=0

# run_wrk NAME URL CONNECTIONS DURATION [BODY_FILE|BODY_LIST.list [BODY_TYPE]]
run_wrk() {
  local name=$1 url=$2 connections=$3 duration=$4
  local out cpu_before
  cpu_before=$(cpu_ms "$server_pid")
  local body_file=${5:-} body_list=""
  if [[ $body_file == *.list ]]; then body_list=$body_file; body_file=""; fi
  out=$(RANDOM_PDQ="${RANDOM_PDQ:-0}" BODY_FILE="$body_file" BODY_LIST="$body_list" BODY_TYPE="${6:-}" wrk -t2 -c"$connections" -d"${duration}s" --timeout 10s -s "$wrk_lua" "$url" 2>&1 | grep '^RESULT') || {
    echo "load-test: wrk failed for $name" >&2; failures=$((failures + 1)); return; }
  local load
  load=$(uptime | sed 's/.*load average: //')
  local rps p50 p99 requests failed busy sockets
  rps=$(sed 's/.*rps=\([^ ]*\).*/\1/' <<< "$out"); p50=$(sed 's/.*p50_ms=\([^ ]*\).*/\1/' <<< "$out")
  p99=$(sed 's/.*p99_ms=\([^ ]*\).*/\1/' <<< "$out"); requests=$(sed 's/.*requests=\([^ ]*\).*/\1/' <<< "$out")
  failed=$(sed 's/.*failed=\([^ ]*\).*/\1/' <<< "$out"); busy=$(sed 's/.*busy=\([^ ]*\).*/\1/' <<< "$out")
  sockets=$(sed 's/.*socket_errors=\([^ ]*\).*/\1/' <<< "$out")
  local errors=$((failed + sockets))
  local per_request
  per_request=$(awk -v c="$(( $(cpu_ms "$server_pid") - cpu_before ))" -v n="$requests" 'BEGIN { printf "%.2f", (n > 0 ? c / n : 0) }')
  echo "| $name | $rps | $p50 | $p99 | $requests | $errors | $busy | $(( $(hwm_kb "$server_pid") / 1024 )) | $per_request | $load |" >> "$report"
  last_p99=$p99
  last_busy=$busy
  echo "load-test: $name: $out" >&2
  [ "$errors" -eq 0 ] || { echo "load-test: $name: $errors failed requests" >&2; failures=$((failures + 1)); }
}

start_server "$work/sample.sqlite" "$work/sample.log"
sample_pid=$server_pid
base="http://127.0.0.1:$port"
curl -sf -o /dev/null --data-binary @"$work/1080p.jpg" "$base/v1/search"  # warm-up

run_wrk "(a) POST /v1/search, 1080p JPEG" "$base/v1/search" 4 "$phase" "$work/1080p.list"
run_wrk "(a) POST /v1/search, 12 MP JPEG" "$base/v1/search" 4 "$phase" "$work/12mp.list"
run_wrk "(c) GET /v1/landmarks/{id}" "$base/v1/landmarks/landmarks%2Fhurricane-ridge" 8 "$phase"

# (f) /healthz while both cores decode 12 MP uploads: decoding runs on threads of its own,
# so the threads that answer /healthz are never all busy decoding.
(BODY_LIST="$work/12mp.list" wrk -t1 -c4 -d"$((phase + 2))s" --timeout 10s -s "$wrk_lua" "$base/v1/search" >/dev/null 2>&1) &
heavy_pid=$!
sleep 1
run_wrk "(f) GET /healthz while 4 connections upload 12 MP JPEGs" "$base/healthz" 2 "$phase"
wait "$heavy_pid" || true
if [ $quick -eq 0 ] && awk -v p="${last_p99:-0}" 'BEGIN { exit !(p > 50) }'; then
  echo "load-test: /healthz p99 ${last_p99} ms while decoding (limit 50 ms)" >&2; failures=$((failures + 1))
fi

# (g) thumbnails: rendered once per picture, then answered from memory.
run_wrk "(g) GET /v1/landmarks/{id}/thumbnail, 32 connections" "$base/v1/landmarks/landmarks%2Fhurricane-ridge/thumbnail" 32 "$phase"

# (h) hostile clients. Slow uploads hold no search slot (slots are taken once the body is
# in) and are answered 408 after --body-stall-seconds (10 s) without a byte, or under
# --min-body-rate on average after that.
python3 scripts/lib/hostile_clients.py "$port" 24 8 20 > "$work/hostile.out" &
hostile_pid=$!
sleep 1
run_wrk "(h) POST /v1/search, 1080p JPEG, beside 32 stalled or dripping uploads" "$base/v1/search" 4 "$phase" "$work/1080p.list"
if [ "${last_busy:-0}" -ne 0 ]; then
  echo "load-test: $last_busy searches refused 429 beside slow uploads" >&2; failures=$((failures + 1))
fi
if wait "$hostile_pid"; then
  echo "load-test: slow uploads: $(cat "$work/hostile.out")" >&2
else
  echo "load-test: slow uploads not all answered 408 and closed: $(cat "$work/hostile.out")" >&2; failures=$((failures + 1))
fi
python3 scripts/lib/hostile_clients.py --thin-pngs "$work"
hwm_before=$(hwm_kb "$server_pid")
thin_statuses=$(for i in 1 2; do for f in wide tall; do
  curl -s -o /dev/null -w '%{http_code}\n' --data-binary @"$work/$f.png" "$base/v1/search" &
done; done; wait)
hwm_growth=$(( ($(hwm_kb "$server_pid") - hwm_before) / 1024 ))
echo "| (h) 4 thin PNGs at once (49,000,000x1, 1x49,000,000): statuses $(tr '\n' ' ' <<< "$thin_statuses") | | | | 4 | | | +$hwm_growth | | $(uptime | sed 's/.*load average: //') |" >> "$report"
if [ "$(grep -c '^422$' <<< "$thin_statuses")" -ne 4 ] || [ "$hwm_growth" -ge 64 ]; then
  echo "load-test: thin PNGs: statuses $thin_statuses, peak RSS +$hwm_growth MB (each must be 422, growth < 64 MB)" >&2; failures=$((failures + 1))
fi

# (b) the PDQ lookup: on 1,000,000 synthetic views, or the sample catalog in --quick.
pdq=$("$bin" hash testdata/catalog/landmarks/hurricane-ridge.jpg | cut -d, -f1)
printf '{"pdq": "%s"}' "$pdq" > "$work/lookup.json"
run_wrk "(b) POST /v1/search/fingerprint (PDQ), sample catalog, one PDQ (cached ranking)" "$base/v1/search/fingerprint" 8 "$phase" "$work/lookup.json" application/json
RANDOM_PDQ=1 run_wrk "(b) POST /v1/search/fingerprint, sample catalog, a random PDQ per request" "$base/v1/search/fingerprint" 8 "$phase"
if [ $quick -eq 1 ]; then
  :
elif "$bin" debug-synthesize-catalog --help 2>&1 | grep -q "USAGE: glimpse debug-synthesize-catalog" &&
     { echo "load-test: synthesizing a 1,000,000-view catalog" >&2
       "$bin" debug-synthesize-catalog --landmarks 40000 --views-per-landmark 25 --db "$work/million.sqlite" >&2; }; then
  start_server "$work/million.sqlite" "$work/million.log"
  million=$server_pid
  views=$(curl -sf "http://127.0.0.1:$port/readyz" | sed 's/.*"views":\([0-9]*\).*/\1/')
  run_wrk "(b) POST /v1/search/fingerprint, $views views, one PDQ (cached ranking)" "http://127.0.0.1:$port/v1/search/fingerprint" 8 "$phase" "$work/lookup.json" application/json
  RANDOM_PDQ=1 run_wrk "(b) POST /v1/search/fingerprint, $views views, a random PDQ per request (full scan)" "http://127.0.0.1:$port/v1/search/fingerprint" 8 "$phase"
  kill "$million"; wait "$million" 2>/dev/null || true
  server_pid=$sample_pid
else
  echo "| (b) fingerprint lookup, 1 M views | not measured: 'glimpse debug-synthesize-catalog --landmarks 40000 --views-per-landmark 25' is missing or failed | | | | | | | | |" >> "$report"
fi

# (d) re-index during load.
server_pid=$sample_pid
before=$(curl -sf "$base/readyz" | sed 's/.*"generation":\([0-9]*\).*/\1/')
(BODY_LIST="$work/1080p.list" wrk -t2 -c4 -d"${reindex_load}s" --timeout 10s -s "$wrk_lua" "$base/v1/search" 2>&1 | grep '^RESULT' > "$work/reindex.wrk") &
wrk_pid=$!
sleep $((reindex_load / 3))
"$bin" index "$work/changed.json" --db "$work/sample.sqlite" >/dev/null 2>&1
indexed=$(date +%s%N)
reload_ms=""
while [ $(( ($(date +%s%N) - indexed) / 1000000 )) -lt 5000 ]; do
  generation=$(curl -sf "$base/readyz" | sed 's/.*"generation":\([0-9]*\).*/\1/')
  if [ "$generation" != "$before" ]; then reload_ms=$(( ($(date +%s%N) - indexed) / 1000000 )); break; fi
  sleep 0.01
done
wait "$wrk_pid"
out=$(cat "$work/reindex.wrk")
reindex_failed=$(( $(sed 's/.*failed=\([^ ]*\).*/\1/' <<< "$out") + $(sed 's/.*socket_errors=\([^ ]*\).*/\1/' <<< "$out") ))
echo "load-test: re-index during load: $out; new generation served ${reload_ms:-never} ms after 'glimpse index' returned" >&2
echo "| (d) re-index during POST /v1/search load | $(sed 's/.*rps=\([^ ]*\).*/\1/' <<< "$out") | $(sed 's/.*p50_ms=\([^ ]*\).*/\1/' <<< "$out") | $(sed 's/.*p99_ms=\([^ ]*\).*/\1/' <<< "$out") | $(sed 's/.*requests=\([^ ]*\).*/\1/' <<< "$out") | $reindex_failed | $(sed 's/.*busy=\([^ ]*\).*/\1/' <<< "$out") | $(( $(hwm_kb "$server_pid") / 1024 )) | | $(uptime | sed 's/.*load average: //'); new catalog served after ${reload_ms:-never} ms |" >> "$report"
[ "$reindex_failed" -eq 0 ] || { echo "load-test: requests failed during the re-index" >&2; failures=$((failures + 1)); }
[ -n "$reload_ms" ] || { echo "load-test: the new catalog was not served within 5 s" >&2; failures=$((failures + 1)); }

# (e) soak: mixed load, RSS sampled every 5 s.
(BODY_LIST="$work/1080p.list" wrk -t2 -c4 -d"${soak}s" --timeout 10s -s "$wrk_lua" "$base/v1/search" 2>&1 | grep '^RESULT' > "$work/soak.wrk") &
soak_pid=$!
: > "$work/rss.txt"
while kill -0 "$soak_pid" 2>/dev/null; do rss_kb "$server_pid" >> "$work/rss.txt"; sleep 5; done
wait "$soak_pid"
out=$(cat "$work/soak.wrk")
samples=$(wc -l < "$work/rss.txt")
fifth=$(( samples / 5 > 0 ? samples / 5 : 1 ))
early=$(head -n "$fifth" "$work/rss.txt" | sort -n | tail -n 1)
late=$(tail -n "$fifth" "$work/rss.txt" | sort -n | tail -n 1)
growth=$(awk -v a="$early" -v b="$late" 'BEGIN { printf "%.1f", (b - a) * 100 / a }')
soak_failed=$(( $(sed 's/.*failed=\([^ ]*\).*/\1/' <<< "$out") + $(sed 's/.*socket_errors=\([^ ]*\).*/\1/' <<< "$out") ))
echo "| (e) soak ${soak} s, POST /v1/search 1080p | $(sed 's/.*rps=\([^ ]*\).*/\1/' <<< "$out") | $(sed 's/.*p50_ms=\([^ ]*\).*/\1/' <<< "$out") | $(sed 's/.*p99_ms=\([^ ]*\).*/\1/' <<< "$out") | $(sed 's/.*requests=\([^ ]*\).*/\1/' <<< "$out") | $soak_failed | $(sed 's/.*busy=\([^ ]*\).*/\1/' <<< "$out") | $(( $(hwm_kb "$server_pid") / 1024 )) | | $(uptime | sed 's/.*load average: //'); RSS $((early / 1024)) → $((late / 1024)) MB ($growth %) |" >> "$report"
[ "$soak_failed" -eq 0 ] || { echo "load-test: requests failed during the soak" >&2; failures=$((failures + 1)); }
if [ $quick -eq 0 ] && awk -v g="$growth" 'BEGIN { exit !(g > 5) }'; then
  echo "load-test: RSS grew $growth % over the soak (limit 5 %)" >&2; failures=$((failures + 1))
fi

# (i) tracing on: the same searches on a server exporting every request's spans.
python3 - "$work/collector.port" "$work/collector.count" <<'PY' &
import http.server, sys, threading
count = 0
class Collector(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global count
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        count += 1
        open(sys.argv[2], "w").write(str(count))
        self.send_response(200); self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
open(sys.argv[1], "w").write(str(server.server_address[1]))
server.serve_forever()
PY
collector_pid=$!
pids+=("$collector_pid")
for _ in $(seq 1 100); do [ -s "$work/collector.port" ] && break; sleep 0.1; done
start_server "$work/sample.sqlite" "$work/traced.log" --otel-endpoint "http://127.0.0.1:$(cat "$work/collector.port")"
traced_pid=$server_pid
traced="http://127.0.0.1:$port"
curl -sf -o /dev/null --data-binary @"$work/1080p.jpg" "$traced/v1/search"  # warm-up
run_wrk "(i) POST /v1/search, 1080p JPEG, traced (OTLP/HTTP export)" "$traced/v1/search" 4 "$phase" "$work/1080p.list"
run_wrk "(i) POST /v1/search/fingerprint (PDQ), one PDQ, traced" "$traced/v1/search/fingerprint" 8 "$phase" "$work/lookup.json" application/json
kill "$traced_pid"; wait "$traced_pid" 2>/dev/null || true
exports=$(cat "$work/collector.count" 2>/dev/null || echo 0)
echo "load-test: the collector received $exports OTLP export(s)" >&2
[ "$exports" -gt 0 ] || { echo "load-test: the traced server exported no spans" >&2; failures=$((failures + 1)); }
kill "$collector_pid" 2>/dev/null || true
server_pid=$sample_pid

echo
echo "glimpse serve load test ($([ $quick -eq 1 ] && echo "quick, debug build" || echo "release build")), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), ISA $(grep -o 'avx512[a-z]*\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
cat "$report"
[ -z "${GLIMPSE_LOAD_REPORT:-}" ] || cp "$report" "$GLIMPSE_LOAD_REPORT"
[ "$failures" -eq 0 ] || { echo "load-test: $failures check(s) failed" >&2; exit 1; }
echo "load-test: passed"
