#!/usr/bin/env bash
# Start-up benchmark: one `glimpse query` of a 1920x1080 JPEG, process start included,
# against a catalog of about 1,000,000 views (the real testdata catalog plus synthetic
# landmarks from `glimpse debug-synthesize-catalog`), with the visual-index snapshot
# beside the catalog and with the snapshot unusable (every process then builds the index
# from SQLite, as before the snapshot existed). Rounds are interleaved, pinned to one core,
# plus one row not pinned (the query checks the snapshot while it decodes the image, on two
# cores when it has them); prints medians and best of wall-clock and CPU time, and the load
# average.
#
# Usage: benchmarks/startup.sh [--quick] [--runs N] [--landmarks N] [--glimpse PATH] [--baseline PATH] [--image FILE]
#   --quick        100 synthetic landmarks (3,100 views) and 3 runs: checks the script works (CI)
#   --runs N       timed runs per row (default 15)
#   --landmarks N  synthetic landmarks (default 32259: 1,000,029 views with the 31-view layout)
#   --glimpse P    the glimpse executable (default: build the release product)
#   --baseline B   another glimpse (an older build) timed in the same rounds, right after
#                  each of the first one's runs, so both meet the machine's ups and downs
#                  alike; its rows are marked "baseline" (the snapshot rows only). It
#                  searches a copy of the catalog (benchmarks/.cache-startup/baseline/),
#                  so each build keeps a snapshot of its own format
#   --image F      the query image (default: benchmarks/.cache-peers/images/medium.jpg,
#                  generated like compare-peers.sh does)
# The catalog lives in benchmarks/.cache-startup/ (git-ignored) and is reused while its
# stamp (landmark count) matches; it is made with the given glimpse, which needs
# debug-synthesize-catalog (an older build can then be timed on it with --glimpse).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh

runs=15 landmarks=32259 glimpse="" baseline="" image=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) runs=3; landmarks=100 ;;
    --runs) runs="$2"; shift ;;
    --landmarks) landmarks="$2"; shift ;;
    --glimpse) glimpse="$2"; shift ;;
    --baseline) baseline="$2"; shift ;;
    --image) image="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument startup.sh "$1" ;;
  esac
  shift
done

[ -n "$glimpse" ] || glimpse=$(release_glimpse)

if [ -z "$image" ]; then
  image="$root/benchmarks/.cache-peers/images/medium.jpg"
  if [ ! -s "$image" ]; then
    venv="$root/benchmarks/.venv-peers"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -c 'import PIL' 2>/dev/null || "$venv/bin/pip" install -q --disable-pip-version-check "$(grep -i '^pillow' benchmarks/peers/requirements.txt)" >&2
    "$venv/bin/python" benchmarks/peers/make_images.py "$(dirname "$image")" testdata/catalog testdata >&2
  fi
fi

cache="$root/benchmarks/.cache-startup"
db="$cache/catalog-$landmarks.sqlite"
snapshot="$db.vindex"
stamp="$db.stamp"
want="$landmarks"
mkdir -p "$cache"
if [ ! -s "$db" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  rm -rf "$db" "$db"-* "$snapshot" "$stamp"
  echo "startup: building the catalog $db" >&2
  "$glimpse" index testdata/catalog/manifest.json --db "$db" >&2
  "$glimpse" debug-synthesize-catalog --db "$db" --landmarks "$landmarks" --collections 100 >&2
  echo "$want" > "$stamp"
fi

pin=()
command -v taskset >/dev/null && pin=(taskset -c "${STARTUP_CORE:-$(( $(nproc) - 1 ))}")

# Wall-clock and CPU (user + system) microseconds of one run of the command, process start
# to exit ("WALL CPU"): CPU time is what the run costs when the machine is busy with others.
time_us() {
  python3 -c '
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, _, usage = os.wait4(child.pid, 0)
print(int((time.perf_counter() - start) * 1e6), int((usage.ru_utime + usage.ru_stime) * 1e6))
' "$@"
}

# One untimed query makes sure the snapshot matches this glimpse and catalog.
"$glimpse" query "$image" --db "$db" --json >/dev/null 2>&1 || true
views="$(( landmarks * 31 )) synthetic +"

# The baseline searches its own copy of the catalog, so that each build keeps a snapshot of
# its own format beside it (a build finds the other's format stale and would rebuild it).
base_db="$cache/baseline/$(basename "$db")"
if [ -n "$baseline" ]; then
  mkdir -p "$cache/baseline"
  if [ ! -s "$base_db" ] || [ "$db" -nt "$base_db" ]; then
    rm -f "$base_db" "$base_db"-* "$base_db.vindex"
    cp "$db" "$base_db"
  fi
  "$baseline" query "$image" --db "$base_db" --json >/dev/null 2>&1 || true
fi

declare -a with free without start base_with base_free base_start
for _ in $(seq "$runs"); do
  with+=("$(time_us "${pin[@]}" "$glimpse" query "$image" --db "$db" --json --deadline-ms 60000)")
  [ -z "$baseline" ] || base_with+=("$(time_us "${pin[@]}" "$baseline" query "$image" --db "$base_db" --json --deadline-ms 60000)")
  free+=("$(time_us "$glimpse" query "$image" --db "$db" --json --deadline-ms 60000)")
  [ -z "$baseline" ] || base_free+=("$(time_us "$baseline" query "$image" --db "$base_db" --json --deadline-ms 60000)")
  # Snapshot unusable: a folder in its place (cannot be mapped, cannot be replaced).
  [ -e "$snapshot" ] && mv "$snapshot" "$snapshot.away"
  mkdir -p "$snapshot"
  without+=("$(time_us "${pin[@]}" "$glimpse" query "$image" --db "$db" --json --deadline-ms 60000)")
  rmdir "$snapshot"
  [ -e "$snapshot.away" ] && mv "$snapshot.away" "$snapshot"
  start+=("$(time_us "${pin[@]}" "$glimpse" --version)")
  [ -z "$baseline" ] || base_start+=("$(time_us "${pin[@]}" "$baseline" --version)")
done

stats() { # "wall cpu" microsecond pairs -> median and best wall, median and best CPU, in ms
  printf '%s\n' "$@" | python3 -c '
import statistics, sys
pairs = [tuple(map(int, line.split())) for line in sys.stdin if line.strip()]
wall, cpu = [p[0] / 1000 for p in pairs], [p[1] / 1000 for p in pairs]
print(f"{statistics.median(wall):.1f} | {min(wall):.1f} | {statistics.median(cpu):.1f} | {min(cpu):.1f}")'
}
echo
echo "Start-up: \`glimpse query\` of $(basename "$image") against $db ($views real views), $runs interleaved runs, ${pin[*]:-not pinned}, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | wall median ms | wall best ms | CPU median ms | CPU best ms |"
echo "|---|---:|---:|---:|---:|"
echo "| query, snapshot mapped | $(stats "${with[@]}") |"
echo "| query, snapshot mapped, not pinned ($(nproc) cores) | $(stats "${free[@]}") |"
echo "| query, no usable snapshot (index built from SQLite) | $(stats "${without[@]}") |"
echo "| \`glimpse --version\` (process start alone) | $(stats "${start[@]}") |"
if [ -n "$baseline" ]; then
  echo "| baseline ($baseline): query, snapshot mapped | $(stats "${base_with[@]}") |"
  echo "| baseline: query, snapshot mapped, not pinned ($(nproc) cores) | $(stats "${base_free[@]}") |"
  echo "| baseline: \`glimpse --version\` | $(stats "${base_start[@]}") |"
fi
