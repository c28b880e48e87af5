#!/usr/bin/env bash
# HEIC, AVIF and WebP decoding beside the reference decoders, on the same files, in one run.
#
#   benchmarks/compare-formats.sh            12 MP (4000x3000) files, 10 runs each
#   benchmarks/compare-formats.sh --quick    2 MP (1800x1200) files, 3 runs each, debug build:
#                                            a smoke test for CI, not figures to publish
#
# 1. Makes the inputs once (cached in benchmarks/.images/): the 12 MP photo JPEG of
#    make-bench-images.sh (or, quick, testdata/exif-orientation/Landscape_1.jpg) encoded
#    by heif-enc -q 75 (x265), avifenc -s 8 --min 20 --max 30 (aom) and cwebp -q 80.
# 2. Times whole processes with hyperfine (-N, no shell): heif-convert, avifdec and dwebp
#    writing their cheapest output (Y4M, i.e. no RGB conversion, for heif-convert and
#    avifdec; PPM for dwebp) to /dev/shm, beside `glimpse inspect` decoding the full image
#    to RGBA, a 1000x1000 region, and (WebP) at the scale the fingerprints need
#    (--min-side 256, libwebp's scaler); the reference tools do strictly less work here.
# 3. Times decode + fingerprint inside one process (`glimpse bench-fingerprint`: median of
#    N runs after a warm-up, the query path: Fingerprinter.fingerprint(decodingFile:)).
# 4. Prints the ratios (Glimpse / reference, mean wall time) with the machine, CPU
#    instruction set and load average before and after. The machine is shared: compare
#    only figures from the same run.
# Installs hyperfine, libjpeg-turbo-progs and the codec tools with apt when missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quick=0
[ "${1:-}" = "--quick" ] && quick=1
missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
command -v djpeg >/dev/null || missing+=(libjpeg-turbo-progs)
"$root/scripts/bootstrap.sh" "${missing[@]}"

if [ $quick -eq 1 ]; then
  source="$root/testdata/exif-orientation/Landscape_1.jpg"
  images="$root/benchmarks/.images/formats-quick"
  runs=3
  configuration=debug
else
  source="$("$root/benchmarks/make-bench-images.sh")"
  images="$root/benchmarks/.images/formats-12mp"
  runs=10
  configuration=release
fi
mkdir -p "$images"
[ -s "$images/photo.heic" ] || heif-enc -q 75 "$source" -o "$images/photo.heic" >/dev/null 2>&1
[ -s "$images/photo.avif" ] || avifenc -s 8 -j all --min 20 --max 30 "$source" "$images/photo.avif" >/dev/null 2>&1
[ -s "$images/photo.webp" ] || cwebp -quiet -q 80 "$source" -o "$images/photo.webp"

(cd "$root" && swift build -c "$configuration" --product glimpse >&2)
glimpse="$(cd "$root" && swift build -c "$configuration" --show-bin-path)/glimpse"
echo "# glimpse: $configuration build"
out="$(mktemp -d /dev/shm/glimpse-formats.XXXXXX 2>/dev/null || mktemp -d)"
trap 'rm -rf "$out"' EXIT

echo "# $(date -u +%FT%TZ) $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# instruction set: $(grep -o 'avx512[a-z]*\|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# libheif $(dpkg-query -W -f='${Version}' libheif1), libde265 $(dpkg-query -W -f='${Version}' libde265-0), dav1d $(dpkg-query -W -f='${Version}' libdav1d6), libwebp $(dpkg-query -W -f='${Version}' libwebp7)"
for f in photo.heic photo.avif photo.webp; do
  "$glimpse" inspect "$images/$f" | sed -n '2p;3p' | tr -s ' ' | paste -sd' ' | sed "s|^|# $f ($(stat -c %s "$images/$f") bytes): |"
done

region="1000,1000,1000,1000"
[ $quick -eq 1 ] && region="400,300,1000,800"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$out/times.json" --style basic \
  -n heif-convert "heif-convert $images/photo.heic $out/heic.y4m" \
  -n glimpse-heic "$glimpse inspect $images/photo.heic" \
  -n glimpse-heic-region "$glimpse inspect $images/photo.heic --region $region" \
  -n avifdec "avifdec $images/photo.avif $out/avif.y4m" \
  -n glimpse-avif "$glimpse inspect $images/photo.avif" \
  -n glimpse-avif-region "$glimpse inspect $images/photo.avif --region $region" \
  -n dwebp "dwebp -ppm $images/photo.webp -o $out/webp.ppm" \
  -n glimpse-webp "$glimpse inspect $images/photo.webp" \
  -n glimpse-webp-region "$glimpse inspect $images/photo.webp --region $region" \
  -n glimpse-webp-scaled "$glimpse inspect $images/photo.webp --min-side 256" >&2

for f in photo.heic photo.avif photo.webp; do
  "$glimpse" bench-fingerprint "$images/$f" --repeat "$runs" > "$out/fp-$f.json"
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
t = {r["command"]: r for r in json.load(open(f"{out}/times.json"))["results"]}
ms = lambda name: t[name]["mean"] * 1000
fp = {f: json.load(open(f"{out}/fp-{f}.json")) for f in ("photo.heic", "photo.avif", "photo.webp")}
cpu = lambda name: (t[name]["user"] + t[name]["system"]) * 1000
print("Wall time is what a user waits; on a loaded machine CPU time (user + system) is the steadier comparison.")
print()
print("| file | reference: wall / CPU ms | Glimpse full decode: wall / CPU ms | ratio wall / CPU | region 1000x1000: wall / CPU ms | ratio wall / CPU | decode + fingerprint, in process (median wall) | ratio to reference wall |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for f, ref, g in (("photo.heic", "heif-convert", "glimpse-heic"), ("photo.avif", "avifdec", "glimpse-avif"),
                  ("photo.webp", "dwebp", "glimpse-webp")):
    part, fpm = g + "-region", fp[f]["median_ms"]
    print(f"| {f} | {ref} {ms(ref):.0f} / {cpu(ref):.0f} | {ms(g):.0f} / {cpu(g):.0f} | {ms(g) / ms(ref):.2f} / {cpu(g) / cpu(ref):.2f} | "
          f"{ms(part):.0f} / {cpu(part):.0f} | {ms(part) / ms(ref):.2f} / {cpu(part) / cpu(ref):.2f} | "
          f"{fpm:.0f} ms (scale {fp[f]['scale']}) | {fpm / ms(ref):.2f} |")
s = "glimpse-webp-scaled"
print(f"| photo.webp, --min-side 256 (libwebp scaler) | dwebp {ms('dwebp'):.0f} / {cpu('dwebp'):.0f} | {ms(s):.0f} / {cpu(s):.0f} | "
      f"{ms(s) / ms('dwebp'):.2f} / {cpu(s) / cpu('dwebp'):.2f} | | | | |")
PY
