#!/usr/bin/env python3
"""Reference PDQ hashes for the photos under testdata/{catalog,negatives,samples}, from Meta's C++ PDQ through the
`pdqhash` PyPI package, written to testdata/pdq/reference.tsv so that the Swift tests
check conformance without Python.

Pixels are decoded the way Glimpse's decoder does: JPEG with libjpeg-turbo's `djpeg`
(ISLOW IDCT, fancy upsampling; the same library Glimpse links), PNG with Pillow (8-bit
samples, alpha dropped). Grey images are expanded to three equal channels, which is what
`pdqhash.compute` expects.

Setup (once):  python3 -m venv .venv-pdq && .venv-pdq/bin/pip install pdqhash numpy pillow
Run:           .venv-pdq/bin/python scripts/pdq-reference.py > testdata/pdq/reference.tsv

Columns: path (relative to testdata/), width, height, quality, then the PDQ hex of the
original and of the seven dihedral variants in PDQ's order (rotate90, rotate180,
rotate270, flipX, flipY, flipPlus1, flipMinus1).
"""
import io
import pathlib
import subprocess
import sys

import numpy as np
import pdqhash
from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parent.parent / "testdata"


def decode(path: pathlib.Path) -> np.ndarray:
    if path.suffix.lower() in (".jpg", ".jpeg"):
        pnm = subprocess.run(["djpeg", "-pnm", str(path)], check=True, capture_output=True).stdout
        image = Image.open(io.BytesIO(pnm))
    else:
        image = Image.open(path)
        image.load()
    return np.asarray(image.convert("RGB"), dtype=np.uint8)


def to_hex(bits: np.ndarray) -> str:
    # pdqhash returns bit 255 first; PDQ's hex is most significant bit first too.
    return "".join(f"{int(''.join(str(b) for b in bits[i:i + 4]), 2):x}" for i in range(0, 256, 4))


def main() -> None:
    print("path\twidth\theight\tquality\tpdq\trotate90\trotate180\trotate270\tflipX\tflipY\tflipPlus1\tflipMinus1")
    images = sorted(p for folder in ("catalog", "negatives", "samples") for p in (ROOT / folder).rglob("*")
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    for path in images:
        pixels = decode(path)
        hashes, quality = pdqhash.compute_dihedral(pixels)
        height, width = pixels.shape[:2]
        rel = path.relative_to(ROOT).as_posix()
        print("\t".join([rel, str(width), str(height), str(quality)] + [to_hex(h) for h in hashes]))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
