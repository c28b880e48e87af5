#!/usr/bin/env bash
# Live additions to a served catalog: a running `glimpse serve` replica on the scale
# benchmark's catalog of real-photo crops (benchmarks/scale.sh --prepare, cached), then
# `glimpse index FOLDER --add` of N new images (384x288 windows of the same Debian photos,
# decoded by djpeg or dwebp, written by cjpeg into a scratch folder), and how long
# until the replica serves them. Prints, in one table:
#   cold start     seconds from `glimpse serve` to /readyz on the catalog (snapshot mapped)
#   add            wall clock of `glimpse index FOLDER --add`, process start to exit, and the
#                  time it reports itself (fingerprint N files on every core, commit only
#                  what the folder names, keep the snapshot as the base)
#   served after   seconds from the start of that command until /readyz shows the new
#                  generation and the added landmarks (the replica applies the change log;
#                  --reload-poll-ms 100), and whether a search with an added image,
#                  re-encoded smaller (so no exact copy answers it), returns that image as
#                  its first landmark; and the replica's own update time (its log)
#   next start     cold start again: the snapshot is behind, so the replica maps it and
#                  applies the additions at start
# The scale catalog is copied first (the cache keeps its own untouched).
# With --postgres the served catalog is a PostgreSQL 15 database in a throwaway cluster
# (scripts/pg-test-cluster.sh), built the same way (the evaluation catalog, then the crops of
# the same photos, count and seed, fingerprinted again) with its snapshot written to a file
# of the replica's own (`--snapshot`), which the replica maps and the add run keeps as base.
#
# Usage: benchmarks/live-add.sh [--quick] [--images N] [--catalog DB] [--postgres] [--add N] [--glimpse PATH]
#   --quick        the 3,000-crop catalog of scale.sh --quick and 100 added images (CI)
#   --images N     crops in the served catalog (default 100000; scale.sh builds it once)
#   --catalog DB   serve a copy of this SQLite catalog (with its snapshot) instead, for
#                  example one of `glimpse debug-synthesize-catalog`; the added images are
#                  then windows of scale.sh --quick's photos
#   --postgres     serve a PostgreSQL copy of the crop catalog (built in a throwaway
#                  cluster: fingerprinting the crops again takes minutes per 100,000)
#   --add N        images added (default 1000)
#   --glimpse P    the glimpse executable (default: build the release product)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh
source scripts/lib/serve-ready.sh

images=100000 add=1000 glimpse="" quick=() catalog="" postgres=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) images=3000; add=100; quick=(--quick) ;;
    --images) images="$2"; shift ;;
    --add) add="$2"; shift ;;
    --catalog) catalog="$2"; shift ;;
    --postgres) postgres=1 ;;
    --glimpse) glimpse="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument live-add.sh "$1" ;;
  esac
  shift
done
[ -n "$glimpse" ] || glimpse=$(release_glimpse)
command -v djpeg >/dev/null && command -v cjpeg >/dev/null && command -v dwebp >/dev/null || scripts/bootstrap.sh libjpeg-turbo-progs webp >&2
prepare_args=("${quick[@]}")
[ ${#quick[@]} -gt 0 ] || prepare_args=(--images "$images")
[ -z "$catalog" ] || prepare_args=(--quick)
read -r scale_catalog _ _ _ photos < <(bash benchmarks/scale.sh "${prepare_args[@]}" --prepare --glimpse "$glimpse" | tail -n 1)
[ -n "$catalog" ] || catalog=$scale_catalog
[ "$postgres" = 0 ] || [ "$catalog" = "$scale_catalog" ] || { echo "live-add.sh: --postgres builds its own catalog; it does not take --catalog" >&2; exit 1; }
[ -e "$catalog.vindex" ] || { echo "live-add.sh: $catalog has no visual-index snapshot beside it" >&2; exit 1; }

work=$(mktemp -d)
server_pid="" cluster=""
cleanup() {
  [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
  [ -z "$cluster" ] || scripts/pg-test-cluster.sh stop "$cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
if [ "$postgres" = 1 ]; then
  # A throwaway cluster (its own folder, outside $work so that its owner can reach it).
  cluster=$(mktemp -d /tmp/glimpse-live-add-pg.XXXXXX)
  admin=$(scripts/pg-test-cluster.sh start "$cluster")
  psql "$admin" -qc "CREATE DATABASE bench" >/dev/null
  db=${admin%/postgres}/bench snapshot="$work/replica.vindex"
  store=(--db "$db" --snapshot "$snapshot")
  build_began=$(date +%s.%N)
  "$glimpse" index testdata/catalog/manifest.json "${store[@]}" >/dev/null
  "$glimpse" debug-crop-catalog "$photos" --count "$images" --seed 1 "${store[@]}" >"$work/crop.out" 2>"$work/crop.err" \
    || { tail -n 20 "$work/crop.err" >&2; echo "live-add.sh: debug-crop-catalog into PostgreSQL failed" >&2; exit 1; }
  build_seconds=$(awk -v s="$build_began" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  [ -e "$snapshot" ] || { echo "live-add.sh: no snapshot written to $snapshot" >&2; exit 1; }
  catalog_name="PostgreSQL 15 catalog of $images crops + the evaluation catalog (built in $build_seconds s)"
else
  db="$work/catalog.sqlite" snapshot="$db.vindex"
  store=(--db "$db")
  cp "$catalog" "$db"
  [ ! -e "$catalog-wal" ] || cp "$catalog-wal" "$db-wal"
  cp "$catalog.vindex" "$db.vindex"
  [ ! -e "$catalog.vindex.first" ] || cp "$catalog.vindex.first" "$db.vindex.first"
  catalog_name=$(basename "$catalog")
fi
cp "$snapshot" "$work/snapshot-before"

# N new images: 384x288 windows of the photos at a quarter of their resolution (decoded whole
# by djpeg or dwebp, every 4th pixel kept), image i from photo i mod the photo count at a
# position that moves with i, written by cjpeg at quality 90.
mkdir -p "$work/added/arrivals" "$work/probes" "$work/crops"
python3 - "$photos" "$work/crops" "$add" "$root/scripts/lib" <<'PY'
import os, subprocess, sys
photos, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
from ppm import ppm_bytes, read_ppm
sources = sorted(f for f in os.listdir(photos) if f.lower().endswith((".jpg", ".jpeg", ".webp")))
if not sources:
    sys.exit(f"live-add.sh: no JPEG or WebP photos in {photos}")
for p, name in enumerate(sources):
    wanted = range(p, count, len(sources))
    if not wanted:
        break
    path = os.path.join(photos, name)
    command = ["dwebp", "-quiet", path, "-ppm", "-o", "-"] if name.lower().endswith(".webp") else ["djpeg", "-rgb", path]
    data = subprocess.run(command, check=True, capture_output=True).stdout
    width, height, body = read_ppm(data)
    # Windows of the photo at a quarter of its resolution (every 4th pixel of every 4th row).
    quarter_width, quarter_height = width // 4, height // 4
    w, h = min(384, quarter_width), min(288, quarter_height)
    for i in wanted:
        x, y = (i * 37) % (quarter_width - w + 1), (i * 53) % (quarter_height - h + 1)
        rows = []
        for r in range(h):
            start = body + ((y + r) * 4 * width + x * 4) * 3
            segment, row = data[start:start + w * 12], bytearray(w * 3)
            row[0::3], row[1::3], row[2::3] = segment[0::12], segment[1::12], segment[2::12]
            rows.append(bytes(row))
        with open(os.path.join(out, f"new-{i}.ppm"), "wb") as f:
            f.write(ppm_bytes(w, h, b"".join(rows)))
PY
for ((i = 0; i < add; i++)); do
  cjpeg -quality 90 -outfile "$work/added/arrivals/new-$i.jpg" "$work/crops/new-$i.ppm"
done
# The probe: the first added image re-encoded at 7/8 size and quality 70.
djpeg -scale 7/8 "$work/added/arrivals/new-0.jpg" | cjpeg -quality 70 > "$work/probes/new-0.jpg"

start_server() {
  local began=$(date +%s.%N)
  "$glimpse" serve "${store[@]}" --port 0 --log-level info --reload-poll-ms 100 2>"$work/serve.log" &
  server_pid=$!
  port=$(wait_until_ready "$work/serve.log" "$server_pid" 600 0.02) || { echo "live-add.sh: glimpse serve did not become ready" >&2; exit 1; }
  cold=$(awk -v s="$began" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
}
readyz() { curl -sf "http://127.0.0.1:$port/readyz"; }
json_field() { python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

start_server
first_cold=$cold
before=$(readyz)
generation_before=$(json_field "$before" generation)
landmarks_before=$(json_field "$before" landmarks)

began=$(date +%s.%N)
( "$glimpse" index "$work/added" --add "${store[@]}" >"$work/index.out" 2>"$work/index.err"; status=$?; date +%s.%N >"$work/index.end"; exit $status ) &
index_pid=$!
served="" deadline=$((SECONDS + 600))
while [ -z "$served" ]; do
  # Cheap polls (no Python per poll): the generation read with grep.
  state=$(readyz || true)
  generation=$(grep -o '"generation":[0-9]*' <<<"$state" | cut -d: -f2)
  if [ -n "$generation" ] && [ "$generation" -gt "$generation_before" ]; then
    served_at=$(date +%s.%N)
    served=$(awk -v s="$began" -v e="$served_at" 'BEGIN { printf "%.2f", e - s }')
    landmarks_after=$(json_field "$state" landmarks)
  elif [ "$SECONDS" -ge "$deadline" ]; then
    echo "live-add.sh: the replica did not serve the addition within 600 s" >&2; exit 1
  else
    sleep 0.02
  fi
done
wait "$index_pid" || { cat "$work/index.err" >&2; echo "live-add.sh: glimpse index --add failed" >&2; exit 1; }
index_seconds=$(awk -v s="$began" -v e="$(cat "$work/index.end")" 'BEGIN { printf "%.2f", e - s }')
index_own=$(sed -n 's/.* in \([0-9.]*\) s\.$/\1/p' "$work/index.out")
after_end=$(awk -v s="$(cat "$work/index.end")" -v e="$served_at" 'BEGIN { printf "%+.2f", e - s }')
top=$(curl -sf --data-binary @"$work/probes/new-0.jpg" "http://127.0.0.1:$port/v1/search?page_size=4" \
  | python3 -c 'import json, sys; r = [x for x in json.load(sys.stdin)["results"] if x["kind"] == "landmark"]; print(r[0]["id"] if r else "none")')
update_ms=$(grep 'index updated' "$work/serve.log" | grep -o 'duration_ms=[0-9.]*' | head -n 1 | cut -d= -f2)
snapshot_kept=no
cmp -s "$work/snapshot-before" "$snapshot" && snapshot_kept=yes
first_mapped=$(curl -sf "http://127.0.0.1:$port/metrics" | awk '$1 == "glimpse_index_mapped" { print $2 + 0 }')
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
start_server
next_cold=$cold
next_landmarks=$(json_field "$(readyz)" landmarks)

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; $(grep -o 'avx512[a-z_0-9]*\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "catalog: $catalog_name ($landmarks_before searchable landmarks); added: $add JPEG windows (384x288) of its photos"
echo
printf '| %-52s | %-22s |\n' figure value
printf '| %-52s | %-22s |\n' --- ---:
printf '| %-52s | %-22s |\n' "cold start to /readyz (snapshot current)" "$first_cold s"
printf '| %-52s | %-22s |\n' "index mapped from the snapshot after the addition" "$([ "$first_mapped" = 1 ] && echo yes || echo no)"
printf '| %-52s | %-22s |\n' "glimpse index --add of $add images, process wall clock" "$index_seconds s ($index_own s its own)"
printf '| %-52s | %-22s |\n' "served by the replica, from the command's start" "$served s"
printf '| %-52s | %-22s |\n' "served, relative to the command's exit" "$after_end s"
printf '| %-52s | %-22s |\n' "the replica's update (its log: read changes, delta)" "${update_ms:-?} ms"
printf '| %-52s | %-22s |\n' "landmarks served, before / after" "$landmarks_before / $landmarks_after"
printf '| %-52s | %-22s |\n' "search with a re-encoded added image: first result" "$top"
printf '| %-52s | %-22s |\n' "snapshot left as the base by the add run" "$snapshot_kept"
printf '| %-52s | %-22s |\n' "next cold start (snapshot + the additions)" "$next_cold s, $next_landmarks landmarks"
[ "$top" = "arrivals/new-0" ] || { echo "live-add.sh: the replica did not find the added image first ($top)" >&2; exit 1; }
[ "$landmarks_after" -ge $((landmarks_before + add * 9 / 10)) ] || { echo "live-add.sh: too few landmarks served after the addition" >&2; exit 1; }
[ "$first_mapped" = 1 ] || { echo "live-add.sh: the replica's index is not mapped from its snapshot" >&2; exit 1; }
