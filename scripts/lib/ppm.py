"""Binary PPM (P6) files as djpeg and dwebp write them, for the benchmark scripts that cut or
extend photos without an imaging library (imported, never run)."""


def read_ppm(data):
    """(width, height, offset of the first pixel byte) of P6 `data`: the header is P6, width,
    height and maxval separated by whitespace, then one whitespace byte; RGB, 3 bytes per pixel."""
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"not an 8-bit RGB PPM (header {fields!r})")
    return int(fields[1]), int(fields[2]), pos + 1


def ppm_bytes(width, height, pixels):
    """A P6 file of `pixels` (width × height × 3 bytes, rows top to bottom)."""
    return b"P6\n%d %d\n255\n" % (width, height) + pixels
