#!/usr/bin/env python3
"""Builds the hard-negative evaluation set (see scripts/make-hard-negatives.sh).

Template families (none of them is in the catalog, so every image is a negative for
testdata/catalog; they are pictures unlike photos, many alike among themselves):
- portraits: Wesnoth unit portraits (one artistic style), flattened on one parchment colour;
- sprites: Wesnoth unit sprites (base frame of each unit), on one dark background, 4x upscaled;
- textures: Wesnoth terrain tiles, the opaque middle strip of a hex tiled 8x4, and each
  negative texture also with a grid drawn over it;
- labels: storage-box labels from one template (border, header, code, bar code, footer);
  negatives come in groups of three whose codes differ by one glyph.
Deterministic: sorted inputs, choices from a seeded random.Random.
"""
import argparse
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ACTIONS = ("attack", "defend", "die", "idle", "melee", "ranged", "magic", "bob", "fly", "moving", "dying",
           "death", "leading", "healing", "breath", "lightning", "shock", "fire", "cold", "arcane", "sword",
           "bow", "spear", "staff", "axe", "mace", "sling", "blade", "swoop", "kick", "bite", "claw")
DIRECTIONS = ("-n", "-ne", "-nw", "-s", "-se", "-sw", "-e", "-w")


def flatten(img, colour):
    img = img.convert("RGBA")
    back = Image.new("RGBA", img.size, colour + (255,))
    back.alpha_composite(img)
    return back.convert("RGB")


def portraits(root):
    return sorted(p for p in (root / "data/core/images/portraits").rglob("*.png") if "transparent" not in p.parts)


def sprites(root):
    out = []
    for p in sorted((root / "data/core/images/units").rglob("*.png")):
        stem = p.stem
        if any(a in stem for a in ACTIONS) or stem[-1:].isdigit() or "+" in stem or "-" in stem:
            continue
        out.append(p)
    return out


def tiles(root):
    out = []
    for p in sorted((root / "data/core/images/terrain").rglob("*.png")):
        stem = p.stem
        if stem.endswith(DIRECTIONS) or "-" in stem or "transition" in str(p) or "embellishments" in p.parts:
            continue
        with Image.open(p) as img:
            if img.size != (72, 72):
                continue
            strip = img.convert("RGBA").crop((18, 0, 54, 72))
            if strip.getchannel("A").getextrema()[0] < 255:
                continue
            out.append((p, strip.convert("RGB")))
    return out


def texture(strip, grid):
    img = Image.new("RGB", (288, 288))
    for y in range(4):
        for x in range(8):
            img.paste(strip, (x * 36, y * 72))
    if grid:
        draw = ImageDraw.Draw(img)
        for k in range(0, 288, 36):
            draw.line([(k, 0), (k, 287)], fill=(20, 20, 20), width=1)
            draw.line([(0, k), (287, k)], fill=(20, 20, 20), width=1)
    return img


ALPHABET = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


def label(code, font_path):
    img = Image.new("RGB", (480, 280), (250, 248, 240))
    draw = ImageDraw.Draw(img)
    draw.rectangle([4, 4, 475, 275], outline=(20, 20, 20), width=6)
    draw.rectangle([10, 10, 469, 58], fill=(20, 20, 20))
    small = ImageFont.truetype(font_path, 26)
    big = ImageFont.truetype(font_path, 64)
    tiny = ImageFont.truetype(font_path, 18)
    draw.text((24, 18), "GLIMPSE STORAGE", font=small, fill=(250, 248, 240))
    draw.text((28, 78), code, font=big, fill=(20, 20, 20))
    # A bar code drawn from the code's characters: widths 1-4 px per bar.
    x = 28
    for ch in code.replace("-", ""):
        v = ALPHABET.index(ch) if ch in ALPHABET else 7
        for bit in range(4):
            w = 1 + ((v >> bit) & 1) + ((v >> (bit + 1)) & 1)
            draw.rectangle([x, 170, x + w - 1, 230], fill=(20, 20, 20))
            x += w + 2
    draw.text((28, 240), "FRAGILE - THIS SIDE UP", font=tiny, fill=(20, 20, 20))
    return img


def random_code(rng):
    return "".join(rng.choice(ALPHABET[:23]) for _ in range(2)) + "-" + "".join(rng.choice(ALPHABET[23:]) for _ in range(4))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wesnoth", required=True)
    ap.add_argument("--font", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    root, out = Path(a.wesnoth), Path(a.out)
    neg = out
    rng = random.Random(12)

    def save(img, folder, name):
        folder.mkdir(parents=True, exist_ok=True)
        img.save(folder / (name + ".png"), optimize=False)

    ps = portraits(root)
    rng.shuffle(ps)
    for i, p in enumerate(ps):
        with Image.open(p) as img:
            flat = flatten(img, (222, 205, 170))
        name = "-".join(p.relative_to(root / "data/core/images/portraits").with_suffix("").parts)
        save(flat, neg / "portraits", name)

    ss = sprites(root)
    rng.shuffle(ss)
    for i, p in enumerate(ss[:250]):
        with Image.open(p) as img:
            flat = flatten(img, (38, 42, 48)).resize((288, 288), Image.NEAREST)
        name = "-".join(p.relative_to(root / "data/core/images/units").with_suffix("").parts)
        save(flat, neg / "sprites", name)

    ts = tiles(root)
    rng.shuffle(ts)
    for i, (p, strip) in enumerate(ts):
        name = "-".join(p.relative_to(root / "data/core/images/terrain").with_suffix("").parts)
        save(texture(strip, False), neg / "textures", name)
        save(texture(strip, True), neg / "textures-grid", name)

    codes = set()
    for g in range(100):
        base = random_code(rng)
        group = [base]
        while len(group) < 3:
            k = rng.choice([0, 1, 3, 4, 5, 6])
            pool = ALPHABET[:23] if k < 2 else ALPHABET[23:]
            variant = base[:k] + rng.choice(pool) + base[k + 1:]
            if variant not in group and variant not in codes:
                group.append(variant)
        for code in group:
            if code in codes:
                continue
            save(label(code, a.font), neg / "labels", code)


if __name__ == "__main__":
    main()
