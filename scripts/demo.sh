#!/usr/bin/env bash
# The main job on the bundled sample data: install what is missing, build the CLI in
# release mode, and run it on a sample image.
# Until indexing and querying land, the main job is decoding: a real photo stored
# sideways (EXIF orientation 6), decoded whole and upright, then only a region of it at
# the smallest DCT scale that still gives 64 pixels on the short side.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --product glimpse >&2
bin="$(swift build -c release --show-bin-path)/glimpse"
sample=testdata/exif-orientation/Landscape_6.jpg
"$bin" inspect "$sample"
echo
"$bin" inspect "$sample" --region 600,300,800,600 --min-side 64
