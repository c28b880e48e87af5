#!/usr/bin/env python3
"""Writes hostile HEIF files for the resource-limit tests into testdata/heif/bombs/.

    python3 scripts/make-heif-bombs.py

Each file reuses the real HEVC tile of testdata/heif/photo.heic (its hvcC property and
coded data), wrapped in a hand-built meta box that declares something hostile:

- ispe-100000.heic: a single image whose ispe declares 100000x100000 pixels;
- grid-100000.heic: a grid whose ispe says 256x128 but whose grid descriptor (what libheif
  1.15 allocates from) declares 100000x100000, from one tile;
- grid-30000-one-tile.heic: a 1x1 grid declaring 30000x30000 (900 MP) from one 256x128 tile;
- grid-65025-tiles.heic: a 255x255 grid referencing the same tile 65025 times, declaring
  65280x32640 (2.1 GP of tile decoding from a 140 KB file);
- grid-uncovered.heic: a 1x1 grid declaring 2048x2048 from one 256x128 tile (libheif would
  leave the uncovered pixels uninitialised);
- grid-ok-2x2.heic: a valid 2x2 grid of the same tile, 512x256 (a control: decodes);
- grid-8000-small-tiles.heic: a 100x80 grid of one 64x64 tile (made with heif-enc from a
  crop of photo.heic's source), 6400x5120: within the pixel cap, but 8000 tile decodes.
"""
import os
import struct
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
SOURCE = os.path.join(ROOT, 'testdata/heif/photo.heic')
OUT = os.path.join(ROOT, 'testdata/heif/bombs')


def boxes(data, start, end):
    """(type, payload_start, payload_end) of the boxes in data[start:end]."""
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack('>I4s', data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack('>Q', data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        yield kind.decode('latin1'), at + header, at + size
        at += size


def box(kind, payload):
    return struct.pack('>I4s', 8 + len(payload), kind.encode('latin1')) + payload


def full(kind, version, flags, payload):
    return box(kind, struct.pack('>I', (version << 24) | flags) + payload)


def source_tile():
    """The hvcC property box and the coded data of item 1 of photo.heic."""
    data = open(SOURCE, 'rb').read()
    meta = next((s, e) for k, s, e in boxes(data, 0, len(data)) if k == 'meta')
    hvcc = coded = None
    for kind, s, e in boxes(data, meta[0] + 4, meta[1]):
        if kind == 'iprp':
            for k2, s2, e2 in boxes(data, s, e):
                if k2 == 'ipco':
                    for k3, s3, e3 in boxes(data, s2, e2):
                        if k3 == 'hvcC':
                            hvcc = data[s3 - 8:e3]
        if kind == 'iloc':
            # version 0, offset/length/base sizes from the header; one item, one extent.
            sizes, sizes2, count = data[s + 4], data[s + 5], struct.unpack('>H', data[s + 6:s + 8])[0]
            assert count == 1 and sizes == 0x44 and (sizes2 >> 4) in (0, 4)
            p = s + 8 + 2 + 2
            base = 0
            if sizes2 >> 4 == 4:
                base = struct.unpack('>I', data[p:p + 4])[0]
                p += 4
            p += 2  # extent count (1)
            offset, length = struct.unpack('>II', data[p:p + 8])
            coded = data[base + offset:base + offset + length]
    assert hvcc is not None and coded is not None
    return hvcc, coded


def heif_grid(hvcc, coded, ispe_size, grid_size, rows, columns, references, tile_size=(256, 128)):
    """A HEIF whose primary item 1 is a grid of `references` refs to the hvc1 item 2."""
    wide = grid_size[0] > 0xFFFF or grid_size[1] > 0xFFFF
    descriptor = struct.pack('>BBBB', 0, 1 if wide else 0, rows - 1, columns - 1)
    descriptor += struct.pack('>II' if wide else '>HH', *grid_size)
    ftyp = box('ftyp', b'heic' + struct.pack('>I', 0) + b'mif1heicmiaf')
    hdlr = full('hdlr', 0, 0, struct.pack('>I', 0) + b'pict' + b'\0' * 12 + b'\0')
    pitm = full('pitm', 0, 0, struct.pack('>H', 1))
    infe_grid = full('infe', 2, 0, struct.pack('>HH', 1, 0) + b'grid' + b'\0')
    infe_tile = full('infe', 2, 1, struct.pack('>HH', 2, 0) + b'hvc1' + b'\0')
    iinf = full('iinf', 0, 0, struct.pack('>H', 2) + infe_grid + infe_tile)
    dimg = box('dimg', struct.pack('>HH', 1, len(references)) + b''.join(struct.pack('>H', r) for r in references))
    iref = full('iref', 0, 0, dimg)
    ispe_tile = full('ispe', 0, 0, struct.pack('>II', *tile_size))
    ispe_grid = full('ispe', 0, 0, struct.pack('>II', *ispe_size))
    ipco = box('ipco', hvcc + ispe_tile + ispe_grid)
    # item 1 (grid): property 3 (ispe); item 2 (tile): properties 1 (hvcC, essential) and 2 (ispe).
    ipma = full('ipma', 0, 0, struct.pack('>I', 2) + struct.pack('>HB', 1, 1) + bytes([3])
                + struct.pack('>HB', 2, 2) + bytes([0x81, 2]))
    iprp = box('iprp', ipco + ipma)
    idat = box('idat', descriptor)

    def iloc(mdat_offset):
        # version 1: item 1 from idat (construction method 1), item 2 from the file.
        entries = struct.pack('>HHH', 1, 1, 0) + struct.pack('>H', 1) + struct.pack('>II', 0, len(descriptor))
        entries += struct.pack('>HHH', 2, 0, 0) + struct.pack('>H', 1) + struct.pack('>II', mdat_offset, len(coded))
        return full('iloc', 1, 0, bytes([0x44, 0x00]) + struct.pack('>H', 2) + entries)

    def meta(mdat_offset):
        return full('meta', 0, 0, hdlr + pitm + iloc(mdat_offset) + iinf + iref + iprp + idat)

    head = ftyp + meta(0)
    mdat_offset = len(head) + 8
    return ftyp + meta(mdat_offset) + box('mdat', coded)


def heif_single(hvcc, coded, ispe_size):
    """A HEIF whose primary item 1 is the hvc1 tile, with a hostile ispe."""
    ftyp = box('ftyp', b'heic' + struct.pack('>I', 0) + b'mif1heicmiaf')
    hdlr = full('hdlr', 0, 0, struct.pack('>I', 0) + b'pict' + b'\0' * 12 + b'\0')
    pitm = full('pitm', 0, 0, struct.pack('>H', 1))
    iinf = full('iinf', 0, 0, struct.pack('>H', 1) + full('infe', 2, 0, struct.pack('>HH', 1, 0) + b'hvc1' + b'\0'))
    ipco = box('ipco', hvcc + full('ispe', 0, 0, struct.pack('>II', *ispe_size)))
    ipma = full('ipma', 0, 0, struct.pack('>I', 1) + struct.pack('>HB', 1, 2) + bytes([0x81, 2]))
    iprp = box('iprp', ipco + ipma)

    def meta(mdat_offset):
        iloc = full('iloc', 0, 0, bytes([0x44, 0x00]) + struct.pack('>H', 1)
                    + struct.pack('>HH', 1, 0) + struct.pack('>H', 1) + struct.pack('>II', mdat_offset, len(coded)))
        return full('meta', 0, 0, hdlr + pitm + iloc + iinf + iprp)

    head = ftyp + meta(0)
    return ftyp + meta(len(head) + 8) + box('mdat', coded)


def main():
    os.makedirs(OUT, exist_ok=True)
    hvcc, coded = source_tile()
    files = {
        'ispe-100000.heic': heif_single(hvcc, coded, (100000, 100000)),
        'grid-100000.heic': heif_grid(hvcc, coded, (256, 128), (100000, 100000), 1, 1, [2]),
        'grid-30000-one-tile.heic': heif_grid(hvcc, coded, (30000, 30000), (30000, 30000), 1, 1, [2]),
        'grid-65025-tiles.heic': heif_grid(hvcc, coded, (65280, 32640), (65280, 32640), 255, 255, [2] * 65025),
        'grid-uncovered.heic': heif_grid(hvcc, coded, (2048, 2048), (2048, 2048), 1, 1, [2]),
        'grid-ok-2x2.heic': heif_grid(hvcc, coded, (512, 256), (512, 256), 2, 2, [2] * 4),
    }
    # A 64x64 tile: heif-enc of a 64x64 PNG cut from the 256x128 reference decode.
    import subprocess, tempfile, zlib
    with tempfile.TemporaryDirectory() as work:
        png = open(os.path.join(ROOT, 'testdata/heif/photo.heif-convert.png'), 'rb').read()
        # Decode just enough of the PNG: it is 8-bit RGB, non-interlaced (heif-convert's output).
        at, idat, width = 8, b'', 0
        while at < len(png):
            n, kind = struct.unpack('>I4s', png[at:at + 8])
            body = png[at + 8:at + 8 + n]
            if kind == b'IHDR':
                width, height, depth, colour = struct.unpack('>IIBB', body[:10])
                assert depth == 8 and colour == 2
            if kind == b'IDAT':
                idat += body
            at += 12 + n
        raw = zlib.decompress(idat)
        stride = width * 3
        rows, previous = [], bytearray(stride)
        for y in range(64):
            line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
            f, cur = line[0], bytearray(line[1:])
            for i in range(stride):
                a = cur[i - 3] if i >= 3 else 0
                b = previous[i]
                c = previous[i - 3] if i >= 3 else 0
                if f == 1: cur[i] = (cur[i] + a) & 255
                elif f == 2: cur[i] = (cur[i] + b) & 255
                elif f == 3: cur[i] = (cur[i] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(b'\0' + bytes(cur[:64 * 3]))
            previous = cur
        def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
        small = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 64, 64, 8, 2, 0, 0, 0)) \
            + chunk(b'IDAT', zlib.compress(b''.join(rows))) + chunk(b'IEND', b'')
        open(os.path.join(work, 'tile.png'), 'wb').write(small)
        subprocess.run(['heif-enc', '-q', '30', os.path.join(work, 'tile.png'), '-o', os.path.join(work, 'tile.heic')],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        global SOURCE
        SOURCE = os.path.join(work, 'tile.heic')
        small_hvcc, small_coded = source_tile()
    files['grid-8000-small-tiles.heic'] = heif_grid(small_hvcc, small_coded, (6400, 5120), (6400, 5120), 80, 100,
                                                    [2] * 8000, tile_size=(64, 64))
    for name, data in files.items():
        with open(os.path.join(OUT, name), 'wb') as f:
            f.write(data)
    print(f'wrote {len(files)} files to {OUT}', file=sys.stderr)


if __name__ == '__main__':
    main()
