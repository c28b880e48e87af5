#!/usr/bin/env bash
# Decode benchmarks beside libjpeg-turbo's own djpeg, on the same 12 MP file, in one run:
#   1. makes the file (benchmarks/make-bench-images.sh) if missing;
#   2. runs the DecodeBenchmarks target of the package-benchmark suite (release build);
#   3. times djpeg at full size, at -scale 1/8, and with -crop 1000x1000, beside
#      `glimpse inspect` doing the same three decodes as whole processes (hyperfine, no
#      shell; both include process start, djpeg also writes PPM to /dev/null). On a
#      loaded machine compare the User and System columns: CPU time suffers less from
#      other load than wall time. (valgrind 3.19 cannot run the Swift binary, and this
#      machine has no hardware counters for perf, so there is no instruction count.)
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
glimpse=$(cd "$root" && source scripts/lib/release-build.sh && release_glimpse)
commands=(
  "djpeg -outfile /dev/null $image"
  "$glimpse inspect $image"
  "djpeg -scale 1/8 -outfile /dev/null $image"
  "$glimpse inspect $image --min-side 64"
  "djpeg -crop 1000x1000+1501+1001 -outfile /dev/null $image"
  "$glimpse inspect $image --region 1501,1001,1000,1000"
)
hyperfine -N --warmup 3 --runs 40 "${commands[@]}"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
