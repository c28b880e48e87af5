#!/usr/bin/env bash
# Decode benchmarks beside libjpeg-turbo's own djpeg, on the same 12 MP file, in one run:
#   1. makes the file (benchmarks/make-bench-images.sh) if missing;
#   2. runs the DecodeBenchmarks target of the package-benchmark suite (release build);
#   3. times djpeg at full size, at -scale 1/8, and with -crop 1000x1000 (hyperfine,
#      no shell; djpeg's figures include process start and writing PPM to /dev/null).
# Installs libjpeg-turbo-progs and hyperfine with apt when missing.
# Usage: benchmarks/compare-djpeg.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
missing=()
command -v djpeg >/dev/null || missing+=(libjpeg-turbo-progs)
command -v hyperfine >/dev/null || missing+=(hyperfine)
[ ${#missing[@]} -eq 0 ] || "$root/scripts/bootstrap.sh" "${missing[@]}"
image="$("$root/benchmarks/make-bench-images.sh")"
echo "# $(date -u +%FT%TZ) $(uname -m), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# image: $image ($(stat -c %s "$image") bytes)"
(cd "$root/benchmarks" && swift package benchmark --target DecodeBenchmarks)
hyperfine -N --warmup 3 --runs 40 \
  "djpeg -outfile /dev/null $image" \
  "djpeg -scale 1/8 -outfile /dev/null $image" \
  "djpeg -crop 1000x1000+1501+1001 -outfile /dev/null $image"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
