#!/usr/bin/env python3
"""Writes testdata/low-information/: images with too little detail for a search (every
view covering most of the image under PDQ quality 10), made by this script (public domain,
CC0), plus one informative control. Deterministic: the same bytes on every run.

    python3 scripts/make_low_information_images.py testdata/low-information
"""
import random
import struct
import sys
import zlib
from pathlib import Path


def png(path, width, height, pixel):
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw.extend(pixel(x, y))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "testdata/low-information")
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)
    n = 512  # large enough that the working planes average the grain away
    noise = [[rng.choice((0, 85, 170, 255)) for _ in range(n)] for _ in range(n)]
    # Fine grey-brown grain (gravel): per-pixel noise that averages out in every large view.
    png(folder / "gravel.png", n, n, lambda x, y: (90 + noise[y][x] // 4, 85 + noise[y][x] // 4, 80 + noise[y][x] // 5))
    # Faint warm grain (sand).
    png(folder / "sand.png", n, n, lambda x, y: (200 + noise[x][y] // 16, 180 + noise[x][y] // 16, 140 + noise[x][y] // 20))
    # Flat wallpapers of two colours.
    png(folder / "flat-blue.png", 320, 200, lambda x, y: (40, 80, 160))
    png(folder / "flat-green.png", 320, 200, lambda x, y: (40, 160, 80))
    # A one-pixel checkerboard.
    png(folder / "fine-checker.png", 200, 200, lambda x, y: (250, 250, 250) if (x + y) % 2 else (10, 10, 10))
    # Control: coarse diagonal bands have detail a search can match.
    png(folder / "bands.png", 240, 240, lambda x, y: (230, 200, 60) if ((x + 2 * y) // 40) % 2 else (30, 60, 120))


if __name__ == "__main__":
    main()
