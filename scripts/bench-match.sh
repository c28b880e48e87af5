#!/usr/bin/env bash
# Measures `glimpse match` throughput (photos/s) at --jobs 1 and --jobs 2 on a folder of
# 1,000 ≈2 MP JPEGs (made by scripts/make-match-bench.sh if missing), release build,
# against the sample catalog. Runs alternate between the two settings (ROUNDS each,
# default 3) so background load hits both alike; prints every run, the medians, the
# ratio, and the load average (throughput on a shared machine is only as good as it).
#
# Usage: scripts/bench-match.sh [PHOTO_FOLDER] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
photos=${1:-/tmp/glimpse-match-bench}
rounds=${2:-3}
[[ -d "$photos" ]] || scripts/make-match-bench.sh "$photos" 1000
source scripts/lib/release-build.sh
bin=$(release_glimpse)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" index testdata/catalog/manifest.json --db "$work/g.sqlite" >/dev/null 2>&1
count=$(find "$photos" -type f | wc -l)
declare -A rates
for round in $(seq 1 "$rounds"); do
    for jobs in 1 2; do
        rm -f "$work/rows.jsonl"
        start=$(date +%s.%N)
        /usr/bin/time -o "$work/cpu" -f "%U %S" "$bin" match "$photos" --db "$work/g.sqlite" --out "$work/rows.jsonl" --jobs "$jobs" 2>/dev/null
        cpu=$(tail -1 "$work/cpu")
        end=$(date +%s.%N)
        rate=$(echo "$count / ($end - $start)" | bc -l)
        rates[$jobs]+="$rate "
        printf 'round %d  --jobs %d  %6.1f photos/s  (user+sys CPU %s s)  load %s\n' "$round" "$jobs" "$rate" \
            "$(echo "$cpu" | awk '{print $1 + $2}')" "$(cut -d' ' -f1 /proc/loadavg)"
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
m1=$(echo "${rates[1]}" | median); m2=$(echo "${rates[2]}" | median)
printf 'median: --jobs 1 %.1f photos/s, --jobs 2 %.1f photos/s, ratio %.2f (%d photos, %d cores)\n' "$m1" "$m2" \
    "$(echo "$m2 / $m1" | bc -l)" "$count" "$(nproc)"
