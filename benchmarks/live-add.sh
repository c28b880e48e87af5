#!/usr/bin/env bash
# Live additions to a served catalog: a running `glimpse serve` replica on the scale
# benchmark's catalog of real-photo crops (benchmarks/scale.sh --prepare, cached), then
# `glimpse index FOLDER --add` of N new images (JPEG crops of other regions of the same
# Debian photos, cut by djpeg or dwebp and written by cjpeg into a scratch folder), and how long
# until the replica serves them. Prints, in one table:
#   cold start     seconds from `glimpse serve` to /readyz on the catalog (snapshot mapped)
#   add            wall clock of `glimpse index FOLDER --add` (fingerprint N files on every
#                  core, commit only what the folder names, keep the snapshot as the base)
#   served after   seconds from the start of that command until /readyz shows the new
#                  generation and the added landmarks (the replica applies the change log;
#                  --reload-poll-ms 100), and whether a search with an added image,
#                  re-encoded smaller (so no exact copy answers it), returns that image first
#   next start     cold start again: the snapshot is behind, so the replica maps it and
#                  applies the additions at start
# The scale catalog is copied first (the cache keeps its own untouched).
#
# Usage: benchmarks/live-add.sh [--quick] [--images N] [--add N] [--glimpse PATH]
#   --quick        the 3,000-crop catalog of scale.sh --quick and 100 added images (CI)
#   --images N     crops in the served catalog (default 100000; scale.sh builds it once)
#   --add N        images added (default 1000)
#   --glimpse P    the glimpse executable (default: build the release product)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh
source scripts/lib/serve-ready.sh

images=100000 add=1000 glimpse="" quick=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) images=3000; add=100; quick=(--quick) ;;
    --images) images="$2"; shift ;;
    --add) add="$2"; shift ;;
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
read -r catalog _ _ _ photos < <(bash benchmarks/scale.sh "${prepare_args[@]}" --prepare --glimpse "$glimpse" | tail -n 1)

work=$(mktemp -d)
server_pid=""
cleanup() { [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
db="$work/catalog.sqlite"
cp "$catalog" "$db"
[ ! -e "$catalog-wal" ] || cp "$catalog-wal" "$db-wal"
cp "$catalog.vindex" "$db.vindex"
[ ! -e "$catalog.vindex.first" ] || cp "$catalog.vindex.first" "$db.vindex.first"

# N new images: 384x288 crops of the photos at positions that move with i, from a quarter of
# the photo's resolution (djpeg -scale 1/4 for JPEG; dwebp -crop -resize for WebP), written
# by cjpeg at quality 90.
mkdir -p "$work/added/arrivals" "$work/probes"
mapfile -t sources < <(find "$photos" -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.webp' \) | LC_ALL=C sort)
[ ${#sources[@]} -gt 0 ] || { echo "live-add.sh: no JPEG or WebP photos in $photos" >&2; exit 1; }
for ((i = 0; i < add; i++)); do
  photo=${sources[$((i % ${#sources[@]}))]}
  x=$(( (i * 37) % 300 )) y=$(( (i * 53) % 200 ))
  case "$photo" in
    *.webp|*.WEBP) dwebp -quiet "$photo" -crop $((x * 4)) $((y * 4)) 1536 1152 -resize 384 288 -ppm -o "$work/crop.ppm" ;;
    *) djpeg -scale 1/4 -crop "384x288+$x+$y" -outfile "$work/crop.ppm" "$photo" 2>/dev/null ;;
  esac
  cjpeg -quality 90 -outfile "$work/added/arrivals/new-$i.jpg" "$work/crop.ppm"
done
# The probe: the first added image re-encoded at 7/8 size and quality 70.
djpeg -scale 7/8 "$work/added/arrivals/new-0.jpg" | cjpeg -quality 70 > "$work/probes/new-0.jpg"

start_server() {
  local began=$(date +%s.%N)
  "$glimpse" serve --db "$db" --port 0 --log-level notice --reload-poll-ms 100 2>"$work/serve.log" &
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
"$glimpse" index "$work/added" --add --db "$db" >"$work/index.out" 2>"$work/index.err" &
index_pid=$!
served="" deadline=$((SECONDS + 600))
while [ -z "$served" ]; do
  state=$(readyz || true)
  if [ -n "$state" ] && [ "$(json_field "$state" generation)" -gt "$generation_before" ]; then
    served=$(awk -v s="$began" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
    landmarks_after=$(json_field "$state" landmarks)
  elif [ "$SECONDS" -ge "$deadline" ]; then
    echo "live-add.sh: the replica did not serve the addition within 600 s" >&2; exit 1
  else
    sleep 0.02
  fi
done
wait "$index_pid" || { cat "$work/index.err" >&2; echo "live-add.sh: glimpse index --add failed" >&2; exit 1; }
index_seconds=$(sed -n 's/.* in \([0-9.]*\) s\.$/\1/p' "$work/index.out")
top=$(curl -sf --data-binary @"$work/probes/new-0.jpg" "http://127.0.0.1:$port/v1/search?page_size=1" \
  | python3 -c 'import json, sys; r = json.load(sys.stdin)["results"]; print(r[0]["id"] if r else "none")')
snapshot_kept=no
cmp -s "$catalog.vindex" "$db.vindex" && snapshot_kept=yes
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
start_server
next_cold=$cold
next_landmarks=$(json_field "$(readyz)" landmarks)

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; $(grep -o 'avx512[a-z_0-9]*\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "catalog: $(basename "$catalog") ($landmarks_before searchable landmarks); added: $add JPEG crops (384x288)"
echo
printf '| %-52s | %-22s |\n' figure value
printf '| %-52s | %-22s |\n' --- ---:
printf '| %-52s | %-22s |\n' "cold start to /readyz (snapshot current)" "$first_cold s"
printf '| %-52s | %-22s |\n' "glimpse index --add of $add images, wall clock" "$index_seconds s"
printf '| %-52s | %-22s |\n' "served by the replica, from the command's start" "$served s"
printf '| %-52s | %-22s |\n' "landmarks served before → after" "$landmarks_before → $landmarks_after"
printf '| %-52s | %-22s |\n' "search with a re-encoded added image: first result" "$top"
printf '| %-52s | %-22s |\n' "snapshot left as the base by the add run" "$snapshot_kept"
printf '| %-52s | %-22s |\n' "next cold start (snapshot + the additions)" "$next_cold s, $next_landmarks landmarks"
[ "$top" = "arrivals/new-0" ] || { echo "live-add.sh: the replica did not find the added image first ($top)" >&2; exit 1; }
[ "$landmarks_after" -ge $((landmarks_before + add * 9 / 10)) ] || { echo "live-add.sh: too few landmarks served after the addition" >&2; exit 1; }
