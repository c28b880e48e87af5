#!/usr/bin/env bash
# The scale benchmark: a catalog of N distinct real-looking images (crops of real
# photographs, fingerprinted in memory by `glimpse debug-crop-catalog`; no image file per
# crop) plus the evaluation's own catalog (testdata/catalog, whose images `glimpse eval`
# queries), then every figure of the scale issue that exists today, in one table:
#   build        time to index the evaluation catalog and fingerprint + write the crops on
#                this machine's cores, and that run's peak RSS
#   disk         bytes per image of the SQLite catalog and of its visual-index snapshot
#   resident     bytes per image of the index a search maps (the snapshot: every view's
#                codes, scanned whole by the exact search)
#   exact search p50 and p99 of one search on one thread, per instruction set this CPU has,
#                over real queries (testdata/negatives: photos in no catalog, so every search
#                scans everything and matches nothing, and the sample screenshot)
#   accuracy     one `glimpse eval --db --compare-exhaustive` against this catalog: every
#                evaluation query answered by the exact search and by the default one (the
#                cascade): recall@1 of each among the crops, their false positives at the
#                default threshold, top-1 / top-10 agreement, and the transformation where
#                the default's recall@1 falls furthest under exact's (--quick: three
#                transformations)
#   first stage  the first-stage index (`glimpse debug-first-stage --first-stage
#                always`, rebuilt every run: its build time), its resident bytes per image,
#                its search p50 / p99 per instruction set beside the exhaustive scan's (the
#                default cascade, which scans whole what its candidates do not answer
#                surely, after a first look at fewer lists, and the first stage without
#                it), the same on 46 matching queries
#                (exported by `glimpse eval --export-queries`, one in six of six
#                transformations) with the share the cascade scanned whole and the share
#                answered at the first look
#   serve        `glimpse serve` on the catalog: cold start to /readyz, and wrk (2 threads,
#                4 connections; 20 s, 3 s under 10,001 crops) POSTing a 1080p JPEG to
#                /v1/search, one of a catalog photo and one of a photo in no catalog, each
#                as 600 byte-distinct copies in turn (none answered from the server's kept
#                rankings): requests/s, latency, and the first result
#   live add     benchmarks/live-add.sh on a copy of this catalog (1,000 images added, 100
#                with --quick): seconds until a running replica serves them
#   goals        the scale issue's goals beside this run's figures: met, or the gap
# The crops' sources are disjoint from the evaluation's images: photographs from Debian
# packages that the evaluation sets do not come from (the desktop wallpapers of
# gnome-backgrounds, mate-backgrounds, plasma-workspace-wallpapers and desktop-base: about
# 110 photos once the smaller copies of one wallpaper are left out), downloaded with
# `apt-get download` (nothing installed) into benchmarks/.cache-scale/ (git-ignored), where
# the catalog is kept too and reused while the photos, N and the seed are the same.
#
# Usage: benchmarks/scale.sh [--quick] [--images N] [--photos FOLDER] [--seed S] [--repeat R] [--rebuild] [--glimpse PATH]
#   --quick        3,000 crops of gnome-backgrounds alone, 2 runs per query (CI; about a minute)
#   --images N     crops in the catalog (default 1000000)
#   --photos F     crop the photos in F instead of the Debian wallpapers
#   --seed S       crop geometry seed (default 1)
#   --repeat R     timed searches per query and instruction set (default 5)
#   --rebuild      build the catalog again even when a cached one matches
#   --glimpse P    the glimpse executable (default: build the release product)
#   --prepare      only build (or reuse) the catalog, its first stage and the two query
#                  folders, then print "CATALOG NON-MATCHING-QUERIES MATCHING-QUERIES FIRST-STAGE-SECONDS PHOTOS"
#                  (benchmarks/first-stage-crossover.sh, benchmarks/live-add.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/lib/options.sh

quick=0 images=1000000 photos="" photos_option="" seed=1 repeat=5 rebuild=0 prepare=0 glimpse="" eval_args=() packages=(gnome-backgrounds mate-backgrounds plasma-workspace-wallpapers desktop-base)
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; images=3000; repeat=2; packages=(gnome-backgrounds); eval_args=(--transformations jpeg-q20,crop-half-area,rotate-90-screenshot) ;;
    --images) images="$2"; shift ;;
    --photos) photos="$2"; photos_option="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --repeat) repeat="$2"; shift ;;
    --rebuild) rebuild=1 ;;
    --prepare) prepare=1 ;;
    --glimpse) glimpse="$2"; shift ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) unknown_argument scale.sh "$1" ;;
  esac
  shift
done
[ -n "$glimpse" ] || glimpse=$(release_glimpse)
cache="$root/benchmarks/.cache-scale"
mkdir -p "$cache"

# The source photos: the packages' JPEG, PNG and WebP files of at least 100 KB, only the largest
# of the sizes one wallpaper ships in (plasma's contents/images/WxH.jpg), hard-linked into
# one flat folder.
if [ -z "$photos" ]; then
  photos="$cache/photos-$(IFS=-; echo "${packages[*]}")"
  if [ ! -e "$photos/.done" ]; then
    source scripts/lib/debian-data.sh
    GLIMPSE_DATA_WORK="$cache/debian" debian_packages scale.sh "${packages[@]}" >&2
    rm -rf "$photos"
    mkdir -p "$photos"
    for pkg in "${packages[@]}"; do
      find "$cache/debian/x/$pkg" -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' -o -iname '*.webp' \) -size +100k -printf '%s %p\n'
    done | sort -k2 | awk '{
        size = $1; path = substr($0, index($0, " ") + 1)
        group = path; if (path ~ /\/contents\/images\//) sub(/\/[^\/]*$/, "", group)
        if (!(group in best) || size > bestSize[group]) { best[group] = path; bestSize[group] = size }
      } END { for (g in best) print best[g] }' | LC_ALL=C sort | while IFS= read -r file; do
        name=$(echo "${file#"$cache/debian/x/"}" | tr '/ ' '__')
        ln -f "$file" "$photos/$name" 2>/dev/null || cp "$file" "$photos/$name"
      done
    if [ -n "$(find "$photos" -type f ! -name '.*' -print -quit)" ]; then touch "$photos/.done"; fi
  fi
fi
photo_count=$(find "$photos" -type f ! -name '.*' | wc -l)
[ "$photo_count" -gt 0 ] || { echo "scale.sh: no photos in $photos" >&2; exit 1; }

# The catalog, cached by photos, count and seed.
key=$( (find "$photos" -type f ! -name '.*' -printf '%f %s\n' | LC_ALL=C sort; echo "$images $seed") | sha256sum | cut -c1-12)
db="$cache/catalog-$images-$key.sqlite"
build_file="$db.build"
if [ "$rebuild" = 1 ] || [ ! -e "$build_file" ]; then
  rm -f "$db" "$db"-wal "$db"-shm "$db.vindex" "$db.vindex.first" "$build_file"
  echo "scale: building $images crops of $photo_count photos into $db" >&2
  start=$(date +%s.%N)
  "$glimpse" index testdata/catalog --db "$db" >/dev/null 2>&1
  /usr/bin/time -f '%M' -o "$cache/rss" "$glimpse" debug-crop-catalog "$photos" --count "$images" --seed "$seed" --db "$db" \
    >"$cache/crop.out" 2>"$cache/crop.err" || { tail -n 20 "$cache/crop.err" >&2; echo "scale.sh: debug-crop-catalog failed" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') $(tail -n1 "$cache/rss")" >"$build_file"
  tail -n1 "$cache/crop.out" >&2
fi
read -r build_seconds build_rss_kb <"$build_file"

# Real queries: photos in no catalog, and the sample screenshot.
queries="$cache/queries"
rm -rf "$queries"
mkdir -p "$queries"
cp testdata/negatives/* testdata/samples/*.png "$queries/"
# Matching queries: one in six of the evaluation's queries under six transformations (crops,
# a rotated screenshot, JPEG q20, a flipped crop, a keystone, sepia), which the cascade
# should answer from the first stage's candidates.
positives="$cache/positives"
rm -rf "$positives" "$cache/exported"
mkdir -p "$positives"
"$glimpse" eval --catalog testdata/catalog --export-queries "$cache/exported" \
  --transformations crop-half-area,rotate-90-screenshot,jpeg-q20,flip-horizontal-crop,keystone-10,sepia-vignette >/dev/null
(cd "$cache/exported" && find . -name '*.png' | LC_ALL=C sort | awk 'NR % 6 == 1') | while IFS= read -r file; do
  cp "$cache/exported/$file" "$positives/$(echo "${file#./}" | tr '/' '_')"
done
# The first stage, built from the snapshot (every run: its build time is a figure).
stage_start=$(date +%s.%N)
"$glimpse" debug-first-stage --db "$db" --first-stage always >"$cache/first-stage.out"
stage_seconds=$(awk -v s="$stage_start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
if [ "$prepare" = 1 ]; then echo "$db $queries $positives $stage_seconds $photos"; exit 0; fi
# Kept in the cache as soon as measured, so a run stopped during the evaluations below (tens
# of minutes at a million images) keeps its timings.
"$glimpse" bench-search --db "$db" --queries "$queries" --repeat "$repeat" >"$cache/bench-search.json"
json=$(cat "$cache/bench-search.json")
"$glimpse" bench-search --db "$db" --queries "$positives" --repeat "$repeat" >"$cache/bench-positives.json"
positives_json=$(cat "$cache/bench-positives.json")
# Exhaustive and first-stage answers of the same queries, in one run: every accuracy figure of
# both searches comes from it (recall@1 per transformation, false positives at the threshold).
"$glimpse" eval --catalog testdata/catalog --negatives testdata/negatives --db "$db" --compare-exhaustive --json "${eval_args[@]}" >"$cache/eval.json"
# One line each: exhaustive and first-stage recall@1, their false positives, top-1 / top-10
# agreement, and the transformation where the first stage's recall@1 falls furthest under
# the exhaustive scan's (points, name).
{ read -r exact_recall; read -r stage_recall; read -r exact_fp; read -r stage_fp; read -r agreement_pair; read -r worst_points worst_family; } < <(
  python3 - "$cache/eval.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["first_stage_agreement"]
def share(count):
    return "%d of %d (%.2f %%)" % (count, a["negatives"], 100 * count / max(1, a["negatives"]))
print("%.4f" % a["exhaustive_recall_at_1"])
print("%.4f" % a["recall_at_1"])
print(share(a["exhaustive_false_positives"]))
print(share(a["false_positives"]))
print("%.4f / %.3f" % (a["top_1"], a["top_10"]))
points, name = max(((100 * (r["exhaustive_recall_at_1"] - r["recall_at_1"]), r["transformation"]) for r in a["rows"]), default=(0.0, ""))
print("%.2f %s" % (points, name if points > 0 else "none: equal or above on every one"))
PY
)
# glimpse serve on the catalog: cold start to /readyz (snapshot and first stage mapped), then
# wrk (2 threads, 4 connections) POSTing a 1080p JPEG to /v1/search: an evaluation photo that
# the catalog holds, and one in no catalog, each stretched to 1920x1080 (nearest pixel, from
# djpeg's output) and written by cjpeg at quality 90.
scripts/bootstrap.sh wrk curl libjpeg-turbo-progs >&2
source scripts/lib/serve-ready.sh
serve_work=$(mktemp -d)
server_pid=""
trap '[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true; rm -rf "$serve_work"' EXIT
for pair in "matching testdata/catalog/landmarks/hurricane-ridge.jpg" "other testdata/negatives/anemone.jpg"; do
  read -r name source <<<"$pair"
  djpeg -rgb "$source" | python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
from ppm import ppm_bytes, read_ppm
data = sys.stdin.buffer.read()
width, height, body = read_ppm(data)
columns = [min(width - 1, x * width // 1920) for x in range(1920)]
rows = []
for y in range(1080):
    start = body + min(height - 1, y * height // 1080) * width * 3
    row = data[start:start + width * 3]
    out = bytearray(1920 * 3)
    for c in range(3):
        out[c::3] = bytes(row[x * 3 + c] for x in columns)
    rows.append(bytes(out))
sys.stdout.buffer.write(ppm_bytes(1920, 1080, b"".join(rows)))
' scripts/lib | cjpeg -quality 90 > "$serve_work/$name.jpg"
done
serve_began=$(date +%s.%N)
"$glimpse" serve --db "$db" --port 0 --log-level notice --reload-poll-ms 1000 2>"$serve_work/serve.log" &
server_pid=$!
serve_port=$(wait_until_ready "$serve_work/serve.log" "$server_pid" 600 0.02) || { echo "scale.sh: glimpse serve did not become ready" >&2; exit 1; }
serve_cold=$(awk -v s="$serve_began" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
wrk_seconds=20
[ "$images" -gt 10000 ] || wrk_seconds=3
serve_row() {
  local body=$1 top out
  top=$(curl -sf --data-binary @"$body" "http://127.0.0.1:$serve_port/v1/search?page_size=1" \
    | python3 -c 'import json, sys; r = json.load(sys.stdin)["results"]; print(r[0]["id"] if r else "nothing")')
  # 600 byte-distinct copies of the JPEG (the same pixels): no request is answered from the
  # server's 256 kept rankings.
  python3 scripts/lib/distinct_copies.py "$body" 600 > "$body.list"
  out=$(BODY_LIST="$body.list" wrk -t2 -c4 -d"${wrk_seconds}s" --timeout 10s -s scripts/lib/wrk-search.lua \
    "http://127.0.0.1:$serve_port/v1/search" 2>&1 | grep '^RESULT')
  sed -E 's/.*rps=([^ ]*) p50_ms=([^ ]*) p99_ms=([^ ]*) requests=[^ ]* failed=([^ ]*) busy=([^ ]*).*/\1 req\/s (p50 \2, p99 \3 ms; failed \4, busy \5)/' <<<"$out" | sed "s|\$| → $top|"
}
serve_matching=$(serve_row "$serve_work/matching.jpg")
serve_other=$(serve_row "$serve_work/other.jpg")
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
# Live additions: 1,000 images (100 with --quick) added to a copy of this catalog while a
# replica serves it (benchmarks/live-add.sh, which reuses this cache); only for the catalog of
# the Debian photos at seed 1, the one live-add.sh rebuilds the same.
live_served="not run (--photos or --seed given: run benchmarks/live-add.sh --catalog)"
if [ -z "$photos_option" ] && [ "$seed" = 1 ]; then
  if [ "$quick" = 1 ]; then live_args=(--quick); else live_args=(--images "$images"); fi
  bash benchmarks/live-add.sh "${live_args[@]}" --glimpse "$glimpse" >"$cache/live-add.txt"
  live_added=$(sed -nE 's/^\| glimpse index --add of ([0-9]+) images.*/\1/p' "$cache/live-add.txt")
  live_served="$(sed -nE 's/^\| served by the replica, from the command.s start *\| *([0-9.]+) s.*/\1/p' "$cache/live-add.txt") s for $live_added images"
fi

# bench-search's line is a BenchmarkRecord (snake_case JSON): read its fields with Python.
field() { python3 -c 'import json, sys; d = json.loads(sys.argv[1]); print(eval(sys.argv[2], {}, {"d": d}))' "$json" "$1"; }
stage_bytes=$(field 'd["first_stage"]["bytes"]')
landmarks=$(field 'd["landmarks"]')
views=$(field 'd["views"]')
index_bytes=$(field 'd["index_bytes"]')
query_count=$(field 'd["queries"]')
# "ISA P50 P99" per row whose name starts with $1.
timed_rows() { field "'\\n'.join(f'{r[\"isa\"]} {r[\"p50_ms\"]:.3f} {r[\"p99_ms\"]:.3f}' for r in d['rows'] if r['name'].startswith('$1'))"; }
catalog_images=$((images + 46))
db_bytes=$(stat -c %s "$db")
vindex_bytes=$(stat -c %s "$db.vindex")
per_image() { awk -v b="$1" -v n="$catalog_images" 'BEGIN { printf "%.0f", b / n }'; }

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; $(grep -o 'avx512[a-z_0-9]*\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "catalog: $images crops of $photo_count photos (seed $seed) + 46 evaluation images = $catalog_images images;" \
  "$landmarks with a searchable view, $views views; queries: $query_count real images, $repeat runs each"
echo
printf '| %-44s | %-24s |\n' figure value
printf '| %-44s | %-24s |\n' --- ---:
printf '| %-44s | %-24s |\n' "build: index + crops, wall clock" "$build_seconds s"
printf '| %-44s | %-24s |\n' "build: peak RSS of debug-crop-catalog" "$((build_rss_kb / 1024)) MB"
printf '| %-44s | %-24s |\n' "disk: SQLite catalog per image" "$(per_image "$db_bytes") B"
printf '| %-44s | %-24s |\n' "disk: visual-index snapshot per image" "$(per_image "$vindex_bytes") B"
printf '| %-44s | %-24s |\n' "resident: index scanned per image" "$(per_image "$index_bytes") B"
printf '| %-44s | %-24s |\n' "exact search: recall@1 of the eval queries" "$exact_recall"
printf '| %-44s | %-24s |\n' "exact search: false positives at the threshold" "$exact_fp"
while read -r isa p50 p99; do
  printf '| %-44s | %-24s |\n' "exact search, 1 thread, $isa: p50 / p99" "$p50 / $p99 ms"
done < <(timed_rows "exact search")
while read -r isa p50 p99; do
  printf '| %-44s | %-24s |\n' "the same without the 24 tilt views, $isa" "$p50 / $p99 ms"
done < <(timed_rows "without tilt views")
printf '| %-44s | %-24s |\n' "first stage: build from the snapshot" "$stage_seconds s"
printf '| %-44s | %-24s |\n' "first stage: resident index per image" "$(per_image "$stage_bytes") B"
while read -r isa p50 p99; do
  printf '| %-44s | %-24s |\n' "cascade (default), 1 thread, $isa" "$p50 / $p99 ms"
done < <(timed_rows "first stage, then exact scores")
while read -r isa p50 p99; do
  printf '| %-44s | %-24s |\n' "first stage + exact, no cascade, $isa" "$p50 / $p99 ms"
done < <(timed_rows "first stage without the cascade")
printf '| %-44s | %-24s |\n' "cascade: real queries scanned whole" "$(field 'd["first_stage"].get("scanned_every_view", "n/a")')"
positive_count=$(json="$positives_json" field 'd["queries"]')
while read -r isa p50 p99; do
  printf '| %-44s | %-24s |\n' "$positive_count matching queries: exact, $isa" "$p50 / $p99 ms"
done < <(json="$positives_json" timed_rows "exact search")
while read -r isa p50 p99; do
  printf '| %-44s | %-24s |\n' "$positive_count matching queries: cascade, $isa" "$p50 / $p99 ms"
done < <(json="$positives_json" timed_rows "first stage, then exact scores")
printf '| %-44s | %-24s |\n' "matching queries: scanned whole, agreement" \
  "$(json="$positives_json" field 'd["first_stage"].get("scanned_every_view", "n/a")'), $(json="$positives_json" field 'd["first_stage"]["top_1_agreement"]')"
printf '| %-44s | %-24s |\n' "matching queries: answered at the first look" \
  "$(json="$positives_json" field 'd["first_stage"].get("answered_at_first_look", "n/a")')"
printf '| %-44s | %-24s |\n' "cascade: recall@1 of the eval queries" "$stage_recall"
printf '| %-44s | %-24s |\n' "cascade: false positives at the threshold" "$stage_fp"
printf '| %-44s | %-24s |\n' "cascade: top-1 / top-10 agreement" "$agreement_pair"
printf '| %-44s | %-24s |\n' "cascade: recall@1 furthest under exact" "$worst_points points ($worst_family)"
printf '| %-44s | %-24s |\n' "serve: cold start to /readyz" "$serve_cold s"
printf '| %-44s | %-24s |\n' "serve: 1080p JPEG in the catalog, wrk -t2 -c4" "$serve_matching"
printf '| %-44s | %-24s |\n' "serve: 1080p JPEG in no catalog, wrk -t2 -c4" "$serve_other"
printf '| %-44s | %-24s |\n' "live add: served by a running replica after" "$live_served"

# The scale issue's goals beside this run's figures: met, or the gap.
echo
echo "The scale issue's goals, set for 1,000,000 images, on this catalog of $catalog_images (one thread per search; the 10 M-image goals: benchmarks/capacity.sh):"
echo
python3 - "$cache/bench-search.json" "$cache/bench-positives.json" "$cache/eval.json" "$(per_image "$stage_bytes")" \
  "$serve_cold" "$serve_matching" "${live_served%% s*}" "$build_seconds" "$(nproc)" "$worst_points" <<'PY'
import json, sys
others, matching, report = (json.load(open(path)) for path in sys.argv[1:4])
stage_bytes, cold, serve, live, build, cores, worst_points = sys.argv[4:11]
agreement = report["first_stage_agreement"]
def timed(record, prefix, isa, key):
    rows = [r for r in record["rows"] if r["name"].startswith(prefix) and r["isa"] == isa]
    return rows[0][key] if rows else None
def number(text):
    try: return float(text.split()[0])
    except (ValueError, IndexError): return None
rows = []
def goal(name, target, value, met, shown=None):
    verdict = "n/a" if value is None else ("met" if met(value) else "not met")
    rows.append((name, target, "n/a" if value is None else (shown or "%g") % value, verdict))
cascade = "first stage, then exact scores"
for isa, limit in (("avx512", 3), ("avx2", 6)):
    goal(f"matching queries: search p50, {isa}", f"≤ {limit} ms", timed(matching, cascade, isa, "p50_ms"), lambda v, l=limit: v <= l, "%.2f ms")
    goal(f"queries in no catalog: search p50, {isa}", f"≤ {limit} ms", timed(others, cascade, isa, "p50_ms"), lambda v, l=limit: v <= l, "%.2f ms")
goal("matching queries: search p99, avx512", "≤ 10 ms", timed(matching, cascade, "avx512", "p99_ms"), lambda v: v <= 10, "%.2f ms")
goal("queries in no catalog: search p99, avx512", "≤ 10 ms", timed(others, cascade, "avx512", "p99_ms"), lambda v: v <= 10, "%.2f ms")
goal("top-1 agreement with the exact search", "≥ 0.995", agreement["top_1"], lambda v: v >= 0.995, "%.4f")
goal("recall@1 under exact's, worst transformation", "≤ 0.5 points", number(worst_points), lambda v: v <= 0.5, "%.2f points")
goal("false positives at the threshold", "≤ exact's (%d)" % agreement["exhaustive_false_positives"],
     agreement["false_positives"], lambda v: v <= agreement["exhaustive_false_positives"], "%d")
goal("resident first stage per image", "≤ 800 B", number(stage_bytes), lambda v: v <= 800, "%.0f B")
goal("serve: cold start to /readyz", "≤ 2 s", number(cold), lambda v: v <= 2, "%.2f s")
goal("serve: 1080p JPEG searches in the catalog, wrk", "≥ 300 req/s", number(serve), lambda v: v >= 300, "%.1f req/s")
goal("serve: added images served after", "≤ 5 s", number(live), lambda v: v <= 5, "%.2f s")
rows.append(("catalog build on %s cores" % cores, "reported", "%s s" % build, "reported"))
print("| goal | target | this run | |")
print("|---|---:|---:|---|")
for row in rows: print("| %s | %s | %s | %s |" % row)
PY
