#!/usr/bin/env bash
# The main job on the bundled sample data: install what is missing, build the CLI in
# release mode, and run it on a sample image.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --product glimpse >&2
bin="$(swift build -c release --show-bin-path)/glimpse"
"$bin" inspect testdata/samples/sample.jpg
