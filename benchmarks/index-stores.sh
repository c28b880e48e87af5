#!/usr/bin/env bash
# Index throughput into the embedded SQLite catalog beside a PostgreSQL 15 catalog, same
# binary, same photos, same run, rounds interleaved (SQLite, PostgreSQL, SQLite, …):
#   photos     `glimpse index FOLDER` into an empty catalog: decode + fingerprint every
#              photo, then the one-transaction commit (the sample catalog's JPEGs, each
#              copied --copies times with other bytes after the JPEG's end: the same
#              picture with a new content hash, so every copy is fingerprinted)
#   unchanged  the same `glimpse index FOLDER` again: nothing to fingerprint (file states),
#              the store's read-compare-commit path alone
#   synthetic  `glimpse debug-synthesize-catalog --landmarks N` into an empty catalog: no
#              image decoding, the store's bulk write of N fingerprinted landmarks (31 views each)
# Prints the median and best wall-clock time of each row and store, glimpse's own CPU time
# (user + system; the PostgreSQL server's CPU is not in it), photos or views per second,
# the load average and the CPU.
#
# Usage: benchmarks/index-stores.sh [--quick] [--rounds N] [--copies K] [--landmarks N] [--glimpse PATH]
#   --quick        1 round, 1 copy, 300 synthetic landmarks: checks the script works (CI)
#   --rounds N     rounds per row and store (default 3)
#   --copies K     copies of each sample photo (default 4: 164 photos)
#   --landmarks N  synthetic landmarks (default 32259: 1,000,029 views)
#   --glimpse P    the glimpse executable (default: build the release product)
# PostgreSQL: GLIMPSE_TEST_POSTGRES_URL when set (a superuser URL of a cluster), else a
# throwaway cluster from scripts/pg-test-cluster.sh, stopped at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh

rounds=3 copies=4 landmarks=32259 glimpse=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) rounds=1; copies=1; landmarks=300 ;;
    --rounds) rounds="$2"; shift ;;
    --copies) copies="$2"; shift ;;
    --landmarks) landmarks="$2"; shift ;;
    --glimpse) glimpse="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument index-stores.sh "$1" ;;
  esac
  shift
done

[ -n "$glimpse" ] || glimpse=$(release_glimpse)

source scripts/lib/catalogs.sh
catalogs_begin glimpse-index-stores

# The photos: every sample JPEG, --copies times, each copy with its own trailing bytes.
photos="$work/photos"
mkdir -p "$photos"
count=0
for file in testdata/catalog/*/*.jpg; do
  name=$(basename "$(dirname "$file")")-$(basename "$file" .jpg)
  for ((copy = 0; copy < copies; copy++)); do
    { cat "$file"; printf 'glimpse-bench-copy-%d' "$copy"; } >"$photos/$name-$copy.jpg"
    count=$((count + 1))
  done
done
views=$((landmarks * 31))


# Runs glimpse "$@" and appends "wall cpu" (seconds) to $times_file; fails loudly.
timed() {
  local out="$work/out" TIMEFORMAT='%R %U %S'
  local measured
  measured=$( { time "$glimpse" "$@" >"$out" 2>&1; } 2>&1 ) || { cat "$out" >&2; echo "index-stores.sh: glimpse $* failed" >&2; exit 1; }
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<<"$measured" >>"$times_file"
}

declare -A files
for row in photos unchanged synthetic; do for kind in sqlite postgres; do
  files[$row-$kind]="$work/times-$row-$kind"
  : >"${files[$row-$kind]}"
done; done

echo "index-stores: $count photos, $landmarks synthetic landmarks ($views views), $rounds round(s), glimpse $glimpse" >&2
for ((round = 1; round <= rounds; round++)); do
  for kind in sqlite postgres; do
    new_catalog "$kind" "photos_${kind}_$round"
    times_file="${files[photos-$kind]}" timed index "$photos" --db "$db"
    times_file="${files[unchanged-$kind]}" timed index "$photos" --db "$db"
    new_catalog "$kind" "synthetic_${kind}_$round"
    times_file="${files[synthetic-$kind]}" timed debug-synthesize-catalog --landmarks "$landmarks" --db "$db"
    echo "index-stores: round $round, $kind done" >&2
  done
done

# The median of the numbers on stdin.
median() {
  sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# "median-wall best-wall median-cpu" of a times file.
summary() {
  echo "$(cut -d' ' -f1 "$1" | median) $(cut -d' ' -f1 "$1" | sort -n | head -n1 | awk '{ printf "%.2f", $1 }') $(cut -d' ' -f2 "$1" | median)"
}

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(grep -o 'avx512[a-z]*\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| %-10s | %-8s | %-14s | %-8s | %-14s | %-22s |\n' row store "median wall s" "best s" "glimpse CPU s" "rate (median)"
printf '| %-10s | %-8s | %-14s | %-8s | %-14s | %-22s |\n' --- --- --- --- --- ---
for row in photos unchanged synthetic; do
  for kind in sqlite postgres; do
    read -r median best cpu <<<"$(summary "${files[$row-$kind]}")"
    case "$row" in
      photos) rate=$(awk -v n="$count" -v t="$median" 'BEGIN { printf "%.1f photos/s", n / t }') ;;
      unchanged) rate=$(awk -v n="$count" -v t="$median" 'BEGIN { printf "%.0f photos/s checked", n / t }') ;;
      synthetic) rate=$(awk -v n="$views" -v t="$median" 'BEGIN { printf "%.0f views/s", n / t }') ;;
    esac
    printf '| %-10s | %-8s | %-14s | %-8s | %-14s | %-22s |\n' "$row" "$kind" "$median" "$best" "$cpu" "$rate"
  done
done
