#!/usr/bin/env bash
# Makes the WebP, HEIF and AVIF conformance images in testdata/webp, testdata/heif and
# testdata/avif with Debian 12's own encoders (cwebp, img2webp, webpmux from `webp`;
# heif-enc from `libheif-examples`; avifenc from `libavif-bin`), and their reference
# decodes with the reference tools (dwebp, heif-convert, avifdec) as PNG.
#
#   scripts/make-format-testdata.sh
#
# Sources: testdata/catalog/landmarks/hurricane-ridge.jpg (Stellarium, GPL-2+, see
# testdata/ATTRIBUTION.md), testdata/exif-orientation/Landscape_6.jpg (MIT, for its EXIF
# block) and testdata/pngsuite/basn6a08.png (PngSuite, RGBA). Re-running rewrites the
# files; encoders are deterministic for a given version, so the bytes stay the same
# unless the Debian packages change.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh >/dev/null 2>&1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
webp=testdata/webp heif=testdata/heif avif=testdata/avif
mkdir -p "$webp" "$heif" "$avif"

# 1. The base picture: 256x128, lossless, and a second frame; a 16-bit copy for 10/12-bit input.
cwebp -quiet -resize 256 128 -lossless -exact testdata/catalog/landmarks/hurricane-ridge.jpg -o "$work/base.webp"
dwebp -quiet -nodither "$work/base.webp" -o "$work/base.png"
cwebp -quiet -resize 256 128 -lossless testdata/catalog/landmarks/guereins.jpg -o "$work/second.webp"
dwebp -quiet -nodither "$work/second.webp" -o "$work/second.png"
dwebp -quiet "$work/base.webp" -ppm -o "$work/base.ppm"
python3 - "$work/base.ppm" "$work/base16.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
parts = data.split(b'\n', 3)  # P6, "W H", 255, pixels
w, h = map(int, parts[1].split())
px = parts[3]
rows = b''.join(b'\x00' + b''.join(struct.pack('>H', v * 257) for v in px[y * w * 3:(y + 1) * w * 3]) for y in range(h))
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 2, 0, 0, 0)) \
    + chunk(b'IDAT', zlib.compress(rows, 9)) + chunk(b'IEND', b'')
open(sys.argv[2], 'wb').write(png)
EOF
# The EXIF block (APP1 payload after "Exif\0\0") of a JPEG with Orientation 6.
python3 - testdata/exif-orientation/Landscape_6.jpg "$work/orientation6.exif" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
i = d.index(b'Exif\x00\x00')
n = int.from_bytes(d[i - 2:i], 'big')  # APP1 length includes its 2 bytes and the "Exif\0\0"
open(sys.argv[2], 'wb').write(d[i + 6:i - 2 + n])
EOF

# 2. WebP: lossy, lossless, lossy with alpha, animated (first frame), EXIF orientation 6.
cwebp -quiet -q 80 "$work/base.png" -o "$webp/lossy.webp"
cwebp -quiet -lossless "$work/base.png" -o "$webp/lossless.webp"
cwebp -quiet -q 80 -alpha_q 100 testdata/pngsuite/basn6a08.png -o "$webp/alpha.webp"
img2webp -lossless "$work/base.png" -d 100 "$work/second.png" -o "$webp/animated.webp" >/dev/null 2>&1
webpmux -set exif "$work/orientation6.exif" "$webp/lossy.webp" -o "$webp/lossy-exif6.webp" >/dev/null 2>&1
for name in lossy lossless alpha; do dwebp -quiet -nodither "$webp/$name.webp" -o "$webp/$name.dwebp.png"; done
# animated.webp: lossless frames, so its first frame is lossless.dwebp.png exactly

# 3. HEIF (HEVC, x265): 8-bit, 10-bit, two images (primary first), EXIF orientation 6 without irot.
heif-enc -q 60 "$work/base.png" -o "$heif/photo.heic" >/dev/null 2>&1
heif-enc -q 60 -b 10 "$work/base16.png" -o "$heif/photo-10bit.heic" >/dev/null 2>&1
heif-enc -q 60 "$work/base.png" "$work/second.png" -o "$heif/two-images.heic" >/dev/null 2>&1
python3 - "$work/base.png" "$work/orientation6.exif" "$work/base-exif6.png" <<'EOF'
import struct, sys, zlib
png, exif = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
end = 8 + 8 + 13 + 4  # after IHDR
open(sys.argv[3], 'wb').write(png[:end] + chunk(b'eXIf', exif) + png[end:])
EOF
heif-enc -q 60 "$work/base-exif6.png" -o "$heif/exif6.heic" >/dev/null 2>&1
heif-convert "$heif/photo.heic" "$heif/photo.heif-convert.png" >/dev/null 2>&1
heif-convert "$heif/photo-10bit.heic" "$heif/photo-10bit.heif-convert.png" >/dev/null 2>&1

# 4. AVIF (AV1, aom): 8-, 10- and 12-bit 4:2:0, 4:4:4, a 2x2 grid, and every irot/imir combination.
avifenc -s 8 --min 20 --max 30 "$work/base.png" "$avif/photo.avif" >/dev/null 2>&1
avifenc -s 8 --min 20 --max 30 -d 10 "$work/base16.png" "$avif/photo-10bit.avif" >/dev/null 2>&1
avifenc -s 8 --min 20 --max 30 -d 12 "$work/base16.png" "$avif/photo-12bit.avif" >/dev/null 2>&1
avifenc -s 8 --min 20 --max 30 -y 444 "$work/base.png" "$avif/photo-444.avif" >/dev/null 2>&1
avifenc -s 8 --min 20 --max 30 --grid 2x2 "$work/base.png" "$avif/grid-2x2.avif" >/dev/null 2>&1
for name in photo photo-10bit photo-12bit photo-444 grid-2x2; do
  avifdec "$avif/$name.avif" "$avif/$name.avifdec.png" >/dev/null 2>&1
done
for irot in 0 1 2 3; do
  for imir in none 0 1; do
    [ "$imir" = none ] && [ "$irot" = 0 ] && continue
    mirror=(); [ "$imir" = none ] || mirror=(--imir "$imir")
    avifenc -s 8 --min 20 --max 30 --irot "$irot" "${mirror[@]}" "$work/base.png" "$avif/irot$irot-imir$imir.avif" >/dev/null 2>&1
  done
done
# irot plus an EXIF Orientation 6 that describes the same turn: applied once, not twice.
avifenc -s 8 --min 20 --max 30 --irot 3 --exif "$work/orientation6.exif" "$work/base.png" "$avif/irot3-exif6.avif" >/dev/null 2>&1
# (avifenc 0.11 turns an input EXIF orientation into irot/imir itself; the EXIF-only case is heif/exif6.heic.)
# 5. Catalog photos in the new formats, for the command tests (match, query, index).
heif-enc -q 60 testdata/catalog/landmarks/hurricane-ridge.jpg -o "$heif/catalog-hurricane-ridge.heic" >/dev/null 2>&1
avifenc -s 8 --min 20 --max 30 testdata/catalog/animals/lion.jpg "$avif/catalog-lion.avif" >/dev/null 2>&1
cwebp -quiet -q 80 testdata/catalog/food/apricot.jpg -o "$webp/catalog-apricot.webp"
echo "made $(ls "$webp" "$heif" "$avif" | grep -c '\.') files" >&2
