#!/usr/bin/env bash
# Glimpse's first stage (CandidateIndex) beside faiss's binary indexes (Debian's libfaiss-dev
# 1.7.3), on exactly the same codes and queries, in one table:
#   codes     every view of the scale benchmark's catalog as its 128-bit first-stage code
#             (`glimpse debug-first-stage --export`), each with its landmark and whether it
#             is a full frame
#   queries   the evaluation's queries against that catalog (`glimpse eval --db …
#             --compare-exhaustive --outcomes`): each query's informative view codes and the
#             exhaustive scan's first landmark at the no-match threshold
#   rows      Glimpse's CandidateIndex on every instruction set this CPU has, and faiss's
#             IndexBinaryIVF (same list count, same probes and radius, range search; the
#             full-frame entries in lists of their own over the same centroids for the
#             query's inner views) and IndexBinaryHNSW (k nearest per query view), each
#             proposing landmarks the same way (nearest entry first, the same cap); searches
#             on one thread, builds on every core
#   figures   build time, resident bytes per entry, p50 / p99 of the first stage alone, how
#             many answered queries keep the exhaustive scan's first landmark among the
#             candidates, and the top-1 agreement that follows (scores are exact, so the first
#             landmark is the same exactly when it is a candidate)
# The catalog is the scale benchmark's (benchmarks/scale.sh builds it when none is cached);
# everything else is kept in benchmarks/.cache-scale/faiss-* (git-ignored).
#
# Usage: benchmarks/faiss-first-stage.sh [--quick] [--images N] [--no-hnsw] [--glimpse PATH]
#   --quick        the 3,000-crop catalog of scale.sh --quick and its three transformations (CI)
#   --images N     the cached scale catalog of N crops (default 1000000)
#   --no-hnsw      leave out IndexBinaryHNSW (its build takes about 20 minutes at 26 M entries)
#   --glimpse P    the glimpse executable (default: build the release product)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh

images=1000000 quick=0 hnsw=1 glimpse="" eval_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; images=3000; eval_args=(--transformations jpeg-q20,crop-half-area,rotate-90-screenshot) ;;
    --images) images="$2"; shift ;;
    --no-hnsw) hnsw=0 ;;
    --glimpse) glimpse="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument faiss-first-stage.sh "$1" ;;
  esac
  shift
done
# OpenBLAS: faiss trains its binary IVF by float k-means (six times faster than the reference BLAS here).
scripts/bootstrap.sh libfaiss-dev libopenblas0-pthread g++ python3
[ -n "$glimpse" ] || glimpse=$(release_glimpse)
cache="$root/benchmarks/.cache-scale"

# The scale benchmark's catalog of this size (built by scale.sh when none is cached).
find_catalog() { ls -t "$cache"/catalog-"$images"-*.sqlite 2>/dev/null | head -n 1 || true; }
db=$(find_catalog)
if [ -z "$db" ] || [ ! -e "$db.build" ]; then
  if [ "$quick" = 1 ]; then benchmarks/scale.sh --quick --glimpse "$glimpse" >&2; else benchmarks/scale.sh --images "$images" --glimpse "$glimpse" >&2; fi
  db=$(find_catalog)
fi
[ -n "$db" ] || { echo "faiss-first-stage.sh: no scale catalog of $images images in $cache" >&2; exit 1; }
work="$cache/faiss-$(basename "$db" .sqlite)"
mkdir -p "$work"

# The faiss side: one C++ file against libfaiss.a (its C API cannot create binary IVF or
# HNSW indexes).
tool="$work/first_stage_faiss"
source_file=benchmarks/faiss/first_stage_faiss.cpp
if [ ! -x "$tool" ] || [ "$source_file" -nt "$tool" ]; then
  g++ -O3 -march=native -fopenmp -std=c++17 -Wall -Wextra "$source_file" -o "$tool" -lfaiss -lblas -llapack
fi

# Codes and queries (the evaluation is the slow part: kept while the catalog and glimpse are
# the same).
"$glimpse" debug-first-stage --db "$db" --first-stage always --export "$work" >&2
stamp="$(stat -c %Y "$db.build") $(sha256sum "$glimpse" | cut -c1-16) ${eval_args[*]:-all}"
if [ ! -s "$work/queries.txt" ] || [ "$(cat "$work/queries.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "faiss-first-stage: answering the evaluation's queries both ways against $db" >&2
  "$glimpse" eval --catalog testdata/catalog --negatives testdata/negatives --db "$db" --compare-exhaustive \
    --outcomes "$work/outcomes.jsonl" "${eval_args[@]}" >"$work/eval.txt"
  python3 benchmarks/faiss/queries.py "$work/outcomes.jsonl" "$work/landmarks.txt" >"$work/queries.txt"
  echo "$stamp" >"$work/queries.stamp"
fi

entries=$(( $(stat -c %s "$work/entries.codes") / 16 ))
query_count=$(wc -l <"$work/queries.txt")
answered=$(awk '$1 >= 0' "$work/queries.txt" | wc -l)
stage_line=$("$glimpse" debug-first-stage --db "$db" --first-stage always --rebuild --queries "$work/queries.txt" | tail -n 1)
lists=$(echo "$stage_line" | sed -E 's/.*, ([0-9]+) lists,.*/\1/')
isa_flags=$(grep -o -w -E 'avx512f|avx512_vpopcntdq|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')
echo "catalog: $(basename "$db"), $entries entries (views), $query_count queries ($answered answered by the exhaustive scan);" \
     "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), flags: $isa_flags"
echo
echo "| first stage | build | resident per entry | p50 / p99, one thread | exhaustive first landmark kept | top-1 agreement |"
echo "|---|---:|---:|---:|---:|---:|"
echo "$stage_line"
for isa in avx2 portable; do
  "$glimpse" debug-first-stage --db "$db" --queries "$work/queries.txt" --isa "$isa" 2>/dev/null | tail -n 1 || true
done
"$tool" "$work" ivf "$lists" 128,32 4 48 1024
if [ "$hnsw" = 1 ]; then
  "$tool" "$work" hnsw 16 40 128 128 1024
fi
