#!/usr/bin/env bash
# Partition figures (issue "past one machine's memory"): one PostgreSQL catalog of the sample
# catalog plus N synthetic landmarks × 31 views (`glimpse debug-synthesize-catalog`), split
# into P partitions, served once by ONE replica holding everything and once by P replicas of
# one partition each (partition 0's replica answering, the others asked by it), on loopback:
#   - latency p50/p99 of the same sequential searches against both: Q PDQ lookups (the PDQ of
#     every sample photo, then random ones: a PDQ-only scan of every view), then every sample
#     photo as an image search, then every negative photo (in no catalog) as one; no ranking
#     cache helps;
#   - how the other partitions answered (from /metrics): from their first stage only, or with
#     a scan of every view (asked when no partition's candidates were sure of the answer);
#   - the fan-out's own cost over the slowest partition, p50/p99: per search, the time the
#     partitioned search took minus the slowest partition's own scan (logged by the
#     answering replica with --log-level debug, from the scan times the partitions report);
#   - CPU per search: the whole replica's CPU time, against the CPU time of all P partition
#     replicas together (/proc/PID/stat), and their ratio (goal: at most 1.2);
#   - answers: the two pages of every search compared (ids, order, scores; goal 0 differences);
#   - cold start of partition 0's replica to /readyz: its first start, which reads its partition
#     from the database and saves it as its snapshot (--snapshot), against a restart, which
#     maps that snapshot (then one search compared with the whole catalog's answer).
# Prints a Markdown table with the machine (CPU, cores, instruction set) and `uptime`.
#
# Usage: benchmarks/partitions.sh [--quick] [--partitions P] [--landmarks N] [--queries Q]
#        (default P=4, N=32,259: 1,000,029 synthetic views, Q=300; --quick: P=2, N=646, Q=40)
# Env:   GLIMPSE_BIN=path (skip the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0 partitions=4 landmarks=32259 queries=300
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; partitions=2; landmarks=646; queries=40 ;;
    --partitions) partitions=$2; shift ;;
    --landmarks) landmarks=$2; shift ;;
    --queries) queries=$2; shift ;;
    *) echo "usage: benchmarks/partitions.sh [--quick] [--partitions P] [--landmarks N] [--queries Q]" >&2; exit 2 ;;
  esac
  shift
done
[ "$partitions" -ge 2 ] || { echo "partitions: at least 2 partitions" >&2; exit 2; }
scripts/bootstrap.sh curl python3 >&2
if [ -n "${GLIMPSE_BIN:-}" ]; then
  bin=$GLIMPSE_BIN
else
  source scripts/lib/release-build.sh
  bin=$(release_glimpse)
fi

source scripts/lib/cluster-scratch.sh

admin=$(scripts/pg-test-cluster.sh start "$pgdir")
psql "$admin" -qc "CREATE DATABASE bench" >/dev/null
db=${admin%/postgres}/bench
echo "partitions: the sample catalog and $((landmarks * 31)) synthetic views in $partitions partitions" >&2
"$bin" index testdata/catalog/manifest.json --db "$db" --partitions "$partitions" >/dev/null 2>&1
"$bin" debug-synthesize-catalog --landmarks "$landmarks" --collections 100 --db "$db" >&2
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/cluster-token"
# Real queries too: the PDQ of every sample photo (each finds its landmark, wherever its partition).
"$bin" hash testdata/catalog/*/*.jpg 2>/dev/null | cut -d, -f1 > "$work/sample-pdqs"

# start NAME LOG_LEVEL [ARGS…]: a replica; sets port_NAME, pid_NAME and ready_ms_NAME (from
# the process's start to /readyz 200, in milliseconds).
start() {
  local name=$1 log="$work/$1.log" started
  : > "$log"
  started=$(date +%s%N)
  "$bin" serve --db "$db" --port 0 --log-level "$2" --max-concurrent-searches 16 "${@:3}" 2> "$log" &
  pids+=("$!")
  local pid=$! port
  port=$(wait_until_ready "$log" "$pid" 300) || { echo "partitions: replica $name did not become ready (its log above)" >&2; exit 1; }
  printf -v "port_$name" '%s' "$port"
  printf -v "pid_$name" '%s' "$pid"
  printf -v "ready_ms_$name" '%s' "$((($(date +%s%N) - started) / 1000000))"
}
start whole notice
for ((i = 0; i < partitions; i++)); do
  start "p$i" "$([ "$i" -eq 0 ] && echo debug || echo notice)" --partition "$i/$partitions" --cluster-token-file "$work/cluster-token" \
    --snapshot "$work/p$i.vindex"
done
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port_p0/readyz" | grep -q '"partitions_missing":\[\]' && break
  sleep 0.1
done
curl -sf "http://127.0.0.1:$port_p0/readyz" | grep -q '"partitions_missing":\[\]' || { echo "partitions: partition 0 does not see the others" >&2; exit 1; }
partition_pids="" partition_ports=""
for ((i = 0; i < partitions; i++)); do v="pid_p$i"; partition_pids+="${!v} "; v="port_p$i"; partition_ports+="${!v} "; done

python3 - "$port_whole" "$port_p0" "$queries" "$pid_whole" "$partition_pids" "$work/p0.log" "$work/sample-pdqs" "$partition_ports" <<'PY'
import glob, json, random, re, sys, time, urllib.request, os
whole_port, coord_port, queries = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
whole_pid, partition_pids, coord_log = int(sys.argv[4]), [int(p) for p in sys.argv[5].split()], sys.argv[6]
partition_ports = [int(p) for p in sys.argv[8].split()]
hz = os.sysconf("SC_CLK_TCK")
def partition_answers():
    """The other partitions' answers so far: (from their first stage only, with a scan of every view)."""
    counts = {"first_stage": 0, "every_view": 0}
    for port in partition_ports[1:]:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as response:
            for line in response.read().decode().splitlines():
                m = re.match(r'glimpse_partition_answers_total\{scan="(\w+)"\} (\S+)', line)
                if m: counts[m.group(1)] += int(float(m.group(2)))
    return counts["first_stage"], counts["every_view"]
def cpu_ms(pids):
    total = 0
    for pid in pids:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) * 1000 / hz
    return total
def post(port, path, body, content_type):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, headers={"Content-Type": content_type})
    started = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        page = json.load(response)
    return (time.perf_counter() - started) * 1000, page
def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]
def overheads_since(offset):
    text = open(coord_log).read()
    return [int(m) / 1000 for m in re.findall(r"overhead_us=(-?\d+)", text[offset:])], len(text)
rng = random.Random(20261129)
samples = [line.strip() for line in open(sys.argv[7]) if len(line.strip()) == 64]
pdqs = (samples + ["%064x" % rng.getrandbits(256) for _ in range(queries)])[:queries]
lookups = [("/v1/search/fingerprint?page_size=100&deadline_ms=30000&min_score=0.2", json.dumps({"pdq": pdq}).encode(), "application/json") for pdq in pdqs]
photos = sorted(glob.glob("testdata/catalog/*/*.jpg"))
images = [("/v1/search?page_size=100&deadline_ms=30000", open(path, "rb").read(), "application/octet-stream") for path in photos]
negatives = [("/v1/search?page_size=100&deadline_ms=30000", open(path, "rb").read(), "application/octet-stream")
             for path in sorted(glob.glob("testdata/negatives/*.jpg"))]
for port in (whole_port, coord_port):  # warm-up (connections, page-ins), with lookups not measured
    for digit in "fe":
        post(port, "/v1/search/fingerprint", json.dumps({"pdq": digit * 64}).encode(), "application/json")
flags = open("/proc/cpuinfo").read()
isa = "AVX-512" + (" + VPOPCNTDQ" if "avx512_vpopcntdq" in flags else "") if "avx512f" in flags else ("AVX2" if "avx2" in flags else "portable")
model = re.search(r"model name\s*:\s*(.*)", flags).group(1)
rows, failures = [], []
_, offset = overheads_since(0)
for label, requests in ((f"{len(lookups)} PDQ lookups (sample photos' PDQs, then random)", lookups),
                        (f"{len(images)} image searches (the sample photos, whole)", images),
                        (f"{len(negatives)} image searches of photos in no catalog (testdata/negatives)", negatives)):
    results = {}
    answers_before = partition_answers()
    for name, port, pids in (("whole", whole_port, [whole_pid]), ("partitioned", coord_port, partition_pids)):
        before = cpu_ms(pids)
        latencies, pages = [], []
        for path, body, content_type in requests:
            ms, page = post(port, path, body, content_type)
            latencies.append(ms); pages.append(page)
        results[name] = (latencies, pages, (cpu_ms(pids) - before) / len(requests))
    overheads, offset = overheads_since(offset)
    differences = sum(1 for a, b in zip(results["whole"][1], results["partitioned"][1])
                      if [(r["kind"], r["id"], r["score"]) for r in a["results"]] != [(r["kind"], r["id"], r["score"]) for r in b["results"]]
                      or a["partial"] or b["partial"])
    answered = sum(1 for page in results["whole"][1] if page["results"])
    w, p = results["whole"], results["partitioned"]
    rows.append(f"| **{label}**: search p50 / p99 (ms) | {pct(w[0], 50):.2f} / {pct(w[0], 99):.2f} | {pct(p[0], 50):.2f} / {pct(p[0], 99):.2f} | |")
    if overheads:
        rows.append(f"| fan-out over the slowest partition's scan, p50 / p99 (ms) | | {pct(overheads, 50):.2f} / {pct(overheads, 99):.2f} | ≤ 1 / ≤ 5 |")
    rows.append(f"| CPU per search, all replicas together (ms) | {w[2]:.2f} | {p[2]:.2f} (×{p[2] / w[2] if w[2] else float('nan'):.2f}) | ≤ 1.2× |")
    rows.append(f"| pages differing from the whole catalog's ({answered} of {len(requests)} with results) | | {differences} | 0 |")
    answers_after = partition_answers()
    first_stage, every_view = (answers_after[k] - answers_before[k] for k in range(2))
    rows.append(f"| the other {len(partition_ports) - 1} partitions' answers: first stage only / with a scan of every view | | {first_stage} / {every_view} | |")
    if differences or len(overheads) < len(requests):
        failures.append(f"{label}: {differences} differing pages, {len(overheads)} fan-out timings of {len(requests)}")
load = open("/proc/loadavg").read().split()[:3]
print(f"Machine: {model}, {os.cpu_count()} cores, {isa}; load average {' / '.join(load)} after the run.")
print()
print("| figure | one replica, whole catalog | %d partition replicas | goal |" % len(partition_pids))
print("|---|---:|---:|---|")
print("\n".join(rows))
if failures:
    sys.exit("partitions: " + "; ".join(failures))
PY

# Partition 0's replica again, once it has saved its snapshot: the restart maps it.
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$port_p0/metrics" | grep -q 'glimpse_snapshot_saves_total{outcome="written"} 1' && break
  sleep 0.1
done
curl -sf "http://127.0.0.1:$port_p0/metrics" | grep -q 'glimpse_snapshot_saves_total{outcome="written"} 1' \
  || { echo "partitions: partition 0's replica did not save its snapshot (its log: $(tail -n 5 "$work/p0.log"))" >&2; exit 1; }
kill "$pid_p0"; wait "$pid_p0" 2>/dev/null || true
start p0again notice --partition "0/$partitions" --cluster-token-file "$work/cluster-token" --snapshot "$work/p0.vindex"
curl -sf "http://127.0.0.1:$port_p0again/metrics" | grep -q '^glimpse_index_mapped 1' \
  || { echo "partitions: the restarted replica did not map its partition's snapshot" >&2; exit 1; }
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port_p0again/readyz" | grep -q '"partitions_missing":\[\]' && break
  sleep 0.1
done
search="/v1/search?region=4,211,712,332&page_size=10&deadline_ms=30000"
screenshot=testdata/samples/screenshot-hurricane-ridge.png
results() { curl -sf --data-binary @"$screenshot" "http://127.0.0.1:$1$search" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["results"], sort_keys=True))'; }
[ "$(results "$port_p0again")" = "$(results "$port_whole")" ] \
  || { echo "partitions: the restarted replica's answer differs from the whole catalog's" >&2; exit 1; }
echo "| partition 0's replica: cold start to /readyz from the database (saving its snapshot) / from that snapshot (ms) | | $ready_ms_p0 / $ready_ms_p0again | |"
