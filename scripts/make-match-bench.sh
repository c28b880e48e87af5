#!/usr/bin/env bash
# Makes a folder of N (default 1000) ≈2 MP JPEGs for measuring `glimpse match`
# throughput, from the sample catalog's JPEG photos, with libjpeg-turbo's djpeg/cjpeg only:
# each source is enlarged by DCT upscaling (djpeg -scale 16/8, repeated) until it covers
# 1632x1224, then every output is a different 1632x1224 window of it (djpeg -crop; the
# left edge snaps to the 16-pixel iMCU grid, so widths are 1632…1647) saved at quality 90.
# The output is for benchmarks only: never commit it.
#
# Usage: scripts/make-match-bench.sh OUT_FOLDER [N]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: make-match-bench.sh OUT_FOLDER [N]}
count=${2:-1000}
command -v djpeg >/dev/null && command -v cjpeg >/dev/null || scripts/bootstrap.sh libjpeg-turbo-progs
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t sources < <(find testdata/catalog -name '*.jpg' | sort)
n=${#sources[@]}
size() { head -c 32 "$1" | sed -n 2p; }   # "W H" from a P6 header written by djpeg
for s in $(seq 0 $((n - 1))); do
    djpeg -ppm "${sources[$s]}" > "$work/$s.ppm"
    read -r w h < <(size "$work/$s.ppm")
    while (( w < 1632 || h < 1224 )); do
        cjpeg -quality 95 "$work/$s.ppm" > "$work/$s.jpg"
        djpeg -ppm -scale 16/8 "$work/$s.jpg" > "$work/$s.ppm"
        read -r w h < <(size "$work/$s.ppm")
    done
    cjpeg -quality 95 "$work/$s.ppm" > "$work/$s.jpg"
    echo "$w $h" > "$work/$s.size"
    rm "$work/$s.ppm"
done
for i in $(seq 0 $((count - 1))); do
    s=$((i % n)); v=$((i / n))
    read -r w h < "$work/$s.size"
    x=$(( (v * 97) % (w - 1632 + 1) )); y=$(( (v * 61) % (h - 1224 + 1) ))
    djpeg -ppm -crop "1632x1224+$x+$y" "$work/$s.jpg" | cjpeg -quality 90 > "$out/$(printf 'photo-%04d' "$i").jpg"
done
echo "make-match-bench: wrote $count JPEGs to $out" >&2
