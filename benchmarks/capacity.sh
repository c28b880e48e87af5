#!/usr/bin/env bash
# The scale issue's capacity catalog: N generated landmarks (31 views each, seeded random
# codes with a real catalog's code relations between one image's views: SyntheticCatalog)
# merged with the evaluation catalog (testdata/catalog, so that a query of one of its photos
# has a real answer among them), as a visual-index snapshot and its first stage only: ten
# million images would need about 54 GB of SQLite catalog beside the 38 GB snapshot, so no
# catalog database is written for the generated landmarks (glimpse debug-capacity-index).
# Two processes, each with its peak RSS: the build (snapshot streamed to disk, first stage
# built from it), then the searches (both files mapped as glimpse query maps them; one
# evaluation photo, the sample screenshot and the 28 photos of testdata/negatives on one
# thread through the first stage, and the first --exhaustive of them through the exhaustive
# scan, one run each without warm-up, for the first stage's agreement on them). Prints one
# Markdown table.
# Files go to benchmarks/.cache-capacity/ (git-ignored; reused while N and the seed are the
# same). Random codes do not cluster as real ones do (docs/PERFORMANCE.md, "The scale
# benchmark"): lists are evenly filled here, so this measures memory, build and the cost of
# reading the lists, not recall; benchmarks/scale.sh measures those on real crops.
#
# Usage: benchmarks/capacity.sh [--quick] [--landmarks N] [--seed S] [--repeat R] [--exhaustive K] [--isa I] [--rebuild] [--glimpse PATH]
#   --quick         30,000 landmarks, 2 runs per query (CI; about ten seconds)
#   --landmarks N   generated landmarks (default 10000000)
#   --seed S        seed of the generated landmarks (default 1)
#   --repeat R      timed first-stage runs per query (default 3)
#   --exhaustive K  queries also timed through the exhaustive scan (default 3)
#   --isa I         only this instruction set (default the best this CPU has)
#   --rebuild       write the snapshot and first stage again even when cached ones match
#   --glimpse P     the glimpse executable (default: build the release product)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh

landmarks=10000000 seed=1 repeat=3 exhaustive=3 isa="" rebuild=0 glimpse=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) landmarks=30000; repeat=2 ;;
    --landmarks) landmarks="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --repeat) repeat="$2"; shift ;;
    --exhaustive) exhaustive="$2"; shift ;;
    --isa) isa="$2"; shift ;;
    --rebuild) rebuild=1 ;;
    --glimpse) glimpse="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument capacity.sh "$1" ;;
  esac
  shift
done
[ -n "$glimpse" ] || glimpse=$(release_glimpse)
cache="$root/benchmarks/.cache-capacity"
mkdir -p "$cache"
isa_args=()
[ -z "$isa" ] || isa_args=(--isa "$isa")

# The evaluation catalog merged in (its generation is part of the snapshot's identity).
db="$cache/evaluation.sqlite"
[ -e "$db" ] || "$glimpse" index testdata/catalog/manifest.json --db "$db" >/dev/null 2>"$cache/index.err" \
  || { cat "$cache/index.err" >&2; rm -f "$db"; exit 1; }
snapshot="$cache/capacity-$landmarks-s$seed.vindex"
[ "$rebuild" = 0 ] || rm -f "$snapshot" "$snapshot.first"

# The build, in a process of its own (its peak RSS is the build's), kept with its figures.
build="$cache/build-$landmarks-s$seed.json"
if [ "$rebuild" = 1 ] || [ ! -e "$snapshot.first" ] || [ ! -e "$build.time" ]; then
  rm -f "$build" "$build.time"
  echo "capacity: building $landmarks generated landmarks + the evaluation catalog into $snapshot" >&2
  /usr/bin/time -f '%e %M' -o "$cache/build.time" "$glimpse" debug-capacity-index --db "$db" --landmarks "$landmarks" --seed "$seed" \
    --folder "$cache" >"$build" 2>"$cache/build.err" || { tail -n 20 "$cache/build.err" >&2; echo "capacity.sh: the build failed" >&2; exit 1; }
  mv "$cache/build.time" "$build.time"
fi
read -r build_seconds build_rss_kb <"$build.time"

# Real queries: photos in no catalog, the sample screenshot (whole: its photo is a fifth of
# it), and first an evaluation photo itself, so the exhaustive rows include a query with an
# answer to agree on.
queries="$cache/queries"
rm -rf "$queries"
mkdir -p "$queries"
cp testdata/negatives/* "$queries/"
cp testdata/catalog/animals/capybara.jpg "$queries/0-capybara.jpg"
cp testdata/samples/screenshot-hurricane-ridge.png "$queries/1-screenshot-hurricane-ridge.png"
/usr/bin/time -f '%e %M' -o "$cache/search.time" "$glimpse" debug-capacity-index --db "$db" --landmarks "$landmarks" --seed "$seed" \
  --folder "$cache" --queries "$queries" --repeat "$repeat" --exhaustive-queries "$exhaustive" "${isa_args[@]}" \
  >"$cache/search.json" 2>"$cache/search.err" || { tail -n 20 "$cache/search.err" >&2; echo "capacity.sh: the searches failed" >&2; exit 1; }
read -r _ search_rss_kb <"$cache/search.time"

# Both lines are BenchmarkRecords (snake_case JSON): read their fields with Python.
field() { python3 -c 'import json, sys; d = json.loads(open(sys.argv[1]).read()); print(eval(sys.argv[2], {}, {"d": d}))' "$1" "$2"; }
search="$cache/search.json"
row_ms() { field "$1" "next((f'{r[\"best_ms\"] / 1000:.1f} s' for r in d['rows'] if r['name'].startswith('$2')), 'not in this run')"; }
timed() { field "$search" "next(f'{r[\"p50_ms\"]:.1f} / {r[\"p99_ms\"]:.1f} ms ({r[\"isa\"]}, mean {r[\"mean_matched\"]:g} matched, {r[\"mean_compared_pairs\"]:,} pairs)' for r in d['rows'] if r['name'].startswith('$1'))"; }
images=$(field "$search" 'd["landmarks"]')
views=$(field "$search" 'd["views"]')
snapshot_bytes=$(field "$search" 'd["index_bytes"]')
stage_bytes=$(field "$search" 'd["first_stage"]["bytes"]')
lists=$(field "$search" 'd["first_stage"]["lists"]')
agreement=$(field "$search" "f'{d[\"first_stage\"][\"top_1_agreement\"]} / {d[\"first_stage\"][\"top_10_agreement\"]}'")
query_count=$(field "$search" 'd["queries"]')
per_image() { awk -v b="$1" -v n="$images" 'BEGIN { printf "%.0f", b / n }'; }
gb() { awk -v b="$1" 'BEGIN { printf "%.2f GB", b / 1e9 }'; }

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1e6 }' /proc/meminfo); $(grep -o 'avx512[a-z_0-9]*\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "capacity catalog: $landmarks generated landmarks (seed $seed) + the evaluation catalog = $images images, $views views;" \
  "queries: $query_count real images, $repeat runs each through the first stage, the first $exhaustive once (no warm-up) through the exhaustive scan"
echo
printf '| %-54s | %-58s |\n' figure value
printf '| %-54s | %-58s |\n' --- ---:
printf '| %-54s | %-58s |\n' "build: write the snapshot" "$(row_ms "$build" "write the snapshot")"
printf '| %-54s | %-58s |\n' "build: the first stage ($lists lists)" "$(row_ms "$build" "build the first stage")"
printf '| %-54s | %-58s |\n' "build: wall clock of the process / peak RSS" "$build_seconds s / $((build_rss_kb / 1024)) MB"
printf '| %-54s | %-58s |\n' "disk: visual-index snapshot (mapped, re-ranking)" "$(gb "$snapshot_bytes"), $(per_image "$snapshot_bytes") B per image"
printf '| %-54s | %-58s |\n' "resident: first stage" "$(gb "$stage_bytes"), $(per_image "$stage_bytes") B per image"
printf '| %-54s | %-58s |\n' "open: map the snapshot and first stage, checked" "$(row_ms "$search" "map the existing snapshot")"
printf '| %-54s | %-58s |\n' "search process: peak RSS after the first-stage searches" "$(field "$search" 'd["peak_rss_bytes"] // 2**20') MB (mapped pages read included)"
printf '| %-54s | %-58s |\n' "search process: peak RSS after the exhaustive scans" "$((search_rss_kb / 1024)) MB (every page of the snapshot mapped)"
printf '| %-54s | %-58s |\n' "first stage + exact scores (no cascade), 1 thread: p50 / p99" "$(timed "first stage, then exact scores")"
printf '| %-54s | %-58s |\n' "first stage alone (mean candidates)" "$(timed "first stage alone")"
printf '| %-54s | %-58s |\n' "exhaustive scan, 1 thread, one run each: p50 / p99" "$(timed "exhaustive scan")"
printf '| %-54s | %-58s |\n' "first stage: top-1 / top-10 agreement (those queries)" "$agreement"
