#!/usr/bin/env bash
# The main job on the bundled sample data: install what is missing, build the CLI in
# release mode, index the sample catalog (46 photos, testdata/catalog/manifest.json) into
# a temporary database, and search it with a person's selection of a phone screenshot
# (testdata/samples/screenshot-hurricane-ridge.png, region from testdata/samples/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
source scripts/lib/release-build.sh
bin=$(GLIMPSE_BUILD_VERBOSE=1 release_glimpse)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db="$work/glimpse.sqlite"
echo "\$ glimpse index testdata/catalog/manifest.json --db $db"
"$bin" index testdata/catalog/manifest.json --db "$db"
echo
echo "\$ glimpse query testdata/samples/screenshot-hurricane-ridge.png --region 4,211,712,332 --db $db"
"$bin" query testdata/samples/screenshot-hurricane-ridge.png --region 4,211,712,332 --db "$db"
