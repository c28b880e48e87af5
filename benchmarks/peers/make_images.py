"""Generates the benchmark images of compare-peers.sh, deterministically, from real photos.

Sizes: small 640x480 (0.31 MP), medium 1920x1080 (2.07 MP, JPEG and PNG of the same
pixels) and large 4000x3000 (12 MP). JPEGs are written by Pillow at quality 90 (4:2:0,
baseline, like a camera or a phone); the PNG at Pillow's default compression (zlib 6).

A target larger than the source photos is built as a grid of tiles, each a different
photo (cycled in sorted order) cover-cropped and resized with Lanczos, so the pixel
detail per area stays that of a real photo instead of a smooth upscale (which would
make entropy decoding, and so every decoder, unrealistically fast).

Usage: python make_images.py OUT_DIR SOURCE_DIR [SOURCE_DIR...]
Prints one tab-separated line per image: name, width, height, bytes, sha256 prefix, tiles.
"""

import hashlib
import math
import pathlib
import sys

from PIL import Image, ImageOps

TARGETS = [
    ("small.jpg", 640, 480),
    ("medium.jpg", 1920, 1080),
    ("large.jpg", 4000, 3000),
    ("medium.png", 1920, 1080),
]
PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png"}
MIN_SOURCE_PIXELS = 100_000


def find_photos(folders):
    """Real photos (at least 0.5 MP, decodable, RGB-like) under the folders, sorted by path."""
    photos = []
    for folder in folders:
        for path in sorted(pathlib.Path(folder).rglob("*")):
            if path.suffix.lower() not in PHOTO_SUFFIXES or not path.is_file():
                continue
            try:
                with Image.open(path) as im:
                    if im.width * im.height < MIN_SOURCE_PIXELS or im.mode not in ("RGB", "RGBA", "L", "P"):
                        continue
                    im.load()
            except Exception:  # damaged or odd files in testdata are not photos to time
                continue
            photos.append(path)
        if photos:
            return photos  # the first folder that has photos wins
    return photos


def load_photo(path):
    with Image.open(path) as im:
        return ImageOps.exif_transpose(im).convert("RGB")


def cover(photo, width, height):
    """Crops the photo's centre to the target aspect ratio and resizes it with Lanczos."""
    return ImageOps.fit(photo, (width, height), method=Image.Resampling.LANCZOS, centering=(0.5, 0.5))


def compose(photos, width, height):
    """One photo, or a grid of photos when the target is much larger than a source."""
    sizes = []
    for path in photos:
        with Image.open(path) as im:
            sizes.append(im.width * im.height)
    median_pixels = sorted(sizes)[len(sizes) // 2]
    grid = max(1, round(math.sqrt(width * height / median_pixels)))
    if grid == 1:
        return cover(load_photo(photos[0]), width, height), 1
    canvas = Image.new("RGB", (width, height))
    index = 0
    for row in range(grid):
        for col in range(grid):
            x0, x1 = col * width // grid, (col + 1) * width // grid
            y0, y1 = row * height // grid, (row + 1) * height // grid
            photo = load_photo(photos[index % len(photos)])
            canvas.paste(cover(photo, x1 - x0, y1 - y0), (x0, y0))
            index += 1
    return canvas, grid * grid


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 1
    out = pathlib.Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    photos = find_photos(argv[2:])
    if not photos:
        print(f"make_images: no photo of at least {MIN_SOURCE_PIXELS} pixels under {', '.join(argv[2:])}",
              file=sys.stderr)
        return 1
    for name, width, height in TARGETS:
        image, tiles = compose(photos, width, height)
        path = out / name
        if name.endswith(".jpg"):
            image.save(path, "JPEG", quality=90, subsampling="4:2:0", optimize=False, progressive=False)
        else:
            image.save(path, "PNG", compress_level=6)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        print(f"{name}\t{width}\t{height}\t{path.stat().st_size}\t{digest}\t{tiles}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
