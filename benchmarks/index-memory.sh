#!/usr/bin/env bash
# Peak memory of `glimpse index` against the number of images: does it stay bounded by the
# images in flight, or grow with the images indexed?
#
# For each store (SQLite beside PostgreSQL 15) and each folder size, `glimpse index FOLDER`
# into an empty catalog, with its resident memory (VmRSS, VmHWM of /proc/PID/status) read
# every 50 ms and the phase read off its progress line:
#   fingerprinting  the peak while files are read, hashed, fingerprinted and their
#                   fingerprints saved in small transactions (what grows with the count when
#                   something is kept per image)
#   whole command   the process's peak (VmHWM) over everything: the one-transaction commit
#                   and, for SQLite, the visual-index snapshot written beside the catalog
#                   (streamed a chunk of views at a time; docs/PERFORMANCE.md, "Indexing memory")
# The photos are the sample catalog's 41 JPEGs and 5 PNGs, copied with their own trailing
# bytes after the image's end (the same picture under a new content hash, so every copy is
# decoded and fingerprinted), built once into benchmarks/.cache-index-memory/ (git-ignored).
#
# Fails when either peak of the larger folder is more than --limit (default 1.5) times the
# smaller one's, on either store: the bound this benchmark is here to keep.
#
# Usage: benchmarks/index-memory.sh [--quick] [--small N] [--large N] [--jobs N] [--limit R] [--glimpse PATH]
#   --quick      300 and 3,000 images (CI; about a minute)
#   --small N    the smaller folder (default 1000)
#   --large N    the larger folder (default 10000)
#   --jobs N     glimpse index --jobs (default: every core)
#   --limit R    the largest ratio of peaks accepted (default 1.5)
#   --glimpse P  the glimpse executable (default: build the release product)
# PostgreSQL: GLIMPSE_TEST_POSTGRES_URL when set (a superuser URL of a cluster), else a
# throwaway cluster from scripts/pg-test-cluster.sh, stopped at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh

small=1000 large=10000 jobs=$(nproc) limit=1.5 glimpse=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) small=300; large=3000 ;;
    --small) small="$2"; shift ;;
    --large) large="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    --limit) limit="$2"; shift ;;
    --glimpse) glimpse="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument index-memory.sh "$1" ;;
  esac
  shift
done
[ -n "$glimpse" ] || glimpse=$(release_glimpse)

cache="$root/benchmarks/.cache-index-memory"
source scripts/lib/catalogs.sh
catalogs_begin glimpse-index-memory

# Prints the folder of $1 photos, made once (a folder is complete when its .done exists).
photos() {
  local count=$1 folder="$cache/photos-$1"
  if [ ! -e "$folder/.done" ]; then
    rm -rf "$folder"
    mkdir -p "$folder"
    local sources=(testdata/catalog/*/*.jpg testdata/catalog/*/*.png)
    local n=${#sources[@]} i file
    for ((i = 0; i < count; i++)); do
      file=${sources[$((i % n))]}
      { cat "$file"; printf 'glimpse-index-memory-%d' "$i"; } >"$folder/photo-$i.${file##*.}"
    done
    touch "$folder/.done"
  fi
  echo "$folder"
}

# Indexes folder $1 into $db and prints "fingerprinting-peak-MB whole-peak-MB seconds".
measure() {
  local log="$work/progress" status="$work/status" start end fingerprinting=0 whole=0 rss hwm
  start=$(date +%s.%N)
  "$glimpse" index "$1" --db "$db" --jobs "$jobs" >"$work/out" 2>"$log" &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if cp "/proc/$pid/status" "$status" 2>/dev/null; then
      rss=$(awk '/^VmRSS:/ { print $2 }' "$status")
      hwm=$(awk '/^VmHWM:/ { print $2 }' "$status")
      [ -n "$hwm" ] && whole=$hwm
      # Still before the commit: the progress line has not reached "writing".
      if [ -n "$rss" ] && ! tail -c 300 "$log" | tr '\r' '\n' | grep -q 'writing'; then
        [ "$rss" -gt "$fingerprinting" ] && fingerprinting=$rss
      fi
    fi
    sleep 0.05
  done
  wait "$pid" || { cat "$work/out" "$log" >&2; echo "index-memory.sh: glimpse index $1 failed" >&2; exit 1; }
  end=$(date +%s.%N)
  awk -v f="$fingerprinting" -v w="$whole" -v s="$start" -v e="$end" 'BEGIN { printf "%.1f %.1f %.1f\n", f / 1024, w / 1024, e - s }'
}

echo "index-memory: $small and $large photos, --jobs $jobs, glimpse $glimpse" >&2
declare -A result
for kind in sqlite postgres; do
  for count in "$small" "$large"; do
    folder=$(photos "$count")
    new_catalog "$kind" "${kind}_$count"
    result[$kind-$count]=$(measure "$folder")
    echo "index-memory: $kind, $count photos: ${result[$kind-$count]} (fingerprinting MB, whole MB, s)" >&2
  done
done

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; glibc $(ldd --version | head -n1 | awk '{ print $NF }')"
echo
printf '| %-8s | %-7s | %-25s | %-23s | %-9s |\n' store photos "peak RSS, fingerprinting" "peak RSS, whole command" "wall s"
printf '| %-8s | %-7s | %-25s | %-23s | %-9s |\n' --- ---: ---: ---: ---:
failed=0
for kind in sqlite postgres; do
  for count in "$small" "$large"; do
    read -r f w s <<<"${result[$kind-$count]}"
    printf '| %-8s | %7d | %22s MB | %20s MB | %9s |\n' "$kind" "$count" "$f" "$w" "$s"
  done
  read -r fs ws _ <<<"${result[$kind-$small]}"
  read -r fl wl _ <<<"${result[$kind-$large]}"
  ratio=$(awk -v a="$fl" -v b="$fs" 'BEGIN { printf "%.2f", a / b }')
  whole_ratio=$(awk -v a="$wl" -v b="$ws" 'BEGIN { printf "%.2f", a / b }')
  echo "$kind: $large photos against $small: fingerprinting peak x$ratio, whole command x$whole_ratio (limit x$limit)" >&2
  for pair in "fingerprinting:$ratio" "whole-command:$whole_ratio"; do
    if awk -v r="${pair#*:}" -v l="$limit" 'BEGIN { exit !(r > l) }'; then
      echo "index-memory.sh: $kind: the ${pair%%:*} peak grew x${pair#*:} from $small to $large photos (limit x$limit)" >&2
      failed=1
    fi
  done
done
exit "$failed"
