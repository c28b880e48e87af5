#!/usr/bin/env bash
# Runs every package-benchmark suite and compares it with the thresholds stored in
# benchmarks/Thresholds/ (p90 wall clock, 10 % tolerance, set in each suite's configuration).
# Exit status: 0 equal, 2 regressions, 4 only improvements (package-benchmark's codes).
#   benchmarks/check-regressions.sh            # check
#   benchmarks/check-regressions.sh --update   # record new thresholds (on an idle machine)
set -euo pipefail
cd "$(dirname "$0")"
../scripts/bootstrap.sh libjpeg-turbo-progs
bash make-bench-images.sh >/dev/null
if [ "${1:-}" = "--update" ]; then
  swift package --disable-sandbox --allow-writing-to-package-directory benchmark thresholds update --no-progress
  python3 Thresholds/normalise.py
else
  swift package --disable-sandbox benchmark thresholds check --path "$PWD/Thresholds" --no-progress
fi
