"""Derives evaluation queries from catalog images, deterministically, for accuracy.py.

Used by compare-peers.sh when `glimpse eval --export-queries` is not available, so the
peers' recall@1 can still be measured. Writes OUT/<transformation>/<catalog-id>.png
(lossless, so the transformation is the only damage; the JPEG ones go through a real
JPEG round trip first). The catalog id is the image's path relative to the catalog
folder without its extension, as Glimpse's folder catalogs name landmarks.

Usage: python make_queries.py CATALOG_DIR OUT_DIR
"""

import io
import pathlib
import random
import sys

from PIL import Image, ImageDraw, ImageEnhance, ImageFilter, ImageFont, ImageOps

SUFFIXES = {".jpg", ".jpeg", ".png"}


def jpeg(image, quality):
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    buffer.seek(0)
    return Image.open(buffer).convert("RGB")


def crop_fraction(image, left, top, right, bottom):
    w, h = image.size
    return image.crop((round(w * left), round(h * top), round(w * (1 - right)), round(h * (1 - bottom))))


def screenshot(image):
    """Pastes the image into a phone-screenshot-like canvas (status bar, toolbar, caption),
    then selects it with a 4% margin of UI around it, as a person's selection would."""
    w, h = image.size
    canvas = Image.new("RGB", (round(w * 1.4), round(h * 1.9)), (242, 242, 247))
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, canvas.width, round(h * 0.12)), fill=(28, 28, 30))
    draw.rectangle((0, canvas.height - round(h * 0.15), canvas.width, canvas.height), fill=(255, 255, 255))
    draw.text((round(w * 0.05), round(h * 0.03)), "9:41  Photos", fill=(255, 255, 255))
    x0, y0 = round(w * 0.2), round(h * 0.35)
    canvas.paste(image, (x0, y0))
    draw.text((x0, y0 + h + round(h * 0.05)), "Shared with you: a great place", fill=(60, 60, 67))
    mx, my = round(w * 0.04), round(h * 0.04)
    return canvas.crop((x0 - mx, y0 - my, x0 + w + mx, y0 + h + my))


def text_overlay(image):
    out = image.copy()
    draw = ImageDraw.Draw(out)
    w, h = out.size
    font = ImageFont.load_default(size=max(10, h // 10))
    draw.text((round(w * 0.05), round(h * 0.75)), "Glimpse 2025", fill=(255, 255, 255), font=font,
              stroke_width=2, stroke_fill=(0, 0, 0))
    return out


TRANSFORMATIONS = {
    "jpeg-q20": lambda im: jpeg(im, 20),
    "jpeg-q75": lambda im: jpeg(im, 75),
    "downscale-25": lambda im: im.resize((max(8, im.width // 4), max(8, im.height // 4)), Image.Resampling.BILINEAR),
    "crop-border-10": lambda im: crop_fraction(im, 0.10, 0.10, 0.10, 0.10),
    "crop-offcentre-25": lambda im: crop_fraction(im, 0.25, 0.25, 0.0, 0.0),
    "screenshot": screenshot,
    "brightness-contrast": lambda im: ImageEnhance.Contrast(ImageEnhance.Brightness(im).enhance(1.25)).enhance(0.8),
    "gamma": lambda im: im.point(lambda v: round(255 * (v / 255) ** 0.7)),
    "rotate-3": lambda im: im.rotate(3, resample=Image.Resampling.BILINEAR, expand=False, fillcolor=(0, 0, 0)),
    "blur": lambda im: im.filter(ImageFilter.GaussianBlur(radius=max(1.0, min(im.size) / 200))),
    "flip-horizontal": ImageOps.mirror,
    "text-overlay": text_overlay,
    "stretch-1.2": lambda im: im.resize((round(im.width * 1.2), im.height), Image.Resampling.BILINEAR),
    "grayscale": lambda im: ImageOps.grayscale(im).convert("RGB"),
}


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 1
    catalog, out = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    random.seed(0)
    images = sorted(p for p in catalog.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())
    if not images:
        print(f"make_queries: no images under {catalog}", file=sys.stderr)
        return 1
    for path in images:
        identifier = path.relative_to(catalog).with_suffix("").as_posix()
        with Image.open(path) as im:
            image = ImageOps.exif_transpose(im).convert("RGB")
        for name, transform in TRANSFORMATIONS.items():
            target = out / name / f"{identifier}.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            transform(image).save(target, "PNG")
    print(f"make_queries: {len(images)} catalog images × {len(TRANSFORMATIONS)} transformations into {out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
