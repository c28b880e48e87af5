#!/usr/bin/env python3
"""Regenerates the small synthetic images of testdata/catalog-fixtures (no dependencies but
Python's zlib and libjpeg-turbo's cjpeg). Patterns differ per image so fingerprints differ."""
import math, os, struct, subprocess, zlib

def pixels(w, h, kind):
    for y in range(h):
        row = []
        for x in range(w):
            if kind == 0: r, g, b = 255 * x // (w - 1), 60, 255 * y // (h - 1)
            elif kind == 1: r, g, b = (255 if (x // 6 + y // 6) % 2 else 20), 128, 200 * y // (h - 1)
            elif kind == 2: v = int(127 + 120 * math.sin(x / 3.0) * math.cos(y / 5.0)); r, g, b = v, 255 - v, 90
            elif kind == 3: d = math.hypot(x - w / 2, y - h / 2); r, g, b = int(d * 8) % 256, 200, int(255 - d * 5) % 256
            else: v = 128; r, g, b = v, v, v
            row.append((r, g, b))
        yield row

def png(path, w, h, kind):
    raw = b"".join(b"\0" + bytes(c for p in row for c in p) for row in pixels(w, h, kind))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)

def jpeg(path, w, h, kind):
    ppm = f"P6 {w} {h} 255\n".encode() + b"".join(bytes(c for p in row for c in p) for row in pixels(w, h, kind))
    open(path, "wb").write(subprocess.run(["cjpeg", "-quality", "90"], input=ppm, capture_output=True, check=True).stdout)

here = os.path.dirname(os.path.abspath(__file__))
def out(rel): p = os.path.join(here, rel); os.makedirs(os.path.dirname(p), exist_ok=True); return p
jpeg(out("folder/europe/paris/eiffel.jpg"), 48, 32, 0)
png(out("folder/europe/colosseum.png"), 48, 32, 1)
jpeg(out("folder/asia/great-wall.jpg"), 48, 32, 2)
png(out("folder/asia/mislabelled.dat"), 24, 24, 3)
png(out("folder/top-level.png"), 40, 40, 3)
png(out("folder/.hidden/secret.png"), 16, 16, 4)
open(out("folder/europe/notes.txt"), "w").write("not an image\n")
jpeg(out("manifest/images/eiffel.jpg"), 48, 32, 0)
png(out("manifest/images/colosseum.png"), 48, 32, 1)
jpeg(out("manifest/images/great-wall.jpg"), 48, 32, 2)
open(out("manifest/images/fake.jpg"), "w").write("plain text pretending to be a JPEG\n")
