#!/usr/bin/env bash
# Where the first stage starts to pay: for catalogs of several sizes (crops of real photographs
# plus the evaluation's catalog, built and cached by benchmarks/scale.sh --prepare), the p50 of
# one search on one thread through the exhaustive scan and through the first stage's cascade
# (the default search of a catalog that has one), per instruction set, on the two query sets of
# scale.sh: real photos in no catalog (every search matches nothing, so the cascade pays its
# first stage and then the whole scan) and 46 transformed evaluation queries (which match).
# The "mixed" columns are the mean of the two p50s: a workload where half the queries match.
# FirstStagePolicy.automatic builds a first stage from the smallest catalog whose mixed p50 is
# lower through the cascade on every instruction set (docs/PERFORMANCE.md, "Where the first
# stage pays").
#
# Usage: benchmarks/first-stage-crossover.sh [--quick] [--sizes N,N,...] [--repeat R] [--glimpse PATH]
#   --quick        sizes 1000,3000, 2 runs per query (CI; about two minutes)
#   --sizes L      crop counts, comma-separated (default 3000,10000,30000,50000,100000)
#   --repeat R     timed searches per query and instruction set (default 3)
#   --glimpse P    the glimpse executable (default: build the release product)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh

sizes=3000,10000,30000,50000,100000 repeat=3 glimpse="" quick=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) sizes=1000,3000; repeat=2; quick=(--quick) ;;
    --sizes) sizes="$2"; shift ;;
    --repeat) repeat="$2"; shift ;;
    --glimpse) glimpse="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument first-stage-crossover.sh "$1" ;;
  esac
  shift
done
[ -n "$glimpse" ] || glimpse=$(release_glimpse)

# "ISA P50" per row of bench-search JSON $1 whose name starts with $2.
p50s() {
  python3 -c 'import json, sys
d = json.loads(sys.argv[1])
for r in d["rows"]:
    if r["name"].startswith(sys.argv[2]): print(r["isa"], "%.3f" % r["p50_ms"])' "$1" "$2"
}
views_of() { python3 -c 'import json, sys; print(json.loads(sys.argv[1])["views"])' "$1"; }

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; $(grep -o 'avx512[a-z_0-9]*\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); p50 of one search on one thread, ms; $repeat runs per query"
echo
printf '| %8s | %10s | %-8s | %21s | %21s | %21s |\n' crops views isa "no match: exact / cascade" "match: exact / cascade" "mixed: exact / cascade"
printf '| %8s | %10s | %-8s | %21s | %21s | %21s |\n' ---: ---: --- ---: ---: ---:
IFS=, read -r -a counts <<<"$sizes"
for count in "${counts[@]}"; do
  # scale.sh --quick crops gnome-backgrounds alone; every other run crops the four packages.
  read -r db queries positives _ < <(bash benchmarks/scale.sh "${quick[@]}" --images "$count" --prepare --glimpse "$glimpse" | tail -n 1)
  negative_json=$("$glimpse" bench-search --db "$db" --queries "$queries" --repeat "$repeat")
  positive_json=$("$glimpse" bench-search --db "$db" --queries "$positives" --repeat "$repeat")
  views=$(views_of "$negative_json")
  while read -r isa exact_no; do
    cascade_no=$(p50s "$negative_json" "first stage, then exact scores" | awk -v i="$isa" '$1 == i { print $2 }')
    exact_yes=$(p50s "$positive_json" "exact search" | awk -v i="$isa" '$1 == i { print $2 }')
    cascade_yes=$(p50s "$positive_json" "first stage, then exact scores" | awk -v i="$isa" '$1 == i { print $2 }')
    mixed=$(awk -v a="$exact_no" -v b="$exact_yes" -v c="$cascade_no" -v d="$cascade_yes" \
      'BEGIN { printf "%.3f / %.3f%s", (a + b) / 2, (c + d) / 2, (c + d < a + b) ? " *" : "" }')
    printf '| %8s | %10s | %-8s | %21s | %21s | %21s |\n' "$count" "$views" "$isa" \
      "$exact_no / $cascade_no" "$exact_yes / $cascade_yes" "$mixed"
  done < <(p50s "$negative_json" "exact search")
done
echo
echo "*: the cascade is faster on the mixed workload. FirstStagePolicy.automatic gives a catalog a first stage from" \
  "$(sed -n 's/.*automaticMinimumViews = \([0-9_]*\).*/\1/p' Sources/Search/FirstStagePolicy.swift | tr -d _) views."
