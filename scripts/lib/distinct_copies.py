"""Byte-distinct copies of one JPEG, for load tests that must not be answered from the
server's kept rankings (a body sent again is answered from them).

Each copy carries its own comment segment (COM, 0xFFFE) right after the SOI marker: the
same pixels, other bytes. Writes FILE.N.jpg for N in 0..<COUNT beside FILE and prints
their paths, one a line (a BODY_LIST for scripts/lib/wrk-search.lua).

Usage: python3 scripts/lib/distinct_copies.py FILE COUNT > FILE.list
"""
import sys


def main() -> None:
    path, count = sys.argv[1], int(sys.argv[2])
    data = open(path, "rb").read()
    if data[:2] != b"\xff\xd8":
        sys.exit(f"distinct_copies: {path} is not a JPEG (no SOI marker)")
    for i in range(count):
        text = b"glimpse load copy %d" % i
        copy = f"{path}.{i}.jpg"
        with open(copy, "wb") as out:
            out.write(data[:2] + b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text + data[2:])
        print(copy)


if __name__ == "__main__":
    main()
