#!/usr/bin/env bash
# Checks that a `glimpse match --report` contact sheet renders in a real browser: renders
# it with headless Chromium (Debian's `chromium`, installed by scripts/bootstrap.sh when
# missing unless GLIMPSE_NO_INSTALL=1), then decodes the screenshot with `glimpse inspect`
# and asserts it is not blank (many distinct colours, a good share of non-white pixels:
# the inlined thumbnails drew).
#
# Usage: scripts/check-report.sh REPORT.html [GLIMPSE_BINARY]
# Without REPORT, makes one: indexes testdata/catalog into a temporary database and
# matches testdata/catalog/food plus testdata/negatives.
# Exit: 0 renders, 1 blank or failed render, 77 chromium missing and not installable.
set -euo pipefail
cd "$(dirname "$0")/.."
report=${1:-}
bin=${2:-}
if ! command -v chromium >/dev/null 2>&1; then
    if [[ "${GLIMPSE_NO_INSTALL:-0}" == 1 ]] || ! scripts/bootstrap.sh chromium >/dev/null 2>&1; then
        echo "check-report: chromium is not installed (apt-get install chromium); skipped" >&2
        exit 77
    fi
fi
if [[ -z "$bin" ]]; then
    swift build --product glimpse >&2
    bin="$(swift build --show-bin-path)/glimpse"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -z "$report" ]]; then
    "$bin" index testdata/catalog/manifest.json --db "$work/g.sqlite" >/dev/null 2>&1
    mkdir -p "$work/photos"
    cp testdata/catalog/food/*.jpg testdata/negatives/anemone.jpg testdata/negatives/bassoon.jpg "$work/photos/"
    cp testdata/jpeg/corrupt_bitflips.jpg "$work/photos/broken.jpg"
    "$bin" match "$work/photos" --db "$work/g.sqlite" --out "$work/rows.jsonl" --report "$work/report.html" 2>/dev/null || true
    report="$work/report.html"
fi
[[ -s "$report" ]] || { echo "check-report: $report: missing or empty" >&2; exit 1; }
shot="$work/shot.png"
# --no-sandbox: CI containers often run as root, where Chromium's sandbox refuses to start.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,900 \
    --screenshot="$shot" "file://$(realpath "$report")" >/dev/null 2>&1 || true
[[ -s "$shot" ]] || { echo "check-report: $report: chromium wrote no screenshot" >&2; exit 1; }
"$bin" inspect "$shot" --dump "$work/shot.pam" >/dev/null
python3 - "$work/shot.pam" "$report" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
end = data.index(b"ENDHDR\n") + len(b"ENDHDR\n")
header = dict(line.split(b" ", 1) for line in data[:end].split(b"\n")[1:-2] if b" " in line)
width, height, depth = int(header[b"WIDTH"]), int(header[b"HEIGHT"]), int(header[b"DEPTH"])
pixels = data[end:]
colours, non_white = set(), 0
for i in range(0, width * height * depth, depth * 7):  # every 7th pixel is plenty
    px = pixels[i:i + 3]
    colours.add(px)
    if sum(px) < 3 * 240:
        non_white += 1
sampled = (width * height + 6) // 7
share = non_white / sampled
print(f"check-report: {sys.argv[2]}: {width}x{height} screenshot, {len(colours)} distinct colours, {share:.0%} non-white")
if len(colours) < 200 or share < 0.05:
    print("check-report: the page rendered blank or without images", file=sys.stderr)
    sys.exit(1)
PY
