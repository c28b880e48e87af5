#!/usr/bin/env bash
# Makes the decode benchmark's input: a 4000x3000 (12 MP) photo JPEG, generated (never
# committed) from a real photo in testdata/. The photo is upscaled 2x in libjpeg's DCT
# (djpeg -scale 16/8: 1800x1200 -> 3600x2400), mirrored out to 4000x3000 at the right and
# bottom edges, then encoded by cjpeg at quality 90, 4:2:0, baseline.
# Deterministic: the same libjpeg-turbo gives the same file.
#
# Usage: benchmarks/make-bench-images.sh [OUT_DIR]   (default benchmarks/.images)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/benchmarks/.images}"
target="$out/photo-12mp.jpg"
[ -s "$target" ] && { echo "$target"; exit 0; }
if ! command -v djpeg >/dev/null || ! command -v cjpeg >/dev/null; then
  "$root/scripts/bootstrap.sh" libjpeg-turbo-progs
fi
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
djpeg -scale 16/8 -ppm -outfile "$tmp/up.ppm" "$root/testdata/exif-orientation/Landscape_1.jpg"
python3 - "$tmp/up.ppm" "$tmp/photo.ppm" 4000 3000 "$root/scripts/lib" <<'PY'
import sys
source, dest, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, sys.argv[5])
from ppm import ppm_bytes, read_ppm
data = open(source, "rb").read()
w, h, pos = read_ppm(data)
assert w <= width <= 2 * w and h <= height <= 2 * h
rows = [data[pos + y * w * 3: pos + (y + 1) * w * 3] for y in range(h)]
def widen(row):
    extra = width - w
    mirrored = b"".join(row[(w - 1 - i) * 3:(w - i) * 3] for i in range(extra))
    return row + mirrored
wide = [widen(r) for r in rows]
wide += [wide[h - 1 - i] for i in range(height - h)]
with open(dest, "wb") as f:
    f.write(ppm_bytes(width, height, b"".join(wide)))
PY
cjpeg -quality 90 -sample 2x2 -outfile "$target.tmp" "$tmp/photo.ppm"
mv "$target.tmp" "$target"
echo "$target"
