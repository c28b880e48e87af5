#!/usr/bin/env bash
# Fuzzes one Glimpse input parser with libFuzzer (+ AddressSanitizer / LeakSanitizer).
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]
#
# TARGET: decoder   PNG/JPEG/WebP/HEIF/AVIF bytes + 8 option bytes (region, scale, orientation,
#                   damage); GLIMPSE_FUZZ_CODEC_SOURCES=DIR fuzzes instrumented libpng/libjpeg too;
#                   GLIMPSE_FUZZ_SEEDS="testdata/webp ..." seeds from those folders only, in a
#                   corpus of their own (one format at a time)
#         manifest  catalog manifest JSON (ManifestCatalogSource)
#         pagetoken page tokens as a client would send them (Search)
#         cli       the glimpse command line itself (fuzz/cli_fuzz.py): random manifests and
#                   folders of real, damaged and odd-named image files (FIFOs, bytes that
#                   are not UTF-8) indexed, then random query/open/export/catalog/match/
#                   inspect/hash commands and argument vectors; checks no crash, no hang,
#                   a documented exit status, one-line errors and PRAGMA integrity_check.
#                   Extra flags go to the script (--seed N, --verbose, --timeout S).
#
# The library is built with `-sanitize=fuzzer,address` into .build-fuzz/ (a scratch path
# of its own, so the normal .build/ is untouched); the entry point in fuzz/ is compiled
# with swiftc against those build products (a SwiftPM executable target renames `main`,
# which libFuzzer provides). The working corpus lives in .build-fuzz/corpus-TARGET,
# seeded from testdata/; crashes, leaks and timeouts are written to
# .build-fuzz/artifacts-TARGET/. Reproduce one with:
#   .build-fuzz/fuzz-TARGET .build-fuzz/artifacts-TARGET/crash-...
# and copy it into testdata/fuzz-regressions/TARGET/ so FuzzRegressionTests replay it.
#
# SECONDS=0 only builds the fuzzer (scripts/test.sh builds and runs every target for a few
# seconds on every CI run, so they keep building from a clean clone). Runs one fuzzing process (-workers=1): the machine is shared. Exit status 0 when the
# run found nothing, non-zero when libFuzzer stopped on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/fuzz.sh decoder|manifest|pagetoken|cli SECONDS [libFuzzer flags...]" >&2; exit 1; }
[ $# -ge 2 ] || usage
target=$1
seconds=$2
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

if [ "$target" = cli ]; then
  # Not libFuzzer: the real debug binary driven by fuzz/cli_fuzz.py (Python 3 standard
  # library only, sqlite3 for the integrity check).
  if command -v python3 >/dev/null && python3 -c 'import sqlite3' 2>/dev/null; then
    scripts/bootstrap.sh >/dev/null
  else
    scripts/bootstrap.sh python3 >/dev/null
  fi
  swift build --product glimpse >&2
  bin="$(swift build --show-bin-path)/glimpse"
  if [ "$seconds" -eq 0 ]; then echo "fuzz.sh: cli fuzzer ready ($bin)" >&2; exit 0; fi
  mkdir -p .build-fuzz/artifacts-cli
  exec python3 fuzz/cli_fuzz.py --binary "$bin" --seconds "$seconds" --artifacts .build-fuzz/artifacts-cli "$@"
fi

case "$target" in
  decoder)   sources=(fuzz/DecoderFuzzer.swift Tests/PixelBuffersTests/DecoderFuzzInput.swift)
             library=PixelBuffers; max_len=65536 ;;
  manifest)  sources=(fuzz/ManifestFuzzer.swift Tests/CatalogTests/ManifestFuzzInput.swift)
             library=Catalog; max_len=16384 ;;
  pagetoken) sources=(fuzz/PageTokenFuzzer.swift Tests/SearchTests/PageTokenFuzzInput.swift)
             library=Search; max_len=1024 ;;
  *) usage ;;
esac

scripts/bootstrap.sh >/dev/null
scratch=.build-fuzz
debug=$scratch/debug
binary=$scratch/fuzz-$target
corpus=$scratch/corpus-$target
seed_dirs=(testdata/pngsuite testdata/jpeg testdata/catalog-fixtures testdata/negatives testdata/webp testdata/heif testdata/avif)
if [ "$target" = decoder ] && [ -n "${GLIMPSE_FUZZ_SEEDS:-}" ]; then
  read -r -a seed_dirs <<< "$GLIMPSE_FUZZ_SEEDS"
  corpus=$scratch/corpus-$target-$(echo "$GLIMPSE_FUZZ_SEEDS" | tr -c 'a-z0-9\n' '-' | tr -d '\n')
fi
artifacts=$scratch/artifacts-$target
mkdir -p "$corpus" "$artifacts"

# 1. The library, instrumented for coverage and built with ASan (C shim included).
swift build --scratch-path "$scratch" --target "$library" \
  -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address >&2

# 2. The entry point, linked with the object files of every library module it needs.
objects=()
for module in CImageCodecs CSIMDKernels PixelBuffers Fingerprints GRDB Catalog Search; do
  [ -d "$debug/$module.build" ] || continue
  while IFS= read -r -d '' object; do objects+=("$object"); done \
    < <(find "$debug/$module.build" -name '*.o' -print0)
done
# The codecs: the system's (not instrumented), or, with GLIMPSE_FUZZ_CODEC_SOURCES=DIR
# (libpng v1.6.39 and libjpeg-turbo 2.1.5 sources, see fuzz/build-codecs.sh), built from
# source with coverage and ASan so the fuzzer can steer through libpng and libjpeg too.
libraries=(-lpng16 -ljpeg -lwebp -lwebpdemux) # libheif, libde265, dav1d: dlopen on first use (heif_library.h)
if [ -n "${GLIMPSE_FUZZ_CODEC_SOURCES:-}" ]; then
  codecs=$scratch/codecs
  if [ ! -f "$codecs/libjpeg.a" ] || [ ! -f "$codecs/libpng16.a" ]; then
    fuzz/build-codecs.sh "$GLIMPSE_FUZZ_CODEC_SOURCES" "$codecs"
  fi
  libraries=("$codecs/libpng16.a" "$codecs/libjpeg.a" -lz -lwebp -lwebpdemux)
  binary=$scratch/fuzz-$target-codecs
fi
[ "$library" = PixelBuffers ] || libraries+=(-lsqlite3)
# A C target's module map: its own (Sources/X/include/module.modulemap, which SwiftPM then
# uses as it is and does not copy) or the one SwiftPM generates in the build folder.
module_maps=()
for module in CImageCodecs CSIMDKernels; do
  if [ -f "Sources/$module/include/module.modulemap" ]; then
    module_maps+=(-Xcc -fmodule-map-file="Sources/$module/include/module.modulemap")
  elif [ -f "$debug/$module.build/module.modulemap" ]; then
    module_maps+=(-Xcc -fmodule-map-file="$debug/$module.build/module.modulemap")
  else
    echo "fuzz.sh: no module map for $module (neither Sources/$module/include/module.modulemap nor $debug/$module.build/module.modulemap)" >&2
    exit 1
  fi
done
module_maps+=(-Xcc -fmodule-map-file="$scratch/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap")
swiftc -sanitize=fuzzer,address -parse-as-library -g -Onone "${sources[@]}" \
  -I "$debug/Modules" "${module_maps[@]}" \
  "${objects[@]}" "${libraries[@]}" -o "$binary"

if [ "$seconds" -eq 0 ]; then echo "fuzz.sh: built $binary" >&2; exit 0; fi

# 3. Seeds from testdata/ (and every regression input found so far).
seed_count=$(find "$corpus" -type f | wc -l)
if [ "$seed_count" -eq 0 ]; then
  case "$target" in
    decoder)
      # Each small image three times: whole image; a region at a reduced DCT scale;
      # damage allowed with a raw pixel region.
      while IFS= read -r -d '' image; do
        name=$(basename "$image")
        { printf '\x00\x00\x00\x00\x00\x00\x00\x00'; cat "$image"; } > "$corpus/whole-$name"
        { printf '\x08\x40\x40\x80\x80\x10\x00\x00'; cat "$image"; } > "$corpus/region-$name"
        { printf '\x1d\x01\x02\x04\x04\x00\x01\x00'; cat "$image"; } > "$corpus/damaged-$name"
      done < <(find "${seed_dirs[@]}" \( -name '*.png' -o -name '*.jpg' -o -name '*.webp' -o -name '*.heic' \
                 -o -name '*.avif' \) -size -64k -print0)
      ;;
    manifest)
      while IFS= read -r -d '' manifest; do
        cp "$manifest" "$corpus/$(echo "$manifest" | tr / _)"
      done < <(find testdata -name '*.json' -size -16k -not -path '*/fuzz-regressions/*' -print0)
      ;;
    pagetoken)
      # Token-shaped text (45 bytes as base64url, version byte 1) and raw field bytes.
      for i in 1 2 3 4 5 6 7 8; do
        { printf '\x01'; head -c 44 /dev/urandom; } | base64 -w0 | tr '+/' '-_' | tr -d '=' > "$corpus/token-$i"
        head -c 30 /dev/urandom > "$corpus/fields-$i"
      done
      printf 'not a token!' > "$corpus/text"
      ;;
  esac
fi
if [ -d "testdata/fuzz-regressions/$target" ]; then
  cp testdata/fuzz-regressions/"$target"/* "$corpus/" 2>/dev/null || true
fi

dict=()
[ -f "fuzz/$target.dict" ] && dict=(-dict="fuzz/$target.dict")

# 4. Fuzz. ASan's leak checker runs at exit and on every input that leaks.
echo "fuzz.sh: $target for ${seconds}s, corpus $corpus ($(find "$corpus" -type f | wc -l) inputs)" >&2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
exec "$binary" "$corpus" "${dict[@]}" -max_total_time="$seconds" -workers=1 -timeout=10 -rss_limit_mb=2048 \
  -max_len="$max_len" -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
