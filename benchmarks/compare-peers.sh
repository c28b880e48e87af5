#!/usr/bin/env bash
# Glimpse beside the peers a Python user would pick (imagehash + Pillow, OpenCV img_hash,
# pdqhash) and beside the hardware limits (libjpeg-turbo at full and 1/8 scale, libpng,
# a popcount scan), on the same image files, in one run, on one core. Prints Markdown
# tables of medians and ratios.
#
# Usage: benchmarks/compare-peers.sh [--quick] [--json FILE] [--skip-accuracy]
#                                    [--queries DIR] [--catalog DIR] [--glimpse-recall FILE]
#   --quick          shorter measurements (0.3 s per row and image instead of 1 s)
#   --json FILE      also write every timing figure as JSON
#   --skip-accuracy  time only; no recall@1 table
#   --queries DIR    evaluation queries laid out as DIR/<transformation>/<catalog-id>.<ext>
#                    (every transformation must hold a query for every catalog image: a
#                    partial export is an error, not a smaller table);
#                    default: `glimpse eval --export-queries` if this glimpse has it, else
#                    queries derived by benchmarks/peers/make_queries.py
#   --catalog DIR    the catalog images, DIR/<catalog-id>.<ext> (default testdata/catalog)
#   --glimpse-recall FILE   Glimpse's recall@1 per transformation on those queries
#                    (TSV `transformation<TAB>recall`, or `glimpse eval` JSON); default:
#                    `glimpse eval --catalog DIR --json` if this glimpse has it
#
# What it does, each step only if needed:
#   1. installs Debian packages: libjpeg-turbo-progs (djpeg), libjpeg/libpng headers,
#      a C compiler, python3-venv;
#   2. creates benchmarks/.venv-peers (git-ignored) and pip-installs
#      benchmarks/peers/requirements.txt into it;
#   3. generates the test images from the real photos in testdata/ into
#      benchmarks/.cache-peers/ (git-ignored), deterministically;
#   4. builds the C timing tools (benchmarks/peers/limits/*.c) into a temporary folder
#      and Glimpse in release mode;
#   5. runs everything pinned to one core (taskset; PEERS_CORE picks which, default the
#      last) with OMP_NUM_THREADS=1 and OpenCV's thread count set to 1;
#   6. prints recall@1 per transformation for the peers' hashes beside Glimpse's.
# Glimpse is timed on its best instruction set and again with each lower one forced
# (GLIMPSE_ISA=avx2, portable); the targets table has one block per path.
set -euo pipefail
# Fail loudly: any step that fails (or is killed) names itself and its status instead of the
# script just stopping (a killed query export once ended a run with no message at all).
trap 'status=$?; echo "compare-peers.sh: FAILED (exit $status) at line $LINENO: $BASH_COMMAND" >&2; exit $status' ERR
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh

quick=0 json="" queries="" catalog="testdata/catalog" glimpse_recall="" accuracy=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --skip-accuracy) accuracy=0 ;;
    --json) json="$2"; shift ;;
    --queries) queries="$2"; shift ;;
    --catalog) catalog="$2"; shift ;;
    --glimpse-recall) glimpse_recall="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument compare-peers.sh "$1" ;;
  esac
  shift
done
# 1. Debian packages.
scripts/bootstrap.sh libjpeg-turbo-progs gcc libc6-dev python3-venv

# 2. Private virtual environment with the peers.
venv="$root/benchmarks/.venv-peers"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  echo "compare-peers: creating $venv" >&2
  "$python" -m venv "$venv"
fi
stamp="$venv/.requirements"
if ! cmp -s benchmarks/peers/requirements.txt "$stamp"; then
  echo "compare-peers: installing the peers into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r benchmarks/peers/requirements.txt >&2
  cp benchmarks/peers/requirements.txt "$stamp"
fi
vpy="$venv/bin/python"

# 3. Test images from the project's real photos (catalog first, else anything in testdata/).
images="$root/benchmarks/.cache-peers/images"
sources=()
for dir in testdata/catalog testdata; do [ -d "$dir" ] && sources+=("$dir"); done
[ ${#sources[@]} -gt 0 ] || { echo "compare-peers.sh: no testdata/ folder with photos" >&2; exit 1; }
echo "compare-peers: generating images into $images" >&2
"$vpy" benchmarks/peers/make_images.py "$images" "${sources[@]}" >&2

# 4. C timing tools and Glimpse.
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
cc_bin="$(command -v cc || command -v gcc || command -v clang)"
limits=benchmarks/peers/limits
"$cc_bin" -O2 -o "$tools/jpeg_limit" "$limits/jpeg_limit.c" -ljpeg
"$cc_bin" -O2 -o "$tools/png_limit" "$limits/png_limit.c" $(pkg-config --cflags --libs libpng)
"$cc_bin" -O2 -o "$tools/popcount_limit" "$limits/popcount_limit.c"
echo "compare-peers: building glimpse (release)" >&2
glimpse=$(release_glimpse)

# 5. Measure, single-threaded, on one core.
pin=()
if command -v taskset >/dev/null; then
  core="${PEERS_CORE:-$(( $(nproc) - 1 ))}"
  pin=(taskset -c "$core")
fi
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMEXPR_NUM_THREADS=1
timing=(--min-time 1.0)
[ "$quick" -eq 1 ] && timing=(--min-time 0.3 --rounds 3 --min-runs 2)
extra=()
[ -n "$json" ] && extra+=(--json "$json")
# Glimpse also runs with each lower instruction set this CPU has forced (GLIMPSE_ISA), and the
# targets are printed per path: AVX-512 (F+BW+VPOPCNTDQ) machines add avx2 and portable rows.
flags="$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)"
isas=portable

if [[ " $flags " == *" avx512f "* && " $flags " == *" avx512bw "* && " $flags " == *" avx512_vpopcntdq "* && " $flags " == *" avx2 "* ]]; then
  isas="avx2,portable"
elif [[ " $flags " != *" avx2 "* ]]; then
  isas=""
fi
extra+=(--isas "$isas")
"${pin[@]}" "$vpy" benchmarks/peers/compare.py --images "$images" --tools "$tools" \
  --glimpse "$glimpse" "${timing[@]}" "${extra[@]}"

[ "$accuracy" -eq 1 ] || exit 0
echo
if [ -z "$queries" ]; then
  queries="$root/benchmarks/.cache-peers/queries"
  rm -rf "$queries"
  eval_help="$("$glimpse" eval --help 2>/dev/null || true)"
  if [[ "$eval_help" == *--export-queries* ]]; then
    echo "compare-peers: exporting Glimpse's evaluation queries into $queries (a few minutes: one PNG per image and transformation)" >&2
    "$glimpse" eval --catalog "$catalog" --export-queries "$queries" >&2
  else
    echo "compare-peers: this glimpse has no 'eval --export-queries'; deriving queries with make_queries.py" >&2
    "$vpy" benchmarks/peers/make_queries.py "$catalog" "$queries"
  fi
fi
if [ -z "$glimpse_recall" ]; then
  eval_help="$("$glimpse" eval --help 2>/dev/null || true)"
  if [[ "$eval_help" == *--json* ]]; then
    echo "compare-peers: running glimpse eval --catalog $catalog --json for Glimpse's recall@1" >&2
    glimpse_recall="$root/benchmarks/.cache-peers/glimpse-eval.json"
    "$glimpse" eval --catalog "$catalog" --json > "$glimpse_recall"
    [ -s "$glimpse_recall" ] || { echo "compare-peers.sh: glimpse eval --json wrote nothing to $glimpse_recall" >&2; exit 1; }
  fi
fi
recall=()
[ -n "$glimpse_recall" ] && recall=(--glimpse-recall "$glimpse_recall")
"${pin[@]}" "$vpy" benchmarks/peers/accuracy.py --queries "$queries" --catalog "$catalog" "${recall[@]}"
